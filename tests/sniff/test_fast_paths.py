"""The exact shortcuts on decode_html's hot path give what the step-by-step code gives.

Each shortcut is checked against its reference: ``top_meta_charset`` against Chromium's token loop
and the Standard's prescan; the first steps of ``scan_head_meta`` against the token loop
(``fast=False``); the simple-meta attribute reader against the tokenizer states (``_parse_tag``);
``_meta_reachable`` against its definition; ``tld_of``'s plain-URL path against the general code;
the remembered Content-Type parse against ``legacy_extract_encoding``; ``fffd_count`` against
``str.count``; the ASCII decode against each encoding's decoder; the 4 KB UTF-8 probe against the
full strict decode.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.sniff import decode_html, late_meta
from mojifix.sniff.api import (
    _ASCII_NOT_AS_IS,
    _UTF8_PROBE_BYTES,
    _decode,
    _probed_utf8_text,
    _transport,
    _utf8_text,
)
from mojifix.sniff.content_type import legacy_extract_encoding
from mojifix.sniff.late_meta import (
    META_OPEN,
    _chromium_extract_charset,
    _fast_tag,
    _meta_reachable,
    _parse_tag,
    scan_head_meta,
    top_meta_charset,
)
from mojifix.sniff.prescan import PRESCAN_LIMIT, prescan
from mojifix.sniff.result import fffd_count
from mojifix.sniff.tld_defaults import _tld_of_any, tld_of
from mojifix.textcodec import WHATWG_NAMES
from mojifix.whatwg import lookup

#: Fragments where Chromium's tokenizer and the prescan part ways, or nearly: quotes and ">" in
#: attributes, "/" after a tag name or an unquoted label, comment forms, raw-text elements,
#: character references, duplicate and empty labels.
FRAGMENTS = [
    b"<meta charset=koi8-r>",
    b"<meta charset='gbk'>",
    b'<meta charset="shift_jis">',
    b"<meta charset=utf-8/>",
    b"<meta charset=utf-8 />",
    b"<meta charset=big5 / >",
    b"<META CHARSET=euc-kr>",
    b"<meta charset=&#107;oi8-r>",
    b"<meta charset='koi8-r'/ >",
    b"<meta charset=''>",
    b"<meta charset=' utf-16le '>",
    b"<meta charset=bogus>",
    b"<meta charset=x-user-defined>",
    b"<meta charset = 'iso-2022-kr' >",
    b"<meta charset=gbk charset=big5>",
    b"<meta http-equiv=content-type content='text/html; charset=gbk'>",
    b'<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
    b"<meta content='text/html; charset=koi8-r' http-equiv='CONTENT-TYPE' />",
    b'<meta http-equiv="content-type" content="text/html; charset=&quot;gbk&quot;">',
    b'<meta http-equiv="content-type" content="charset = \'big5\'; x">',
    b'<meta http-equiv="content-type" content="text/html; charset=">',
    b'<meta http-equiv="content-type" content="charsetx=1; CHARSET=euc-kr">',
    b'<meta http-equiv="content-type" content="charset=utf-16le">',
    b'<meta http-equiv="content-type" content="charset=gbk" charset=big5>',
    b'<meta http-equiv="content-type"content="charset=gbk">',
    b'<meta http-equiv="refresh" content="0; charset=gbk">',
    b'<meta http-equiv="content-type" content="charset=\x00gbk">',
    b'<meta http-equiv="content-type" content="charset=\x0bgbk">',
    b'<meta http-equiv="content-type" content="charset=gbk\x0b">',
    b'<meta http-equiv="content-type" content="charset=gbk\'x">',
    b"<meta http-equiv='content-type' content='charset=\"koi8-r\"'>",
    b"<meta name=a>",
    b"<meta",
    b" charset=gbk>",
    b"<meta/charset=gbk>",
    b"<metax charset=gbk>",
    b"<!--",
    b"-->",
    b"--!>",
    b"<!-->",
    b"<!--->",
    b"-",
    b"<!-",
    b"<script>",
    b"</script>",
    b"<style>",
    b"</style>",
    b"<title>",
    b"</title>",
    b"<textarea>",
    b"<xmp>",
    b"<plaintext>",
    b"<noscript>",
    b"<p>",
    b"<body>",
    b"</head>",
    b"<head>",
    b"<html lang=en>",
    b"<a/b='>'>",
    b"<a/b='>",
    b"<br/>",
    b"<a b='>'>",
    b'<a b=">">',
    b"<a x=1/y='>'>",
    b"<p =a>",
    b"<x-y z>",
    b"<a x=`>",
    b"/",
    b"'",
    b'"',
    b"=",
    b">",
    b"<",
    b"</",
    b"</>",
    b"</ x>",
    b"<?x?>",
    b"<!x>",
    b"<!DOCTYPE html>",
    b"&",
    b"\x00",
    b" ",
    b"\n",
    b"x" * 200,
    b"x" * 900,
]

documents = st.lists(st.sampled_from(FRAGMENTS), max_size=24).map(b"".join)


@settings(max_examples=600, deadline=None)
@given(body=documents)
def test_top_meta_charset_is_what_both_scans_read(body: bytes) -> None:
    top = top_meta_charset(body)
    if top is None:
        return
    # a remembered answer is the one the match gives afresh
    fresh = late_meta._top_declaration(late_meta._TOP_META.match(body, 0, PRESCAN_LIMIT))
    assert top == fresh
    assert top.end <= PRESCAN_LIMIT
    assert scan_head_meta(body, fast=False).declaration == top
    spec = prescan(body)
    assert spec is not None and spec.encoding == top.encoding


def test_top_meta_charset_remembers_by_tag_and_offset() -> None:
    tag = b'<meta http-equiv="Content-Type" content="text/html; charset=gbk">'
    first = top_meta_charset(b"<html><head>" + tag)
    moved = top_meta_charset(b"<html>\n<head>\n" + tag)  # same tag, two bytes later
    again = top_meta_charset(b"<html><head>" + tag + b"<title>other page</title>")
    assert first is not None and moved is not None
    assert (first.start, first.end) == (12, 12 + len(tag))
    assert (moved.start, moved.end) == (14, 14 + len(tag))
    assert again == first
    assert top_meta_charset(b"<html><head>" + tag.replace(b"gbk", b"koi8-r")).encoding.name == "KOI8-R"


def test_top_meta_charset_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(late_meta, "_TOP_DECLARATIONS", {})
    monkeypatch.setattr(late_meta, "_TOP_CACHE_SIZE", 8)
    for i in range(40):
        top = top_meta_charset(b" " * i + b"<meta charset=gbk>")
        assert top is not None and top.start == i
    assert len(late_meta._TOP_DECLARATIONS) == 8
    long_tag = b"<meta charset=gbk" + b" " * 200 + b">"
    monkeypatch.setattr(late_meta, "_TOP_DECLARATIONS", {})
    assert top_meta_charset(long_tag) is not None
    assert late_meta._TOP_DECLARATIONS == {}  # longer than _TOP_CACHE_MAX_BYTES: not kept


@pytest.mark.parametrize(
    "body",
    [
        # The prescan's tag name runs through "/": it ends this tag at the quoted ">", Chromium does not.
        b"<a/b='><meta charset=koi8-r>'><meta charset=gbk>",
        b"<!--><meta charset=koi8-r>--><meta charset=gbk>",  # "<!-->" is a whole comment for both
        b"<title><meta charset=koi8-r></title>",  # text for Chromium, a meta for the prescan
        b"<meta charset=utf-8/>",  # the prescan reads the label "utf-8/"
        b"<meta charset=&#107;oi8-r>",  # Chromium decodes the reference, the prescan does not
        b"<meta charset=bogus><meta charset=gbk>",  # the first meta declares nothing
        b" " * 1010 + b"<meta charset=gbk>",  # ends past the prescan window
    ],
)
def test_top_meta_charset_leaves_the_unsure_cases_to_the_scans(body: bytes) -> None:
    assert top_meta_charset(body) is None


def test_top_meta_charset_reads_the_common_page() -> None:
    body = b'<!DOCTYPE html>\n<html lang="en">\n<head>\n<!-- site -->\n<meta charset="Shift_JIS">\n<title>x'
    top = top_meta_charset(body)
    assert top is not None
    assert (top.encoding.name, top.label, top.kind) == ("Shift_JIS", "Shift_JIS", "meta-charset")
    assert top.start == body.index(b"<meta") == 54
    assert body[top.start : top.end] == b'<meta charset="Shift_JIS">'


def test_top_meta_charset_reads_the_common_pragma_page() -> None:
    # The usual legacy declaration: both scans read it, so the shortcut answers for both.
    body = (
        b'<html>\n<head>\n<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1251">\n'
        b"<title>x</title>"
    )
    top = top_meta_charset(body)
    assert top is not None
    assert (top.encoding.name, top.label, top.kind, top.start) == (
        "windows-1251",
        "windows-1251",
        "meta-content",
        14,
    )
    assert top == scan_head_meta(body, fast=False).declaration
    spec = prescan(body)
    assert spec is not None and spec.encoding == top.encoding


@pytest.mark.parametrize(
    "body",
    [
        b'<meta http-equiv="content-type" content="charset=\x0bgbk">',  # VT: skipped by Chromium only
        b'<meta http-equiv="content-type" content="charset=gbk\'x">',  # Chromium ends the label at the quote
        b'<meta http-equiv="content-type" content="charset=&#103;bk">',  # Chromium decodes the reference
        b'<meta http-equiv="refresh" content="charset=gbk">',  # no pragma: a scan decides (nothing)
        b'<meta content="charset=gbk">',
    ],
)
def test_top_meta_charset_leaves_unsure_pragma_metas_to_the_scans(body: bytes) -> None:
    assert top_meta_charset(body) is None


def test_scan_reads_a_late_pragma_meta_directly() -> None:
    # The usual late declaration: a long head of scripts and styles, then <meta http-equiv>.
    pragma = b'<meta content="text/html; charset=EUC-KR" http-equiv="Content-Type" />'
    body = b"<html><head>" + b"<script>var a = 1;</script>\n<style>p { margin: 0 }</style>\n" * 30 + pragma
    fast = scan_head_meta(body)
    assert fast.declaration is not None
    assert (fast.declaration.encoding.name, fast.declaration.label, fast.declaration.kind) == (
        "EUC-KR",
        "EUC-KR",
        "meta-content",
    )
    assert fast.declaration.start == body.index(b"<meta") > PRESCAN_LIMIT
    assert fast.tokens == 2  # the head's run, then the meta
    slow = scan_head_meta(body, fast=False)
    assert (fast.declaration, fast.stopped_at) == (slow.declaration, slow.stopped_at)


@settings(max_examples=600, deadline=None)
@given(body=documents)
def test_first_steps_of_the_scan_agree_with_the_token_loop(body: bytes) -> None:
    fast = scan_head_meta(body)
    slow = scan_head_meta(body, fast=False)
    assert (fast.declaration, fast.head_end) == (slow.declaration, slow.head_end)


@pytest.mark.parametrize(
    ("body", "stopped_at"),
    [
        (b"<html><head><title>t</title></head><body>" + b"x" * 2000, 35),  # stops at </head>
        (b"<head></head>" + b"x" * 1100 + b"<meta charset=gbk>", 13),  # the meta is out of reach
        (b"<head><textarea>" + b"x" * 1100 + b"</textarea>", 1127),  # raw text: the loop decides
    ],
)
def test_scan_stops_where_the_token_loop_stops(body: bytes, stopped_at: int) -> None:
    fast = scan_head_meta(body)
    assert (fast.declaration, fast.stopped_at) == (None, stopped_at)
    slow = scan_head_meta(body, fast=False)  # token by token (it counts more tokens)
    assert (fast.declaration, fast.head_end, fast.stopped_at) == (
        slow.declaration,
        slow.head_end,
        slow.stopped_at,
    )


ATTRIBUTE_PARTS = [
    b" ",
    b"\t",
    b"/",
    b"charset",
    b"CONTENT",
    b"http-equiv",
    b"=",
    b'"',
    b"'",
    b"x",
    b"utf-8",
    b"<",
    b"`",
    b"&amp;",
    b"\x00",
    b"\xe9",
    b">",
]


@settings(max_examples=500, deadline=None)
@given(
    parts=st.lists(st.sampled_from(ATTRIBUTE_PARTS), max_size=14), sep=st.sampled_from([b" ", b"/", b"\n"])
)
def test_simple_meta_attributes_match_the_tokenizer_states(parts: list[bytes], sep: bytes) -> None:
    tag = b"<meta" + sep + b"".join(parts) + b">tail>"
    fast = _fast_tag(tag, 1, len(tag), end_tag=False)
    slow = _parse_tag(tag, 1, len(tag), end_tag=False)
    assert fast == slow


def _reachable_reference(data: bytes, pos: int, limit: int) -> bool:
    """_meta_reachable as its docstring defines it, with two separate searches."""
    if pos >= limit:
        return True
    return META_OPEN.search(data, pos, limit + 4) is not None or data.find(b"</>", pos, limit + 3) >= 0


@settings(max_examples=500, deadline=None)
@given(
    data=st.lists(
        st.sampled_from([b"<meta", b"<META", b"</>", b"<", b"/", b">", b"x", b"eta"]), max_size=12
    ).map(b"".join),
    pos=st.integers(0, 40),
    limit=st.integers(0, 40),
)
def test_meta_reachable_is_its_definition(data: bytes, pos: int, limit: int) -> None:
    assert _meta_reachable(data, pos, limit) == _reachable_reference(data, pos, limit)


def _extract_charset_reference(value: str) -> str:
    """Blink's ExtractCharset character by character (the loop the regex replaced)."""
    lowered, length, pos = value.lower(), len(value), 0
    while pos < length:
        pos = lowered.find("charset", pos)
        if pos < 0:
            break
        pos += 7
        while pos < length and value[pos] <= " ":
            pos += 1
        if pos >= length or value[pos] != "=":
            continue
        pos += 1
        while pos < length and value[pos] <= " ":
            pos += 1
        quote = ""
        if pos < length and value[pos] in "\"'":
            quote = value[pos]
            pos += 1
        if pos == length:
            break
        end = pos
        if quote:
            end = value.find(quote, pos)
            if end < 0:
                break
        else:
            while end < length and value[end] > " " and value[end] not in "\"';":
                end += 1
        return value[pos:end]
    return ""


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["charset", "CHARSET", "=", " ", "\x01", '"', "'", ";", "utf-8", "é", "\x7f"]),
        max_size=10,
    ).map("".join)
)
def test_extract_charset_matches_the_character_loop(value: str) -> None:
    assert _chromium_extract_charset(value) == _extract_charset_reference(value)


