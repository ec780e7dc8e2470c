"""``mojifix warc`` on real WARC files written with warcio: every output row checked, JSONL and Parquet.

The archive holds, in order: a warcinfo record; request + response pairs; a revisit; a PNG; a
truncated UTF-8 payload; a chunked + gzip-encoded response; a record whose WARC Content-Length is
wrong (in its own gzip member, so the member proves the real length); and more pages. Expected texts
are the pages' own strings (or the Encoding Standard's mapping, stated next to the case).
"""

from __future__ import annotations

import gzip
import io
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from mojifix.cli import main
from mojifix.integrations.warc import ROW_FIELDS, WarcSummary, decode_records, iter_http_records


@dataclass(frozen=True)
class Page:
    uri: str
    headers: tuple[tuple[str, str], ...]
    payload: bytes  # as stored in the WARC (may be chunked / gzip-encoded / cut)
    expect: dict[str, object] | None  # expected row fields; None = no row (non-text)
    status: str = "200 OK"
    truncated: str | None = None
    bad_length: bool = False


def _html(body: str, head: str = "") -> str:
    return f"<html><head>{head}<title>x</title></head><body>{body}</body></html>"


def _chunked(data: bytes, size: int = 7) -> bytes:
    parts = [
        b"%x\r\n%s\r\n" % (len(data[i : i + size]), data[i : i + size]) for i in range(0, len(data), size)
    ]
    return b"".join(parts) + b"0\r\n\r\n"


_JP = _html("日本語のページ～", '<meta charset="shift_jis">')
_KR = _html("갂똠뷁 한국어")
_RU = _html("Привет, мир")
_TRUNC = _html("日本語テキスト")
_GZ = _html("Grüße aus Köln")
_BAD = _html("fixed length ok – ñ")
_UTF8_UNDECLARED = _html("naïve café 中文")

PAGES: tuple[Page, ...] = (
    Page(
        "http://shop.example.jp/a",
        (("Content-Type", "text/html"),),
        _JP.encode("cp932"),  # U+FF5E -> 0x8160; index-jis0208 pointer 32 maps it back to U+FF5E
        {"encoding": "Shift_JIS", "source": "meta", "text": _JP, "replacement_count": 0, "kind": "html"},
    ),
    Page(
        "http://news.example.kr/b",
        (("Content-Type", "text/html; charset=euc-kr"),),
        _KR.encode("cp949"),
        {"encoding": "EUC-KR", "source": "transport", "text": _KR, "replacement_count": 0, "kind": "html"},
    ),
    Page(
        "http://img.example.com/c.png",
        (("Content-Type", "image/png"),),
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        None,
    ),
    Page(
        "http://example.ru/d",
        (("Content-Type", "text/html; charset=windows-1251"),),
        _RU.encode("cp1251"),
        {
            "encoding": "windows-1251",
            "source": "transport",
            "text": _RU,
            "replacement_count": 0,
            "kind": "html",
        },
    ),
    Page(
        "http://cut.example.jp/e",
        (("Content-Type", "text/html; charset=utf-8"),),
        _TRUNC.encode("utf-8")[: _TRUNC.encode("utf-8").index("ト".encode()) + 2],  # cut inside ト
        {
            "encoding": "UTF-8",
            "source": "transport",
            # the UTF-8 decoder emits one U+FFFD for the incomplete sequence at the end of the queue
            "text": _TRUNC[: _TRUNC.index("ト")] + "\ufffd",
            "replacement_count": 1,
            "kind": "html",
        },
        truncated="length",
    ),
    Page(
        "http://gz.example.de/f",
        (
            ("Content-Type", "text/html; charset=ISO-8859-1"),
            ("Content-Encoding", "gzip"),
            ("Transfer-Encoding", "chunked"),
        ),
        _chunked(gzip.compress(_GZ.encode("latin-1"))),
        {
            "encoding": "windows-1252",
            "source": "transport",
            "text": _GZ,
            "replacement_count": 0,
            "kind": "html",
        },
    ),
    Page(
        "http://bad.example.es/g",
        (("Content-Type", "text/html; charset=utf-8"),),
        _BAD.encode("utf-8"),
        {
            "encoding": "UTF-8",
            "source": "transport",
            "text": _BAD,
            "replacement_count": 0,
            "kind": "html",
            "warning": "warc-content-length-mismatch",
        },
        bad_length=True,
    ),
    Page(
        "http://api.example.com/h.json",
        (("Content-Type", "application/json; charset=windows-1252"),),
        '{"k": "Zoë"}'.encode(),
        {
            "encoding": "UTF-8",
            "source": "default",
            "text": '{"k": "Zoë"}',
            "replacement_count": 0,
            "kind": "json",
        },
    ),
    Page(
        "http://plain.example.fr/i",
        (("Content-Type", "text/html"),),
        _UTF8_UNDECLARED.encode("utf-8"),
        {
            "encoding": "UTF-8",
            "source": "utf-8-valid",
            "text": _UTF8_UNDECLARED,
            "replacement_count": 0,
            "kind": "html",
        },
    ),
    Page(
        "http://moved.example.com/j",
        (("Content-Type", "text/html"), ("Location", "/k")),
        b"",
        {"text": "", "replacement_count": 0, "kind": "html"},
        status="301 Moved Permanently",
    ),
)


