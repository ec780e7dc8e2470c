"""How plausible a text is as human writing: the yardstick repair proves its changes with.

``score(text)`` is a log10 likelihood (higher = more plausible) from a character model of 35 languages
built from wordfreq's word lists (see ``_train.py``). Repair only changes text when the repaired version
scores far higher than the input, so the score only has to rank "text" above "mojibake", not be a
calibrated probability.

The score adds, over the text:

* letters: split into words (runs of letters, marks, apostrophes, hyphens); each word is scored under
  one language with an interpolated bigram model; the whole text picks the one *primary* language that
  fits best, and a word may use another language at a fixed price (``SWITCH_COST``), so a Chinese name
  in an English sentence is fine but a word-by-word cocktail of languages is not;
* case: an upper-case letter right after a lower-case one inside a word (``CafÃ©``, ``Ð¿Ñ€``) costs
  ``CASE_FLIP_COST``: mojibake makes that pattern constantly, real words rarely (``iPhone``, ``McDonald``);
* everything else: a fixed cost per character class (``_symbol_cost``); common punctuation is cheap,
  rare symbols such as ``©``, ``¤``, ``¦`` (frequent in mojibake) expensive, controls and private-use
  characters very expensive.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from mojifix import _native

__all__ = ["Score", "score", "score_text"]

#: log10 probability of a character a language's table does not list. The tables keep each language's
#: 7,000 most frequent characters, whose rarest are around 1e-6..1e-7, so "unknown" sits just below.
UNSEEN_CHAR = -7.0

#: weight of the bigram estimate against the unigram one (classic Jelinek-Mercer interpolation; 0.7
#: because the pairs are trained on 30k distinct words, so the bigram estimates are solid but sparse).
BIGRAM_WEIGHT = 0.7

_UNSEEN_P = 10**UNSEEN_CHAR
_UNIGRAM_SHARE = 1 - BIGRAM_WEIGHT
#: back-off probability of a word ending after any letter (words average ~5-10 letters, so ~0.1).
_BOUNDARY_P = 0.1

#: price of scoring one word in a language other than the text's primary one (log10). Three orders of
#: magnitude: a foreign word has to be much better explained by its own language to be allowed to switch.
SWITCH_COST = 3.0

#: price of a lower->upper case change inside a word, the signature of UTF-8 read as Latin-1.
CASE_FLIP_COST = 3.0

#: price of two adjacent letters of different scripts inside one word (``Gr廻e``, ``Ð¿Ñ``, ``ä¸­æ``).
#: Real words almost never do this; Han + kana (Japanese) and Han + Hangul count as one script.
SCRIPT_MIX_COST = 4.0

#: per-character costs (log10) of non-letters, by how often they occur in real text.
COMMON_PUNCT_COST = -1.5
RARE_SYMBOL_COST = -4.5  # symbols of the blocks in _KNOWN_SYMBOL_BLOCKS
EXOTIC_SYMBOL_COST = (
    -7.0
)  # every other symbol: as unlikely as an unknown letter (``⨯``, ``˦`` from bad decodes)
CONTROL_COST = -7.0
PRIVATE_USE_COST = -10.0  # "õn" read as Shift_JIS is U+E3DA: a wrong decode, not an exotic character
REPLACEMENT_COST = -10.0  # U+FFFD: proof of lost bytes; a "repair" that only yields these is no repair

#: non-ASCII punctuation common enough in running text to cost no more than ASCII punctuation.
_COMMON_PUNCT = frozenset(
    "“”‘’«»‹›–—…·•€£¥°§¡¿„‚"  # Western typography
    "、。，．・：；？！「」『』（）【】《》〈〉ー〜～\u3000"  # CJK punctuation and the ideographic space
    "،؛؟"  # Arabic comma, semicolon, question mark
)

#: joiners kept inside words (the hyphen is not one: "ihex-тип" and "Dél-Afrika" are two words, each in
#: its own language)
_WORD_JOINERS = frozenset("'’")

#: symbol blocks real text uses (Latin-1 signs, general punctuation, currency, letterlike, arrows, box
#: drawing, misc symbols and dingbats, emoji): RARE_SYMBOL_COST; all other symbols EXOTIC_SYMBOL_COST.
_KNOWN_SYMBOL_BLOCKS: tuple[tuple[int, int], ...] = (
    (0x00A0, 0x00FF), (0x2000, 0x21FF), (0x2500, 0x259F), (0x25A0, 0x27BF), (0x1F000, 0x1FAFF),
)  # fmt: skip

#: spacing modifier letters (ˆ ˇ ˘ ˙ ˚ ˛ ˜ ˝, ˦...): category Lm, but symbols in practice, and a frequent
#: product of wrong decodings, so they are scored as symbols, not letters.
_MODIFIER_LETTERS = range(0x02B0, 0x0300)

#: price of a non-ASCII symbol right after a letter, unless real text puts it there (_AFTER_LETTER_OK):
#: word-final mojibake ("Ã«", "Ã©", "È›") ends in such symbols; real words end in ” ’ » … ™ ® m² etc.
LETTER_THEN_SYMBOL_COST = 2.0
_AFTER_LETTER_OK = frozenset("”’»›…™®©²³¹·\u00a0\u202f\u2009–—、。，．：；？！」』）】》〉")

#: non-ASCII punctuation that legitimately sits between two letters (Catalan l·l, abbreviations).
_INWORD_PUNCT = frozenset("·’‑")

#: price of a non-ASCII symbol squeezed between letters with no space (``SÃ£o``, ``Ä°stanbul``): the
#: trail bytes of UTF-8 read as windows-1252 are often symbols (£ ° © ¶ ¤...), real text rarely does it.
SYMBOL_IN_WORD_COST = 3.0


@dataclass(frozen=True, slots=True)
class _Language:
    chars: dict[str, float]  # char -> P(char)
    pairs: dict[str, float]  # "ab" -> P(b | a); " " marks a word boundary


@dataclass(frozen=True, slots=True)
class _Model:
    languages: dict[str, _Language]
    char_languages: dict[str, tuple[str, ...]]  # char -> languages listing it
    #: the compiled scoring, every language's tables hashed in C, or None for the pure-Python path
    compiled: _CompiledScoring | None = None


@dataclass(frozen=True, slots=True)
class _CompiledScoring:
    """The compiled twins (``mojifix._kernels``) of ``_words_and_costs`` and ``_letter_totals``, their
    tables bound, of both in one call (``text_score``: what ``score`` does with them), and of
    ``_word_score`` in every language at once (what ``_letter_totals`` runs per word).
    The compiled memo holds the kernel's own entries, not ``{language: score}`` dicts."""

    words_and_costs: Callable[[str], tuple[list[str], float]]
    letter_totals: Callable[[list[str], dict[str, Any]], tuple[float, str | None]]
    word_scores: Callable[[str, bool], dict[str, float]]
    text_score: Callable[[str, dict[str, Any]], tuple[float, str | None]]

    def scores(self, word: str, langs: Iterable[str]) -> dict[str, float]:
        """``{lang: _word_score(word, that language)}``, computed in C (the same doubles)."""
        every = self.word_scores(word, True)
        return {lang: every[lang] for lang in langs}


