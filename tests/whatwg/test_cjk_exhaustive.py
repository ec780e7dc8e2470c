"""The CJK decoders equal the straight-from-the-spec reference on every short input, errors included.

Covers gb18030/GBK, Big5, EUC-JP, Shift_JIS, EUC-KR and ISO-2022-JP: all 1- and 2-byte inputs (alone,
i.e. truncated at the end, and followed by ASCII), all EUC-JP 0x8F three-byte inputs, the gb18030
four-byte space (exhaustive for the BMP part, a deterministic sample plus every range edge elsewhere),
and ISO-2022-JP escape-sequence state cases. "Equal" means the same text in replace mode (so the same
number and positions of U+FFFD) and, in strict mode, the same span for the first error.

Most checks concatenate many inputs separated by b"\\n" (a byte that ends any pending sequence in
these decoders) and decode them in one call, so they run at the fast path's speed; the strict-mode
spans and the fast path's handling of each input alone are checked input by input.
"""

from __future__ import annotations

import itertools
import random

import pytest
import reference_cjk as ref

from mojifix.errors import DecodeError
from mojifix.whatwg import big5, euc_jp, euc_kr, gb18030, iso_2022_jp, shift_jis

CODECS = {**gb18030.CODECS, **big5.CODECS, **euc_jp.CODECS, **euc_kr.CODECS, **shift_jis.CODECS}
STATELESS = sorted(CODECS)
ISO = iso_2022_jp.CODECS["ISO-2022-JP"]
ALL = {**CODECS, "ISO-2022-JP": ISO}


def first_mismatch(got: str, want: str) -> str:
    k = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
    return f"first difference at char {k}: got {got[k - 8 : k + 8]!r}, want {want[k - 8 : k + 8]!r}"


def check_joined(name: str, inputs: list[bytes], separator: bytes) -> None:
    """Decode ``inputs`` joined (each followed by ``separator``) and compare with the reference."""
    data = b"".join(x + separator for x in inputs)
    want, _ = ref.reference_decode(name, data)
    got = ALL[name].decode(data)
    assert got == want, first_mismatch(got, want)


def strict_span(name: str, data: bytes) -> tuple[int, int] | None:
    try:
        ALL[name].decode(data, "strict")
    except DecodeError as exc:
        return exc.start, exc.end
    return None


def check_each(name: str, inputs: list[bytes]) -> None:
    """Each input alone: replace-mode text and the first strict-mode error span."""
    codec = ALL[name]
    for data in inputs:
        want, errors = ref.reference_decode(name, data)
        assert codec.decode(data) == want, data.hex(" ")
        assert strict_span(name, data) == (errors[0] if errors else None), data.hex(" ")


ONE_BYTE = [bytes([b]) for b in range(256)]
TWO_BYTE = [bytes([a, b]) for a in range(256) for b in range(256)]


@pytest.mark.parametrize("name", [*STATELESS, "ISO-2022-JP"])
def test_every_one_byte_input(name: str) -> None:
    check_each(name, ONE_BYTE)


@pytest.mark.parametrize("name", STATELESS)
@pytest.mark.parametrize("separator", [b"\n", b"A\n", b"0\n", b"\x80\n"])
def test_every_two_byte_input_followed_by_something(name: str, separator: bytes) -> None:
    check_joined(name, TWO_BYTE, separator)


@pytest.mark.parametrize("name", STATELESS)
def test_every_two_byte_input_alone(name: str) -> None:
    """Truncated at the end; strict spans too. (ASCII first bytes are covered by the 1-byte test.)"""
    check_each(name, [x for x in TWO_BYTE if x[0] >= 0x80])


def test_every_euc_jp_three_byte_input() -> None:
    inputs = [bytes([0x8F, a, b]) for a in range(256) for b in range(256)]
    check_joined("EUC-JP", inputs, b"\n")
    check_joined("EUC-JP", inputs, b"A\n")
    check_each("EUC-JP", [x for x in inputs if x[1] >= 0x80])


