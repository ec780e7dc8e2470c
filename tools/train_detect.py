"""Build mojifix's encoding-detector model, in two deterministic phases.

    python tools/train_detect.py count   # sources -> build/detect_counts.json.gz (character counts)
    python tools/train_detect.py train   # counts  -> src/mojifix/detect/data/model.bin + model.json
    python tools/train_detect.py check   # training and evaluation text do not overlap

Why two phases (as chardetng does): counting reads the sources (slow, depends on installed package
versions); training turns counts into tables (fast, pure arithmetic). Re-running ``train`` on the same
counts gives a byte-identical model.bin; there is no randomness anywhere (no sampling, no shuffling).

Training text (all installed from PyPI, see the ``dev`` extra in pyproject.toml):

* wordfreq's word-frequency lists (42 languages): each of the top :data:`WF_TOP_WORDS` words counts with
  its frequency, between two separators. Data license: CC BY-SA 4.0 (code: Apache-2.0).
* Django's translation catalogs (``django/conf/locale`` and ``contrib/{admin,auth}``): real sentences in
  ~100 languages (BSD-3-Clause). These also provide the languages wordfreq lacks (Thai, Estonian,
  Kazakh, Tajik, Belarusian, ...). Traditional Chinese: wordfreq's Simplified list converted with the
  inverse of wordfreq's own Traditional->Simplified table, plus Django's zh_Hant catalog.
* langdetect's character n-gram profiles (:data:`LANGDETECT_MAP`): letter unigram and bigram counts of
  Wikipedia text (real running prose, word boundaries included) in 40 languages; Apache-2.0. They
  weigh :data:`LD_WEIGHT` of each language they cover, and give Welsh, Estonian, Albanian and
  Afrikaans (Django-only before) prose statistics. The languages whose profiles langdetect normalises
  away (it folds CJK, kana, Hangul and Vietnamese letters into one representative each, and Romanian
  comma-below into cedilla) are not taken.
* Maltese (``mt``): Babel's copy of the Unicode CLDR locale data for Maltese (territory, language,
  currency, unit and calendar names, relative-time phrases; Babel BSD-3-Clause, CLDR data under the
  Unicode License), plus the letters of its alphabet. No other installable Maltese text was found
  (wordfreq, langdetect and Debian's spelling dictionaries lack it); enough for ISO-8859-3's
  ċ ġ ħ ż to read as letters of a language rather than as junk.

Evaluation text (benchmarks/detect_accuracy.py) comes from *other* catalogs: Sphinx's and Django's
remaining contrib apps; ``check`` proves that no evaluation message occurs in the training text.
"""

from __future__ import annotations

import argparse
import ast
import codecs
import functools
import gzip
import importlib.metadata
import itertools
import json
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from mojifix.detect import model as M  # noqa: E402
from mojifix.detect.encodings import REGISTRY  # noqa: E402

COUNTS = ROOT / "build" / "detect_counts.json.gz"
MODEL = ROOT / "src" / "mojifix" / "detect" / "data" / "model.bin"
META = ROOT / "src" / "mojifix" / "detect" / "data" / "model.json"

