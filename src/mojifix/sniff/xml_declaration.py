"""An XML declaration's encoding in an HTML document: the HTML Standard's "get an XML encoding".

https://html.spec.whatwg.org/multipage/parsing.html#concept-get-xml-encoding-when-sniffing
The standard runs it when the prescan finds no ``<meta>``; Chromium's TextResourceDecoder
(``CheckForXMLCharset``) honours ``<?xml ... encoding="..."?>`` at the very start of an HTML
document too, and lets a ``<meta>`` found later override it. Step numbers below are the standard's.
"""

from __future__ import annotations

from mojifix.sniff.prescan import Declaration, meta_encoding
from mojifix.whatwg import lookup

__all__ = ["get_xml_encoding", "xml_encoding_label_span"]


def get_xml_encoding(data: bytes, end: int | None = None) -> Declaration | None:
    """The encoding named by an XML declaration at the start of ``data[:end]``, or ``None`` (failure)."""
    span = xml_encoding_label_span(data, end)
    if span is None:
        return None
    pos, close = span
    # 16. Get an encoding from potentialEncoding, isomorphic decoded.
    label = data[pos:close].decode("latin-1")
    declared = lookup(label)
    if declared is None:
        return None
    # 17-18. UTF-16BE/LE -> UTF-8 (Chromium's ClosestByteBasedEquivalent does the same); return it.
    encoding = meta_encoding(declared) if declared.name in ("UTF-16BE", "UTF-16LE") else declared
    return Declaration(encoding, label, declared, 0, close + 1, "xml-declaration")


def xml_encoding_label_span(data: bytes, end: int | None = None) -> tuple[int, int] | None:
    """Steps 1-15 of "get an XML encoding": the byte span of the label (potentialEncoding), or ``None``.

    Split from :func:`get_xml_encoding` so that callers which must see labels the standard does not know
    (``mojifix.detect.declarations``) locate them with the same steps.
    """
    n = len(data) if end is None else min(len(data), end)
    # 1-2. The stream must start with `<?xml`.
    if not data.startswith(b"<?xml", 0, n):
        return None
    # 3. xmlDeclarationEnd: the next ">"; none -> failure.
    decl_end = data.find(b">", 0, n)
    if decl_end < 0:
        return None
    # 4. The first `encoding` at or after encodingPosition (within the declaration); none -> failure.
    pos = data.find(b"encoding", 0, decl_end)
    if pos < 0:
        return None
    # 5. Advance past the "g".
    pos += 8
    # 6. Skip bytes <= 0x20.
    while pos < decl_end and data[pos] <= 0x20:
        pos += 1
    # 7-8. An "=" must follow; advance past it.
    if pos >= decl_end or data[pos] != 0x3D:
        return None
    pos += 1
    # 9. Skip bytes <= 0x20.
    while pos < decl_end and data[pos] <= 0x20:
        pos += 1
    # 10-12. quoteMark must be '"' or "'"; advance past it.
    if pos >= decl_end or data[pos] not in (0x22, 0x27):
        return None
    quote = data[pos : pos + 1]
    pos += 1
    # 13. encodingEndPosition: the next quoteMark (Chromium: before the declaration's ">").
    close = data.find(quote, pos, decl_end)
    if close < 0:
        return None
    # 14. potentialEncoding: the bytes between the quotes.
    potential = data[pos:close]
    # 15. Any byte <= 0x20 in it -> failure.
    if any(b <= 0x20 for b in potential):
        return None
    return pos, close
