"""Build ``_langmodel.json``, the character model repair uses to tell text from mojibake.

Run ``python -m mojifix.repair._train`` (needs the ``wordfreq`` dev dependency) to regenerate the file;
``python -m mojifix.repair._train --check`` exits 1 when the stored file is stale. The library itself never
imports this module nor wordfreq: it only reads the generated JSON.

Why a character model built from word lists: wordfreq (https://github.com/rspeer/wordfreq, data under
CC-BY-SA 4.0) publishes, for 40+ languages, the most frequent words with their frequencies, already
segmented for Chinese and Japanese. Spreading each word's frequency over its characters and adjacent
character pairs gives, per language, how likely each character is and how likely each letter is to follow
another. Mojibake is made of characters and pairs that are rare in *every* language (``Ã©``, ``Ã¶``, ``æ–‡``,
``ÖÐÎÄ``, ``涓枃``), which is what the scorer measures. Two passes, deterministic: count, then quantise.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import json
import math
import sys
from collections import Counter
from pathlib import Path

#: languages modelled: every wordfreq language whose script repair's chains can produce or whose text
#: mojibake could be confused with. More languages = more ways for garbage to look plausible = fewer
#: repairs, never more: adding a language is the conservative direction.
LANGUAGES = (
    "ar", "bg", "ca", "cs", "da", "de", "el", "en", "es", "fa", "fi", "fr", "he", "hi", "hu", "id", "is",
    "it", "ja", "ko", "lt", "lv", "nb", "nl", "pl", "pt", "ro", "ru", "sk", "sl", "sv", "tr", "uk", "vi",
    "zh",
)  # fmt: skip

#: words read per language, most frequent first. 30,000 covers > 95% of running text in every listed
#: language (wordfreq's own coverage figures) while keeping the model file around 1 MB.
WORDS_PER_LANGUAGE = 30_000

#: character pairs kept per language (the most frequent). Pairs matter for alphabetic scripts, where
#: mojibake is made of common letters in impossible orders; for Han/kana the unigram does the work.
PAIRS_PER_LANGUAGE = 6_000

#: characters kept per language (covers the 3,500 common hanzi/kanji plus the traditional forms).
CHARS_PER_LANGUAGE = 7_000

#: probabilities are stored as round(log10(p) * QUANT) integers: 0.1 decibel steps are far finer than
#: the margins repair decides on.
QUANT = 10

OUTPUT = Path(__file__).with_name("_langmodel.json")

BOUNDARY = " "  # word boundary marker in pair keys


def _words(lang: str) -> list[tuple[str, float]]:
    import wordfreq

    out: list[tuple[str, float]] = []
    for bucket, words in enumerate(wordfreq.get_frequency_list(lang, "best")):
        freq = 10 ** (-bucket / 100)  # wordfreq buckets are centibels
        for word in words:
            if any(ch.isalpha() for ch in word):
                out.append((word.lower(), freq))
                if len(out) >= WORDS_PER_LANGUAGE:
                    return out
    return out


def _traditional_variants() -> dict[str, list[str]]:
    """Simplified char -> traditional chars, inverted from wordfreq's own traditional->simplified map.

    wordfreq's Chinese list is in simplified characters; Big5 text is traditional, so without this the
    correct repair of Big5 mojibake would look rare.
    """
    import msgpack
    import wordfreq

    path = Path(wordfreq.__file__).with_name("data") / "_chinese_mapping.msgpack.gz"
    with gzip.open(path) as fh:
        mapping = msgpack.load(fh, raw=False, strict_map_key=False)
    inverse: dict[str, list[str]] = {}
    for trad, simp in sorted(mapping.items()):
        if len(simp) == 1 and chr(trad) != simp:
            inverse.setdefault(simp, []).append(chr(trad))
    return inverse


def _quant(p: float) -> int:
    return round(math.log10(p) * QUANT)


def build() -> dict[str, object]:
    """Count (pass 1) then quantise (pass 2) every language; returns the JSON-able model."""
    import wordfreq

    trad = _traditional_variants()
    langs: dict[str, object] = {}
    for lang in LANGUAGES:
        chars: Counter[str] = Counter()
        pairs: Counter[str] = Counter()
        for word, freq in _words(lang):
            letters = [c for c in word if c.isalpha() or c.isdigit() or c in "'-"]
            for c in letters:
                chars[c] += freq
                if lang == "zh":
                    for t in trad.get(c, ()):
                        chars[t] += freq
            padded = [BOUNDARY, *letters, BOUNDARY]
            for a, b in itertools.pairwise(padded):
                pairs[a + b] += freq
        total = sum(chars.values())
        kept_chars = dict(sorted(chars.items(), key=lambda kv: (-kv[1], kv[0]))[:CHARS_PER_LANGUAGE])
        uni = {c: _quant(n / total) for c, n in sorted(kept_chars.items())}
        # conditional P(b | a): how often a is followed by b, among everything that follows a
        follows: Counter[str] = Counter()
        for ab, n in pairs.items():
            follows[ab[0]] += n
        top_pairs = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[:PAIRS_PER_LANGUAGE]
        bi = {ab: _quant(n / follows[ab[0]]) for ab, n in sorted(top_pairs)}
        langs[lang] = {"chars": uni, "pairs": bi}
    return {
        "_meta": {
            "generator": "mojifix.repair._train",
            "source": "wordfreq " + getattr(wordfreq, "__version__", "3.x") + " 'best' lists (CC-BY-SA 4.0)",
            "languages": list(LANGUAGES),
            "words_per_language": WORDS_PER_LANGUAGE,
            "pairs_per_language": PAIRS_PER_LANGUAGE,
            "chars_per_language": CHARS_PER_LANGUAGE,
            "quant": QUANT,
        },
        "langs": langs,
    }


def render(model: dict[str, object]) -> str:
    body = json.dumps(model, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return body + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the stored model is stale")
    args = parser.parse_args(argv)
    text = render(build())
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    if args.check:
        stale = not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text
        sys.stderr.write(f"{OUTPUT.name}: {'STALE' if stale else 'up to date'} ({digest})\n")
        return 1 if stale else 0
    OUTPUT.write_text(text, encoding="utf-8")
    sys.stderr.write(f"wrote {OUTPUT} ({len(text.encode()):,} bytes, sha256 {digest})\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
