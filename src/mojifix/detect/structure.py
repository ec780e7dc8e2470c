"""Stage 3: UTF-16/32 without BOM, recognised by where the zero bytes fall.

Text in UTF-16 whose characters are mostly below U+0100 (Latin, digits, markup, line breaks) has a zero
byte in every other position, always on the same side; UTF-32 has two or three zero bytes in every four,
in fixed positions. Legacy 8-bit text has no zero bytes at all. The decoder for the chosen form must also
accept every byte (no lone surrogate, no code point above U+10FFFF): that check runs in the streaming
validity stage, this stage only reads the counts.

Stage 3b (:func:`utf16_by_content`) covers UTF-16 whose zeros are absent or too few to trust: pure CJK
text has no character below U+0100, so no zero byte at all, and "一" (U+4E00, 00 4E in UTF-16LE) puts
its zero on the big-endian side. Both byte orders that decode every byte are read and scored with the
language model; the wrong order and legacy CJK bytes read as UTF-16 give scattered rare code points.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["ContentReading", "ZeroCounts", "structure_guess", "utf16_by_content"]

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


#: UTF-16 read by content (stage 3b). Real text in its own language scores -2 to -4 nats per character
#: for alphabetic scripts and -5.5 to -7.5 for Hanzi/Kanji/Hangul (thousands of distinct characters);
#: the wrong byte order of the same text, GBK/Big5/Shift_JIS/EUC-KR bytes read as UTF-16, and binary
#: data all score below -13 (measured on the conversion corpus generator's files and the probe texts in
#: tests/detect/test_structure.py). -10 sits in the middle of that gap.
CONTENT_MIN_SCORE = -10.0
#: ... and at least this share of the letters must be among the language's frequent characters: legacy
#: CJK bytes read as UTF-16 land on Hangul syllables, Yi, CJK Extension A and private use *all over*
#: the BMP (known share < 0.1); real text, even short, is above 0.9.
CONTENT_MIN_KNOWN = 0.7
#: ... and at least this share of the characters must be letters (the rest punctuation and symbols).
CONTENT_MIN_LETTERS = 0.5
#: the chosen byte order must beat the other one (when that one is valid at all) by this many nats per
#: character: swapping the bytes of real CJK text gives scattered rare code points (about -16).
CONTENT_ORDER_MARGIN = 3.0
#: UTF-16 guessed from zero bytes is checked by content when fewer than this share of code units
#: carry a zero: pure CJK text has zeros only in the U+xx00 ideographs ("一" U+4E00 is 00 4E in
#: UTF-16LE, a zero on the *big-endian* side), so a few zeros can point to the wrong byte order.
#: Latin text in UTF-16 has zeros in ~100% of units and is never re-read; the check itself only
#: overrides the zeros when one byte order reads as text and the other does not.
CONTENT_VERIFY_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class ContentReading:
    """How one byte order of UTF-16 reads as text (stage 3b)."""

    name: str  # "UTF-16LE" | "UTF-16BE"
    per_char: float  # model log-likelihood per character (nats)
    language: str | None
    known_share: float
    letter_share: float
    other: float | None  # the other byte order's per-character score, None when it is invalid

    @property
    def is_text(self) -> bool:
        """Whether this reading passes every content threshold (see the module constants)."""
        return (
            self.per_char >= CONTENT_MIN_SCORE
            and self.known_share >= CONTENT_MIN_KNOWN
            and self.letter_share >= CONTENT_MIN_LETTERS
            and (self.other is None or self.per_char >= self.other + CONTENT_ORDER_MARGIN)
        )


def utf16_by_content(texts: dict[str, str], score: Callable[[list[str]], list[Any]]) -> ContentReading | None:
    """The better-reading byte order of UTF-16 text, by what its decoding says, or None.

    ``texts`` maps "UTF-16LE"/"UTF-16BE" to the decoding of the same leading bytes, for the byte orders
    whose strict decoder accepted every byte of the input (valid surrogate pairing throughout);
    ``score`` is :meth:`Scorer.score_many` without encodings. Decodings with control characters are
    dropped (decoded binary). The best reading is returned even when it fails the thresholds; callers
    use :attr:`ContentReading.is_text`.
    """
    from mojifix.detect.binary import decoded_binary_evidence  # stage 2's test, on characters

    names = [n for n, t in texts.items() if t and decoded_binary_evidence(t) is None]
    if not names:
        return None
    results = score([texts[n] for n in names])
    readings = []
    for name, r in zip(names, results, strict=True):
        n_chars = len(texts[name])
        readings.append((r.loglik / n_chars, name, r, r.letters / n_chars))
    readings.sort(key=lambda x: -x[0])
    per_char, name, r, letter_share = readings[0]
    other = readings[1][0] if len(readings) > 1 else None
    if other is None and len(names) < len(texts):
        other = float("-inf")  # the other order decodes to control characters: as good as invalid
    return ContentReading(name, per_char, r.language, r.known_share, letter_share, other)
