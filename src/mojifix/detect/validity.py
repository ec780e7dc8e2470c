"""Stage 7: byte-validity filter: a candidate survives only if it decodes every byte of the input.

One hard error disqualifies (with tolerance only for a character cut off by the end of the input).
Single-byte encodings are checked from the byte histogram alone -- a byte value the code page leaves
undefined anywhere in the input kills it -- so the cost does not grow with the number of code pages.
Multi-byte, UTF-16/32 and escape encodings run their (C) incremental decoders over every block while the
input streams in; each stops at its first error and costs nothing after that. With the compiled kernel the
multi-byte decoders are given each block without the interior of its ASCII runs (:class:`Block`), which
decodes with the same errors: Latin text read by a CJK decoder is mostly ASCII.
"""

from __future__ import annotations

import codecs
import re
from array import array
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from mojifix import _native
from mojifix.detect.encodings import REGISTRY, UNDEFINED, EncodingInfo

__all__ = [
    "COMPACT_LOOKAHEAD",
    "ERROR_SPACING",
    "MAX_ERRORS",
    "Block",
    "StreamValidator",
    "compact_ascii_reference",
    "decode_resuming",
    "decoder_class",
    "describe",
    "single_byte_invalid",
    "single_byte_row",
    "single_byte_rows",
    "single_byte_validity",
    "undefined_bytes",
]


#: invalid sequences a multi-byte (CJK) decoder steps over before it gives up: one broken sequence in
#: a long EUC-KR or GB18030 page must still name that encoding, with the errors as evidence, rather
#: than an unrelated single-byte code page that happens to define every byte (issue 12). A file with
#: more errors than this is not in that encoding, or too damaged to call it so. Not tuned on data.
MAX_ERRORS = 8
#: ... and only while the errors are at least this many bytes apart on average (counted from the
#: start of the input): Latin text read by a CJK decoder fails within a few dozen bytes, and giving up
#: there keeps the cost of the tolerance to long texts (the pipeline then asks for 100 non-ASCII bytes
#: per error, pipeline.PARTIAL_BYTES_PER_ERROR). Not tuned on data.
ERROR_SPACING = 100


#: bytes :func:`compact_ascii_reference` keeps at the start of each ASCII run: a multi-byte character
#: is at most four bytes (GB18030's four-byte form, whose second and fourth bytes are ASCII digits), so a
#: decoder deciding on a sequence that starts before the run reads at most its first three bytes. From
#: the codecs' rules, not tuned.
COMPACT_LOOKAHEAD = 3
_ASCII_RUN = re.compile(rb"[\x00-\x7f]+")


def compact_ascii_reference(block: bytes) -> tuple[bytes, bytes, bytes] | None:
    """``block`` without the interior of its ASCII runs, for the multi-byte validators; None when nothing
    would be dropped.

    Of each run of ASCII bytes only the first :data:`COMPACT_LOOKAHEAD` are kept. In every multi-byte
    encoding validated here (GB18030, Shift_JIS/cp932, EUC-KR/cp949, Big5-HKSCS, EUC-JP, Johab: stateless
    decoders) a byte below 0x80 is a whole character, decided without looking further, wherever a
    character can start; a sequence that starts before the run ends within its first three bytes, and
    is decided on the bytes kept. So after them the decoder stands between characters, nothing pending,
    and the rest of the run decodes alike whatever came before: dropping it changes no error and no
    pending byte. Returns the compacted bytes, and for each dropped stretch (but one that ends the block)
    the position in them of the first byte after it and the bytes dropped up to there, as int64 arrays
    in bytes: what maps the errors' positions back to input offsets (:class:`Block`).
    The reference of the compiled ``compact_ascii`` (``mojifix.detect._scoring``).
    """
    pieces: list[bytes] = []
    positions: list[int] = []
    dropped_at: list[int] = []
    dropped = last = 0
    for m in _ASCII_RUN.finditer(block):
        start, end = m.span()
        if end - start > COMPACT_LOOKAHEAD:
            pieces.append(block[last : start + COMPACT_LOOKAHEAD])
            last = end
            dropped += end - start - COMPACT_LOOKAHEAD
            if end < len(block):  # (a run that ends the block leaves nothing after it to map)
                positions.append(end - dropped)
                dropped_at.append(dropped)
    if not dropped:
        return None
    pieces.append(block[last:])
    return b"".join(pieces), array("q", positions).tobytes(), array("q", dropped_at).tobytes()


