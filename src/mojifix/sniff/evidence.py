"""``trust="evidence"``: when the bytes prove a page's declaration wrong, find the encoding that is right.

The browser follows a declaration (Content-Type charset, ``<meta>``, XML declaration) even when it
is wrong, and ``decode_html`` reproduces that by default. A data pipeline wants the author's text
instead. This module holds the proof rules; each returns a :class:`Proof` or ``None``, and a page is
overridden only when one of them holds. A correct declaration must never be overridden, so every rule
asks for evidence that a correctly declared page cannot plausibly produce; docs/sniffing.md gives the
false-override risk of each rule and how it was measured (benchmarks/mislabeled.py and
benchmarks/mislabeled_real.py).

What is proven is a text, not a label: single-byte encodings that decode the body to the same text are
one reading, and a reading that differs from another close reading in text is not proven. For rules 3
and 4 the reading needs two judges: the detector names it first (the whole page, with its priors);
for a single-byte reading its non-ASCII words must also beat those of every other clean single-byte
reading by :data:`MIN_RIVAL_NATS` (byte i is character i there, so the readings compare word for
word; each reading is scored in the languages its encodings serve, as the detector scores it, and a
reading with a mark of the wrong code page where the chosen one has none is no rival); a CJK reading,
whose characters are two bytes, needs the detector near-certain (:data:`MIN_PROOF_CONFIDENCE`) and
unambiguous instead.

Rules, tried in order:

1. ``valid-utf-8``: a legacy (non-Unicode) encoding is declared, but the whole body is valid UTF-8 with
   multi-byte sequences. Legacy text is valid UTF-8 only by accident, and the accident needs every
   non-ASCII byte of the page to fall into a well-formed sequence: for single-byte text an upper-case
   accented letter followed by a symbol, each time; for CJK double-byte text a run of lead/trail
   values that happen to fit. A few sequences suffice for single-byte labels; multi-byte labels need
   more (:data:`MIN_UTF8_SEQUENCES`).
2. ``iso-2022-jp-escapes``: a 7-bit body switches into JIS X 0208 with ISO-2022-JP's escape
   sequences under another label, and ISO-2022-JP reads it as Japanese. Escape bytes have no place in
   HTML text, and these sequences belong to no other web encoding.
3. ``decoder-errors``: the declared decoder reports errors on a large share of the non-ASCII text
   (:data:`MIN_ERROR_SHARE`), while the proven reading decodes every byte. A correctly declared page
   with a few broken bytes (a truncated upload) does not reach the share.
4. ``reads-as-other-text``: the declared decoder takes (nearly) every byte, but what it gives does not
   read as text: for a single-byte label its non-ASCII words lose to the proven reading's by
   :data:`MIN_DECLARED_LOSS` nats; for a CJK label or reading the detector's near-certain reading scores
   better by :data:`MIN_TEXT_GAIN` per character and wins between the two readings alone. This
   catches windows-1252 over windows-1250/1253, GBK over Big5, Shift_JIS over EUC-JP and the like.

Never overridden: a BOM, an explicit ``override=``, the ``replacement`` and ``x-user-defined``
encodings (deliberate choices), UTF-16 declarations (the body would be unreadable either way), and
undeclared pages (``fallback=`` rules them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from mojifix.errors import MojifixError
from mojifix.sniff.tld_defaults import tld_of
from mojifix.textcodec import is_whatwg
from mojifix.whatwg import Encoding, lookup
from mojifix.whatwg._tables import ENCODINGS

__all__ = [
    "MIN_DECLARED_LOSS",
    "MIN_ERROR_SHARE",
    "MIN_PROOF_CONFIDENCE",
    "MIN_RIVAL_NATS",
    "MIN_UTF8_SEQUENCES",
    "LazyDetection",
    "Proof",
    "prove_mislabel",
]

#: ``valid-utf-8``: the fewest multi-byte UTF-8 sequences that prove UTF-8 under a label of this kind.
#: Chosen from the measured false-override risk (benchmarks/mislabeled.py, its correctly-declared
#: pages, a development set written for it): legacy single-byte prose almost never forms even one
#: well-formed sequence together with the rest of the page being valid; double-byte CJK text forms a
#: valid 2-byte sequence for about one character in seven, so six sequences (about 10^-5 by chance)
#: are asked for there.
MIN_UTF8_SEQUENCES = {"single": 1, "multi": 6}
#: ``decoder-errors``: decoder errors as a share of the declared reading's non-ASCII characters. A mislabel
#: errs on most characters (UTF-8 over windows-1251: every letter; Shift_JIS over EUC-JP: about half);
#: a correct declaration over a damaged page errs on a handful. One in ten sits far from both
#: (benchmarks/mislabeled.py's development pages).
MIN_ERROR_SHARE = 0.10
#: ``decoder-errors`` needs at least this many errors at all (as the declared-encoding-suspect warning does).
MIN_ERRORS = 3
#: ``decoder-errors`` and ``reads-as-other-text``, CJK readings: the detector's confidence in the alternative,
#: over all web encodings and between the two readings alone. Near-certainty, because a false override is
#: worse than the browser's answer; set on benchmarks/mislabeled.py's development pages, where true mislabels
#: score >= 0.999 and correct declarations never reach it.
MIN_PROOF_CONFIDENCE = 0.999
#: ``decoder-errors`` and ``reads-as-other-text``: the proven reading's non-ASCII words must score like real
#: text (mean log-probability per character under their best language, mojifix.detect's score_text). Real
#: prose scores -2.3 to -2.9 in alphabetic scripts, about -4 (Thai, Korean), -6 (Japanese) and -7.5 to -8
#: (Chinese); byte soup read in a legacy code page scores -3.8 to -7 in an alphabetic language. Set on the
#: development pages of benchmarks/mislabeled.py and the bytes-* pages of the Chromium suite; the alphabetic
#: floor was then lowered from -3.4 to -3.6 on the two development sets of benchmarks/mislabeled_real.py,
#: where true readings of diacritic-dense text score down to -3.5 (Welsh ISO-8859-14, Czech and Polish
#: pangrams) and no reading that was not the true text passed the rival margin and the detector's agreement at
#: any floor down to -4.0.
MIN_WORDS_SCORE: dict[str | None, float] = {
    None: -3.6,
    "th": -5.0,
    "ko": -5.5,
    "ja": -7.5,
    "zh": -9.0,
    "zh_Hant": -9.0,
}
#: ``reads-as-other-text``, CJK: the other reading's non-ASCII words must score this much better than the
#: declared ones (nats per character). On benchmarks/mislabeled.py's development pages true mislabels gain 0.6
#: (windows-1252 over Czech windows-1250) to 9 (UTF-8 over Greek); a correct declaration never yields a
#: confident clean alternative that gains at all.
MIN_TEXT_GAIN = 0.5
#: ``reads-as-other-text`` needs this many non-ASCII bytes. One: since the single-byte readings are compared
#: by what their words are worth (the margins below), a page with few non-ASCII letters simply has small
#: margins; a count floor (8, before the margins) only lost short Croatian and Lithuanian pages.
MIN_NON_ASCII_BYTES = 1
#: ``decoder-errors`` and ``reads-as-other-text``, single-byte readings: the chosen reading's non-ASCII words
#: must beat those of every other clean single-byte reading that gives a different text by this many nats
#: (total log-likelihood, each reading in its own best language; e^11 = 60,000:1). Set in aggregate on the
#: development sets of benchmarks/mislabeled_real.py (uchardet's prose, build/detect-devcat, and with
#: ``--lines`` the one-line pages cut from both): the largest margin a chosen reading that was NOT the true
#: text had there is 10.6 (a Bulgarian x-mac-cyrillic line whose quotation marks windows-1251 reads as
#: letters); Maltese ISO-8859-3 read as windows-1252 reached 13.5 on one line, and is stopped instead by
#: the symbols that reading puts inside words (``_SYMBOL_IN_WORD``). 10 was tried first: 2 wrong
#: overrides of 19,607 one-line mislabels; 14 gave 0 too but lost 4% of the one-line recoveries.
#: Kept at 11 when readings came to be scored in the languages their encodings serve and readings with marks
#: of the wrong code page stopped counting as rivals (issue 16's second pass): re-measured on the same sets in
#: aggregate, 0 wrong overrides and 0 false ones at 11, so it was not moved.
MIN_RIVAL_NATS = 11.0
#: ``reads-as-other-text``, a windows-1252 label and a single-byte reading: the declared reading's non-ASCII
#: words must lose to the chosen reading's by this many nats. Same development sets: right windows-1252
#: labels never lost by 5 to a reading that also passed the rival margin (0 false overrides over 13,394
#: right one-line pages and 842 documents), while true readings of mislabeled documents win by 0.2 to
#: thousands, below 5 on two of the 334 with a single-byte label. 5 nats = 150:1.
#: Not re-tuned in the second pass (same sets, 0 false overrides).
MIN_DECLARED_LOSS = 5.0

#: Single-byte readings are compared on at most this many bytes of their non-ASCII words (the first ones).
#: A bound on the work (every single-byte reading is scored), not a tuned number: no page of the
#: development sets reaches it (the largest has 21,709 such bytes), so no figure depends on it, and on a
#: longer page the margins of real mislabels over the first 32 KB of words are in the thousands of nats,
#: while the work without the bound grows with the page times the number of single-byte encodings.
MAX_SCORED_WORD_BYTES = 32_768

#: ``iso-2022-jp-escapes``: the fewest ISO-2022-JP switches into JIS X 0208 (``ESC $ @``, ``ESC $ B``) that
#: prove ISO-2022-JP under another label. An escape byte has no place in HTML text, and these three-byte
#: sequences occur in no other web encoding, so one is already proof of intent; the reading must still decode
#: every byte and read as Japanese.
MIN_ISO_2022_JP_SWITCHES = 1

#: ``reads-as-other-text`` may overturn these single-byte labels on the words alone (MIN_DECLARED_LOSS):
#: windows-1252, which the labels ISO-8859-1 and US-ASCII name too, the default that servers, editors and
#: HTML itself put on pages that never chose. Any other single-byte label (windows-1251, KOI8-R,
#: ISO-8859-3) was chosen, and is overturned only as a CJK label is, with the detector near-certain
#: overall and between the two readings alone: on one-line pages cut from both development sets the
#: words alone overturned right windows-1251 labels (quotation marks that x-mac-cyrillic reads as
#: letters, 5.8 to 10.6 nats) and a right ISO-8859-3 label (Maltese), while every mislabel recovered on
#: the words had a windows-1252 label.
_DEFAULT_LABEL = frozenset({"windows-1252"})

#: Declared encodings that are never overridden: deliberate choices (a security measure, a byte
#: mapping) or Unicode encodings the body cannot be read without.
_NEVER_OVERRIDDEN = frozenset({"replacement", "x-user-defined", "UTF-16LE", "UTF-16BE"})
_UNICODE = frozenset({"UTF-8", "UTF-16LE", "UTF-16BE"})
_MULTI_BYTE = frozenset({"GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR"})

#: A well-formed multi-byte UTF-8 sequence (Unicode's table 3-7: no overlong forms, no surrogates,
#: nothing above U+10FFFF), as CPython's strict decoder accepts them.
_UTF8_MULTI = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
_ASCII_BYTES = bytes(range(0x80))
_NON_ASCII_WORD = re.compile(r"\S*[^\x00-\x7f]\S*")
#: A word holding a byte >= 0x80, cut at ASCII spaces and controls and at the brackets of markup.
_WORD_BYTES = re.compile(rb"[^\x00-\x20<>]*[\x80-\xff][^\x00-\x20<>]*")
#: The standard's single-byte encodings, in its order (one character per byte).
_SINGLE_BYTE = tuple(name for name, group in ENCODINGS if group == "Legacy single-byte encodings")
_SINGLE_BYTE_SET = frozenset(_SINGLE_BYTE)
#: Encodings the language model knows under another name: ISO-8859-8-I is ISO-8859-8's characters in
#: logical order, so it writes the same languages.
_SCORED_AS = {"ISO-8859-8-I": "ISO-8859-8"}
#: ISO-2022-JP's switch into JIS X 0208 (its two double-byte sets), ``ESC $ @`` or ``ESC $ B``.
_ISO_2022_JP_SWITCH = re.compile(rb"\x1b\$[@B]")
#: A symbol, a currency sign, "other" punctuation (``¿``, ``§``, but not the apostrophes and acute
#: accents used as one, quotation marks, dashes, the soft hyphen, the middle dot, ``ª``, ``º`` and ``µ``
#: that real words hold) or a C1 control between two letters of the
#: alphabetic scripts: the classic mark of a single-byte reading in the wrong code page (``tag±ha`` for
#: Maltese ``tagħha``, ``Franåi¿a``). No true single-byte reading of the development sets' documents has
#: one (installed files do, rarely: quoted mojibake, decorated names). It turns a chosen reading down, and
#: a rival that has one where the chosen reading has none stops counting as a rival (:func:`_mojibake_of`),
#: which widens margins: measured on the same sets (docs/sniffing.md), 0 wrong and 0 false overrides.
_SYMBOL_IN_WORD = re.compile(
    r"(?<=[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff])"
    r"[\u0080-\u009f\u00a1-\u00a9\u00ab\u00ac\u00ae-\u00b3\u00b6\u00b8\u00b9\u00bb-\u00bf\u00d7\u00f7"
    r"\u2020-\u2022\u2030\u20ac\u2116\u2122]"
    r"(?=[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff])"
)
#: A symbol that text does not join to a letter, joined to one on either side: ``¤`` (the generic currency
#: sign), ``¶`` (the pilcrow) and ``΅`` (the spacing dialytika tonos), which windows-1253 and ISO-8859-7 put
#: where the other has a letter or a quotation mark (windows-1253's ``¶λλες`` for ISO-8859-7's ``Άλλες``,
#: its ``΅`` for ISO-8859-7's ``‘``). None of the development sets' 842 documents has one; of 2,822 non-ASCII
#: UTF-8 files installed here (/usr/share/doc, Python's packages) one does, in a quoted mojibake example.
_SYMBOL_BY_WORD = re.compile(r"[^\W\d_][\u00a4\u00b6\u0385]|[\u00a4\u00b6\u0385][^\W\d_]")
#: A C1 control character (U+0080-U+009F).
_C1_CONTROL = re.compile("[\x80-\x9f]")


@dataclass(frozen=True, slots=True)
class Proof:
    """Why the declared encoding is wrong: the rule that held, the encoding that is right, the facts.

    ``text``: the body read as ``encoding`` (the rule decoded it already; the caller need not again).
    """

    rule: str
    encoding: Encoding
    details: dict[str, Any] = field(default_factory=dict)
    text: str = field(default="", repr=False, compare=False)

    def describe(self, declared: str) -> str:
        """One sentence for people, naming the rule's evidence."""
        if self.rule == "valid-utf-8":
            return (
                f"the body is valid UTF-8 with {self.details['sequences']} multi-byte sequences, "
                f"which {declared} text does not produce"
            )
        d = self.details
        if self.rule == "iso-2022-jp-escapes":
            return (
                f"the body switches into JIS X 0208 {d['switches']} times with ISO-2022-JP escape "
                f"sequences, which {declared} text does not hold, and ISO-2022-JP reads it as Japanese"
            )
        why = []
        if "confidence" in d:
            why.append(f"detector confidence {d['confidence']:.4f}")
        if "rival" in d:
            why.append(f"{d['rival_margin']:.1f} nats better than the closest other reading, {d['rival']}")
        evidence = f" ({'; '.join(why)})" if why else ""
        if self.rule == "decoder-errors":
            return (
                f"decoding as {declared} fails on {d['errors']} of {d['non_ascii_chars']} non-ASCII "
                f"characters, while {self.encoding.name} decodes every byte and reads as text{evidence}"
            )
        if "declared_loss" in d:
            loss = f"{declared} reads the words where the two differ {d['declared_loss']:.1f} nats worse"
        else:
            loss = f"{declared} reads {d['text_gain']:.2f} nats per character worse"
        return (
            f"{declared} does not read as text ({d['errors']} decoder errors): {self.encoding.name} "
            f"decodes every byte and reads as text, and {loss}{evidence}"
        )


