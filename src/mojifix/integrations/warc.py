"""Decode the HTTP responses of WARC (and ARC) archives into rows: text plus the decision that made it.

Web-data pipelines read Common Crawl-style WARC files and decode each page ad hoc (try UTF-8, then a
detector, drop the record otherwise). Here every HTTP ``response`` record goes through the browser's
rules (:func:`mojifix.integrations._content.decode_body`, HTML = ``decode_html``) with the target URI's
TLD as the detection hint, and yields one :class:`WarcRow`; :func:`write_rows` streams rows to JSONL or
to Parquet in bounded row groups; :class:`WarcSummary` counts what happened (by decision source, by
encoding, replacement characters per source and per host: a cheap drift alarm).

Readers: FastWARC (fast, the default for WARC) or warcio (also reads ARC). Gzipped archives are split
into gzip members first (one record per member is the WARC convention, annex D of ISO 28500), so a
record with a wrong ``Content-Length`` damages only itself: it is parsed again with the length its
member proves, and flagged ``warc-content-length-mismatch``.
"""

from __future__ import annotations

import io
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache, lru_cache
from itertools import islice
from operator import attrgetter
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from mojifix import _native
from mojifix._frozen import slot_constructor
from mojifix.integrations._content import decode_parsed, is_textual, transport_and_kind
from mojifix.sniff import decode_html

__all__ = [
    "ROW_FIELDS",
    "HttpRecord",
    "WarcRow",
    "WarcSummary",
    "decode_records",
    "iter_http_records",
    "write_rows",
]

#: Bytes read from an archive at a time while splitting gzip members (large enough to amortise calls,
#: small enough to keep memory flat).
_READ_CHUNK = 1 << 20
#: Rows per Parquet row group: about 1,000 pages of ~50 KB text is ~50 MB per group, which bounds memory
#: on multi-GB archives while keeping groups large enough for efficient scans.
DEFAULT_ROW_GROUP_ROWS = 1000
#: Buffer of the JSONL output file: one write system call per MiB instead of one per 8 KiB (the default),
#: which is about 4,500 calls fewer on a 36 MB output (about 0.04 s of CPU, measured on benchmarks/warc.py's
#: web-like archive).
_WRITE_BUFFER_BYTES = 1 << 20
#: Top offenders listed per host in the summary.
TOP_HOSTS = 10
#: Decompressed bytes kept of one gzip member (normally one record). Bounds memory on archives that hold
#: videos or disk images; 64 MiB is far above any web page a text pipeline wants whole. A member beyond it
#: that holds several records (a whole archive gzipped as one stream) is read by streaming instead.
_MAX_MEMBER_BYTES = 64 << 20
#: Payload bytes read of one text response in streaming mode, for the same reason.
_MAX_PAYLOAD_BYTES = _MAX_MEMBER_BYTES
_GZIP_MAGIC = b"\x1f\x8b"
#: Compressed bytes inflated to see whether an archive is ARC (``filedesc://``) or WARC.
_SNIFF_BYTES = 64 * 1024
_WARC_CONTENT_LENGTH_RE = re.compile(rb"(?im)^content-length:[ \t]*([^\r\n]*)\r?$")
_RECORD_END = b"\r\n\r\n"

#: Output columns, in order (docs/integrations.md describes each).
ROW_FIELDS = (
    "uri",
    "record_id",
    "date",
    "status",
    "content_type",
    "kind",
    "encoding",
    "source",
    "confidence",
    "browser_encoding",
    "overridden",
    "warnings",
    "replacement_count",
    "truncated",
    "text",
)


@dataclass(frozen=True, slots=True)
class HttpRecord:
    """One WARC record as the decoder needs it; ``payload`` is the HTTP body, codings not yet removed."""

    record_type: str  # response, request, revisit, metadata, warcinfo, resource, ...
    uri: str | None
    record_id: str | None
    date: str | None  # ISO 8601, as in WARC-Date
    status: int | None
    headers: tuple[tuple[str, str], ...]  # HTTP headers, isomorphic-decoded, in order
    payload: bytes
    truncated: str | None  # WARC-Truncated value ("length", "time", ...)
    problems: tuple[str, ...] = ()  # archive-level findings, e.g. "warc-content-length-mismatch"
    content_length: int | None = None  # the WARC header's Content-Length (the block's declared size)

    def header_values(self, name: str) -> list[str]:
        lname = name.lower()
        return [v for k, v in self.headers if k.lower() == lname]


