"""httpx (sync and async) against the raw local server: decode_response, the event hook, default_encoding."""

from __future__ import annotations

import asyncio

import httpx
from integrations_http import CASES, CASES_BY_NAME, PNG_BYTES, HttpCase, RawHttpServer

from mojifix.integrations import httpx as mhttpx

#: Seconds any test request may take (the server is local; this only bounds a hang).
TIMEOUT = 10.0


def test_decode_response(http_server: RawHttpServer, http_case: HttpCase) -> None:
    resp = httpx.get(http_server.url(http_case.name), timeout=TIMEOUT)
    decoded = mhttpx.decode_response(resp)
    assert (decoded.text, decoded.encoding) == (http_case.text, http_case.encoding)


def test_sync_client_hook(http_server: RawHttpServer) -> None:
    with httpx.Client(timeout=TIMEOUT) as client:
        mhttpx.install(client)
        for case in CASES:
            resp = client.get(http_server.url(case.name))
            assert resp.text == case.text, case.name
            assert getattr(resp, mhttpx.ATTRIBUTE).encoding == case.encoding
            assert resp.content.decode(resp.encoding, "replace") == case.text
        image = client.get(http_server.url("image.png"))
    assert image.content == PNG_BYTES and not hasattr(image, mhttpx.ATTRIBUTE)


def test_async_client_hook(http_server: RawHttpServer) -> None:
    async def fetch_all() -> list[tuple[str, str, str]]:
        async with httpx.AsyncClient(timeout=TIMEOUT) as client:
            mhttpx.install(client)
            responses = await asyncio.gather(*(client.get(http_server.url(c.name)) for c in CASES))
            return [(r.text, getattr(r, mhttpx.ATTRIBUTE).encoding, r.encoding) for r in responses]

    results = asyncio.run(fetch_all())
    assert [(text, enc) for text, enc, _ in results] == [(c.text, c.encoding) for c in CASES]


def test_async_streaming_read_uses_the_hook_encoding(http_server: RawHttpServer) -> None:
    case = CASES_BY_NAME["euc-kr-extended"]

    async def fetch() -> str:
        async with httpx.AsyncClient(timeout=TIMEOUT) as client:
            mhttpx.install(client)
            async with client.stream("GET", http_server.url(case.name)) as resp:
                return "".join([part async for part in resp.aiter_text()])

    assert asyncio.run(fetch()) == case.text


def test_default_encoding_callable(http_server: RawHttpServer) -> None:
    """Called only when the header has no charset Python knows: fixes meta-declared and BOM pages."""
    with httpx.Client(default_encoding=mhttpx.default_encoding, timeout=TIMEOUT) as client:
        meta = client.get(http_server.url("meta-utf8"))
        bom16 = client.get(http_server.url("utf16le-bom"))
        labelled = client.get(http_server.url("latin1-euro"))
    assert meta.text == CASES_BY_NAME["meta-utf8"].text
    assert bom16.text == CASES_BY_NAME["utf16le-bom"].text
    # documented limit: a charset Python knows wins over default_encoding (true Latin-1: U+0080, no euro)
    assert labelled.text != CASES_BY_NAME["latin1-euro"].text and "\x80" in labelled.text


def test_plain_httpx_gets_the_traps_wrong(http_server: RawHttpServer) -> None:
    with httpx.Client(timeout=TIMEOUT) as client:
        wrong = [c.name for c in CASES if client.get(http_server.url(c.name)).text != c.text]
    assert {"shift-jis-wave", "gb2312-gbk-only", "euc-kr-extended", "latin1-euro", "x-user-defined"} <= set(
        wrong
    )
