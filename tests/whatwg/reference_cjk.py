"""Straight-from-the-spec reference decoders and encoders for the CJK encodings, for tests only.

Literal transcriptions of https://encoding.spec.whatwg.org/ sections 10-13 (gb18030/GBK, Big5,
EUC-JP, ISO-2022-JP, Shift_JIS, EUC-KR): a real I/O queue with "restore", the handlers with their
step numbers, pointers computed as written. They read the standard's index files from
``../shared/data/whatwg`` (not ``mojifix.whatwg._tables``), so they also check the generated tables.
Clarity over speed: nothing here is optimised.

``reference_decode(name, data)`` returns ``(text, errors)``; ``errors`` lists the ``(start, end)``
byte span of each decoder error: from the first byte read since the decoder last emitted something
(or, for ISO-2022-JP, last completed an escape sequence) to the bytes read and not restored.
``reference_encode(name, text, mode)`` runs the encoder in "fatal" mode (returns None on error) or
"html" mode.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from pathlib import Path
from typing import ClassVar

REPO = Path(__file__).resolve().parents[2]
SHARED_WHATWG = REPO / ".." / "shared" / "data" / "whatwg"

END_OF_QUEUE = None
FINISHED = "finished"
CONTINUE = "continue"
ERROR = "error"

CJK_NAMES = ("gb18030", "GBK", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR")


@cache
@cache
def index(name: str) -> dict[int, int]:
    """index-<name>.txt parsed as the standard says ("Indexes": split on LF, drop # lines, split on TAB).

    Cached: callers only read it.
    """
    path = SHARED_WHATWG / f"index-{name}.txt"
    if not path.is_file():
        raise FileNotFoundError(f"{path.resolve()} is missing: the CJK tests need ../shared/data/whatwg")
    entries: dict[int, int] = {}
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line == "" or line.startswith("#"):
            continue
        pointer, code_point = line.split("\t")[:2]
        entries[int(pointer)] = int(code_point, 16)
    return entries


def index_code_point(pointer: int | None, name: str) -> int | None:
    """The standard's "index code point"."""
    return None if pointer is None else index(name).get(pointer)


@cache
def _first_pointers(name: str) -> dict[int, int]:
    first: dict[int, int] = {}
    for pointer, code_point in sorted(index(name).items()):
        first.setdefault(code_point, pointer)
    return first


def index_pointer(code_point: int, name: str) -> int | None:
    """The standard's "index pointer": the FIRST pointer for the code point."""
    return _first_pointers(name).get(code_point)


def ranges_code_point(pointer: int) -> int | None:
    """index gb18030 ranges code point."""
    if 39419 < pointer < 189000 or pointer > 1237575:  # 1.
        return None
    if pointer == 7457:  # 2.
        return 0xE7C7
    ranges = index("gb18030-ranges")
    offset = max(p for p in ranges if p <= pointer)  # 3.
    return ranges[offset] + pointer - offset  # 4.


def ranges_pointer(code_point: int) -> int:
    """index gb18030 ranges pointer."""
    if code_point == 0xE7C7:  # 1.
        return 7457
    ranges = index("gb18030-ranges")
    pointer_offset, offset = max(((p, c) for p, c in ranges.items() if c <= code_point), key=lambda pc: pc[1])
    return pointer_offset + code_point - offset  # 3.


@cache
def _pointers(name: str) -> dict[int, list[int]]:
    """code point -> all its pointers in the index (the search below, done once)."""
    found: dict[int, list[int]] = {}
    for pointer, code_point in index(name).items():
        found.setdefault(code_point, []).append(pointer)
    return found


def shift_jis_pointer(code_point: int) -> int | None:
    """index Shift_JIS pointer: jis0208 without pointers 8272-8835, first pointer."""
    candidates = [p for p in _pointers("jis0208").get(code_point, ()) if not 8272 <= p <= 8835]
    return min(candidates) if candidates else None


def big5_pointer(code_point: int) -> int | None:
    """index Big5 pointer: no pointers below (0xA1-0x81)*157; LAST pointer for six code points."""
    candidates = [p for p in _pointers("big5").get(code_point, ()) if p >= (0xA1 - 0x81) * 157]
    if not candidates:
        return None
    if code_point in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):  # 2.
        return max(candidates)
    return min(candidates)  # 3.


def is_ascii_byte(byte: int) -> bool:
    return 0x00 <= byte <= 0x7F


