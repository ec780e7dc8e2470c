"""Stage 8: the language-model scoring, and the public score_text helper."""

import pytest

from mojifix.detect import detect, score_text
from mojifix.detect.scoring import get_scorer


def test_score_text_prefers_real_text_to_mojibake():
    real = "Příliš žluťoučký kůň úpěl ďábelské ódy"
    mojibake = real.encode("cp1250").decode("cp1252", "replace")
    lang, good = score_text(real)
    _, bad = score_text(mojibake)
    assert lang == "cs"
    assert good > bad


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Все люди рождаются свободными и равными в своём достоинстве", "ru"),
        ("Η Ελλάδα είναι μια χώρα στη νοτιοανατολική Ευρώπη", "el"),
        ("これは日本語の文章です。ひらがなとカタカナ", "ja"),
        ("이것은 한국어 문장입니다", "ko"),
        ("Voilà un café très élégant et une crème brûlée", "fr"),
    ],
)
def test_score_text_language(text, lang):
    assert score_text(text)[0] == lang


def test_score_text_empty_and_symbols():
    assert score_text("") == (None, 0.0)
    assert score_text("1234 !!! ...")[0] is None


def test_score_is_per_character():
    lang1, s1 = score_text("guten Tag " * 3)
    lang2, s2 = score_text("guten Tag " * 30)
    assert lang1 == lang2
    assert abs(s1 - s2) < 0.5


def test_control_characters_are_heavily_penalised():
    scorer = get_scorer()
    clean = scorer.score("Grüße aus Köln").loglik
    with_c1 = scorer.score("Gr\x81\xdfe aus K\x94ln").loglik
    assert clean - with_c1 > 15  # two controls: each costs far more than the letter it replaces


# the hard cases named in the issue
HARD = [
    ("這是一個測試，我們的系統已經更新完成", "big5", "Big5"),
    ("这是一个测试，我们的系统已经更新完成", "gbk", "GBK"),
    ("이것은 한국어 테스트입니다. 감사합니다.", "euc_kr", "EUC-KR"),
    ("これは日本語のテストです。よろしくお願いします。", "shift_jis", "Shift_JIS"),
    ("これは日本語のテストです。よろしくお願いします。", "euc_jp", "EUC-JP"),
    ("Все люди рождаются свободными и равными.", "koi8_r", "KOI8-R"),
    ("Все люди рождаются свободными и равными.", "cp1251", "windows-1251"),
    ("Příliš žluťoučký kůň úpěl ďábelské ódy.", "cp1250", "windows-1250"),
    ("Zażółć gęślą jaźń, pchnąć w tę łódź jeża.", "cp1250", "windows-1250"),
    ("Voilà un café très élégant, déjà vu à Noël.", "cp1252", "windows-1252"),
    ("Fußgängerübergänge sind schön.", "cp1252", "windows-1252"),
]


@pytest.mark.parametrize(("text", "codec", "name"), HARD)
def test_hard_cases(text, codec, name):
    result = detect(text.encode(codec), domain="web")
    assert result.encoding == name, result