@dataclass(frozen=True, slots=True)
class WarcRow:
    """One decoded HTTP response (see ROW_FIELDS)."""

    uri: str | None
    record_id: str | None
    date: str | None
    status: int | None
    content_type: str | None
    kind: str
    encoding: str
    source: str
    confidence: str
    browser_encoding: str
    overridden: bool  # --trust evidence overruled the page's declaration (source "evidence")
    warnings: tuple[str, ...]
    replacement_count: int
    truncated: str | None
    text: str

    def to_dict(self) -> dict[str, Any]:
        """The row as ROW_FIELDS order of plain JSON values (``warnings`` as a list)."""
        return {
            "uri": self.uri,
            "record_id": self.record_id,
            "date": self.date,
            "status": self.status,
            "content_type": self.content_type,
            "kind": self.kind,
            "encoding": self.encoding,
            "source": self.source,
            "confidence": self.confidence,
            "browser_encoding": self.browser_encoding,
            "overridden": self.overridden,
            "warnings": list(self.warnings),
            "replacement_count": self.replacement_count,
            "truncated": self.truncated,
            "text": self.text,
        }


#: ``HttpRecord(...)`` and ``WarcRow(...)`` for the per-record loops (built once per record; see
#: mojifix._frozen).
_new_http_record = slot_constructor(HttpRecord)
_new_row = slot_constructor(WarcRow)


@dataclass(slots=True)
class WarcSummary:
    """What a run did: counts by record type, decision source, encoding, and replacement characters."""

    records: int = 0
    by_record_type: Counter[str] = field(default_factory=Counter)
    responses: int = 0
    decoded: int = 0
    skipped_non_text: int = 0
    skipped_undecodable: int = 0
    malformed: int = 0
    by_source: Counter[str] = field(default_factory=Counter)
    by_encoding: Counter[str] = field(default_factory=Counter)
    with_replacement: int = 0
    replacement_by_source: Counter[str] = field(default_factory=Counter)
    chars_by_source: Counter[str] = field(default_factory=Counter)
    replacement_by_host: Counter[str] = field(default_factory=Counter)
    chars_by_host: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    def add_row(self, row: WarcRow) -> None:
        self.decoded += 1
        source, chars = row.source, len(row.text)
        self.by_source[source] += 1
        self.by_encoding[row.encoding] += 1
        self.chars_by_source[source] += chars
        host = _host(row.uri)
        self.chars_by_host[host] += chars
        if row.replacement_count:
            self.with_replacement += 1
            self.replacement_by_source[source] += row.replacement_count
            self.replacement_by_host[host] += row.replacement_count

    @property
    def skipped(self) -> int:
        return self.records - self.decoded

    def replacement_rate_by_source(self) -> dict[str, float]:
        """U+FFFD per 1,000 characters for each decision source (a rise is the drift alarm)."""
        return {
            s: _per_mille(self.replacement_by_source[s], n) for s, n in sorted(self.chars_by_source.items())
        }

    def top_hosts(self, limit: int = TOP_HOSTS) -> list[tuple[str, int, float]]:
        """Hosts with the most replacement characters: (host, count, per 1,000 characters)."""
        return [
            (host, count, _per_mille(count, self.chars_by_host[host]))
            for host, count in self.replacement_by_host.most_common(limit)
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "by_record_type": dict(self.by_record_type),
            "responses": self.responses,
            "decoded": self.decoded,
            "skipped": self.skipped,
            "skipped_non_text": self.skipped_non_text,
            "skipped_undecodable": self.skipped_undecodable,
            "malformed": self.malformed,
            "by_source": dict(self.by_source),
            "by_encoding": dict(self.by_encoding),
            "with_replacement": self.with_replacement,
            "replacement_per_mille_by_source": self.replacement_rate_by_source(),
            "top_replacement_hosts": [
                {"host": h, "replacements": c, "per_mille": r} for h, c, r in self.top_hosts()
            ],
            "errors": list(self.errors),
        }


def _per_mille(count: int, chars: int) -> float:
    return round(1000.0 * count / chars, 3) if chars else 0.0


def _host(uri: str | None) -> str:
    """``urlsplit(uri).hostname`` ("" for none); a plain ``http(s)://name/...`` URI without the parser."""
    if not uri:
        return ""
    simple = _PLAIN_HTTP_HOST.match(uri)
    if simple is not None:
        return simple.group(1).lower()  # what urlsplit gives: no userinfo, port, brackets or spaces here
    try:
        return urlsplit(uri).hostname or ""
    except ValueError:
        return ""


#: A URI whose host ``urlsplit`` would return as is (lowercased): letters, digits, dots and hyphens right
#: after the scheme, ended by a path, query, fragment or the end (most URIs of a crawl).
_PLAIN_HTTP_HOST = re.compile(r"https?://([A-Za-z0-9.-]+)(?=[/?#]|\Z)")


