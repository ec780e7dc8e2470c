"""Undeclared web pages: how often ``decode_html`` (default ``fallback="detect"``) gives the true text.

    python tools/detect_testset.py                  # builds build/detect-test (held-out: report only)
    python benchmarks/undeclared_pages.py [--set build/detect-test] [--dev] [--failures]

Issue 12 asks that undeclared web pages give the true text >= 99.5% of the time. The pages come from
text this project did not write and never tunes on: the held-out test set of Debian's gettext catalogs
(``tools/detect_testset.py``), and with ``--dev`` also uchardet's prose (``../shared/data/detect-dev``,
a development set). Every file whose encoding a browser has (a WHATWG encoding other than UTF-16: a
BOM-less UTF-16 page has no browser reading to compare with) and that carries no declaration becomes a
page served as ``text/html`` without a charset: the set's ``html`` documents as they are, every other
file wrapped in a minimal HTML document (``<pre>`` around its bytes). The truth is the file decoded
strictly with its label, under Python's codec or the WHATWG decoder (the metric of
``benchmarks/detect_eval.py``). In the same run and on the same bytes, two peers that decode pages
without a declaration: w3lib's ``html_to_unicode`` with the guess Scrapy gives it (the first of ascii,
utf-8, cp1252 that decodes the body) and chardet 7's answer decoded with Python's codec
(``errors="replace"``), each shown with its share of true texts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from detect_eval import ROOT, decodings, family, python_codec

from mojifix.sniff import decode_html
from mojifix.whatwg import lookup

TEST_SET = ROOT / "build" / "detect-test"
DEV_SET = ROOT.parent / "shared" / "data" / "detect-dev" / "uchardet"
#: the target of issue 12 ("undeclared web pages ... >= 99.5% give the true text")
TARGET = 0.995
#: shapes of the test set that carry an in-band declaration (not undeclared pages)
DECLARED_SHAPES = frozenset({"html-declared", "xml-declared"})
PAGE_HEAD = b"<!DOCTYPE html>\n<html>\n<head>\n<title>notes</title>\n</head>\n<body>\n<pre>\n"
PAGE_TAIL = b"\n</pre>\n</body>\n</html>\n"


def _browser_encoding(label: str) -> bool:
    """Whether a browser has this encoding (WHATWG) and can read a BOM-less page in it."""
    enc = lookup(label) or lookup(python_codec(label) or "")
    return enc is not None and not enc.name.startswith("UTF-16") and enc.name != "replacement"


def test_pages(root: Path) -> list[tuple[str, str, bytes]]:
    """(name, label, page bytes) of the test set's undeclared files in browser encodings."""
    manifest = json.loads((root / "manifest.json").read_text())
    pages = []
    for entry in manifest["files"]:
        if entry["shape"] in DECLARED_SHAPES or not _browser_encoding(entry["label"]):
            continue
        data = (root / entry["path"]).read_bytes()
        page = data if entry["shape"] == "html" else PAGE_HEAD + data + PAGE_TAIL
        pages.append((entry["path"], entry["label"], page))
    return pages


def dev_pages(root: Path) -> list[tuple[str, str, bytes]]:
    """(name, label, page bytes) of uchardet's files in browser encodings, each wrapped in a page."""
    pages = []
    for path in sorted(root.glob("*/*")):
        label = path.stem
        if _browser_encoding(label):
            pages.append(
                (f"{path.parent.name}/{path.name}", label, PAGE_HEAD + path.read_bytes() + PAGE_TAIL)
            )
    return pages


def _mojifix(page: bytes) -> str:
    return decode_html(page, "text/html").text


def _strict_guess(data: bytes) -> str | None:
    """Scrapy's guess for an undeclared body: the first of ascii, utf-8, cp1252 that decodes it strictly."""
    for name in ("ascii", "utf-8", "cp1252"):
        try:
            data.decode(name)
        except UnicodeDecodeError:
            continue
        return name
    return None


def _w3lib(page: bytes) -> str:
    from w3lib.encoding import html_to_unicode

    return html_to_unicode("text/html", page, auto_detect_fun=_strict_guess)[1]


def _chardet(page: bytes) -> str:
    import chardet

    name = chardet.detect(page)["encoding"] or "utf-8"
    try:
        return page.decode(name, "replace")
    except LookupError:
        return page.decode("utf-8", "replace")


def _peers() -> dict[str, Callable[[bytes], str]]:
    tools: dict[str, Callable[[bytes], str]] = {"mojifix": _mojifix}
    for name, fn, module in (("w3lib", _w3lib, "w3lib"), ("chardet", _chardet, "chardet")):
        try:
            __import__(module)
        except ImportError:
            print(f"({name} not installed: left out)")
            continue
        tools[name] = fn
    return tools


def evaluate(pages: list[tuple[str, str, bytes]], failures: bool) -> dict[str, float]:
    """Print per-tool and per-family shares of true texts; return the share of each tool."""
    tools = _peers()
    right: dict[str, Counter[str]] = {name: Counter() for name in tools}
    totals: Counter[str] = Counter()
    missed: list[str] = []
    for name, label, page in pages:
        truths = decodings(page, label)
        fam = family(label)
        totals[fam] += 1
        for tool, fn in tools.items():
            if fn(page) in truths:
                right[tool][fam] += 1
            elif tool == "mojifix":
                got = decode_html(page, "text/html")
                missed.append(f"  {name:<34} truth {label:<12} got {got.encoding} ({got.source})")
    n = sum(totals.values())
    print(f"{'family':<16}{'pages':>6}" + "".join(f"{t:>10}" for t in tools))
    for fam in sorted(totals):
        shares = "".join(f"{right[t][fam] / totals[fam]:>10.1%}" for t in tools)
        print(f"{fam:<16}{totals[fam]:>6}{shares}")
    shares = {t: sum(right[t].values()) / n for t in tools}
    print(f"{'ALL':<16}{n:>6}" + "".join(f"{shares[t]:>10.2%}" for t in tools))
    if failures and missed:
        print("mojifix's pages without the true text:")
        print("\n".join(missed))
    return shares


def main(argv: list[str] | None = None) -> int:
    """Entry point: 0 when mojifix meets the target on the test set, 1 when not, 2 on a missing set."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", type=Path, default=TEST_SET, help="the test set (tools/detect_testset.py)")
    parser.add_argument("--dev", action="store_true", help="also report uchardet's development files")
    parser.add_argument("--failures", action="store_true", help="list mojifix's pages without the true text")
    args = parser.parse_args(argv)
    if not (args.set / "manifest.json").is_file():
        print(
            f"undeclared_pages: error: {args.set}/manifest.json missing; run tools/detect_testset.py",
            file=sys.stderr,
        )
        return 2
    print(f"held-out test set {args.set}: undeclared pages, share that gives the true text")
    shares = evaluate(test_pages(args.set), args.failures)
    verdict = "met" if shares["mojifix"] >= TARGET else "NOT met"
    print(f"target >= {TARGET:.1%}: {verdict}")
    if args.dev and DEV_SET.is_dir():
        print(f"\ndevelopment set {DEV_SET} (uchardet's prose), each file wrapped in a page")
        evaluate(dev_pages(DEV_SET), args.failures)
    return 0 if shares["mojifix"] >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
