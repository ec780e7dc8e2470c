"""A real HTTP server on 127.0.0.1 (port 0) that sends exact header bytes, and the HTTP cases it serves.

Shared by the integration tests (imported as a plain module; the fixtures live in conftest.py).

The server is a raw socket loop, not http.server: the cases need byte-exact header lines, duplicate
Content-Type headers and no header normalisation. Every expected text below is written from the
Encoding Standard's index files and the cases' own construction, never computed with mojifix.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from dataclasses import dataclass

#: Seconds a client connection may stay silent before the server drops it (keeps a stuck test bounded).
_CLIENT_TIMEOUT = 5.0
#: Largest request head the server reads (requests from our own clients are a few hundred bytes).
_MAX_REQUEST_HEAD = 64 * 1024


@dataclass(frozen=True)
class HttpCase:
    """One response the server sends for ``/<name>``, and what a browser shows for its body."""

    name: str
    header_lines: tuple[bytes, ...]  # each without CRLF; Content-Length and Connection are added
    body: bytes
    text: str  # the browser's text (the true text) of ``body``
    encoding: str  # the WHATWG encoding a browser chooses
    requests_default_wrong: bool  # requests' own .text gets this case wrong

    def response_bytes(self) -> bytes:
        head = [b"HTTP/1.1 200 OK", *self.header_lines]
        head.append(b"Content-Length: " + str(len(self.body)).encode())
        head.append(b"Connection: close")
        return b"\r\n".join(head) + b"\r\n\r\n" + self.body


def _page(body_text: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head>{head}<title>t</title></head><body><p>{body_text}</p></body></html>"


# Shift_JIS: 0x81 0x60 is pointer 32 of index-jis0208.txt, U+FF5E FULLWIDTH TILDE; CPython's shift_jis
# says U+301C. 価格 is 0x89BF 0x8A69 in both.
_SJIS_TEXT = _page("価格～１０００円", '<meta charset="shift_jis">')
# GBK-only characters (not in GB2312): 丂 = 0x8140, 龘 = 0xFD93 (index-gb18030.txt pointers 0 and 23849).
_GBK_TEXT = _page("丂龘 中文")
# EUC-KR extended (UHC) hangul: 갂 = 0x8141, 똠 = 0x8C63, 뷁 = 0x94EE (index-euc-kr.txt), outside KS X 1001.
_EUCKR_TEXT = _page("갂똠뷁 한국어")
# windows-1252 0x80 is U+20AC (index-windows-1252.txt pointer 0); true ISO-8859-1 would give U+0080.
_EURO_TEXT = _page("Prix : 5 € TTC, déjà")

CASES: tuple[HttpCase, ...] = (
    HttpCase(
        "meta-utf8",
        (b"Content-Type: text/html",),
        _page("naïve 日本語 ☕", '<meta charset="utf-8">').encode("utf-8"),
        _page("naïve 日本語 ☕", '<meta charset="utf-8">'),
        "UTF-8",
        True,  # requests: ISO-8859-1 for text/* without charset
    ),
    HttpCase(
        "shift-jis-wave",
        (b"Content-Type: text/html; charset=Shift_JIS",),
        _SJIS_TEXT.encode("cp932"),  # Windows' code page writes U+FF5E as 0x81 0x60
        _SJIS_TEXT,
        "Shift_JIS",
        True,  # CPython shift_jis: U+301C
    ),
    HttpCase(
        "gb2312-gbk-only",
        (b"Content-Type: text/html; charset=gb2312",),
        _GBK_TEXT.encode("gbk"),
        _GBK_TEXT,
        "GBK",
        True,  # CPython gb2312 cannot decode 0x8140
    ),
    HttpCase(
        "euc-kr-extended",
        (b"Content-Type: text/html;charset=EUC-KR",),
        _EUCKR_TEXT.encode("cp949"),
        _EUCKR_TEXT,
        "EUC-KR",
        True,  # CPython euc_kr has no UHC extension
    ),
    HttpCase(
        "latin1-euro",
        (b'Content-Type: text/html; charset="ISO-8859-1"',),
        _EURO_TEXT.encode("cp1252"),
        _EURO_TEXT,
        "windows-1252",
        True,  # true Latin-1: U+0080
    ),
    HttpCase(
        "bom-wrong-header",
        (b"Content-Type: text/html; charset=windows-1252",),
        b"\xef\xbb\xbf" + _page("Café ☕ ünïcödé").encode("utf-8"),
        _page("Café ☕ ünïcödé"),
        "UTF-8",
        True,  # requests keeps the header's windows-1252 and the BOM
    ),
    HttpCase(
        "duplicate-content-type",
        # Fetch "extract a MIME type": same essence, no charset in the later value -> charset kept (GBK).
        (b"Content-Type: text/html; charset=gbk", b"Content-Type: text/html"),
        _page("丂 汉字").encode("gbk"),
        _page("丂 汉字"),
        "GBK",
        True,
    ),
    HttpCase(
        "utf16le-bom",
        (b"Content-Type: text/html",),
        b"\xff\xfe" + _page("Ελληνικά").encode("utf-16-le"),
        _page("Ελληνικά"),
        "UTF-16LE",
        True,
    ),
    HttpCase(
        "windows-1252-c1",
        # 0x81 and 0x8D are undefined in CPython's cp1252; the standard maps them to U+0081 / U+008D.
        (b"Content-Type: text/html; charset=windows-1252",),
        _page("a\x81b\x8dc ÿ").encode("latin-1"),
        _page("a\x81b\x8dc ÿ"),
        "windows-1252",
        True,
    ),
    HttpCase(
        "x-user-defined",
        # a WHATWG-only label: the standard's x-user-defined decoder maps byte 0x80 + n to U+F780 + n
        (b"Content-Type: text/html; charset=x-user-defined",),
        b"<p>ok \x80\xff</p>",
        "<p>ok \uf780\uf7ff</p>",
        "x-user-defined",
        True,  # Python has no such codec: requests falls back to UTF-8 with replacement
    ),
    HttpCase(
        "json-utf8-bom",
        (b"Content-Type: application/json; charset=iso-8859-1",),
        b'\xef\xbb\xbf{"name": "Zo\xc3\xab \xe2\x82\xac"}',
        '{"name": "Zoë €"}',
        "UTF-8",
        True,
    ),
)

CASES_BY_NAME = {case.name: case for case in CASES}

#: A non-text response: adapters must leave it alone.
PNG_BYTES = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"
PNG_RESPONSE = (
    b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
    % len(PNG_BYTES)
) + PNG_BYTES


class RawHttpServer:
    """Serves ``CASES`` (by path ``/<name>``) byte-exactly, one thread per connection."""

    def __init__(self, cases: tuple[HttpCase, ...]) -> None:
        self._responses = {f"/{case.name}": case.response_bytes() for case in cases}
        self._responses["/image.png"] = PNG_RESPONSE
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(32)
        self.port = self._sock.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept_loop, name="raw-http", daemon=True)

    def start(self) -> RawHttpServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        # unblock accept() with a connection to ourselves
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
        self._thread.join(timeout=5)
        self._sock.close()

    def url(self, name: str) -> str:
        return f"{self.base_url}/{name}"

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            if self._stop.is_set():
                conn.close()
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(_CLIENT_TIMEOUT)
            head = b""
            try:
                while b"\r\n\r\n" not in head and len(head) < _MAX_REQUEST_HEAD:
                    chunk = conn.recv(4096)
                    if not chunk:
                        return
                    head += chunk
            except OSError:
                return
            request_line = head.split(b"\r\n", 1)[0].split()
            path = request_line[1].decode("latin-1") if len(request_line) >= 2 else "/"
            response = self._responses.get(path.split("?", 1)[0])
            if response is None:
                response = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            try:
                conn.sendall(response)
            except OSError:
                return