# --- reading ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Member:
    """One gzip member: its decompressed bytes (at most _MAX_MEMBER_BYTES) and where it started."""

    data: bytes
    whole: bool  # the member ended cleanly (not cut off, not corrupt)
    offset: int  # byte offset of the member in the compressed file
    oversize: bool = False  # decompressed to more than _MAX_MEMBER_BYTES; data holds the first part
    not_gzip: bool = False  # the bytes at ``offset`` are no gzip member at all (trailing garbage)


def _iter_gzip_members(stream: IO[bytes], first: bytes) -> Iterator[_Member]:
    """Each gzip member of ``stream`` (whose first bytes, already read, are ``first``), decompressed."""
    pending = first
    consumed = len(first)  # compressed bytes read from the stream so far
    while True:
        if not pending:
            pending = stream.read(_READ_CHUNK)
            consumed += len(pending)
            if not pending:
                return
        offset = consumed - len(pending)
        if not pending.startswith(_GZIP_MAGIC):
            # trailing garbage after the last member: not a record
            yield _Member(b"", False, offset, not_gzip=True)
            return
        inflater = zlib.decompressobj(wbits=31)  # 31 = gzip wrapper
        parts: list[bytes] = []
        kept = 0
        data = pending
        try:
            while True:
                out = inflater.decompress(data)
                if kept < _MAX_MEMBER_BYTES:
                    parts.append(out)
                    kept += len(out)
                if inflater.eof:
                    pending = inflater.unused_data
                    break
                data = stream.read(_READ_CHUNK)
                consumed += len(data)
                if not data:
                    yield _Member(
                        b"".join(parts)[:_MAX_MEMBER_BYTES], False, offset, kept > _MAX_MEMBER_BYTES
                    )
                    return
        except zlib.error:
            yield _Member(b"".join(parts)[:_MAX_MEMBER_BYTES], False, offset, kept > _MAX_MEMBER_BYTES)
            return
        yield _Member(b"".join(parts)[:_MAX_MEMBER_BYTES], True, offset, kept > _MAX_MEMBER_BYTES)


def _repair_single_record(member: bytes) -> bytes | None:
    """The member with its WARC Content-Length set to the block the member really holds, or None.

    Only for a member holding one record that ends with the record terminator: the true block is then
    everything between the header's blank line and the final CRLF CRLF.
    """
    head_end = member.find(_RECORD_END)
    if head_end < 0 or not member.endswith(_RECORD_END):
        return None
    head = member[:head_end]
    match = _WARC_CONTENT_LENGTH_RE.search(head)
    if match is None:
        return None
    block_len = len(member) - (head_end + 4) - len(_RECORD_END)
    if match.group(1).strip() == str(block_len).encode():
        return None  # the length was right; the member is broken in some other way
    fixed_head = head[: match.start(1)] + str(block_len).encode() + head[match.end(1) :]
    return fixed_head + member[head_end:]


def _fastwarc_records(
    data: IO[bytes] | bytes, *, detect_compression: bool = False, full: bool = True
) -> Iterator[HttpRecord]:
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    stream = io.BytesIO(data) if isinstance(data, bytes) else data
    # fsspec and stream detection off: the stream is already open and decompressed (halves the cost of
    # the per-member iterator, measured on the benchmark's archive).
    records = ArchiveIterator(
        stream,
        parse_http=True,
        record_types=WarcRecordType.any_type,
        fsspec_args=False,
        stream_detect=detect_compression,
    )
    keys = _warc_field_keys()
    for rec in records:
        yield _from_fastwarc(rec, keys, full=full)


def _warc_field_keys() -> tuple[Any, Any, Any, Any]:
    """FastWARC's own keys of the four WARC fields a record needs: target URI, record id, date, truncation.

    ``get`` with these keys is FastWARC's lookup (names are case-insensitive; of a name given twice it
    picks as with a string key), about twice as fast as with the field's name as a string.
    """
    from fastwarc.warc import WarcHeader

    return (
        WarcHeader.WARC_TARGET_URI,
        WarcHeader.WARC_RECORD_ID,
        WarcHeader.WARC_DATE,
        WarcHeader.WARC_TRUNCATED,
    )


