"""Big5's fast path around the 11 sequences of rows 0xA1-0xA2 that CPython's big5hkscs decodes differently.

Nine of them (0xA1 0x45 -> U+2022 instead of U+2027, ...) give characters the standard never outputs,
fixed with ``str.replace``; two (0xA2 0x41, 0xA2 0x42) give U+FF0F and U+FF3C, which the standard
outputs for 0xA1 0xFE and 0xA2 0x40: when one appears, the input is searched for the wrong sequences in
one regex pass (``_cjk.sequence_pattern``). These tests put each case in long text, next to the right
sequences and to the same bytes across a character boundary, and compare with the reference decoder.
"""

from __future__ import annotations

import reference_cjk as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.whatwg._cjk import cpython_tokens, sequence_pattern
from mojifix.whatwg.big5 import CODECS

BIG5 = CODECS["Big5"]
#: U+FF0F and U+FF3C: the standard's output for 0xA1 0xFE and 0xA2 0x40, CPython's for 0xA2 0x41 and 0xA2 0x42
AMBIGUOUS = "\uff0f\uff3c"
BODY = BIG5.encode("中文字符，繁體中文的句子。" * 40 + "\n")


def disagreeing_tokens() -> list[bytes]:
    """Every CPython big5hkscs token the standard decodes differently (recomputed from the exact step)."""
    return [
        seq
        for seq, got in cpython_tokens(BIG5.plan.py_codec)
        if BIG5.step(seq, 0, len(seq)) != (got, len(seq))
    ]


def decode_both(data: bytes) -> tuple[str, str]:
    """(mojifix, reference) in replace mode; the input is valid, so strict mode must give the same."""
    got = BIG5.decode(data)
    assert BIG5.decode(data, "strict") == got
    return got, ref.reference_decode("Big5", data)[0]


def test_the_disagreeing_tokens_are_the_eleven_of_rows_a1_a2() -> None:
    """The premise of the Big5 fast path (docs/whatwg.md): if big5hkscs changes, this says so first."""
    trails_by_lead = {0xA1: (0x45, 0x4E, 0xC2, 0xE3, 0xF2, 0xF3), 0xA2: (0x41, 0x42, 0x44, 0x46, 0x47)}
    want = {bytes((lead, trail)) for lead, trails in trails_by_lead.items() for trail in trails}
    assert set(disagreeing_tokens()) == want
    assert set(BIG5.plan.slow_sequences) == set(AMBIGUOUS)


def test_right_ambiguous_characters_keep_the_fast_path() -> None:
    """U+FF0F and U+FF3C from the standard's own sequences: the regex finds no wrong sequence."""
    data = BODY + b"\xa1\xfe" + BODY + b"\xa2\x40" + BODY
    got = BIG5._fast(data, BIG5.plan.replace_handler)
    assert got is not None
    assert got == ref.reference_decode("Big5", data)[0]
    assert all(c in got for c in AMBIGUOUS)


def test_wrong_ambiguous_sequences_next_to_right_ones() -> None:
    """0xA2 0x41 / 0xA2 0x42 among 0xA1 0xFE / 0xA2 0x40: U+2215 and U+FE68 where the standard says."""
    for wrong in (b"\xa2\x41", b"\xa2\x42", b"\xa2\x41\xa2\x42"):
        data = BODY + b"\xa1\xfe\xa2\x40" + BODY + wrong + b"\xa1\xfe" + BODY
        got, want = decode_both(data)
        assert got == want, wrong.hex(" ")
        assert ("\u2215" in got) == (b"\xa2\x41" in wrong) and ("\ufe68" in got) == (b"\xa2\x42" in wrong)


def test_wrong_sequence_bytes_across_a_character_boundary() -> None:
    """A character ending in 0xA2 (or 0xA1) followed by an ASCII letter holds a wrong sequence's bytes
    without being one: the result is still the standard's (and keeps U+FF0F where it is right)."""
    for tail in (b"\xa4\xa2A", b"\xa4\xa2B", b"\xa4\xa1E", b"\xa4\xa1N"):  # 丐 + A, 丐 + B, 丑 + E, 丑 + N
        data = BODY + b"\xa1\xfe" + tail + BODY + b"\xa2\x40" + tail
        got, want = decode_both(data)
        assert got == want, tail.hex(" ")
        assert "\u2215" not in got and "\ufe68" not in got


def test_every_disagreeing_token_together_in_long_text() -> None:
    """All 11 at once, twice, between right characters of the same rows: every fix-up in one text."""
    tokens = disagreeing_tokens()
    data = BODY + b"\xa1\xfe\xa2\x40\xa1\x41" + b"".join(tokens) + BODY + b"\xa1\x45".join(tokens) + BODY
    got, want = decode_both(data)
    assert got == want


def test_the_nine_remapped_characters_are_fixed_on_the_fast_path() -> None:
    """The nine unambiguous ones, each several times: fixed with ``str.replace``, no exact path."""
    tokens = [seq for seq in disagreeing_tokens() if seq[:2] not in (b"\xa2\x41", b"\xa2\x42")]
    assert len(tokens) == 9
    data = BODY + b"".join(tokens) + BODY + b"\xa1\x41".join(reversed(tokens)) + BODY
    got = BIG5._fast(data, BIG5.plan.replace_handler)
    assert got is not None
    assert got == ref.reference_decode("Big5", data)[0]


def test_text_dense_in_rows_a1_a2_takes_the_fast_path() -> None:
    """Every row 0xA1-0xA2 sequence both decoders agree on, between words: valid text stays fast."""
    wrong = set(disagreeing_tokens())
    agreeing = []
    for lead in (0xA1, 0xA2):
        for trail in [*range(0x40, 0x7F), *range(0xA1, 0xFF)]:
            seq = bytes((lead, trail))
            if seq not in wrong and BIG5.step(seq, 0, 2)[0] is not None:
                agreeing.append(seq)
    data = b"".join(seq + BODY[: 2 * (k % 7)] for k, seq in enumerate(agreeing)) * 3
    got = BIG5._fast(data, BIG5.plan.replace_handler)
    assert got is not None
    assert got == ref.reference_decode("Big5", data)[0]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=40), st.lists(st.binary(min_size=1, max_size=3), min_size=1, max_size=4))
def test_sequence_pattern_finds_exactly_its_sequences(data: bytes, seqs: list[bytes]) -> None:
    """The one-pass regex equals "any of the sequences is a substring" (regex metacharacters included)."""
    assert (sequence_pattern(seqs).search(data) is not None) == any(s in data for s in seqs)
    assert sequence_pattern(seqs).search(data + seqs[-1]) is not None
