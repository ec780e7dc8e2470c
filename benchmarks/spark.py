"""Spark scaling and overhead: the Spark warc and convert jobs on local[1] and local[2] vs the local code.

Generates its inputs (WARC files from benchmarks/warc.py's page generator; a legacy tree from
mojifix.convert.corpus) and a tiny input of each kind, then runs, in one run, one process each:

  local      the local job (``mojifix warc``'s decode + Parquet writer / ``mojifix.convert``), one core
  spark[1]   the Spark job (``mojifix spark warc``'s ``write_warc_dataset`` / ``convert_tree``) on
             ``local[1]``: one core (``--frame``: ``decode_warc`` and Spark's Parquet writer instead)
  spark[2]   the same on ``local[2]``: two cores

Each process first runs its job on the tiny input (which loads the model, starts the Python workers
and warms the JVM), then on the real input. It reports its whole-process time, the SparkSession
start-up, the warm-up job and the timed job. Printed: rates, and the ratios the issue sets goals for,
both over whole-process times and over the timed jobs alone: spark[2] / spark[1] throughput (goal
>= 1.7x on 2 cores) and spark[1] / local per-record cost (goal <= 1.5x), with the JVM start-up's share
of the spark[1] process (the goal wants inputs large enough for it to be under 10%: raise --pages or
--files-per-encoding until it is). Conversions run without fsync (all alike) so that other processes'
disk traffic does not decide the comparison.

    python benchmarks/spark.py [--warcs 16] [--pages 8000] [--files-per-encoding 1500]
                                [--only warc|convert] [--frame]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STARTED = time.perf_counter()
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from warc import build_warc  # noqa: E402 (benchmarks/warc.py's generator)

from mojifix.convert.corpus import generate  # noqa: E402

#: pages of the tiny WARC, files per encoding of the tiny tree (the warm-up runs)
TINY_PAGES = 50
TINY_FILES_PER_ENCODING = 5


def child(job: str, master: str, out: str, tiny: str, inputs: list[str]) -> dict[str, float]:
    """One measured process: warm up on ``tiny``, then time the job on ``inputs`` ("none": no Spark)."""
    session = None
    phases: dict[str, float] = {}
    if master != "none":
        from mojifix.spark._session import open_session

        t = time.perf_counter()
        session = open_session(master, "mojifix benchmark")
        phases["start-up"] = time.perf_counter() - t
    # the warm-up gives each core a task, so every Python worker has started and loaded the model
    for phase, paths, target in (("warm-up", [tiny, tiny], out + ".tiny"), ("job", inputs, out)):
        t = time.perf_counter()
        run_job(job, session.spark if session else None, paths, target)
        phases[phase] = time.perf_counter() - t
    if session is not None:
        session.close()
    phases["process"] = time.perf_counter() - STARTED
    return phases


def run_job(job: str, spark: object, paths: list[str], target: str) -> None:
    if job.startswith("warc") and spark is None:
        from mojifix.integrations.warc import WarcSummary, decode_records, iter_http_records, write_rows

        summary = WarcSummary()
        records = (r for p in paths for r in iter_http_records(p, errors=summary.errors))
        write_rows(decode_records(records, summary), target + ".parquet")
    elif job == "warc":  # what `mojifix spark warc -o DIR` runs: each task writes its part
        from mojifix.spark.warc import write_warc_dataset

        write_warc_dataset(spark, paths, target + ".parquet")
    elif job == "warc-frame":  # decode_warc + Spark's Parquet writer + the accumulator summary
        from mojifix.spark import decode_warc, warc_summary

        counts = warc_summary(spark)
        decode_warc(spark, paths, summary=counts).write.mode("overwrite").parquet(target + ".parquet")
        counts.result()
    elif spark is None:
        from mojifix.convert import convert

        convert(paths[0], target, fsync=False)
    else:
        from mojifix.spark import convert_tree

        convert_tree(spark, paths[0], target, fsync=False)


def measure(job: str, master: str, out: Path, tiny: str, inputs: list[str], env: dict[str, str]) -> dict:
    """Run :func:`child` in a new process; its phases plus the whole-process wall time seen from here."""
    argv = [sys.executable, __file__, "--child", job, master, str(out), tiny, *inputs]
    started = time.perf_counter()
    run = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if run.returncode != 0:
        raise SystemExit(f"{job} on {master} failed ({run.returncode}):\n{run.stderr[-3000:]}")
    return {**json.loads(run.stdout.strip().splitlines()[-1]), "wall": wall}


def report(job: str, unit: str, count: int, runs: dict[str, dict]) -> None:
    print(f"\n{job}: {count:,} {unit}")
    for name, r in runs.items():
        start = f"start-up {r['start-up']:6.2f} s, " if "start-up" in r else " " * 20
        print(
            f"  {name:9} whole process {r['wall']:7.2f} s ({count / r['wall']:8,.0f} {unit}/s); {start}"
            f"warm-up {r['warm-up']:6.2f} s, job {r['job']:7.2f} s ({count / r['job']:8,.0f} {unit}/s)"
        )
    one, two, local = runs["spark[1]"], runs["spark[2]"], runs["local"]
    share = 100 * one["start-up"] / one["wall"]
    print(f"  JVM start-up = {share:.1f}% of the spark[1] process (the goal's inputs keep it under 10%)")
    for what in ("wall", "job"):
        label = "whole process" if what == "wall" else "timed job    "
        print(
            f"  {label}: scaling spark[2] / spark[1] throughput {one[what] / two[what]:.2f}x (goal >= 1.7x); "
            f"cost per {unit[:-1]} spark[1] / local {one[what] / local[what]:.2f}x (goal <= 1.5x)"
        )


def bench_warc(work: Path, warcs: int, pages: int, env: dict[str, str], frame: bool) -> None:
    inputs = []
    for i in range(warcs):
        path = work / f"crawl-{i:03d}.warc.gz"
        build_warc(path, pages, seed=100 + i)
        inputs.append(str(path))
    tiny = work / "tiny.warc.gz"
    build_warc(tiny, TINY_PAGES, seed=99)
    job = "warc-frame" if frame else "warc"
    runs = {name: measure(job, m, work / name, str(tiny), inputs, env) for name, m in MASTERS}
    report(job, "pages", warcs * pages, runs)


def bench_convert(work: Path, per_encoding: int, env: dict[str, str]) -> None:
    files = len(generate(work / "tree", per_encoding, corrupted=per_encoding // 10, seed=9))
    generate(work / "tiny-tree", TINY_FILES_PER_ENCODING, corrupted=1, seed=8)
    runs = {
        name: measure("convert", m, work / f"{name}-out", str(work / "tiny-tree"), [str(work / "tree")], env)
        for name, m in MASTERS
    }
    report("convert", "files", files, runs)


#: (name, master) of the three measured processes; "none" runs the local code without Spark
MASTERS = (("local", "none"), ("spark[1]", "local[1]"), ("spark[2]", "local[2]"))


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        job, master, out, tiny, *inputs = sys.argv[2:]
        print(json.dumps(child(job, master, out, tiny, inputs)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warcs", type=int, default=16, help="WARC files (one Spark task each)")
    parser.add_argument("--pages", type=int, default=8000, help="pages per WARC file")
    parser.add_argument(
        "--files-per-encoding", type=int, default=1500, help="tree files per encoding (8 encodings)"
    )
    parser.add_argument("--only", choices=("warc", "convert"), help="run one job only")
    parser.add_argument("--frame", action="store_true", help="warc through decode_warc and Spark's writer")
    args = parser.parse_args()
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    work = Path(tempfile.mkdtemp(prefix="mojifix-spark-bench-"))
    print(f"whole-process timings, {os.cpu_count()} cores, one process per row")
    try:
        if args.only in (None, "warc"):
            bench_warc(work, args.warcs, args.pages, env, args.frame)
        if args.only in (None, "convert"):
            bench_convert(work, args.files_per_encoding, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
