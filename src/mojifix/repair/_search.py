"""Chain search: find the wrong decodings that produced a text, and prove that undoing them is right.

Proof, in order (each heuristic says what it catches and which false positive it avoids):

1. **Strict round trip.** A step applies only if the text encodes *exactly* with the codec that garbled
   it and the rebuilt bytes decode *strictly* with the right one. Catches every real chain (the wrong
   decoder was a bijection on the bytes it saw); avoids "repairing" text whose bytes are gone (U+FFFD,
   ``锟斤拷``) or text that was never mojibake: correct French ``été`` is E9 74 E9 in Latin-1, invalid UTF-8.
2. **Much more plausible.** The result must score ``MIN_GAIN`` (log10) above the input under the
   language model (``_score``). Catches the chains where strict decoding is weak evidence (GBK, Big5 and
   Shift_JIS accept most pairs of high bytes); avoids short ambiguous strings (``é›…`` is UTF-8 雅 read as
   windows-1252 but also plausible French-with-punctuation: gain 0.6, left alone).
3. **Fewest layers.** A two-step result must beat the best one-step result by ``DEPTH_MARGIN``. Avoids
   "over-repair" chains that trade plausible text for slightly more plausible text in another script.
4. **Runs only when each run is proven.** Mixed text (``Café and CafÃ©``) is repaired run by run
   (runs = ASCII-whitespace-separated tokens: no chain can put a multi-byte character across an ASCII
   whitespace byte, as every trail byte in UTF-8/GBK/Big5/Shift_JIS/EUC is >= 0x30). The step is kept
   only if *every* run it changes gains ``RUN_MIN_GAIN`` (UTF-8: ``RUN_MIN_GAIN_UTF8``), since replaying
   it changes every run that round-trips; otherwise a correct run that merely decodes (``élève`` as GBK)
   would be damaged.
5. **UTF-8 first on near ties** (``LEGACY_CJK_PRIOR``): ``Â©`` is ©, not GBK 息.
6. **Beam**: only the ``EXPAND_BEST`` most plausible texts of a layer are undone again (speed bound).
7. **Legacy CJK is innermost**: nothing is undone below a GBK/Big5/Shift_JIS/EUC decoding (a Catalan
   text with ’ was once "repaired" through Shift_JIS and then GBK->UTF-8 into combining-mark soup).
8. **EF BF BD is UTF-8**: rebuilt bytes holding U+FFFD's UTF-8 form are never decoded as legacy CJK
   (that is how 锟斤拷 and 鐃緒申 are made).
9. **Lost bytes stay lost** (scope "lossy"): when the text holds U+FFFD, the bytes between them are
   rebuilt exactly and each U+FFFD stays one U+FFFD; the UTF-8 character a lost byte belonged to is
   dropped into it, never guessed.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from mojifix import _native
from mojifix.errors import RepairError
from mojifix.repair._codecs import (
    CJK_LEGACY,
    SINGLE_BYTE,
    STEP_PAIRS,
    CodecFailure,
    StepAlphabet,
    byte_table,
    decode_strict,
    decoder_only_bytes,
    encode_strict,
    known_codec,
    multi_byte_step_facts,
    single_byte_encodes,
    step_alphabet,
)
from mojifix.repair._score import Score, score
from mojifix.repair.result import Repaired, Step
from mojifix.whatwg import codec_of
from mojifix.whatwg._cjk import StatelessCjkCodec
from mojifix.whatwg._tables import INDEXES

__all__ = ["apply_plan", "apply_step", "repair"]

#: required log10 likelihood ratio between the repaired text and the input. Calibrated on the corpus in
#: tests/repair (see docs/repair.md): every repaired case there gains >= 4.3 (``Â© 2024 ACME``; all but
#: 16 of 1,596 gain > 6), the best strict round trip of any negative gains <= 0.6 (``é›…`` -> 雅), and of
#: 2,472 out-of-sample system translations <= -0.9. 4 sits in the gap, nearer the top because a false
#: change is worse than a missed repair.
MIN_GAIN = 4.0

#: extra gain a second layer must bring over the best single layer: the same proof as a first layer
#: (a two-layer chain is two repairs, each must be proven on its own).
DEPTH_MARGIN = MIN_GAIN

#: texts of one layer expanded into the next: a true first layer of double mojibake is the most
#: plausible text of its layer in every corpus case (it undoes the outer layer exactly); 4 leaves room.
EXPAND_BEST = 4

#: texts longer than this are searched on a sample (``_sample``) of about SAMPLE_CHARS characters of
#: their non-ASCII runs, then proven on the whole: the search costs ~40 candidate texts, the proof 2.
#: 2,000 characters hold dozens of garbled words in every corpus language, plenty to pick a chain.
LONG_TEXT_CHARS = 3_000
SAMPLE_CHARS = 2_000

#: log10 prior of a step that decodes as a legacy CJK encoding, relative to one decoding as UTF-8, used
#: to rank alternative decodings of one layer (not in the proof, which compares with the input).
#: Strict UTF-8 validity is strong evidence (a random pair of high bytes is valid UTF-8 ~12% of the
#: time, valid GBK ~97%) and UTF-8 is by far the most common source encoding, so ``Â©`` is © (UTF-8 C2 A9
#: read as Latin-1), not 息 (GBK C2 A9 read as Latin-1), although 息 alone scores higher than ©.
LEGACY_CJK_PRIOR = -2.0

#: gain each run changed by a "runs" step must show on its own.
RUN_MIN_GAIN = 1.0
#: the same for runs decoded as UTF-8: strict UTF-8 validity of a run is itself strong evidence, so such
#: a run only must not get *less* plausible (``Ã·`` -> ``÷`` gains just 10^0.25: both are one symbol).
RUN_MIN_GAIN_UTF8 = 0.0

#: prior odds (log10) against a text being mojibake, used to turn the gain into a confidence: the
#: corpus mix of a real database is mostly fine text, so a repair must overcome 1:100 odds.
PRIOR_LOG_ODDS = -2.0

_WHITESPACE_RUNS = re.compile(r"([ \t\n\r\f\v]+)")
_WHITESPACE_BYTES = re.compile(rb"([ \t\n\r\f\v]+)")

#: the signature of UTF-8 U+FFFD U+FFFD (EF BF BD EF BF BD) read as GBK: text that already held
#: replacement characters before it was mis-decoded, so the original bytes were lost twice over.
_KUNJINKAO = "锟斤拷"
#: U+FFFD (EF BF BD) read as windows-1252 / ISO-8859-1.
_FFFD_AS_LATIN1 = "ï¿½"
_UTF8_FFFD = "\ufffd".encode()


def _roundtrip(text: str, step: Step) -> str:
    return decode_strict(encode_strict(text, step.encode_as), step.decode_as)


def _incomplete_tail(data: bytes) -> int:
    """Where a UTF-8 sequence cut short at the end of ``data`` starts (``len(data)`` if none is)."""
    for back in range(1, min(3, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            break
        if byte >= 0xC0:  # a lead byte: does the sequence it starts fit in what is left?
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return len(data) - back if back < need else len(data)
    return len(data)


def _roundtrip_lossy(text: str, step: Step) -> str:
    """Scope "lossy": rebuild the bytes between U+FFFDs exactly; each U+FFFD stays one U+FFFD.

    The wrong decoder replaced one or two bytes by each U+FFFD (the standard's GBK/Big5/Shift_JIS
    decoders put an ASCII byte after an invalid lead back in the stream, so ASCII is never lost). The
    UTF-8 character those bytes belonged to is damaged: its remains (a cut-short sequence before the
    U+FFFD, orphan continuation bytes after it) are dropped; every other byte must decode strictly.
    """
    if step.decode_as != "UTF-8":
        raise CodecFailure("lossy steps rebuild UTF-8 only")
    pieces = text.split("\ufffd")
    out: list[str] = []
    for i, piece in enumerate(pieces):
        data = encode_strict(piece, step.encode_as)
        start, end = 0, len(data)
        if i > 0:  # orphan continuation bytes right after lost bytes
            while start < min(end, 3) and 0x80 <= data[start] <= 0xBF:
                start += 1
        if i < len(pieces) - 1:
            end = max(start, _incomplete_tail(data[:end]))
        out.append(decode_strict(data[start:end], "UTF-8"))
    # one U+FFFD per loss site, as in the input: merging adjacent ones would make the text "better"
    # for the scorer without any evidence (and two sites may have hit the same character, so a run of
    # U+FFFD stands for one or more lost characters)
    return "\ufffd".join(out)


def apply_step(text: str, step: Step) -> str:
    """Apply one step; scopes "all" and "lossy" raise CodecFailure if the text does not round-trip."""
    if step.scope == "all":
        return _roundtrip(text, step)
    if step.scope == "lossy":
        return _roundtrip_lossy(text, step)
    return _apply_runs(text, step, prune=True)


def _apply_runs(text: str, step: Step, *, prune: bool) -> str:
    """Scope "runs": each run that round-trips is replaced; ``prune`` skips the runs that hold no character
    of the step's alphabet (``StepAlphabet``: they provably fail or come back unchanged)."""
    alphabet = step_alphabet(step.encode_as, step.decode_as)
    parts = _WHITESPACE_RUNS.split(text)
    for i in range(0, len(parts), 2):  # even indexes are runs, odd ones the whitespace between them
        run = parts[i]
        if run and not run.isascii() and (not prune or alphabet.meets(run)):
            with contextlib.suppress(CodecFailure):
                parts[i] = _roundtrip(run, step)
    return "".join(parts)