# ---- tuned constants (each: what it does, how it was chosen) ------------------------------------
#: words taken from each wordfreq list; beyond ~40k words the lists are mostly names and typos, and the
#: character statistics no longer change (checked: top-20k vs top-40k differ < 1% in bigram mass).
WF_TOP_WORDS = 40_000
#: share of wordfreq in a language's statistics when Django sentences exist too; wordfreq is far larger
#: and broader (web, subtitles, news), Django's UI sentences are narrow but have real word order.
WF_WEIGHT = 0.75
#: share of English statistics mixed into languages not written in Latin script: real Russian, Arabic or
#: Japanese text carries Latin words (names, code, URLs) that their word lists barely contain; without
#: this a Latin reading of Arabic bytes beats the true one whenever the text quotes a file name.
ENGLISH_SHARE = 0.05
#: every language's counts are scaled to this many pseudo-characters, so smoothing acts the same on all.
PSEUDO_TOTAL = 1_000_000.0
#: letters with their own row/column in a language's bigram table (local ids 5..255).
N_TOP = M.N_LOCAL - M.N_LOCAL_CLASSES
#: letters beyond the top list that keep an individual (unigram) probability: CJK languages need
#: thousands of characters (3,000 most frequent Hanzi cover ~99% of running text), alphabets a few.
EXT_CJK, EXT_OTHER = 6000, 300
CJK_LANGS = frozenset({"zh", "zh_Hant", "ja", "ko"})
#: a script is "native" to a language when it carries at least this share of the language's letters.
NATIVE_SHARE = 0.02
#: Dirichlet prior (pseudo-counts) pulling a row of the bigram table towards the unigram distribution.
DIRICHLET = 50.0
#: fixed log-probabilities for characters no training text contains. A C0/C1 control or U+FFFD in a
#: decoding is near-proof of a wrong encoding; a rare symbol (¤ ¦ ¬ ±, box drawing) or a letter of a
#: foreign script is merely unlikely. Chosen so that one control outweighs ~10 ordinary letters' worth
#: of evidence, one symbol ~3 (calibrated on the benchmark's short-text band). LOGP_SYM -8 -> -6 on the
#: development measurements of docs/detection.md (convert_corpus sweeps, catalogs' dev half): a price
#: after a space ("12 €") must not lose to a letter standing alone ("12 Ä").
LOGP_CTRL, LOGP_SYM, LOGP_FOREIGN = -16.0, -6.0, -13.0
#: a foreign-script letter glued to a native one ("module汉dex": what a multi-byte reading of Latin
#: text produces when it swallows a lead byte and the next ASCII letter) is rarer still.
LOGP_FOREIGN_AFTER_LETTER = -16.0
#: a symbol glued to the letter before it ("K¤ln") is what a misread letter looks like; real text puts
#: symbols after a space or digit ("5 €", "© 2024").
LOGP_SYM_AFTER_LETTER = -12.0
#: symbols that real text uses (currency, ©, °, ±, ×) cost LOGP_SYM; any other symbol (¤ ¦ ¨ ¬ ¯ ´ ¸,
#: box drawing, Thai digits) costs this much more: that is what mis-decoded letters turn into.
COMMON_SYMBOLS = "€£¥©®°±×÷™"
LOGP_RARE_SYMBOL = -3.0
#: ASCII punctuation that prose rarely uses has its own class (L_RARE) with fixed costs. It is what
#: tells EBCDIC variants apart (cp037 "!" is cp500 "]", cp037 "ü" is cp1026 "\\") and costs nothing
#: between ASCII-compatible candidates (their ASCII is identical).
RARE_ASCII = "[]{}|^~\\`"
LOGP_RARE_ASCII = -4.0
#: of those, the ones prose essentially never uses (brackets it does) cost this much more: "f\\r" is
#: what cp1026 makes of cp037 "für".
ODD_ASCII = "\\^~`|"
LOGP_ODD_ASCII = -4.0
#: non-ASCII punctuation that real text uses (quotes, dashes, ellipsis, inverted marks, CJK
#: punctuation) costs what the model learned; any other (‚ ‹ › † ‡ ‰ ¶, Thai ๏, and NBSP, which is
#: "á" in the DOS code pages: what misread letters become in windows-125x) costs this much more.
COMMON_PUNCT = (
    "“”‘’«»–—…„·¡¿\u3001\u3002\uff0c\u300c\u300d\u300e\u300f\uff01\uff1f\uff1a\uff1b\uff08\uff09\u30fb"
)
LOGP_RARE_PUNCT = -3.0
#: minimum unigram share of non-ASCII punctuation (languages whose sentences happen to have none):
#: about one per 1,000 characters.
PUNCT_FLOOR = 1e-3
#: and no transition into punctuation is costlier than this: curly quotes and dashes occur in every
#: language's real text, and must never cost more than a rare symbol (LOGP_SYM + LOGP_RARE_SYMBOL).
LOGP_PUNCT_MIN = -7.0
#: minimum unigram share of "a letter of the language's own script outside its top list": alphabets
#: have none in training (all letters fit in the top 250), yet real text has a Polish name in a Czech
#: sentence; without a floor such a letter cost ~25 nats and one name outweighed a paragraph. 2e-4
#: (~8.5 nats). Together with the all-unseen refinement below this cost 0.25 points on the monolingual
#: quick benchmark (Romanian ș/ş ties), which buys robustness on mixed-language text.
NATIVE_FLOOR = 2e-4
#: share of a script's out-of-vocabulary mass reserved for characters never seen in training.
UNSEEN_SHARE = 0.05
#: a language is scored under an encoding when the encoding can write this share of its letters
#: (by frequency). 0.97 lets Welsh (ŵ ŷ) and Romanian be read in windows-1252/1250, as people
#: wrote them; 0.99 excluded them and cost 0.5 benchmark points. Polish or Czech stay out of 1252.
COVERAGE_MIN = 0.97

WORDFREQ_LANGS = tuple((
    "ar", "bg", "bn", "ca", "cs", "da", "de", "el", "en", "es", "fa", "fi", "fil", "fr", "he", "hi",
    "hu", "id", "is", "it", "ja", "ko", "lt", "lv", "mk", "ms", "nb", "nl", "pl", "pt", "ro", "ru",
    "sh", "sk", "sl", "sv", "ta", "tr", "uk", "ur", "vi", "zh",
))  # fmt: skip
#: langdetect profile -> model language (profiles it normalises away are absent: ja, ko, zh-cn, zh-tw,
#: vi, and ro, whose comma-below letters it folds into cedilla ones; ``hr`` joins Serbo-Croatian)
_LANGDETECT_SAME = (
    "af", "ar", "bg", "bn", "ca", "cs", "cy", "da", "de", "el", "en", "es", "et", "fa", "fi", "fr", "he",
    "hi", "hu", "id", "it", "lt", "lv", "mk", "nl", "pl", "pt", "ru", "sk", "sl", "sq", "sv", "ta", "th",
    "tr", "uk", "ur",
)  # fmt: skip
LANGDETECT_MAP = {code: code for code in _LANGDETECT_SAME} | {"no": "nb", "hr": "sh", "tl": "fil"}
#: share of langdetect's Wikipedia statistics in a language they cover; the rest keeps the shares
#: of wordfreq and Django as before. Chosen on the development sets (uchardet's files, the catalogs'
#: dev half and a larger dev build, seed 777; files right and wrong without "ambiguous"): 0.25 ->
#: 118/118, 1,221/1,226 (2), 2,431/2,437 (1); 0.5 -> the same right, (2) and (3); 0.75 -> 2,430 (3).
LD_WEIGHT = 0.25
#: langdetect n-grams counted: its profiles keep only n-grams seen often enough in Wikipedia, and the
#: rare ones left are mostly foreign names, which a legacy code page's letters must not borrow
LD_MIN_COUNT = 20
#: languages taken from Django only (wordfreq lacks them); chosen for the legacy encodings they need.
DJANGO_ONLY = tuple((
    "th", "et", "kk", "tg", "be", "az", "eo", "sq", "eu", "gl", "cy", "ga", "ky", "mn", "tt", "af",
    "lb", "br", "hy", "ka", "sr",
))  # fmt: skip
#: languages with neither wordfreq nor Django text, from Babel's CLDR locale data (see the docstring)
CLDR_ONLY = ("mt",)
#: Django catalog directory -> model language (None: skip)
DJANGO_MAP = {
    "zh_Hans": "zh", "zh_Hant": "zh_Hant", "sr_Latn": "sh", "bs": "sh", "hr": "sh", "pt_BR": "pt",
    "ar_DZ": "ar", "de_CH": "de", "nn": None,
}  # fmt: skip
DJANGO_TRAIN_APPS = ("conf", "admin", "auth")
#: languages whose wordfreq counts come from another language's list, converted: Traditional Chinese
#: from the Simplified list (see _to_traditional), Serbian Cyrillic from the Latin-script
#: Serbo-Croatian list ("sh"). Serbian's two alphabets, Cyrillic (Vuk) and Latin (Gaj), correspond
#: letter for letter, the Latin digraphs lj, nj, dž being single Cyrillic letters; wordfreq has only
#: the Latin list, and Django's Serbian Cyrillic catalogs are ~700 UI messages, too few for bigram
#: statistics (the Serbian "у модулу" read as better Ukrainian than Serbian, and a Serbian
#: windows-1251 line lost to x-mac-cyrillic).
WORDFREQ_SOURCE = {"zh_Hant": "zh", "sr": "sh"}
_SR_DIGRAPHS = {"lj": "љ", "nj": "њ", "dž": "џ"}
_SR_LETTERS = dict(zip("abcčćdđefghijklmnoprsštuvzž", "абцчћдђефгхијклмнопрсштувзж", strict=True))
_SR_DIGRAPH_RE = re.compile("lj|nj|dž")

