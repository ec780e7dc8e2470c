"""decode_html: precedence, provenance, every warning code, bad input, the 1024-byte boundary."""

from __future__ import annotations

import dataclasses
import json

import pytest

import mojifix
from mojifix.errors import UnknownEncodingError
from mojifix.sniff import DecodedHTML, Finding, decode_html
from mojifix.sniff.result import CONFIDENCES, SOURCES
from mojifix.whatwg import lookup

RU = "Привет, мир"
RU_1251 = RU.encode("cp1251")
RU_KOI8 = RU.encode("koi8_r")


def codes(result: DecodedHTML) -> tuple[str, ...]:
    return result.warning_codes


def test_public_api_exports() -> None:
    assert mojifix.decode_html is decode_html
    assert mojifix.DecodedHTML is DecodedHTML


# --- precedence ------------------------------------------------------------------------------------


def test_bom_beats_header_meta_and_override() -> None:
    body = b"\xef\xbb\xbf<meta charset=koi8-r>" + RU.encode()
    result = decode_html(body, "text/html; charset=windows-1251", override="shift_jis")
    assert (result.encoding, result.source, result.confidence) == ("UTF-8", "bom", "certain")
    assert result.text == "<meta charset=koi8-r>" + RU  # the BOM is stripped
    assert codes(result).count("bom-contradicts-declaration") == 2  # header and meta
    assert result.label is None and result.label_origin == "byte order mark"


@pytest.mark.parametrize(
    ("bom", "encoding", "codec"),
    [(b"\xff\xfe", "UTF-16LE", "utf-16-le"), (b"\xfe\xff", "UTF-16BE", "utf-16-be")],
)
def test_utf16_boms(bom: bytes, encoding: str, codec: str) -> None:
    result = decode_html(bom + "<p>Grüße</p>".encode(codec), "text/html; charset=utf-16")
    assert (result.encoding, result.source, result.text) == (encoding, "bom", "<p>Grüße</p>")
    assert result.warnings == ()  # a UTF-16 label with a UTF-16 BOM is no contradiction


def test_utf32_bom_is_not_sniffed() -> None:
    # FF FE 00 00 is UTF-32LE's BOM, but the web knows no UTF-32: its first two bytes are UTF-16LE's.
    result = decode_html(b"\xff\xfe\x00\x00" + "hi".encode("utf-32-le"))
    assert result.encoding == "UTF-16LE"
    assert result.source == "bom"


def test_override_beats_header_and_meta() -> None:
    result = decode_html(b"<meta charset=utf-8>" + RU_KOI8, "text/html; charset=utf-8", override="KOI8-R")
    assert (result.encoding, result.source, result.confidence) == ("KOI8-R", "override", "certain")
    assert result.text.endswith(RU)
    assert result.label == "KOI8-R" and result.label_origin == "override argument"


def test_unknown_override_is_an_error() -> None:
    with pytest.raises(UnknownEncodingError):
        decode_html(b"x", override="no-such-encoding")


def test_header_beats_meta_with_conflict_warning() -> None:
    result = decode_html(b"<meta charset=koi8-r>" + RU_1251, "text/html; charset=windows-1251")
    assert (result.encoding, result.source, result.confidence) == ("windows-1251", "transport", "certain")
    assert result.text.endswith(RU)
    (finding,) = result.warnings
    assert finding.code == "header-meta-conflict"
    assert finding.details["meta_encoding"] == "KOI8-R"
    assert finding.details["header_encoding"] == "windows-1251"
    assert finding.details["meta_offset"] == 0


def test_header_and_meta_agreeing_is_clean() -> None:
    result = decode_html(b"<meta charset=cp1251>" + RU_1251, "text/html; charset=windows-1251")
    assert result.warnings == ()


def test_meta_in_prescan_window() -> None:
    result = decode_html(b"<!DOCTYPE html><meta charset=koi8-r>" + RU_KOI8, "text/html")
    assert (result.encoding, result.source, result.confidence) == ("KOI8-R", "meta", "tentative")
    assert result.label == "koi8-r"
    assert result.label_origin == "<meta charset> at byte 15"
    assert result.browser_encoding == "KOI8-R" and result.browser_source == "meta"


def test_meta_http_equiv_origin() -> None:
    body = b'<meta http-equiv="Content-Type" content="text/html; charset=KOI8-R">' + RU_KOI8
    result = decode_html(body)
    assert result.label == "KOI8-R"
    assert result.label_origin == "<meta http-equiv content> at byte 0"


