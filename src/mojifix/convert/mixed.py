"""Mixed files: a head in one encoding with a tail appended in another.

The decision over the whole file names one encoding; a file whose tail was appended in another
encoding either fails the strict decode somewhere after the boundary, or (when the tail's bytes
happen to be valid in the head's encoding, e.g. a UTF-8 tail after windows-1252, Big5 after GBK,
8-bit text after UTF-16) decodes "cleanly" into mojibake. Probes, cheapest first, each returning the
boundary offset and both encodings:

F. UTF-16 next to 8-bit text: NUL bytes occur in text only as UTF-16; a NUL-free head or tail that
   reads as confident 8-bit text and not as UTF-16 (byte order from the NUL parity).
G. UTF-16 followed by UTF-16 of the other byte order: the NUL parity flips.
A. UTF-8 tail: the bytes after the last invalid-UTF-8 byte (and after the last NUL) are valid UTF-8
   holding several multi-byte sequences. Random legacy bytes rarely form even one valid multi-byte
   sequence; several in a row are UTF-8's signature.
B. UTF-8 head: symmetric, the bytes before the first invalid-UTF-8 byte are UTF-8 with several
   multi-byte sequences.
C. Strict failure at offset F in the head's encoding: the tail starts at the line holding F; its
   encoding is the detector's verdict on the bytes from there to the end; earlier lines join the tail
   while they read better in the tail's encoding.
D. Clean decode: the last lines look like another encoding read as the head's (CJK glued to Latin
   letters, runs of accented letters, a sharp drop of the text score), and the detector, asked about
   them alone, is confident of another encoding.
H. Clean decode: the first lines read far better in another encoding than the whole-file verdict
   (a Big5 head under a GBK tail); the split is then looked for under that encoding (C or D).
I. A UTF-8 BOM mid-file with valid UTF-8 after it: an appended UTF-8 file kept its BOM.

Every split is checked: the head decodes strictly in the head encoding and the tail in the tail
encoding. Every threshold below is named with how it was chosen.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from contextvars import ContextVar
from itertools import zip_longest

from mojifix import _native
from mojifix.convert.codec import decode_strict, same_decoder, try_decode
from mojifix.convert.records import Split
from mojifix.detect import score_text
from mojifix.detect.result import Detection
from mojifix.detect.scoring import get_scorer

__all__ = ["find_split", "salvage", "split_binary", "split_on_nul"]

DetectFn = Callable[..., Detection]
_Span = tuple[int, int] | None

#: multi-byte UTF-8 sequences needed before a prefix/suffix is called UTF-8. A single valid pair
#: occurs by chance in GBK/Big5 text (e.g. GBK D0 A1 is also UTF-8 U+0421); three in a run of
#: otherwise valid UTF-8 did not occur in any clean file of the benchmark corpus.
MIN_UTF8_SEQUENCES = 3
#: a legacy head's last bytes (or a legacy tail's first bytes) can form a valid UTF-8 sequence by
#: chance (GBK "码。" = C2 EB A1 A3 ends in the valid UTF-8 sequence EB A1 A3); a line start at most
#: this many bytes beyond such a point is taken as the boundary instead
COINCIDENCE_BYTES = 8
#: probe A, Latin heads: the lead bytes of Latin-script UTF-8 (C2, C3: Latin-1 letters and signs; C5:
#: Œ œ Š š Ž ž Ÿ; E2: quotes, dashes, €). In a single-byte Latin text each reads as "Â"/"Ã"/"Å"/"â"
#: followed at once by a sign of 0x80-0xBF ("Ã©", "â€™"), which people do not write; so a tail, after the
#: last byte invalid in UTF-8, whose multi-byte sequences all start with these needs only one of them
#: (an old-spelling German "daß“" is DF 93, a valid pair with another lead, and still needs three).
_LATIN_UTF8_LEADS = b"\xc2\xc3\xc5\xe2"
#: lead bytes of multi-byte UTF-8 sequences (C2..F4)
_UTF8_LEADS = bytes(range(0xC2, 0xF5))
_NON_ASCII = bytes(range(0x80, 0x100))
_ODD_CONTROLS = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])
_LONE = re.compile("[\udc80-\udcff]")
_LAST_LONE = re.compile(".*[\udc80-\udcff]", re.S)
_LAST_NON_ASCII = re.compile(rb"[\x80-\xff][\x00-\x7f]*\Z")

#: probe D: how many of the last non-ASCII lines are examined (an appended tail is a few lines; the
#: scan gives up after MAX_SCAN_LINES lines of any kind)
TAIL_LINES = 4
MAX_SCAN_LINES = 64
#: probe D, Latin heads: a line with fewer non-ASCII characters than this cannot show the sign (three in
#: a row) and neither clears nor condemns the lines before it (a GB18030 four-byte character alone on
#: the last line reads "•4²5" in windows-1252). Follows from the sign; CJK heads' sign needs only one.
MIN_JUDGED_NON_ASCII = 3
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff"
#: (the BMP's non-ASCII characters U+0080-U+FFFF, written as a negated class: the same characters, and
#: a class of a few ranges compiles in ~0.1 ms where a range of 65,408 takes ~2.6 ms at every start-up)
_BMP_NON_ASCII = "[^\x00-\x7f\U00010000-\U0010ffff]"
_NON_ASCII_RUN = re.compile(f"{_BMP_NON_ASCII}{{3}}")
#: a non-ASCII character followed by a digit, twice in a row: GB18030 four-byte sequences (81-FE,
#: 30-39, 81-FE, 30-39) read as single bytes ("ƒ6„3" is 83 36 84 33), which nobody writes
_GB18030_FOUR = re.compile(f"(?:{_BMP_NON_ASCII}[0-9]){{2}}")
#: (in a fixed order, for the walks whose first match is the answer)
_CJK_ORDER = ("GBK", "gb18030", "Big5", "Shift_JIS", "EUC-JP", "EUC-KR")
_CJK_HEADS = frozenset(_CJK_ORDER)
_LATIN_HEADS = frozenset(
    {"windows-1252", "windows-1250", "windows-1254", "windows-1257", "ISO-8859-2", "ISO-8859-15", "macintosh"}
)
#: probe D, CJK after CJK: the last line must score this much worse (mojifix.detect.score_text, mean
#: log-probability per character) than an earlier line; real lines of one text differ by about 1-2
SCORE_DROP = 3.0
#: probe D on a UTF-16 head: the tail probe holds at least this many bytes, and never more than this
#: fraction of the file (a "tail" is a tail)
PROBE_MIN_UTF16_BYTES = 24
PROBE_MAX_FRACTION = 0.5
#: probe G: boundary candidates are the head-parity NULs whose running balance is within this of the
#: maximum (stray NULs of CJK units move the maximum by a few), at most ENDIAN_CANDIDATES of them tried;
#: a wrong candidate costs two strict decodes and fails them, so these bound time, not correctness
ENDIAN_SLACK = 3
ENDIAN_CANDIDATES = 8
#: probe G: characters of the tail scored in each byte order; a margin of SCORE_MARGIN per character
#: over a couple of hundred characters leaves no doubt, and the clean UTF-16 files it runs on (most of
#: them) do not pay for scoring whole tails
ENDIAN_SCORE_CHARS = 256
#: below this confidence (or when the detector calls it ambiguous) the encoding named for one part of a
#: split is recorded as uncertain and no salvage is offered; the split itself needs no confidence in
#: the other part's encoding, only evidence that it is not the head's (probes D, F). 0.8 was chosen
#: on the benchmark corpus with main's detector (every tail confirmed there at >= 0.8).
TAIL_MIN_CONFIDENCE = 0.8
#: ...and gives the whole-file encoding at most this confidence for the tail.
TAIL_MAX_HEAD_CONFIDENCE = 0.05
#: the highest score mojifix.detect.score_text can give (a log-likelihood per character, <= 0 by its
#: contract; tests/convert/test_mixed_fast.py checks it): a reading that scores above
#: MAX_TEXT_SCORE - SCORE_MARGIN cannot be beaten by SCORE_MARGIN
MAX_TEXT_SCORE = 0.0
#: probe D on a UTF-16 head: share of the tail's code units that must look like 8-bit text read as
#: UTF-16 (both bytes printable ASCII, or Hangul/private use). Chinese UTF-16 text has about 20% units
#: with both bytes printable ASCII; Latin 8-bit text read in pairs over 90%.
IMPLAUSIBLE_UTF16_SHARE = 0.6
#: probe F: the NUL-free side of a UTF-16/8-bit mix must hold at least this many bytes (a short
#: sentence; fewer bytes of UTF-16 CJK text after its last NUL look like anything)
MIN_NUL_FREE_BYTES = 24
#: probe F: line feeds of the NUL-free prefix tried as the start of a UTF-16 tail
MAX_NUL_CUTS = 8
#: mojifix.detect.score_text (mean log-probability per character) of real text is about -2 (Latin)
#: to -7 (Chinese); 8-bit text read as UTF-16 (or the reverse) scores -12 or lower. A reading must win
#: by this much to overrule the other.
SCORE_MARGIN = 3.0
#: probes C/D: at most this many earlier lines are examined when moving the boundary back; a line
#: joins the tail when it scores (mojifix.detect.score_text) this much better in the tail's encoding
MAX_REFINE_LINES = 64
LINE_MARGIN = 0.5
#: probe H: the first lines examined hold this many non-ASCII bytes (at most FIRST_LINES_MAX bytes);
#: a CJK verdict is questioned when another CJK encoding scores SIBLING_MARGIN better on them (Big5
#: text read as GBK scores 2.5-5 worse than read as Big5 on the corpus sentences, and vice versa)
FIRST_LINES_NON_ASCII = 64
FIRST_LINES_MAX = 4096
SIBLING_MARGIN = 2.0
#: ...and only when the first lines score below this under the verdict: real Chinese lines of the
#: corpus score -6.4 to -8.4, Big5 read as GBK (and GBK as Big5) -10.6 to -13.1
SUSPECT_SCORE = -9.5
_UTF16 = ("UTF-16LE", "UTF-16BE")


#: score_text results of the current find_split call (one file), so that a line scored by one probe
#: is not scored again by the next, and several lines are scored in one vectorised call
_MEMO: ContextVar[dict[str, float] | None] = ContextVar("mojifix_mixed_scores", default=None)


def _scores(*texts: str) -> list[float]:
    """``score_text(t)[1]`` for each text (mean log-probability per character), in one scoring call
    for those not scored yet during this file's :func:`find_split`."""
    memo = _MEMO.get()
    if memo is None:
        memo = {}
    todo = [t for t in dict.fromkeys(texts) if t not in memo]
    if len(todo) == 1:
        memo[todo[0]] = score_text(todo[0])[1]
    elif todo:
        results = get_scorer().score_many(todo, [None] * len(todo))
        for t, r in zip(todo, results, strict=True):
            memo[t] = r.loglik / max(len(t), 1)  # as score_text computes it
    return [memo[t] for t in texts]


