import pytest

from mojifix.errors import DecodeError, UnknownEncodingError
from mojifix.textcodec import decode_as, encode_as, is_whatwg


def test_whatwg_names_are_exact():
    assert is_whatwg("windows-1252") and is_whatwg("Shift_JIS")
    assert not is_whatwg("latin1") and not is_whatwg("cp437")


def test_python_codec_round_trip():
    assert decode_as(encode_as("Ça va", "cp850"), "cp850") == "Ça va"


def test_strict_error_names_offset():
    with pytest.raises(DecodeError) as info:
        decode_as(b"ab\xff", "utf-32-le")
    assert (info.value.start, info.value.end) == (0, 3)
    assert "utf-32-le" in str(info.value)


def test_unknown_name():
    with pytest.raises(UnknownEncodingError):
        decode_as(b"x", "no-such-codec")
