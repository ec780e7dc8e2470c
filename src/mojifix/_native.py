"""Which implementation runs: the compiled kernels or the pure-Python reference.

The compiled extensions are ``mojifix._kernels`` and the detector's ``mojifix.detect._scoring`` (built
by the package's own ``pip install`` when a C compiler is present). Every kernel has a pure-Python twin
that stays the readable reference; this module is the one switch that says which is active.
``MOJIFIX_PURE_PYTHON=1`` forces the reference even when the extensions are built (the test suite runs
both ways).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["detect_kernel", "kernels", "not_built", "pure_python_forced", "status", "warc_writer_kernel"]

#: environment variable that forces the pure-Python reference path.
PURE_PYTHON_ENV = "MOJIFIX_PURE_PYTHON"


def pure_python_forced() -> bool:
    """True when ``MOJIFIX_PURE_PYTHON`` is set to anything but empty or ``0``."""
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")


def kernels() -> ModuleType | None:
    """The compiled kernels module, or None when it is not built, fails to import, or is switched off."""
    return _compiled("mojifix._kernels")


def detect_kernel() -> ModuleType | None:
    """The detector's compiled scoring kernel (``mojifix.detect._scoring``), or None (as :func:`kernels`)."""
    return _compiled("mojifix.detect._scoring")


def warc_writer_kernel() -> ModuleType | None:
    """``mojifix warc``'s compiled JSON-lines writer (``mojifix.integrations._jsonl``), or None (as
    :func:`kernels`; json.dumps is its reference)."""
    return _compiled("mojifix.integrations._jsonl")


def _compiled(name: str) -> ModuleType | None:
    """The extension module ``name``, or None when it is not built, fails to import, or is switched off."""
    if pure_python_forced():
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


#: the compiled parts, by the name ``mojifix --version`` gives them
PARTS = ("kernels", "detector", "warc writer")


def not_built() -> list[str]:
    """The compiled parts (:data:`PARTS`) that are not built or fail to import (empty when all are; when
    the pure path is forced, what is built is not loaded and every part is listed)."""
    loaded = (kernels(), detect_kernel(), warc_writer_kernel())
    return [name for name, module in zip(PARTS, loaded, strict=True) if module is None]


def status() -> str:
    """One line for ``mojifix --version``: which implementation is active, and why."""
    if pure_python_forced():
        return f"compiled core: off ({PURE_PYTHON_ENV}=1, pure Python)"
    missing = not_built()
    built = [name for name in PARTS if name not in missing]
    if not built:
        return "compiled core: not built (pure Python)"
    if missing:
        verb = "runs" if len(missing) == 1 else "run"
        absent = ", ".join(missing)
        return f"compiled core: active ({', '.join(built)}; not built: {absent}, which {verb} pure Python)"
    return "compiled core: active"
