"""``trust="evidence"`` through the requests, httpx and Scrapy adapters, against the raw local server.

A page served as ``charset=iso-8859-1`` whose body is UTF-8: the browser (and the default mode) shows
mojibake; with ``trust="evidence"`` every adapter gives the author's text and keeps the browser's
choice in the decision. Correctly declared pages (the shared HTTP cases) stay exactly as before.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import requests
from integrations_http import CASES, HttpCase, RawHttpServer

from mojifix.integrations import httpx as mhttpx
from mojifix.integrations import requests as mreq
from mojifix.integrations.scrapy import MojifixMiddleware

TIMEOUT = 10
TRUE_TEXT = (
    "<!DOCTYPE html><html><head><title>t</title></head><body>"
    "<p>Le café de la gare a rouvert ; on y sert des crêpes et du thé à toute heure.</p></body></html>"
)
MISLABELED = HttpCase(
    "mislabeled-latin1-over-utf8",
    (b"Content-Type: text/html; charset=iso-8859-1",),
    TRUE_TEXT.encode("utf-8"),
    TRUE_TEXT,
    "UTF-8",
    True,
)


@pytest.fixture(scope="module")
def server() -> Iterator[RawHttpServer]:
    srv = RawHttpServer((MISLABELED, *CASES)).start()
    try:
        yield srv
    finally:
        srv.stop()


def _check(decision: object) -> None:
    assert getattr(decision, "source", None) == "evidence"
    assert getattr(decision, "browser_encoding", None) == "windows-1252"
    assert "declaration-overridden" in getattr(decision, "warning_codes", ())


def test_requests_session(server: RawHttpServer) -> None:
    with requests.Session() as session:
        mreq.install(session)
        browser = session.get(server.url(MISLABELED.name), timeout=TIMEOUT)
    assert browser.text != TRUE_TEXT  # the browser's mojibake, by default
    with requests.Session() as session:
        mreq.install(session, trust="evidence")
        resp = session.get(server.url(MISLABELED.name), timeout=TIMEOUT)
        right = [session.get(server.url(case.name), timeout=TIMEOUT) for case in CASES]
    assert resp.text == TRUE_TEXT
    _check(getattr(resp, mreq.ATTRIBUTE))
    for case, got in zip(CASES, right, strict=True):
        assert got.text == case.text, case.name  # right declarations are never overridden


def test_httpx_client(server: RawHttpServer) -> None:
    with httpx.Client(timeout=TIMEOUT) as client:
        mhttpx.install(client, trust="evidence")
        resp = client.get(server.url(MISLABELED.name))
        right = [(case, client.get(server.url(case.name))) for case in CASES]
    assert resp.text == TRUE_TEXT
    _check(getattr(resp, mhttpx.ATTRIBUTE))
    for case, got in right:
        assert got.text == case.text, case.name


def test_scrapy_middleware_setting() -> None:
    from scrapy.http import HtmlResponse, Request
    from scrapy.settings import Settings

    class _Crawler:
        settings = Settings({"MOJIFIX_TRUST": "evidence"})

    middleware = MojifixMiddleware.from_crawler(_Crawler())  # type: ignore[arg-type]
    url = "http://example.fr/" + MISLABELED.name
    request = Request(url)
    response = HtmlResponse(
        url, body=MISLABELED.body, headers={"Content-Type": "text/html; charset=iso-8859-1"}
    )
    new = middleware.process_response(request, response)
    assert new.text == TRUE_TEXT
    decision = request.meta["mojifix"]
    assert decision["source"] == "evidence" and decision["browser_encoding"] == "windows-1252"
    default = MojifixMiddleware().process_response(Request(url), response)
    assert default.text != TRUE_TEXT
