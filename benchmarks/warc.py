"""WARC pipeline throughput and correctness: mojifix vs requests-style decoding vs w3lib, in one run.

Builds a gzipped WARC (one member per record, written with warcio) from generated pages: the
project's own sentences in 10 languages, in the encodings and declaration styles real crawls hold
(header charset, ``<meta>`` only, BOM with a contradicting header, undeclared UTF-8, undeclared
legacy bytes, ``iso-8859-1``/``gb2312``/``shift_jis`` labels over their Windows supersets, ...),
plus request records and images that every pipeline must skip. The true text of every page is kept
in memory. Then three pipelines read the same file with the same reader (FastWARC, via
``mojifix.integrations.warc.iter_http_records``) and decode each text response:

  mojifix    mojifix.integrations.warc.decode_records (decode_html and the non-HTML rules)
  requests   a ``requests.Response`` per record, ``encoding = get_encoding_from_headers(...)``, ``.text``
             (ISO-8859-1 for text/* without charset; charset_normalizer when there is no Content-Type)
  mojifix-b  the same with ``fallback="browser"`` (no detector: the browser's legacy default)
  w3lib      ``w3lib.encoding.html_to_unicode(content_type, body)`` (what Scrapy uses)

Prints records/s (best of ``--repeat``), the ratios to mojifix, how many records each pipeline got
exactly right (text == true text) and how many differ from mojifix's text.

    python benchmarks/warc.py [--pages 1500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import compileall
import gzip
import io
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import requests
from requests.utils import get_encoding_from_headers
from w3lib.encoding import html_to_unicode
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from mojifix.integrations._content import body_kind, transport_of
from mojifix.integrations.warc import HttpRecord, WarcSummary, decode_records, iter_http_records

#: (language, TLD, sentences): the project's own text, a few sentences per language.
TEXTS: list[tuple[str, str, list[str]]] = [
    (
        "fr",
        "fr",
        ["Le café est déjà prêt, à côté de l'église.", "Où êtes-vous allés cet été ?", "Prix : 5 € TTC."],
    ),
    (
        "de",
        "de",
        ["Grüße aus Köln, die Straße ist müde.", "Über Nacht fiel Schnee auf die Dächer.", "Kosten: 20 €."],
    ),
    (
        "ru",
        "ru",
        ["Съешь же ещё этих мягких французских булок.", "Привет, мир! Как дела?", "Цена — 100 рублей."],
    ),
    (
        "ja",
        "jp",
        [
            "日本語のテキストです。価格は～１０００円。",
            "東京都の天気は晴れ、気温は二十度。",
            "ありがとうございます。",
        ],
    ),
    ("zh", "cn", ["这是一个简体中文的网页。", "丂龘 价格：一百元。", "欢迎光临我们的网站，谢谢。"]),
    ("zh-tw", "tw", ["這是一個繁體中文的網頁。", "歡迎光臨，謝謝您的支持。", "價格：一百元。"]),
    ("ko", "kr", ["한국어 웹 페이지입니다. 갂똠뷁.", "오늘 날씨가 참 좋네요.", "감사합니다."]),
    ("el", "gr", ["Καλημέρα κόσμε, τι κάνετε;", "Η τιμή είναι 10 €.", "Ευχαριστώ πολύ."]),
    ("pl", "pl", ["Zażółć gęślą jaźń.", "Dzień dobry, jak się masz?", "Cena: 10 zł."]),
    ("tr", "tr", ["Günaydın, nasılsınız?", "İstanbul'da hava güzel.", "Teşekkür ederim."]),
]

#: language -> (WHATWG-legacy Python codec used by real servers, label they send)
LEGACY = {
    "fr": ("cp1252", "iso-8859-1"),
    "de": ("cp1252", "iso-8859-1"),
    "ru": ("cp1251", "windows-1251"),
    "ja": ("cp932", "shift_jis"),
    "zh": ("gbk", "gb2312"),
    "zh-tw": ("big5", "big5"),
    "ko": ("cp949", "euc-kr"),
    "el": ("cp1253", "windows-1253"),
    "pl": ("cp1250", "windows-1250"),
    "tr": ("cp1254", "windows-1254"),
}

#: Declaration styles, each a function of (text, lang) -> (headers, body bytes).
STYLES = (
    "utf8-header",
    "utf8-meta-only",
    "utf8-undeclared",
    "legacy-header",
    "legacy-meta-only",
    "legacy-undeclared",
    "bom-wrong-header",
    "json",
)


def _page(text: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head>{head}<title>p</title></head><body><p>{text}</p></body></html>"


def make_page(
    rng: random.Random, lang: str, sentences: list[str], style: str
) -> tuple[list[tuple[str, str]], bytes, str]:
    """(headers, body, true text) for one page."""
    text = " ".join(rng.choice(sentences) for _ in range(rng.randint(3, 40)))
    codec, label = LEGACY[lang]
    if style == "utf8-header":
        html = _page(text)
        return [("Content-Type", "text/html; charset=utf-8")], html.encode(), html
    if style == "utf8-meta-only":
        html = _page(text, '<meta charset="utf-8">')
        return [("Content-Type", "text/html")], html.encode(), html
    if style == "utf8-undeclared":
        html = _page(text)
        return [("Content-Type", "text/html")], html.encode(), html
    if style == "legacy-header":
        html = _page(text)
        return [("Content-Type", f"text/html; charset={label}")], html.encode(codec), html
    if style == "legacy-meta-only":
        html = _page(text, f'<meta http-equiv="Content-Type" content="text/html; charset={label}">')
        return [("Content-Type", "text/html")], html.encode(codec), html
    if style == "legacy-undeclared":
        html = _page(text)
        return [("Content-Type", "text/html")], html.encode(codec), html
    if style == "bom-wrong-header":
        html = _page(text)
        return [("Content-Type", "text/html; charset=iso-8859-1")], b"\xef\xbb\xbf" + html.encode(), html
    body = f'{{"lang": "{lang}", "text": "{text}"}}'
    return [("Content-Type", "application/json")], body.encode(), body


def build_warc(path: Path, pages: int, seed: int) -> dict[str, str]:
    """Write the archive; returns URI -> true text for every text response."""
    rng = random.Random(seed)
    truth: dict[str, str] = {}
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for i in range(pages):
            lang, tld, sentences = TEXTS[i % len(TEXTS)]
            style = STYLES[(i // len(TEXTS)) % len(STYLES)]
            uri = f"http://site{i}.example.{tld}/{style}"
            headers, body, text = make_page(rng, lang, sentences, style)
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            writer.write_record(
                writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http)
            )
            truth[uri] = text
            if i % 10 == 0:  # a request and an image every 10 pages
                req = StatusAndHeaders(
                    "GET / HTTP/1.1", [("Host", f"site{i}.example.{tld}")], is_http_request=True
                )
                writer.write_record(
                    writer.create_warc_record(uri, "request", payload=io.BytesIO(b""), http_headers=req)
                )
                img = StatusAndHeaders("200 OK", [("Content-Type", "image/png")], protocol="HTTP/1.1")
                png = b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(2000))
                writer.write_record(
                    writer.create_warc_record(
                        uri + ".png", "response", payload=io.BytesIO(png), http_headers=img
                    )
                )
    return truth


#: The plain scripts mojifix warc is measured against as whole commands: FastWARC's own iterator, a decoding
#: step (DECODE_STEPS) and one JSON line per text page (what a pipeline keeps).
PLAIN_SCRIPT = """
import json, sys
from fastwarc.warc import ArchiveIterator, WarcRecordType
IMPORTS

