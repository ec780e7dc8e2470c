"""Issue 12 causes, reproduced with text written here: declarations, served languages, control bytes."""

from __future__ import annotations

import pytest

from mojifix.detect import detect, pipeline


def _kinds(detection, kind):
    return [ev for ev in detection.evidence if ev.kind == kind]


def test_xml_declaration_is_evidence_with_its_span():
    rss = '<?xml version="1.0" encoding="EUC-JP"?>\n<rss><title>ニュース速報</title></rss>\n'.encode("euc_jp")
    d = detect(rss)
    assert d.encoding == "EUC-JP"
    (ev,) = _kinds(d, "declaration")
    assert "agrees" in ev.detail and "bytes 30-36" in ev.detail
    assert any(e.kind == "declaration" for e in d.best().evidence)


def test_declaration_the_bytes_contradict_is_a_finding():
    # a page re-encoded to windows-1251 without updating its <meta>
    page = (
        '<html><head><meta charset="windows-1252"></head><body><p>Привет, мир! Это тестовая страница '
        "нашего сайта.</p></body></html>"
    ).encode("cp1251")
    d = detect(page)
    assert d.encoding == "windows-1251"
    (ev,) = _kinds(d, "declaration")
    assert "contradicted" in ev.detail


def test_declaration_contradicted_by_valid_utf8():
    page = '<meta charset="gb2312"><p>Grüße aus München</p>'.encode()
    d = detect(page)
    assert d.encoding == "UTF-8"
    assert "contradicted" in _kinds(d, "declaration")[0].detail


def test_declaration_settles_identical_readings():
    # ISO-8859-15 and windows-1252 read "é" alike; the file says which one it is
    page = '<meta charset="iso-8859-15"><p>Un café à Paris, déjà fermé.</p>'.encode("iso8859_15")
    assert detect(page).encoding == "ISO-8859-15"


@pytest.mark.parametrize(
    ("text", "codec", "expected"),
    [
        # a coding comment
        ('# -*- coding: koi8-r -*-\nprint("Привет")\n', "koi8_r", "KOI8-R"),
        # "cp874" is not a WHATWG label, but it is what many Thai files declare
        (
            '<?xml version="1.0" encoding="cp874"?>\n<r>ภาษาไทยเป็นภาษาราชการของประเทศไทย</r>\n',
            "cp874",
            "windows-874",
        ),
    ],
)
def test_declaration_agrees(text, codec, expected):
    d = detect(text.encode(codec))
    assert d.encoding == expected
    assert "agrees" in _kinds(d, "declaration")[0].detail


def test_code_page_reads_only_the_languages_it_serves():
    # windows-1258 (Vietnamese), -1255 (Hebrew), -1257 (Baltic) used to read Western notes as German
    for text in (
        "Mötet på fredag: vi går igenom budgeten och planen för nästa år. Åsa tar med kaffe.\n",
        "Die Besprechung am Freitag: wir gehen das Budget durch. Grüße, Jürgen Müller\n",
        "Invoice total: €450 for José Álvarez, due Friday. Thanks!\n",
    ):
        d = detect(text.encode("cp1252"))
        assert d.encoding == "windows-1252" and not d.ambiguous, text


def test_english_with_a_few_traditional_chinese_words_is_big5():
    text = (
        "Runbook: restart the 伺服器 service, then check the 設定 file and the 日誌 output.\n"
        "Step 2: run deploy on 主機 before noon.\n"
    )
    assert detect(text.encode("big5")).encoding == "Big5"


def test_ukrainian_dos_is_cp1125():
    text = "Її батьківщина - Україна. Він ішов містом і дивився на вітрини.\n" * 3
    assert detect(text.encode("cp1125")).encoding == "cp1125"


def test_a_few_control_bytes_in_big5_text_are_not_binary():
    text = "今天天氣很好，我們去公園散步吧。明天也許會下雨，記得帶傘。\n" * 3
    data = text.encode("big5")
    cut = data.index("明".encode("big5"))
    data = data[:cut] + b"\x06" + data[cut:] + b"\x07\x08"
    d = detect(data)
    assert d.verdict == "text" and d.encoding == "Big5"
    assert any("not binary" in ev.detail for ev in _kinds(d, "binary"))


def test_random_bytes_with_few_controls_stay_binary():
    import random

    rng = random.Random(12)
    data = bytes(rng.choice(range(0x80, 0x100)) for _ in range(3000)) + b"\x07" * 60
    assert detect(data).verdict == "binary"


def test_hz_marker_in_ascii_text_is_ascii():
    data = b"Or with the HZ encoding escape sequence: ~{\n"
    assert detect(data).verdict == "ascii"