@pytest.mark.parametrize(
    ("label", "encoding"), [("utf-16", "UTF-8"), ("UTF-16BE", "UTF-8"), ("x-user-defined", "windows-1252")]
)
def test_meta_label_rules(label: str, encoding: str) -> None:
    assert decode_html(f"<meta charset={label}>".encode()).encoding == encoding


def _meta_ending_at(last: int) -> bytes:
    tag = b"<meta charset=koi8-r>"
    pad = last + 1 - len(tag) - 7
    return b"<!--" + b"x" * pad + b"-->" + tag + RU_KOI8


@pytest.mark.parametrize(
    ("last", "source"), [(1022, "meta"), (1023, "meta"), (1024, "meta-late"), (1025, "meta-late")]
)
def test_1024_byte_boundary(last: int, source: str) -> None:
    # The meta's ">" at byte 1023 is inside the prescan window; past it Chromium still finds it (head).
    result = decode_html(_meta_ending_at(last))
    assert (result.encoding, result.source) == ("KOI8-R", source)
    assert ("late-meta" in codes(result)) is (source == "meta-late")
    assert result.text.endswith(RU)


def test_late_meta_after_long_comment() -> None:
    body = b"<html><head><!--" + b"x" * 5000 + b'--><meta charset="windows-1251"></head><body>' + RU_1251
    result = decode_html(body, "text/html")
    assert (result.encoding, result.source) == ("windows-1251", "meta-late")
    (finding,) = result.warnings
    assert finding.code == "late-meta"
    assert finding.details["offset"] == body.index(b"<meta")
    assert finding.details["window"] == 1024
    assert result.text.endswith(RU)


def test_late_meta_in_body_is_ignored() -> None:
    body = b"<body><!--" + b"x" * 5000 + b'--><meta charset="koi8-r"><p>plain ASCII</p>'
    result = decode_html(body, fallback="browser")
    assert result.source == "default"  # not "meta-late": the head had ended
    assert result.encoding == "windows-1252"  # Chromium: an ASCII page is windows-1252 on every host
    assert result.warnings == ()


def test_prescan_divergence_meta_inside_script() -> None:
    # The Standard's prescan sees this meta; Chromium (measured) treats script content as text.
    result = decode_html(b"<script><meta charset=koi8-r></script><p>ASCII</p>", fallback="browser")
    assert (result.encoding, result.source) == ("windows-1252", "default")
    finding = next(w for w in result.warnings if w.code == "prescan-divergence")
    assert finding.details["prescan"] == "KOI8-R"
    assert finding.details["chromium"] is None


def test_xml_declaration() -> None:
    result = decode_html(b'<?xml version="1.0" encoding="koi8-r"?><p>' + RU_KOI8)
    assert (result.encoding, result.source, result.label) == ("KOI8-R", "xml-declaration", "koi8-r")
    assert result.label_origin == "XML declaration at byte 0"


def test_meta_beats_xml_declaration_even_late() -> None:
    body = b'<?xml version="1.0" encoding="koi8-r"?><!--' + b"x" * 1100 + b"--><meta charset=windows-1251>"
    assert decode_html(body + RU_1251).encoding == "windows-1251"


def test_utf16_xml_pattern() -> None:
    body = '<?xml version="1.0"?><p>Grüße</p>'.encode("utf-16-le")
    result = decode_html(body)
    assert (result.encoding, result.source, result.text) == (
        "UTF-16LE",
        "xml-declaration",
        '<?xml version="1.0"?><p>Grüße</p>',
    )
    assert result.label is None and result.label_origin == "UTF-16 '<?x' at byte 0"


# --- undeclared pages -----------------------------------------------------------------------------


def test_undeclared_valid_utf8_beats_the_browser() -> None:
    body = "<p>今日はいい天気ですね</p>".encode()
    result = decode_html(body, "text/html", url="http://example.jp/")
    assert (result.encoding, result.source, result.text) == (
        "UTF-8",
        "utf-8-valid",
        "<p>今日はいい天気ですね</p>",
    )
    assert (result.browser_encoding, result.browser_source) == ("Shift_JIS", "tld-default")
    assert result.warnings == ()


def test_undeclared_browser_fallback_reproduces_the_browser() -> None:
    body = "<p>今日はいい天気ですね</p>".encode()
    result = decode_html(body, "text/html", url="http://example.jp/", fallback="browser")
    assert (result.encoding, result.source) == ("Shift_JIS", "tld-default")
    assert result.text == lookup("Shift_JIS").decode(body)  # the mojibake a browser shows
    assert result.encoding == result.browser_encoding


