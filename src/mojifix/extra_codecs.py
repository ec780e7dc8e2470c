"""Codecs CPython lacks for code pages the detector names: VISCII (RFC 1456, Vietnamese).

Registered with :func:`codecs.register` when this module is imported (the detector's registry imports
it), so ``bytes.decode("viscii")``, :func:`mojifix.textcodec.decode_as`, incremental decoders and
``mojifix convert``'s strict round trip all work the way they do for CPython's own single-byte codecs.
The search function answers only for the names listed here: nothing CPython already has is shadowed.

The tables come from Debian's ``locales`` character maps (``tools/gen_extra_codecs.py``). VISCII puts
Vietnamese capitals on six C0 control positions (0x02, 0x05, 0x06, 0x14, 0x19, 0x1E) and letters on
every byte 0x80-0xFF; the other bytes are ASCII.
"""

from __future__ import annotations

import codecs

from mojifix._extra_codec_tables import TABLES

__all__ = ["NAMES", "register"]

#: the codec names this module provides (lower case, as codecs.lookup normalises them)
NAMES = tuple(TABLES)


def _codec_info(name: str) -> codecs.CodecInfo:
    decoding = TABLES[name]
    encoding = codecs.charmap_build(decoding)

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, encoding)

    def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, decoding)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, text: str, final: bool = False) -> bytes:
            return codecs.charmap_encode(text, self.errors, encoding)[0]

    class IncrementalDecoder(codecs.IncrementalDecoder):
        def decode(self, data: bytes, final: bool = False) -> str:
            return codecs.charmap_decode(data, self.errors, decoding)[0]

    class StreamWriter(codecs.StreamWriter):
        def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
            return codecs.charmap_encode(text, errors, encoding)

    class StreamReader(codecs.StreamReader):
        def decode(self, data: bytes, errors: str = "strict") -> tuple[str, int]:
            return codecs.charmap_decode(data, errors, decoding)

    return codecs.CodecInfo(
        name=name,
        encode=encode,
        decode=decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamwriter=StreamWriter,
        streamreader=StreamReader,
    )


_INFOS = {name: _codec_info(name) for name in NAMES}


def _search(name: str) -> codecs.CodecInfo | None:
    return _INFOS.get(name.lower().replace("-", "_").replace(" ", "_"))


_registered = False


def register() -> None:
    """Register the search function once (idempotent; importing this module does it)."""
    global _registered
    if not _registered:
        codecs.register(_search)
        _registered = True


register()
