"""``mojifix spark`` as a user runs it: without PySpark (one line, exit 2), and under ``spark-submit``.

Each test starts its own process (no SparkSession in this one), so this module needs no fixture session.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from sparkcheck import require_spark
from test_warc import read_dataset
from test_warc_cli import build_warc

from mojifix.cli import main

#: runs mojifix's CLI with pyspark made unimportable (as on an install without the spark extra)
_WITHOUT_PYSPARK = (
    "import sys; sys.modules['pyspark'] = None; from mojifix.cli import main; sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize("job", ["warc", "convert"])
def test_without_pyspark_one_line_naming_the_extra_and_exit_2(tmp_path: Path, job: str) -> None:
    warc = tmp_path / "a.warc.gz"
    build_warc(warc, compress=True)
    args = (
        [str(warc), "-o", str(tmp_path / "o.parquet")]
        if job == "warc"
        else [str(tmp_path), str(tmp_path / "d")]
    )
    run = subprocess.run(
        [sys.executable, "-c", _WITHOUT_PYSPARK, "spark", job, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        "mojifix: error: mojifix spark needs the optional package 'pyspark': pip install 'mojifix[spark]'"
    ]
    assert run.stdout == ""


def test_spark_submit_runs_the_warc_job(tmp_path: Path) -> None:
    require_spark("spark-submit test")
    warc = tmp_path / "a.warc.gz"
    build_warc(warc, compress=True)
    script = subprocess.run(
        [sys.executable, "-m", "mojifix.spark.submit", "--path"], capture_output=True, text=True, check=True
    ).stdout.strip()
    submit = Path(sys.executable).parent / "spark-submit"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
    out = tmp_path / "rows.parquet"
    run = subprocess.run(
        [
            str(submit),
            "--master",
            "local[2]",
            "--conf",
            "spark.ui.enabled=false",
            script,
            "warc",
            str(warc),
            "-o",
            str(out),
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == 1, run.stderr[-2000:]  # the fixture archive needs attention (bad length, U+FFFD)
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    local = tmp_path / "local.parquet"
    assert main(["warc", str(warc), "-o", str(local), "-q"]) == 1
    rows = read_dataset(out)
    assert rows == pq.read_table(local).to_pylist()
    assert summary["rows_written"] == len(rows) > 5
