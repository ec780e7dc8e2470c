"""Stage 6: 7-bit escape-sequence encodings."""

import pytest

from mojifix.detect import detect
from mojifix.detect.escape import escape_candidates


@pytest.mark.parametrize(
    ("text", "codec", "name", "domain"),
    [
        ("これは日本語のテストです。", "iso2022_jp", "ISO-2022-JP", "web"),
        ("이것은 한국어 테스트입니다.", "iso2022_kr", "iso2022_kr", "file"),
        ("这是一个测试。", "hz", "hz", "file"),
    ],
)
def test_escape_encodings(text, codec, name, domain):
    data = text.encode(codec)
    assert data.isascii()
    result = detect(data, domain=domain)
    assert result.encoding == name
    assert result.verdict == "text"


def test_hz_not_in_web_domain():
    data = "这是一个测试。".encode("hz")
    assert detect(data, domain="web").verdict == "ascii"


def test_marker_without_valid_data_is_ascii():
    # "~{" in ordinary ASCII text (no closing "~}", odd bytes) must not turn it into HZ
    data = b"use ~{ and ~} in LaTeX for braces? no: ~{x"
    assert escape_candidates(data)
    assert detect(data).verdict == "ascii"