@dataclass(frozen=True, slots=True)
class Block:
    """One block of the input as the validators are given it: its bytes, their offset in the input, and
    for the multi-byte validators the block without the interior of its ASCII runs (:func:`compact_ascii`,
    None when that drops nothing or the compiled kernel is not active: they then decode every byte)."""

    data: bytes
    offset: int
    compacted: bytes | None = None
    #: (int64 views) where in ``compacted`` each dropped stretch was, and the bytes dropped up to there
    positions: memoryview | None = None
    dropped: memoryview | None = None

    @classmethod
    def of(cls, data: bytes, offset: int, compact: bool) -> Block:
        """The block at ``offset``; compacted when ``compact`` (a multi-byte validator will decode it)."""
        kernel = _compact_kernel() if compact else None
        found = kernel(data) if kernel is not None else None
        if found is None:
            return cls(data, offset)
        compacted, positions, dropped = found
        return cls(data, offset, compacted, memoryview(positions).cast("q"), memoryview(dropped).cast("q"))

    def original(self, at: int) -> int:
        """The input offset of position ``at`` of the compacted bytes (negative: a byte kept pending from
        the block before, which compaction never drops)."""
        if at < 0 or self.positions is None or self.dropped is None:
            return self.offset + at
        j = bisect_right(self.positions, at) - 1
        return self.offset + at + (self.dropped[j] if j >= 0 else 0)


@cache
def _compact_kernel() -> Callable[[bytes], tuple[bytes, bytes, bytes] | None] | None:
    """The compiled ``compact_ascii``, or None (the reference is forced, or it is not built): the multi-byte
    validators then decode every byte (the same results; :func:`compact_ascii_reference` is the compiled
    function's twin, for the tests: in Python it costs more than it saves)."""
    return getattr(_native.detect_kernel(), "compact_ascii", None)


@dataclass(slots=True)
class StreamValidator:
    """Incremental strict decoding of one stateful/multi-byte encoding over the whole input.

    ``error_at`` is the first invalid sequence. Multi-byte decoders resume after an invalid sequence
    and record up to :data:`MAX_ERRORS` of them (``errors``: absolute offsets); one more and the
    validator stops (``broken``). The others (UTF-16/32, escape encodings) stop at the first.

    Decoding is lazy by one block: ``feed`` keeps the block (the caller's :class:`Block`, shared by every
    validator; a multi-byte one decodes its compacted bytes when there are some) and decodes it when the
    next block comes or when a result is first read. So a
    one-block input that an earlier stage decides (valid UTF-8, ASCII) is never decoded in the dozen
    multi-byte encodings, and memory stays at one block; the results are those of decoding each block
    as it came, in the same order.
    """

    info: EncodingInfo
    _decoder: codecs.IncrementalDecoder | None = None
    _error_at: int | None = None
    _error_reason: str = ""
    _errors: list[int] = field(default_factory=list)
    _broken: bool = False
    _pending: Block | None = None

    @classmethod
    def start(cls, info: EncodingInfo) -> StreamValidator:
        return cls(info)

    def feed(self, block: Block) -> None:
        """Validate ``block``, now or when a result is read."""
        self._settle()
        if not self._broken:
            self._pending = block

    def _settle(self) -> None:
        """Decode the block kept by :meth:`feed`, if any."""
        if self._pending is not None:
            block = self._pending
            self._pending = None
            self._decode(block)

    def _decode(self, block: Block) -> None:
        multi = self.info.kind == "multi"
        try:
            if multi and block.compacted is not None:
                _, _, reason, self._broken = decode_resuming(
                    self.decoder, block.compacted, 0, self._errors, True, where=block.original
                )
            else:
                _, _, reason, self._broken = decode_resuming(
                    self.decoder, block.data, block.offset, self._errors, multi
                )
        except UnicodeError as exc:  # ISO-2022 decoders raise plain errors on bad escapes
            if self._error_at is None:
                self._error_at, self._error_reason = block.offset, str(exc)
            self._broken = True
            return
        if self._error_at is None and reason is not None:
            self._error_at, self._error_reason = self._errors[0], reason

    @property
    def decoder(self) -> codecs.IncrementalDecoder:
        """The strict incremental decoder, having decoded every block fed so far."""
        if self._decoder is None:
            self._decoder = decoder_class(self.info.pycodec)("strict")
        self._settle()
        return self._decoder

    @property
    def error_at(self) -> int | None:
        self._settle()
        return self._error_at

    @property
    def error_reason(self) -> str:
        self._settle()
        return self._error_reason

    @property
    def errors(self) -> list[int]:
        self._settle()
        return self._errors

    @property
    def broken(self) -> bool:
        self._settle()
        return self._broken

    @property
    def valid(self) -> bool:
        return self.error_at is None


