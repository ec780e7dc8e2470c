"""Stage 3: UTF-16/32 without BOM, from zero-byte positions (and UTF-16 with no zero byte at all)."""

import pytest

from mojifix.detect import detect
from mojifix.detect.structure import ZeroCounts, structure_guess

TEXTS = [
    "Hello world, this is plain English.",
    "Привет, мир! Это русский текст.",
    "これは日本語のテキストです。\n改行もあります。",
    "Καλημέρα κόσμε 123",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize(("codec", "name"), [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")])
def test_utf16_without_bom_is_not_ascii(text, codec, name):
    result = detect(text.encode(codec))
    assert result.verdict == "text"
    assert result.encoding == name
    assert result.bom is None


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize(("codec", "name"), [("utf-32-le", "utf-32-le"), ("utf-32-be", "utf-32-be")])
def test_utf32_without_bom(text, codec, name):
    assert detect(text.encode(codec)).encoding == name


def test_utf16_without_any_zero_byte():
    # Cyrillic in UTF-16BE: every other byte is 0x04, a control byte -- still text, not binary
    result = detect("Документация".encode("utf-16-be"))
    assert (result.verdict, result.encoding) == ("text", "UTF-16BE")


def test_structure_guess_counts():
    assert structure_guess(ZeroCounts([0, 5, 0, 5], 40)) == ("UTF-16LE", 0.5)
    assert structure_guess(ZeroCounts([5, 0, 5, 0], 40)) == ("UTF-16BE", 0.5)
    assert structure_guess(ZeroCounts([5, 5, 5, 5], 20)) is None  # both sides: binary-like
    assert structure_guess(ZeroCounts([0, 0, 0, 0], 20)) is None
    assert structure_guess(ZeroCounts([0, 1, 0, 0], 3)) is None  # too short


def test_web_domain_has_no_utf32():
    data = "Hello".encode("utf-32-le")
    assert detect(data, domain="web").encoding != "utf-32-le"
