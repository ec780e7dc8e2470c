"""The WHATWG Encoding Standard (https://encoding.spec.whatwg.org/).

PROVISIONAL: this interface is final, the implementation below is a placeholder on top of
CPython codecs, being replaced by the exact implementation (issue 2).
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from mojifix.errors import DecodeError, UnknownEncodingError
from mojifix.whatwg._tables import ENCODINGS, LABELS

__all__ = ["Encoding", "bom_sniff", "decode", "encode", "lookup"]

_ASCII_WHITESPACE = "\t\n\f\r "
_PY = {
    "UTF-8": "utf-8", "UTF-16LE": "utf-16-le", "UTF-16BE": "utf-16-be", "IBM866": "cp866",
    "ISO-8859-8-I": "iso-8859-8", "KOI8-R": "koi8-r", "KOI8-U": "koi8-u", "macintosh": "mac-roman",
    "windows-874": "cp874", "x-mac-cyrillic": "mac-cyrillic", "GBK": "gb18030", "gb18030": "gb18030",
    "Big5": "big5hkscs", "EUC-JP": "euc-jp", "ISO-2022-JP": "iso2022-jp", "Shift_JIS": "cp932",
    "EUC-KR": "cp949", "x-user-defined": "latin-1", "replacement": "utf-8",
}


@dataclass(frozen=True, slots=True)
class Encoding:
    """One of the standard's 40 encodings, by its standard name."""

    name: str

    @property
    def codec_name(self) -> str:
        """Name registered with Python's codec registry: ``whatwg-`` + lowercase name."""
        return "whatwg-" + self.name.lower()

    def _py(self) -> str:
        return _PY.get(self.name, self.name.lower())

    def decode(self, data: bytes, errors: str = "replace", bom: str = "sniff") -> str:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"decode() takes bytes, not {type(data).__name__}")
        try:
            return bytes(data).decode(self._py(), errors)
        except UnicodeDecodeError as exc:
            raise DecodeError(self.name, exc.object, exc.start, exc.end, exc.reason) from None

    def encode(self, text: str, errors: str = "strict") -> bytes:
        handler = "xmlcharrefreplace" if errors == "html" else errors
        return text.encode(self._py(), handler)

    def incremental_decoder(self, errors: str = "replace", bom: str = "sniff") -> codecs.IncrementalDecoder:
        return codecs.getincrementaldecoder(self._py())(errors)


_BY_NAME = {name: Encoding(name) for name, _ in ENCODINGS}


def lookup(label: str) -> Encoding | None:
    """The standard's "get an encoding": strip ASCII whitespace, ASCII-lowercase, look up."""
    name = LABELS.get(label.strip(_ASCII_WHITESPACE).lower())
    return None if name is None else _BY_NAME[name]


def _require(label: str) -> Encoding:
    enc = lookup(label)
    if enc is None:
        raise UnknownEncodingError(label)
    return enc


def decode(data: bytes, label: str = "utf-8", errors: str = "replace", bom: str = "sniff") -> str:
    return _require(label).decode(data, errors=errors, bom=bom)


def encode(text: str, label: str = "utf-8", errors: str = "strict") -> bytes:
    return _require(label).encode(text, errors=errors)


def bom_sniff(data: bytes) -> Encoding | None:
    """The standard's "BOM sniff": UTF-8, UTF-16BE or UTF-16LE BOM, else None."""
    if data[:3] == b"\xef\xbb\xbf":
        return _BY_NAME["UTF-8"]
    if data[:2] == b"\xfe\xff":
        return _BY_NAME["UTF-16BE"]
    if data[:2] == b"\xff\xfe":
        return _BY_NAME["UTF-16LE"]
    return None