class IOQueue:
    """An I/O queue of bytes with "read" and "restore"; tracks bytes read and not restored."""

    def __init__(self, data: bytes) -> None:
        self.items = deque(data)
        self.consumed = 0

    def read(self) -> int | None:
        if not self.items:
            return END_OF_QUEUE
        self.consumed += 1
        return self.items.popleft()

    def restore(self, items: list[int]) -> None:
        """Insert ``items`` (in order) at the front of the queue."""
        self.items.extendleft(reversed(items))
        self.consumed -= len(items)


# --- decoders ----------------------------------------------------------------------------------------


class Gb18030Decoder:
    """https://encoding.spec.whatwg.org/#gb18030-decoder"""

    def __init__(self) -> None:
        self.first = self.second = self.third = 0x00

    def at_rest(self) -> bool:
        return self.first == self.second == self.third == 0x00

    def handler(self, queue: IOQueue, byte: int | None):
        if byte is END_OF_QUEUE and self.first == self.second == self.third == 0x00:  # 1.
            return FINISHED
        if byte is END_OF_QUEUE:  # 2.
            self.first = self.second = self.third = 0x00
            return ERROR
        if self.third != 0x00:  # 3.
            if not 0x30 <= byte <= 0x39:  # 3.1
                queue.restore([self.second, self.third, byte])
                self.first = self.second = self.third = 0x00
                return ERROR
            code_point = ranges_code_point(  # 3.2
                (self.first - 0x81) * (10 * 126 * 10)
                + (self.second - 0x30) * (10 * 126)
                + (self.third - 0x81) * 10
                + byte
                - 0x30
            )
            self.first = self.second = self.third = 0x00  # 3.3
            if code_point is None:  # 3.4
                return ERROR
            return [code_point]  # 3.5
        if self.second != 0x00:  # 4.
            if 0x81 <= byte <= 0xFE:  # 4.1
                self.third = byte
                return CONTINUE
            queue.restore([self.second, byte])  # 4.2
            self.first = self.second = 0x00
            return ERROR
        if self.first != 0x00:  # 5.
            if 0x30 <= byte <= 0x39:  # 5.1
                self.second = byte
                return CONTINUE
            leading = self.first  # 5.2
            self.first = 0x00  # 5.3
            pointer = None  # 5.4
            offset = 0x40 if byte < 0x7F else 0x41  # 5.5
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE:  # 5.6
                pointer = (leading - 0x81) * 190 + (byte - offset)
            code_point = index_code_point(pointer, "gb18030")  # 5.7
            if code_point is not None:  # 5.8
                return [code_point]
            if is_ascii_byte(byte):  # 5.9
                queue.restore([byte])
            return ERROR  # 5.10
        if is_ascii_byte(byte):  # 6.
            return [byte]
        if byte == 0x80:  # 7.
            return [0x20AC]
        if 0x81 <= byte <= 0xFE:  # 8.
            self.first = byte
            return CONTINUE
        return ERROR  # 9.


class Big5Decoder:
    """https://encoding.spec.whatwg.org/#big5-decoder"""

    TWO: ClassVar[dict[int, list[int]]] = {
        1133: [0x00CA, 0x0304],
        1135: [0x00CA, 0x030C],
        1164: [0x00EA, 0x0304],
        1166: [0x00EA, 0x030C],
    }

    def __init__(self) -> None:
        self.leading = 0x00

    def at_rest(self) -> bool:
        return self.leading == 0x00

    def handler(self, queue: IOQueue, byte: int | None):
        if byte is END_OF_QUEUE and self.leading != 0x00:  # 1.
            self.leading = 0x00
            return ERROR
        if byte is END_OF_QUEUE:  # 2.
            return FINISHED
        if self.leading != 0x00:  # 3.
            leading = self.leading  # 3.1
            self.leading = 0x00  # 3.2
            pointer = None  # 3.3
            offset = 0x40 if byte < 0x7F else 0x62  # 3.4
            if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:  # 3.5
                pointer = (leading - 0x81) * 157 + (byte - offset)
            if pointer in self.TWO:  # 3.6
                return list(self.TWO[pointer])
            code_point = index_code_point(pointer, "big5")  # 3.7
            if code_point is not None:  # 3.8
                return [code_point]
            if is_ascii_byte(byte):  # 3.9
                queue.restore([byte])
            return ERROR  # 3.10
        if is_ascii_byte(byte):  # 4.
            return [byte]
        if 0x81 <= byte <= 0xFE:  # 5.
            self.leading = byte
            return CONTINUE
        return ERROR  # 6.


