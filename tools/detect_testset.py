"""Build the detector's held-out TEST set from Debian's installed gettext catalogs (never trained on).

    python tools/detect_testset.py [--split test|dev] [--out DIR] [--per-cell N]

Source: the translations (msgstr) of the gettext catalogs that Debian packages install under
``/usr/share/locale/<lang>/LC_MESSAGES/*.mo`` (GTK, GLib, coreutils, PAM, PackageKit, ...; each
package's own license, mostly GPL/LGPL), and their English msgids for the English side of mixed
documents. The detector's training inputs are wordfreq's word lists, Django's admin/auth/conf catalogs
and the alphabet letters written in ``tools/train_detect.py``; none of them is derived from these
catalogs, and a message that also occurs (normalised) in Django's training catalogs is dropped here,
so ``tools/detect_overlap.py`` proves train, development and test sets share no sentence.

The catalogs are split by gettext domain (the package's catalog name, e.g. ``gtk30``, ``coreutils``) into
two disjoint halves by a hash of the name (:func:`split_of`): ``--split test`` (the default, written to
``build/detect-test``) is the TEST set, reported on and never tuned on; ``--split dev`` (written to
``build/detect-devcat``) is a second development set beside ``../shared/data/detect-dev``, to look at
failures on. No domain is in both, so no catalog's sentences are.

Each document is a run of real translated messages of one language, encoded in one encoding
customary for it, in one of the shapes users' files have: plain prose, an HTML page without any
charset declaration, an HTML page whose ``<meta charset>`` names the encoding, an XML feed with an
``encoding`` declaration, a CSV file, and English notes with a few words of the language (the
Latin+CJK mixes of issue 12). Deterministic (seed :data:`SEED`, sorted inputs); the manifest records
every catalog used with its SHA-256, so the set can be rebuilt and checked on another machine.
"""

from __future__ import annotations

import argparse
import gettext
import hashlib
import html
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

SEED = 20261201
LOCALE = Path("/usr/share/locale")
OUT = ROOT / "build" / "detect-test"
OUT_DEV = ROOT / "build" / "detect-devcat"
#: catalogs of ISO code names (country, language, currency names): single names, not sentences
_SKIP_DOMAINS = re.compile(r"^iso_|^iso-")
#: a message counts as a sentence with at least this many characters (after placeholders are removed)
MIN_MESSAGE_CHARS = 12
#: shortest and longest documents (bytes of text before encoding), drawn log-uniformly
MIN_DOC, MAX_DOC = 120, 12_000

