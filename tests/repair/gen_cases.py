"""Generate ``cases.json``, the repair test corpus, from the sentences below (written for mojifix).

Run ``python tests/repair/gen_cases.py`` after editing; ``test_corpus_is_fresh`` fails when the stored
file differs from what this script would write.

Schema of each case (ftfy-style; documented in docs/repair.md):

``label``        unique id: ``<category>/<chain>/<language>-<n>``
``category``     ``ftfy`` (UTF-8 read by a single-byte codec ftfy also undoes), ``western`` (single-byte
                 codecs ftfy does not undo: KOI8-R, IBM866, cp850), ``cjk`` (the CJK chains of issue 7),
                 ``double`` (two layers), ``negative`` (correct text), ``decision`` (documented choice)
``language``     language of ``original``
``chain``        how ``input`` was made: list of ``[bytes_encoding, decoded_as]``; each layer encodes the
                 previous text with ``bytes_encoding`` and decodes it, with replacement as real software
                 does, with ``decoded_as`` (empty for negatives)
``original``     the correct text
``input``        the text given to ``repair()``
``expect``       ``fixed`` (repair must return ``original``), ``unchanged`` (must return ``input``),
                 ``unrecoverable`` (bytes were replaced: must report ``unrecoverable`` and must not
                 invent text: any change keeps every U+FFFD)
``known_failure`` null, or why mojifix fails this case today (tested as ``xfail(strict=True)``)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from mojifix.repair._codecs import decode_lossy
from mojifix.textcodec import encode_as

OUTPUT = Path(__file__).with_name("cases.json")

#: the project's own sentences, three per language (short, everyday, with the language's special letters).
SENTENCES: dict[str, tuple[str, ...]] = {
    "fr": (
        "Le café est déjà prêt, mais la crème brûlée n'est pas encore froide.",
        "Où sont passés les élèves de la deuxième année ?",
        "Noël à Besançon : marché, château et pâtisseries.",
    ),
    "de": (
        "Größere Änderungen müssen vorher mit dem Büro abgestimmt werden.",
        "Die Straße führt über die Brücke zum Bahnhof.",
        "Schöne Grüße aus München und Köln!",
    ),
    "es": (
        "¿Dónde está la estación? Mañana habrá más niños en el año escolar.",
        "El pingüino comió camarón y jamón ibérico.",
        "Señora Núñez, ¡qué sorpresa tan agradable!",
    ),
    "pt": (
        "A informação não está disponível; tente novamente amanhã.",
        "São Paulo é a maior cidade do Brasil, com muitas opções de lazer.",
        "Você já ouviu falar da coleção de pinturas do avô?",
    ),
    "vi": (
        "Tiếng Việt có nhiều dấu thanh điệu khác nhau.",
        "Hôm nay trời đẹp, chúng tôi đi dạo ở công viên.",
        "Người dân Hà Nội thích uống cà phê sữa đá.",
    ),
    "ru": (
        "Привет! Как дела? Сегодня хорошая погода в Москве.",
        "Мы читали эту книгу вчера вечером всей семьёй.",
        "Поезд отправляется с третьего пути через десять минут.",
    ),
    "el": (
        "Καλημέρα σας, πώς είστε σήμερα;",
        "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.",
        "Το πρωινό σερβίρεται από τις επτά έως τις δέκα.",
    ),
    "tr": (
        "Türkçe öğrenmek için her gün biraz çalışıyorum.",
        "İstanbul'da güzel bir akşam yemeği yedik.",
        "Çocuklar bahçede şarkı söylüyor ve oynuyor.",
    ),
    "pl": (
        "Zażółć gęślą jaźń, a potem idź do łóżka.",
        "Wrocław i Łódź to piękne miasta w Polsce.",
        "Proszę o przesłanie faktury do końca miesiąca.",
    ),
    "cs": (
        "Příliš žluťoučký kůň úpěl ďábelské ódy.",
        "Děkuji za pomoc, přijďte zítra znovu.",
        "Vlak do Brna odjíždí v osm hodin ráno.",
    ),
    "zh-Hans": (
        "今天天气很好，我们去公园散步吧。",
        "这个价格太贵了，能不能便宜一点？",
        "中文信息处理是一个重要的研究领域。",
    ),
    "zh-Hant": (
        "今天天氣很好，我們去公園散步吧。",
        "這個價格太貴了，能不能便宜一點？",
        "歡迎來到臺灣，請多多指教。",
    ),
    "ja": (
        "日本語のテキストを正しく表示するのは難しいです。",
        "東京駅から新幹線で大阪へ行きました。",
        "価格は税込みで三千円です。",
    ),
    "ko": (
        "안녕하세요, 오늘 날씨가 정말 좋네요.",
        "한국어 문자 인코딩 문제를 해결했습니다.",
        "서울에서 부산까지 기차로 세 시간 걸립니다.",
    ),
    "ar": (
        "مرحبا بكم في موقعنا، نتمنى لكم يوما سعيدا.",
        "اللغة العربية جميلة وغنية بالمفردات.",
        "يرجى إرسال الرسالة قبل نهاية الأسبوع.",
    ),
    "he": (
        "שלום, מה שלומך היום?",
        "הספרייה פתוחה מהבוקר עד הערב.",
        "אנחנו לומדים עברית כל יום.",
    ),
}

#: short phrases (1-3 words): little evidence, where a repair tool errs in both directions.
SHORT: dict[str, tuple[str, ...]] = {
    "fr": ("Café", "déjà vu", "Noël"),
    "de": ("Grüße", "Straße", "Österreich"),
    "es": ("mañana", "¿Qué tal?", "niño"),
    "pt": ("São Paulo", "ação", "você"),
    "vi": ("Việt Nam", "cà phê", "phở bò"),
    "ru": ("Москва", "спасибо", "да"),
    "el": ("Αθήνα", "ευχαριστώ", "ναι"),
    "tr": ("İstanbul", "teşekkür", "şeker"),
    "pl": ("Łódź", "dziękuję", "żółw"),
    "cs": ("Praha", "děkuji", "čaj"),
    "zh-Hans": ("中文", "价格", "北京欢迎你"),
    "zh-Hant": ("中文", "價格", "臺北歡迎你"),
    "ja": ("価格", "東京", "ありがとう"),
    "ko": ("한국어", "서울", "감사합니다"),
    "ar": ("مرحبا", "شكرا", "القاهرة"),
    "he": ("שלום", "תודה", "ירושלים"),
    # typography only: the mojibake most often seen on the web (Â©, â€™, â€œ...)
    "sym": ("© 2024 ACME", "20 °C", "It’s “quoted” — isn’t it…", "€100 or £5", "½ kg"),
}

#: extra correct texts that must come back unchanged (the negative set beyond the sentences).
NEGATIVES: dict[str, tuple[str, ...]] = {
    "symbols": (
        "© 2024 ACME™ — all rights reserved. Price: €100 ± 5 %, ½ off, 3 × 4 ÷ 2 ≥ 5°C.",
        "→ ← ↑ ↓ • ★ ☆ ♥ ✓ ✗ ¶ § † ‡ ‰ ‹ › « »",
        "£5, ¥300, ¢50, ¤, ¦, ¬, ¯, ´, ¸, ª, º",
        "Emoji: 😀🎉👍 and math: ∑ ∫ √ ∞ ≈ ≠",
    ),
    "short": ("é›…", "Ã", "Â", "Ð", "ÿ", "ñ", "Ω", "中", "ß", "Æ", "¿Qué?", "naïve", "Ångström", "Øresund"),
    "latin": (
        "SÃO PAULO É A MAIOR CIDADE",
        "Þingvellir og Ísafjörður eru á Íslandi; Ðoð.",
        "ÂÊÎÔÛ ÄËÏÖÜ àèìòù",
        "Æsir, Ørsted, Åland, œuvre, Œdipe.",
        "Łódź, Gdańsk, Kraków, Źródło.",
        "FAÇADE, CRÈME BRÛLÉE, NAÏVE, CAFÉ",
    ),
    "risky": (  # correct text close to mojibake: capitals with tilde before symbols, Cyrillic Р before ё
        "AMANHÃ” disse ele",
        "“IRMÃ”",
        "«NÃO»",
        "MAÇÃ—VERDE",
        "Ты Рё",
        "Nº 5, 20º C",
        "1 ¬ 2",
        "Hà Nội Ã",
        "ÇA VA",
    ),
    "cjk": (
        "ﾃｽﾄ ｶﾀｶﾅ",
        "【重要】お知らせ：３月１日（金）",
        "《红楼梦》是中国古典小说。",
        "한글 ㄱㄴㄷ ㅏㅑㅓ",
        "Unicode 文字コード UTF-8 と Shift_JIS",
    ),
}

#: documented decisions: inputs where a guess is possible but no proof, so mojifix leaves them alone.
DECISIONS: tuple[tuple[str, str, str], ...] = (
    # (input, language, why)
    ("Ã la carte", "fr", "'à' is C3 A0; the A0 became a space, so the bytes cannot be rebuilt exactly"),
    ("Ã  la carte", "fr", "same, with the NBSP turned into a plain space and kept"),
    ("é›…", "zh", "UTF-8 雅 read as windows-1252, but also plausible as written; too short to prove"),
)

#: the single-byte codecs ftfy's fix_encoding undoes (its "sloppy" codecs and friends).
FTFY_CODECS = (
    "iso-8859-1",
    "windows-1252",
    "windows-1250",
    "windows-1251",
    "windows-1253",
    "windows-1254",
    "windows-1257",
    "ISO-8859-2",
    "macintosh",
    "cp437",
)
#: other single-byte codecs repair undoes.
WESTERN_CODECS = ("cp850", "KOI8-R", "IBM866")

#: legacy CJK encoding of each CJK language (the bytes that get read as Latin-1 / windows-1252).
CJK_ENCODINGS = {
    "zh-Hans": ("GBK", "gb18030"),
    "zh-Hant": ("Big5",),
    "ja": ("Shift_JIS", "EUC-JP"),
    "ko": ("EUC-KR",),
}

#: known failures: label -> why (tested as strict xfail, so fixing one makes the suite say so).
KNOWN_FAILURES: dict[str, str] = {
    "ftfy/UTF-8>windows-1250/cs-6": "'ÄŤaj' (čaj) is 3 letters: the gain (10^2.8) stays below MIN_GAIN",
}


def _garble(text: str, chain: list[tuple[str, str]]) -> str:
    for enc, dec in chain:
        data = text.encode("utf-8") if enc == "UTF-8" else encode_as(text, enc)
        text = decode_lossy(data, dec)
    return text


def _case(category: str, lang: str, n: int, original: str, chain: list[tuple[str, str]]) -> dict:
    garbled = _garble(original, chain) if chain else original
    if not chain:
        expect = "unchanged"
    elif "\ufffd" in garbled:
        expect = "unrecoverable"
    elif garbled == original:
        expect = "unchanged"
    else:
        expect = "fixed"
    name = "+".join(f"{enc}>{dec}" for enc, dec in chain) or "none"
    label = f"{category}/{name}/{lang}-{n}"
    return {
        "label": label,
        "category": category,
        "language": lang,
        "chain": [list(step) for step in chain],
        "original": original,
        "input": garbled,
        "expect": expect,
        "known_failure": KNOWN_FAILURES.get(label),
    }


def _texts() -> list[tuple[str, int, str]]:
    """(language, number, text): the sentences, then the short phrases numbered after them."""
    out: list[tuple[str, int, str]] = []
    for lang in {**SENTENCES, **SHORT}:
        sentences = SENTENCES.get(lang, ())
        out += [(lang, n, text) for n, text in enumerate(sentences, 1)]
        out += [(lang, n, text) for n, text in enumerate(SHORT.get(lang, ()), len(sentences) + 1)]
    return out


def build() -> list[dict]:
    cases: list[dict] = []
    for lang, n, text in _texts():
        if True:
            cases.append(_case("negative", lang, n, text, []))
            for codec in FTFY_CODECS:
                cases.append(_case("ftfy", lang, n, text, [("UTF-8", codec)]))
            for codec in WESTERN_CODECS:
                cases.append(_case("western", lang, n, text, [("UTF-8", codec)]))
            for legacy in CJK_ENCODINGS.get(lang, ()):
                for reader in ("iso-8859-1", "windows-1252"):
                    cases.append(_case("cjk", lang, n, text, [(legacy, reader)]))
            if lang.startswith(("zh", "ja", "ko")):
                for reader in ("GBK", "Big5", "Shift_JIS"):
                    cases.append(_case("cjk", lang, n, text, [("UTF-8", reader)]))
            # two layers: the classic double UTF-8 mojibake, and CJK legacy mojibake saved as UTF-8
            # then read as windows-1252 again
            cases.append(_case("double", lang, n, text, [("UTF-8", "windows-1252")] * 2))
            cases.append(_case("double", lang, n, text, [("UTF-8", "iso-8859-1"), ("UTF-8", "windows-1252")]))
            for legacy in CJK_ENCODINGS.get(lang, ())[:1]:
                cases.append(
                    _case("double", lang, n, text, [(legacy, "windows-1252"), ("UTF-8", "windows-1252")])
                )
                cases.append(
                    _case("double", lang, n, text, [(legacy, "iso-8859-1"), ("UTF-8", "iso-8859-1")])
                )
    for group, texts in NEGATIVES.items():
        for n, text in enumerate(texts, 1):
            cases.append(_case("negative", group, n, text, []))
    for n, (text, lang, why) in enumerate(DECISIONS, 1):
        case = _case("decision", lang, n, text, [])
        case["comment"] = why
        cases.append(case)
    labels = [c["label"] for c in cases]
    assert len(labels) == len(set(labels)), "duplicate labels"
    return cases


def render(cases: list[dict]) -> str:
    return json.dumps(cases, ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    OUTPUT.write_text(render(build()), encoding="utf-8")
    sys.stderr.write(f"wrote {OUTPUT}\n")