@dataclass(frozen=True, slots=True)
class Score:
    """A text's plausibility: total log10 likelihood, and the primary language that explains it best."""

    total: float
    language: str | None


@cache
def _model() -> _Model:
    """Load the generated model once (read-only data; cached because it is immutable)."""
    raw = json.loads(resources.files(__package__).joinpath("_langmodel.json").read_text(encoding="utf-8"))
    quant = float(raw["_meta"]["quant"])
    languages: dict[str, _Language] = {}
    owners: dict[str, list[str]] = {}
    for lang, table in raw["langs"].items():
        chars = {c: 10 ** (v / quant) for c, v in table["chars"].items()}
        pairs = {p: 10 ** (v / quant) for p, v in table["pairs"].items()}
        languages[lang] = _Language(chars, pairs)
        for c in chars:
            owners.setdefault(c, []).append(lang)
    char_languages = {c: tuple(v) for c, v in owners.items()}
    kernels = _native.kernels()
    compiled = None
    if kernels is not None:
        names = tuple(sorted(languages))  # primaries are tried in sorted order
        ordered = [languages[name] for name in names]
        scoring = kernels.ScoringModel(
            names, tuple(t.chars for t in ordered), tuple(t.pairs for t in ordered),
            _UNSEEN_P, _BOUNDARY_P, _UNIGRAM_SHARE, BIGRAM_WEIGHT, UNSEEN_CHAR, SWITCH_COST,
        )  # fmt: skip
        facts = kernels.CharFacts(
            _char_facts, _SYMBOL_COSTS, LETTER_THEN_SYMBOL_COST, SYMBOL_IN_WORD_COST, CASE_FLIP_COST,
            SCRIPT_MIX_COST,
        )  # fmt: skip
        compiled = _CompiledScoring(
            functools.partial(_call_with, kernels.words_and_costs, facts),
            functools.partial(_call_with, kernels.letter_totals, scoring),
            lambda word, every: kernels.word_scores(word, scoring, every),
            lambda text, memo: kernels.text_score(text, facts, memo, scoring),
        )
    return _Model(languages, char_languages, compiled)


