"""Encoding-detection accuracy and speed: mojifix vs chardet 7, charset-normalizer, cchardet, chardetng.

    python benchmarks/detect_accuracy.py [--quick] [--only mojifix,chardet] [--json OUT]

The evaluation corpus is built here, deterministically (seed :data:`SEED`), from text the detector was
*not* trained on: Sphinx's translation catalogs and Django's contrib catalogs other than the ones
``tools/train_detect.py`` trains on (admin, auth, conf). Messages that also occur in the training text
are dropped (``tools/train_detect.py check`` proves the two sets are disjoint). Each sample is a run of
real translated sentences in one language, encoded in one encoding customary for that language, cut to
a target length (20 bytes .. 100 KB), as plain text or as an HTML page without any charset
declaration. Only samples with at least one non-ASCII character are kept (pure ASCII is right for
everyone and would only inflate the figures).

Metric: the detector's answer decodes the bytes to exactly the true text (``mojifix.textcodec.decode_as``
for mojifix, Python's codec of the returned name for peers). mojifix's "ambiguous" verdicts are
counted separately (its first candidate is still scored). Speed: total detection time per detector
over the same corpus, files/s and MB/s, after one warm-up call each (the first call, which loads a
model, is reported on its own).
"""

from __future__ import annotations

import argparse
import codecs
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

SEED = 20261130

#: language -> encodings customary for it (CPython codec used to produce the bytes, detector-name)
LANG_ENCODINGS: dict[str, tuple[str, ...]] = {
    "fr": ("cp1252", "iso8859_15", "cp850", "mac_roman", "cp863", "cp500"),
    "de": ("cp1252", "iso8859_15", "cp437", "cp850", "mac_roman", "cp037"),
    "es": ("cp1252", "cp850", "cp437"),
    "it": ("cp1252", "cp850"),
    "pt": ("cp1252", "cp860", "cp850"),
    "nl": ("cp1252",),
    "da": ("cp1252", "cp865"),
    "sv": ("cp1252", "cp437", "iso8859_10"),
    "nb": ("cp1252", "cp865"),
    "fi": ("cp1252", "iso8859_15"),
    "is": ("cp1252", "cp861", "mac_iceland", "iso8859_10"),
    "ca": ("cp1252",),
    "eu": ("cp1252",),
    "gl": ("cp1252",),
    "cy": ("iso8859_14",),
    "cs": ("cp1250", "iso8859_2", "cp852", "mac_latin2"),
    "pl": ("cp1250", "iso8859_2", "cp852", "mac_latin2"),
    "sk": ("cp1250", "iso8859_2", "cp852"),
    "sl": ("cp1250", "iso8859_2"),
    "hu": ("cp1250", "iso8859_2", "cp852"),
    "sh": ("cp1250", "iso8859_2"),
    "ro": ("cp1250", "iso8859_16"),
    "ru": ("cp1251", "koi8_r", "iso8859_5", "cp866", "cp855", "mac_cyrillic"),
    "uk": ("cp1251", "koi8_u"),
    "bg": ("cp1251", "iso8859_5", "mac_cyrillic"),
    "mk": ("cp1251",),
    "sr": ("cp1251", "iso8859_5"),
    "be": ("cp1251",),
    "kk": ("kz1048", "ptcp154"),
    "tg": ("koi8_t",),
    "el": ("cp1253", "iso8859_7", "cp737", "cp869", "mac_greek", "cp875"),
    "tr": ("cp1254", "cp857", "mac_turkish", "cp1026"),
    "he": ("cp1255", "iso8859_8", "cp862"),
    "ar": ("cp1256", "iso8859_6", "cp864"),
    "fa": ("cp1256",),
    "ur": ("cp1256",),
    "lt": ("cp1257", "iso8859_13", "iso8859_4", "cp775"),
    "lv": ("cp1257", "iso8859_13", "iso8859_4", "cp775"),
    "et": ("cp1257", "iso8859_13"),
    "eo": ("iso8859_3",),
    "vi": ("cp1258",),
    "th": ("cp874", "tis_620"),
    "zh": ("gbk", "gb18030", "hz"),
    "zh_Hant": ("big5",),
    "ja": ("shift_jis", "euc_jp", "iso2022_jp"),
    "ko": ("euc_kr", "johab", "iso2022_kr"),
}
#: encodings every language is also written in (Unicode)
UNICODE_ENCODINGS = ("utf_8", "utf_16_le", "utf_16_be", "utf_32_le")
UNICODE_LANGS = ("ru", "ja", "zh", "de", "el", "ar", "hi", "ko", "th", "fr")

