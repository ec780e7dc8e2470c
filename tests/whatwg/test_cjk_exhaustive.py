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
from hypothesis import given, settings
from hypothesis import strategies as st

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


# --- the encoders' fast path (CPython's encoder + handlers + the exhaustive plan) --------------------

#: Every BMP code point but the surrogates, and astral edges and samples: one text, encoded in one call.
ALL_CODE_POINTS_TEXT = "".join(
    chr(cp) for cp in [*range(1, 0xD800), *range(0xE000, 0x10000), *range(0x10000, 0x110000, 997), 0x10FFFF]
)


@pytest.mark.parametrize("name", sorted(ALL))
def test_encoder_equals_reference_on_every_bmp_code_point_in_one_text(name: str) -> None:
    """html mode over all code points at once: CPython's runs, the handlers and the wrong characters."""
    text = "a".join(ALL_CODE_POINTS_TEXT[k : k + 2] for k in range(0, len(ALL_CODE_POINTS_TEXT), 2))
    assert ALL[name].encode(text, "html") == ref.reference_encode(name, text, "html")


@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS"])
def test_strict_encoder_reports_a_wrong_character_before_a_cpython_error(name: str) -> None:
    """A character CPython encodes but the standard rejects, before one CPython rejects: the first wins."""
    codec = CODECS[name]
    rejected = sorted(c for c in codec.encode_plan.wrong if codec.encode_char(ord(c)) is None)
    assert rejected, "these three CPython encoders accept characters the standard rejects"
    for char in rejected[:3]:
        text = "ab" + char + "\ud800"
        with pytest.raises(UnicodeEncodeError) as info:
            codec.encode(text)
        assert (info.value.start, info.value.end) == (2, 3), hex(ord(char))
        assert ref.reference_encode(name, text[:3], "fatal") is None


@pytest.mark.parametrize("name", STATELESS)
def test_encode_plan_never_distrusts_ascii(name: str) -> None:
    plan = CODECS[name].encode_plan
    assert not any(c.isascii() for c in plan.wrong)
    assert not any(b < 0x80 for b in plan.marker)


def test_iso_2022_jp_encoder_paths_equal_reference() -> None:
    """CPython's iso2022_jp with the handler (which takes NEC/IBM characters CPython lacks, halfwidth
    katakana, ¥ ‾ and the other characters CPython encodes wrongly, marked as lone surrogates) and the
    exact loop (ESC, a lone surrogate that is also a marker), in strict and html mode, on random mixes."""
    rng = random.Random(11)
    kanji = [chr(cp) for cp in sorted(ref.index("jis0208").values())[::37]]
    plain = ["a", " ", "\n", "1", *kanji, "ｱ", "ﾟ", "−", "\u4e02", "\U0001f600", "\ud800"]
    for extra in ("", "①髙", "①¥‾", "\x1b", "〜¢£¬‖\udc80", "¥‾\\~"):
        alphabet = plain + list(extra)
        for _ in range(150):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 12)))
            scalar = text.replace("\ud800", "\ufffd").replace("\udc80", "\ufffd")
            assert ISO.encode(text, "html") == ref.reference_encode("ISO-2022-JP", scalar, "html"), text
            want = ref.reference_encode("ISO-2022-JP", text, "fatal") if scalar == text else None
            try:
                got = ISO.encode(text)
            except UnicodeEncodeError as exc:
                got = None
                first = next(k for k, c in enumerate(text) if ref.reference_encode("ISO-2022-JP", c) is None)
                assert exc.start == first, text
            assert got == want, text


@pytest.mark.parametrize("name", STATELESS)
def test_fix_ups_by_replace_equal_translate(name: str) -> None:
    """The decoders fix CPython's characters with one str.replace per character (not str.translate,
    30x slower); that equals translate only if no replacement is itself fixed."""
    from mojifix.whatwg._cjk import replace_each

    remap = CODECS[name].plan.remap
    assert not {ord(v) for v in remap.values()} & set(remap)
    text = "".join(chr(k) + "x" + v for k, v in remap.items()) * 2
    assert replace_each(text, remap) == text.translate(remap)


def test_decoders_fix_characters_cpython_maps_differently_in_long_text() -> None:
    """A common case the fix-ups exist for: EUC-JP 0xA1 0xC1 (U+FF5E here, U+301C in CPython)."""
    data = CODECS["EUC-JP"].encode("日本語～テスト") * 100
    assert b"\xa1\xc1" in data
    got = CODECS["EUC-JP"].decode(data)
    assert got == ref.reference_decode("EUC-JP", data)[0]
    assert "\uff5e" in got and "\u301c" not in got


def test_big5_encoder_cuts_around_supplementary_and_bmp_wrong_characters() -> None:
    """big5hkscs encodes HKSCS characters above U+FFFF that the standard's encoder excludes: the text is
    cut around them in order with the BMP ones (two patterns merged)."""
    codec = CODECS["Big5"]
    wrong = sorted(codec.encode_plan.wrong)
    astral = [c for c in wrong if ord(c) > 0xFFFF][:20]
    bmp = [c for c in wrong if ord(c) <= 0xFFFF][::200]
    assert astral and bmp
    rng = random.Random(5)
    alphabet = [*astral, *bmp, "中", "文", "a", "無"]
    for _ in range(50):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 15)))
        assert codec.encode(text, "html") == ref.reference_encode("Big5", text, "html"), text
        if ref.reference_encode("Big5", text, "fatal") is None:
            with pytest.raises(UnicodeEncodeError) as info:
                codec.encode(text)
            first = next(k for k, c in enumerate(text) if ref.reference_encode("Big5", c) is None)
            assert info.value.start == first, text