def _call_with(kernel: Callable[..., Any], bound: object, *args: Any) -> Any:
    """``kernel(*args, bound)``: a compiled function with its model object as the last argument."""
    return kernel(*args, bound)


def _word_score(word: str, lang: _Language) -> float:
    """log10 likelihood of a lower-cased word (with its boundaries) under one language."""
    total = 0.0
    prev = " "
    chars, pairs = lang.chars, lang.pairs
    for ch in (*word, " "):
        uni = _UNIGRAM_SHARE * (chars.get(ch, _UNSEEN_P) if ch != " " else _BOUNDARY_P)
        pair = pairs.get(prev + ch)
        total += math.log10(uni if pair is None else BIGRAM_WEIGHT * pair + uni)
        prev = ch
    return total


def _symbol_cost(ch: str) -> float:
    """Cost of one non-letter character (see module docstring)."""
    if ch in " \t\r\n":
        return 0.0
    if ch.isascii():
        return 0.0 if ch.isdigit() else COMMON_PUNCT_COST
    if ch == "\ufffd":
        return REPLACEMENT_COST
    if ch in _COMMON_PUNCT:
        return COMMON_PUNCT_COST
    cat = unicodedata.category(ch)
    if cat == "Co":  # private use: what Shift_JIS/Big5 decoders give for user-defined rows; never text
        return PRIVATE_USE_COST
    if cat in ("Cc", "Cf", "Cn", "Cs", "Zl", "Zp"):
        return CONTROL_COST
    if cat == "Nd":
        return COMMON_PUNCT_COST
    if cat == "Zs":  # NBSP and friends: real, but mojibake makes them too (UTF-8 "à" = C3 A0)
        return COMMON_PUNCT_COST
    cp = ord(ch)
    if any(lo <= cp <= hi for lo, hi in _KNOWN_SYMBOL_BLOCKS):
        return RARE_SYMBOL_COST
    return EXOTIC_SYMBOL_COST


def _is_word_char(ch: str) -> bool:
    if ch.isalpha():
        return ord(ch) not in _MODIFIER_LETTERS
    return unicodedata.category(ch).startswith("M")


def _split(text: str) -> tuple[list[str], float]:
    """Words (original case) and the summed cost of everything that is not a word."""
    words: list[str] = []
    other = 0.0
    current: list[str] = []
    after_letter = False  # the previous character ended a word
    pending = 0.0  # cost of non-ASCII symbols since the last letter, in case a letter follows
    for ch in text:
        if _is_word_char(ch) or (current and ch in _WORD_JOINERS):
            if pending:  # letter, symbol(s), letter: "SÃ£o", "Ä°stanbul", "Ã©tÃ©"
                other -= SYMBOL_IN_WORD_COST
                pending = 0.0
            current.append(ch)
            after_letter = True
            continue
        if current:
            words.append("".join(current))
            current = []
            if not ch.isascii() and not ch.isspace() and ch not in _AFTER_LETTER_OK:
                other -= LETTER_THEN_SYMBOL_COST  # "BraziliÃ«", "EdineÈ›", "Ã©" at a word's end
        other += _symbol_cost(ch)
        if after_letter and not ch.isascii() and not ch.isspace() and ch not in _INWORD_PUNCT:
            pending = 1.0
        else:
            after_letter = False
            pending = 0.0
    if current:
        words.append("".join(current))
    return words, other