def _multibyte_count(seg: bytes) -> int:
    return len(seg) - len(seg.translate(None, _UTF8_LEADS))


def _utf8_bad_span(data: bytes) -> tuple[int, int] | None:
    """(first invalid byte offset, end of the last invalid byte) under strict UTF-8, or None if valid."""
    text = data.decode("utf-8", "surrogateescape")
    first = _LONE.search(text)
    if first is None:
        return None
    last = _LAST_LONE.match(text)
    assert last is not None
    # byte lengths of the text before the first and after the last escaped byte (surrogateescape gives
    # the bytes back exactly): the part after the last is usually short, the file is not
    first_off = len(text[: first.start()].encode("utf-8", "surrogateescape"))
    last_end = len(data) - len(text[last.end() :].encode("utf-8", "surrogateescape"))
    return first_off, last_end


def _line_starts(data: bytes, lo: int, hi: int, encoding: str, origin: int) -> list[int]:
    """Offsets in [lo, hi] where a line starts, in ``encoding``'s units (UTF-16: aligned to ``origin``)."""
    out: list[int] = []
    if encoding in _UTF16:
        nl = b"\n\x00" if encoding == "UTF-16LE" else b"\x00\n"
        i = data.find(nl, max(lo - 2, origin))
        while i != -1 and i + 2 <= hi:
            if (i - origin) % 2 == 0 and i + 2 >= lo:
                out.append(i + 2)
            i = data.find(nl, i + 1)
        return out
    i = data.find(b"\n", max(lo - 1, origin))
    while i != -1 and i + 1 <= hi:
        if i + 1 >= lo:
            out.append(i + 1)
        i = data.find(b"\n", i + 1)
    return out


