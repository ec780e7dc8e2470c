"""Stage 1: byte order marks.

A BOM is the strongest evidence there is: the WHATWG Encoding Standard's *BOM sniff*
(https://encoding.spec.whatwg.org/#bom-sniff) lets it override even an HTTP charset. The standard sniffs
only UTF-8 and UTF-16 BOMs; ``domain="file"`` also recognises the UTF-32 BOMs (checked first, because
the UTF-32LE BOM starts with the UTF-16LE one). Browsers do not sniff UTF-32, so the web domain does not.
"""

from __future__ import annotations

__all__ = ["sniff_bom"]

_WEB_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "UTF-8"),
    (b"\xfe\xff", "UTF-16BE"),
    (b"\xff\xfe", "UTF-16LE"),
)
_FILE_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    *_WEB_BOMS,
)


def sniff_bom(head: bytes, domain: str) -> tuple[str, int] | None:
    """(encoding, BOM length) when ``head`` starts with a BOM recognised in ``domain``, else None."""
    for bom, name in _FILE_BOMS if domain == "file" else _WEB_BOMS:
        if head.startswith(bom):
            return name, len(bom)
    return None
