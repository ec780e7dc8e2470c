"""Decision and verification of single files (mojifix.convert.verify), with controlled detector verdicts."""

from __future__ import annotations

import pytest
from conftest import FR, ZH_HANS, ZH_HANT
from fakedetect import detect as fake_detect

from mojifix.convert.options import Options
from mojifix.convert.verify import examine, line_endings
from mojifix.detect.result import Candidate, Detection


def fixed(*cands: tuple[str, float], ambiguous: bool = False, verdict: str = "text"):
    """A detector that always answers the same (the verdict is the test's input)."""

    def detect(data: bytes, domain: str = "file", candidates=None, **_: object) -> Detection:
        return Detection(tuple(Candidate(e, c) for e, c in cands), verdict=verdict, ambiguous=ambiguous)

    return detect


def must_not_call(*_a: object, **_k: object) -> Detection:
    raise AssertionError("the detector must not be needed here")


OPTS = Options()


def test_empty_is_already_utf8() -> None:
    v = examine(b"", OPTS, must_not_call)
    assert (v.outcome, v.verification, v.output) == ("utf8", "lossless", b"")


def test_ascii_and_utf8_need_no_detector() -> None:
    assert examine(b"plain text\n", OPTS, must_not_call).decision == "ascii"
    data = (ZH_HANS + FR).encode()
    v = examine(data, OPTS, must_not_call)
    assert (v.outcome, v.decision, v.output) == ("utf8", "utf8-valid", data)
    assert v.line_endings == "LF"


def test_iso2022_and_nul_bytes_go_to_the_detector() -> None:
    calls = []

    def spy(data: bytes, **kw: object) -> Detection:
        calls.append(data)
        return fake_detect(data, **kw)

    examine("日本語".encode("iso2022_jp"), OPTS, spy)
    examine("ab".encode("utf-16-le"), OPTS, spy)
    assert len(calls) == 2


@pytest.mark.parametrize("bom", ["strip", "keep"])
def test_utf8_bom(bom: str) -> None:
    body = FR.encode()
    v = examine(b"\xef\xbb\xbf" + body, Options(bom=bom), must_not_call)
    assert v.outcome == "utf8" and v.bom == "UTF-8"
    assert v.output == (body if bom == "strip" else b"\xef\xbb\xbf" + body)
    assert v.verification == ("bom-stripped" if bom == "strip" else "lossless")


def test_utf16_bom_converted_losslessly() -> None:
    text = FR + ZH_HANS
    v = examine(b"\xfe\xff" + text.encode("utf-16-be"), OPTS, fixed(("windows-1252", 1.0)))
    assert (v.outcome, v.encoding, v.decision, v.verification) == ("converted", "UTF-16BE", "bom", "lossless")
    assert v.output == text.encode()
    keep = examine(b"\xfe\xff" + text.encode("utf-16-be"), Options(bom="keep"), fixed(("x", 1.0)))
    assert keep.output == b"\xef\xbb\xbf" + text.encode()


@pytest.mark.parametrize(
    ("text", "codec", "name"),
    [(ZH_HANS * 2, "gbk", "GBK"), (ZH_HANT * 2, "big5", "Big5"), (FR * 2, "cp1252", "windows-1252")],
)
def test_legacy_converted_with_lossless_proof(text: str, codec: str, name: str) -> None:
    v = examine(text.encode(codec), OPTS, fixed((name, 0.97)))
    assert (v.outcome, v.encoding, v.verification) == ("converted", name, "lossless")
    assert v.output == text.encode()


def test_gbk_decision_reencodes_with_gb18030() -> None:
    # '𠮷' has no GBK two-byte code; gb18030 bytes decode fine with the GBK decoder (same algorithm),
    # and only gb18030's encoder gives the bytes back.
    text = ZH_HANS + "𠮷😀\n"
    v = examine(text.encode("gb18030"), OPTS, fixed(("GBK", 0.9)))
    assert (v.outcome, v.verification) == ("converted", "lossless")
    assert v.output == text.encode()


def test_ambiguous_is_quarantined_with_both_candidates() -> None:
    det = fixed(("Big5", 0.51), ("GBK", 0.49), ambiguous=True)
    v = examine("中文".encode("big5"), OPTS, det)
    assert (v.outcome, v.verification) == ("quarantined", "ambiguous")
    assert "Big5" in v.reason and "GBK" in v.reason and "--prefer" in v.reason
    assert [e for e, _ in v.candidates] == ["Big5", "GBK"]