URL_PARTS = [
    "http",
    "https",
    "://",
    "//",
    ":",
    "/",
    "?",
    "#",
    "\\",
    "@",
    ".",
    "a",
    "B",
    "jp",
    "x-y",
    "1",
    "23",
    "[",
    "]",
    ":80",
    "é",
    " ",
    "-",
    "+",
    "www.example.jp",
    "1.2.3.4",
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(URL_PARTS), min_size=1, max_size=10).map("".join))
def test_tld_of_plain_url_path_matches_the_general_code(url: str) -> None:
    assert tld_of(url) == _tld_of_any(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://www.example.JP/a?b",
        "https://1.2.3.4:8080/",
        "http://a.com:80",
        "http://a.com:80x/",
        "http://user@b.ru/",
        "http://a.b./",
        "ftp://x-y.co.uk#f",
        "http://a.com\\b.jp",
    ],
)
def test_tld_of_everyday_urls(url: str) -> None:
    assert tld_of(url) == _tld_of_any(url)


@pytest.mark.parametrize(
    "value",
    [
        "text/html; charset=utf-8",
        "text/html;charset=Shift_JIS",
        "text/html",
        "garbage",
        "text/html; charset=bogus",
        'text/html; charset="gbk"; charset=big5',
        "x" * 300 + "/html; charset=gbk",
    ],
)
def test_remembered_content_type_parse_is_the_parse(value: str) -> None:
    assert _transport([value]) == legacy_extract_encoding([value])
    assert _transport([value]) == legacy_extract_encoding([value])  # again, from the cache when short


