"""Drive Debian's headless Chromium with Playwright's Python package and read what it decoded.

Never ``playwright install``: the browser is ``/usr/bin/chromium`` from Debian, installed by
``tools/ensure_chromium.sh``. Every run gets a fresh ``--user-data-dir``, a fixed UI language
(``--lang=en-US`` and ``LANG=en_US.UTF-8``, for reproducibility: the fallback for undeclared pages
may follow the locale; measured, headless Chromium 156 kept windows-1252 under ``--lang=ja/ru/de``)
and ``--host-resolver-rules`` mapping every host name to
127.0.0.1, so ``http://example.jp:PORT/`` reaches the local :mod:`server` while Chromium still sees
the ``.jp`` TLD.

What is read back, per page (see :data:`EXTRACT_JS`):

- ``document.characterSet`` (the WHATWG name of the encoding the document was decoded with);
- the *DOM text*: every Text and Comment node of the document in tree order, Text as its data,
  Comment as ``<!--data-->``, concatenated. The same extraction runs on mojifix's output through
  html5lib (:func:`dom_text_of`), so both sides are compared after the same HTML tree construction.

JavaScript is disabled in the browsing context so a page's scripts cannot change the DOM
(``document.write``) between parse and read-back; ``page.evaluate`` still works.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The browser binary: Debian's package by default; ``MOJIFIX_CHROMIUM`` points elsewhere (another
#: distribution's path, or a missing path to exercise the skip/fail logic of the live test).
CHROMIUM = Path(os.environ.get("MOJIFIX_CHROMIUM", "/usr/bin/chromium"))

#: Flags for a quiet, reproducible headless run (no network services, no GPU, no first-run UI).
BASE_FLAGS: tuple[str, ...] = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--lang=en-US",
    "--host-resolver-rules=MAP * 127.0.0.1",
)

#: Locale environment for the browser process (the fallback encoding follows the UI locale).
BROWSER_ENV_LOCALE = {"LANG": "en_US.UTF-8", "LANGUAGE": "en_US", "LC_ALL": "en_US.UTF-8"}

#: Read back the decision and the DOM text (Text data; Comments as <!--data-->), in tree order.
EXTRACT_JS = """() => {
  const out = [];
  const w = document.createTreeWalker(document, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_COMMENT);
  let n;
  while ((n = w.nextNode())) {
    out.push(n.nodeType === 8 ? '<!--' + n.data + '-->' : n.data);
  }
  return {characterSet: document.characterSet, contentType: document.contentType, text: out.join('')};
}"""

#: Seconds Playwright waits for one page load before giving up.
PAGE_TIMEOUT_S = 20


@dataclass(frozen=True, slots=True)
class Observation:
    """What Chromium showed for one URL."""

    character_set: str
    content_type: str
    dom_text: str


def chromium_available() -> bool:
    """True when Debian's chromium binary is installed."""
    return CHROMIUM.exists() and os.access(CHROMIUM, os.X_OK)


def chromium_version() -> str:
    """``Chromium 1xx.0.x.y ...`` as the binary prints it (first line, stripped)."""
    import subprocess

    out = subprocess.run(
        [str(CHROMIUM), "--version"], capture_output=True, text=True, timeout=60, check=False
    ).stdout
    return out.strip().splitlines()[0] if out.strip() else "unknown"


class Browser:
    """One headless Chromium process; :meth:`observe` loads a URL in a fresh tab and reads it back."""

    def __init__(self, pw: Any, user_data_dir: str, extra_flags: Sequence[str] = ()) -> None:
        env = dict(os.environ)
        env.update(BROWSER_ENV_LOCALE)
        self._context = pw.chromium.launch_persistent_context(
            user_data_dir,
            executable_path=str(CHROMIUM),
            headless=True,
            args=[*BASE_FLAGS, *extra_flags],
            env=env,
            java_script_enabled=False,
            locale="en-US",
        )

    def observe(self, url: str) -> Observation:
        page = self._context.new_page()
        try:
            page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT_S * 1000)
            got = page.evaluate(EXTRACT_JS)
        finally:
            page.close()
        return Observation(got["characterSet"], got["contentType"], got["text"])

    def close(self) -> None:
        self._context.close()


@contextmanager
def launch(extra_flags: Sequence[str] = ()) -> Iterator[Browser]:
    """Start Chromium with a throw-away profile; stop it and delete the profile afterwards."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="mojifix-chromium-")
    try:
        with sync_playwright() as pw:
            browser = Browser(pw, profile, extra_flags)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


# ---------------------------------------------------------------------------------------------------
# The same DOM text extraction on the Python side (html5lib tree construction on already-decoded text)


def dom_text_of(text: str) -> str:
    """Parse ``text`` (already decoded) with html5lib and return the DOM text as :data:`EXTRACT_JS` does.

    html5lib implements the HTML Standard's tree construction, as Blink does, so equal decoded
    characters give equal DOM text; passing ``str`` skips html5lib's own (different) sniffing.
    """
    from xml.dom import Node

    import html5lib

    doc = html5lib.parse(text, treebuilder="dom")
    out: list[str] = []

    def walk(node: Any) -> None:
        for child in node.childNodes:
            if child.nodeType == Node.TEXT_NODE:
                out.append(child.data)
            elif child.nodeType == Node.COMMENT_NODE:
                out.append("<!--" + child.data + "-->")
            elif child.nodeType == Node.ELEMENT_NODE:
                walk(child)

    walk(doc)
    return "".join(out)


# ---------------------------------------------------------------------------------------------------
# Running many cases


def run_cases(cases: Sequence[Any], extra_flags: Sequence[str] = ()) -> dict[str, Observation]:
    """Serve ``cases`` (see :mod:`cases`) on a fresh local server and load each in a fresh tab.

    Raises ``RuntimeError`` when a page was not fetched from the expected host (the host-resolver
    mapping did not apply), since the TLD-dependent results would then be meaningless.
    """
    from .server import CaseServer, Response

    results: dict[str, Observation] = {}
    with CaseServer() as srv:
        srv.add_many((c.path, Response(c.header_lines, c.body)) for c in cases)
        with launch(extra_flags) as browser:
            for c in cases:
                try:
                    results[c.id] = browser.observe(c.url(srv.port))
                except Exception:
                    # one retry: a page load can time out on a heavily loaded machine
                    try:
                        results[c.id] = browser.observe(c.url(srv.port))
                    except Exception as exc:
                        raise RuntimeError(f"case {c.id}: {exc}") from exc
                seen = srv.host_seen(c.path)
                if seen != f"{c.host}:{srv.port}":
                    raise RuntimeError(f"case {c.id}: expected Host {c.host}:{srv.port}, server saw {seen!r}")
    return results
