"""The demo: sample pages, the requests emulation, and run()."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests

from mojifix.sniff import decode_html
from mojifix.sniff.demo import requests_text, run

PAGES = Path(__file__).resolve().parents[2] / "samples" / "pages"


def test_requests_emulation_matches_requests_rule() -> None:
    body = "café".encode()
    assert requests_text(body, "text/html") == ("ISO-8859-1", "cafÃ©")
    assert requests_text(body, 'text/html; charset="utf-8"') == ("utf-8", "café")
    assert requests.utils.get_encoding_from_headers({"content-type": "text/html"}) == "ISO-8859-1"


def test_sample_pages_are_the_traps_they_claim() -> None:
    manifest = json.loads((PAGES / "manifest.json").read_text("utf-8"))
    assert len(manifest) >= 8
    sources = set()
    for page in manifest:
        body = (PAGES / page["file"]).read_bytes()
        result = decode_html(body, page["content_type"], url=page["url"])
        _, req_text = requests_text(body, page["content_type"])
        assert req_text != result.text, page["file"]  # every page is a trap for requests
        assert result.replacement_count == 0, page["file"]
        sources.add(result.source)
    assert {"meta", "transport", "bom", "meta-late", "utf-8-valid"} <= sources


def test_run_prints_every_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert run() == 0
    out = capsys.readouterr().out
    for page in json.loads((PAGES / "manifest.json").read_text("utf-8")):
        assert page["file"] in out
    assert "late-meta" in out and "bom-contradicts-declaration" in out
