"""mojifix.extra_codecs: VISCII, a codec CPython lacks, generated from Debian's character maps."""

from __future__ import annotations

import codecs
import os
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from mojifix import extra_codecs
from mojifix.convert import convert
from mojifix.detect import detect
from mojifix.textcodec import decode_as, encode_as

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "tools" / "gen_extra_codecs.py"
CHARMAP = Path("/usr/share/i18n/charmaps/VISCII.gz")

#: Vietnamese prose of our own
VIETNAMESE = (
    "Hôm nay trời đẹp, chúng tôi đi dạo quanh hồ Hoàn Kiếm và uống cà phê sữa đá.\n"
    "Bà ngoại kể chuyện cổ tích cho các cháu nghe trước khi đi ngủ.\n"
    "Người Việt thường ăn phở vào buổi sáng, nhất là ở Hà Nội.\n"
)


def _cp1258(text: str) -> bytes:
    """``text`` as windows-1258 writes Vietnamese: a letter it has, plus one combining tone mark."""
    out = b""
    for ch in text:
        try:
            out += ch.encode("cp1258")
        except UnicodeEncodeError:
            base, *marks = unicodedata.normalize("NFD", ch)
            tone = next(m for m in marks if m in "\u0300\u0301\u0303\u0309\u0323")
            rest = "".join(m for m in marks if m != tone)
            out += unicodedata.normalize("NFC", base + rest).encode("cp1258") + tone.encode("cp1258")
    return out


@pytest.mark.skipif(not CHARMAP.is_file(), reason=f"LOUD SKIP: {CHARMAP} missing (apt-get install locales)")
def test_tables_are_what_the_character_maps_give() -> None:
    result = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, f"{result.stdout}{result.stderr} (regenerate: python {GENERATOR.name})"


def test_ci_has_the_character_maps() -> None:
    if os.environ.get("CI") and not CHARMAP.is_file():
        pytest.fail(f"{CHARMAP} missing in CI: the staleness test above could not run")


def test_viscii_is_rfc_1456() -> None:
    table = bytes(range(256)).decode("viscii")
    assert bytes(range(256)) == table.encode("viscii")  # one character per byte, both ways
    letters = {0x02: "Ẳ", 0x05: "Ẵ", 0x06: "Ẫ", 0x14: "Ỷ", 0x19: "Ỹ", 0x1E: "Ỵ"}
    for b in range(128):  # ASCII but for six C0 positions that carry capitals
        assert table[b] == letters.get(b, chr(b))
    assert all(table[b].isalpha() for b in range(0x80, 0x100))
    assert len(set(table)) == 256


@pytest.mark.skipif(shutil.which("iconv") is None, reason="LOUD SKIP: no iconv to compare with")
def test_the_same_text_as_glibcs_iconv() -> None:
    data = bytes(range(256)) + VIETNAMESE.encode("viscii")
    cmd = ["iconv", "-f", "VISCII", "-t", "UTF-8"]
    out = subprocess.run(cmd, input=data, capture_output=True, check=True)
    assert out.stdout.decode("utf-8") == data.decode("viscii")


def test_the_codec_works_like_cpythons_own() -> None:
    data = VIETNAMESE.encode("viscii")
    assert decode_as(data, "viscii") == VIETNAMESE and encode_as(VIETNAMESE, "VISCII") == data
    dec = codecs.getincrementaldecoder("viscii")()
    assert "".join(dec.decode(data[i : i + 7]) for i in range(0, len(data), 7)) == VIETNAMESE
    with pytest.raises(UnicodeEncodeError):
        "€".encode("viscii")
    # only its own names: CPython's codecs are not shadowed
    assert extra_codecs.NAMES == ("viscii",)
    assert codecs.lookup("latin-1").name == "iso8859-1"


def test_detected_and_converted(tmp_path: Path) -> None:
    det = detect(VIETNAMESE.encode("viscii"))
    assert det.encoding == "viscii" and not det.ambiguous and det.best().language == "vi"
    assert detect(_cp1258(VIETNAMESE)).encoding == "windows-1258"
    french = "Le café de la gare a rouvert ; les élèves y révisent leurs leçons à côté.\n"
    assert detect(french.encode("cp1252")).encoding == "windows-1252"
    src = tmp_path / "src"
    src.mkdir()
    (src / "notes.txt").write_bytes(VIETNAMESE.encode("viscii") * 3)
    report = convert(src, tmp_path / "out", fsync=False)
    rec = report.records[0]
    assert (rec.outcome, rec.encoding, rec.verification) == ("converted", "viscii", "lossless")
    assert (tmp_path / "out" / "notes.txt").read_text("utf-8") == VIETNAMESE * 3
