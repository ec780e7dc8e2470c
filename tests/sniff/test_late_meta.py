"""Chromium's meta scan: in the head without limit, then the first 1024 bytes; raw-text states.

Expected values are Chromium 156's measured behaviour (docs/browser-measurements.md).
"""

from __future__ import annotations

import pytest

from mojifix.sniff.late_meta import scan_head_meta

META = b"<meta charset=koi8-r>"
COMMENT = b"<!--" + b"x" * 1100 + b"-->"


def _name(data: bytes) -> str | None:
    found = scan_head_meta(data).declaration
    return None if found is None else found.encoding.name


@pytest.mark.parametrize(
    "before",
    [
        COMMENT,
        b"<!--" + b"y" * 200_000 + b"-->",
        b"<script>" + b"var a = '<p>';" * 20_000 + b"</script>",
        b"<style>" + b"p{color:red}" * 200 + b"</style>",
        b"<title>" + b"<p>t" * 400 + b"</title>",
        b'<meta name="x" content="y">' * 60,
        b'<link rel="stylesheet" href="a.css">' * 60,
        b"<base href=/>" * 90,
        b" \n" * 1000,
        b"<!DOCTYPE html " + b"x" * 1100 + b">",
        b"<?xml " + b"x" * 1100 + b"?>",
        b"<![CDATA[" + b"x" * 1100 + b"]]>",
        b"<!DOCTYPE html><html><head>" + COMMENT,
        b"<HEAD>" + COMMENT,
        b"hello hello " * 130,  # character data does not end the head
        b"<noscript></noscript><object></object>" + COMMENT,
        b"</title></script></style></meta></link></object></noscript></base>" + COMMENT,
    ],
)
def test_meta_honoured_while_in_head(before: bytes) -> None:
    assert _name(before + META) == "KOI8-R"


@pytest.mark.parametrize(
    "ender",
    [
        b"<body>", b"<p>", b"<div>", b"<span>", b"<img src=x>", b"<svg>", b"<template>", b"<param>",
        b"<bgsound>", b"<basefont>", b"<textarea></textarea>", b"<xmp></xmp>", b"<iframe></iframe>",
        b"</head>", b"</html>", b"</body>", b"</br>", b"</foo>", b"<custom-element>",
        b"<noscript><p>x</p></noscript>",
    ],
)  # fmt: skip
def test_head_ended_then_meta_past_1024_ignored(ender: bytes) -> None:
    scan = scan_head_meta(ender + COMMENT + META)
    assert scan.declaration is None
    assert scan.head_end is not None


@pytest.mark.parametrize(
    ("offset", "honoured"), [(1018, True), (1022, True), (1023, True), (1024, False), (1027, False)]
)
def test_body_meta_cut_at_byte_1024(offset: int, honoured: bool) -> None:
    # After <p>, a meta whose "<" is at byte 1023 is honoured, at 1024 it is not (measured).
    prefix = b"<p>" + b"a" * (offset - 3)
    assert len(prefix) == offset
    assert (_name(prefix + META) == "KOI8-R") is honoured


