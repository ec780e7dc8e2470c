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
split, never its test half), as prose documents; a few shapes of English notes for UTF-7. Never
chardet's or charset-normalizer's test data. Deterministic (fixed seed, sorted catalogs).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from detect_eval import ROOT, decodings, is_right

sys.path.insert(0, str(ROOT / "tools"))

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
    "hp_roman8": ("windows-1252", ("fr", "de", "es", "pt")),
    "utf_7": ("UTF-8", ("de", "ru", "ja", "he")),
}
#: shortest and longest documents (characters), drawn log-uniformly as the dev-set builder draws them
MIN_DOC, MAX_DOC = 120, 6000


def documents(codec: str, locales: tuple[str, ...], n: int, rng: random.Random) -> list[tuple[str, str]]:
    """(locale, text) documents of dev-half catalog messages encodable in ``codec``."""
    from detect_testset import _take, excluded, messages

    exclude = excluded("dev")
    out = []
    for loc in locales:
        pairs, _ = messages(loc, exclude, "dev")
        if len(pairs) < 20:
            continue
        for _ in range(n):
            size = int(MIN_DOC * (MAX_DOC / MIN_DOC) ** rng.random())
            msgs = _take(pairs, rng, codec, size)
            if msgs:
                out.append((loc, "\n".join(tr for _, tr in msgs) + "\n"))
    return out


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