#: Letters of the official alphabets of languages trained on Django's small catalogs only, that such
#: a catalog may lack (written here from the languages' published alphabets; our own text, no
#: license). Each gets at least ALPHABET_FLOOR of the language's letters: Welsh ŵ/ŷ are ordinary
#: letters, but Django's Welsh catalog has one ŵ and no ŷ, so windows-1258's đ/₫ read better.
ALPHABET_LETTERS: dict[str, str] = {
    "cy": "âêîôûŵŷ", "ga": "áéíóú", "eo": "ĉĝĥĵŝŭ", "et": "äöüõšž", "eu": "ñ", "gl": "áéíóúñ",
    "sq": "çë", "lb": "äëé", "br": "ñù", "az": "çəğıöşü", "kk": "әғқңөұүһі", "tg": "ғӣқӯҳҷ",
    "be": "ўі", "tt": "әөүҗңһ", "ky": "өүң", "mn": "өү", "af": "êëîïôûé", "mt": "àċèġħìòùż",
}  # fmt: skip
ALPHABET_FLOOR = 5e-4

_PLACEHOLDER = re.compile(r"%\([^)]*\)[sdif]|%[sdif]|\{[^}]*\}|<[^>]*>|&[a-z]+;|https?://\S+")


# ---- characters -----------------------------------------------------------------------------------
#: letters merged before counting and scoring: Persian/Urdu yeh (U+06CC) with Arabic yeh (windows-1256
#: has only the latter). Romanian ș/ş are deliberately *not* merged: ISO-8859-16 (comma below) and
#: windows-1250 (cedilla) put them on the same bytes, and only the language model's knowledge that
#: Romanian is written with ș can tell the two readings apart.
_FOLD_EXTRA = {"\u06cc": "\u064a"}
_INDIC = frozenset((
    "DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA", "MALAYALAM",
    "SINHALA",
))  # fmt: skip


def fold(ch: str) -> str:
    low = ch.lower()
    ch = low if len(low) == 1 else ch
    return _FOLD_EXTRA.get(ch, ch)


def script_of(ch: str) -> int:
    """Script index (into model.SCRIPTS) of a letter or mark."""
    name = unicodedata.name(ch, "")
    first = name.split(" ")[0]
    if first in ("LATIN", "COMBINING") or name.startswith("FULLWIDTH LATIN"):
        return M.SCRIPTS.index("LATIN")
    if first in ("GREEK", "COPTIC"):
        return M.SCRIPTS.index("GREEK")
    if first in ("CYRILLIC", "ARMENIAN", "GEORGIAN", "HEBREW", "ARABIC", "THAI", "HANGUL"):
        return M.SCRIPTS.index(first)
    if first in _INDIC:
        return M.SCRIPTS.index("INDIC")
    if first in ("HIRAGANA", "KATAKANA") or name.startswith("HALFWIDTH KATAKANA"):
        return M.SCRIPTS.index("KANA")
    if first in ("CJK", "IDEOGRAPHIC") or name.startswith("HALFWIDTH HANGUL"):
        return M.SCRIPTS.index("HAN") if first != "HALFWIDTH" else M.SCRIPTS.index("HANGUL")
    return M.SCRIPTS.index("OTHER")


def class_gid(ch: str) -> int:
    """Global class id of a (folded) character that is not in the vocabulary."""
    cp = ord(ch)
    cat = unicodedata.category(ch)
    if cat == "Cc":
        return M.G_SEP if ch in "\t\n\r\x0b\x0c" else M.G_CTRL
    if cat in ("Cs", "Co", "Cn") or cp in (0xFFFD, 0xFFFE, 0xFFFF):
        return M.G_CTRL
    if cat == "Cf":
        return M.G_SYM
    if cp >= 0x80 and (cat[0] == "P" or cat == "Zs"):
        return M.G_PUNCT  # curly quotes, dashes, NBSP: learned, and never free inside a word
    if cat[0] in "ZP" or cat == "Nd":
        # ASCII separators; Thai, Arabic-Indic... digits are Nd too but read as symbols (a misread
        # letter must not become a free word break)
        return M.G_SEP if cp < 0x80 or cat[0] == "Z" else M.G_SYM
    if cat[0] == "S":
        return M.G_SEP if cp < 0x80 else M.G_SYM
    if cat in ("No", "Nl"):
        return M.G_SYM
    return M.G_SCRIPT0 + script_of(ch)


