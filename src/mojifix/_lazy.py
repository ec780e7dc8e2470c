"""Public names a package loads on first use (PEP 562): the one ``__getattr__`` of ``mojifix``,
``mojifix.sniff`` and ``mojifix.spark``, so that importing them stays cheap (no detector, no PySpark)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["attribute_loader"]


def attribute_loader(
    package: str, table: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: a name of ``table`` (public name -> the module that
    defines it) is imported, stored in ``namespace`` (the package's globals, so the next access does not
    come here) and returned; any other name is an AttributeError."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
