"""httpx adapter: browser-exact text for ``httpx`` responses, sync and async (extra ``mojifix[httpx]``).

httpx decodes ``response.text`` with the Content-Type charset when Python knows the label, else with
``default_encoding`` (UTF-8, or a callable given the body). Python's codecs are not the browser's
(``iso-8859-1`` is not windows-1252, ``gb2312`` is not GBK) and WHATWG-only labels such as
``x-user-defined`` are unknown to Python. Three levels of help:

* :func:`decode_response` -- a ``DecodedHTML`` for a read response (bytes, every Content-Type, URL);
* :func:`default_encoding` -- ``httpx.Client(default_encoding=mojifix.integrations.httpx.default_encoding)``:
  mojifix decides whenever the header has no (Python-known) charset. It only sees the body, so a wrong
  header charset still wins; use the hook for browser-exact text;
* :func:`install` -- an event hook on a ``Client`` or ``AsyncClient`` that reads each text response,
  decodes it, sets ``response.encoding`` to a Python codec that reproduces the text exactly, and keeps
  the decision as ``response.mojifix``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import mojifix.whatwg  # noqa: F401 - registers the whatwg-* Python codecs the hook may name
from mojifix.integrations._codec import python_codec_name
from mojifix.integrations._content import decode_body, is_textual

if TYPE_CHECKING:
    import httpx

    from mojifix.sniff import DecodedHTML

__all__ = [
    "ATTRIBUTE",
    "async_hook",
    "decode_response",
    "default_encoding",
    "hook",
    "install",
]

#: Name of the attribute the hooks set on each response to keep the decision.
ATTRIBUTE = "mojifix"


def decode_response(
    response: httpx.Response, *, fallback: str = "detect", trust: str = "browser"
) -> DecodedHTML:
    """Decode a read httpx response as a browser would (raises ``httpx.ResponseNotRead`` if unread).

    ``trust="evidence"``: a declaration the bytes prove wrong is overruled (see ``decode_html``).
    """
    values = response.headers.get_list("Content-Type")
    url = str(response.url)
    return decode_body(response.content, values or None, url=url, fallback=fallback, trust=trust)


def default_encoding(content: bytes) -> str:
    """``default_encoding`` callable: the Python codec name for mojifix's decision on ``content``.

    httpx calls it only when the header names no charset Python knows, and passes the body alone,
    so the decision is the HTML one (BOM, ``<meta>``, then detection) without URL hint.
    """
    from mojifix.sniff import decode_html

    decoded = decode_html(content)
    return python_codec_name(decoded.encoding, content)


def _apply(response: httpx.Response, fallback: str, trust: str) -> None:
    decoded = decode_response(response, fallback=fallback, trust=trust)
    response.encoding = python_codec_name(decoded.encoding, response.content)
    setattr(response, ATTRIBUTE, decoded)


def make_hooks(
    *, fallback: str = "detect", trust: str = "browser"
) -> tuple[Callable[[httpx.Response], None], Callable[[httpx.Response], Awaitable[None]]]:
    """The (sync, async) response event hooks for ``fallback`` and ``trust``.

    Non-text responses (by Content-Type) are left unread, so downloads of images or archives are not
    pulled into memory; text responses are read in full, also under ``client.stream(...)``.
    """

    def sync_hook(response: httpx.Response) -> None:
        if is_textual(response.headers.get_list("Content-Type") or None):
            response.read()
            _apply(response, fallback, trust)

    async def async_hook(response: httpx.Response) -> None:
        if is_textual(response.headers.get_list("Content-Type") or None):
            await response.aread()
            _apply(response, fallback, trust)

    return sync_hook, async_hook


hook, async_hook = make_hooks()


def install(
    client: httpx.Client | httpx.AsyncClient, *, fallback: str = "detect", trust: str = "browser"
) -> None:
    """Add the response hook to ``client`` (the async one for an ``httpx.AsyncClient``)."""
    import httpx

    default = fallback == "detect" and trust == "browser"
    sync_hook, async_hook_ = (hook, async_hook) if default else make_hooks(fallback=fallback, trust=trust)
    chosen = async_hook_ if isinstance(client, httpx.AsyncClient) else sync_hook
    hooks = client.event_hooks
    hooks["response"] = [*hooks.get("response", []), chosen]
    client.event_hooks = hooks
