"""EUC-KR (https://encoding.spec.whatwg.org/#euc-kr).

The standard's EUC-KR is Windows code page 949 (KS X 1001 plus the Unified Hangul Code); the fast
path is CPython's ``cp949``, see docs/whatwg-cpython-differences.md for the measured differences.
"""

from __future__ import annotations

from collections.abc import Container
from types import ModuleType

from mojifix.whatwg._cjk import CompiledDecoder, StatelessCjkCodec, Step, encode_table_base
from mojifix.whatwg._tables import INDEXES, NO_ENTRY

__all__ = ["CODECS", "EucKr"]


def make_step() -> Step:
    """The EUC-KR decoder (spec: EUC-KR decoder), one item at a time from a clean state."""
    index = INDEXES["euc-kr"]
    size = len(index)

    def step(data: bytes, i: int, n: int) -> tuple[str | None, int]:
        byte = data[i]
        if byte < 0x80:  # step 4
            return chr(byte), i + 1
        if not 0x81 <= byte <= 0xFE:  # step 6
            return None, i + 1
        if i + 1 >= n:  # step 1
            return None, n
        trail = data[i + 1]  # step 3
        if 0x41 <= trail <= 0xFE:
            pointer = (byte - 0x81) * 190 + trail - 0x41
            if pointer < size and (char := index[pointer]) != NO_ENTRY:
                return char, i + 2
        return None, (i + 1 if trail < 0x80 else i + 2)  # step 3.7: an ASCII byte is restored

    return step


class EucKr(StatelessCjkCodec):
    """EUC-KR (code page 949)."""

    name = "EUC-KR"
    py_codec = "cp949"
    #: no character CPython's ``cp949`` encodes differs (measured on every code point)
    py_encoder = "cp949"
    #: never a trail byte: up to 0x40
    sync_bytes = rb"\x00-\x40"

    def make_step(self) -> Step:
        return make_step()

    def compiled_decoder(self, kernels: ModuleType) -> CompiledDecoder:
        index = INDEXES["euc-kr"]
        return lambda data, strict: kernels.euc_kr_decode(data, strict, index)

    def spec_chars(self) -> Container[str]:
        return frozenset(INDEXES["euc-kr"]) - {NO_ENTRY} | set(map(chr, range(0x80)))

    def make_encode_table(self) -> dict[int, str]:
        """Spec: EUC-KR encoder, steps 3-7 (the first pointer wins)."""
        table = encode_table_base()
        for pointer, char in enumerate(INDEXES["euc-kr"]):
            if char != NO_ENTRY and table.get(ord(char), "\uffff") == "\uffff":
                leading, trailing = divmod(pointer, 190)
                table[ord(char)] = chr(leading + 0x81) + chr(trailing + 0x41)
        return table


CODECS = {"EUC-KR": EucKr()}
