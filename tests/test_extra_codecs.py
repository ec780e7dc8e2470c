"""mojifix.extra_codecs: VISCII and EUC-TW, codecs CPython lacks, generated from Debian's character maps."""

from __future__ import annotations

import codecs
import itertools
import os
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mojifix import extra_codecs
from mojifix.convert import convert
from mojifix.detect import detect
from mojifix.textcodec import decode_as, encode_as

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "tools" / "gen_extra_codecs.py"
CHARMAP = Path("/usr/share/i18n/charmaps/VISCII.gz")
EUC_TW_CHARMAP = Path("/usr/share/i18n/charmaps/EUC-TW.gz")

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
    for charmap in (CHARMAP, EUC_TW_CHARMAP):
        if os.environ.get("CI") and not charmap.is_file():
            pytest.fail(f"{charmap} missing in CI: the staleness test above could not run")


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
    assert extra_codecs.NAMES == ("viscii", "euc_tw")
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


#: Traditional Chinese prose of our own
TRADITIONAL_CHINESE = (
    "台北的冬天常常下雨，街上的行人都撐著傘快步走過。\n"
    "我們在巷口的小店吃了一碗熱騰騰的牛肉麵，然後去書店看了一下午的書。\n"
    "這本小說描寫一個漁村家庭三代人的故事，文筆樸實而動人。\n"
)


