"""The SparkSession a mojifix job runs in: the caller's, spark-submit's, or one started for ``--master``.

Kept apart from the jobs so that the one place that imports PySpark for the CLI is also the one place
that turns its absence into the ``mojifix[spark]`` hint.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_MASTER", "SessionHandle", "open_session", "require_spark"]

#: the master used when neither ``--master`` nor spark-submit names one: every core of this machine
DEFAULT_MASTER = "local[*]"
#: set by spark-submit (and by pyspark's own launcher) in the environment of the Python driver it starts
_GATEWAY_ENV = "PYSPARK_GATEWAY_PORT"


def require_spark() -> None:
    """Raise MissingExtraError (naming ``mojifix[spark]``) unless PySpark and its Arrow path can load."""
    from mojifix.cli import require_extra

    require_extra("mojifix spark", "pyspark", "pandas", "pyarrow")


@dataclass(frozen=True, slots=True)
class SessionHandle:
    """A session and whether this job started it (then the job also stops it)."""

    spark: Any  # pyspark.sql.SparkSession
    owned: bool

    def close(self) -> None:
        if self.owned:
            self.spark.stop()


def open_session(master: str | None, app_name: str) -> SessionHandle:
    """The active (or default) session if there is one, whatever ``master`` says; else one on ``master``.

    Under spark-submit the master comes from spark-submit's ``--master`` unless one is given here
    explicitly; otherwise it defaults to :data:`DEFAULT_MASTER`. On a local master the Python workers
    run this interpreter (so they import the same mojifix), unless ``PYSPARK_PYTHON`` says otherwise.
    """
    require_spark()
    from pyspark.errors import PySparkRuntimeError
    from pyspark.sql import SparkSession

    try:  # the active session of this thread, or the process's default one (from another thread)
        return SessionHandle(SparkSession.active(), owned=False)
    except PySparkRuntimeError:  # "no active or default session"
        pass
    builder = SparkSession.builder.appName(app_name)
    if master is None and _GATEWAY_ENV not in os.environ:
        master = DEFAULT_MASTER
    if master is not None:
        builder = builder.master(master)
        if master.startswith("local") and "PYSPARK_PYTHON" not in os.environ:
            os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = builder.getOrCreate()
    return SessionHandle(spark, owned=True)