def _from_fastwarc(
    rec: Any,
    keys: tuple[Any, Any, Any, Any],
    content_length: int | None = None,
    *,
    full: bool = True,
    record_type: str | None = None,
) -> HttpRecord:
    """The ``HttpRecord`` of one FastWARC record, with as few calls into FastWARC as it takes.

    Each property read is a call into FastWARC's compiled code (0.1-3 us each, measured on
    benchmarks/warc.py's web-like archive): the four fields are read by FastWARC's own keys (``keys``, from
    ``_warc_field_keys``), the record id among them rather than through ``record_id`` (the same field);
    ``is_http_parsed`` alone stands for ``is_http and is_http_parsed`` (the iterator parses the HTTP
    headers of exactly the records that are HTTP). The HTTP headers come from ``items()``, which FastWARC
    decodes as latin-1 (isomorphic decoding, what Fetch does), so no per-pair decode in Python.
    tests/integrations/test_warc_stream.py compares every field with the one-property-per-field reading.
    ``content_length`` and ``record_type`` (its name): what the caller has read of them already.
    ``full=False``: a record that is no response comes as its type, id and content length alone (see
    ``iter_http_records``).
    """
    if content_length is None:
        content_length = rec.content_length
    get = rec.headers.get
    uri_key, record_id_key, date_key, truncated_key = keys
    if record_type is None:
        record_type = _record_type_name(rec.record_type)
    if not full and record_type != "response":
        # (its id kept: an unreadable next record is reported after this one's id)
        return _bare_record(record_type, get(record_id_key), content_length)
    uri = get(uri_key)
    record_id = get(record_id_key)
    date = get(date_key)
    truncated = get(truncated_key)
    status: int | None = None
    http_headers: tuple[tuple[str, str], ...] = ()
    payload = b""
    if rec.is_http_parsed:
        parsed = rec.http_headers
        status = parsed.status_code
        http_headers = parsed.items()
        # only text responses need their payload read (a video record's bytes never enter memory)
        if status is not None and record_type == "response" and is_textual(_content_types(http_headers)):
            payload = _read_payload(rec, content_length)
    return _new_http_record(
        record_type=record_type,
        uri=uri,
        record_id=record_id,
        date=date,
        status=status,
        headers=http_headers,
        payload=payload,
        truncated=truncated,
        content_length=content_length,
    )


def _bare_record(
    record_type: str, record_id: str | None = None, content_length: int | None = None
) -> HttpRecord:
    """A record of ``record_type`` with nothing but (optionally) its id and length: what
    ``iter_http_records(full_records=False)`` gives for a record other than a response."""
    return _new_http_record(
        record_type=record_type,
        uri=None,
        record_id=record_id,
        date=None,
        status=None,
        headers=(),
        payload=b"",
        truncated=None,
        content_length=content_length,
    )


#: the one field-less record of each type that the streamed gzip path shares (records are frozen)
_shared_bare_record = cache(_bare_record)


def _content_types(headers: tuple[tuple[str, str], ...]) -> list[str] | None:
    """The Content-Type values of HTTP headers, or None when there is none."""
    return [v for k, v in headers if k.lower() == "content-type"] or None


def _read_payload(rec: Any, content_length: int) -> bytes:
    """A FastWARC record's payload, at most ``_MAX_PAYLOAD_BYTES``.

    The payload lies inside the record's block of ``content_length`` bytes, so a block below the limit
    is read whole; ``read(n)`` is kept for larger ones because FastWARC allocates ``n`` bytes up front
    (about 20 us per call for the 64 MiB limit, measured: a quarter of the reader's time on a crawl).
    """
    if content_length < _MAX_PAYLOAD_BYTES:
        return rec.reader.read()
    return rec.reader.read(_MAX_PAYLOAD_BYTES)


def _record_type_name(record_type: Any) -> str:
    """``response``, ``request``, ... for a reader's record type: FastWARC 2's own type prints as its name."""
    name = str(record_type)
    if name.isalpha():
        return name.lower()  # FastWARC 2 (no "." to split off)
    # an Enum's str ("WarcRecordType.response") or an IntFlag's ("4")
    name = getattr(record_type, "name", None) or name
    return name.rsplit(".", 1)[-1].lower()


def _parse_member(
    member: bytes, whole: bool, oversize: bool = False, full: bool = True
) -> tuple[list[HttpRecord], list[str]]:
    """Records of one gzip member, re-parsed with a corrected Content-Length when the member proves it."""
    problems: list[str] = []
    records: list[HttpRecord] = []
    error: str | None = None
    try:
        records.extend(_fastwarc_records(member, full=full))
    except OSError as exc:  # FastWARC: "Invalid WARC header" after a wrong length
        error = str(exc)
    head_end = member.find(_RECORD_END)
    # One record per member (the convention): the block is everything between the header's blank line
    # and the final CRLF CRLF, whatever Content-Length says.
    block = len(member) - (head_end + 4) - len(_RECORD_END)
    length_ok = len(records) == 1 and records[0].content_length == block and error is None
    if oversize:
        return [_with_problem(r, "warc-record-over-limit") for r in records], problems
    if head_end >= 0 and not length_ok and member.find(_RECORD_END + b"WARC/1.", head_end + 4) < 0:
        fixed = _repair_single_record(member)
        if fixed is not None:
            try:
                fixed_records = _fastwarc_records(fixed, full=full)
                records = [_with_problem(r, "warc-content-length-mismatch") for r in fixed_records]
                error = None
            except OSError as exc:
                error = str(exc)
    if error is not None:
        problems.append(f"unreadable WARC record data ({error})")
        if records:
            records[-1] = _with_problem(records[-1], "warc-content-length-mismatch")
    if not whole:
        problems.append("gzip member cut off or corrupt")
        records = [_with_problem(r, "warc-member-truncated") for r in records]
    return records, problems