class EucJpDecoder:
    """https://encoding.spec.whatwg.org/#euc-jp-decoder"""

    def __init__(self) -> None:
        self.jis0212 = False
        self.leading = 0x00

    def at_rest(self) -> bool:
        return self.leading == 0x00

    def handler(self, queue: IOQueue, byte: int | None):
        if byte is END_OF_QUEUE and self.leading != 0x00:  # 1.
            self.leading = 0x00
            return ERROR
        if byte is END_OF_QUEUE:  # 2.
            return FINISHED
        if self.leading == 0x8E and 0xA1 <= byte <= 0xDF:  # 3.
            self.leading = 0x00
            return [0xFF61 - 0xA1 + byte]
        if self.leading == 0x8F and 0xA1 <= byte <= 0xFE:  # 4.
            self.jis0212 = True
            self.leading = byte
            return CONTINUE
        if self.leading != 0x00:  # 5.
            leading = self.leading  # 5.1
            self.leading = 0x00  # 5.2
            code_point = None  # 5.3
            if 0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE:  # 5.4
                pointer = (leading - 0xA1) * 94 + byte - 0xA1
                code_point = index_code_point(pointer, "jis0212" if self.jis0212 else "jis0208")
            self.jis0212 = False  # 5.5
            if code_point is not None:  # 5.6
                return [code_point]
            if is_ascii_byte(byte):  # 5.7
                queue.restore([byte])
            return ERROR  # 5.8
        if is_ascii_byte(byte):  # 6.
            return [byte]
        if byte in (0x8E, 0x8F) or 0xA1 <= byte <= 0xFE:  # 7.
            self.leading = byte
            return CONTINUE
        return ERROR  # 8.


class Iso2022JpDecoder:
    """https://encoding.spec.whatwg.org/#iso-2022-jp-decoder"""

    def __init__(self) -> None:
        self.state = "ASCII"
        self.output_state = "ASCII"
        self.leading = 0x00
        self.output = False

    def at_rest(self) -> bool:
        return self.state in ("ASCII", "Roman", "katakana", "leading byte")

    def handler(self, queue: IOQueue, byte: int | None):
        state = self.state
        if state in ("ASCII", "Roman"):
            if byte == 0x1B:
                self.state = "escape start"
                return CONTINUE
            if state == "Roman" and byte == 0x5C:
                self.output = False
                return [0x00A5]
            if state == "Roman" and byte == 0x7E:
                self.output = False
                return [0x203E]
            if byte is not END_OF_QUEUE and 0x00 <= byte <= 0x7F and byte not in (0x0E, 0x0F, 0x1B):
                self.output = False
                return [byte]
            if byte is END_OF_QUEUE:
                return FINISHED
            self.output = False
            return ERROR
        if state == "katakana":
            if byte == 0x1B:
                self.state = "escape start"
                return CONTINUE
            if byte is not END_OF_QUEUE and 0x21 <= byte <= 0x5F:
                self.output = False
                return [0xFF61 - 0x21 + byte]
            if byte is END_OF_QUEUE:
                return FINISHED
            self.output = False
            return ERROR
        if state == "leading byte":
            if byte == 0x1B:
                self.state = "escape start"
                return CONTINUE
            if byte is not END_OF_QUEUE and 0x21 <= byte <= 0x7E:
                self.output = False
                self.leading = byte
                self.state = "trailing byte"
                return CONTINUE
            if byte is END_OF_QUEUE:
                return FINISHED
            self.output = False
            return ERROR
        if state == "trailing byte":
            if byte == 0x1B:
                self.state = "escape start"
                return ERROR
            if byte is not END_OF_QUEUE and 0x21 <= byte <= 0x7E:
                self.state = "leading byte"  # 1.
                pointer = (self.leading - 0x21) * 94 + byte - 0x21  # 2.
                code_point = index_code_point(pointer, "jis0208")  # 3.
                if code_point is None:  # 4.
                    return ERROR
                return [code_point]  # 5.
            self.state = "leading byte"  # end-of-queue and otherwise
            return ERROR
        if state == "escape start":
            if byte in (0x24, 0x28):  # 1.
                self.leading = byte
                self.state = "escape"
                return CONTINUE
            if byte is not END_OF_QUEUE:  # 2.
                queue.restore([byte])
            self.output = False  # 3.
            self.state = self.output_state
            return ERROR
        assert state == "escape"
        leading = self.leading  # 1.
        self.leading = 0x00
        new_state = None  # 2.
        if leading == 0x28 and byte == 0x42:  # 3.
            new_state = "ASCII"
        if leading == 0x28 and byte == 0x4A:  # 4.
            new_state = "Roman"
        if leading == 0x28 and byte == 0x49:  # 5.
            new_state = "katakana"
        if leading == 0x24 and byte in (0x40, 0x42):  # 6.
            new_state = "leading byte"
        if new_state is not None:  # 7.
            self.state = self.output_state = new_state
            output = self.output
            self.output = True
            return CONTINUE if output is False else ERROR
        if byte is END_OF_QUEUE:  # 8.
            queue.restore([leading])
        else:
            queue.restore([leading, byte])
        self.output = False  # 9.
        self.state = self.output_state
        return ERROR


