"""Shared by the compiled-kernel tests: they compare ``mojifix._kernels`` and the detector's
``mojifix.detect._scoring`` with their pure-Python twins.

Without the kernels there is nothing to compare. That is skipped, loudly, when the reference is forced
(``MOJIFIX_PURE_PYTHON=1``: the suite's second run) or when no C compiler built the extension outside CI;
with ``CI=true`` an unbuilt extension fails every test here instead (CI machines have a compiler).
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from mojifix import _native


@pytest.fixture(scope="session")
def kernels() -> ModuleType:
    """The compiled kernels module; skip (or fail on CI) when it is not active."""
    return _active(_native.kernels(), "mojifix._kernels")


@pytest.fixture(scope="session")
def detect_kernel() -> ModuleType:
    """The detector's compiled scoring kernel; skip (or fail on CI) when it is not active."""
    return _active(_native.detect_kernel(), "mojifix.detect._scoring")


@pytest.fixture(scope="session")
def warc_writer_kernel() -> ModuleType:
    """``mojifix warc``'s compiled JSON-lines writer; skip (or fail on CI) when it is not active."""
    return _active(_native.warc_writer_kernel(), "mojifix.integrations._jsonl")


def _active(module: ModuleType | None, name: str) -> ModuleType:
    """``module`` (the extension ``name``), or a loud skip, or a failure on CI, when it is not active."""
    if module is not None:
        return module
    if _native.pure_python_forced():
        pytest.skip(
            f"LOUD SKIP: {_native.PURE_PYTHON_ENV}=1 forces the pure-Python path; no kernel to compare"
        )
    if os.environ.get("CI") == "true":
        pytest.fail(f"{name} is not built on CI: `pip install .` should have compiled it")
    pytest.skip(f"LOUD SKIP: {name} is not built (no C compiler?); the pure-Python path is active")