def decode_resuming(
    decoder: codecs.IncrementalDecoder,
    data: bytes,
    offset: int,
    errors: list[int],
    resume: bool,
    skipped: Callable[[bytes], object] | None = None,
    where: Callable[[int], int] | None = None,
) -> tuple[str, bytes, str | None, bool]:
    """Strictly decode ``data`` (at absolute ``offset``), stepping over invalid sequences.

    The one "resume after an invalid sequence" rule of the UTF-8 and multi-byte validators: each
    error's absolute offset is appended to ``errors``; unless ``resume`` is false, there are more than
    :data:`MAX_ERRORS`, or they are closer than :data:`ERROR_SPACING` bytes on average, the decoder is
    reset and goes on after the sequence (``skipped`` is given the bytes decoded before it). Returns
    (the text of the stretch after the last error, that stretch's bytes, the reason of the first error
    met here or None, whether the decoder gave up). A plain ``UnicodeError`` (a bad ISO-2022 escape)
    propagates. ``where``: ``data`` is a block's compacted bytes (:class:`Block`, ``offset`` then 0, its
    start), and this maps a position in them to the input offset that errors are recorded at.
    """
    reason = None
    while True:
        try:
            return decoder.decode(data, final=False), data, reason, False
        except UnicodeDecodeError as exc:
            # (exc.object is what the decoder had pending followed by ``data``)
            offset += len(data) - len(exc.object)
            at = offset + max(exc.start, 0)
            if where is not None:
                at = where(at)
            errors.append(at)
            if reason is None:
                reason = exc.reason
            # errors closer together than ERROR_SPACING bytes on average: not this encoding
            if not resume or len(errors) > MAX_ERRORS or len(errors) * ERROR_SPACING > at:
                return "", b"", reason, True
            if skipped is not None:
                skipped(exc.object[: exc.start])
            decoder.reset()
            data, offset = exc.object[exc.end :], offset + exc.end


@cache
def decoder_class(pycodec: str) -> type[codecs.IncrementalDecoder]:
    """The codec's incremental decoder class (looked up once per codec, not once per detection)."""
    return codecs.getincrementaldecoder(pycodec)


@cache
def _undefined_masks() -> tuple[dict[str, int], tuple[bytes, ...]]:
    """Row per single-byte encoding (name -> row), and per row the byte values it leaves undefined."""
    infos = [info for info in REGISTRY if info.kind in ("single", "ebcdic")]
    rows = {info.name: i for i, info in enumerate(infos)}
    undefined = tuple(bytes(b for b, ch in enumerate(info.table()) if ch == UNDEFINED) for info in infos)
    return rows, undefined


@cache
def _undefined_bits() -> tuple[tuple[int, int], ...]:
    """(byte value, bit set of the single-byte encodings leaving it undefined), for the byte values
    that some encoding leaves undefined; bit i is row i of :func:`_undefined_masks`."""
    bits = [0] * 256
    for row, values in enumerate(_undefined_masks()[1]):
        for value in values:
            bits[value] |= 1 << row
    return tuple((value, b) for value, b in enumerate(bits) if b)


def single_byte_invalid(counts: Sequence[int]) -> int:
    """Bit set of the single-byte code pages (bit :func:`single_byte_row`) that leave some byte value
    present undefined (``counts``: the byte histogram as a list): :func:`single_byte_validity` from
    Python integers, a few microseconds instead of an [encodings x 256] array operation per call."""
    bad = 0
    for value, bits in _undefined_bits():
        if counts[value]:
            bad |= bits
    return bad


def single_byte_row(name: str) -> int:
    """The bit of single-byte encoding ``name`` in :func:`single_byte_invalid`'s result."""
    return _undefined_masks()[0][name]


def single_byte_rows() -> dict[str, int]:
    """:func:`single_byte_row` of every single-byte encoding (name -> bit; read-only), for callers that
    look up dozens of code pages per call."""
    return _undefined_masks()[0]


def single_byte_validity(hist: Sequence[int]) -> dict[str, bool]:
    """name -> True when no byte value present in the input is undefined in that code page."""
    bad = single_byte_invalid(hist)
    return {name: not bad >> row & 1 for name, row in single_byte_rows().items()}


def undefined_bytes(info: EncodingInfo, hist: Sequence[int]) -> list[int]:
    """Byte values present in the input that ``info`` (single-byte) leaves undefined."""
    rows, undefined = _undefined_masks()
    return [value for value in undefined[rows[info.name]] if hist[value]]


def describe(info: EncodingInfo, bad: Sequence[int]) -> tuple[bool, str]:
    """(valid, detail) for a single-byte encoding given its undefined byte values present."""
    if len(bad):
        listed = ", ".join(f"0x{b:02X}" for b in bad[:4])
        return False, f"byte {listed} undefined in {info.name}"
    return True, f"every byte value defined in {info.name}"
