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

#: CNS 11643 planes in the order of ``_euc_tw.bin`` (tools/gen_extra_codecs.py's EUC_TW_PLANES)
EUC_TW_PLANES = (1, 2, 3, 4, 5, 6, 7, 15)
_PLANE_SIZE = 94 * 94
#: the second byte of a four-byte sequence -> the plane's start in the table
_PLANE_START = {0xA0 + plane: k * _PLANE_SIZE for k, plane in enumerate(EUC_TW_PLANES)}
_ASCII_RUN = re.compile(rb"[\x00-\x7f]+")
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


def _euc_tw_sequence(data: bytes, i: int) -> tuple[int, int]:
    """(table position of the character at ``i``, its length); position -1 for an illegal sequence (the
    length is then 0 when the input ends inside a sequence that could still be legal)."""
    n, lead = len(data), data[i]
    if 0xA1 <= lead <= 0xFE:
        start, size = 0, 2
    elif lead == 0x8E:
        if i + 1 < n and data[i + 1] not in _PLANE_START:
            return -1, 1
        start, size = (_PLANE_START[data[i + 1]] if i + 1 < n else 0), 4
    else:
        return -1, 1
    tail = data[i + size - 2 : i + size]
    if any(not 0xA1 <= b <= 0xFE for b in tail):
        return -1, 1
    if i + size > n:
        return -1, 0
    return start + (tail[0] - 0xA1) * 94 + tail[1] - 0xA1, size


def euc_tw_decode(data: bytes, errors: str = "strict", final: bool = True) -> tuple[str, int]:
    """Decode EUC-TW: (text, bytes consumed). Unless ``final``, a sequence cut off at the end is left
    unconsumed (for the incremental decoder)."""
    table = _euc_tw_table()
    out: list[str] = []
    i, n = 0, len(data)
    while i < n:
        if data[i] < 0x80:
            end = _ASCII_RUN.match(data, i).end()  # type: ignore[union-attr]
            out.append(data[i:end].decode("ascii"))
            i = end
            continue
        at, size = _euc_tw_sequence(data, i)
        if at >= 0 and table[at] != "\0":
            out.append(table[at])
            i += size
            continue
        if size == 0 and not final:
            break
        reason, end = (_INCOMPLETE, n) if size == 0 else (_ILLEGAL, i + 1)
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
