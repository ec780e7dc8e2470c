"""Fixtures for the Spark tests: one real SparkSession per test module (no mocks).

PySpark comes with the dev extra and Java 17+ from the machine (``tools/ensure_java.sh``, run by
``make test``). Without either the tests are skipped with the reason, and fail when CI is set.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # appended: prepending would hide tests/convert's conftest in a whole run
    sys.path.append(str(HERE))

from sparkcheck import require_spark  # noqa: E402 (needs the path above)


def start_session(master: str) -> Iterator[Any]:
    """A SparkSession on ``master`` for one module; its Python workers run this interpreter."""
    require_spark("Spark tests")
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    sigint = signal.getsignal(signal.SIGINT)  # SparkContext installs its own handler and leaves it
    spark = (
        SparkSession.builder.master(master)
        .appName("mojifix tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    # test helper modules (the crash-injecting detector) must be importable by the Python workers
    spark.sparkContext.addPyFile(str(HERE / "killing_detect.py"))
    try:
        yield spark
    finally:
        spark.stop()
        signal.signal(signal.SIGINT, sigint)  # later tests in this process expect Python's own


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """local[2]: two task threads, no task retries."""
    yield from start_session("local[2]")


@pytest.fixture(scope="module")
def spark_retry() -> Iterator[Any]:
    """local[2,2]: two task threads, a failed task is tried once more."""
    yield from start_session("local[2,2]")
