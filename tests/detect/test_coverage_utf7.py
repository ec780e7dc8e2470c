"""UTF-7 (RFC 2152): read only on strict evidence, in the file domain only; ASCII with "+" stays ASCII."""

from __future__ import annotations

import base64
import random
import string

import pytest

import mojifix
from mojifix.detect import utf7
from mojifix.detect.pipeline import BLOCK

TEXTS = {
    "de": "Grüße aus München: die Bäckerei öffnet um acht, und der Käse ist würzig.\n",
    "fr": "L'été dernier, nous avons visité la forêt près du château; c'était très agréable.\n",
    "ru": "Привет! Сегодня хорошая погода, и мы пойдём гулять в парк.\n",
    "ja": "今日は天気が良いので、公園へ散歩に行きます。\n",
    "el": "Καλημέρα σας, η θάλασσα είναι πολύ ζεστή σήμερα.\n",
    "he": "שלום לכולם, היום אנחנו הולכים לים.\n",
    "ko": "안녕하세요, 오늘은 날씨가 정말 좋습니다.\n",
}


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_utf7_text_is_named_and_decodes_to_the_text(lang: str) -> None:
    data = TEXTS[lang].encode("utf-7")
    assert data.isascii()
    d = mojifix.detect(data)
    best = d.best()
    assert best is not None and best.encoding == "utf-7"
    assert not d.ambiguous
    assert data.decode(best.encoding) == TEXTS[lang]
    assert any(ev.kind == "utf7" for ev in best.evidence)


@pytest.mark.parametrize(
    "text",
    [
        "C++ in München: ~/Übersicht\\Datei, die \x07Größe der Äpfel\n",
        "데이터+스택 구조를 사용하는 프로그램입니다.\n",  # CPython shifts the "+" inside the run
    ],
)
def test_literal_plus_tilde_backslash_and_controls_inside_text(text: str) -> None:
    data = text.encode("utf-7")
    best = mojifix.detect(data).best()
    assert best.encoding == "utf-7" and data.decode(best.encoding) == text


def test_signature_is_not_text() -> None:
    data = b"+/v8-" + TEXTS["de"].encode("utf-7")
    reading = utf7.utf7_reading(data)
    assert reading is not None and reading.text == "\ufeff" + TEXTS["de"]
    assert mojifix.detect(data).best().encoding == "utf-7"


def test_web_domain_never_names_utf7() -> None:
    for text in TEXTS.values():
        d = mojifix.detect(text.encode("utf-7"), domain="web")
        assert all(c.encoding != "utf-7" for c in d.candidates)
    assert "utf-7" not in {info.name for info in mojifix.detect.encodings.candidates_for("web")}


def test_candidates_restriction_without_utf7_keeps_ascii() -> None:
    data = TEXTS["de"].encode("utf-7")
    assert mojifix.detect(data, candidates=["UTF-8", "windows-1252"]).best().encoding == "UTF-8"
    assert mojifix.detect(data, candidates=["utf7"]).best().encoding == "utf-7"


ASCII_WITH_PLUS = [
    b"C++ is not C; i++; x += 1;\n",
    b"1+1=2 and 2+2=4, a+b-c, x+y\n",
    b"mail me at john+tag@example.com or jane+news@example.org\n",
    b"https://example.org/search?q=caf+creme+brulee&lang=fr\n",
    b"call +49 30 1234567 or +1-555-0100\n",
    b"--- a/file.py\n+++ b/file.py\n@@ -1,3 +1,4 @@\n+import os\n+foo\n+bar = 1\n",
    b"key: MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA+xyzABCD/ab==\n",
    b"user+the+lazy user build dog test path brown test test\n",
    b"Caf+AOk- only one accented letter\n",  # a single shifted character is too little evidence
    b"+AGEAYgBj- spells abc in base64: an encoder never shifts letters\n",
    b"+AOl- has non-zero padding bits\n",
    b"+2D3- is a lone surrogate\n",
]


@pytest.mark.parametrize("data", ASCII_WITH_PLUS)
def test_ascii_with_plus_stays_ascii(data: bytes) -> None:
    d = mojifix.detect(data)
    assert d.verdict == "ascii"
    assert d.best().encoding == "UTF-8"


def test_generated_ascii_with_plus_and_base64_stays_ascii() -> None:
    rng = random.Random(12)
    words = [
        "the",
        "quick",
        "brown",
        "fox",
        "jumps",
        "over",
        "lazy",
        "dog",
        "code",
        "build",
        "test",
        "value",
        "index",
        "file",
        "path",
    ]
    for _ in range(3000):
        parts = [rng.choice(words) for _ in range(rng.randint(3, 30))]
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(parts))
            kind = rng.random()
            if kind < 0.4:
                alphabet = string.ascii_letters + string.digits
                parts[i] = "+" + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
            elif kind < 0.7:
                parts[i] += "+" + rng.choice(words)
            else:
                parts[i] = "+" + base64.b64encode(rng.randbytes(rng.randint(1, 30))).decode()
        data = (" ".join(parts) + "\n").encode()
        assert mojifix.detect(data).best().encoding == "UTF-8", data


def test_rules_reject_structure_an_encoder_never_writes() -> None:
    assert utf7.utf7_reading(b"a + b") is None  # a bare "+" is written "+-"
    assert utf7.utf7_reading("naïve ünd".encode("utf-7") + b"\n+AOkA6Q==\n") is None  # padding
    assert utf7.utf7_reading("Ñandú".encode("utf-7")) is not None
    assert utf7.utf7_reading("Größe=5 oder Öl".encode("utf-7")) is not None  # "=" in text is no padding
    mixed = "가" + "Ж" + "日"  # three scripts besides Latin: random base64 looks like this
    assert utf7.utf7_reading(mixed.encode("utf-7")) is None


def test_streamed_input_beyond_one_block() -> None:
    text = TEXTS["de"] * (3 * BLOCK // len(TEXTS["de"]))
    data = text.encode("utf-7")
    assert len(data) > BLOCK
    det = mojifix.detect.Detector()
    for i in range(0, len(data), 1000):
        det.feed(data[i : i + 1000])
    assert det.close().best().encoding == "utf-7"
    # a later block that CPython's strict decoder refuses (non-zero padding bits): not UTF-7
    broken = data + b"x +AOl- y\n"
    assert mojifix.detect(broken).best().encoding == "UTF-8"


def test_convert_writes_utf7_as_its_text_and_leaves_ascii_with_plus_alone(tmp_path) -> None:
    from mojifix.cli import main

    src, dst = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    (src / "notes.txt").write_bytes(TEXTS["de"].encode("utf-7"))
    (src / "code.txt").write_bytes(ASCII_WITH_PLUS[0] + ASCII_WITH_PLUS[2])
    assert main(["convert", str(src), str(dst)]) == 0
    assert (dst / "notes.txt").read_text(encoding="utf-8") == TEXTS["de"]
    assert (dst / "code.txt").read_bytes() == ASCII_WITH_PLUS[0] + ASCII_WITH_PLUS[2]


def test_typographic_marks_only() -> None:
    text = "Er sagte »Guten Morgen« und zahlte 10 € dafür nicht.\n".replace("ü", "ue")
    data = text.encode("utf-7")
    best = mojifix.detect(data).best()
    assert best.encoding == "utf-7" and data.decode("utf-7") == text