def is_letter(ch: str) -> bool:
    return class_gid(ch) >= M.G_SCRIPT0


def is_punct(ch: str) -> bool:
    return class_gid(ch) == M.G_PUNCT


def normalise(text: str) -> str:
    """Training text -> folded letters and non-ASCII punctuation, single spaces for everything else
    (as scoring sees it)."""
    out = []
    prev_sep = True
    for ch in text:
        f = fold(ch)
        if is_letter(f) or is_punct(f):
            out.append(f)
            prev_sep = False
        elif not prev_sep:
            out.append(" ")
            prev_sep = True
    return "".join(out).strip()


# ---- sources --------------------------------------------------------------------------------------
def read_po(path: Path) -> list[str]:
    """msgstr texts of a .po file (plural forms included), placeholders and markup removed."""
    out: list[str] = []
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if line.startswith("msgstr"):
            if current:
                out.append("".join(current))
            current = []
            quoted = line[line.index(" ") + 1 :] if " " in line else '""'
            current.append(_unquote(quoted))
        elif line.startswith('"') and current is not None:
            current.append(_unquote(line))
        else:
            if current:
                out.append("".join(current))
            current = None
    if current:
        out.append("".join(current))
    texts = [_PLACEHOLDER.sub(" ", t).strip() for t in out]
    return [t for t in texts if t and not t.startswith("Project-Id-Version")]


def _unquote(s: str) -> str:
    try:
        value = ast.literal_eval(s)
    except (ValueError, SyntaxError):
        return ""
    return value if isinstance(value, str) else ""


def django_root() -> Path:
    import django

    return Path(django.__file__).parent


def django_catalogs(apps: tuple[str, ...]) -> dict[str, list[Path]]:
    """Model language -> Django .po files of the given apps ("conf" = django/conf/locale)."""
    root = django_root()
    out: dict[str, list[Path]] = defaultdict(list)
    for app in apps:
        base = root / "conf" / "locale" if app == "conf" else root / "contrib" / app / "locale"
        for po in sorted(base.glob("*/LC_MESSAGES/*.po")):
            code = po.parts[-3]
            lang = DJANGO_MAP.get(code, code.split("_")[0])
            if lang is not None:
                out[lang].append(po)
    return out


def training_messages() -> set[str]:
    """Every training sentence (normalised), for the overlap check."""
    msgs: set[str] = set()
    for files in django_catalogs(DJANGO_TRAIN_APPS).values():
        for po in files:
            msgs.update(normalise(t) for t in read_po(po))
    for lang in CLDR_ONLY:
        msgs.update(normalise(t) for t in cldr_strings(lang))
    msgs.discard("")
    return msgs


_CLDR_PATTERN = re.compile(r"%\([A-Za-z]+\)s|\{\d+\}")


def cldr_strings(lang: str) -> list[str]:
    """Every text of Babel's CLDR locale data for ``lang`` (names, units, phrases), sorted, without
    format placeholders; only strings with a run of three letters (not "d/M/y" patterns)."""
    from babel import localedata

    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, str):
            text = _CLDR_PATTERN.sub(" ", node)
            if re.search(r"[^\W\d_]{3}", text):
                found.add(text)
        elif hasattr(node, "items"):
            for value in node.values():
                walk(value)
        elif isinstance(node, list | tuple):
            for value in node:
                walk(value)

    walk(localedata.load(lang, merge_inherited=False))
    return sorted(found)


def langdetect_profile(code: str) -> tuple[Counter, Counter]:
    """Unigram and bigram counts of langdetect's profile ``code`` in the trainer's form (folded letters,
    " " for a word boundary); n-grams seen fewer than :data:`LD_MIN_COUNT` times are left out."""
    import langdetect

    path = Path(langdetect.__file__).parent / "profiles" / code
    freq = json.loads(path.read_text(encoding="utf-8"))["freq"]
    uni, bi = Counter(), Counter()
    for gram, n in sorted(freq.items()):
        if n < LD_MIN_COUNT or len(gram) > 2:
            continue
        folded = "".join(fold(ch) if is_letter(fold(ch)) else " " for ch in gram)
        if folded.strip() == "":
            continue
        if len(folded) == 1:
            uni[folded] += n
        else:
            bi[folded] += n
    uni[" "] = sum(n for gram, n in bi.items() if gram[1] == " ")  # word ends, as _count_text counts them
    return uni, bi


def _count_text(uni: Counter, bi: Counter, text: str, weight: float) -> None:
    norm = " " + normalise(text) + " "
    if len(norm) <= 2:
        return
    for ch in norm[1:]:
        uni[ch] += weight
    for a, b in itertools.pairwise(norm):
        bi[a + b] += weight


def serbian_cyrillic(word: str) -> str | None:
    """A Serbian Latin word in Cyrillic, or None when it has letters outside Gaj's alphabet (q, w, x,
    y, ...: a foreign word or name). Digraphs read as one letter (rare compounds such as "nadživeti",
    where d and ž belong to two morphemes, come out as "наџивети": a few words in 40,000)."""
    low = unicodedata.normalize("NFC", word).lower()
    out = _SR_DIGRAPH_RE.sub(lambda m: _SR_DIGRAPHS[m.group()], low)
    chars = []
    for ch in out:
        if ch.isalpha() and ch not in "љњџ":
            if ch not in _SR_LETTERS:
                return None
            ch = _SR_LETTERS[ch]
        chars.append(ch)
    return "".join(chars)