def _record_bytes(page: Page) -> bytes:
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=False)
    http = StatusAndHeaders(page.status, list(page.headers), protocol="HTTP/1.1")
    extra = {"WARC-Truncated": page.truncated} if page.truncated else None
    record = writer.create_warc_record(
        page.uri, "response", payload=io.BytesIO(page.payload), http_headers=http, warc_headers_dict=extra
    )
    writer.write_record(record)
    raw = buf.getvalue()
    if page.bad_length:  # claim 25 bytes more than the block holds
        raw = re.sub(
            rb"(?m)^Content-Length: (\d+)",
            lambda m: b"Content-Length: %d" % (int(m.group(1)) + 25),
            raw,
            count=1,
        )
    return raw


def _other_records() -> dict[str, bytes]:
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=False)
    out = {}
    info = writer.create_warcinfo_record("test.warc.gz", {"software": "mojifix tests"})
    writer.write_record(info)
    out["warcinfo"] = buf.getvalue()
    buf.seek(0)
    buf.truncate()
    req = writer.create_warc_record(
        "http://shop.example.jp/a",
        "request",
        payload=io.BytesIO(b""),
        http_headers=StatusAndHeaders("GET /a HTTP/1.1", [("Host", "shop.example.jp")], is_http_request=True),
    )
    writer.write_record(req)
    out["request"] = buf.getvalue()
    buf.seek(0)
    buf.truncate()
    revisit = writer.create_revisit_record(
        "http://example.ru/d",
        digest="sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        refers_to_uri="http://example.ru/d",
        refers_to_date="2024-01-01T00:00:00Z",
        http_headers=StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"),
    )
    writer.write_record(revisit)
    out["revisit"] = buf.getvalue()
    return out


def build_warc(path: Path, *, compress: bool, include_bad: bool = True) -> None:
    """warcinfo, request, every page (a revisit after the 4th); one gzip member per record if compressed."""
    other = _other_records()
    members = [other["warcinfo"], other["request"]]
    for i, page in enumerate(PAGES):
        if page.bad_length and not include_bad:
            continue
        members.append(_record_bytes(page))
        if i == 3:
            members.append(other["revisit"])
    data = b"".join(gzip.compress(m) for m in members) if compress else b"".join(members)
    path.write_bytes(data)


TEXT_PAGES = [p for p in PAGES if p.expect is not None]


def _check_rows(rows: list[dict[str, object]], pages: list[Page]) -> None:
    assert [r["uri"] for r in rows] == [p.uri for p in pages]
    for row, page in zip(rows, pages, strict=True):
        assert set(row) == set(ROW_FIELDS)
        expect = dict(page.expect or {})
        warning = expect.pop("warning", None)
        for key, value in expect.items():
            assert row[key] == value, (page.uri, key, row[key])
        assert row["status"] == int(page.status.split()[0])
        assert row["content_type"] == ", ".join(v for k, v in page.headers if k == "Content-Type")
        assert row["truncated"] == page.truncated
        assert str(row["record_id"]).startswith("<urn:uuid:")
        assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", str(row["date"]))
        if warning:
            assert warning in row["warnings"]
        else:
            assert "warc-content-length-mismatch" not in row["warnings"]
        assert row["confidence"] in ("certain", "tentative", "irrelevant")


