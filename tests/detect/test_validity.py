"""Stage 7: one undefined byte disqualifies a candidate; multi-byte decoders run over every byte."""

import numpy as np

from mojifix.detect import Detector, detect
from mojifix.detect.encodings import by_name
from mojifix.detect.validity import describe, single_byte_validity, undefined_bytes


def _hist(data: bytes) -> np.ndarray:
    return np.bincount(np.frombuffer(data, np.uint8), minlength=256)


def test_undefined_byte_kills_single_byte_candidate():
    # 0xAA is undefined in windows-1253 (Greek), defined in windows-1252
    hist = _hist(b"abc\xaa")
    valid = single_byte_validity(hist)
    assert valid["windows-1253"] is False
    assert valid["windows-1252"] is True
    ok, detail = describe(by_name("windows-1253"), undefined_bytes(by_name("windows-1253"), hist))
    assert not ok and "0xAA" in detail


def test_invalid_sequence_late_in_input_is_reported():
    # valid Shift_JIS for 154 KB, then one invalid pair at the end: every byte is still checked, and the
    # error is evidence on the Shift_JIS answer (issue 12: name the encoding, report where it breaks)
    good = "日本語のテキストです。".encode("cp932") * 7000
    data = good + b"\x81\x20"
    result = detect(data)
    assert result.encoding == "Shift_JIS"
    invalid = [ev for ev in result.best().evidence if ev.kind == "invalid"]
    assert invalid and invalid[0].value == 1.0 and f"{len(good):,}" in invalid[0].detail


def test_too_many_invalid_sequences_rule_out():
    # more than MAX_ERRORS broken pairs: not Shift_JIS with errors, but something else
    from mojifix.detect.validity import MAX_ERRORS

    good = "日本語のテキストです。".encode("cp932") * 50
    data = (good + b"\x81\x20") * (MAX_ERRORS + 1)
    result = detect(data)
    assert result.encoding != "Shift_JIS"


def test_partial_validity_needs_a_long_text():
    # a short Latin text that a CJK decoder half reads is not that CJK encoding "with one error"
    data = "Un été à Paris, déjà fini.".encode("cp1252")
    result = detect(data)
    assert result.encoding == "windows-1252"
    assert not any(ev.kind == "invalid" for ev in result.evidence)


def test_candidates_restriction():
    data = "Příliš žluťoučký kůň".encode("cp1250")
    result = detect(data, candidates=["windows-1252", "ISO-8859-2"])
    assert {c.encoding for c in result.candidates} <= {"windows-1252", "ISO-8859-2"}
    assert result.encoding == "ISO-8859-2"


def test_restriction_with_nothing_valid():
    result = Detector(candidates=["ISO-8859-7"]).feed(b"\xae\xd2").close()  # 0xAE, 0xD2 undefined
    assert result.verdict == "binary"
    assert result.candidates == ()


def test_candidates_accept_labels_and_aliases():
    data = "Příliš žluťoučký kůň".encode("cp1250")
    assert detect(data, candidates=["latin2", "cp1252"]).encoding == "ISO-8859-2"
    assert detect(data, candidates=["CP1250"]).encoding == "windows-1250"


def test_unknown_candidate_name_raises():
    import pytest

    from mojifix.errors import UnknownEncodingError

    with pytest.raises(UnknownEncodingError, match="did you mean"):
        detect(b"abc", candidates=["windows-125"])
