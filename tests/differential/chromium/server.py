"""A tiny HTTP/1.1 server on 127.0.0.1 that sends each case's header lines as exact bytes.

Why not ``http.server.BaseHTTPRequestHandler``: it adds ``Server``/``Date`` headers and normalises what
it writes; the differential cases need several ``Content-Type`` lines, odd whitespace and raw bytes in
header values exactly as written. So the response is assembled by hand:

    HTTP/1.1 200 OK CRLF
    <the case's header lines, verbatim, each followed by CRLF>
    Content-Length: N CRLF
    Cache-Control: no-store CRLF
    Connection: close CRLF
    CRLF
    <body bytes>

Routes: ``/case/<id>`` serves the registered case; anything else (e.g. ``/favicon.ico``) is a 404 with
no body. The ``Host`` the browser asked for is recorded per path so tests can check that the
country-TLD host mapping (Chromium's ``--host-resolver-rules``) really reached this server.
"""

from __future__ import annotations

import socket
import socketserver
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

#: Header lines this server always appends after the case's own lines. ``no-store`` keeps Chromium's
#: cache from serving a previous case's bytes; ``close`` keeps one request per connection.
_FIXED_TRAILER = b"Cache-Control: no-store\r\nConnection: close\r\n"

#: Largest request head we read before giving up (browsers send well under 4 KiB).
_MAX_REQUEST_HEAD = 64 * 1024


@dataclass(frozen=True, slots=True)
class Response:
    """One canned response: exact header lines (without CRLF) and the body bytes.

    ``chunk_size``/``chunk_delay_s``: when both are set, the body is written in pieces of
    ``chunk_size`` bytes with a pause between them (slow delivery; Chromium's detector for undeclared
    pages decides on what it has received, see docs/browser-measurements.md). Default: one write.
    """

    header_lines: tuple[bytes, ...]
    body: bytes
    chunk_size: int = 0
    chunk_delay_s: float = 0.0


@dataclass
class _Registry:
    routes: dict[str, Response] = field(default_factory=dict)
    seen_hosts: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def build_response(resp: Response) -> bytes:
    """The full HTTP response bytes for ``resp`` (status line, verbatim header lines, body)."""
    head = [b"HTTP/1.1 200 OK\r\n"]
    head.extend(line + b"\r\n" for line in resp.header_lines)
    head.append(b"Content-Length: %d\r\n" % len(resp.body))
    head.append(_FIXED_TRAILER)
    head.append(b"\r\n")
    return b"".join(head) + resp.body


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        sock: socket.socket = self.request
        sock.settimeout(10)
        data = b""
        try:
            while b"\r\n\r\n" not in data and len(data) < _MAX_REQUEST_HEAD:
                chunk = sock.recv(4096)
                if not chunk:
                    return
                data += chunk
        except OSError:
            return
        request_line, _, rest = data.partition(b"\r\n")
        parts = request_line.split(b" ")
        path = parts[1].decode("latin-1") if len(parts) >= 2 else "/"
        host = ""
        for line in rest.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"host":
                host = value.strip().decode("latin-1")
        registry: _Registry = self.server.registry  # type: ignore[attr-defined]
        with registry.lock:
            resp = registry.routes.get(path.split("?", 1)[0])
            if resp is not None:
                registry.seen_hosts[path] = host
        if resp is None:
            out = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        else:
            out = build_response(resp)
        try:
            if resp is None or not (resp.chunk_size > 0 and resp.chunk_delay_s > 0):
                sock.sendall(out)
                return
            body_start = len(out) - len(resp.body)
            sock.sendall(out[:body_start])
            for i in range(body_start, len(out), resp.chunk_size):
                time.sleep(resp.chunk_delay_s)
                sock.sendall(out[i : i + resp.chunk_size])
        except OSError:
            return


class _ThreadingServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class CaseServer:
    """Serve registered responses on ``127.0.0.1:<ephemeral port>`` from a background thread.

    Use as a context manager::

        with CaseServer() as srv:
            srv.add("/case/x", Response((b"Content-Type: text/html",), b"<p>hi"))
            url = f"http://example.jp:{srv.port}/case/x"
    """

    def __init__(self) -> None:
        self._registry = _Registry()
        self._server = _ThreadingServer(("127.0.0.1", 0), _Handler)
        self._server.registry = self._registry  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, name="case-server", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def add(self, path: str, resp: Response) -> None:
        with self._registry.lock:
            self._registry.routes[path] = resp

    def add_many(self, items: Iterable[tuple[str, Response]]) -> None:
        for path, resp in items:
            self.add(path, resp)

    def host_seen(self, path: str) -> str | None:
        """The ``Host`` header of the last request for ``path`` (None if never requested)."""
        with self._registry.lock:
            return self._registry.seen_hosts.get(path)

    def start(self) -> CaseServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> CaseServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