def gb18030_four_byte_sample() -> list[bytes]:
    """Every BMP four-byte sequence (first byte 0x81-0x84), a grid elsewhere, and every range edge."""
    seqs = [bytes([a, b, c, d]) for a in range(0x81, 0x85) for b in range(0x30, 0x3A)
            for c in range(0x81, 0xFF) for d in range(0x30, 0x3A)]  # fmt: skip
    thirds = sorted({0x81, 0x82, 0xFD, 0xFE, *range(0x81, 0xFF, 7)})
    seqs += [bytes([a, b, c, d]) for a in range(0x85, 0xFF) for b in (0x30, 0x34, 0x39)
             for c in thirds for d in (0x30, 0x35, 0x39)]  # fmt: skip
    edges = {7457, 39419, 39420, 188999, 189000, 1237575, 1237576}
    for pointer in ref.index("gb18030-ranges"):
        edges.update((pointer - 1, pointer, pointer + 1))
    for pointer in sorted(p for p in edges if 0 <= p < 126 * 10 * 126 * 10):
        b1, rest = divmod(pointer, 12600)
        b2, rest = divmod(rest, 1260)
        b3, b4 = divmod(rest, 10)
        seqs.append(bytes([b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30]))
    return seqs


@pytest.mark.parametrize("name", ["gb18030", "GBK"])
def test_gb18030_four_byte_inputs(name: str) -> None:
    seqs = gb18030_four_byte_sample()
    check_joined(name, seqs, b"\n")
    # broken four-byte sequences: bad fourth byte, bad third byte, and truncation at the end
    broken = [s[:3] + b"A" for s in seqs[::37]] + [s[:2] + b"\x7f" for s in seqs[::37]]
    check_joined(name, broken, b"\n")
    rng = random.Random(18030)
    check_each(name, [s[:k] for s in rng.sample(seqs, 3000) for k in (2, 3, 4)])


# --- ISO-2022-JP -------------------------------------------------------------------------------------

ISO_TOKENS = [
    b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B",  # valid escape sequences
    b"\x1b", b"\x1b$", b"\x1b(", b"\x1b(X", b"\x1b$(", b"\x1b\x1b",  # broken ones
    b"!", b"!!", b"0!", b"\x7f\x7f", b"\\", b"~", b"_", b"`", b"\n", b"\x0e", b"\x80", b"\xff",
]  # fmt: skip


def test_iso_2022_jp_every_token_sequence_of_three() -> None:
    inputs = [b"".join(combo) for k in range(1, 4) for combo in itertools.product(ISO_TOKENS, repeat=k)]
    check_each("ISO-2022-JP", inputs)


@pytest.mark.parametrize("escape", [b"", b"\x1b$B", b"\x1b$@"])
def test_iso_2022_jp_every_two_byte_input_in_ascii_and_jis0208(escape: bytes) -> None:
    check_each("ISO-2022-JP", [escape + x for x in TWO_BYTE])


@pytest.mark.parametrize("escape", [b"\x1b(J", b"\x1b(I"])
def test_iso_2022_jp_every_byte_in_roman_and_katakana(escape: bytes) -> None:
    check_each("ISO-2022-JP", [escape + x + y for x in ONE_BYTE for y in (b"", b"!", b"\x1b(B")])


def test_iso_2022_jp_well_formed_text_uses_every_jis0208_pair() -> None:
    body = b"".join(bytes([a, b]) for a in range(0x21, 0x7F) for b in range(0x21, 0x7F))
    data = b"ab\x1b$B" + body + b"\x1b(Jx\\~\x1b(I!_\x1b(Bend"
    want, _ = ref.reference_decode("ISO-2022-JP", data)
    assert ISO.decode(data) == want


# --- incremental decoding -------------------------------------------------------------------------------


def mixed_input(name: str, seed: int) -> bytes:
    """Valid text in the encoding with invalid bytes and truncated sequences sprinkled in."""
    rng = random.Random(seed)
    text = "日本語の文字、中文字符 한국어 ÀÉ ｶﾀｶﾅ ¥‾ abc 123\n" * 3
    valid = ALL[name].encode(text, "html")
    noise = [b"\x80", b"\xff", b"\x81", b"\x8f\xa1", b"\x1b", b"\x1b$", b"\x841\x81", b"\xa1", b"A", b"0"]
    parts = [valid[i : i + 7] for i in range(0, len(valid), 7)]
    for _ in range(12):
        parts.insert(rng.randrange(len(parts)), rng.choice(noise))
    return b"".join(parts)


@pytest.mark.parametrize("name", sorted(ALL))
def test_incremental_every_two_way_split_equals_one_shot(name: str) -> None:
    data = mixed_input(name, 1)
    want = ALL[name].decode(data)
    assert want == ref.reference_decode(name, data)[0]
    for cut in range(len(data) + 1):
        decoder = ALL[name].incremental_decoder()
        got = decoder.decode(data[:cut]) + decoder.decode(data[cut:], final=True)
        assert got == want, cut


