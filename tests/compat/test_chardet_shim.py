"""mojifix.compat.chardet: chardet's documented usage and result shape; names that give mojifix's text.

The usage below is chardet's documented usage (``detect``, the ``UniversalDetector`` loop, ``reset`` for
several files), written anew; no chardet test data is used. Inputs are texts generated here.
"""

from __future__ import annotations

import random

import pytest

import mojifix
import mojifix.compat.chardet as chardet
from mojifix.compat._names import BOM_NAMES, CHARDET_NAMES
from mojifix.textcodec import decode_as

# (language sample, Python codec it is written in): one or more per WHATWG family mojifix detects
SAMPLES = {
    "fr": (
        "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au-delà des îles. ",
        "cp1252",
    ),
    "de": ("Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich. ", "iso-8859-15"),
    "pl": ("Pchnąć w tę łódź jeża lub ośm skrzyń fig. Zażółć gęślą jaźń. ", "cp1250"),
    "cs": ("Příliš žluťoučký kůň úpěl ďábelské ódy. ", "iso-8859-2"),
    "ru": ("Съешь же ещё этих мягких французских булок, да выпей чаю. ", "cp1251"),
    "ru-koi8": ("В чащах юга жил бы цитрус? Да, но фальшивый экземпляр! ", "koi8-r"),
    "ru-dos": (
        "Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства. ",
        "cp866",
    ),
    "el": ("Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Γαζέες και μυρτιές δεν θα βρω πια. ", "cp1253"),
    "el-iso": ("Τάχιστη αλώπηξ βαφής ψημένη γη, δρασκελίζει υπέρ νωθρού κυνός. ", "iso-8859-7"),
    "tr": ("Pijamalı hasta yağız şoföre çabucak güvendi. ", "cp1254"),
    "he": ("דג סקרן שט בים מאוכזב ולפתע מצא חברה. ", "cp1255"),
    "ar": ("نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر ومغلف بجلد أزرق. ", "cp1256"),
    "lt": ("Įlinkdama fechtuotojo špaga sublykčiojusi pragręžė apvalų arbūzą. ", "cp1257"),
    "th": ("เป็นมนุษย์สุดประเสริฐเลิศคุณค่า กว่าบรรดาฝูงสัตว์เดรัจฉาน ", "cp874"),
    "ja": ("いろはにほへと ちりぬるを わかよたれそ つねならむ。日本語の文章です～ ", "cp932"),
    "ja-euc": ("色は匂へど散りぬるを我が世誰ぞ常ならむ。文字コードの判定。 ", "euc_jp"),
    "ja-jis": ("有為の奥山今日越えて浅き夢見じ酔ひもせず。 ", "iso2022_jp"),
    "zh": ("这个目录里的文件来自不同的年代，有的用国标码保存，有的用统一码保存。 ", "gbk"),
    "zh-18030": ("图书馆新到了一批关于历史和地理的书。 ", "gb18030"),
    "zh-tw": ("這個目錄裡的檔案來自不同的年代，有的用大五碼儲存。 ", "big5"),
    "ko": (
        "다람쥐 헌 쳇바퀴에 타고파. 키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다. ",
        "cp949",
    ),
    "utf8": ("Ünïcödé text — with “quotes” and 日本語 and emoji 🙂. ", "utf-8"),
    "utf16le": ("UTF-16 text without a byte order mark, Ünïcödé. ", "utf-16-le"),
    "utf16be": ("UTF-16 text without a byte order mark, Ünïcödé. ", "utf-16-be"),
    "bom8": ("UTF-8 with a byte order mark: café. ", "utf-8-sig"),
    "bom16": ("UTF-16 with a byte order mark: café. ", "utf-16"),
}


def _inputs() -> list[tuple[str, bytes]]:
    """Each sample at three lengths, plus random bytes (which exercise undefined bytes and fallbacks)."""
    out = []
    for key, (text, codec) in SAMPLES.items():
        for repeat in (1, 3, 20):
            out.append((f"{key}x{repeat}", (text * repeat).encode(codec)))
    rng = random.Random(15)
    for i in range(150):
        ascii_share = rng.random()
        data = bytes(
            rng.randrange(0x20, 0x7F) if rng.random() < ascii_share else rng.randrange(0x80, 0x100)
            for _ in range(rng.randrange(1, 400))
        )
        out.append((f"random{i}", data))
    return out


INPUTS = _inputs()


def mojifix_text(data: bytes, encoding: str) -> str:
    """mojifix's text of ``data`` as ``encoding``, as ``mojifix convert`` writes it (a BOM is not text)."""
    detection = mojifix.detect(data)
    if detection.bom == encoding:
        data = data[{"UTF-8": 3, "UTF-16LE": 2, "UTF-16BE": 2}.get(encoding, 4) :]
    return decode_as(data, encoding, "replace")


@pytest.mark.parametrize(("key", "data"), INPUTS, ids=[k for k, _ in INPUTS])
def test_the_name_decodes_to_mojifix_text(key, data):
    result = chardet.detect(data)
    detection = mojifix.detect(data)
    if detection.verdict == "binary":
        assert result["encoding"] is None
        return
    assert data.decode(result["encoding"], "replace") == mojifix_text(data, detection.encoding)
    if result["encoding"].startswith("whatwg-"):
        return  # mojifix's own codec: exact by construction, no strictness promise beyond mojifix's
    assert data.decode(result["encoding"]) == mojifix_text(data, detection.encoding)


