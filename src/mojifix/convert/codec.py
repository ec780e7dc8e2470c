"""Exact strict decode / re-encode by detection-result encoding names, plus the few name rules convert needs.

UTF-8 and UTF-16LE/BE go through CPython's codecs: their strict behaviour is the WHATWG decoders'
(both reject overlongs, surrogates and truncated sequences; UTF-16 rejects lone surrogates) and they
run at C speed. Every other name goes through :mod:`mojifix.textcodec` (exact WHATWG, or the named
CPython codec outside the standard's 40).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from mojifix.textcodec import decode_as, encode_as, is_whatwg
from mojifix.whatwg import lookup

__all__ = [
    "canonical_name",
    "decode_strict",
    "encode_strict",
    "incremental_decoder",
    "reencode_name",
    "reencodes_to",
    "same_decoder",
    "try_decode",
]

_PY_FAST = {"UTF-8": "utf-8", "UTF-16LE": "utf-16-le", "UTF-16BE": "utf-16-be"}

#: encodings whose WHATWG decoders are one and the same algorithm (Encoding Standard §10.1: "GBK"'s
#: decoder is gb18030's decoder); the value is the encoder that can encode everything that decoder
#: produces (GBK's encoder cannot encode what gb18030's four-byte sequences decode to).
_DECODER_GROUP = {"GBK": "gb18030", "gb18030": "gb18030"}


def canonical_name(name: str) -> str:
    """A user-given label ("big5", "gbk", "latin1", "cp437") as the name detection results use."""
    enc = lookup(name)
    if enc is not None:
        return enc.name
    return codecs.lookup(name).name  # raises LookupError for unknown names


def reencode_name(encoding: str) -> str:
    """The encoding used for the lossless re-encode check of text decoded with ``encoding``."""
    return _DECODER_GROUP.get(encoding, encoding)


def same_decoder(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` decode every byte sequence identically (e.g. GBK and gb18030)."""
    return a == b or (a in _DECODER_GROUP and _DECODER_GROUP.get(a) == _DECODER_GROUP.get(b))


def decode_strict(data: bytes, encoding: str) -> str:
    """Decode every byte strictly (no BOM handling); raises UnicodeDecodeError with the offset."""
    fast = _PY_FAST.get(encoding)
    if fast is not None:
        return data.decode(fast)
    return decode_as(data, encoding, "strict")


def try_decode(data: bytes, encoding: str) -> str | None:
    """Strict decode, or None when any byte is invalid (or the encoding is unknown)."""
    try:
        return decode_strict(data, encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def encode_strict(text: str, encoding: str) -> bytes:
    """Encode strictly with ``encoding``; raises UnicodeEncodeError on an unencodable character."""
    fast = _PY_FAST.get(encoding)
    if fast is not None:
        return text.encode(fast)
    return encode_as(text, encoding, "strict")


#: ISO-2022-KR's designation of KS X 1001 to G1 (RFC 1557: "ESC $ ) C" once, at the start of a line,
#: before any SO). CPython's encoder writes it just before the first SO, writers following the RFC at
#: the very start of the text: the same text, and only the header's place differs.
_KR_DESIGNATION = b"\x1b$)C"


def reencodes_to(text: str, encoding: str, source: bytes) -> bool:
    """True when encoding ``text`` strictly with ``encoding`` gives back ``source`` exactly, counting
    RFC 1557's header placement as the same bytes (see :data:`_KR_DESIGNATION`)."""
    try:
        again = encode_strict(text, encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    if again == source:
        return True
    if encoding == "iso2022_kr" and source.startswith(_KR_DESIGNATION) and source.count(_KR_DESIGNATION) == 1:
        return _KR_DESIGNATION + again.replace(_KR_DESIGNATION, b"", 1) == source
    return False


def incremental_decoder(encoding: str) -> Callable[[bytes, bool], str]:
    """A strict incremental decoder's ``decode(chunk, final)`` for the streaming path."""
    fast = _PY_FAST.get(encoding)
    if fast is not None:
        return codecs.getincrementaldecoder(fast)("strict").decode
    if is_whatwg(encoding):
        enc = lookup(encoding)
        assert enc is not None
        return enc.incremental_decoder(errors="strict", bom="ignore").decode
    return codecs.getincrementaldecoder(encoding)("strict").decode
