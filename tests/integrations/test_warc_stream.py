"""The streaming WARC reader gives exactly the records of the member-by-member path, and hands over to it
(and the summary's host shortcut is urlsplit's hostname).

``iter_http_records`` streams a gzipped archive through FastWARC's own iterator and falls back to the
member path (every gzip member inflated and proved) from the first record it cannot vouch for. Checked:
on clean archives both paths give equal records; on damaged ones (a wrong Content-Length, a member cut off
at the end, a cut header, bytes after the last member, a corrupt member in the middle) the result equals
the member path's, which is what the reader did before it streamed; and the fallback is really taken
(the streaming path alone would give other records for those files).
"""

from __future__ import annotations

import gzip
import io
import random
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.integrations import warc
from mojifix.integrations.warc import HttpRecord, iter_http_records


def _record(uri: str, body: bytes, *, extra_length: int = 0) -> bytes:
    """One WARC response record (HTTP headers and body); ``extra_length`` falsifies its Content-Length."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body
    head = (
        b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri.encode() + b"\r\n"
        b"WARC-Record-ID: <urn:uuid:" + uri.encode()[-8:].rjust(8, b"0") + b">\r\n"
        b"WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n"
        b"Content-Length: " + str(len(http) + extra_length).encode() + b"\r\n\r\n"
    )
    return head + http + b"\r\n\r\n"


def _members(count: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        words = " ".join(
            rng.choice(["café", "naïve", "日本語", "текст", "plain"]) for _ in range(rng.randint(1, 300))
        )
        out.append(gzip.compress(_record(f"http://e{k}.example/", f"<p>{words}</p>".encode())))
    return out


def _member_path(path: Path) -> tuple[list[HttpRecord], list[str]]:
    errors: list[str] = []
    with open(path, "rb") as stream:
        return list(warc._member_records(stream, path, errors)), errors


def _streamed(path: Path) -> tuple[list[HttpRecord], list[str]]:
    errors: list[str] = []
    return list(iter_http_records(path, errors=errors)), errors


def test_clean_archive_streams_the_same_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "clean.warc.gz"
    path.write_bytes(b"".join(_members(60, seed=1)))
    member_records = _member_path(path)
    handed_over: list[int] = []
    original = warc._member_records

    def spy(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        handed_over.append(1)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(warc, "_member_records", spy)
    assert _streamed(path) == member_records
    assert handed_over == []  # a clean archive never takes the recovery path


def _damaged(members: list[bytes]) -> dict[str, bytes]:
    bad_length = gzip.compress(_record("http://bad.example/", b"<p>short</p>", extra_length=25))
    last = members[-1]
    return {
        "bad-length": b"".join([*members[:5], bad_length, *members[5:]]),
        "bad-length-last": b"".join([*members, bad_length]),
        "cut-last-member": b"".join(members[:-1]) + last[: len(last) // 2],
        "cut-header": b"".join(members) + last[:10],
        "trailing-garbage": b"".join(members) + b"\x00garbage after the last member",
        "corrupt-middle": b"".join(members[:3])
        + b"\x1f\x8b\x08\x00"
        + b"not deflate" * 4
        + b"".join(members[3:]),
    }


@pytest.mark.parametrize("case", list(_damaged(_members(2, seed=0))))
def test_damaged_archive_gives_the_member_path_records(tmp_path: Path, case: str) -> None:
    path = tmp_path / f"{case}.warc.gz"
    path.write_bytes(_damaged(_members(12, seed=2))[case])
    expected = _member_path(path)
    assert _streamed(path) == expected
    records, errors = expected
    assert errors or any(r.problems for r in records)  # the damage is reported, not hidden


def test_fastwarc_alone_would_miss_the_cut_member(tmp_path: Path) -> None:
    """Why the tail is checked: FastWARC ends quietly inside a cut member (so the test above can fail)."""
    from fastwarc.warc import ArchiveIterator

    data = _damaged(_members(4, seed=3))["cut-header"]
    records = list(ArchiveIterator(io.BytesIO(data), fsspec_args=False))
    assert len(records) == 4
    with pytest.raises(EOFError):
        gzip.decompress(data)


@settings(max_examples=400, deadline=None)
@given(
    uri=st.one_of(
        st.from_regex(r"\A[hH][tT][tT][pP][sS]?://[A-Za-z0-9.\-@:\[\]%\t ]{0,12}[/?#]?[a-z/]{0,4}\Z"),
        st.text(max_size=30),
    )
)
def test_host_shortcut_equals_urlsplit(uri: str) -> None:
    """The summary's host of a plain URI, found without the URL parser, is urlsplit's hostname."""
    try:
        expected = urlsplit(uri).hostname or ""
    except ValueError:
        expected = ""
    assert warc._host(uri) == expected


@pytest.mark.parametrize("compress", [False, True])
def test_payload_limit_cuts_only_payloads_over_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compress: bool
) -> None:
    """A payload whose block is under the limit is read whole; a larger one stops at the limit (the
    reader's two ways of reading a payload give the same bytes as one bounded read)."""
    small, large = b"<p>" + b"s" * 1000 + b"</p>", b"<p>" + "é".encode() * 5000 + b"</p>"
    records = [_record("http://e1.example/", small), _record("http://e2.example/", large)]
    path = tmp_path / ("a.warc.gz" if compress else "a.warc")
    path.write_bytes(b"".join(gzip.compress(r) for r in records) if compress else b"".join(records))
    monkeypatch.setattr(warc, "_MAX_PAYLOAD_BYTES", 4096)
    got = [r.payload for r in iter_http_records(path)]
    assert got == [small, large[:4096]]


class _EnumLike:
    """A record type as an Enum member prints (older FastWARC releases): its str is not the bare name."""

    name = "response"

    def __str__(self) -> str:
        return "WarcRecordType.response"


class _IntFlagLike:
    """A record type as a Python 3.11 IntFlag prints: its value."""

    name = "revisit"

    def __str__(self) -> str:
        return "4"


@pytest.mark.parametrize(
    ("record_type", "expected"),
    [(_EnumLike(), "response"), (_IntFlagLike(), "revisit"), ("WarcRecordType.metadata", "metadata")],
)
def test_record_type_names(record_type: object, expected: str) -> None:
    assert warc._record_type_name(record_type) == expected


def test_fastwarc_record_types_print_as_names(tmp_path: Path) -> None:
    from fastwarc.warc import WarcRecordType

    for member in ("response", "request", "metadata", "warcinfo", "revisit", "resource", "conversion"):
        assert warc._record_type_name(getattr(WarcRecordType, member)) == member


def _one_property_per_field(rec: object) -> HttpRecord:
    """A FastWARC record read the straightforward way: every field by its own property or lookup (the
    reference for ``warc._from_fastwarc``, which reads the header once)."""
    fields = {name.lower(): value for name, value in rec.headers.items()}  # type: ignore[attr-defined]
    repeated = len(fields) != len(rec.headers.items())  # type: ignore[attr-defined]
    headers = rec.headers if repeated else fields  # type: ignore[attr-defined]
    status, http_headers, payload = None, (), b""
    record_type = warc._record_type_name(rec.record_type)  # type: ignore[attr-defined]
    if rec.is_http and rec.is_http_parsed:  # type: ignore[attr-defined]
        parsed = rec.http_headers  # type: ignore[attr-defined]
        status = parsed.status_code
        http_headers = tuple((k.decode("latin-1"), v.decode("latin-1")) for k, v in parsed.items_bytes())
        content_types = [v for k, v in http_headers if k.lower() == "content-type"] or None
        if status is not None and record_type == "response" and warc.is_textual(content_types):
            payload = rec.reader.read()  # type: ignore[attr-defined]
    return HttpRecord(
        record_type=record_type,
        uri=headers.get("warc-target-uri"),
        record_id=rec.record_id,  # type: ignore[attr-defined]
        date=headers.get("warc-date"),
        status=status,
        headers=http_headers,
        payload=payload,
        truncated=headers.get("warc-truncated"),
        content_length=rec.content_length,  # type: ignore[attr-defined]
    )


def _odd_record(warc_head: bytes, block: bytes) -> bytes:
    return b"WARC/1.0\r\n" + warc_head + b"Content-Length: %d\r\n\r\n" % len(block) + block + b"\r\n\r\n"


_HTTP = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>x</p>"
_RESPONSE = b"WARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\n"
#: Records whose header or HTTP headers leave the common shape: names in other cases or repeated, fields
#: outside the standard's list, a missing or empty record id, truncation, bytes that are not UTF-8 in the
#: WARC header, non-ASCII HTTP header bytes, a request, a non-HTTP resource, a block that is no HTTP
#: message.
ODD_RECORDS = [
    _odd_record(_RESPONSE + b"WARC-Record-ID: <urn:a>\r\nWARC-Target-URI: http://a.example/\r\n", _HTTP),
    _odd_record(_RESPONSE + b"warc-record-id: <urn:b>\r\nwarc-target-uri: http://b.example/\r\n", _HTTP),
    _odd_record(_RESPONSE + b"WARC-Record-ID: <urn:c1>\r\nWARC-Record-ID: <urn:c2>\r\n", _HTTP),
    _odd_record(_RESPONSE + b"WARC-Target-URI: http://d.example/\r\nWARC-Truncated: length\r\n", _HTTP),
    _odd_record(_RESPONSE + b"WARC-Record-ID: \r\nWARC-Date: 2024-01-01T00:00:00Z\r\n", _HTTP),
    _odd_record(_RESPONSE + b"WARC-Identified-Content-Language: fra\r\nWARC-TRUNCATED: time\r\n", _HTTP),
    _odd_record(_RESPONSE + b"WARC-Date: 2024-01-01T00:00:00Z\r\nwarc-date: 1999-01-01T00:00:00Z\r\n", _HTTP),
    _odd_record(
        _RESPONSE + b"WARC-Record-ID: <urn:e>\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\xff\xfe\r\n"
        b"X-\xe9: caf\xc3\xa9\r\n\r\n<p>\xe9</p>",
    ),
    _odd_record(
        _RESPONSE + b"WARC-Target-URI: http://x.example/caf\xe9\xff\r\nWARC-Date: 2024\xc3\xa9\r\n", _HTTP
    ),
    _odd_record(_RESPONSE + b"WARC-Record-ID: <urn:f>\r\n", b"no HTTP message here"),
    _odd_record(
        b"WARC-Type: request\r\nWARC-Record-ID: <urn:g>\r\n"
        b"Content-Type: application/http; msgtype=request\r\n",
        b"GET / HTTP/1.1\r\nHost: g.example\r\n\r\n",
    ),
    _odd_record(
        b"WARC-Type: resource\r\nWARC-Record-ID: <urn:h>\r\nContent-Type: text/plain\r\n", b"caf\xc3\xa9"
    ),
    _odd_record(b"WARC-Type: metadata\r\nContent-Type: application/warc-fields\r\n", b"fetchTimeMs: 1\r\n"),
]


def test_records_read_lean_equal_the_one_property_per_field_reading(tmp_path: Path) -> None:
    """``_from_fastwarc`` (fields by FastWARC's own keys, the record id among them, latin-1 HTTP headers from
    FastWARC) builds exactly the record that reading each field by its own property builds."""
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    path = tmp_path / "odd.warc.gz"
    path.write_bytes(b"".join([*(gzip.compress(r) for r in ODD_RECORDS), *_members(20, seed=4)]))
    lean, reference = [], []
    keys = warc._warc_field_keys()
    for which, out in (
        (lambda rec: warc._from_fastwarc(rec, keys), lean),
        (_one_property_per_field, reference),
    ):
        with open(path, "rb") as stream:
            for rec in ArchiveIterator(
                stream, parse_http=True, record_types=WarcRecordType.any_type, fsspec_args=False
            ):
                out.append(which(rec))
    assert len(lean) == len(ODD_RECORDS) + 20
    assert lean == reference
    # the odd shapes are really there (a FastWARC change cannot make the comparison trivial)
    assert any(not r.record_id for r in lean) and any(r.truncated == "time" for r in lean)
    assert ("X-\xe9", "caf\xc3\xa9") in lean[7].headers
    assert streamed_equals_members(path)


def streamed_equals_members(path: Path) -> bool:
    """The streaming reader and the member path agree on ``path``."""
    return _streamed(path) == _member_path(path)


def _decoded(path: Path, *, full_records: bool) -> tuple[list[object], dict[str, object], list[HttpRecord]]:
    """(rows, summary, records) of ``decode_records`` over ``iter_http_records(path, full_records=...)``."""
    summary = warc.WarcSummary()
    records = list(iter_http_records(path, errors=summary.errors, full_records=full_records))
    rows = list(warc.decode_records(records, summary, trust="evidence"))
    return rows, summary.to_dict(), records


def _mixed_members(seed: int) -> list[bytes]:
    """Responses between requests and metadata (as in a crawl), then the odd records; a member each."""
    out = []
    for k, member in enumerate(_members(12, seed=seed)):
        request = _odd_record(
            b"WARC-Type: request\r\nWARC-Record-ID: <urn:req%d>\r\nWARC-Target-URI: http://e%d.example/\r\n"
            b"Content-Type: application/http; msgtype=request\r\n" % (k, k),
            b"GET / HTTP/1.1\r\nHost: e%d.example\r\n\r\n" % k,
        )
        metadata = _odd_record(
            b"WARC-Type: metadata\r\nWARC-Record-ID: <urn:meta%d>\r\n"
            b"Content-Type: application/warc-fields\r\n" % k,
            b"fetchTimeMs: 120\r\n",
        )
        out += [gzip.compress(request), member, gzip.compress(metadata)]
    return out + [gzip.compress(r) for r in ODD_RECORDS]


@pytest.mark.parametrize("case", ["clean", *_damaged(_members(2, seed=0))])
def test_records_without_fields_decode_to_the_same_rows_and_summary(tmp_path: Path, case: str) -> None:
    """``full_records=False`` (what ``mojifix warc`` reads with) changes no row, count or message, on clean
    and damaged archives (the recovery paths build records too); its responses are the full ones, and
    only the fields of the other records are left out."""
    members = _mixed_members(seed=5)
    bad_request = gzip.compress(
        _odd_record(b"WARC-Type: request\r\nWARC-Record-ID: <urn:bad>\r\n", b"GET / HTTP/1.1\r\n\r\n")
    )
    data = b"".join(members) if case == "clean" else _damaged(members)[case]
    path = tmp_path / f"{case}.warc.gz"
    path.write_bytes(data + (bad_request if case == "clean" else b""))
    full_rows, full_summary, full = _decoded(path, full_records=True)
    rows, summary, lean = _decoded(path, full_records=False)
    assert rows == full_rows and summary == full_summary
    assert full_rows and full_summary["by_record_type"]["request"]  # a comparison with substance
    assert len(lean) == len(full)
    for record, reference in zip(lean, full, strict=True):
        if reference.record_type == "response":
            assert record == reference
        else:
            assert (record.record_type, record.problems) == (reference.record_type, reference.problems)
            # the member path keeps the id and length; the stream's shared record of the type has neither
            kept = (record.record_id, record.content_length)
            assert kept in ((reference.record_id, reference.content_length), (None, None))
            assert (record.uri, record.headers, record.payload) == (None, (), b"")
    assert any(r.headers for r in full if r.record_type == "request")  # the lean reading really left them out
    if case == "clean":  # streamed: one shared record per type (the last record comes from its member)
        requests = [r for r in lean if r.record_type == "request"]
        assert len(requests) > 10 and all(r is requests[0] for r in requests[:-1])
        assert requests[0].record_id is None and requests[-1].record_id == "<urn:bad>"


def test_plain_archive_records_without_fields_decode_the_same(tmp_path: Path) -> None:
    """The same for an archive that is not gzipped (FastWARC's own stream, one record behind), where a wrong
    Content-Length of a request is reported with that request's record id."""
    members = [gzip.decompress(m) for m in _mixed_members(seed=6)]
    block = b"GET / HTTP/1.1\r\nHost: bad.example\r\n\r\n"
    bad = (
        b"WARC/1.0\r\nWARC-Type: request\r\nWARC-Record-ID: <urn:bad-request>\r\n"
        b"Content-Type: application/http; msgtype=request\r\nContent-Length: %d\r\n\r\n"
        % (len(block) + 25)
        + block
        + b"\r\n\r\n"
    )
    path = tmp_path / "plain.warc"
    path.write_bytes(b"".join([*members[:4], bad, *members[4:]]))
    full_rows, full_summary, _ = _decoded(path, full_records=True)
    rows, summary, _ = _decoded(path, full_records=False)
    assert full_rows and (rows, summary) == (full_rows, full_summary)
    assert any("<urn:bad-request>" in e for e in full_summary["errors"])  # type: ignore[attr-defined]
