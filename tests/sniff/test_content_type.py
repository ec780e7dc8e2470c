"""Fetch's "extract a MIME type" / "legacy extract an encoding" over Content-Type header values."""

from __future__ import annotations

import pytest

from mojifix.sniff.content_type import (
    extract_mime_type,
    legacy_extract_encoding,
    normalize_header_values,
    parse_mime_type,
    split_header_values,
)


def _charset(values: list[str]) -> str | None:
    mime, _ = extract_mime_type(values)
    return None if mime is None else mime.get("charset")


@pytest.mark.parametrize(
    ("value", "essence", "charset"),
    [
        ("text/html; charset=utf-8", "text/html", "utf-8"),
        ("TEXT/HTML;CHARSET=UTF-8", "text/html", "UTF-8"),  # type/subtype/name lowercased, value kept
        ("text/html;charset=utf-8   ", "text/html", "utf-8"),  # trailing whitespace of the value removed
        ("\t text/html; charset=utf-8\r\n", "text/html", "utf-8"),  # CRLF and outer whitespace stripped
        ("text/html;\r\n charset=utf-8", "text/html", "utf-8"),  # folded header: HTTP whitespace skipped
        ('text/html; charset="utf-8"', "text/html", "utf-8"),
        ('text/html; charset="ut\\f-8"', "text/html", "utf-8"),  # quoted-pair unescaped
        ('text/html; charset="utf-8" junk', "text/html", "utf-8"),  # rest of a quoted value ignored
        ("text/html; charset=koi8-r; charset=utf-8", "text/html", "koi8-r"),  # first duplicate wins
        ("text/html; charset =utf-8", "text/html", None),  # "charset " is not a token: ignored
        ("text/html; charset=", "text/html", None),  # empty value: ignored
        ("text/html; charset", "text/html", None),
        ("text/html;;charset=gbk", "text/html", "gbk"),
        ("text/html ; charset=gbk", "text/html", "gbk"),  # subtype's trailing whitespace removed
    ],
)
def test_parse_mime_type(value: str, essence: str, charset: str | None) -> None:
    mime = parse_mime_type(value)
    assert mime is not None
    assert mime.essence == essence
    assert mime.get("charset") == charset


@pytest.mark.parametrize(
    "value", ["", "garbage", "text/", "/html", "te xt/html", "text/ht ml", "text\\/html", "ü/x"]
)
def test_parse_mime_type_failure(value: str) -> None:
    assert parse_mime_type(value) is None


def test_split_respects_quotes() -> None:
    assert split_header_values(['text/html;x="a,b", text/plain']) == ['text/html;x="a,b"', "text/plain"]
    assert split_header_values(["a/b", " c/d \t"]) == ["a/b", "c/d"]


@pytest.mark.parametrize(
    ("values", "essence", "charset"),
    [
        # The examples of Fetch's "extract a MIME type".
        (["text/plain;charset=gbk", "text/html"], "text/html", None),
        (["text/html;charset=gbk;a=b", "text/html;x=y"], "text/html", "gbk"),
        (["text/html;charset=gbk;a=b, text/html;x=y"], "text/html", "gbk"),  # same, in one header
        (["text/html;charset=gbk", "x/x"], "x/x", None),
        (["text/html;charset=gbk", "x/x;charset=shift_jis"], "x/x", "shift_jis"),
        (["text/html;charset=gbk", "*/*"], "text/html", "gbk"),  # */* is skipped
        (["text/html;charset=gbk", "garbage"], "text/html", "gbk"),  # invalid values are skipped
        (["text/html;charset=gbk", "text/html;charset=windows-1252"], "text/html", "windows-1252"),
        # A later value without charset takes the FIRST stored charset of its essence (Fetch 6.5).
        (["text/html;charset=a", "text/html;charset=b", "text/html"], "text/html", "a"),
    ],
)
def test_extract_mime_type(values: list[str], essence: str, charset: str | None) -> None:
    mime, _ = extract_mime_type(values)
    assert mime is not None
    assert (mime.essence, mime.get("charset")) == (essence, charset)


def test_extract_mime_type_all_invalid() -> None:
    assert extract_mime_type(["nonsense", "*/*"]) == (None, None)


def test_legacy_extract_encoding_provenance() -> None:
    found = legacy_extract_encoding(["text/html", "text/html; charset=Shift_JIS"])
    assert found.encoding is not None and found.encoding.name == "Shift_JIS"
    assert found.label == "Shift_JIS"
    assert found.origin == "Content-Type header (value 2 of 2)"
    assert found.problems == ()


@pytest.mark.parametrize(
    ("values", "problems"),
    [
        (["text/html; charset=bogus"], ("unknown-label",)),
        (["garbage"], ("invalid-content-type",)),
        (["text/html"], ()),
        ([], ()),
    ],
)
def test_legacy_extract_encoding_problems(values: list[str], problems: tuple[str, ...]) -> None:
    found = legacy_extract_encoding(values)
    assert found.encoding is None
    assert found.problems == problems


def test_latin1_label_is_windows_1252() -> None:
    found = legacy_extract_encoding(["text/html; charset=ISO-8859-1"])
    assert found.encoding is not None and found.encoding.name == "windows-1252"


def test_normalize_header_values() -> None:
    assert normalize_header_values(None) == ([], False)
    assert normalize_header_values("a/b") == (["a/b"], False)
    assert normalize_header_values(b"text/html; charset=\xe9") == (["text/html; charset=\xe9"], False)
    assert normalize_header_values(["a/b", 3, b"c/d"]) == (["a/b", "c/d"], True)
    assert normalize_header_values(42) == ([], True)
