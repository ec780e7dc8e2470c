"""The public interface of mojifix.whatwg: lookup, Encoding, BOM modes, errors, bad input."""

from __future__ import annotations

import codecs

import pytest

import mojifix
from mojifix.errors import DecodeError, EncodeError, UnknownEncodingError
from mojifix.whatwg import (
    BomIncrementalDecoder,
    Encoding,
    bom_sniff,
    decode,
    decode_with_bom,
    encode,
    lookup,
)
from mojifix.whatwg._tables import ENCODINGS


def enc(label: str) -> Encoding:
    found = lookup(label)
    assert found is not None, label
    return found


# --- lookup ---------------------------------------------------------------------------------------


def test_lookup_strips_ascii_whitespace_and_ascii_lowercases() -> None:
    assert enc(" \t\n\f\rLATIN1 \r\n").name == "windows-1252"
    assert enc("Shift_JIS").name == "Shift_JIS"
    assert enc("UTF8").name == "UTF-8"


def test_lookup_does_not_fold_non_ascii() -> None:
    # KELVIN SIGN lowercases to "k" under str.lower(); the standard only ASCII-lowercases.
    assert lookup("\u212aoi8-r") is None
    # U+00A0 and U+3000 are not ASCII whitespace
    assert lookup("\u00a0utf-8") is None
    assert lookup("utf-8\u3000") is None
    assert lookup("utf-8\v") is None  # VT is not ASCII whitespace in the Infra standard


def test_lookup_unknown_returns_none() -> None:
    assert lookup("") is None
    assert lookup("utf-7") is None
    assert lookup("x-no-such-thing") is None


def test_lookup_rejects_non_str() -> None:
    with pytest.raises(TypeError, match="label"):
        lookup(b"utf-8")  # type: ignore[arg-type]


def test_encoding_objects() -> None:
    sjis = enc("sjis")
    assert sjis == enc("ms_kanji") == enc("SHIFT_JIS")
    assert sjis.codec_name == "whatwg-shift_jis"
    assert "csshiftjis" in sjis.labels and "shift_jis" in sjis.labels
    assert sjis.labels == tuple(sorted(sjis.labels))
    with pytest.raises(AttributeError):
        sjis.name = "x"  # type: ignore[misc]
    assert len({lookup(name) for name, _ in ENCODINGS}) == 40


def test_output_encoding() -> None:
    assert enc("utf-16le").output_encoding == enc("utf-8")
    assert enc("utf-16be").output_encoding == enc("utf-8")
    assert enc("iso-2022-kr").output_encoding == enc("utf-8")  # replacement
    assert enc("gbk").output_encoding == enc("gbk")


def test_top_level_api_points_here() -> None:
    assert mojifix.lookup is lookup
    assert mojifix.decode is decode
    assert mojifix.Encoding is Encoding


# --- unknown labels and bad input ------------------------------------------------------------------


def test_unknown_label_raises_lookup_error_with_suggestions() -> None:
    with pytest.raises(UnknownEncodingError) as info:
        decode(b"abc", "utf8x")
    assert isinstance(info.value, LookupError)
    assert info.value.label == "utf8x"
    assert "utf8" in info.value.suggestions
    assert "'utf8x'" in str(info.value) and "did you mean" in str(info.value)
    with pytest.raises(LookupError):
        encode("abc", "no-such-label-at-all-zzz")


def test_non_bytes_input_gets_a_helpful_type_error() -> None:
    with pytest.raises(TypeError, match=r"not str.*encode"):
        decode("text", "utf-8")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="bytes"):
        enc("utf-8").decode(12)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="decode the bytes first"):
        encode(b"bytes", "utf-8")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="bytes"):
        bom_sniff("\ufeff")  # type: ignore[arg-type]


def test_bytes_like_input_is_accepted() -> None:
    assert decode(bytearray(b"\xe9"), "latin1") == "é"
    assert decode(memoryview(b"\xe9"), "latin1") == "é"


def test_bad_modes_are_value_errors() -> None:
    with pytest.raises(ValueError, match="'replace' or 'strict'"):
        enc("utf-8").decode(b"", errors="ignore")
    with pytest.raises(ValueError, match="'sniff', 'strip' or 'ignore'"):
        enc("utf-8").decode(b"", bom="keep")
    with pytest.raises(ValueError, match="'strict' or 'html'"):
        enc("utf-8").encode("", errors="replace")


