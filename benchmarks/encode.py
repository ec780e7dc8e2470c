"""Encode throughput: mojifix.whatwg vs the nearest CPython codec vs endec (encoding_rs), in one run.

Uses the same realistic text as ``benchmarks/decode.py`` (wordfreq words, fixed seed), decoded once, then
encodes that text with all three (interleaved, best of ``--repeat``) and prints MB/s of output and the
ratios. Encoder speed bounds ``mojifix convert``, which proves every conversion by re-encoding.

Usage: python benchmarks/encode.py [--mb 1.0] [--repeat 7] [--only NAME ...]

No target in the issue; the decoders' target (>= 0.8x CPython) is the yardstick used in docs/whatwg.md.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

import endec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decode import CASES, best_mb_per_s, print_header, print_row, realistic_bytes

from mojifix.whatwg import lookup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0, help="megabytes of text per encoding (default 1)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per encoder; the best counts")
    parser.add_argument("--only", nargs="*", help="WHATWG names to run (default: all)")
    args = parser.parse_args()

    print_header()
    for name, language, python_codec, joiner in CASES:
        if args.only and name not in args.only:
            continue
        encoding = lookup(name)
        data = realistic_bytes(name, language, joiner, args.mb)
        text = encoding.decode(data)
        label = encoding.labels[0]
        ours = encoding.encode(text)
        if ours != data:
            print(f"{name}: WARNING: mojifix's encoder does not give back the benchmark bytes")
        if endec.encode(text, label) != ours:
            print(f"{name}: note: endec's output differs from mojifix's (e.g. UTF-16 or ISO-2022-JP state)")
        mojifix_speed, cpython_speed, endec_speed = best_mb_per_s(
            [
                partial(encoding.encode, text),
                partial(text.encode, python_codec, "replace"),  # CPython may lack a few characters
                partial(endec.encode, text, label),
            ],
            len(data),
            args.repeat,
        )
        print_row(name, len(data), mojifix_speed, cpython_speed, endec_speed)
    print("(MB/s of encoded output, best of", args.repeat, "interleaved runs; ratios are mojifix / peer)")


if __name__ == "__main__":
    main()
