"""Shared machinery of the CJK codecs (gb18030/GBK, Big5, EUC-JP, Shift_JIS, EUC-KR; ISO-2022-JP reuses some).

Why this exists: the standard's decoders are byte-at-a-time state machines, far too slow in pure
Python, while CPython has C codecs that agree with them on almost every valid sequence. So each
codec decodes in three layers:

1. **Exact one-step decoder** (``Step``): runs the standard's decoder from a clean state at one byte
   offset until it emits one item (characters or an error) and says where the standard resumes
   (after "restore", e.g. an ASCII trail byte is read again). Every one of these five decoders is back in
   its initial state after each item, so one step is self-contained. Looping it is the exact slow path.
2. **Fast path**: the nearest CPython codec, with an error handler registered by this module that, at
   each CPython error, runs exactly one exact step and resumes where the standard resumes.
3. **Check and fix-up**: valid sequences that CPython maps differently from the standard are found
   once, exhaustively (every CPython token of 1 and 2 bytes, and EUC-JP's 3-byte ones), when the
   codec is first used. A wrong character that only ever stands for one standard character is fixed
   with ``str.translate``; any other ("slow") character sends the input, cut after sync bytes into
   pieces of about 4 KB, through the exact path piece by piece. The presence test is a few ``in``
   scans (C ``memchr``-like speed) or, for large sets, one compiled character class.

Proof sketch that the fast path is exact when no slow character appears: CPython and the standard both
start clean; every CPython token is, by the exhaustive check, a standard token of the same length
with the same (or translated) output; so both are at the same boundary when CPython reports an error,
where the handler does what the standard does and resumes where the standard resumes, in sync again.
The exhaustive tests (tests/whatwg/test_cjk_exhaustive.py) check the result against a reference.

Encoders work the same way (``EncodePlan``): the nearest CPython encoder with an error handler that runs
the standard's encoder where CPython has no mapping, after every code point has been compared once to
find the characters CPython encodes differently ("wrong"); text with one is cut around it.
"""

from __future__ import annotations

import codecs
import heapq
import re
import sys
from array import array
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from types import ModuleType
from typing import AnyStr

from mojifix import _native
from mojifix.errors import DecodeError, EncodeError
from mojifix.whatwg._base import WhatwgCodec

#: One exact decoder step: ``step(data, i, n) -> (text, j)``; ``text`` is None for a decoder error
#: spanning ``data[i:j]``; decoding resumes at ``j`` (``i < j <= n``).
Step = Callable[[bytes, int, int], "tuple[str | None, int]"]

#: A compiled decoder bound to its tables: ``decoder(data, strict)`` -> the text, or in strict mode the
#: (start, end) of the first decoder error (``mojifix._kernels``; see ``StatelessCjkCodec.compiled_decoder``).
CompiledDecoder = Callable[[bytes, bool], "str | tuple[int, int]"]

REPLACEMENT = "\ufffd"

#: Above this many suspect characters the presence test uses one regex character class (about
#: 650 MB/s here) instead of one ``in`` scan per character (several GB/s each); 24 ``in`` scans
#: cost about the same as the regex on the machine this was measured on.
MAX_SCANNED_SUSPECTS = 24

#: Size of the pieces the exact path cuts an input into before falling back to pure Python for
#: the pieces that need it (about a screenful of text; keeps the slow part small and local).
PIECE_BYTES = 4096

#: Sync bytes: bytes after which a stateless decoder is back in its initial state, having read
#: nothing beyond. A byte its decoder never accepts as a continuation ends any pending sequence (and
#: is then read again and emitted as itself); below 0x30 that holds for all five, so it is the
#: default; each codec widens it to its own set (``StatelessCjkCodec.sync_bytes``).
SYNC_BYTES = b"\x00-\x2f"

#: Inputs up to this many bytes are tested for suspect characters with one ``re`` search of the output
#: (``FastPathPlan.small_prefilter``) instead of the gates and ``in`` scans. Calibrated on the decode
#: benchmark's Big5, EUC-JP and Shift_JIS text (CPU time of ``_fast``): the search wins by 0.2-0.7 us at
#: 60 bytes, ties at 250-400 bytes and loses beyond (by 1.2 us for Big5 at 1,000 bytes).
SMALL_INPUT_BYTES = 320

#: Up to this many distinct first bytes of disagreeing tokens, the input is checked for them (one
#: ``memchr`` each, about 8 us per MB when absent, less when present) before the output is scanned for
#: the characters those tokens output (``FastPathPlan.suspect_groups``). Shift_JIS has 4 (0xA0 and
#: 0xFD-0xFF; the last three never occur in Japanese text, which saves 3 output scans, about 0.1 ms
#: per MB); Big5 has 2 and EUC-JP 3.
MAX_GATE_BYTES = 8


def replace_each(text: str, table: dict[int, str]) -> str:
    """``text.translate(table)`` for a small table, one ``str.replace`` per character present.

    ``str.translate`` looks every character of a non-ASCII text up in the dict (measured: 30 ms per MB
    of Japanese text, 30x CPython's decoding); ``in`` and ``replace`` run at ``memchr`` speed (``in``
    about 10% faster than the search inside ``replace`` when the character is absent). Equal to
    ``translate`` because no replacement is itself a key (the plans only translate characters the
    standard never outputs to characters it does).
    """
    for code_point, replacement in table.items():
        char = chr(code_point)
        if char in text:
            text = text.replace(char, replacement)
    return text


def sequence_pattern(seqs: Iterable[bytes]) -> re.Pattern[bytes]:
    """One pattern matching any of ``seqs`` (compiled once: ``re`` caches it).

    Why not ``seq in data``: CPython's substring search takes 0.6-0.8 ms per MB for a needle of 2-3
    bytes whatever the data, ``re`` 0.26 ms when the first byte is rare and about 0.85 ms when it is
    frequent (Big5 text dense in row 0xA2), and one pass covers every sequence (``re`` turns a shared
    first byte into a literal prefix followed by a character class).
    """
    return re.compile(b"|".join(map(re.escape, sorted(set(seqs)))))


