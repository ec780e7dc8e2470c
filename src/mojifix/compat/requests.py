"""``Response.apparent_encoding`` from mojifix, for code that already relies on requests' fallback.

requests reads ``resp.apparent_encoding`` (from chardet or charset-normalizer) when a response names no
charset, and many programs set ``resp.encoding = resp.apparent_encoding`` themselves. One line switches
that guess to mojifix, process-wide::

    import mojifix.compat.requests; mojifix.compat.requests.install()

The name given is a Python codec that decodes ``resp.content`` to exactly mojifix's text (the
:mod:`mojifix.compat.chardet` rules). For the browser's full decision (``<meta>``, BOM, Content-Type
rules) with provenance, use :mod:`mojifix.integrations.requests` instead.
"""

from __future__ import annotations

from typing import Any

from mojifix.compat.chardet import detect

__all__ = ["apparent_encoding", "install", "uninstall"]


def _apparent_encoding(response: Any) -> str | None:
    """mojifix's guess for ``response.content``: a Python codec name, or None for binary content."""
    encoding: str | None = detect(response.content)["encoding"]
    return encoding


#: the property ``install`` puts on ``requests.models.Response`` (assignable by hand as well)
apparent_encoding = property(_apparent_encoding, doc=_apparent_encoding.__doc__)

_ORIGINAL: dict[str, Any] = {}


def _response_class() -> Any:
    try:
        from requests.models import Response
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "mojifix.compat.requests patches requests, which is not installed: "
            "pip install 'mojifix[requests]'",
            name="requests",
        ) from None
    return Response


def install() -> None:
    """Make ``requests.Response.apparent_encoding`` mojifix's guess for every response of the process."""
    response = _response_class()
    _ORIGINAL.setdefault("apparent_encoding", response.__dict__["apparent_encoding"])
    response.apparent_encoding = apparent_encoding


def uninstall() -> None:
    """Put requests' own ``apparent_encoding`` back."""
    if "apparent_encoding" in _ORIGINAL:
        _response_class().apparent_encoding = _ORIGINAL.pop("apparent_encoding")
