"""The transport layer's charset: Fetch's "extract a MIME type" and "legacy extract an encoding".

Browsers take the charset from the ``Content-Type`` header(s) with these algorithms, not with a
regex: several header values (or one value holding several comma-separated types) are combined,
the *last* valid MIME type wins, a ``charset`` carried by an earlier value of the same essence is
kept, only the *first* ``charset`` parameter of a value counts, quoted values are unescaped, and
an unknown label means "no charset" rather than an error.

Spec sections followed (step numbers in the comments refer to them):

- Fetch, "extract a MIME type": https://fetch.spec.whatwg.org/#concept-header-extract-mime-type
- Fetch, "legacy extract an encoding": https://fetch.spec.whatwg.org/#legacy-extract-an-encoding
- Fetch, "get, decode, and split": https://fetch.spec.whatwg.org/#concept-header-list-get-decode-split
- Fetch, "collect an HTTP quoted string": https://fetch.spec.whatwg.org/#collect-an-http-quoted-string
- MIME Sniffing, "parse a MIME type": https://mimesniff.spec.whatwg.org/#parse-a-mime-type
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from mojifix.whatwg import Encoding, lookup

__all__ = ["MimeType", "TransportCharset", "extract_mime_type", "legacy_extract_encoding", "parse_mime_type"]

#: HTTP whitespace (Fetch): LF, CR, TAB, SPACE.
_HTTP_WHITESPACE = "\n\r\t "
#: HTTP tab or space (Fetch).
_HTTP_TAB_OR_SPACE = "\t "


#: HTTP token code points (MIME Sniffing): the RFC 7230 tchar set.
_TOKEN_RE = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


def _is_token(s: str) -> bool:
    return _TOKEN_RE.fullmatch(s) is not None


def _is_quoted_string_token(s: str) -> bool:
    """HTTP quoted-string token code points: U+0009, U+0020-U+007E, U+0080-U+00FF."""
    return all(c == "\t" or " " <= c <= "~" or "\x80" <= c <= "\xff" for c in s)


@dataclass(frozen=True, slots=True)
class MimeType:
    """A parsed MIME type: lowercase type and subtype, parameters in first-seen order."""

    type: str
    subtype: str
    parameters: tuple[tuple[str, str], ...] = ()

    @property
    def essence(self) -> str:
        return f"{self.type}/{self.subtype}"

    def get(self, name: str) -> str | None:
        for key, value in self.parameters:
            if key == name:
                return value
        return None


def _collect_quoted_string(s: str, pos: int, extract_value: bool) -> tuple[str, int]:
    """Fetch's "collect an HTTP quoted string" starting at the ``"`` at ``pos``."""
    # 1-2. Let positionStart be position; let value be the empty string.
    start = pos
    value: list[str] = []
    n = len(s)
    # 3-4. Assert the code point is U+0022 ("); advance position by 1.
    pos += 1
    # 5. While true:
    while True:
        # 5.1 Append code points that are not U+0022 (") or U+005C (\).
        stop = pos
        while stop < n and s[stop] not in '"\\':
            stop += 1
        value.append(s[pos:stop])
        pos = stop
        # 5.2 If position is past the end of input, then break.
        if pos >= n:
            break
        # 5.3 Let quoteOrBackslash be the code point at position; advance position by 1.
        quote_or_backslash = s[pos]
        pos += 1
        if quote_or_backslash == "\\":
            # 5.4 Backslash: at the end, append U+005C and break; else append the next code point.
            if pos >= n:
                value.append("\\")
                break
            value.append(s[pos])
            pos += 1
        else:
            # 5.5 Otherwise (a quote): break.
            break
    # 6-7. Return value if extract-value is true, else the code points from positionStart to position.
    return ("".join(value) if extract_value else s[start:pos]), pos


