"""The short-input fast paths of the decoders give exactly what the general paths give.

What is checked (see docs/whatwg.md, "Per-call overhead of the decoders"): ``Encoding.decode``'s
dispatch shortcut against ``_decode`` (every encoding, every BOM mode, both error modes, strict
offsets); the CJK codecs' ASCII shortcut and one-search prefilter for inputs up to
``SMALL_INPUT_BYTES`` against the gates-and-scans path and the reference decoder, on each side of the
size limit; ISO-2022-JP's ASCII shortcut and short-input shape check; ``lookup``'s exact-label table
against the full normalisation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import reference_cjk as ref
from hypothesis import given, settings
from hypothesis import strategies as st

import mojifix.whatwg as whatwg
from mojifix.errors import DecodeError
from mojifix.whatwg import _cjk, iso_2022_jp, lookup
from mojifix.whatwg._cjk import StatelessCjkCodec, cpython_tokens
from mojifix.whatwg._tables import ENCODINGS, LABELS

STATELESS = ["gb18030", "GBK", "Big5", "EUC-JP", "Shift_JIS", "EUC-KR"]
CODECS: dict[str, StatelessCjkCodec] = {
    name: codec for name in STATELESS if isinstance(codec := whatwg._CODECS[name], StatelessCjkCodec)
}
assert list(CODECS) == STATELESS
ISO = whatwg._CODECS["ISO-2022-JP"]
#: One sentence for every encoding (html mode encodes what it lacks), and a lead byte per encoding.
SENTENCE = "中文：日本語の文、한국어。"
LEADS = {"gb18030": 0x81, "GBK": 0xFE, "Big5": 0xA4, "EUC-JP": 0x8F, "Shift_JIS": 0x82, "EUC-KR": 0xB0}

Outcome = tuple[str, str] | tuple[str, int, int]


def outcome(decode: Callable[[], str]) -> Outcome:
    """``("text", text)``, or ``("error", start, end)`` for a strict error: what the paths must agree on."""
    try:
        return ("text", decode())
    except DecodeError as exc:
        return ("error", exc.start, exc.end)


def expected(name: str, data: bytes, errors: str) -> Outcome:
    """The reference decoder's answer in the form of ``outcome``."""
    text, spans = ref.reference_decode(name, data)
    if errors == "strict" and spans:
        return ("error", *spans[0])
    return ("text", text)


@contextmanager
def general_paths(codec: StatelessCjkCodec) -> Iterator[None]:
    """Turn off the ASCII shortcut and the short-input prefilter (the gates and scans then run)."""
    plan = codec.plan
    saved = _cjk.SMALL_INPUT_BYTES
    codec._plan = dataclasses.replace(plan, ascii_is_identity=False)
    _cjk.SMALL_INPUT_BYTES = -1
    try:
        yield
    finally:
        codec._plan = plan
        _cjk.SMALL_INPUT_BYTES = saved


def both_paths(name: str, data: bytes, errors: str) -> tuple[Outcome, Outcome]:
    """(default paths, general paths) outcomes of one decode."""
    codec = CODECS[name]
    fast = outcome(lambda: codec.decode(data, errors))
    with general_paths(codec):
        general = outcome(lambda: codec.decode(data, errors))
    return fast, general


def encodable(name: str, text: str) -> bytes:
    """``text`` in ``name`` (``&#N;`` for what it cannot encode)."""
    return whatwg.encode(text, name, errors="html")


def disagreeing_tokens(name: str) -> list[bytes]:
    """Every CPython token the standard decodes otherwise (what the gates and scans exist for)."""
    codec = CODECS[name]
    return [
        seq
        for seq, got in cpython_tokens(codec.plan.py_codec, codec.longer_prefixes())
        if codec.step(seq, 0, len(seq)) != (got, len(seq))
    ]


def edge_cases(name: str) -> list[bytes]:
    """Short inputs: empty, ASCII, truncated, BOM-like, each disagreeing CPython token in context."""
    body = encodable(name, SENTENCE)
    lead = bytes((LEADS[name],))
    cases = [b"", b"A", b"plain ASCII line\n", b"\x00\x7f", b"\x80", b"\xff", lead, b"abc" + lead]
    cases += [
        body,
        body + lead,
        lead + body,
        body + b"\xff" + body,
        b"\xef\xbb\xbf" + body,
        b"\xff\xfe" + body,
    ]
    for seq in disagreeing_tokens(name):
        cases += [seq, body + seq, seq + body, body + seq + lead, seq[:1] + body]
    return cases


@pytest.mark.parametrize("name", STATELESS)
def test_short_inputs_match_the_general_path_and_the_reference(name: str) -> None:
    """Edge cases (empty, ASCII, lone lead byte at the end, every sequence CPython decodes otherwise)."""
    for data in edge_cases(name):
        assert len(data) <= _cjk.SMALL_INPUT_BYTES
        for errors in ("replace", "strict"):
            fast, general = both_paths(name, data, errors)
            assert fast == general == expected(name, data, errors), (data, errors)


