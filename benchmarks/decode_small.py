"""Per-call decode time of mojifix.whatwg's CJK decoders vs the nearest CPython codec, on short inputs.

What a caller that decodes one web page, one small file or one detector candidate per call pays:
for each CJK encoding, realistic valid text (the decode benchmark's wordfreq text, cut at a character
boundary) of about 60 B, 1 KB and 36 KB (``--sizes``) is decoded per call by

* ``enc.decode(data)``: mojifix with an ``Encoding`` at hand (``errors="replace"``, ``bom="sniff"``),
* ``strict``: the same with ``errors="strict"``,
* ``lookup+decode``: ``lookup(name).decode(data)``, the label looked up on every call,
* CPython: ``data.decode(codec, "replace")``, what e.g. bs4 calls.

Times are CPU time per call (``time.process_time`` over a batch of calls sized to about 20 ms), best of
``--repeat`` rounds, the contenders interleaved within each round so that load changes on the shared
machine hit all of them alike. Ratios are mojifix's time over CPython's: lower is better, 1.00 = same.

Usage: python benchmarks/decode_small.py [--sizes 60 1000 36000] [--repeat 9] [--only NAME ...]

Targets (per-call overhead brief): within about 2x of CPython at 60 B, within 1.1x at 36 KB.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import endec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decode import CASES, realistic_bytes

from mojifix.whatwg import Encoding, lookup

#: The CJK rows of the decode benchmark: (WHATWG name, wordfreq language, CPython codec, joiner).
CJK_CASES = [case for case in CASES if case[0] not in ("UTF-8", "windows-1252", "windows-1251")]
#: CPU time each timed batch of calls should take: long enough for ``process_time``'s resolution
#: (1 ms or better here) to be below 5%, short enough for 9 rounds x 4 contenders to stay quick.
BATCH_SECONDS = 0.02
#: Megabytes of text built per encoding, from which the inputs are cut (enough for the largest size).
SOURCE_MB = 0.05


def cut(encoding: Encoding, text: str, size: int) -> bytes:
    """The longest prefix of ``text`` whose encoding is at most ``size`` bytes, encoded (binary search)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if len(encoding.encode(text[:mid])) <= size:
            lo = mid
        else:
            hi = mid - 1
    return encoding.encode(text[:lo])


def batch_size(fn: Callable[[], object]) -> int:
    """How many calls of ``fn`` take about ``BATCH_SECONDS`` of CPU time."""
    calls = 1
    while True:
        start = time.process_time()
        for _ in range(calls):
            fn()
        elapsed = time.process_time() - start
        if elapsed >= BATCH_SECONDS / 4:
            return max(1, int(calls * BATCH_SECONDS / elapsed))
        calls *= 4


def best_per_call(fns: list[Callable[[], object]], repeat: int) -> list[float]:
    """Best per-call CPU time (seconds) of each function over ``repeat`` interleaved rounds."""
    calls = [batch_size(fn) for fn in fns]
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            n = calls[i]
            start = time.process_time()
            for _ in range(n):
                fn()
            best[i] = min(best[i], (time.process_time() - start) / n)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=int, nargs="*", default=[60, 1000, 36000], help="input sizes in bytes"
    )
    parser.add_argument("--repeat", type=int, default=9, help="timed rounds; the best counts")
    parser.add_argument("--only", nargs="*", help="WHATWG names to run (default: every CJK encoding)")
    args = parser.parse_args()

    header = (
        f"{'encoding':<12} {'bytes':>7} {'mojifix':>9} {'strict':>9} {'lookup+':>9} {'CPython':>9}"
        f" {'vs CPython':>10} {'strict':>7} {'lookup+':>8}"
    )
    print(header)
    print("-" * len(header))
    for name, language, codec, joiner in CJK_CASES:
        if args.only and name not in args.only:
            continue
        encoding = lookup(name)
        assert encoding is not None
        source = encoding.decode(
            realistic_bytes(name, language, joiner, max(SOURCE_MB, max(args.sizes) / 1e6))
        )
        for size in args.sizes:
            data = cut(encoding, source, size)
            label = encoding.labels[0]
            if encoding.decode(data, "strict") != endec.decode(data, label, "replace"):
                print(f"{name} {len(data)}: WARNING: mojifix and endec (encoding_rs) disagree")
            times = best_per_call(
                [
                    partial(encoding.decode, data),
                    partial(encoding.decode, data, "strict"),
                    lambda label=label, data=data: lookup(label).decode(data),  # type: ignore[union-attr]
                    partial(data.decode, codec, "replace"),
                ],
                args.repeat,
            )
            ours, strict, looked_up, cpython = (t * 1e6 for t in times)
            print(
                f"{name:<12} {len(data):>7} {ours:>7.2f}us {strict:>7.2f}us {looked_up:>7.2f}us"
                f" {cpython:>7.2f}us {ours / cpython:>9.2f}x {strict / cpython:>6.2f}x"
                f" {looked_up / cpython:>7.2f}x"
            )
    print(f"(CPU time per call, best of {args.repeat} interleaved rounds; ratios are mojifix / CPython,")
    print(" lower is better; 'lookup+' looks the label up on every call)")


if __name__ == "__main__":
    main()