def sync_patterns(byte_class: bytes) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """(any sync byte, the last sync byte and what follows it to the end) for a regex byte class."""
    any_sync = re.compile(b"[" + byte_class + b"]")
    return any_sync, re.compile(b"[" + byte_class + b"][^" + byte_class + b"]*\\Z")


def decode_steps(step: Step, data: bytes, start: int, end: int, errors: str, name: str) -> str:
    """The exact slow path: run ``step`` over ``data[start:end]`` (end-of-queue at ``end``).

    Strict errors are reported with offsets into ``data``.
    """
    out: list[str] = []
    append = out.append
    i = start
    while i < end:
        text, j = step(data, i, end)
        if text is None:
            if errors == "strict":
                raise DecodeError(name, bytes(data), i, j, error_reason(data, i, j, end))
            text = REPLACEMENT
        append(text)
        i = j
    return "".join(out)


def error_reason(data: bytes, i: int, j: int, end: int) -> str:
    """A short human reason for a decoder error spanning ``data[i:j]``."""
    if j == end and data[i] >= 0x80:
        return "invalid or truncated multi-byte sequence at the end of the input"
    if j - i == 1:
        return f"byte 0x{data[i]:02X} does not start a valid sequence here, or the next byte cannot follow it"
    return "invalid multi-byte sequence"


def encode_error(name: str, text: str, index: int) -> EncodeError:
    """The strict encoder error for ``text[index]``, with a hint on what to do next."""
    char = text[index]
    what = "a lone surrogate" if 0xD800 <= ord(char) <= 0xDFFF else "not in this encoding"
    return EncodeError(name, text, index, index + 1, f"{what}; use errors='html' for &#N; references")


@dataclass(frozen=True, slots=True)
class FastPathPlan:
    """What the exhaustive comparison with a CPython codec found (built once per codec instance)."""

    #: CPython codec name used for the fast path
    py_codec: str
    #: error-handler names registered for this codec ("replace" and "strict" behaviour)
    replace_handler: str
    strict_handler: str
    #: ``str.translate`` table: character CPython outputs -> the standard's character
    remap: dict[int, str]
    #: characters whose presence means "this region needs the exact path"
    slow_chars: frozenset[str]
    #: first character CPython outputs -> byte sequences it decodes wrongly to characters that are
    #: right elsewhere: if the character appears and one of the sequences is in the input, the
    #: region needs the exact path
    slow_sequences: dict[str, tuple[bytes, ...]]
    #: True if ``text`` contains a remap or slow character (cheap, C-speed test)
    has_suspects: Callable[[str], bool]
    #: True if ``text`` contains a slow character
    has_slow: Callable[[str], bool]
    #: The facts below are the same, laid out for the per-call fast path (``StatelessCjkCodec._fast``),
    #: which must cost little on short inputs (see docs/whatwg.md, "Per-call overhead of the decoders").
    #: The CPython codec's decode function, bound once (``bytes.decode(name)`` normalises and looks up
    #: the name on every call: about 0.25 us, half of CPython's whole time on 60 bytes).
    py_decode: Callable[[bytes, str], tuple[str, int]]
    #: ``slow_sequences`` as ``(character, distinct first bytes as ints, sequences)``: ``int in bytes`` is
    #: one ``memchr`` without the 0.1 us ``bytes in bytes`` spends on setting up a substring search
    slow_sequence_checks: tuple[tuple[str, tuple[int, ...], tuple[bytes, ...]], ...]
    #: the one-pass pattern of every combination of ``slow_sequences`` characters, keyed by the characters
    #: in ``slow_sequence_checks`` order (compiled with the plan, not per call; see ``MAX_PRECOMPILED``)
    slow_sequence_patterns: dict[tuple[str, ...], re.Pattern[bytes]]
    #: True if the standard's decoder maps every ASCII byte to itself and no disagreeing CPython token
    #: starts with one: ASCII input then decodes as latin-1, with no look-up and no scan
    ascii_is_identity: bool
    #: any remap, slow or ``slow_sequences`` character, as one character class: on short inputs
    #: (``SMALL_INPUT_BYTES``) one search for it replaces every gate and scan when it finds nothing.
    #: None if there is no such character; a pattern that always matches if one is outside the BMP
    #: (``re`` tests those slowly; none of the five codecs has one)
    small_prefilter: re.Pattern[str] | None
    #: the remap and slow characters grouped by the first bytes of the disagreeing CPython tokens that
    #: output them: ``(first bytes, slow characters, remap characters)``; a group is only looked for in
    #: the output if one of its first bytes is in the input. None if there are more than
    #: ``MAX_GATE_BYTES`` first bytes or ``MAX_SCANNED_SUSPECTS`` characters (then ``has_suspects``).
    suspect_groups: tuple[tuple[tuple[bytes, ...], tuple[str, ...], tuple[str, ...]], ...] | None = None
    #: ``suspect_groups`` as ``(first byte as an int, slow characters, (character, replacement) pairs)``,
    #: one entry per first byte (a group with several first bytes is repeated: its scans may then run
    #: twice, and a second ``str.replace`` finds nothing; every group has one first byte in practice)
    gates: tuple[tuple[int, tuple[str, ...], tuple[tuple[str, str], ...]], ...] | None = None


def presence_test(items: Iterable[AnyStr]) -> Callable[[AnyStr], bool]:
    """A fast "does ``text`` contain any of ``items``" function, chosen by how many there are."""
    chosen = sorted(set(items))
    if not chosen:
        return lambda text: False
    if len(chosen) <= MAX_SCANNED_SUSPECTS:
        frozen = tuple(chosen)
        return lambda text: any(c in text for c in frozen)
    if isinstance(chosen[0], str):
        pattern = re.compile("|".join(map(re.escape, chosen)))  # compiled to one character class
    else:
        pattern = re.compile(b"|".join(map(re.escape, chosen)))
    return lambda text: pattern.search(text) is not None


