"""repair's compiled scoring: the same doubles as the pure-Python ``_word_score`` and ``_letter_totals``.

Compared with ``==`` (no tolerance): per word and language, ``_CompiledScoring.scores`` against
``_word_score`` on every word of the repair corpus (inputs, which are mostly mojibake, and originals) and
on generated words from the model's own characters plus unseen ones; the letter totals (words scored
afresh and memo words with generated scores, primary languages tried in order); ``words_and_costs`` (the
text split, symbol costs, case flips, script mixes and folds) against ``_words_and_costs`` on every corpus
text and generated text; then ``score`` and ``repair`` as a whole with the compiled model against the same
model with the kernels taken out.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.repair import _score, repair

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
    model = compiled_model()
    assert model.compiled is not None
    assert model.compiled.words_and_costs(text) == _score._words_and_costs(text), text


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
