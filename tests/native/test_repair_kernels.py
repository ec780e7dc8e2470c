"""repair's compiled scoring: the same doubles as the pure-Python ``_word_score`` and ``_letter_totals``.

Compared with ``==`` (no tolerance): per word and language, ``_CompiledScoring.scores`` against
``_word_score`` on every word of the repair corpus (inputs, which are mostly mojibake, and originals) and
on generated words from the model's own characters plus unseen ones; the letter totals (words scored
afresh and memo words with generated scores, primary languages tried in order); ``words_and_costs`` (the
text split, symbol costs, case flips, script mixes and folds) against ``_words_and_costs``, and
``text_score`` (both kernels in one call) against the reference's composition, on every corpus text and
generated text; then ``score`` and ``repair`` as a whole with the compiled model against the same
model with the kernels taken out.

repair's compiled steps: the mask of ``multi_byte_steps_meet`` against each multi-byte step's
``StepAlphabet.meets``; the candidates of ``_search._candidates`` (``byte_steps_expand`` for the
single-byte steps, then ``cjk_steps_expand`` for the multi-byte steps that mask keeps) against the
reference ``_search._expand``: the same ``_Candidate`` objects (text and plan) in the same order, two
layers deep, on every corpus text and on generated text and mojibake; then whole ``Repaired`` results
with the C calls and without them.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.repair import _score, _search, repair
from mojifix.repair._codecs import SINGLE_BYTE, decode_lossy

CASES = json.loads(
    (Path(__file__).resolve().parents[1] / "repair" / "cases.json").read_text(encoding="utf-8")
)


def compiled_model() -> _score._Model:
    model = _score._model()
    assert model.compiled is not None, "the kernels are active, so the model must use them"
    return model


def check_word(word: str) -> None:
    """Every language, those that list none of the word's letters too (their unseen terms)."""
    model = compiled_model()
    assert model.compiled is not None
    compiled = model.compiled.word_scores(word, True)
    python = {lang: _score._word_score(word, model.languages[lang]) for lang in model.languages}
    assert compiled == python, word
    listing = {lang for ch in word for lang in model.char_languages.get(ch, ())}
    assert model.compiled.word_scores(word, False).keys() == listing


def test_every_corpus_word(kernels: ModuleType) -> None:
    words = {
        w for case in CASES for text in (case["input"], case["original"]) for w in text.casefold().split()
    }
    assert len(words) > 1000
    for word in sorted(words):
        check_word(word)


#: characters of words: Latin with diacritics, Cyrillic, kana, Han, Hangul, and anything else
WORD_CHARS = st.one_of(
    st.sampled_from("abcdeéèàçßøåžšćłğışțăâêîôûœæ ’'"),
    st.characters(min_codepoint=0x400, max_codepoint=0x4FF),
    st.characters(min_codepoint=0x3040, max_codepoint=0x30FF),
    st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),
    st.characters(codec="utf-8"),
)


@settings(max_examples=300, deadline=None)
@given(word=st.text(alphabet=WORD_CHARS, max_size=16))
def test_generated_words(kernels: ModuleType, word: str) -> None:
    check_word(word)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=WORD_CHARS, min_size=1, max_size=8), max_size=12))
def test_letter_totals(kernels: ModuleType, words: list[str]) -> None:
    """The best primary's total and the language, words scored afresh, then again from each one's memo."""
    model = compiled_model()
    assert model.compiled is not None
    python_memo: dict[str, dict[str, float]] = {}
    compiled_memo: dict[str, object] = {}
    expected = _score._letter_totals(words, python_memo, model)
    assert model.compiled.letter_totals(words, compiled_memo) == expected
    assert compiled_memo.keys() == python_memo.keys()
    shuffled = words[::-1] + words[:3]
    assert model.compiled.letter_totals(shuffled, compiled_memo) == _score._letter_totals(
        shuffled, python_memo, model
    )


def test_letter_totals_on_the_corpus(kernels: ModuleType) -> None:
    model = compiled_model()
    assert model.compiled is not None
    for case in CASES:
        for text in (case["input"], case["original"]):
            words = _score._words_and_costs(text)[0]
            assert model.compiled.letter_totals(words, {}) == _score._letter_totals(words, {}, model), text