def test_body_meta_after_comment_padding() -> None:
    pad = b"<p><!--" + b"x" * (1023 - 10) + b"-->"
    assert len(pad) == 1023
    assert _name(pad + META) == "KOI8-R"
    assert _name(pad + b" " + META) is None


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"<script><meta charset=koi8-r></script>", None),
        (b"<title><meta charset=koi8-r></title>", None),
        (b"<style><meta charset=koi8-r></style>", None),
        (b"<textarea><meta charset=koi8-r></textarea>", None),
        (b"<xmp><meta charset=koi8-r></xmp>", None),
        (b"<noscript><meta charset=koi8-r></noscript>", "KOI8-R"),  # scripting is off in the scan
        (b"<script></SCRIPT ><meta charset=koi8-r>", "KOI8-R"),
        (b"<script></scripty><meta charset=koi8-r></script>", None),
        (b"<title></title\t><meta charset=koi8-r>", "KOI8-R"),
        # script data escape states: "</script>" inside "<!-- <script>" does not end the script
        (b"<script><!--<script></script><meta charset=koi8-r>--></script>", None),
        (b"<script><!--<script></script>--></script><meta charset=koi8-r>", "KOI8-R"),
        (b"<script><!--></script><meta charset=koi8-r>", "KOI8-R"),
        (b"<!-- x --!><meta charset=koi8-r><!-- -->", "KOI8-R"),  # "--!>" closes a comment
        (b"<!--><meta charset=koi8-r>", "KOI8-R"),
        (b"<!---><meta charset=koi8-r>", "KOI8-R"),
        (b"<meta charset=windows-1253 charset=koi8-r>", "KOI8-R"),  # the last duplicate wins
        (b'<meta charset="koi8-r" charset="windows-1253">', "windows-1253"),
        (b"<meta charset=koi8-r charset=bogus>", None),
        (b'<meta charset="" content="text/html; charset=koi8-r" http-equiv=content-type>', None),
        (b'<meta charset="" content="x"><meta charset=koi8-r>', "KOI8-R"),  # the scan continues
        (b'<meta http-equiv=content-type content="text/html; charset=koi8-r">', "KOI8-R"),
        (b'<meta content="charset=koi8-r" http-equiv="Content-Type">', "KOI8-R"),
        (b'<meta http-equiv=refresh content="text/html; charset=koi8-r">', None),
        (b'<meta http-equiv=" content-type " content="charset=koi8-r">', None),
        (b'<meta http-equiv=content-type content="charset=koi8-r\'">', "KOI8-R"),  # ExtractCharset stops at '
        (b"<meta charset=&#107;oi8-r>", "KOI8-R"),  # character references in attribute values
        (b"<meta charset=utf-16>", "UTF-8"),
        (b"<meta charset=x-user-defined>", "windows-1252"),
        (b"<meta charset=hz-gb-2312>", "replacement"),
        (b"<meta charset=utf-32>", None),
        (b"<meta charset=koi8-r/>", None),
        (b"<meta\x00charset=koi8-r>", None),
        (b'<meta charset="koi8-r>', None),
        (b"<meta", None),
        (b"<", None),
        (b"", None),
    ],
)
def test_tokenizer_rules(data: bytes, expected: str | None) -> None:
    assert _name(data) == expected


def test_declaration_offsets() -> None:
    data = COMMENT + b"\n" + META
    found = scan_head_meta(data).declaration
    assert found is not None
    assert (found.start, found.end, found.label, found.kind) == (
        len(COMMENT) + 1,
        len(data),
        "koi8-r",
        "meta-charset",
    )


@pytest.mark.parametrize(
    ("data", "max_tokens"),
    [
        (b"<!--" * 1_000_000, 2),  # one comment that never closes
        (b'<p a="' + b"x" * 2_000_000, 1),  # an unterminated attribute: no token at all
        (b"<meta" * 1_000_000, 1),  # 10^6 "<meta": one tag name that never ends
        (b"<meta " * 300_000, 1),  # one tag with 300,000 attributes that never ends
        (b"<meta>" * 100_000, 100_000),  # 10^5 complete metas, all in the head: every one is a token
        (b"<script>" + b"<!--<script>" * 200_000, 1),
    ],
)
def test_linear_time_on_adversarial_input(data: bytes, max_tokens: int) -> None:
    scan = scan_head_meta(data)
    assert scan.declaration is None
    assert scan.tokens <= max_tokens


def test_scan_stops_early_in_body() -> None:
    data = b"<body>" + b"<p>x</p>" * 100_000 + META
    scan = scan_head_meta(data)
    assert scan.declaration is None
    assert scan.stopped_at < 1100  # stopped right after byte 1024, not at the end of the page


def test_end_tag_open_gt_makes_no_token() -> None:
    # "</>" is dropped by the tokenizer without a token, so no stop check runs before the next
    # token: a run of them carries the scan past byte 1024 (from Blink's code, not measured).
    pad = b"<p>" + b"a" * 1000
    assert _name(pad + b"</>" * 40 + META) == "KOI8-R"
    # A space past byte 1024 is a character token: its check stops the scan.
    assert _name(pad + b"</>" * 8 + b" " + b"</>" * 30 + META) is None
