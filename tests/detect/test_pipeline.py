"""The orchestrator: bad input, streaming == one-shot, domains, max_bytes, result contract."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.detect import Candidate, Detection, Detector, Evidence, detect
from mojifix.textcodec import WHATWG_NAMES


def test_empty():
    result = detect(b"")
    assert (result.verdict, result.candidates, result.bytes_examined) == ("empty", (), 0)


@pytest.mark.parametrize("byte", [b"a", b"\x00", b"\xe9", b"\xff", b"\x81"])
def test_single_byte(byte):
    result = detect(byte)
    assert result.verdict in ("ascii", "binary", "text")
    assert result.bytes_examined == 1


@pytest.mark.parametrize("byte", [b"a", b"\xe9", b"\x00"])
def test_ten_megabytes_of_one_byte(byte):
    result = detect(byte * 10_000_000)
    assert result.verdict in ("ascii", "binary", "text")
    assert result.bytes_examined == 10_000_000
    if byte == b"a":
        assert result.verdict == "ascii"
    if byte == b"\x00":
        assert result.verdict == "binary"


def test_random_bytes_do_not_raise():
    rng = random.Random(1)
    for size in (1, 2, 3, 17, 200, 5000):
        for _ in range(5):
            data = bytes(rng.randrange(256) for _ in range(size))
            result = detect(data)
            assert result.verdict in ("binary", "text", "ascii")


def test_random_high_bytes_are_text_or_ambiguous():
    # bytes 0x80-0xFF only: valid in many code pages; a verdict, possibly ambiguous, never a crash
    rng = random.Random(2)
    data = bytes(rng.randrange(128, 256) for _ in range(300))
    result = detect(data)
    assert result.verdict == "text"
    assert result.candidates


SAMPLES = [
    "Příliš žluťoučký kůň úpěl ďábelské ódy. " * 50,
    "Все люди рождаются свободными и равными. " * 50,
    "これは日本語のテストです。よろしくお願いします。" * 40,
]


@pytest.mark.parametrize(
    ("text", "codec"), [(SAMPLES[0], "cp1250"), (SAMPLES[1], "koi8_r"), (SAMPLES[2], "cp932")]
)
@settings(max_examples=15, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=5000), max_size=8))
def test_streaming_equals_one_shot(text, codec, cuts):
    data = text.encode(codec) * 40  # > 64 KiB: several internal blocks
    one_shot = detect(data)
    det = Detector()
    pos = 0
    for cut in sorted(cuts):
        det.feed(data[pos : pos + cut])
        pos += cut
    det.feed(data[pos:])
    assert det.close() == one_shot


def test_web_domain_returns_only_whatwg_names():
    rng = random.Random(3)
    pairs = [(SAMPLES[0], "cp852"), (SAMPLES[1], "cp866"), (SAMPLES[0], "mac_latin2")]
    inputs = [s.encode(c) for s, c in pairs]
    inputs += [bytes(rng.randrange(128, 256) for _ in range(100)) for _ in range(5)]
    inputs += ["Grüße".encode("cp037"), "Hello".encode("utf-32-le")]
    for data in inputs:
        result = detect(data, domain="web")
        for cand in result.candidates:
            assert cand.encoding in WHATWG_NAMES, cand.encoding


def test_file_domain_names_dos_code_page():
    text = "Fußgängerübergänge sind schön. Größe, Übermaß und Äpfel. " * 4
    assert detect(text.encode("cp437")).encoding in ("cp437", "cp850", "cp858")


def test_max_bytes():
    data = b"a" * 1000 + "é".encode("cp1252") * 10
    result = detect(data, max_bytes=1000)
    assert result.bytes_examined == 1000
    assert result.verdict == "ascii"


def test_bad_domain():
    with pytest.raises(ValueError, match="domain"):
        detect(b"x", domain="mail")


def test_feed_after_close():
    det = Detector()
    det.feed(b"abc").close()
    with pytest.raises(ValueError, match="new Detector"):
        det.feed(b"more")


def test_result_contract_and_json():
    result = detect("Zażółć gęślą jaźń".encode("iso-8859-2"))
    assert isinstance(result, Detection)
    assert all(isinstance(c, Candidate) for c in result.candidates)
    assert all(isinstance(e, Evidence) for c in result.candidates for e in c.evidence)
    confidences = [c.confidence for c in result.candidates]
    assert confidences == sorted(confidences, reverse=True)
    assert all(0.0 <= c <= 1.0 for c in confidences)
    assert abs(sum(confidences) - 1.0) < 1e-6
    assert json.loads(result.to_json())["verdict"] == "text"
    assert result.best().language == "pl"


def test_ambiguous_when_evidence_is_thin():
    # two bytes, valid in dozens of code pages: must not claim certainty
    result = detect(b"\xe0\xe8")
    assert result.verdict == "text"
    assert result.ambiguous or result.candidates[0].confidence < 0.9


def test_tld_tilts_near_ties():
    data = "Привет".encode("cp1251")
    assert detect(data, tld="ru", domain="web").encoding == "windows-1251"


@pytest.mark.parametrize(
    ("text", "codec", "name"),
    [
        ("Fußgängerübergänge sind schön, aber die Straße ist breit.", "cp037", "cp037"),
        ("union\nconcept\nénumération\nénumérateur\nparamètre de fonction", "cp500", ("cp500", "cp037")),
    ],
)
def test_ebcdic(text, codec, name):
    result = detect(text.encode(codec))
    assert result.encoding in ((name,) if isinstance(name, str) else name)


def test_mixed_language_latin_text():
    # a Polish phrase inside Czech text must not push the reading into a Cyrillic code page
    data = "Příliš žluťoučký kůň úpěl ďábelské ódy. Zažółć gęślą jaźń. ".encode("cp1250")
    assert detect(data).encoding == "windows-1250"
