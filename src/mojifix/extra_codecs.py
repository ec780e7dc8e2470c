"""Codecs CPython lacks for encodings the detector names: VISCII (RFC 1456, Vietnamese) and EUC-TW
(CNS 11643, Traditional Chinese as Taiwan's Unix systems wrote it).

Registered with :func:`codecs.register` when this module is imported (the detector's registry imports
it), so ``bytes.decode("viscii")``, :func:`mojifix.textcodec.decode_as`, incremental decoders and
``mojifix convert``'s strict round trip all work the way they do for CPython's own codecs. The search
function answers only for the names listed here: nothing CPython already has is shadowed.

The tables come from Debian's ``locales`` character maps (``tools/gen_extra_codecs.py``). VISCII puts
Vietnamese capitals on six C0 control positions (0x02, 0x05, 0x06, 0x14, 0x19, 0x1E) and letters on
every byte 0x80-0xFF; the other bytes are ASCII.

EUC-TW is ASCII, two bytes 0xA1-0xFE for a character of CNS 11643 plane 1, or four bytes (0x8E, 0xA0 +
the plane number, two bytes 0xA1-0xFE) for any plane glibc has (1-7 and 15). It is decoded in Python:
the encoding is rare, and the detector's validators reach an EUC-KR, GB2312 or EUC-JP text's first
position that CNS 11643 lacks within a few characters. Errors are reported the way CPython's CJK codecs
report them: one byte at a time ("illegal multibyte sequence"), and a sequence cut off by the end of the
input as "incomplete multibyte sequence". A character is encoded in its shortest form (plane 1 in two
bytes), so a file that uses the four-byte form of plane 1 does not survive a strict round trip.
"""

from __future__ import annotations

import codecs
import re
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path

from mojifix._extra_codec_tables import TABLES

__all__ = ["MULTI_BYTE", "NAMES", "SINGLE_BYTE", "register"]

#: the single-byte codecs of this module (charmap tables)
SINGLE_BYTE = tuple(TABLES)
#: the multi-byte codecs of this module (decoded by their own functions, not by a charmap)
MULTI_BYTE = ("euc_tw",)
#: the codec names this module provides (lower case, as codecs.lookup normalises them)
NAMES = (*SINGLE_BYTE, *MULTI_BYTE)


#: ``encode(text, errors) -> (bytes, characters consumed)`` and ``decode(data, errors, final) -> (text,
#: bytes consumed)``: what a codec of this module is made of (:func:`_codec_info`)
Encode = Callable[[str, str], tuple[bytes, int]]
Decode = Callable[[bytes, str, bool], tuple[str, int]]


def _codec_info(name: str, encode: Encode, decode: Decode) -> codecs.CodecInfo:
    """The codec ``name`` made of ``encode`` and ``decode``, with the incremental and stream classes
    CPython's own codecs have (a decoder keeps a sequence cut off at a chunk's end for the next one)."""

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, text: str, final: bool = False) -> bytes:
            return encode(text, self.errors)[0]

    class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
        def _buffer_decode(self, data: bytes, errors: str, final: bool) -> tuple[str, int]:
            return decode(data, errors, final)

    class StreamWriter(codecs.StreamWriter):
        def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
            return encode(text, errors)

    class StreamReader(codecs.StreamReader):
        def decode(self, data: bytes, errors: str = "strict") -> tuple[str, int]:
            return decode(data, errors, False)

    return codecs.CodecInfo(
        name=name,
        encode=lambda text, errors="strict": encode(text, errors),
        decode=lambda data, errors="strict": decode(bytes(data), errors, True),
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamwriter=StreamWriter,
        streamreader=StreamReader,
    )


def _charmap_info(name: str) -> codecs.CodecInfo:
    """A single-byte codec of :data:`TABLES`, on CPython's charmap functions."""
    decoding = TABLES[name]
    encoding = codecs.charmap_build(decoding)
    return _codec_info(
        name,
        lambda text, errors: codecs.charmap_encode(text, errors, encoding),
        lambda data, errors, final: codecs.charmap_decode(data, errors, decoding),
    )


# --- EUC-TW ----------------------------------------------------------------------------------------