@pytest.mark.parametrize("name", STATELESS)
def test_either_side_of_the_size_limit(name: str) -> None:
    """Inputs of exactly ``SMALL_INPUT_BYTES`` and one byte more, ending in each disagreeing sequence."""
    filler = encodable(name, SENTENCE * 40)
    for seq in [*disagreeing_tokens(name), b"A", bytes((LEADS[name],))]:
        for size in (_cjk.SMALL_INPUT_BYTES, _cjk.SMALL_INPUT_BYTES + 1):
            data = filler[: size - len(seq) - 1] + b"\n" + seq  # "\n" resynchronises every decoder
            assert len(data) == size
            for errors in ("replace", "strict"):
                fast, general = both_paths(name, data, errors)
                assert fast == general == expected(name, data, errors), (size, seq, errors)


@pytest.mark.parametrize("name", STATELESS)
def test_ascii_is_identity_holds(name: str) -> None:
    """The premise of the ASCII shortcut, for each of these codecs (their disagreements are non-ASCII)."""
    assert CODECS[name].plan.ascii_is_identity
    data = bytes(range(0x80)) * 3
    assert CODECS[name].decode(data) == ref.reference_decode(name, data)[0] == data.decode("ascii")


@pytest.mark.parametrize("name", STATELESS)
def test_a_bad_error_mode_is_refused_even_for_ascii(name: str) -> None:
    with pytest.raises(ValueError, match="'replace' or 'strict'"):
        CODECS[name].decode(b"ascii", "ignore")
    with pytest.raises(ValueError, match="'replace' or 'strict'"):
        ISO.decode(b"ascii", "ignore")


def soup(name: str) -> st.SearchStrategy[bytes]:
    """Short byte soups made of the sequences the fast path treats specially, lead bytes and text."""
    pieces = [*disagreeing_tokens(name), encodable(name, SENTENCE), b"A", b"\n", b"\x80", b"\xff"]
    pieces += [bytes((b,)) for b in (LEADS[name], 0xA1, 0xA2, 0x8E, 0x8F, 0xFE)]
    return st.lists(st.sampled_from(pieces), max_size=40).map(b"".join)


@pytest.mark.parametrize("name", STATELESS)
def test_soups_match_the_general_path_and_the_reference(name: str) -> None:
    @settings(max_examples=60, deadline=None)
    @given(data=soup(name))
    def check(data: bytes) -> None:
        for errors in ("replace", "strict"):
            fast, general = both_paths(name, data, errors)
            assert fast == general == expected(name, data, errors)

    check()


# --- Encoding.decode dispatch ------------------------------------------------------------------------

DISPATCH_INPUTS = [
    b"",
    b"A",
    b"\xef\xbb\xbf",
    b"\xef\xbb\xbfA\xc3\xa9",
    b"\xef\xbb",
    b"\xfe\xff\x00A",
    b"\xff\xfeA\x00",
    b"\xff\xfe\x00\xd8",
    b"\xfe",
    b"\xff",
    b"\x81",
    b"ok \x82\xa0 \x1b$B\x30\x21\x1b(B \xa4\xa4 \x80\xff",
]


@pytest.mark.parametrize("name", [name for name, _ in ENCODINGS])
def test_dispatch_shortcut_equals_the_general_decode(name: str) -> None:
    """``Encoding.decode`` == ``_decode`` for every encoding, BOM mode, error mode and input type."""
    encoding = lookup(name)
    assert encoding is not None
    for data in DISPATCH_INPUTS:
        for errors in ("replace", "strict"):
            for bom in ("sniff", "strip", "ignore"):
                general = outcome(lambda: whatwg._decode(encoding, data, errors, bom)[0])  # noqa: B023
                for given_data in (data, bytearray(data), memoryview(data)):
                    got = outcome(lambda: encoding.decode(given_data, errors, bom))  # noqa: B023
                    assert got == general, (data, errors, bom, type(given_data))


def test_strict_offsets_count_the_bom() -> None:
    """A strict error after a BOM is reported at its offset in the caller's bytes (general path)."""
    with pytest.raises(DecodeError) as info:
        lookup("Shift_JIS").decode(b"\xef\xbb\xbfA\xff", "strict")
    assert (info.value.start, info.value.end) == (4, 5)
    with pytest.raises(DecodeError) as info:
        lookup("Shift_JIS").decode(b"A\x82", "strict")  # lone lead byte at the end, no BOM (shortcut)
    assert (info.value.start, info.value.end) == (1, 2)


