"""EUC-JP (https://encoding.spec.whatwg.org/#euc-jp).

The fast path is CPython's ``euc_jp`` codec; about 460 sequences differ (e.g. 0xA1 0xC1 is U+301C
in Python and U+FF5E in browsers), see docs/whatwg-cpython-differences.md. Characters that CPython
outputs only for such sequences are translated back; the rest go through the exact path.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from types import ModuleType

from mojifix.whatwg._cjk import CompiledDecoder, StatelessCjkCodec, Step, encode_table_base
from mojifix.whatwg._tables import INDEXES, NO_ENTRY

__all__ = ["CODECS", "EucJp"]


def make_step() -> Step:
    """The EUC-JP decoder (spec: EUC-JP decoder), one item at a time from a clean state."""
    jis0208 = INDEXES["jis0208"]
    jis0212 = INDEXES["jis0212"]

    def lookup(index: str, leading: int, byte: int) -> str | None:
        if 0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE:  # step 5.4
            pointer = (leading - 0xA1) * 94 + byte - 0xA1
            if pointer < len(index) and (char := index[pointer]) != NO_ENTRY:
                return char
        return None

    def step(data: bytes, i: int, n: int) -> tuple[str | None, int]:
        byte = data[i]
        if byte < 0x80:  # step 6
            return chr(byte), i + 1
        if not (byte == 0x8E or byte == 0x8F or 0xA1 <= byte <= 0xFE):  # step 8
            return None, i + 1
        if i + 1 >= n:  # step 1
            return None, n
        second = data[i + 1]
        if byte == 0x8E and 0xA1 <= second <= 0xDF:  # step 3: halfwidth katakana
            return chr(0xFF61 - 0xA1 + second), i + 2
        if byte == 0x8F and 0xA1 <= second <= 0xFE:  # step 4: jis0212, leading = second
            if i + 2 >= n:
                return None, n
            third = data[i + 2]
            char = lookup(jis0212, second, third)
            if char is not None:
                return char, i + 3
            return None, (i + 2 if third < 0x80 else i + 3)  # step 5.7: an ASCII byte is restored
        char = lookup(jis0208, byte, second)  # step 5
        if char is not None:
            return char, i + 2
        return None, (i + 1 if second < 0x80 else i + 2)

    return step


class EucJp(StatelessCjkCodec):
    """EUC-JP (jis0208 plus jis0212 for decoding)."""

    name = "EUC-JP"
    py_codec = "euc_jp"
    py_encoder = "euc_jp"
    #: CPython encodes about 6,000 characters with JIS X 0212 (0x8F x y), which the standard's encoder
    #: never uses (and whose bytes it never outputs): one ``memchr`` finds them all
    encoder_marker = b"\x8f"
    #: never a trail byte: any ASCII byte (trail bytes are 0xA1-0xFE)
    sync_bytes = rb"\x00-\x7f"
    max_sequence_length = 3

    def make_step(self) -> Step:
        return make_step()

    def compiled_decoder(self, kernels: ModuleType) -> CompiledDecoder:
        jis0208, jis0212 = INDEXES["jis0208"], INDEXES["jis0212"]
        return lambda data, strict: kernels.euc_jp_decode(data, strict, jis0208, jis0212)

    def spec_chars(self) -> Container[str]:
        kana = {chr(c) for c in range(0xFF61, 0xFFA0)}
        return (
            (frozenset(INDEXES["jis0208"]) | frozenset(INDEXES["jis0212"])) - {NO_ENTRY}
            | set(map(chr, range(0x80)))
            | kana
        )

    def longer_prefixes(self) -> Iterable[bytes]:
        return [bytes((0x8F, second)) for second in range(256)]

    def make_encode_table(self) -> dict[int, str]:
        """Spec: EUC-JP encoder, steps 2-11 (jis0212 is never used to encode)."""
        table = encode_table_base()
        table[0xA5] = "\x5c"  # step 3
        table[0x203E] = "\x7e"  # step 4
        for code_point in range(0xFF61, 0xFFA0):  # step 5
            table[code_point] = "\x8e" + chr(code_point - 0xFF61 + 0xA1)
        for pointer, char in enumerate(INDEXES["jis0208"]):  # step 7: the first pointer wins
            if char != NO_ENTRY and table.get(ord(char), "\uffff") == "\uffff":
                leading, trailing = divmod(pointer, 94)
                table[ord(char)] = chr(leading + 0xA1) + chr(trailing + 0xA1)
        table[0x2212] = table[0xFF0D]  # step 6
        return table


CODECS = {"EUC-JP": EucJp()}
