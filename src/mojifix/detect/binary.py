"""Stage 2: binary data (not text in any encoding): refuse instead of guessing.

Two signals: a known binary file signature at offset 0, or too many control bytes. Text in every
supported ASCII-compatible or EBCDIC encoding uses C0 controls only for layout (TAB, LF, CR, FF, and
ESC/SO/SI in the ISO-2022 family, SUB as a DOS end-of-file mark); zero bytes are explained only by
UTF-16/32 structure (stage 3 runs on the same counts and is consulted first).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

__all__ = ["binary_evidence", "signature"]

#: well-known signatures of binary formats (first bytes of the file)
SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"BZh", "bzip2 data"),
    (b"\xfd7zXZ\x00", "xz data"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"\x7fELF", "ELF executable"),
    (b"MZ", "DOS/Windows executable"),
    (b"%PDF-", "PDF document"),
    (b"\x28\xb5\x2f\xfd", "zstd data"),
    (b"OggS", "Ogg media"),
    (b"RIFF", "RIFF media"),
    (b"\x00\x00\x01\x00", "ICO image"),
    (b"SQLite format 3\x00", "SQLite database"),
    (b"\xca\xfe\xba\xbe", "Java class / Mach-O"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE2 document"),
)

#: every signature, for one ``startswith`` call that rules them all out at once on nearly every input
_ANY_SIGNATURE = tuple(magic for magic, _ in SIGNATURES)

#: bytes allowed in text although they are C0 controls: TAB LF VT FF CR, SO SI (ISO-2022-KR),
#: SUB (DOS end of file), ESC (ISO-2022 escape sequences, ANSI colours).
_TEXT_CONTROLS = frozenset({0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x1A, 0x1B})
#: the other C0 controls and DEL: the byte values (and code points) that do not occur in text
_CONTROLS = bytes(b for b in (*range(0x20), 0x7F) if b not in _TEXT_CONTROLS)
#: the counts of the same byte values, read from a histogram (list or array) in one call
_control_counts = operator.itemgetter(*_CONTROLS)
#: ``bytes.translate`` table deleting everything but those controls (what is left is counted)
_NOT_CONTROLS = bytes(b for b in range(256) if b not in _CONTROLS)

#: share of control bytes (other than the layout controls above) beyond which input is binary.
#: Real text files have essentially none; random bytes have ~11%; 1% leaves room for a stray form feed,
#: NUL padding at the end of a record or a few ANSI oddities in logs.
MAX_CONTROL_SHARE = 0.01


def signature(head: bytes) -> str | None:
    """Name of the binary format whose signature starts ``head``, else None.

    Signatures that are also plausible text starts (``MZ``, ``BZh``, ``RIFF``, ``OggS``, ``%PDF-``)
    count only when control bytes also occur in the first 1,024 bytes.
    """
    if not head.startswith(_ANY_SIGNATURE):
        return None
    for magic, name in SIGNATURES:
        if head.startswith(magic):
            plausible_text = magic[:1].isalpha() or magic.startswith(b"%")
            if plausible_text and not head[:1024].translate(None, _NOT_CONTROLS):
                continue
            return name
    return None


def binary_evidence(hist: Sequence[int], total: int, ebcdic_like: bool = False) -> tuple[float, str] | None:
    """(share, description) when the byte histogram (256 counts: a list, or an array) says binary, else None.

    ``ebcdic_like``: 0x7F is the quotation mark in EBCDIC, not DEL.
    """
    controls = int(sum(_control_counts(hist)))
    if ebcdic_like:
        controls -= int(hist[0x7F])
    share = controls / total if total else 0.0
    if share > MAX_CONTROL_SHARE:
        nul = int(hist[0])
        return share, f"{controls:,} control bytes ({share:.1%}, {nul:,} NUL) in {total:,} bytes"
    return None


def decoded_binary_evidence(text: str) -> tuple[float, str] | None:
    """The same test on decoded text (for UTF-16/32, whose bytes are not characters)."""
    if not text:
        return None
    # (one byte per character: those below U+0080 as themselves, the others as bytes 0x80-0xFF or "?",
    # none of them a control)
    controls = len(text.encode("latin-1", "replace").translate(None, _NOT_CONTROLS))
    share = controls / len(text)
    if share > MAX_CONTROL_SHARE:
        return share, f"{controls:,} control characters ({share:.1%}) in the first {len(text):,} characters"
    return None