def apply_plan(text: str, plan: tuple[Step, ...] | list[Step] | list[dict[str, str]]) -> str:
    """Replay a plan from ``repair()`` on another text with the same history.

    Raises RepairError when a step names an unknown codec or (scope "all") the text does not round-trip:
    that text did not go through the same wrong decodings.
    """
    for raw in plan:
        step = raw if isinstance(raw, Step) else Step.from_dict(raw)
        for name in (step.encode_as, step.decode_as):
            if not known_codec(name):
                raise RepairError(f"repair step names unknown codec {name!r}; see mojifix.repair docs")
        try:
            text = apply_step(text, step)
        except CodecFailure as exc:
            raise RepairError(
                f"cannot apply step '{step}': {exc}; this text did not go through the same wrong decoding"
            ) from None
    return text


@dataclass(frozen=True, slots=True)
class _Candidate:
    text: str
    plan: tuple[Step, ...]

    @property
    def prior(self) -> float:
        """log10 prior of this plan's chain (see LEGACY_CJK_PRIOR)."""
        return sum(LEGACY_CJK_PRIOR for step in self.plan if step.decode_as in CJK_LEGACY)


def _rebuilt(text: str, encode_as: str, rebuilt: dict[str, bytes | None]) -> bytes | None:
    """The text's bytes in ``encode_as`` (None: not encodable), encoded once per expansion."""
    if encode_as not in rebuilt:
        try:
            rebuilt[encode_as] = encode_strict(text, encode_as)
        except CodecFailure:
            rebuilt[encode_as] = None
    return rebuilt[encode_as]


