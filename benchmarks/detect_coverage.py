"""Encodings a peer detector names and mojifix's registry lacks: does mojifix's answer give the same text?

    python benchmarks/detect_coverage.py [--docs N] [--failures]

For each encoding of chardet 7.7's registry that ``mojifix.detect.encodings.canonical_name`` did not
resolve before issue 12's coverage pass (and for the names it resolves to a *different* encoding:
ISO-8859-1 -> windows-1252, ISO-8859-9 -> windows-1254, Big5-HKSCS -> Big5, GB18030 -> GBK, cp932 ->
Shift_JIS, cp949 -> EUC-KR), documents of real text are encoded in it and detected. Two figures per
encoding:

* ``same bytes``: share of documents whose bytes decode to the same text under the nearest registry
  encoding (the table question: do the two code pages agree on the characters real text uses?);
* ``right``: share where mojifix's answer gives the true text (the fair metric of
  ``detect_eval.is_right``: Python's codec or the WHATWG decoder of the answer).

Text: the DEVELOPMENT half of Debian's installed gettext catalogs (``tools/detect_testset.py``'s
split, never its test half), as prose documents, and Urdu prose written here (:data:`URDU`: that half
has no Urdu), shaped into presentation forms for IBM's cp1006 (:func:`shape`). Never chardet's or
charset-normalizer's test data. Deterministic (fixed seed, sorted catalogs).
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import unicodedata
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from detect_eval import ROOT, decodings, is_right

sys.path.insert(0, str(ROOT / "tools"))

from detect_testset import _encodable

SEED = 20261201
#: encoding (CPython codec name) -> (nearest registry encoding before this pass, locales of its text)
CHECKED: dict[str, tuple[str, tuple[str, ...]]] = {
    "latin_1": ("windows-1252", ("fr", "de", "es", "pt")),
    "iso8859_9": ("windows-1254", ("tr",)),
    "big5hkscs": ("Big5", ("zh_HK", "zh_TW")),
    "gb18030": ("GBK", ("zh_CN",)),
    "cp932": ("Shift_JIS", ("ja",)),
    "cp949": ("EUC-KR", ("ko",)),
    "shift_jis_2004": ("Shift_JIS", ("ja",)),
    "euc_jis_2004": ("EUC-JP", ("ja",)),
    "iso2022_jp_2": ("ISO-2022-JP", ("ja",)),
    "iso2022_jp_2004": ("ISO-2022-JP", ("ja",)),
    "iso2022_jp_ext": ("ISO-2022-JP", ("ja",)),
    "cp856": ("cp862", ("he",)),
    "cp1006": ("windows-1256", ("ur",)),
    # (in the registry already: IBM's Arabic page of shaped text, measured for the presentation-form fold)
    "cp864": ("cp864", ("ar",)),
    "hp_roman8": ("windows-1252", ("fr", "de", "es", "pt")),
    # mojifix.extra_codecs's EUC-TW (CNS 11643; session 15)
    "euc_tw": ("Big5", ("zh_TW", "zh_HK")),
    "utf_7": ("UTF-8", ("de", "ru", "ja", "he")),
    # with a byte order mark (CPython's "utf-8-sig", "utf-16", "utf-32" write one)
    "utf_8_sig": ("UTF-8", ("de", "ja")),
    "utf_16": ("UTF-16LE", ("de", "ja")),
    "utf_32": ("utf-32-le", ("de", "ja")),
}
#: code pages of shaped Arabic-script text (presentation forms), whose documents :func:`shape` makes
SHAPED = frozenset({"cp1006", "cp864"})
#: shortest and longest documents (characters), drawn log-uniformly as the dev-set builder draws them
MIN_DOC, MAX_DOC = 120, 6000


#: Urdu prose written for this benchmark (the catalogs' development half has no Urdu messages)
URDU = """\
لاہور پاکستان کا ایک بڑا اور پرانا شہر ہے جہاں ہر سال لاکھوں لوگ سیر کے لیے آتے ہیں۔
شہر کے بیچ میں بادشاہی مسجد ہے جو مغل دور میں بنائی گئی تھی۔
صبح کے وقت بازاروں میں بہت رونق ہوتی ہے اور دکاندار اپنی دکانیں کھولتے ہیں۔
میرے دادا کہتے تھے کہ علم حاصل کرنا ہر انسان کا فرض ہے۔
بچے اسکول جاتے ہیں اور استاد انہیں اردو، انگریزی اور حساب پڑھاتے ہیں۔
گرمیوں میں یہاں بہت گرمی پڑتی ہے، اس لیے لوگ شام کو باہر نکلتے ہیں۔
کل رات بارش ہوئی تو گلیوں میں پانی جمع ہو گیا اور گاڑیاں آہستہ چلنے لگیں۔
ہمارے گھر کے سامنے ایک چھوٹا سا باغ ہے جس میں آم اور امرود کے درخت ہیں۔
اخبار میں لکھا تھا کہ اگلے ہفتے کتابوں کا میلہ لگے گا۔
وہ ہر اتوار کو اپنی ماں سے ملنے گاؤں جاتا ہے اور شام تک واپس آ جاتا ہے۔
اس کتاب میں شاعروں کی زندگی اور ان کے کلام کے بارے میں بہت سی باتیں درج ہیں۔
دفتر میں آج ایک اہم اجلاس ہوا جس میں نئے منصوبے پر بات کی گئی۔
"""
#: text written here, for the locales the catalogs' development half lacks
WRITTEN = {"ur": URDU}


def documents(codec: str, locales: tuple[str, ...], n: int, rng: random.Random) -> list[tuple[str, str]]:
    """(locale, text) documents of dev-half catalog messages (or :data:`WRITTEN` text) encodable in
    ``codec``."""
    from detect_testset import _take, excluded, messages

    exclude = excluded("dev")
    out = []
    for loc in locales:
        if loc in WRITTEN:
            pairs = [("", line) for line in WRITTEN[loc].splitlines()]
        else:
            pairs, _ = messages(loc, exclude, "dev")
        if len(pairs) < 20 and loc not in WRITTEN:
            continue
        for _ in range(n):
            size = int(MIN_DOC * (MAX_DOC / MIN_DOC) ** rng.random())
            if codec in SHAPED:  # text in logical order is not encodable: shape it first
                pairs = [(en, shaped) for en, tr in pairs if (shaped := shape(tr, codec)) is not None]
            msgs = _take(pairs, rng, codec, size)
            if msgs:
                out.append((loc, "\n".join(tr for _, tr in msgs) + "\n"))
    return out


#: Unicode's presentation forms by (letter, shape): "isolated", "final", "initial", "medial"
def _presentation_forms() -> dict[tuple[str, str], str]:
    """(letter, shape) -> presentation form, from the Unicode decompositions of the two blocks."""
    out = {}
    for cp in (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFF00)):
        dec = unicodedata.decomposition(chr(cp)).split()
        if len(dec) == 2 and dec[0][1:-1] in ("isolated", "final", "initial", "medial"):
            out.setdefault((chr(int(dec[1], 16)), dec[0][1:-1]), chr(cp))
    return out


#: a shape a code page lacks, and the one it writes instead (cp1006 has no medial or final form of most
#: letters: IBM's shaping writes the initial and the isolated form)
_SHAPE_FALLBACK = {"medial": "initial", "final": "isolated", "initial": "isolated"}


def shape(text: str, codec: str) -> str | None:
    """``text`` (Arabic-script letters in logical order) as the presentation forms a code page of shaped
    text stores, each letter in the shape its neighbours give it (joining to the next when the next is a
    letter and it has an initial form); None when a letter has no form ``codec`` can encode."""
    forms = _FORMS()
    text = text.translate(_SHAPED_SUBSTITUTES)
    out = []
    for i, ch in enumerate(text):
        if not ("\u0600" <= ch <= "\u06ff") or not unicodedata.category(ch).startswith("L"):
            out.append(ch)
            continue
        prev = text[i - 1] if i else ""
        nxt = text[i + 1] if i + 1 < len(text) else ""
        joins_prev = bool(prev) and (prev, "initial") in forms and (ch, "final") in forms
        joins_next = bool(nxt) and (ch, "initial") in forms and (nxt, "final") in forms
        want = {(True, True): "medial", (True, False): "final", (False, True): "initial"}.get(
            (joins_prev, joins_next), "isolated"
        )
        while True:
            form = forms.get((ch, want))
            if form is not None and _encodable(form, codec):
                out.append(form)
                break
            if want not in _SHAPE_FALLBACK:
                return None
            want = _SHAPE_FALLBACK[want]
    return "".join(out)


_FORMS = functools.cache(_presentation_forms)
#: what IBM's Urdu page writes for the characters it lacks: Arabic kaf and yeh for Urdu's keheh and
#: Farsi yeh, a period for the Urdu full stop
_SHAPED_SUBSTITUTES = str.maketrans({"\u06a9": "\u0643", "\u06cc": "\u064a", "\u06d4": "."})


def _same_text(data: bytes, nearest: str, text: str) -> bool:
    """Whether ``data`` decodes to ``text`` under the registry encoding ``nearest`` (either convention)."""
    return text in decodings(data, nearest)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    import mojifix

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=12, help="documents per (encoding, locale)")
    ap.add_argument("--failures", action="store_true", help="list the wrong answers")
    args = ap.parse_args(argv)
    rng = random.Random(SEED)
    print(f"{'encoding':16} {'nearest':13} {'docs':>5} {'same bytes':>10} {'right':>7}  answers")
    failures = []
    for codec, (nearest, locales) in CHECKED.items():
        docs = documents(codec, locales, args.docs, rng)
        same = right = 0
        answers: Counter[str] = Counter()
        for loc, text in docs:
            data = text.encode(codec)
            if codec == "utf_7":
                data = data.removeprefix(b"+/v8-")  # (CPython writes no signature; guard anyway)
            same += _same_text(data, nearest, text)
            best = mojifix.detect(data).best()
            answer = best.encoding if best else None
            answers[str(answer)] += 1
            ok = is_right(data, answer, {text})
            right += ok
            if not ok:
                failures.append(f"  {codec} {loc} {len(text)} chars -> {answer}")
        n = len(docs)
        top = ", ".join(f"{a} {c}" for a, c in answers.most_common(3))
        print(f"{codec:16} {nearest:13} {n:5} {same:5}/{n:<4} {right:3}/{n:<3}  {top}")
    if args.failures:
        print("\nwrong answers:")
        print("\n".join(failures) or "  none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
