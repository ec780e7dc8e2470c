"""Fail the development build when a C compiler is present but a compiled part did not build.

The extensions are optional (setup.py): a user without a compiler gets the pure-Python path. In this
repository's own build that leniency hides mistakes: a C file that no longer compiles leaves the pure
path running (``make setup`` removes the old in-tree modules first, so a stale one cannot stand in),
and every comparison of compiled against pure would quietly compare the reference with itself.
Exit 1, naming them, when a compiler is on PATH and ``mojifix._native.not_built()`` lists a part; 0
otherwise (no compiler: the pure path is the expected outcome).
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig

from mojifix import _native


def main() -> int:
    if _native.pure_python_forced():
        return 0  # the pure path asked for (MOJIFIX_PURE_PYTHON=1): what is built is not loaded
    missing = _native.not_built()
    # the compiler the build uses: $CC, else the one Python was built with (setuptools' own order)
    wanted = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    compiler = shutil.which(wanted[0]) if wanted else None
    if compiler and missing:
        names = ", ".join(missing)
        print(f"a C compiler is present ({compiler}) but these compiled parts did not build: {names}")
        print("to see the compiler's error: .venv/bin/python -m pip install --no-deps -e .")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