def _lossy_candidate(text: str, plan: tuple[Step, ...], step: Step) -> _Candidate | None:
    """The text rebuilt by ``step`` in scope "lossy" (heuristic 9), or None where it does not apply."""
    lossy = Step(step.encode_as, step.decode_as, "lossy")
    try:
        return _Candidate(_roundtrip_lossy(text, lossy), (*plan, lossy))
    except CodecFailure:
        return None


def _expand_every_step(text: str, plan: tuple[Step, ...]) -> list[_Candidate]:
    """Every text one step away (strict whole-text first; run by run where the whole text fails).

    The reference search: every step of STEP_PAIRS, every run encoded on its own. ``_expand`` gives the
    same candidates in the same order with less work (the tests compare the two).
    """
    out: list[_Candidate] = []
    rebuilt: dict[str, bytes | None] = {}  # encode_as -> the text's bytes (None: not encodable)
    for encode_as, decode_as in STEP_PAIRS:
        step = Step(encode_as, decode_as, "all")
        data = _rebuilt(text, encode_as, rebuilt)
        if data is not None:
            if decode_as != "UTF-8" and _UTF8_FFFD in data:
                # heuristic 8: EF BF BD is U+FFFD in UTF-8; read as GBK it is 锟斤拷's 锟, as EUC-JP 鐃緒申's
                # 鐃: those bytes are UTF-8 that already held a replacement character, never legacy CJK
                continue
            try:
                out.append(_Candidate(decode_strict(data, decode_as), (*plan, step)))
                continue
            except CodecFailure:
                pass
        lossy = _lossy_candidate(text, plan, step) if "\ufffd" in text and decode_as == "UTF-8" else None
        if lossy is not None:
            out.append(lossy)
            continue
        runs_step = Step(encode_as, decode_as, "runs")
        new = _apply_runs(text, runs_step, prune=False)
        if new != text:
            out.append(_Candidate(new, (*plan, runs_step)))
    return out