def _traditional_map() -> dict[str, list[str]]:
    import gzip as gz

    import msgpack
    import wordfreq

    path = Path(wordfreq.__file__).parent / "data" / "_chinese_mapping.msgpack.gz"
    with gz.open(path) as fh:
        mapping = msgpack.load(fh, raw=False, strict_map_key=False)
    inverse: dict[str, list[str]] = defaultdict(list)
    for trad, simp in sorted(mapping.items()):
        if isinstance(simp, str) and len(simp) == 1 and chr(trad) != simp and trad < 0x10000:
            inverse[simp].append(chr(trad))
    return inverse


def count() -> None:
    import wordfreq

    counts: dict[str, dict[str, dict[str, float]]] = {}
    catalogs = django_catalogs(DJANGO_TRAIN_APPS)
    langs = sorted(set(WORDFREQ_LANGS) | set(DJANGO_ONLY) | set(CLDR_ONLY) | {"zh_Hant"})
    profiles = {lang: code for code, lang in LANGDETECT_MAP.items()}
    inverse = _traditional_map()
    en_uni, en_bi = Counter(), Counter()
    en_freqs = wordfreq.get_frequency_dict("en", "best")
    for word, freq in sorted(en_freqs.items(), key=lambda kv: (-kv[1], kv[0]))[:WF_TOP_WORDS]:
        _count_text(en_uni, en_bi, word, freq)
    english = (en_uni, en_bi)
    for lang in langs:
        parts: list[tuple[float, Counter, Counter]] = []
        dj_uni, dj_bi = Counter(), Counter()
        for po in catalogs.get(lang, []):
            for text in read_po(po):
                if lang == "vi":
                    _count_text(dj_uni, dj_bi, vietnamese_1258(text), 0.5)
                _count_text(dj_uni, dj_bi, text, 0.5 if lang == "vi" else 1.0)
        wf_lang = WORDFREQ_SOURCE.get(lang, lang)
        if wf_lang in WORDFREQ_LANGS:
            freqs = wordfreq.get_frequency_dict(wf_lang, "best")
            words = sorted(freqs.items(), key=lambda kv: (-kv[1], kv[0]))[:WF_TOP_WORDS]
            wf_uni, wf_bi = Counter(), Counter()
            for word, freq in words:
                if lang == "zh_Hant":
                    word = "".join(_to_traditional(ch, inverse, dj_uni) for ch in word)
                elif lang == "sr":
                    cyr = serbian_cyrillic(word)
                    if cyr is None:
                        continue
                    word = cyr
                if lang == "vi":  # both spellings: composed (Unicode) and windows-1258's base + tone mark
                    _count_text(wf_uni, wf_bi, vietnamese_1258(word), freq / 2)
                    freq /= 2
                _count_text(wf_uni, wf_bi, word, freq)
            parts.append((WF_WEIGHT if dj_uni else 1.0, wf_uni, wf_bi))
        if dj_uni:
            parts.append((1.0 - WF_WEIGHT if len(parts) else 1.0, dj_uni, dj_bi))
        if lang in CLDR_ONLY:
            cl_uni, cl_bi = Counter(), Counter()
            for text in cldr_strings(lang):
                _count_text(cl_uni, cl_bi, text, 1.0)
            parts.append((1.0, cl_uni, cl_bi))
        if lang in profiles:
            ld_uni, ld_bi = langdetect_profile(profiles[lang])
            parts = [(w * (1 - LD_WEIGHT), u, b) for w, u, b in parts] + [(LD_WEIGHT, ld_uni, ld_bi)]
        if not parts:
            print(f"skip {lang}: no text", file=sys.stderr)
            continue
        if not _is_latin_language(parts) and english is not None:
            parts = [(w * (1 - ENGLISH_SHARE), u, b) for w, u, b in parts] + [(ENGLISH_SHARE, *english)]
        uni, bi = Counter(), Counter()
        for weight, u, b in parts:
            total = sum(u.values())
            for k, v in u.items():
                uni[k] += weight * v / total * PSEUDO_TOTAL
            for k, v in b.items():
                bi[k] += weight * v / total * PSEUDO_TOTAL
        for ch in ALPHABET_LETTERS.get(lang, ""):  # letters of the alphabet the small corpus lacks
            floor = ALPHABET_FLOOR * PSEUDO_TOTAL
            if uni[ch] < floor:
                uni[ch] = floor
                bi[" " + ch] += floor / 2  # word-initial and word-final: no better guess
                bi[ch + " "] += floor / 2
        counts[lang] = {
            "uni": {k: round(v, 3) for k, v in sorted(uni.items()) if v >= 0.001},
            "bi": {k: round(v, 3) for k, v in sorted(bi.items()) if v >= 0.001},
        }
        print(f"{lang}: {len(uni)} chars, {len(bi)} bigrams", file=sys.stderr)
    COUNTS.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(COUNTS, "wt", encoding="utf-8") as fh:
        json.dump({"sources": sources(), "counts": counts}, fh, ensure_ascii=False, sort_keys=True)


def _is_latin_language(parts: list[tuple[float, Counter, Counter]]) -> bool:
    latin = M.SCRIPTS.index("LATIN")
    total = lat = 0.0
    for _, uni, _ in parts:
        for ch, v in uni.items():
            if ch != " ":
                total += v
                lat += v if script_of(ch) == latin else 0.0
    return total > 0 and lat / total >= 0.5


