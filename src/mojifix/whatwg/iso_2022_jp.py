"""ISO-2022-JP (https://encoding.spec.whatwg.org/#iso-2022-jp).

Unlike the other CJK decoders, this one keeps state across items (the mode set by the last escape
sequence, and the "output" flag that makes two escape sequences in a row an error), and CPython's
``iso2022_jp`` differs from it in state-dependent ways an error handler cannot see. So, three paths:

- **CPython path** (one-shot decoding of plain input): when the input has none of the inputs where
  CPython and the standard part ways (``_plain_shape``: two fast passes for the usual shape, else the
  ``CPYTHON_DIFFERS`` regex), CPython's ``iso2022_jp`` decodes it;
  an error handler decodes the NEC/IBM pairs it lacks from the index, and its six jis0208 mapping
  differences are translated back (found by comparing all 94 x 94 pairs at first use).
- **Segment path**: the input is split at valid escape sequences; the bodies of each mode are joined,
  checked with ``bytes.translate`` and decoded in bulk (ASCII: ``bytes.decode``; Roman and katakana:
  ``str.translate``; jis0208: bytes + 0x80 through the exact EUC-JP decoder, since a pair of 0x21-0x7E
  bytes is the EUC-JP pair with both bytes + 0x80, and both decoders treat a pair with no index entry
  as one error). Also used by the incremental decoder, which carries the state between chunks.
- **Exact path**: a transcription of the state machine, used when a segment is not well-formed (any
  decoder error other than an unmapped pair or back-to-back escape sequences, or strict-mode errors).
"""

from __future__ import annotations

import codecs
import functools
import itertools
import re
from dataclasses import dataclass

from mojifix import _native
from mojifix.errors import DecodeError
from mojifix.whatwg._base import WhatwgCodec
from mojifix.whatwg._cjk import REPLACEMENT, as_bytes, char_class, encode_error
from mojifix.whatwg._tables import INDEXES, NO_ENTRY
from mojifix.whatwg.euc_jp import EucJp

__all__ = ["CODECS", "Iso2022Jp"]