# --- BOM handling --------------------------------------------------------------------------------


def test_bom_sniff() -> None:
    assert bom_sniff(b"\xef\xbb\xbfx") == enc("utf-8")
    assert bom_sniff(b"\xfe\xff") == enc("utf-16be")
    assert bom_sniff(b"\xff\xfe\x00\x00") == enc("utf-16le")  # no UTF-32 sniffing on the web
    assert bom_sniff(b"\xef\xbb") is None
    assert bom_sniff(b"") is None


def test_bom_modes() -> None:
    latin1 = enc("latin1")
    data = b"\xef\xbb\xbfh\xc3\xa9"
    assert latin1.decode(data) == "hé"  # sniff: the BOM overrides the label
    assert latin1.decode(data, bom="strip") == "ï»¿hÃ©"  # not windows-1252's BOM
    assert enc("utf-8").decode(data, bom="strip") == "hé"
    assert enc("utf-8").decode(data, bom="ignore") == "\ufeffhé"
    assert enc("utf-16le").decode(b"\xff\xfeA\x00", bom="strip") == "A"
    assert enc("utf-16be").decode(b"\xff\xfeA\x00", bom="strip") == "\ufffe\u4100"  # noncharacter, no error
    assert enc("utf-16be").decode(b"\xff\xfeA\x00") == "A"  # sniff
    # a UTF-16 BOM wins over the UTF-8 label, and only one BOM is removed
    assert enc("utf-8").decode(b"\xfe\xff\xfe\xff\x00A") == "\ufeffA"


def test_decode_with_bom() -> None:
    text, used, length = decode_with_bom(b"\xfe\xff\x00A", enc("windows-1252"))
    assert (text, used, length) == ("A", enc("utf-16be"), 2)
    text, used, length = decode_with_bom(b"caf\xe9", enc("windows-1252"))
    assert (text, used, length) == ("café", enc("windows-1252"), 0)
    with pytest.raises(TypeError, match="lookup"):
        decode_with_bom(b"", "utf-8")  # type: ignore[arg-type]


# --- strict errors -------------------------------------------------------------------------------


def test_strict_error_names_offset_and_bytes() -> None:
    with pytest.raises(DecodeError) as info:
        decode(b"abc\xe2\x82", "utf-8", errors="strict")
    err = info.value
    assert isinstance(err, UnicodeDecodeError)
    assert (err.encoding, err.start, err.end) == ("UTF-8", 3, 5)
    assert "e2 82" in str(err) and "offset 3" in str(err)


def test_strict_error_offsets_count_the_bom() -> None:
    with pytest.raises(DecodeError) as info:
        decode(b"\xef\xbb\xbfab\xff", "latin1", errors="strict")
    assert (info.value.start, info.value.end, info.value.encoding) == (5, 6, "UTF-8")
    assert info.value.object == b"\xef\xbb\xbfab\xff"


def test_strict_single_byte_error() -> None:
    with pytest.raises(DecodeError) as info:
        decode(b"ab\xa5", "iso-8859-3", errors="strict")
    assert (info.value.start, info.value.end) == (2, 3)


# --- encoders ------------------------------------------------------------------------------------


def test_encode_strict_and_html() -> None:
    assert encode("café €", "windows-1252") == b"caf\xe9 \x80"
    with pytest.raises(EncodeError) as info:
        encode("a€✓b✓", "iso-8859-1")  # the label means windows-1252, which has € but not ✓
    assert (info.value.start, info.value.end) == (2, 3)
    assert isinstance(info.value, UnicodeEncodeError)
    assert encode("a✓😀", "windows-1252", errors="html") == b"a&#10003;&#128512;"
    assert encode("\uf780x", "x-user-defined") == b"\x80x"
    assert encode("é", "x-user-defined", errors="html") == b"&#233;"


