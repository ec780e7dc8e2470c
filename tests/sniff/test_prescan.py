"""The HTML Standard's prescan: meta forms, attribute parsing, the 1024-byte window, linear time."""

from __future__ import annotations

import pytest

from mojifix.sniff.prescan import (
    PRESCAN_LIMIT,
    extract_charset_from_content,
    get_attribute,
    prescan,
    prescan_counted,
)


def _name(data: bytes, end: int = PRESCAN_LIMIT) -> str | None:
    found = prescan(data, end)
    return None if found is None else found.encoding.name


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"<meta charset=koi8-r>", "KOI8-R"),
        (b'<META CHARSET="KOI8-R">', "KOI8-R"),
        (b"<meta charset = ' koi8-r '>", "KOI8-R"),  # whitespace around = and inside the label
        (b"<meta/charset=koi8-r>", "KOI8-R"),
        (b"<meta\x0ccharset=koi8-r>", "KOI8-R"),
        (b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', "KOI8-R"),
        (b'<meta content="text/html; charset=koi8-r" http-equiv=content-type>', "KOI8-R"),
        (b'<meta content="text/html; charset=koi8-r">', None),  # need pragma, no pragma
        (b'<meta name=charset content="koi8-r">', None),
        (b"<meta charset=koi8-r/>", None),  # the value is "koi8-r/"
        (b"<metacharset=koi8-r>", None),
        (b'<meta charset="koi8-r>', None),  # unterminated quote runs out of bytes
        (b"<meta charset=bogus><meta charset=koi8-r>", "KOI8-R"),  # failure -> next meta
        (b"<meta charset=windows-1253><meta charset=koi8-r>", "windows-1253"),  # first one wins
        (b"<meta charset=windows-1253 charset=koi8-r>", "windows-1253"),  # repeated attribute skipped
        (b'<meta content="charset=koi8-r" http-equiv=content-type charset=windows-1253>', "windows-1253"),
        (b"<!--<meta charset=koi8-r>--><meta charset=windows-1253>", "windows-1253"),
        (b"<!--><meta charset=koi8-r>", "KOI8-R"),  # "<!-->" is a whole comment
        (b"<!---><meta charset=koi8-r>", "KOI8-R"),
        (b'<p title="<meta charset=koi8-r>"><meta charset=windows-1253>', "windows-1253"),
        (b"<script><meta charset=koi8-r></script>", "KOI8-R"),  # the prescan does not know <script>
        (b"</p <meta charset=koi8-r>>", None),  # "</" + letter: a tag whose attribute is "<meta"
        (b"</3 <meta charset=koi8-r>><meta charset=windows-1253>", "windows-1253"),  # bogus comment
        (b"<?php <meta charset=koi8-r> ?><meta charset=windows-1253>", "windows-1253"),
        (b"<!DOCTYPE html><meta charset=utf-16le>", "UTF-8"),  # step 14
        (b"<meta charset=utf-16be>", "UTF-8"),
        (b"<meta charset=x-user-defined>", "windows-1252"),  # step 15
        (b"<meta charset=iso-2022-kr>", "replacement"),
        (b"<meta charset=latin1>", "windows-1252"),
        (b"<\x00?\x00x\x00m\x00l\x00", "UTF-16LE"),  # step 2
        (b"\x00<\x00?\x00x\x00m\x00l", "UTF-16BE"),
        (b"<meta", None),
        (b"<", None),
        (b"", None),
    ],
)
def test_prescan(data: bytes, expected: str | None) -> None:
    assert _name(data) == expected


def test_declaration_records_label_and_offsets() -> None:
    data = b"<!DOCTYPE html>\n<meta http-equiv=Content-Type content='text/html; charset=Shift_JIS'>"
    found = prescan(data)
    assert found is not None
    assert (found.label, found.kind, found.start, found.end) == ("Shift_JIS", "meta-content", 16, len(data))


@pytest.mark.parametrize(
    ("content", "label"),
    [
        ("text/html; charset=koi8-r", "koi8-r"),
        ("text/html; charset = koi8-r", "koi8-r"),
        ("charset='koi8-r'", "koi8-r"),
        ('charset="koi8-r";x', "koi8-r"),
        ("charset=koi8-r;x", "koi8-r"),
        ("charset=koi8-r x", "koi8-r"),
        ("foocharset=koi8-r", "koi8-r"),
        ("charset x charset=koi8-r", "koi8-r"),  # no "=" after the first: search again
        ('charset="koi8-r', None),  # unmatched quote
        ("charset=", None),
        ("text/html;charset", None),
        ("", None),
    ],
)
def test_extract_charset_from_content(content: str, label: str | None) -> None:
    assert extract_charset_from_content(content) == label


def test_get_attribute_states() -> None:
    data = b' A="x" b c = d e=>'
    status, name, value, pos = get_attribute(data, 0, len(data))
    assert (status, name, value) == (1, b"a", b"x")
    status, name, value, pos = get_attribute(data, pos, len(data))
    assert (status, name, value) == (1, b"b", b"")
    status, name, value, pos = get_attribute(data, pos, len(data))
    assert (status, name, value) == (1, b"c", b"d")
    status, name, value, pos = get_attribute(data, pos, len(data))
    assert (status, name, value) == (1, b"e", b"")
    assert get_attribute(data, pos, len(data))[0] == 0
    assert get_attribute(b" x='unterminated", 0, 16)[0] == -1


def _meta_ending_at(last: int, tag: bytes = b"<meta charset=koi8-r>") -> bytes:
    """A document whose meta's ">" is byte ``last`` (0-based)."""
    pad = last + 1 - len(tag) - len(b"<!--") - len(b"-->")
    data = b"<!--" + b"x" * pad + b"-->" + tag
    assert data[last] == ord(">") and len(data) == last + 1
    return data + b"<p>rest of the page</p>"


@pytest.mark.parametrize(("last", "found"), [(1022, True), (1023, True), (1024, False), (1025, False)])
def test_window_boundary(last: int, found: bool) -> None:
    # The prescan sees bytes 0..1023: a meta whose ">" is byte 1023 is the last one it can read.
    assert (_name(_meta_ending_at(last)) == "KOI8-R") is found


def test_window_boundary_quoted_value() -> None:
    # With a quoted value the closing quote is not enough: the prescan must also reach the ">".
    assert _name(_meta_ending_at(1023, b'<meta charset="koi8-r">')) == "KOI8-R"
    assert _name(_meta_ending_at(1024, b'<meta charset="koi8-r">')) is None


@pytest.mark.parametrize(
    "data",
    [
        b"<!--" * 500_000,  # megabytes of unterminated comment openers
        b"<a " + b"x" * 2_000_000,  # a tag that never ends
        b'<a b="' + b"x" * 2_000_000,  # an unterminated attribute value
        b"<meta " * 300_000,  # "<meta" followed by a space, over and over
        b"<meta" * 1_000_000,  # 10^6 "<meta" without a space
        b"<meta x=y>" * 200_000,  # many complete metas without a declaration
        b"</" * 500_000,
    ],
)
def test_linear_time_on_adversarial_input(data: bytes) -> None:
    # Run over the whole input (not just 1024 bytes): each Loop iteration consumes at least one "<",
    # and searches never move backwards, so the step count is bounded by the number of "<".
    found, steps = prescan_counted(data, end=len(data))
    assert found is None
    assert steps <= data.count(b"<") + 1