#: encodings whose samples get an HTML variant (the ones a browser can be asked to detect)
WEB_CODECS = frozenset((
    "cp1252", "iso8859_15", "cp1250", "iso8859_2", "iso8859_16", "cp1251", "koi8_r", "koi8_u", "iso8859_5",
    "cp866", "mac_cyrillic", "cp1253", "iso8859_7", "cp1254", "cp1255", "iso8859_8", "cp1256", "iso8859_6",
    "cp1257", "iso8859_13", "iso8859_4", "iso8859_3", "iso8859_10", "iso8859_14", "cp1258", "cp874", "gbk",
    "gb18030", "big5", "shift_jis", "euc_jp", "iso2022_jp", "euc_kr", "utf_8", "mac_roman",
))  # fmt: skip

FAMILY: dict[str, str] = {}
for _fam, _codecs in {
    "unicode": "utf_8 utf_16_le utf_16_be utf_32_le",
    "western": "cp1252 iso8859_15 iso8859_10 iso8859_14 iso8859_3",
    "central-eu": "cp1250 iso8859_2 iso8859_16",
    "cyrillic": "cp1251 koi8_r koi8_u iso8859_5 kz1048 ptcp154 koi8_t",
    "greek": "cp1253 iso8859_7",
    "turkish": "cp1254",
    "hebrew": "cp1255 iso8859_8",
    "arabic": "cp1256 iso8859_6",
    "baltic": "cp1257 iso8859_13 iso8859_4",
    "vietnamese": "cp1258",
    "thai": "cp874 tis_620",
    "chinese": "gbk gb18030 hz big5",
    "japanese": "shift_jis euc_jp iso2022_jp",
    "korean": "euc_kr johab iso2022_kr",
    "dos": "cp437 cp850 cp852 cp855 cp857 cp860 cp861 cp862 cp863 cp864 cp865 cp866 cp869 cp737 cp775",
    "mac": "mac_roman mac_cyrillic mac_latin2 mac_greek mac_turkish mac_iceland",
    "ebcdic": "cp037 cp500 cp875 cp1026",
}.items():
    for _c in _codecs.split():
        FAMILY[_c] = _fam

LENGTHS_FULL = (20, 35, 60, 100, 150, 250, 500, 1000, 3000, 10_000, 30_000, 100_000)
LENGTHS_QUICK = (20, 60, 150, 400, 2000, 20_000)

