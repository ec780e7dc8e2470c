"""``trust="evidence"``: when the bytes prove a page's declaration wrong, find the encoding that is right.

The browser follows a declaration (Content-Type charset, ``<meta>``, XML declaration) even when it
is wrong, and ``decode_html`` reproduces that by default. A data pipeline wants the author's text
instead. This module holds the proof rules; each returns a :class:`Proof` or ``None``, and a page is
overridden only when one of them holds. A correct declaration must never be overridden, so every rule
asks for evidence that a correctly declared page cannot plausibly produce; docs/sniffing.md gives the
false-override risk of each rule and how it was measured (benchmarks/mislabeled.py).

Rules, tried in order:

1. ``valid-utf-8``: a legacy (non-Unicode) encoding is declared, but the whole body is valid UTF-8 with
   multi-byte sequences. Legacy text is valid UTF-8 only by accident, and the accident needs every
   non-ASCII byte of the page to fall into a well-formed sequence: for single-byte text an upper-case
   accented letter followed by a symbol, each time; for CJK double-byte text a run of lead/trail
   values that happen to fit. A few sequences suffice for single-byte labels; multi-byte labels need
   more (:data:`MIN_UTF8_SEQUENCES`).
2. ``decoder-errors``: the declared decoder reports errors on a large share of the non-ASCII text
   (:data:`MIN_ERROR_SHARE`), while the detector's confident answer decodes every byte. A correctly
   declared page with a few broken bytes (a truncated upload) does not reach the share.
3. ``reads-as-other-text``: the declared decoder takes (nearly) every byte, but what it gives does not
   read as text: the detector prefers another encoding that decodes every byte, with near-certainty
   (:data:`MIN_PROOF_CONFIDENCE`) and without ambiguity, and that reading scores clearly better as
   text (:data:`MIN_TEXT_GAIN`); with no decoder error at all, the detector must also prefer it
   between the two readings alone. This catches windows-1252 over windows-1250/1253, GBK over Big5,
   Shift_JIS over EUC-JP and the like.

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
from mojifix.textcodec import is_whatwg
from mojifix.whatwg import Encoding, lookup

__all__ = ["MIN_ERROR_SHARE", "MIN_PROOF_CONFIDENCE", "MIN_UTF8_SEQUENCES", "Proof", "prove_mislabel"]

#: Rule 1: the fewest multi-byte UTF-8 sequences that prove UTF-8 under a label of this kind.
#: Chosen from the measured false-override risk (benchmarks/mislabeled.py, its correctly-declared
#: pages, a development set written for it): legacy single-byte prose almost never forms even one
#: well-formed sequence together with the rest of the page being valid; double-byte CJK text forms a
#: valid 2-byte sequence for about one character in seven, so six sequences (about 10^-5 by chance)
#: are asked for there.
MIN_UTF8_SEQUENCES = {"single": 1, "multi": 6}
#: Rule 2: decoder errors as a share of the declared reading's non-ASCII characters. A mislabel
#: errs on most characters (UTF-8 over windows-1251: every letter; Shift_JIS over EUC-JP: about half);
#: a correct declaration over a damaged page errs on a handful. One in ten sits far from both
#: (benchmarks/mislabeled.py's development pages).
MIN_ERROR_SHARE = 0.10
#: Rule 2 needs at least this many errors at all (as the declared-encoding-suspect warning does).
MIN_ERRORS = 3
#: Rules 2 and 3: the detector's confidence in the alternative, over all web encodings and between
#: the two readings alone. Near-certainty, because a false override is worse than the browser's
#: answer; set on benchmarks/mislabeled.py's development pages, where true mislabels score >= 0.999
#: and correct declarations never reach it.
MIN_PROOF_CONFIDENCE = 0.999
#: Rules 2 and 3: the other reading's non-ASCII words must score like real text (mean log-probability
#: per character under their best language, mojifix.detect's score_text). Real prose scores -2.3 to
#: -2.9 in alphabetic scripts, about -4 (Thai, Korean), -6 (Japanese) and -7.5 to -8 (Chinese); byte
#: soup read in a legacy code page scores -3.8 to -7 in an alphabetic language. Set on the
#: development pages of benchmarks/mislabeled.py and the bytes-* pages of the Chromium suite.
MIN_WORDS_SCORE: dict[str | None, float] = {
    None: -3.4,
    "th": -5.0,
    "ko": -5.5,
    "ja": -7.5,
    "zh": -9.0,
    "zh_Hant": -9.0,
}
#: Rule 3: the other reading's non-ASCII words must score this much better than the declared ones
#: (nats per character). On benchmarks/mislabeled.py's development pages true mislabels gain 0.6
#: (windows-1252 over Czech windows-1250) to 9 (UTF-8 over Greek); a correct declaration never
#: yields a confident clean alternative that gains at all.
MIN_TEXT_GAIN = 0.5
#: Rule 3 needs this many non-ASCII bytes: on fewer, no reading can be told from another for sure.
MIN_NON_ASCII_BYTES = 8

#: Declared encodings that are never overridden: deliberate choices (a security measure, a byte
#: mapping) or Unicode encodings the body cannot be read without.
_NEVER_OVERRIDDEN = frozenset({"replacement", "x-user-defined", "UTF-16LE", "UTF-16BE"})
_UNICODE = frozenset({"UTF-8", "UTF-16LE", "UTF-16BE"})
_MULTI_BYTE = frozenset({"GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR"})

#: A well-formed multi-byte UTF-8 sequence (Unicode's table 3-7: no overlong forms, no surrogates,
#: nothing above U+10FFFF), as CPython's strict decoder accepts them; shared with mojifix.sniff.api.
_UTF8_MULTI = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
#: A byte at or above 0x80; shared with mojifix.sniff.api.
_NON_ASCII = re.compile(rb"[\x80-\xff]")
_ASCII_BYTES = bytes(range(0x80))
_NON_ASCII_WORD = re.compile(r"\S*[^\x00-\x7f]\S*")


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
        if self.rule == "decoder-errors":
            return (
                f"decoding as {declared} fails on {self.details['errors']} of "
                f"{self.details['non_ascii_chars']} non-ASCII characters, while {self.encoding.name} "
                f"decodes every byte and reads as text (detector confidence {self.details['confidence']:.4f})"
            )
        return (
            f"{declared} does not read as text ({self.details['errors']} decoder errors); "
            f"{self.encoding.name} decodes every byte and reads as text, better by "
            f"{self.details['text_gain']:.2f} nats per character (detector confidence "
            f"{self.details['confidence']:.4f})"
        )


def _kind(name: str) -> str:
    return "multi" if name in _MULTI_BYTE else "single"


def _utf8_proof(body: bytes, declared: Encoding) -> Proof | None:
    """Rule 1: valid UTF-8 with enough multi-byte sequences under a legacy label."""
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


def _confident_other(body: bytes, declared: Encoding, tld: str | None) -> tuple[Encoding, float, str] | None:
    """The detector's answer when it is another web encoding, confident, unambiguous and clean.

    Returns (encoding, confidence, its reading of ``body``): the reading is decoded once, here.
    """
    detection = web_detection(body, tld)
    if detection is None or detection.verdict != "text" or detection.ambiguous:
        return None
    best = detection.best()
    if best is None or best.confidence < MIN_PROOF_CONFIDENCE or not is_whatwg(best.encoding):
        return None
    other = lookup(best.encoding)
    if other is None or other.name == declared.name or other.name in _NEVER_OVERRIDDEN:
        return None
    text = other.decode(body, errors="replace", bom="ignore")
    if "\ufffd" in text:
        return None  # the standard's decoder does not take every byte
    return other, best.confidence, text


def _words_score(text: str) -> tuple[str | None, float]:
    """``mojifix.detect.score_text`` over the words of ``text`` that hold a non-ASCII character.

    Markup and ASCII words read alike in every ASCII-compatible encoding and would dilute the
    difference; the words with non-ASCII characters are where two readings differ.
    """
    score_text = import_module("mojifix.detect").score_text
    language, score = score_text(" ".join(_NON_ASCII_WORD.findall(text)))
    return language, float(score)


def _reads_as_text(language: str | None, score: float) -> bool:
    """The reading's non-ASCII words score like real text in their best language."""
    if language is None:
        return False
    return score >= MIN_WORDS_SCORE.get(language, MIN_WORDS_SCORE[None])


