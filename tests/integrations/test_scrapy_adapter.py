"""Scrapy: a real crawl of the raw local server, in a subprocess (Twisted's reactor cannot restart).

The spider records, per page, ``response.text``, ``response.encoding``, the decision in
``response.meta`` and the text a ``.css()`` selector sees; the test compares them with the cases.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from integrations_http import CASES, RawHttpServer

#: Upper bound for the whole crawl subprocess (Scrapy starts in ~2 s; 10 local pages take well under 1 s).
CRAWL_TIMEOUT = 60

SPIDER = textwrap.dedent(
    """
    import json, sys
    import scrapy
    from scrapy.crawler import CrawlerProcess

    urls, out_path, enabled = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
    results = {}

    class CaseSpider(scrapy.Spider):
        name = "cases"

        async def start(self):
            for name, url in urls.items():
                yield scrapy.Request(url, cb_kwargs={"name": name}, dont_filter=True)

        def parse(self, response, name):
            results[name] = {
                "text": response.text,
                "encoding": response.encoding,
                "decoded_with_encoding": response.body.decode(response.encoding, "replace"),
                "decision": response.meta.get("mojifix"),
                "paragraph": "" if name.startswith("json") else "".join(response.css("p::text").getall()),
            }

    settings = {
        "ROBOTSTXT_OBEY": False,
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
        "RETRY_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 10,
        "CONCURRENT_REQUESTS": 4,
    }
    if enabled:
        settings["DOWNLOADER_MIDDLEWARES"] = {"mojifix.integrations.scrapy.MojifixMiddleware": 580}
    process = CrawlerProcess(settings)
    process.crawl(CaseSpider)
    process.start()
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False)
    """
)

HTML_CASES = [c for c in CASES if not c.name.startswith("json")]


def _crawl(server: RawHttpServer, tmp_path: Path, enabled: bool) -> dict[str, dict[str, object]]:
    script = tmp_path / "crawl.py"
    script.write_text(SPIDER, encoding="utf-8")
    out = tmp_path / "results.json"
    urls = {c.name: server.url(c.name) for c in CASES}
    subprocess.run(
        [sys.executable, str(script), json.dumps(urls), str(out), "1" if enabled else "0"],
        check=True,
        timeout=CRAWL_TIMEOUT,
        cwd=tmp_path,
    )
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_scrapy_middleware_makes_response_text_browser_exact(
    http_server: RawHttpServer, tmp_path: Path
) -> None:
    results = _crawl(http_server, tmp_path, enabled=True)
    assert set(results) == {c.name for c in CASES}
    for case in CASES:
        got = results[case.name]
        assert got["text"] == case.text, case.name
        assert got["decoded_with_encoding"] == case.text, case.name
        decision = got["decision"]
        assert isinstance(decision, dict) and decision["encoding"] == case.encoding, case.name
        assert "text" not in decision
    for case in HTML_CASES:
        paragraph = case.text.split("<p>", 1)[1].split("</p>", 1)[0]
        assert results[case.name]["paragraph"] == paragraph, case.name


@pytest.mark.slow
def test_scrapy_without_middleware_gets_some_wrong(http_server: RawHttpServer, tmp_path: Path) -> None:
    """The comparison that makes the middleware worth enabling (w3lib's choices on the same bytes)."""
    results = _crawl(http_server, tmp_path, enabled=False)
    wrong = {c.name for c in CASES if results[c.name]["text"] != c.text}
    # w3lib maps labels to the right superset codecs (shift_jis -> cp932, gb2312 -> gb18030...), but
    # CPython's cp1252 still leaves 0x81/0x8D undefined where the Encoding Standard maps C1 controls,
    # and the WHATWG-only label x-user-defined is unknown to Python.
    assert wrong == {"windows-1252-c1", "x-user-defined"}
    assert all(results[c.name]["decision"] is None for c in CASES)


def test_middleware_in_process_utf32_looking_bom_and_binary() -> None:
    """FF FE 00 00 is a UTF-32LE BOM to w3lib but a UTF-16LE BOM + U+0000 to browsers."""
    from scrapy import Request
    from scrapy.http import HtmlResponse, Response

    from mojifix.integrations.scrapy import MojifixMiddleware

    body = b"\xff\xfe" + "\x00<p>Ωμέγα</p>".encode("utf-16-le")
    request = Request("http://example.gr/")
    response = HtmlResponse(
        "http://example.gr/", body=body, headers={"Content-Type": "text/html"}, request=request
    )
    assert response.text != "\x00<p>Ωμέγα</p>"  # Scrapy alone: UTF-32LE
    fixed = MojifixMiddleware().process_response(request, response)
    assert fixed.text == "\x00<p>Ωμέγα</p>"
    assert fixed.body.decode(fixed.encoding, "replace") == fixed.text
    assert request.meta["mojifix"]["source"] == "bom" and fixed.meta["mojifix"]["encoding"] == "UTF-16LE"
    image = Response("http://example.gr/a.png", body=b"\x89PNG", headers={"Content-Type": "image/png"})
    assert MojifixMiddleware().process_response(request, image) is image
