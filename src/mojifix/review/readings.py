"""Candidate readings of one quarantined file, aligned byte for byte so their differences can be marked.

A *reading* is the file's bytes decoded under one choice: one encoding for the whole file, or (a
mixed file) the head in one encoding and the tail in another. Every character of a reading is kept
with the byte span it was decoded from; a character is *the same* in every reading when each reading
has a character with the same span and the same text, and is marked as different otherwise. Aligning
by bytes (not by a text diff) says exactly what the choice changes: which bytes turn into which text.

Only a window of each file is shown (a person decides from the place where the readings part ways,
not from the whole file); which readings can be *chosen* is decided over every byte by
:func:`mojifix.convert.decisions.check_reading`, the proof ``convert --decisions`` applies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mojifix.convert.codec import decode_strict, encode_strict, reencode_name
from mojifix.convert.decisions import Segment, check_reading
from mojifix.textcodec import decode_as

__all__ = ["Reading", "SpanCache", "card_readings"]

#: bytes of each reading shown on a card: about eight lines of prose, so three readings side by side
#: still fit one laptop screen (chosen by looking at the demo tree's cards)
EXCERPT_BYTES = 600
#: bytes shown before the first byte where the readings can differ (a line or two of context)
CONTEXT_BEFORE = 120
#: for a mixed file: bytes shown on each side of the boundary
PART_BYTES = 360
#: candidate encodings offered per card (the manifest's ambiguity reason lists three:
#: ``convert.verify.AMBIGUOUS_LISTED``)
MAX_READINGS = 3
#: hex dump around the first difference: bytes before and after it
DUMP_BEFORE = 8
DUMP_AFTER = 16
#: a reading with more decode errors than this in its window is shown without alignment
MAX_ERRORS = 64

#: encodings whose decoder carries state across characters (escape sequences): per-character byte
#: lengths do not add up, so their readings are shown without marking differences
_STATEFUL = frozenset({"ISO-2022-JP", "utf-7", "iso2022_jp", "iso2022_kr", "hz"})
_UNIT = {"UTF-16LE": 2, "UTF-16BE": 2, "utf-16-le": 2, "utf-16-be": 2, "utf-32-le": 4, "utf-32-be": 4}

#: the language of text in an encoding when the detector names none (BCP 47; ``und`` = undetermined)
LANG_OF_ENCODING = {
    "Big5": "zh-Hant",
    "GBK": "zh-Hans",
    "gb18030": "zh-Hans",
    "Shift_JIS": "ja",
    "EUC-JP": "ja",
    "ISO-2022-JP": "ja",
    "EUC-KR": "ko",
    "windows-874": "th",
    "windows-1253": "el",
    "ISO-8859-7": "el",
    "windows-1255": "he",
    "ISO-8859-8": "he",
    "windows-1258": "vi",
}

Span = tuple[int, int, str]


@dataclass(slots=True)
class SpanCache:
    """Per-report memo of character byte lengths and encoding kinds (one report build, not global)."""

    lengths: dict[tuple[str, str], int] = field(default_factory=dict)
    single_byte: dict[str, bool] = field(default_factory=dict)

    def length(self, ch: str, encoding: str) -> int | None:
        key = (encoding, ch)
        n = self.lengths.get(key)
        if n is None:
            try:
                n = len(encode_strict(ch, reencode_name(encoding)))
            except (UnicodeEncodeError, LookupError):
                return None
            self.lengths[key] = n
        return n

    def is_single_byte(self, encoding: str) -> bool:
        """True when every byte is one character (each of the 128 high bytes decodes alone)."""
        got = self.single_byte.get(encoding)
        if got is None:
            try:
                got = len(decode_as(bytes(range(0x80, 0x100)), encoding, "replace")) == 128
            except LookupError:
                got = False
            self.single_byte[encoding] = got
        return got


def _chunk_spans(chunk: bytes, base: int, encoding: str, cache: SpanCache) -> list[Span] | None:
    """Spans of a chunk that decodes strictly, from per-character encoded lengths; None if they do
    not add up (a non-canonical byte sequence)."""
    text = decode_strict(chunk, encoding)
    out: list[Span] = []
    pos = base
    for ch in text:
        n = cache.length(ch, encoding)
        if n is None:
            return None
        out.append((pos, pos + n, ch))
        pos += n
    return out if pos == base + len(chunk) else None


def char_spans(data: bytes, lo: int, hi: int, encoding: str, cache: SpanCache) -> list[Span] | None:
    """(start, end, text) of every character decoded from ``data[lo:hi]`` (``lo`` at a character
    boundary; a character that starts before ``hi`` is completed); an invalid byte run is one U+FFFD.
    None when the encoding is stateful or the bytes cannot be aligned."""
    if encoding in _STATEFUL:
        return None
    stop = min(len(data), hi + 4)  # a character starting before hi is at most 4 bytes long
    out: list[Span] = []
    pos, errors = lo, 0
    while pos < stop and errors <= MAX_ERRORS:
        chunk = data[pos:stop]
        try:
            got = _chunk_spans(chunk, pos, encoding, cache)
            bad = None
        except UnicodeDecodeError as exc:
            got = _chunk_spans(chunk[: exc.start], pos, encoding, cache) if exc.start else []
            bad = (pos + exc.start, pos + max(exc.end, exc.start + 1))
        except LookupError:
            return None
        if got is None:
            return None
        out.extend(got)
        if bad is None:
            break
        out.append((bad[0], bad[1], "\ufffd"))
        pos = bad[1]
        errors += 1
    if errors > MAX_ERRORS:
        return None
    return [s for s in out if s[0] < hi]


def align(data: bytes, pos: int, encoding: str, origin: int, cache: SpanCache) -> int:
    """A character boundary at or after ``pos`` for text in ``encoding`` that starts at ``origin``."""
    if pos <= origin or encoding in _STATEFUL:
        return origin
    unit = _UNIT.get(encoding)
    if unit is not None:
        return pos + (-(pos - origin)) % unit
    if cache.is_single_byte(encoding) or data[origin:pos].isascii():
        return pos  # every byte so far is a character of its own
    if encoding == "UTF-8":
        while pos < len(data) and 0x80 <= data[pos] < 0xC0 and pos - origin < 4:
            pos += 1
        return pos
    newline = data.find(b"\n", pos, pos + EXCERPT_BYTES)
    return newline + 1 if newline >= 0 else origin  # a line start is a boundary in ASCII-based CJK


@dataclass(slots=True)
class Part:
    """One stretch of a reading, shown as its own block (a mixed file's head or tail)."""

    label: str
    encoding: str
    lang: str
    start: int
    end: int
    spans: list[Span] | None
    text: str  # used when spans is None


@dataclass(slots=True)
class Reading:
    """One way to read the file: its choice (a decision), and why it cannot be chosen when it cannot."""

    label: str
    encoding: str
    confidence: float | None
    segments: tuple[Segment, ...]
    parts: list[Part]
    why_not: str | None  # None: lossless over every byte, so it can be chosen


def first_suspect(data: bytes, lo: int = 0) -> int:
    """The first byte where ASCII-compatible readings can differ (non-ASCII, NUL or ESC)."""
    for i in range(lo, len(data)):
        b = data[i]
        if b >= 0x80 or b == 0 or b == 0x1B:
            return i
    return len(data)


def _part(
    data: bytes, lo: int, hi: int, origin: int, enc: str, lang: str, label: str, cache: SpanCache
) -> Part:
    start = align(data, lo, enc, origin, cache)
    spans = char_spans(data, start, hi, enc, cache)
    if spans is None:
        return Part(label, enc, lang, lo, hi, None, decode_as(data[lo:hi], enc, "replace"))
    spans = [s for s in spans if s[0] >= lo]  # aligned from further back: show the window only
    return Part(label, enc, lang, spans[0][0] if spans else lo, hi, spans, "")


def card_readings(
    data: bytes,
    candidates: list[tuple[str, float | None]],
    mixed: dict[str, Any] | None,
    lang_of: dict[str, str],
    cache: SpanCache,
) -> list[Reading]:
    """The readings a card shows: for a mixed file the split reading first, then whole-file readings
    in the candidate encodings (those that are lossless first), at most ``MAX_READINGS`` + 1."""
    size = len(data)
    readings: list[Reading] = []
    seen: set[str] = set()

    def lang(enc: str) -> str:
        return lang_of.get(enc) or LANG_OF_ENCODING.get(enc, "und")

    if mixed is not None:
        b, head, tail = int(mixed["boundary"]), mixed["head_encoding"], mixed["tail_encoding"]
        segs = (Segment(b, head), Segment(size, tail))
        lo, hi = max(0, b - PART_BYTES), min(size, b + PART_BYTES)
        parts = [
            _part(data, lo, b, 0, head, lang_of.get("head:" + head) or lang(head), f"head: {head}", cache),
            _part(data, b, hi, b, tail, lang_of.get("tail:" + tail) or lang(tail), f"tail: {tail}", cache),
        ]
        label = f"{head} up to byte {b}, then {tail}"
        readings.append(Reading(label, head, None, segs, parts, check_reading(data, segs)))
        window = (lo, hi)
        names = [head, tail] + [e for e, _ in candidates]  # the tail's encoding only when lossless
    else:
        suspect = first_suspect(data)
        lo = max(0, min(suspect, size) - CONTEXT_BEFORE)
        window = (lo, min(size, lo + EXCERPT_BYTES))
        names = [e for e, _ in candidates]
    confidence = dict(candidates)
    whole: list[Reading] = []
    for n, enc in enumerate(names):
        if enc in seen:
            continue
        seen.add(enc)
        segs = (Segment(size, enc),)
        why = check_reading(data, segs)
        if mixed is not None and n > 0 and why is not None:
            continue  # mixed: the head's encoding over all of it shows why not; other failures are noise
        part = _part(data, window[0], window[1], 0, enc, lang(enc), enc, cache)
        whole.append(Reading(enc, enc, confidence.get(enc), segs, [part], why))
    whole.sort(key=lambda r: r.why_not is not None)  # stable: lossless readings first, in rank order
    return readings + whole[: MAX_READINGS if mixed is None else MAX_READINGS - 1]


def differences(readings: list[Reading]) -> tuple[set[Span], int | None]:
    """The spans every aligned reading shares, and the first byte where two readings differ."""
    sets = [set(p.spans) for r in readings for p in [_merged(r)] if p is not None]
    if len(sets) < 2:
        return (sets[0] if sets else set()), None
    common = set.intersection(*sets)
    starts = [s[0] for spans in sets for s in spans if s not in common]
    return common, (min(starts) if starts else None)


def _merged(r: Reading) -> Part | None:
    """A reading's parts as one span list (None when any part is unaligned)."""
    if any(p.spans is None for p in r.parts):
        return None
    spans = [s for p in r.parts for s in (p.spans or [])]
    return Part(r.label, r.encoding, "", 0, 0, spans, "")


def runs(part: Part, common: set[Span]) -> list[str]:
    """The part's text as alternating runs: same, different, same, ... (the first run may be empty)."""
    if part.spans is None:
        return [part.text]
    out: list[str] = []
    cur: list[str] = []
    differ = False
    for s in part.spans:
        d = s not in common
        if d != differ:
            out.append("".join(cur))
            cur, differ = [], d
        cur.append(s[2])
    out.append("".join(cur))
    return out


def dump(data: bytes, at: int, readings: list[Reading], common: set[Span]) -> dict[str, Any]:
    """Bytes around the first difference, and what each reading makes of them (and whether that
    character differs between the readings)."""
    lo, hi = max(0, at - DUMP_BEFORE), min(len(data), at + DUMP_AFTER)
    per: list[dict[str, Any]] = []
    for r in readings:
        chars = []
        for p in r.parts:
            for s in p.spans or []:
                if s[1] > lo and s[0] < hi:
                    names = " ".join(f"U+{ord(c):04X}" for c in s[2])
                    chars.append([s[0], data[s[0] : s[1]].hex(" "), s[2], names, s not in common])
        per.append({"label": r.label, "chars": chars})
    return {"start": lo, "at": at, "bytes": data[lo:hi].hex(" "), "readings": per}
