"""Non-HTML bodies follow their own standards (JSON, XML, CSS, text); HTML goes to decode_html."""

from __future__ import annotations

import pytest

from mojifix.integrations._content import body_kind, decode_body, is_textual, transport_of


@pytest.mark.parametrize(
    ("content_type", "kind"),
    [
        (None, "html"),
        ("text/html; charset=utf-8", "html"),
        ("application/json", "json"),
        ("application/ld+json", "json"),
        ("text/xml", "xml"),
        ("application/xhtml+xml", "xml"),
        ("application/rss+xml; charset=koi8-r", "xml"),
        ("text/css", "css"),
        ("text/plain", "text"),
        ("application/javascript", "text"),
        ("text/csv", "text"),
        ("image/png", "binary"),
        ("application/octet-stream", "binary"),
        ("application/pdf", "binary"),
    ],
)
def test_body_kind(content_type: str | None, kind: str) -> None:
    assert body_kind(transport_of(content_type).mime_type) == kind
    assert is_textual(content_type) == (kind != "binary")


def test_json_is_utf8_whatever_the_header_says() -> None:
    got = decode_body('{"a": "Zoë"}'.encode(), "application/json; charset=iso-8859-1")
    assert (got.text, got.encoding, got.source) == ('{"a": "Zoë"}', "UTF-8", "default")
    assert "json-charset-ignored" in got.warning_codes


def test_json_utf8_bom_is_removed_but_a_utf16_bom_does_not_switch() -> None:
    assert decode_body(b'\xef\xbb\xbf{"a": 1}', "application/json").text == '{"a": 1}'
    got = decode_body(b"\xff\xfe{\x00}\x00", "application/json")
    # Fetch's "UTF-8 decode": only a UTF-8 BOM is special; FF FE are invalid UTF-8 bytes
    assert got.encoding == "UTF-8" and got.text == "\ufffd\ufffd{\x00}\x00"
    assert got.replacement_count == 2


def test_xml_header_beats_declaration_and_bom_beats_header() -> None:
    body = '<?xml version="1.0" encoding="windows-1251"?><a>Привет</a>'.encode("koi8-r")
    got = decode_body(body, "application/xml; charset=koi8-r")
    assert (got.encoding, got.source) == ("KOI8-R", "transport")
    assert got.text == '<?xml version="1.0" encoding="windows-1251"?><a>Привет</a>'
    bom = decode_body(b"\xef\xbb\xbf<a>\xc3\xa9</a>", "text/xml; charset=iso-8859-1")
    assert (bom.text, bom.source) == ("<a>é</a>", "bom")
    assert "bom-contradicts-declaration" in bom.warning_codes


def test_xml_declaration_then_utf8_default() -> None:
    body = "<?xml version='1.0' encoding='Shift_JIS'?><r>表示</r>".encode("cp932")
    got = decode_body(body, "text/xml")
    assert (got.encoding, got.source, got.label) == ("Shift_JIS", "xml-declaration", "Shift_JIS")
    assert got.text.endswith("<r>表示</r>")
    plain = decode_body("<r>é</r>".encode(), "application/xml")
    assert (plain.encoding, plain.source, plain.text) == ("UTF-8", "default", "<r>é</r>")
    latin = decode_body(b'<?xml version="1.0" encoding="latin1"?><r>\x80</r>', "text/xml")
    assert latin.encoding == "windows-1252" and latin.text.endswith("<r>€</r>")


def test_xml_bomless_utf16_and_utf16_label_on_ascii() -> None:
    text = '<?xml version="1.0"?><r>ж</r>'
    got = decode_body(text.encode("utf-16-le"), "text/xml")
    assert (got.encoding, got.text) == ("UTF-16LE", text)
    ascii_decl = decode_body(b'<?xml version="1.0" encoding="utf-16"?><r>\xc3\xa9</r>', "text/xml")
    assert ascii_decl.encoding == "UTF-8" and ascii_decl.text.endswith("<r>é</r>")
    assert "utf16-label-on-ascii" in ascii_decl.warning_codes


def test_css_charset_rule_after_header() -> None:
    body = '@charset "iso-8859-5";\na::before { content: "Ж"; }'.encode("iso-8859-5")
    got = decode_body(body, "text/css")
    assert (got.encoding, got.source) == ("ISO-8859-5", "css-charset")
    assert got.text.endswith('content: "Ж"; }')
    header = decode_body(body, "text/css; charset=utf-8")
    assert header.source == "transport" and header.replacement_count == 1  # 0xB6 is not UTF-8
    # not at byte 0, or single quotes: no @charset rule (CSS Syntax 3 matches the exact bytes)
    assert decode_body(b' @charset "koi8-r";', "text/css").source != "css-charset"
    assert decode_body(b"@charset 'koi8-r';", "text/css").source != "css-charset"


def test_text_plain_bom_header_then_utf8_or_fallback() -> None:
    assert decode_body(b"\xfe\xff\x00h\x00i", "text/plain; charset=utf-8").text == "hi"
    header = decode_body(b"caf\xe9", "text/plain; charset=latin1")
    assert (header.text, header.encoding, header.source) == ("café", "windows-1252", "transport")
    valid = decode_body("naïve".encode(), "text/plain", url="http://example.jp/x.txt")
    assert (valid.text, valid.source) == ("naïve", "utf-8-valid")
    # what a browser would have shown: the .jp legacy default
    assert (valid.browser_encoding, valid.browser_source) == ("Shift_JIS", "tld-default")


def test_text_plain_undeclared_legacy_bytes_are_decoded_without_replacement() -> None:
    body = "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 3
    got = decode_body(body.encode("cp1251"), "text/plain", url="http://example.ru/a.txt")
    assert got.source in ("detected", "default")
    if got.source == "detected":  # mojifix.detect is present
        assert (got.text, got.encoding) == (body, "windows-1251")


def test_html_and_missing_content_type_go_to_decode_html() -> None:
    body = b'<meta charset="koi8-r"><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>'
    for ct in (None, "text/html", ["text/html"]):
        got = decode_body(body, ct)
        assert (got.encoding, got.source) == ("KOI8-R", "meta")
        assert got.text.endswith("<p>Привет</p>")


def test_unknown_and_replacement_labels_in_header() -> None:
    unknown = decode_body(b"abc", "text/plain; charset=no-such-thing")
    assert unknown.source == "utf-8-valid"
    repl = decode_body("é".encode(), "text/plain; charset=iso-2022-kr")
    # as in browsers (and decode_html): the replacement encoding turns the body into one U+FFFD
    assert (repl.encoding, repl.text) == ("replacement", "\ufffd")
    assert "replacement-label" in repl.warning_codes
    forced = decode_body("é".encode(), "text/plain; charset=iso-2022-kr", override="utf-8")
    assert forced.text == "é"


def test_non_bytes_body_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        decode_body("text", "text/plain")  # type: ignore[arg-type]


def test_a_replacement_character_written_in_a_utf8_body_is_content_not_an_error() -> None:
    # as decode_html counts it: only U+FFFD that the decoder produced for invalid bytes are replacements
    got = decode_body('{"a": "\ufffd"}'.encode() + b"\xff", "application/json")
    assert got.text == '{"a": "\ufffd"}\ufffd'
    assert got.replacement_count == 1
    assert [w.details["count"] for w in got.warnings if w.code == "replacement-characters"] == [1]
