"""The encodings the detector can name, and how it decodes them quickly for ranking.

Names follow the result contract (``mojifix.detect.result``): the WHATWG name for the standard's
encodings, the canonical CPython codec name otherwise. For *ranking* every candidate is decoded with a
C codec: single-byte encodings through ``codecs.charmap_decode`` with a 256-entry table (built from the
WHATWG index for WHATWG encodings, so ``windows-1252`` maps 0x81 to U+0081 exactly as the standard
does), multi-byte ones with the closest CPython codec (``Shift_JIS`` -> ``cp932``, ``EUC-KR`` ->
``cp949``, ``Big5`` -> ``big5hkscs``, ``GBK`` -> ``gb18030``: the standard's GBK decoder *is* the
gb18030 decoder). The final answer is always re-decodable exactly with ``mojifix.textcodec.decode_as``.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from functools import cache

from mojifix import extra_codecs
from mojifix.whatwg._tables import INDEXES, NO_ENTRY

__all__ = [
    "REGISTRY",
    "SAME_LANGUAGES_AS",
    "SERVES",
    "EncodingInfo",
    "by_name",
    "candidates_for",
    "canonical_name",
]

UNDEFINED = "\ufffe"  # charmap_decode's marker for "no mapping": raises (strict) or gives U+FFFD


@dataclass(frozen=True, slots=True)
class EncodingInfo:
    """One detectable encoding.

    ``kind``: "single" (one byte per character, ASCII-compatible), "multi" (ASCII-compatible multi-byte),
    "ebcdic" (single byte, not ASCII-compatible), "utf16", "utf32", "escape" (7-bit stateful).
    ``web``: a WHATWG encoding a browser can decode (``domain="web"`` returns only these).
    """

    name: str
    kind: str
    web: bool
    pycodec: str  # CPython codec used for fast decoding / streaming validation
    index: str | None = None  # WHATWG single-byte index key, if the table comes from the standard

    @property
    def ascii_compatible(self) -> bool:
        return self.kind in ("single", "multi")

    def table(self) -> str:
        """The 256-character decoding table of a single-byte encoding (UNDEFINED where unmapped)."""
        return _table(self.name, self.pycodec, self.index)

    def decode(self, data: bytes, errors: str = "strict") -> str:
        """Fast decode with a C codec (no BOM handling)."""
        if self.kind in ("single", "ebcdic"):
            return codecs.charmap_decode(data, errors, self.table())[0]
        return data.decode(self.pycodec, errors)


@cache
def _table(name: str, pycodec: str, index: str | None) -> str:
    if index is not None:
        high = INDEXES[index]
        return "".join(chr(b) for b in range(128)) + high.replace(NO_ENTRY, UNDEFINED)
    # one decode of all 256 byte values: a single-byte codec gives one character per byte, and
    # "surrogateescape" marks each unmapped byte >= 0x80 as U+DC80 + byte (35 CPython code pages: ~1 ms
    # instead of ~7.6 ms byte by byte, at every process's first detection); a codec that leaves a byte
    # < 0x80 unmapped (cp424) or does not give 256 characters is read byte by byte (_table_bytewise, the
    # reference)
    try:
        text = bytes(range(256)).decode(pycodec, "surrogateescape")
    except UnicodeDecodeError:
        return _table_bytewise(pycodec)
    if len(text) != 256:
        return _table_bytewise(pycodec)
    return _ESCAPED_TO_UNDEFINED.sub(UNDEFINED, text)


_ESCAPED_TO_UNDEFINED = re.compile("[\udc80-\udcff]")


def _table_bytewise(pycodec: str) -> str:
    """The 256-character table by decoding each byte alone (UNDEFINED where it does not decode)."""
    out = []
    for b in range(256):
        try:
            out.append(bytes([b]).decode(pycodec))
        except UnicodeDecodeError:
            out.append(UNDEFINED)
    return "".join(out)


def _w(name: str, index: str) -> EncodingInfo:
    return EncodingInfo(name, "single", True, index, index)


def _f(pycodec: str, kind: str = "single") -> EncodingInfo:
    return EncodingInfo(codecs.lookup(pycodec).name, kind, False, pycodec)


#: Every encoding the detector can name. Order = preference among candidates that decode the input to
#: identical text (the earlier, more widely used name wins), so WHATWG names come first.
REGISTRY: tuple[EncodingInfo, ...] = (
    EncodingInfo("UTF-8", "utf8", True, "utf-8"),
    _w("windows-1252", "windows-1252"),
    _w("windows-1250", "windows-1250"),
    _w("windows-1251", "windows-1251"),
    EncodingInfo("GBK", "multi", True, "gb18030"),
    EncodingInfo("Shift_JIS", "multi", True, "cp932"),
    EncodingInfo("EUC-KR", "multi", True, "cp949"),
    EncodingInfo("Big5", "multi", True, "big5hkscs"),
    EncodingInfo("EUC-JP", "multi", True, "euc_jp"),
    _w("windows-1253", "windows-1253"),
    _w("windows-1254", "windows-1254"),
    _w("windows-1255", "windows-1255"),
    _w("windows-1256", "windows-1256"),
    _w("windows-1257", "windows-1257"),
    _w("windows-1258", "windows-1258"),
    _w("windows-874", "windows-874"),
    _w("KOI8-R", "koi8-r"),
    _w("KOI8-U", "koi8-u"),
    _w("ISO-8859-2", "iso-8859-2"),
    _w("ISO-8859-15", "iso-8859-15"),
    _w("ISO-8859-5", "iso-8859-5"),
    _w("ISO-8859-7", "iso-8859-7"),
    _w("ISO-8859-6", "iso-8859-6"),
    _w("ISO-8859-8", "iso-8859-8"),
    _w("ISO-8859-4", "iso-8859-4"),
    _w("ISO-8859-13", "iso-8859-13"),
    _w("ISO-8859-3", "iso-8859-3"),
    _w("ISO-8859-10", "iso-8859-10"),
    _w("ISO-8859-14", "iso-8859-14"),
    _w("ISO-8859-16", "iso-8859-16"),
    _w("IBM866", "ibm866"),
    _w("macintosh", "macintosh"),
    _w("x-mac-cyrillic", "x-mac-cyrillic"),
    EncodingInfo("UTF-16LE", "utf16", True, "utf-16-le"),
    EncodingInfo("UTF-16BE", "utf16", True, "utf-16-be"),
    EncodingInfo("ISO-2022-JP", "escape", True, "iso2022_jp"),
    # --- domain="file" only -------------------------------------------------------------------
    EncodingInfo("utf-32-le", "utf32", False, "utf-32-le"),
    EncodingInfo("utf-32-be", "utf32", False, "utf-32-be"),
    _f("cp437"),
    _f("cp850"),
    _f("cp852"),
    _f("cp855"),
    _f("cp857"),
    _f("cp858"),
    _f("cp860"),
    _f("cp861"),
    _f("cp862"),
    _f("cp863"),
    _f("cp864"),
    _f("cp865"),
    _f("cp869"),
    _f("cp737"),
    _f("cp775"),
    _f("cp720"),
    _f("cp1125"),
    _f("mac-latin2"),
    _f("mac-greek"),
    _f("mac-turkish"),
    _f("mac-iceland"),
    _f("kz1048"),
    _f("ptcp154"),
    _f("koi8-t"),
    _f("tis-620"),
    _f("johab", "multi"),
    _f("cp037", "ebcdic"),
    _f("cp500", "ebcdic"),
    _f("cp875", "ebcdic"),
    _f("cp1026", "ebcdic"),
    _f("cp1140", "ebcdic"),
    _f("cp273", "ebcdic"),
    _f("cp424", "ebcdic"),
    _f("iso2022_kr", "escape"),
    _f("hz", "escape"),
    # issue 12's coverage pass (docs/detection.md, "Encodings and equivalents"): encodings whose real
    # text no earlier entry decodes to the same characters
    _f("hp_roman8"),
    _f("cp1006"),
    # Vietnamese VISCII (RFC 1456) and Taiwan's EUC-TW (CNS 11643), codecs of mojifix's own
    # (mojifix.extra_codecs): CPython has none
    *(_f(name) for name in extra_codecs.SINGLE_BYTE),
    *(_f(name, "multi") for name in extra_codecs.MULTI_BYTE),
    # UTF-7 (RFC 2152): never a statistical candidate; read only by its own strict stage (detect/utf7.py)
    _f("utf_7", "escape"),
)

#: The languages each national or regional code page was made for (Microsoft's, IBM's and ISO's own
#: descriptions of the code pages: "Baltic", "Vietnamese", "Hebrew"...), as model language codes
#: ("sh" is Serbo-Croatian in Latin letters). A reading in such a code page is judged only in these
#: languages and English (the language of the ASCII markup, code and names around text everywhere):
#: windows-1258 can *encode* most of German, but German notes read through it are not Vietnamese, and
#: letting it read them as German made windows-1252 text "ambiguous vs windows-1258" (issue 12). Code
#: pages meant for Western Europe at large (windows-1252, ISO-8859-15, Mac Roman, DOS 437/850/858/860/
#: 863/865, EBCDIC 037/500/1140) are not listed: any language they can write is theirs. Languages the
#: model lacks (Yiddish, Sami...) are simply absent. ISO-8859-3 was left out while the model had no
#: Maltese (restricted to Esperanto and Turkish, Maltese text read as windows-1252 junk won at 1.0);
#: the model now has Maltese (CLDR's locale data, tools/train_detect.py). Not tuned on any data set.
SERVES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("windows-1250", "ISO-8859-2", "cp852", "mac-latin2"),
        ("cs", "pl", "sk", "sl", "hu", "sh", "ro", "sq", "de"),
    ),
    "ISO-8859-16": ("ro", "pl", "hu", "sh", "sl", "sq", "de", "fr", "it", "ga", "fi"),
    **dict.fromkeys(
        ("windows-1251", "ISO-8859-5", "x-mac-cyrillic", "cp855"),
        ("ru", "uk", "be", "bg", "mk", "sr", "ky", "mn", "tt", "kk", "tg"),
    ),
    "KOI8-R": ("ru", "bg"),
    "KOI8-U": ("uk", "ru", "be"),
    "IBM866": ("ru", "uk", "be", "bg", "mk", "sr"),
    "cp1125": ("uk", "ru"),
    "kz1048": ("kk", "ru"),
    "ptcp154": ("kk", "ru"),
    "koi8-t": ("tg", "ru"),
    **dict.fromkeys(("windows-1253", "ISO-8859-7", "cp737", "cp869", "mac-greek", "cp875"), ("el",)),
    **dict.fromkeys(("windows-1254", "cp857", "mac-turkish", "cp1026"), ("tr", "az")),
    **dict.fromkeys(("windows-1255", "ISO-8859-8", "cp862", "cp424"), ("he",)),
    **dict.fromkeys(("windows-1256", "ISO-8859-6", "cp720", "cp864"), ("ar", "fa", "ur")),
    "cp1006": ("ur",),  # IBM's Urdu page (Arabic presentation forms)
    **dict.fromkeys(("windows-1257", "ISO-8859-4", "cp775"), ("lt", "lv", "et")),
    # Latin-7 "Baltic Rim": also Polish, Slovenian and the Nordic languages around the Baltic
    "ISO-8859-13": ("lt", "lv", "et", "pl", "sl", "fi", "sv", "da", "nb", "de"),
    # Latin-6 "Nordic": also covers the Baltic letters
    "ISO-8859-10": ("is", "da", "nb", "sv", "fi", "et", "lt", "lv"),
    "ISO-8859-14": ("cy", "ga", "br"),
    # Latin-3 "South European": Maltese and Esperanto (and Turkish, before ISO-8859-9)
    "ISO-8859-3": ("mt", "eo", "tr"),
    **dict.fromkeys(("windows-1258", "viscii"), ("vi",)),
    **dict.fromkeys(("windows-874", "tis-620"), ("th",)),
    **dict.fromkeys(("mac-iceland", "cp861"), ("is",)),
    "cp273": ("de",),
    "GBK": ("zh", "zh_Hant"),
    "hz": ("zh",),
    **dict.fromkeys(("Big5", "euc_tw"), ("zh_Hant",)),
    **dict.fromkeys(("Shift_JIS", "EUC-JP", "ISO-2022-JP"), ("ja",)),
    **dict.fromkeys(("EUC-KR", "johab", "iso2022_kr"), ("ko",)),
}

#: encodings added to the registry after the model was trained that write what another one writes:
#: their languages are that one's (cp1140 is cp037 with the euro sign at 0x9F; CNS 11643, which EUC-TW
#: encodes, has every character of Big5: both were made for Traditional Chinese in Taiwan)
SAME_LANGUAGES_AS: dict[str, str] = {"cp1140": "cp037", "euc_tw": "Big5"}

_BY_NAME = {info.name: info for info in REGISTRY}


def by_name(name: str) -> EncodingInfo | None:
    return _BY_NAME.get(name)


#: WHATWG index names CPython does not know, and the CPython codec that matches them
_PY_EQUIVALENT = {"x-mac-cyrillic": "mac-cyrillic", "windows-874": "cp874"}


def canonical_name(name: str) -> str:
    """The registry name for ``name``: a registry name itself, a WHATWG label ("latin1" ->
    "windows-1252", "sjis" -> "Shift_JIS") or a CPython codec alias ("cp-850", "mac_greek").

    Raises :class:`mojifix.errors.UnknownEncodingError` (with close registry names as suggestions)
    for anything else, so that a mistyped ``--prefer`` fails loudly instead of restricting to nothing.
    """
    if name in _BY_NAME:
        return name
    from mojifix.whatwg import lookup

    # (CPython spells some WHATWG labels with "_": "euc_kr" is the label "euc-kr")
    enc = lookup(name) or lookup(name.replace("_", "-"))
    if enc is not None and enc.name in _BY_NAME:
        return enc.name
    try:
        py = codecs.lookup(name).name
    except LookupError:
        py = None
    if py is not None:
        for info in REGISTRY:  # registry order: the WHATWG name wins ("cp1252" -> "windows-1252")
            try:
                if codecs.lookup(_PY_EQUIVALENT.get(info.name, info.pycodec)).name == py:
                    return info.name
            except LookupError:
                continue
    import difflib

    from mojifix.errors import UnknownEncodingError

    raise UnknownEncodingError(name, difflib.get_close_matches(name, list(_BY_NAME), n=3, cutoff=0.5))


def candidates_for(domain: str, restrict: frozenset[str] | None = None) -> tuple[EncodingInfo, ...]:
    """The encodings allowed for ``domain`` ("web" or "file"), optionally restricted to ``restrict``."""
    out = _domain_candidates(domain)
    if restrict is not None:
        out = tuple(info for info in out if info.name in restrict)
    return out


@cache
def _domain_candidates(domain: str) -> tuple[EncodingInfo, ...]:
    """:func:`candidates_for` without a restriction (the registry is fixed: computed once per domain)."""
    return tuple(info for info in REGISTRY if domain == "file" or info.web)
