"""ISO-2022-JP's CPython path: the fast shape check accepts exactly what ``CPYTHON_DIFFERS`` accepts.

``_plain_shape`` first matches the usual alternating shape (jis0208 / ASCII-or-Roman segments) and
checks jis0208 bodies on the bytes outside 0x21-0x7E; other input falls back to ``CPYTHON_DIFFERS``.
The claim that both give the same answer is checked here on every short sequence of tokens that
exercise each branch (escape sequences, escapes in a row, control bytes, space and DEL in each mode,
odd bodies), on random longer ones, and end to end against the reference decoder.
"""

from __future__ import annotations

import codecs
import itertools

import pytest
import reference_cjk as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.whatwg.iso_2022_jp import CODECS, CPYTHON_DIFFERS, PAIR_HANDLER, NotPlainInput, _plain_shape

ISO = CODECS["ISO-2022-JP"]
ESCAPES = [b"\x1b$B", b"\x1b(B", b"\x1b(J", b"\x1b$@", b"\x1b(I", b"\x1b$(B", b"\x1b"]
BODIES = [b"!!", b"0!", b"!", b"a", b"\n", b" ", b"\x7f", b"\x00", b"\\~", b"!!\n!!"]
TOKENS = ESCAPES + BODIES


def old_answer(data: bytes) -> bool:
    return CPYTHON_DIFFERS.search(data) is None


def test_every_sequence_of_up_to_four_tokens() -> None:
    checked = fast = 0
    for k in range(5):
        for combo in itertools.product(TOKENS, repeat=k):
            data = b"".join(combo)
            assert _plain_shape(data) == old_answer(data), data
            checked += 1
    for data in (b"\x1b$B!!\x1b(Ba", b"a\x1b(J\\\x1b$B!!", b"\x1b$B!!\x1b(B", b"\x1b$B!!", b"\x1b(Bx\x1b$B"):
        assert _plain_shape(data)  # the alternating shape, both starts, both ends
        fast += 1
    assert checked > 20_000 and fast == 5


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_random_token_sequences(tokens: list[bytes]) -> None:
    data = b"".join(tokens)
    assert _plain_shape(data) == old_answer(data)
    assert ISO.decode(data) == ref.reference_decode("ISO-2022-JP", data)[0]


@pytest.mark.parametrize("control", [b"\n", b"\t", b" ", b"\x7f", b"\x00", b"\r\n"])
def test_a_control_byte_in_one_long_jis0208_body_among_many(control: bytes) -> None:
    """Long plain text with one control byte, space or DEL in one jis0208 body: the residue check sees it
    whichever segment it is in, and the standard's U+FFFD is there."""
    plain = ISO.encode("日本語の文字 abc、テキスト。\n" * 60)
    cut = plain.index(b"\x1b$B", len(plain) // 2) + 5  # inside a jis0208 body, after a pair
    first = plain.replace(b"\x1b$B", b"\x1b$B" + control, 1)  # in the first body
    for data in (plain[:cut] + control + plain[cut:], first, plain + b"\x1b$B" + control):
        assert not _plain_shape(data)
        assert ISO.decode(data) == ref.reference_decode("ISO-2022-JP", data)[0]
    assert _plain_shape(plain)
    assert _plain_shape(plain.replace(b"\x1b(B", b"\x1b(J"))  # Roman instead of ASCII: the same shape


def test_roman_after_ascii_takes_the_old_check_and_stays_exact() -> None:
    """U+00A5 after ASCII text gives ASCII then Roman segments in a row (not the alternating shape)."""
    data = ISO.encode("値段 abc ¥100 です\n" * 30)
    assert b"\x1b(B" in data and b"\x1b(J" in data
    assert _plain_shape(data) and ISO._cpython_fast(data) == ref.reference_decode("ISO-2022-JP", data)[0]


def test_pair_handler_refuses_a_byte_that_starts_no_pair() -> None:
    """Defensive: the handler only decodes a pair that starts with 0x21-0x7E (not e.g. a space)."""
    ISO._cpython_plan()  # registers the handler
    data = b"\x1b$B \x30\x1b(B"
    exc = UnicodeDecodeError("iso2022_jp", data, 3, 5, "illegal multibyte sequence")
    with pytest.raises(NotPlainInput):
        codecs.lookup_error(PAIR_HANDLER)(exc)
