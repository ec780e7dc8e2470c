"""Fast constructors for the frozen, slotted result dataclasses that hot loops build once per item.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (about 0.13 us a
field); setting each slot through its member descriptor builds the same object in about a third of the
time. ``mojifix warc`` builds three such objects per page (``HttpRecord``, ``DecodedHTML``, ``WarcRow``),
where it saved about 5% of the command on benchmarks/warc.py's web-like archive. The constructor is
generated once per class from the class's own fields, as ``dataclasses`` generates ``__init__``, so a
field added to the class cannot be left out; tests/test_frozen.py checks it builds what ``__init__``
builds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["slot_constructor"]

T = TypeVar("T")


def slot_constructor(cls: type[T]) -> Callable[..., T]:
    """A keyword-only function of ``cls``'s fields (with their plain defaults) that returns what ``cls(...)``
    returns, without ``__init__``.

    Only for frozen, slotted dataclasses without ``__post_init__`` or default factories (the constructor
    would otherwise skip what ``__init__`` does); anything else is a ``TypeError``.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which the constructor would skip")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    params_text: list[str] = []
    body: list[str] = []
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} has a default factory")
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            params_text.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params_text.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})\n")
    source = (
        f"def build(*, {', '.join(params_text)}):\n    self = _new(_cls)\n{''.join(body)}    return self\n"
    )
    exec(source, namespace)  # the text is built above from the class's field names only
    build: Callable[..., T] = namespace["build"]
    build.__qualname__ = build.__name__ = f"new_{cls.__name__}"
    build.__doc__ = f"``{cls.__name__}(...)``, built without ``__init__`` (see mojifix._frozen)."
    return build