def _expand(text: str, plan: tuple[Step, ...]) -> list[_Candidate]:
    """``_expand_every_step``'s candidates, in its order, with less work.

    * A step whose alphabet (``StepAlphabet``) the text does not meet is skipped, and so is a run that does
      not meet it: neither can give a candidate. (A lossy step, possible when the text holds U+FFFD, drops
      bytes without any alphabet character, so steps decoding UTF-8 are then never skipped.)
    * Run by run, the runs' bytes are the pieces of the whole text's bytes between whitespace bytes when
      the whole text encodes (every encoder here is stateless and writes ASCII whitespace, and only it, as
      those bytes), so each run is not encoded again.
    """
    out: list[_Candidate] = []
    rebuilt: dict[str, bytes | None] = {}  # encode_as -> the text's bytes (None: not encodable)
    decoded = _Decodings()
    lost = "\ufffd" in text
    parts: list[str] | None = None  # the text split at whitespace, once needed
    for step, runs_step, alphabet in _steps():
        encode_as, decode_as = step.encode_as, step.decode_as
        lossy_possible = lost and decode_as == "UTF-8"
        if not lossy_possible and not alphabet.meets(text):
            continue
        data = _rebuilt(text, encode_as, rebuilt)
        if data is not None:
            if decode_as != "UTF-8" and _UTF8_FFFD in data:
                continue  # heuristic 8, as in _expand_every_step
            whole = decoded.of(data, decode_as)
            if whole is not None:
                out.append(_Candidate(whole, (*plan, step)))
                continue
        lossy = _lossy_candidate(text, plan, step) if lossy_possible else None
        if lossy is not None:
            out.append(lossy)
            continue
        if parts is None:
            parts = _WHITESPACE_RUNS.split(text)
        new = _runs_decoded(parts, data, runs_step, alphabet, decoded)
        if new != text:
            out.append(_Candidate(new, (*plan, runs_step)))
    return out