@pytest.mark.parametrize(
    ("url", "browser"),
    [
        (None, "windows-1252"),
        ("http://example.com/", "windows-1252"),
        ("http://example.ru/a", "windows-1251"),
        ("https://www.example.co.il/", "windows-1255"),
        ("http://example.tr/", "windows-1254"),  # Chromium's ISO-8859-9 label
        ("http://example.kr/", "EUC-KR"),  # Chromium's windows-949 label
        ("http://127.0.0.1:8000/", "windows-1252"),
    ],
)
def test_undeclared_browser_encoding_by_tld(url: str | None, browser: str) -> None:
    result = decode_html("<p>héllo</p>".encode(), url=url)
    assert result.browser_encoding == browser
    assert result.source == "utf-8-valid"


def test_undeclared_ascii_is_windows_1252_for_the_browser_on_every_host() -> None:
    result = decode_html(b"<p>hello</p>", url="http://example.jp/")
    assert (result.encoding, result.source) == ("UTF-8", "utf-8-valid")
    assert (result.browser_encoding, result.browser_source) == ("windows-1252", "default")


def test_undeclared_legacy_page_detected_or_fallback() -> None:
    # Holds with or without the detector: it either names an encoding that decodes the page, or it
    # is the browser's fallback for .ru, which is right here.
    body = ("<p>" + "Сегодня в Москве облачно, вечером небольшой дождь. " * 5 + "</p>").encode("cp1251")
    result = decode_html(body, "text/html", url="http://pogoda.example.ru/")
    assert result.source in ("detected", "tld-default")
    assert result.confidence == "tentative"
    assert result.encoding == "windows-1251"
    assert "Москве" in result.text
    assert result.browser_source in ("detected", "tld-default")


def test_undeclared_invalid_utf8_never_valid_source() -> None:
    body = b"<p>caf\xe9 cr\xe8me br\xfbl\xe9e</p>"
    result = decode_html(body, url="http://example.com/")
    assert result.source in ("detected", "default")
    if result.source == "default":
        assert result.encoding == result.browser_encoding == "windows-1252"
    assert result.label is None


# --- warnings ------------------------------------------------------------------------------------


def test_replacement_label() -> None:
    result = decode_html(b"<p>\x1b$)C hello</p>", "text/html; charset=iso-2022-kr")
    assert (result.encoding, result.source) == ("replacement", "transport")
    assert result.text == "\ufffd"
    assert codes(result) == ("replacement-label",)
    assert result.replacement_count == 1


def test_replacement_characters_counted_not_literal_ones() -> None:
    body = "<p>\ufffd literal</p>".encode() + b"\xff\xfe bad"
    result = decode_html(body, "text/html; charset=utf-8")
    assert result.replacement_count == 2
    (finding,) = result.warnings
    assert finding.code == "replacement-characters"
    assert finding.details == {"count": 2, "encoding": "UTF-8"}


def test_declared_single_byte_but_valid_utf8() -> None:
    result = decode_html("<p>Grüße aus Köln</p>".encode(), "text/html; charset=windows-1252")
    assert result.encoding == "windows-1252"  # the declaration is followed, as in browsers
    (finding,) = result.warnings
    assert finding.code == "declared-encoding-suspect"
    assert finding.details["suggested"] == "UTF-8"
    assert finding.details["reason"] == "valid-utf-8"


def test_declared_legacy_decoder_errors_while_another_is_clean() -> None:
    body = ("<p>" + "今日はいい天気ですね。" * 4 + "</p>").encode("shift_jis")
    result = decode_html(body, "text/html; charset=utf-8", url="http://example.jp/")
    assert result.encoding == "UTF-8"
    assert "declared-encoding-suspect" not in codes(result)  # UTF-8 declared: not a "legacy" suspect
    result = decode_html(body, "text/html; charset=euc-jp", url="http://example.jp/")
    assert result.encoding == "EUC-JP"  # the declaration is followed, as in browsers
    assert result.replacement_count >= 3
    suspect = next(w for w in result.warnings if w.code == "declared-encoding-suspect")
    assert suspect.details["reason"] == "decoder-errors"
    assert suspect.details["suggested"] == "Shift_JIS"  # the detector's or the .jp fallback: both say so
    assert "replacement-characters" in codes(result)


