"""requests adapter: browser-exact text for ``requests`` responses (extra ``mojifix[requests]``).

requests decodes ``resp.text`` from the Content-Type charset alone: ISO-8859-1 for any ``text/*`` without
one, ``<meta>`` and BOM ignored, labels looked up as Python codec names (so ``iso-8859-1`` is true Latin-1,
not the browser's windows-1252). Two ways to get the browser's text instead::

    decoded = mojifix.integrations.requests.decode_response(resp)   # a DecodedHTML, with provenance

    session = requests.Session()
    mojifix.integrations.requests.install(session)                  # every response of the session:
    resp = session.get(url)                                         # resp.text is the decoded text,
    resp.mojifix                                                    # and the decision is kept here

The hook sets ``resp.encoding`` to a Python codec name that reproduces mojifix's text exactly (see
:mod:`mojifix.integrations._codec`; e.g. ``whatwg-shift_jis``), so code that reads ``resp.text`` or
decodes ``resp.content`` with ``resp.encoding`` needs no change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import mojifix.whatwg  # noqa: F401 - registers the whatwg-* Python codecs the hook may name
from mojifix.integrations._codec import python_codec_name
from mojifix.integrations._content import decode_body, is_textual

if TYPE_CHECKING:
    import requests

    from mojifix.sniff import DecodedHTML

__all__ = [
    "ATTRIBUTE",
    "content_type_values",
    "decode_response",
    "hook",
    "install",
    "make_hook",
    "repair_text",
]

#: Name of the attribute the hook sets on each response to keep the decision.
ATTRIBUTE = "mojifix"


def content_type_values(resp: requests.Response) -> list[str]:
    """Every Content-Type header value as received, in order.

    ``resp.headers`` joins duplicate headers with ``", "``; urllib3's raw header map keeps them apart
    (``getlist``), which the Fetch algorithm needs.
    """
    raw_headers = getattr(getattr(resp, "raw", None), "headers", None)
    for method in ("getlist", "get_all"):
        getter = getattr(raw_headers, method, None)
        if callable(getter):
            values = getter("Content-Type")
            if values:
                return [str(v) for v in values]
    value = resp.headers.get("Content-Type")
    return [value] if value is not None else []


def decode_response(
    resp: requests.Response, *, fallback: str = "detect", trust: str = "browser"
) -> DecodedHTML:
    """Decode a requests response as a browser would: its bytes, all Content-Type values, its URL.

    HTML follows :func:`mojifix.sniff.decode_html`; JSON, XML, CSS and other text types follow their own
    rules (:mod:`mojifix.integrations._content`). Reads the whole body (``resp.content``).
    ``trust="evidence"``: a declaration the bytes prove wrong is overruled (see ``decode_html``).
    """
    values = content_type_values(resp) or None
    return decode_body(resp.content, values, url=resp.url, fallback=fallback, trust=trust)


def make_hook(*, fallback: str = "detect", trust: str = "browser") -> Callable[..., requests.Response]:
    """A requests response hook that decodes text responses and fixes ``resp.encoding``.

    Skips bodies that are not text (images, archives...) and responses requested with
    ``stream=True`` (the hook would otherwise read the whole stream); call :func:`decode_response`
    yourself once such a body is read.
    """

    def _hook(resp: requests.Response, *args: Any, **kwargs: Any) -> requests.Response:
        if kwargs.get("stream"):
            return resp
        values = content_type_values(resp)
        if not is_textual(values or None):
            return resp
        decoded = decode_response(resp, fallback=fallback, trust=trust)
        resp.encoding = python_codec_name(decoded.encoding, resp.content)
        setattr(resp, ATTRIBUTE, decoded)
        return resp

    return _hook


#: The hook with the default fallback (detection for undeclared pages), for ``hooks={"response": hook}``.
hook = make_hook()


def install(
    session: requests.Session, *, fallback: str = "detect", trust: str = "browser"
) -> requests.Session:
    """Add the decoding hook to every response of ``session``; returns the session."""
    hooks: Mapping[str, Any] = session.hooks
    response_hooks = hooks["response"]
    if not isinstance(response_hooks, list):  # requests allows a single callable here
        response_hooks = [response_hooks]
        session.hooks["response"] = response_hooks
    default = fallback == "detect" and trust == "browser"
    response_hooks.append(hook if default else make_hook(fallback=fallback, trust=trust))
    return session


def repair_text(resp_text: str) -> str:
    """Repair text that was already decoded wrongly (e.g. stored ``resp.text``); see :mod:`mojifix.repair`.

    The common requests case: a UTF-8 or CJK page decoded as ISO-8859-1 because the header had no
    charset. Returns the text unchanged when nothing needs (or can provably be) repaired; use
    ``mojifix.repair.repair`` directly for the replayable plan and confidence.
    """
    from mojifix.repair import repair

    return repair(resp_text).text
