"""Python codec names for detection results: chardet's familiar names when they decode exactly as mojifix.

A detection result names an encoding the WHATWG way (``windows-1252``, ``Shift_JIS``) or by its CPython
codec (``cp437``). chardet users pass the name straight to ``bytes.decode``, so the name given back must be
a Python codec *and* decode the input to mojifix's text. CPython's codec of the same name often differs from
the standard's decoder (``windows-1252`` leaves five bytes undefined, ``shift_jis`` lacks Microsoft's
extensions), but only on some bytes: each name below is therefore tried *on the input itself* and kept only
when it decodes it strictly to the same text; otherwise the answer is mojifix's own registered codec
(``whatwg-windows-1252``), which decodes every input exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import mojifix.whatwg  # noqa: F401 - registers the whatwg-* Python codecs that answers may name
from mojifix.detect.result import Candidate, Detection
from mojifix.textcodec import decode_as, is_whatwg
from mojifix.whatwg import lookup

__all__ = ["BOM_NAMES", "CHARDET_NAMES", "Named", "mojifix_text", "named_candidates", "python_name"]

#: WHATWG encoding -> Python codec names chardet users know, in order of preference: the superset
#: first where CPython has one (``CP932`` before ``SHIFT_JIS``), as chardet itself does with
#: ``prefer_superset``, since it also decodes text beyond what was examined. Names are spelled as
#: chardet prints them; every one is a codec ``codecs.lookup`` knows (tests/compat/test_names.py).
CHARDET_NAMES: dict[str, tuple[str, ...]] = {
    "UTF-8": ("utf-8",),
    "UTF-16LE": ("UTF-16LE",),
    "UTF-16BE": ("UTF-16BE",),
    "IBM866": ("IBM866",),
    "ISO-8859-2": ("ISO-8859-2",),
    "ISO-8859-3": ("ISO-8859-3",),
    "ISO-8859-4": ("ISO-8859-4",),
    "ISO-8859-5": ("ISO-8859-5",),
    "ISO-8859-6": ("ISO-8859-6",),
    "ISO-8859-7": ("ISO-8859-7",),
    "ISO-8859-8": ("ISO-8859-8",),
    "ISO-8859-8-I": ("ISO-8859-8",),
    "ISO-8859-10": ("ISO-8859-10",),
    "ISO-8859-13": ("ISO-8859-13",),
    "ISO-8859-14": ("ISO-8859-14",),
    "ISO-8859-15": ("ISO-8859-15",),
    "ISO-8859-16": ("ISO-8859-16",),
    "KOI8-R": ("KOI8-R",),
    "KOI8-U": ("KOI8-U",),
    "macintosh": ("MacRoman",),
    "windows-874": ("CP874", "TIS-620"),
    "windows-1250": ("Windows-1250",),
    "windows-1251": ("Windows-1251",),
    "windows-1252": ("Windows-1252",),
    "windows-1253": ("Windows-1253",),
    "windows-1254": ("Windows-1254",),
    "windows-1255": ("Windows-1255",),
    "windows-1256": ("Windows-1256",),
    "windows-1257": ("Windows-1257",),
    "windows-1258": ("Windows-1258",),
    "x-mac-cyrillic": ("MacCyrillic",),
    "GBK": ("GBK", "GB18030"),
    "gb18030": ("GB18030",),
    "Big5": ("Big5", "CP950", "Big5-HKSCS"),
    "EUC-JP": ("EUC-JP",),
    "ISO-2022-JP": ("ISO-2022-JP",),
    "Shift_JIS": ("CP932", "SHIFT_JIS"),
    "EUC-KR": ("CP949", "EUC-KR"),
}

#: encodings named by a byte order mark -> the Python codec that strips exactly that BOM and decodes the rest
BOM_NAMES: dict[str, str] = {
    "UTF-8": "UTF-8-SIG",
    "UTF-16LE": "UTF-16",
    "UTF-16BE": "UTF-16",
    "utf-32-le": "UTF-32",
    "utf-32-be": "UTF-32",
}
_BOM_LENGTH = {"UTF-8": 3, "UTF-16LE": 2, "UTF-16BE": 2, "utf-32-le": 4, "utf-32-be": 4}


@dataclass(frozen=True, slots=True)
class Named:
    """One candidate as the shims report it: the Python codec name and mojifix's text of the input."""

    name: str
    text: str
    candidate: Candidate


def mojifix_text(data: bytes, encoding: str, bom: str | None) -> tuple[str, bool]:
    """(mojifix's text of ``data`` read as ``encoding``, True when every byte was valid).

    A BOM of that same encoding is not part of the text, as in the standard's "decode" and in
    ``mojifix convert``. Invalid bytes become U+FFFD (and the flag is False).
    """
    body = data[_BOM_LENGTH[encoding] :] if bom == encoding else data
    try:
        return decode_as(body, encoding), True
    except UnicodeDecodeError:
        return decode_as(body, encoding, "replace"), False


def _decodes_to(data: bytes, name: str, text: str) -> bool:
    try:
        return data.decode(name) == text
    except (UnicodeDecodeError, LookupError):
        return False


def python_name(data: bytes, cand: Candidate, bom: str | None, ascii_verdict: bool = False) -> Named:
    """The chardet-style Python codec name and mojifix's text for ``data`` read as ``cand.encoding``."""
    encoding = cand.encoding
    text, valid = mojifix_text(data, encoding, bom)
    if bom == encoding:
        return Named(BOM_NAMES[encoding], text, cand)
    tried = ("ascii",) if ascii_verdict else ()
    tried += CHARDET_NAMES.get(encoding, ()) if is_whatwg(encoding) else (encoding,)
    if valid:
        for name in tried:
            if _decodes_to(data, name, text):
                return Named(name, text, cand)
    if is_whatwg(encoding):
        enc = lookup(encoding)
        assert enc is not None
        return Named(enc.codec_name, text, cand)  # mojifix's registered codec: exact on every input
    return Named(encoding, text, cand)  # a CPython codec already: decoding with it *is* mojifix's text


def named_candidates(data: bytes, detection: Detection, limit: int | None = None) -> list[Named]:
    """Every candidate of ``detection``, best first, named for ``bytes.decode``; duplicates dropped.

    ``limit``: stop after this many (naming one decodes the whole input, so a caller that wants only
    the best asks for one).
    """
    out: list[Named] = []
    seen: set[str] = set()
    for cand in detection.candidates:
        if len(out) == limit:
            break
        named = python_name(data, cand, detection.bom, detection.verdict == "ascii")
        if named.name in seen:
            continue
        seen.add(named.name)
        out.append(named)
    return out
