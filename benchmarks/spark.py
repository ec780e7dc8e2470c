"""Spark scaling and overhead: ``mojifix spark warc|convert`` on local[1] and local[2] vs the local commands.

Generates its inputs (WARC files from benchmarks/warc.py's page generator; a legacy tree from
mojifix.convert.corpus), then runs, each as a whole process and in one run:

  local      ``mojifix warc FILES -o OUT.parquet`` / ``mojifix convert SRC DST`` (one core)
  spark[1]   ``mojifix spark warc|convert ... --master local[1]`` (one core: the per-record cost)
  spark[2]   the same with ``--master local[2]`` (two cores: the scaling)
  jvm        a process that starts a local[1] SparkSession, runs one trivial job and stops (start-up)
  tiny       local and spark[1] again on a tiny input (one small file / a few files): their fixed
             costs, so that the marginal cost per record, (T_big - T_tiny) / (N_big - N_tiny), can be
             compared even on a machine too busy for the start-up to fall under 10%

and prints wall times, records (or files) per second and the ratios the issue sets goals for:
spark[2] / spark[1] throughput (goal >= 1.7x on 2 cores) and spark[1] / local per-record cost (goal
<= 1.5x), with the JVM start-up's share of the spark[1] run (it should be under 10%: raise --pages
or --files-per-encoding until it is). Conversions run with --no-fsync (all three alike) so that
other processes' disk traffic does not decide the comparison.

    python benchmarks/spark.py [--warcs 16] [--pages 8000] [--files-per-encoding 1500] [--only warc|convert]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from warc import build_warc  # noqa: E402 (benchmarks/warc.py's generator)

from mojifix.convert.corpus import generate  # noqa: E402

MOJIFIX = [sys.executable, "-c", "import sys; from mojifix.cli import main; sys.exit(main(sys.argv[1:]))"]
_JVM_ONLY = (
    "from mojifix.spark._session import open_session; s = open_session('local[1]', 'jvm start-up'); "
    "s.spark.range(1).count(); s.close()"
)


def timed(argv: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one whole process; fails loudly when it fails (exit 0 or 1 are both results)."""
    started = time.perf_counter()
    run = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if run.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv[:6])}... failed ({run.returncode}):\n{run.stderr[-3000:]}")
    return elapsed


def report(
    job: str, unit: str, count: int, times: dict[str, float], jvm: float, tiny: tuple[int, dict[str, float]]
) -> None:
    print(f"\n{job}: {count:,} {unit}")
    for name, seconds in times.items():
        print(f"  {name:9} {seconds:8.2f} s  {count / seconds:10,.0f} {unit}/s")
    scaling = times["spark[1]"] / times["spark[2]"]
    overhead = times["spark[1]"] / times["local"]
    print(
        f"  JVM start-up {jvm:.2f} s = {100 * jvm / times['spark[1]']:.1f}% of the spark[1] run "
        "(should be < 10%)"
    )
    print(f"  scaling   spark[2] / spark[1] throughput: {scaling:.2f}x  (goal >= 1.7x)")
    print(f"  overhead  spark[1] / local per {unit[:-1]}:     {overhead:.2f}x  (goal <= 1.5x)")
    without = (times["spark[1]"] - jvm) / times["local"]
    print(f"            the same without the JVM start-up:  {without:.2f}x")
    small, fixed = tiny
    marginal = {name: (times[name] - fixed[name]) / (count - small) * 1e3 for name in fixed}
    print(
        f"  fixed cost (a run on {small} {unit}): local {fixed['local']:.2f} s, "
        f"spark[1] {fixed['spark[1]']:.2f} s;\n  marginal cost: local {marginal['local']:.3f} ms, "
        f"spark[1] {marginal['spark[1]']:.3f} ms per {unit[:-1]} "
        f"= {marginal['spark[1]'] / marginal['local']:.2f}x"
    )


#: pages of the tiny WARC, files per encoding of the tiny tree (the fixed-cost runs)
TINY_PAGES = 50
TINY_FILES_PER_ENCODING = 5


def _warc_times(
    inputs: list[str], work: Path, masters: tuple[int, ...], env: dict[str, str]
) -> dict[str, float]:
    times = {"local": timed([*MOJIFIX, "warc", *inputs, "-o", str(work / "local.parquet"), "-q"], env)}
    for cores in masters:
        out = work / f"spark{cores}.parquet"
        argv = [*MOJIFIX, "spark", "warc", *inputs, "-o", str(out), "--master", f"local[{cores}]"]
        times[f"spark[{cores}]"] = timed(argv, env)
    return times


def bench_warc(work: Path, warcs: int, pages: int, env: dict[str, str], jvm: float) -> None:
    inputs = []
    for i in range(warcs):
        path = work / f"crawl-{i:03d}.warc.gz"
        build_warc(path, pages, seed=100 + i)
        inputs.append(str(path))
    (work / "tiny").mkdir()
    build_warc(work / "tiny" / "tiny.warc.gz", TINY_PAGES, seed=99)
    fixed = _warc_times([str(work / "tiny" / "tiny.warc.gz")], work / "tiny", (1,), env)
    times = _warc_times(inputs, work, (1, 2), env)
    report("warc", "pages", warcs * pages, times, jvm, (TINY_PAGES, fixed))


def _convert_times(src: Path, work: Path, masters: tuple[int, ...], env: dict[str, str]) -> dict[str, float]:
    local = [*MOJIFIX, "convert", str(src), str(work / "local-out"), "--no-fsync", "--json"]
    times = {"local": timed(local, env)}
    for cores in masters:
        dst = work / f"spark{cores}-out"
        argv = [*MOJIFIX, "spark", "convert", str(src), str(dst), "--no-fsync", "--json"]
        times[f"spark[{cores}]"] = timed([*argv, "--master", f"local[{cores}]"], env)
    return times


def bench_convert(work: Path, per_encoding: int, env: dict[str, str], jvm: float) -> None:
    files = len(generate(work / "tree", per_encoding, corrupted=per_encoding // 10, seed=9))
    small = len(generate(work / "tiny-tree" / "src", TINY_FILES_PER_ENCODING, corrupted=1, seed=8))
    fixed = _convert_times(work / "tiny-tree" / "src", work / "tiny-tree", (1,), env)
    times = _convert_times(work / "tree", work, (1, 2), env)
    report("convert", "files", files, times, jvm, (small, fixed))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warcs", type=int, default=16, help="WARC files (one Spark task each)")
    parser.add_argument("--pages", type=int, default=8000, help="pages per WARC file")
    parser.add_argument(
        "--files-per-encoding", type=int, default=1500, help="tree files per encoding (8 encodings)"
    )
    parser.add_argument("--only", choices=("warc", "convert"), help="run one job only")
    args = parser.parse_args()
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    work = Path(tempfile.mkdtemp(prefix="mojifix-spark-bench-"))
    try:
        jvm = timed([sys.executable, "-c", _JVM_ONLY], env)
        print(
            f"whole-process timings, {os.cpu_count()} cores; "
            f"JVM start-up (local[1], one trivial job): {jvm:.2f} s"
        )
        if args.only in (None, "warc"):
            bench_warc(work, args.warcs, args.pages, env, jvm)
        if args.only in (None, "convert"):
            bench_convert(work, args.files_per_encoding, env, jvm)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
