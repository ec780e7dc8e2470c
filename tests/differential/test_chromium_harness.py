"""The differential harness itself (no browser): the server sends exact bytes, cases are well formed.

If the server normalised a header line or the cases drifted from what they claim, every Chromium
comparison built on them would be meaningless, so these are checked directly.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.differential.chromium import cases as C  # noqa: E402
from tests.differential.chromium.server import CaseServer, Response, build_response  # noqa: E402


def _fetch(port: int, path: str, host: str = "example.jp") -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode("ascii"))
        chunks = []
        while True:
            data = sock.recv(65536)
            if not data:
                break
            chunks.append(data)
    return b"".join(chunks)


def test_server_sends_header_lines_and_body_verbatim() -> None:
    lines = (b"Content-Type: text/html; charset=koi8-r", b"content-type :\tTEXT/HTML;charset='x'\xa0")
    body = b"\x00\xff<meta charset=x>\r\n"
    with CaseServer() as srv:
        srv.add("/case/x", Response(lines, body))
        raw = _fetch(srv.port, "/case/x")
        assert srv.host_seen("/case/x") == f"example.jp:{srv.port}"
    assert raw == build_response(Response(lines, body))
    head, _, got_body = raw.partition(b"\r\n\r\n")
    assert got_body == body
    assert head.split(b"\r\n")[1:3] == list(lines)
    assert b"Content-Length: %d" % len(body) in head


def test_server_chunked_delivery_sends_the_same_bytes() -> None:
    body = bytes(range(256)) * 4
    with CaseServer() as srv:
        srv.add("/slow", Response((b"Content-Type: text/html",), body, chunk_size=300, chunk_delay_s=0.01))
        raw = _fetch(srv.port, "/slow")
    assert raw.partition(b"\r\n\r\n")[2] == body


def test_unknown_path_is_404() -> None:
    with CaseServer() as srv:
        raw = _fetch(srv.port, "/favicon.ico")
    assert raw.startswith(b"HTTP/1.1 404 ")


def test_case_ids_unique_and_url_safe() -> None:
    ids = [c.id for c in C.all_cases()]
    assert len(ids) == len(set(ids))
    assert all(c.isascii() and (c.isalnum() or c in "-_.") for i in ids for c in i)


@pytest.mark.parametrize("case", C.all_cases(), ids=[c.id for c in C.all_cases()])
def test_case_is_well_formed(case: C.Case) -> None:
    assert isinstance(case.body, bytes)
    for line in case.header_lines:
        assert isinstance(line, bytes)
        assert b"\r" not in line and b"\n" not in line
    assert case.declared == bool(case.expect)
    assert case.host.startswith("example.")


def test_texts_round_trip_in_their_encodings() -> None:
    """Every paragraph is encodable (after the windows-1258 rewrite) in the encodings it is used with."""
    for name, lang in C.ENCODING_LANG.items():
        if name in ("replacement", "x-user-defined", "UTF-16BE", "UTF-16LE", "UTF-8"):
            continue
        text = C.text_for(lang, name)
        assert C.encode(text, name)
    for lang, name in C.UNDECLARED:
        assert C.encode(C.text_for(lang, name), name)
    assert len(C.TEXTS) >= 12