def _kind(name: str) -> str:
    return "multi" if name in _MULTI_BYTE else "single"


def _utf8_proof(body: bytes, declared: Encoding) -> Proof | None:
    """``valid-utf-8``: valid UTF-8 with enough multi-byte sequences under a legacy label."""
    if body.isascii():
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    sequences = len(_UTF8_MULTI.findall(body))
    if sequences < MIN_UTF8_SEQUENCES[_kind(declared.name)]:
        return None
    utf8 = lookup("utf-8")
    assert utf8 is not None
    return Proof("valid-utf-8", utf8, {"sequences": sequences}, text)


def _iso_2022_jp_proof(body: bytes, declared: Encoding) -> Proof | None:
    """``iso-2022-jp-escapes``: a 7-bit body that switches into JIS X 0208 with ISO-2022-JP's escapes."""
    if declared.name == "ISO-2022-JP" or not body.isascii():
        return None
    switches = len(_ISO_2022_JP_SWITCH.findall(body))
    if switches < MIN_ISO_2022_JP_SWITCHES:
        return None
    iso_2022_jp = lookup("iso-2022-jp")
    assert iso_2022_jp is not None
    text = iso_2022_jp.decode(body, errors="replace", bom="ignore")
    if "\ufffd" in text:
        return None
    language, score = _words_score(text)
    if language != "ja" or not _reads_as_text(language, score):
        return None
    return Proof("iso-2022-jp-escapes", iso_2022_jp, {"switches": switches, "language": language}, text)