def _prev_line_start(data: bytes, cur: int, encoding: str, origin: int) -> int:
    """Start of the line that ends just before ``cur`` (``origin`` when there is none)."""
    if encoding in _UTF16:
        nl = b"\n\x00" if encoding == "UTF-16LE" else b"\x00\n"
        end = cur - 2
        while True:
            i = data.rfind(nl, origin, end)
            if i == -1:
                return origin
            if (i - origin) % 2 == 0:
                return i + 2
            end = i + 1
    i = data.rfind(b"\n", origin, cur - 1)
    return origin if i == -1 else i + 1


def _tail_encoding(data: bytes, b: int, head: str, detect: DetectFn) -> str | None:
    """The first detector candidate for ``data[b:]`` (not the head's decoder) that decodes it strictly."""
    tail = data[b:]
    det = detect(tail, domain="file")
    for cand in det.candidates:
        if not same_decoder(cand.encoding, head) and try_decode(tail, cand.encoding) is not None:
            return cand.encoding
    return None


def _head_encoding(data: bytes, start: int, b: int, head: str, detect: DetectFn) -> str:
    """The head's encoding, re-detected on the head alone (the whole-file verdict saw the tail too)."""
    seg = data[start:b]
    if start:  # a BOM named the head's encoding
        return head
    det = detect(seg, domain="file")
    if det.verdict == "ascii":
        return head
    for cand in det.candidates:
        if try_decode(seg, cand.encoding) is not None:
            return cand.encoding
    return head


def _split_reads_better(data: bytes, lo: int, b: int, hi: int, single: str, parts: tuple[str, str]) -> bool:
    """True when ``data[lo:hi]`` read as two parts split at ``b`` (encodings ``parts``) reads better as
    text than read whole in ``single``, or ``single`` does not decode it: the check that a UTF-8 part
    found by its byte pattern is UTF-8 *text*.

    GBK pairs with a C2-DF lead and an 80-BF trail are valid two-byte UTF-8 ("系一直" is CF B5 D2 BB
    D6 B1, "ϵһֱ" as UTF-8), so a few multi-byte sequences at either end of a GBK file can be a
    coincidence; the split reading of the line(s) around the boundary must then score better
    (mojifix.detect.score_text) than the one-encoding reading of the same bytes, or nothing shows a
    second encoding. The bytes are whole lines (``lo``, ``hi``), so that a boundary inside a character
    of ``single`` is judged with that character whole."""
    whole = try_decode(data[lo:hi], single)
    if whole is None:
        return True
    first, second = try_decode(data[lo:b], parts[0]), try_decode(data[b:hi], parts[1])
    if first is None or second is None:
        return False  # a boundary inside a character of one part: no reading at all
    split_score, whole_score = _scores(first + second, whole)
    return split_score > whole_score


def _probe_utf8_tail(data: bytes, start: int, head: str, detect: DetectFn, span: _Span) -> Split | None:
    """Probe A."""
    if head == "UTF-8":
        return None
    p = start + (span[1] if span else 0)
    nul = data.rfind(b"\x00")
    if nul != -1:
        p = max(p, nul + (2 if head == "UTF-16BE" else 1))
    if p <= start or p >= len(data):
        return None
    tail = data[p:]
    need = MIN_UTF8_SEQUENCES
    if head in _LATIN_HEADS and _multibyte_count(tail.translate(None, _LATIN_UTF8_LEADS)) == 0:
        need = 1  # every sequence is Latin-script UTF-8 ("Ã©", "â€™" in the head's reading): see above
    if _multibyte_count(tail) < need:
        return None
    b = p
    if head not in _UTF16:
        t0 = p + len(tail) - len(tail.lstrip(bytes(range(0x80))))
        starts = _line_starts(data, p, t0, head, start)
        later = _line_starts(data, p + 1, p + COINCIDENCE_BYTES, head, start)
        if starts:
            b = starts[-1]
        elif later and _multibyte_count(data[later[0] :]) >= MIN_UTF8_SEQUENCES:
            b = later[0]  # the head's last bytes happened to form valid UTF-8
    if head not in _UTF16:
        lo = data.rfind(b"\n", start, b) + 1 or start
        if not _split_reads_better(data, max(lo, start), b, len(data), head, (head, "UTF-8")):
            return None
    head_enc = _head_encoding(data, start, b, head, detect)
    return Split(
        b,
        head_enc,
        "UTF-8",
        f"bytes {b}..{len(data)} are valid UTF-8 "
        f"({_multibyte_count(tail)} multi-byte sequences), the bytes before are not",
    )


def _probe_utf8_head(data: bytes, start: int, head: str, detect: DetectFn, span: _Span) -> Split | None:
    """Probe B."""
    f8 = start + span[0] if span else len(data)
    nul = data.find(b"\x00", start)
    if nul != -1:
        f8 = min(f8, nul)
    if f8 >= len(data):
        return None
    prefix = data[start:f8]
    if _multibyte_count(prefix) < MIN_UTF8_SEQUENCES:
        return None
    m = _LAST_NON_ASCII.search(prefix)
    h_end = start + (m.start() + 1 if m else 0)
    starts = _line_starts(data, max(start, h_end - COINCIDENCE_BYTES), f8, "UTF-8", start)
    starts = [ls for ls in starts if _multibyte_count(data[start:ls]) >= MIN_UTF8_SEQUENCES]
    b = starts[-1] if starts else h_end
    if b >= len(data):
        return None
    tail_enc = _tail_encoding(data, b, "UTF-8", detect)
    if tail_enc is None:
        return None
    hi = data.find(b"\n", b) + 1 or len(data)
    if tail_enc not in _UTF16 and not _split_reads_better(data, start, b, hi, tail_enc, ("UTF-8", tail_enc)):
        return None
    return Split(
        b,
        "UTF-8",
        tail_enc,
        f"bytes {start}..{b} are UTF-8 ({_multibyte_count(prefix)} multi-byte sequences), byte {f8} is not",
    )


def _refine_back(data: bytes, start: int, b: int, head: str, tail: str, detect: DetectFn) -> int:
    """Move the boundary back over earlier lines that read better in the tail's encoding (or only in it)."""
    best = b
    cur = b
    for _ in range(MAX_REFINE_LINES):
        prev = _prev_line_start(data, cur, head, start)
        if prev >= cur:
            break
        line = data[prev:cur]
        if (head not in _UTF16 and line.isascii()) or not line.strip(b"\r\n\x00"):
            cur = prev  # neutral: same text in both encodings; move only if a tail line precedes it
            if prev == start:
                break
            continue
        as_tail = try_decode(line, tail)
        if as_tail is None:
            break
        as_head = try_decode(line, head)
        if as_head is not None:
            tail_score, head_score = _scores(as_tail, as_head)
            if tail_score <= head_score + LINE_MARGIN:
                break
        best = cur = prev
        if prev == start:
            break
    return best