def test_dispatch_refuses_bad_modes_and_types() -> None:
    encoding = lookup("Big5")
    assert encoding is not None
    with pytest.raises(ValueError, match="errors must be"):
        encoding.decode(b"abc", errors="ignore")
    with pytest.raises(ValueError, match="bom must be"):
        encoding.decode(b"abc", bom="keep")
    with pytest.raises(TypeError, match="takes bytes, not str"):
        encoding.decode("abc")  # type: ignore[arg-type]


# --- ISO-2022-JP ---------------------------------------------------------------------------------------


def iso_cases() -> list[bytes]:
    jis = ISO.encode("日本語の文章～です")
    wrong = b"\x1b$B\x21\x41\x1b(B"  # CPython: U+301C, the standard: U+FF5E
    return [
        b"",
        b"plain ASCII",
        b"A\x1b",
        b"A\x0eB",
        b"A\x0fB",
        b"\x1b(B",
        b"\x1b(BA",
        b"\x1b(B\x1b(B",
        b"\x1b$B",
        b"\x1b$B\x30",
        b"\x1b$B\x30\x21\n",
        b"\x80",
        jis,
        jis + wrong,
        wrong + jis,
        jis + b"\x1b(J\\~" + jis,
        jis + b"\x1b(I!_\x1b(B",
    ]


@contextmanager
def iso_general_path() -> Iterator[None]:
    saved = iso_2022_jp.SMALL_SHAPE_CHECK_BYTES
    iso_2022_jp.SMALL_SHAPE_CHECK_BYTES = -1
    try:
        yield
    finally:
        iso_2022_jp.SMALL_SHAPE_CHECK_BYTES = saved


def test_iso_2022_jp_short_inputs() -> None:
    """ASCII shortcut (not taken with ESC, SO, SI) and the one-search shape check, against the reference."""
    for data in iso_cases():
        for errors in ("replace", "strict"):
            fast = outcome(lambda: ISO.decode(data, errors))  # noqa: B023
            with iso_general_path():
                general = outcome(lambda: ISO.decode(data, errors))  # noqa: B023
            assert fast == general == expected("ISO-2022-JP", data, errors), (data, errors)


def test_iso_2022_jp_either_side_of_the_size_limit() -> None:
    filler = ISO.encode("日本語の文章です。" * 30)
    tails = [b"\x1b$B\x21\x41\x1b(B", b"\x1b(B\x1b(B", b"\x1b$B\x30\x21\x0a\x1b(B", b"A"]
    for tail in tails:
        for size in (iso_2022_jp.SMALL_SHAPE_CHECK_BYTES, iso_2022_jp.SMALL_SHAPE_CHECK_BYTES + 1):
            head = filler[: size - len(tail) - 3]
            data = head + b"\x1b(B" + tail  # back to ASCII whatever the cut left
            data = data[:size] if len(data) > size else data + b" " * (size - len(data))
            for errors in ("replace", "strict"):
                fast = outcome(lambda: ISO.decode(data, errors))  # noqa: B023
                with iso_general_path():
                    general = outcome(lambda: ISO.decode(data, errors))  # noqa: B023
                assert fast == general == expected("ISO-2022-JP", data, errors), (size, tail, errors)


# --- lookup ---------------------------------------------------------------------------------------------


def full_lookup(label: str) -> str | None:
    """The standard's "get an encoding" written out (what the exact-label table must agree with)."""
    return LABELS.get(
        label.strip("\t\n\f\r ").translate(
            str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
        )
    )


def test_lookup_table_agrees_with_the_full_normalisation() -> None:
    names = [name for name, _ in ENCODINGS]
    for key in [*LABELS, *names, *(n.upper() for n in names), *(f" {label}\n" for label in LABELS)]:
        found = lookup(key)
        assert (None if found is None else found.name) == full_lookup(key), key
    assert lookup("x-sjis\x0b") is None and lookup("\u212aoi8-r") is None  # VT, KELVIN SIGN: not folded


def test_lookup_refuses_non_strings() -> None:
    for bad in (b"utf-8", ["utf-8"], None):
        with pytest.raises(TypeError, match="takes a label str"):
            lookup(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["Big5", "EUC-JP"])
def test_patterns_built_per_call_give_the_same_answers(name: str) -> None:
    """The branch for more ``slow_sequences`` characters than ``MAX_PRECOMPILED`` (no codec has that many)."""
    codec = CODECS[name]
    assert codec.plan.slow_sequence_patterns  # the precompiled table is what normally runs
    cases = edge_cases(name)
    long_cases = [encodable(name, SENTENCE * 30) + data for data in cases]
    with general_paths(codec):
        want = [outcome(lambda: codec.decode(data)) for data in cases + long_cases]  # noqa: B023
        codec._plan = dataclasses.replace(codec._plan, slow_sequence_patterns={})
        got = [outcome(lambda: codec.decode(data)) for data in cases + long_cases]  # noqa: B023
    assert got == want
    assert want == [expected(name, data, "replace") for data in cases + long_cases]
