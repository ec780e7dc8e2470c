"""Decode/encode by an encoding name as used in detection results, exactly.

A name that is exactly one of the WHATWG Encoding Standard's 40 encoding names (``"windows-1252"``,
``"Shift_JIS"``, ``"UTF-16LE"``, ``"GBK"``...) uses mojifix's exact WHATWG implementation; any other
name (``"cp437"``, ``"utf-32-le"``, ``"mac-greek"``...) uses the CPython codec of that name. Labels such as
``"latin1"`` are *not* resolved here (that is ``mojifix.whatwg.lookup``'s job): detection results name
encodings, they do not carry labels.
"""

from __future__ import annotations

import codecs

from mojifix import extra_codecs  # noqa: F401  (registers the codecs CPython lacks, e.g. "viscii")
from mojifix.errors import DecodeError, UnknownEncodingError
from mojifix.whatwg import lookup
from mojifix.whatwg._tables import ENCODINGS

__all__ = ["WHATWG_NAMES", "decode_as", "encode_as", "is_whatwg"]

#: the standard's 40 encoding names, exactly as written in encodings.json
WHATWG_NAMES: frozenset[str] = frozenset(name for name, _ in ENCODINGS)


def is_whatwg(name: str) -> bool:
    """True when ``name`` is exactly one of the standard's encoding names."""
    return name in WHATWG_NAMES


def _python_codec(name: str) -> codecs.CodecInfo:
    try:
        return codecs.lookup(name)
    except LookupError:
        raise UnknownEncodingError(name) from None


def decode_as(data: bytes, encoding: str, errors: str = "strict") -> str:
    """Decode ``data`` with ``encoding`` (no BOM processing); strict raises DecodeError with the offset."""
    if is_whatwg(encoding):
        enc = lookup(encoding)
        assert enc is not None
        return enc.decode(data, errors=errors, bom="ignore")
    info = _python_codec(encoding)
    try:
        return info.decode(data, errors)[0]
    except UnicodeDecodeError as exc:
        raise DecodeError(encoding, exc.object, exc.start, exc.end, exc.reason) from None


def encode_as(text: str, encoding: str, errors: str = "strict") -> bytes:
    """Encode ``text`` with ``encoding``; strict raises EncodeError (a UnicodeEncodeError)."""
    if is_whatwg(encoding):
        enc = lookup(encoding)
        assert enc is not None
        return enc.encode(text, errors=errors)
    return _python_codec(encoding).encode(text, errors)[0]