def web_detection(body: bytes, tld: str | None, candidates: list[str] | None = None) -> Any:
    """The detector's web-domain answer, or None when it is unavailable or fails (also used by sniff.api)."""
    try:
        detect = import_module("mojifix.detect").detect
    except (ImportError, AttributeError):
        return None
    try:
        return detect(body, domain="web", tld=tld, candidates=candidates)
    except MojifixError:
        return None


class LazyDetection:
    """The detector's web-domain answer for one page, run at most once and only when asked.

    ``decode_html`` hands one to ``_suspect`` and to :func:`prove_mislabel`, so a page whose checks
    both need the detector pays for one detection, and a page none of them needs pays for none.
    """

    __slots__ = ("_body", "_done", "_result", "_url")

    def __init__(self, body: bytes, url: str | None) -> None:
        self._body, self._url = body, url
        self._done = False
        self._result: Any = None

    def get(self) -> Any:
        """The detection (``mojifix.detect``'s :class:`Detection`), or None when it is unavailable."""
        if not self._done:
            self._result = web_detection(self._body, tld_of(self._url))
            self._done = True
        return self._result


@dataclass(frozen=True, slots=True)
class _Reading:
    """One candidate decoding of the body: the encoding, its text, and how it was chosen."""

    encoding: Encoding
    text: str
    confidence: float | None = None  # the detector's, when the detector chose it
    rival_margin: float | None = None  # nats over the closest other reading, when it was compared
    rival: str | None = None
    encodings: tuple[str, ...] = ()  # every single-byte encoding that gives this text


