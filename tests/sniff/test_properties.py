"""Properties over generated input: decode_html never fails on content, the scans stay linear."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.sniff import decode_html
from mojifix.sniff.content_type import legacy_extract_encoding
from mojifix.sniff.late_meta import scan_head_meta
from mojifix.sniff.prescan import PRESCAN_LIMIT, prescan_counted
from mojifix.sniff.result import CONFIDENCES, SOURCES

#: Markup fragments that exercise every branch of the scans when glued together at random.
FRAGMENTS = [
    b"<meta charset=koi8-r>", b"<meta charset='utf-8'>",
    b"<meta http-equiv=content-type content='charset=gbk'>",
    b"<meta charset=bogus>", b"<meta", b"<!--", b"-->", b"--!>", b"<!-->", b"<script>", b"</script>",
    b"<style>", b"</style>", b"<title>", b"</title>", b"<p>", b"</p>", b"<body>", b"</head>", b"<head>",
    b'"', b"'", b"=", b"</>", b"<?xml encoding='koi8-r'?>", b"<!DOCTYPE html>", b" ", b"\n", b"x" * 300,
    b"\xc1\xc2", b"\xef\xbb\xbf", b"<a href=x>", b"<a b='>'>", b"&#107;", b"\x00",
]  # fmt: skip

documents = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map(b"".join)
header_values = st.one_of(
    st.none(),
    st.text(max_size=60),
    st.lists(
        st.text(alphabet=st.sampled_from('text/html;charset= "utf-8,\\\t\r\n*koi8-r'), max_size=40),
        max_size=3,
    ),
)


# Modest: undeclared non-UTF-8 bodies run the statistical detector, the slowest part.
@settings(max_examples=80, deadline=None)
@given(body=st.one_of(documents, st.binary(max_size=600)), content_type=header_values)
def test_decode_html_total_on_any_input(body: bytes, content_type: str | list[str] | None) -> None:
    for fallback in ("detect", "browser"):
        result = decode_html(body, content_type, url="http://example.ru/", fallback=fallback)
        assert result.source in SOURCES
        assert result.confidence in CONFIDENCES
        assert result.replacement_count >= 0
        assert isinstance(result.text, str)
        if result.source in ("bom", "override", "transport"):
            assert result.confidence == "certain"
        if fallback == "browser" or result.source not in ("utf-8-valid", "detected"):
            assert result.browser_encoding == result.encoding


@settings(max_examples=300, deadline=None)
@given(body=documents)
def test_scans_are_linear(body: bytes) -> None:
    # Each step of either scan consumes at least one "<" (or ends the scan).
    _, steps = prescan_counted(body, end=len(body))
    assert steps <= body.count(b"<") + 1
    scan = scan_head_meta(body)
    assert scan.tokens <= 2 * body.count(b"<") + 1  # at most one text and one markup token per "<"
    if scan.declaration is not None:
        assert body[scan.declaration.start : scan.declaration.start + 5].lower() == b"<meta"


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_valid_utf8_undeclared_round_trips(text: str) -> None:
    body = text.encode("utf-8")
    result = decode_html(body)
    if not body.startswith((b"\xef\xbb\xbf",)) and result.source == "utf-8-valid":
        assert result.text == text


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.text(max_size=40), max_size=4))
def test_content_type_parsing_never_raises(values: list[str]) -> None:
    found = legacy_extract_encoding(values)
    assert (found.encoding is None) or (found.label is not None)


HEAD_FRAGMENTS = [
    b"<script>", b"</script>", b"</SCRIPT >", b"<script src='a.js'>x=1</script>", b"<style>p{}</style>",
    b"<title>t</title>", b"<title><meta charset=koi8-r></title>", b"<link rel=x href='y'>", b"<base href=/>",
    b"<noscript>", b"</noscript>", b"<object>", b"<html lang=en>", b"<head>", b"</head>", b"<body>", b"<p>",
    b"<!--", b"-->", b"--!>", b"<!-->", b"<!--->", b"<!DOCTYPE html>", b"<?php ?>", b"<![CDATA[x]]>",
    b"<meta charset=koi8-r>", b"<meta charset=utf-16>", b"<meta name=a>", b"<meta", b"</>", b"</ x>", b"< ",
    b"'", b'"', b"=", b"/", b">", b"x" * 200, b" " * 300, b"\n", b"<script><!--", b"<script>", b"</title x>",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(body=st.lists(st.sampled_from(HEAD_FRAGMENTS), max_size=30).map(b"".join))
def test_fast_paths_agree_with_the_token_loop(body: bytes) -> None:
    fast = scan_head_meta(body)
    slow = scan_head_meta(body, fast=False)
    assert fast.declaration == slow.declaration
    assert fast.head_end == slow.head_end


@settings(max_examples=400, deadline=None)
@given(body=st.lists(st.sampled_from(HEAD_FRAGMENTS + FRAGMENTS), max_size=40).map(b"".join))
def test_prescan_fast_path_agrees_with_the_steps(body: bytes) -> None:
    for end in (PRESCAN_LIMIT, len(body)):
        assert prescan_counted(body, end)[0] == prescan_counted(body, end, fast=False)[0]
