"""Exact, strict codecs for repair steps: the C1 gap, decoder-only sequences, single-byte tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.errors import DecodeError
from mojifix.repair import repair
from mojifix.repair._codecs import (
    SINGLE_BYTE,
    STEP_PAIRS,
    CodecFailure,
    decode_lossy,
    decode_strict,
    encode_strict,
    known_codec,
)
from mojifix.textcodec import decode_as


def test_windows_1252_c1_gap_as_browsers_produce_it() -> None:
    """Á is C3 81; browsers decode 0x81 in windows-1252 as U+0081, and repair must encode it back."""
    garbled = decode_as("Á".encode(), "windows-1252", errors="replace")
    assert garbled == "Ã\x81"
    assert encode_strict(garbled, "windows-1252") == b"\xc3\x81"
    assert repair("ÁRBOL Í ÏÐÝ ÁGUA".encode().decode("latin-1")).text == "ÁRBOL Í ÏÐÝ ÁGUA"
    assert repair(decode_lossy("Él dijo ÁÍÏÐÝ".encode(), "windows-1252")).text == "Él dijo ÁÍÏÐÝ"


def test_python_cp1252_replacement_is_unrecoverable() -> None:
    """requests with charset=windows-1252 uses CPython's cp1252: the five gap bytes become U+FFFD.

    The character that lost a byte stays U+FFFD; the rest is repaired exactly ("lossy" scope).
    """
    garbled = "Ánimo, señor".encode().decode("cp1252", errors="replace")
    assert garbled == "Ã\ufffdnimo, seÃ±or"
    result = repair(garbled)
    assert result.text == "\ufffdnimo, señor"
    assert result.unrecoverable and "U+FFFD" in result.unrecoverable
    assert [s.scope for s in result.plan] == ["lossy"]


def test_utf8_read_as_gbk_with_a_lost_byte_is_partly_recovered() -> None:
    """中文的文字 is 15 UTF-8 bytes: GBK pairs them up and the last byte, alone, is replaced."""
    garbled = decode_lossy("中文的文字 ok".encode(), "GBK")
    assert "\ufffd" in garbled
    result = repair(garbled)
    assert result.text == "中文的文\ufffd ok"
    assert result.unrecoverable


def test_replacement_characters_are_reported_and_never_guessed() -> None:
    for text in ("锟斤拷锟斤拷", "\ufffd\ufffd"):
        result = repair(text)
        assert not result.changed and result.unrecoverable
    # U+FFFD in UTF-8 read as Latin-1 is undone (to U+FFFD), never read as EUC-JP 鐃緒申 (heuristic 8)
    result = repair("CafÃ© ï¿½ï¿½")
    assert result.text == "Café \ufffd\ufffd" and result.unrecoverable


@pytest.mark.parametrize("name", [n for n in SINGLE_BYTE if n not in ("windows-1253", "windows-1257")])
def test_single_byte_tables_are_bijective(name: str) -> None:
    data = bytes(range(256))
    assert encode_strict(decode_strict(data, name), name) == data


def test_single_byte_holes_fail_strictly() -> None:
    with pytest.raises(CodecFailure):
        decode_strict(b"\xaa", "windows-1253")  # unassigned in the WHATWG index
    assert decode_lossy(b"\xaa", "windows-1253") == "\ufffd"
    with pytest.raises(CodecFailure):
        encode_strict("中", "windows-1252")


def test_big5_decoder_only_sequences_are_rebuilt() -> None:
    """UTF-8 价格 read as Big5 gives 聢 from A0 BC, which the Big5 *encoder* never writes."""
    garbled = decode_lossy("价格".encode(), "Big5")
    assert encode_strict(garbled, "Big5") == "价格".encode()
    assert repair(garbled).text == "价格"


def test_every_step_codec_is_known() -> None:
    for enc, dec in STEP_PAIRS:
        assert known_codec(enc) and known_codec(dec)
    assert not known_codec("utf-7")


@settings(max_examples=60, deadline=None)
@given(
    st.binary(max_size=64), st.sampled_from(["iso-8859-1", "windows-1252", "macintosh", "cp437", "KOI8-R"])
)
def test_single_byte_round_trip(data: bytes, name: str) -> None:
    assert encode_strict(decode_strict(data, name), name) == data


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=4),
            st.sampled_from(
                [b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe0\x9f\xbf", b"\xef\xbb\xbf"]
            ),
            st.text(max_size=3).map(str.encode),
        ),
        max_size=6,
    ).map(b"".join)
)
def test_strict_utf8_is_the_standards(data: bytes) -> None:
    """decode_strict's UTF-8 (CPython's decoder) accepts and gives exactly what mojifix's WHATWG one does."""
    try:
        expected = decode_as(data, "UTF-8", errors="strict")
    except (DecodeError, UnicodeDecodeError):
        with pytest.raises(CodecFailure):
            decode_strict(data, "UTF-8")
        return
    assert decode_strict(data, "UTF-8") == expected
