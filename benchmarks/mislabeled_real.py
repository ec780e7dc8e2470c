"""``trust="evidence"`` on text written by others: uchardet's prose and installed packages' HTML files.

Run from the repository root: ``.venv/bin/python benchmarks/mislabeled_real.py [--html-limit N] [--verbose]
[--lines]``
(the second set needs ``python tools/detect_testset.py --split dev`` first, which writes build/detect-devcat).

benchmarks/mislabeled.py is the first development set of the rules (sentences written for it). This one
uses no text of ours, in two development sets of documents and one set of real files:

1. ``../shared/data/detect-dev/uchardet`` (real prose by others, read at run time, never copied) and
2. ``build/detect-devcat`` (the development half of Debian's installed gettext catalogs, split by package
   by ``tools/detect_testset.py``; its test half, build/detect-test, is never read here): every document
   in a WHATWG encoding that decodes cleanly (HTML as it is, other shapes put in a small page) is served
   (a) with its right label, where any override is a false override, and (b) with wrong labels of the
   kinds that happen on the web (UTF-8 labelled windows-1252; a legacy page labelled UTF-8; a single-byte
   page labelled windows-1252; a CJK page labelled with its neighbour), where the true text must come
   back. A wrong label whose decoding already gives the true text is not a mislabel and is left out.
   "wrong" counts the overrides that give a text which is still not the true one (never acceptable).
   With ``--lines``, every line of these documents is also served as its own page, right and wrong
   labels alike: the short pages where proof is hardest.
3. HTML files of installed packages (``/usr/share/doc``, then the virtualenv's site-packages and the
   system's ``/usr/share``): decoded with ``trust="browser"`` and ``trust="evidence"``; every page where the
   two differ is listed, so each override on real files can be checked by eye (an override there is either a
   real mislabel or a false override).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from mojifix import decode_html, lookup  # noqa: E402

DEV = ROOT.parent / "shared" / "data" / "detect-dev" / "uchardet"
DEVCAT = ROOT / "build" / "detect-devcat"
#: uchardet's file names that are WHATWG labels under another spelling
_ALIASES = {"ibm852": None, "uhc": "euc-kr", "mac-centraleurope": None, "viscii": None}
#: the CJK neighbour a CJK page is mislabelled with
_NEIGHBOUR = {"Big5": "gbk", "GBK": "big5", "gb18030": "big5", "Shift_JIS": "euc-jp", "EUC-JP": "shift_jis"}
_CJK = frozenset({"Big5", "GBK", "gb18030", "Shift_JIS", "EUC-JP", "EUC-KR", "ISO-2022-JP"})


def _page(body: bytes) -> bytes:
    return b"<!DOCTYPE html><html><head><title>t</title></head><body><p>" + body + b"</p></body></html>"


def _document(enc_name: str, raw: bytes, html: bool = False) -> tuple[str, bytes, str] | None:
    """(WHATWG encoding name, page bytes, true text) of a document; None when it does not decode cleanly."""
    enc = lookup(enc_name)
    if enc is None or enc.name in ("UTF-16LE", "UTF-16BE", "replacement"):
        return None
    if "\ufffd" in enc.decode(raw, errors="replace", bom="ignore"):
        return None
    page = raw if html else _page(raw)
    return enc.name, page, enc.decode(page, errors="replace", bom="ignore")


def _dev_files() -> Iterator[tuple[str, str, bytes, str]]:
    """(language, WHATWG encoding name, page bytes, true text) for each usable uchardet file."""
    for path in sorted(DEV.glob("*/*")):
        label = path.name.rsplit(".", 1)[0]
        label = _ALIASES.get(label, label)
        doc = _document(label, path.read_bytes()) if label else None
        if doc is not None:
            yield (path.parent.name, *doc)


#: CPython codec names of build/detect-devcat -> the WHATWG label of the encoding that decodes them alike
#: (a document is used only when the two decodings are equal; the DOS, Mac and EBCDIC pages are not web ones)
_DEVCAT_LABEL = {"latin_1": "iso-8859-1", "cp932": "shift_jis", "cp949": "euc-kr", "gb2312": "gbk",
                 "cp950": "big5", "big5hkscs": "big5", "tis_620": "windows-874", "iso8859_11": "windows-874",
                 "mac_roman": "macintosh", "mac_cyrillic": "x-mac-cyrillic", "cp866": "ibm866"}  # fmt: skip


def _devcat_files() -> Iterator[tuple[str, str, bytes, str]]:
    """(language, WHATWG encoding name, page bytes, true text) for each usable build/detect-devcat file."""
    manifest = json.loads((DEVCAT / "manifest.json").read_text())
    for entry in manifest["files"]:
        codec = entry["label"]
        raw = (DEVCAT / entry["path"]).read_bytes()
        label = _DEVCAT_LABEL.get(codec, codec.replace("_", "-"))
        enc = lookup(label)
        if enc is None or enc.decode(raw, errors="replace", bom="ignore") != raw.decode(codec, "replace"):
            continue
        doc = _document(label, raw, entry["shape"].startswith("html"))
        if doc is not None:
            yield (entry["language"], *doc)


#: one-line pages: at most this many lines of each document, each at least this many characters
_LINES_PER_DOCUMENT, _MIN_LINE_CHARS = 40, 5


def _line_pages(files: list[tuple[str, str, bytes, str]]) -> Iterator[tuple[str, str, bytes, str]]:
    """One short page per non-ASCII line of each document (the hard case: little text, small margins)."""
    for lang, enc_name, _, true_text in files:
        enc = lookup(enc_name)
        assert enc is not None
        for line in true_text.splitlines()[:_LINES_PER_DOCUMENT]:
            if line.isascii() or len(line) < _MIN_LINE_CHARS:
                continue
            page = _page(enc.encode(line))
            yield lang, enc.name, page, enc.decode(page, errors="replace", bom="ignore")


def _wrong_labels(enc: str) -> list[str]:
    if enc == "UTF-8":
        return ["windows-1252"]
    labels = ["utf-8"]
    if enc not in _CJK and enc != "windows-1252":
        labels.append("windows-1252")
    if enc in _NEIGHBOUR:
        labels.append(_NEIGHBOUR[enc])
    return labels


def mislabel_set(title: str, files: list[tuple[str, str, bytes, str]], verbose: bool) -> None:
    """Serve every document with its right label and with wrong ones; print recovered/missed/wrong/false."""
    false_overrides: list[str] = []
    kinds: Counter[str] = Counter()
    recovered: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    notes = []
    for lang, enc, page, true_text in files:
        right = decode_html(page, f"text/html; charset={enc}", trust="evidence")
        if right.source == "evidence":
            false_overrides.append(f"{lang}/{enc} -> {right.encoding}")
        for label in _wrong_labels(enc):
            browser = decode_html(page, f"text/html; charset={label}")
            if browser.text == true_text:
                continue  # the wrong label reads the same bytes the same way: not a mislabel
            kind = f"{label} over {enc}"
            kinds[kind] += 1
            result = decode_html(page, f"text/html; charset={label}", trust="evidence")
            if result.text == true_text:
                recovered[kind] += 1
            elif result.source == "evidence":
                wrong[kind] += 1
                notes.append(f"WRONG   {lang}/{enc} labelled {label}: overridden to {result.encoding}")
            else:
                notes.append(f"missed  {lang}/{enc} labelled {label}: {result.encoding} ({result.source})")
    print(title)
    print(f"  right labels: {len(files)} pages, false overrides: {len(false_overrides)}")
    for item in false_overrides:
        print(f"    FALSE {item}")
    total, got, bad = sum(kinds.values()), sum(recovered.values()), sum(wrong.values())
    print(
        f"  wrong labels: {total} pages, true text recovered: {got} ({100.0 * got / max(total, 1):.1f}%), "
        f"missed: {total - got - bad}, wrong: {bad}"
    )
    for kind in sorted(kinds):
        print(
            f"    {kind:32} {recovered[kind]:3} of {kinds[kind]}"
            + (f", {wrong[kind]} WRONG" if wrong[kind] else "")
        )
    if verbose:
        for note in notes:
            print("    " + note)


def _html_files(limit: int) -> list[Path]:
    roots = [Path("/usr/share/doc"), Path(sys.prefix) / "lib", Path("/usr/share")]
    seen: set[Path] = set()
    out: list[Path] = []
    for root in roots:
        for path in sorted(root.rglob("*.htm*")) if root.is_dir() else []:
            real = path.resolve()
            if real in seen or not path.is_file() or path.stat().st_size > 2_000_000:
                continue
            seen.add(real)
            out.append(path)
            if len(out) >= limit:
                return out
    return out


def installed_html(limit: int) -> None:
    files = _html_files(limit)
    sources: Counter[str] = Counter()
    overridden = []
    for path in files:
        body = path.read_bytes()
        browser = decode_html(body, "text/html")
        sources[browser.source] += 1
        result = decode_html(body, "text/html", trust="evidence")
        if result != browser:
            rule = result.warnings[-1].details.get("rule") if result.warnings else None
            overridden.append(f"{path}: {browser.encoding} -> {result.encoding} ({rule})")
    declared = sum(n for s, n in sources.items() if s in ("meta", "meta-late", "xml-declaration", "bom"))
    print(f"installed HTML files: {len(files)} ({declared} declare their encoding in the document)")
    print(f"  overridden by trust='evidence': {len(overridden)}")
    for item in overridden:
        print(f"    {item}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html-limit", type=int, default=5000, help="installed HTML files to read at most")
    parser.add_argument("--verbose", action="store_true", help="list every missed mislabel")
    parser.add_argument("--lines", action="store_true", help="also serve every line as its own page (slow)")
    args = parser.parse_args(argv)
    if not DEV.is_dir():
        print(f"no development set at {DEV}: it lives in ../shared beside the repository", file=sys.stderr)
        return 2
    documents = list(_dev_files())
    mislabel_set("uchardet prose (files in WHATWG encodings that decode cleanly)", documents, args.verbose)
    if (DEVCAT / "manifest.json").is_file():
        catalogs = list(_devcat_files())
        mislabel_set("gettext catalogs, development half (build/detect-devcat)", catalogs, args.verbose)
        documents = documents + catalogs
    else:
        print(
            f"no {DEVCAT.relative_to(ROOT)}: run python tools/detect_testset.py --split dev to add that set"
        )
    if args.lines:
        title = "one-line pages cut from the documents of both sets (first 40 lines each)"
        mislabel_set(title, list(_line_pages(documents)), args.verbose)
    installed_html(args.html_limit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