def prove_mislabel(
    body: bytes, declared: Encoding, errors: int, tld: str | None, text: str | None = None
) -> Proof | None:
    """The proof that ``declared`` is wrong for ``body``, or ``None`` (then the declaration stands).

    ``errors``: decoder errors of the declared decoding (U+FFFD it produced for invalid bytes).
    ``tld``: the page's top-level domain, a hint for the detector. ``text``: the declared decoding
    when the caller has it (the standard's decoder, errors -> U+FFFD, no BOM); else decoded here.
    """
    if declared.name in _NEVER_OVERRIDDEN:
        return None
    if declared.name not in _UNICODE:
        proof = _utf8_proof(body, declared)
        if proof is not None:
            return proof
    # Bytes >= 0x80 (what is left once the ASCII bytes are deleted).
    non_ascii_bytes = len(body.translate(None, _ASCII_BYTES))
    if errors < MIN_ERRORS and non_ascii_bytes < MIN_NON_ASCII_BYTES:
        return None  # neither rule 2 nor rule 3 can hold: spare the detector (most declared pages)
    found = _confident_other(body, declared, tld)
    if found is None:
        return None
    other, confidence, other_text = found
    language, other_score = _words_score(other_text)
    if not _reads_as_text(language, other_score):
        return None
    if text is None:
        text = declared.decode(body, errors="replace", bom="ignore")
    if errors >= MIN_ERRORS:
        non_ascii_chars = len(text) - len(text.encode("ascii", "ignore"))  # C speed, not a per-char loop
        if errors >= MIN_ERROR_SHARE * non_ascii_chars:
            return Proof(
                "decoder-errors",
                other,
                {
                    "errors": errors,
                    "non_ascii_chars": non_ascii_chars,
                    "confidence": confidence,
                    "language": language,
                },
                other_text,
            )
    # Rule 3: few or no decoder errors; the declared reading must lose as text, clearly.
    if non_ascii_bytes < MIN_NON_ASCII_BYTES:
        return None
    gain = other_score - _words_score(text)[1]
    if gain < MIN_TEXT_GAIN:
        return None
    details: dict[str, Any] = {
        "confidence": confidence,
        "text_gain": round(gain, 3),
        "errors": errors,
        "language": language,
    }
    if not errors:
        # Between the two readings alone (the detector drops a reading with decoder errors, so this
        # comparison means something only when the declared one has none).
        pair = web_detection(body, tld, [declared.name, other.name])
        best = pair.best() if pair is not None else None
        if pair is None or pair.ambiguous or best is None:
            return None
        if best.encoding != other.name or best.confidence < MIN_PROOF_CONFIDENCE:
            return None
        details["pair_confidence"] = best.confidence
    return Proof("reads-as-other-text", other, details, other_text)
