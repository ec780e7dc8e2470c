"""``make demo`` part for decode_html: the classic traps, requests' ``.text`` against mojifix.

For each sample page in ``samples/pages/`` (see its ``manifest.json``) this prints what
``requests`` would give as ``response.text`` (its real rule: ``get_encoding_from_headers``, then
Python's codec with ``errors="replace"``), what :func:`mojifix.decode_html` gives, and why.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from mojifix.sniff.api import decode_html

#: Characters of visible text shown per page.
_EXCERPT_CHARS = 64
_TAG = re.compile(r"<[^>]*>|<!--.*?-->", re.S)


def _pages_dir() -> Path | None:
    candidates = [Path(__file__).resolve().parents[3] / "samples" / "pages", Path.cwd() / "samples" / "pages"]
    for candidate in candidates:
        if (candidate / "manifest.json").is_file():
            return candidate
    return None


def _visible(text: str) -> str:
    """The text a reader sees, roughly: the body's text without tags, whitespace collapsed."""
    body = text.split("<body>", 1)[-1]
    return " ".join(_TAG.sub(" ", body).split())[:_EXCERPT_CHARS]


def requests_text(body: bytes, content_type: str) -> tuple[str, str]:
    """(encoding, text) exactly as ``requests.Response.text`` computes them."""
    import requests
    from requests.structures import CaseInsensitiveDict

    response = requests.models.Response()
    response._content = body
    response.headers = CaseInsensitiveDict({"Content-Type": content_type})
    response.encoding = requests.utils.get_encoding_from_headers(response.headers)
    text = response.text
    return str(response.encoding or response.apparent_encoding), text


def _page_report(page: dict[str, Any], body: bytes) -> list[str]:
    result = decode_html(body, page["content_type"], url=page["url"])
    req_encoding, req_text = requests_text(body, page["content_type"])
    same = req_text == result.text
    why = f"{result.source}"
    if result.label_origin:
        why += (
            f" ({result.label!r} from {result.label_origin})" if result.label else f" ({result.label_origin})"
        )
    if result.browser_encoding != result.encoding:
        why += f"; a browser would use {result.browser_encoding} ({result.browser_source})"
    lines = [
        f"== {page['file']}: {page['trap']}",
        f"   Content-Type: {page['content_type']}   URL: {page['url']}",
        f"   requests  {req_encoding:<14} {_visible(req_text)!r}",
        f"   mojifix   {result.encoding:<14} {_visible(result.text)!r}",
        f"   why: {why}",
    ]
    lines.extend(f"   warning: {w.code}: {w.message}" for w in result.warnings)
    lines.append("   (same text)" if same else "   -> requests' text differs")
    return lines


def run() -> int:
    """Print the comparison for every sample page; 0 on success, 2 if the samples are missing."""
    pages_dir = _pages_dir()
    if pages_dir is None:
        print(
            "mojifix demo: samples/pages/manifest.json not found; run from the repository root",
            file=sys.stderr,
        )
        return 2
    manifest = json.loads((pages_dir / "manifest.json").read_text("utf-8"))
    differ = 0
    print("decode_html: what requests' .text gives vs. what mojifix gives, on classic traps\n")
    for page in manifest:
        body = (pages_dir / page["file"]).read_bytes()
        lines = _page_report(page, body)
        differ += lines[-1].endswith("differs")
        print("\n".join(lines) + "\n")
    print(
        f"requests' .text differed from mojifix's text on {differ} of {len(manifest)} pages "
        "(mojifix gives the browser's text, or on undeclared pages the true one)."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(run())
