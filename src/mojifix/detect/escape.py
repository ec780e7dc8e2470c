"""Stage 6: 7-bit escape-sequence encodings (ISO-2022-JP, ISO-2022-KR, HZ-GB-2312).

These are pure 7-bit, so they reach this stage only when the input is otherwise ASCII. Each announces
itself with a designation sequence that ordinary ASCII text does not contain; the streaming validator
(the CPython decoder of that encoding, strict) then has to accept every byte.
"""

from __future__ import annotations

__all__ = ["ESCAPE_MARKERS", "escape_candidates"]

#: encoding -> byte sequences that designate its character sets (RFC 1468, RFC 1557, RFC 1843)
ESCAPE_MARKERS: dict[str, tuple[bytes, ...]] = {
    "ISO-2022-JP": (b"\x1b$B", b"\x1b$@", b"\x1b(J", b"\x1b(I"),
    "iso2022_kr": (b"\x1b$)C",),
    "hz": (b"~{",),
}


def escape_candidates(head: bytes) -> list[tuple[str, bytes]]:
    """Escape encodings whose designation sequence occurs in ``head``, with the marker found."""
    found = []
    for name, markers in ESCAPE_MARKERS.items():
        for marker in markers:
            if marker in head:
                found.append((name, marker))
                break
    return found