def test_broken_sequence_in_long_euc_kr_names_euc_kr():
    text = "오늘은 날씨가 맑고 따뜻합니다. 우리는 공원에서 산책을 했습니다.\n" * 40
    data = text.encode("euc_kr")
    cut = data.index(b"\n", 1500) + 1
    data = data[:cut] + b"\xff" + data[cut:]
    d = detect(data)
    assert d.encoding == "EUC-KR"
    (ev,) = _kinds(d, "invalid")
    assert ev.value == 1.0 and f"{cut:,}" in ev.detail


def test_confidence_is_low_when_nothing_reads_as_text():
    import random

    rng = random.Random(7)
    data = bytes(rng.randrange(0x80, 0x100) for _ in range(20_000))  # no control bytes: not "binary"
    d = detect(data)
    assert d.ambiguous and d.best().confidence <= 0.5
    assert any("no reading looks like text" in ev.detail for ev in d.evidence)


def test_one_byte_value_repeated_is_not_confident():
    d = detect(b"\xe9" * 100_000)
    assert d.ambiguous and d.best().confidence <= 0.5


def test_real_text_keeps_its_confidence():
    d = detect(("Příliš žluťoučký kůň úpěl ďábelské ódy. " * 20).encode("cp1250"))
    assert d.encoding == "windows-1250" and not d.ambiguous and d.best().confidence > 0.9


def test_ebcdic_pages_that_differ_only_in_punctuation_are_told_apart_by_bracket_pairs():
    # cp037 and cp500 put "[" "]" "!" "|" on different bytes; German letters are the same in both.
    # cp500 reads cp037's balanced "[-a]" as "¬-a|" and its "!" as "]": the pairs decide (once this
    # was ambiguous: see test_exclamations_versus_bars_stay_ebcdic_twins for what still is)
    text = "Optionen: [-a] [-b Datei] | Beispiel: prog [-a] ! Achtung, bitte lesen.\n" * 8
    d = detect(text.encode("cp037"))
    assert d.encoding == "cp037" and not d.ambiguous


def test_ebcdic_pages_that_differ_in_letters_are_decided():
    text = "Grüße aus München: schöne Straßen, ähnliche Häuser und Brücken über Flüsse.\n" * 8
    d = detect(text.encode("cp273"))
    assert d.encoding == "cp273" and not d.ambiguous


def test_romanian_comma_below_vs_cedilla_is_ambiguous():
    # ISO-8859-16 "ș" and windows-1250 "ş" are the same byte; nothing else in the text differs
    for text, codec in (
        ("Limba română are diacritice: ș, ț, ă, î, â. Școala și țara noastră.", "iso8859_16"),
        ("Şcoala şi ţara, limba română scrisă cu sedilă.", "cp1250"),
    ):
        d = detect(text.encode(codec))
        assert d.ambiguous, codec
        assert {c.encoding for c in d.candidates[:2]} == {"ISO-8859-16", "windows-1250"}
        assert d.candidates[0].confidence == d.candidates[1].confidence == 0.5


_POUND_NOTE = (
    "Notes from the walk. Tickets cost £12 return — “cheaper than parking”, the guide said, "
    "and the café by the harbour opens at nine. We met at the station before ten o'clock and "
    "took the coast path north; the tide was out and the rocks were dry. "
)


def test_pound_before_digits_in_english_is_windows_1252_and_confident():
    # 0xA3 is "£" in windows-1252 and "Ł" in windows-1250: "Ł12" is a letter glued to digits, in an
    # English text that windows-1250 was not made for; both facts are recorded on the loser
    d = detect(_POUND_NOTE.encode("cp1252"))
    assert d.encoding == "windows-1252"
    assert not d.ambiguous and d.best().confidence >= 0.9
    loser = next(c for c in d.candidates if c.encoding == "windows-1250")
    details = [ev.detail for ev in loser.evidence if ev.kind == "prior"]
    assert any("glued to digits" in x for x in details)
    assert any("not made for" in x for x in details)


def test_polish_text_keeps_its_code_page():
    text = "Bilet kosztuje 12 zł. Łódź i Gdańsk są w Polsce, a Łukasz mieszka w Krakowie od 2019 roku."
    d = detect(text.encode("cp1250"))
    assert d.encoding == "windows-1250" and d.best().language == "pl"
    assert not any("not made for" in ev.detail for ev in d.best().evidence)


