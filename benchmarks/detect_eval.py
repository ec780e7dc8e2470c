"""The fair metric and the encoding families shared by the detection reports (dev set, test set).

A detector is right on a file when decoding the bytes with its answer gives the true text under
either mapping convention, Python's codec or the WHATWG decoder of the answer's name (so the
``Shift_JIS`` / ``cp932`` tables are never held against anyone), and the true text is the file's bytes
decoded with its truth label under either convention. A leading U+FEFF is ignored on both sides (a
BOM is the encoding's signature, not text).
"""

from __future__ import annotations

import codecs
import contextlib
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

#: Python codec name (``codecs.lookup(x).name``) -> family, as the issue groups them
_FAMILY_CODECS: dict[str, tuple[str, ...]] = {
    "japanese": ("shift_jis", "cp932", "euc_jp", "iso2022_jp", "shift_jis_2004", "euc_jis_2004"),
    "chinese-simpl": ("gb2312", "gbk", "gb18030", "hz"),
    "chinese-trad": ("big5", "big5hkscs", "cp950", "euc_tw"),
    "korean": ("euc_kr", "cp949", "johab", "iso2022_kr"),
    "latin-western": ("iso8859-1", "latin-1", "iso8859-15", "cp1252"),
    "latin-central": ("iso8859-2", "iso8859-16", "cp1250"),
    "latin-other": (
        "iso8859-3", "iso8859-4", "iso8859-9", "iso8859-10", "iso8859-13", "iso8859-14",
        "cp1254", "cp1257", "cp1258",
    ),
    "cyrillic": ("iso8859-5", "cp1251", "koi8-r", "koi8-u", "koi8-t", "ptcp154", "kz1048"),
    "greek": ("iso8859-7", "cp1253"),
    "hebrew": ("iso8859-8", "cp1255"),
    "arabic": ("iso8859-6", "cp1256"),
    "thai": ("tis-620", "iso8859-11", "cp874"),
    "dos-oem": (
        "cp437", "cp720", "cp737", "cp775", "cp850", "cp852", "cp855", "cp856", "cp857", "cp858",
        "cp860", "cp861", "cp862", "cp863", "cp864", "cp865", "cp866", "cp869", "cp1125",
    ),
    "ebcdic": ("cp037", "cp500", "cp273", "cp1026", "cp1140", "cp875", "cp424"),
    "utf-8": ("utf-8",),
    "utf-16/32": ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"),
    "ascii": ("ascii",),
}  # fmt: skip
FAMILY_OF: dict[str, str] = {c: fam for fam, cs in _FAMILY_CODECS.items() for c in cs}
#: families that are not the legacy encodings the issue counts apart
UNICODE_FAMILIES = frozenset({"utf-8", "utf-16/32", "ascii"})


def python_codec(label: str) -> str | None:
    """CPython's canonical codec name for ``label``, or None when CPython has no such codec."""
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def family(label: str) -> str:
    """The family of a truth label (``mac`` for the Mac code pages, ``other`` when unknown)."""
    name = python_codec(label)
    if name is None:
        return "other"
    if name.startswith("mac-") or name.startswith("mac_"):
        return "mac"
    return FAMILY_OF.get(name, "other")


def decodings(data: bytes, label: str) -> set[str]:
    """Every text ``data`` decodes to under ``label`` strictly: Python's codec and the WHATWG decoder."""
    from mojifix.whatwg import lookup

    out: set[str] = set()
    name = python_codec(label)
    if name is not None:
        with contextlib.suppress(UnicodeDecodeError, UnicodeError):
            out.add(data.decode(name))
    enc = lookup(label)
    if enc is not None:
        with contextlib.suppress(UnicodeDecodeError, ValueError):
            out.add(enc.decode(data, errors="strict", bom="ignore"))
    return {t.removeprefix("\ufeff") for t in out}


def is_right(data: bytes, answer: str | None, truths: Iterable[str]) -> bool:
    """Whether decoding ``data`` with ``answer`` gives one of the true texts."""
    if not answer:
        return False
    if answer == "ascii" or answer.lower() in ("us-ascii", "ascii"):
        answer = "windows-1252" if not data.isascii() else "utf-8"
    return bool(decodings(data, answer) & set(truths))


#: confidence bands of the reliability tables: (low, high), high exclusive except the last
BANDS: tuple[tuple[float, float], ...] = ((0.0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 0.99), (0.99, 1.0001))


def band_of(confidence: float) -> str:
    """The band label of a confidence."""
    for lo, hi in BANDS:
        if lo <= confidence < hi:
            return f"[{lo:.2f}, {min(hi, 1.0):.2f}{']' if hi > 1 else ')'}"
    return "?"


def band_labels() -> list[str]:
    """Band labels in order."""
    return [band_of(lo) for lo, _ in BANDS]