ESC = 0x1B
#: SO and SI: decoder errors in the standard's every mode, which CPython's ``iso2022_jp`` passes through.
SO, SI = 0x0E, 0x0F
#: Up to this many bytes, plain input is recognised with the single ``CPYTHON_DIFFERS`` search, above
#: with ``_plain_shape`` (equal answers, see there). Calibrated on the decode benchmark's text: the
#: search costs about 0.2 us + 3.1 ns per byte, ``_plain_shape`` 0.7 us + 1.6 ns per byte (0.27 against
#: 0.75 us at 66 bytes, 3.3 against 2.3 us at 1,000 bytes).
SMALL_SHAPE_CHECK_BYTES = 320
#: CPython's ``iso2022_jp`` decode function, looked up once (``bytes.decode(name)`` looks it up per call).
_CPYTHON_DECODE = codecs.lookup("iso2022_jp").decode
#: The four decoder modes that persist between items (spec: ISO-2022-JP decoder state).
ASCII, ROMAN, KATAKANA, LEADING = "ASCII", "Roman", "katakana", "leading byte"
#: The modes in the order of their numbers (the compiled decoder's and ``getstate``'s).
MODES = (ASCII, ROMAN, KATAKANA, LEADING)
#: Final bytes of the valid escape sequences (spec: ISO-2022-JP decoder, "escape", steps 3-6).
ESCAPES = {b"(B": ASCII, b"(J": ROMAN, b"(I": KATAKANA, b"$@": LEADING, b"$B": LEADING}
ESCAPE_SPLIT = re.compile(rb"(\x1b(?:\$[@B]|\([BJI]))")
#: Where CPython's iso2022_jp would not do what the standard does, in one regex pass (every branch
#: starts at an ESC): an ESC that does not start ESC $ B, ESC ( B or ESC ( J (the others go the
#: segment way); an escape sequence right after another one (an error in the standard); a jis0208
#: segment whose run of 0x21-0x7E bytes is followed by something other than ESC or the end (a byte
#: the standard rejects there and CPython passes through).
CPYTHON_DIFFERS = re.compile(rb"\x1b(?:\$B(?:[\x21-\x7e]*+(?!\x1b|\Z)|\x1b)|\([BJ]\x1b|(?!\$B|\([BJ]))")
#: The usual shape of plain input, checked before ``CPYTHON_DIFFERS`` because ``re`` walks it about 3x
#: faster (bodies are skipped by its "anything but ESC" loop, not tested byte by byte): jis0208
#: segments (ESC $ B + body) alternating with ASCII or Roman ones (ESC ( B or ESC ( J + body), after
#: any ASCII bytes; every body but the last one non-empty (an escape sequence right after another is
#: an error in the standard). What jis0208 bodies contain is checked apart (``JIS_BODIES_PLAIN``).
ALTERNATING_SEGMENTS = re.compile(
    rb"[^\x1b]*+"  # ASCII bytes
    rb"(?:\x1b\([BJ](?:[^\x1b]++|\Z))?"  # maybe an ASCII or Roman segment
    rb"(?:\x1b\$B[^\x1b]++\x1b\([BJ](?:[^\x1b]++|\Z))*+"  # jis0208, then ASCII or Roman
    rb"(?:\x1b\$B[^\x1b]*+)?"  # maybe a last jis0208 segment
)
#: Bytes deleted from input of that shape to leave its ESCs in order, with the bytes of each body that
#: are not 0x21-0x7E (the input is ASCII: control bytes, space, DEL) between them.
JIS_PAIR_BYTES = bytes(range(0x21, 0x7F))
#: On what is left, whether the body of every jis0208 segment was all 0x21-0x7E: its ESC is then
#: followed at once by the next ESC or the end. Segments alternate, so the jis0208 ESCs are the odd
#: ones, or the even ones when the first segment is ASCII or Roman (the second pattern).
JIS_BODIES_PLAIN = (
    re.compile(rb"[^\x1b]*+(?:\x1b\x1b[^\x1b]*+)*+\x1b?"),
    re.compile(rb"[^\x1b]*+\x1b[^\x1b]*+(?:\x1b\x1b[^\x1b]*+)*+\x1b?"),
)
#: A partial escape sequence at the end of a chunk of a stream: wait for more bytes.
PARTIAL_ESCAPE_AT_END = re.compile(rb"\x1b[$(]?\Z")
#: Bytes of well-formed bodies (the rest are decoder errors): jis0208 bodies are joined with 0x8A
#: (0x0A once 0x80 is added, so it never joins a pair), katakana bodies with ESC; ASCII and Roman
#: bodies are ASCII without SO and SI.
JIS_SEPARATOR = b"\x8a"
JIS_BODY_BYTES = bytes(range(0x21, 0x7F)) + JIS_SEPARATOR
KATAKANA_BODY_BYTES = bytes(range(0x21, 0x60)) + b"\x1b"
#: bytes.translate table: a jis0208 pair byte 0x21-0x7E -> its EUC-JP byte 0xA1-0xFE.
TO_EUC_JP = bytes((b + 0x80) & 0xFF for b in range(256))
#: str.translate tables for Roman (0x5C, 0x7E) and katakana (0x21-0x5F -> U+FF61-U+FF9F).
ROMAN_TABLE = {0x5C: "\u00a5", 0x7E: "\u203e"}
KATAKANA_TABLE = {b: chr(0xFF61 - 0x21 + b) for b in range(0x21, 0x60)}


@dataclass(frozen=True, slots=True)
class State:
    """The decoder's state between items: its mode (which is also its output state) and output flag."""

    mode: str = ASCII
    output: bool = False