def _with_problem(record: HttpRecord, problem: str) -> HttpRecord:
    return HttpRecord(
        record.record_type,
        record.uri,
        record.record_id,
        record.date,
        record.status,
        record.headers,
        record.payload,
        record.truncated,
        (*record.problems, problem),
        record.content_length,
    )


def _warcio_records(stream: IO[bytes]) -> Iterator[HttpRecord]:
    from warcio.archiveiterator import ArchiveIterator

    for rec in ArchiveIterator(stream, arc2warc=True):
        rh = rec.rec_headers
        status: int | None = None
        headers: tuple[tuple[str, str], ...] = ()
        if rec.http_headers is not None:
            code = rec.http_headers.get_statuscode()
            status = int(code) if code and code.isdigit() else None
            headers = tuple(
                (k, v.encode("utf-8", "surrogateescape").decode("latin-1") if not v.isascii() else v)
                for k, v in rec.http_headers.headers
            )
        content_types = [v for k, v in headers if k.lower() == "content-type"]
        wanted = rec.rec_type == "response" and status is not None and is_textual(content_types or None)
        yield HttpRecord(
            record_type=rec.rec_type,
            uri=rh.get_header("WARC-Target-URI"),
            record_id=rh.get_header("WARC-Record-ID"),
            date=rh.get_header("WARC-Date"),
            status=status,
            headers=headers,
            payload=rec.raw_stream.read(_MAX_PAYLOAD_BYTES) if wanted else b"",
            truncated=rh.get_header("WARC-Truncated"),
        )


def iter_http_records(
    path: str | Path, *, reader: str = "auto", errors: list[str] | None = None, full_records: bool = True
) -> Iterator[HttpRecord]:
    """Every record of a WARC/ARC file (gzip or not). ``reader``: ``auto``, ``fastwarc`` or ``warcio``.

    ``auto`` uses FastWARC, and warcio for ARC files (FastWARC reads WARC only). Unreadable data is
    reported by appending a message to ``errors`` (reading of that file then stops), never raised.

    ``full_records=False`` (for :func:`decode_records`, which reads only the type and the problems of a
    record that is no response): FastWARC's records other than responses come without their other WARC
    fields and HTTP headers. Streamed from a gzipped archive (the common path), every such record of one
    type is one shared record with ``record_type`` alone (no problem can be found there); read member by
    member or from a plain stream, each keeps its ``record_id``, ``problems`` and ``content_length``, for the
    recovery and its messages. Two of three records of a crawl are requests and metadata, whose fields
    cost about 1.3 us each to read and build, for nothing (measured on benchmarks/warc.py's web-like
    archive). Responses are the same either way.
    """
    errors = errors if errors is not None else []
    if reader not in ("auto", "fastwarc", "warcio"):
        raise ValueError(f"reader must be 'auto', 'fastwarc' or 'warcio', not {reader!r}")
    with open(path, "rb") as stream:
        first = stream.read(_READ_CHUNK)
        is_gzip = first.startswith(_GZIP_MAGIC)
        try:
            sample = zlib.decompressobj(wbits=31).decompress(first[:_SNIFF_BYTES]) if is_gzip else first
        except zlib.error:
            sample = b""  # a corrupt first member is reported by the member loop below
        is_arc = sample.startswith(b"filedesc://")
        if reader == "warcio" or (reader == "auto" and is_arc):
            stream.seek(0)
            try:
                yield from _warcio_records(stream)
            except Exception as exc:  # warcio raises its own ArchiveLoadFailed and others
                errors.append(f"{path}: {exc}")
            return
        if is_arc:
            errors.append(f"{path}: an ARC file; FastWARC reads WARC only (use --reader warcio)")
            return
        if is_gzip:
            stream.seek(0)
            yield from _gzip_records(stream, path, errors, full_records)
            return
        stream.seek(0)
        yield from _plain_records(stream, path, errors, full_records)


class _NeedsMemberPath(Exception):
    """A record the streaming reader leaves to the member-by-member path (over the member size limit)."""