SPHINX_MAP = {
    "zh_CN": "zh", "zh_TW": "zh_Hant", "zh_HK": "zh_Hant", "yue": "zh_Hant", "sr@latin": "sh", "sr_RS": "sr",
    "uk_UA": "uk", "nb_NO": "nb", "no": "nb", "hr": "sh", "pt_BR": "pt", "pt_PT": "pt", "es_CO": "es",
    "de_DE": "de", "fr_FR": "fr", "ca@valencia": "ca", "hi_IN": "hi",
}  # fmt: skip
DJANGO_EVAL_APPS = (
    "contenttypes", "flatpages", "gis", "humanize", "postgres", "redirects", "sessions", "sites", "admindocs",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Sample:
    text: str
    data: bytes
    codec: str  # CPython codec that produced the bytes
    lang: str
    kind: str  # "plain" | "html"

    @property
    def family(self) -> str:
        return FAMILY[self.codec]


def _po_files() -> Iterator[tuple[str, Path]]:
    import django
    import sphinx
    import train_detect as T

    for po in sorted((Path(sphinx.__file__).parent / "locale").glob("*/LC_MESSAGES/sphinx.po")):
        code = po.parts[-3]
        if code.startswith("en") or code in ("cak", "zh_TW.Big5"):
            continue
        yield SPHINX_MAP.get(code, code.split("_")[0]), po
    root = Path(django.__file__).parent / "contrib"
    for app in DJANGO_EVAL_APPS:
        for po in sorted((root / app / "locale").glob("*/LC_MESSAGES/*.po")):
            code = po.parts[-3]
            lang = T.DJANGO_MAP.get(code, code.split("_")[0])
            if lang is None or code.startswith("en"):
                continue
            yield lang, po


def evaluation_pools() -> dict[str, list[str]]:
    """Language -> evaluation messages, with every message that occurs in the training text removed."""
    import train_detect as T

    training = T.training_messages()
    pools: dict[str, list[str]] = defaultdict(list)
    seen: set[str] = set()
    for lang, po in _po_files():
        for msg in T.read_po(po):
            norm = T.normalise(msg)
            if not norm or norm in training or msg in seen:
                continue
            seen.add(msg)
            pools[lang].append(msg)
    return dict(pools)


def _encodable(msg: str, codec: str) -> bytes | None:
    if codec == "cp1258":
        msg = _vietnamese_1258(msg)
    try:
        return msg.encode(codec)
    except UnicodeEncodeError:
        return None


def _vietnamese_1258(text: str) -> str:
    """Vietnamese as windows-1258 writes it (the training script's rule, so both sides agree)."""
    import train_detect as T

    return T.vietnamese_1258(text)


def _html(body_msgs: list[str]) -> str:
    title = body_msgs[0][:60]
    paras = "\n".join(f"<p>{m}</p>" for m in body_msgs)
    head = f"<!DOCTYPE html>\n<html>\n<head>\n<title>{title}</title>\n</head>\n"
    return f"{head}<body>\n{paras}\n</body>\n</html>\n"


def build_corpus(quick: bool = False, seed: int = SEED) -> list[Sample]:
    """The evaluation samples (deterministic for a given seed and installed catalog versions)."""
    rng = random.Random(seed)
    pools = evaluation_pools()
    lengths = LENGTHS_QUICK if quick else LENGTHS_FULL
    pairs = [(lang, c) for lang, cs in LANG_ENCODINGS.items() for c in cs]
    pairs += [(lang, c) for lang in UNICODE_LANGS for c in UNICODE_ENCODINGS]
    samples: list[Sample] = []
    for lang, codec in pairs:
        pool = pools.get(lang)
        if not pool:
            continue
        usable = [m for m in pool if _encodable(m, codec) is not None]
        if len(usable) < 5:
            continue
        for length in lengths:
            kinds = ["plain"]
            if codec in WEB_CODECS and length >= 250:
                kinds.append("html")
            for kind in kinds:
                sample = _make(rng, usable, codec, lang, length, kind)
                if sample is not None:
                    samples.append(sample)
    return samples


def _make(
    rng: random.Random, usable: list[str], codec: str, lang: str, length: int, kind: str
) -> Sample | None:
    start = rng.randrange(len(usable))
    msgs: list[str] = []
    size = 0
    i = start
    while size < length and len(msgs) < 100_000:
        msg = usable[i % len(usable)]
        if codec == "cp1258":
            msg = _vietnamese_1258(msg)
        msgs.append(msg)
        size += len(msg.encode(codec)) + 1
        i += 1
    text = _html(msgs) if kind == "html" else "\n".join(msgs)
    text = _cut(text, codec, length) if kind == "plain" else text
    if text.isascii():
        return None
    data = text.encode(codec)
    if codec in ("hz", "iso2022_jp", "iso2022_kr") and data.decode(codec) != text:
        return None
    return Sample(text, data, codec, lang, kind)


def _cut(text: str, codec: str, length: int) -> str:
    """The longest prefix of ``text`` whose encoding is at most ``length`` bytes (at least one char)."""
    if len(text.encode(codec)) <= length:
        return text
    lo, hi = 1, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if len(text[:mid].encode(codec)) <= length:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


# ---- detectors --------------------------------------------------------------------------------------
def _py_decode(data: bytes, name: str | None) -> str | None:
    if not name:
        return None
    try:
        codecs.lookup(name)
    except LookupError:
        return None
    try:
        return data.decode(name)
    except (UnicodeDecodeError, UnicodeError):
        return None


Detect = Callable[[Sample], tuple[str | None, bool]]


def detectors(only: set[str] | None) -> dict[str, tuple[Detect, Callable[[bytes, str | None], str | None]]]:
    """name -> (detect(sample) -> (encoding name, ambiguous), decode(data, name) -> text or None).

    Only the detect call is timed; decoding with the answer is how correctness is judged.
    """
    out: dict[str, tuple[Detect, Callable[[bytes, str | None], str | None]]] = {}

    from mojifix.detect import detect
    from mojifix.textcodec import decode_as

    def run_mojifix(s: Sample) -> tuple[str | None, bool]:
        res = detect(s.data, domain="web" if s.kind == "html" else "file")
        return res.encoding, res.ambiguous

    def decode_mojifix(data: bytes, name: str | None) -> str | None:
        if name is None:
            return None
        try:
            return decode_as(data, name, "strict")
        except (UnicodeError, LookupError):
            return None

    out["mojifix"] = (run_mojifix, decode_mojifix)
    try:
        import chardet

        out["chardet"] = (lambda s: (chardet.detect(s.data)["encoding"], False), _py_decode)
    except ImportError:
        pass
    try:
        import charset_normalizer

        def run_cn(s: Sample) -> tuple[str | None, bool]:
            best = charset_normalizer.from_bytes(s.data).best()
            return (best.encoding if best else None), False

        out["charset-normalizer"] = (run_cn, _py_decode)
    except ImportError:
        pass
    try:
        import cchardet

        out["cchardet"] = (lambda s: (cchardet.detect(s.data)["encoding"], False), _py_decode)
    except ImportError:
        pass
    try:
        import chardetng_py

        out["chardetng"] = (lambda s: (chardetng_py.detect(s.data, allow_utf8=True), False), _py_decode)
    except ImportError:
        pass
    if only:
        out = {k: v for k, v in out.items() if k in only}
    return out


def band(n: int) -> str:
    if n < 50:
        return "20-49"
    if n < 200:
        return "50-199"
    if n < 1000:
        return "200-999"
    if n < 10_000:
        return "1K-10K"
    return "10K-100K"


BANDS = ("20-49", "50-199", "200-999", "1K-10K", "10K-100K")


def run(
    samples: list[Sample], dets: dict[str, tuple[Detect, Callable[[bytes, str | None], str | None]]]
) -> dict:
    """Run every detector on every sample, interleaved sample by sample so that the shared machine's
    load changes affect all detectors alike; time only the detection call."""
    results: dict = {}
    timed: dict[str, list[tuple[str | None, bool]]] = {name: [] for name in dets}
    elapsed_by: dict[str, float] = dict.fromkeys(dets, 0.0)
    # one untimed-by-the-loop first call each: loading a model (mojifix reads and prepares its tables
    # on first use, ~0.1-0.2 s) is a once-per-process cost, reported on its own, not per file
    warm = Sample("Grüße aus Köln", "Grüße aus Köln".encode("cp1252"), "cp1252", "de", "plain")
    first_call: dict[str, float] = {}
    for name, (fn, _) in dets.items():
        t0 = time.perf_counter()
        fn(warm)
        first_call[name] = time.perf_counter() - t0
    for s in samples:
        for name, (fn, decode) in dets.items():
            t0 = time.perf_counter()
            encoding, amb = fn(s)
            elapsed_by[name] += time.perf_counter() - t0
            timed[name].append((decode(s.data, encoding), amb))
    for name in dets:
        right: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # ok, total, ambiguous
        failures: list[tuple[str, str, int]] = []
        outputs = timed[name]
        elapsed = elapsed_by[name]
        for s, (decoded, amb) in zip(samples, outputs, strict=True):
            ok = decoded == s.text
            for key in (
                (s.family, band(len(s.data))),
                ("ALL", band(len(s.data))),
                (s.family, "ALL"),
                ("ALL", "ALL"),
            ):
                cell = right[key]
                cell[0] += ok
                cell[1] += 1
                cell[2] += amb
            if not ok and len(failures) < 10_000:
                failures.append((s.codec, s.lang, len(s.data)))
        total_bytes = sum(len(s.data) for s in samples)
        results[name] = {
            "cells": {f"{k[0]}|{k[1]}": v for k, v in right.items()},
            "seconds": elapsed,
            "files_per_s": len(samples) / elapsed if elapsed else 0.0,
            "mb_per_s": total_bytes / 1e6 / elapsed if elapsed else 0.0,
            "failures": failures,
            "first_call_s": first_call[name],
        }
    return results


def _pct(cell: list[int] | None) -> str:
    if not cell or not cell[1]:
        return "   -  "
    return f"{100 * cell[0] / cell[1]:6.2f}"


def report(samples: list[Sample], results: dict) -> str:
    names = list(results)
    lines = []
    total_bytes = sum(len(s.data) for s in samples)
    langs = sorted({s.lang for s in samples})
    lines.append(
        f"corpus: {len(samples)} samples, {total_bytes / 1e6:.1f} MB, {len(langs)} languages, "
        f"{len({s.codec for s in samples})} encodings, {sum(s.kind == 'html' for s in samples)} HTML"
    )
    lines.append("")
    head = f"{'family':<12}" + "".join(f"{n:>20}" for n in names) + f"{'n':>7}"
    lines.append("accuracy % (decoded text == true text), per encoding family")
    lines.append(head)
    fams = [*sorted({s.family for s in samples}), "ALL"]
    for fam in fams:
        cells = [results[n]["cells"].get(f"{fam}|ALL") for n in names]
        n = cells[0][1] if cells[0] else 0
        lines.append(f"{fam:<12}" + "".join(f"{_pct(c):>20}" for c in cells) + f"{n:>7}")
    lines.append("")
    lines.append("accuracy % per length band (bytes), all families")
    lines.append(f"{'band':<12}" + "".join(f"{n:>20}" for n in names) + f"{'n':>7}")
    for b in BANDS:
        cells = [results[n]["cells"].get(f"ALL|{b}") for n in names]
        n = cells[0][1] if cells[0] else 0
        lines.append(f"{b:<12}" + "".join(f"{_pct(c):>20}" for c in cells) + f"{n:>7}")
    for label, bset in (("< 200 B", BANDS[:2]), (">= 200 B", BANDS[2:])):
        row = []
        for n in names:
            ok = sum(results[n]["cells"].get(f"ALL|{b}", [0, 0, 0])[0] for b in bset)
            tot = sum(results[n]["cells"].get(f"ALL|{b}", [0, 0, 0])[1] for b in bset)
            row.append(_pct([ok, tot, 0]))
        lines.append(f"{label:<12}" + "".join(f"{c:>20}" for c in row))
    m = results.get("mojifix")
    if m:
        lines.append("")
        amb_small = sum(m["cells"].get(f"ALL|{b}", [0, 0, 0])[2] for b in BANDS[:2])
        amb_big = sum(m["cells"].get(f"ALL|{b}", [0, 0, 0])[2] for b in BANDS[2:])
        n_small = sum(m["cells"].get(f"ALL|{b}", [0, 0, 0])[1] for b in BANDS[:2])
        n_big = sum(m["cells"].get(f"ALL|{b}", [0, 0, 0])[1] for b in BANDS[2:])
        lines.append(
            f"mojifix ambiguous verdicts: {amb_small}/{n_small} below 200 B, "
            f"{amb_big}/{n_big} at 200 B and above"
        )
    lines.append("")
    lines.append(
        "speed (same corpus, one process, sequential; the first call of each, which loads its model,"
    )
    lines.append("is timed apart)")
    base = results.get("chardet", {}).get("files_per_s")
    for n in names:
        r = results[n]
        ratio = f"  ({r['files_per_s'] / base:.2f}x chardet)" if base else ""
        first = f"  first call {r['first_call_s'] * 1e3:.0f} ms"
        lines.append(f"{n:<20}{r['files_per_s']:10.1f} files/s {r['mb_per_s']:8.2f} MB/s{ratio}{first}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer lengths (runs in well under 2 minutes)")
    parser.add_argument("--only", help="comma-separated detector names")
    parser.add_argument("--json", metavar="OUT", help="also write raw results as JSON")
    parser.add_argument("--failures", action="store_true", help="list mojifix's failures")
    args = parser.parse_args(argv)
    samples = build_corpus(quick=args.quick)
    only = set(args.only.split(",")) if args.only else None
    results = run(samples, detectors(only))
    print(report(samples, results))
    if args.failures and "mojifix" in results:
        from collections import Counter

        print("\nmojifix failures by (codec, language):")
        for (codec, lang), k in Counter(
            (c, lang) for c, lang, _ in results["mojifix"]["failures"]
        ).most_common(40):
            print(f"  {codec:<14}{lang:<8}{k}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