def parse_mime_type(value: str) -> MimeType | None:
    """MIME Sniffing's "parse a MIME type"; ``None`` is the standard's failure."""
    # 1. Remove any leading and trailing HTTP whitespace.
    s = value.strip(_HTTP_WHITESPACE)
    n = len(s)
    # 2-3. type: code points up to "/".
    slash = s.find("/")
    type_ = s if slash < 0 else s[:slash]
    # 4. If type is empty or not solely HTTP token code points, return failure.
    if not _is_token(type_):
        return None
    # 5. If position is past the end of input, return failure.
    if slash < 0:
        return None
    # 6-7. Skip "/"; subtype: code points up to ";".
    semi = s.find(";", slash + 1)
    end = n if semi < 0 else semi
    # 8. Remove any trailing HTTP whitespace from subtype.
    subtype = s[slash + 1 : end].rstrip(_HTTP_WHITESPACE)
    # 9. If subtype is empty or not solely HTTP token code points, return failure.
    if not _is_token(subtype):
        return None
    # 10. A new MIME type with lowercase type and subtype.
    params: dict[str, str] = {}
    pos = end
    # 11. While position is not past the end of input:
    while pos < n:
        # 11.1 Advance position by 1 (skips the ";").
        pos += 1
        # 11.2 Collect HTTP whitespace.
        while pos < n and s[pos] in _HTTP_WHITESPACE:
            pos += 1
        # 11.3-4 parameterName: code points up to ";" or "=", ASCII-lowercased.
        stop = pos
        while stop < n and s[stop] not in ";=":
            stop += 1
        name = s[pos:stop].lower()
        pos = stop
        # 11.5 If position is not past the end: ";" -> next parameter; else skip the "=".
        if pos < n:
            if s[pos] == ";":
                continue
            pos += 1
        # 11.6 If position is past the end of input, then break.
        if pos >= n:
            break
        # 11.7-9 parameterValue: a quoted string (rest up to ";" ignored), or up to ";" and rstripped.
        if s[pos] == '"':
            param_value, pos = _collect_quoted_string(s, pos, extract_value=True)
            while pos < n and s[pos] != ";":
                pos += 1
        else:
            stop = s.find(";", pos)
            stop = n if stop < 0 else stop
            param_value = s[pos:stop].rstrip(_HTTP_WHITESPACE)
            pos = stop
            if not param_value:
                continue
        # 11.10 Keep the first occurrence of a valid name=value pair.
        if _is_token(name) and _is_quoted_string_token(param_value) and name not in params:
            params[name] = param_value
    # 12. Return mimeType.
    return MimeType(type_.lower(), subtype.lower(), tuple(params.items()))


def split_header_values(values: Sequence[str]) -> list[str]:
    """Fetch's "get, decode, and split" over the values of one header name.

    The values are combined with ", " (Fetch "get") and split on commas outside quoted strings.
    """
    # get: combine the values, separated by 0x2C 0x20.
    s = ", ".join(values)
    if '"' not in s and "," not in s:
        return [s.strip(_HTTP_TAB_OR_SPACE)]  # nothing to split: the loop below would do just this
    n = len(s)
    pos = 0
    out: list[str] = []
    temporary: list[str] = []
    while True:
        # 5.1 Append code points that are not U+0022 (") or U+002C (,).
        stop = pos
        while stop < n and s[stop] not in '",':
            stop += 1
        temporary.append(s[pos:stop])
        pos = stop
        # 5.2 A quote: append the collected quoted string (with its quotes); continue unless at the end.
        if pos < n and s[pos] == '"':
            quoted, pos = _collect_quoted_string(s, pos, extract_value=False)
            temporary.append(quoted)
            if pos < n:
                continue
        # 5.3-5 Strip HTTP tab or space, append, reset.
        out.append("".join(temporary).strip(_HTTP_TAB_OR_SPACE))
        temporary = []
        # 5.6 If position is past the end of input, return values.
        if pos >= n:
            return out
        # 5.7-8 Position is at a comma: skip it.
        pos += 1


def extract_mime_type(values: Sequence[str]) -> tuple[MimeType | None, int | None]:
    """Fetch's "extract a MIME type"; also returns the index (in the split list) that set the charset."""
    # 1-3. charset, essence, mimeType are null.
    charset: str | None = None
    charset_index: int | None = None
    essence: str | None = None
    mime: MimeType | None = None
    mime_charset_index: int | None = None  # which value the returned charset came from
    # 4-5. values = get, decode, and split `Content-Type`.
    # 6. For each value of values:
    for index, value in enumerate(split_header_values(values)):
        # 6.1 temporaryMimeType = parse a MIME type(value).
        temporary = parse_mime_type(value)
        # 6.2 If failure or its essence is "*/*", continue.
        if temporary is None or temporary.essence == "*/*":
            continue
        # 6.3 Set mimeType to temporaryMimeType.
        mime = temporary
        own = mime.get("charset")
        mime_charset_index = index if own is not None else None
        # 6.4 If mimeType's essence is not essence: charset = its own charset (or null); set essence.
        if mime.essence != essence:
            charset, charset_index = (own, index) if own is not None else (None, None)
            essence = mime.essence
        # 6.5 Otherwise, if it has no charset and charset is non-null, set its charset to charset.
        #     (A later value's own charset does not replace `charset`: the standard keeps the first.)
        elif own is None and charset is not None:
            mime = MimeType(mime.type, mime.subtype, (*mime.parameters, ("charset", charset)))
            mime_charset_index = charset_index
    # 7-8. Failure if mimeType is null; else return it.
    return mime, mime_charset_index


