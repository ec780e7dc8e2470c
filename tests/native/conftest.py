"""Shared by the compiled-kernel tests: they compare ``mojifix._kernels`` with its pure-Python twins.

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
    module = _native.kernels()
    if module is not None:
        return module
    if _native.pure_python_forced():
        pytest.skip(
            f"LOUD SKIP: {_native.PURE_PYTHON_ENV}=1 forces the pure-Python path; no kernel to compare"
        )
    if os.environ.get("CI") == "true":
        pytest.fail("mojifix._kernels is not built on CI: `pip install .` should have compiled it")
    pytest.skip("LOUD SKIP: mojifix._kernels is not built (no C compiler?); the pure-Python path is active")
