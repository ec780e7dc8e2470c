"""mojifix.repair: recover text that was already decoded with the wrong codec (mojibake), provably.

``repair(text)`` rebuilds the original bytes by encoding with the codec that garbled them, decodes them
the right way, and keeps the result only when it is proven (strict round trip + far more plausible text);
``apply_plan(other, plan)`` replays the same steps on other text. See docs/repair.md.
"""

from __future__ import annotations

import sys
import types

from mojifix.repair._search import apply_plan, repair
from mojifix.repair.result import Repaired, Step

__all__ = ["Repaired", "Step", "apply_plan", "repair"]


class _CallableModule(types.ModuleType):
    """This package, callable as ``mojifix.repair(text)``.

    ``mojifix.repair`` is both the public function (``mojifix._LAZY``) and this subpackage; once anything
    imports the subpackage, Python's import system binds the *module* to ``mojifix.repair``, shadowing
    the function. Making the module callable keeps ``mojifix.repair(text)`` working either way.
    """

    def __call__(self, text: str, *, max_steps: int = 2) -> Repaired:
        return repair(text, max_steps=max_steps)


sys.modules[__name__].__class__ = _CallableModule