#: CNS 11643 planes, in the order of ``_euc_tw.bin`` (tools/gen_extra_codecs.py writes them so)
EUC_TW_PLANES = (1, 2, 3, 4, 5, 6, 7, 15)
_PLANE_SIZE = 94 * 94
#: the second byte of a four-byte sequence -> the plane's start in the table
_PLANE_START = {0xA0 + plane: k * _PLANE_SIZE for k, plane in enumerate(EUC_TW_PLANES)}
#: a run of ASCII, or one well-formed multi-byte sequence: two bytes 0xA1-0xFE, or 0x8E, a plane byte and
#: two bytes 0xA1-0xFE (whether the position has a character is the table's to say). One match finds
#: where a text that is not EUC-TW (a Latin letter, a GBK trail byte below 0xA1) first breaks the form.
_WELL_FORMED = re.compile(rb"[\x00-\x7f]+|[\xa1-\xfe][\xa1-\xfe]|\x8e[\xa1-\xa7\xaf][\xa1-\xfe][\xa1-\xfe]")
#: the start of a well-formed sequence cut off by the end of the input
_CUT_OFF = re.compile(rb"(?:[\xa1-\xfe]|\x8e(?:[\xa1-\xa7\xaf][\xa1-\xfe]?)?)\Z")
_ASCII_TEXT_RUN = re.compile("[\x00-\x7f]+")
_ILLEGAL = "illegal multibyte sequence"
_INCOMPLETE = "incomplete multibyte sequence"


@cache
def _euc_tw_table() -> str:
    """Every plane's 94 x 94 characters (U+0000: no character), read once from ``_euc_tw.bin``."""
    raw = Path(__file__).with_name("_euc_tw.bin").read_bytes()
    return zlib.decompress(raw).decode("utf-32-le")


@cache
def _euc_tw_encoding() -> dict[str, bytes]:
    """Character -> its shortest EUC-TW sequence (the first plane that has it)."""
    table = _euc_tw_table()
    out: dict[str, bytes] = {}
    for k, plane in enumerate(EUC_TW_PLANES):
        prefix = b"" if plane == 1 else bytes((0x8E, 0xA0 + plane))
        for at in range(_PLANE_SIZE):
            char = table[k * _PLANE_SIZE + at]
            if char != "\0" and char not in out:
                out[char] = prefix + bytes((0xA1 + at // 94, 0xA1 + at % 94))
    return out


def euc_tw_decode(data: bytes, errors: str = "strict", final: bool = True) -> tuple[str, int]:
    """Decode EUC-TW: (text, bytes consumed). Unless ``final``, a sequence cut off at the end is left
    unconsumed (for the incremental decoder)."""
    table = _euc_tw_table()
    out: list[str] = []
    i, n = 0, len(data)
    while i < n:
        well_formed = _WELL_FORMED.match(data, i)
        if well_formed is not None:
            seq = well_formed.group()
            if seq[0] < 0x80:
                out.append(seq.decode("ascii"))
                i = well_formed.end()
                continue
            start = 0 if len(seq) == 2 else _PLANE_START[seq[1]]
            char = table[start + (seq[-2] - 0xA1) * 94 + seq[-1] - 0xA1]
            if char != "\0":
                out.append(char)
                i = well_formed.end()
                continue
            reason, end = _ILLEGAL, i + 1  # a position of CNS 11643 without a character
        elif _CUT_OFF.match(data, i):
            if not final:
                break
            reason, end = _INCOMPLETE, n
        else:
            reason, end = _ILLEGAL, i + 1
        exc = UnicodeDecodeError("euc_tw", data, i, end, reason)
        replacement, i = codecs.lookup_error(errors)(exc)
        out.append(replacement)  # type: ignore[arg-type]
    return "".join(out), i


def euc_tw_encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
    """Encode to EUC-TW: (bytes, characters consumed)."""
    encoding = _euc_tw_encoding()
    out: list[bytes] = []
    i, n = 0, len(text)
    while i < n:
        run = _ASCII_TEXT_RUN.match(text, i)
        if run is not None:
            out.append(run.group().encode("ascii"))
            i = run.end()
            continue
        seq = encoding.get(text[i])
        if seq is not None:
            out.append(seq)
            i += 1
            continue
        exc = UnicodeEncodeError("euc_tw", text, i, i + 1, "character not in CNS 11643")
        replacement, i = codecs.lookup_error(errors)(exc)
        out.append(replacement.encode("ascii") if isinstance(replacement, str) else replacement)
    return b"".join(out), n


_INFOS = {
    **{name: _charmap_info(name) for name in SINGLE_BYTE},
    "euc_tw": _codec_info("euc_tw", euc_tw_encode, euc_tw_decode),
}


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