def test_encode_lone_surrogates() -> None:
    """Surrogates are not scalar values: strict fails, html treats them as U+FFFD (as browsers do)."""
    for label in ("utf-8", "windows-1252", "utf-16le", "x-user-defined"):
        with pytest.raises(EncodeError) as info:
            encode("a\ud800", label)
        assert (info.value.start, info.value.end) == (1, 2)
    assert encode("a\ud800", "utf-8", errors="html") == b"a\xef\xbf\xbd"
    assert encode("a\udc00", "utf-16be", errors="html") == b"\x00a\xff\xfd"
    assert encode("a\ud800", "windows-1252", errors="html") == b"a&#65533;"
    assert encode("a\ud800", "x-user-defined", errors="html") == b"a&#65533;"


def test_utf16_encode_is_the_inverse_of_the_decoder() -> None:
    assert encode("A😀", "utf-16le") == b"A\x00\x3d\xd8\x00\xde"
    assert encode("A", "utf-16be") == b"\x00A"


def test_replacement_has_no_encoder() -> None:
    with pytest.raises(EncodeError, match="output_encoding"):
        encode("x", "iso-2022-kr")
    assert enc("iso-2022-kr").output_encoding.encode("x") == b"x"


# --- incremental decoding ------------------------------------------------------------------------


def feed(decoder: codecs.IncrementalDecoder, pieces: list[bytes]) -> str:
    out = [decoder.decode(piece) for piece in pieces[:-1]]
    out.append(decoder.decode(pieces[-1], final=True))
    return "".join(out)


def test_incremental_bom_sniffing_byte_by_byte() -> None:
    for data in (
        b"\xef\xbb\xbfh\xc3\xa9",
        b"\xff\xfeA\x00",
        b"\xfe\xff\x00A",
        b"\xef\xbbx",
        b"\xefx",
        b"\xef",
    ):
        pieces = [data[i : i + 1] for i in range(len(data))]
        decoder = enc("windows-1252").incremental_decoder()
        assert feed(decoder, pieces) == enc("windows-1252").decode(data), data
        assert isinstance(decoder, BomIncrementalDecoder)
        assert decoder.encoding_used == (bom_sniff(data) or enc("windows-1252"))


def test_incremental_bom_strip_and_ignore() -> None:
    data = b"\xef\xbb\xbfa\xe2\x82\xac"
    utf8 = enc("utf-8")
    for bom in ("strip", "ignore"):
        decoder = utf8.incremental_decoder(bom=bom)
        assert feed(decoder, [data[:1], data[1:2], data[2:5], data[5:]]) == utf8.decode(data, bom=bom)


def test_incremental_decoder_reset() -> None:
    decoder = enc("utf-8").incremental_decoder()
    decoder.decode(b"\xef\xbb")
    decoder.reset()
    assert decoder.decode(b"ab", final=True) == "ab"


def test_incremental_strict_raises_decode_error() -> None:
    decoder = enc("utf-16le").incremental_decoder(errors="strict", bom="ignore")
    assert decoder.decode(b"A\x00\x00") == "A"
    with pytest.raises(DecodeError):
        decoder.decode(b"\xdc")


# --- the family contract -------------------------------------------------------------------------


def test_every_family_codec_follows_the_contract() -> None:
    from mojifix.whatwg import _CODECS
    from mojifix.whatwg._base import WhatwgCodec

    every = {name: _CODECS[name] for name, _ in ENCODINGS}  # a CJK family is loaded at its first use
    assert sorted(_CODECS) == sorted(every)
    for name, codec in every.items():
        assert isinstance(codec, WhatwgCodec)
        assert codec.name == name
        assert isinstance(codec.incremental_decoder(), codecs.IncrementalDecoder)
        if name not in ("replacement", "UTF-16BE", "UTF-16LE"):
            assert codec.decode(b"abc") == "abc"  # every other encoding is ASCII-compatible


def test_decode_with_bom_strict_offsets() -> None:
    with pytest.raises(DecodeError) as info:
        decode_with_bom(b"\xff\xfeA\x00\x00\xdc", enc("utf-8"), errors="strict")
    assert (info.value.encoding, info.value.start, info.value.end) == ("UTF-16LE", 4, 6)


def test_encoding_cannot_be_made_up() -> None:
    with pytest.raises(ValueError, match="lookup"):
        Encoding("utf-8")  # a label, not a name
    assert Encoding("UTF-8") == enc("utf-8")
    assert lookup("sjis") is lookup("shift_jis")