def _detector_reading(detection: Any, declared: Encoding, body: bytes) -> _Reading | None:
    """The detector's first answer when it is another web encoding that decodes every byte.

    The reading is decoded once, here; its confidence is the detector's.
    """
    if detection is None or detection.verdict != "text":
        return None
    best = detection.best()
    if best is None or not is_whatwg(best.encoding):
        return None
    other = lookup(best.encoding)
    if other is None or other.name == declared.name or other.name in _NEVER_OVERRIDDEN:
        return None
    text = other.decode(body, errors="replace", bom="ignore")
    if "\ufffd" in text:
        return None  # the standard's decoder does not take every byte
    return _Reading(other, text, best.confidence)


def _words(body: bytes) -> bytes:
    """The words of ``body`` that hold a non-ASCII byte (runs between spaces, controls and ``<>``),
    joined by spaces: the first :data:`MAX_SCORED_WORD_BYTES` bytes of them.

    A single-byte decoder maps each byte to one character, so decoding these bytes gives exactly the
    words of that reading of the body, the same words in the same places for every single-byte
    reading: two readings compare word by word.
    """
    words = []
    total = 0
    for match in _WORD_BYTES.finditer(body):
        words.append(match.group())
        total += len(words[-1])
        if total >= MAX_SCORED_WORD_BYTES:
            break
    return b" ".join(words)