def vietnamese_1258(text: str) -> str:
    """Vietnamese as windows-1258 writes it: a precomposed base letter plus at most one combining mark."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        try:
            ch.encode("cp1258")
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        nfd = unicodedata.normalize("NFD", ch)
        for i in range(1, len(nfd)):
            form = unicodedata.normalize("NFC", nfd[0] + nfd[1:i] + nfd[i + 1 :]) + nfd[i]
            try:
                form.encode("cp1258")
            except UnicodeEncodeError:
                continue
            out.append(form)
            break
        else:
            out.append(ch)
    return "".join(out)


def _to_traditional(ch: str, inverse: dict[str, list[str]], seen: Counter) -> str:
    options = inverse.get(ch)
    if not options:
        return ch
    return max(options, key=lambda t: (seen.get(t, 0.0), -ord(t)))


def sources() -> list[dict[str, str]]:
    def version(dist: str) -> str:
        return importlib.metadata.version(dist)

    return [
        {"name": "wordfreq", "version": version("wordfreq"), "license": "data CC-BY-SA-4.0, code Apache-2.0",
         "use": f"top {WF_TOP_WORDS} words per language, weighted by frequency; Serbian Cyrillic (sr) also "
                "from the Serbo-Croatian (sh) list transliterated letter for letter (serbian_cyrillic)"},
        {"name": "Django", "version": version("django"), "license": "BSD-3-Clause",
         "use": "translation catalogs django/conf/locale, contrib/admin, contrib/auth (msgstr texts)"},
        {"name": "langdetect", "version": version("langdetect"), "license": "Apache-2.0",
         "use": f"character n-gram profiles (Wikipedia text), letter unigrams and bigrams seen >= "
                f"{LD_MIN_COUNT} times, {LD_WEIGHT:.0%} of each of {len(LANGDETECT_MAP)} languages"},
        {"name": "Babel (Unicode CLDR locale data)", "version": version("babel"),
         "license": "code BSD-3-Clause, CLDR data Unicode-3.0",
         "use": "every text of the Maltese (mt) locale data: names, units, calendar, relative-time phrases"},
        {"name": "mojifix ALPHABET_LETTERS", "version": "tools/train_detect.py", "license": "MIT",
         "use": "letters of published alphabets missing from small catalogs, written by the authors"},
    ]  # fmt: skip


# ---- training ---------------------------------------------------------------------------------------
#: code pages of shaped text (presentation forms) whose letters are judged through the model's fold of
#: each form to its letter (``model._fold_presentation_forms``). Not cp864: its letters are in
#: ISO-8859-6's order (both follow ASMO 449), so its folded reading of ISO-8859-6 bytes is that page's
#: own text and only the shapes, which the fold hides, tell them apart; allowed Arabic, it took 2
#: ISO-8859-6 files of the catalogs' development half at confidence 1.0 (it keeps the languages it
#: writes in base letters, as before)
SHAPED_PAGES = frozenset({"cp1006"})
#: the letters a code page of shaped text writes with another letter's shapes: IBM's Urdu page (cp1006)
#: has no keheh or Farsi yeh, and writes Urdu's with Arabic kaf's and yeh's
SHAPE_STANDS_IN = {"\u06a9": "\u0643", "\u06cc": "\u064a"}


@functools.cache
def _presentation_forms() -> dict[str, tuple[str, ...]]:
    """Arabic-script letter -> its presentation forms (Unicode's decompositions of the two blocks)."""
    out: dict[str, list[str]] = defaultdict(list)
    for cp in (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFF00)):
        dec = unicodedata.decomposition(chr(cp)).split()
        if len(dec) == 2 and dec[0] in ("<isolated>", "<final>", "<initial>", "<medial>"):
            out[chr(int(dec[1], 16))].append(chr(cp))
    return {base: tuple(forms) for base, forms in out.items()}


def _encodable(info, ch: str) -> bool:
    """Whether ``info`` can write the letter ``ch``: as itself, upper-cased, decomposed (windows-1258),
    or, in a code page of :data:`SHAPED_PAGES`, as one of its presentation forms, which the model reads
    as the letter (``model._fold_presentation_forms``)."""
    forms = [ch, ch.upper()]
    if info.name in SHAPED_PAGES:
        forms += _presentation_forms().get(SHAPE_STANDS_IN.get(ch, ch), ())
    if unicodedata.combining(ch):  # a tone mark of decomposed training text (Vietnamese): a page of
        # precomposed letters (VISCII) writes it as part of its letter ("a" + mark as one character)
        forms.append(unicodedata.normalize("NFC", "a" + ch))
    nfd = unicodedata.normalize("NFD", ch)
    if len(nfd) > 1:  # windows-1258 writes Vietnamese as a precomposed base + one combining tone mark
        forms.append(nfd)
        for i in range(1, len(nfd)):
            rest = nfd[1:i] + nfd[i + 1 :]
            forms.append(unicodedata.normalize("NFC", nfd[0] + rest) + nfd[i])
    for form in forms:
        try:
            if info.kind in ("single", "ebcdic"):
                table = info.table()
                if all(c in table for c in form):
                    return True
            else:
                form.encode(info.pycodec)
                return True
        except UnicodeEncodeError:
            continue
    return False


