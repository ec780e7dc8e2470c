"""Benchmark: ``decode_html(..., trust="evidence")`` on mislabeled and correctly declared pages.

Run from the repository root: ``.venv/bin/python benchmarks/mislabeled.py [--verbose]``.

Pages are generated from sentences written for this benchmark (below; no third-party text, and not
the texts of the Chromium differential suite, which is the held-out check in the tests). Each text is
put in a page short (one sentence) and long (the sentence repeated into a ~6 KB article), declared
either by the Content-Type header or by ``<meta charset>``. Two sets:

- mislabeled: the declaration names the wrong encoding, in every kind the issue lists (Latin-1 over
  UTF-8 in several languages; UTF-8 over windows-1251/1252, Shift_JIS and GBK; gb2312 over Big5;
  Shift_JIS over EUC-JP; windows-1252 over windows-1250/1253). "recovered" means the page's true text
  came back, "missed" that the declaration stood.
- correct: every text in its right encodings, declared correctly. Any override here is a false
  override, the worst outcome (it would make mojifix worse than the browser).

Prints per kind: pages, recovered, missed, wrong (overridden to something that is still not the true
text), and for the correct set the false overrides, with the rule that fired. This is the development
set the thresholds of ``mojifix.sniff.evidence`` were set on.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from mojifix import decode_html  # noqa: E402

#: Sentences written for this benchmark: (language, text).
TEXTS: dict[str, str] = {
    "fr": "La boulangère du quartier a fermé sa boutique pour les vacances ; on achète le pain à la gare.",
    "de": "Über den Fluss führt eine schmale Brücke, auf der Fußgänger und Radfahrer einander ausweichen.",
    "es": "El señor Muñoz cultiva limones en la huerta y regala una cesta a cada vecino en diciembre.",
    "pt": "A avó guardou as cartas numa caixa de lata e só as mostrou aos netos quando fizeram dezoito anos.",
    "sv": "På hösten plockar vi svamp i skogen bakom stugan och torkar dem på köksbänken.",
    "cs": "Náš soused opravuje staré hodiny a v sobotu je prodává na tržišti; příští týden pojede k moři.",
    "pl": "Zimą dzieci zjeżdżają na sankach z górki za szkołą, a potem piją gorącą czekoladę.",
    "el": "Ο ψαράς επέστρεψε στο λιμάνι πριν από τη δύση του ήλιου με το καΐκι γεμάτο σαρδέλες.",
    "ru": "Соседка с третьего этажа каждое утро выгуливает двух собак и здоровается со всеми у подъезда.",
    "uk": "Дідусь щоосені збирає груші в саду і робить з них узвар для всієї родини.",
    "ja": "駅の近くに新しいパン屋ができたので、日曜日の朝は家族で焼きたてのパンを買いに行きます。",
    "zh-CN": "我们小区门口新开了一家面馆，老板每天早上五点就开始和面，汤头非常鲜美。",
    "zh-TW": "這條老街上的書店已經開了四十年，店裡的木頭書架散發著淡淡的香味。",
    "da": "Søndag morgen gik vi ned til søen og så ællingerne følge efter deres mor på rad og række.",
    "hu": "A szomszéd néni minden ősszel körtét szed, és a gyümölcsből lekvárt főz az unokáinak.",
    "tr": "Komşumuz her sabah fırından sıcak simit alıp çayla birlikte balkonda kahvaltı ediyor.",
    "en": "Minutes of the Café Society meeting: the budget was approved and the next meeting is in June.",
    "ko": "우리 동네 도서관은 일요일에도 문을 열어서 아이들과 함께 자주 책을 읽으러 갑니다.",
}

#: Correct declarations: language -> the encodings its text was published in on the web.
CORRECT: dict[str, tuple[str, ...]] = {
    "fr": ("windows-1252", "ISO-8859-15", "UTF-8"),
    "de": ("windows-1252", "ISO-8859-1", "UTF-8"),
    "es": ("windows-1252", "UTF-8"),
    "pt": ("windows-1252", "UTF-8"),
    "sv": ("windows-1252", "ISO-8859-1"),
    "cs": ("windows-1250", "ISO-8859-2", "UTF-8"),
    "pl": ("windows-1250", "ISO-8859-2"),
    "el": ("windows-1253", "ISO-8859-7", "UTF-8"),
    "ru": ("windows-1251", "KOI8-R", "IBM866", "UTF-8"),
    "uk": ("windows-1251", "KOI8-U"),
    "ja": ("Shift_JIS", "EUC-JP", "ISO-2022-JP", "UTF-8"),
    "zh-CN": ("GBK", "gb18030", "UTF-8"),
    "zh-TW": ("Big5", "UTF-8"),
    "ko": ("EUC-KR", "UTF-8"),
    "da": ("windows-1252", "ISO-8859-1"),
    "hu": ("windows-1250", "ISO-8859-2"),
    "tr": ("windows-1254", "ISO-8859-9"),
    "en": ("windows-1252", "ISO-8859-1", "UTF-8"),
}

#: Mislabels: (kind, language, true encoding, declared label).
MISLABELS: tuple[tuple[str, str, str, str], ...] = (
    *(("latin-1 over UTF-8", lang, "UTF-8", "iso-8859-1") for lang in ("fr", "de", "es", "pt", "sv")),
    *(("latin-1 over UTF-8", lang, "UTF-8", "iso-8859-1") for lang in ("ru", "el", "ja", "zh-CN")),
    ("UTF-8 over windows-1251", "ru", "windows-1251", "utf-8"),
    ("UTF-8 over windows-1251", "uk", "windows-1251", "utf-8"),
    ("UTF-8 over windows-1252", "fr", "windows-1252", "utf-8"),
    ("UTF-8 over windows-1252", "de", "windows-1252", "utf-8"),
    ("UTF-8 over Shift_JIS", "ja", "Shift_JIS", "utf-8"),
    ("UTF-8 over GBK", "zh-CN", "GBK", "utf-8"),
    ("gb2312 over Big5", "zh-TW", "Big5", "gb2312"),
    ("Shift_JIS over EUC-JP", "ja", "EUC-JP", "shift_jis"),
    ("windows-1252 over windows-1250", "cs", "windows-1250", "windows-1252"),
    ("windows-1252 over windows-1250", "pl", "windows-1250", "windows-1252"),
    ("windows-1252 over windows-1253", "el", "windows-1253", "windows-1252"),
)

#: Python codecs that encode exactly as the WHATWG encoders for these texts.
_PYCODEC = {
    "windows-1252": "cp1252", "ISO-8859-1": "latin-1", "ISO-8859-15": "iso8859_15", "UTF-8": "utf-8",
    "windows-1250": "cp1250", "ISO-8859-2": "iso8859_2", "windows-1253": "cp1253",
    "ISO-8859-7": "iso8859_7", "windows-1254": "cp1254", "ISO-8859-9": "iso8859_9",
    "windows-1251": "cp1251", "KOI8-R": "koi8_r", "KOI8-U": "koi8_u",
    "IBM866": "cp866", "Shift_JIS": "cp932", "EUC-JP": "euc_jp", "ISO-2022-JP": "iso2022_jp",
    "GBK": "gbk", "gb18030": "gb18030", "Big5": "big5", "EUC-KR": "euc_kr",
}  # fmt: skip

#: The long form repeats the sentence into an article of about this many characters.
LONG_CHARS = 6000


def page(text: str, meta: str | None) -> str:
    """A small HTML document around ``text`` (ASCII markup, as real pages have)."""
    head = f'<meta charset="{meta}">' if meta else ""
    return (
        f"<!DOCTYPE html>\n<html><head>{head}<title>Notes</title>\n"
        '<link rel="stylesheet" href="/style.css"></head>\n'
        f'<body><div class="post"><p>{text}</p></div>\n<footer><a href="/">Home</a></footer></body></html>\n'
    )


def variants(text: str) -> list[tuple[str, str]]:
    """(size name, text) for the short and the long page."""
    long_text = " ".join([text] * max(1, LONG_CHARS // len(text)))
    return [("short", text), ("long", long_text)]


def decoded(body: bytes, label: str, how: str) -> object:
    """decode_html with trust="evidence", the label given by header or by meta."""
    content_type = f"text/html; charset={label}" if how == "header" else "text/html"
    return decode_html(body, content_type, trust="evidence")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list every miss and false override")
    args = parser.parse_args(argv)

    stats: dict[str, Counter[str]] = defaultdict(Counter)
    notes: list[str] = []
    for kind, lang, true_enc, label in MISLABELS:
        for size, text in variants(TEXTS[lang]):
            for how in ("header", "meta"):
                html = page(text, label if how == "meta" else None)
                body = html.encode(_PYCODEC[true_enc])
                result = decoded(body, label, how)
                row = stats[kind]
                if text in decode_html(body, f"text/html; charset={label}").text:
                    raise SystemExit(f"not a mislabel: {kind} {lang} reads the same in both encodings")
                row["pages"] += 1
                if result.source == "evidence" and text in result.text:
                    row["recovered"] += 1
                elif result.source == "evidence":
                    row["wrong"] += 1
                    notes.append(f"WRONG   {kind} {lang} {size} {how}: -> {result.encoding}")
                else:
                    row["missed"] += 1
                    notes.append(f"missed  {kind} {lang} {size} {how}: stayed {result.encoding}")
    false_overrides: Counter[str] = Counter()
    correct_pages = 0
    for lang, encodings in CORRECT.items():
        for enc in encodings:
            for size, text in variants(TEXTS[lang]):
                for how in ("header", "meta"):
                    if how == "meta" and enc == "ISO-2022-JP":
                        continue  # a meta cannot be read before the decoder; header only
                    body = page(text, enc if how == "meta" else None).encode(_PYCODEC[enc])
                    result = decoded(body, enc, how)
                    correct_pages += 1
                    if result.source == "evidence":
                        rule = result.warnings[-1].details.get("rule", "?")
                        false_overrides[rule] += 1
                        notes.append(f"FALSE   {lang} {enc} {size} {how}: -> {result.encoding} ({rule})")

    print(f"{'mislabel kind':34} {'pages':>5} {'recovered':>9} {'missed':>6} {'wrong':>5}")
    total = Counter()
    for kind, row in stats.items():
        total.update(row)
        print(f"{kind:34} {row['pages']:5} {row['recovered']:9} {row['missed']:6} {row['wrong']:5}")
    row = total
    print(f"{'all mislabeled':34} {row['pages']:5} {row['recovered']:9} {row['missed']:6} {row['wrong']:5}")
    kinds_recovered = sum(1 for row in stats.values() if row["recovered"])
    print(f"mislabel kinds recovered at least once: {kinds_recovered} of {len(stats)}")
    print(
        f"correctly declared pages: {correct_pages}, false overrides: {sum(false_overrides.values())}"
        + (f" ({dict(false_overrides)})" if false_overrides else "")
    )
    if args.verbose or any(n.startswith(("FALSE", "WRONG")) for n in notes):
        for note in notes:
            print("  " + note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