#: (locale directory, model language) -> encodings customary for it (CPython codec names)
ENCODINGS: dict[str, tuple[str, ...]] = {
    "ja": ("shift_jis", "cp932", "euc_jp", "iso2022_jp"),
    "zh_CN": ("gb2312", "gbk", "gb18030", "hz"),
    "zh_TW": ("big5", "cp950", "big5hkscs"),
    "ko": ("euc_kr", "cp949"),
    "fr": ("cp1252", "latin_1", "iso8859_15", "cp850", "mac_roman", "cp500", "cp1140"),
    "de": ("cp1252", "latin_1", "iso8859_15", "cp437", "cp850", "mac_roman", "cp273", "cp037"),
    "es": ("cp1252", "latin_1", "cp850", "cp437", "cp037"),
    "it": ("cp1252", "latin_1", "cp850"),
    "pt": ("cp1252", "latin_1", "cp860"),
    "nl": ("cp1252", "latin_1"),
    "sv": ("cp1252", "latin_1", "iso8859_15", "cp437", "iso8859_10"),
    "da": ("cp1252", "latin_1", "cp865"),
    "fi": ("cp1252", "iso8859_15"),
    "is": ("cp1252", "cp861", "mac_iceland", "iso8859_10"),
    "cs": ("cp1250", "iso8859_2", "cp852", "mac_latin2"),
    "pl": ("cp1250", "iso8859_2", "cp852", "iso8859_16"),
    "hu": ("cp1250", "iso8859_2", "cp852", "iso8859_16"),
    "sk": ("cp1250", "iso8859_2", "cp852"),
    "sl": ("cp1250", "iso8859_2"),
    "hr": ("cp1250", "iso8859_2", "iso8859_16"),
    "ro": ("iso8859_16", "cp1250"),
    "tr": ("cp1254", "iso8859_9", "cp857", "mac_turkish", "cp1026"),
    "lt": ("cp1257", "iso8859_13", "iso8859_4", "cp775"),
    "lv": ("cp1257", "iso8859_13", "iso8859_4"),
    "et": ("cp1257", "iso8859_13", "iso8859_4", "iso8859_15"),
    "vi": ("cp1258",),
    "mt": ("iso8859_3",),
    "eo": ("iso8859_3",),
    "cy": ("iso8859_14",),
    "ru": ("cp1251", "koi8_r", "iso8859_5", "cp866", "cp855", "mac_cyrillic"),
    "uk": ("cp1251", "koi8_u", "cp1125"),
    "bg": ("cp1251", "iso8859_5", "mac_cyrillic"),
    "sr": ("cp1251", "iso8859_5"),
    "be": ("cp1251",),
    "mk": ("cp1251",),
    "kk": ("kz1048", "ptcp154"),
    "el": ("cp1253", "iso8859_7", "cp737", "cp869", "mac_greek", "cp875"),
    "he": ("cp1255", "iso8859_8", "cp862", "cp424"),
    "ar": ("cp1256", "iso8859_6", "cp720"),
    "fa": ("cp1256",),
    "th": ("tis_620", "cp874", "iso8859_11"),
}
#: encodings added after the test half was built (issue 12's coverage pass), in the DEVELOPMENT half
#: only, drawn from a random stream of their own so the other documents stay the same
DEV_ONLY: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("fr", "de", "es", "pt"), ("hp_roman8", "utf_7")),
    **dict.fromkeys(("ru", "ja", "he", "ko", "el"), ("utf_7",)),
}
#: every language also gets UTF-8 (and some UTF-16) documents, as real archives have
UNICODE = ("utf_8", "utf_16")
#: document shapes; "mixed" only for the CJK languages (English notes with a few of its words)
SHAPES = ("prose", "html", "html-declared", "xml-declared", "csv")
_CJK = ("ja", "zh_CN", "zh_TW", "ko")
#: the charset label written into declared documents, per CPython codec (the name users write)
_LABEL = {"latin_1": "iso-8859-1", "cp1252": "windows-1252", "tis_620": "tis-620", "utf_8": "utf-8"}
#: printf/brace placeholders, markup, and GTK/Qt accelerator marks ("_File", "&Open")
_PLACEHOLDER = re.compile(
    r"%(\d+\$)?[-#0 +']*\d*(\.\d+)?[lhqjzt]*[a-zA-Z%]|\{[^}]*\}|<[^>]*>|_(?=\w)|&(?=\w)"
)


def split_of(domain: str) -> str:
    """ "test" or "dev": the half a gettext domain belongs to (by the first byte of its name's SHA-256,
    so the split is the same on every machine and does not depend on which packages are installed)."""
    return "test" if hashlib.sha256(domain.encode()).digest()[0] % 2 == 0 else "dev"


def catalogs(lang: str, split: str = "test") -> list[Path]:
    """The .mo files of one locale directory that hold sentences and belong to ``split``, sorted."""
    base = LOCALE / lang / "LC_MESSAGES"
    return sorted(
        p for p in base.glob("*.mo") if not _SKIP_DOMAINS.match(p.name) and split_of(p.stem) == split
    )


def clean(text: str) -> str:
    """A message without placeholders, accelerator marks and markup, on one line."""
    text = _PLACEHOLDER.sub("", text)
    return " ".join(text.split())


