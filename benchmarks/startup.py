"""Start-up cost of mojifix's commands next to plain scripts doing the same job, whole processes, one run.

Each command runs on the smallest input of its kind (one short file, one page, a WARC of a few records,
a one-file tree), so what is measured is almost all start-up: the interpreter, imports, the detector's
model and tables. Every command runs ``--repeat`` times, interleaved with its peer (so a change of load
on the shared machine falls on both alike), and the median wall-clock and CPU (user + system) times
are printed with the ratio peer / mojifix (above 1: mojifix starts faster).

  detect   ``mojifix detect FILE``              vs chardet 7.7's ``chardet.detect`` of the file
  sniff    ``mojifix sniff PAGE``               vs w3lib's ``html_to_unicode`` of the page
  warc     ``mojifix warc -q IN -o OUT.jsonl``  vs benchmarks/warc.py's plain script (FastWARC + w3lib)
  convert  ``mojifix convert TREE OUT``         vs the five-level pipeline of benchmarks/five_level.py

    python benchmarks/startup.py [--repeat 11] [--against /path/to/other/.venv/bin/mojifix]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from warc import build_command_warc, compile_mojifix_bytecode, plain_script

#: records of the tiny WARC: one page's request, response and metadata, ten times (chosen by hand: enough
#: to pass through every stage of the reader and decoder, few enough that start-up dominates)
TINY_WARC_RECORDS = 30

PLAIN_DETECT = "import sys, chardet; print(chardet.detect(open(sys.argv[1], 'rb').read()))"
PLAIN_SNIFF = (
    "import sys; from w3lib.encoding import html_to_unicode; "
    "print(html_to_unicode('text/html', open(sys.argv[1], 'rb').read())[0])"
)
PLAIN_CONVERT = """
import sys
from pathlib import Path
sys.path.insert(0, BENCHMARKS)
from five_level import five_level
src, dst = Path(sys.argv[1]), Path(sys.argv[2])
for path in sorted(p for p in src.rglob("*") if p.is_file()):
    status, text = five_level(path.read_bytes())
    if text is not None:
        out = dst / path.relative_to(src)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
"""


def run_once(argv: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one whole command (exit status 0 or 1 accepted); an output tree
    named ``out-*`` in its arguments is removed first (convert refuses to write into a used one)."""
    for arg in argv:
        if Path(arg).name.startswith("out-"):
            shutil.rmtree(arg, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode > 1:
        raise subprocess.CalledProcessError(done.returncode, argv)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def make_inputs(tmp: Path, cli: str) -> dict[str, tuple[list[str], list[str]]]:
    """job -> (argv of ``cli``, the peer's argv), over small inputs written into ``tmp``."""
    here = Path(__file__).resolve().parent
    note = tmp / "note.txt"
    note.write_bytes(
        "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë.".encode("cp1252")
    )
    page = tmp / "page.html"
    page.write_bytes('<meta charset="shift_jis"><p>文字化けしない</p>'.encode("shift_jis"))
    warc = tmp / "tiny.warc.gz"
    build_command_warc(warc, TINY_WARC_RECORDS, 0.93, seed=13)
    (tmp / "plain_warc.py").write_text(plain_script("w3lib"), encoding="utf-8")
    (tmp / "plain_convert.py").write_text(
        PLAIN_CONVERT.replace("BENCHMARKS", repr(str(here))), encoding="utf-8"
    )
    tree = tmp / "tree"
    tree.mkdir(exist_ok=True)
    (tree / "note.txt").write_bytes(note.read_bytes())
    py = sys.executable
    return {
        "detect": ([cli, "detect", str(note)], [py, "-c", PLAIN_DETECT, str(note)]),
        "sniff": ([cli, "sniff", str(page)], [py, "-c", PLAIN_SNIFF, str(page)]),
        "warc": (
            [cli, "warc", "-q", str(warc), "-o", str(tmp / "m.jsonl")],
            [py, str(tmp / "plain_warc.py"), str(warc), str(tmp / "p.jsonl")],
        ),
        "convert": (
            [cli, "convert", str(tree), str(tmp / "out-m")],
            [py, str(tmp / "plain_convert.py"), str(tree), str(tmp / "out-p")],
        ),
    }


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds of ``runs``."""
    wall, cpu = zip(*runs, strict=True)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def _row(label: str, ours: list[tuple[float, float]], peer: list[tuple[float, float]]) -> str:
    """One line of the table: medians of both and the peer / mojifix ratios."""
    (ow, oc), (pw, pc) = _medians(ours), _medians(peer)
    return f"{label:<9} {ow:>12.0f} {oc:>6.0f} {pw:>10.0f} {pc:>6.0f} {pw / ow:>5.2f}x {pc / oc:>8.2f}x"


def main() -> None:
    """Print the table of medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11, help="runs of each command (median reported)")
    parser.add_argument("--only", choices=("detect", "sniff", "warc", "convert"), action="append")
    parser.add_argument(
        "--against",
        metavar="MOJIFIX",
        help="another mojifix executable (say, main's) run interleaved with this one: A/B in one run",
    )
    args = parser.parse_args()
    compile_mojifix_bytecode()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        jobs = make_inputs(tmp, str(Path(sys.executable).with_name("mojifix")))
        other = make_inputs(tmp, args.against) if args.against else {}
        floor = [sys.executable, "-c", "pass"]
        numpy = [sys.executable, "-c", "import numpy"]
        print(f"whole processes, median of {args.repeat} runs (ms); ratio = peer / mojifix")
        head = f"{'job':<9} {'mojifix wall':>12} {'cpu':>6} {'peer wall':>10} {'cpu':>6}"
        print(f"{head} {'ratio':>6} {'cpu ratio':>9}")
        for job, (ours, peer) in jobs.items():
            if args.only and job not in args.only:
                continue
            times: dict[str, list[tuple[float, float]]] = {"ours": [], "peer": [], "other": []}
            for _ in range(args.repeat):
                times["ours"].append(run_once(ours))
                times["peer"].append(run_once(peer))
                if job in other:
                    times["other"].append(run_once(other[job][0]))
            print(_row(job, times["ours"], times["peer"]))
            if times["other"]:
                print(_row("  against", times["other"], times["peer"]))
        for name, argv in (("python -c pass", floor), ("import numpy", numpy)):
            wall, cpu = _medians([run_once(argv) for _ in range(args.repeat)])
            print(f"{name:<22} {wall:>6.0f} {cpu:>6.0f}   (for reference)")


if __name__ == "__main__":
    main()