class Iso2022Jp(WhatwgCodec):
    """ISO-2022-JP: fast segment decoding with an exact state machine behind it."""

    name = "ISO-2022-JP"

    def __init__(self) -> None:
        self._euc_jp = EucJp()
        #: the compiled state machine (None when the kernels are not built or switched off)
        self._kernels = _native.kernels()
        self._jis0208: dict[int, int] | None = None
        self._cpython: tuple[dict[int, str], tuple[str, ...]] | None = None
        #: ``_cpython_plan``'s translate table as (CPython's character, the standard's) pairs, and every
        #: character it lists as one class (for short inputs, as ``FastPathPlan.small_prefilter``)
        self._remap_pairs: tuple[tuple[str, str], ...] = ()
        self._suspect_class: re.Pattern[str] | None = None
        for strict, marked in itertools.product((True, False), repeat=2):
            name = ENCODE_HANDLER + ("strict" if strict else "html") + (".marked" if marked else "")
            codecs.register_error(name, functools.partial(self._encode_handler, strict, marked))

    # --- decoding --------------------------------------------------------------------------------------
    def decode(self, data: bytes, errors: str = "replace") -> str:
        """The standard's decoder over all of ``data`` from the initial state."""
        if data.__class__ is not bytes:
            data = as_bytes(data)
        if errors != "replace" and errors != "strict":
            raise ValueError(f"errors must be 'replace' or 'strict', not {errors!r}")
        if data.isascii():
            if ESC not in data and SO not in data and SI not in data:
                return data.decode("latin-1")  # ASCII state throughout: every byte is itself, no error
            if self._kernels is None and (text := self._cpython_fast_ascii(data)) is not None:
                return text
        text, _, _ = self.decode_from(data, State(), True, errors)
        return text

    def _cpython_fast(self, data: bytes) -> str | None:
        """``_cpython_fast_ascii`` for any input: None unless ``data`` is ASCII."""
        return self._cpython_fast_ascii(data) if data.isascii() else None

    def _cpython_fast_ascii(self, data: bytes) -> str | None:
        """One-shot decoding of plain well-formed input with CPython's ``iso2022_jp``; None otherwise.

        Used only when every check below passes, which leaves CPython and the standard doing the same
        thing: ASCII bytes only (checked by the caller), no SO/SI, every ESC starting ESC $ B, ESC ( B
        or ESC ( J (the rest go the segment way), no escape sequence right after another (an error in
        the standard), nothing but 0x21-0x7E in jis0208 segments (CPython passes control bytes through
        there), and CPython decoding it with no error other than a whole jis0208 pair it lacks (the NEC
        and IBM extensions), which the error handler decodes from the index. Its jis0208 mapping
        differences are then fixed as in EUC-JP, from a comparison of all 94 x 94 pairs.
        """
        if SO in data or SI in data:  # ``int in bytes``: one memchr each
            return None
        if len(data) <= SMALL_SHAPE_CHECK_BYTES:
            if CPYTHON_DIFFERS.search(data) is not None:
                return None
        elif not _plain_shape(data):
            return None
        slow = (self._cpython or self._cpython_plan())[1]
        try:
            text = _CPYTHON_DECODE(data, PAIR_HANDLER)[0]
        except NotPlainInput:
            return None
        for char in slow:
            if char in text:
                return None
        if len(data) <= SMALL_SHAPE_CHECK_BYTES and (
            self._suspect_class is None or self._suspect_class.search(text) is None
        ):
            return text  # nothing to translate (one search instead of one ``in`` per character)
        for char, replacement in self._remap_pairs:  # as ``replace_each``
            if char in text:
                text = text.replace(char, replacement)
        return text

    def _cpython_plan(self) -> tuple[dict[int, str], tuple[str, ...]]:
        """(translate table, slow characters) for CPython's jis0208 pairs, built at first use."""
        if self._cpython is None:
            jis0208 = INDEXES["jis0208"]
            spec_chars = set(jis0208) | set(map(chr, range(0x80))) | {"\u00a5", "\u203e"}
            remap: dict[int, str] = {}
            slow: set[str] = set()
            for lead in range(0x21, 0x7F):
                for trail in range(0x21, 0x7F):
                    try:
                        got = bytes((0x1B, 0x24, 0x42, lead, trail)).decode("iso2022_jp")
                    except UnicodeDecodeError:
                        continue
                    pointer = (lead - 0x21) * 94 + trail - 0x21
                    want = jis0208[pointer] if pointer < len(jis0208) else NO_ENTRY
                    if got == want:
                        continue
                    translatable = len(got) == 1 and want != NO_ENTRY and got not in spec_chars
                    if translatable and remap.setdefault(ord(got), want) == want:
                        continue
                    slow.update(got)
            for char in slow:
                remap.pop(ord(char), None)
            self._remap_pairs = tuple((chr(code_point), char) for code_point, char in remap.items())
            self._suspect_class = char_class(map(chr, remap)) if remap else None
            self._cpython = (remap, tuple(sorted(slow)))
            codecs.register_error(PAIR_HANDLER, _pair_handler)
        return self._cpython

    def decode_from(self, data: bytes, state: State, final: bool, errors: str) -> tuple[str, int, State]:
        """Decode ``data`` from ``state``; returns (text, bytes consumed, state after them).

        With ``final`` false, a trailing partial escape sequence or jis0208 pair is left unconsumed.
        The compiled state machine when it is built, else ``decode_from_python``.
        """
        if self._kernels is None:
            return self.decode_from_python(data, state, final, errors)
        result = self._kernels.iso_2022_jp_decode(
            data, MODES.index(state.mode), state.output, final, INDEXES["jis0208"], errors == "strict"
        )
        if len(result) == 2:  # strict mode's first decoder error
            start, end = result
            raise DecodeError(self.name, data, start, end, _reason(data, start, end, len(data)))
        text, consumed, mode, output = result
        return text, consumed, State(MODES[mode], bool(output))

    def decode_from_python(
        self, data: bytes, state: State, final: bool, errors: str
    ) -> tuple[str, int, State]:
        """``decode_from`` in pure Python (segments in bulk, else ``_exact``): the compiled reference."""
        fast = self._fast(data, state, final, errors == "strict")
        if fast is not None:
            return fast
        return self._exact(data, state, final, errors)

    def _fast(self, data: bytes, state: State, final: bool, strict: bool) -> tuple[str, int, State] | None:
        """Decode well-formed input in bulk; None when the exact path is needed.

        The input is split at valid escape sequences; the segment bodies of each mode are joined with
        a separator byte that cannot occur in a well-formed body, checked with ``bytes.translate``,
        decoded in one call and split again, so the Python-level work per segment is a few list operations.
        """
        end = len(data)
        if not final and (m := PARTIAL_ESCAPE_AT_END.search(data, max(0, end - 2))):
            end = m.start()
        view = data if end == len(data) else data[:end]
        parts = ESCAPE_SPLIT.split(view)
        bodies, escapes = parts[0::2], parts[1::2]
        if view.count(b"\x1b") != len(escapes):
            return None  # an ESC that starts no valid escape sequence: a decoder error
        consumed = end
        last_mode = ESCAPES[escapes[-1][1:]] if escapes else state.mode
        if not final and last_mode == LEADING and len(bodies[-1]) % 2:
            bodies[-1] = bodies[-1][:-1]  # half a pair: wait for its second byte
            consumed -= 1
        texts = self._bodies(bodies, escapes, state.mode, strict)
        if texts is None:
            return None
        if b"" in bodies[:-1] or (state.output and not bodies[0] and escapes):
            # spec: "escape", step 7.4: an escape sequence right after another one is an error
            if strict:
                return None
            for k in range(len(bodies) - 1):
                if not bodies[k] and (k > 0 or state.output):
                    texts[k] = REPLACEMENT
        output = not bodies[-1] and (bool(escapes) or state.output)
        return "".join(texts), consumed, State(last_mode, output)

    def _bodies(
        self, bodies: list[bytes], escapes: list[bytes], first_mode: str, strict: bool
    ) -> list[str] | None:
        """The text of every segment body (body k follows escape k-1; body 0 is in ``first_mode``)."""
        texts: list[str] = [""] * len(bodies)
        if (
            len(escapes) >= 2
            and escapes[0::2].count(escapes[0]) == len(escapes[0::2])
            and (escapes[1::2].count(escapes[1]) == len(escapes[1::2]))
        ):
            # The usual shape: two escape sequences alternating (ESC $ B ... ESC ( B ...): slices.
            groups = [
                (ESCAPES[escapes[0][1:]], slice(1, None, 2)),
                (ESCAPES[escapes[1][1:]], slice(2, None, 2)),
            ]
            groups.append((first_mode, slice(0, 1)))
        else:
            modes = [first_mode, *(ESCAPES[e[1:]] for e in escapes)]
            groups = [(mode, [k for k, m in enumerate(modes) if m == mode]) for mode in set(modes)]
        for mode, where in groups:
            if isinstance(where, slice):
                decoded = self._decode_bodies(mode, bodies[where], strict)
                if decoded is None:
                    return None
                texts[where] = decoded
            else:
                decoded = self._decode_bodies(mode, [bodies[k] for k in where], strict)
                if decoded is None:
                    return None
                for k, text in zip(where, decoded, strict=True):
                    texts[k] = text
        return texts

    def _decode_bodies(self, mode: str, bodies: list[bytes], strict: bool) -> list[str] | None:
        """Decode well-formed bodies of one mode in one call; None if one is not well-formed."""
        if not bodies:
            return []
        if mode == LEADING:
            joined = JIS_SEPARATOR.join(bodies)
            if joined.count(JIS_SEPARATOR) != len(bodies) - 1 or joined.translate(None, JIS_BODY_BYTES):
                return None
            # Pairs 0x21-0x7E + 0x80 are EUC-JP pairs (a pair with no index entry is one error in
            # both decoders); the separator becomes "\n", which no pair decodes to. A body of odd
            # length ends in a lead byte followed by "\n" or the end: one error in both decoders too.
            text = self._euc_jp.decode(joined.translate(TO_EUC_JP), "replace")
            if strict and REPLACEMENT in text:
                return None
            return text.split("\n")
        joined = b"\x1b".join(bodies)
        if mode == KATAKANA:
            if joined.translate(None, KATAKANA_BODY_BYTES):
                return None
            return joined.decode("latin-1").translate(KATAKANA_TABLE).split("\x1b")
        if not joined.isascii() or b"\x0e" in joined or b"\x0f" in joined:
            return None
        text = joined.decode("ascii")
        if mode == ROMAN and (b"\\" in joined or b"~" in joined):
            text = text.translate(ROMAN_TABLE)
        return text.split("\x1b")

    def _exact(self, data: bytes, state: State, final: bool, errors: str) -> tuple[str, int, State]:
        """The standard's state machine, byte by byte (spec: ISO-2022-JP decoder)."""
        jis0208 = INDEXES["jis0208"]
        strict = errors == "strict"
        out: list[str] = []
        mode, output = state.mode, state.output
        n = len(data)
        i = 0

        def error(start: int, end: int) -> None:
            if strict:
                raise DecodeError(self.name, data, start, end, _reason(data, start, end, n))
            out.append(REPLACEMENT)

        while i < n:
            byte = data[i]
            if byte == ESC:  # every state: escape start
                if i + 1 >= n or (data[i + 1] in (0x24, 0x28) and i + 2 >= n):
                    if not final:
                        break
                    output = False  # escape start / escape at end-of-queue: error, back to output state
                    error(i, i + 1)
                    i += 1
                    continue
                new_mode = ESCAPES.get(data[i + 1 : i + 3])
                if new_mode is None:  # escape start step 2 or escape step 8: restore, error
                    output = False
                    error(i, i + 1)
                    i += 1
                    continue
                mode = new_mode  # escape step 7
                if output:
                    error(i, i + 3)
                output = True
                i += 3
                continue
            if mode == LEADING and 0x21 <= byte <= 0x7E and i + 1 >= n and not final:
                break  # half a pair: wait for its second byte (the state is as before it)
            output = False
            if mode == LEADING:
                if not 0x21 <= byte <= 0x7E:
                    error(i, i + 1)
                    i += 1
                    continue
                if i + 1 >= n:  # trailing byte at end-of-queue
                    error(i, n)
                    i = n
                    continue
                trail = data[i + 1]
                if trail == ESC:  # trailing byte: ESC is an error, then escape start
                    error(i, i + 2)
                    i += 1  # the ESC is processed as an escape start next (same outputs)
                    continue
                if 0x21 <= trail <= 0x7E:
                    pointer = (byte - 0x21) * 94 + trail - 0x21
                    char = jis0208[pointer] if pointer < len(jis0208) else NO_ENTRY
                    if char == NO_ENTRY:
                        error(i, i + 2)
                    else:
                        out.append(char)
                else:
                    error(i, i + 2)  # "otherwise": the byte is consumed
                i += 2
                continue
            if mode == KATAKANA:
                if 0x21 <= byte <= 0x5F:
                    out.append(chr(0xFF61 - 0x21 + byte))
                else:
                    error(i, i + 1)
            elif byte > 0x7F or byte in (0x0E, 0x0F):
                error(i, i + 1)
            elif mode == ROMAN and byte in ROMAN_TABLE:
                out.append(ROMAN_TABLE[byte])
            else:
                out.append(chr(byte))
            i += 1
        return "".join(out), i, State(mode, output)

    def incremental_decoder(self, errors: str = "replace") -> codecs.IncrementalDecoder:
        return Iso2022JpIncrementalDecoder(self, errors)

    # --- encoding ----------------------------------------------------------------------------------------
    def encode(self, text: str, errors: str = "strict") -> bytes:
        """The standard's ISO-2022-JP encoder (spec: ISO-2022-JP encoder), with its three states.

        CPython's ``iso2022_jp`` does the work where it agrees with the standard: its ASCII and jis0208
        runs and the escape sequences between them are the standard's (checked on every BMP code point,
        alone and in runs). Its 7 characters that the standard encodes otherwise (¥ ‾ ¢ £ ¬ ‖ 〜) are
        first replaced by lone surrogates, which CPython cannot encode, so that they reach the error
        handler with everything else CPython lacks (NEC/IBM extensions, halfwidth katakana, U+2212,
        unencodable characters); the handler runs the standard's encoder from there until it is back
        in CPython's state (see ``_encode_handler``). SO, SI and ESC (errors in the standard, which
        CPython passes through) and a lone surrogate that is also a marker take the exact path.
        """
        if not isinstance(text, str):
            raise TypeError(f"encode() takes str, not {type(text).__name__}")
        if errors not in ("strict", "html"):
            raise ValueError(f"errors must be 'strict' or 'html', not {errors!r}")
        if text.isascii() and not any(c in text for c in "\x0e\x0f\x1b"):
            return text.encode("ascii")  # steps 4 and 2: ASCII state throughout
        if any(c in text for c in "\x0e\x0f\x1b"):
            return self._encode_exact(text, errors)  # errors in the standard, passed through by CPython
        marked = text
        for char, placeholder in PLACEHOLDERS.items():
            if char in marked:
                marked = marked.replace(char, placeholder)
        handler = ENCODE_HANDLER + errors
        if marked is not text:
            if any(placeholder in text for placeholder in ORIGINALS):
                return self._encode_exact(text, errors)  # a lone surrogate that is also a marker
            handler += ".marked"
        try:
            return marked.encode("iso2022_jp", handler)
        except NotPlainInput:
            return self._encode_exact(text, errors)
        except UnicodeEncodeError as exc:
            raise encode_error(self.name, text, exc.start) from None

    def _encode_handler(self, strict: bool, marked: bool, exc: UnicodeError) -> tuple[bytes, int]:
        """Error handler for CPython's ``iso2022_jp`` encoder (on text marked by ``encode``).

        Returned bytes leave CPython's state as it was, so the standard's encoder runs from CPython's
        state (ASCII, or jis0208 after a jis0208 character) until, after a character, it is in that
        state again; then CPython carries on as the standard would.
        """
        if not isinstance(exc, UnicodeEncodeError):
            raise exc
        text, start = exc.object, exc.start
        state = ASCII
        if start > 0:
            before = ORIGINALS.get(text[start - 1], text[start - 1]) if marked else text[start - 1]
            if ord(before) > 0x7F and self._pointer(ord(before)) is not None:
                state = LEADING
        errors = "strict" if strict else "html"
        out, end, last = self._encode_run(text, start, state, errors, stop=state, marked=marked)
        if end < exc.end:
            raise NotPlainInput  # cannot happen: CPython's error spans one character
        if last != state:  # the end of the text: the standard's step 1 ...
            if state == LEADING and last == ASCII:
                raise NotPlainInput  # ... adds nothing but CPython adds ESC ( B (rare: the exact path)
            if state == ASCII:
                out += b"\x1b(B"  # ... adds ESC ( B and CPython, in ASCII state, does not
        return bytes(out), end

    def _pointer(self, code_point: int) -> int | None:
        """Steps 8-10: the jis0208 pointer the encoder uses for a non-ASCII code point, or None."""
        if self._jis0208 is None:
            self._jis0208 = jis0208_pointers()
        if code_point == 0x2212:  # step 8
            code_point = 0xFF0D
        if 0xFF61 <= code_point <= 0xFF9F:  # step 9
            code_point = ord(INDEXES["iso-2022-jp-katakana"][code_point - 0xFF61])
        return self._jis0208.get(code_point)

    def _encode_exact(self, text: str, errors: str) -> bytes:
        """The standard's encoder, code point by code point."""
        out, _, state = self._encode_run(text, 0, ASCII, errors)
        if state != ASCII:  # step 1
            out += b"\x1b(B"
        return bytes(out)

    def _encode_run(
        self, text: str, start: int, state: str, errors: str, stop: str | None = None, marked: bool = False
    ) -> tuple[bytearray, int, str]:
        """The standard's encoder on ``text[start:]`` from ``state``, without step 1 at the end.

        With ``stop``, returns after the first character that leaves the encoder in state ``stop``.
        Returns (bytes, where it stopped, state). With ``marked``, the placeholders ``encode`` put in
        are read as the characters they stand for.
        """
        originals = ORIGINALS if marked else {}
        out = bytearray()
        index = start
        for index in range(start, len(text)):
            code_point = ord(originals.get(text[index], text[index]))
            while True:  # "restore" re-runs the handler on the same code point
                if state != LEADING and code_point in (0x0E, 0x0F, 0x1B):  # step 3
                    error: int | None = 0xFFFD
                elif state == ASCII and code_point <= 0x7F:  # step 4
                    out.append(code_point)
                    break
                elif state == ROMAN and (
                    (code_point <= 0x7F and code_point not in (0x5C, 0x7E)) or code_point in (0xA5, 0x203E)
                ):  # step 5
                    out.append({0xA5: 0x5C, 0x203E: 0x7E}.get(code_point, code_point))
                    break
                elif code_point <= 0x7F:  # step 6 (state is not ASCII)
                    state = ASCII
                    out += b"\x1b(B"
                    continue
                elif code_point in (0xA5, 0x203E):  # step 7 (state is not Roman)
                    state = ROMAN
                    out += b"\x1b(J"
                    continue
                else:
                    pointer = self._pointer(code_point)  # steps 8-10
                    if pointer is None:
                        if state == LEADING:  # step 11.1
                            state = ASCII
                            out += b"\x1b(B"
                            continue
                        error = code_point  # step 11.2
                    elif state != LEADING:  # step 12
                        state = LEADING
                        out += b"\x1b$B"
                        continue
                    else:
                        out += bytes(divmod(pointer, 94)).translate(JIS_PAIR)  # steps 13-15
                        break
                if errors == "strict":
                    raise encode_error(self.name, text, index)
                if 0xD800 <= error <= 0xDFFF:
                    error = 0xFFFD  # a lone surrogate is U+FFFD once made a scalar value string
                out += b"&#%d;" % error
                break
            if state == stop:
                return out, index + 1, state
        return out, len(text), state