def _candidates(text: str, plan: tuple[Step, ...]) -> list[_Candidate]:
    """``_expand``'s candidates, in its order: with the compiled core, from two C calls (``_CompiledSteps``),
    one for the steps that encode with a single-byte codec, one for the others (encoding with a CJK codec)
    whose alphabets meet the text.

    In a text holding U+FFFD every multi-byte step (they decode UTF-8) may be lossy (heuristic 9), so
    there they are all tried. tests/native/test_repair_kernels.py proves the same candidates.
    """
    compiled = _compiled_steps()
    if compiled is None:
        return _expand(text, plan)
    steps = _steps()
    lost = "\ufffd" in text
    multi_byte = compiled.expand_multi_byte(text, compiled.every_multi_byte if lost else compiled.meets(text))
    return [
        _Candidate(new, (*plan, _scoped(steps[index], scope))) for index, scope, new in compiled.expand(text)
    ] + [
        _Candidate(new, (*plan, _scoped(steps[compiled.count + index], scope)))
        for index, scope, new in multi_byte
    ]


#: the scopes of the compiled steps' candidates, by the kernel's number for each
_SCOPES = ("all", "runs", "lossy")


def _scoped(steps: tuple[Step, Step, StepAlphabet], scope: int) -> Step:
    """The step of ``_steps()``'s entry ``steps`` in the compiled steps' scope number ``scope``."""
    if scope < 2:
        return steps[scope]
    return Step(steps[0].encode_as, steps[0].decode_as, _SCOPES[scope])


#: what the compiled single-byte steps decode as, by the kernel's number for each (GBK's decoder is the
#: gb18030 decoder, as in the standard)
_BYTE_STEP_DECODERS = ("UTF-8", "GBK", "Big5", "Shift_JIS", "EUC-KR", "EUC-JP")


@dataclass(frozen=True, slots=True)
class _CompiledSteps:
    """The first ``count`` steps of ``_steps()`` (those encoding with a single-byte codec) in C:
    ``expand(text)`` gives their candidates as (step index, scope number, text), in step order; for
    the others (multi-byte ``encode_as``), ``meets(text)`` has bit k set when the k-th one's alphabet
    meets the text, and ``expand_multi_byte`` gives their candidates."""

    count: int
    expand: Callable[[str], list[tuple[int, int, str]]]
    meets: Callable[[str], int]
    #: the candidates of the multi-byte steps whose bit is set in the mask, as ``expand`` gives them (the
    #: step index counted from ``count``); ``every_multi_byte``: the mask of all of them
    expand_multi_byte: Callable[[str, int], list[tuple[int, int, str]]]
    every_multi_byte: int


@cache
def _compiled_steps() -> _CompiledSteps | None:
    """The compiled steps, or None on the pure-Python path: ``mojifix._kernels.ByteSteps`` over the
    single-byte steps, the CJK encoders' compiled tables for the others.

    Built once (the codecs' 256-character tables, the CJK decoders' indexes and encoders' tables; a pure
    function of them); the multi-byte steps' character facts are learnt once per code point.
    """
    kernels = _native.kernels()
    if kernels is None:
        return None
    from mojifix.whatwg.gb18030 import ranges_as_uint32 as gb18030_ranges_as_uint32  # (its family, lazily)

    count = next(i for i, (encode_as, _) in enumerate(STEP_PAIRS) if encode_as not in SINGLE_BYTE)
    if any(encode_as in SINGLE_BYTE for encode_as, _ in STEP_PAIRS[count:]):
        raise AssertionError("the single-byte steps must come first in STEP_PAIRS")
    tables = tuple("".join(byte_table(name)) for name in SINGLE_BYTE)
    steps = tuple(
        (SINGLE_BYTE.index(encode_as), _BYTE_STEP_DECODERS.index(decode_as))
        for encode_as, decode_as in STEP_PAIRS[:count]
    )
    byte_steps = kernels.ByteSteps(
        tables, steps, INDEXES["gb18030"], gb18030_ranges_as_uint32(), INDEXES["big5"], INDEXES["jis0208"],
        INDEXES["euc-kr"], INDEXES["jis0212"],
    )  # fmt: skip
    multi_byte = STEP_PAIRS[count:]
    facts = kernels.CharFacts(functools.partial(multi_byte_step_facts, steps=multi_byte), (), 0, 0, 0, 0)
    encoders = tuple(_encoder(name).compiled_encode_table(kernels) for name, _ in multi_byte)
    inverses = tuple(functools.partial(decoder_only_bytes, name) for name, _ in multi_byte)
    return _CompiledSteps(
        count,
        lambda text: kernels.byte_steps_expand(text, byte_steps),
        lambda text: kernels.multi_byte_steps_meet(text, facts, len(multi_byte)),
        lambda text, mask: kernels.cjk_steps_expand(text, encoders, inverses, mask),
        (1 << len(multi_byte)) - 1,
    )


