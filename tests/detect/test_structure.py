"""Stage 3: UTF-16/32 without BOM, from zero-byte positions (and UTF-16 with no zero byte at all)."""

import random

import pytest

from mojifix.detect import detect
from mojifix.detect.structure import ContentReading, ZeroCounts, structure_guess

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


# --- stage 3b: UTF-16 read by content (no zero byte, or too few to trust their side) ---------------

PURE_CJK = [
    "今天上午，市图书馆举办了儿童读书活动。",  # no ASCII-range character: no zero byte at all
    "這個目錄裡的檔案來自不同的年代，有的用大五碼儲存。",
    "今日は良い天気ですね。明日も晴れるでしょう。",
    "오늘은날씨가좋습니다。내일도맑을것입니다。",
    # "一" U+4E00 is 00 4E in UTF-16LE: a zero on the big-endian side
    "我们先检查每一个字节，再决定它属于哪一种编码。一共有三个文件。",
]


@pytest.mark.parametrize("text", PURE_CJK)
@pytest.mark.parametrize(("codec", "name"), [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")])
def test_pure_cjk_utf16_without_bom(text, codec, name):
    result = detect(text.encode(codec))
    assert (result.verdict, result.encoding) == ("text", name)
    assert result.evidence[0].kind == "structure"
    assert "other byte order" in result.evidence[0].detail


@pytest.mark.parametrize(("codec", "name"), [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")])
def test_long_pure_cjk_utf16(codec, name):
    text = "".join(PURE_CJK[:3]) * 40
    assert detect(text.encode(codec)).encoding == name


@pytest.mark.parametrize("label", ["gbk", "gb18030", "big5"])
def test_legacy_cjk_corpus_files_are_not_utf16(tmp_path, label):
    # the conversion corpus's own generator: even-length GBK/Big5 files must not be read as UTF-16
    from mojifix.convert.corpus import EXPECTED_NAME, generate

    truths = generate(tmp_path, files_per_encoding=12, labels=(label,), corrupted=0, seed=3)
    for t in truths:
        data = (tmp_path / t.path).read_bytes()
        result = detect(data)
        assert result.encoding in (EXPECTED_NAME[label], "GBK", "gb18030"), (t.path, len(data), result)


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("今天上午市图书馆举办了儿童读书活动", "gbk"),
        ("這個目錄裡的檔案來自不同的年代有的用大五碼", "big5"),
        ("今日は良い天気ですね明日も晴れるでしょう", "shift_jis"),
        ("오늘은날씨가좋습니다내일도맑을것입니다", "euc-kr"),
    ],
)
def test_short_legacy_cjk_is_not_utf16(text, codec):
    data = text.encode(codec)
    assert len(data) % 2 == 0
    assert detect(data).encoding not in ("UTF-16LE", "UTF-16BE")


def test_random_bytes_with_a_stray_zero_are_not_utf16():
    # one zero byte on one side used to be enough for "UTF-16" when every code unit happened to be valid
    rng = random.Random(3)
    hits = []
    for _ in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.choice([20, 64, 200])))
        if detect(data).encoding in ("UTF-16LE", "UTF-16BE"):
            hits.append(data)
    assert not hits


def test_content_reading_thresholds():
    good = ContentReading("UTF-16LE", -7.0, "zh", 1.0, 0.9, -16.0)
    assert good.is_text
    assert not ContentReading("UTF-16LE", -15.0, "ko", 0.9, 0.9, None).is_text  # scattered code points
    assert not ContentReading("UTF-16LE", -7.0, "ko", 0.1, 0.9, None).is_text  # rare syllables
    assert not ContentReading("UTF-16LE", -7.0, "zh", 1.0, 0.9, -8.0).is_text  # orders too close
