"""mojifix.compat.requests: the documented one-liner makes Response.apparent_encoding mojifix's guess."""

from __future__ import annotations

import pytest

requests = pytest.importorskip("requests")

import mojifix.compat.requests  # noqa: E402
from mojifix.compat.chardet import detect  # noqa: E402


def _response(body: bytes, content_type: str | None) -> requests.Response:
    r = requests.models.Response()
    r._content = body
    r.status_code = 200
    if content_type:
        r.headers["Content-Type"] = content_type
    r.encoding = requests.utils.get_encoding_from_headers(r.headers)
    return r


def test_install_and_uninstall():
    body = "いろはにほへと ちりぬるを わかよたれそ つねならむ。～ ".encode("cp932") * 5
    original = requests.models.Response.__dict__["apparent_encoding"]
    mojifix.compat.requests.install()
    try:
        r = _response(body, "application/octet-stream")
        assert r.apparent_encoding == detect(body)["encoding"] == "CP932"
        assert r.text == body.decode("cp932")  # requests falls back to apparent_encoding: no charset given
        r2 = _response(body, None)
        r2.encoding = r2.apparent_encoding  # the common idiom
        assert "～" in r2.text
    finally:
        mojifix.compat.requests.uninstall()
    assert requests.models.Response.__dict__["apparent_encoding"] is original


def test_property_assignable_by_hand(monkeypatch):
    monkeypatch.setattr(
        requests.models.Response, "apparent_encoding", mojifix.compat.requests.apparent_encoding
    )
    r = _response(b"caf\xe9 cr\xe8me " * 10 + b"\x81", None)
    assert r.apparent_encoding == "whatwg-windows-1252"
    assert r.text.endswith("\x81")