def _encoder(name: str) -> StatelessCjkCodec:
    """The standard's CJK codec ``name``, whose compiled encode table ``encode_strict`` encodes with."""
    codec = codec_of(name)
    if not isinstance(codec, StatelessCjkCodec):
        raise AssertionError(f"{name} is not a CJK codec with a compiled encoder")
    return codec


@cache
def _steps() -> tuple[tuple[Step, Step, StepAlphabet], ...]:
    """For each pair of STEP_PAIRS, in order: its "all" and "runs" steps and its alphabet (built once)."""
    return tuple(
        (
            Step(encode_as, decode_as, "all"),
            Step(encode_as, decode_as, "runs"),
            step_alphabet(encode_as, decode_as),
        )
        for encode_as, decode_as in STEP_PAIRS
    )


#: what CPython's "surrogateescape" handler writes for an invalid byte: U+DC80-U+DCFF (strict UTF-8 never
#: decodes to a surrogate, so these mark exactly the bytes strict decoding refuses)
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def _utf8_runs(parts: list[str], data: bytes) -> str:
    """Scope "runs" decoding UTF-8 from the whole text's bytes ``data``, in one decoder call.

    The decoder restarts after each invalid byte and reads ASCII whitespace as itself, so the decoded
    text splits at whitespace into the runs' decodings; a run whose decoding holds an escaped byte is
    one strict decoding refuses, and is kept as it is.
    """
    pieces = _WHITESPACE_RUNS.split(data.decode("utf-8", "surrogateescape"))
    if len(pieces) != len(parts):  # cannot happen (same whitespace bytes); never guess
        raise AssertionError("UTF-8 runs do not align with the text's runs")
    out = list(parts)
    for i in range(0, len(parts), 2):
        if parts[i] and not parts[i].isascii() and _ESCAPED_BYTE.search(pieces[i]) is None:
            out[i] = pieces[i]
    return "".join(out)


@dataclass(slots=True)
class _Decodings:
    """The strict decodings one ``_expand`` call made: ISO-8859-1 and windows-1252 rebuild the same bytes
    from most text, which each CJK decoder then reads once, not twice."""

    known: dict[tuple[bytes, str], str | None] = field(default_factory=dict)  # None: does not decode

    def of(self, data: bytes, decode_as: str) -> str | None:
        key = (data, decode_as)
        if key not in self.known:
            try:
                self.known[key] = decode_strict(data, decode_as)
            except CodecFailure:
                self.known[key] = None
        return self.known[key]


def _runs_decoded(
    parts: list[str], data: bytes | None, step: Step, alphabet: StepAlphabet, decoded: _Decodings
) -> str:
    """Scope "runs" on a text split at whitespace (``parts``), from its bytes ``data`` when it encodes."""
    if data is not None and step.decode_as == "UTF-8":
        return _utf8_runs(parts, data)
    byte_parts = None if data is None else _WHITESPACE_BYTES.split(data)
    out = list(parts)
    for i in range(0, len(parts), 2):  # even indexes are runs, odd ones the whitespace between them
        run = parts[i]
        if run and not run.isascii() and alphabet.meets(run):
            if byte_parts is not None:
                rebuilt = byte_parts[i]
            elif alphabet.chars is not None and not single_byte_encodes(run, step.encode_as):
                continue  # a single-byte codec that cannot encode it (encode_strict would refuse)
            else:
                try:
                    rebuilt = encode_strict(run, step.encode_as)
                except CodecFailure:
                    continue
            new = decoded.of(rebuilt, step.decode_as)
            if new is not None:
                out[i] = new
    return "".join(out)