@pytest.fixture(scope="module")
def warc_gz(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("warc") / "crawl.warc.gz"
    build_warc(path, compress=True)
    return path


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_cli_writes_one_checked_row_per_text_response(
    warc_gz: Path, tmp_path: Path, suffix: str, capsys
) -> None:
    out = tmp_path / f"rows{suffix}"
    code = main(["warc", str(warc_gz), "-o", str(out), "--json", "--row-group-rows", "3"])
    summary = json.loads(capsys.readouterr().out)
    if suffix == ".jsonl":
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    else:
        table = pq.read_table(out)
        rows = table.to_pylist()
        assert pq.ParquetFile(out).metadata.num_row_groups == 3  # 9 rows in groups of 3
    _check_rows(rows, TEXT_PAGES)
    assert code == 1  # a truncated page has a replacement character; a record had a bad length
    assert summary["records"] == 2 + len(PAGES) + 1
    assert summary["by_record_type"] == {"warcinfo": 1, "request": 1, "response": len(PAGES), "revisit": 1}
    assert summary["decoded"] == len(TEXT_PAGES) == summary["rows_written"]
    assert summary["skipped_non_text"] == 1
    assert summary["skipped"] == 4  # warcinfo, request, revisit, PNG
    assert summary["with_replacement"] == 1
    assert summary["malformed"] == 1
    assert summary["by_encoding"]["UTF-8"] == 5  # cut, bad-length, JSON, undeclared, empty 301
    hosts = summary["top_replacement_hosts"]
    assert hosts[0]["host"] == "cut.example.jp" and hosts[0]["replacements"] == 1


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_the_script_in_a_process_of_its_own_writes_what_main_writes(
    warc_gz: Path, tmp_path: Path, suffix: str, capsys
) -> None:
    """``python -m mojifix warc`` (``console_main``: the collector frozen before the interpreter shuts
    down) ends with every byte written and closed: the same output, summary and exit code as ``main``."""
    import subprocess

    ours, theirs = tmp_path / f"main{suffix}", tmp_path / f"script{suffix}"
    code = main(["warc", str(warc_gz), "-o", str(ours), "--json"])
    summary = json.loads(capsys.readouterr().out)
    done = subprocess.run(
        [sys.executable, "-m", "mojifix", "warc", str(warc_gz), "-o", str(theirs), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == code == 1 and done.stderr == ""
    script_summary = json.loads(done.stdout)
    assert {**script_summary, "seconds": 0} == {**summary, "seconds": 0}
    if suffix == ".jsonl":
        assert theirs.read_bytes() == ours.read_bytes()
    else:
        assert pq.read_table(theirs).to_pylist() == pq.read_table(ours).to_pylist()


def test_readers_agree_on_uncompressed_archive(tmp_path: Path) -> None:
    path = tmp_path / "plain.warc"
    build_warc(path, compress=False, include_bad=False)
    pages = [p for p in TEXT_PAGES if not p.bad_length]
    for reader in ("fastwarc", "warcio"):
        summary = WarcSummary()
        errors: list[str] = []
        rows = [
            r.to_dict()
            for r in decode_records(iter_http_records(path, reader=reader, errors=errors), summary)
        ]
        _check_rows(rows, pages)
        assert errors == []
        assert summary.by_record_type["revisit"] == 1


def test_warcio_reader_same_rows_on_gzip(warc_gz: Path) -> None:
    """warcio splits members itself; the bad-length record's member still ends where gzip says."""
    summary = WarcSummary()
    rows = [r.to_dict() for r in decode_records(iter_http_records(warc_gz, reader="warcio"), summary)]
    good = [p for p in TEXT_PAGES if not p.bad_length]
    by_uri = {r["uri"]: r for r in rows}
    for page in good:
        assert by_uri[page.uri]["text"] == (page.expect or {})["text"]


def test_cut_off_archive_keeps_earlier_rows_and_reports(warc_gz: Path, tmp_path: Path, capsys) -> None:
    """A file cut inside its last member: earlier rows intact, the last record kept as far as it goes."""
    rng = random.Random(7)
    words = ["słowo", "żółw", "wiatr", "drzewo", "kamień", "rzeka", "góra", "miasto"]
    big_text = _html(" ".join(rng.choice(words) + str(rng.randrange(10**6)) for _ in range(4000)))
    big = Page(
        "http://big.example.pl/z", (("Content-Type", "text/html; charset=utf-8"),), big_text.encode(), None
    )
    last = gzip.compress(_record_bytes(big))
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(warc_gz.read_bytes() + last[: len(last) // 2])
    out = tmp_path / "cut.jsonl"
    code = main(["warc", str(cut), "-o", str(out), "-q"])
    err = capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert code == 1
    assert "gzip member cut off" in err
    _check_rows(rows[:-1], TEXT_PAGES)
    partial = rows[-1]
    assert partial["uri"] == big.uri and "warc-member-truncated" in partial["warnings"]
    # what survived is a prefix of the page (the last character may be a cut UTF-8 sequence)
    kept = str(partial["text"]).rstrip("\ufffd")
    assert 0 < len(kept) < len(big_text) and big_text.startswith(kept)


def test_usage_errors(tmp_path: Path, warc_gz: Path) -> None:
    assert main(["warc", str(warc_gz), "-o", str(tmp_path / "x.csv")]) == 2
    assert main(["warc", str(tmp_path / "missing.warc"), "-o", str(tmp_path / "x.jsonl")]) == 2
    assert main(["warc", str(warc_gz)]) == 2  # -o is required


def test_bad_length_in_uncompressed_archive_is_flagged_and_reported(tmp_path: Path) -> None:
    """Without gzip members nothing proves the real length: the record is flagged, reading stops."""
    path = tmp_path / "bad.warc"
    bad = next(p for p in PAGES if p.bad_length)
    first = PAGES[0]
    path.write_bytes(_record_bytes(first) + _record_bytes(bad) + _record_bytes(PAGES[1]))
    errors: list[str] = []
    summary = WarcSummary()
    rows = list(decode_records(iter_http_records(path, errors=errors), summary))
    assert [r.uri for r in rows] == [first.uri, bad.uri]
    assert rows[0].text == (first.expect or {})["text"]
    assert not any(w.startswith("warc-") for w in rows[0].warnings)
    assert "warc-content-length-mismatch" in rows[1].warnings
    assert len(errors) == 1 and "unreadable WARC data" in errors[0]
    assert summary.malformed == 1


def _arc_record(header: bytes, block: bytes) -> bytes:
    """One ARC v1 record: a space-separated header line ending in the block length, the block, LF."""
    return header + b" %d\n" % len(block) + block + b"\n"


@pytest.mark.parametrize("compress", [False, True])
def test_arc_files_are_read_with_warcio(tmp_path: Path, compress: bool, capsys) -> None:
    desc = _arc_record(
        b"filedesc://t.arc 0.0.0.0 20240101000000 text/plain",
        b"1 0 mojifix-tests\nURL IP-address Archive-date Content-type Archive-length\n",
    )
    page = "<p>Привет</p>"
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=koi8-r\r\n\r\n" + page.encode("koi8-r")
    rec = _arc_record(b"http://example.ru/ 127.0.0.1 20240102030405 text/html", http)
    path = tmp_path / ("t.arc.gz" if compress else "t.arc")
    path.write_bytes(gzip.compress(desc + b"\n") + gzip.compress(rec) if compress else desc + b"\n" + rec)
    out = tmp_path / "arc.jsonl"
    assert main(["warc", str(path), "-o", str(out), "--json"]) == 0
    (row,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert (row["uri"], row["status"], row["encoding"], row["source"]) == (
        "http://example.ru/",
        200,
        "KOI8-R",
        "transport",
    )
    assert row["text"] == page and row["date"] == "2024-01-02T03:04:05+00:00"
    assert json.loads(capsys.readouterr().out)["by_record_type"] == {"warcinfo": 1, "response": 1}
    # FastWARC reads WARC only: asking for it on an ARC file is reported, not a crash
    errors: list[str] = []
    assert list(iter_http_records(path, reader="fastwarc", errors=errors)) == []
    assert "ARC file" in errors[0]


def test_progress_bar_on_a_terminal_goes_to_stderr(
    warc_gz: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    out = tmp_path / "p.jsonl"
    assert main(["warc", str(warc_gz), "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # progress and summary never touch stdout
    assert "records read" in captured.err and "records/s" in captured.err
    assert "host cut.example.jp: 1 U+FFFD" in captured.err
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(TEXT_PAGES)


@pytest.mark.parametrize("limit", [None, 4096])
def test_whole_file_gzip_stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int | None) -> None:
    """An archive gzipped as one stream: parsed in memory, or streamed when it exceeds the member limit."""
    from mojifix.integrations import warc

    plain = tmp_path / "p.warc"
    build_warc(plain, compress=False, include_bad=False)
    one = tmp_path / "one.warc.gz"
    one.write_bytes(gzip.compress(plain.read_bytes()))
    if limit is not None:
        monkeypatch.setattr(warc, "_MAX_MEMBER_BYTES", limit)
    errors: list[str] = []
    rows = [r.to_dict() for r in decode_records(iter_http_records(one, errors=errors), WarcSummary())]
    _check_rows(rows, [p for p in TEXT_PAGES if not p.bad_length])
    assert errors == []


def test_record_over_the_member_limit_is_cut_and_flagged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mojifix.integrations import warc

    text = _html("x" * 10_000)
    page = Page(
        "http://huge.example.com/", (("Content-Type", "text/html; charset=utf-8"),), text.encode(), None
    )
    path = tmp_path / "huge.warc.gz"
    path.write_bytes(gzip.compress(_record_bytes(PAGES[0])) + gzip.compress(_record_bytes(page)))
    monkeypatch.setattr(warc, "_MAX_MEMBER_BYTES", 4096)
    rows = list(decode_records(iter_http_records(path), WarcSummary()))
    assert [r.uri for r in rows] == [PAGES[0].uri, page.uri]
    assert "warc-record-over-limit" not in rows[0].warnings
    assert "warc-record-over-limit" in rows[1].warnings
    assert 0 < len(rows[1].text) < len(text) and text.startswith(rows[1].text)


def test_garbage_is_reported_not_raised(warc_gz: Path, tmp_path: Path) -> None:
    trailing = tmp_path / "trailing.warc.gz"
    trailing.write_bytes(warc_gz.read_bytes() + b"\x00garbage after the last member")
    errors: list[str] = []
    rows = [r.to_dict() for r in decode_records(iter_http_records(trailing, errors=errors), WarcSummary())]
    _check_rows(rows, TEXT_PAGES)
    assert len(errors) == 1 and "not gzip" in errors[0]
    corrupt = tmp_path / "corrupt.warc.gz"
    corrupt.write_bytes(b"\x1f\x8b\x08\x00" + b"not deflate data" * 4)
    plain_garbage = tmp_path / "garbage.warc"
    plain_garbage.write_bytes(b"this is not a WARC file\r\n\r\n")
    for path in (corrupt, plain_garbage):
        errors = []
        assert list(iter_http_records(path, errors=errors)) == []
        assert len(errors) == 1
        assert main(["warc", str(path), "-o", str(tmp_path / "g.jsonl"), "-q"]) == 1


_MISLABELED = _html("Le café de la gare a rouvert ; on y sert des crêpes et du thé à toute heure.")


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_trust_evidence_overrules_a_wrong_label_and_says_so(tmp_path: Path, suffix: str) -> None:
    """--trust evidence: the latin-1-labelled UTF-8 page gets its true text and overridden=True; every
    other row is what the default mode writes (their declarations are right)."""
    mislabeled = Page(
        "http://cafe.example.fr/",
        (("Content-Type", "text/html; charset=iso-8859-1"),),
        _MISLABELED.encode("utf-8"),
        {},
    )
    path = tmp_path / "crawl.warc.gz"
    build_warc(path, compress=True)
    with open(path, "ab") as f:
        f.write(gzip.compress(_record_bytes(mislabeled)))

    def rows(*extra: str) -> list[dict[str, object]]:
        out = tmp_path / f"rows-{len(extra)}{suffix}"
        main(["warc", str(path), "-o", str(out), "-q", *extra])
        if suffix == ".jsonl":
            return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        return pq.read_table(out).to_pylist()

    browser, evidence = rows(), rows("--trust", "evidence")
    assert browser[-1]["text"] != _MISLABELED and browser[-1]["overridden"] is False
    last = evidence[-1]
    assert (last["text"], last["encoding"], last["source"]) == (_MISLABELED, "UTF-8", "evidence")
    assert last["overridden"] is True and last["browser_encoding"] == "windows-1252"
    assert "declaration-overridden" in last["warnings"]
    assert evidence[:-1] == browser[:-1]
    assert not any(row["overridden"] for row in browser)