def _nats(words: str, encodings: tuple[str, ...] | None = None) -> float:
    """Total log-likelihood (nats) of a reading's non-ASCII words, in its best language.

    Readings of the same bytes have the same words at the same places, so their totals compare
    directly: the words they share score alike in one language, and the difference is what the words
    they read apart are worth, each reading scored in the language it reads as as a whole (a word is not
    rescored alone, where ``tamaņo`` would pass as Latvian).

    ``encodings``: the encodings that give this reading; its best language is then one of those they
    serve (``mojifix.detect``'s table, the rule the detector itself reads by). Scored in any language,
    ISO-8859-10's reading of a Spanish ISO-8859-15 page (``Cataluņa``, ``Ī/m2``: it has no ñ and no €) came
    within 0.1 nat of the true one as Spanish and took the words' vote; in the languages ISO-8859-10
    serves it is no text. None: every language.
    """
    if not words:
        return 0.0
    return float(import_module("mojifix.detect.scoring").get_scorer().score(words, encodings).loglik)


def _single_byte_groups(body: bytes, declared: Encoding) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The single-byte encodings that give the declared reading of ``body``, and those of every other
    distinct clean reading, one tuple of names per reading (the names the language model knows).

    Encodings that give the same text for these bytes (windows-1250 and ISO-8859-2 over text that uses
    none of the bytes where they differ) are one reading: the text is what matters, not the label; one
    that gives the declared text is the declared reading. A reading with C1 control characters is no
    reading: the ISO-8859 decoders give them for the bytes 0x80-0x9F, which the windows code pages use
    for letters and punctuation (``L’\x9cuf`` for ``L’œuf``), and no text on the web holds them. Two
    single-byte readings are equal, and clean, exactly when their decoders agree, and are defined, on the
    byte values present: those are decoded alone, once per encoding, not the whole body.
    """
    present = bytes(sorted(frozenset(body.translate(None, _ASCII_BYTES))))
    declared_table = (
        declared.decode(present, errors="replace", bom="ignore")
        if declared.name in _SINGLE_BYTE_SET
        else None
    )
    declared_group = [declared.name]
    groups: dict[str, list[str]] = {}
    for name in _SINGLE_BYTE:
        enc = lookup(name)
        assert enc is not None
        table = enc.decode(present, errors="replace", bom="ignore")
        if table == declared_table:
            declared_group.append(name)
        elif "\ufffd" not in table and not _C1_CONTROL.search(table):
            groups.setdefault(table, []).append(name)
    return _scored_names(declared_group), [_scored_names(names) for names in groups.values()]


def _scored_names(names: list[str]) -> tuple[str, ...]:
    """``names`` as the language model knows them (:data:`_SCORED_AS`), in order, each once."""
    return tuple(dict.fromkeys(_SCORED_AS.get(name, name) for name in names))


def _single_byte_readings(
    body: bytes, declared: Encoding, words: bytes
) -> list[tuple[Encoding, str, tuple[str, ...]]]:
    """Every distinct clean single-byte reading of ``body`` but the declared one: (encoding, its words,
    every encoding that gives them), the readings of :func:`_single_byte_groups`."""
    out = []
    for names in _single_byte_groups(body, declared)[1]:
        enc = lookup(names[0])
        assert enc is not None
        out.append((enc, enc.decode(words, errors="replace", bom="ignore"), names))
    return out


def _wrong_code_page_mark(text: str) -> bool:
    """Whether ``text`` has a symbol inside a word (:data:`_SYMBOL_IN_WORD`) or one joined to a word that
    text never joins to letters (:data:`_SYMBOL_BY_WORD`): the marks of a reading in the wrong code page."""
    return bool(_SYMBOL_IN_WORD.search(text) or _SYMBOL_BY_WORD.search(text))


def _mojibake_of(words: str, chosen: str) -> bool:
    """Whether the reading ``words`` bears a mark of the wrong code page (:func:`_wrong_code_page_mark`:
    ISO-8859-13's ``Pranc¾zija`` for ISO-8859-10's ``Prancūzija``) where ``chosen``, the same bytes read
    another way, bears none.

    A chosen reading with such a mark is turned down itself, so a rival with one where the chosen reading
    has none is a reading that could never be chosen: it no longer holds the margin down. ``chosen`` is
    checked for the marks before any override.
    """
    return _wrong_code_page_mark(words) and not _wrong_code_page_mark(chosen)


def _best_single_byte(body: bytes, declared: Encoding, words: bytes) -> _Reading | None:
    """The single-byte reading whose non-ASCII words read best, with its margin over the closest rival.

    Every other clean single-byte reading gives a different text (equal ones were merged) and is a
    rival, unless it bears a mark of the wrong code page where the best one bears none
    (:func:`_mojibake_of`); the margin is what the best one's words are worth over the closest rival's,
    in nats. ``text`` of the result holds the reading's words only.
    """
    readings = _single_byte_readings(body, declared, words)
    if not readings:
        return None
    totals = sorted(((_nats(text, names), i) for i, (_, text, names) in enumerate(readings)), reverse=True)
    best, best_words, best_names = readings[totals[0][1]]
    rivals = [(total, i) for total, i in totals[1:] if not _mojibake_of(readings[i][1], best_words)]
    if not rivals:
        return _Reading(best, best_words, None, float("inf"), None, best_names)
    margin = totals[0][0] - rivals[0][0]
    return _Reading(best, best_words, None, margin, readings[rivals[0][1]][0].name, best_names)


def _choose(body: bytes, declared: Encoding, detection: Any, words: bytes) -> _Reading | None:
    """The reading the bytes prove, or None.

    Two judges must agree: the detector (the whole page, with its priors) names the reading first, and
    for a single-byte reading the words must also prefer it over every other single-byte reading, by
    :data:`MIN_RIVAL_NATS`, whatever the detector's confidence (it reads with the same model). When
    the best cannot beat a rival so (ISO-8859-3 Maltese, a language the model lacks, reads about as well
    as windows-1252 as as windows-1258), the text is not proven and there is no override. A multi-byte
    (CJK) reading cannot be compared word by word (its characters are two bytes), so there the
    detector must be near-certain and unambiguous.
    """
    top = _detector_reading(detection, declared, body)
    if top is None:
        return None
    if top.encoding.name not in _SINGLE_BYTE_SET:
        certain = (top.confidence or 0.0) >= MIN_PROOF_CONFIDENCE and not detection.ambiguous
        return top if certain else None
    best = _best_single_byte(body, declared, words)
    if best is None or best.text != top.encoding.decode(words, errors="replace", bom="ignore"):
        return None  # the detector's text is not the one the words prefer
    if (best.rival_margin or 0.0) < MIN_RIVAL_NATS:
        return None  # not even when the detector is near-certain: it reads with the same model
    # The same text: name it as the detector does (its priors prefer windows-1250 to ISO-8859-2).
    return _Reading(top.encoding, top.text, top.confidence, best.rival_margin, best.rival, best.encodings)


def _score(text: str) -> tuple[str | None, float]:
    """``mojifix.detect.score_text``: (best language, mean log-likelihood per character)."""
    language, score = import_module("mojifix.detect").score_text(text)
    return language, float(score)


def _words_score(text: str) -> tuple[str | None, float]:
    """:func:`_score` over the words of ``text`` that hold a non-ASCII character.

    Markup and ASCII words read alike in every ASCII-compatible encoding and would dilute the
    difference; the words with non-ASCII characters are where two readings differ.
    """
    return _score(" ".join(_NON_ASCII_WORD.findall(text)))


def _reads_as_text(language: str | None, score: float) -> bool:
    """The reading's non-ASCII words score like real text in their best language."""
    if language is None:
        return False
    return score >= MIN_WORDS_SCORE.get(language, MIN_WORDS_SCORE[None])


