"""Write the demo's sample pages (classic encoding traps) and their manifest.

Run from the repository root: ``python samples/pages/make_pages.py``. The texts are our own; the
bytes are produced with encoding_rs (through ``endec``), the encoder browsers use, so each page is
exactly what a legacy server would send. ``manifest.json`` gives each page's Content-Type and URL
and what the trap is; ``mojifix.sniff.demo`` reads it.
"""

from __future__ import annotations

import json
from pathlib import Path

import endec

HERE = Path(__file__).resolve().parent


def enc(text: str, encoding: str) -> bytes:
    data = endec.encode(text, encoding)
    return data if isinstance(data, bytes) else bytes(data)


def html(body: str, head: str = "", title: str = "Sample") -> str:
    return (
        f"<!DOCTYPE html>\n<html>\n<head>\n{head}<title>{title}</title>\n</head>\n"
        f"<body>\n<p>{body}</p>\n</body>\n</html>\n"
    )


LICENSE = "<!--\n" + ("  This page is part of a long-running community archive. " * 40) + "\n-->\n"

PAGES = [
    {
        "file": "no-charset-meta-utf8.html",
        "content_type": "text/html",
        "url": "http://cafe.example.com/menu",
        "trap": "no charset in the header, <meta charset=utf-8> in the page",
        "body": enc(
            html("Crème brûlée, Käsespätzle und Smørrebrød – heute im Angebot.", '<meta charset="utf-8">\n'),
            "utf-8",
        ),
    },
    {
        "file": "shift-jis-wave-dash.html",
        "content_type": "text/html; charset=Shift_JIS",
        "url": "http://shop.example.jp/",
        "trap": (
            "Shift_JIS: 0x8160 is U+FF5E for browsers but U+301C WAVE DASH for Python's shift_jis "
            "codec, which also rejects NEC row-13 (①②) and IBM (髙) characters"
        ),
        "body": enc(html("営業時間 10時～18時。①店頭受取 ②宅配便。髙島屋の隣です。"), "Shift_JIS"),
    },
    {
        "file": "gb2312-gbk-chars.html",
        "content_type": "text/html; charset=gb2312",
        "url": "http://news.example.cn/",
        "trap": "labelled gb2312 but uses GBK-only characters (镕, 喆, 堃), as most 'gb2312' pages do",
        "body": enc(html("朱镕基、张喆和王堃出席了今天的座谈会。"), "GBK"),
    },
    {
        "file": "euc-kr-extended-hangul.html",
        "content_type": "text/html; charset=euc-kr",
        "url": "http://blog.example.kr/",
        "trap": "labelled euc-kr but uses UHC (windows-949) syllables outside KS X 1001 (똠, 햏, 뷁)",
        "body": enc(html("똠방각하의 햏자 이야기, 그리고 뷁! 오늘의 일기입니다."), "EUC-KR"),
    },
    {
        "file": "latin1-label-euro.html",
        "content_type": "text/html; charset=ISO-8859-1",
        "url": "http://boutique.example.fr/",
        "trap": "labelled ISO-8859-1 but written in windows-1252: € (0x80) and curly quotes (0x93 0x94)",
        "body": enc(html("Prix : 25 € – « Offre spéciale » et “livraison gratuite”."), "windows-1252"),
    },
    {
        "file": "utf8-bom-wrong-header.html",
        "content_type": "text/html; charset=windows-1252",
        "url": "http://docs.example.de/",
        "trap": "a UTF-8 BOM while the header says windows-1252 (the BOM wins in every browser)",
        "body": b"\xef\xbb\xbf" + enc(html("Größenänderung: Übersicht über alle Maßnahmen."), "utf-8"),
    },
    {
        "file": "late-meta-long-comment.html",
        "content_type": "text/html",
        "url": "http://forum.example.com/thread/42",
        "trap": "the <meta> comes after a 2 KB license comment, past the 1024-byte prescan window",
        "body": enc(
            "<!DOCTYPE html>\n<html>\n<head>\n"
            + LICENSE
            + '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">\n'
            + "<title>Форум</title>\n</head>\n<body>\n<p>Привет всем! Съешь же ещё этих мягких "
            "французских булок.</p>\n</body>\n</html>\n",
            "windows-1251",
        ),
    },
    {
        "file": "undeclared-windows-1251.html",
        "content_type": "text/html",
        "url": "http://pogoda.example.ru/",
        "trap": "no declaration at all; Russian text in windows-1251",
        "body": enc(
            html("Сегодня в Москве облачно, вечером небольшой дождь. Завтра потеплеет."), "windows-1251"
        ),
    },
    {
        "file": "undeclared-utf8-on-jp.html",
        "content_type": "text/html",
        "url": "http://blog.example.jp/",
        "trap": "an undeclared UTF-8 page on a .jp host: browsers fall back to Shift_JIS",
        "body": enc(html("今日はいい天気ですね。散歩に行きましょう。"), "utf-8"),
    },
]


def main() -> None:
    manifest = []
    for page in PAGES:
        (HERE / page["file"]).write_bytes(page["body"])
        manifest.append({k: page[k] for k in ("file", "content_type", "url", "trap")})
    (HERE / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