@pytest.mark.parametrize("text", ["", "abc", "\ufffd", "a\ufffdb\ufffd", "é" * 50 + "\ufffd", "日本\ufffd語"])
def test_fffd_count_is_count(text: str) -> None:
    assert fffd_count(text) == text.count("\ufffd")


@settings(max_examples=150, deadline=None)
@given(body=documents, content_type=st.sampled_from([None, "text/html; charset=windows-1252", "text/html"]))
def test_decode_html_reports_divergence_only_when_the_scans_differ(
    body: bytes, content_type: str | None
) -> None:
    # The top-meta shortcut skips the prescan: the divergence finding must still match a fresh prescan.
    result = decode_html(body, content_type, fallback="browser")
    if result.source != "meta":
        return
    spec = prescan(body)
    spec_name = spec.encoding.name if spec is not None else None
    assert ("prescan-divergence" in result.warning_codes) == (spec_name != result.encoding)


# --- the ASCII decode and the UTF-8 probe -----------------------------------------------------------

ALL_ASCII = bytes(range(128))


@pytest.mark.parametrize("name", sorted(WHATWG_NAMES))
def test_ascii_decodes_as_is_exactly_where_the_shortcut_says(name: str) -> None:
    # Every ASCII byte, alone and all together, through the standard's decoder: as is for every
    # encoding the shortcut takes, and not as is for each one it leaves out (the list is minimal).
    enc = lookup(name)
    assert enc is not None
    as_is = all(enc.decode(bytes([b]), bom="ignore") == chr(b) for b in ALL_ASCII) and (
        enc.decode(ALL_ASCII, bom="ignore") == ALL_ASCII.decode("ascii")
    )
    assert as_is == (name not in _ASCII_NOT_AS_IS)
    if as_is:
        assert _decode(ALL_ASCII, enc, True) == (enc.decode(ALL_ASCII, bom="sniff"), True)