def cpython_tokens(py_codec: str, longer_prefixes: Iterable[bytes] = ()) -> Iterator[tuple[bytes, str]]:
    """Every byte sequence the CPython codec decodes whole: all 1-byte ones, all 2-byte ones whose
    first byte is not a 1-byte token, and ``prefix + byte`` for each of ``longer_prefixes``.
    """
    single: set[int] = set()
    for b in range(256):
        seq = bytes((b,))
        if (text := _cpython_decode(seq, py_codec)) is not None:
            single.add(b)
            yield seq, text
    for lead in range(256):
        if lead not in single:
            yield from _row_tokens(bytes((lead,)), py_codec)
    for prefix in longer_prefixes:
        yield from _row_tokens(prefix, py_codec)


#: A byte that no tested sequence ends with and that ends any pending sequence: separates the
#: sequences of a row so the row decodes in one call.
_ROW_SEPARATOR = 0x0A
_ESCAPED = re.compile("[\udc80-\udcff]")


def _row_tokens(prefix: bytes, py_codec: str) -> Iterator[tuple[bytes, str]]:
    """``prefix + byte`` for all 256 bytes, those CPython decodes whole, with their text.

    The row is decoded in one call, each sequence followed by the separator; with "surrogateescape",
    a sequence CPython rejects (even partly) shows lone surrogates. Falls back to one call per
    sequence if the pieces do not line up.
    """
    trails = [t for t in range(256) if t != _ROW_SEPARATOR]
    seqs = [prefix + bytes((t,)) for t in trails]
    sep = bytes((_ROW_SEPARATOR,))
    pieces = (sep.join(seqs) + sep).decode(py_codec, "surrogateescape").split(chr(_ROW_SEPARATOR))
    if len(pieces) != len(seqs) + 1:
        pieces = [_cpython_decode(seq, py_codec) or "\udc80" for seq in seqs] + [""]
    for seq, piece in zip(seqs, pieces, strict=False):
        if piece and _ESCAPED.search(piece) is None:
            yield seq, piece
    seq = prefix + sep
    if (text := _cpython_decode(seq, py_codec)) is not None:
        yield seq, text


def _cpython_decode(seq: bytes, py_codec: str) -> str | None:
    """``seq`` decoded by the CPython codec, or None if it rejects it."""
    try:
        return seq.decode(py_codec)
    except UnicodeDecodeError:
        return None


def two_byte_characters(step: Step) -> dict[bytes, str]:
    """Every two bytes the exact step decodes as one whole item (a character), with its text.

    Such a step reads exactly those two bytes (these decoders decide a two-byte item from its two
    bytes alone; a longer or failed sequence is not listed), so the error handler can answer from
    this table, a dict look-up, instead of running the step.
    """
    found: dict[bytes, str] = {}
    for lead in range(0x80, 0x100):
        for trail in range(0x100):
            pair = bytes((lead, trail))
            text, j = step(pair, 0, 2)
            if text is not None and j == 2:
                found[pair] = text
    return found


def build_plan(
    name: str, py_codec: str, step: Step, spec_chars: Container[str], tokens: Iterable[tuple[bytes, str]]
) -> FastPathPlan:
    """Compare every CPython token with the exact step and register this codec's error handlers.

    ``spec_chars``: every character the standard's decoder can output for this encoding. A wrong
    CPython character can be translated back only if the standard never outputs it (so neither an
    agreeing token nor the error handler can have produced it) and it always stands for the same
    standard character.
    """
    agreed: set[str] = set()
    disagreed: list[tuple[bytes, str, str | None]] = []
    for seq, got in tokens:
        want, end = step(seq, 0, len(seq))
        if end == len(seq) and want == got:
            agreed.update(got)
        else:
            same_length = end == len(seq) and want is not None and len(want) == 1 and len(got) == 1
            disagreed.append((seq, got, want if same_length else None))
    remap: dict[str, str] = {}
    conflicting: set[str] = set()
    for _, got, want in disagreed:
        if want is not None and remap.setdefault(got, want) != want:
            conflicting.add(got)
    slow: set[str] = set()
    slow_sequences: dict[str, set[bytes]] = {}
    for seq, got, want in disagreed:
        if any(c in agreed for c in got):
            # CPython's output here is also right elsewhere (e.g. EUC-JP 0x8F 0xA2 0xB7 -> "~"):
            # when that output appears, only the input bytes can tell.
            slow_sequences.setdefault(got[0], set()).add(seq)
            remap.pop(got, None)
        elif want is None or got in conflicting or got in spec_chars:
            slow.update(got)
            remap.pop(got, None)
    for char in slow:
        remap.pop(char, None)
    suspect_groups = _suspect_groups(disagreed, slow, set(remap))

    pairs = two_byte_characters(step)

    def replace_handler(exc: UnicodeDecodeError) -> tuple[str, int]:
        # Called once per CPython error: kept minimal (it is the fast path's main cost on text with
        # many sequences CPython lacks, e.g. Big5's 0xC6 0xD3 in simplified-Chinese text).
        data, i = exc.object, exc.start
        text = pairs.get(data[i : i + 2])
        if text is not None:
            return text, i + 2
        text, j = step(data, i, len(data))
        return (REPLACEMENT if text is None else text), j

    def strict_handler(exc: UnicodeDecodeError) -> tuple[str, int]:
        data, i = exc.object, exc.start
        text = pairs.get(data[i : i + 2])
        if text is not None:
            return text, i + 2
        text, j = step(data, exc.start, len(data))
        if text is None:
            raise DecodeError(name, data, exc.start, j, error_reason(data, exc.start, j, len(data)))
        return text, j

    tag = "mojifix.whatwg." + name.lower()
    codecs.register_error(tag + ".replace", replace_handler)
    codecs.register_error(tag + ".strict", strict_handler)
    return FastPathPlan(
        py_codec=py_codec,
        replace_handler=tag + ".replace",
        strict_handler=tag + ".strict",
        remap={ord(k): v for k, v in remap.items()},
        slow_chars=frozenset(slow),
        slow_sequences={char: tuple(sorted(seqs)) for char, seqs in slow_sequences.items()},
        has_suspects=presence_test(slow | set(remap)),
        has_slow=presence_test(slow),
        suspect_groups=suspect_groups,
        py_decode=codecs.lookup(py_codec).decode,
        slow_sequence_checks=tuple(
            (char, tuple(sorted({seq[0] for seq in seqs})), tuple(sorted(seqs)))
            for char, seqs in slow_sequences.items()
        ),
        slow_sequence_patterns=_slow_sequence_patterns(slow_sequences),
        gates=None
        if suspect_groups is None
        else tuple(
            (lead[0], slow_chars, tuple((char, remap[char]) for char in remap_chars))
            for leads, slow_chars, remap_chars in suspect_groups
            for lead in leads
        ),
        ascii_is_identity=_ascii_is_identity(step, disagreed),
        small_prefilter=_small_prefilter({*remap, *slow, *slow_sequences}),
    )