@dataclass(frozen=True, slots=True)
class TransportCharset:
    """What the Content-Type header(s) say about the encoding, with the problems found on the way.

    ``encoding`` is ``None`` when there is no usable charset; ``label`` is the raw ``charset``
    parameter value (also when it names no encoding); ``problems`` are finding codes for
    :mod:`mojifix.sniff.api` ("invalid-content-type", "unknown-label").
    """

    encoding: Encoding | None
    label: str | None
    mime_type: MimeType | None
    value_count: int
    value_index: int | None
    problems: tuple[str, ...] = ()

    @property
    def origin(self) -> str:
        """Where the label was found, for ``DecodedHTML.label_origin``."""
        if self.value_count > 1 and self.value_index is not None:
            return f"Content-Type header (value {self.value_index + 1} of {self.value_count})"
        return "Content-Type header"


def normalize_header_values(content_type: object) -> tuple[list[str], bool]:
    """One value or several as a list of str, and whether something unusable was dropped.

    Bytes are isomorphic-decoded (latin-1), as Fetch decodes header values. Anything that is not
    a str, bytes or a sequence of them is dropped (the caller warns), never an exception.
    """
    if content_type is None:
        return [], False
    if isinstance(content_type, str):
        return [content_type], False  # the common case, first
    if isinstance(content_type, bytes | bytearray):
        items: list[object] = [content_type]
    elif isinstance(content_type, list | tuple | Sequence):
        items = list(content_type)
    else:
        return [], True
    out: list[str] = []
    dropped = False
    for item in items:
        if isinstance(item, bytes | bytearray):
            out.append(bytes(item).decode("latin-1"))
        elif isinstance(item, str):
            out.append(item)
        else:
            dropped = True
    return out, dropped


#: The everyday form "type/subtype; charset=token" (or no parameter), for which the full algorithm
#: returns exactly what this match says: one value, nothing to split, one parameter or none.
_SIMPLE_VALUE = re.compile(
    r"[\t\n\r ]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)/([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[\t\n\r ]*"
    r"(?:;[\t\n\r ]*[Cc][Hh][Aa][Rr][Ss][Ee][Tt]=([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[\t\n\r ]*)?"
)


def legacy_extract_encoding(values: Sequence[str]) -> TransportCharset:
    """Fetch's "legacy extract an encoding" with a null fallback, plus provenance and problems."""
    if not values:
        return TransportCharset(None, None, None, 0, None)
    if len(values) == 1:
        simple = _SIMPLE_VALUE.fullmatch(values[0])
        if simple is not None:
            kind, subtype, label = simple.groups()
            params = (("charset", label),) if label is not None else ()
            mime = MimeType(kind.lower(), subtype.lower(), params)
            if label is None:
                return TransportCharset(None, None, mime, 1, None)
            encoding = lookup(label)
            problems = () if encoding is not None else ("unknown-label",)
            return TransportCharset(encoding, label, mime, 1, 0, problems)
    count = len(split_header_values(values))
    # 1. Let mimeType be the result of extracting a MIME type.
    mime, index = extract_mime_type(values)
    # 2. If mimeType is failure, return fallbackEncoding.
    if mime is None:
        return TransportCharset(None, None, None, count, None, ("invalid-content-type",))
    # 3. If mimeType["charset"] does not exist, return fallbackEncoding.
    label = mime.get("charset")
    if label is None:
        return TransportCharset(None, None, mime, count, None)
    # 4. Let tentativeEncoding be the result of getting an encoding from mimeType["charset"].
    encoding = lookup(label)
    # 5. If tentativeEncoding is failure, return fallbackEncoding.
    if encoding is None:
        return TransportCharset(None, label, mime, count, index, ("unknown-label",))
    # 6. Return tentativeEncoding.
    return TransportCharset(encoding, label, mime, count, index)