def _case_flips(word: str) -> int:
    return sum(1 for a, b in itertools.pairwise(word) if a.islower() and b.isupper())


#: (first code point of a block, script bucket); a letter's script is the last entry starting <= it.
_SCRIPT_BLOCKS: tuple[tuple[int, str], ...] = (
    (0x0000, "latin"), (0x0370, "greek"), (0x0400, "cyrillic"), (0x0530, "armenian"),
    (0x0590, "hebrew"), (0x0600, "arabic"), (0x0700, "other"), (0x0750, "arabic"), (0x0780, "other"),
    (0x0900, "indic"), (0x0E00, "thai"), (0x0E80, "other"), (0x1100, "hangul"), (0x1200, "other"),
    (0x1E00, "latin"), (0x1F00, "greek"), (0x2000, "other"), (0x2E80, "cjk"), (0x3130, "hangul"),
    (0x3190, "cjk"), (0xA000, "other"), (0xAC00, "hangul"), (0xD7B0, "other"), (0xF900, "cjk"),
    (0xFB00, "latin"), (0xFB1D, "hebrew"), (0xFB50, "arabic"), (0xFE00, "other"), (0xFF21, "latin"),
    (0xFF61, "cjk"), (0xFFA0, "hangul"), (0xFFE0, "other"), (0x20000, "cjk"), (0x31350, "other"),
)  # fmt: skip
_BLOCK_STARTS = tuple(start for start, _ in _SCRIPT_BLOCKS)


def _script(ch: str) -> str:
    return _SCRIPT_BLOCKS[bisect_right(_BLOCK_STARTS, ord(ch)) - 1][1]


def _script_mixes(word: str) -> int:
    """Adjacent letters of different scripts; combining marks belong to the letter before them."""
    scripts = [_script(ch) for ch in word if ch.isalpha()]
    return sum(1 for a, b in itertools.pairwise(scripts) if a != b)


def _fold(word: str) -> str:
    """A word as wordfreq writes it: casefolded (German ß -> ss, Greek ς -> σ), Turkish İ as plain i, the
    apostrophe as ASCII '. No NFC on purpose: a wrong decoding that yields a lone combining mark
    ("Zerst\u0326rte" from "ZerstÃ¶rte" read back as macintosh) must pay for it as an unseen character,
    not merge into a common letter (ț)."""
    return word.casefold().replace("i\u0307", "i").replace("’", "'")


def _words_and_costs(text: str) -> tuple[list[str], float]:
    """The folded words of ``text``, and the cost of everything but their letters' likelihood: symbols
    (``_split``), case flips and script mixes inside words (the compiled twin: ``words_and_costs``)."""
    words, total = _split(text)
    for word in words:
        total -= CASE_FLIP_COST * _case_flips(word)
        if not word.isascii():
            total -= SCRIPT_MIX_COST * _script_mixes(word)
    return [_fold(word) for word in words], total


#: the symbol costs ``_symbol_cost`` gives, as ``_char_facts`` names them by index.
_SYMBOL_COSTS: tuple[float, ...] = (
    0.0, COMMON_PUNCT_COST, RARE_SYMBOL_COST, EXOTIC_SYMBOL_COST, CONTROL_COST, PRIVATE_USE_COST,
    REPLACEMENT_COST,
)  # fmt: skip
_SCRIPTS: tuple[str, ...] = tuple(dict.fromkeys(name for _, name in _SCRIPT_BLOCKS))