def read_catalog(path: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) pairs of one .mo file, cleaned, translations only (no header, no plurals' ids)."""
    with path.open("rb") as f:
        try:
            cat = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
        except (OSError, UnicodeDecodeError, ValueError):
            return []
    out = []
    for key, value in cat.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid or not value:
            continue
        a, b = clean(msgid), clean(value)
        if a and b and a != b:
            out.append((a, b))
    return out


def messages(
    lang: str, exclude: set[str], split: str = "test"
) -> tuple[list[tuple[str, str]], list[dict[str, str]]]:
    """Distinct (English, translation) sentence pairs of ``lang`` in ``split``, minus any whose
    translation occurs (normalised) in ``exclude``; and the catalogs read (path, SHA-256)."""
    from train_detect import normalise

    seen: set[str] = set()
    pairs: list[tuple[str, str]] = []
    used = []
    for path in catalogs(lang, split):
        got = read_catalog(path)
        if not got:
            continue
        used.append({"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()})
        for en, tr in got:
            key = normalise(tr)
            if len(tr) < MIN_MESSAGE_CHARS or key in seen or key in exclude:
                continue
            seen.add(key)
            pairs.append((en, tr))
    return pairs, used


def _encodable(text: str, codec: str) -> bool:
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def _take(pool: list[tuple[str, str]], rng: random.Random, codec: str, size: int) -> list[tuple[str, str]]:
    """Consecutive messages from a random start, encodable in ``codec``, up to ``size`` characters."""
    out: list[tuple[str, str]] = []
    total = 0
    i = rng.randrange(len(pool))
    for k in range(len(pool)):
        en, tr = pool[(i + k) % len(pool)]
        if not _encodable(tr, codec):
            continue
        out.append((en, tr))
        total += len(tr) + 1
        if total >= size:
            break
    return out


def render(shape: str, msgs: list[tuple[str, str]], lang: str, label: str, rng: random.Random) -> str:
    """One document of ``shape`` from ``msgs``."""
    lines = [tr for _, tr in msgs]
    if shape == "prose":
        return "\n".join(lines) + "\n"
    if shape == "csv":
        rows = ["id;source;translation"] + [
            f'{k};"{en.replace(chr(34), "")}";"{tr.replace(chr(34), "")}"' for k, (en, tr) in enumerate(msgs)
        ]
        return "\r\n".join(rows) + "\r\n"
    if shape in ("html", "html-declared"):
        meta = f'<meta charset="{label}">\n' if shape == "html-declared" else ""
        body = "\n".join(f"<p>{html.escape(t, quote=False)}</p>" for t in lines[1:])
        title = html.escape(lines[0], quote=False)
        return (
            f'<!DOCTYPE html>\n<html lang="{lang.split("_")[0]}">\n<head>\n{meta}<title>{title}</title>\n'
            f'<link rel="stylesheet" href="/static/site.css">\n</head>\n<body>\n<h1>{title}</h1>\n{body}\n'
            "</body>\n</html>\n"
        )
    if shape == "xml-declared":
        items = "\n".join(
            f"  <item>\n    <title>{html.escape(t, quote=False)}</title>\n"
            f"    <link>https://example.org/news/{rng.randrange(10**6)}</link>\n  </item>"
            for t in lines
        )
        return (
            f'<?xml version="1.0" encoding="{label}"?>\n<rss version="2.0">\n<channel>\n'
            f"  <title>News</title>\n{items}\n</channel>\n</rss>\n"
        )
    if shape == "mixed":
        # English notes (the catalog's English msgids) with the language's words in a few of them
        out = []
        for en, tr in msgs:
            words = tr.split()
            out.append(f"{en} ({' '.join(words[:3])})" if rng.random() < 0.4 else en)
        return "\n".join(out) + "\n"
    raise ValueError(shape)


def label_of(codec: str) -> str:
    """The charset label a user writes for a CPython codec."""
    return _LABEL.get(codec, codec.replace("_", "-"))


def excluded(split: str) -> set[str]:
    """Normalised sentences a document of ``split`` must not contain: the training sentences, and for
    the test half also every message of the development half and every line of the uchardet
    development files (short UI strings such as "Cancel" recur across packages)."""
    from train_detect import normalise, training_messages

    out = training_messages()
    if split == "test":
        for lang in sorted(ENCODINGS):
            for path in catalogs(lang, "dev"):
                out.update(normalise(tr) for _, tr in read_catalog(path))
        out.update(normalise(line) for line in dev_lines())
    out.discard("")
    return out


def dev_lines() -> Iterator[str]:
    """The lines of ``../shared/data/detect-dev`` decoded with their stated encodings (where Python can)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from detect_dev import DEV, truth_label

    for path in sorted(p for p in DEV.glob("*/*") if p.is_file()):
        try:
            text = path.read_bytes().decode(truth_label(path))
        except (LookupError, UnicodeDecodeError):
            continue
        yield from (line for line in text.splitlines() if line.strip())


def build(out: Path, per_cell: int, seed: int = SEED, split: str = "test") -> list[dict]:
    """Write the ``split`` half's documents under ``out``; returns the manifest entries."""
    sys.path.insert(0, str(ROOT / "src"))

    rng = random.Random(seed)
    dev_rng = random.Random(seed + 1)  # (DEV_ONLY's documents)
    train = excluded(split)
    entries = []
    sources = []
    for lang in sorted(ENCODINGS):
        pairs, used = messages(lang, train, split)
        sources += used
        if len(pairs) < 20:
            continue
        dev_only = DEV_ONLY.get(lang, ()) if split == "dev" else ()
        codecs_ = ENCODINGS[lang] + UNICODE + dev_only
        for codec in codecs_:
            r = dev_rng if codec in dev_only else rng
            shapes = SHAPES + (("mixed",) if lang in _CJK else ())
            ebcdic = codec in ("cp037", "cp500", "cp273", "cp1140", "cp1026", "cp875", "cp424")
            dos_mac = codec.startswith(("cp4", "cp7", "cp8", "cp1125", "mac", "hp_roman8", "utf_7"))
            if ebcdic or dos_mac:
                shapes = ("prose", "csv")  # DOS/Mac/EBCDIC files are plain text, not web pages
            if codec == "utf_16":
                shapes = ("prose",)
            for k in range(per_cell):
                shape = shapes[k % len(shapes)]
                size = int(MIN_DOC * (MAX_DOC / MIN_DOC) ** r.random())
                msgs = _take(pairs, r, codec, size)
                if not msgs:
                    continue
                label = label_of(codec)
                text = render(shape, msgs, lang, label, r)
                if ebcdic:
                    text = text.replace("\r\n", "\n")
                try:
                    data = text.encode(codec)
                except UnicodeEncodeError:
                    continue  # the English side or the markup did not fit (never for these codecs)
                if data.isascii() and not codec.startswith(("utf_16", "utf_7")):
                    continue
                name = f"{lang}/{codec}-{shape}-{k}.txt"
                path = out / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                entries.append({"path": name, "label": codec, "language": lang, "shape": shape})
    (out / "manifest.json").write_text(
        json.dumps(
            {"seed": seed, "split": split, "files": entries, "sources": sources}, indent=1, ensure_ascii=False
        )
    )
    return entries


def pool_messages(split: str) -> Iterator[str]:
    """Every sentence the ``split`` half's documents are drawn from (for the overlap proof)."""
    exclude = excluded(split)
    for lang in sorted(ENCODINGS):
        for _, tr in messages(lang, exclude, split)[0]:
            yield tr


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("test", "dev"), default="test")
    ap.add_argument("--out", type=Path, help="default build/detect-test or build/detect-devcat")
    ap.add_argument("--per-cell", type=int, default=6, help="documents per (language, encoding)")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args(argv)
    if not LOCALE.is_dir():
        print(f"detect_testset: error: {LOCALE} not found (Debian's gettext catalogs)", file=sys.stderr)
        return 2
    out = args.out or (OUT if args.split == "test" else OUT_DEV)
    entries = build(out, args.per_cell, args.seed, args.split)
    print(f"wrote {len(entries)} files under {out} ({args.split} half of the catalogs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
