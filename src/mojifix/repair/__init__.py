"""mojifix.repair: recover text that was already decoded with the wrong codec (mojibake), provably.

``repair(text)`` rebuilds the original bytes by encoding with the codec that garbled them, decodes them
the right way, and keeps the result only when it is proven (strict round trip + far more plausible text);
``apply_plan(other, plan)`` replays the same steps on other text. See docs/repair.md.
"""

from __future__ import annotations

from mojifix._callable import make_module_callable
from mojifix.repair._search import apply_plan, repair
from mojifix.repair.result import Repaired, Step

__all__ = ["Repaired", "Step", "apply_plan", "repair"]


make_module_callable(__name__, repair)