def test_letters_glued_to_digits_count_only_alphabetic_scripts():
    from mojifix.detect.pipeline import _glued_letters

    assert _glued_letters("cost Ł12, 12Ž and £12") == 2
    assert _glued_letters("1º lugar, 2ª vez, 5µm, 2023年, 30€, 20°C") == 0


def test_maltese_iso_8859_3_is_read_as_maltese():
    # the model has Maltese now (CLDR's locale data): ċ ġ ħ ż are letters of a language, not junk
    text = (
        "Il-belt kapitali ta' Malta hija l-Belt Valletta. Għandha ħafna knejjes u palazzi antiki, "
        "u kull sena jiġu eluf ta' turisti jżuru l-gżira. Il-lingwa Maltija tinkiteb b'ittri Latini "
        "bħal ċ, ġ, ħ u ż, u hija l-unika lingwa Semitika uffiċjali fl-Unjoni Ewropea."
    )
    d = detect(text.encode("iso8859_3"))
    assert d.encoding == "ISO-8859-3" and d.best().language == "mt"
    assert not d.ambiguous


def test_ascii_marks_inside_words_count_against_an_ebcdic_twin():
    # cp273 reads cp037's umlaut bytes as braces and bars: "ge{ffnet", "}berpr}fen"
    text = (
        "Die Datei konnte nicht geöffnet werden. Überprüfen Sie bitte, ob Sie über die nötigen Rechte "
        "verfügen, und versuchen Sie es später erneut. Änderungen wurden nicht gespeichert."
    )
    assert detect(text.encode("cp037")).encoding == "cp037"
    d = detect(text.encode("cp037"), candidates=["cp037", "cp273"])  # the twin kept in the result
    assert d.encoding == "cp037" and not d.ambiguous
    twin = next(c for c in d.candidates if c.encoding == "cp273")
    assert any("inside words" in ev.detail for ev in twin.evidence)


def test_short_cjk_without_ebcdic_breaks_has_no_ebcdic_reading():
    d = detect("奶奶說，包餃子的".encode("big5"))  # 16 bytes, no EBCDIC space or line break
    assert d.encoding == "Big5" and d.best().confidence >= 0.99
    from mojifix.detect.encodings import by_name

    assert all(by_name(c.encoding).kind != "ebcdic" for c in d.candidates)


#: our own French notes with bracketed references: cp500 puts "[" "]" on 0x4A 0x5A, where cp037 has
#: "¢" and "!"; cp037 puts them on 0xBA 0xBB, where cp500 has "¬" and "|"
BRACKETED = (
    "Voir la note [1] et la page [2] du rapport.\n"
    "Le comité [Paris] a voté [oui] hier soir.\n"
    "Les valeurs [a, b] sont dans la table [x].\n"
)


@pytest.mark.parametrize(("codec", "twin"), [("cp500", "cp037"), ("cp037", "cp500")])
def test_ebcdic_twins_are_told_apart_by_unpaired_marks(codec: str, twin: str) -> None:
    d = detect(BRACKETED.encode(codec), candidates=[codec, twin])
    assert d.encoding == codec and not d.ambiguous
    other = next((c for c in d.candidates if c.encoding == twin), None)
    if other is not None:
        assert any("unpaired brackets" in ev.detail for ev in other.evidence)


def test_without_the_mark_price_bracketed_ebcdic_stays_a_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "UNPAIRED_MARK_LOGP", 0.0)
    monkeypatch.setattr(pipeline, "TWIN_MARK_EVIDENCE", 10**9)
    assert detect(BRACKETED.encode("cp500"), candidates=["cp500", "cp037"]).ambiguous


def test_one_stray_mark_does_not_tell_ebcdic_twins_apart() -> None:
    # one "!" (cp037 0x5A) is one unpaired "]" in cp500: less than TWIN_MARK_EVIDENCE
    text = "Hello there, welcome to the meeting notes.\nThe plan is ready!\nWe will see you on Monday.\n"
    assert pipeline.TWIN_MARK_EVIDENCE > 1
    d = detect(text.encode("cp037"), candidates=["cp037", "cp500"])
    assert d.ambiguous and {c.encoding for c in d.candidates[:2]} == {"cp037", "cp500"}


def test_exclamations_versus_bars_stay_ebcdic_twins() -> None:
    # cp500's "!" (0x4F) is cp037's "|": no pairing tells "Achtung!" from "Achtung|"
    text = "Achtung! Der Zug fährt heute nicht!\nBitte warten Sie! Danke!\n"
    d = detect(text.encode("cp500"), candidates=["cp500", "cp037"])
    assert d.ambiguous and any("punctuation and symbols" in ev.detail for ev in d.evidence)
