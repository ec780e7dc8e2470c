"""Large input: time and peak memory of streaming detection, mojifix vs chardet 7, in one run.

Issue 4 asks for linear time and bounded memory (< 200 MB RSS) on a 1 GB input. Each detector runs in
its own fresh subprocess (so that one's peak RSS does not hide in the other's) over the same generated
text: windows-1252 French sentences (the project's own corpus generator, mojifix.convert.corpus), fed
in 1 MiB pieces to the streaming form (``mojifix.detect.Detector().feed(...).close()``, chardet's
``UniversalDetector``), never held in memory as a whole. Prints seconds, MB/s, peak RSS and the answer
of each, and the ratio.

    python benchmarks/detect_large.py              # 1 GiB
    python benchmarks/detect_large.py --mib 256    # smaller
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

_CHILD = r"""
import json, random, resource, sys, time
sys.path.insert(0, {src!r})
from mojifix.convert.corpus import make_text

which, mib = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
block = make_text(rng, "fr", 1 << 20, "cp1252").encode("cp1252")
piece = (block * ((1 << 20) // len(block) + 1))[: 1 << 20]
if which == "mojifix":
    from mojifix.detect import Detector
    det = Detector()
    feed = det.feed
else:
    from chardet.universaldetector import UniversalDetector
    det = UniversalDetector()
    feed = det.feed
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
for _ in range(mib):
    feed(piece)
    if which == "chardet" and det.done:
        break
result = det.close()
wall = time.perf_counter() - t0
answer = result.best().encoding if which == "mojifix" else result.get("encoding")
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"wall": wall, "base_kb": base, "peak_kb": peak, "answer": answer}}))
"""


def run(which: str, mib: int) -> dict[str, float | str]:
    code = _CHILD.format(src=str(REPO / "src"))
    out = subprocess.run(
        [sys.executable, "-c", code, which, str(mib)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mib", type=int, default=1024, help="input size in MiB (default 1024 = 1 GiB)")
    args = ap.parse_args(argv)
    print(f"streaming {args.mib} MiB of windows-1252 text in 1 MiB pieces, one fresh process per detector")
    print(f"{'detector':10} {'seconds':>9} {'MB/s':>9} {'peak RSS MB':>12} {'growth MB':>10}  answer")
    rows = {}
    t_all = time.perf_counter()
    for which in ("mojifix", "chardet"):
        r = rows[which] = run(which, args.mib)
        mb = args.mib * (1 << 20) / 1e6
        print(
            f"{which:10} {r['wall']:9.2f} {mb / float(r['wall']):9.1f} {float(r['peak_kb']) / 1024:12.1f} "
            f"{(float(r['peak_kb']) - float(r['base_kb'])) / 1024:10.1f}  {r['answer']}"
        )
    ratio = float(rows["chardet"]["wall"]) / float(rows["mojifix"]["wall"])
    total = time.perf_counter() - t_all
    print(f"mojifix throughput / chardet throughput: {ratio:.2f}x (total {total:.0f} s)")
    print("note: chardet's UniversalDetector may stop early once confident (it reads only what it needs);")
    print("mojifix validates every byte of the input for the winner, as the issue requires")
    return 0


if __name__ == "__main__":
    sys.exit(main())