def _small_prefilter(suspects: set[str]) -> re.Pattern[str] | None:
    """``FastPathPlan.small_prefilter`` for these characters (a pattern that always matches if one is
    outside the BMP: then the gates and scans always run)."""
    if not suspects:
        return None
    if any(ord(char) > 0xFFFF for char in suspects):
        return re.compile("")
    return char_class(suspects)


#: Up to this many ``slow_sequences`` characters, the pattern of every combination of them is compiled
#: when the plan is built (2**n - 1 patterns: at most 15, a few ms once; Big5 has 2 characters, EUC-JP 1);
#: beyond, on each call that needs one (as before this table existed: a join and ``re``'s cache).
MAX_PRECOMPILED = 4


def _slow_sequence_patterns(
    slow_sequences: dict[str, set[bytes]],
) -> dict[tuple[str, ...], re.Pattern[bytes]]:
    """``sequence_pattern`` of the sequences of each combination of characters (``MAX_PRECOMPILED``)."""
    chars = list(slow_sequences)
    if len(chars) > MAX_PRECOMPILED:
        return {}
    return {
        combo: sequence_pattern(seq for char in combo for seq in slow_sequences[char])
        for size in range(1, len(chars) + 1)
        for combo in combinations(chars, size)
    }


def _ascii_is_identity(step: Step, disagreed: list[tuple[bytes, str, str | None]]) -> bool:
    """Whether all-ASCII input decodes to itself, in the standard and in CPython plus the fix-ups.

    The standard's side: each ASCII byte is one item, itself, whatever follows it (the step is tried
    at the end of the input and before every byte). CPython's side: no disagreeing token starts with
    an ASCII byte, so on ASCII input every CPython token agrees with the standard.
    """
    for byte in range(0x80):
        for after in (b"", *map(bytes.fromhex, ("00", "41", "80", "a1", "ff"))):
            data = bytes((byte,)) + after
            if step(data, 0, len(data)) != (chr(byte), 1):
                return False
    return all(seq[0] >= 0x80 for seq, _, _ in disagreed)


def _suspect_groups(
    disagreed: list[tuple[bytes, str, str | None]], slow: set[str], remapped: set[str]
) -> tuple[tuple[tuple[bytes, ...], tuple[str, ...], tuple[str, ...]], ...] | None:
    """The slow and remapped characters grouped by the first bytes of the disagreeing tokens that output
    them (see ``FastPathPlan.suspect_groups``); None if that would not be cheaper than ``has_suspects``.

    Why skipping a group is exact: CPython's output is a sequence of tokens, each contiguous in the
    input, plus the handlers' output (the exact step's). A slow or remapped character in the output
    came from a disagreeing token (the check exists to find those) or was exact there; if no first
    byte of a disagreeing token that outputs it is in the input, no such token was decoded.
    """
    leads_of: dict[str, set[int]] = {}
    for seq, got, _ in disagreed:
        for char in got:
            if char in slow or char in remapped:
                leads_of.setdefault(char, set()).add(seq[0])
    every_lead = set().union(*leads_of.values()) if leads_of else set()
    if len(every_lead) > MAX_GATE_BYTES or len(leads_of) > MAX_SCANNED_SUSPECTS:
        return None
    groups: dict[tuple[int, ...], tuple[list[str], list[str]]] = {}
    for char in sorted(leads_of):
        slow_list, remap_list = groups.setdefault(tuple(sorted(leads_of[char])), ([], []))
        (slow_list if char in slow else remap_list).append(char)
    return tuple(
        (tuple(bytes((b,)) for b in leads), tuple(slow_list), tuple(remap_list))
        for leads, (slow_list, remap_list) in sorted(groups.items())
    )