with open(sys.argv[1], "rb") as stream, open(sys.argv[2], "w", encoding="utf-8") as out:
    for rec in ArchiveIterator(stream, record_types=WarcRecordType.response, parse_http=True):
        content_type = rec.http_headers.get("Content-Type") if rec.http_headers else None
        if content_type is not None and not content_type.startswith(("text/", "application/xhtml")):
            continue
        body = rec.reader.read()
        DECODE
        row = {"uri": rec.headers.get("WARC-Target-URI"), "encoding": encoding, "text": text}
        out.write(json.dumps(row, ensure_ascii=False) + "\\n")
"""
#: peer -> (imports, the line that sets ``encoding`` and ``text``): w3lib's ``html_to_unicode`` (what Scrapy
#: decodes with); resiliparse's tools (the HTTP charset, else ``detect_encoding``; ``bytes_to_str``).
DECODE_STEPS = {
    "w3lib": (
        "from w3lib.encoding import html_to_unicode",
        "encoding, text = html_to_unicode(content_type, body)",
    ),
    "resiliparse": (
        "from resiliparse.parse.encoding import bytes_to_str, detect_encoding",
        "encoding = rec.http_charset or detect_encoding(body); text = bytes_to_str(body, encoding)",
    ),
}


def plain_script(peer: str) -> str:
    """The plain script of one peer (see PLAIN_SCRIPT)."""
    imports, decode = DECODE_STEPS[peer]
    return PLAIN_SCRIPT.replace("IMPORTS", imports).replace("DECODE", decode)


#: Share of UTF-8 pages in each whole-command archive. Web-like: 93%, the share of UTF-8 pages in the
#: issue's measurement; legacy-heavy: a quarter, for crawls of older national sites (chosen by hand).
ARCHIVE_MIXES = {"web-like": 0.93, "legacy-heavy": 0.25}
#: UTF-8 declaration styles and their weights (mostly the HTTP header, as servers send it), and the
#: legacy ones; chosen by hand, not tuned on any data set.
UTF8_STYLES = (("utf8-header", 0.7), ("utf8-meta-only", 0.2), ("utf8-undeclared", 0.1))
LEGACY_STYLES = (("legacy-header", 0.5), ("legacy-meta-only", 0.3), ("legacy-undeclared", 0.2))
#: ASCII markup around the text of a whole-command page (navigation, a script, links): real pages are
#: mostly markup; about 2 KB here, with 3-40 sentences of text.
BOILERPLATE = (
    "<nav>"
    + "".join(f'<a href="/section/{k}/index.html" class="nav-link">Section {k}</a>' for k in range(24))
    + "</nav><script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}"
    + "gtag('js',new Date());gtag('config','UA-000000-1');</script>"
    + "".join(f'<div class="teaser"><a href="/article/{k}">Read more</a></div>' for k in range(12))
)


def build_command_warc(path: Path, records: int, utf8_share: float, seed: int) -> int:
    """A Common Crawl-like archive of about ``records`` records (request, response, metadata per page, one
    gzip member each); ``utf8_share`` of the pages are UTF-8. Returns the number of text pages."""
    rng = random.Random(seed)
    pages = records // 3
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for i in range(pages):
            lang, tld, sentences = TEXTS[rng.randrange(len(TEXTS))]
            styles = UTF8_STYLES if rng.random() < utf8_share else LEGACY_STYLES
            style = rng.choices([s for s, _ in styles], [w for _, w in styles])[0]
            uri = f"http://site{i}.example.{tld}/{style}"
            headers, body, _ = make_page(rng, lang, sentences, style)
            codec = "utf-8" if style.startswith("utf8") else LEGACY[lang][0]
            body = body.replace(b"<body>", b"<body>" + BOILERPLATE.encode(codec), 1)
            req = StatusAndHeaders(
                "GET / HTTP/1.1", [("Host", f"site{i}.example.{tld}")], is_http_request=True
            )
            writer.write_record(
                writer.create_warc_record(uri, "request", payload=io.BytesIO(b""), http_headers=req)
            )
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            writer.write_record(
                writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http)
            )
            meta = b"fetchTimeMs: 120\r\ncharset-detected: none\r\n"
            writer.write_record(
                writer.create_warc_record(
                    uri, "metadata", payload=io.BytesIO(meta), warc_content_type="application/warc-fields"
                )
            )
    return pages


def best_command_time(argv: list[str], repeat: int) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds (user + system) of ``repeat`` runs of a whole command (start-up
    and output included). The CPU time is the steadier figure on a shared machine: it leaves out the
    time the command waited for a processor."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if done.returncode > 1:  # 1: mojifix warc's "finished, needs attention" (e.g. U+FFFD in a row)
            raise subprocess.CalledProcessError(done.returncode, argv)
        best_wall = min(best_wall, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best_cpu = min(best_cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best_wall, best_cpu


def interleaved_best_times(argvs: list[list[str]], repeat: int) -> list[tuple[float, float]]:
    """``best_command_time`` of each command, the commands taking turns run by run (a change of load on the
    shared machine then falls on all of them alike)."""
    best = [(float("inf"), float("inf"))] * len(argvs)
    for _ in range(repeat):
        for k, argv in enumerate(argvs):
            wall, cpu = best_command_time(argv, 1)
            best[k] = (min(best[k][0], wall), min(best[k][1], cpu))
    return best


def compile_mojifix_bytecode() -> None:
    """Write the bytecode of mojifix's modules, as ``pip install`` does for the peers' packages.

    A checkout installed in editable mode has none, and with PYTHONDONTWRITEBYTECODE=1 (set on some CI
    machines) every ``mojifix`` process would compile its ~50 modules from source again: about 40 ms of
    start-up per command (measured), a cost no installed copy pays. The peers' packages carry theirs.
    """
    import mojifix

    compileall.compile_dir(Path(mojifix.__file__).parent, quiet=1)


def run_commands(tmp: Path, records: int, repeat: int, seed: int, against: str | None = None) -> None:
    """``mojifix warc IN -o OUT.jsonl`` against the plain scripts, whole commands, on both archive mixes.

    Ratios are the peer's seconds over mojifix's (above 1: mojifix is faster), for wall-clock and for CPU
    time. ``against``: another ``mojifix`` executable (say, main's), timed on the same archives in the same
    run, on a line of its own below each archive's, with its ratios to the same peer timings.
    """
    compile_mojifix_bytecode()
    scripts = list(DECODE_STEPS)
    for name in scripts:
        (tmp / f"plain_{name}.py").write_text(plain_script(name), encoding="utf-8")
    mojifix_cli = str(Path(sys.executable).with_name("mojifix"))
    print(f"\nwhole commands ({repeat} runs each, best; records/s of the archive's records, wall-clock):")
    header = f"{'archive':<13} {'records':>8} {'mojifix warc':>13}"
    for name in scripts:
        header += f" {'FastWARC+' + name:>21} {'ratio':>6} {'cpu ratio':>9}"
    print(header)
    for archive, utf8_share in ARCHIVE_MIXES.items():
        path = tmp / f"{archive}.warc.gz"
        build_command_warc(path, records, utf8_share, seed)
        count = sum(1 for _ in iter_http_records(path))
        clis = [mojifix_cli, *([against] if against else [])]
        argvs = [[cli, "warc", "-q", str(path), "-o", str(tmp / "m.jsonl")] for cli in clis]
        argvs += [
            [sys.executable, str(tmp / f"plain_{name}.py"), str(path), str(tmp / "p.jsonl")]
            for name in scripts
        ]
        timed = interleaved_best_times(argvs, repeat)
        times, plain = timed[: len(clis)], timed[len(clis) :]
        for label, (ours, ours_cpu) in zip([archive, "  against"], times, strict=False):
            line = f"{label:<13} {count:>8} {count / ours:>11,.0f}/s"
            for peer, peer_cpu in plain:
                line += f" {count / peer:>19,.0f}/s {peer / ours:>5.2f}x {peer_cpu / ours_cpu:>8.2f}x"
            print(line)


def _text_responses(records: Iterable[HttpRecord]) -> Iterable[HttpRecord]:
    for record in records:
        if record.record_type != "response" or record.status is None:
            continue
        if body_kind(transport_of(record.header_values("Content-Type") or None).mime_type) == "binary":
            continue
        yield record


def run_mojifix(path: Path) -> dict[str, str]:
    summary = WarcSummary()
    return {row.uri or "": row.text for row in decode_records(iter_http_records(path), summary)}


def run_mojifix_browser(path: Path) -> dict[str, str]:
    """mojifix with ``fallback="browser"``: no detector, the browser's legacy default for undeclared pages."""
    summary = WarcSummary()
    return {
        row.uri or "": row.text
        for row in decode_records(iter_http_records(path), summary, fallback="browser")
    }


def run_requests(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for record in _text_responses(iter_http_records(path)):
        resp = requests.Response()
        resp._content = record.payload
        resp.status_code = record.status or 0
        resp.headers = requests.structures.CaseInsensitiveDict(record.headers)
        resp.encoding = get_encoding_from_headers(resp.headers)
        out[record.uri or ""] = resp.text
    return out


def run_w3lib(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for record in _text_responses(iter_http_records(path)):
        content_type = ", ".join(record.header_values("Content-Type")) or None
        out[record.uri or ""] = html_to_unicode(content_type, record.payload)[1]
    return out


def best_time(fn: Callable[[Path], dict[str, str]], path: Path, repeat: int) -> tuple[float, dict[str, str]]:
    best = float("inf")
    result: dict[str, str] = {}
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(path)
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=1500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument(
        "--records", type=int, default=31000, help="records per whole-command archive (0: skip that part)"
    )
    parser.add_argument("--only-commands", action="store_true", help="only the whole-command comparison")
    parser.add_argument(
        "--against",
        metavar="MOJIFIX",
        help="another mojifix executable (say, main's) timed in the whole-command comparison: A/B in one run",
    )
    args = parser.parse_args()
    if args.records:
        with tempfile.TemporaryDirectory() as tmp:
            run_commands(Path(tmp), args.records, args.repeat, args.seed, args.against)
    if args.only_commands:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.warc.gz"
        truth = build_warc(path, args.pages, args.seed)
        size_mb = path.stat().st_size / 1e6
        raw_mb = len(gzip.decompress(path.read_bytes())) / 1e6
        records = sum(1 for _ in iter_http_records(path))
        print(
            f"WARC: {records} records ({len(truth)} text responses), "
            f"{size_mb:.1f} MB gzipped, {raw_mb:.1f} MB raw"
        )
        results = {}
        pipelines = (
            ("mojifix", run_mojifix),
            ("mojifix-b", run_mojifix_browser),
            ("requests", run_requests),
            ("w3lib", run_w3lib),
        )
        for name, fn in pipelines:
            results[name] = best_time(fn, path, args.repeat)
    mojifix_time, mojifix_text = results["mojifix"]
    print(
        f"{'pipeline':<10} {'records/s':>10} {'MB/s raw':>9} {'speed/mojifix':>13} {'exact':>12} "
        f"{'differ from mojifix':>20}"
    )
    for name, (seconds, texts) in results.items():
        exact = sum(texts.get(uri) == text for uri, text in truth.items())
        differ = sum(texts.get(uri) != mojifix_text.get(uri) for uri in truth)
        print(
            f"{name:<10} {records / seconds:>10,.0f} {raw_mb / seconds:>9.1f} "
            f"{mojifix_time / seconds:>12.2f}x "
            f"{exact:>5}/{len(truth):<6} {differ:>20}"
        )
    wrong_by_style: dict[str, dict[str, int]] = {}
    for name, (_, texts) in results.items():
        for uri, text in truth.items():
            if texts.get(uri) != text:
                style = uri.rsplit("/", 1)[1]
                wrong_by_style.setdefault(name, {}).setdefault(style, 0)
                wrong_by_style[name][style] += 1
    for name, styles in wrong_by_style.items():
        print(
            f"wrong records by declaration style, {name}: "
            + ", ".join(f"{k} {v}" for k, v in sorted(styles.items()))
        )


if __name__ == "__main__":
    main()