#: Characters CPython's ``iso2022_jp`` encodes, and the standard does not or differently (measured on every
#: BMP code point alone and in runs): SO, SI and ESC (errors in the standard), ¢ £ ¬ ‖ 〜 (CPython's
#: JIS X 0208 mapping), ¥ ‾ (CPython returns to ASCII after each one; the standard stays in Roman).
CPYTHON_ENCODES_WRONGLY = "\x0e\x0f\x1b\u00a2\u00a3\u00a5\u00ac\u2016\u203e\u301c"
ENCODE_HANDLER = "mojifix.whatwg.iso-2022-jp.encode."
#: The wrong characters but SO, SI and ESC -> the lone surrogates that stand for them while CPython
#: encodes (it cannot encode those, so they reach the error handler), and back.
PLACEHOLDERS = {char: chr(0xDC80 + k) for k, char in enumerate(CPYTHON_ENCODES_WRONGLY[3:])}
ORIGINALS = {placeholder: char for char, placeholder in PLACEHOLDERS.items()}
#: bytes.translate table: a pointer's quotient/remainder by 94 -> the pair's bytes (+ 0x21).
JIS_PAIR = bytes((b + 0x21) & 0xFF for b in range(256))


def jis0208_pointers() -> dict[int, int]:
    """code point -> its first pointer in index jis0208 (the standard's "index pointer")."""
    pointers: dict[int, int] = {}
    for pointer, char in enumerate(INDEXES["jis0208"]):
        if char != NO_ENTRY:
            pointers.setdefault(ord(char), pointer)
    return pointers