def _gzip_records(
    stream: IO[bytes], path: str | Path, errors: list[str], full: bool = True
) -> Iterator[HttpRecord]:
    """Records of a gzipped WARC: streamed through FastWARC's own iterator, one record behind; from the
    first record it cannot vouch for, through the member-by-member path (``_member_records``) instead.

    A record whose WARC Content-Length is wrong makes FastWARC fail on the next header (it reads the block
    by the length it was told, into the next member), so holding each record back until the next one has
    parsed means only records followed by a good header come from the stream. Corrupt data and bytes after
    the last member make FastWARC fail too. The last record has no next header, and FastWARC ends quietly
    inside a member cut off at the end of the file, so the last member is inflated and parsed on its own as
    the member path would (``_last_member``). Anything else (including a record over ``_MAX_MEMBER_BYTES``)
    hands over to the member path, which reads the file again, skips the records already yielded and
    proves or repairs the rest as before. (Blind spot: a length too long by exactly the whole records
    after it swallows them; only the member path would see that.)
    """
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    keys = _warc_field_keys()
    yielded = 0
    pending: HttpRecord | None = None
    last: Any = None  # the FastWARC record of ``pending``
    try:
        for rec in ArchiveIterator(
            stream, parse_http=True, record_types=WarcRecordType.any_type, fsspec_args=False
        ):
            content_length = rec.content_length
            if content_length >= _MAX_MEMBER_BYTES:
                raise _NeedsMemberPath
            record_type = _record_type_name(rec.record_type)
            if full or record_type == "response":
                record = _from_fastwarc(rec, keys, content_length, record_type=record_type)
            else:
                record = _shared_bare_record(record_type)
            if pending is not None:
                yield pending
                yielded += 1
            pending, last = record, rec
    except (OSError, _NeedsMemberPath):
        pass
    else:
        if pending is None:
            return
        # the last record's offset, read once: a record keeps its stream_pos after the iterator moves on
        tail = _last_member(stream, last.stream_pos)
        if tail is not None:
            records, problems = _parse_member(tail, True, full=full)
            if len(records) == 1 and not problems:
                yield records[0]
                return
    stream.seek(0)
    yield from islice(_member_records(stream, path, errors, full), yielded, None)


def _last_member(stream: IO[bytes], offset: int) -> bytes | None:
    """The inflated gzip member at ``offset`` if it ends cleanly at the end of the file (and holds at most
    ``_MAX_MEMBER_BYTES``), else None."""
    stream.seek(offset)
    data = stream.read(_READ_CHUNK)
    if not data.startswith(_GZIP_MAGIC):
        return None
    inflater = zlib.decompressobj(wbits=31)
    parts: list[bytes] = []
    kept = 0
    try:
        while data:
            part = inflater.decompress(data, _MAX_MEMBER_BYTES + 1 - kept)
            parts.append(part)
            kept += len(part)
            if kept > _MAX_MEMBER_BYTES:
                return None
            if inflater.eof:
                break
            data = inflater.unconsumed_tail or stream.read(_READ_CHUNK)
    except zlib.error:
        return None
    if not inflater.eof or inflater.unused_data or stream.read(1):
        return None  # cut off, or more bytes after it
    return b"".join(parts)


def _member_records(
    stream: IO[bytes], path: str | Path, errors: list[str], full: bool = True
) -> Iterator[HttpRecord]:
    """Records of a gzipped WARC split into gzip members first, each record proved against its member (the
    recovery path of ``_gzip_records``)."""
    for member in _iter_gzip_members(stream, stream.read(_READ_CHUNK)):
        if member.not_gzip:
            errors.append(f"{path}: bytes at offset {member.offset} are not gzip; the rest is ignored")
            continue
        if member.oversize and member.data.find(_RECORD_END + b"WARC/1.") >= 0:
            # several records in one huge member: stream them from its start with bounded memory
            stream.seek(member.offset)
            yield from _plain_records(stream, path, errors, full)
            return
        records, problems = _parse_member(member.data, member.whole, member.oversize, full)
        errors.extend(f"{path}: {p}" for p in problems)
        yield from records


def _plain_records(
    stream: IO[bytes], path: str | Path, errors: list[str], full: bool = True
) -> Iterator[HttpRecord]:
    """Records of a WARC stream read by FastWARC itself (plain, or gzip from a member's start), one record
    behind, so that a record followed by unreadable data (a wrong Content-Length) is flagged."""
    pending: HttpRecord | None = None
    try:
        for record in _fastwarc_records(stream, detect_compression=True, full=full):
            if pending is not None:
                yield pending
            pending = record
    except OSError as exc:
        errors.append(
            f"{path}: unreadable WARC data after record {pending.record_id if pending else None}: {exc}"
        )
        if pending is not None:
            pending = _with_problem(pending, "warc-content-length-mismatch")
    if pending is not None:
        yield pending


# --- decoding ----------------------------------------------------------------------------------------


