"""The HTML Standard's "prescan a byte stream to determine its encoding", step by step.

https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
(13.2.3.2). Comments are numbered after the standard's steps. The end condition is the first
:data:`PRESCAN_LIMIT` bytes, as the standard encourages and as Chromium and Firefox do.

Linear time: every branch moves ``position`` forward, and searches (``bytes.find``, compiled
regexes) start at ``position``; nothing is rescanned. The window is 1024 bytes anyway, but the
functions take any ``end`` so the tests can run them over megabytes of adversarial input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mojifix.whatwg import Encoding, lookup

__all__ = [
    "PRESCAN_LIMIT",
    "Declaration",
    "extract_charset_from_content",
    "meta_encoding",
    "prescan",
    "prescan_counted",
]

#: The prescan's end condition: "User agents are encouraged to only prescan the first 1024 bytes"
#: (13.2.3.2 step 5); Chromium's HTMLMetaCharsetParser uses the same number.
PRESCAN_LIMIT = 1024

#: ASCII whitespace as the prescan lists it: 0x09, 0x0A, 0x0C, 0x0D, 0x20.
_SPACE = frozenset(b"\t\n\x0c\r ")
_SPACE_OR_SLASH = frozenset(b"\t\n\x0c\r /")
_UPPER_A, _UPPER_Z = 0x41, 0x5A
_LT, _GT, _SLASH, _EQ, _BANG, _QMARK = 0x3C, 0x3E, 0x2F, 0x3D, 0x21, 0x3F
_DQUOTE, _SQUOTE = 0x22, 0x27

#: "get an attribute" step 4: the bytes that end an attribute name.
_NAME_END = re.compile(rb"[=\t\n\x0c\r />]")
#: "get an attribute" step 11: the bytes that end an unquoted value.
_UNQUOTED_END = re.compile(rb"[\t\n\x0c\r >]")
#: "a sequence of bytes starting with ... the next 0x09, 0x0A, 0x0C, 0x0D, 0x20, or 0x3E byte".
_TAG_NAME_END = re.compile(rb"[\t\n\x0c\r >]")
#: Fast path: a run of constructs the Loop skips without a declaration, read exactly as the steps
#: read them -- bytes up to a "<", comments up to the first "-->" (the dashes of "<!--" count),
#: "<!" / "</"+non-letter / "<?" up to the first ">", a "<" that starts nothing, and tags other
#: than "<meta" + space/slash whose attributes are simple (stricter than "get an attribute", so
#: anything unusual falls back to the steps). Possessive quantifiers: linear, no backtracking.
_SKIP_RUN = re.compile(
    rb"(?:[^<]++"
    rb"|<!--(?:>|->|(?:[^-]++|-(?!->))*+-->)"
    rb"|<(?:!(?!--)|/(?![A-Za-z])|\?)[^>]*+>"
    rb"|<(?![A-Za-z!/?])"
    rb"|</?+(?![Mm][Ee][Tt][Aa][\t\n\x0c\r /])[A-Za-z][^\t\n\x0c\r >]*+"
    rb"(?:[\t\n\x0c\r /]++[^\t\n\x0c\r \"'<>/=]++"
    rb"(?:[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+(?:\"[^\"]*+\"|'[^']*+'|[^\t\n\x0c\r \"'<>=`]++))?+)*+"
    rb"[\t\n\x0c\r /]*+>"
    rb")*+"
)
#: The standard's ASCII whitespace, as str, for the meta content algorithm.
_ASCII_WS = "\t\n\x0c\r "


@dataclass(frozen=True, slots=True)
class Declaration:
    """An encoding declaration found in the bytes.

    ``encoding`` is the one to use (after the meta rules: UTF-16BE/LE -> UTF-8, x-user-defined
    -> windows-1252); ``declared`` is what ``label`` itself names. ``start`` is the byte offset of
    the declaring construct (the ``<`` of ``<meta`` or ``<?xml``), ``end`` the offset just past it
    (past the ``>`` of a meta, past the closing quote of an XML label); ``kind`` says which construct:
    "meta-charset", "meta-content", "xml-declaration" or "utf-16-xml-pattern".
    """

    encoding: Encoding
    label: str
    declared: Encoding
    start: int
    end: int
    kind: str


def meta_encoding(declared: Encoding) -> Encoding:
    """Prescan steps 14-15: a meta naming UTF-16BE/LE means UTF-8; x-user-defined means windows-1252."""
    if declared.name in ("UTF-16BE", "UTF-16LE"):
        return _require("UTF-8")
    if declared.name == "x-user-defined":
        return _require("windows-1252")
    return declared


def _require(label: str) -> Encoding:
    enc = lookup(label)
    if enc is None:  # pragma: no cover - the label table always has these
        raise LookupError(label)
    return enc


def extract_charset_from_content(content: str) -> str | None:
    """The standard's "algorithm for extracting a character encoding from a meta element".

    https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element
    Returns the label substring (the caller gets the encoding from it), or ``None`` for "nothing".
    """
    lowered = content.lower()
    n = len(content)
    # 1. Let position be a pointer into s, initially pointing at the start of the string.
    pos = 0
    while True:
        # 2. Loop: find the first seven characters after position that match "charset"; none -> nothing.
        found = lowered.find("charset", pos)
        if found < 0:
            return None
        pos = found + 7
        # 3. Skip any ASCII whitespace that immediately follow the word "charset".
        while pos < n and content[pos] in _ASCII_WS:
            pos += 1
        # 4. If the next character is not "=", move position just before it and jump back to loop.
        if pos >= n or content[pos] != "=":
            continue
        # 5. Skip any ASCII whitespace that immediately follow the equals sign.
        pos += 1
        while pos < n and content[pos] in _ASCII_WS:
            pos += 1
        # 6. Process the next character.
        if pos >= n:
            return None  # there is no next character
        c = content[pos]
        if c in "\"'":
            close = content.find(c, pos + 1)
            # unmatched quote -> nothing; else the substring between the quotes
            return None if close < 0 else content[pos + 1 : close]
        stop = pos
        while stop < n and content[stop] not in _ASCII_WS and content[stop] != ";":
            stop += 1
        return content[pos:stop]


def get_attribute(data: bytes, pos: int, n: int) -> tuple[int, bytes, bytes, int]:
    """The standard's "get an attribute" at ``pos``: returns ``(status, name, value, position)``.

    ``status`` is 1 for an attribute (``name`` lowercased, ``value`` as written), 0 when there is
    none (``position`` at the ``>``), and -1 when the bytes ran out (the prescan aborts).
    """
    # 1. Skip 0x09, 0x0A, 0x0C, 0x0D, 0x20 and 0x2F.
    while pos < n and data[pos] in _SPACE_OR_SLASH:
        pos += 1
    if pos >= n:
        return -1, b"", b"", pos
    # 2. A ">" means there isn't one.
    if data[pos] == _GT:
        return 0, b"", b"", pos
    # 3-5. The attribute name runs to "=", whitespace, "/" or ">"; a leading "=" is part of the name.
    name_start = pos
    match = _NAME_END.search(data, pos + 1 if data[pos] == _EQ else pos, n)
    if match is None:
        return -1, b"", b"", n
    pos = match.start()
    name = data[name_start:pos].lower()
    c = data[pos]
    if c in (_SLASH, _GT):
        # 4. "/" or ">": the value is the empty string.
        return 1, name, b"", pos
    if c != _EQ:
        # 6. Spaces: skip ASCII whitespace.
        while pos < n and data[pos] in _SPACE:
            pos += 1
        if pos >= n:
            return -1, b"", b"", pos
        # 7. Not "=": the value is the empty string.
        if data[pos] != _EQ:
            return 1, name, b"", pos
    # 8. Advance past the "=".
    pos += 1
    # 9. Value: skip ASCII whitespace.
    while pos < n and data[pos] in _SPACE:
        pos += 1
    if pos >= n:
        return -1, b"", b"", pos
    # 10. Process the byte at position.
    c = data[pos]
    if c in (_DQUOTE, _SQUOTE):
        # Quote loop: everything up to the matching quote.
        close = data.find(bytes((c,)), pos + 1, n)
        if close < 0:
            return -1, b"", b"", n
        return 1, name, data[pos + 1 : close], close + 1
    if c == _GT:
        return 1, name, b"", pos
    # 10 (anything else) and 11-12: an unquoted value runs to whitespace or ">".
    match = _UNQUOTED_END.search(data, pos + 1, n)
    if match is None:
        return -1, b"", b"", n
    return 1, name, data[pos : match.start()], match.start()


def _label_text(raw: bytes) -> str:
    # Labels are ASCII; the prescan appends "a code point with the same value as the byte".
    return raw.decode("latin-1")


def prescan(data: bytes, end: int = PRESCAN_LIMIT) -> Declaration | None:
    """Prescan ``data[:end]`` for a ``<meta>`` declaration (or the UTF-16 ``<?x`` pattern).

    Returns ``None`` where the standard's algorithm aborts (no declaration in the window); the
    standard then tries "get an XML encoding" (:func:`mojifix.sniff.xml_declaration.get_xml_encoding`),
    which :func:`mojifix.sniff.api.decode_html` does after its late-meta step.
    """
    return prescan_counted(data, end)[0]


def prescan_counted(
    data: bytes, end: int = PRESCAN_LIMIT, *, fast: bool = True
) -> tuple[Declaration | None, int]:
    """:func:`prescan`, plus the number of Loop iterations (each handles one "<"): the linear-time tests'
    operation count. ``fast=False`` turns off the regex fast path (the tests check both agree)."""
    n = min(len(data), end)
    steps = 0
    # 1. Let position be a pointer to a byte in the input byte stream, initially the first byte.
    pos = 0
    # 2. Prescan for UTF-16 XML declarations: '<?x' in UTF-16LE or UTF-16BE.
    if n >= 6:
        head = data[:6]
        if head == b"<\x00?\x00x\x00":
            return Declaration(
                _require("UTF-16LE"), "<?x", _require("UTF-16LE"), 0, 6, "utf-16-xml-pattern"
            ), 0
        if head == b"\x00<\x00?\x00x":
            return Declaration(
                _require("UTF-16BE"), "<?x", _require("UTF-16BE"), 0, 6, "utf-16-xml-pattern"
            ), 0
    while True:
        if fast:
            pos = _SKIP_RUN.match(data, pos, n).end()  # type: ignore[union-attr]  # matches ""
        # 3. Loop. Bytes that are not "<" are "any other byte": do nothing (jump to the next "<").
        pos = data.find(b"<", pos, n)
        steps += 1
        if pos < 0:
            return None, steps  # ran out of bytes: abort
        nxt = data[pos + 1] if pos + 1 < n else -1
        if nxt == _BANG and data.startswith(b"--", pos + 2, n):
            # "<!--": advance to the first ">" preceded by "--" after the "<" (the dashes of
            # "<!--" count, so "<!-->" is a whole comment).
            close = data.find(b"-->", pos + 2, n)
            if close < 0:
                return None, steps
            pos = close + 2
        elif pos + 5 < n and data[pos + 1 : pos + 5].lower() == b"meta" and data[pos + 5] in _SPACE_OR_SLASH:
            # "<meta" followed by a space or slash.
            start = pos
            found, pos = _meta(data, pos + 5, n, start)
            if pos < 0:
                return None, steps  # ran out of bytes inside the meta: abort
            if found is not None:
                return found, steps
        elif nxt == _SLASH or (0x41 <= nxt <= 0x5A or 0x61 <= nxt <= 0x7A):
            letter = data[pos + 2] if nxt == _SLASH and pos + 2 < n else nxt
            if nxt == _SLASH and not (0x41 <= letter <= 0x5A or 0x61 <= letter <= 0x7A):
                # "</" not followed by a letter: advance to the first ">" after the "<".
                pos = data.find(b">", pos + 1, n)
                if pos < 0:
                    return None, steps
            else:
                # "<", optional "/", a letter: 1. advance to the next whitespace or ">".
                match = _TAG_NAME_END.search(data, pos, n)
                if match is None:
                    return None, steps
                pos = match.start()
                # 2. Repeatedly get an attribute until no further attributes can be found.
                while True:
                    status, _name, _value, pos = get_attribute(data, pos, n)
                    if status < 0:
                        return None, steps
                    if status == 0:
                        break
        elif nxt in (_BANG, _QMARK):
            # "<!" or "<?": advance to the first ">" that comes after the "<".
            pos = data.find(b">", pos + 1, n)
            if pos < 0:
                return None, steps
        # 4. Next byte: move position to the next byte and return to Loop.
        pos += 1


def _meta(data: bytes, pos: int, n: int, start: int) -> tuple[Declaration | None, int]:
    """The "<meta" branch of the prescan (its substeps 1-16); returns (declaration, position).

    ``position`` is -1 when the bytes ran out (the prescan aborts).
    """
    # 1. Position is at the space or slash after "<meta".
    # 2-5. attribute list, got pragma, need pragma, charset.
    attribute_list: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: Encoding | bool | None = None  # None = null, False = failure
    label = ""
    kind = ""
    while True:
        # 6. Attributes: get an attribute; none -> Processing.
        status, name, value, pos = get_attribute(data, pos, n)
        if status < 0:
            return None, -1
        if status == 0:
            break
        # 7-8. Skip a name already in the attribute list; add it.
        if name in attribute_list:
            continue
        attribute_list.add(name)
        # 9. The appropriate step.
        if name == b"http-equiv":
            if value.lower() == b"content-type":
                got_pragma = True
        elif name == b"content":
            found = extract_charset_from_content(_label_text(value))
            enc = lookup(found) if found is not None else None
            if enc is not None and charset is None:
                charset, need_pragma, label, kind = enc, True, found or "", "meta-content"
        elif name == b"charset":
            label = _label_text(value)
            charset = lookup(label) or False
            need_pragma, kind = False, "meta-charset"
        # 10. Return to Attributes.
    # 11. Processing: need pragma null -> next byte.
    # 12. need pragma true but got pragma false -> next byte.
    # 13. charset failure -> next byte.
    if need_pragma is None or (need_pragma and not got_pragma) or not isinstance(charset, Encoding):
        return None, pos
    # 14-16. UTF-16BE/LE -> UTF-8; x-user-defined -> windows-1252; return charset.
    return Declaration(meta_encoding(charset), label, charset, start, pos + 1, kind), pos
