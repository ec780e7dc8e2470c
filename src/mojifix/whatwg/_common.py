"""Helpers shared by the family modules: argument checks, error conversion, the "html" error mode.

Kept private: the public surface is :mod:`mojifix.whatwg`. Every family module raises mojifix's own
:class:`~mojifix.errors.DecodeError` / :class:`~mojifix.errors.EncodeError`, so these helpers turn
CPython's ``UnicodeDecodeError``/``UnicodeEncodeError`` into them at one place.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable

from mojifix.errors import DecodeError, EncodeError

#: The decoder error modes of the standard (https://encoding.spec.whatwg.org/#error-mode).
DECODE_ERRORS = frozenset({"replace", "strict"})
#: The encoder error modes of the standard: "strict" is the standard's "fatal".
ENCODE_ERRORS = frozenset({"strict", "html"})

#: Any surrogate code point. Python ``str`` may hold them; the standard's encoders take scalar values.
SURROGATE = re.compile("[\ud800-\udfff]")


def check_decode_errors(errors: str) -> str:
    """Validate a decoder error mode; say which ones exist when it is wrong."""
    if errors not in DECODE_ERRORS:
        raise ValueError(
            f"errors must be 'replace' or 'strict' (the standard's decoder modes), not {errors!r}"
        )
    return errors


def check_encode_errors(errors: str) -> str:
    """Validate an encoder error mode; say which ones exist when it is wrong."""
    if errors not in ENCODE_ERRORS:
        raise ValueError(f"errors must be 'strict' or 'html' (the standard's encoder modes), not {errors!r}")
    return errors


def as_bytes(data: object, what: str = "decode()") -> bytes:
    """Return ``data`` as ``bytes``; raise a TypeError that says what to pass instead."""
    if isinstance(data, bytes):
        return data
    if isinstance(data, bytearray | memoryview):
        return bytes(data)
    if isinstance(data, str):
        raise TypeError(
            f"{what} takes bytes, not str: the text is already decoded "
            "(pass text.encode(...) bytes, or use encode() to turn text into bytes)"
        )
    raise TypeError(f"{what} takes bytes, bytearray or memoryview, not {type(data).__name__}")


def as_text(text: object, what: str = "encode()") -> str:
    """Return ``text`` if it is a ``str``; raise a TypeError that says what to pass instead."""
    if isinstance(text, str):
        return text
    if isinstance(text, bytes | bytearray | memoryview):
        raise TypeError(f"{what} takes str, not {type(text).__name__}: decode the bytes first")
    raise TypeError(f"{what} takes str, not {type(text).__name__}")


def decode_error(name: str, exc: UnicodeDecodeError, data: bytes, shift: int = 0) -> DecodeError:
    """Turn CPython's decode error into mojifix's, offsets moved by ``shift`` into ``data``."""
    return DecodeError(name, data, exc.start + shift, exc.end + shift, exc.reason)


def encode_error(name: str, text: str, start: int, reason: str | None = None) -> EncodeError:
    """The error for the first code point at ``start`` that ``name``'s encoder cannot encode.

    The standard's encoder stops at the first unencodable code point (one code point per error), so
    the span is always one character even where CPython reports a run.
    """
    ch = text[start]
    if reason is None:
        reason = (
            "lone surrogates are not scalar values and cannot be encoded"
            if SURROGATE.match(ch)
            else f"U+{ord(ch):04X} is not in this encoding (use errors='html' for &#{ord(ch)}; references)"
        )
    return EncodeError(name, text, start, start + 1, reason)


def html_reference(code_point: int) -> str:
    """The "html" error mode's output for one code point: ``&#`` + decimal + ``;``."""
    return f"&#{code_point};"


def _html_handler(exc: UnicodeError) -> tuple[str, int]:
    """CPython error handler implementing the standard's "html" mode for charmap-style encoders.

    A surrogate code point is first replaced by U+FFFD, as browsers turn a string into a USVString
    before encoding; none of the encoders that use this handler can encode U+FFFD, so it becomes
    ``&#65533;``.
    """
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    chunk = exc.object[exc.start : exc.end]
    refs = "".join(html_reference(0xFFFD if SURROGATE.match(c) else ord(c)) for c in chunk)
    return refs, exc.end


#: name of the CPython error handler above, registered on import of this module
HTML_HANDLER = "mojifix-whatwg-html"
codecs.register_error(HTML_HANDLER, _html_handler)


def strict_then_html(name: str, text: str, errors: str, encode: Callable[[str, str], bytes]) -> bytes:
    """Run a CPython-backed ``encode(text, python_errors)`` under the standard's error modes."""
    check_encode_errors(errors)
    try:
        return encode(text, "strict" if errors == "strict" else HTML_HANDLER)
    except UnicodeEncodeError as exc:
        if isinstance(exc, EncodeError):
            raise
        raise encode_error(name, text, exc.start) from None