def _probe_failure(data: bytes, start: int, head: str, fail: int, detect: DetectFn) -> Split | None:
    """Probe C."""
    starts = _line_starts(data, start, fail, head, start)
    b = starts[-1] if starts else start
    if b <= start:
        return None
    tail_enc = _tail_encoding(data, b, head, detect)
    if tail_enc is None:
        return None
    b = _refine_back(data, start, b, head, tail_enc, detect)
    if b <= start or try_decode(data[b:], tail_enc) is None:
        return None
    head_enc = _head_encoding(data, start, b, head, detect)
    return Split(b, head_enc, tail_enc, f"{head} fails at byte {fail}; bytes from {b} decode as {tail_enc}")


@functools.cache  # compiled at first use (~2.6 ms: 97 ranges), not at every start-up
def _implausible_unit() -> re.Pattern[str]:
    """The code units :func:`_implausible_utf16` counts: both bytes printable ASCII (0x20-0x7E), Hangul
    syllables (U+AC00-U+D7A3), private use (U+E000-U+F8FF); one character class, counted by the regex
    engine rather than by a Python loop over the characters."""
    pairs = "".join(f"{chr(hi << 8 | 0x20)}-{chr(hi << 8 | 0x7E)}" for hi in range(0x20, 0x7F))
    return re.compile(f"[{pairs}\uac00-\ud7a3\ue000-\uf8ff]")


def _utf16_text(seg: bytes, encoding: str) -> str:
    """``seg`` read as UTF-16 in byte order ``encoding`` (a last odd byte dropped, bad units replaced)."""
    return seg[: len(seg) & ~1].decode("utf-16-le" if encoding == "UTF-16LE" else "utf-16-be", "replace")


def _implausible_utf16(seg: bytes, encoding: str) -> bool:
    """True when ``seg`` read as UTF-16 looks like 8-bit text (:func:`_implausible_text`)."""
    return _implausible_text(_utf16_text(seg, encoding))


def _implausible_text(text: str) -> bool:
    """True when ``text``, a UTF-16 reading, looks like 8-bit text: most code units are two printable
    ASCII bytes (Latin text read in pairs), or Hangul / private-use units (GBK/Big5 byte pairs read as
    UTF-16). Real UTF-16 text in any language has neither in the majority."""
    if not text:
        return False
    return len(_implausible_unit().findall(text)) / len(text) >= IMPLAUSIBLE_UTF16_SHARE


def _not_utf16(seg: bytes, utf16: str, enc8: str) -> bool:
    """True when ``seg`` is 8-bit text in ``enc8`` rather than ``utf16`` text.

    Either most code units look like 8-bit text read in pairs (:func:`_implausible_utf16`), or the
    text-likeness score of the 8-bit reading beats the UTF-16 reading by :data:`SCORE_MARGIN`.
    """
    text16 = _utf16_text(seg, utf16)
    if _implausible_text(text16):
        return True
    text8 = try_decode(seg, enc8)
    if text8 is None:
        return False
    score8, score16 = _scores(text8, text16)
    return score8 > score16 + SCORE_MARGIN


def _utf16_beyond_doubt(seg: bytes, utf16: str) -> bool:
    """True when :func:`_not_utf16` is False for ``seg`` whatever the 8-bit encoding: known without
    asking the detector which one to try.

    That needs the score of the UTF-16 reading to be in this file's score memo already (then
    :func:`_not_utf16` would use that very value; probe G scored most last lines), within SCORE_MARGIN
    of :data:`MAX_TEXT_SCORE` (so no 8-bit reading can beat it by the margin), and the code units not
    to look like 8-bit text. Only a memo hit counts: a text scored in another call can score a little
    differently (the number of languages tried depends on the call's total length).
    """
    memo = _MEMO.get()
    if not memo:
        return False
    text16 = _utf16_text(seg, utf16)
    score16 = memo.get(text16)
    return score16 is not None and score16 > MAX_TEXT_SCORE - SCORE_MARGIN and not _implausible_text(text16)


@functools.cache  # compiled at first use (~3.6 ms: its large ranges), not at every start-up
def _cjk_glued() -> re.Pattern[str]:
    """An ideograph, kana or Hangul glued to lowercase ASCII letters (see :func:`_suspicious`)."""
    return re.compile(f"[a-z][{_CJK}]|[{_CJK}][a-z]{{2}}")


def _suspicious(text: str, head: str) -> bool:
    """Cheap sign that ``text`` (one line decoded with ``head``) is mojibake of another encoding.

    CJK heads: an ideograph or Hangul glued to lowercase ASCII letters ("ma帽ana", "Env韊" are
    ñ/í of windows-1252 or UTF-8 read as GBK). Latin heads: three non-ASCII characters in a row
    ("ÕâÀï" is GBK read as windows-1252); real Latin-script text rarely has more than two; or
    GB18030's four-byte sequences in that reading ("ƒ6„3").
    """
    if head in _CJK_HEADS:
        return _cjk_glued().search(text) is not None
    if head in _LATIN_HEADS:
        return _NON_ASCII_RUN.search(text) is not None or _GB18030_FOUR.search(text) is not None
    return False


def _tail_lines(data: bytes, start: int, head: str) -> list[tuple[int, bytes]]:
    """The last few non-ASCII lines as (offset, bytes), last first."""
    out: list[tuple[int, bytes]] = []
    pos = len(data)
    for _ in range(MAX_SCAN_LINES):
        if pos <= start or len(out) >= TAIL_LINES:
            break
        s = _prev_line_start(data, pos, head, start)
        if not data[s:pos].isascii():
            out.append((s, data[s:pos]))
        pos = s
    return out


