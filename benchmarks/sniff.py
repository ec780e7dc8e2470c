"""Benchmark: ``decode_html`` against w3lib, bs4 and html5lib on the same generated pages, in one run.

Run from the repository root: ``.venv/bin/python benchmarks/sniff.py [--pages N] [--repeat R]``.
Prints pages/s and MB/s per tool, ratios against mojifix, and how often each tool's text equals
mojifix's (mojifix is checked browser-exact by the test suite, so "agrees" means "browser's text").

Each tool gets what it can use: the Content-Type value (w3lib, html5lib's transport encoding,
bs4's known_definite_encodings from the charset parameter) and the body bytes. Every tool must
produce text: html5lib's sniffer only names an encoding, so its time includes one Python decode
with that codec (errors="replace"), which is what a caller has to do with it. Each tool runs as it
ships: bs4's UnicodeDammit uses the first detector it finds (cchardet here) and html5lib's
``useChardet=True`` default runs chardet when nothing declares; "html5lib-nc" is html5lib's sniffer
with ``useChardet=False`` (undeclared pages fall back to windows-1252), as earlier versions of this
benchmark ran it.

Pages: a few hundred from our own sentences in eight languages, 2 KB to ~200 KB, in these shapes:
charset in the header; ``<meta charset>`` early; ``<meta http-equiv>`` after a long ``<head>``
(scripts and styles, past byte 1024); no declaration (UTF-8 and legacy); a BOM. A separate set
(its own table, so that the main set's figures stay comparable between versions) has the most
common legacy form: ``<meta http-equiv="Content-Type" content="...; charset=...">`` at the top.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import time
from collections.abc import Callable

#: Seed for the page generator: the same pages on every run.
SEED = 20261130

TEXTS = {
    "en": ("windows-1252", "The committee met on Tuesday to discuss the budget and the new library."),
    "de": ("windows-1252", "Größere Änderungen am Straßenplan wurden für übermorgen angekündigt, sagte sie."),
    "fr": ("windows-1252", "Les élèves ont présenté leurs travaux à la fête de l'école, sous le soleil."),
    "ru": ("windows-1251", "Вчера вечером в парке играл оркестр, и жители собрались послушать музыку."),
    "ja": ("Shift_JIS", "昨日は駅前の図書館で新しい本を借りて、公園のベンチでゆっくり読みました。"),
    "zh": ("GBK", "今天上午，市图书馆举办了儿童读书活动，许多家长带着孩子参加。"),
    "ko": ("EUC-KR", "오늘 아침 시장에서 신선한 과일과 채소를 사서 집으로 돌아왔습니다."),
    "el": ("ISO-8859-7", "Το πρωί περπατήσαμε στην παραλία και μετά πήγαμε για καφέ στην πλατεία."),
}  # fmt: skip
TLD = {"en": "com", "de": "de", "fr": "fr", "ru": "ru", "ja": "jp", "zh": "cn", "ko": "kr", "el": "gr"}

SCRIPT = "<script>var config = {items: [1, 2, 3], name: 'page', enabled: true};</script>\n"
STYLE = "<style>body { margin: 0; font-family: sans-serif } .nav li { display: inline }</style>\n"


def _page(rng: random.Random, lang: str, size: int, shape: str) -> tuple[bytes, str, str]:
    legacy, sentence = TEXTS[lang]
    encoding = "utf-8" if shape in ("header-utf8", "undeclared-utf8", "bom") else legacy
    head = "<title>Page</title>\n"
    if shape == "meta-early":
        head = f'<meta charset="{encoding}">\n' + head
    elif shape == "pragma-early":
        head = f'<meta http-equiv="Content-Type" content="text/html; charset={encoding}">\n' + head
    elif shape == "meta-late":
        head = (
            SCRIPT * 8
            + STYLE * 6
            + f'<meta http-equiv="Content-Type" content="text/html; charset={encoding}">\n'
        )
    paragraphs = []
    total = 0
    while total < size:
        words = sentence.split(" ")
        rng.shuffle(words)
        para = f'<p class="c{rng.randrange(9)}">{" ".join(words)} {sentence}</p>\n'
        paragraphs.append(para)
        total += len(para.encode("utf-8"))
    html = f"<!DOCTYPE html>\n<html>\n<head>\n{head}</head>\n<body>\n{''.join(paragraphs)}</body>\n</html>\n"
    body = html.encode(_python_codec(encoding), errors="xmlcharrefreplace")
    if shape == "bom":
        body = b"\xef\xbb\xbf" + body
    content_type = f"text/html; charset={encoding}" if shape.startswith("header") else "text/html"
    return body, content_type, f"http://www.example.{TLD[lang]}/article/{rng.randrange(10**6)}"


def _python_codec(name: str) -> str:
    return {"Shift_JIS": "cp932", "GBK": "gbk", "EUC-KR": "cp949"}.get(name, name)


SHAPES = (
    "header-legacy",
    "header-utf8",
    "meta-early",
    "meta-late",
    "undeclared-utf8",
    "undeclared-legacy",
    "bom",
)


def make_pages(count: int) -> list[tuple[bytes, str, str, str]]:
    """(body, Content-Type, URL, shape) for ``count`` pages."""
    rng = random.Random(SEED)
    pages = []
    for i in range(count):
        size = int(2000 * (100 ** rng.random()))  # log-uniform, 2 KB to 200 KB
        lang = list(TEXTS)[i % len(TEXTS)]
        shape = SHAPES[i % len(SHAPES)]
        pages.append((*_page(rng, lang, size, shape), shape))
    return pages


def make_pragma_pages(count: int) -> list[tuple[bytes, str, str, str]]:
    """``count`` legacy pages declared the way most legacy pages are: ``<meta http-equiv>`` at the top.

    Kept apart from ``make_pages`` (its own seed) so that the main set stays the same from run to run.
    """
    rng = random.Random(SEED + 1)
    pages = []
    for i in range(count):
        size = int(2000 * (100 ** rng.random()))
        lang = list(TEXTS)[i % len(TEXTS)]
        pages.append((*_page(rng, lang, size, "pragma-early"), "pragma-early"))
    return pages


def _charset(content_type: str) -> str | None:
    _, sep, charset = content_type.partition("charset=")
    return charset or None if sep else None


def tools() -> dict[str, Callable[[bytes, str, str], str]]:
    import html5lib._inputstream as h5
    from bs4 import UnicodeDammit
    from w3lib.encoding import html_to_unicode

    from mojifix import decode_html

    # bs4 logs a warning each time it falls back to U+FFFD replacement (traps table, every repeat);
    # the "same text as mojifix" column already shows those pages
    logging.getLogger("bs4").setLevel(logging.ERROR)

    def mojifix_(body: bytes, content_type: str, url: str) -> str:
        # decode_html as a scraper calls it: header value, body, URL.
        return decode_html(body, content_type, url=url).text

    def w3lib_(body: bytes, content_type: str, url: str) -> str:
        return html_to_unicode(content_type, body)[1]

    def bs4_(body: bytes, content_type: str, url: str) -> str:
        charset = _charset(content_type)
        dammit = UnicodeDammit(body, known_definite_encodings=[charset] if charset else [], is_html=True)
        return dammit.unicode_markup or ""

    def html5lib_stream(body: bytes, content_type: str, chardet: bool) -> str:
        stream = h5.HTMLBinaryInputStream(body, transport_encoding=_charset(content_type), useChardet=chardet)
        codec = stream.charEncoding[0]
        start = 3 if codec.name == "utf-8" and body.startswith(b"\xef\xbb\xbf") else 0
        return body[start:].decode(codec.name, "replace")

    def html5lib_(body: bytes, content_type: str, url: str) -> str:
        # as html5lib ships: useChardet=True runs chardet (installed here) when nothing declares
        return html5lib_stream(body, content_type, True)

    def html5lib_no_chardet(body: bytes, content_type: str, url: str) -> str:
        # the sniffer alone: undeclared pages fall back to windows-1252
        return html5lib_stream(body, content_type, False)

    return {
        "mojifix": mojifix_,
        "w3lib": w3lib_,
        "bs4": bs4_,
        "html5lib": html5lib_,
        "html5lib-nc": html5lib_no_chardet,
    }


def _measure(
    fns: dict[str, Callable[[bytes, str, str], str]], pages: list[tuple[bytes, str, str, str]], repeat: int
) -> tuple[dict[str, float], dict[str, list[str]]]:
    """Seconds per tool (sum over pages of the best of ``repeat`` runs) and each tool's texts.

    Tools are interleaved page by page and each page keeps its fastest run, so that load from
    other processes on a shared machine hits every tool alike and mostly drops out.
    """
    seconds = dict.fromkeys(fns, 0.0)
    texts: dict[str, list[str]] = {name: [] for name in fns}
    clock = time.perf_counter
    for body, content_type, url, _ in pages:
        for name, fn in fns.items():
            best = float("inf")
            for _ in range(repeat):
                start = clock()
                text = fn(body, content_type, url)
                best = min(best, clock() - start)
            seconds[name] += best
            texts[name].append(text)
    return seconds, texts


def _table(title: str, pages: list[tuple[bytes, str, str, str]], repeat: int) -> None:
    megabytes = sum(len(p[0]) for p in pages) / 1e6
    sizes = sorted(len(p[0]) for p in pages)
    print(f"\n{title}: {len(pages)} pages, {megabytes:.1f} MB (sizes {sizes[0]}..{sizes[-1]} bytes, "
          f"median {statistics.median(sizes):.0f})")  # fmt: skip
    results, texts = _measure(tools(), pages, repeat)
    agree = {
        name: sum(a == b for a, b in zip(got, texts["mojifix"], strict=True)) for name, got in texts.items()
    }
    base = results["mojifix"]
    print(f"{'tool':<12}{'pages/s':>10}{'MB/s':>9}{'time / mojifix':>16}{'same text as mojifix':>24}")
    for name, seconds in results.items():
        print(
            f"{name:<12}{len(pages) / seconds:>10.0f}{megabytes / seconds:>9.1f}"
            f"{seconds / base:>15.2f}x{agree[name]:>17}/{len(pages)}"
        )
    print(
        f"mojifix time / w3lib time = {base / results['w3lib']:.2f} (goal <= 1.5); mojifix faster than "
        f"bs4: {base < results['bs4']}, than html5lib: {base < results['html5lib']}"
    )


def _declared_utf8_floor(pages: list[tuple[bytes, str, str, str]], repeat: int) -> None:
    """decode_html on declared UTF-8 pages against the floor it cannot go under: the UTF-8 decode itself
    (and the 1024-byte "<meta" search every such page needs for the header-meta conflict warning).

    Both interleaved page by page, best of ``repeat`` each, as ``_measure`` does."""
    from mojifix import decode_html
    from mojifix.sniff.late_meta import META_OPEN
    from mojifix.sniff.prescan import PRESCAN_LIMIT

    def floor(body: bytes, content_type: str, url: str) -> str:
        META_OPEN.search(body, 0, PRESCAN_LIMIT)
        return str(body, "utf-8")

    def mojifix_(body: bytes, content_type: str, url: str) -> str:
        return decode_html(body, content_type, url=url).text

    utf8 = [p for p in pages if p[3] == "header-utf8"]
    results, texts = _measure({"decode_html": mojifix_, "floor": floor}, utf8, repeat)
    assert texts["decode_html"] == texts["floor"]
    per_page = {name: seconds / len(utf8) * 1e6 for name, seconds in results.items()}
    print(
        f"\nDeclared UTF-8 pages (charset in the header), {len(utf8)} pages: decode_html "
        f"{per_page['decode_html']:.1f} us/page, UTF-8 decode + meta search alone {per_page['floor']:.1f} "
        f"us/page ({per_page['decode_html'] - per_page['floor']:.1f} us of decode_html's own per page)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--pages", type=int, default=350)
    parser.add_argument(
        "--repeat", type=int, default=5, help="timed runs per page and tool (the best is kept)"
    )
    args = parser.parse_args()
    pages = make_pages(args.pages)
    tools()["mojifix"](b"<p>warm-up</p>\xe9", "text/html", "http://example.com/")  # loads the detector
    sniffing = [p for p in pages if p[3] != "undeclared-legacy"]
    legacy = [p for p in pages if p[3] == "undeclared-legacy"]
    _table("Declared pages and undeclared UTF-8 pages (the sniffing path)", sniffing, args.repeat)
    _table("Undeclared legacy pages (mojifix runs its statistical detector)", legacy, args.repeat)
    _table("All pages", pages, args.repeat)
    _table(
        "Legacy pages with <meta http-equiv> at the top (the usual legacy declaration; a separate set)",
        make_pragma_pages(args.pages // 7),
        args.repeat,
    )
    _declared_utf8_floor(pages, args.repeat)
    traps = _trap_pages()
    if traps:
        _table(
            "The demo's classic traps (samples/pages; mojifix's text is the browser's, or better)",
            traps,
            args.repeat,  # tiny pages: one run each would be mostly timer and scheduler noise
        )


def _trap_pages() -> list[tuple[bytes, str, str, str]]:
    """The sample pages of ``make demo`` (same text as mojifix = correct there)."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "samples" / "pages"
    if not (root / "manifest.json").is_file():
        return []
    manifest = json.loads((root / "manifest.json").read_text("utf-8"))
    return [((root / p["file"]).read_bytes(), p["content_type"], p["url"], "trap") for p in manifest]


if __name__ == "__main__":
    main()
