"""Big5 (https://encoding.spec.whatwg.org/#big5).

The fast path is CPython's ``big5hkscs`` codec (closest measured: it has the HKSCS extensions the
standard's index includes and the four two-character pointers); the standard's index has about 200
sequences big5hkscs lacks and a few it maps differently; see docs/whatwg-cpython-differences.md.
"""

from __future__ import annotations

from collections.abc import Container
from types import ModuleType

from mojifix.whatwg._cjk import CompiledDecoder, StatelessCjkCodec, Step, encode_table_base
from mojifix.whatwg._tables import INDEXES, NO_ENTRY

__all__ = ["CODECS", "Big5"]

#: Pointers that decode to two code points (spec: Big5 decoder, step 3.6).
TWO_CODE_POINTS = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304", 1166: "\u00ea\u030c"}

#: The encoder ignores pointers below this: Hong Kong extensions (spec: index Big5 pointer, step 1).
ENCODER_FIRST_POINTER = (0xA1 - 0x81) * 157

#: Code points whose LAST pointer the encoder uses (spec: index Big5 pointer, step 2).
LAST_POINTER_CODE_POINTS = frozenset({0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345})


def make_step() -> Step:
    """The Big5 decoder (spec: Big5 decoder), one item at a time from a clean state."""
    index = INDEXES["big5"]
    size = len(index)

    def step(data: bytes, i: int, n: int) -> tuple[str | None, int]:
        byte = data[i]
        if byte < 0x80:  # step 4
            return chr(byte), i + 1
        if not 0x81 <= byte <= 0xFE:  # step 6
            return None, i + 1
        if i + 1 >= n:  # step 1: end-of-queue with a leading byte
            return None, n
        trail = data[i + 1]  # step 3
        offset = 0x40 if trail < 0x7F else 0x62
        if 0x40 <= trail <= 0x7E or 0xA1 <= trail <= 0xFE:
            pointer = (byte - 0x81) * 157 + trail - offset
            two = TWO_CODE_POINTS.get(pointer)
            if two is not None:
                return two, i + 2
            if pointer < size and (char := index[pointer]) != NO_ENTRY:
                return char, i + 2
        return None, (i + 1 if trail < 0x80 else i + 2)  # step 3.9: an ASCII byte is restored

    return step


class Big5(StatelessCjkCodec):
    """Big5 with the standard's HKSCS-including index."""

    name = "Big5"
    py_codec = "big5hkscs"
    #: CPython's ``big5hkscs`` encoder: it has every character of the standard's index. 3,793 characters
    #: differ, 3,769 of them HKSCS characters with a lead byte 0x87-0xA0 (pointers the standard's encoder
    #: excludes); ``big5`` and ``cp950`` differ on only 265 but lack about 950 characters the
    #: standard encodes (e.g. 着 样 无, thousands per MB of Chinese text: one handler call each).
    py_encoder = "big5hkscs"
    #: bytes the standard's encoder never outputs (lead bytes below 0xA1 are excluded pointers and no
    #: trail byte is in 0x80-0xA0): they mark the excluded HKSCS characters in CPython's output. (This
    #: also covers big5hkscs's one context-dependent rule: U+00CA/U+00EA + U+0304/U+030C -> 0x88 x.)
    encoder_marker = bytes(range(0x80, 0xA1))
    #: never a trail byte: below 0x40
    sync_bytes = rb"\x00-\x3f"

    def make_step(self) -> Step:
        return make_step()

    def compiled_decoder(self, kernels: ModuleType) -> CompiledDecoder:
        index = INDEXES["big5"]
        return lambda data, strict: kernels.big5_decode(data, strict, index)

    def spec_chars(self) -> Container[str]:
        return frozenset(INDEXES["big5"]) - {NO_ENTRY} | set(map(chr, range(0x80))) | {"\u0304", "\u030c"}

    def make_encode_table(self) -> dict[int, str]:
        """Spec: Big5 encoder with the index Big5 pointer rules (HKSCS excluded, six last pointers)."""
        table = encode_table_base()
        index = INDEXES["big5"]
        for pointer in range(ENCODER_FIRST_POINTER, len(index)):
            char = index[pointer]
            if char == NO_ENTRY:
                continue
            code_point = ord(char)
            if (
                code_point in table
                and table[code_point] != "\uffff"
                and code_point not in LAST_POINTER_CODE_POINTS
            ):
                continue  # the first pointer wins
            leading, trailing = divmod(pointer, 157)
            offset = 0x40 if trailing < 0x3F else 0x62
            table[code_point] = chr(leading + 0x81) + chr(trailing + offset)
        return table


CODECS = {"Big5": Big5()}