def _probe_tail(data: bytes, start: int, head: str, detect: DetectFn) -> Split | None:
    """Probe D: the last lines look like another encoding read as ``head``, and the detector agrees."""
    if head in _UTF16:
        return _probe_tail_utf16(data, start, head, detect)
    if head not in _CJK_HEADS and head not in _LATIN_HEADS:
        return None  # unusual verdicts (cp861, mac-greek...) are left to probe H
    lines = _tail_lines(data, start, head)
    if not lines:
        return None
    run: list[int] = []  # offsets of the suspicious lines, last first
    for offset, line in lines:  # last first: the suspicious run must reach the end of the file
        text = try_decode(line, head)
        if (
            head in _LATIN_HEADS
            and text is not None
            and len(text) - len(text.encode("ascii", "ignore")) < MIN_JUDGED_NON_ASCII  # non-ASCII chars
        ):
            continue  # too short to judge either way
        if text is None or not _suspicious(text, head):
            break
        run.append(offset)
    if not run and head in _CJK_HEADS:
        # CJK tail after a CJK head (Big5 after GBK...): no Latin letters to give it away; the last
        # line reads much worse than the line before it, or, when the tail holds all the lines
        # examined, reads far better as a sibling CJK encoding than as the verdict (probe H's test).
        last = try_decode(lines[0][1], head)
        before = try_decode(lines[-1][1], head) if len(lines) >= 2 else None
        if last and before:
            last_score, before_score = _scores(last, before)
            if last_score < before_score - SCORE_DROP:
                run.append(lines[0][0])
        if not run and _sibling_reads_better(lines[0][1], head) is not None:
            run.append(lines[0][0])
    # the longest suspicious run first; then its last line alone, since a head line can look
    # suspicious too (English words glued to Chinese ones) and then the detector, asked about head and
    # tail together, is not sure of either; refinement moves the boundary back from there
    for b in dict.fromkeys((run[-1], run[0]) if run else ()):
        split = _confirm_tail(data, start, head, b, detect)
        if split is not None:
            return split
    return None


def _sibling_reads_better(seg: bytes, head: str) -> str | None:
    """The CJK encoding other than ``head`` in which ``seg`` reads far better as text, or None.

    Only asked when ``seg`` reads badly (below SUSPECT_SCORE) as ``head``: Big5 bytes that also decode
    as GBK read as gibberish there, and the other way round (see SIBLING_MARGIN). Of the encodings that
    clear the margin, the one that reads best (ties: the first of :data:`_CJK_ORDER`): the answer must
    not depend on the order a set is walked in, which changes with the interpreter's string hashing."""
    own = try_decode(seg, head)
    if own is None:
        return None
    (own_score,) = _scores(own)
    if own_score >= SUSPECT_SCORE:
        return None  # reads like real text: no reason to question the verdict
    alts = [
        (alt, text)
        for alt in _CJK_ORDER
        if not same_decoder(alt, head) and (text := try_decode(seg, alt)) is not None
    ]
    better = [
        (alt_score, -k, alt)
        for k, ((alt, _), alt_score) in enumerate(zip(alts, _scores(*(t for _, t in alts)), strict=True))
        if alt_score > own_score + SIBLING_MARGIN
    ]
    return max(better)[2] if better else None


def _first_lines(data: bytes, start: int, head: str) -> bytes:
    """The first lines, up to FIRST_LINES_NON_ASCII non-ASCII bytes (at most FIRST_LINES_MAX bytes)."""
    end = start
    limit = min(len(data), start + FIRST_LINES_MAX)
    non_ascii = 0  # in data[start:end], counted line by line (each byte once)
    while end < limit:
        nxt = data.find(b"\n", end, limit)
        line_end = limit if nxt == -1 else nxt + 1
        line = data[end:line_end]
        non_ascii += len(line) - len(line.translate(None, _NON_ASCII))
        end = line_end
        if non_ascii >= FIRST_LINES_NON_ASCII:
            break
    return data[start:end]


def _probe_first_half(data: bytes, start: int, head: str, detect: DetectFn) -> Split | None:
    """Probe H: the first lines read far better in another encoding than the whole-file verdict.

    Two encodings glued together make a detector answer for the longer or more distinctive part (a
    Big5 head with a GBK tail can come out GBK) or something unusual (cp861, mac-greek). CJK verdicts:
    the first lines are scored (mojifix.detect.score_text) as the other CJK encodings; unusual
    verdicts: the detector is asked about the first lines. If they are confidently E, look for the
    split under E (probes C and D)."""
    if head in _LATIN_HEADS:
        return None  # the verdict is a Latin code page: nothing below questions it (see the end)
    seg = _first_lines(data, start, head)
    if seg.isascii():
        return None
    first = None
    if head in _CJK_HEADS:
        first = _sibling_reads_better(seg, head)
    else:
        if len(seg) == len(data) - start:
            # too few non-ASCII bytes for FIRST_LINES_NON_ASCII (an English head with a few "£", "é"):
            # the "first lines" are the whole file, which the verdict already read; ask about the
            # lines of its first half instead (a tail is at most half, PROBE_MAX_FRACTION)
            half = _line_starts(
                data, start + 1, start + int((len(data) - start) * PROBE_MAX_FRACTION), head, start
            )
            if not half or data[start : half[-1]].isascii():
                return None
            seg = data[start : half[-1]]
        det = detect(seg, domain="file")
        top = det.best()
        if (
            top is not None
            and not det.ambiguous
            and det.verdict == "text"
            and top.confidence >= TAIL_MIN_CONFIDENCE
        ):
            first = top.encoding
    if first is None or same_decoder(first, head) or not (first in _CJK_HEADS or first in _LATIN_HEADS):
        return None
    try:
        decode_strict(data[start:], first)
    except UnicodeDecodeError as exc:
        return _probe_failure(data, start, first, start + exc.start, detect)
    except LookupError:
        return None
    return _probe_tail(data, start, first, detect)


def _confirm_tail(
    data: bytes, start: int, head: str, b: int, detect: DetectFn, det: Detection | None = None
) -> Split | None:
    """The detector, on ``data[b:]`` alone, is confident of another encoding (and not of ``head``).

    ``det``: that detection when the caller already has it (detection is deterministic)."""
    if det is None:
        det = detect(data[b:], domain="file")
    top = det.best()
    if top is None or det.verdict != "text" or same_decoder(top.encoding, head):
        return None
    if any(
        same_decoder(c.encoding, head) and c.confidence > TAIL_MAX_HEAD_CONFIDENCE for c in det.candidates
    ):
        return None
    if try_decode(data[b:], top.encoding) is None:
        return None
    b = _refine_back(data, start, b, head, top.encoding, detect)
    head_enc = _head_encoding(data, start, b, head, detect)
    if same_decoder(head_enc, top.encoding):
        return None  # the head alone says the same as the tail: one encoding after all
    return Split(
        b,
        head_enc,
        top.encoding,
        f"the last lines (from byte {b}) are {top.encoding} ({top.confidence:.2f}), not {head}",
        _uncertain(det, "tail"),
    )


