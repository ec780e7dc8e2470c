"""Stage 3: UTF-16/32 without BOM, recognised by where the zero bytes fall.

Text in UTF-16 whose characters are mostly below U+0100 (Latin, digits, markup, line breaks) has a zero
byte in every other position, always on the same side; UTF-32 has two or three zero bytes in every four,
in fixed positions. Legacy 8-bit text has no zero bytes at all. The decoder for the chosen form must also
accept every byte (no lone surrogate, no code point above U+10FFFF): that check runs in the streaming
validity stage, this stage only reads the counts.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ZeroCounts", "structure_guess"]

#: the opposite position may carry at most this share of the expected side's zeros (U+xx00 characters
#: exist, e.g. "Ā" U+0100 or "Ѐ" U+0400, but rarely); binary files with runs of zeros fill both sides.
#: Legacy 8-bit text has no zero byte at all, so *any* one-sided zero in valid UTF-16 is evidence: a
#: Russian or Chinese UTF-16 text has zeros only at its spaces, digits and line breaks (often < 10%).
MAX_OTHER_SIDE = 0.1


@dataclass(slots=True)
class ZeroCounts:
    """Zero bytes per position modulo 4 (absolute offsets), accumulated while streaming."""

    by_mod4: list[int]
    total: int = 0


def structure_guess(zeros: ZeroCounts) -> tuple[str, float] | None:
    """("UTF-16LE"|"UTF-16BE"|"utf-32-le"|"utf-32-be", share of units matching) or None."""
    n = zeros.total
    if n < 4:
        return None
    z0, z1, z2, z3 = zeros.by_mod4
    units32 = n // 4
    if n % 4 == 0 and units32:
        # UTF-32LE: bytes 2 and 3 of every unit are zero for BMP text (byte 3 always);
        # UTF-32BE: bytes 0 and 1.
        if z3 >= 0.9 * units32 and z2 >= 0.5 * units32 and z0 <= MAX_OTHER_SIDE * z3:
            return "utf-32-le", z3 / units32
        if z0 >= 0.9 * units32 and z1 >= 0.5 * units32 and z3 <= MAX_OTHER_SIDE * z0:
            return "utf-32-be", z0 / units32
    if n % 2 == 0:
        units16 = n // 2
        even, odd = z0 + z2, z1 + z3
        if odd and even <= MAX_OTHER_SIDE * odd:
            return "UTF-16LE", odd / units16
        if even and odd <= MAX_OTHER_SIDE * even:
            return "UTF-16BE", even / units16
    return None
