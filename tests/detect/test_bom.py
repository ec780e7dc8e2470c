"""Stage 1: BOM sniffing (WHATWG BOM sniff for the web; UTF-32 BOMs only for files)."""

import pytest

from mojifix.detect import detect
from mojifix.detect.bom import sniff_bom


@pytest.mark.parametrize(
    ("data", "domain", "expected"),
    [
        (b"\xef\xbb\xbfabc", "web", ("UTF-8", 3)),
        (b"\xfe\xff\x00a", "web", ("UTF-16BE", 2)),
        (b"\xff\xfea\x00", "web", ("UTF-16LE", 2)),
        (b"\xff\xfe\x00\x00a\x00\x00\x00", "file", ("utf-32-le", 4)),
        (b"\x00\x00\xfe\xff\x00\x00\x00a", "file", ("utf-32-be", 4)),
        # browsers do not sniff UTF-32: the UTF-32LE BOM reads as a UTF-16LE BOM on the web
        (b"\xff\xfe\x00\x00a\x00\x00\x00", "web", ("UTF-16LE", 2)),
        (b"\x00\x00\xfe\xff", "web", None),
        (b"abc", "file", None),
        (b"\xef\xbb", "file", None),  # truncated BOM is no BOM
    ],
)
def test_sniff_bom(data, domain, expected):
    assert sniff_bom(data, domain) == expected


def test_bom_decides_detection():
    data = "\ufeffcafé".encode("utf-16-le")
    result = detect(data)
    assert result.bom == "UTF-16LE"
    assert result.encoding == "UTF-16LE"
    assert result.verdict == "text"
    assert result.evidence[0].kind == "bom"


def test_utf8_bom_even_before_legacy_bytes():
    # the BOM overrides everything, as the Encoding Standard's decode algorithm does
    result = detect(b"\xef\xbb\xbf" + "Grüße".encode(), domain="web")
    assert (result.encoding, result.bom) == ("UTF-8", "UTF-8")
