"""The Python codec name that makes a client's own ``.text`` equal mojifix's decoded text, exactly.

requests (``str(content, resp.encoding, "replace")``), httpx (``codecs.getincrementaldecoder(...)``) and
Scrapy (``bytes.decode(response.encoding, "replace")``) all decode with a *Python codec name*. Handing them
the WHATWG encoding name is not enough: CPython's ``windows-1252`` leaves 0x81/0x8D/0x8F/0x90/0x9D undefined
where the Encoding Standard maps them to C1 controls, CPython's ``gbk`` has no 0x80 euro, ``shift_jis`` is
not the standard's Shift_JIS, and ``x-user-defined`` or ``replacement`` do not exist at all. This module
picks, for one decision:

1. a BOM at the start (the standard's "decode" always lets it win): ``utf-8-sig`` or ``utf-16``, which strip
   exactly one BOM as the standard does;
2. otherwise the CPython codec when it decodes *every* byte sequence exactly as the standard does
   (:data:`NATIVE_EXACT`, checked byte-for-byte against the standard's indexes by the test suite);
3. otherwise mojifix's own codec, registered with Python as ``whatwg-<name lowercased>``.
"""

from __future__ import annotations

import codecs

from mojifix.errors import UnknownEncodingError
from mojifix.whatwg import Encoding, bom_sniff, lookup

__all__ = ["NATIVE_EXACT", "python_codec_name"]

#: WHATWG name -> CPython codec that decodes every input exactly like the standard's decoder.
#: Single-byte entries were compared on all 256 bytes with the standard's indexes (see
#: tests/integrations/test_codec.py, which re-checks them); the UTF entries follow the same
#: "maximal subpart" replacement rule as the standard (checked there by property tests).
#: Left out on purpose (CPython differs): windows-874 and windows-1250..1255/1257/1258 (undefined C1
#: bytes), KOI8-U (0xAE, 0xBE are KOI8-RU letters in the standard), every CJK encoding, ISO-2022-JP,
#: x-user-defined, replacement.
NATIVE_EXACT: dict[str, str] = {
    "UTF-8": "utf-8",
    "UTF-16LE": "utf-16-le",
    "UTF-16BE": "utf-16-be",
    "IBM866": "cp866",
    "ISO-8859-2": "iso-8859-2",
    "ISO-8859-3": "iso-8859-3",
    "ISO-8859-4": "iso-8859-4",
    "ISO-8859-5": "iso-8859-5",
    "ISO-8859-6": "iso-8859-6",
    "ISO-8859-7": "iso-8859-7",
    "ISO-8859-8": "iso-8859-8",
    "ISO-8859-8-I": "iso-8859-8",  # same index; the "-I" only changes bidi handling in a renderer
    "ISO-8859-10": "iso-8859-10",
    "ISO-8859-13": "iso-8859-13",
    "ISO-8859-14": "iso-8859-14",
    "ISO-8859-15": "iso-8859-15",
    "ISO-8859-16": "iso-8859-16",
    "KOI8-R": "koi8-r",
    "macintosh": "mac-roman",
    "windows-1256": "cp1256",
    "x-mac-cyrillic": "mac-cyrillic",
}

#: Python codecs that strip one leading BOM of their own kind and then decode like the standard.
_BOM_CODECS: dict[str, str] = {"UTF-8": "utf-8-sig", "UTF-16LE": "utf-16", "UTF-16BE": "utf-16"}


def _registered(name: str) -> bool:
    try:
        codecs.lookup(name)
    except LookupError:
        return False
    return True


def python_codec_name(encoding: str | Encoding, body: bytes | None = None) -> str:
    """The Python codec name whose ``decode(body, "replace")`` equals the standard's "decode" of ``body``.

    ``encoding`` is the decision's WHATWG name (``DecodedHTML.encoding``); ``body`` is the bytes that were
    decoded, needed only to see whether a BOM (which the decision's text does not contain) leads them.
    Raises UnknownEncodingError when the name is no WHATWG encoding, or when mojifix's ``whatwg-*``
    codecs are not registered (import ``mojifix.whatwg`` to register them).
    """
    enc = encoding if isinstance(encoding, Encoding) else lookup(encoding)
    if enc is None:
        raise UnknownEncodingError(str(encoding))
    # Encoding Standard, "decode" step 1-3: a BOM overrides the encoding and is not part of the text.
    if body:
        bom = bom_sniff(body[:3])
        if bom is not None and bom.name == enc.name:
            return _BOM_CODECS[enc.name]
    native = NATIVE_EXACT.get(enc.name)
    if native is not None:
        return native
    if not _registered(enc.codec_name):
        raise UnknownEncodingError(enc.codec_name)
    return enc.codec_name
