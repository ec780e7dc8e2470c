"""Stages 4-5: pure ASCII and UTF-8 validated over the whole input."""

import pytest

from mojifix.detect import Detector, detect


def test_ascii_verdict():
    result = detect(b"plain ASCII text\n" * 100)
    assert result.verdict == "ascii"
    assert result.encoding == "UTF-8"
    assert result.candidates[0].confidence == 1.0


@pytest.mark.parametrize("word", ["café", "naïve", "Zürich", "jalapeño", "façade", "Ελλάδα", "日本"])
def test_utf8_with_one_non_ascii_character_is_utf8(word):
    data = f"A long English sentence that mentions {word} once and nothing else.".encode()
    result = detect(data)
    assert result.encoding == "UTF-8"
    assert any(ev.kind == "utf8" for ev in result.evidence)


def test_single_invalid_sequence_in_long_utf8_names_utf8_with_the_error():
    # issue 12: one broken byte in long UTF-8 text names UTF-8 and reports where (convert quarantines it)
    data = "é".encode() * 1000 + b"\xe9" + b" tail"
    result = detect(data)
    assert result.encoding == "UTF-8"
    invalid = [ev for ev in result.evidence if ev.kind == "invalid"]
    assert invalid and invalid[0].value == 1.0 and "2,000" in invalid[0].detail
    assert any("not UTF-8" in ev.detail for ev in result.evidence)


def test_many_invalid_sequences_rule_out_utf8():
    data = ("é".encode() + b"\xe9") * 50
    assert detect(data).encoding != "UTF-8"


def test_truncated_final_sequence_tolerated():
    data = ("Grüße aus Köln " * 20).encode() + "€".encode()[:2]
    assert detect(data).encoding == "UTF-8"


def test_lone_trailing_lead_byte_is_not_utf8_evidence():
    # b"caf\xe9" is windows-1252 "café"; the final 0xE9 is *not* a cut-off UTF-8 sequence
    assert detect(b"caf\xe9", domain="web").encoding == "windows-1252"


def test_utf8_across_block_boundary():
    # a multi-byte character straddling the detector's internal 64 KiB blocks
    data = b"a" * (65536 - 1) + "é".encode() + b"b" * 10
    assert Detector().feed(data).close().encoding == "UTF-8"