def _uncertain(det: Detection, part: str) -> str:
    """Why the encoding named for ``part`` of a split is not certain, or "" when it is.

    The split itself rests on other evidence (NUL bytes in place before and none after; lines that
    read as mojibake and that the detector refuses to read as the head's encoding); which encoding the
    other part is in needs the detector's confidence, and without it no salvage is offered.
    """
    top = det.best()
    if top is None or det.verdict == "ascii":
        return ""
    if det.ambiguous or top.confidence < TAIL_MIN_CONFIDENCE:
        others = ", ".join(f"{c.encoding} ({c.confidence:.2f})" for c in det.candidates[1:3])
        return f"the {part}'s encoding is uncertain: {top.encoding} ({top.confidence:.2f}) vs {others}"
    return ""


def _probe_tail_utf16(data: bytes, start: int, head: str, detect: DetectFn) -> Split | None:
    """Probe D for UTF-16 heads: the shortest run of last lines holding enough bytes, if it is not UTF-16."""
    n = len(data)
    limit = start + int((n - start) * (1 - PROBE_MAX_FRACTION))
    starts = _line_starts(data, limit, n - 1, head, start)
    b = next((s for s in reversed(starts) if n - s >= PROBE_MIN_UTF16_BYTES), None)
    if b is None or _utf16_beyond_doubt(data[b:], head):
        return None
    det = detect(data[b:], domain="file")
    top = det.best()
    # the detector reading the tail as the head's own encoding settles it (the confirmation below
    # would reject it for that reason): skip the costlier UTF-16 plausibility test
    if top is None or same_decoder(top.encoding, head) or not _not_utf16(data[b:], head, top.encoding):
        return None
    return _confirm_tail(data, start, head, b, detect, det)


def _eight_bit(seg: bytes, detect: DetectFn) -> tuple[str, str] | None:
    """The 8-bit encoding the detector gives ``seg`` (not UTF-16, decodes strictly) and why it is not
    certain ("" when it is, see :func:`_uncertain`), or None when the detector reads it as no 8-bit text."""
    det = detect(seg, domain="file")
    top = det.best()
    if top is None or det.verdict not in ("text", "ascii") or top.encoding in _UTF16:
        return None
    enc = "windows-1252" if det.verdict == "ascii" else top.encoding
    return (enc, _uncertain(det, "8-bit part")) if try_decode(seg, enc) is not None else None


def _texty(seg: bytes) -> bool:
    """No C0 control bytes that text does not use (TAB, LF, VT, FF, CR, ESC are fine)."""
    return len(seg.translate(None, _ODD_CONTROLS)) == len(seg)


def _has_nul_units(seg: bytes, encoding: str) -> bool:
    """True when ``seg`` read as UTF-16 holds U+0000 units: binary data, not text."""
    return (
        any(seg[i] == 0 and seg[i + 1] == 0 for i in range(0, len(seg) - 1, 2))
        if b"\x00\x00" in seg
        else False
    )


def _utf16_order(seg: bytes) -> str | None:
    """The byte order of UTF-16 ``seg``: by NUL parity when clear, else the reading that scores better
    as text (Chinese UTF-16 has few NULs); None when neither reading decodes."""
    order = _nul_endianness(seg)
    if order is not None:
        return order if try_decode(seg, order) is not None else None
    decoded = [(t, e) for e in _UTF16 if (t := try_decode(seg, e)) is not None]
    readings = list(zip(_scores(*(t for t, _ in decoded)), (e for _, e in decoded), strict=True))
    return max(readings)[1] if readings else None


def _nul_endianness(seg: bytes) -> str | None:
    """ "UTF-16LE" when NUL bytes sit mostly at odd offsets (high bytes of LE units), "UTF-16BE" when
    mostly at even offsets, None when there is no clear majority."""
    even, odd = seg[0::2].count(0), seg[1::2].count(0)
    if odd > 2 * even:
        return "UTF-16LE"
    if even > 2 * odd:
        return "UTF-16BE"
    return None


def _probe_nul(data: bytes, start: int, detect: DetectFn) -> Split | None:
    """Probe F: UTF-16 text (the only text with NUL bytes) before or after NUL-free 8-bit text.

    Case 1, 8-bit head + UTF-16 tail: the head is the NUL-free prefix cut at its last line feed,
    and reads as implausible UTF-16. Case 2, UTF-16 head + 8-bit tail: the tail is what follows the
    last NUL (the high byte of the head's last ASCII unit, typically its final line feed).
    """
    first = data.find(b"\x00", start)
    if first == -1:
        return None
    last = data.rfind(b"\x00")
    # Case 2: UTF-16 head, 8-bit tail.
    for enc, b in (("UTF-16LE", last + 1), ("UTF-16BE", last + 2)):
        tail = data[b:]
        if len(tail) < MIN_NUL_FREE_BYTES or (b - start) % 2 or b"\x00" in tail:
            continue
        if not _texty(tail) or _has_nul_units(data[start:b], enc) or _utf16_order(data[start:b]) != enc:
            continue
        if try_decode(data[start:b], enc) is None:
            continue
        found = _eight_bit(tail, detect)
        if found is None or (len(tail) % 2 == 0 and not _not_utf16(tail, enc, found[0])):
            continue
        return Split(
            b,
            enc,
            found[0],
            f"bytes {start}..{b} are {enc} (NUL bytes in place), "
            f"bytes from {b} hold no NUL and read as {found[0]}",
            found[1],
        )
    # Case 1: 8-bit head, UTF-16 tail.
    # The UTF-16 tail may begin with units holding no NUL (CJK), and such units can hold 0x0A bytes
    # (U+4E0A is 0A 4E in UTF-16LE): try the last few line feeds of the NUL-free prefix, latest first,
    # then the unit holding the first NUL.
    cuts: list[tuple[str, int]] = []
    end = first
    for _ in range(MAX_NUL_CUTS):
        nl = data.rfind(b"\n", start, end)
        if nl == -1:
            break
        cuts += [("UTF-16LE", nl + 1), ("UTF-16BE", nl + 1)]
        end = nl
    cuts += [("UTF-16LE", first - 1), ("UTF-16BE", first)]
    for enc, bb in cuts:
        head, tail = data[start:bb], data[bb:]
        if len(head) < MIN_NUL_FREE_BYTES or not tail or _utf16_order(tail) != enc or not _texty(head):
            continue
        if _has_nul_units(tail, enc):
            continue
        if try_decode(tail, enc) is None:
            continue
        found = _eight_bit(head, detect)
        if found is None or (len(head) % 2 == 0 and not _not_utf16(head, enc, found[0])):
            continue
        return Split(
            bb,
            found[0],
            enc,
            f"bytes {start}..{bb} hold no NUL and read as {found[0]}, "
            f"bytes from {bb} are {enc} (NUL bytes in place)",
            found[1],
        )
    return None


