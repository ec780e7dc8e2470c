"""Chromium's rule for ``<meta>`` declarations, including those past the 1024-byte prescan window.

Chromium does not stop at 1024 bytes. Its ``HTMLMetaCharsetParser`` (Blink,
``third_party/blink/renderer/core/html/parser/html_meta_charset_parser.cc``) runs the HTML
tokenizer over the bytes (decoded as Latin-1), and keeps looking for a ``<meta>`` that declares an
encoding:

- while the document is still "in the head": every start or end tag seen so far was one of
  ``script noscript style link meta object title base`` (or a *start* tag ``html``/``head``).
  Any other tag, including ``</head>``, ``<body>``, unknown and custom elements, ends the head.
  Text, comments and doctypes do not;
- and, after the head has ended, until the tokenizer has consumed 1024 characters.

The tokenizer switches to raw-text states after ``<script>`` (script data, with its escape
states), ``<style> <iframe> <xmp> <noembed> <noframes>`` (RAWTEXT), ``<title> <textarea>``
(RCDATA) and ``<plaintext>``, so a ``<meta>`` inside those is text, not a tag. Scripting is off
in that tokenizer, so ``<noscript>`` content is tokenized as markup. There is no re-parse: the
document is decoded once with whatever was found.

This module is a light tokenizer, not a parser: it reproduces the token boundaries that matter
(tags with quoted attributes, comments including ``<!-->``, bogus comments, raw-text end tags) in
linear time, with searches that never move backwards. It is the reference for docs/sniffing.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mojifix.sniff.prescan import PRESCAN_LIMIT, Declaration, meta_encoding
from mojifix.whatwg import Encoding, lookup

__all__ = ["HeadScan", "scan_head_meta", "top_meta_charset"]

#: Start/end tags that keep Chromium's HTMLMetaCharsetParser "in the head" (html and head only as start tags).
_HEAD_TAGS = frozenset({b"script", b"noscript", b"style", b"link", b"meta", b"object", b"title", b"base"})
_HEAD_START_ONLY = frozenset({b"html", b"head"})
#: HTMLTokenizer::SpeculativeStateForTag, with scripting off (HTMLParserOptions(nullptr)).
_RCDATA = frozenset({b"title", b"textarea"})
_RAWTEXT = frozenset({b"style", b"iframe", b"xmp", b"noembed", b"noframes"})

_WS = frozenset(b"\t\n\x0c\r ")
_GT, _SLASH, _EQ, _BANG, _QMARK, _LT = 0x3E, 0x2F, 0x3D, 0x21, 0x3F, 0x3C
_DQUOTE, _SQUOTE = 0x22, 0x27

_TAG_NAME_END = re.compile(rb"[\t\n\x0c\r />]")
#: Fast path for the common, well-formed tag: name, whitespace-separated attributes whose names
#: contain no quote, "<", "=" or "/", values quoted or plainly unquoted. When it matches, the
#: tokenizer would end the tag at the same ">" (possessive quantifiers: no backtracking, so the
#: match is the tokenizer's reading); anything else goes through _parse_tag.
_SIMPLE_TAG = re.compile(
    rb"([A-Za-z][^\t\n\x0c\r />]*+)"
    rb"(?:[\t\n\x0c\r /]++[^\t\n\x0c\r \"'<>/=]++"
    rb"(?:[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+(?:\"[^\"]*+\"|'[^']*+'|[^\t\n\x0c\r \"'<>=`]++))?+)*+"
    rb"[\t\n\x0c\r /]*+>"
)
#: The attribute part of _SIMPLE_TAG, up to and including the tag's ">".
_SIMPLE_ATTRS = (
    rb"(?:[\t\n\x0c\r /]++[^\t\n\x0c\r \"'<>/=]++"
    rb"(?:[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+(?:\"[^\"]*+\"|'[^']*+'|[^\t\n\x0c\r \"'<>=`]++))?+)*+"
    rb"[\t\n\x0c\r /]*+>"
)
#: One attribute of a tag that _SIMPLE_TAG matched (the same sub-pattern): name, then the value
#: double-quoted, single-quoted or unquoted (no group: no value). Consecutive matches over the
#: tag split it exactly as _SIMPLE_TAG's repetition does (possessive quantifiers: one reading).
_SIMPLE_ATTR = re.compile(
    rb"[\t\n\x0c\r /]++([^\t\n\x0c\r \"'<>/=]++)"
    rb"(?:[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+(?:\"([^\"]*+)\"|'([^']*+)'|([^\t\n\x0c\r \"'<>=`]++)))?+"
)
_WS_CLASS = rb"[\t\n\x0c\r ]"
_NAME_END = rb"(?=[\t\n\x0c\r />])"


def _raw_element(name: bytes, extra: bytes = b"") -> bytes:
    """A whole raw-text element (start tag, text, simple end tag) whose text cannot end it early."""
    return (
        rb"<" + name + _NAME_END + _SIMPLE_ATTRS
        + rb"(?:[^<]++|<(?!" + extra + rb"/" + name + rb"[\t\n\x0c\r />]))*+"
        + rb"</" + name + _WS_CLASS + rb"*+>"
    )  # fmt: skip


#: Fast path while in the head: a run of tokens that cannot end the head nor declare an encoding
#: -- text, comments (first "-->" or "--!>"; "<!-->", "<!--->"), doctypes and bogus comments,
#: the head's own start and end tags with simple attributes, and whole <script>, <style> and
#: <title> elements whose text has no "<!--" (script escapes) and whose end tag is plain. One C
#: call skips it; the token-by-token loop handles everything else, "<meta" included. Possessive
#: quantifiers keep it linear; the alternatives are exactly the tokenizer's readings.
_HEAD_RUN = re.compile(
    rb"(?:[^<]++"
    rb"|<!--(?:>|->|(?:[^-]++|-(?!-!?>))*+--!?>)"
    rb"|<!(?!--)[^>]*+>"
    rb"|<\?[^>]*+>"
    + rb"|" + _raw_element(b"script", rb"!--|")
    + rb"|" + _raw_element(b"style")
    + rb"|" + _raw_element(b"title")
    + rb"|<(?:html|head|link|base|noscript|object)" + _NAME_END + _SIMPLE_ATTRS
    + rb"|</(?:title|script|style|meta|link|base|object|noscript)" + _WS_CLASS + rb"*+>"
    + rb")*+",
    re.IGNORECASE,
)  # fmt: skip
#: The common pragma meta, ``<meta http-equiv="Content-Type" content="text/html; charset=...">``
#: (either order, any case, values quoted), as the tokenizer reads it: exactly these two attributes,
#: the http-equiv value "content-type" (as EncodingFromMetaAttributes compares it), the content
#: value in group 1 or 2 (http-equiv first) or 3 or 4 (content first), without "&" (no character
#: reference to decode) or NUL. After a quoted value, whitespace and "/" up to ">" end the tag with
#: no further attribute (the tokenizer's after-value and self-closing states).
_PRAGMA_VALUE = rb"(?:\"content-type\"|'content-type')"
_CONTENT_VALUE = rb"(?:\"([^\"&\x00]*+)\"|'([^'&\x00]*+)')"
_ATTR_EQ = rb"[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+"
_SIMPLE_PRAGMA_META = re.compile(
    rb"<meta[\t\n\x0c\r ]++(?:"
    + rb"http-equiv" + _ATTR_EQ + _PRAGMA_VALUE + rb"[\t\n\x0c\r ]++content" + _ATTR_EQ + _CONTENT_VALUE
    + rb"|content" + _ATTR_EQ + _CONTENT_VALUE + rb"[\t\n\x0c\r ]++http-equiv" + _ATTR_EQ + _PRAGMA_VALUE
    + rb")[\t\n\x0c\r /]*+>",
    re.IGNORECASE,
)  # fmt: skip
#: A simple start or end tag (group 1 "/" for an end tag, group 2 the name), as _SIMPLE_TAG reads it.
_LT_SIMPLE_TAG = re.compile(rb"<(/?+)" + _SIMPLE_TAG.pattern)
_ATTR_NAME_END = re.compile(rb"[\t\n\x0c\r />=]")
_UNQUOTED_END = re.compile(rb"[\t\n\x0c\r >]")
_COMMENT_END = re.compile(rb"--!?>")
#: Script data states: "<!--" starts an escape, "-->" ends one, "<script" inside an escape doubles it.
_SCRIPT_DATA = re.compile(rb"<!--|</script[\t\n\x0c\r />]", re.IGNORECASE)
_SCRIPT_ESCAPED = re.compile(rb"-->|</script[\t\n\x0c\r />]|<script[\t\n\x0c\r />]", re.IGNORECASE)
_SCRIPT_DOUBLE_ESCAPED = re.compile(rb"-->|</script[\t\n\x0c\r />]", re.IGNORECASE)
_ALPHA = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
#: Every meta start tag token begins with these bytes (used to skip work where none can be found).
META_OPEN = re.compile(rb"<[Mm][Ee][Tt][Aa]")
#: _meta_reachable's one search: a "<meta" or a "</>", whichever comes first.
_META_OR_EMPTY_END_TAG = re.compile(rb"<(?:[Mm][Ee][Tt][Aa]|/>)")


#: A document start that the Standard's prescan and Chromium's tokenizer read alike, with no meta in
#: it: text, comments whose first "--" is their "-->" (not "<!-->" nor "<!--->"; no "--!>"), "<!"
#: and "<?" constructs up to the first ">", a "<" that starts nothing, and start or end tags with
#: a plain name (letters, digits, "-") ended by whitespace or ">" (the prescan's tag name runs on
#: through a "/", Chromium's does not), simple attributes (as in _SIMPLE_TAG), not a meta, and not
#: an element whose content Chromium reads as raw text (the prescan reads markup in it).
_COMMON_PREFIX = (
    rb"(?:[^<]++"
    rb"|<!--(?!-?>)(?:[^-]++|-(?!-))*+-->"
    rb"|<!(?!--)[^>]*+>"
    rb"|<\?[^>]*+>"
    rb"|<(?![A-Za-z!/?])"
    rb"|</?+(?!meta)(?!(?:script|style|title|textarea|xmp|iframe|noembed|noframes|plaintext)[\t\n\x0c\r />])"
    rb"[A-Za-z][A-Za-z0-9-]*+(?=[\t\n\x0c\r >])" + _SIMPLE_ATTRS
    + rb")*+"
)  # fmt: skip
#: Then the first meta, read alike by both (group 1 the tag): ``<meta charset=LABEL>`` alone (the
#: label in group 2, 3 or 4), with a quoted label without "&" (Chromium decodes character
#: references, the prescan does not) or an unquoted one followed by whitespace or ">" (the prescan
#: would take a "/" right after it into the label, Chromium would not); or the pragma pair
#: ``http-equiv="content-type"`` and ``content="..."`` in either order (the content value in group
#: 5 or 6, or 7 or 8), values quoted, separated by whitespace, the content value without quotes,
#: "&" or control characters other than ASCII whitespace. On such a value the Standard's "extracting
#: a character encoding from a meta element" and Chromium's ExtractCharset read the same label: they
#: differ only on quotes (an unquoted label also ends at one in Chromium) and on the characters
#: below U+0020 that are not ASCII whitespace (Chromium skips and ends at them too).
_TOP_CONTENT_VALUE = rb"(?:\"([^\"'&\x00-\x08\x0b\x0e-\x1f]*+)\"|'([^\"'&\x00-\x08\x0b\x0e-\x1f]*+)')"
_TOP_META = re.compile(
    _COMMON_PREFIX + rb"(<meta[\t\n\x0c\r ]++(?:charset[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+"
    rb"(?:\"([^\"&\x00]*+)\"[\t\n\x0c\r /]*+|'([^'&\x00]*+)'[\t\n\x0c\r /]*+"
    rb"|([^\t\n\x0c\r \"'<>=`&/\x00]++)(?:[\t\n\x0c\r ]++/?+)?+)>"
    + rb"|(?:http-equiv" + _ATTR_EQ + _PRAGMA_VALUE
    + rb"[\t\n\x0c\r ]++content" + _ATTR_EQ + _TOP_CONTENT_VALUE
    + rb"|content" + _ATTR_EQ + _TOP_CONTENT_VALUE
    + rb"[\t\n\x0c\r ]++http-equiv" + _ATTR_EQ + _PRAGMA_VALUE
    + rb")[\t\n\x0c\r /]*+>))",
    re.IGNORECASE,
)  # fmt: skip


def top_meta_charset(data: bytes) -> Declaration | None:
    """The plain ``<meta charset>`` or pragma meta near the top that both Chromium's scan and the
    Standard's prescan read first, else ``None`` (then run the scans).

    An exact shortcut for the most common pages: everything before the meta is read alike by both
    algorithms and holds no meta, the meta's attributes are read alike (see ``_TOP_META``), it ends
    inside the prescan's 1024-byte window, and its label names an encoding. Then Chromium's scan
    returns this declaration (it reaches the meta before any stop check can end it: every earlier
    token ends before byte 1024) and the prescan returns the same encoding.
    """
    match = _TOP_META.match(data, 0, PRESCAN_LIMIT)
    if match is None:
        return None
    # the declaration depends only on the meta tag's bytes and where it starts: a site's pages repeat
    # the same tag at the same offset, and reading it again costs more than the match
    start = match.start(1)
    key = (data[start : match.end()], start)
    try:
        return _TOP_DECLARATIONS[key]
    except KeyError:
        pass
    found = _top_declaration(match)
    if len(key[0]) <= _TOP_CACHE_MAX_BYTES and len(_TOP_DECLARATIONS) < _TOP_CACHE_SIZE:
        _TOP_DECLARATIONS[key] = found
    return found


#: top_meta_charset's answers by (meta tag bytes, offset); bounded like _LABEL_CACHE (page content).
_TOP_DECLARATIONS: dict[tuple[bytes, int], Declaration | None] = {}
_TOP_CACHE_SIZE = 1024
_TOP_CACHE_MAX_BYTES = 160


def _top_declaration(match: re.Match[bytes]) -> Declaration | None:
    """The declaration of a ``_TOP_META`` match (see top_meta_charset)."""
    double, single, unquoted, *content = match.group(2, 3, 4, 5, 6, 7, 8)
    if double is None and single is None and unquoted is None:
        # The pragma pair: the label as _pragma_declaration reads it (Chromium's reading).
        raw = content[0] or content[1] or content[2] or content[3] or b""
        label = _chromium_extract_charset(raw.decode("latin-1")).strip("\t\n\x0c\r ")
        kind = "meta-content"
    else:
        raw = double if double is not None else single if single is not None else unquoted
        # As _encoding_from_meta_attributes: Latin-1 (no "&": no character reference), stripped.
        label = raw.decode("latin-1").strip("\t\n\x0c\r ")
        kind = "meta-charset"
    declared = _lookup_label(label) if label else None
    if declared is None:
        return None
    return Declaration(meta_encoding(declared), label, declared, match.start(1), match.end(), kind)


#: Labels already looked up (a page mostly names one of a few dozen labels). Bounded: labels are
#: page content, so at most _LABEL_CACHE_SIZE distinct ones, of at most _LABEL_CACHE_MAX_CHARS, are kept.
_LABEL_CACHE: dict[str, Encoding | None] = {}
_LABEL_CACHE_SIZE = 1024
_LABEL_CACHE_MAX_CHARS = 40


def _lookup_label(label: str) -> Encoding | None:
    """``mojifix.whatwg.lookup``, remembered for short labels (the answer never changes)."""
    try:
        return _LABEL_CACHE[label]
    except KeyError:
        found = lookup(label)
        if len(label) <= _LABEL_CACHE_MAX_CHARS and len(_LABEL_CACHE) < _LABEL_CACHE_SIZE:
            _LABEL_CACHE[label] = found
        return found


def _end_tag_pattern(name: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"</" + name + rb"[\t\n\x0c\r />]", re.IGNORECASE)


_RAW_END = {name: _end_tag_pattern(name) for name in _RCDATA | _RAWTEXT}


@dataclass(frozen=True, slots=True)
class HeadScan:
    """What the Chromium-style scan saw.

    ``declaration`` is the meta found (or ``None``); ``head_end`` the byte offset of the tag
    that ended the head (``None`` if the head never ended before the scan stopped); ``tokens``
    the number of tokens examined (the operation count the linear-time tests check);
    ``stopped_at`` the byte offset where the scan ended.
    """

    declaration: Declaration | None
    head_end: int | None
    tokens: int
    stopped_at: int


@dataclass(slots=True)
class _Tag:
    name: bytes
    end_tag: bool
    attributes: list[tuple[bytes, bytes]]  # in order, duplicates kept (Blink's HTMLToken keeps them)
    end: int  # offset just past the ">"


def _parse_tag(data: bytes, pos: int, n: int, end_tag: bool) -> _Tag | None:
    """Tokenize the tag whose name starts at ``pos``; ``None`` at end of file (no token is emitted)."""
    match = _TAG_NAME_END.search(data, pos)
    if match is None:
        return None
    name = data[pos : match.start()].lower()
    attributes: list[tuple[bytes, bytes]] = []
    pos = match.start()
    while True:
        # Before attribute name: skip whitespace; "/" is the self-closing start tag state.
        while pos < n and data[pos] in _WS:
            pos += 1
        if pos >= n:
            return None
        c = data[pos]
        if c == _GT:
            return _Tag(name, end_tag, attributes, pos + 1)
        if c == _SLASH:
            # Self-closing start tag state: ">" ends the tag, anything else is reconsumed.
            pos += 1
            if pos >= n:
                return None
            if data[pos] == _GT:
                return _Tag(name, end_tag, attributes, pos + 1)
            continue
        # Attribute name: a leading "=" belongs to the name; it ends at whitespace, "/", ">" or "=".
        match = _ATTR_NAME_END.search(data, pos + 1)
        if match is None:
            return None
        attr = data[pos : match.start()].lower()
        pos = match.start()
        # After attribute name: skip whitespace.
        while pos < n and data[pos] in _WS:
            pos += 1
        if pos >= n:
            return None
        value = b""
        if data[pos] == _EQ:
            # Before attribute value.
            pos += 1
            while pos < n and data[pos] in _WS:
                pos += 1
            if pos >= n:
                return None
            c = data[pos]
            if c in (_DQUOTE, _SQUOTE):
                close = data.find(bytes((c,)), pos + 1)
                if close < 0:
                    return None
                value = data[pos + 1 : close]
                pos = close + 1  # after attribute value (quoted): anything else is reconsumed
            elif c != _GT:
                match = _UNQUOTED_END.search(data, pos)
                if match is None:
                    return None
                value = data[pos : match.start()]
                pos = match.start()
        # Duplicates stay: the meta charset parser reads the token's raw list, so the last one wins
        # (measured, docs/browser-measurements.md).
        attributes.append((attr, value))


def _fast_tag(data: bytes, pos: int, n: int, end_tag: bool) -> _Tag | None:
    """The tag at ``pos`` (its name's first byte): the regex fast path, or the full tokenizer states.

    Only the name and the end matter for tags other than ``<meta>``, so their attributes are not
    collected on the fast path.
    """
    match = _SIMPLE_TAG.match(data, pos)
    if match is not None:
        name = match.group(1).lower()
        if name != b"meta" or end_tag:
            return _Tag(name, end_tag, [], match.end())
        # A simple <meta>: its attributes as the tokenizer reads them, without the byte-by-byte states.
        return _Tag(name, end_tag, _simple_attributes(data, match.end(1), match.end()), match.end())
    return _parse_tag(data, pos, n, end_tag)


def _simple_attributes(data: bytes, start: int, end: int) -> list[tuple[bytes, bytes]]:
    """The attributes of a tag _SIMPLE_TAG matched, from the end of its name (``start``) to ``end``."""
    return [
        (attr.group(1).lower(), attr.group(2) or attr.group(3) or attr.group(4) or b"")
        for attr in _SIMPLE_ATTR.finditer(data, start, end)
    ]


def _attribute_text(raw: bytes) -> str:
    """An attribute value as the tokenizer hands it over: Latin-1, character references decoded."""
    text = raw.decode("latin-1")
    if "&" not in text:
        return text
    import html  # only for a value with a character reference: its entity table costs ~1 ms to import

    return html.unescape(text)


def _encoding_from_meta_attributes(tag: _Tag, start: int) -> Declaration | None:
    """Blink's EncodingFromMetaAttributes (html_parser_idioms.cc) plus TextResourceDecoder::SetEncoding.

    Attributes are read in order, duplicates included: every ``charset`` replaces the label (the
    last wins, even an invalid or empty one); a ``content`` counts only before any ``charset``, and
    needs ``http-equiv=content-type`` somewhere in the tag. The label is stripped of HTML spaces;
    then x-user-defined -> windows-1252 and UTF-16 -> UTF-8.
    """
    got_pragma = False
    has_charset = False
    mode = ""
    label = ""
    for name, raw in tag.attributes:
        if name == b"http-equiv":
            if _attribute_text(raw).lower() == "content-type":
                got_pragma = True
        elif name == b"charset":
            has_charset, label, mode = True, _attribute_text(raw), "meta-charset"
        elif name == b"content" and not has_charset:
            label = _chromium_extract_charset(_attribute_text(raw))
            if label:
                mode = "meta-content"
    if not (mode == "meta-charset" or (mode == "meta-content" and got_pragma)):
        return None
    label = label.strip("\t\n\x0c\r ")
    declared = _lookup_label(label) if label else None
    if declared is None:
        return None
    return Declaration(meta_encoding(declared), label, declared, start, tag.end, mode)


#: ExtractCharset's unquoted label: up to a character <= U+0020, a quote or ";".
_UNQUOTED_LABEL = re.compile(r"[^\x00- \"';]*+")
#: The loop below as one search, for ASCII values: the first "charset" (any case) followed by
#: characters <= U+0020, "=", characters <= U+0020, then a label double-quoted (group 1),
#: single-quoted (group 2) or unquoted (group 3; empty when an unclosed quote or the end follows,
#: where the loop gives "" too). "charset" cannot overlap itself, so the search resumes where the
#: loop does.
_EXTRACT_CHARSET = re.compile(
    r"charset[\x00- ]*+=[\x00- ]*+(?:\"([^\"]*+)\"|'([^']*+)'|([^\x00- \"';]*+))", re.IGNORECASE | re.ASCII
)


def _pragma_declaration(match: re.Match[bytes]) -> Declaration | None:
    """What ``_encoding_from_meta_attributes`` says about a ``_SIMPLE_PRAGMA_META`` match, read directly.

    The pragma is there, no ``charset`` attribute: the label is ExtractCharset's reading of the
    content value (Latin-1; no "&", so no character reference), stripped, and it must name an encoding.
    """
    raw = match[1] or match[2] or match[3] or match[4] or b""  # the one group set, or an empty value
    label = _chromium_extract_charset(raw.decode("latin-1")).strip("\t\n\x0c\r ")
    declared = _lookup_label(label) if label else None
    if declared is None:
        return None
    return Declaration(meta_encoding(declared), label, declared, match.start(), match.end(), "meta-content")


def _chromium_extract_charset(value: str) -> str:
    """Blink's ExtractCharset: the standard's algorithm, except that an unquoted label also stops at
    a quote, and "charset" without "=" is searched again right after the word."""
    if value.isascii():
        # ASCII: lower() keeps every offset, so the regex reads what the loop reads, in one call.
        match = _EXTRACT_CHARSET.search(value)
        if match is None:
            return ""
        double, single, unquoted = match.groups()
        return double if double is not None else single if single is not None else unquoted
    lowered = value.lower()
    length = len(value)
    pos = 0
    while pos < length:
        pos = lowered.find("charset", pos)
        if pos < 0:
            break
        pos += 7
        while pos < length and value[pos] <= " ":
            pos += 1
        if pos >= length or value[pos] != "=":
            continue
        pos += 1
        while pos < length and value[pos] <= " ":
            pos += 1
        quote = ""
        if pos < length and value[pos] in "\"'":
            quote = value[pos]
            pos += 1
        if pos == length:
            break
        end = pos
        if quote:
            end = value.find(quote, pos)
            if end < 0:
                break  # close quote not found
        else:
            end = _UNQUOTED_LABEL.match(value, pos).end()  # type: ignore[union-attr]  # matches ""
        return value[pos:end]
    return ""


def scan_head_meta(data: bytes, unconditional: int = PRESCAN_LIMIT, *, fast: bool = True) -> HeadScan:
    """Scan ``data`` the way Chromium looks for a meta charset; see the module docstring.

    ``unconditional`` is Chromium's ``kBytesToCheckUnconditionally`` (1024): how far the scan
    goes even after the head has ended. ``fast=False`` turns the regex fast paths off (token by
    token only), which the tests use to check that both give the same answer.
    """
    n = len(data)
    pos = 0
    in_head = True
    head_end: int | None = None
    tokens = 0
    # Checked after every token: out of the head and past the unconditional window. While in the
    # head the limit is infinite; when the head ends it becomes ``unconditional``.
    limit = n + 1

    tag_reader = _fast_tag if fast else _parse_tag

    if fast:
        # The loop's first steps for the common head, without the loop: the head's run, then the
        # simple tag after it, read here as the loop would read it. A <meta> is checked (the loop
        # goes on after it if it declares nothing). A tag that ends the head (</head>, <body>,
        # <p>...; not one that starts raw text) with no meta in reach after it is where the loop
        # would stop, with the same HeadScan. Otherwise the loop goes on from the end of the run.
        pos = _HEAD_RUN.match(data).end()  # type: ignore[union-attr]  # matches ""
        tokens = 1 if pos else 0
        pragma = _SIMPLE_PRAGMA_META.match(data, pos)
        if pragma is not None:
            # The common <meta http-equiv content>, read without the tag's attribute list.
            found = _pragma_declaration(pragma)
            if found is not None:
                return HeadScan(found, None, tokens + 1, pragma.end())
        first = _LT_SIMPLE_TAG.match(data, pos)
        if first is not None:
            name = first.group(2).lower()
            end_tag = bool(first.group(1))
            if name == b"meta" and not end_tag:
                attributes = _simple_attributes(data, first.end(2), first.end())
                found = _encoding_from_meta_attributes(_Tag(name, False, attributes, first.end()), pos)
                tokens += 1
                if found is not None:
                    return HeadScan(found, None, tokens, first.end())
                pos = first.end()  # a meta keeps the document in the head
            else:
                ends_head = not (name in _HEAD_TAGS or (not end_tag and name in _HEAD_START_ONLY))
                raw_text = not end_tag and (name in _RAW_END or name == b"plaintext")
                if ends_head and not raw_text and not _meta_reachable(data, first.end(), unconditional):
                    return HeadScan(None, pos, tokens + 1, first.end())

    while True:
        if in_head and fast:
            run_end = _HEAD_RUN.match(data, pos).end()  # type: ignore[union-attr]  # matches ""
            if run_end > pos:
                tokens += 1  # one step, however many tokens the run held
                pos = run_end
        # Data state: characters up to the next "<" form one character token.
        lt = data.find(b"<", pos)
        if lt < 0:
            return HeadScan(None, head_end, tokens, n)
        if lt > pos:
            tokens += 1
            if lt >= limit:
                return HeadScan(None, head_end, tokens, lt)
        if lt + 1 >= n:
            return HeadScan(None, head_end, tokens, n)
        c = data[lt + 1]
        tag: _Tag | None = None
        if c == _BANG:
            if data.startswith(b"--", lt + 2):
                # Comment: "<!-->" and "<!--->" end at once; else the first "-->" or "--!>".
                if data.startswith(b">", lt + 4):
                    end = lt + 5
                elif data.startswith(b"->", lt + 4):
                    end = lt + 6
                else:
                    match = _COMMENT_END.search(data, lt + 4)
                    if match is None:
                        return HeadScan(None, head_end, tokens + 1, n)
                    end = match.end()
            else:
                # DOCTYPE, CDATA (outside foreign content) and other "<!": up to the first ">".
                close = data.find(b">", lt + 2)
                if close < 0:
                    return HeadScan(None, head_end, tokens + 1, n)
                end = close + 1
        elif c == _QMARK:
            close = data.find(b">", lt + 2)
            if close < 0:
                return HeadScan(None, head_end, tokens + 1, n)
            end = close + 1
        elif c == _SLASH:
            if lt + 2 >= n:
                return HeadScan(None, head_end, tokens, n)
            c2 = data[lt + 2]
            if c2 in _ALPHA:
                tag = tag_reader(data, lt + 2, n, end_tag=True)
                if tag is None:
                    return HeadScan(None, head_end, tokens, n)
                end = tag.end
            elif c2 == _GT:
                pos = lt + 3  # "</>" is dropped without a token
                continue
            else:
                close = data.find(b">", lt + 2)
                if close < 0:
                    return HeadScan(None, head_end, tokens + 1, n)
                end = close + 1
        elif c in _ALPHA:
            tag = tag_reader(data, lt + 1, n, end_tag=False)
            if tag is None:
                return HeadScan(None, head_end, tokens, n)
            end = tag.end
        else:
            # "<" followed by anything else is text.
            pos = lt + 1
            continue
        tokens += 1
        pos = end
        if tag is not None:
            name = tag.name
            if not tag.end_tag:
                if name == b"meta":
                    found = _encoding_from_meta_attributes(tag, lt)
                    if found is not None:
                        return HeadScan(found, head_end, tokens, end)
                # UpdateStateFor: raw-text states swallow markup up to the matching end tag.
                if name in _RAW_END:
                    match = _RAW_END[name].search(data, pos)
                    pos = n if match is None else match.start()
                elif name == b"script":
                    pos = _skip_script_data(data, pos, n)
                elif name == b"plaintext":
                    pos = n
            if in_head and not (name in _HEAD_TAGS or (not tag.end_tag and name in _HEAD_START_ONLY)):
                in_head = False
                head_end = lt
                limit = unconditional
                if not _meta_reachable(data, pos, unconditional):
                    return HeadScan(None, head_end, tokens, end)
        if end >= limit:
            return HeadScan(None, head_end, tokens, end)


def _meta_reachable(data: bytes, pos: int, limit: int) -> bool:
    """After the head has ended at ``pos``: can a meta token still be reached? (Exact shortcut.)

    The scan now stops at the first token that ends at or past ``limit``, so a meta must start
    before ``limit`` — unless only "</>" sequences (which produce no token, hence no check) lie
    between the last token before ``limit`` and the meta. So: no "<meta" before ``limit`` and no
    "</>" reaching ``limit`` means nothing can be found, and the tokenizing can stop here.
    """
    if pos >= limit:
        return True  # the caller's own check stops the scan at once
    # One search for both: a "<meta" starting before ``limit`` (it ends by ``limit + 4``), or a
    # "</>" starting at or before ``limit``. A "</>" found at ``limit + 1`` leaves no room after it
    # for a "<meta" inside the searched range, so that first match answers alone.
    found = _META_OR_EMPTY_END_TAG.search(data, pos, limit + 4)
    return found is not None and (found.start() <= limit or found.group() != b"</>")


def _skip_script_data(data: bytes, pos: int, n: int) -> int:
    """The offset of the ``</script`` that ends script data (escape states included), or ``n``."""
    pattern = _SCRIPT_DATA
    state = 0  # 0 script data, 1 escaped, 2 double escaped
    while True:
        match = pattern.search(data, pos)
        if match is None:
            return n
        token = match.group()
        if token[:2] == b"</":
            if state != 2:
                return match.start()
            state, pattern = 1, _SCRIPT_ESCAPED  # "</script" in a double escape goes back to escaped
        elif token == b"<!--":
            state, pattern = 1, _SCRIPT_ESCAPED
            pos = match.start() + 2  # the dashes of "<!--" may close it as "<!-->"
            continue
        elif token == b"-->":
            state, pattern = 0, _SCRIPT_DATA
        else:  # "<script" inside an escape
            state, pattern = 2, _SCRIPT_DOUBLE_ESCAPED
        pos = match.end() - (0 if token == b"-->" else 1)