def test_scores_and_repairs_equal_the_pure_path(kernels: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    model = compiled_model()
    texts = [case["input"] for case in CASES[::3]]
    with_kernel = [(_score.score(text), repair(text).text) for text in texts]
    pure = dataclasses.replace(model, compiled=None)
    monkeypatch.setattr(_score, "_model", lambda: pure)
    assert _score._model().compiled is None
    without = [(_score.score(text), repair(text).text) for text in texts]
    assert with_kernel == without


def check_words_and_costs(text: str) -> None:
    """``words_and_costs`` and ``text_score`` (the two kernels in one call, as ``score`` runs them)."""
    model = compiled_model()
    assert model.compiled is not None
    words, total = _score._words_and_costs(text)
    assert model.compiled.words_and_costs(text) == (words, total), text
    if words:
        letters, language = _score._letter_totals(words, {}, model)
        expected: tuple[float, str | None] = (total + letters, language)
    else:
        expected = (total, None)
    assert model.compiled.text_score(text, {}) == expected, text


def test_words_and_costs_on_the_corpus(kernels: ModuleType) -> None:
    texts = [text for case in CASES for text in (case["input"], case["original"])]
    for text in [*texts, "", "   ", "İSTANBUL’DA", "a\u0301b", "x\U0001d518\U0001f600y", "\ufffd\x81\ue3da"]:
        check_words_and_costs(text)


@settings(max_examples=400, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.sampled_from("aZéÃ©¤’'·-‑ \t\n”»…™\u00a0\u0301\u02c6\ufffd"),
            st.characters(min_codepoint=0x80, max_codepoint=0x4FF),
            st.characters(min_codepoint=0x2000, max_codepoint=0x2BFF),
            st.characters(min_codepoint=0x3000, max_codepoint=0x30FF),
            st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF),
            st.characters(),
        ),
        max_size=40,
    )
)
def test_words_and_costs_on_generated_text(kernels: ModuleType, text: str) -> None:
    check_words_and_costs(text)


def compiled_steps() -> _search._CompiledSteps:
    compiled = _search._compiled_steps()
    assert compiled is not None, "the kernels are active, so the search must use them"
    return compiled


def check_candidates(text: str, depth: int = 2) -> int:
    """``_candidates`` equals ``_expand`` on ``text`` and (``depth`` 2) on its first candidates' texts;
    returns how many candidates the first layer has."""
    if text.isascii():
        return 0
    expected = _search._expand(text, ())
    assert _search._candidates(text, ()) == expected, text
    if depth > 1:
        for cand in expected[:4]:
            if not cand.text.isascii():
                assert _search._candidates(cand.text, cand.plan) == _search._expand(cand.text, cand.plan)
    return len(expected)


def test_byte_steps_are_the_single_byte_prefix(kernels: ModuleType) -> None:
    compiled = compiled_steps()
    pairs = [step.encode_as for step, _, _ in _search._steps()]
    assert all(name in SINGLE_BYTE for name in pairs[: compiled.count])
    assert not any(name in SINGLE_BYTE for name in pairs[compiled.count :])
    found = compiled.expand("Caf\u00c3\u00a9 and Caf\u00c3\u00a9")
    assert found[0] == (0, 0, "Caf\u00e9 and Caf\u00e9")  # iso-8859-1 -> UTF-8, scope "all"
    assert compiled.expand("plain ASCII") == []
    # a lost byte (cp1252's undefined 0x81 in C3 81, "Á"): scope "lossy" keeps one U+FFFD for it
    lossy = compiled.expand("\u00c3\ufffdnimo, se\u00c3\u00b1or")
    assert (0, 2, "\ufffdnimo, se\u00f1or") in lossy
    garbled = decode_lossy("\u4e2d\u6587 ok".encode(), "GBK")  # UTF-8 read as GBK, no byte lost
    every = compiled.every_multi_byte
    assert compiled.expand_multi_byte(garbled, every)[0] == (0, 0, "\u4e2d\u6587 ok")  # GBK -> UTF-8
    assert compiled.expand_multi_byte(garbled, 0) == []


#: CPython's cp1252 with replacement, as ``requests`` reads a page: its five undefined bytes become U+FFFD
#: (so scope "lossy": UTF-8 ``𝒜`` F0 9D 92 9C loses 9D and leaves two orphan continuation bytes)
CPYTHON_CP1252 = "cp1252 (CPython, errors='replace')"


def read_as(data: bytes, reader: str) -> str:
    return data.decode("cp1252", "replace") if reader == CPYTHON_CP1252 else decode_lossy(data, reader)