def _euc_tw_sequences() -> tuple[list[bytes], list[bytes]]:
    """(every sequence the table maps, every well-formed sequence it leaves empty), all planes; plane 1
    in its two-byte form."""
    table = extra_codecs._euc_tw_table()
    mapped: list[bytes] = []
    empty: list[bytes] = []
    for k, plane in enumerate(extra_codecs.EUC_TW_PLANES):
        prefix = b"" if plane == 1 else bytes((0x8E, 0xA0 + plane))
        for at in range(94 * 94):
            seq = prefix + bytes((0xA1 + at // 94, 0xA1 + at % 94))
            (mapped if table[k * 94 * 94 + at] != "\0" else empty).append(seq)
    return mapped, empty


def _iconv(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["iconv", *args], input=data, capture_output=True, check=False)


@pytest.mark.skipif(shutil.which("iconv") is None, reason="LOUD SKIP: no iconv to compare with")
def test_euc_tw_is_glibcs_iconv() -> None:
    mapped, empty = _euc_tw_sequences()
    assert len(mapped) > 55_000  # planes 1-7 and 15 of CNS 11643
    every = b"\n".join(mapped)
    out = _iconv(every, "-f", "EUC-TW", "-t", "UTF-8")
    assert out.returncode == 0 and out.stdout.decode("utf-8") == every.decode("euc_tw")
    four_byte_plane_1 = b"\n".join(b"\x8e\xa1" + seq for seq in mapped if len(seq) == 2)
    out = _iconv(four_byte_plane_1, "-f", "EUC-TW", "-t", "UTF-8")
    assert out.returncode == 0 and out.stdout.decode("utf-8") == four_byte_plane_1.decode("euc_tw")
    # what the table leaves empty, iconv cannot decode either (one call per sequence: iconv stops at the
    # first; a sample of every 40th, all planes, about 380 calls)
    for seq in empty[::40]:
        assert _iconv(seq, "-f", "EUC-TW", "-t", "UTF-8").returncode != 0, seq.hex()
    for seq in empty:
        with pytest.raises(UnicodeDecodeError):
            seq.decode("euc_tw")
    # encoding: every character in the form iconv chooses
    text = every.decode("euc_tw")
    out = _iconv(text.encode("utf-8"), "-f", "UTF-8", "-t", "EUC-TW")
    assert out.returncode == 0 and out.stdout == text.encode("euc_tw")


def test_euc_tw_works_like_cpythons_cjk_codecs() -> None:
    data = TRADITIONAL_CHINESE.encode("euc_tw")
    assert decode_as(data, "euc_tw") == TRADITIONAL_CHINESE
    assert encode_as(TRADITIONAL_CHINESE, "EUC-TW") == data
    for step in (1, 2, 3, 5):  # cut inside two-byte and four-byte sequences alike
        dec = codecs.getincrementaldecoder("euc_tw")()
        chunks = [dec.decode(data[i : i + step]) for i in range(0, len(data), step)]
        assert "".join(chunks) + dec.decode(b"", final=True) == TRADITIONAL_CHINESE
    rare = "\U00020002"  # plane 15
    assert rare.encode("euc_tw") == b"\x8e\xaf\xa1\xa1" and b"\x8e\xaf\xa1\xa1".decode("euc_tw") == rare
    # errors where CPython's CJK codecs put them: one byte, or the cut-off tail
    cases = {
        b"ab\xa1\x41": (2, 3, "illegal multibyte sequence"),
        b"\x8e\xa8\xa1\xa1": (0, 1, "illegal multibyte sequence"),  # no plane 8
        b"\xff": (0, 1, "illegal multibyte sequence"),
        b"ab\x8e\xa2\xa1": (2, 5, "incomplete multibyte sequence"),
    }
    for bad, (start, end, reason) in cases.items():
        with pytest.raises(UnicodeDecodeError) as info:
            bad.decode("euc_tw")
        assert (info.value.start, info.value.end, info.value.reason) == (start, end, reason)
    assert b"\xa1\x41x".decode("euc_tw", "replace") == "\ufffdAx"
    assert "ab€".encode("euc_tw", "replace") == b"ab?"
    with pytest.raises(UnicodeEncodeError):
        "€".encode("euc_tw")


def test_euc_tw_detected_and_converted(tmp_path: Path) -> None:
    data = TRADITIONAL_CHINESE.encode("euc_tw")
    det = detect(data)
    assert det.encoding == "euc_tw" and not det.ambiguous and det.best().language == "zh_Hant"
    # the neighbours are still theirs
    assert detect(TRADITIONAL_CHINESE.encode("big5")).encoding == "Big5"
    assert detect(TRADITIONAL_CHINESE.encode("gb18030")).encoding == "GBK"
    assert detect(data, domain="web").encoding != "euc_tw"  # not a browser's encoding
    src = tmp_path / "src"
    src.mkdir()
    (src / "notes.txt").write_bytes(data)
    book = "書".encode("euc_tw")
    (src / "long-form.txt").write_bytes(data.replace(book, b"\x8e\xa1" + book))  # plane 1, four-byte form
    report = convert(src, tmp_path / "out", fsync=False)
    by_path = {rec.path: rec for rec in report.records}
    rec = by_path["notes.txt"]
    assert (rec.outcome, rec.encoding, rec.verification) == ("converted", "euc_tw", "lossless")
    assert (tmp_path / "out" / "notes.txt").read_text("utf-8") == TRADITIONAL_CHINESE
    # the same text, but the bytes do not come back from it: not written as lossless
    rec = by_path["long-form.txt"]
    assert (rec.outcome, rec.verification) == ("quarantined", "noncanonical")


#: bytes where EUC-TW's decoder changes state: the plane prefix, plane bytes (7 and 15 real, 8 not),
#: row/cell bytes at both ends, bytes below 0xA1 that no sequence holds, ASCII
_EUC_TW_SOUP = st.binary(max_size=0) | st.lists(
    st.sampled_from([0x8E, 0xA1, 0xA2, 0xA7, 0xA8, 0xAF, 0xC4, 0xFD, 0xFE, 0xFF, 0x80, 0xA0, 0x41, 0x0A]),
    max_size=24,
).map(bytes)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(soup=_EUC_TW_SOUP, cuts=st.lists(st.integers(0, 24), max_size=4))
def test_euc_tw_incremental_is_one_shot(soup: bytes, cuts: list[int]) -> None:
    whole = soup.decode("euc_tw", "replace")
    dec = codecs.getincrementaldecoder("euc_tw")("replace")
    bounds = [0, *sorted(c for c in cuts if c <= len(soup)), len(soup)]
    parts = [dec.decode(soup[a:b]) for a, b in itertools.pairwise(bounds)]
    assert "".join(parts) + dec.decode(b"", final=True) == whole


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 94 * 94 * len(extra_codecs.EUC_TW_PLANES) - 1), max_size=30), st.text("ab \n"))
def test_euc_tw_round_trip(positions: list[int], ascii_text: str) -> None:
    table = extra_codecs._euc_tw_table()
    text = ascii_text.join(table[p] for p in positions if table[p] != "\0")
    assert text.encode("euc_tw").decode("euc_tw") == text
