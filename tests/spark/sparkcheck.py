"""Whether real Spark can run here: PySpark's SQL extra importable and a Java on PATH."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest


def missing() -> str | None:
    """Why Spark cannot run here, or None."""
    try:
        import pandas  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as exc:
        return f"PySpark's SQL extra is not installed ({exc}): run `make setup`"
    java = shutil.which("java")
    if java is None:
        return "no `java` on PATH: run `bash tools/ensure_java.sh` (Debian's openjdk-17-jre-headless)"
    out = subprocess.run([java, "-version"], capture_output=True, text=True, check=False).stderr
    return None if out else f"`{java} -version` printed nothing"


def require_spark(what: str) -> None:
    """Skip loudly when Spark cannot run here; fail instead when CI is set."""
    reason = missing()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} cannot run: {reason}")
    pytest.skip(f"!!! {what.upper()} SKIPPED: {reason}")