def test_ascii_body_with_legacy_declaration_is_not_suspect() -> None:
    assert decode_html(b"<p>plain</p>", "text/html; charset=windows-1252").warnings == ()


@pytest.mark.parametrize(
    "content_type",
    ["garbage", "text/", ["nonsense", ";;"], 42, ["text/html", object()]],
)
def test_invalid_content_type_is_a_warning_not_an_error(content_type: object) -> None:
    result = decode_html(b"<meta charset=koi8-r>" + RU_KOI8, content_type)  # type: ignore[arg-type]
    assert "invalid-content-type" in codes(result)
    assert result.encoding == "KOI8-R"


def test_unknown_header_label_is_ignored_with_a_warning() -> None:
    result = decode_html(b"<meta charset=koi8-r>" + RU_KOI8, "text/html; charset=x-nonsense")
    assert (result.encoding, result.source) == ("KOI8-R", "meta")
    assert "unknown-label" in codes(result)


def test_several_content_type_headers() -> None:
    result = decode_html(RU_KOI8, ["text/html; charset=koi8-r", "text/html"])
    assert (result.encoding, result.source) == ("KOI8-R", "transport")
    assert result.label_origin == "Content-Type header (value 1 of 2)"


# --- bad input, result object --------------------------------------------------------------------


@pytest.mark.parametrize("body", ["text", None, 42, ["b"]])
def test_non_bytes_body(body: object) -> None:
    with pytest.raises(TypeError, match="bytes"):
        decode_html(body)  # type: ignore[arg-type]


def test_bytearray_and_memoryview_bodies() -> None:
    assert decode_html(bytearray(b"<p>x</p>")).text == "<p>x</p>"
    assert decode_html(memoryview(b"<p>x</p>")).text == "<p>x</p>"


def test_bad_fallback() -> None:
    with pytest.raises(ValueError, match="fallback"):
        decode_html(b"x", fallback="guess")


def test_empty_body() -> None:
    result = decode_html(b"", "text/html; charset=shift_jis")
    assert (result.text, result.encoding, result.source, result.replacement_count) == (
        "",
        "Shift_JIS",
        "transport",
        0,
    )
    empty = decode_html(b"")
    assert empty.text == "" and empty.source in SOURCES


def test_result_is_frozen_and_serialisable() -> None:
    result = decode_html(b"<meta charset=koi8-r>" + RU_1251, "text/html; charset=windows-1251")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.encoding = "x"  # type: ignore[misc]
    assert not hasattr(result, "__dict__")
    data = json.loads(result.to_json())
    assert data == result.to_dict()
    assert data["warnings"][0]["code"] == "header-meta-conflict"
    assert data["text"].endswith(RU)
    assert result.source in SOURCES and result.confidence in CONFIDENCES
    shown = str(result)
    assert "windows-1251" in shown and "transport" in shown and "header-meta-conflict" in shown


def test_finding_is_frozen() -> None:
    finding = Finding("late-meta", "message", {"offset": 3})
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.code = "x"  # type: ignore[misc]
    assert str(finding) == "[late-meta] message"
    assert finding.to_dict() == {"code": "late-meta", "message": "message", "details": {"offset": 3}}


def test_never_prints(capsys: pytest.CaptureFixture[str]) -> None:
    decode_html(b"<script><meta charset=koi8-r></script>\xff", ["garbage", "text/html; charset=bogus"])
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_undeclared_utf32be_with_bom_read_beyond_the_browser() -> None:
    body = "\ufeff<p>Grüße</p>".encode("utf-32-be")
    result = decode_html(body, "text/html")
    assert (result.encoding, result.source, result.text) == ("utf-32-be", "detected", "<p>Grüße</p>")
    assert result.browser_encoding == "windows-1252"  # browsers never sniff UTF-32
    browser = decode_html(body, "text/html", fallback="browser")
    assert browser.encoding == "windows-1252"


def test_undeclared_seven_bit_iso_2022_jp_is_not_taken_for_utf8() -> None:
    body = b"<p>" + "今日はいい天気ですね。散歩に行きましょう。".encode("iso2022_jp") + b"</p>"
    assert body.isascii()
    result = decode_html(body, "text/html", url="http://example.jp/")
    # With the detector: ISO-2022-JP; without it: the valid-UTF-8 reading (the bytes are ASCII).
    assert result.source in ("detected", "utf-8-valid")
    if result.source == "detected":
        assert result.encoding == "ISO-2022-JP"
        assert "天気" in result.text