def test_prefer_settles_ambiguity_and_is_still_verified() -> None:
    data = (ZH_HANS * 2).encode("gbk")
    det = fixed(("Big5", 0.51), ("GBK", 0.49), ambiguous=True)
    v = examine(data, Options(prefer=("gb18030",)), det)  # same decoder as GBK
    assert (v.outcome, v.encoding, v.decision, v.verification) == (
        "converted",
        "GBK",
        "prefer gb18030",
        "lossless",
    )
    # a preferred encoding under which the bytes are invalid is caught by verification, never written
    bad = examine(
        b"\xff\xfe\x00\x00abc", Options(prefer=("UTF-8",)), fixed(("UTF-8", 0.5), ("x", 0.5), ambiguous=True)
    )
    assert bad.outcome == "quarantined"


def test_decode_error_quarantined_with_offset() -> None:
    data = b"abc def\n" + "中文".encode("gbk") + b"\xff\xff"
    v = examine(data, OPTS, fixed(("GBK", 0.9)))
    assert v.outcome == "quarantined" and v.verification in ("decode-error", "mixed")
    if v.verification == "decode-error":
        assert "byte 12" in v.reason


def test_noncanonical_shift_jis_reported_separately() -> None:
    # 0x87 0x90 (NEC row 13) and 0x81 0xE0 both decode to U+2252; the encoder emits 0x81 0xE0.
    data = b"\x87\x90\x82\xa0" * 4
    v = examine(data, OPTS, fixed(("Shift_JIS", 0.9)))
    assert (v.outcome, v.verification) == ("quarantined", "noncanonical")
    accepted = examine(data, Options(accept_noncanonical=True), fixed(("Shift_JIS", 0.9)))
    assert (accepted.outcome, accepted.verification) == ("converted", "noncanonical")
    assert accepted.output == ("\u2252\u3042" * 4).encode()


def test_replacement_character_in_legacy_decode_is_quarantined() -> None:
    data = "文字".encode("gb18030") + b"\x84\x31\xa4\x37"  # gb18030 encodes U+FFFD itself
    v = examine(data, OPTS, fixed(("gb18030", 0.9)))
    assert (v.outcome, v.verification) == ("quarantined", "replacement-char")


def test_binary_skipped() -> None:
    v = examine(bytes(range(256)), OPTS, fixed(verdict="binary"))
    assert (v.outcome, v.binary, v.reason) == ("skipped", True, "binary")


def test_no_candidate_is_quarantined() -> None:
    v = examine(b"\x80\x81", OPTS, fixed())
    assert (v.outcome, v.verification) == ("quarantined", "undecided")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("a\nb\n", "LF"), ("a\r\nb\r\n", "CRLF"), ("a\rb", "CR"), ("a\nb\r\n", "mixed"), ("ab", "none")],
)
def test_line_endings(text: str, expected: str) -> None:
    assert line_endings(text) == expected


def test_iso2022_kr_header_at_the_start_is_canonical() -> None:
    """RFC 1557 puts ESC $ ) C at the start; CPython's encoder puts it before the first SO."""
    text = "ISO/IEC 2022 한국어 문서입니다.\n"
    python_form = text.encode("iso2022_kr")
    rfc_form = b"\x1b$)C" + python_form.replace(b"\x1b$)C", b"", 1)
    assert rfc_form != python_form
    for data in (python_form, rfc_form):
        v = examine(data, OPTS, fixed(("iso2022_kr", 0.99)))
        assert (v.outcome, v.verification, v.output) == ("converted", "lossless", text.encode())
    moved = python_form.replace(b"\x1b$)C", b"", 1) + b"\x1b$)C"  # not where the RFC allows it
    assert examine(moved, OPTS, fixed(("iso2022_kr", 0.99))).verification != "lossless"


def test_hz_marker_without_gb_text_is_plain_ascii() -> None:
    """ "~{" then a line end cannot start HZ-encoded Chinese: plain ASCII, no detector needed."""
    data = b"Writes HZ, whose switching escape sequence is ~{\nand back: ~}\n"
    assert examine(data, OPTS, must_not_call).decision == "ascii"
    calls = []

    def spy(data: bytes, **kw: object) -> Detection:
        calls.append(data)
        return fake_detect(data, **kw)

    examine("中文".encode("hz"), OPTS, spy)  # "~{VPND~}": HZ text goes to the detector
    assert calls


def test_escape_that_is_not_iso2022_is_a_control_in_plain_text() -> None:
    """A terminal colour code or a lone ESC does not make a file ISO-2022; "ESC $ B" does."""
    for data in (b"\x1b[31mred\x1b[0m plain log line\n", b"an escape character: \x1b\nthe end\n"):
        assert examine(data, OPTS, must_not_call).decision == "ascii"
    log = "\x1b[1mfertig\x1b[0m: Größe geprüft\n".encode()
    assert examine(log, OPTS, must_not_call).decision == "utf8-valid"
