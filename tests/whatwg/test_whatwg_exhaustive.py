"""Every 1- and 2-byte input (and grids of longer ones) decodes exactly as the spec's reference decoder.

Covers UTF-8, UTF-16BE/LE, the 28 single-byte encodings, x-user-defined and replacement (the CJK
families have their own tests). "Exactly" includes the error cases: the number and position of U+FFFD
in replace mode, and in strict mode the span of the first error.
"""

from __future__ import annotations

import itertools

import pytest
import reference

from mojifix.errors import DecodeError
from mojifix.whatwg import lookup

ALL_REFERENCE = sorted(reference.reference_encodings())
STATEFUL = ["UTF-8", "UTF-16BE", "UTF-16LE", "replacement"]
STATELESS = [name for name in ALL_REFERENCE if name not in STATEFUL]

#: UTF-8 bytes where the decoder's behaviour changes: ASCII, continuation-range edges, every lead class
#: and its special boundaries (E0/ED/F0/F4), and never-valid bytes.
UTF8_EDGES = bytes(
    [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE,
     0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]
)  # fmt: skip
#: UTF-16 bytes: ASCII-ish, the surrogate high bytes (lead D8/DB, trail DC/DF), their neighbours.
UTF16_EDGES = bytes([0x00, 0x41, 0xD7, 0xD8, 0xDB, 0xDC, 0xDF, 0xE0, 0xFF])
UTF16_CORE = bytes([0x00, 0x41, 0xD8, 0xDC, 0xFF])


def assert_same(name: str, data: bytes) -> None:
    """mojifix equals the reference in replace mode, and strict mode raises at the first error's span."""
    encoding = lookup(name)
    expected, errors = reference.decode(name, data)
    assert encoding.decode(data, bom="ignore") == expected, (name, data.hex())
    if not errors:
        assert encoding.decode(data, errors="strict", bom="ignore") == expected
        return
    with pytest.raises(DecodeError) as info:
        encoding.decode(data, errors="strict", bom="ignore")
    assert (info.value.start, info.value.end) == errors[0], (name, data.hex())
    assert info.value.object == data


@pytest.mark.parametrize("name", ALL_REFERENCE)
def test_every_single_byte_input(name: str) -> None:
    for byte in range(256):
        assert_same(name, bytes([byte]))


def test_empty_input() -> None:
    for name in ALL_REFERENCE:
        assert lookup(name).decode(b"", bom="ignore") == "" == reference.decode(name, b"")[0]


@pytest.mark.parametrize("name", STATEFUL)
def test_every_two_byte_input_stateful(name: str) -> None:
    for first, second in itertools.product(range(256), repeat=2):
        assert_same(name, bytes([first, second]))


@pytest.mark.parametrize("name", STATELESS)
def test_every_two_byte_input_stateless(name: str) -> None:
    """The reference decoders here hold no state, so a 2-byte input is the two 1-byte results joined;
    this still runs mojifix on every one of the 65,536 inputs."""
    encoding = lookup(name)
    one = [reference.decode(name, bytes([b]))[0] for b in range(256)]
    for first, second in itertools.product(range(256), repeat=2):
        assert encoding.decode(bytes([first, second]), bom="ignore") == one[first] + one[second]


def test_utf8_three_and_four_byte_grid() -> None:
    for length in (3, 4):
        for data in itertools.product(UTF8_EDGES, repeat=length):
            assert_same("UTF-8", bytes(data))


def test_utf8_all_three_byte_sequences_after_each_lead() -> None:
    """Every (lead, 2nd) pair for leads E0-F4, completed by a continuation byte or a truncation."""
    for lead in range(0xE0, 0xF5):
        for second in range(256):
            for tail in (b"", b"\x80", b"\xbf", b"\x41", b"\x80\x80"):
                assert_same("UTF-8", bytes([lead, second]) + tail)


@pytest.mark.parametrize("name", ["UTF-16BE", "UTF-16LE"])
def test_utf16_surrogate_grid(name: str) -> None:
    for data in itertools.product(UTF16_EDGES, repeat=4):
        assert_same(name, bytes(data))
    for length in (3, 5, 6):
        for data in itertools.product(UTF16_CORE, repeat=length):
            assert_same(name, bytes(data))


def test_known_cases_by_hand() -> None:
    """A few cases worked out by hand from the spec, so the reference itself is checked too."""
    cases = [
        ("UTF-8", b"\xed\xa0\x80", "\ufffd\ufffd\ufffd"),  # surrogate: ED's upper boundary is 0x9F
        ("UTF-8", b"\xf0\x9f\x98", "\ufffd"),  # truncated 4-byte sequence: one error at end of queue
        ("UTF-8", b"\xc0\xaf", "\ufffd\ufffd"),  # overlong: C0 is never a lead
        ("UTF-8", b"\xe2\x82\x41", "\ufffdA"),  # the non-continuation byte is restored and decoded
        ("UTF-16LE", b"\x3d\xd8\x41", "\ufffd"),  # lead surrogate + odd byte: one end-of-queue error
        ("UTF-16LE", b"\x00\xd8\x41\x00", "\ufffdA"),  # lone lead: error, then the unit is restored
        ("UTF-16BE", b"\xdc\x00", "\ufffd"),  # lone trail
        ("UTF-16BE", b"\x00", "\ufffd"),  # odd byte
        ("windows-1252", b"\x80\x81\x8d\x8f\x90\x9d", "€\x81\x8d\x8f\x90\x9d"),  # C1 controls, not errors
        ("ISO-8859-3", b"\xa5", "\ufffd"),  # pointer 37 has no entry
        ("KOI8-U", b"\xae\xbe", "ўЎ"),  # where CPython's koi8_u differs
        ("x-user-defined", b"\x80\xff", "\uf780\uf7ff"),
        ("replacement", b"\x00\x01", "\ufffd"),
    ]
    for name, data, expected in cases:
        assert reference.decode(name, data)[0] == expected, name
        assert lookup(name).decode(data, bom="ignore") == expected, name


def test_every_scalar_value_round_trips_through_utf8_and_utf16() -> None:
    text = "".join(chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF)
    for name, python_codec in (("UTF-8", "utf-8"), ("UTF-16LE", "utf-16-le"), ("UTF-16BE", "utf-16-be")):
        encoding = lookup(name)
        data = encoding.encode(text)
        assert data == text.encode(python_codec)  # the UTF-8 encoder's algorithm, as CPython implements it
        assert encoding.decode(data, errors="strict", bom="ignore") == text


def test_x_user_defined_encoder_inverts_the_decoder() -> None:
    encoding = lookup("x-user-defined")
    for byte in range(256):
        assert encoding.encode(encoding.decode(bytes([byte]), bom="ignore")) == bytes([byte])
    for code_point in (0x80, 0xFF, 0xF77F, 0xF800, 0xFFFD):
        assert encoding.encode(chr(code_point), errors="html") == f"&#{code_point};".encode()