def check_meets(text: str) -> None:
    """The compiled multi-byte steps' mask against each step's ``StepAlphabet.meets``."""
    compiled = compiled_steps()
    alphabets = [alphabet for _, _, alphabet in _search._steps()[compiled.count :]]
    expected = sum(1 << k for k, alphabet in enumerate(alphabets) if alphabet.meets(text))
    assert compiled.meets(text) == expected, text


def test_byte_steps_on_the_corpus(kernels: ModuleType) -> None:
    texts = [text for case in CASES for text in (case["input"], case["original"])]
    # a text a step gives back unchanged (€ as windows-1252 read as GBK), EF BF BD, C1 gap, yen
    extra = [
        "\u20ac",
        "\u20ac \u00e9",
        "\u00ef\u00bf\u00bd\u00ef\u00bf\u00bd",
        "a\x81b \u00c3\x81",
        "\u00a5 \\",
        "\u00c3\ufffdnimo \ufffd\u00c3\u00a9",
        "\ufffd\u00a9\ufffd",
        *(
            read_as(text.encode(), CPYTHON_CP1252)
            for text in ("\U0001d49c \u2019x\u00c1", "a\u00cd\U0001d4cd b")
        ),
    ]
    candidates = sum(check_candidates(text) for text in [*texts, *extra])
    assert candidates > 5000  # the corpus has thousands of candidate texts
    for text in [*texts, *extra]:
        check_meets(text)


#: characters of repair's inputs: Latin-1 and windows-1252 mojibake material, C1 controls, Cyrillic,
#: Greek, CJK, half-width katakana, U+FFFD and ASCII whitespace between runs
_STEP_CHARS = st.one_of(
    st.sampled_from("aZ \t\n\x0b\x0cÃÂâ€™©®¤¦¿ï½é¥\\~\x81\x8d\x8f\x90\x9d\ufffd"),
    st.characters(min_codepoint=0x80, max_codepoint=0x24F),
    st.characters(min_codepoint=0x370, max_codepoint=0x4FF),
    st.characters(min_codepoint=0x2000, max_codepoint=0x2590),
    st.characters(min_codepoint=0x3000, max_codepoint=0x30FF),
    st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),
    st.characters(min_codepoint=0xFF61, max_codepoint=0xFF9F),
    st.characters(),
)


@settings(max_examples=400, deadline=None)
@given(st.text(_STEP_CHARS, min_size=1, max_size=30))
def test_byte_steps_on_generated_text(kernels: ModuleType, text: str) -> None:
    check_candidates(text)
    check_meets(text)


@settings(max_examples=300, deadline=None)
@given(
    st.text(_STEP_CHARS.filter(lambda ch: not 0xD800 <= ord(ch) <= 0xDFFF), min_size=1, max_size=20),
    st.sampled_from(
        ["iso-8859-1", "windows-1252", "windows-1250", "KOI8-R", "cp437", "GBK", "Shift_JIS", CPYTHON_CP1252]
    ),
    st.sampled_from(["UTF-8", "GBK", "Big5", "Shift_JIS", "EUC-KR", "EUC-JP"]),
)
def test_byte_steps_on_generated_mojibake(kernels: ModuleType, text: str, reader: str, writer: str) -> None:
    """Text written in one encoding and read in another (once, then twice), as mojibake is made."""
    try:
        data = text.encode("utf-8") if writer == "UTF-8" else _search.encode_strict(text, writer)
    except _search.CodecFailure:
        data = text.encode("utf-8")
    garbled = read_as(data, reader)
    check_candidates(garbled)
    check_meets(garbled)
    check_candidates(read_as(garbled.encode("utf-8"), reader), depth=1)


def test_repairs_equal_without_the_byte_steps(kernels: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole results (text, plan, confidence, language, gain, notes, unrecoverable) on the corpus."""
    texts = [text for case in CASES for text in (case["input"], case["original"])]
    compiled_steps()
    with_kernel = [repair(text) for text in texts]
    monkeypatch.setattr(_search, "_compiled_steps", lambda: None)
    without = [repair(text) for text in texts]
    assert with_kernel == without
    assert sum(result.changed for result in with_kernel) > 1000


def test_words_and_costs_refuses_facts_made_without_costs(kernels: ModuleType) -> None:
    """A CharFacts made with no costs (as the multi-byte step test makes one) cannot price words: its
    facts' cost indexes would read past the costs it does not have."""
    facts = kernels.CharFacts(lambda ch: 0xFF << 16, (), 0, 0, 0, 0)
    with pytest.raises(ValueError, match="made with costs"):
        kernels.words_and_costs("abc déf", facts)
