"""``mojifix warc``'s output, byte for byte, against a reference built the straightforward way.

The speed work in the reader (FastWARC streamed, records built lean), the decoding loop and the JSON
writer must not change a single output byte. So a deterministic archive (written here by hand, gzip
members with mtime 0, fixed record ids and dates) with every kind of page the rules distinguish goes
through ``mojifix warc`` as a user runs it, and the JSONL must equal, byte for byte, what a plain
reference makes of the same archive: warcio's reader (a different parser), the public
``decode_body`` per response, the row's fields spelled out one by one, and ``json.dumps`` per row.
The summary (``--json``) must equal the one the reference counts. Any fast path that changes a row, a
warning, a count or the JSON spelling fails here.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections import Counter
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from warcio.archiveiterator import ArchiveIterator

from mojifix.cli import main
from mojifix.integrations._content import body_kind, decode_body, transport_of

_BOILERPLATE = "".join(f'<a href="/s/{k}" class="nav">Section {k}</a>' for k in range(30))
_LATE_HEAD = "<script>var x = 1;</script>" + "<!-- " + "padding " * 140 + "-->"
_FR = "Le café est déjà prêt, à côté de l'église. Où êtes-vous allés cet été ?"
_RU = "Съешь же ещё этих мягких французских булок. Привет, мир!"
_JA = "日本語のテキストです。東京都の天気は晴れ、気温は二十度。ありがとうございます。"
_ZH = "这是一个简体中文的网页。欢迎光临我们的网站，谢谢。"
_KO = "한국어 웹 페이지입니다. 오늘 날씨가 참 좋네요. 감사합니다."
_EL = "Καλημέρα κόσμε, τι κάνετε; Η τιμή είναι 10 €. Ευχαριστώ πολύ."


def _page(text: str, head: str = "") -> str:
    body = f"<body>{_BOILERPLATE}<p>{text}</p></body>"
    return f"<!DOCTYPE html><html><head>{head}<title>t</title></head>{body}</html>"


def _chunked(data: bytes, size: int = 50) -> bytes:
    parts = [
        b"%x\r\n%s\r\n" % (len(data[i : i + size]), data[i : i + size]) for i in range(0, len(data), size)
    ]
    return b"".join(parts) + b"0\r\n\r\n"


#: (URI, HTTP headers, payload) of every response: each declaration style, kind and warning the rules know.
RESPONSES: list[tuple[str | None, list[tuple[str, str]], bytes]] = [
    ("http://a.example.fr/utf8-header", [("Content-Type", "text/html; charset=utf-8")], _page(_FR).encode()),
    (
        "http://b.example.fr/utf8-meta",
        [("Content-Type", "text/html")],
        _page(_FR, '<meta charset="utf-8">').encode(),
    ),
    (
        "http://c.example.ru/utf8-pragma",
        [("Content-Type", "text/html")],
        _page(_RU, '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">').encode(),
    ),
    ("http://d.example.jp/utf8-undeclared", [("Content-Type", "text/html")], _page(_JA).encode()),
    (
        "http://e.example.ru/legacy-header",
        [("Content-Type", "text/html; charset=windows-1251")],
        _page(_RU).encode("cp1251"),
    ),
    (
        "http://f.example.jp/legacy-meta",
        [("Content-Type", "text/html")],
        _page(_JA, '<meta http-equiv="Content-Type" content="text/html; charset=shift_jis">').encode("cp932"),
    ),
    ("http://g.example.cn/legacy-undeclared", [("Content-Type", "text/html")], _page(_ZH).encode("gbk")),
    ("http://h.example.kr/legacy-undeclared", [("Content-Type", "text/html")], _page(_KO).encode("cp949")),
    ("http://i.example.gr/legacy-undeclared", [], _page(_EL).encode("cp1253")),
    (
        "http://j.example.de/bom-wrong-header",
        [("Content-Type", "text/html; charset=iso-8859-1")],
        b"\xef\xbb\xbf" + _page(_FR).encode(),
    ),
    ("http://k.example.com/utf16-bom", [("Content-Type", "text/html")], _page(_FR).encode("utf-16")),
    # header and meta disagree; the header wins and the body is not valid in it (U+FFFD, suspect)
    (
        "http://l.example.fr/conflict",
        [("Content-Type", "text/html; charset=utf-8")],
        _page(_FR, '<meta charset="windows-1252">').encode("cp1252"),
    ),
    # a legacy label over a UTF-8 body (declared-encoding-suspect)
    ("http://m.example.fr/suspect", [("Content-Type", "text/html; charset=iso-8859-1")], _page(_FR).encode()),
    (
        "http://n.example.ru/late-meta",
        [("Content-Type", "text/html")],
        _page(_RU, _LATE_HEAD + '<meta charset="windows-1251">').encode("cp1251"),
    ),
    # a meta inside <script>: the prescan reads it, Chromium does not (prescan-divergence)
    (
        "http://o.example.fr/divergence",
        [("Content-Type", "text/html")],
        _page(_FR, '<script>"<meta charset=koi8-r>"</script>').encode(),
    ),
    (
        "http://p.example.com/json",
        [("Content-Type", "application/json; charset=iso-8859-1")],
        json.dumps({"t": _FR}, ensure_ascii=False).encode(),
    ),
    (
        "http://q.example.jp/xml",
        [("Content-Type", "application/xml")],
        f'<?xml version="1.0" encoding="Shift_JIS"?><r>{_JA}</r>'.encode("cp932"),
    ),
    (
        "http://r.example.fr/css",
        [("Content-Type", "text/css")],
        '@charset "windows-1252"; /* café */ p { color: red }'.encode("cp1252"),
    ),
    ("http://s.example.ru/plain", [("Content-Type", "text/plain")], _RU.encode("koi8_r")),
    (
        "http://t.example.de/gzip-chunked",
        [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Encoding", "gzip"),
            ("Transfer-Encoding", "chunked"),
        ],
        _chunked(gzip.compress(_page(_FR).encode(), mtime=0)),
    ),
    (
        "http://u.example.de/deflate",
        [("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", "deflate")],
        zlib.compress(_page(_FR).encode()),
    ),
    # a crawler stored the decoded body but kept the header (note "content-encoding-already-removed")
    (
        "http://va.example.de/already-decoded",
        [("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", "gzip")],
        _page(_FR).encode(),
    ),
    ("http://v.example.de/br", [("Content-Type", "text/html"), ("Content-Encoding", "br")], b"\x0b\x02\x80"),
    (
        "http://w.example.fr/two-types",
        [("Content-Type", "text/html"), ("Content-Type", "text/html; charset=windows-1252")],
        _page(_FR).encode("cp1252"),
    ),
    ("http://x.example.fr/invalid-type", [("Content-Type", "html; charset=utf-8")], _page(_FR).encode()),
    (
        "http://y.example.fr/unknown-label",
        [("Content-Type", "text/html; charset=x-no-such")],
        _page(_FR).encode("cp1252"),
    ),
    (
        "http://z.example.kr/replacement-label",
        [("Content-Type", "text/html; charset=iso-2022-kr")],
        b"<p>\x1b$)C\x0e!!\x0f</p>",
    ),
    (
        "http://aa.example.com/fffd-in-utf8",
        [("Content-Type", "text/html; charset=utf-8")],
        _page("a \ufffd b").encode(),
    ),
    ("http://ab.example.com/ascii", [("Content-Type", "text/html")], _page("plain ascii text").encode()),
    ("http://ac.example.jp/iso-2022-jp", [("Content-Type", "text/html")], _page(_JA).encode("iso2022_jp")),
    ("http://ad.example.com/empty", [("Content-Type", "text/html")], b""),
    (
        "http://AE.Example.COM:8080/port",
        [("Content-Type", "text/html; charset=utf-8")],
        _page("héllo").encode(),
    ),
    (
        "https://ah.example.com/?q=1#f",
        [("Content-Type", "text/html; charset=utf-8")],
        _page("query").encode(),
    ),
    (
        "http://af.example.com/image.png",
        [("Content-Type", "image/png")],
        b"\x89PNG\r\n\x1a\n" + bytes(range(256)),
    ),
    ("http://ag.example.fr/xhtml", [("Content-Type", "application/xhtml+xml")], _page(_FR).encode()),
]

#: WARC-Date values cycled over the records: plain, fractional seconds, an offset, not a date at all.
_DATES = ("2024-03-01T12:00:00Z", "2024-03-01T12:00:01.5Z", "2024-03-01T12:00:02+02:00", "yesterday")


def _record(
    n: int, warc_type: str, uri: str | None, block: bytes, content_type: str, extra: str = ""
) -> bytes:
    head = f"WARC/1.1\r\nWARC-Type: {warc_type}\r\n"
    head += f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{n:012d}>\r\n"
    head += f"WARC-Date: {_DATES[n % len(_DATES)]}\r\n"
    if uri is not None:
        head += f"WARC-Target-URI: {uri}\r\n"
    head += f"{extra}Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n"
    return head.encode("utf-8") + block + b"\r\n\r\n"


def _http_response(headers: list[tuple[str, str]], payload: bytes) -> bytes:
    lines = "".join(f"{k}: {v}\r\n" for k, v in headers)
    return f"HTTP/1.1 200 OK\r\n{lines}Content-Length: {len(payload)}\r\n\r\n".encode("latin-1") + payload


def build_archive(path: Path, copies: int = 3) -> None:
    """The test archive: warcinfo, then per response a request, the response and a metadata record, plus a
    revisit, a non-HTTP resource and a truncated response; one gzip member per record (mtime 0)."""
    records = [_record(0, "warcinfo", None, b"software: mojifix tests\r\n", "application/warc-fields")]
    n = 1
    for copy in range(copies):
        for uri, headers, payload in RESPONSES:
            uri = uri and f"{uri}/{copy}"
            request = f"GET / HTTP/1.1\r\nHost: {urlsplit(uri or 'http://x/').hostname}\r\n\r\n".encode()
            records.append(_record(n, "request", uri, request, "application/http; msgtype=request"))
            records.append(
                _record(
                    n + 1,
                    "response",
                    uri,
                    _http_response(headers, payload),
                    "application/http; msgtype=response",
                )
            )
            records.append(_record(n + 2, "metadata", uri, b"fetchTimeMs: 12\r\n", "application/warc-fields"))
            n += 3
    revisit = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
    records.append(
        _record(
            n, "revisit", "http://a.example.fr/utf8-header/0", revisit, "application/http; msgtype=response"
        )
    )
    records.append(_record(n + 1, "resource", "file:///x.txt", "café".encode(), "text/plain"))
    cut = _http_response([("Content-Type", "text/html; charset=utf-8")], _page(_JA).encode()[:-7])
    records.append(
        _record(
            n + 2,
            "response",
            "http://cut.example.jp/",
            cut,
            "application/http; msgtype=response",
            "WARC-Truncated: length\r\n",
        )
    )
    with open(path, "wb") as out:
        for record in records:
            out.write(gzip.compress(record, mtime=0))


def _iso_date(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).isoformat()
    except ValueError:
        return value


def _undo_codings(payload: bytes, headers: list[tuple[str, str]]) -> tuple[bytes | None, list[str]]:
    """Transfer-Encoding chunked and Content-Encoding gzip/deflate removed, as docs/integrations.md says."""
    transfer = ",".join(v for k, v in headers if k.lower() == "transfer-encoding").lower()
    coding = ",".join(v for k, v in headers if k.lower() == "content-encoding").lower().strip()
    if "chunked" in transfer:
        out, rest = b"", payload
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                break
            out, rest = out + rest[:size], rest[size + 2 :]
        payload = out
    if coding in ("", "identity"):
        return payload, []
    if coding == "gzip" and not payload.startswith(b"\x1f\x8b"):
        return payload, ["content-encoding-already-removed"]
    if coding in ("gzip", "deflate"):
        return zlib.decompressobj(wbits=47).decompress(payload), []
    return None, [f"content-encoding-unsupported:{coding}"]


def reference(
    path: Path, *, trust: str = "browser", fallback: str = "detect"
) -> tuple[bytes, dict[str, object]]:
    """The JSONL and the summary counts, the straightforward way (warcio, ``decode_body``, ``json.dumps``)."""
    lines: list[bytes] = []
    counts: Counter[str] = Counter()
    by_type: Counter[str] = Counter()
    by_source: Counter[str] = Counter()
    by_encoding: Counter[str] = Counter()
    with open(path, "rb") as stream:
        for rec in ArchiveIterator(stream):
            counts["records"] += 1
            by_type[rec.rec_type] += 1
            if rec.rec_type != "response" or rec.http_headers is None:
                continue
            counts["responses"] += 1
            headers = list(rec.http_headers.headers)
            content_types = [v for k, v in headers if k.lower() == "content-type"]
            kind = body_kind(transport_of(content_types or None).mime_type)
            if kind == "binary":
                continue
            body, notes = _undo_codings(rec.raw_stream.read(), headers)
            if body is None:
                continue
            content_type = content_types[0] if len(content_types) == 1 else (content_types or None)
            uri = rec.rec_headers.get_header("WARC-Target-URI")
            decoded = decode_body(body, content_type, url=uri, trust=trust, fallback=fallback)
            row = {
                "uri": uri,
                "record_id": rec.rec_headers.get_header("WARC-Record-ID"),
                "date": _iso_date(rec.rec_headers.get_header("WARC-Date")),
                "status": int(rec.http_headers.get_statuscode()),
                "content_type": ", ".join(content_types) if content_types else None,
                "kind": kind,
                "encoding": decoded.encoding,
                "source": decoded.source,
                "confidence": decoded.confidence,
                "browser_encoding": decoded.browser_encoding,
                "overridden": decoded.source == "evidence",
                "warnings": [*notes, *(w.code for w in decoded.warnings)],
                "replacement_count": decoded.replacement_count,
                "truncated": rec.rec_headers.get_header("WARC-Truncated"),
                "text": decoded.text,
            }
            lines.append((json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8"))
            by_source[decoded.source] += 1
            by_encoding[decoded.encoding] += 1
    summary = {
        "records": counts["records"],
        "by_record_type": dict(by_type),
        "responses": counts["responses"],
        "decoded": len(lines),
        "by_source": dict(by_source),
        "by_encoding": dict(by_encoding),
    }
    return b"".join(lines), summary


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("identity") / "identity.warc.gz"
    build_archive(path)
    return path


#: The command's options that change how a page is decided: the defaults, ``--trust evidence`` (a declaration
#: the bytes prove wrong is overruled) and ``--fallback browser`` (the detector as Chromium's CED).
_OPTIONS = {
    "default": {},
    "trust-evidence": {"trust": "evidence"},
    "fallback-browser": {"fallback": "browser"},
}


@pytest.mark.parametrize("options", list(_OPTIONS))
def test_jsonl_equals_the_straightforward_reference(
    archive: Path, tmp_path: Path, capsys, options: str
) -> None:
    chosen = _OPTIONS[options]
    out = tmp_path / "rows.jsonl"
    flags = [word for name, value in chosen.items() for word in (f"--{name}", value)]
    main(["warc", "-q", "--json", *flags, str(archive), "-o", str(out)])
    summary = json.loads(capsys.readouterr().out)
    expected, counts = reference(archive, **chosen)
    got = out.read_bytes()
    assert got.count(b"\n") == expected.count(b"\n") == counts["decoded"]
    for ours, theirs in zip(got.splitlines(), expected.splitlines(), strict=True):
        assert ours == theirs
    assert got == expected
    for key, value in counts.items():
        assert summary[key] == value, key
    # the archive holds what the comparison is meant to cover (a generator change cannot empty it)
    sources = set(counts["by_source"])  # type: ignore[call-overload]
    assert {"transport", "meta", "meta-late", "bom", "default"} <= sources
    if options == "fallback-browser":
        assert "detected" in sources  # the detector standing in for the browser's
    else:
        assert {"utf-8-valid", "detected"} <= sources
    if options == "trust-evidence":
        assert "evidence" in sources  # at least one declaration overruled, with its proof


def test_record_order_and_counts_survive_a_damaged_member(archive: Path, tmp_path: Path, capsys) -> None:
    """A wrong Content-Length in the middle sends the reader down its member-by-member path; the rows of
    every other record stay byte-identical to the clean archive's."""
    members = [gzip.compress(m, mtime=0) for m in _split_records(gzip.decompress(archive.read_bytes()))]
    target = 2 + 3 * 3  # the fourth response (after warcinfo: request, response, metadata per page)
    raw = gzip.decompress(members[target])
    head, _, rest = raw.partition(b"Content-Length: ")
    length, _, tail = rest.partition(b"\r\n")
    members[target] = gzip.compress(
        head + b"Content-Length: " + str(int(length) + 9).encode() + b"\r\n" + tail, mtime=0
    )
    damaged = tmp_path / "damaged.warc.gz"
    damaged.write_bytes(b"".join(members))
    clean_out, damaged_out = tmp_path / "clean.jsonl", tmp_path / "damaged.jsonl"
    main(["warc", "-q", str(archive), "-o", str(clean_out)])
    main(["warc", "-q", str(damaged), "-o", str(damaged_out)])
    capsys.readouterr()
    clean_rows = clean_out.read_bytes().splitlines()
    damaged_rows = damaged_out.read_bytes().splitlines()
    assert len(clean_rows) == len(damaged_rows)
    changed = [i for i, (a, b) in enumerate(zip(clean_rows, damaged_rows, strict=True)) if a != b]
    assert len(changed) == 1
    assert "warc-content-length-mismatch" in json.loads(damaged_rows[changed[0]])["warnings"]


def _split_records(data: bytes) -> list[bytes]:
    """The records of an uncompressed archive built by ``build_archive`` (each ends with CRLF CRLF and the
    next starts with ``WARC/1.1``)."""
    parts = data.split(b"\r\n\r\nWARC/1.1\r\n")
    return (
        [parts[0] + b"\r\n\r\n"]
        + [b"WARC/1.1\r\n" + p + b"\r\n\r\n" for p in parts[1:-1]]
        + [b"WARC/1.1\r\n" + parts[-1]]
    )


def test_row_dict_follows_row_fields(archive: Path) -> None:
    """``WarcRow.to_dict`` (spelled out for speed) has exactly ROW_FIELDS, in order, with each attribute."""
    from mojifix.integrations.warc import ROW_FIELDS, WarcSummary, decode_records, iter_http_records

    rows = list(decode_records(iter_http_records(archive), WarcSummary()))
    assert rows
    for row in rows:
        as_dict = row.to_dict()
        assert tuple(as_dict) == ROW_FIELDS
        for name, value in as_dict.items():
            expected = getattr(row, name)
            assert value == (list(expected) if isinstance(expected, tuple) else expected)
