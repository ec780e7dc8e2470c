"""Tasks that die mid-way under ``local[2,2]`` (one retry per task): results equal the local command's,
and every record id / path appears exactly once.

Two real failures, no mocks: a Python worker that SIGKILLs itself while examining one file of a tree
(a detector wrapper that does so once, see killing_detect.py), and Python workers killed from outside
while they decode WARC files. A corrupt gzip member is in tests/spark/test_warc.py's archives.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from test_warc import read_dataset
from treeutil import build_tree, manifest_records, snapshot

from benchmarks.warc import build_warc as build_big_warc
from mojifix.cli import main
from mojifix.convert import convert
from mojifix.convert.fsio import TEMP_MARK
from mojifix.convert.options import MANIFEST_NAME
from mojifix.spark import convert_tree, decode_warc, warc_summary

#: pages per generated WARC: a task then decodes for a few seconds, long enough to be killed mid-file
BIG_WARC_PAGES = 10000
#: a Python worker this old (since first seen) is past its start-up (one killed while it boots is
#: replaced without failing its task)
WORKER_AGE_S = 1.0


def test_convert_with_a_worker_killed_mid_task(spark_retry: Any, tmp_path: Path) -> None:
    src = build_tree(tmp_path / "src", files_per_encoding=8, seed=23)
    marker = tmp_path / "killed-once"
    (src / "d2" / "kill.txt").write_bytes(
        b"KILL-ONCE %s\n" % os.fsencode(marker) + "Grüße aus Köln\n".encode("cp1252") * 20
    )
    spark_dst, local = tmp_path / "spark", tmp_path / "local"
    report = convert_tree(spark_retry, src, spark_dst, detector="killing_detect:detect")
    assert marker.exists()  # the worker examining kill.txt died (and the task was tried again)
    local_report = convert(src, local, detector="killing_detect:detect")
    assert report.records == local_report.records
    assert report.exit_code == local_report.exit_code == 1
    assert snapshot(spark_dst) == snapshot(local)  # no temporary file of the killed attempt is left
    assert not any(TEMP_MARK in name for _, _, names in os.walk(os.fsencode(spark_dst)) for name in names)
    records = manifest_records(spark_dst / MANIFEST_NAME)  # fails on a path listed twice
    assert len(records) == len(report.records) and records["d2/kill.txt"]["outcome"] == "converted"


def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as f:
        return int(f.read().rsplit(b")", 1)[1].split()[1])


def _pyspark_workers() -> list[int]:
    """PIDs of this test session's Python workers: children of a pyspark daemon whose JVM this process
    started (never another session's processes)."""
    daemons: set[int] = set()
    workers: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if b"pyspark.daemon" not in f.read():
                    continue
            parent = _parent(int(entry))
            if _parent(parent) == os.getpid():  # the daemon: its parent is our JVM
                daemons.add(int(entry))
            else:
                workers.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return [pid for pid in workers if _parent(pid) in daemons]


def _mid_file_workers(out: Path, path: str, first_seen: dict[int, float], now: float) -> list[int]:
    """Workers to kill now, while they are provably inside a file: ``dataset``, the worker whose
    temporary part (named after its PID) already holds a flushed row group; ``frame``, every started
    worker once Spark has begun writing a task's rows (its attempt file exists)."""
    if path == "dataset":
        for temp in out.glob(".part-*.tmp-*.parquet"):
            with contextlib.suppress(OSError, ValueError):
                if temp.stat().st_size > 1024:
                    return [int(temp.name.rsplit(".tmp-", 1)[1].split(".")[0])]
        return []
    attempts = out / "_temporary"
    if not (attempts.exists() and any(attempts.rglob("part-*"))):
        return []
    return [pid for pid, seen in first_seen.items() if now - seen >= WORKER_AGE_S]


@pytest.mark.parametrize("path", ["dataset", "frame"])
def test_warc_with_workers_killed_mid_file(
    spark_retry: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], path: str
) -> None:
    """``dataset``: the CLI (each task writes its part); ``frame``: decode_warc + Spark's writer + the
    accumulator summary."""
    inputs = []
    for seed in (1, 2):
        archive = tmp_path / f"big{seed}.warc.gz"
        build_big_warc(archive, BIG_WARC_PAGES, seed)
        inputs.append(str(archive))
    out = tmp_path / "spark.parquet"
    result: dict[str, Any] = {}

    def job() -> None:
        if path == "dataset":
            result["code"] = main(["spark", "warc", *inputs, "-o", str(out), "--json"])
            result["summary"] = json.loads(capsys.readouterr().out)
        else:
            counts = warc_summary(spark_retry)
            decode_warc(spark_retry, inputs, summary=counts).write.parquet(str(out))
            result["summary"] = counts.result().to_dict()

    runner = threading.Thread(target=job)
    runner.start()
    killed: list[int] = []
    first_seen: dict[int, float] = {}
    while runner.is_alive() and not killed:
        now = time.monotonic()
        for pid in _pyspark_workers():
            first_seen.setdefault(pid, now)
        victims = _mid_file_workers(out, path, first_seen, now)
        for pid in victims:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        killed += victims
        time.sleep(0.02)
    runner.join()
    assert killed, "no worker was caught mid-file: the test tested nothing"
    local_code = main(["warc", *inputs, "-o", str(tmp_path / "local.parquet"), "--json"])
    local_summary = json.loads(capsys.readouterr().out)
    rows = read_dataset(out)
    assert rows == pq.read_table(tmp_path / "local.parquet").to_pylist()
    ids = [r["record_id"] for r in rows]
    assert len(ids) == len(set(ids)) == 2 * BIG_WARC_PAGES
    summary = result["summary"]
    for key in ("seconds", "rows_written"):
        summary.pop(key, None)
        local_summary.pop(key)
    assert summary == local_summary  # the killed attempts' counts were not added
    assert result.get("code", local_code) == local_code
    assert not [p.name for p in out.iterdir() if ".tmp-" in p.name]
