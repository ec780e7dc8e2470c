"""The detector's orchestrator: runs the stages in order over streamed input.

Stages (one module each): ``bom`` -> ``binary`` -> ``structure`` (UTF-16/32 without BOM) -> ``ascii``
-> ``utf8`` -> ``escape`` -> ``validity`` -> ``scoring`` -> ``priors`` -> ``ambiguity``.

Streaming: :class:`Detector` re-cuts whatever it is fed into fixed :data:`BLOCK`-byte blocks at absolute
offsets, so every statistic is the same however the input is chunked, and ``detect(data)`` is literally
``Detector().feed(data).close()``: streaming gives the same answer as one-shot by construction.
Per block it updates a byte histogram, zero-byte positions, the UTF-8 validator, one strict incremental
decoder per multi-byte/UTF-16/32/escape candidate, and keeps up to :data:`SAMPLE_BYTES` of blocks that
contain non-ASCII bytes for ranking. Validity is thus decided over every byte, ranking over a sample:
memory stays bounded (about BLOCK + SAMPLE_BYTES) on inputs of any size.
"""

from __future__ import annotations

import codecs
import itertools
import math
import operator
import re
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from types import MappingProxyType

from mojifix import _native
from mojifix.detect import ambiguity, ascii, binary, bom, escape, priors, structure, utf7, validity
from mojifix.detect.declarations import Declaration, find_declaration
from mojifix.detect.encodings import SERVES, EncodingInfo, candidates_for, canonical_name
from mojifix.detect.result import Candidate, Detection, Evidence
from mojifix.detect.scoring import TOP_LANGUAGES_SHORT, LanguageScore, Scorer, get_scorer, top_languages
from mojifix.detect.utf8 import Utf8Validator
from mojifix.errors import UnknownEncodingError

__all__ = ["Detector", "detect"]

