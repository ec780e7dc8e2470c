"""In-band declarations in ``convert``: rewrite them to UTF-8 in the output, and read them as evidence.

A converted page that still says ``<meta charset="gb2312">`` is mislabeled: browsers would decode the
UTF-8 output as GBK. So after a file is converted, every declaration in the output
(:func:`mojifix.detect.declarations.find_declarations`: ``<?xml encoding>``, ``<meta>``, CSS
``@charset``, PEP 263 / Emacs / Vim coding comments) whose label does not name UTF-8 gets the label
``utf-8`` (``UTF-8`` when the old label was upper case). The declarations are looked for in the output
itself, so UTF-16 and EBCDIC sources, whose declarations are not ASCII bytes, are covered too.

The proof changes accordingly: the output equals the UTF-8 of the decoded text except inside the
rewritten spans, and each span is recorded (offset in the output, old label, new label), so the exact
decoded text can always be rebuilt from the output and the manifest (:func:`restore`).
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence

from mojifix.convert.codec import same_decoder, try_decode
from mojifix.convert.records import DeclarationRewrite
from mojifix.detect.declarations import DECLARATION_LIMIT, Declaration, find_declarations
from mojifix.whatwg import lookup

__all__ = [
    "OUTPUT_WINDOW",
    "DeclarationRewrite",
    "conflicting_declaration",
    "declarations_of",
    "names_utf8",
    "restore",
    "rewrite_declarations",
    "stale_declarations",
]

#: bytes of the UTF-8 output searched for declarations: the detector's 1024-byte window, times 4, because
#: the UTF-8 of a legacy text is at most 3x its source length (1-byte CJK punctuation cannot occur; a
#: 2-byte GBK character becomes 3 bytes, a 1-byte windows-1252 letter 2-3 bytes) and a declaration that
#: browsers saw in the source must not be missed in the copy. Chosen from that bound, not tuned.
OUTPUT_WINDOW = 4 * DECLARATION_LIMIT
_UTF8_BOM = b"\xef\xbb\xbf"
_WS = b" \t\r\n\x0c"


def names_utf8(label: str) -> bool:
    """True when ``label`` itself names UTF-8 (as the Encoding Standard or CPython resolves it)."""
    enc = lookup(label)
    if enc is not None:
        return enc.name == "UTF-8"
    try:
        return codecs.lookup(label).name == "utf-8"
    except LookupError:
        return False


def _applies(decl: Declaration, data: bytes) -> bool:
    """Whether ``decl`` is a declaration of this file rather than text that looks like one.

    XML, CSS and coding declarations are only recognised where their standards put them (byte 0, the
    first two comment lines). A ``<meta>`` can be found by the prescan in any file (a Python string, a
    JavaScript template), so it counts only in a document that starts with markup.
    """
    if decl.kind != "meta":
        return True
    body = data[len(_UTF8_BOM) :] if data.startswith(_UTF8_BOM) else data
    return body.lstrip(_WS).startswith(b"<")


def _declarations(data: bytes, limit: int) -> list[Declaration]:
    return [d for d in find_declarations(data, limit=limit) if _applies(d, data)]


def declarations_of(data: bytes) -> list[Declaration]:
    """The in-band declarations of the source ``data`` (in the detector's 1 KB window) that count."""
    return _declarations(data, DECLARATION_LIMIT)


def rewrite_declarations(output: bytes) -> tuple[bytes, tuple[DeclarationRewrite, ...]]:
    """``output`` (UTF-8) with every declaration that does not name UTF-8 relabelled, and the spans."""
    found = [d for d in _declarations(output, OUTPUT_WINDOW) if not names_utf8(d.label)]
    if not found:
        return output, ()
    pieces: list[bytes] = []
    rewrites: list[DeclarationRewrite] = []
    pos = shift = 0
    for decl in found:  # file order, non-overlapping
        new = "UTF-8" if decl.label.isupper() else "utf-8"
        pieces += (output[pos : decl.start], new.encode())
        rewrites.append(DeclarationRewrite(decl.kind, decl.start + shift, decl.label, new))
        shift += len(new) - (decl.end - decl.start)
        pos = decl.end
    pieces.append(output[pos:])
    return b"".join(pieces), tuple(rewrites)


def restore(output: bytes, rewrites: tuple[DeclarationRewrite, ...]) -> bytes | None:
    """The output with the old labels put back (the UTF-8 of the decoded text), or ``None`` when the
    output does not hold the recorded new labels at the recorded offsets."""
    pieces: list[bytes] = []
    pos = 0
    for r in sorted(rewrites, key=lambda r: r.offset):
        new = r.new_label.encode()
        if r.offset < pos or output[r.offset : r.offset + len(new)] != new:
            return None
        pieces += (output[pos : r.offset], r.old_label.encode("latin-1"))
        pos = r.offset + len(new)
    pieces.append(output[pos:])
    return b"".join(pieces)


def conflicting_declaration(
    data: bytes, encoding: str, text: str, decls: Sequence[Declaration]
) -> tuple[Declaration, str] | None:
    """A declaration of ``data`` (one of ``decls``, :func:`declarations_of` it) naming another encoding
    that also decodes every byte, to another text than ``text``.

    Both readings are then proven decodings of the bytes and the file says which one it meant while
    the detector says the other: that is not a confident decision, so ``convert`` quarantines it.
    Returns (declaration, its decoding) or ``None``.
    """
    for decl in decls:
        declared = decl.encoding
        if declared is None or same_decoder(declared, encoding) or names_utf8(decl.label):
            continue
        other = try_decode(data, declared)
        if other is not None and other.removeprefix("\ufeff") != text:
            return decl, other
    return None


def stale_declarations(data: bytes, encoding: str, decls: Sequence[Declaration]) -> tuple[str, ...]:
    """Warnings for the declarations ``decls`` of ``data`` that name an encoding the bytes are not valid
    in (the source was re-encoded without updating its declaration): a finding to report, not a reason
    to refuse."""
    out = []
    for decl in decls:
        declared = decl.encoding
        if declared is None:
            out.append(f"declares an unknown encoding {decl.label!r} ({decl.kind}) at byte {decl.start}")
        elif not same_decoder(declared, encoding) and try_decode(data, declared) is None:
            out.append(
                f"declares {decl.label!r} ({decl.kind}) at byte {decl.start}, but the bytes are not valid "
                f"{declared}: the declaration was stale"
            )
    return tuple(out)