def _content_decode(payload: bytes, transfer: str, coding: str) -> tuple[bytes | None, list[str]]:
    """Undo Transfer-Encoding: chunked and Content-Encoding gzip/deflate; None when impossible.

    ``transfer`` and ``coding``: the record's Transfer-Encoding and Content-Encoding values, each joined
    with commas and lowercased ("" when absent)."""
    notes: list[str] = []
    if "chunked" in transfer:
        dechunked = _dechunk(payload)
        if dechunked is None:
            notes.append("chunked-undecodable")
        else:
            payload = dechunked
    coding = coding.strip()
    if coding in ("", "identity"):
        return payload, notes
    if coding in ("gzip", "x-gzip", "deflate"):
        if coding != "deflate" and not payload.startswith(_GZIP_MAGIC):
            # Crawlers such as Common Crawl's store the decoded body but keep the original header.
            notes.append("content-encoding-already-removed")
            return payload, notes
        for wbits in (47, -15):  # 47: gzip or zlib wrapper; -15: raw deflate (what some servers send)
            try:
                inflater = zlib.decompressobj(wbits=wbits)
                out = inflater.decompress(payload)
                if not inflater.eof:
                    notes.append("content-encoding-truncated")
                return out + inflater.flush(), notes
            except zlib.error:
                continue
        return None, [*notes, "content-encoding-undecodable"]
    return None, [*notes, f"content-encoding-unsupported:{coding}"]


def _dechunk(data: bytes) -> bytes | None:
    out: list[bytes] = []
    pos = 0
    while pos < len(data):
        line_end = data.find(b"\r\n", pos)
        if line_end < 0:
            return None
        size_text = data[pos:line_end].split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            return None
        if size == 0:
            break
        start = line_end + 2
        out.append(data[start : start + size])  # a truncated last chunk keeps what is there
        pos = start + size + 2
    return b"".join(out)


def decode_records(
    records: Iterable[HttpRecord],
    summary: WarcSummary,
    *,
    fallback: str = "detect",
    trust: str = "browser",
    on_record: Callable[[], None] | None = None,
) -> Iterator[WarcRow]:
    """Decode the HTTP response records of ``records`` into rows; everything else is counted.

    ``trust="evidence"``: a page whose declaration the bytes prove wrong gets its true text; the row's
    ``overridden`` says so and ``browser_encoding`` keeps what a browser shows.
    """
    by_record_type = summary.by_record_type
    for record in records:
        summary.records += 1
        record_type = record.record_type
        by_record_type[record_type] += 1
        problems = record.problems
        if problems:
            summary.malformed += 1
        if on_record is not None:
            on_record()
        if record_type != "response" or record.status is None:
            continue  # requests, revisits (no payload), metadata, warcinfo, non-HTTP resources
        summary.responses += 1
        content_types, transfer, coding = _body_headers(record.headers)
        transport, kind = transport_and_kind(content_types or None)
        if kind == "binary":
            summary.skipped_non_text += 1
            continue
        body: bytes | None = record.payload
        notes: list[str] = []
        if transfer or coding:
            body, notes = _content_decode(record.payload, transfer, coding)
            if body is None:
                summary.skipped_undecodable += 1
                continue
        # one value is passed as a str: decode_html remembers the parse of a single value
        content_type = content_types[0] if len(content_types) == 1 else (content_types or None)
        uri = record.uri
        if kind == "html":  # decode_parsed's own first step, without working out the kind again
            decoded = decode_html(body, content_type, url=uri, fallback=fallback, trust=trust)
        else:
            decoded = decode_parsed(body, content_type, transport, url=uri, fallback=fallback, trust=trust)
        codes = tuple([w.code for w in decoded.warnings]) if decoded.warnings else ()
        source = decoded.source
        row = _new_row(
            uri=uri,
            record_id=record.record_id,
            date=_iso_date(record.date),
            status=record.status,
            content_type=content_type if len(content_types) == 1 else ", ".join(content_types) or None,
            kind=kind,
            encoding=decoded.encoding,
            source=source,
            confidence=decoded.confidence,
            browser_encoding=decoded.browser_encoding,
            overridden=source == "evidence",
            warnings=(*problems, *notes, *codes) if problems or notes else codes,
            replacement_count=decoded.replacement_count,
            truncated=record.truncated,
            text=decoded.text,
        )
        summary.add_row(row)
        yield row


def _body_headers(headers: tuple[tuple[str, str], ...]) -> tuple[list[str], str, str]:
    """(Content-Type values, Transfer-Encoding and Content-Encoding values each joined with commas and
    lowercased) in one pass over the headers: ``HttpRecord.header_values`` three times, in one."""
    content_types: list[str] = []
    transfer: list[str] = []
    coding: list[str] = []
    for name, value in headers:
        lname = name.lower()
        if lname == "content-type":
            content_types.append(value)
        elif lname == "transfer-encoding":
            transfer.append(value)
        elif lname == "content-encoding":
            coding.append(value)
    return content_types, ",".join(transfer).lower(), ",".join(coding).lower()


