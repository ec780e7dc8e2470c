"""Each proof heuristic of mojifix.repair._search / _score, on the case it exists for."""

from __future__ import annotations

import json
from pathlib import Path

from mojifix.repair import Step, repair
from mojifix.repair._codecs import decode_lossy
from mojifix.repair._score import score
from mojifix.repair._search import LONG_TEXT_CHARS

_CASES = json.loads(Path(__file__).with_name("cases.json").read_text(encoding="utf-8"))
_SENTENCES = [c["original"] for c in _CASES if c["category"] == "negative" and len(c["original"]) > 30]


def _long_text() -> str:
    text = " ".join(_SENTENCES)
    while len(text) <= LONG_TEXT_CHARS + 500:
        text += " " + text
    return text


def test_long_text_is_searched_on_a_sample_and_proven_on_the_whole() -> None:
    text = _long_text()
    assert repair(text).text == text
    garbled = decode_lossy(text.encode(), "windows-1252")
    result = repair(garbled)
    assert result.text == text and result.plan == (Step("windows-1252", "UTF-8"),)


def test_long_mixed_text_falls_back_to_runs() -> None:
    text = _long_text()
    half = len(text) // 2
    cut = text.index(" ", half)
    mixed = text[:cut] + decode_lossy(text[cut:].encode(), "iso-8859-1")
    result = repair(mixed)
    assert result.text == text
    assert [s.scope for s in result.plan] == ["runs"]


def test_utf8_wins_near_ties_with_legacy_cjk() -> None:
    """Â© is © (UTF-8 C2 A9 read as Latin-1), not 息 (GBK C2 A9 read as Latin-1)."""
    assert repair("Â© 2024 ACME").text == "© 2024 ACME"


def test_legacy_cjk_decoding_is_the_innermost_layer() -> None:
    """Catalan with ’ once became 's̴a ... dͤmbits' via Shift_JIS then GBK->UTF-8: never again."""
    text = "no s’ha pogut crear la llista d’àmbits"
    assert repair(text).text == text


def test_hyphen_separates_words_of_different_languages() -> None:
    for text in ("nierozpoznany ihex-тип w pliku", "Angol (Dél-Afrika)", "Dél-Gloucestershire"):
        assert repair(text).text == text


def test_symbol_costs() -> None:
    # a non-ASCII symbol right after a letter is mojibake-like, unless real text puts it there
    assert score("BraziliÃ«").total < score("BraziliÃ »").total
    assert score("word”").total > score("word¤").total
    # private use characters (user-defined rows of Shift_JIS/Big5) are as bad as U+FFFD
    assert score("\ue3da").total <= score("⨯").total
    # exotic symbols cost more than the Latin-1 ones mojibake is made of
    assert score("⨯").total < score("©").total


def test_short_ambiguous_strings_stay() -> None:
    for text in ("é›…", "Ã", "Â", "ÿ", "Ω", "中"):
        result = repair(text)
        assert not result.changed and result.plan == ()
