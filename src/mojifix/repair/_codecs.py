"""The codecs a repair step may name, and the chains repair searches.

A repair step *encodes* the mojibake with the codec that wrongly decoded it (rebuilding the original
bytes) and *decodes* those bytes with the right one. Both directions must be exact and strict: a step that
needs ``errors="replace"`` anywhere has lost bytes and proves nothing.

Single-byte codecs are applied through 256-entry tables taken from the WHATWG indexes
(https://encoding.spec.whatwg.org/#legacy-single-byte-encodings), not from CPython's codecs, because the
text to repair was decoded by browsers and by WHATWG-conforming libraries: in ``windows-1252`` the bytes
0x81, 0x8D, 0x8F, 0x90 and 0x9D decode to the C1 controls U+0081... (the "C1 gap"), which CPython's
``cp1252`` refuses to decode *or encode*. With the table, ``Ã\\x81`` encodes back to C3 81 and decodes to
``Á``; with CPython's codec every UTF-8 ``Á``, ``Í``, ``Ï``, ``Ð``, ``Ý`` would be unrepairable. (ftfy calls
the same idea "sloppy" codecs.) ``iso-8859-1`` is the true ISO-8859-1 that ``requests`` uses when a server
sends no charset: every byte is one character, so rebuilding is always possible.

Multi-byte codecs (UTF-8, GBK, gb18030, Big5, Shift_JIS, EUC-KR, EUC-JP) go through
:mod:`mojifix.textcodec`, i.e. mojifix's exact WHATWG implementation.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from mojifix.errors import DecodeError, EncodeError
from mojifix.textcodec import decode_as, encode_as
from mojifix.whatwg._tables import INDEXES, NO_ENTRY

__all__ = [
    "CJK_LEGACY",
    "SINGLE_BYTE",
    "STEP_PAIRS",
    "CodecFailure",
    "StepAlphabet",
    "byte_table",
    "decode_lossy",
    "decode_strict",
    "decoder_only_bytes",
    "encode_strict",
    "known_codec",
    "multi_byte_step_facts",
    "single_byte_encodes",
    "step_alphabet",
]

#: WHATWG single-byte encodings repair may undo, by standard name -> index name.
_WHATWG_SINGLE_BYTE: Mapping[str, str] = {
    "windows-1252": "windows-1252",
    "windows-1250": "windows-1250",
    "windows-1251": "windows-1251",
    "windows-1253": "windows-1253",
    "windows-1254": "windows-1254",
    "windows-1257": "windows-1257",
    "ISO-8859-2": "iso-8859-2",
    "macintosh": "macintosh",
    "KOI8-R": "koi8-r",
    "IBM866": "ibm866",
}

#: DOS code pages (not in the WHATWG standard): CPython's codecs map all 256 bytes.
_DOS_SINGLE_BYTE = ("cp437", "cp850")

#: every single-byte codec a step may encode with; "iso-8859-1" is the byte-transparent one.
SINGLE_BYTE: tuple[str, ...] = ("iso-8859-1", *_WHATWG_SINGLE_BYTE, *_DOS_SINGLE_BYTE)

#: legacy CJK multi-byte encodings (WHATWG names) whose bytes are often read as Latin-1/windows-1252.
CJK_LEGACY: tuple[str, ...] = ("GBK", "Big5", "Shift_JIS", "EUC-KR", "EUC-JP")

#: decoders UTF-8 bytes are wrongly read with in CJK locales; "gb18030" encodes the 4-byte forms GBK's
#: encoder refuses (the GBK *decoder* is the gb18030 decoder, so both are exact inverses of it).
_CJK_READERS: tuple[str, ...] = ("GBK", "gb18030", "Big5", "Shift_JIS", "EUC-KR", "EUC-JP")


def _pairs() -> tuple[tuple[str, str], ...]:
    """(encode_as, decode_as) pairs in preference order (first wins when two give the same text).

    Order: ftfy's classic UTF-8 chains first (iso-8859-1 before windows-1252, as ftfy does, since the
    latter is only needed when the text holds windows-1252-only characters), then CJK legacy bytes read
    as Latin-1/windows-1252, then UTF-8 read as a CJK encoding.
    """
    out = [(enc, "UTF-8") for enc in SINGLE_BYTE]
    out += [(enc, cjk) for enc in ("iso-8859-1", "windows-1252") for cjk in CJK_LEGACY]
    out += [(reader, "UTF-8") for reader in _CJK_READERS]
    return tuple(out)


#: every (encode_as, decode_as) pair the search tries, in preference order.
STEP_PAIRS: tuple[tuple[str, str], ...] = _pairs()

_MULTI_BYTE = frozenset(("UTF-8", *CJK_LEGACY, "gb18030"))


class CodecFailure(ValueError):
    """A strict encode or decode failed: the step does not apply to this text."""


@dataclass(frozen=True, slots=True)
class _ByteTable:
    """A single-byte codec as two exact tables (decode: byte -> char, encode: char -> byte)."""

    decode: Mapping[int, str]  # byte -> char (NO_ENTRY where the byte is an error), for str.translate
    encode: Mapping[int, int]  # ord(char) -> byte, for str.translate
    encodable: frozenset[str]  # the chars ``encode`` knows


@cache
def _table(name: str) -> _ByteTable:
    """Build the exact 256-byte table of a single-byte codec (pure function of the codec name)."""
    if name == "iso-8859-1":
        chars = "".join(map(chr, range(256)))
    elif name in _WHATWG_SINGLE_BYTE:
        chars = "".join(map(chr, range(128))) + INDEXES[_WHATWG_SINGLE_BYTE[name]]
    else:
        chars = codecs.decode(bytes(range(256)), name)
    enc = {ord(ch): b for b, ch in enumerate(chars) if ch != NO_ENTRY}
    return _ByteTable(dict(enumerate(chars)), enc, frozenset(map(chr, enc)))


#: byte sequences each multi-byte decoder accepts that its encoder never writes (see encode_strict).
_DECODER_ONLY_SEQUENCES: Mapping[str, tuple[tuple[range, range, range | None], ...]] = {
    # (lead bytes, trail bytes, third bytes or None)
    "Big5": ((range(0x81, 0xA1), range(0x40, 0xFF), None),),
    # pointers 8272-8835 (lead 0xED-0xEE) are NEC duplicates of the IBM rows the encoder writes (0xFA-0xFC)
    "Shift_JIS": ((range(0xED, 0xEF), range(0x40, 0xFD), None),),
    "EUC-JP": ((range(0x8F, 0x90), range(0xA1, 0xFF), range(0xA1, 0xFF)),),
}


@cache
def _decoder_inverse(name: str) -> Mapping[str, bytes]:
    """Char -> bytes for the sequences only ``name``'s decoder produces.

    A char produced by two such sequences (Big5's HKSCS rows repeat some characters) is left out: its
    original bytes cannot be known, so a text holding it does not round-trip.

    Built by decoding each candidate sequence once (pure function of the codec; a few thousand
    decodes, done only when a text actually needs it).
    """
    out: dict[str, bytes] = {}
    ambiguous: set[str] = set()
    for leads, trails, thirds in _DECODER_ONLY_SEQUENCES.get(name, ()):
        for lead in leads:
            for trail in trails:
                for third in thirds or (None,):
                    seq = bytes((lead, trail)) if third is None else bytes((lead, trail, third))
                    try:
                        ch = decode_as(seq, name, errors="strict")
                    except (DecodeError, UnicodeDecodeError):
                        continue
                    if len(ch) == 1:
                        if ch in out:
                            ambiguous.add(ch)
                        out[ch] = seq
    return {ch: seq for ch, seq in out.items() if ch not in ambiguous}


def byte_table(name: str) -> tuple[str, ...]:
    """The 256 characters the single-byte codec ``name`` decodes each byte to (NO_ENTRY: an error byte)."""
    decode = _table(name).decode
    return tuple(decode[byte] for byte in range(256))


def decoder_only_bytes(name: str, ch: str) -> bytes | None:
    """The bytes only ``name``'s decoder gives ``ch`` (``_decoder_inverse``), or None: what ``encode_strict``
    writes for a character the encoder refuses (the compiled steps ask it for those characters only)."""
    if name not in _DECODER_ONLY_SEQUENCES:
        return None
    return _decoder_inverse(name).get(ch)


def known_codec(name: str) -> bool:
    """True when ``name`` can appear in a repair step."""
    return name in SINGLE_BYTE or name in _MULTI_BYTE


def single_byte_encodes(text: str, name: str) -> bool:
    """True when the single-byte codec ``name`` encodes every character of ``text`` (no exception raised)."""
    return _table(name).encodable.issuperset(text)


def encode_strict(text: str, name: str) -> bytes:
    """Encode ``text`` exactly with codec ``name``; raise CodecFailure on any unencodable character."""
    if name in SINGLE_BYTE:
        table = _table(name)
        if not table.encodable.issuperset(text):
            bad = next(ch for ch in text if ch not in table.encodable)
            raise CodecFailure(f"{name} cannot encode U+{ord(bad):04X}")
        # each char becomes the code point equal to its byte value, which latin-1 writes out as is
        return text.translate(table.encode).encode("latin-1")
    out = bytearray()
    rest = text
    while True:
        try:
            out += encode_as(rest, name, errors="strict")
            return bytes(out)
        except (EncodeError, UnicodeEncodeError) as exc:
            # The standard's encoders deliberately skip some byte sequences their decoders accept (Big5's
            # HKSCS lead bytes 0x81-0xA0, Shift_JIS's NEC/IBM duplicates, EUC-JP's JIS X 0212): text
            # produced by the decoder must be rebuilt with the decoder's inverse, not the encoder.
            inverse = decoder_only_bytes(name, rest[exc.start])
            if inverse is None:
                raise CodecFailure(str(exc)) from None
            out += encode_as(rest[: exc.start], name, errors="strict") + inverse
            rest = rest[exc.start + 1 :]


def decode_strict(data: bytes, name: str) -> str:
    """Decode ``data`` exactly with codec ``name``; raise CodecFailure on any invalid byte sequence.

    Strict UTF-8 is CPython's own decoder: on valid input the standard's UTF-8 decoder gives the same text,
    and both refuse the same sequences (overlong forms, surrogates, past U+10FFFF, cut short), the
    well-formed UTF-8 of Unicode's table 3-7 (tests/repair/test_repair_codecs.py compares them).
    """
    if name == "UTF-8":
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CodecFailure(str(exc)) from None
    if name in SINGLE_BYTE:
        out = data.decode("latin-1").translate(_table(name).decode)
        if NO_ENTRY in out:
            raise CodecFailure(f"{name} cannot decode a byte")
        return out
    try:
        return decode_as(data, name, errors="strict")
    except (DecodeError, UnicodeDecodeError) as exc:
        raise CodecFailure(str(exc)) from None


def decode_lossy(data: bytes, name: str) -> str:
    """Decode with replacement, the way the text being repaired was produced (used by the corpus tools)."""
    if name in SINGLE_BYTE:
        return data.decode("latin-1").translate(_table(name).decode).replace(NO_ENTRY, "\ufffd")
    return decode_as(data, name, errors="replace")


#: bytes each decoder reads as the first byte of a multi-byte sequence (WHATWG Encoding Standard, the
#: decoders' "lead" steps: UTF-8 decoder step 4, gb18030 decoder step 5, Big5 step 5, EUC-JP step 6,
#: Shift_JIS step 6, EUC-KR step 4); tests/repair/test_repair_alphabet.py checks each against the decoder.
_LEAD_BYTES: Mapping[str, frozenset[int]] = {
    "UTF-8": frozenset(range(0xC2, 0xF5)),
    "GBK": frozenset(range(0x81, 0xFF)),
    "gb18030": frozenset(range(0x81, 0xFF)),
    "Big5": frozenset(range(0x81, 0xFF)),
    "EUC-KR": frozenset(range(0x81, 0xFF)),
    "EUC-JP": frozenset((0x8E, 0x8F, *range(0xA1, 0xFF))),
    "Shift_JIS": frozenset((*range(0x81, 0xA0), *range(0xE0, 0xFD))),
}

_ASCII_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")

#: bytes that can follow a lead byte inside one character (the decoders' trail steps; gb18030's four-byte
#: form has a digit second byte, EUC-JP's 0x8F form a third byte A1-FE, also a trail here); checked
#: against the decoders by tests/repair/test_repair_alphabet.py.
_TRAIL_BYTES: Mapping[str, frozenset[int]] = {
    "UTF-8": frozenset(range(0x80, 0xC0)),
    "GBK": frozenset((*range(0x30, 0x3A), *range(0x40, 0x7F), *range(0x80, 0xFF))),
    "gb18030": frozenset((*range(0x30, 0x3A), *range(0x40, 0x7F), *range(0x80, 0xFF))),
    "Big5": frozenset((*range(0x40, 0x7F), *range(0xA1, 0xFF))),
    "EUC-KR": frozenset(range(0x41, 0xFF)),
    "EUC-JP": frozenset(range(0xA1, 0xFF)),
    "Shift_JIS": frozenset((*range(0x40, 0x7F), *range(0x80, 0xFD))),
}

#: the blocks whose characters a multi-byte codec's alphabet is worked out for, character by character:
#: Latin-1 to NKo (Western, Greek, Cyrillic, Armenian, Hebrew, Arabic letters), Latin Extended Additional
#: (Vietnamese) to Glagolitic (Greek Extended, punctuation, symbols), the non-CJK text a CJK encoding may
#: also hold. Every other non-ASCII character counts as in the alphabet (never pruned): a larger alphabet
#: only prunes less, it never changes a result.
_INERT_CANDIDATES = (range(0x80, 0x800), range(0x1E00, 0x2C00))


def _changes(ch: str, data: bytes, decode_as: str) -> bool:
    """Whether character ``ch``, rebuilt as ``data``, can be where a run decoded as ``decode_as`` changes."""
    if len(data) == 1 and data[0] < 0x80:
        return data[0] != ord(ch)  # Shift_JIS writes U+00A5 as 0x5C: "¥" comes back as a backslash
    if any(byte in _LEAD_BYTES[decode_as] for byte in data):
        return True
    try:  # a byte the decoder reads alone (gb18030's 0x80, Shift_JIS's half-width katakana 0xA1-0xDF)
        return len(data) == 1 and decode_strict(data, decode_as) != ch
    except CodecFailure:
        return False


@dataclass(frozen=True, slots=True)
class StepAlphabet:
    """The characters that can make a step (``encode_as``, ``decode_as``) change a run of text.

    A run (or a whole text) that holds none of them is provably left as it is by the step: rebuilt with
    ``encode_as``, its bytes are ASCII, which every decoder here reads as itself, and high bytes that are
    neither a lead byte of ``decode_as`` nor a byte it reads alone as another character; such a byte is an
    error, or a trail byte that needs a lead before it. So the step fails on that run, or gives it back
    unchanged. From a single-byte codec, a lead must even be followed by a character rebuilt as one of the
    decoder's trail bytes (``lead_pair``): no multi-byte character is without one. ``chars`` is exact for
    single-byte codecs (the 128 high bytes); for multi-byte ones
    ``inert`` lists ASCII and the characters of ``_INERT_CANDIDATES`` that are *not* in it, and every other
    character counts as in it.
    """

    chars: frozenset[str] | None  # single-byte encode_as: the alphabet itself
    inert: frozenset[str] | None  # multi-byte encode_as: the characters outside it (ASCII included)
    #: single-byte encode_as: a character the decoder reads alone as another one, or a lead byte followed
    #: by a trail byte (for UTF-8 a continuation byte, 0x80-0xBF), which every multi-byte character is
    lead_pair: re.Pattern[str] | None = None
    #: multi-byte encode_as, decode_as UTF-8: a character whose bytes are in no UTF-8, one that opens a run
    #: or follows an ASCII one although its bytes do not start with an ASCII or a lead byte, or one that
    #: ends a run or precedes an ASCII one although its last byte is 0xC0-0xFF (a lead byte cut short, or
    #: never valid): a run holding one is not UTF-8
    bad_start: re.Pattern[str] | None = None
    #: multi-byte encode_as: the same facts for every other character, learnt when a text first holds it
    learnt: _CharBytes | None = None

    def meets(self, text: str) -> bool:
        """True when ``text`` holds a character of the alphabet (False proves the step cannot change it)."""
        if self.lead_pair is not None:
            return self.lead_pair.search(text) is not None
        if self.chars is not None:
            return not self.chars.isdisjoint(text)
        assert self.inert is not None
        if self.learnt is not None:
            return self.learnt.meets(text, self.bad_start)
        if self.inert.issuperset(text):
            return False
        return self.bad_start is None or any(
            not self.inert.issuperset(run) and self.bad_start.search(run) is None
            for run in _ASCII_WHITESPACE.split(text)
        )


class _CharBytes:
    """What a multi-byte ``encode_as`` writes for each character, as facts for rebuilding UTF-8: learnt once
    per character (a pure function of it: one encoder call for all the new characters of a text), so a
    text holding only known characters costs set operations. The facts are added before the character
    is marked known, so a reader that finds it known finds its facts."""

    def __init__(self, name: str, facts: Mapping[str, bytes | None]) -> None:
        self.name = name
        self.known: set[str] = set(map(chr, range(0x80)))
        self.inert: set[str] = set(self.known)  # outside the alphabet (ASCII: every encoder writes it as is)
        self.never: set[str] = set()  # no UTF-8 holds their bytes (or they cannot be rebuilt at all)
        self.bad_starts: set[str] = set()  # UTF-8 cannot start with their first byte
        self.bad_ends: set[str] = set()  # UTF-8 cannot end with their last byte
        self._add(facts)

    def _add(self, facts: Mapping[str, bytes | None]) -> None:
        for ch, data in facts.items():
            if data is None:
                self.inert.add(ch)
                self.never.add(ch)
                continue
            if not _changes(ch, data, "UTF-8"):
                self.inert.add(ch)
            if not _may_be_in_utf8(data):
                self.never.add(ch)
            if data[0] >= 0x80 and data[0] not in _LEAD_BYTES["UTF-8"]:
                self.bad_starts.add(ch)
            if data[-1] >= 0xC0:
                self.bad_ends.add(ch)
        self.known.update(facts)

    def facts(self, ch: str) -> int:
        """What ``ch`` is here as STEP_FACT_* bits (learnt first if new), for ``multi_byte_step_facts``."""
        if ch not in self.known:
            self._add(_encoded_each((ch,), self.name))
        return (
            (STEP_FACT_INERT if ch in self.inert else 0)
            | (STEP_FACT_NEVER if ch in self.never else 0)
            | (STEP_FACT_BAD_START if ch in self.bad_starts else 0)
            | (STEP_FACT_BAD_END if ch in self.bad_ends else 0)
        )

    def meets(self, text: str, bad_start: re.Pattern[str] | None) -> bool:
        """``StepAlphabet.meets`` for a step decoding UTF-8 (``bad_start``: the fixed blocks' pattern)."""
        if not self.known.issuperset(text):
            self._add(_encoded_each(set(text).difference(self.known), self.name))
        if self.inert.issuperset(text):
            return False
        for run in _ASCII_WHITESPACE.split(text):
            if self.inert.issuperset(run) or not self.never.isdisjoint(run):
                continue
            if run[0] in self.bad_starts or run[-1] in self.bad_ends:
                continue
            if bad_start is None or bad_start.search(run) is None:
                return True
        return False


#: ``multi_byte_step_facts`` bits, per step (STEP_FACT_BITS bits each): outside the alphabet (``inert``),
#: in no UTF-8 (``never``), UTF-8 cannot start with it / end with it (``bad_starts`` / ``bad_ends``)
STEP_FACT_INERT, STEP_FACT_NEVER, STEP_FACT_BAD_START, STEP_FACT_BAD_END = 0x1, 0x2, 0x4, 0x8
STEP_FACT_BITS = 4
#: a character of ``_INERT_CANDIDATES``, whose bad starts and ends also count after / before ASCII
#: (the ``bad_start`` pattern of ``step_alphabet``)
STEP_FACT_FIXED = 1 << 24


def multi_byte_step_facts(ch: str, steps: tuple[tuple[str, str], ...]) -> int:
    """What ``ch`` is for ``StepAlphabet.meets`` of each step (``encode_as`` multi-byte, ``decode_as``
    UTF-8), packed for the compiled twin ``mojifix._kernels.multi_byte_steps_meet``, which asks once per
    code point: STEP_FACT_* bits of step k at bit STEP_FACT_BITS * k, and STEP_FACT_FIXED."""
    bits = STEP_FACT_FIXED if any(ord(ch) in block for block in _INERT_CANDIDATES) else 0
    for k, (encoder, decoder) in enumerate(steps):
        learnt = step_alphabet(encoder, decoder).learnt
        if learnt is None:
            raise ValueError(f"step {encoder} -> {decoder} is not a multi-byte step decoding UTF-8")
        bits |= learnt.facts(ch) << (STEP_FACT_BITS * k)
    return bits


@cache
def _candidate_bytes(name: str) -> Mapping[str, bytes | None]:
    """What ``encode_strict`` writes for each character of ``_INERT_CANDIDATES`` (None: cannot encode)."""
    return _encoded_each([chr(cp) for block in _INERT_CANDIDATES for cp in block], name)


def _encoded_each(chars: Iterable[str], name: str) -> dict[str, bytes | None]:
    """What ``encode_strict`` writes for each non-ASCII character of ``chars`` (None: cannot encode).

    One call of the encoder over all of them, a newline after each (the encoders are stateless and write
    ASCII as itself), in "html" mode, which writes ``&#N;`` for a character it cannot encode; only those
    are looked up in the decoder's inverse, as ``encode_strict`` does. A lone surrogate cannot be encoded.
    """
    todo = [ch for ch in chars if not ch.isascii()]
    if not todo:
        return {}
    scalar = [ch for ch in todo if not 0xD800 <= ord(ch) <= 0xDFFF]
    pieces = encode_as("\n".join(scalar) + "\n", name, errors="html").split(b"\n") if scalar else []
    out: dict[str, bytes | None] = dict.fromkeys(todo)
    for ch, data in zip(scalar, pieces, strict=False):
        if data == f"&#{ord(ch)};".encode():
            out[ch] = _decoder_inverse(name).get(ch)  # what encode_strict falls back on
        else:
            out[ch] = data
    return out


def _may_be_in_utf8(data: bytes) -> bool:
    """False when ``data`` is part of no valid UTF-8: it holds a byte UTF-8 never uses (C0, C1, F5-FF) or a
    lead byte followed by something other than a continuation byte."""
    for i, byte in enumerate(data):
        if byte in (0xC0, 0xC1) or byte >= 0xF5:
            return False
        if byte in _LEAD_BYTES["UTF-8"] and i + 1 < len(data) and not 0x80 <= data[i + 1] <= 0xBF:
            return False
    return True


def _char_class(chars: Iterable[str]) -> str:
    """A regular-expression class matching exactly ``chars``."""
    return "[" + "".join(re.escape(ch) for ch in sorted(chars)) + "]"


@cache
def step_alphabet(encode_as: str, decode_as: str) -> StepAlphabet:
    """Build the alphabet of one step (pure function of the two codec names)."""
    if encode_as in SINGLE_BYTE:
        table = _table(encode_as)
        chars = frozenset(
            ch for ch in table.encodable if _changes(ch, bytes((table.encode[ord(ch)],)), decode_as)
        )
        byte_of = table.encode
        leads = {ch for ch in chars if byte_of[ord(ch)] in _LEAD_BYTES[decode_as]}
        trails = {ch for ch in table.encodable if byte_of[ord(ch)] in _TRAIL_BYTES[decode_as]}
        lead_pair = f"{_char_class(leads)}{_char_class(trails)}"
        alone = chars - leads  # bytes the decoder reads alone as another character
        pattern = f"{_char_class(alone)}|{lead_pair}" if alone else lead_pair
        return StepAlphabet(chars, None, re.compile(pattern))
    inert = set(map(chr, range(0x80)))  # every encoder here writes ASCII as itself
    bad_starts: set[str] = set()  # UTF-8 cannot start with their first byte
    bad_ends: set[str] = set()  # UTF-8 cannot end with their last byte (a lead byte, or never valid)
    never: set[str] = set()  # their bytes are in no UTF-8 at all
    for ch, data in _candidate_bytes(encode_as).items():
        if data is None:
            inert.add(ch)  # a run holding it cannot be rebuilt at all
            bad_starts.add(ch)
            continue
        if not _changes(ch, data, decode_as):
            inert.add(ch)
        if data[0] >= 0x80 and data[0] not in _LEAD_BYTES[decode_as]:
            bad_starts.add(ch)
        if data[-1] >= 0xC0:
            bad_ends.add(ch)
        if not _may_be_in_utf8(data):
            never.add(ch)
    bad_start = None
    if decode_as == "UTF-8":
        starts, ends = _char_class(bad_starts), _char_class(bad_ends)
        bad_start = re.compile(
            f"{_char_class(never)}|(?:^|(?<=[\\x00-\\x7f])){starts}|{ends}(?=[\\x00-\\x7f]|$)"
        )
    learnt = _CharBytes(encode_as, _candidate_bytes(encode_as)) if decode_as == "UTF-8" else None
    return StepAlphabet(None, frozenset(inert), None, bad_start, learnt)
