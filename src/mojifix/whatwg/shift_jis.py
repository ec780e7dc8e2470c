"""Shift_JIS (https://encoding.spec.whatwg.org/#shift_jis).

The standard's Shift_JIS is Windows code page 932 with the EUDC Private Use area; the fast path is
CPython's ``cp932``, see docs/whatwg-cpython-differences.md for the measured differences.
"""

from __future__ import annotations

from collections.abc import Container
from types import ModuleType

from mojifix.whatwg._cjk import CompiledDecoder, StatelessCjkCodec, Step, encode_table_base
from mojifix.whatwg._tables import INDEXES, NO_ENTRY

__all__ = ["CODECS", "ShiftJis"]

#: Pointers 8836-10715 decode to U+E000-U+E757 (spec: Shift_JIS decoder, step 3.7: Windows EUDC).
EUDC_FIRST, EUDC_LAST = 8836, 10715
#: The encoder ignores these jis0208 pointers (NEC duplicates of IBM extensions; spec: index
#: Shift_JIS pointer, step 1).
ENCODER_SKIP_FIRST, ENCODER_SKIP_LAST = 8272, 8835


def make_step() -> Step:
    """The Shift_JIS decoder (spec: Shift_JIS decoder), one item at a time from a clean state."""
    index = INDEXES["jis0208"]
    size = len(index)

    def step(data: bytes, i: int, n: int) -> tuple[str | None, int]:
        byte = data[i]
        if byte <= 0x80:  # step 4: ASCII byte or 0x80
            return chr(byte), i + 1
        if 0xA1 <= byte <= 0xDF:  # step 5: halfwidth katakana
            return chr(0xFF61 - 0xA1 + byte), i + 1
        if not (0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC):  # step 7
            return None, i + 1
        if i + 1 >= n:  # step 1
            return None, n
        trail = data[i + 1]  # step 3
        offset = 0x40 if trail < 0x7F else 0x41
        leading_offset = 0x81 if byte < 0xA0 else 0xC1
        if 0x40 <= trail <= 0x7E or 0x80 <= trail <= 0xFC:
            pointer = (byte - leading_offset) * 188 + trail - offset
            if EUDC_FIRST <= pointer <= EUDC_LAST:
                return chr(0xE000 - EUDC_FIRST + pointer), i + 2
            if pointer < size and (char := index[pointer]) != NO_ENTRY:
                return char, i + 2
        return None, (i + 1 if trail < 0x80 else i + 2)  # step 3.10: an ASCII byte is restored

    return step


class ShiftJis(StatelessCjkCodec):
    """Shift_JIS (code page 932 as browsers decode it)."""

    name = "Shift_JIS"
    py_codec = "cp932"
    #: CPython's ``shift_jis`` encoder: 5 characters differ (``cp932``: 2,262, its NEC-selected IBM
    #: duplicates and EUDC); the NEC/IBM extensions it lacks go through the error handler
    py_encoder = "shift_jis"
    #: never a trail byte: below 0x40
    sync_bytes = rb"\x00-\x3f"

    def make_step(self) -> Step:
        return make_step()

    def compiled_decoder(self, kernels: ModuleType) -> CompiledDecoder:
        index = INDEXES["jis0208"]
        return lambda data, strict: kernels.shift_jis_decode(data, strict, index)

    def spec_chars(self) -> Container[str]:
        eudc = {chr(c) for c in range(0xE000, 0xE000 + EUDC_LAST - EUDC_FIRST + 1)}
        kana = {chr(c) for c in range(0xFF61, 0xFFA0)}
        return frozenset(INDEXES["jis0208"]) - {NO_ENTRY} | set(map(chr, range(0x81))) | eudc | kana

    def make_encode_table(self) -> dict[int, str]:
        """Spec: Shift_JIS encoder, steps 2-13."""
        table = encode_table_base()
        table[0x80] = "\x80"  # step 2
        table[0xA5] = "\x5c"  # step 3
        table[0x203E] = "\x7e"  # step 4
        for code_point in range(0xFF61, 0xFFA0):  # step 5
            table[code_point] = chr(code_point - 0xFF61 + 0xA1)
        for pointer, char in enumerate(INDEXES["jis0208"]):  # step 7: index Shift_JIS pointer
            if char == NO_ENTRY or ENCODER_SKIP_FIRST <= pointer <= ENCODER_SKIP_LAST:
                continue
            if table.get(ord(char), "\uffff") != "\uffff":
                continue  # the first pointer wins (and steps 2-5 come first)
            leading, trailing = divmod(pointer, 188)
            leading_offset = 0x81 if leading < 0x1F else 0xC1
            offset = 0x40 if trailing < 0x3F else 0x41
            table[ord(char)] = chr(leading + leading_offset) + chr(trailing + offset)
        if 0xFF0D in table:
            table[0x2212] = table[0xFF0D]  # step 6: U+2212 is encoded as U+FF0D
        return table


CODECS = {"Shift_JIS": ShiftJis()}