def prove_mislabel(
    body: bytes,
    declared: Encoding,
    errors: int,
    tld: str | None,
    text: str | None = None,
    detection: LazyDetection | None = None,
) -> Proof | None:
    """The proof that ``declared`` is wrong for ``body``, or ``None`` (then the declaration stands).

    ``errors``: decoder errors of the declared decoding (U+FFFD it produced for invalid bytes).
    ``tld``: the page's top-level domain, a hint for the detector. ``text``: the declared decoding
    when the caller has it (the standard's decoder, errors -> U+FFFD, no BOM); else decoded here.
    ``detection``: the page's detection when the caller made one (it is run here otherwise).
    """
    if declared.name in _NEVER_OVERRIDDEN:
        return None
    if declared.name not in _UNICODE:
        proof = _utf8_proof(body, declared)
        if proof is not None:
            return proof
    if b"\x1b" in body:
        proof = _iso_2022_jp_proof(body, declared)
        if proof is not None:
            return proof
    # Bytes >= 0x80 (what is left once the ASCII bytes are deleted).
    non_ascii_bytes = len(body.translate(None, _ASCII_BYTES))
    if errors < MIN_ERRORS and non_ascii_bytes < MIN_NON_ASCII_BYTES:
        return None  # neither decoder-errors nor reads-as-other-text can hold: spare the detector
    if not errors and declared.name in _UNICODE:
        return None  # clean UTF-8 is UTF-8: the detector itself would answer UTF-8 (most declared pages)
    found = web_detection(body, tld) if detection is None else detection.get()
    if text is None:
        text = declared.decode(body, errors="replace", bom="ignore")
    words = _words(body)
    chosen = _choose(body, declared, found, words)
    if chosen is None:
        return None
    single_byte = chosen.encoding.name in _SINGLE_BYTE_SET
    chosen_words = chosen.encoding.decode(words, errors="replace", bom="ignore") if single_byte else None
    language, other_score = _score(chosen_words) if chosen_words is not None else _words_score(chosen.text)
    if not _reads_as_text(language, other_score):
        return None
    if chosen_words is not None and _wrong_code_page_mark(chosen_words):
        return None  # a mark of the wrong code page: this reading is itself mojibake
    details: dict[str, Any] = {"errors": errors, "language": language}
    if chosen.confidence is not None:
        details["confidence"] = chosen.confidence
    if chosen.rival is not None:
        details["rival"] = chosen.rival
        details["rival_margin"] = round(chosen.rival_margin or 0.0, 1)
    if errors >= MIN_ERRORS:
        non_ascii_chars = len(text) - len(text.encode("ascii", "ignore"))  # C speed, not a per-char loop
        if errors >= MIN_ERROR_SHARE * non_ascii_chars:
            details["non_ascii_chars"] = non_ascii_chars
            return Proof("decoder-errors", chosen.encoding, details, chosen.text)
    # reads-as-other-text: few or no decoder errors; the declared reading must lose as text, clearly.
    if non_ascii_bytes < MIN_NON_ASCII_BYTES:
        return None
    if declared.name in _DEFAULT_LABEL and chosen_words is not None:
        # Word by word: what the declaration gets wrong, in nats over the words the two read apart.
        declared_words = declared.decode(words, errors="replace", bom="ignore")
        declared_names = _single_byte_groups(body, declared)[0]
        loss = _nats(chosen_words, chosen.encodings) - _nats(declared_words, declared_names)
        if loss < MIN_DECLARED_LOSS:
            return None
        details["declared_loss"] = round(loss, 1)
        return Proof("reads-as-other-text", chosen.encoding, details, chosen.text)
    if (chosen.confidence or 0.0) < MIN_PROOF_CONFIDENCE:
        return None
    gain = other_score - _words_score(text)[1]
    if gain < MIN_TEXT_GAIN:
        return None
    details["text_gain"] = round(gain, 3)
    if not errors:
        # Between the two readings alone (the detector drops a reading with decoder errors, so this
        # comparison means something only when the declared one has none).
        pair = web_detection(body, tld, [declared.name, chosen.encoding.name])
        best = pair.best() if pair is not None else None
        if pair is None or pair.ambiguous or best is None:
            return None
        if best.encoding != chosen.encoding.name or best.confidence < MIN_PROOF_CONFIDENCE:
            return None
        details["pair_confidence"] = best.confidence
    return Proof("reads-as-other-text", chosen.encoding, details, chosen.text)
