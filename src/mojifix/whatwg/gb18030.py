"""gb18030 and GBK (https://encoding.spec.whatwg.org/#legacy-multi-byte-chinese-(simplified)-encodings).

Both share the gb18030 decoder; GBK's encoder is gb18030's with "is GBK" set (U+20AC becomes 0x80
and there are no four-byte sequences). The fast path is CPython's ``gbk`` codec (not ``gb18030``,
which maps 21 characters differently: GB18030-2005 vs 2022); four-byte sequences go through the error
handler. See docs/whatwg-cpython-differences.md.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Container
from types import ModuleType

from mojifix.whatwg._cjk import UNENCODABLE, CompiledDecoder, StatelessCjkCodec, Step
from mojifix.whatwg._tables import INDEX_GB18030_RANGES, INDEXES, NO_ENTRY

__all__ = ["CODECS", "Gb18030", "Gbk"]

#: The gb18030 encoder's asymmetric side table (spec: gb18030 encoder, step 5): Private Use code
#: points that GB18030-2005 put on two bytes, kept so as not to add four-byte Private Use mappings.
ENCODER_SIDE_TABLE: dict[int, bytes] = {
    0xE78D: b"\xa6\xd9",
    0xE78E: b"\xa6\xda",
    0xE78F: b"\xa6\xdb",
    0xE790: b"\xa6\xdc",
    0xE791: b"\xa6\xdd",
    0xE792: b"\xa6\xde",
    0xE793: b"\xa6\xdf",
    0xE794: b"\xa6\xec",
    0xE795: b"\xa6\xed",
    0xE796: b"\xa6\xf3",
    0xE81E: b"\xfe\x59",
    0xE826: b"\xfe\x61",
    0xE82B: b"\xfe\x66",
    0xE82C: b"\xfe\x67",
    0xE832: b"\xfe\x6d",
    0xE843: b"\xfe\x7e",
    0xE854: b"\xfe\x90",
    0xE864: b"\xfe\xa0",
}

#: Four-byte pointers: the BMP part ends at 39419, the supplementary planes start at 189000 and
#: end at 1237575 (spec: index gb18030 ranges code point, step 1).
BMP_POINTER_LIMIT = 39419
ASTRAL_POINTER_FIRST = 189000
ASTRAL_POINTER_LAST = 1237575
#: The one four-byte pointer the ranges do not cover (spec: ranges code point, step 2).
POINTER_E7C7 = 7457


def ranges_code_point(pointer: int, starts: list[int]) -> int | None:
    """The standard's "index gb18030 ranges code point"."""
    if BMP_POINTER_LIMIT < pointer < ASTRAL_POINTER_FIRST or pointer > ASTRAL_POINTER_LAST:  # step 1
        return None
    if pointer == POINTER_E7C7:  # step 2
        return 0xE7C7
    k = bisect_right(starts, pointer) - 1  # step 3
    offset, code_point_offset = INDEX_GB18030_RANGES[k]
    return code_point_offset + pointer - offset  # step 4


def ranges_pointer(code_point: int, firsts: list[int]) -> int:
    """The standard's "index gb18030 ranges pointer"."""
    if code_point == 0xE7C7:  # step 1
        return POINTER_E7C7
    k = bisect_right(firsts, code_point) - 1  # step 2
    pointer_offset, offset = INDEX_GB18030_RANGES[k]
    return pointer_offset + code_point - offset  # step 3


def four_bytes(pointer: int) -> str:
    """The encoder's four bytes for a ranges pointer (spec: gb18030 encoder, steps 10-17), latin-1."""
    byte1, pointer = divmod(pointer, 10 * 126 * 10)
    byte2, pointer = divmod(pointer, 10 * 126)
    byte3, byte4 = divmod(pointer, 10)
    return bytes((byte1 + 0x81, byte2 + 0x30, byte3 + 0x81, byte4 + 0x30)).decode("latin-1")


def ranges_as_uint32() -> bytes:
    """The index gb18030 ranges as the compiled kernels take them: (pointer, code point) pairs of uint32."""
    return array("I", [number for pair in INDEX_GB18030_RANGES for number in pair]).tobytes()