def _other_order(utf16: str) -> str:
    """The other UTF-16 byte order."""
    return "UTF-16BE" if utf16 == "UTF-16LE" else "UTF-16LE"


def _balance_ends(data: bytes, start: int, head_parity: int) -> list[int]:
    """Probe G's boundary candidates by NUL balance (:func:`_balance_ends_reference`): by the compiled
    ``nul_balance_ends`` when it is active (the same list, without NumPy)."""
    compiled = getattr(_native.kernels(), "nul_balance_ends", None)
    if compiled is None:
        return _balance_ends_reference(data, start, head_parity)
    return compiled(data, start, head_parity, ENDIAN_SLACK, ENDIAN_CANDIDATES)


def _balance_ends_reference(data: bytes, start: int, head_parity: int) -> list[int]:
    """The unit ends after the NUL bytes of ``data[start:]`` (offsets from ``start`` of ``head_parity``)
    where the running balance of head-parity NULs minus other-parity NULs is within
    :data:`ENDIAN_SLACK` of its maximum, best balance first (then in input order), at most
    :data:`ENDIAN_CANDIDATES`; empty when there is no NUL or the maximum is not positive."""
    import numpy as np

    nuls = np.flatnonzero(np.frombuffer(data, dtype=np.uint8)[start:] == 0)
    if nuls.size == 0:
        return []
    run = np.cumsum(np.where(nuls % 2 == head_parity, 1, -1))
    best = int(run.max())
    if best <= 0:
        return []
    near = [int(k) for k in np.flatnonzero(run >= best - ENDIAN_SLACK) if nuls[k] % 2 == head_parity]
    return [
        start + int(nuls[k]) + (1 if head_parity else 2)
        for k in sorted(near, key=lambda k: (-int(run[k]), k))[:ENDIAN_CANDIDATES]
    ]


def _no_nul_at_parity(data: bytes, start: int, parity: int) -> bool:
    """True when no NUL byte of ``data[start:]`` sits at an offset (from ``start``) of ``parity``.

    Probe G's exact shortcut: with no NUL where the head's byte order puts ASCII units' high bytes,
    every step of its running balance is -1, the maximum is below 1 and no boundary candidate exists
    (the usual case for the byte order that is not a Latin-script UTF-16 file's own).
    """
    return b"\x00" not in data[start + parity :: 2]


def _probe_endianness(data: bytes, start: int, head: str, *, head_must_read: bool = False) -> Split | None:
    """Probe G: UTF-16 text followed by UTF-16 text of the other byte order.

    ``head_must_read``: ``head`` is not the whole-file decision (the majority's byte order is the
    tail's), so the head part must also read clearly better in ``head`` than in the other order.

    NUL bytes of ASCII units sit at odd offsets in UTF-16LE and at even offsets in UTF-16BE. The
    boundary is a unit end that best separates head-parity NULs (before) from other-parity NULs
    (after): a maximum, over the NUL positions, of (head-parity NULs so far - other-parity NULs so far).
    CJK units with a zero byte (U+4E00 is 4E 00 in UTF-16BE) put stray NULs of the wrong parity in
    either part, so the candidates within ENDIAN_SLACK of the maximum are tried, best balance first,
    then the ends of the head's last line feeds (Chinese UTF-16 tails can hold more NULs of the head's
    parity than of their own); each is accepted only when the tail reads clearly better in the other
    byte order.
    """
    other = _other_order(head)
    head_parity = 1 if head == "UTF-16LE" else 0
    if _no_nul_at_parity(data, start, head_parity):
        return None
    by_balance = _balance_ends(data, start, head_parity)
    if not by_balance:
        return None
    # ...and the ends of the head's last line-feed units (a tail appended to a file starts a line)
    newline = "\n".encode(head.lower())
    line_ends: list[int] = []
    pos = len(data)
    while len(line_ends) < ENDIAN_CANDIDATES:
        pos = data.rfind(newline, start, pos)
        while pos > start and (pos - start) % 2:
            pos = data.rfind(newline, start, pos)
        if pos <= start:
            break
        line_ends.append(pos + 2)
    # the two kinds in turn, so that neither crowds the other out of the ENDIAN_CANDIDATES tried
    ends = [b for pair in zip_longest(by_balance, line_ends) for b in pair if b is not None]
    # each part long enough to be judged as text: the tail always, the head when it is the minority's
    shortest_head = MIN_NUL_FREE_BYTES if head_must_read else 0
    tried = [
        b
        for b in dict.fromkeys(ends[:ENDIAN_CANDIDATES])
        if len(data) - b >= MIN_NUL_FREE_BYTES and b - start >= shortest_head
    ]
    # a clean file tries every candidate: score all their tails in one call (the loop reads the memo)
    readings = {b: _readings(data[b:], head, other) for b in tried}
    _scores(*(t[:ENDIAN_SCORE_CHARS] for b in tried for t in readings[b] if t))
    for b in tried:
        if _byte_order_flips(data[start:b], data[b:], head, other, readings=readings[b]) and (
            not head_must_read or _byte_order_flips(data[b:], data[start:b], other, head, reads_only=True)
        ):
            return Split(
                b,
                head,
                other,
                f"NUL bytes sit where {head} puts them up to byte {b}, where {other} puts them after",
            )
    return None


def _readings(after: bytes, head: str, other: str) -> tuple[str | None, str | None]:
    """``after`` decoded in the other byte order and in the head's (None where it does not decode);
    when it does not decode in the other order, the head's reading is not needed (None)."""
    after_other = try_decode(after, other)
    return after_other, (None if after_other is None else try_decode(after, head))