class ShiftJisDecoder:
    """https://encoding.spec.whatwg.org/#shift_jis-decoder"""

    def __init__(self) -> None:
        self.leading = 0x00

    def at_rest(self) -> bool:
        return self.leading == 0x00

    def handler(self, queue: IOQueue, byte: int | None):
        if byte is END_OF_QUEUE and self.leading != 0x00:  # 1.
            self.leading = 0x00
            return ERROR
        if byte is END_OF_QUEUE:  # 2.
            return FINISHED
        if self.leading != 0x00:  # 3.
            leading = self.leading  # 3.1
            self.leading = 0x00  # 3.2
            pointer = None  # 3.3
            offset = 0x40 if byte < 0x7F else 0x41  # 3.4
            leading_offset = 0x81 if leading < 0xA0 else 0xC1  # 3.5
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:  # 3.6
                pointer = (leading - leading_offset) * 188 + byte - offset
            if pointer is not None and 8836 <= pointer <= 10715:  # 3.7
                return [0xE000 - 8836 + pointer]
            code_point = index_code_point(pointer, "jis0208")  # 3.8
            if code_point is not None:  # 3.9
                return [code_point]
            if is_ascii_byte(byte):  # 3.10
                queue.restore([byte])
            return ERROR  # 3.11
        if is_ascii_byte(byte) or byte == 0x80:  # 4.
            return [byte]
        if 0xA1 <= byte <= 0xDF:  # 5.
            return [0xFF61 - 0xA1 + byte]
        if 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC:  # 6.
            self.leading = byte
            return CONTINUE
        return ERROR  # 7.


class EucKrDecoder:
    """https://encoding.spec.whatwg.org/#euc-kr-decoder"""

    def __init__(self) -> None:
        self.leading = 0x00

    def at_rest(self) -> bool:
        return self.leading == 0x00

    def handler(self, queue: IOQueue, byte: int | None):
        if byte is END_OF_QUEUE and self.leading != 0x00:  # 1.
            self.leading = 0x00
            return ERROR
        if byte is END_OF_QUEUE:  # 2.
            return FINISHED
        if self.leading != 0x00:  # 3.
            leading = self.leading  # 3.1
            self.leading = 0x00  # 3.2
            pointer = None  # 3.3
            if 0x41 <= byte <= 0xFE:  # 3.4
                pointer = (leading - 0x81) * 190 + (byte - 0x41)
            code_point = index_code_point(pointer, "euc-kr")  # 3.5
            if code_point is not None:  # 3.6
                return [code_point]
            if is_ascii_byte(byte):  # 3.7
                queue.restore([byte])
            return ERROR  # 3.8
        if is_ascii_byte(byte):  # 4.
            return [byte]
        if 0x81 <= byte <= 0xFE:  # 5.
            self.leading = byte
            return CONTINUE
        return ERROR  # 6.


DECODERS = {
    "gb18030": Gb18030Decoder,
    "GBK": Gb18030Decoder,  # GBK's decoder is gb18030's decoder
    "Big5": Big5Decoder,
    "EUC-JP": EucJpDecoder,
    "ISO-2022-JP": Iso2022JpDecoder,
    "Shift_JIS": ShiftJisDecoder,
    "EUC-KR": EucKrDecoder,
}


def reference_decode(name: str, data: bytes) -> tuple[str, list[tuple[int, int]]]:
    """ "Process a queue" in replacement mode; also each error's consumed byte span."""
    decoder = DECODERS[name]()
    queue = IOQueue(data)
    out: list[str] = []
    errors: list[tuple[int, int]] = []
    start = 0
    while True:
        result = decoder.handler(queue, queue.read())
        if result == FINISHED:
            return "".join(out), errors
        if result == ERROR:
            out.append("\ufffd")
            errors.append((start, queue.consumed))
            start = queue.consumed
        elif result == CONTINUE:
            if decoder.at_rest():  # only ISO-2022-JP: a completed escape sequence
                start = queue.consumed
        else:
            out.extend(map(chr, result))
            start = queue.consumed