@dataclass(slots=True)
class _Scores:
    """The scores of one repair call's texts: each text scored once, word scores shared by all of them
    (candidates of one text share most of their words)."""

    words: dict[str, Any] = field(default_factory=dict)  # score()'s memo
    texts: dict[str, Score] = field(default_factory=dict)

    def of(self, text: str) -> Score:
        known = self.texts.get(text)
        if known is None:
            known = self.texts[text] = score(text, self.words)
        return known


def _runs_proven(before: str, after: str, step: Step, scores: _Scores) -> bool:
    """Every run a "runs" step changed must gain RUN_MIN_GAIN on its own (heuristic 4)."""
    threshold = RUN_MIN_GAIN_UTF8 if step.decode_as == "UTF-8" else RUN_MIN_GAIN
    old_parts = _WHITESPACE_RUNS.split(before)
    new_parts = _WHITESPACE_RUNS.split(after)
    if len(old_parts) != len(new_parts):
        return False
    for old, new in zip(old_parts, new_parts, strict=True):
        if old != new and scores.of(new).total - scores.of(old).total < threshold:
            return False
    return True


def _plan_proven(original: str, cand: _Candidate, scores: _Scores) -> bool:
    text = original
    for step in cand.plan:
        after = apply_step(text, step)
        if step.scope == "runs" and not _runs_proven(text, after, step, scores):
            return False
        text = after
    return True


def _confidence(gain: float) -> float:
    """Posterior that the repair is right given likelihood ratio 10**gain and the prior odds."""
    log_odds = gain + PRIOR_LOG_ODDS
    return 1.0 / (1.0 + 10 ** (-log_odds)) if log_odds > -300 else 0.0


def _unrecoverable(text: str) -> str | None:
    if _KUNJINKAO in text:
        return (
            f"'{_KUNJINKAO}' is U+FFFD U+FFFD encoded in UTF-8 and read as GBK: the text held replacement "
            "characters before it was mis-decoded, so those original bytes are gone; recover them from the "
            "source, not from this text"
        )
    if _FFFD_AS_LATIN1 in text:
        return (
            f"'{_FFFD_AS_LATIN1}' is U+FFFD encoded in UTF-8 and read as windows-1252: bytes were replaced "
            "before the text was mis-decoded and cannot be rebuilt"
        )
    n = text.count("\ufffd")
    if n:
        return (
            f"{n} U+FFFD replacement character(s): a decoder already replaced bytes it could not decode, so "
            "those bytes are gone (repair can only undo lossless decodings)"
        )
    return None


