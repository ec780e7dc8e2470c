"""In-band encoding declarations: ``<?xml encoding>``, ``<meta charset>``, CSS ``@charset``, coding comments.

A declaration is what the file says about itself; it is evidence, not truth (a page re-encoded without
updating its ``<meta>`` declares the wrong encoding), so the detector verifies it by decoding and
``convert`` rewrites it when the output's encoding changes. One parser per kind, each the one its
standard defines:

- ``"xml"``: the HTML Standard's "get an XML encoding" (``mojifix.sniff.xml_declaration``): only at byte 0.
- ``"meta"``: the HTML Standard's prescan (``mojifix.sniff.prescan``): ``<meta charset>`` or
  ``http-equiv=content-type`` with ``content="...; charset=..."`` in the first 1024 bytes, outside
  comments. Labels the Encoding Standard does not know are not declarations to the prescan (it moves on
  to the next ``<meta>``), so they are not reported here either.
- ``"css"``: CSS Syntax Level 3, "determine the fallback encoding": the first 1024 bytes begin with exactly
  ``@charset "`` + label + ``";`` (https://www.w3.org/TR/css-syntax-3/#determine-the-fallback-encoding).
- ``"coding"``: PEP 263 (``# -*- coding: x -*-``, ``# vim: set fileencoding=x :``) with CPython's regex
  (``tokenize.cookie_re``), plus the same Emacs ``-*- coding: x -*-`` and Vim ``vim: set fileencoding=x``
  forms behind another comment syntax (``/* ... */``, ``;;``, ``%``), in the first two lines; the second
  line counts only when the first is blank or a ``#`` comment, as in CPython's tokenizer.

Encodings are named as detection results name them: the WHATWG name for the Encoding Standard's labels
(xml, meta, css), the CPython codec name for coding comments (that is what Python decodes with:
``latin-1`` -> ``iso8859-1``, ``cp1252`` stays ``cp1252``), ``None`` for a label nobody knows. A WHATWG label
of the "replacement" encoding (``iso-2022-kr``, ``hz-gb-2312``) is named by its CPython codec instead,
since a file that declares it is in that encoding, not in the browser's refusal to decode it.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from mojifix.sniff.prescan import (
    PRESCAN_LIMIT,
    extract_charset_from_content,
    get_attribute,
    meta_encoding,
    prescan,
)
from mojifix.sniff.xml_declaration import xml_encoding_label_span
from mojifix.whatwg import lookup

__all__ = ["DECLARATION_LIMIT", "Declaration", "find_declaration", "find_declarations"]

#: Every parser looks only at the first this many bytes: the prescan's window (HTML Standard 13.2.3.2),
#: which CSS Syntax uses too ("the first 1024 bytes of the stream"). An XML declaration or a coding
#: comment past it is not read (CPython reads whole lines; a first line over 1 KB before a cookie on
#: the second is the price of bounded time on a 1 GB file).
DECLARATION_LIMIT = PRESCAN_LIMIT

_UTF8_BOM = b"\xef\xbb\xbf"
#: BOMs of encodings in which an ASCII declaration cannot appear byte for byte (UTF-32LE's BOM starts
#: with UTF-16LE's, so both are covered by the two-byte prefixes).
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")

#: CSS Syntax 3: the bytes 40 63 68 61 72 73 65 74 20 22, then bytes other than 22, then 22 3B.
_CSS_CHARSET = re.compile(rb'@charset "([^"]*)";')
#: CPython's ``tokenize.cookie_re`` (PEP 263), as bytes: ``\w`` on bytes is ASCII, as ``re.ASCII`` makes it.
_PEP263_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
#: CPython's ``tokenize.blank_re``: a first line like this lets the second line carry the cookie.
_BLANK_OR_COMMENT = re.compile(rb"^[ \t\f]*(?:[#\r\n]|$)")
#: Emacs file variables on the first line: ``-*- mode: x; coding: y -*-`` behind any comment syntax.
_EMACS_COOKIE = re.compile(rb"-\*-.*?\bcoding:[ \t]*([-\w.]+).*?-\*-")
#: A Vim modeline (``vim:`` after the line start or whitespace) that sets ``fileencoding``/``fenc``.
_VIM_COOKIE = re.compile(rb"(?:^|[ \t])vim?:.*?\b(?:fileencoding|fenc)=([-\w.]+)")
_LINE_END = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Declaration:
    """One in-band declaration: ``data[start:end]`` is ``label`` exactly as written.

    ``kind`` is "xml", "meta", "css" or "coding"; ``encoding`` is the encoding it names in the detector's
    naming (module docstring) or ``None`` when the label is unknown.
    """

    kind: str
    label: str
    encoding: str | None
    start: int
    end: int


def find_declaration(data: bytes) -> Declaration | None:
    """The first declaration in ``data`` (lowest offset), or ``None``: what the file says it is."""
    found = find_declarations(data)
    return found[0] if found else None


def find_declarations(data: bytes, *, limit: int = DECLARATION_LIMIT) -> tuple[Declaration, ...]:
    """Every declaration of ``data``, at most one per kind, in file order.

    A file may carry several (an XHTML page with ``<?xml encoding>`` and ``<meta charset>``): a converter
    must rewrite all of them, and a detector can tell when they disagree. ``limit`` widens the window
    for a caller that reads a re-encoded copy (UTF-8 output of a converter is up to 3x longer than the
    source it came from, so a declaration inside the source's window can lie past 1024 in the copy).
    """
    if data.startswith(_WIDE_BOMS):
        return ()
    window = data[:limit]
    parsers = (_xml_declaration, _meta_declaration, _css_declaration, _coding_declaration)
    found = [decl for parser in parsers if (decl := parser(window)) is not None]
    return tuple(sorted(found, key=lambda decl: decl.start))


def _after_utf8_bom(data: bytes) -> int:
    """Where the declarations that must open the file start: past a UTF-8 BOM (CPython and CSS skip it)."""
    return len(_UTF8_BOM) if data.startswith(_UTF8_BOM) else 0


def _whatwg_name(label: str) -> str | None:
    """The Encoding Standard's name for ``label``; a "replacement" label by its CPython codec, if any.

    UTF-16BE/LE come back as UTF-8, as "get an XML encoding" (step 17) and CSS's fallback encoding
    both say: bytes in which the declaration reads as ASCII are not UTF-16.
    """
    enc = lookup(label)
    if enc is None:
        return None
    if enc.name in ("UTF-16BE", "UTF-16LE"):
        return "UTF-8"
    if enc.name == "replacement":
        return _python_name(label)
    return enc.name


def _python_name(label: str) -> str | None:
    """The CPython codec name for ``label`` as Python's tokenizer resolves a coding cookie, or ``None``."""
    try:
        return codecs.lookup(_tokenizer_normal_name(label)).name
    except LookupError:
        return None


def _tokenizer_normal_name(label: str) -> str:
    """CPython's ``tokenize._get_normal_name``: the spellings of UTF-8 and Latin-1 it folds itself."""
    enc = label[:12].lower().replace("_", "-")
    if enc == "utf-8" or enc.startswith("utf-8-"):
        return "utf-8"
    if enc in ("latin-1", "iso-8859-1", "iso-latin-1") or enc.startswith(
        ("latin-1-", "iso-8859-1-", "iso-latin-1-")
    ):
        return "iso-8859-1"
    return label


def _xml_declaration(data: bytes) -> Declaration | None:
    """``<?xml ... encoding="x"?>`` at the start (after a UTF-8 BOM), by the sniffer's own steps."""
    offset = _after_utf8_bom(data)
    span = xml_encoding_label_span(data[offset:]) if offset else xml_encoding_label_span(data)
    if span is None or span[0] == span[1]:
        return None
    start, end = span[0] + offset, span[1] + offset
    label = data[start:end].decode("latin-1")
    return Declaration("xml", label, _whatwg_name(label) or _python_name(label), start, end)


def _meta_declaration(data: bytes) -> Declaration | None:
    """The ``<meta>`` the prescan finds, with the label's own span inside the tag."""
    if not _may_hold_meta(data):
        return None
    found = prescan(data, len(data))  # data is the window already
    if found is None or found.kind not in ("meta-charset", "meta-content"):
        return None  # the UTF-16 "<?x" pattern is not a label
    wanted = b"charset" if found.kind == "meta-charset" else b"content"
    value_start, value = _first_attribute_value(data, found.start, found.end, wanted)
    if found.kind == "meta-content":
        # The label is the substring of the value that the meta content algorithm extracts.
        value_start += _content_label_offset(value.decode("latin-1"), found.label)
    encoding = meta_encoding(found.declared).name
    if encoding == "replacement":
        encoding = _python_name(found.label) or encoding
    return Declaration("meta", found.label, encoding, value_start, value_start + len(found.label))


def _may_hold_meta(data: bytes) -> bool:
    """Whether ``data`` has ``<meta`` in any case: the prescan reports a ``<meta>`` only where these five
    bytes open a tag (a byte test before the prescan, for the many files without one)."""
    return b"<meta" in data.lower()


def _first_attribute_value(data: bytes, start: int, end: int, wanted: bytes) -> tuple[int, bytes]:
    """Offset and bytes of the first ``wanted`` attribute of the ``<meta`` tag at ``data[start:end]``.

    Walks the tag with the prescan's own "get an attribute", so the attribute found is the one the
    prescan used (a name seen twice keeps its first value).
    """
    pos = start + len(b"<meta")
    while True:
        status, name, value, pos = get_attribute(data, pos, end)
        if status <= 0:  # pragma: no cover - the prescan found this attribute in this tag
            raise AssertionError(f"{wanted!r} not in the <meta> at {start}")
        if name == wanted:
            quoted = data[pos - 1 : pos] in (b'"', b"'") and data[pos - 2 - len(value)] == data[pos - 1]
            value_end = pos - 1 if quoted else pos
            return value_end - len(value), value


def _content_label_offset(content: str, label: str) -> int:
    """Offset of ``label`` in ``content``: after the "charset" the extraction algorithm stopped at."""
    lowered = content.lower()
    at = lowered.find("charset")
    # The algorithm's Loop tries each "charset" in turn; the first that yields a value is the one.
    while extract_charset_from_content(content[at:]) is None:
        at = lowered.find("charset", at + 1)
    return content.index(label, at + len("charset"))


def _css_declaration(data: bytes) -> Declaration | None:
    """CSS ``@charset "x";`` in its exact form at byte 0 (after a UTF-8 BOM, which the decode step strips)."""
    offset = _after_utf8_bom(data)
    match = _CSS_CHARSET.match(data, offset)
    if match is None:
        return None
    label = match.group(1).decode("latin-1")
    return Declaration("css", label, _whatwg_name(label), match.start(1), match.end(1))


def _may_hold_coding(data: bytes) -> bool:
    """Whether ``data`` has ``coding`` or ``fenc``: every match of the three coding-comment patterns
    does (``fileencoding`` has ``coding``), so without them the regexes need not run."""
    return b"coding" in data or b"fenc" in data


def _coding_declaration(data: bytes) -> Declaration | None:
    """A PEP 263 / Emacs / Vim coding comment on the first line, or on the second after a blank/# line."""
    if not _may_hold_coding(data):
        return None
    offset = _after_utf8_bom(data)
    for line_number in (1, 2):
        end_match = _LINE_END.search(data, offset)
        line_end = end_match.start() if end_match is not None else len(data)
        line = data[offset:line_end]
        for pattern in (_PEP263_COOKIE, _EMACS_COOKIE, _VIM_COOKIE):
            match = pattern.search(line)
            if match is not None:
                label = match.group(1).decode("ascii")
                return Declaration(
                    "coding", label, _python_name(label), offset + match.start(1), offset + match.end(1)
                )
        if line_number == 2 or end_match is None or not _BLANK_OR_COMMENT.match(line):
            return None
        offset = end_match.end()
    return None