# --- encoders ----------------------------------------------------------------------------------------


class EncoderError(Exception):
    """The handler result "error" with a code point."""

    def __init__(self, code_point: int) -> None:
        self.code_point = code_point


def gb18030_encoder(code_point: int, is_gbk: bool) -> list[int]:
    """https://encoding.spec.whatwg.org/#gb18030-encoder (one code point; the queue is not needed)."""
    side_table = {
        0xE78D: (0xA6, 0xD9), 0xE78E: (0xA6, 0xDA), 0xE78F: (0xA6, 0xDB), 0xE790: (0xA6, 0xDC),
        0xE791: (0xA6, 0xDD), 0xE792: (0xA6, 0xDE), 0xE793: (0xA6, 0xDF), 0xE794: (0xA6, 0xEC),
        0xE795: (0xA6, 0xED), 0xE796: (0xA6, 0xF3), 0xE81E: (0xFE, 0x59), 0xE826: (0xFE, 0x61),
        0xE82B: (0xFE, 0x66), 0xE82C: (0xFE, 0x67), 0xE832: (0xFE, 0x6D), 0xE843: (0xFE, 0x7E),
        0xE854: (0xFE, 0x90), 0xE864: (0xFE, 0xA0),
    }  # fmt: skip
    if code_point <= 0x7F:  # 2.
        return [code_point]
    if code_point == 0xE5E5:  # 3.
        raise EncoderError(code_point)
    if is_gbk and code_point == 0x20AC:  # 4.
        return [0x80]
    if code_point in side_table:  # 5.
        return list(side_table[code_point])
    pointer = index_pointer(code_point, "gb18030")  # 6.
    if pointer is not None:  # 7.
        leading = pointer // 190 + 0x81
        trailing = pointer % 190
        offset = 0x40 if trailing < 0x3F else 0x41
        return [leading, trailing + offset]
    if is_gbk:  # 8.
        raise EncoderError(code_point)
    pointer = ranges_pointer(code_point)  # 9.
    byte1 = pointer // (10 * 126 * 10)  # 10.
    pointer = pointer % (10 * 126 * 10)  # 11.
    byte2 = pointer // (10 * 126)  # 12.
    pointer = pointer % (10 * 126)  # 13.
    byte3 = pointer // 10  # 14.
    byte4 = pointer % 10  # 15.
    return [byte1 + 0x81, byte2 + 0x30, byte3 + 0x81, byte4 + 0x30]  # 16.


def big5_encoder(code_point: int) -> list[int]:
    """https://encoding.spec.whatwg.org/#big5-encoder"""
    if code_point <= 0x7F:  # 2.
        return [code_point]
    pointer = big5_pointer(code_point)  # 3.
    if pointer is None:  # 4.
        raise EncoderError(code_point)
    leading = pointer // 157 + 0x81  # 5.
    trailing = pointer % 157  # 6.
    offset = 0x40 if trailing < 0x3F else 0x62  # 7.
    return [leading, trailing + offset]  # 8.