#: Hypothesis text for the encoders: every kind of character the fast paths treat differently (ASCII and
#: SO/SI/ESC, every encoder's wrong characters and special cases, CJK, kana, halfwidth katakana, NEC/IBM
#: extensions, Private Use, supplementary, lone surrogates), mixed with any character at all.
ENCODER_TEXT = st.text(
    st.one_of(
        st.sampled_from(ENCODER_PROBES + "¢£¬‖〜•､∼♁☉／＼无着样﨑ⅰ№\ue000\U00020087\U0002a6b1"),
        st.characters(min_codepoint=0x3000, max_codepoint=0x9FFF),
        st.characters(min_codepoint=0xFF00, max_codepoint=0xFFEF),
        st.characters(),
    ),
    max_size=24,
)


@pytest.mark.parametrize("name", sorted(ALL))
@settings(max_examples=150, deadline=None)
@given(text=ENCODER_TEXT)
def test_encoder_equals_reference_on_hypothesis_text(name: str, text: str) -> None:
    scalar = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    assert ALL[name].encode(text, "html") == ref.reference_encode(name, scalar, "html")
    has_surrogate = scalar != text
    want = None if has_surrogate else ref.reference_encode(name, text, "fatal")
    try:
        got = ALL[name].encode(text)
    except UnicodeEncodeError as exc:
        assert want is None
        assert ref.reference_encode(name, text[: exc.start], "fatal") is not None  # nothing earlier fails
        bad = text[exc.start]
        assert 0xD800 <= ord(bad) <= 0xDFFF or ref.reference_encode(name, text[: exc.start + 1]) is None
    else:
        assert got == want


def test_big5_encoder_fixes_cpython_bytes_only_when_the_count_proves_it() -> None:
    """无 is 0xFC 0xD3 in big5hkscs and 0xC6 0xD3 in the standard: the output is fixed by replacing the
    bytes, unless an 0xFC 0xD3 also appears across a character boundary (a character ending in 0xFC
    before one starting with 0xD3) or the sequences to replace could overlap (╰ is 0xF9 0xFC), when the
    text is cut around them instead."""
    codec = CODECS["Big5"]
    assert codec.encode_plan.fixable["无"] == (b"\xfc\xd3", b"\xc6\xd3")
    ends_fc = next(chr(cp) for cp in range(0x4E00, 0xA000) if (codec.encode_char(cp) or b"")[1:] == b"\xfc")
    starts_d3 = next(chr(cp) for cp in range(0x4E00, 0xA000) if (codec.encode_char(cp) or b"")[:1] == b"\xd3")
    misaligned = ends_fc + starts_d3
    for text in ("无" * 3, "中无文／＼无隶猪", misaligned + "无", "无" + misaligned, "无¢", "无╰廴╮"):
        want = ref.reference_encode("Big5", text, "html")
        assert codec.encode(text, "html") == want, text
        if "¢" not in text:
            assert codec.encode(text) == want, text


@pytest.mark.parametrize("name", STATELESS)
def test_suspect_groups_cover_every_disagreeing_token(name: str) -> None:
    """A group's output scan is skipped when none of its first bytes is in the input: that is exact only
    if every CPython token that outputs one of its characters differently from the standard starts with
    one of those bytes (recomputed here from CPython's tokens and the exact step)."""
    from mojifix.whatwg._cjk import cpython_tokens

    codec = CODECS[name]
    plan = codec.plan
    if plan.suspect_groups is None:
        pytest.skip("this codec scans its output with has_suspects")
    lead_of = {
        c: {lead[0] for lead in leads} for leads, slow, remap in plan.suspect_groups for c in slow + remap
    }
    assert set(lead_of) == set(plan.slow_chars) | {chr(k) for k in plan.remap}
    checked = 0
    for seq, got in cpython_tokens(plan.py_codec, codec.longer_prefixes()):
        want, end = codec.step(seq, 0, len(seq))
        if (want, end) != (got, len(seq)):
            for char in got:
                if char in lead_of:
                    assert seq[0] in lead_of[char], (seq.hex(" "), char)
                    checked += 1
    assert checked >= len(lead_of)


@pytest.mark.parametrize("name", ["Big5", "Shift_JIS", "EUC-JP"])
def test_long_text_with_each_disagreeing_single_token_equals_reference(name: str) -> None:
    """Long valid text (so the group gates see real lead bytes) with each byte sequence CPython decodes
    differently inserted once: the result is the standard's, through the gates."""
    from mojifix.whatwg._cjk import cpython_tokens

    codec = CODECS[name]
    body = codec.encode("日本語の文字、中文字符。" * 50 + "\n", "html")
    found = 0
    for seq, got in cpython_tokens(codec.plan.py_codec, codec.longer_prefixes()):
        if codec.step(seq, 0, len(seq)) != (got, len(seq)):
            for data in (body + seq + b"\n" + body, body + b"\n" + seq):
                got_text = codec.decode(data)
                assert got_text == ref.reference_decode(name, data)[0], seq.hex(" ")
            found += 1
            if found >= 400:  # bounded: the exhaustive tests above cover every sequence alone
                break
    assert found > 0