@pytest.mark.parametrize("name", sorted(ALL))
def test_incremental_random_splits_and_single_bytes(name: str) -> None:
    rng = random.Random(7)
    for seed in range(20):
        data = mixed_input(name, seed)
        want = ALL[name].decode(data)
        decoder = ALL[name].incremental_decoder()
        cuts = sorted(rng.sample(range(len(data) + 1), 12))
        pieces = [data[a:b] for a, b in itertools.pairwise([0, *cuts, len(data)])]
        assert "".join(decoder.decode(p) for p in pieces) + decoder.decode(b"", final=True) == want
    decoder = ALL[name].incremental_decoder()
    assert "".join(decoder.decode(bytes([b])) for b in data) + decoder.decode(b"", final=True) == want


@pytest.mark.parametrize("name", sorted(ALL))
def test_strict_and_replace_agree_on_the_first_error(name: str) -> None:
    for seed in range(10):
        data = mixed_input(name, seed)
        text, errors = ref.reference_decode(name, data)
        assert ALL[name].decode(data) == text
        assert strict_span(name, data) == (errors[0] if errors else None)


@pytest.mark.parametrize("name", STATELESS)
def test_fast_path_plan_never_distrusts_ascii(name: str) -> None:
    """No ASCII character may send text to the slow path, or every document would take it."""
    plan = CODECS[name].plan
    assert not any(c.isascii() for c in plan.slow_chars)
    assert not any(chr(k).isascii() for k in plan.remap)


# --- encoders -----------------------------------------------------------------------------------------

#: Characters that exercise every encoder rule: ASCII and ESC/SO, ¥ ‾ − (special-cased), € (GBK 0x80),
#: Big5's two-code-point pointers and last-pointer six, halfwidth katakana, NEC/IBM duplicates,
#: gb18030's U+E5E5 and side table and four-byte ranges, astral, unencodable, a lone surrogate.
ENCODER_PROBES = (
    "aZ~\\\x0e\x1b¥‾−€ÀÊ̄ｱﾟ｡、。〜～∥‖¢￠¬￢①Ⅰ㈱纊褜十卅═╞兀嗀丂乗一十三語文中국한"
    "\ue5e5\ue78d\ue7c7\uffff\U00020000\U0001f600\ud800"
)


@pytest.mark.parametrize("name", sorted(ALL))
def test_encoder_equals_reference_on_random_strings(name: str) -> None:
    rng = random.Random(2024)
    for _ in range(300):
        text = "".join(rng.choice(ENCODER_PROBES) for _ in range(rng.randrange(0, 9)))
        want_html = ref.reference_encode(name, text.replace("\ud800", "\ufffd"), "html")
        assert ALL[name].encode(text, "html") == want_html, text
        want = ref.reference_encode(name, text, "fatal") if "\ud800" not in text else None
        try:
            got = ALL[name].encode(text)
        except UnicodeEncodeError:
            got = None
        assert got == want, text


# --- the fast paths are taken where they should be ---------------------------------------------------


@pytest.mark.parametrize("name", STATELESS)
def test_valid_text_takes_the_fast_path(name: str) -> None:
    """Valid text decodes through CPython plus the plan, without the exact slow path."""
    codec = CODECS[name]
    data = codec.encode("日本語の文字、中文字符 한국어 ｶﾀｶﾅ abc 123\n" * 20, "html")
    assert codec._fast(data, codec.plan.replace_handler) == ref.reference_decode(name, data)[0]


def test_iso_2022_jp_cpython_path_is_used_only_for_plain_input() -> None:
    plain = ISO.encode("日本語の文字 abc ¥x ①髙\n" * 5)  # ① and 髙: NEC/IBM pairs CPython lacks
    assert ISO._cpython_fast(plain) == ref.reference_decode("ISO-2022-JP", plain)[0]
    for bad in (
        b"\x1b$B\x1b(Ba",  # escape right after escape: an error in the standard
        b"\x1b$B!!\n!!\x1b(B",  # a control byte inside a jis0208 segment
        b"\x1b$@!!\x1b(B",  # ESC $ @ goes the segment way
        b"\x1b(I!\x1b(B",  # so does katakana
        b"a\x1bb",  # a stray ESC
        b"\x1b$B!",  # half a pair at the end
        b"\x1b$B\x22\x2f\x1b(B",  # an unmapped pair
    ):
        assert ISO._cpython_fast(bad) is None, bad
        assert ISO.decode(bad) == ref.reference_decode("ISO-2022-JP", bad)[0]
