"""The plausibility score ranks real text above its mojibake, in every script repair produces."""

from __future__ import annotations

import pytest

from mojifix.repair._codecs import decode_lossy
from mojifix.repair._score import score, score_text

TEXTS = [
    "Le café est déjà prêt.",
    "Schöne Grüße aus Köln",
    "Tiếng Việt có dấu",
    "Привет, как дела?",
    "Καλημέρα σας",
    "İstanbul'da akşam",
    "中文信息处理",
    "繁體中文的資訊",
    "日本語のテキスト",
    "한국어 문자",
    "مرحبا بكم",
    "שלום עולם",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("reader", ["windows-1252", "iso-8859-1", "windows-1251", "macintosh", "GBK"])
def test_text_beats_its_utf8_mojibake(text: str, reader: str) -> None:
    garbled = decode_lossy(text.encode(), reader)
    assert score(text).total > score(garbled).total + 4


def test_language_is_reported() -> None:
    assert score_text("Привет, как дела?")[0] in {"ru", "uk", "bg"}
    assert score_text("日本語のテキストです")[0] == "ja"
    assert score_text("한국어 문자")[0] == "ko"
    assert score_text("1234 !!")[0] is None


def test_casefolding_matches_wordfreq() -> None:
    """wordfreq folds ß to ss and ς to σ: the scorer must too, or German/Greek words look rare."""
    assert score("Straße").total == score("Strasse").total
    assert score("πώς").total == score("πώσ").total
    assert score("İstanbul").total == score("istanbul").total


def test_symbols_inside_words_cost_more_than_between_words() -> None:
    assert score("SÃ£o").total < score("SÃ £o").total
    assert score("col·lecció").total > score("col¤lecció").total


def test_memo_does_not_change_results() -> None:
    memo: dict[str, dict[str, float]] = {}
    for text in TEXTS:
        assert score(text, memo) == score(text)