@pytest.mark.parametrize(("key", "data"), INPUTS[::7], ids=[k for k, _ in INPUTS[::7]])
def test_every_detect_all_name_decodes_to_that_candidates_text(key, data):
    detection = mojifix.detect(data)
    results = chardet.detect_all(data, ignore_threshold=True)
    if detection.verdict == "binary":
        assert [r["encoding"] for r in results] == [None]
        return
    names = [r["encoding"] for r in results]
    assert len(names) == len(set(names))
    assert results[0] == chardet.detect(data)
    texts = {mojifix_text(data, c.encoding) for c in detection.candidates}
    for name in names:
        assert data.decode(name, "replace") in texts


def test_familiar_names_where_cpython_agrees():
    assert chardet.detect(SAMPLES["fr"][0].encode("cp1252") * 3)["encoding"] == "Windows-1252"
    assert chardet.detect(SAMPLES["ja"][0].encode("cp932") * 3)["encoding"] == "CP932"
    assert chardet.detect(SAMPLES["ru-koi8"][0].encode("koi8-r") * 3)["encoding"] == "KOI8-R"
    assert chardet.detect(b"plain text")["encoding"] == "ascii"
    assert chardet.detect("\ufeffcafé".encode("utf-8"))["encoding"] == "UTF-8-SIG"
    assert chardet.detect("café".encode("utf-16"))["encoding"] == "UTF-16"


def test_whatwg_codec_where_cpython_differs_on_the_input():
    # 0x81 is undefined in CPython's cp1252 and U+0081 in the standard's windows-1252
    data = "Le cœur déçu mais l'âme plutôt naïve ".encode("cp1252") * 3 + b"\x81"
    result = chardet.detect(data)
    assert result["encoding"] == "whatwg-windows-1252"
    assert data.decode(result["encoding"]).endswith("\x81")


def test_every_familiar_name_is_a_python_codec():
    import codecs

    for names in CHARDET_NAMES.values():
        for name in names:
            codecs.lookup(name)
    for name in BOM_NAMES.values():
        codecs.lookup(name)


def test_result_shape_is_chardets():
    real = pytest.importorskip("chardet")
    for _, data in [*INPUTS[::5], ("empty", b""), ("binary", bytes(range(256)) * 8)]:
        ours, theirs = chardet.detect(data), real.detect(data)
        assert set(ours) == set(theirs)
        for key in ours:
            assert ours[key] is None or isinstance(ours[key], type(theirs[key])) or theirs[key] is None, key
        assert 0.0 <= ours["confidence"] <= 1.0
        assert isinstance(ours["encoding"], str) or ours["encoding"] is None
    assert set(chardet.UniversalDetector().result) == set(real.UniversalDetector().result)


def test_detect_rejects_str_as_chardet_does():
    with pytest.raises(TypeError):
        chardet.detect("not bytes")  # type: ignore[arg-type]


def test_detect_all_threshold():
    data = SAMPLES["fr"][0].encode("cp1252")
    above = chardet.detect_all(data)
    everything = chardet.detect_all(data, ignore_threshold=True)
    assert above and len(above) <= len(everything)
    assert all(r["confidence"] > chardet.MINIMUM_THRESHOLD for r in above) or len(above) == len(everything)


# ---- chardet's documented UniversalDetector usage, written anew ----------------------------------


def test_universal_detector_documented_loop(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes((SAMPLES["ru"][0] * 40 + "\n").encode("cp1251"))
    detector = chardet.UniversalDetector()
    with open(path, "rb") as f:
        for line in f:
            detector.feed(line)
            if detector.done:
                break
    detector.close()
    assert detector.result == chardet.detect(path.read_bytes())
    assert path.read_bytes().decode(detector.result["encoding"]) == mojifix_text(
        path.read_bytes(), "windows-1251"
    )


def test_universal_detector_reset_between_files(tmp_path):
    files = []
    for key in ("fr", "ja", "zh", "utf8"):
        text, codec = SAMPLES[key]
        p = tmp_path / f"{key}.txt"
        p.write_bytes((text * 5).encode(codec))
        files.append(p)
    detector = chardet.UniversalDetector()
    for p in files:
        detector.reset()
        for line in p.open("rb"):
            detector.feed(line)
            if detector.done:
                break
        detector.close()
        assert detector.result == chardet.detect(p.read_bytes()), p.name


@pytest.mark.parametrize("chunk", [1, 3, 7, 64, 1000])
def test_any_chunking_gives_the_one_shot_answer(chunk):
    data = (SAMPLES["ja"][0] * 30).encode("cp932")
    detector = chardet.UniversalDetector()
    for i in range(0, len(data), chunk):
        detector.feed(data[i : i + chunk])
    assert detector.close() == chardet.detect(data)


def test_done_result_close_reset_semantics():
    detector = chardet.UniversalDetector()
    assert not detector.done
    assert detector.result == {"encoding": None, "confidence": 0.0, "language": None, "mime_type": None}
    detector.feed(b"\xff\xfe")
    assert not detector.done  # FF FE could still become the UTF-32LE BOM FF FE 00 00
    detector.feed("h".encode("utf-16-le") + "ello".encode("utf-16-le"))
    assert detector.done  # a UTF-16LE BOM: nothing later can change the answer
    detector.feed(b"\xff" * 100)  # ignored once done
    first = detector.close()
    assert first["encoding"] == "UTF-16" and detector.done
    assert detector.close() == first == detector.result
    with pytest.raises(ValueError):
        detector.feed(b"more")
    detector.reset()
    assert not detector.done
    assert detector.result["encoding"] is None
    detector.feed(b"plain")
    assert detector.close()["encoding"] == "ascii"


def test_max_bytes_makes_done_and_bounds_what_is_examined():
    detector = chardet.UniversalDetector(max_bytes=10)
    detector.feed(b"0123456")
    assert not detector.done
    detector.feed(b"789abc\xe9\xe9")
    assert detector.done
    assert detector.close()["encoding"] == "ascii"  # the bytes beyond max_bytes were not examined
