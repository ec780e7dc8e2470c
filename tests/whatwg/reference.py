"""Straight-from-the-spec reference decoders, for tests only: clarity over speed.

Each decoder is a literal transcription of the Encoding Standard's handler (section numbers and step
numbers in comments), run by a literal "process a queue" with a real I/O queue that supports
"restore". They read the standard's own index files from ``../shared/data/whatwg`` (never
``mojifix.whatwg._tables``), so they check the generated tables too.

``reference_decode(decoder, data)`` returns ``(text, errors)`` where ``errors`` lists, for each
decoder error, the (start, end) byte span the decoder consumed for it (what strict mode must report).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED_WHATWG = REPO / ".." / "shared" / "data" / "whatwg"

END_OF_QUEUE = None


class Finished:
    """The handler result "finished"."""


class Continue:
    """The handler result "continue"."""


class Error:
    """The handler result "error"."""


FINISHED, CONTINUE, ERROR = Finished(), Continue(), Error()
Result = Finished | Continue | Error | list[int]


def shared_data() -> Path:
    """The standard's data directory; fail loudly (not skip) when it is missing."""
    if not (SHARED_WHATWG / "encodings.json").is_file():
        raise FileNotFoundError(
            f"WHATWG data not found at {SHARED_WHATWG.resolve()}: the conformance tests need the shared "
            "checkout next to the repository (../shared/data/whatwg)"
        )
    return SHARED_WHATWG


@cache
def encodings_json() -> list[dict]:
    return json.loads((shared_data() / "encodings.json").read_text(encoding="utf-8"))


@cache
def read_index(name: str) -> dict[int, int]:
    """index-<name>.txt as {pointer: code point}, parsed from the standard's file."""
    entries: dict[int, int] = {}
    for line in (shared_data() / f"index-{name}.txt").read_text(encoding="utf-8").split("\n"):
        if line.strip() and not line.startswith("#"):
            pointer, code_point = line.split("\t")[:2]
            entries[int(pointer)] = int(code_point, 16)
    return entries


class IOQueue:
    """An I/O queue of bytes: read one item (or end-of-queue), restore items to the front."""

    def __init__(self, data: bytes) -> None:
        self._items = list(data)
        self._pos = 0
        self.consumed = 0  # bytes read and not restored

    def read(self) -> int | None:
        if self._pos == len(self._items):
            return END_OF_QUEUE
        item = self._items[self._pos]
        self._pos += 1
        self.consumed += 1
        return item

    def restore(self, items: list[int]) -> None:
        # "restore": insert the items at the front of the queue (we only ever restore what was just read)
        self._items[self._pos : self._pos] = items
        self.consumed -= len(items)


def reference_decode(decoder: Decoder, data: bytes) -> tuple[str, list[tuple[int, int]]]:
    """ "Process a queue" in "replacement" mode, also recording each error's consumed byte span."""
    queue = IOQueue(data)
    out: list[str] = []
    errors: list[tuple[int, int]] = []
    start = 0
    while True:
        result = decoder.handler(queue, queue.read())
        if result is FINISHED:
            return "".join(out), errors
        if result is ERROR:
            out.append("\ufffd")
            errors.append((start, queue.consumed))
            start = queue.consumed
        elif isinstance(result, list):
            out.extend(map(chr, result))
            start = queue.consumed


class Decoder:
    def handler(self, queue: IOQueue, byte: int | None) -> Result:
        raise NotImplementedError


class Utf8Decoder(Decoder):
    """https://encoding.spec.whatwg.org/#utf-8-decoder"""

    def __init__(self) -> None:
        self.code_point = 0
        self.bytes_seen = 0
        self.bytes_needed = 0
        self.lower_boundary = 0x80
        self.upper_boundary = 0xBF

    def handler(self, queue: IOQueue, byte: int | None) -> Result:
        # 1.
        if byte is END_OF_QUEUE and self.bytes_needed != 0:
            self.bytes_needed = 0
            return ERROR
        # 2.
        if byte is END_OF_QUEUE:
            return FINISHED
        # 3.
        if self.bytes_needed == 0:
            if 0x00 <= byte <= 0x7F:
                return [byte]
            elif 0xC2 <= byte <= 0xDF:
                self.bytes_needed = 1
                self.code_point = byte & 0x1F
            elif 0xE0 <= byte <= 0xEF:
                if byte == 0xE0:
                    self.lower_boundary = 0xA0
                if byte == 0xED:
                    self.upper_boundary = 0x9F
                self.bytes_needed = 2
                self.code_point = byte & 0xF
            elif 0xF0 <= byte <= 0xF4:
                if byte == 0xF0:
                    self.lower_boundary = 0x90
                if byte == 0xF4:
                    self.upper_boundary = 0x8F
                self.bytes_needed = 3
                self.code_point = byte & 0x7
            else:
                return ERROR
            return CONTINUE
        # 4.
        if not self.lower_boundary <= byte <= self.upper_boundary:
            self.code_point = self.bytes_needed = self.bytes_seen = 0
            self.lower_boundary, self.upper_boundary = 0x80, 0xBF
            queue.restore([byte])
            return ERROR
        # 5.-7.
        self.lower_boundary, self.upper_boundary = 0x80, 0xBF
        self.code_point = (self.code_point << 6) | (byte & 0x3F)
        self.bytes_seen += 1
        # 8.
        if self.bytes_seen != self.bytes_needed:
            return CONTINUE
        # 9.-11.
        code_point = self.code_point
        self.code_point = self.bytes_needed = self.bytes_seen = 0
        return [code_point]