#: ``_char_facts`` bits (the compiled twin's FACT_* names)
FACT_WORD, FACT_JOINER, FACT_AFTER_LETTER_OK, FACT_INWORD_PUNCT = 0x01, 0x02, 0x04, 0x08
FACT_SPACE, FACT_ALPHA, FACT_LOWER, FACT_UPPER = 0x10, 0x20, 0x40, 0x80


def _char_facts(ch: str) -> int:
    """What one character is for ``_split`` and the word rules, packed for the compiled twin (which asks
    once per code point): the FACT_* bits, the script's index in _SCRIPTS (bits 8-15), the index of its
    ``_symbol_cost`` in _SYMBOL_COSTS (bits 16-23)."""
    bits = (
        (FACT_WORD if _is_word_char(ch) else 0)
        | (FACT_JOINER if ch in _WORD_JOINERS else 0)
        | (FACT_AFTER_LETTER_OK if ch in _AFTER_LETTER_OK else 0)
        | (FACT_INWORD_PUNCT if ch in _INWORD_PUNCT else 0)
        | (FACT_SPACE if ch.isspace() else 0)
        | (FACT_ALPHA if ch.isalpha() else 0)
        | (FACT_LOWER if ch.islower() else 0)
        | (FACT_UPPER if ch.isupper() else 0)
    )
    return bits | _SCRIPTS.index(_script(ch)) << 8 | _SYMBOL_COSTS.index(_symbol_cost(ch)) << 16


def score(text: str, memo: dict[str, Any] | None = None) -> Score:
    """Plausibility of ``text`` as human writing (log10 likelihood; higher is more plausible).

    ``memo`` (word -> its per-language scores, in the active implementation's own form) may be shared by
    calls scoring related texts, e.g. every candidate of one repair: they share most of their words.
    """
    model = _model()
    if memo is None:
        memo = {}
    if model.compiled is not None:
        return Score(*model.compiled.text_score(text, memo))
    words, total = _words_and_costs(text)
    if not words:
        return Score(total, None)
    best_total, best_lang = _letter_totals(words, memo, model)
    return Score(total + best_total, best_lang)


def _letter_totals(
    words: list[str], memo: dict[str, dict[str, float]], model: _Model
) -> tuple[float, str | None]:
    """The letters' total under the primary language that explains the folded ``words`` best, and that
    language (compiled twin: ``letter_totals``). Word scores come from ``memo`` or are added to it."""
    # per word: (scores by language, score in a language that knows none of its letters, best foreign score)
    per_word: list[tuple[dict[str, float], float, float]] = []
    candidates: set[str] = set()
    for low in words:
        scores = memo.get(low)
        if scores is None:
            langs: set[str] = set()
            for ch in low:
                langs.update(model.char_languages.get(ch, ()))
            scores = {lang: _word_score(low, model.languages[lang]) for lang in langs}
            memo[low] = scores
        floor = UNSEEN_CHAR * len(low) - 1.0
        per_word.append((scores, floor, max(scores.values(), default=floor) - SWITCH_COST))
        candidates.update(scores)
    best_lang: str | None = None
    best_total = -math.inf
    primaries: list[str | None] = sorted(candidates) or [None]
    for primary, acc in zip(primaries, _primary_totals(per_word, primaries), strict=True):
        if acc > best_total:
            best_total, best_lang = acc, primary
    return best_total, best_lang


def _primary_totals(
    per_word: list[tuple[dict[str, float], float, float]], primaries: list[str | None]
) -> list[float]:
    """For each candidate primary language (None: none), the text's letters' total: per word, its score in
    that language (its floor if the language lacks its letters) or the best foreign one, whichever is higher.
    """
    totals: list[float] = []
    for primary in primaries:
        acc = 0.0
        for scores, floor, foreign in per_word:
            own = scores.get(primary, floor) if primary else floor
            acc += own if own > foreign else foreign
        totals.append(acc)
    return totals


def score_text(text: str) -> tuple[str | None, float]:
    """``(language, log10 likelihood)``: the same interface as ``mojifix.detect.score_text``."""
    result = score(text)
    return result.language, result.total
