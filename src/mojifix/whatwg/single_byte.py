"""The standard's 28 legacy single-byte encodings (https://encoding.spec.whatwg.org/#legacy-single-byte-encodings).

Why not CPython's cp1252 & co.: they leave bytes undefined that the standard maps (cp1252 rejects 0x81,
0x8D, 0x8F, 0x90, 0x9D, which the web decodes to C1 controls) and some map bytes differently (koi8_u
0xAE/0xBE). Here each decoder is CPython's C ``charmap`` codec driven by a 256-entry table built from the
standard's own index (``_tables.INDEXES``), so decoding runs at C speed and is exact by construction:

* bytes 0x00-0x7F decode to themselves (single-byte decoder step 2);
* byte 0x80 + pointer decodes to the index's code point for pointer; a pointer without an entry is a
  decoder error (steps 3-4), which the charmap codec reports because the table holds U+FFFE there
  (CPython's "undefined" marker; no index maps to U+FFFE).

The encoder is the inverse charmap (``codecs.charmap_build``). The standard's single-byte encoder uses
the *first* pointer for a code point ("index pointer"); no single-byte index maps two pointers to one code
point or maps a pointer to an ASCII code point (checked by tests/conformance/test_single_byte_indexes.py),
so the inverse table is exact.
"""

from __future__ import annotations

import codecs

from mojifix.whatwg._base import WhatwgCodec
from mojifix.whatwg._common import (
    as_bytes,
    as_text,
    check_decode_errors,
    decode_error,
    strict_then_html,
)
from mojifix.whatwg._tables import ENCODINGS, INDEXES, NO_ENTRY

__all__ = ["CODECS", "CharmapCodec", "StatelessIncrementalDecoder"]

#: CPython's charmap codec treats U+FFFE in a decoding table as "this byte is undefined".
_CHARMAP_UNDEFINED = "\ufffe"
_ASCII = "".join(map(chr, range(0x80)))

#: Single-byte encodings whose index file is named differently from the encoding.
_INDEX_NAME = {"ISO-8859-8-I": "iso-8859-8"}


class StatelessIncrementalDecoder(codecs.IncrementalDecoder):
    """Incremental decoder for a decoder without state between bytes: each piece decodes on its own."""

    def __init__(self, codec: WhatwgCodec, errors: str = "replace") -> None:
        super().__init__(check_decode_errors(errors))
        self._codec = codec

    def decode(self, input: bytes, final: bool = False) -> str:
        return self._codec.decode(as_bytes(input), self.errors)


class CharmapCodec(WhatwgCodec):
    """A decoder/encoder given by a 256-character table (byte -> character, U+FFFE = no mapping)."""

    def __init__(self, name: str, decoding_table: str) -> None:
        if len(decoding_table) != 256:
            raise ValueError(f"{name}: a byte table has 256 entries, got {len(decoding_table)}")
        self.name = name
        self._decoding_table = decoding_table
        self._encoding_map = codecs.charmap_build(decoding_table)

    def decode(self, data: bytes, errors: str = "replace") -> str:
        """Decode every byte through the table; each unmapped byte is one decoder error."""
        data = as_bytes(data)
        check_decode_errors(errors)
        try:
            return codecs.charmap_decode(data, errors, self._decoding_table)[0]
        except UnicodeDecodeError as exc:
            raise decode_error(self.name, exc, data) from None

    def encode(self, text: str, errors: str = "strict") -> bytes:
        """Encode through the inverse table; "html" mode writes ``&#N;`` for unencodable code points."""
        text = as_text(text)
        return strict_then_html(
            self.name, text, errors, lambda t, e: codecs.charmap_encode(t, e, self._encoding_map)[0]
        )

    def incremental_decoder(self, errors: str = "replace") -> codecs.IncrementalDecoder:
        """Single-byte decoders keep no state, so each piece is decoded on its own."""
        return StatelessIncrementalDecoder(self, errors)


def decoding_table(index: str) -> str:
    """The 256-entry charmap table for a single-byte index: ASCII, then the index's 128 pointers."""
    if len(index) != 128:
        raise ValueError(f"a single-byte index has 128 pointers, got {len(index)}")
    return _ASCII + index.replace(NO_ENTRY, _CHARMAP_UNDEFINED)


def _build() -> dict[str, WhatwgCodec]:
    codecs_by_name: dict[str, WhatwgCodec] = {}
    for name, heading in ENCODINGS:
        if heading != "Legacy single-byte encodings":
            continue
        index = INDEXES[_INDEX_NAME.get(name, name.lower())]
        codecs_by_name[name] = CharmapCodec(name, decoding_table(index))
    return codecs_by_name


#: the standard's name -> codec, for the 28 single-byte encodings
CODECS: dict[str, WhatwgCodec] = _build()