@settings(max_examples=200, deadline=None)
@given(
    body=st.binary(max_size=300).map(lambda b: bytes(c & 0x7F for c in b)),
    name=st.sampled_from(sorted(WHATWG_NAMES)),
)
def test_ascii_body_decode_is_the_decoder(body: bytes, name: str) -> None:
    enc = lookup(name)
    assert enc is not None
    text, _ = _decode(body, enc, body.isascii())
    assert text == enc.decode(body, errors="replace", bom="ignore")


_UTF8_PIECES = st.sampled_from(
    [b"a", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xe9", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98",
     b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\x80", b"\xff"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    pad=st.integers(_UTF8_PROBE_BYTES - 12, _UTF8_PROBE_BYTES + 4),
    before=st.lists(_UTF8_PIECES, max_size=4),
    after=st.lists(_UTF8_PIECES, max_size=6),
)
def test_utf8_probe_is_the_full_check(pad: int, before: list[bytes], after: list[bytes]) -> None:
    # Sequences (valid, invalid, cut) on both sides of the probe's end, and short bodies.
    for body in (b"".join(before) + b"x" * pad + b"".join(after), b"".join(before + after)):
        assert _probed_utf8_text(body) == _utf8_text(body)


def test_first_sequence_is_judged_as_the_full_check_exhaustively() -> None:
    # Every first non-ASCII lead byte with every second byte, followed by the continuations that
    # make 3- and 4-byte forms (valid and overlong/surrogate/out of range), cut or complete:
    # _probed_utf8_text must never turn down valid UTF-8 nor pass invalid UTF-8.
    tails = (b"", b"\x80", b"\x80\x80", b"\xbf\xbf", b"a", b"\x80a")
    checked = 0
    for b1 in range(0x80, 0x100):
        for b2 in range(0x100):
            for tail in tails:
                body = b"<p>" + bytes((b1, b2)) + tail
                assert _probed_utf8_text(body) == _utf8_text(body), body
                checked += 1
    assert checked == 128 * 256 * len(tails)


#: Decodes UTF-8 pages, says whether the proofs module is loaded, then decodes the page of argv (its body
#: as latin-1 text, its Content-Type, its trust) and says it again.
_PROOFS_LOADED = """
import sys
from mojifix.sniff import decode_html
for body, content_type in ((b"<p>caf\\xc3\\xa9", "text/html; charset=utf-8"), (b"<p>caf\\xc3\\xa9", None)):
    decode_html(body, content_type)
print("mojifix.sniff.evidence" in sys.modules)
decode_html(sys.argv[1].encode("latin-1"), sys.argv[2] or None, trust=sys.argv[3])
print("mojifix.sniff.evidence" in sys.modules)
"""


@pytest.mark.parametrize(
    ("content_type", "trust", "loads"),
    [
        ("text/html; charset=utf-8", "browser", False),
        ("text/html; charset=windows-1252", "browser", True),  # a legacy declaration: _suspect may ask
        ("", "browser", True),  # undeclared legacy bytes: the detector
        ("text/html; charset=utf-8", "evidence", True),
    ],
)
def test_the_proofs_are_imported_only_by_a_page_that_needs_them(
    content_type: str, trust: str, loads: bool
) -> None:
    """``decode_html`` of UTF-8 pages never loads :mod:`mojifix.sniff.evidence` (the proofs and the
    detector's door); a page that needs them imports them where it does (a new process each)."""
    import subprocess
    import sys

    body = "<p>Le caf\xe9 est d\xe9j\xe0 pr\xeat, \xe0 c\xf4t\xe9 de l'\xe9glise.</p>"
    if content_type.endswith("utf-8"):
        body = body.encode("utf-8").decode("latin-1")
    argv = [sys.executable, "-c", _PROOFS_LOADED, body, content_type, trust]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", str(loads)]