#: internal block size: large enough that per-block overhead (a dozen C calls) is negligible, small
#: enough to keep memory flat.
BLOCK = 1 << 16
#: bytes of non-ASCII-bearing blocks kept for ranking. Four blocks hold thousands of non-ASCII
#: characters in any language, far more than ranking needs (accuracy is flat beyond ~4 KB of
#: non-ASCII context in the benchmark).
SAMPLE_BYTES = 4 * BLOCK
#: ASCII context kept on each side of a non-ASCII byte when cutting the sample down for scoring: two
#: words either side is what a bigram model can use; ASCII far from any non-ASCII byte decodes the
#: same in every ASCII-compatible candidate and cannot change the ranking.
SEGMENT_CONTEXT = 24
#: at most this many bytes are decoded and scored per candidate.
SCORE_BYTES = 2048
#: the most common legacy code pages always reach full scoring, whatever the unigram shortlist says:
#: a unigram can prefer a rare symbol (a Thai digit from windows-874) to a rare letter (Welsh ô).
ALWAYS_SCORED = frozenset({"windows-1252", "windows-1250", "windows-1251"})
#: decodings are first scored on this many bytes of the sample; those :data:`PRUNE_MARGIN` nats
#: (e^-30: far beyond anything the rest of the sample could overturn in the benchmark) behind the
#: best are dropped before the full scoring.
PREFIX_BYTES = 512
PRUNE_MARGIN = 30.0
#: languages tried per reading in that first pass (2 instead of up to 5: the same benchmark answers,
#: quick and full, and 7% faster on the full corpus)
PRUNE_LANGUAGES = 2
#: single-byte readings scored in the pruning pass (with the multi-byte ones) before the others are
#: tested against their upper bound: the best bounds are usually the best readings. A speed choice
#: only; whichever are scored first, the readings kept are the same.
PRUNE_FIRST = 1
#: ... and, when there is no multi-byte reading, how far (nats per byte of the prefix) the bound
#: typically exceeds a reading's real score (5th-95th percentile 1.1-3.7 on the quick benchmark):
#: readings whose bound is within this of the best bound are scored in the first call, since the
#: bound test would not have skipped them. Also a speed choice only.
PRUNE_BOUND_EXCESS = 1.5
#: short input is scored with the bound test only when its readings hold at least this many characters
#: in all: below it, the bound (loose by 1-4 nats per character) let nearly every reading through on
#: the benchmark and cost a second scoring call (a speed choice only)
BOUNDED_MIN_CHARS = 1000
#: ... and below this many characters of readings in all, every reading is scored in one call and the
#: bound is not used (the readings kept are the same): on such input the bound let the rest through in
#: a second call in 77% of the benchmark's cases, and a call's fixed cost (~150-250 us) is more than
#: scoring the few hundred characters of the readings it would have skipped (a speed choice only)
BOUNDED_ONE_CALL_CHARS = 4000
#: nats added to an upper bound before comparing. Since the scoring kernel, bound and score are both
#: exact sums of whole quanta, so this margin only lets a few more readings be scored (0 gives identical
#: detections on 2,966 real files in both modes); kept because the tests' bound checks are written with it
_BOUND_SLACK = 1.0
#: single-byte candidates are shortlisted per script of their best-reading language (a unigram cannot
#: compare scripts: Thai letters are less predictable one by one than Cyrillic ones, yet random
#: Cyrillic is far less likely than real Thai once letter pairs count). Within a script, candidates
#: within this many nats of the script's best unigram score go on to full bigram scoring: 15 nats ~
#: two mis-read letters; no benchmark case had its true encoding further behind than that.
SHORTLIST_MARGIN = 15.0
#: ... and the best this many per script are kept whatever the margins (3 lost x-mac-cyrillic to
#: windows-1251 when NBSP, a rare character, was the only difference; 5 costs ~5% speed).
SHORTLIST_MIN = 5
#: the shortlist's histogram counts ASCII bytes up to this many times the non-ASCII bytes (scaled down
#: beyond): ASCII reads alike in every code page, but its letters choose each page's best unigram
#: language, and a CSV of English ids beside Lithuanian translations ranked every page in English,
#: where windows-1252/Mac Roman letters are cheaper than "š č ė": cp775 fell off the shortlist and Mac
#: Roman junk won. Chosen on the development sets (docs/detection.md, "Served languages").
SHORTLIST_ASCII_RATIO = 8.0
#: EBCDIC is considered only when its space byte (0x40) is at least this share of the input (EBCDIC
#: prose has ~15% spaces, ASCII-family text has 0x40 "@" well below 1%), or when EBCDIC letter bytes
#: (0x81-0xA9, 0xC1-0xE9 minus gaps) make up at least EBCDIC_LETTER_SHARE of it (word lists, short
#: lines): in ASCII-family text those bytes are accented letters, never half of everything.
EBCDIC_SPACE_SHARE = 0.05
EBCDIC_LETTER_SHARE = 0.5
#: ... or when ASCII lower-case letters and spaces are under this share (EBCDIC Greek word lists have
#: neither many 0x40 nor Latin EBCDIC letters; ASCII-family prose has 60%+ of them).
ASCII_LIKE_SHARE = 0.2
#: ... and in any case only when the input has an EBCDIC space or line break (0x40, 0x15, 0x25, 0x0D),
#: unless it is at most this many bytes (one word). 16 bytes of Big5 ("奶奶說，包餃子的") read as cp037
#: "vuvu]~~ v)]Vu%¡[" came within a nat of the Big5 reading: seven letters among cheap ASCII marks.
#: EBCDIC text longer than a word has spaces or line breaks. Reasoning; checked on the development sets.
EBCDIC_UNBROKEN_MAX = 12
_EBCDIC_BREAKS = (0x40, 0x15, 0x25, 0x0D)
#: (the counts of those bytes, read from the histogram's list in one call)
_ebcdic_breaks = operator.itemgetter(*_EBCDIC_BREAKS)
_ASCII_LOWER = slice(0x61, 0x7B)
#: EBCDIC letter byte ranges, as slices of the byte histogram (0x81-0x89, 0x91-0x99, 0xA2-0xA9, ...)
_EBCDIC_LETTERS = tuple(
    slice(lo, hi + 1)
    for lo, hi in ((0x81, 0x89), (0x91, 0x99), (0xA2, 0xA9), (0xC1, 0xC9), (0xD1, 0xD9), (0xE2, 0xE9))
)
#: zero-free input is read as UTF-16 by content (stage 3b) only when space, LF and CR bytes are at most
#: this share of it: legacy 8-bit text is ~15% spaces and line breaks, while in pure CJK UTF-16 these
#: bytes occur only as halves of code units (U+201C “ is 1C 20; ~1% of bytes in Chinese prose). Saves
#: the content check on nearly every legacy file.
UTF16_MAX_SPACE_SHARE = 0.05
_LINE_AND_SPACE = (0x0A, 0x0D, 0x20)
_line_and_space = operator.itemgetter(*_LINE_AND_SPACE)
_UTF16 = ("UTF-16LE", "UTF-16BE")
#: a byte that can be cut next to without splitting a character in any candidate (see _safe_cut_after)
_SAFE_BYTE = re.compile(rb"[\x00-\x2f]")
#: a sample of one run up to this many bytes is cut into pieces by :func:`_segments_short` (a regular
#: expression over the bytes: fewer calls than the NumPy path on short input, slower on long Latin
#: text with a non-ASCII letter every few bytes). A speed choice: both give the same pieces
SHORT_SAMPLE = 256
_NON_ASCII_RUN = re.compile(rb"[\x80-\xff]+")
#: pieces longer than this (dense non-ASCII text) contribute only a window of context around a byte
#: value that the first pieces lack, not the whole piece: four times a one-character piece
LONG_PIECE = 4 * (2 * SEGMENT_CONTEXT + 1)
#: a reading "reads as text" when it scores at least READS_AS_TEXT_PER_LETTER nats per letter in its
#: language (READS_AS_TEXT_PER_LETTER_CJK in Chinese, Japanese and Korean, whose letters are each far
#: less predictable). Calibrated on the development sets (uchardet's files of benchmarks/detect_dev.py and
#: build/detect-devcat) and the clean files of the conversion corpus generator (mojifix.convert.corpus,
#: seed 5), 2,100 files: every right answer in an alphabetic language scores >= -4.6 nats/letter and
#: in a CJK one >= -10.2 (a 14-letter Big5 line), while the files no candidate decodes (uchardet's
#: VISCII read as Vietnamese -7.2, EUC-TW read as Chinese -11.6) and random high bytes (-14.7) fall
#: below. (A known-letter share was tried too: short real Traditional Chinese is only 77% "known".)
#: Re-checked once EUC-TW had a codec (so that reading no longer arises), on development data in aggregate:
#: 16,315 right CJK readings (the sweep trees' clean files and the catalogs' dev half) against 6,000
#: random CJK two-byte strings; -11 fails one right reading and passes 8.7% of the random ones, -11.8
#: fails none but passes 25%: kept (docs/detection.md, "EUC-TW").
#: When the best reading does not read as text, no candidate is likely to be the intended decoding:
#: the confidences are scaled so the best is NOT_TEXT_CONFIDENCE (the rest of the mass is "none of
#: these") and the result is flagged ambiguous.
READS_AS_TEXT_PER_LETTER = -6.0
READS_AS_TEXT_PER_LETTER_CJK = -11.0
_CJK_LANGUAGES = frozenset({"zh", "zh_Hant", "ja", "ko"})
NOT_TEXT_CONFIDENCE = 0.5
#: input made of at most this many distinct byte values ("é" ten million times, "\xe9\n") holds no
#: evidence of a language: every code page reads it as one letter repeated, so it is treated as not
#: reading as text whatever the scores say (they grow with the repetition, not with the evidence)
FEW_BYTE_VALUES = 3
#: input whose control bytes (other than layout controls) exceed binary.MAX_CONTROL_SHARE but stay under
#: this share, with no NUL byte, is still text when its best reading reads as text (above): a Big5 or
#: windows-1252 file with a few stray 0x06-0x08 bytes (issue 12); random bytes have ~11% controls.
TEXT_CONTROL_SHARE = 0.05
#: a candidate that decodes all but a few invalid sequences needs this many non-ASCII bytes per error
#: (one broken sequence in a long CJK page, not a short Latin text that a CJK decoder half reads), and
#: pays PARTIAL_ERROR_LOGP nats per error, the cost of a misread letter, so that a fully valid reading
#: that reads as well wins. Chosen by reasoning, not tuned on a data set.
PARTIAL_BYTES_PER_ERROR = 100
PARTIAL_ERROR_LOGP = -10.0
#: log-odds (nats) an in-band declaration adds to the reading it names, when that reading decodes every
#: byte: strong evidence (about two misread letters' worth, so near-ties and short texts follow the
#: file's own word) that clear text evidence still overrides (a page re-encoded without updating its
#: <meta> reads hundreds of nats better in its real encoding). Not tuned on a data set.
DECLARATION_LOGP = 12.0
#: log odds (nats) of a national code page for a text whose main language it does not serve. A reading
#: of a national code page is scored in its own languages and English (``encodings.SERVES``), so an
#: English text with one byte that reads "£" in windows-1252 and "Ł" in windows-1250 read about equally
#: well both ways (the "Ł12" word scored as Polish at ``MIX_WORD_LOGP``): the two pages tied and the file
#: was quarantined. But English is not what windows-1250 was made for: P(windows-1250 | English text) is
#: far below P(windows-1252 | English text), as the issue's Swedish/German/English notes called
#: "ambiguous vs windows-1258/1257/1255/1250" say too. The term prices that: readings whose best
#: language is one their code page serves, or of a page serving every language it writes (the Western
#: pages), pay nothing. Chosen on the development sets (see docs/detection.md, "Served languages").
UNSERVED_LANGUAGE_LOGP = -3.0
#: cost (nats) of each non-ASCII letter glued to an ASCII digit ("Ł12", "12Ž"). The byte before "12" in
#: "£12" is a currency sign in windows-1252 and a letter in windows-1250; the model counts digits as
#: separators, so it priced "Ł" + digits like a word-final "Ł", and the two readings tied. A currency
#: sign, degree sign or other symbol before or after digits is ordinary text; a letter of an alphabetic
#: script glued to them is rare (ordinal indicators "º ª", the micro sign and CJK, which glues "2023年",
#: are exempt). Only readings that differ there are affected: ASCII reads alike in all of them.
#: Chosen on the development sets (docs/detection.md, "Served languages").
GLUED_LETTER_LOGP = -3.0
#: cost (nats) of each U+00A4 CURRENCY SIGN in a reading: the placeholder ISO 8859-1 put where a
#: national currency sign would go, which prose does not use and which ISO 8859-15, ISO 8859-7:2003 and
#: windows-1255 replaced by the euro or sheqel sign. The model prices "¤" as a rare symbol, 3 nats
#: (the trainer's LOGP_RARE_SYMBOL) above "€", but ISO-8859-15's lower prior tier takes back 2 of them,
#: and a Danish ISO-8859-15 text with "(€)" tied with its windows-1252 reading "(¤)" (1.0 nats apart).
#: The same price as a letter glued to digits, not tuned; measured on the development sets
#: (docs/detection.md, "Placeholder currency sign").
PLACEHOLDER_SIGN_LOGP = -3.0
_PLACEHOLDER_SIGN = "\u00a4"
#: (the character class first, the neighbours looked at after it: the same matches as a lookbehind
#: first, 3x faster, as most characters fail the class at once)
_GLUED = re.compile(r"[^\x00-\x7f](?:(?<=[0-9][^\x00-\x7f])|(?=[0-9]))")
_GLUED_OK = frozenset("ºªµ")
#: a non-ASCII byte next to an ASCII digit: without one, no reading has a letter glued to a digit
#: (decoded characters sit where their bytes are) and the readings are not searched. Looked for with
#: one byte translation (digits -> "0", non-ASCII -> 0x80, the rest -> space) and two substring tests:
#: a regular expression with that alternation took ~20 us per 2 KB sample
_GLUE_CLASSES = bytes(0x30 if 0x30 <= b <= 0x39 else 0x80 if b >= 0x80 else 0x20 for b in range(256))
#: cost (nats) of each rare ASCII mark ``[ ] { } | \\ ~ ^`` between two letters ("Gr{n", "f}r"). EBCDIC
#: pages put German, Nordic and French letters where others put these marks (cp273's "ä" is cp037's
#: "{"), and the model prices a rare mark about like a rare letter, so a German cp037 text read by
#: cp273 with braces for umlauts won at 0.98. Prose has these marks at word edges, not inside words
#: (the non-ASCII marks pay ``scoring.IN_WORD_MARK_LOGP`` there; this is the same price). Only readings
#: that differ there are affected: the ASCII-compatible ones all read ASCII alike, so it is counted
#: only when EBCDIC readings compete. Chosen on the development sets (docs/detection.md).
IN_WORD_ASCII_MARK_LOGP = -10.0
#: (the mark first, then the letters either side: the same matches, 4x faster than a lookbehind first)
_IN_WORD_ASCII_MARK = re.compile(r"[\[\]{}|\\~^](?<=[^\W\d_][\[\]{}|\\~^])(?=[^\W\d_])")
#: cost (nats) of each unpaired or improbable mark in a reading when EBCDIC readings compete: a square
#: bracket without its partner (counted as the difference between "[" and "]") and each "¢" or "¬".
#: cp037, cp500 and cp1140 read the same letters and put ``! | [ ] ^ ¬ ¢`` on different bytes
#: (cp500's "[x]" is cp037's "¢x!", cp037's "Hallo!" is cp500's "Hallo]"), and the letter model has no
#: evidence about those marks: such twins were called ambiguous whatever the text (issue 12). Brackets
#: come in pairs in text, markup and code; "¢" and "¬" are rare outside price lists and PL/I. The price
#: of a letter glued to digits, not tuned; the twin rule below asks for TWIN_MARK_EVIDENCE of them.
UNPAIRED_MARK_LOGP = -3.0
#: an EBCDIC page whose reading has at least this many more unpaired marks than the best reading's is
#: not its twin: the marks tell them apart. More than one, so that a single stray bracket (a smiley, a
#: line cut short) never decides. Reasoning, not tuned; measured on the development sets
#: (docs/detection.md, "EBCDIC twins told apart by their marks").
TWIN_MARK_EVIDENCE = 2
#: Han, kana, Hangul (and their compatibility forms): written next to digits without a space
_CJK_LETTER = re.compile(r"[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
#: confidence reported for decisions that do not come from the statistical model (BOM, valid UTF-8,
#: UTF-16/32 structure, escape sequences): these are near-certain, but not proofs.
STRUCTURAL_CONFIDENCE = 0.99


#: a candidate that decodes every byte, with the detail of its validity evidence; None for a single-byte
#: code page, whose detail (always the same sentence) is written only if it reaches the result
_Survivor = tuple[EncodingInfo, str | None]
#: kinds of encoding validated by running their strict incremental decoder over every block
_STREAMED_KINDS = frozenset({"multi", "utf16", "utf32", "escape"})
#: the kinds whose ``EncodingInfo.ascii_compatible`` is true (a set test instead of a property per survivor)
_ASCII_COMPATIBLE_KINDS = frozenset({"single", "multi"})

_PYCODEC = {
    "UTF-16LE": "utf-16-le",
    "UTF-16BE": "utf-16-be",
    "utf-32-le": "utf-32-le",
    "utf-32-be": "utf-32-be",
}


#: a byte histogram as the detector keeps it: 256 int64 counts in an ``array("q")``, which Python reads
#: as integers and the compiled kernels as a buffer (NumPy, which the compiled path never imports, reads
#: it without a copy in the reference path)
Histogram = array
#: the histogram of no bytes (read-only: a state's histograms are new arrays once a block comes)
_NO_BYTES = memoryview(bytes(256 * 8)).cast("q")


@dataclass(slots=True)
class _State:
    """Per-call state of one detection (the stages' running statistics)."""

    domain: str
    tld: str | None
    allowed: tuple[EncodingInfo, ...]
    max_bytes: int | None
    #: the names ``candidates`` restricted the domain to (None: the whole domain)
    restrict: frozenset[str] | None = None
    #: whether UTF-8 is among the allowed encodings
    utf8_allowed: bool = True
    total: int = 0
    pending: bytearray = field(default_factory=bytearray)
    #: the byte histograms of the input and of the sample (:data:`_NO_BYTES` until a block comes: the
    #: first block's counts become ``hist``, and an input with no block never reads them)
    hist: Histogram | memoryview = field(default_factory=lambda: _NO_BYTES)
    zeros: structure.ZeroCounts = field(default_factory=lambda: structure.ZeroCounts([0, 0, 0, 0]))
    head: bytes = b""
    sample: list[tuple[int, bytes]] = field(default_factory=list)
    sample_size: int = 0
    sample_hist: Histogram | memoryview = field(default_factory=lambda: _NO_BYTES)
    utf8: Utf8Validator = field(default_factory=Utf8Validator)
    #: the strict decoders of the streamed candidates (:func:`_validators`), made when first needed
    validators: dict[str, validity.StreamValidator] = field(default_factory=dict)
    #: (first block, whether it is ASCII) until a second block comes: most inputs are one block, and a
    #: stage then makes only the validators it reads (the UTF-8 and ASCII decisions none, ranking the
    #: multi-byte ones), from this block; a second block makes them all
    first_block: tuple[bytes, bool] | None = None
    #: candidates that decode all but a few invalid sequences -> their offsets
    partial: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: the encoding an in-band declaration names (registry name), if any
    declared: str | None = None
    #: the caller's prior log-odds (nats) by registry name (:func:`priors.caller_prior`); empty: none
    prior: Mapping[str, float] = field(default_factory=dict)
    closed: bool = False


class Detector:
    """Streaming detector: ``Detector(...).feed(chunk)...close() -> Detection``.

    Same keyword arguments as :func:`detect`. ``feed`` accepts any chunking; ``close`` may be called
    once. Bytes beyond ``max_bytes`` are ignored (and ``bytes_examined`` says how many were used).
    """

    def __init__(
        self,
        *,
        tld: str | None = None,
        domain: str = "file",
        candidates: Iterable[str] | None = None,
        max_bytes: int | None = None,
        prior: Mapping[str, float] | None = None,
    ) -> None:
        if domain not in ("file", "web"):
            raise ValueError(f"domain must be 'file' or 'web', not {domain!r}")
        # names, WHATWG labels or CPython aliases; an unknown one raises UnknownEncodingError
        restrict = frozenset(canonical_name(c) for c in candidates) if candidates is not None else None
        allowed = candidates_for(domain, restrict)
        names = _domain_names(domain) if restrict is None else {info.name for info in allowed}
        self._s = _State(
            domain=domain,
            tld=tld,
            allowed=allowed,
            max_bytes=max_bytes,
            restrict=restrict,
            utf8_allowed="UTF-8" in names,
        )
        if prior:
            self._s.prior = priors.caller_prior(prior, canonical_name)

    def feed(self, chunk: bytes | bytearray | memoryview) -> Detector:
        """Add the next piece of input; returns self so calls can chain."""
        s = self._s
        if s.closed:
            raise ValueError("Detector.feed() after close(); create a new Detector")
        data = bytes(chunk)
        if s.max_bytes is not None:
            room = s.max_bytes - s.total - len(s.pending)
            data = data[: max(room, 0)]
        s.pending += data
        while len(s.pending) >= BLOCK:
            block = bytes(s.pending[:BLOCK])
            del s.pending[:BLOCK]
            self._block(block)
        return self

    def _block(self, block: bytes) -> None:
        s = self._s
        offset = s.total
        s.total += len(block)
        if not s.head:
            s.head = block
        counts = _byte_counts(block)
        s.hist = counts if offset == 0 else _sum_counts(s.hist, counts)
        s.zeros.total += len(block)
        if s.hist[0]:
            for i in range(4):
                s.zeros.by_mod4[i] += block[i::4].count(0)
        s.utf8.feed(block, offset)
        is_ascii_block = block.isascii()
        if offset == 0:
            s.first_block = (block, is_ascii_block)  # validated if and when a stage asks (_validators)
        else:
            validators = _validators(s)  # (all of them, having decoded the first block)
            s.first_block = None
            _feed_validators(validators, block, offset, is_ascii_block)
        if not is_ascii_block and s.sample_size < SAMPLE_BYTES:
            # (histograms are never changed in place: the first sample block's counts are shared)
            s.sample_hist = _sum_counts(s.sample_hist, counts) if s.sample else counts
            s.sample.append((offset, block))
            s.sample_size += len(block)

    def close(self) -> Detection:
        """Finish the input and return the detection."""
        s = self._s
        if s.closed:
            raise ValueError("Detector.close() called twice")
        if s.pending:
            block = bytes(s.pending)
            s.pending.clear()
            self._block(block)
        s.closed = True
        return _decide(s)


def _validators(
    s: _State, infos: Sequence[EncodingInfo] | None = None
) -> dict[str, validity.StreamValidator]:
    """The validators of the streamed candidates ``infos`` (default: all of them), having decoded every
    block so far: those not made yet are made now and given the first block, the only one there was
    (a second block makes them all: :meth:`Detector._block`). Returns every validator made so far."""
    wanted = _validity_plan(s.domain, s.restrict).streamed if infos is None else infos
    missing = [info for info in wanted if info.name not in s.validators]
    if missing:
        start = validity.StreamValidator.start
        made = {info.name: start(info) for info in missing}
        if s.first_block is not None:
            block, is_ascii_block = s.first_block
            _feed_validators(made, block, 0, is_ascii_block)
        s.validators.update(made)
    return s.validators


def _validator(s: _State, name: str) -> validity.StreamValidator | None:
    """The validator of encoding ``name`` (:func:`_validators`), or None when it is not streamed here."""
    info = _validity_plan(s.domain, s.restrict).streamed_by_name.get(name)
    return None if info is None else _validators(s, (info,))[name]


def _feed_validators(
    validators: dict[str, validity.StreamValidator], block: bytes, offset: int, is_ascii_block: bool
) -> None:
    """Give the block at ``offset`` to every validator still running (compacted once for the multi-byte
    ones: :class:`validity.Block`)."""
    running = [
        v
        for v in validators.values()
        if not v.broken
        # (ASCII is valid in every ASCII-compatible encoding, with nothing pending)
        and not (is_ascii_block and v.info.ascii_compatible and not v.decoder.getstate()[0])
    ]
    if running:
        shared = validity.Block.of(block, offset, any(v.info.kind == "multi" for v in running))
        for v in running:
            v.feed(shared)


def detect(
    data: bytes | bytearray | memoryview,
    *,
    tld: str | None = None,
    domain: str = "file",
    candidates: Iterable[str] | None = None,
    max_bytes: int | None = None,
    prior: Mapping[str, float] | None = None,
) -> Detection:
    """Detect the encoding of ``data``: ranked candidates with evidence, and an honest "ambiguous".

    ``domain="web"`` names only WHATWG encodings (what a browser can decode); ``domain="file"`` also
    UTF-16/32 without BOM, DOS and Mac code pages, EBCDIC and other legacy encodings. ``tld`` (e.g.
    "ru") tilts near-ties towards the encodings customary there. ``candidates`` restricts the names
    that may be returned (result names, WHATWG labels or Python codec aliases; an unknown one raises
    :class:`mojifix.errors.UnknownEncodingError`). ``max_bytes`` bounds how much of ``data`` is examined.
    ``prior`` adds the caller's log prior odds (nats, by encoding name; a missing name adds 0) to each
    statistical reading's score, as the TLD does: e.g. what the other files of the same archive are
    (``mojifix convert``'s tree prior). Decisions by structure (BOM, UTF-8, ASCII, UTF-16/32) ignore it.
    """
    detector = Detector(tld=tld, domain=domain, candidates=candidates, max_bytes=max_bytes, prior=prior)
    return detector.feed(data).close()


def _byte_counts(data: bytes) -> Histogram:
    """The histogram of the byte values of ``data``: by the compiled count, or ``np.bincount`` (the same
    integers; bincount converts every byte to a 64-bit index first, and imports NumPy)."""
    add = _compiled("add_byte_counts")
    if add is None:
        import numpy as np

        counted = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
        return array("q", counted.astype(np.int64).tobytes())
    counts = array("q", bytes(256 * 8))
    add(data, counts)
    return counts


def _sum_counts(a: Sequence[int], b: Sequence[int]) -> Histogram:
    """The histogram of two inputs together, from theirs (256 additions: microseconds, once per block)."""
    return array("q", map(operator.add, a, b))


@cache
def _compiled(name: str) -> Callable | None:
    """The compiled function ``name`` of ``mojifix.detect._scoring`` (``add_byte_counts``, ``glued_bytes``,
    ``text_marks``), or None: the reference is forced or it is not built (looked up once; the model is
    not loaded for it)."""
    return getattr(_native.detect_kernel(), name, None)


# ---- decision ------------------------------------------------------------------------------------
@cache
def _domain_names(domain: str) -> frozenset[str]:
    """The names of the encodings a domain allows without a restriction (computed once per domain)."""
    return frozenset(info.name for info in candidates_for(domain))


#: plans kept: the two domains, and as many restrictions (``candidates=``) as a process is likely to
#: repeat; a bound, not a tuned number (a plan is rebuilt in microseconds when it was dropped)
VALIDITY_PLANS = 64


@dataclass(frozen=True, slots=True)
class _ValidityPlan:
    """The allowed encodings that the validity filter (stage 7) judges, by kind, each with its position
    in registry order (the order survivors keep); the single-byte ones (code pages and EBCDIC) as
    (bit of :func:`validity.single_byte_invalid`, (position, survivor)): the survivor as the filter
    reports it when every byte value present is defined. And the encodings validated while the input
    streams in (:data:`_STREAMED_KINDS`)."""

    singles: tuple[tuple[int, tuple[int, _Survivor]], ...]
    ebcdic: tuple[tuple[int, tuple[int, _Survivor]], ...]
    utf8: tuple[tuple[int, EncodingInfo], ...]
    multi: tuple[tuple[int, EncodingInfo], ...]
    streamed: tuple[EncodingInfo, ...]
    #: the streamed encodings by name, and the multi-byte ones (the validators ranking reads)
    streamed_by_name: Mapping[str, EncodingInfo]
    multi_streamed: tuple[EncodingInfo, ...]


@lru_cache(maxsize=VALIDITY_PLANS)
def _validity_plan(domain: str, restrict: frozenset[str] | None) -> _ValidityPlan:
    """:class:`_ValidityPlan` of the encodings a domain allows (computed once per domain and restriction,
    for the last :data:`VALIDITY_PLANS` restrictions)."""
    allowed = candidates_for(domain, restrict)
    rows = validity.single_byte_rows()
    single, ebcdic, utf8, multi = (
        tuple((i, info) for i, info in enumerate(allowed) if info.kind == kind)
        for kind in ("single", "ebcdic", "utf8", "multi")
    )
    streamed = tuple(info for info in allowed if info.kind in _STREAMED_KINDS)
    return _ValidityPlan(
        tuple((rows[info.name], (i, (info, None))) for i, info in single),
        tuple((rows[info.name], (i, (info, None))) for i, info in ebcdic),
        utf8,
        multi,
        streamed,
        MappingProxyType({info.name: info for info in streamed}),
        tuple(info for _, info in multi),
    )


#: the position in registry order of a (position, survivor) item, the key survivors are sorted by
_position = operator.itemgetter(0)


def _decide(s: _State) -> Detection:
    n = s.total
    if n == 0:
        return Detection((), "empty", evidence=(Evidence("ascii", "no bytes"),))

    # 1. BOM
    found = bom.sniff_bom(s.head, s.domain)
    if found is not None:
        name, length = found
        ev = Evidence("bom", f"input starts with the {name} byte order mark ({length} bytes)", float(length))
        cand = Candidate(name, 1.0, None, (ev,))
        return Detection((cand,), "text", bom=name, bytes_examined=n, evidence=(ev,))

    # 2-3. binary, with zero bytes explained by UTF-16/32 structure
    guess = structure.structure_guess(s.zeros)
    if guess is not None:
        v = _validator(s, guess[0])
        if v is None or not v.valid:
            guess = None
    magic = binary.signature(s.head)
    if magic is not None:
        return _binary(n, f"starts with the signature of {magic}")
    # the histogram as Python integers: the tests below each read a few of its 256 counts, and
    # Python reads them faster than NumPy calls on short input (computed once per call)
    counts = s.hist.tolist()
    ebcdic_like = _ebcdic_like(counts, n)
    if guess is None:
        bin_ev = binary.binary_evidence(counts, n, ebcdic_like=ebcdic_like)
    else:  # UTF-16/32 text has control-range *bytes* (Cyrillic U+04xx -> 0x04): judge the decoded text
        bin_ev = binary.decoded_binary_evidence(s.head.decode(_PYCODEC[guess[0]], "replace"))
    # 3b. UTF-16 by content: no zero byte at all (pure CJK, or Cyrillic/Greek whose bytes look binary),
    # or so few that they may sit on the wrong side ("一" U+4E00 is 00 4E in UTF-16LE)
    # (the zero-free case that does not look binary, pure CJK, is read after the UTF-8 stage)
    if magic is None and (
        (guess is None and bin_ev is not None)
        or (guess is not None and guess[0].startswith("UTF-16") and guess[1] < structure.CONTENT_VERIFY_SHARE)
    ):
        reading = _utf16_content(s)
        if reading is not None and reading.is_text:
            return _utf16_detection(n, reading)
        if guess is not None and reading is not None and reading.per_char < structure.CONTENT_MIN_SCORE:
            # a few zeros, but neither byte order reads as text: random or binary data
            guess = None
            bin_ev = binary.binary_evidence(counts, n, ebcdic_like=ebcdic_like)
    controls_ev = None  # a few control bytes in what may still be text (judged after ranking)
    if bin_ev is not None:
        if guess is not None or counts[0] or bin_ev[0] > TEXT_CONTROL_SHARE:
            return _binary(n, bin_ev[1], bin_ev[0])
        controls_ev = bin_ev
    if guess is not None:
        name, share = guess
        detail = f"{share:.0%} of code units have their zero byte where {name} puts it; all {n:,} bytes valid"
        ev = Evidence("structure", detail, share)
        return Detection((Candidate(name, STRUCTURAL_CONFIDENCE, None, (ev,)),), "text", bytes_examined=n,
                         evidence=(ev,))  # fmt: skip

    # 4 + 6. ASCII, unless an escape-sequence encoding announces itself
    if not any(counts[128:]):  # ascii.is_ascii on the histogram's integers
        for name, marker in escape.escape_candidates(s.head) if _may_hold_escape(counts) else ():
            v = _validator(s, name)
            if v is not None and v.valid and _ends_clean(v):
                detail = f"designation sequence {marker!r} present; all {n:,} bytes valid in {name}"
                ev = Evidence("escape", detail)
                return Detection((Candidate(name, STRUCTURAL_CONFIDENCE, None, (ev,)),), "text",
                                 bytes_examined=n, evidence=(ev,))  # fmt: skip
        if controls_ev is not None:
            return _binary(n, controls_ev[1], controls_ev[0])
        if b"+" in s.head and (found_utf7 := _utf7(s)) is not None:  # 6b. UTF-7 (detect/utf7.py)
            return found_utf7
        ev = Evidence("ascii", f"all {n:,} bytes are ASCII (below 0x80)")
        return Detection((Candidate(ascii.ASCII_CANDIDATE, 1.0, None, (ev,)),), "ascii", bytes_examined=n,
                         evidence=(ev,))  # fmt: skip

    # in-band declaration (<?xml encoding>, <meta charset>, @charset, coding comment): evidence to verify
    # (looked for only here: the stages above decide without it)
    decl, s.declared = _declaration(s.head)

    # 5. UTF-8
    if s.utf8.valid and s.utf8.multibyte and s.utf8_allowed and controls_ev is None:
        tail = s.utf8.truncated_tail
        detail = f"all {n:,} bytes valid UTF-8 with {s.utf8.multibyte:,} multi-byte characters"
        if tail:
            detail += f" (last {tail} bytes: a sequence cut off by the end of the input)"
        ev = Evidence("utf8", detail, float(s.utf8.multibyte))
        found = (ev,)
        if decl is not None:
            verdict = "agrees" if s.declared == "UTF-8" else "is contradicted: the bytes are valid UTF-8"
            found += (_declaration_evidence(decl, s.declared, verdict),)
        return Detection((Candidate("UTF-8", STRUCTURAL_CONFIDENCE, None, found),), "text", bytes_examined=n,
                         evidence=found)  # fmt: skip
    # 3b (continued). UTF-16 without any zero byte and without a binary look: pure CJK text (every
    # code unit outside U+0000-U+00FF), or legacy CJK/8-bit text, which reads as scattered code points
    # (the space screen is a shortcut, and one byte is > 5% of a 16-byte file: a caller's prior for
    # UTF-16, e.g. a tree with UTF-16 files without BOM, makes the content check worth running anyway)
    spaces = sum(_line_and_space(counts))
    asked = spaces > UTF16_MAX_SPACE_SHARE * n and any(s.prior.get(u, 0.0) > 0 for u in _UTF16)
    if not counts[0] and (spaces <= UTF16_MAX_SPACE_SHARE * n or asked):
        reading = _utf16_content(s)
        if reading is not None and reading.is_text:
            return _utf16_detection(n, reading, asked)
    global_ev: list[Evidence] = []
    if s.utf8.error_at is not None:
        global_ev.append(Evidence("utf8", f"not UTF-8: invalid sequence at byte {s.utf8.error_at:,}"))
    non_ascii = n - sum(counts[:128])

    # 7. validity filter
    # (encoding, validity detail): the Evidence is built only for candidates that reach the result
    n_bytes = f"{n:,}"
    invalid_single = validity.single_byte_invalid(counts)
    # (escape encodings were decided at stage 6 and UTF-16/32 by their zero-byte structure at stage 3,
    # never by statistics; the others are taken kind by kind, then put back in registry order)
    plan = _validity_plan(s.domain, s.restrict)
    validators = _validators(s, plan.multi_streamed)
    # single-byte pages: every byte value present defined (detail: _single_byte_detail, if reported)
    found = [item for row, item in plan.singles if not invalid_single >> row & 1]
    if ebcdic_like:
        found += [item for row, item in plan.ebcdic if not invalid_single >> row & 1]
    for i, info in plan.utf8:
        if _partly_valid(s.utf8.errors, s.utf8.broken, s.utf8.multibyte) and controls_ev is None:
            s.partial[info.name] = tuple(s.utf8.errors)
            found.append((i, (info, f"valid UTF-8 but for {_errors_detail(s.utf8.errors)}")))
        elif s.utf8.valid and controls_ev is not None:
            found.append((i, (info, f"all {n_bytes} bytes valid UTF-8")))
    for i, info in plan.multi:
        v = validators[info.name]
        if v.valid:
            tail = len(v.decoder.getstate()[0])
            detail = f"all {n_bytes} bytes valid in {info.name}"
            if tail:
                detail += f" (last {tail} bytes cut off by the end of the input)"
            found.append((i, (info, detail)))
        elif _partly_valid(v.errors, v.broken, non_ascii):
            s.partial[info.name] = tuple(v.errors)
            found.append((i, (info, f"valid in {info.name} but for {_errors_detail(v.errors)}")))
    found.sort(key=_position)
    survivors = [survivor for _, survivor in found]
    if not survivors:
        return _binary(n, "no allowed encoding decodes every byte of the input", None, tuple(global_ev))

    # 8-10. score, add priors, rank
    scorer = get_scorer()
    ranked = _rank(s, scorer, survivors)
    scores = [r[0] for r in ranked]
    confs = ambiguity.confidences(scores)
    amb = ambiguity.is_ambiguous(scores)
    twin = None if amb else _twin(s, ranked[0][1], survivors)
    punct_only = twin is not None
    if twin is not None:  # two readings the evidence cannot separate: even odds
        confs = [c * min(1.0, NOT_TEXT_CONFIDENCE / confs[0]) for c in confs]
        for i, r in enumerate(ranked):
            if r[1].name == twin:
                confs[i] = confs[0]
        global_ev.append(
            Evidence(
                "ambiguity",
                f"{ranked[0][1].name} and {twin} read the same text but for "
                + (
                    "punctuation and symbols"
                    if ranked[0][1].kind == "ebcdic"
                    else "comma-below vs cedilla letters"
                )
                + ", which the evidence cannot tell apart",
            )
        )
    if decl is not None:
        global_ev.append(_declaration_finding(decl, s, survivors, ranked))
    if controls_ev is not None:
        ls = ranked[0][4]
        if not _reads_as_text(ls):
            return _binary(n, controls_ev[1], controls_ev[0])
        global_ev.append(
            Evidence(
                "binary",
                f"{controls_ev[1]}, but the rest reads as {ls.language} text "
                f"({ls.known_share:.0%} of letters among its frequent characters): not binary",
                controls_ev[0],
            )
        )
    best_ls = ranked[0][4]
    not_text = False
    few_values = 256 - counts.count(0) <= FEW_BYTE_VALUES  # distinct byte values present
    if few_values or (best_ls.letters and not _reads_as_text(best_ls)):
        scale = min(1.0, NOT_TEXT_CONFIDENCE / confs[0])
        confs = [c * scale for c in confs]
        not_text = True
        global_ev.append(
            Evidence(
                "ambiguity",
                f"no reading looks like text: the best reads as {best_ls.language} with "
                f"{best_ls.known_share:.0%} of its letters among the language's frequent characters and "
                f"{best_ls.loglik / max(best_ls.letters, 1):.1f} nats per letter"
                + (f" (only {FEW_BYTE_VALUES} or fewer distinct byte values)" if few_values else ""),
                best_ls.known_share,
            )
        )
    cands = tuple(
        Candidate(info.name, conf, lang, evs)
        for (score, info, lang, evs, _), conf in zip(ranked, confs, strict=True)
    )
    if cands[0].encoding in s.partial:
        errors = s.partial[cands[0].encoding]
        global_ev.append(
            Evidence("invalid", f"{cands[0].encoding}: {_errors_detail(errors)}", float(len(errors)))
        )
    if amb:
        margin = scores[0] - scores[1]
        global_ev.append(
            Evidence(
                "ambiguity",
                f"{cands[0].encoding} and {cands[1].encoding} decode differently and are only "
                f"{margin:.1f} nats apart (< {ambiguity.AMBIGUITY_MARGIN})",
                margin,
            )
        )
    return Detection(cands, "text", amb or not_text or punct_only, None, n, tuple(global_ev))


#: declared labels of CPython codecs that the registry covers under another name (Microsoft's Big5
#: variant is decoded by the WHATWG Big5 decoder, a superset)
_DECLARED_ALIASES = {"cp950": "Big5", "ms950": "Big5", "windows-950": "Big5"}


def _is_declared(s: _State, members: list[_Survivor]) -> bool:
    """Whether the input's declaration names one of a group of identical readings."""
    return s.declared is not None and any(info.name == s.declared for info, _ in members)


def _declared_logp(s: _State, members: list[_Survivor]) -> float:
    """:data:`DECLARATION_LOGP` for the declared group of readings, else 0 (pruning uses it too: a
    declared reading must not be dropped before the declaration counts)."""
    return DECLARATION_LOGP if _is_declared(s, members) else 0.0


def _declaration(head: bytes) -> tuple[Declaration | None, str | None]:
    """The input's first in-band declaration and the registry name of what it declares (None when
    there is none, or the label names nothing the detector knows)."""
    decl = find_declaration(head)
    if decl is None:
        return None, None
    # a label the Encoding Standard does not know may still name a codec files are written in
    # ("cp874", "cp950", "big5hkscs", "kz1048": XML parsers built on iconv accept them)
    for name in (decl.encoding, decl.label, _DECLARED_ALIASES.get(decl.label.strip().lower())):
        if name:
            try:
                return decl, canonical_name(name)
            except UnknownEncodingError:
                continue
    return decl, None


def _declaration_evidence(decl: Declaration, declared: str | None, verdict: str) -> Evidence:
    """Evidence naming the declaration, its byte span and what became of it."""
    named = declared or "an encoding the detector does not know"
    detail = (
        f"{decl.kind} declaration {decl.label!r} (bytes {decl.start:,}-{decl.end:,}) names {named}; {verdict}"
    )
    return Evidence("declaration", detail, float(decl.start))


def _declaration_finding(decl: Declaration, s: _State, survivors: list[_Survivor], ranked: list) -> Evidence:
    """What the bytes say about the declaration: agreed, outscored, or contradicted by an invalid byte."""
    declared = s.declared
    best = ranked[0][1].name
    if declared is None:
        return _declaration_evidence(decl, None, "not used")
    if best == declared:
        errors = s.partial.get(declared)
        if errors:
            return _declaration_evidence(decl, declared, f"agrees, but for {_errors_detail(errors)}")
        return _declaration_evidence(decl, declared, "agrees: every byte decodes and the text reads best")
    if not any(info.name == declared for info, _ in survivors):
        v = _validator(s, declared)
        where = f" (first invalid byte at {v.error_at:,})" if v is not None and v.error_at is not None else ""
        return _declaration_evidence(
            decl, declared, f"contradicted: the bytes are not valid {declared}{where}"
        )
    declared_score = next((r[0] for r in ranked if r[1].name == declared), None)
    behind = f" by {ranked[0][0] - declared_score:.0f} nats" if declared_score is not None else ""
    return _declaration_evidence(decl, declared, f"contradicted: {best} reads as text better{behind}")


#: letters that are the same letter in two spellings: Romanian s/t with comma below (ISO-8859-16) or
#: with cedilla (windows-1250, ISO-8859-2: the only ones they have), on the same bytes
_VARIANT_LETTERS = frozenset({("ș", "ş"), ("ț", "ţ"), ("Ș", "Ş"), ("Ț", "Ţ")})
#: the code pages that put those letters on the same bytes
_VARIANT_PAGES = frozenset({"ISO-8859-16", "windows-1250", "ISO-8859-2"})


def _twin(s: _State, best: EncodingInfo, survivors: list[_Survivor]) -> str | None:
    """Another code page whose reading differs from the best one's only where the evidence cannot
    tell them apart (issue 12), or None:

    - EBCDIC pages that read the same letters and differ only in punctuation and symbols (cp037 /
      cp500 / cp1140 / cp273 put ``! | [ ] ^ ¬ ¢`` on different bytes): the letter-bigram model has no
      real evidence about those marks;
    - single-byte pages that differ only in Romanian s/t with comma below vs cedilla (ISO-8859-16 vs
      windows-1250 / ISO-8859-2): both are Romanian as written, the bytes do not say which.

    Compared over the first block of the input; a declaration in the input settles it instead.
    """
    if s.declared is not None or not (best.kind == "ebcdic" or best.name in _VARIANT_PAGES):
        return None
    pages = [
        info
        for info, _ in survivors
        if info.name != best.name
        and (info.kind == "ebcdic" if best.kind == "ebcdic" else info.name in _VARIANT_PAGES)
    ]
    if not pages:
        return None
    # single-byte pages read each byte alone: the readings of the head differ exactly where the pages
    # read one of its byte values differently, so the byte values present are compared, not the texts
    present = bytes(value for value, count in enumerate(_byte_counts(s.head)) if count)
    mine = best.decode(present, "replace")
    unpaired = _unpaired_marks(best.decode(s.head, "replace")) if best.kind == "ebcdic" else 0
    for info in pages:
        if best.kind == "ebcdic" and (
            _unpaired_marks(info.decode(s.head, "replace")) - unpaired >= TWIN_MARK_EVIDENCE
        ):
            continue  # its marks tell it apart (TWIN_MARK_EVIDENCE)
        pairs = [(x, y) for x, y in zip(mine, info.decode(present, "replace"), strict=True) if x != y]
        if pairs and all(
            not (x.isalnum() or y.isalnum())
            if best.kind == "ebcdic"
            else (x, y) in _VARIANT_LETTERS or (y, x) in _VARIANT_LETTERS
            for x, y in pairs
        ):
            return info.name
    return None


def _reads_as_text(ls: LanguageScore) -> bool:
    """Whether a reading looks like real text (see :data:`READS_AS_TEXT_PER_LETTER`)."""
    bar = READS_AS_TEXT_PER_LETTER_CJK if ls.language in _CJK_LANGUAGES else READS_AS_TEXT_PER_LETTER
    return ls.letters > 0 and ls.loglik >= bar * ls.letters


def _partly_valid(errors: list[int], broken: bool, non_ascii: int) -> bool:
    """Whether a decoder that met ``errors`` invalid sequences still explains the input: at most
    :data:`validity.MAX_ERRORS`, and at least :data:`PARTIAL_BYTES_PER_ERROR` non-ASCII bytes (or
    characters) per error."""
    return bool(errors) and not broken and non_ascii >= PARTIAL_BYTES_PER_ERROR * len(errors)


def _errors_detail(errors: Sequence[int]) -> str:
    """ "2 invalid sequences, at bytes 1,024 and 5,000" (the first few offsets)."""
    where = ", ".join(f"{e:,}" for e in errors[:4]) + (", ..." if len(errors) > 4 else "")
    s = "s" if len(errors) > 1 else ""
    return f"{len(errors)} invalid sequence{s}, at byte{s} {where}"


def _ends_clean(v: validity.StreamValidator) -> bool:
    """Whether an escape encoding's decoder accepts the end of the input (a ``~{`` that never closes
    before a line break, or an unterminated sequence, is not HZ text: it is ASCII that mentions HZ)."""
    try:
        v.decoder.decode(b"", final=True)
    except UnicodeError:
        return False
    return True


def _single_byte_detail(n: int, info: EncodingInfo) -> str:
    """The validity evidence of a single-byte code page that decodes all ``n`` bytes."""
    return f"all {n:,} bytes: every byte value defined in {info.name}"


def _may_hold_escape(counts: list[int]) -> bool:
    """Whether bytes with histogram ``counts`` can hold a designation sequence (``escape.ESCAPE_MARKERS``:
    each has ESC, or is HZ's ``~{``): a test of three counts before searching the input for six."""
    return bool(counts[0x1B] or (counts[0x7E] and counts[0x7B]))


def _utf7(s: _State) -> Detection | None:
    """Stage 6b: 7-bit input read as UTF-7, when the domain allows it, its shifted sequences are what
    an encoder writes (:func:`utf7.utf7_reading` on the first block, CPython's strict decoder on the
    rest) and the words they decode read as text."""
    more = s.total > len(s.head)  # (the first block's last line may go on in the next)
    reading = utf7.utf7_reading(s.head[: s.head.rfind(b"\n") + 1] if more else s.head)
    # (the structure first: it rejects most ASCII with "+" at its first one, faster than the domain test)
    if reading is None or not any(info.name == utf7.UTF7 for info in s.allowed):
        return None
    rest = _validator(s, utf7.UTF7) if more else None
    if rest is not None and not (rest.valid and _ends_clean(rest)):
        return None
    ls = get_scorer().score(reading.words)
    if not (reading.typographic or (_reads_as_text(ls) and ls.known_share >= utf7.MIN_KNOWN_SHARE)):
        return None
    detail = (
        f"{reading.sequences:,} shifted sequences decode to {reading.shifted_chars:,} non-ASCII characters "
        f"(valid UTF-16) whose words read as {ls.language}: {ls.loglik / max(ls.letters, 1):.1f} nats/letter"
    )
    ev = Evidence("utf7", detail, float(reading.shifted_chars))
    cand = Candidate(utf7.UTF7, STRUCTURAL_CONFIDENCE, ls.language, (ev,))
    return Detection((cand,), "text", bytes_examined=s.total, evidence=(ev,))


def _utf16_detection(n: int, reading: structure.ContentReading, asked: bool = False) -> Detection:
    other = "invalid" if reading.other is None else f"{reading.other:.1f} nats/char"
    detail = (
        f"all {n:,} bytes valid {reading.name} (surrogates paired) reading as {reading.language} text: "
        f"{reading.per_char:.1f} nats/char, {reading.known_share:.0%} of letters among its frequent "
        f"characters; the other byte order: {other}"
    )
    evs: tuple[Evidence, ...] = (Evidence("structure", detail, reading.per_char),)
    if asked:
        evs += (Evidence("prior", "read as UTF-16 by content because the caller's prior favours UTF-16"),)
    cand = Candidate(reading.name, STRUCTURAL_CONFIDENCE, reading.language, evs)
    return Detection((cand,), "text", bytes_examined=n, evidence=evs)


def _utf16_content(s: _State) -> structure.ContentReading | None:
    """Stage 3b: read the first :data:`SCORE_BYTES` as UTF-16 in each byte order whose strict decoder
    accepted every byte, and return the better reading (see :func:`structure.utf16_by_content`).

    Skipped for odd lengths, and when neither byte order is valid (GBK/Big5 text of a few hundred
    bytes almost always has a lone surrogate either way: bytes 0xD8-0xDF are common there).
    """
    if s.total % 2:
        return None
    texts = {}
    head = s.head[: SCORE_BYTES - SCORE_BYTES % 2]
    for name in ("UTF-16LE", "UTF-16BE"):
        v = _validator(s, name)
        if v is not None and v.valid:
            texts[name] = head.decode(_PYCODEC[name], "replace")
    if not texts:
        return None
    scorer = get_scorer()
    return structure.utf16_by_content(texts, lambda ts: scorer.score_many(ts, [None] * len(ts)))


def _ebcdic_like(counts: list[int], n: int) -> bool:
    """Whether EBCDIC candidates are worth considering (see :data:`EBCDIC_SPACE_SHARE`), from the byte
    histogram as a list of integers."""
    if n > EBCDIC_UNBROKEN_MAX and not any(_ebcdic_breaks(counts)):
        return False
    return bool(
        counts[0x40] >= EBCDIC_SPACE_SHARE * n
        or sum(sum(counts[r]) for r in _EBCDIC_LETTERS) >= EBCDIC_LETTER_SHARE * n
        or sum(counts[_ASCII_LOWER]) + counts[0x20] < ASCII_LIKE_SHARE * n
    )


def _binary(n: int, detail: str, value: float | None = None, extra: tuple[Evidence, ...] = ()) -> Detection:
    ev = Evidence("binary", detail, value)
    return Detection((), "binary", bytes_examined=n, evidence=(*extra, ev))


def _segments(s: _State) -> tuple[bytes, bool]:
    """The sample cut down to non-ASCII bytes with context (:func:`_segments_reference`), and whether the
    cut reaches the end of the input: by the compiled ``segments`` when it is active (the same spans)."""
    cut = get_scorer().segments
    if cut is None:
        return _segments_reference(s)
    runs, last_end = _sample_runs(s)
    got = cut(runs, s.sample_hist, SEGMENT_CONTEXT, SCORE_BYTES, LONG_PIECE)
    if got is None:
        return b"", False
    out, r, b = got
    return out, r == len(runs) - 1 and last_end == s.total and b >= len(runs[r])


def _sample_runs(s: _State) -> tuple[list[bytes], int]:
    """The sample's blocks with contiguous ones joined, and the end offset of the last block."""
    runs: list[bytes] = []
    last_end = -1
    for offset, block in s.sample:
        if offset == last_end:
            runs[-1] += block
        else:
            runs.append(block)
        last_end = offset + len(block)
    return runs, last_end


def _segments_reference(s: _State) -> tuple[bytes, bool]:
    """The sample cut down to non-ASCII bytes with :data:`SEGMENT_CONTEXT` bytes of context each side.

    Pieces are cut inside ASCII runs longer than twice the context, so no multi-byte character (whose
    trail bytes may be ASCII-range, as in Shift_JIS) is split; contiguous sample blocks are joined
    first, separate pieces by a newline. The first pieces are taken up to :data:`SCORE_BYTES`; the one
    that crosses that budget is cut at the first safe place (:func:`_safe_cut_after`) after it: text
    dense in non-ASCII bytes (CJK, Greek) is one piece per paragraph or page, and 30 KB of it was once
    scored whole. Then, for each byte value not yet covered, a window of context around its first
    occurrence (the whole piece when the piece is short), so that a byte which tells two code pages
    apart is scored even if it occurs late.
    """
    runs, last_end = _sample_runs(s)
    ctx = SEGMENT_CONTEXT
    if len(runs) == 1 and len(runs[0]) <= SHORT_SAMPLE:
        return _segments_short(runs[0], last_end == s.total)
    import numpy as np

    # pieces per run, as arrays (start, end), in input order; only the first few become Python values
    per_run: list[tuple[int, np.ndarray, np.ndarray]] = []
    for r, run in enumerate(runs):
        pos = np.flatnonzero(np.frombuffer(run, np.uint8) >= 0x80)
        if len(pos) == 0:
            continue
        breaks = np.flatnonzero(pos[1:] - pos[:-1] > 2 * ctx)
        starts = np.maximum(pos[np.concatenate(([0], breaks + 1))] - ctx, 0)
        ends = pos[np.concatenate((breaks, [len(pos) - 1]))] + ctx + 1
        per_run.append((r, starts, ends))
    # the first pieces up to SCORE_BYTES; the last one is cut at a safe place after the budget when it
    # would overshoot it by more than a long piece
    spans: list[tuple[int, int, int]] = []
    size = 0
    last_taken = (-1, -1)  # (index into per_run, piece index) of the last piece taken
    for k, (r, starts, ends) in enumerate(per_run):
        if size >= SCORE_BYTES:
            break
        # (pieces are at least one byte long, so the budget is reached within this many)
        n_first = min(len(starts), SCORE_BYTES - size)
        for i, (a, b) in enumerate(zip(starts[:n_first].tolist(), ends[:n_first].tolist(), strict=True)):
            if size >= SCORE_BYTES:
                break
            if b - a > SCORE_BYTES - size + LONG_PIECE:
                b = _safe_cut_after(runs[r], a + SCORE_BYTES - size, b)
            spans.append((r, a, b))
            size += b - a + 1
            last_taken = (k, i)
    cut_end = spans[-1][2] if spans else 0
    # ... plus context around the first occurrence of each byte value not covered yet
    # (the byte values of all the spans at once: one join and one count, not a NumPy call per span)
    taken = np.frombuffer(b"".join(runs[r][a:b] for r, a, b in spans), np.uint8)
    covered = np.bincount(taken, minlength=256)[128:] > 0
    missing = np.flatnonzero(~covered & (np.asarray(s.sample_hist[128:]) > 0)) + 128
    extra: dict[tuple[int, int], tuple[int, int, int]] = {}  # (run, piece) -> span
    for value in missing.tolist():
        byte = bytes((value,))
        for k, (r, starts, ends) in enumerate(per_run):
            at = runs[r].find(byte)
            if at < 0:
                continue
            i = int(np.searchsorted(starts, at, side="right")) - 1
            a, b = int(starts[i]), int(ends[i])
            if (k, i) == last_taken:  # behind the cut of the last piece taken
                a = cut_end
            if b - a > LONG_PIECE:
                cut = _safe_cut_before(runs[r], at - ctx, a)
                if cut is None:
                    # dense multi-byte text with no safe byte near: a window starting anywhere else
                    # could begin on a trail byte and misread the true encoding; the first pieces
                    # already hold thousands of its bytes, so this value goes without a window
                    break
                lo = cut
                hi = min(_safe_cut_after(runs[r], at + ctx, b), b)
                if (k, i) in extra:  # several missing values in one long piece: one span over them
                    lo, hi = min(lo, extra[k, i][1]), max(hi, extra[k, i][2])
                a, b = lo, hi
            extra[k, i] = (r, a, b)
            break
    # (pieces after the taken ones, in input order, at most as many as fit the budget in short pieces)
    later = sorted(key for key in extra if key >= last_taken)[: SCORE_BYTES // (2 * ctx + 1)]
    spans += [extra[key] for key in later]
    if not spans:
        return b"", False
    out = b"\n".join(runs[r][a:b] for r, a, b in spans)
    r, _, b = spans[-1]
    at_end = r == len(runs) - 1 and last_end == s.total and b >= len(runs[r])
    return out, at_end


def _segments_short(run: bytes, run_ends_input: bool) -> tuple[bytes, bool]:
    """:func:`_segments` of a sample that is one run of at most :data:`SHORT_SAMPLE` bytes, from the runs
    of non-ASCII bytes (a regular expression) instead of NumPy arrays of their positions.

    The same pieces: positions within a run of non-ASCII bytes are consecutive, so a piece breaks only
    between runs more than twice the context apart. Every piece is taken whole, and nothing is added
    for byte values not yet covered: the pieces, at most SHORT_SAMPLE + SEGMENT_CONTEXT + 1 bytes plus
    one separator per piece (< SCORE_BYTES), never reach the budget, and every non-ASCII byte of the
    sample lies in its own piece.
    """
    ctx = SEGMENT_CONTEXT
    spans: list[tuple[int, int]] = []
    first = last = -1  # first and last non-ASCII position of the piece being built
    for m in _NON_ASCII_RUN.finditer(run):
        if first < 0:
            first = m.start()
        elif m.start() - last > 2 * ctx:
            spans.append((max(first - ctx, 0), last + ctx + 1))
            first = m.start()
        last = m.end() - 1
    if first < 0:
        return b"", False
    spans.append((max(first - ctx, 0), last + ctx + 1))
    return b"\n".join(run[a:b] for a, b in spans), run_ends_input and spans[-1][1] >= len(run)


def _safe_cut_after(run: bytes, at: int, limit: int) -> int:
    """End of a span: just after the first byte below 0x30 at or after ``at`` (``limit`` if none).

    Bytes 0x00-0x2F (controls, space, ASCII punctuation) are never a lead or trail byte in any
    ASCII-compatible multi-byte encoding here (trail bytes start at 0x30 in GB18030's four-byte form,
    0x31 in Johab, 0x40 elsewhere), so a cut next to one splits no character in any candidate.
    """
    m = _SAFE_BYTE.search(run, at, limit)
    return m.end() if m else limit


def _safe_cut_before(run: bytes, at: int, floor: int) -> int | None:
    """Start of a span: the last byte below 0x30 at or before ``at`` (see :func:`_safe_cut_after`),
    searching back at most :data:`LONG_PIECE` bytes and never below ``floor`` (a piece start, itself a
    safe place, returned when the search reaches it); None when there is no safe place in reach."""
    lo = max(at - LONG_PIECE, floor)
    i = min(at, len(run) - 1)
    while i >= lo and run[i] >= 0x30:
        i -= 1
    if i >= lo:
        return i
    return floor if lo == floor else None


def _decode_for_scoring(info: EncodingInfo, data: bytes, at_end: bool) -> str:
    """Decode the scoring bytes; errors become U+FFFD.

    A character cut off where the *sample* ends is dropped; one cut off by the end of the *input* is
    tolerated by the validity filter but scored as U+FFFD here, so that a trailing lone lead byte
    cannot make a multi-byte reading of a short input look better than the complete single-byte one.
    """
    if info.kind in ("single", "ebcdic"):
        return info.decode(data, "replace")
    return codecs.getincrementaldecoder(info.pycodec)("replace").decode(data, final=at_end)


def _rank(
    s: _State, scorer: Scorer, survivors: list[_Survivor]
) -> list[tuple[float, EncodingInfo, str | None, tuple[Evidence, ...], LanguageScore]]:
    uniform = not {info.kind for info, _ in survivors} <= _ASCII_COMPATIBLE_KINDS
    if uniform:  # EBCDIC candidates: every byte matters, score the start of the input ...
        data = s.head[:SCORE_BYTES]
        at_end = len(data) == s.total
        # ... plus the first occurrence of each byte value the start lacks (cp037 "[" vs cp500 "¢"
        # may first occur on page 10); EBCDIC is single-byte, so any cut is safe
        start_counts = _byte_counts(data)
        missing = [value for value, count in enumerate(s.hist) if count and not start_counts[value]]
        extra = []
        for value in missing:
            pos = s.head.find(bytes([value]))
            if pos >= 0:
                extra.append(s.head[max(pos - SEGMENT_CONTEXT, 0) : pos + SEGMENT_CONTEXT + 1])
        if extra:
            data = data + b"".join(extra)
            at_end = False
        basis = f"{len(data):,} bytes from the start of the input"
    else:
        data, at_end = _segments(s)
        basis = f"{len(data):,} bytes around non-ASCII bytes"
    # the shortlist sees the bytes that full scoring will see: with the whole input's histogram, 1 KB of
    # ASCII markup (Latin letters, foreign to Greek) made every code page's best unigram language a
    # Latin one, and windows-1253 lost its place among the Greek readings
    survivors = _shortlist(scorer, survivors, _byte_counts(data), s.prior)
    glue = _glued_bytes(data)
    groups: dict[str, list[_Survivor]] = {}
    # multi-byte readings of input long enough for the pruning pass are decoded in two steps, the
    # first PREFIX_BYTES then the rest, by one incremental decoder (the same text as one call): the
    # first step is the prefix reading _prune scores, which it then need not decode again
    split = len(data) > PREFIX_BYTES
    prefix, rest = data[:PREFIX_BYTES], data[PREFIX_BYTES:]
    heads: dict[str, str] = {}  # encoding name -> its reading of the prefix (multi-byte ones)
    # the single-byte readings, by the compiled decode in one call when it is active
    singles = [info.name for info, _ in survivors if info.kind == "single"]
    readings = (
        dict(zip(singles, scorer.pages.decode(data, scorer.code_page_rows(singles)), strict=True))
        if scorer.pages is not None and singles
        else {}
    )
    for info, ev in survivors:
        if info.kind == "single" and readings:
            text = readings[info.name]
        elif info.kind == "single":  # (_decode_for_scoring, inlined for the usual case)
            text = codecs.charmap_decode(data, "replace", info.table())[0]
        elif split and info.kind != "ebcdic":
            decoder = validity.decoder_class(info.pycodec)("replace")
            heads[info.name] = decoder.decode(prefix, False)
            text = heads[info.name] + decoder.decode(rest, at_end)
        else:
            text = _decode_for_scoring(info, data, at_end)
        groups.setdefault(text, []).append((info, ev))
    texts = list(groups)
    scores = None
    if len(data) > PREFIX_BYTES and len(texts) > 2:
        texts, scores = _prune(s, scorer, groups, prefix, heads, texts)
    elif (
        len(texts) > 2
        and any(groups[t][0][0].kind == "multi" for t in texts)
        and sum(len(t) for t in texts) >= BOUNDED_MIN_CHARS
    ):
        # short input with a multi-byte reading (CJK): the single-byte readings are usually hopeless
        # and their bound says so; among single-byte readings alone the bound is too loose on short
        # input to skip any, and a second call would cost more than it saves
        texts, scores = _score_bounded(s, scorer, groups, data, texts)
    if scores is None:
        # (the declared reading is tried in as many languages as a short text: it is the one reading
        # whose loss must not come from the unigram step missing its language)
        k = top_languages(sum(len(t) for t in texts))
        ks = [max(k, TOP_LANGUAGES_SHORT) if _is_declared(s, groups[t]) else k for t in texts]
        scores = scorer.score_many(texts, [_languages_of(groups[t]) for t in texts], languages=ks)
    ranked = []
    # the marks of the readings that have letters (the others pay none), in one pass
    lettered = [text for text, ls in zip(texts, scores, strict=True) if ls.letters]
    marks_of = dict(zip(lettered, _marks_of(lettered, uniform, glue), strict=True))
    boosted = priors.customary(s.tld)  # priors.tld_prior for every reading, the TLD parsed once
    given = " given ." + s.tld if s.tld else ""
    for text, ls in zip(texts, scores, strict=True):
        members = groups[text]
        declared = _is_declared(s, members)
        if s.prior:  # identical decodings: the one the caller's prior favours names the group ...
            members = sorted(members, key=lambda m: -s.prior.get(m[0].name, 0.0))
        if declared:  # ... unless the file declares one of them
            members = sorted(members, key=lambda m: m[0].name != s.declared)
        info, valid_ev = members[0]  # survivors are in registry (preference) order
        prior = priors.base_prior(info.name) + (priors.TLD_BOOST if info.name in boosted else 0.0)
        evs = [Evidence("validity", _single_byte_detail(s.total, info) if valid_ev is None else valid_ev)]
        if ls.language is not None:
            evs.append(
                Evidence(
                    "language",
                    f"{basis} read as {ls.language}: {ls.known_share:.0%} of {ls.letters:,} letters among "
                    f"its frequent characters, log-likelihood {ls.loglik:.1f} nats",
                    ls.loglik,
                )
            )
        evs.append(Evidence("prior", f"prior log-odds of {info.name}{given}", prior))
        if len(members) > 1:
            same = ", ".join(m[0].name for m in members[1:])
            evs.append(Evidence("validity", f"decodes the sample identically to: {same}"))
        given_prior = _caller_logp(s, members)
        if given_prior:
            prior += given_prior
            evs.append(Evidence("prior", f"the caller's prior log-odds of {info.name}", given_prior))
        if declared:
            prior += DECLARATION_LOGP
            evs.append(
                Evidence(
                    "declaration", f"the input declares {info.name}; all its bytes decode", DECLARATION_LOGP
                )
            )
        marks, glued = marks_of.get(text, (0, 0))
        unpaired = _unpaired_marks(text) if uniform and ls.letters else 0
        signs = text.count(_PLACEHOLDER_SIGN) if ls.letters else 0
        # the text-mark priors, each a count times its price, in the order their evidence is reported
        for count, logp, what in (
            (signs, PLACEHOLDER_SIGN_LOGP, "placeholder currency signs (\u00a4)"),
            (marks, IN_WORD_ASCII_MARK_LOGP, "ASCII marks such as [ ] { } inside words"),
            (unpaired, UNPAIRED_MARK_LOGP, "unpaired brackets or signs such as \u00a2 \u00ac"),
            (glued, GLUED_LETTER_LOGP, "letters glued to digits"),
        ):
            if count:
                prior += logp * count
                evs.append(Evidence("prior", f"{count} {what}", logp * count))
        if ls.language is not None and not _serves(members, ls.language):
            prior += UNSERVED_LANGUAGE_LOGP
            evs.append(
                Evidence(
                    "prior",
                    f"reads as {ls.language}, a language {info.name} was not made for",
                    UNSERVED_LANGUAGE_LOGP,
                )
            )
        errors = s.partial.get(info.name)
        if errors:
            evs.append(Evidence("invalid", _errors_detail(errors), float(len(errors))))
            prior += PARTIAL_ERROR_LOGP * len(errors)
        ranked.append((ls.loglik + prior, info, ls.language, tuple(evs), ls))
    ranked.sort(key=lambda r: -r[0])
    return ranked


def _glued_bytes(data: bytes) -> bool:
    """Whether ``data`` has a non-ASCII byte next to an ASCII digit: by the compiled ``glued_bytes`` when
    it is active, else :func:`_glued_bytes_reference`."""
    compiled = _compiled("glued_bytes")
    return _glued_bytes_reference(data) if compiled is None else compiled(data)


def _glued_bytes_reference(data: bytes) -> bool:
    """:func:`_glued_bytes` by one byte translation and two substring tests (see :data:`_GLUE_CLASSES`)."""
    classes = data.translate(_GLUE_CLASSES)
    return b"0\x80" in classes or b"\x800" in classes


def _marks_of(texts: list[str], uniform: bool, glue: bool) -> list[tuple[int, int]]:
    """:func:`_text_marks` of each reading: in one call of the compiled ``text_marks`` when it is active
    (and there is something to count)."""
    if not (uniform or glue):
        return [(0, 0)] * len(texts)
    compiled = _compiled("text_marks")
    if compiled is None:
        return [_text_marks(text, uniform, glue) for text in texts]
    return compiled(texts, uniform, glue)


def _text_marks(text: str, uniform: bool, glue: bool) -> tuple[int, int]:
    """(rare ASCII marks inside words, counted only when EBCDIC readings compete (``uniform``); letters
    glued to digits, looked for only when the bytes have a non-ASCII byte next to a digit (``glue``))
    in a reading: :data:`IN_WORD_ASCII_MARK_LOGP`, :data:`GLUED_LETTER_LOGP`."""
    return (
        len(_IN_WORD_ASCII_MARK.findall(text)) if uniform else 0,
        _glued_letters(text) if glue else 0,
    )


def _unpaired_marks(text: str) -> int:
    """Square brackets without a partner (the difference of their counts) plus each "¢" and "¬"
    (:data:`UNPAIRED_MARK_LOGP`, counted only when EBCDIC readings compete)."""
    return abs(text.count("[") - text.count("]")) + text.count("\u00a2") + text.count("\u00ac")


def _marks_logp(texts: Iterable[str], uniform: bool, glue: bool) -> dict[str, float]:
    """The log-odds :func:`_text_marks`, :func:`_unpaired_marks` and the placeholder signs add to each
    distinct reading of ``texts`` (the pruning passes add it too, so that a reading they keep or drop is
    judged as the final ranking judges it)."""
    logp = {
        text: PLACEHOLDER_SIGN_LOGP * text.count(_PLACEHOLDER_SIGN)
        + (UNPAIRED_MARK_LOGP * _unpaired_marks(text) if uniform else 0.0)
        for text in texts
    }
    if uniform or glue:
        distinct = list(logp)
        for text, (marks, glued) in zip(distinct, _marks_of(distinct, uniform, glue), strict=True):
            logp[text] += IN_WORD_ASCII_MARK_LOGP * marks + GLUED_LETTER_LOGP * glued
    return logp


def _glued_letters(text: str) -> int:
    """Letters of alphabetic scripts directly before or after an ASCII digit (:data:`GLUED_LETTER_LOGP`)."""
    return sum(
        1 for ch in _GLUED.findall(text) if ch.isalpha() and ch not in _GLUED_OK and not _CJK_LETTER.match(ch)
    )


def _serves(members: list[_Survivor], language: str) -> bool:
    """True when some encoding of a group of identical readings serves ``language``: a Western page
    (not in ``SERVES``: every language it writes is its own) or a national one made for it."""
    return any(language in SERVES.get(info.name, (language,)) for info, _ in members)


def _prune(
    s: _State,
    scorer: Scorer,
    groups: dict[str, list[_Survivor]],
    prefix: bytes,
    multi_heads: dict[str, str],
    texts: list[str],
) -> tuple[list[str], list[LanguageScore] | None]:
    """Drop decodings already :data:`PRUNE_MARGIN` nats behind the best on the first bytes.

    Sequential testing: a reading that loses by e^-30 on the first 512 bytes will not recover, so it
    is not worth scoring over the rest of the sample (Shift_JIS text has a dozen such code pages).
    The multi-byte readings and the :data:`PRUNE_FIRST` single-byte ones with the best upper bound
    (:meth:`Scorer.upper_bounds`, from the prefix's byte histogram) are scored first; the other
    single-byte readings only when their bound can still reach the margin. A skipped reading is one
    that full scoring of the prefix would have dropped too, so the result is the same, at a fraction
    of the cost when one reading is far ahead (CJK text, where a dozen code pages read junk).

    The readings likely to be the only one kept (the multi-byte ones, or the single-byte one with the
    best bound when there is no multi-byte one) are fully scored in the same call; when one of them is
    indeed the only one kept, its score is returned and the final scoring needs no call of its own
    (the numbers are the same: a text's score does not depend on the texts scored with it).
    """
    names = [groups[t][0][0] for t in texts]
    keys = [_languages_of(groups[t]) for t in texts]
    # a single-byte decoding has one character per byte: its prefix is a slice of the full decoding
    bytewise = [info.kind in ("single", "ebcdic") for info in names]
    heads = [
        t[: len(prefix)] if single else multi_heads[info.name]
        for t, info, single in zip(texts, names, bytewise, strict=True)
    ]
    prior = _reading_priors(s, groups, names, texts, heads, prefix)
    single_idx = [i for i, single in enumerate(bytewise) if single]
    bound, first = _bound_first(scorer, names, keys, prior, prefix)
    # the readings likely to be the only one kept, fully scored in the same call (as the final scoring
    # would score each alone): every multi-byte one, or the single-byte one with the best bound
    multi = [i for i, single in enumerate(bytewise) if not single]
    guesses = multi or [max(single_idx, key=lambda i: bound[i])]
    totals: dict[int, float] = {}
    full = _score_heads(
        scorer, first, heads, keys, prior, totals, tuple((texts[i], keys[i]) for i in guesses)
    )
    best = max(totals.values())
    later = [i for i in single_idx if i not in totals and bound[i] >= best - PRUNE_MARGIN - _BOUND_SLACK]
    if later:
        _score_heads(scorer, later, heads, keys, prior, totals)
        best = max(totals.values())
    kept = [i for i in range(len(texts)) if totals.get(i, -math.inf) >= best - PRUNE_MARGIN]
    final = [full[guesses.index(kept[0])]] if len(kept) == 1 and kept[0] in guesses else None
    return [texts[i] for i in kept], final


def _reading_priors(
    s: _State,
    groups: dict[str, list[_Survivor]],
    names: list[EncodingInfo],
    texts: list[str],
    scored: list[str],
    data: bytes,
) -> list[float]:
    """The log-odds the final ranking adds to each reading (base prior, TLD, declaration, marks in
    ``scored``, the part of each reading of ``data`` being scored), for the pruning passes: a reading
    they keep or drop is judged as the final ranking judges it."""
    uniform = not {i.kind for i in names} <= _ASCII_COMPATIBLE_KINDS
    glue = _glued_bytes(data)
    boosted = priors.customary(s.tld)  # priors.tld_prior for every reading, the TLD parsed once
    signs = any(_PLACEHOLDER_SIGN in t for t in scored)
    if s.declared is None and not s.prior and not (uniform or glue or signs):  # (the terms below: all 0.0)
        return [priors.base_prior(i.name) + (priors.TLD_BOOST if i.name in boosted else 0.0) for i in names]
    # the marks of each distinct reading once: many code pages read the first bytes alike
    marks = _marks_logp(scored, uniform, glue)
    return [
        priors.base_prior(i.name)
        + (priors.TLD_BOOST if i.name in boosted else 0.0)
        + _declared_logp(s, groups[t])
        + _caller_logp(s, groups[t])
        + marks[m]
        for i, t, m in zip(names, texts, scored, strict=True)
    ]


#: what score_many is told about a reading's encoding: its name, or the names of all the encodings that
#: decode the sample to the same text (it then tries the languages any of them can write)
LanguagesKey = str | tuple[str, ...]


def _caller_logp(s: _State, members: list[_Survivor]) -> float:
    """The caller's prior of a group of identical readings: the largest of its members' (the text is
    the same, and the favoured member names the group)."""
    return max((s.prior.get(info.name, 0.0) for info, _ in members), default=0.0) if s.prior else 0.0


def _languages_of(members: list[_Survivor]) -> LanguagesKey:
    """The encodings of a group of identical decodings, for :meth:`Scorer.score_many`.

    Identical text is the same reading whichever member is the true encoding, so it is judged in the
    languages any member can write: cp437 and cp861 decode "flatskrár" alike, and only cp861 can
    write Icelandic (the group, named cp437 by registry order, was scored as Latvian and lost to
    cp775's "flatskrĀr").
    """
    if len(members) == 1:
        return members[0][0].name
    return tuple(info.name for info, _ in members)


def _score_bounded(
    s: _State,
    scorer: Scorer,
    groups: dict[str, list[_Survivor]],
    data: bytes,
    texts: list[str],
) -> tuple[list[str], list[LanguageScore]]:
    """Final scoring of input too short for the pruning pass, without the readings more than
    :data:`PRUNE_MARGIN` behind the best: they are not reported (as the pruning pass drops them from
    longer input), and those whose upper bound already says so are not even scored.

    The multi-byte readings and the best-bounded single-byte ones are scored first; the others only
    when their upper bound (:meth:`Scorer.upper_bounds`) can still reach the margin. Every reading
    scored is scored in as many languages as if all had been scored together, so the scores, and the
    best candidates, are the same as without the bound. Up to :data:`BOUNDED_ONE_CALL_CHARS`
    characters every reading is scored in one call instead, and the same ones are kept.
    """
    names = [groups[t][0][0] for t in texts]
    keys = [_languages_of(groups[t]) for t in texts]
    total = sum(len(t) for t in texts)
    k = top_languages(total)
    prior = _reading_priors(s, groups, names, texts, texts, data)
    if total <= BOUNDED_ONE_CALL_CHARS:
        # every reading in one call: a reading the bound would have skipped is scored but not kept
        # (its score is at most its bound plus _BOUND_SLACK, so more than the margin behind the best),
        # and the kept ones get the same scores whatever is scored with them (the languages tried are
        # fixed per text, k by the total): the call saved costs more than the extra text
        results = dict(enumerate(scorer.score_many(texts, keys, languages=k)))
        best = max(results[i].loglik + prior[i] for i in results)
        kept = [i for i in sorted(results) if results[i].loglik + prior[i] >= best - PRUNE_MARGIN]
        return [texts[i] for i in kept], [results[i] for i in kept]
    bound, first = _bound_first(scorer, names, keys, prior, data)
    results = {}

    def score(which: list[int]) -> float:
        got = scorer.score_many([texts[i] for i in which], [keys[i] for i in which], languages=k)
        results.update(zip(which, got, strict=True))
        return max(results[i].loglik + prior[i] for i in results)

    best = score(first)
    later = [
        i for i in range(len(texts)) if i not in results and bound[i] >= best - PRUNE_MARGIN - _BOUND_SLACK
    ]
    if later:
        score(later)
    # (every reading within the margin was scored: its bound is at least its score; so the set kept
    # does not depend on which readings were scored first)
    best = max(results[i].loglik + prior[i] for i in results)
    kept = [i for i in sorted(results) if results[i].loglik + prior[i] >= best - PRUNE_MARGIN]
    return [texts[i] for i in kept], [results[i] for i in kept]


def _bound_first(
    scorer: Scorer, names: list[EncodingInfo], keys: list[LanguagesKey], prior: list[float], data: bytes
) -> tuple[list[float], list[int]]:
    """Upper bound + prior of each single-byte reading (+inf for the others) of ``data``, and the readings
    to score first: the multi-byte ones and the :data:`PRUNE_FIRST` best-bounded single-byte ones, or when
    there is no multi-byte one, the single-byte ones whose bound is within :data:`PRUNE_BOUND_EXCESS` per
    byte of the best (those the bound would not skip)."""
    single_idx = [i for i, info in enumerate(names) if info.kind in ("single", "ebcdic")]
    bound = [math.inf] * len(names)
    if single_idx:
        ubs = scorer.upper_bound_list([keys[i] for i in single_idx], _byte_counts(data))
        for i, ub in zip(single_idx, ubs, strict=True):
            bound[i] = ub + prior[i]
    first = [i for i, info in enumerate(names) if info.kind not in ("single", "ebcdic")]
    if first:  # multi-byte readings: usually one of them is far ahead (CJK text)
        first += sorted(single_idx, key=lambda i: -bound[i])[:PRUNE_FIRST]
    elif single_idx:
        likely = max(bound[i] for i in single_idx) - PRUNE_BOUND_EXCESS * len(data) - PRUNE_MARGIN
        first = [i for i in single_idx if bound[i] >= likely]
    return bound, first


def _score_heads(
    scorer: Scorer,
    which: list[int],
    heads: list[str],
    keys: list[LanguagesKey],
    prior: list[float],
    totals: dict[int, float],
    full: tuple[tuple[str, LanguagesKey], ...] = (),
) -> list[LanguageScore]:
    """Score ``heads[i]`` for ``i`` in ``which`` (identical heads with the same languages once) in
    :data:`PRUNE_LANGUAGES` languages; store log-likelihood + prior in ``totals``. Each ``full``
    (text, encoding) is scored in the same call as the final scoring would score it alone; returns
    their scores.
    """
    unique: dict[tuple[str, str], int] = {}
    for i in which:
        unique.setdefault((heads[i], keys[i]), len(unique))
    texts = [h for h, _ in unique] + [t for t, _ in full]
    encs: list[LanguagesKey] = [n for _, n in unique] + [e for _, e in full]
    langs = [PRUNE_LANGUAGES] * len(unique) + [top_languages(len(t)) for t, _ in full]
    scores = scorer.score_many(texts, encs, languages=langs)
    for i in which:
        totals[i] = scores[unique[(heads[i], keys[i])]].loglik + prior[i]
    return scores[len(unique) :]


def _shortlist(
    scorer: Scorer, survivors: list[_Survivor], hist: Histogram, given: Mapping[str, float] | None = None
) -> list[_Survivor]:
    """Keep every multi-byte survivor and the single-byte ones with a competitive unigram score (and
    those the caller's prior ``given`` favours: they are the readings it exists to weigh).

    The unigram score needs no decoding: it is computed from the byte histogram and each code page's
    table, for all single-byte candidates and all languages in one vectorised step.
    """
    singles = [info.name for info, _ in survivors if info.kind == "single"]
    if len(singles) <= SHORTLIST_MIN:
        return survivors
    low, high = sum(hist[:128]), sum(hist[128:])  # ASCII and non-ASCII bytes
    if low > SHORTLIST_ASCII_RATIO * high:
        scale = SHORTLIST_ASCII_RATIO * high / low
        hist = array("d", [count * scale for count in hist[:128]] + [float(count) for count in hist[128:]])
    keep = set(ALWAYS_SCORED).union(name for name, logp in (given or {}).items() if logp > 0)
    if scorer.pages is not None:
        flags = scorer.pages.shortlist(hist, scorer.code_page_rows(singles), SHORTLIST_MARGIN, SHORTLIST_MIN)
        keep.update(itertools.compress(singles, flags))
    else:
        keep.update(_shortlisted_reference(scorer, singles, hist))
    return [(info, ev) for info, ev in survivors if info.kind != "single" or info.name in keep]


def _shortlisted_reference(scorer: Scorer, singles: list[str], hist: Histogram) -> set[str]:
    """The single-byte code pages of ``singles`` that :func:`_shortlist` keeps on their unigram scores
    (the reference of the compiled ``CodePages.shortlist``): per script of their best language, those
    within :data:`SHORTLIST_MARGIN` of the script's best, and the first :data:`SHORTLIST_MIN` distinct
    readings of the byte values present."""
    import numpy as np

    hist = np.asarray(hist)
    scores, scripts = scorer.histogram_scores(singles, hist)
    # code pages that read every byte value present alike count once towards SHORTLIST_MIN: otherwise
    # five Latin pages reading 0xF8 as "ø" filled the quota and windows-1257's "ų" never got scored
    present = np.flatnonzero(hist[128:]) + 128
    rows = np.array(scorer.code_page_rows(singles), np.intp)
    table = scorer.reference.sb_gids[rows[:, None], present[None, :]]
    width = table.shape[1] * table.itemsize  # each code page's reading, as bytes: one slice each
    flat = table.tobytes()
    readings = [flat[i : i + width] for i in range(0, len(flat), width)] if width else [b""] * len(singles)
    # per script, best first (stable): within SHORTLIST_MARGIN of the script's best, or among its first
    # SHORTLIST_MIN distinct readings (a few dozen code pages: a Python loop, not a dozen NumPy calls)
    score_of, script_of = scores.tolist(), scripts.tolist()
    order = np.lexsort((-scores, scripts)).tolist()  # (stable: registry order within ties)
    # the margin in the scores' own precision (float32), as the array arithmetic it replaces did it
    as_score, margin = scores.dtype.type, scores.dtype.type(SHORTLIST_MARGIN)
    keep: set[str] = set()
    seen: set[bytes] = set()
    script, floor = None, 0.0
    for i in order:
        if script_of[i] != script:  # the first of a script is its best
            script, floor, seen = script_of[i], float(as_score(score_of[i]) - margin), set()
        if score_of[i] >= floor or (readings[i] not in seen and len(seen) < SHORTLIST_MIN):
            keep.add(singles[i])
        seen.add(readings[i])
    return keep