class Utf16Decoder(Decoder):
    """https://encoding.spec.whatwg.org/#shared-utf-16-decoder"""

    def __init__(self, is_utf16be: bool) -> None:
        self.lead_byte: int | None = None
        self.lead_surrogate: int | None = None
        self.is_utf16be = is_utf16be

    def handler(self, queue: IOQueue, byte: int | None) -> Result:
        # 1.
        if byte is END_OF_QUEUE and (self.lead_byte is not None or self.lead_surrogate is not None):
            self.lead_byte = self.lead_surrogate = None
            return ERROR
        # 2.
        if byte is END_OF_QUEUE:
            return FINISHED
        # 3.
        if self.lead_byte is None:
            self.lead_byte = byte
            return CONTINUE
        # 4.
        code_unit = (self.lead_byte << 8) + byte if self.is_utf16be else (byte << 8) + self.lead_byte
        # 5.
        self.lead_byte = None
        # 6.
        if self.lead_surrogate is not None:
            lead_surrogate = self.lead_surrogate
            self.lead_surrogate = None
            if 0xDC00 <= code_unit <= 0xDFFF:
                # scalar value from surrogates
                return [0x10000 + ((lead_surrogate - 0xD800) << 10) + (code_unit - 0xDC00)]
            byte1, byte2 = code_unit >> 8, code_unit & 0x00FF
            queue.restore([byte1, byte2] if self.is_utf16be else [byte2, byte1])
            return ERROR
        # 7.
        if 0xD800 <= code_unit <= 0xDBFF:
            self.lead_surrogate = code_unit
            return CONTINUE
        # 8.
        if 0xDC00 <= code_unit <= 0xDFFF:
            return ERROR
        # 9.
        return [code_unit]


class SingleByteDecoder(Decoder):
    """https://encoding.spec.whatwg.org/#single-byte-decoder"""

    def __init__(self, index: dict[int, int]) -> None:
        self.index = index

    def handler(self, queue: IOQueue, byte: int | None) -> Result:
        # 1.
        if byte is END_OF_QUEUE:
            return FINISHED
        # 2.
        if byte <= 0x7F:
            return [byte]
        # 3.
        code_point = self.index.get(byte - 0x80)
        # 4.
        if code_point is None:
            return ERROR
        # 5.
        return [code_point]


class XUserDefinedDecoder(Decoder):
    """https://encoding.spec.whatwg.org/#x-user-defined-decoder"""

    def handler(self, queue: IOQueue, byte: int | None) -> Result:
        if byte is END_OF_QUEUE:
            return FINISHED
        if byte <= 0x7F:
            return [byte]
        return [0xF780 + byte - 0x80]


class ReplacementDecoder(Decoder):
    """https://encoding.spec.whatwg.org/#replacement-decoder"""

    def __init__(self) -> None:
        self.error_returned = False

    def handler(self, queue: IOQueue, byte: int | None) -> Result:
        if byte is END_OF_QUEUE:
            return FINISHED
        if not self.error_returned:
            self.error_returned = True
            return ERROR
        return FINISHED


@dataclass(frozen=True)
class ReferenceEncoding:
    name: str
    new_decoder: Callable[[], Decoder]


def single_byte_names() -> list[str]:
    """The 28 single-byte encodings' names, from encodings.json."""
    for group in encodings_json():
        if group["heading"] == "Legacy single-byte encodings":
            return [enc["name"] for enc in group["encodings"]]
    raise AssertionError("encodings.json has no single-byte group")


def single_byte_index_name(name: str) -> str:
    """The index a single-byte encoding uses (ISO-8859-8-I shares ISO-8859-8's)."""
    return "iso-8859-8" if name == "ISO-8859-8-I" else name.lower()


@cache
def reference_encodings() -> dict[str, ReferenceEncoding]:
    """name -> reference decoder factory, for every encoding this module covers (32 of 40)."""
    refs = {
        "UTF-8": ReferenceEncoding("UTF-8", Utf8Decoder),
        "UTF-16BE": ReferenceEncoding("UTF-16BE", lambda: Utf16Decoder(True)),
        "UTF-16LE": ReferenceEncoding("UTF-16LE", lambda: Utf16Decoder(False)),
        "x-user-defined": ReferenceEncoding("x-user-defined", XUserDefinedDecoder),
        "replacement": ReferenceEncoding("replacement", ReplacementDecoder),
    }
    for name in single_byte_names():
        index = read_index(single_byte_index_name(name))
        refs[name] = ReferenceEncoding(name, lambda index=index: SingleByteDecoder(index))
    return refs


def decode(name: str, data: bytes) -> tuple[str, list[tuple[int, int]]]:
    """Reference-decode ``data`` with the named encoding (no BOM handling)."""
    return reference_decode(reference_encodings()[name].new_decoder(), data)