#: WARC-Date values whose ISO form is remembered: records a crawler writes close together carry the same
#: date to the second, so most records skip the parse (about 2 us; measured on benchmarks/warc.py's
#: archives, whose records carry a handful of dates). The size is a choice, not tuned on any data set:
#: enough distinct seconds for records written out of order by a crawler's parallel fetchers.
_DATE_MEMO_SIZE = 256


@lru_cache(maxsize=_DATE_MEMO_SIZE)
def _iso_date(value: str | None) -> str | None:
    """WARC-Date as ``datetime.isoformat`` spells it (``Z`` as ``+00:00``); a value that is no ISO date as
    is; None for none."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).isoformat()
    except ValueError:
        return value


# --- writing -------------------------------------------------------------------------------------------


def _parquet_schema() -> Any:
    import pyarrow as pa

    return pa.schema(
        [
            ("uri", pa.string()),
            ("record_id", pa.string()),
            ("date", pa.string()),
            ("status", pa.int32()),
            ("content_type", pa.string()),
            ("kind", pa.string()),
            ("encoding", pa.string()),
            ("source", pa.string()),
            ("confidence", pa.string()),
            ("browser_encoding", pa.string()),
            ("overridden", pa.bool_()),
            ("warnings", pa.list_(pa.string())),
            ("replacement_count", pa.int64()),
            ("truncated", pa.string()),
            ("text", pa.large_string()),
        ]
    )


#: What the compiled JSON-lines writer writes before each value of a row (``{"uri": ``, ``, "record_id": ``,
#: ...), spelled as json.dumps spells them (the names are lowercase ASCII letters and "_", which it quotes as
#: they are; tests/native/test_warc_jsonl.py compares), and after the last. Not built with json: a run
#: that writes no reference line never imports it (about 3 ms of start-up).
_JSONL_PREFIXES = tuple(
    f'{"{" if k == 0 else ", "}"{name}": '.encode("ascii") for k, name in enumerate(ROW_FIELDS)
)
_JSONL_END = b"}\n"


@cache  # one reference writer per process, also for the compiled writer's fallback rows
def _reference_line() -> Callable[[WarcRow], bytes]:
    """``json.dumps(row.to_dict(), ensure_ascii=False)`` and a newline, as UTF-8: the reference writer."""
    import json  # here, not at import: with the compiled writer most runs never need it

    encode = json.JSONEncoder(ensure_ascii=False).encode  # built once, not per row

    def reference(row: WarcRow) -> bytes:
        return (encode(row.to_dict()) + "\n").encode("utf-8")

    return reference


def _jsonl_line() -> Callable[[WarcRow], bytes]:
    """A function giving one row's JSON line as UTF-8: the reference (``_reference_line``), or the compiled
    writer's same bytes in one call (mojifix._native decides).

    The compiled writer escapes and encodes the text in one pass (docs/integrations.md); a row it does not
    write (a lone surrogate, which UTF-8 cannot encode) goes the reference way, which raises as before.
    """
    kernel = _native.warc_writer_kernel()
    if kernel is None:
        return _reference_line()
    compiled_line, values = kernel.line, attrgetter(*ROW_FIELDS)

    def compiled(row: WarcRow) -> bytes:
        out: bytes | None = compiled_line(_JSONL_PREFIXES, values(row), _JSONL_END)
        return _reference_line()(row) if out is None else out

    return compiled


def write_rows(
    rows: Iterable[WarcRow], output: str | Path, *, row_group_rows: int = DEFAULT_ROW_GROUP_ROWS
) -> int:
    """Write rows to ``output`` (``.jsonl`` or ``.parquet`` by suffix); returns the number written.

    Parquet rows are buffered ``row_group_rows`` at a time and flushed as one row group each, so memory
    stays bounded by one group whatever the archive size.
    """
    output = Path(output)
    suffix = output.suffix.lower()
    count = 0
    if suffix in (".jsonl", ".ndjson"):
        line = _jsonl_line()
        with open(output, "wb", buffering=_WRITE_BUFFER_BYTES) as out:
            for row in rows:
                out.write(line(row))
                count += 1
        return count
    if suffix != ".parquet":
        raise ValueError(f"output must end in .jsonl or .parquet, not {output.name!r}")
    if row_group_rows < 1:
        raise ValueError("row_group_rows must be at least 1")
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = _parquet_schema()
    buffer: dict[str, list[Any]] = {name: [] for name in ROW_FIELDS}

    def flush(writer: Any) -> None:
        writer.write_table(pa.table(buffer, schema=schema), row_group_size=row_group_rows)
        for column in buffer.values():
            column.clear()

    with pq.ParquetWriter(output, schema) as writer:
        for row in rows:
            for name, value in row.to_dict().items():
                buffer[name].append(value)
            count += 1
            if len(buffer["uri"]) >= row_group_rows:
                flush(writer)
        if buffer["uri"] or count == 0:
            flush(writer)
    return count
