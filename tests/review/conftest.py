"""tests/review on sys.path, appended (the stand-in detector is imported by name, as convert's workers do).

Appended, not prepended: tests/convert imports names from its own ``conftest`` module through the
path, which must keep finding that one first.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.append(HERE)