def _byte_order_flips(
    before: bytes,
    after: bytes,
    head: str,
    other: str,
    *,
    reads_only: bool = False,
    readings: tuple[str | None, str | None] | None = None,
) -> bool:
    """``before`` is ``head`` text and ``after`` is ``other`` text, each read by its byte order
    (``reads_only``: only that ``after`` reads clearly better in ``other`` than in ``head``;
    ``readings``: :func:`_readings` of ``after``, when the caller decoded them already)."""
    after_other, after_head = readings if readings is not None else _readings(after, head, other)
    if after_other is None:
        return False
    # NUL parity proves little in Chinese UTF-16 (few NULs, some of the wrong parity): the tail must
    # read as text in the other byte order, clearly better than in the head's (its first
    # ENDIAN_SCORE_CHARS characters tell: real text scores about -2 to -8, swapped units -12 or less).
    if after_head is not None:
        n = ENDIAN_SCORE_CHARS
        other_score, head_score = _scores(after_other[:n], after_head[:n])
        if other_score < head_score + SCORE_MARGIN:
            return False
    return reads_only or try_decode(before, head) is not None


_UTF8_BOM = b"\xef\xbb\xbf"


def _probe_utf8_bom(data: bytes, start: int, head: str, detect: DetectFn) -> Split | None:
    """Probe I: a UTF-8 BOM in the middle of the file, with valid UTF-8 from there to the end.

    A file appended to another keeps its BOM: EF BB BF reads "ï»¿" in windows-1252 (and as nothing
    a person writes in any other 8-bit code page), so with valid UTF-8 after it the BOM alone marks the
    boundary, even before a tail too short for probe A's three multi-byte sequences.
    """
    if head == "UTF-8" or head in _UTF16:
        return None
    b = data.rfind(_UTF8_BOM, start + 1)
    if b == -1 or try_decode(data[b:], "UTF-8") is None or try_decode(data[start:b], head) is None:
        return None
    return Split(
        b,
        _head_encoding(data, start, b, head, detect),
        "UTF-8",
        f"a UTF-8 byte order mark at byte {b}, valid UTF-8 from there to the end",
    )


def split_binary(data: bytes, detect: DetectFn) -> Split | None:
    """A file the detector calls binary that is two texts: UTF-16 next to 8-bit text (probe F), or
    UTF-16 of one byte order followed by the other (probe G: a parity flip looks like binary data)."""
    token = _MEMO.set({})
    try:
        split = _probe_nul(data, 0, detect)
        if split is not None:
            return split
        for head in _UTF16:
            split = _probe_endianness(data, 0, head)
            if split is not None and 0 < split.boundary < len(data):
                return split
        return None
    finally:
        _MEMO.reset(token)


def find_split(data: bytes, start: int, head: str, fail: int | None, detect: DetectFn) -> Split | None:
    """Find where a file whose whole-file decision is ``head`` switches encoding, or None.

    ``start`` is the BOM length; ``fail`` the offset where the strict decode in ``head`` failed
    (None when it decoded cleanly).
    """
    token = _MEMO.set({})
    try:
        if fail is None and head in _CJK_HEADS:
            _prefetch_clean_cjk(data, start, head)
        return _find_split(data, start, head, fail, detect)
    finally:
        _MEMO.reset(token)


def _prefetch_clean_cjk(data: bytes, start: int, head: str) -> None:
    """Score, in one call, the lines that probes D and H score on every cleanly decoded CJK file
    (the last and an earlier non-ASCII line, the first lines): one scoring call instead of three."""
    texts = []
    lines = _tail_lines(data, start, head)
    if len(lines) >= 2:
        texts += [try_decode(lines[0][1], head), try_decode(lines[-1][1], head)]
    seg = _first_lines(data, start, head)
    if not seg.isascii():
        texts.append(try_decode(seg, head))
    _scores(*(t for t in texts if t))


def _find_split(data: bytes, start: int, head: str, fail: int | None, detect: DetectFn) -> Split | None:
    probes: list[Callable[[], Split | None]] = []
    if b"\x00" in data:
        probes.append(lambda: _probe_nul(data, start, detect))
        if head in _UTF16:
            probes.append(lambda: _probe_endianness(data, start, head))
            # the whole-file byte order is the majority's: a short head in the other order before a
            # longer tail in this one (BE notes + a longer LE tail) splits with the other order first
            probes.append(lambda: _probe_endianness(data, start, _other_order(head), head_must_read=True))
    span = _utf8_bad_span(data[start:])  # shared by probes A and B
    if head == "UTF-8":
        probes.append(lambda: _probe_utf8_head(data, start, head, detect, span))
    else:
        probes.append(lambda: _probe_utf8_tail(data, start, head, detect, span))
        probes.append(lambda: _probe_utf8_bom(data, start, head, detect))
        probes.append(lambda: _probe_utf8_head(data, start, head, detect, span))
    if fail is not None:
        probes.append(lambda: _probe_failure(data, start, head, fail, detect))
    else:
        probes.append(lambda: _probe_tail(data, start, head, detect))
        if head not in _UTF16 and head != "UTF-8":
            probes.append(lambda: _probe_first_half(data, start, head, detect))
    whole: list[str | None] = []  # the verdict's own text, decoded once when a probe finds a split
    for probe in probes:
        split = probe()
        if split is None or not start < split.boundary < len(data):
            continue
        if fail is None:
            if not whole:
                whole.append(try_decode(data[start:], head))
            if whole[0] is not None and _split_text(data, start, split) == whole[0]:
                # the two parts read exactly as the verdict reads the whole file (an ISO-8859-13
                # file whose first lines windows-1257 reads alike): one encoding explains every byte
                continue
        return split
    return None


def _split_text(data: bytes, start: int, split: Split) -> str | None:
    """The text of a split's two parts, each decoded strictly in its own encoding (None if one fails)."""
    head = try_decode(data[start : split.boundary], split.head_encoding)
    tail = try_decode(data[split.boundary :], split.tail_encoding)
    return None if head is None or tail is None else head + tail


def salvage(data: bytes, start: int, split: Split) -> str | None:
    """Segment-by-segment decoding of a mixed file (both segments strict), or None if either fails or
    the encoding of a segment is uncertain (``split.uncertain``)."""
    if split.uncertain:
        return None
    text = _split_text(data, start, split)
    return None if text is None or "\ufffd" in text else text


split_on_nul = _probe_nul