@dataclass(frozen=True, slots=True)
class EncodePlan:
    """What the exhaustive comparison of a CPython encoder with the standard's encoder found.

    ``wrong``: every character CPython encodes to other bytes than the standard (or encodes where
    the standard reports an error). Text with none of them encodes exactly with CPython plus the error
    handlers, which run the standard's encoder for what CPython cannot encode. The presence test is
    ``marker in output`` (one ``memchr``) for the wrong characters whose CPython bytes contain a byte
    the standard never outputs, plus ``in`` scans (or one character class) for the rest.
    """

    py_codec: str
    strict_handler: str
    html_handler: str
    wrong: frozenset[str]
    #: bytes that only CPython's bytes for some wrong characters contain (b"" if none is used)
    marker: bytes
    #: ``bytes.translate`` delete table that keeps only the marker bytes (when there are several)
    not_marker: bytes
    #: the other wrong characters, looked for in the text
    scanned: tuple[str, ...]
    scan: CharFinder | None
    #: any wrong character: splits text that has some into exactly encodable pieces
    every_wrong: CharFinder
    #: wrong characters that CPython encodes to two bytes and the standard to two others: character ->
    #: (CPython's bytes, the standard's bytes), fixed in the output (see ``fix_output``)
    fixable: dict[str, tuple[bytes, bytes]]
    #: the fixable ones among the marked wrong characters (looked for only when a marker byte appears)
    marked_fixable: tuple[str, ...]

    def fix_output(self, text: str, output: bytes) -> bytes | None:
        """``output`` with the fixable characters' bytes replaced by the standard's; None if that is not
        provably right (another wrong character, or a count that does not add up).

        Exact when the two-byte sequences being replaced cannot overlap (no first byte of one is the
        second byte of one, itself included) and one pass finds exactly as many of them as ``text`` has
        fixable characters: each of those put its sequence at a character boundary, so a sequence across
        a boundary (the end of one character and the start of the next) would make the count larger.
        """
        if self.scan is not None:
            return None
        marked = self.marker_hit(output)
        present = [c for c in (self.scanned + self.marked_fixable if marked else self.scanned) if c in text]
        fixes = dict(self.fixable[c] for c in present if c in self.fixable)
        if not fixes or len(fixes) != len(present):
            return None  # another wrong character
        if not {b[0] for b in fixes}.isdisjoint(b[1] for b in fixes):
            return None
        pattern = re.compile(b"|".join(map(re.escape, fixes)))  # ``re`` caches it
        output, found = pattern.subn(lambda m: fixes[m.group()], output)
        if found != sum(text.count(c) for c in present):
            return None
        if marked and self.marker_hit(output):
            return None  # a marked character that is not fixable
        return output

    def marker_hit(self, output: bytes) -> bool:
        """Whether ``output`` has a marker byte (a wrong character encoded by CPython)."""
        if len(self.marker) == 1:
            return self.marker in output  # one memchr
        return bool(self.marker) and bool(output.translate(None, self.not_marker))  # one C pass

    def suspect(self, text: str, output: bytes) -> bool:
        """Whether ``text`` (encoded by CPython as ``output``) may contain a wrong character."""
        if self.marker_hit(output):
            return True
        if self.scan is not None:
            return self.scan.search(text)
        return any(char in text for char in self.scanned)


#: Code points compared with CPython's encoder, in two blocks (the supplementary planes are compared one
#: by one only if CPython encodes any of them): all but U+0000, which joins the others (no CJK encoder
#: outputs a 0x00 byte for anything else) so that one CPython call encodes a whole block.
_COMPARED_BLOCKS = (range(1, 0x10000), range(0x10000, 0x110000))


def _each_followed_by_nul(block: range) -> str:
    """Every code point of ``block``, each followed by U+0000 (built as UTF-32: twice as fast as a join)."""
    units = array("I", bytes(8 * len(block)))
    units[0::2] = array("I", block)
    return units.tobytes().decode("utf-32-le" if sys.byteorder == "little" else "utf-32-be", "surrogatepass")


def cpython_encodings(py_codec: str) -> dict[int, bytes]:
    """code point -> CPython's bytes for it, for every code point but U+0000 that CPython encodes."""
    found: dict[int, bytes] = {}
    for block in _COMPARED_BLOCKS:
        joined = _each_followed_by_nul(block)
        if block.start >= 0x10000 and not joined.encode(py_codec, "ignore").strip(b"\x00"):
            continue  # the usual case: CPython encodes nothing outside the BMP
        pieces = joined.encode(py_codec, "ignore").split(b"\x00")
        if len(pieces) == len(block) + 1:
            found.update((cp, piece) for cp, piece in zip(block, pieces, strict=False) if piece)
            continue
        for cp in block:  # a codec whose output has 0x00 bytes: one call per code point (never seen)
            try:
                found[cp] = chr(cp).encode(py_codec)
            except UnicodeEncodeError:
                continue
    return found