def make_step() -> Step:
    """The gb18030 decoder (spec: gb18030 decoder), one item at a time from a clean state."""
    index = INDEXES["gb18030"]
    size = len(index)
    starts = [p for p, _ in INDEX_GB18030_RANGES]

    def step(data: bytes, i: int, n: int) -> tuple[str | None, int]:
        byte = data[i]
        if byte < 0x80:  # step 6: ASCII byte
            return chr(byte), i + 1
        if byte == 0x80:  # step 7
            return "\u20ac", i + 1
        if byte == 0xFF:  # step 9
            return None, i + 1
        # step 8: first = byte
        if i + 1 >= n:  # step 2: end-of-queue with first set
            return None, n
        second = data[i + 1]
        if 0x30 <= second <= 0x39:  # step 5.1: four-byte sequence
            if i + 2 >= n:
                return None, n
            third = data[i + 2]
            if not 0x81 <= third <= 0xFE:  # step 4.2: restore « second, byte »
                return None, i + 1
            if i + 3 >= n:
                return None, n
            fourth = data[i + 3]
            if not 0x30 <= fourth <= 0x39:  # step 3.1: restore « second, third, byte »
                return None, i + 1
            pointer = (byte - 0x81) * 12600 + (second - 0x30) * 1260 + (third - 0x81) * 10 + fourth - 0x30
            code_point = ranges_code_point(pointer, starts)  # steps 3.2-3.5
            return (None if code_point is None else chr(code_point)), i + 4
        offset = 0x40 if second < 0x7F else 0x41  # steps 5.2-5.10: two bytes
        if 0x40 <= second <= 0x7E or 0x80 <= second <= 0xFE:
            pointer = (byte - 0x81) * 190 + second - offset
            if pointer < size and (char := index[pointer]) != NO_ENTRY:
                return char, i + 2
        return None, (i + 1 if second < 0x80 else i + 2)  # ASCII trail byte is restored

    return step


class AllScalarValues(Container[str]):
    """Stands for "every character": the gb18030 decoder outputs every scalar value but U+E5E5."""

    def __contains__(self, char: object) -> bool:
        return isinstance(char, str)


class Gb18030(StatelessCjkCodec):
    """gb18030: the fast path is CPython's ``gbk`` codec.

    Measured: CPython's ``gbk`` agrees with the standard on every two-byte sequence it accepts and
    rejects all four-byte ones (the error handler decodes those exactly), while CPython's ``gb18030``
    maps 21 characters differently (GB18030-2005 vs 2022), which would need a check of every output.
    """

    name = "gb18030"
    py_codec = "gbk"
    #: CPython's ``gbk`` encoder: no character it encodes differs (measured on every code point)
    py_encoder = "gbk"
    #: never a continuation: below 0x30, and 0x3A-0x3F (only 0x30-0x39 and 0x40+ continue)
    sync_bytes = rb"\x00-\x2f\x3a-\x3f"
    max_sequence_length = 4
    is_gbk = False

    def make_step(self) -> Step:
        return make_step()

    def compiled_decoder(self, kernels: ModuleType) -> CompiledDecoder:
        index = INDEXES["gb18030"]
        ranges = ranges_as_uint32()
        return lambda data, strict: kernels.gb18030_decode(data, strict, index, ranges)

    def spec_chars(self) -> Container[str]:
        return AllScalarValues()

    def make_encode_table(self) -> dict[int, str]:
        """Spec: gb18030 encoder, steps 3-17, for every BMP code point (astral: ``encode_fallback``)."""
        table: dict[int, str] = {}
        for pointer, char in enumerate(INDEXES["gb18030"]):  # step 6: the first pointer wins
            if char != NO_ENTRY and ord(char) >= 0x80:
                leading, trailing = divmod(pointer, 190)
                offset = 0x40 if trailing < 0x3F else 0x41
                table.setdefault(ord(char), chr(leading + 0x81) + chr(trailing + offset))
        for code_point, two in ENCODER_SIDE_TABLE.items():  # step 5 comes before the index
            table[code_point] = two.decode("latin-1")
        if self.is_gbk:
            table[0x20AC] = "\x80"  # step 4
        else:
            firsts = sorted(c for _, c in INDEX_GB18030_RANGES)
            for code_point in range(0x80, 0x10000):
                if code_point not in table and not 0xD800 <= code_point <= 0xDFFF:
                    table[code_point] = four_bytes(ranges_pointer(code_point, firsts))
        table[0xE5E5] = UNENCODABLE  # step 3: U+E5E5 is always an error
        for code_point in range(0x80, 0x100):
            table.setdefault(code_point, UNENCODABLE)
        return table

    def four_byte_ranges(self) -> bytes:
        return b"" if self.is_gbk else ranges_as_uint32()

    def encode_fallback(self, code_point: int) -> str | None:
        if self.is_gbk or code_point < 0x10000:  # step 8 (GBK) / BMP is all in the table
            return None
        firsts = [c for _, c in INDEX_GB18030_RANGES]
        return four_bytes(ranges_pointer(code_point, firsts))


class Gbk(Gb18030):
    """GBK: gb18030's decoder; gb18030's encoder with "is GBK" set."""

    name = "GBK"
    is_gbk = True


CODECS = {"gb18030": Gb18030(), "GBK": Gbk()}