def _reason(data: bytes, start: int, end: int, n: int) -> str:
    if data[start] == ESC:
        return "invalid or repeated escape sequence"
    if end == n and start + 1 == n:
        return "incomplete two-byte sequence at end of input"
    return "invalid byte sequence for the current ISO-2022-JP mode"


class Iso2022JpIncrementalDecoder(codecs.IncrementalDecoder):
    """Stream decoder: carries the mode and output flag; holds back a partial escape or pair."""

    def __init__(self, codec: Iso2022Jp, errors: str = "replace") -> None:
        super().__init__(errors)
        self.codec = codec
        self.pending = b""
        self.state = State()

    def decode(self, input: bytes, final: bool = False) -> str:
        data = self.pending + as_bytes(input)
        text, consumed, self.state = self.codec.decode_from(data, self.state, final, self.errors)
        self.pending = data[consumed:]
        return text

    def reset(self) -> None:
        self.pending = b""
        self.state = State()

    def getstate(self) -> tuple[bytes, int]:
        return self.pending, MODES.index(self.state.mode) * 2 + int(self.state.output)

    def setstate(self, state: tuple[bytes, int]) -> None:
        self.pending = state[0]
        self.state = State(MODES[state[1] // 2], bool(state[1] % 2))


def _plain_shape(data: bytes) -> bool:
    """Whether ASCII ``data`` without SO/SI has none of the inputs where CPython's ``iso2022_jp`` and the
    standard part ways (``CPYTHON_DIFFERS``), checked the fast way first.

    Input of the usual alternating shape (``ALTERNATING_SEGMENTS``) needs only its jis0208 bodies
    checked: ``bytes.translate`` leaves the ESCs and the bytes outside 0x21-0x7E, on which one more
    pattern runs (``JIS_BODIES_PLAIN``); measured on 1 MB of Japanese text (32,000 escape sequences):
    about 1.8 ms, against 3.0 ms for ``CPYTHON_DIFFERS``. Input of that shape passes exactly when
    ``CPYTHON_DIFFERS`` finds nothing (every ESC starts one of its three escape sequences, no escape
    sequence follows another, jis0208 bodies are 0x21-0x7E); other input (e.g. ASCII then Roman
    segments in a row, from U+00A5) goes through ``CPYTHON_DIFFERS``.
    """
    if ALTERNATING_SEGMENTS.fullmatch(data) is None:
        return CPYTHON_DIFFERS.search(data) is None
    first = data.find(b"\x1b")
    jis_first = first < 0 or data.startswith(b"$", first + 1)
    residue = data.translate(None, JIS_PAIR_BYTES)
    return JIS_BODIES_PLAIN[0 if jis_first else 1].fullmatch(residue) is not None


class NotPlainInput(Exception):
    """Raised by the pair handler: CPython hit an error the fast path does not handle (private)."""


#: Error handler for ``_cpython_fast``: a jis0208 pair CPython lacks, at an even offset of a jis0208
#: segment (all of whose bytes are 0x21-0x7E, checked beforehand), decodes from the standard's index;
#: anything else (an odd segment's last byte, an unmapped pair) aborts the fast path.
PAIR_HANDLER = "mojifix.whatwg.iso-2022-jp.pairs"


def _pair_handler(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    data, start = exc.object, exc.start
    if not 0x21 <= data[start] <= 0x7E:
        raise NotPlainInput  # not a pair's first byte (cannot happen in checked input: defensive)
    escape = data.rfind(b"\x1b", 0, start)
    if escape < 0 or data[escape : escape + 3] != b"\x1b$B" or (start - escape - 3) % 2:
        raise NotPlainInput
    if start + 1 >= len(data) or not 0x21 <= data[start + 1] <= 0x7E:
        raise NotPlainInput
    jis0208 = INDEXES["jis0208"]
    pointer = (data[start] - 0x21) * 94 + data[start + 1] - 0x21
    char = jis0208[pointer] if pointer < len(jis0208) else NO_ENTRY
    if char == NO_ENTRY:
        raise NotPlainInput  # a decoder error: let the exact paths report it
    return char, start + 2


CODECS = {"ISO-2022-JP": Iso2022Jp()}