def char_class(chars: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching any one of ``chars`` (none: never matches), as ranges."""
    ranges: list[list[int]] = []
    for cp in sorted(map(ord, chars)):
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    body = "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges)
    return re.compile("[" + body + "]" if body else "(?!)")


#: Any character above U+FFFF (one range: fast).
ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@dataclass(frozen=True, slots=True)
class CharFinder:
    """Finds the characters of a set in a text, in order, at ``re`` bitmap speed.

    ``re`` tests a class of BMP characters with one bitmap look-up, but a class with any character
    above U+FFFF as a linear list of ranges (measured: 3 MB/s with HKSCS's, 10 MB/s as a second
    alternative); so astral characters get their own pattern, used only if the text has any.
    """

    bmp: re.Pattern[str]
    astral: re.Pattern[str] | None

    @classmethod
    def of(cls, chars: Iterable[str]) -> CharFinder:
        """The finder for ``chars``."""
        members = set(chars)
        astral = {c for c in members if ord(c) > 0xFFFF}
        return cls(char_class(members - astral), char_class(astral) if astral else None)

    def search(self, text: str) -> bool:
        """Whether ``text`` has one of the characters."""
        if self.bmp.search(text) is not None:
            return True
        return self.astral is not None and ASTRAL.search(text) is not None and bool(self.astral.search(text))

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """Every occurrence, in order."""
        if self.astral is None or ASTRAL.search(text) is None:
            return self.bmp.finditer(text)
        return heapq.merge(self.bmp.finditer(text), self.astral.finditer(text), key=lambda m: m.start())


#: Code point -> the standard encoder's bytes for it alone, or None for an encoder error.
EncodeChar = Callable[[int], "bytes | None"]


def build_encode_plan(
    name: str, py_codec: str, encode_char: EncodeChar, standard_bytes: Iterable[bytes], marker: bytes
) -> EncodePlan:
    """Compare CPython's encoder with ``encode_char`` on every code point; register the error handlers.

    ``standard_bytes``: every byte sequence the standard's encoder outputs for a non-ASCII code point;
    of ``marker`` (candidate bytes), only the bytes that none of them contains are kept (checked here),
    so they then mark CPython's bytes for a wrong character in any output.
    """
    cpython = cpython_encodings(py_codec)
    wrong = {chr(cp) for cp, got in cpython.items() if got != encode_char(cp)}
    used = set().union(*map(set, standard_bytes)) | set(range(0x80))  # ASCII: in every output, in &#N;
    marker = bytes(sorted(set(marker) - used))
    marked = {c for c in wrong if any(b in marker for b in cpython[ord(c)])}
    scanned = tuple(sorted(wrong - marked))
    scan = CharFinder.of(scanned) if len(scanned) > MAX_SCANNED_SUSPECTS else None
    fixable = {}
    for char in wrong:
        got, want = cpython[ord(char)], encode_char(ord(char))
        if len(got) == 2 and got[0] != got[1] and want is not None and len(want) == 2:
            fixable[char] = (got, want)
    every_wrong = CharFinder.of(wrong)

    def html_handler(exc: UnicodeError) -> tuple[bytes, int]:
        if not isinstance(exc, UnicodeEncodeError):
            raise exc
        text = exc.object
        out = []
        for k in range(exc.start, exc.end):
            cp = ord(text[k])
            if 0xD800 <= cp <= 0xDFFF:
                cp = 0xFFFD  # a lone surrogate is U+FFFD in a scalar value string (as in browsers' forms)
            got = encode_char(cp)
            if got is None:
                got = b"&#%d;" % cp
            out.append(got)
        return b"".join(out), exc.end

    def strict_handler(exc: UnicodeError) -> tuple[bytes, int]:
        if not isinstance(exc, UnicodeEncodeError):
            raise exc
        text = exc.object
        out = []
        for k in range(exc.start, exc.end):
            got = encode_char(ord(text[k]))
            if got is None:
                raise encode_error(name, text, k)
            out.append(got)
        return b"".join(out), exc.end

    tag = "mojifix.whatwg.encode." + name.lower()
    codecs.register_error(tag + ".strict", strict_handler)
    codecs.register_error(tag + ".html", html_handler)
    return EncodePlan(
        py_codec=py_codec,
        strict_handler=tag + ".strict",
        html_handler=tag + ".html",
        wrong=frozenset(wrong),
        marker=marker,
        not_marker=bytes(b for b in range(256) if b not in marker),
        scanned=scanned,
        fixable=fixable,
        marked_fixable=tuple(sorted(c for c in fixable if c in marked)),
        scan=scan,
        every_wrong=every_wrong,
    )


def pieces(data: bytes, sync: re.Pattern[bytes], size: int = PIECE_BYTES) -> Iterator[tuple[int, int]]:
    """Cut ``data`` into ``(start, end)`` pieces of about ``size`` bytes, each ending just after a
    sync byte (or at the end), so each piece decodes independently."""
    n = len(data)
    start = 0
    while start < n:
        cut = start + size
        if cut >= n:
            yield start, n
            return
        m = sync.search(data, cut)
        end = n if m is None else m.end()
        yield start, end
        start = end


class StatelessCjkCodec(WhatwgCodec):
    """Base of the five codecs whose decoder is back in its initial state after every item."""

    name: str
    #: nearest CPython codec, chosen by measured closeness (see docs/whatwg-cpython-differences.md)
    py_codec: str
    #: the longest byte sequence the decoder reads for one item (how far an error may look ahead)
    max_sequence_length = 2
    #: regex byte class of this decoder's sync bytes (see ``SYNC_BYTES``)
    sync_bytes = SYNC_BYTES
    #: nearest CPython encoder, chosen by measured closeness (see docs/whatwg-cpython-differences.md)
    py_encoder: str
    #: a byte the standard's encoder never outputs that marks CPython's bytes for most of its wrong
    #: characters (see ``EncodePlan``); b"" for none
    encoder_marker = b""

    @property
    def sync(self) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
        """(any sync byte, last sync byte to the end), compiled from ``sync_bytes`` (``re`` caches)."""
        return sync_patterns(self.sync_bytes)

    def __init__(self) -> None:
        self._plan: FastPathPlan | None = None
        self._step: Step | None = None
        self._encode_table: dict[int, str] | None = None
        self._encode_plan: EncodePlan | None = None
        kernels = _native.kernels()
        self._kernels = kernels
        #: the standard's decoder compiled (None when the kernels are not built or switched off)
        self._compiled = None if kernels is None else self.compiled_decoder(kernels)
        #: the encode table laid out for the compiled encoder, at first use (``compiled_encode_table``)
        self._compiled_table: object | None = None

    # --- what each codec supplies -------------------------------------------------------------------
    def make_step(self) -> Step:
        """Build the exact one-step decoder (see ``Step``)."""
        raise NotImplementedError

    def spec_chars(self) -> Container[str]:
        """Every character the standard's decoder can output for this encoding."""
        raise NotImplementedError

    def compiled_decoder(self, kernels: ModuleType) -> CompiledDecoder:
        """The compiled twin of ``make_step``'s decoder, bound to this codec's indexes."""
        raise NotImplementedError

    def longer_prefixes(self) -> Iterable[bytes]:
        """Prefixes of CPython tokens longer than 2 bytes (EUC-JP 0x8F x y): each prefix + every byte
        is compared too."""
        return ()

    def make_encode_table(self) -> dict[int, str]:
        """code point -> the encoder's bytes as a latin-1 string, for every non-ASCII encodable code point."""
        raise NotImplementedError

    def encode_fallback(self, code_point: int) -> str | None:
        """Bytes (latin-1 string) for a code point not in the encode table, or None; none by default."""
        return None

    # --- shared ------------------------------------------------------------------------------------------
    @property
    def step(self) -> Step:
        if self._step is None:
            self._step = self.make_step()
        return self._step

    @property
    def plan(self) -> FastPathPlan:
        """The fast-path plan, built at first use (20-80 ms: one CPython call per row of 256 sequences)."""
        if self._plan is None:
            step = self.step
            tokens = cpython_tokens(self.py_codec, self.longer_prefixes())
            self._plan = build_plan(self.name, self.py_codec, step, self.spec_chars(), tokens)
        return self._plan

    def _fast(self, data: bytes, handler: str) -> str | None:
        """Fast-path decode; None if the text needs the exact path.

        Written for a small fixed cost per call (short inputs are common: one web page, one file, one
        detector candidate): plain loops over precomputed tuples, ``int in bytes`` gates, no generator
        or set built per call (each ``any(...)`` costs about 0.2 us); see ``FastPathPlan.gates``.
        """
        plan = self._plan if self._plan is not None else self.plan
        text = plan.py_decode(data, handler)[0]
        if len(data) <= SMALL_INPUT_BYTES and (
            plan.small_prefilter is None or plan.small_prefilter.search(text) is None
        ):
            # exact: every check below needs one of these characters in ``text`` to change anything
            return text
        hits: list[str] | None = None
        for char, leads, _ in plan.slow_sequence_checks:
            # first bytes (one memchr each, often absent), then the character
            for lead in leads:
                if lead in data:
                    if char in text:
                        if hits is None:
                            hits = [char]
                        else:
                            hits.append(char)
                    break
        if hits is not None:
            pattern = plan.slow_sequence_patterns.get(tuple(hits))
            if pattern is None:  # more characters than ``MAX_PRECOMPILED``
                seqs = {char: seqs for char, _, seqs in plan.slow_sequence_checks}
                pattern = sequence_pattern(seq for char in hits for seq in seqs[char])
            if pattern.search(data) is not None:
                return None
        gates = plan.gates
        if gates is not None:
            present: list[tuple[str, str]] = []  # each remap character looked for once (``replace_each``)
            for lead, slow_chars, remaps in gates:
                if lead in data:  # one memchr (see ``_suspect_groups``)
                    for char in slow_chars:
                        if char in text:
                            return None
                    for pair in remaps:
                        if pair[0] in text:
                            present.append(pair)
            for char, replacement in present:  # as ``replace_each``: no replacement is a remap character
                text = text.replace(char, replacement)
            return text
        if plan.has_suspects(text):
            if plan.has_slow(text):
                return None
            text = replace_each(text, plan.remap)
        return text

    def decode(self, data: bytes, errors: str = "replace") -> str:
        """The standard's decoder over all of ``data``: compiled, else at C speed where CPython agrees."""
        if data.__class__ is not bytes:
            data = as_bytes(data)
        if errors != "replace" and errors != "strict":
            raise ValueError(f"errors must be 'replace' or 'strict', not {errors!r}")
        compiled = self._compiled
        if compiled is None:
            return self.decode_python(data, errors)
        if data.isascii():
            return data.decode("latin-1")  # every one of these decoders maps an ASCII byte to itself
        result = compiled(data, errors == "strict")
        if result.__class__ is str:
            return result  # type: ignore[return-value]
        start, end = result
        raise DecodeError(self.name, data, start, end, error_reason(data, start, end, len(data)))

    def decode_python(self, data: bytes, errors: str) -> str:
        """The pure-Python path of ``decode`` (CPython's codec, the plan's fix-ups, exact steps): the
        reference the compiled decoder is tested against."""
        plan = self._plan if self._plan is not None else self.plan
        if plan.ascii_is_identity and data.isascii():
            # either error mode: ASCII has no decoder error here (``FastPathPlan.ascii_is_identity``)
            return data.decode("latin-1")
        if errors == "replace":
            text = self._fast(data, plan.replace_handler)
            return text if text is not None else self._exact(data, "replace")
        try:
            text = self._fast(data, plan.strict_handler)
        except DecodeError as exc:
            # The handler found an error at a CPython-synchronised boundary; it is the first error
            # unless CPython accepted something wrong before it (then the exact path finds it).
            if self._fast(data[: exc.start], plan.replace_handler) is not None:
                raise DecodeError(self.name, data, exc.start, exc.end, exc.reason) from None
            text = None
        return text if text is not None else self._exact(data, "strict")

    def _exact(self, data: bytes, errors: str) -> str:
        """Exact decode, piece by piece: fast path where it is clean, pure-Python steps elsewhere."""
        out = []
        handler = self.plan.replace_handler
        for start, end in pieces(data, self.sync[0]):
            piece = data[start:end]
            text = self._fast(piece, handler)
            if text is None or (errors == "strict" and REPLACEMENT in text):
                text = decode_steps(self.step, data, start, end, errors, self.name)
            out.append(text)
        return "".join(out)

    @property
    def encode_table(self) -> dict[int, str]:
        """code point -> the encoder's bytes as a latin-1 string (``make_encode_table``), at first use."""
        if self._encode_table is None:
            self._encode_table = self.make_encode_table()
        return self._encode_table

    def encode_char(self, code_point: int) -> bytes | None:
        """The standard's encoder on one code point: its bytes, or None for an encoder error."""
        if code_point < 0x80:
            return bytes((code_point,))
        if 0xD800 <= code_point <= 0xDFFF:
            return None  # not a scalar value
        got = self.encode_table.get(code_point) or self.encode_fallback(code_point)
        return None if got is None or got == UNENCODABLE else got.encode("latin-1")

    @property
    def encode_plan(self) -> EncodePlan:
        """The encoder's fast-path plan, built at first use (about 0.3 s: every code point is compared)."""
        if self._encode_plan is None:
            standard = [v.encode("latin-1") for v in self.encode_table.values() if v != UNENCODABLE]
            self._encode_plan = build_encode_plan(
                self.name, self.py_encoder, self.encode_char, standard, self.encoder_marker
            )
        return self._encode_plan

    def four_byte_ranges(self) -> bytes:
        """gb18030's index ranges for the compiled encoder's four-byte sequences; none by default."""
        return b""

    def compiled_encode_table(self, kernels: ModuleType) -> object:
        """``encode_table`` laid out in C (``mojifix._kernels.EncodeTable``), built at first use."""
        if self._compiled_table is None:
            self._compiled_table = kernels.EncodeTable(self.encode_table, self.four_byte_ranges())
        return self._compiled_table

    def encode(self, text: str, errors: str = "strict") -> bytes:
        """The standard's encoder; ``errors="html"`` writes ``&#N;`` for what it cannot encode.

        Compiled when the kernels are built: ``encode_char`` for every code point, in C, over the encode
        table (a lone surrogate is U+FFFD in "html" mode); else ``encode_python``.
        """
        kernels = self._kernels
        if kernels is None:
            return self.encode_python(text, errors)
        if not isinstance(text, str):
            raise TypeError(f"encode() takes str, not {type(text).__name__}")
        if errors not in ("strict", "html"):
            raise ValueError(f"errors must be 'strict' or 'html', not {errors!r}")
        table = (
            self._compiled_table if self._compiled_table is not None else self.compiled_encode_table(kernels)
        )
        result = kernels.cjk_encode(text, table, errors == "html")
        if result.__class__ is int:
            raise encode_error(self.name, text, result)
        return result  # type: ignore[no-any-return]

    def encode_python(self, text: str, errors: str = "strict") -> bytes:
        """The pure-Python path of ``encode``: the reference the compiled encoder is tested against.

        CPython's encoder does the work; its error handlers run the standard's encoder on what it
        cannot encode, and text with a character CPython encodes differently (``EncodePlan.wrong``)
        is cut around those characters, which the standard's encoder takes one by one.
        """
        if not isinstance(text, str):
            raise TypeError(f"encode() takes str, not {type(text).__name__}")
        if errors not in ("strict", "html"):
            raise ValueError(f"errors must be 'strict' or 'html', not {errors!r}")
        plan = self.encode_plan
        handler = plan.strict_handler if errors == "strict" else plan.html_handler
        try:
            output = text.encode(plan.py_codec, handler)
        except UnicodeEncodeError:
            # The first error CPython met; a wrong character before it may be the standard's first.
            if not plan.every_wrong.search(text):
                raise
        else:
            if not plan.suspect(text, output):
                return output
            fixed = plan.fix_output(text, output)
            if fixed is not None:
                return fixed
        return self._encode_around_wrong(text, handler, errors == "strict")

    def _encode_around_wrong(self, text: str, handler: str, strict: bool) -> bytes:
        """Encode text that has wrong characters: CPython between them, the standard's encoder on them."""
        plan = self.encode_plan
        out: list[bytes] = []
        start = 0
        for m in plan.every_wrong.finditer(text):
            out.append(self._encode_piece(text, start, m.start(), handler))
            got = self.encode_char(ord(m.group()))  # never a surrogate: CPython encodes none
            if got is None:
                if strict:
                    raise encode_error(self.name, text, m.start())
                got = b"&#%d;" % ord(m.group())
            out.append(got)
            start = m.end()
        out.append(self._encode_piece(text, start, len(text), handler))
        return b"".join(out)

    def _encode_piece(self, text: str, start: int, end: int, handler: str) -> bytes:
        """``text[start:end]`` (no wrong character in it) through CPython; error offsets into ``text``."""
        try:
            return text[start:end].encode(self.encode_plan.py_codec, handler)
        except UnicodeEncodeError as exc:
            raise encode_error(self.name, text, start + exc.start) from None

    def incremental_decoder(self, errors: str = "replace") -> codecs.IncrementalDecoder:
        return BufferedIncrementalDecoder(self, errors)


#: Marks a code point U+0080-U+00FF the encoder cannot encode, in an encode table: ``str.translate``
#: leaves unmapped characters as they are and latin-1 would then accept them silently.
UNENCODABLE = "\uffff"


def encode_table_base() -> dict[int, str]:
    """An encode table with every U+0080-U+00FF marked unencodable, to be filled by the codec."""
    return {cp: UNENCODABLE for cp in range(0x80, 0x100)}


def as_bytes(data: object) -> bytes:
    """``data`` as bytes; a TypeError saying what to pass for anything else."""
    if isinstance(data, bytes):
        return data
    if isinstance(data, bytearray | memoryview):
        return bytes(data)
    raise TypeError(f"decode() takes bytes (or bytearray/memoryview), not {type(data).__name__}")


class BufferedIncrementalDecoder(codecs.IncrementalDecoder):
    """Stream decoder for the stateless codecs: decodes up to the last sync point, keeps the rest.

    Any split of the input gives exactly the one-shot result: a piece is only decoded when it ends
    where the one-shot decoder is in its initial state (after a sync byte, or at a boundary the exact
    step found), so each piece decodes the same alone as in context.
    """

    def __init__(self, codec: StatelessCjkCodec, errors: str = "replace") -> None:
        super().__init__(errors)
        self.codec = codec
        self.pending = b""
        self.offset = 0  # stream offset of ``pending`` (for strict error messages)

    def decode(self, input: bytes, final: bool = False) -> str:
        data = self.pending + as_bytes(input)
        cut = len(data) if final else self._boundary(data)
        self.pending = data[cut:]
        head = data[:cut]
        base = self.offset
        self.offset += cut
        if not head:
            return ""
        try:
            return self.codec.decode(head, self.errors)
        except DecodeError as exc:
            reason = f"{exc.reason} (stream offset {base + exc.start})"
            raise DecodeError(self.codec.name, head, exc.start, exc.end, reason) from None

    def _boundary(self, data: bytes) -> int:
        """The last offset where the exact decoder is in its initial state and has read nothing beyond.

        ``data`` starts at such an offset; so does the end of its last sync byte (no decoder reads past
        a sync byte). From there, exact steps are walked, tracking how far each may have looked: a step
        that output characters read exactly the bytes it consumed; an error may have read up to the
        longest sequence and restored some. (A stream with no sync byte at all is walked in pure
        Python: correct, but slow.)
        """
        m = self.codec.sync[1].search(data)
        i = cut = horizon = 0 if m is None else m.start() + 1
        step = self.codec.step
        longest = self.codec.max_sequence_length
        n = len(data)
        while i < n:
            text, j = step(data, i, n)
            if j >= n:
                break
            horizon = max(horizon, j if text is not None else min(n, i + longest))
            if horizon <= j:
                cut = j
            i = j
        return cut

    def reset(self) -> None:
        self.pending = b""
        self.offset = 0

    def getstate(self) -> tuple[bytes, int]:
        return self.pending, 0

    def setstate(self, state: tuple[bytes, int]) -> None:
        self.pending = state[0]