def _search(text: str, max_steps: int, scores: _Scores) -> _Candidate | None:
    """The most plausible chain result for ``text`` (heuristics 1, 3, 6); not yet proven (2, 4)."""
    # breadth-first over chains, one layer per level; the first plan reaching a text wins (preference order)
    seen: dict[str, _Candidate] = {text: _Candidate(text, ())}
    frontier = [seen[text]]
    for depth in range(max_steps):
        if depth:  # heuristic 6: only the most plausible texts of a layer are worth undoing again
            frontier = sorted(frontier, key=lambda c: -scores.of(c.text).total - c.prior)[:EXPAND_BEST]
        nxt: list[_Candidate] = []
        for cand in frontier:
            if cand.text.isascii() or (cand.plan and cand.plan[-1].decode_as in CJK_LEGACY):
                # heuristic 7: a legacy CJK decoding is the innermost layer: text decoded from GBK/Big5/
                # Shift_JIS/EUC bytes is the author's text, undoing more would assume it was mojibake
                # itself before being saved in a legacy CJK encoding (seen only as false positives)
                continue
            for new in _candidates(cand.text, cand.plan):
                if new.text not in seen:
                    seen[new.text] = new
                    nxt.append(new)
        frontier = nxt
    # within a layer, rank by score + chain prior (UTF-8 before legacy CJK on near ties)
    best_by_depth: dict[int, tuple[float, float, _Candidate]] = {}
    for cand in seen.values():
        if not cand.plan:
            continue
        total = scores.of(cand.text).total
        depth = len(cand.plan)
        if depth not in best_by_depth or total + cand.prior > sum(best_by_depth[depth][:2]):
            best_by_depth[depth] = (total, cand.prior, cand)
    # heuristic 3: prefer fewer layers unless the deeper result is clearly better (plain scores: the prior
    # only breaks near ties between alternative decodings of the same layer)
    chosen: tuple[float, float, _Candidate] | None = None
    for depth in sorted(best_by_depth):
        if chosen is None or best_by_depth[depth][0] >= chosen[0] + DEPTH_MARGIN:
            chosen = best_by_depth[depth]
    return chosen[2] if chosen else None


def _sample(text: str) -> str:
    """The runs holding non-ASCII characters, evenly spread over ``text``, about SAMPLE_CHARS long."""
    runs = [run for run in _WHITESPACE_RUNS.split(text)[::2] if not run.isascii()]
    total = sum(len(run) + 1 for run in runs)
    stride = max(1, math.ceil(total / SAMPLE_CHARS))
    return " ".join(runs[::stride])


def _replay_on(text: str, plan: tuple[Step, ...]) -> _Candidate | None:
    """A plan found on a sample, applied to the whole text; an "all" step that fails there becomes "runs"."""
    steps: list[Step] = []
    for step in plan:
        try:
            text = apply_step(text, step)
        except CodecFailure:
            step = Step(step.encode_as, step.decode_as, "runs")
            text = apply_step(text, step)
        steps.append(step)
    return _Candidate(text, tuple(steps))


def repair(text: str, *, max_steps: int = 2) -> Repaired:
    """Undo up to ``max_steps`` wrong decodings of ``text``, only when the repair is proven.

    Returns the text unchanged (empty plan) when it is fine, ambiguous, or its bytes are gone; see
    ``Repaired.unrecoverable`` for the latter. Texts longer than LONG_TEXT_CHARS are searched on a sample
    of their non-ASCII runs; the chain found is then applied to, and proven on, the whole text.
    """
    if not isinstance(text, str):
        raise TypeError(f"repair() takes str, not {type(text).__name__}; decode bytes with mojifix.decode")
    if max_steps < 0:
        raise RepairError(f"max_steps must be >= 0, not {max_steps}")
    lost = _unrecoverable(text)
    scores = _Scores()
    base = scores.of(text)
    if text.isascii() or max_steps == 0:
        return Repaired(text, (), 1.0, text, lost, base.language)

    if len(text) > LONG_TEXT_CHARS:
        found = _search(_sample(text), max_steps, scores)
        best = _replay_on(text, found.plan) if found else None
    else:
        best = _search(text, max_steps, scores)
    best_score = scores.of(best.text) if best else base
    gain = best_score.total - base.total
    if best is None or gain < MIN_GAIN or not _plan_proven(text, best, scores):
        top_gain = gain if best is not None else -math.inf
        return Repaired(text, (), 1.0 - _confidence(top_gain), text, lost, base.language)
    notes = (f"best chain gains 10^{gain:.1f} in likelihood ({base.total:.1f} -> {best_score.total:.1f})",)
    return Repaired(
        best.text,
        best.plan,
        _confidence(gain),
        text,
        lost or _unrecoverable(best.text),
        best_score.language,
        gain,
        notes,
    )
