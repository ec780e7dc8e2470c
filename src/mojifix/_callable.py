"""Let a subpackage be called like the public function of the same name.

``mojifix.detect``, ``mojifix.convert`` and ``mojifix.repair`` are both public functions (see
``mojifix._LAZY``) and subpackages. Once anything imports the subpackage, Python's import system binds
the *module* to that attribute of ``mojifix``, shadowing the function. Making the module callable keeps
``mojifix.detect(data)`` working whichever was imported first, without importing the heavy subpackages
eagerly in ``mojifix/__init__.py``.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any


def make_module_callable(module_name: str, func: Callable[..., Any]) -> None:
    """Make ``sys.modules[module_name]`` callable; calling it calls ``func``."""

    class _CallableModule(types.ModuleType):
        __doc__ = sys.modules[module_name].__doc__

        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            return func(*args, **kwargs)

    _CallableModule.__name__ = f"CallableModule[{func.__name__}]"
    sys.modules[module_name].__class__ = _CallableModule