def train() -> None:
    with gzip.open(COUNTS, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    counts: dict[str, dict[str, dict[str, float]]] = data["counts"]
    langs = sorted(counts)

    # 1. per-language vocabularies
    tops: dict[str, list[str]] = {}
    exts: dict[str, list[str]] = {}
    natives: dict[str, list[int]] = {}
    primary: dict[str, str] = {}
    for lang in langs:
        uni = counts[lang]["uni"]
        letters = sorted((c for c in uni if c != " " and not is_punct(c)), key=lambda c: (-uni[c], c))
        mass = sum(uni[c] for c in letters)
        by_script: Counter = Counter()
        for c in letters:
            by_script[script_of(c)] += uni[c]
        natives[lang] = sorted(s for s, v in by_script.items() if v >= NATIVE_SHARE * mass)
        primary[lang] = M.SCRIPTS[max(by_script, key=lambda s: (by_script[s], -s))]
        tops[lang] = letters[:N_TOP]
        n_ext = EXT_CJK if lang in CJK_LANGS else EXT_OTHER
        exts[lang] = [c for c in letters[N_TOP : N_TOP + n_ext] if script_of(c) in natives[lang]]

    extra = set(COMMON_SYMBOLS) | set(RARE_ASCII) | set(COMMON_PUNCT)
    vocab = sorted({c for lang in langs for c in tops[lang] + exts[lang]} | extra)
    gid_of = {c: M.N_CLASSES + i for i, c in enumerate(vocab)}
    n_gids = M.N_CLASSES + len(vocab)

    # 2. code point -> gid
    lut = np.zeros(0x10000, np.uint16)
    script_size: Counter = Counter()
    for cp in range(0x10000):
        f = fold(chr(cp))
        g = gid_of.get(f)
        if g is None:
            g = class_gid(f)
        lut[cp] = g
        if is_letter(f):
            script_size[script_of(f)] += 1
    gid_script = np.full(n_gids, 255, np.uint8)
    for s in range(len(M.SCRIPTS)):
        gid_script[M.G_SCRIPT0 + s] = s
    for c, g in gid_of.items():
        gid_script[g] = script_of(c) if is_letter(c) else 255

    # 3. per-language tables
    n_l = len(langs)
    loc = np.zeros((n_l, n_gids), np.uint8)
    bigram_q = np.zeros((n_l, M.N_LOCAL, M.N_LOCAL), np.uint8)
    uni_q = np.zeros((n_l, M.N_LOCAL), np.uint8)
    ext_q = np.zeros((n_l, n_gids), np.uint8)
    for li, lang in enumerate(langs):
        native = set(natives[lang])
        row = loc[li]
        row[M.G_SEP], row[M.G_CTRL], row[M.G_SYM], row[M.G_PUNCT] = M.L_SEP, M.L_CTRL, M.L_SYM, M.L_PUNCT
        for g in range(M.G_SCRIPT0, n_gids):
            row[g] = M.L_NATIVE if gid_script[g] in native else M.L_FOREIGN
        for i, c in enumerate(tops[lang]):
            row[gid_of[c]] = M.N_LOCAL_CLASSES + i
        for c in COMMON_SYMBOLS:
            row[gid_of[c]] = M.L_SYM
        for c in RARE_ASCII:
            row[gid_of[c]] = M.L_RARE
        for c in COMMON_PUNCT:
            row[gid_of[c]] = M.L_PUNCT

        def lid(ch: str, row=row) -> int:
            g = gid_of.get(ch)
            return int(row[g if g is not None else class_gid(ch)])

        uni = counts[lang]["uni"]
        u = np.zeros(M.N_LOCAL, np.float64)
        for c, v in uni.items():
            u[M.L_SEP if c == " " else lid(c)] += v
        cmat = np.zeros((M.N_LOCAL, M.N_LOCAL), np.float64)
        for pair, v in counts[lang]["bi"].items():
            a, b = pair[0], pair[1]
            cmat[M.L_SEP if a == " " else lid(a), M.L_SEP if b == " " else lid(b)] += v
        u_used = u.copy()
        u_used[u_used == 0] = 1e-3  # letters of the top list always seen; guards unused local ids
        u_used[M.L_PUNCT] = max(u_used[M.L_PUNCT], PUNCT_FLOOR * u.sum())
        u_used[M.L_NATIVE] = max(u_used[M.L_NATIVE], NATIVE_FLOOR * u.sum())
        pu = u_used / u_used.sum()
        probs = (cmat + DIRICHLET * pu[None, :]) / (cmat.sum(axis=1, keepdims=True) + DIRICHLET)
        logp = np.log(probs)
        logp[:, M.L_PUNCT] = np.maximum(logp[:, M.L_PUNCT], LOGP_PUNCT_MIN)
        # training text has single separators; a run of them (", ", " - ") is free, so scoring needs no
        # collapsing step and rare ASCII punctuation keeps its own cost inside a run
        logp[M.L_SEP, M.L_SEP] = 0.0
        # rare ASCII punctuation: a flat cost whatever the context (a closing bracket follows a letter)
        logp[:, M.L_RARE] = LOGP_RARE_ASCII
        logp[:, M.L_CTRL] = LOGP_CTRL
        logp[:, M.L_SYM] = LOGP_SYM
        logp[M.N_LOCAL_CLASSES :, M.L_SYM] = LOGP_SYM_AFTER_LETTER
        logp[M.L_NATIVE, M.L_SYM] = logp[M.L_FOREIGN, M.L_SYM] = LOGP_SYM_AFTER_LETTER
        logp[M.N_LOCAL_CLASSES :, M.L_FOREIGN] = LOGP_FOREIGN_AFTER_LETTER
        logp[M.L_NATIVE, M.L_FOREIGN] = LOGP_FOREIGN_AFTER_LETTER
        logp[:, M.L_FOREIGN] = LOGP_FOREIGN
        bigram_q[li] = np.clip(np.round(-logp * M.QUANT), 0, 255).astype(np.uint8)
        logu = np.log(pu)
        logu[M.L_CTRL], logu[M.L_SYM], logu[M.L_FOREIGN] = LOGP_CTRL, LOGP_SYM, LOGP_FOREIGN
        logu[M.L_RARE] = LOGP_RARE_ASCII
        uni_q[li] = np.clip(np.round(-logu * M.QUANT), 0, 255).astype(np.uint8)

        # refinement of L_NATIVE into individual characters
        native_mass = sum(v for c, v in uni.items() if c != " " and lid(c) == M.L_NATIVE)
        ext_logp = np.zeros(n_gids, np.float64)
        for g in range(M.G_SCRIPT0, n_gids):
            if gid_script[g] == 255:
                continue
            size = max(script_size[int(gid_script[g])], 1)
            if row[g] == M.L_NATIVE:
                # no native letter outside the top list was ever seen (alphabets): all the class's mass
                # is for unseen letters
                ext_logp[g] = np.log((UNSEEN_SHARE if native_mass > 0 else 1.0) / size)
            elif row[g] == M.L_FOREIGN:  # which of the script's letters: one of `size`, uniformly
                ext_logp[g] = -np.log(size)
        for c in exts[lang]:
            g = gid_of[c]
            if row[g] == M.L_NATIVE and native_mass > 0:
                ext_logp[g] = np.log((1 - UNSEEN_SHARE) * uni[c] / native_mass)
        ext_logp[M.G_SYM] = LOGP_RARE_SYMBOL  # symbols outside COMMON_SYMBOLS
        ext_logp[M.G_PUNCT] = LOGP_RARE_PUNCT
        for c in ODD_ASCII:
            ext_logp[gid_of[c]] = LOGP_ODD_ASCII
        ext_q[li] = np.clip(np.round(-ext_logp * M.QUANT), 0, 255).astype(np.uint8)

    # 4. which languages each encoding can write
    enc_langs: dict[str, list[str]] = {}
    for info in REGISTRY:
        if info.kind in ("utf8", "utf16", "utf32"):
            enc_langs[info.name] = list(langs)
            continue
        ok = []
        for lang in langs:
            uni = counts[lang]["uni"]
            letters = [(c, v) for c, v in uni.items() if c != " " and not is_punct(c)]
            total = sum(v for _, v in letters)
            good = sum(v for c, v in letters if ord(c) < 0x80 or _encodable(info, c))
            if total and good / total >= COVERAGE_MIN:
                ok.append(lang)
        enc_langs[info.name] = ok

    meta = {
        "format": 1,
        "languages": langs,
        "native_scripts": {lang: [M.SCRIPTS[s] for s in natives[lang]] for lang in langs},
        "primary_script": primary,
        "encoding_languages": enc_langs,
        "sources": data["sources"],
        "seed": None,
        "randomness": "none: no sampling or shuffling; train on the same counts is byte-identical",
        "constants": {
            "WF_TOP_WORDS": WF_TOP_WORDS, "WF_WEIGHT": WF_WEIGHT, "PSEUDO_TOTAL": PSEUDO_TOTAL,
            "LD_WEIGHT": LD_WEIGHT, "LD_MIN_COUNT": LD_MIN_COUNT,
            "N_TOP": N_TOP, "EXT_CJK": EXT_CJK, "EXT_OTHER": EXT_OTHER, "NATIVE_SHARE": NATIVE_SHARE,
            "DIRICHLET": DIRICHLET, "LOGP_CTRL": LOGP_CTRL, "LOGP_SYM": LOGP_SYM,
            "LOGP_FOREIGN": LOGP_FOREIGN, "LOGP_SYM_AFTER_LETTER": LOGP_SYM_AFTER_LETTER,
            "LOGP_FOREIGN_AFTER_LETTER": LOGP_FOREIGN_AFTER_LETTER,
            "COMMON_SYMBOLS": COMMON_SYMBOLS, "LOGP_RARE_SYMBOL": LOGP_RARE_SYMBOL,
            "PUNCT_FLOOR": PUNCT_FLOOR, "NATIVE_FLOOR": NATIVE_FLOOR, "LOGP_PUNCT_MIN": LOGP_PUNCT_MIN,
            "RARE_ASCII": RARE_ASCII,
            "LOGP_RARE_ASCII": LOGP_RARE_ASCII, "ODD_ASCII": ODD_ASCII, "LOGP_ODD_ASCII": LOGP_ODD_ASCII,
            "COMMON_PUNCT": COMMON_PUNCT,
            "LOGP_RARE_PUNCT": LOGP_RARE_PUNCT,
            "ENGLISH_SHARE": ENGLISH_SHARE, "ALPHABET_FLOOR": ALPHABET_FLOOR, "UNSEEN_SHARE": UNSEEN_SHARE,
            "COVERAGE_MIN": COVERAGE_MIN,
        },
    }  # fmt: skip
    arrays = {
        "lut": lut,
        "loc": loc,
        "bigram": bigram_q,
        "uni": uni_q,
        "ext": ext_q,
        "gid_script": gid_script,
    }
    MODEL.parent.mkdir(parents=True, exist_ok=True)
    digest = M.write_model(MODEL, arrays, meta)
    sidecar = {
        "model_file": MODEL.name,
        "sha256": digest,
        "size_bytes": MODEL.stat().st_size,
        "trained_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "generator": "tools/train_detect.py",
        "languages": langs,
        "sources": data["sources"],
        "seed": None,
        "randomness": meta["randomness"],
    }
    META.write_text(
        json.dumps(sidecar, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(f"wrote {MODEL} ({MODEL.stat().st_size:,} bytes, {len(langs)} languages, {n_gids} gids)")


def check() -> int:
    """Fail (exit 1) when a message the benchmark evaluates on also occurs in the training sentences.

    Compared after normalisation (case-folded letters, single separators). wordfreq contributes
    single words, not sentences: every text shares words with it, so it is not part of the check.
    """
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from detect_accuracy import evaluation_pools

    train_msgs = training_messages()
    pools = evaluation_pools()
    used = [m for msgs in pools.values() for m in msgs]
    overlap = [m for m in used if normalise(m) in train_msgs]
    if overlap:
        print(f"{len(overlap)} evaluation messages occur in training text, e.g. {overlap[:3]}")
        return 1
    print(f"no overlap: {len(used):,} evaluation messages, {len(train_msgs):,} training sentences")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("phase", choices=["count", "train", "check"])
    args = parser.parse_args(argv)
    if args.phase == "count":
        count()
    elif args.phase == "train":
        train()
    else:
        return check()
    return 0


if __name__ == "__main__":
    codecs.lookup("utf-8")
    sys.exit(main())
