"""The Python codec names the adapters hand to requests/httpx/Scrapy reproduce the standard's text exactly."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.errors import UnknownEncodingError
from mojifix.integrations._codec import NATIVE_EXACT, python_codec_name
from mojifix.whatwg import lookup
from mojifix.whatwg._tables import ENCODINGS

WHATWG_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "whatwg"
ALL_NAMES = [name for name, _ in ENCODINGS]
UTF16 = ("UTF-16LE", "UTF-16BE")
BOMS = {"UTF-8": b"\xef\xbb\xbf", "UTF-16LE": b"\xff\xfe", "UTF-16BE": b"\xfe\xff"}


def _index_decode(name: str) -> str:
    """Bytes 0x00-0xFF through the standard's single-byte decoder, read straight from index-<name>.txt."""
    index_name = "iso-8859-8" if name == "ISO-8859-8-I" else name.lower()
    table: dict[int, str] = {}
    for line in (WHATWG_DATA / f"index-{index_name}.txt").read_text(encoding="utf-8").split("\n"):
        if line.strip() and not line.startswith("#"):
            pointer, code = line.split("\t")[:2]
            table[int(pointer)] = chr(int(code, 16))
    return "".join(chr(b) if b < 0x80 else table.get(b - 0x80, "\ufffd") for b in range(256))


SINGLE_BYTE_NATIVE = [n for n in NATIVE_EXACT if not n.startswith("UTF")]


@pytest.mark.skipif(not WHATWG_DATA.is_dir(), reason="spec data not present")
@pytest.mark.parametrize("name", SINGLE_BYTE_NATIVE)
def test_native_single_byte_codecs_match_the_index_on_every_byte(name: str) -> None:
    assert bytes(range(256)).decode(NATIVE_EXACT[name], "replace") == _index_decode(name)


@pytest.mark.skipif(not WHATWG_DATA.is_dir(), reason="spec data not present")
@pytest.mark.parametrize("name", ["windows-1252", "windows-1250", "KOI8-U", "windows-874"])
def test_excluded_single_byte_codecs_really_differ_and_the_chosen_codec_is_exact(name: str) -> None:
    cpython = {"KOI8-U": "koi8-u", "windows-874": "cp874"}.get(name, name)
    assert bytes(range(256)).decode(cpython, "replace") != _index_decode(name)
    assert bytes(range(256)).decode(python_codec_name(name), "replace") == _index_decode(name)


@settings(max_examples=150, deadline=None)
@given(body=st.binary(max_size=64), name=st.sampled_from(ALL_NAMES))
def test_codec_name_reproduces_the_standard_decode(body: bytes, name: str) -> None:
    """For every encoding and any bytes without a BOM, the codec gives the standard's "decode" text."""
    enc = lookup(name)
    assert enc is not None
    if any(body.startswith(bom) for bom in BOMS.values()):
        body = b"A" + body
    codec = python_codec_name(name, body)
    assert body.decode(codec, "replace") == enc.decode(body, errors="replace", bom="sniff")


@settings(max_examples=100, deadline=None)
@given(body=st.binary(max_size=64), name=st.sampled_from(sorted(BOMS)), split=st.integers(0, 70))
def test_bom_codecs_strip_one_bom_like_the_standard(body: bytes, name: str, split: int) -> None:
    data = BOMS[name] + body
    enc = lookup(name)
    assert enc is not None
    codec = python_codec_name(name, data)
    expected = enc.decode(data, errors="replace", bom="sniff")
    assert data.decode(codec, "replace") == expected
    # httpx decodes incrementally: any split gives the same text
    decoder = codecs.getincrementaldecoder(codec)("replace")
    assert decoder.decode(data[:split]) + decoder.decode(data[split:], final=True) == expected


def test_choices() -> None:
    assert python_codec_name("UTF-8", b"<p>") == "utf-8"
    assert python_codec_name("UTF-8", b"\xef\xbb\xbf<p>") == "utf-8-sig"
    assert python_codec_name("UTF-16BE", b"\xfe\xff\x00<") == "utf-16"
    assert python_codec_name("Shift_JIS", b"") == "whatwg-shift_jis"
    assert python_codec_name("x-user-defined") == "whatwg-x-user-defined"
    assert python_codec_name("ISO-8859-8-I") == "iso-8859-8"


def test_unknown_name_raises_lookup_error() -> None:
    with pytest.raises(UnknownEncodingError):
        python_codec_name("no-such-encoding")
    with pytest.raises(LookupError):
        python_codec_name("cp437")  # a CPython codec, but no WHATWG encoding