def euc_jp_encoder(code_point: int) -> list[int]:
    """https://encoding.spec.whatwg.org/#euc-jp-encoder"""
    if code_point <= 0x7F:  # 2.
        return [code_point]
    if code_point == 0x00A5:  # 3.
        return [0x5C]
    if code_point == 0x203E:  # 4.
        return [0x7E]
    if 0xFF61 <= code_point <= 0xFF9F:  # 5.
        return [0x8E, code_point - 0xFF61 + 0xA1]
    if code_point == 0x2212:  # 6.
        code_point = 0xFF0D
    pointer = index_pointer(code_point, "jis0208")  # 7.
    if pointer is None:  # 8.
        raise EncoderError(code_point)
    return [pointer // 94 + 0xA1, pointer % 94 + 0xA1]  # 9.-11.


def shift_jis_encoder(code_point: int) -> list[int]:
    """https://encoding.spec.whatwg.org/#shift_jis-encoder"""
    if code_point <= 0x80:  # 2.
        return [code_point]
    if code_point == 0x00A5:  # 3.
        return [0x5C]
    if code_point == 0x203E:  # 4.
        return [0x7E]
    if 0xFF61 <= code_point <= 0xFF9F:  # 5.
        return [code_point - 0xFF61 + 0xA1]
    if code_point == 0x2212:  # 6.
        code_point = 0xFF0D
    pointer = shift_jis_pointer(code_point)  # 7.
    if pointer is None:  # 8.
        raise EncoderError(code_point)
    leading = pointer // 188  # 9.
    leading_offset = 0x81 if leading < 0x1F else 0xC1  # 10.
    trailing = pointer % 188  # 11.
    offset = 0x40 if trailing < 0x3F else 0x41  # 12.
    return [leading + leading_offset, trailing + offset]  # 13.


def euc_kr_encoder(code_point: int) -> list[int]:
    """https://encoding.spec.whatwg.org/#euc-kr-encoder"""
    if code_point <= 0x7F:  # 2.
        return [code_point]
    pointer = index_pointer(code_point, "euc-kr")  # 3.
    if pointer is None:  # 4.
        raise EncoderError(code_point)
    return [pointer // 190 + 0x81, pointer % 190 + 0x41]  # 5.-7.


def iso_2022_jp_encode(text: str, mode: str) -> bytes | None:
    """https://encoding.spec.whatwg.org/#iso-2022-jp-encoder, run over a whole queue (it has state)."""
    queue = [ord(c) for c in text]
    state = "ASCII"
    out: list[int] = []
    while True:
        code_point = queue.pop(0) if queue else END_OF_QUEUE
        error: int | None = None
        if code_point is END_OF_QUEUE:
            if state != "ASCII":  # 1.
                state = "ASCII"
                out += [0x1B, 0x28, 0x42]
                continue
            return bytes(out)  # 2.
        if state in ("ASCII", "Roman") and code_point in (0x0E, 0x0F, 0x1B):  # 3.
            error = 0xFFFD
        elif state == "ASCII" and code_point <= 0x7F:  # 4.
            out.append(code_point)
            continue
        elif state == "Roman" and (
            (code_point <= 0x7F and code_point not in (0x5C, 0x7E)) or code_point in (0xA5, 0x203E)
        ):  # 5.
            out.append({0xA5: 0x5C, 0x203E: 0x7E}.get(code_point, code_point))
            continue
        elif code_point <= 0x7F and state != "ASCII":  # 6.
            queue.insert(0, code_point)
            state = "ASCII"
            out += [0x1B, 0x28, 0x42]
            continue
        elif code_point in (0xA5, 0x203E) and state != "Roman":  # 7.
            queue.insert(0, code_point)
            state = "Roman"
            out += [0x1B, 0x28, 0x4A]
            continue
        else:
            if code_point == 0x2212:  # 8.
                code_point = 0xFF0D
            if 0xFF61 <= code_point <= 0xFF9F:  # 9.
                code_point = index_code_point(code_point - 0xFF61, "iso-2022-jp-katakana")
            pointer = index_pointer(code_point, "jis0208")  # 10.
            if pointer is None:  # 11.
                if state == "jis0208":  # 11.1
                    queue.insert(0, code_point)
                    state = "ASCII"
                    out += [0x1B, 0x28, 0x42]
                    continue
                error = code_point  # 11.2
            elif state != "jis0208":  # 12.
                queue.insert(0, code_point)
                state = "jis0208"
                out += [0x1B, 0x24, 0x42]
                continue
            else:
                out += [pointer // 94 + 0x21, pointer % 94 + 0x21]  # 13.-15.
                continue
        # error: "process an item" in fatal or html mode
        if mode == "fatal":
            return None
        out += b"&#%d;" % error


ENCODERS = {
    "gb18030": lambda cp: gb18030_encoder(cp, is_gbk=False),
    "GBK": lambda cp: gb18030_encoder(cp, is_gbk=True),
    "Big5": big5_encoder,
    "EUC-JP": euc_jp_encoder,
    "Shift_JIS": shift_jis_encoder,
    "EUC-KR": euc_kr_encoder,
}


def reference_encode(name: str, text: str, mode: str = "fatal") -> bytes | None:
    """The standard's "encode" (fatal: None on the first error; html: &#N; for each error)."""
    if name == "ISO-2022-JP":
        return iso_2022_jp_encode(text, mode)
    out = bytearray()
    for char in text:
        try:
            out += bytes(ENCODERS[name](ord(char)))
        except EncoderError as exc:
            if mode == "fatal":
                return None
            out += b"&#%d;" % exc.code_point
    return bytes(out)
