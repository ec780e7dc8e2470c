"""Every pointer of every CJK index decodes to its code point; the encoders follow the standard's rules.

Reads the standard's own index files from ``../shared/data/whatwg`` (next to the repository), so the
generated tables are checked against their source too. Covered: index gb18030 (+ ranges), Big5,
jis0208 (EUC-JP, Shift_JIS, ISO-2022-JP), jis0212 (EUC-JP), EUC-KR, ISO-2022-JP katakana; the encoder
exclusions (Shift_JIS skips pointers 8272-8835; Big5 skips pointers below (0xA1-0x81)*157 and takes
the LAST pointer for six code points); gb18030/GBK encoder specifics; ISO-2022-JP encoder states.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mojifix.errors import EncodeError
from mojifix.whatwg import big5, euc_jp, euc_kr, gb18030, iso_2022_jp, shift_jis

WHATWG_DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "whatwg"

GB18030 = gb18030.CODECS["gb18030"]
GBK = gb18030.CODECS["GBK"]
BIG5 = big5.CODECS["Big5"]
EUC_JP = euc_jp.CODECS["EUC-JP"]
SHIFT_JIS = shift_jis.CODECS["Shift_JIS"]
EUC_KR = euc_kr.CODECS["EUC-KR"]
ISO_2022_JP = iso_2022_jp.CODECS["ISO-2022-JP"]


def read_index(name: str) -> dict[int, int]:
    """index-<name>.txt as {pointer: code point}; fails (does not skip) when the data is missing."""
    path = WHATWG_DATA / f"index-{name}.txt"
    if not path.is_file():
        pytest.fail(f"{path.resolve()} not found: clone the shared data next to the repository (../shared)")
    entries: dict[int, int] = {}
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line and not line.startswith("#"):
            pointer, code_point = line.split("\t")[:2]
            entries[int(pointer)] = int(code_point, 16)
    return entries


def first_pointers(index: dict[int, int], keep=lambda pointer: True) -> dict[int, int]:
    """code point -> the FIRST pointer with it (the standard's "index pointer"), among kept pointers."""
    first: dict[int, int] = {}
    for pointer in sorted(index):
        if keep(pointer):
            first.setdefault(index[pointer], pointer)
    return first


#: The gb18030 encoder's side table (spec: gb18030 encoder, step 5), checked in full.
GB18030_SIDE_TABLE = {
    0xE78D: b"\xa6\xd9", 0xE78E: b"\xa6\xda", 0xE78F: b"\xa6\xdb", 0xE790: b"\xa6\xdc", 0xE791: b"\xa6\xdd",
    0xE792: b"\xa6\xde", 0xE793: b"\xa6\xdf", 0xE794: b"\xa6\xec", 0xE795: b"\xa6\xed", 0xE796: b"\xa6\xf3",
    0xE81E: b"\xfe\x59", 0xE826: b"\xfe\x61", 0xE82B: b"\xfe\x66", 0xE82C: b"\xfe\x67", 0xE832: b"\xfe\x6d",
    0xE843: b"\xfe\x7e", 0xE854: b"\xfe\x90", 0xE864: b"\xfe\xa0",
}  # fmt: skip


def gb_bytes(pointer: int) -> bytes:
    trailing = pointer % 190
    return bytes([pointer // 190 + 0x81, trailing + (0x40 if trailing < 0x3F else 0x41)])


def big5_bytes(pointer: int) -> bytes:
    trailing = pointer % 157
    return bytes([pointer // 157 + 0x81, trailing + (0x40 if trailing < 0x3F else 0x62)])


def euc_jp_bytes(pointer: int) -> bytes:
    return bytes([pointer // 94 + 0xA1, pointer % 94 + 0xA1])


def sjis_bytes(pointer: int) -> bytes:
    leading, trailing = divmod(pointer, 188)
    return bytes(
        [leading + (0x81 if leading < 0x1F else 0xC1), trailing + (0x40 if trailing < 0x3F else 0x41)]
    )


def euc_kr_bytes(pointer: int) -> bytes:
    return bytes([pointer // 190 + 0x81, pointer % 190 + 0x41])


def four_bytes(pointer: int) -> bytes:
    b1, rest = divmod(pointer, 12600)
    b2, rest = divmod(rest, 1260)
    b3, b4 = divmod(rest, 10)
    return bytes([b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30])


def assert_decodes(codec, pairs: list[tuple[bytes, str]]) -> None:
    """All byte sequences concatenated decode to all expected strings concatenated, and one by one
    for a mismatch message."""
    data = b"".join(seq for seq, _ in pairs)
    want = "".join(text for _, text in pairs)
    if codec.decode(data, "strict") != want:
        bad = [(seq.hex(" "), codec.decode(seq), text) for seq, text in pairs if codec.decode(seq) != text]
        pytest.fail(f"{codec.name}: {len(bad)} pointers decode wrongly, e.g. {bad[:5]}")


# --- decoding: every pointer ------------------------------------------------------------------------


@pytest.mark.parametrize("codec", [GB18030, GBK], ids=["gb18030", "GBK"])
def test_every_gb18030_pointer_decodes(codec) -> None:
    assert_decodes(codec, [(gb_bytes(p), chr(c)) for p, c in sorted(read_index("gb18030").items())])


@pytest.mark.parametrize("codec", [GB18030, GBK], ids=["gb18030", "GBK"])
def test_every_gb18030_range_start_and_end_decodes(codec) -> None:
    ranges = sorted(read_index("gb18030-ranges").items())
    pairs = []
    for (pointer, code_point), following in zip(ranges, [*ranges[1:], None], strict=True):
        pairs.append((four_bytes(pointer), chr(code_point)))
        if following is not None and following[0] <= 39419:
            last = following[0] - 1
            pairs.append((four_bytes(last), chr(code_point + last - pointer)))
    pairs += [(four_bytes(7457), "\ue7c7"), (four_bytes(1237575), "\U0010ffff"), (b"\x80", "\u20ac")]
    assert_decodes(codec, pairs)


def test_every_big5_pointer_decodes() -> None:
    two = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304", 1166: "\u00ea\u030c"}
    pairs = [(big5_bytes(p), two.get(p, chr(c))) for p, c in sorted(read_index("big5").items())]
    assert_decodes(BIG5, pairs)


def test_every_jis0208_pointer_decodes_in_euc_jp_shift_jis_and_iso_2022_jp() -> None:
    index = sorted(read_index("jis0208").items())
    in_euc = [(p, c) for p, c in index if p < 94 * 94]
    assert_decodes(EUC_JP, [(euc_jp_bytes(p), chr(c)) for p, c in in_euc])
    # Shift_JIS: pointers 8836-10715 are Windows EUDC (Private Use), whatever the index says
    sjis = [(sjis_bytes(p), chr(0xE000 - 8836 + p) if 8836 <= p <= 10715 else chr(c)) for p, c in index]
    assert_decodes(SHIFT_JIS, sjis)
    body = b"".join(bytes([p // 94 + 0x21, p % 94 + 0x21]) for p, _ in in_euc)
    assert ISO_2022_JP.decode(b"\x1b$B" + body + b"\x1b(B", "strict") == "".join(chr(c) for _, c in in_euc)


def test_every_jis0212_pointer_decodes_in_euc_jp() -> None:
    index = sorted(read_index("jis0212").items())
    assert_decodes(EUC_JP, [(b"\x8f" + euc_jp_bytes(p), chr(c)) for p, c in index])


def test_every_euc_kr_pointer_decodes() -> None:
    assert_decodes(EUC_KR, [(euc_kr_bytes(p), chr(c)) for p, c in sorted(read_index("euc-kr").items())])


def test_shift_jis_eudc_pointers_decode_to_private_use() -> None:
    pairs = [(sjis_bytes(p), chr(0xE000 - 8836 + p)) for p in range(8836, 10716)]
    assert_decodes(SHIFT_JIS, pairs)


# --- encoding: round trips and the standard's exclusions -------------------------------------------------


def assert_encodes(codec, expected: dict[int, bytes | None]) -> None:
    """Each code point encodes to the expected bytes (None: an encoder error)."""
    wrong = []
    for code_point, want in sorted(expected.items()):
        try:
            got = codec.encode(chr(code_point))
        except EncodeError:
            got = None
        if got != want:
            wrong.append((f"U+{code_point:04X}", got, want))
    assert not wrong, f"{codec.name}: {len(wrong)} code points encode wrongly, e.g. {wrong[:5]}"


def test_gb18030_and_gbk_encode_every_index_code_point_by_its_first_pointer() -> None:
    first = first_pointers(read_index("gb18030"))
    side = GB18030_SIDE_TABLE
    expected = {cp: side.get(cp, gb_bytes(p)) for cp, p in first.items() if cp >= 0x80}
    assert_encodes(GB18030, expected)
    expected[0x20AC] = b"\x80"  # GBK encoder: "is GBK" and U+20AC
    assert_encodes(GBK, expected)
    assert GB18030.decode(GB18030.encode("".join(map(chr, expected)))) == "".join(
        chr(cp) if cp not in side else GB18030.decode(side[cp]) for cp in expected
    )


def test_gb18030_encoder_specifics() -> None:
    assert_encodes(GB18030, {0xE5E5: None, 0x20AC: gb_bytes(first_pointers(read_index("gb18030"))[0x20AC])})
    assert_encodes(GB18030, {0xE7C7: four_bytes(7457), 0x80: four_bytes(0), 0x10000: four_bytes(189000)})
    assert_encodes(GB18030, {0x10FFFF: four_bytes(1237575), 0xFFFF: four_bytes(39419)})
    assert_encodes(GBK, {0xE5E5: None, 0xE7C7: None, 0x80: None, 0x10000: None})
    # every BMP code point not in the two-byte index or the side table round-trips through four bytes
    skip = set(read_index("gb18030").values()) | set(GB18030_SIDE_TABLE) | {0xE5E5}
    others = "".join(chr(c) for c in range(0x80, 0x10000) if c not in skip and not 0xD800 <= c <= 0xDFFF)
    side = "".join(map(chr, GB18030_SIDE_TABLE))
    assert GB18030.encode(side) == b"".join(GB18030_SIDE_TABLE.values())
    assert GB18030.decode(GB18030.encode(others), "strict") == others
    astral = "".join(map(chr, range(0x10000, 0x110000, 97)))
    assert GB18030.decode(GB18030.encode(astral), "strict") == astral


def test_big5_encoder_skips_hkscs_pointers_and_takes_the_last_pointer_for_six() -> None:
    index = read_index("big5")
    cutoff = (0xA1 - 0x81) * 157
    first = first_pointers(index, keep=lambda p: p >= cutoff)
    last = {cp: max(p for p, c in index.items() if c == cp and p >= cutoff)
            for cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345)}  # fmt: skip
    expected: dict[int, bytes | None] = {
        cp: big5_bytes(last.get(cp, p)) for cp, p in first.items() if cp >= 0x80
    }
    only_hkscs = {c for p, c in index.items() if p < cutoff} - set(first)
    expected.update({cp: None for cp in only_hkscs})
    assert only_hkscs, "the index has HKSCS-only code points the encoder must refuse"
    assert_encodes(BIG5, expected)
    for code_point, pointer in last.items():
        assert pointer != first[code_point]  # the rule matters for each of the six


def test_euc_jp_encodes_jis0208_by_first_pointer_and_never_jis0212() -> None:
    jis0208 = read_index("jis0208")
    first = first_pointers(jis0208)
    expected: dict[int, bytes | None] = {cp: euc_jp_bytes(p) for cp, p in first.items() if cp >= 0x80}
    expected.update({0xA5: b"\x5c", 0x203E: b"\x7e", 0x2212: euc_jp_bytes(first[0xFF0D])})
    expected.update({cp: b"\x8e" + bytes([cp - 0xFF61 + 0xA1]) for cp in range(0xFF61, 0xFFA0)})
    only_0212 = set(read_index("jis0212").values()) - set(jis0208.values()) - set(expected)
    expected.update({cp: None for cp in only_0212})
    assert_encodes(EUC_JP, expected)


def test_shift_jis_encoder_ignores_pointers_8272_to_8835() -> None:
    index = read_index("jis0208")
    first = first_pointers(index, keep=lambda p: not 8272 <= p <= 8835)
    expected: dict[int, bytes | None] = {cp: sjis_bytes(p) for cp, p in first.items() if cp >= 0x80}
    expected.update({0x80: b"\x80", 0xA5: b"\x5c", 0x203E: b"\x7e", 0x2212: sjis_bytes(first[0xFF0D])})
    expected.update({cp: bytes([cp - 0xFF61 + 0xA1]) for cp in range(0xFF61, 0xFFA0)})
    skipped = {index[p] for p in range(8272, 8836) if p in index}
    expected.update({cp: None for cp in skipped - set(first)})
    assert_encodes(SHIFT_JIS, expected)
    moved = [cp for cp in skipped if cp in first]
    assert moved and all(not 8272 <= first[cp] <= 8835 for cp in moved)


def test_euc_kr_encodes_every_code_point_by_its_first_pointer() -> None:
    first = first_pointers(read_index("euc-kr"))
    assert_encodes(EUC_KR, {cp: euc_kr_bytes(p) for cp, p in first.items() if cp >= 0x80})


def test_iso_2022_jp_encodes_jis0208_and_katakana_through_the_index() -> None:
    first = first_pointers(read_index("jis0208"))
    katakana = read_index("iso-2022-jp-katakana")

    def jis(cp: int) -> bytes:
        p = first[cp]
        return b"\x1b$B" + bytes([p // 94 + 0x21, p % 94 + 0x21]) + b"\x1b(B"

    expected: dict[int, bytes | None] = {
        cp: jis(cp) for cp in first if cp >= 0x80 and cp not in (0xA5, 0x203E)
    }
    expected.update({0xFF61 + p: jis(cp) for p, cp in katakana.items()})
    expected.update({0xA5: b"\x1b(J\x5c\x1b(B", 0x203E: b"\x1b(J\x7e\x1b(B", 0x2212: jis(0xFF0D)})
    assert_encodes(ISO_2022_JP, expected)


def test_iso_2022_jp_encoder_states() -> None:
    assert ISO_2022_JP.encode("a¥b‾\\c") == b"a\x1b(J\x5cb\x7e\x1b(B\\c"
    assert ISO_2022_JP.encode("日本a") == b"\x1b$BF|K\\\x1b(Ba"
    assert ISO_2022_JP.encode("¥日") == b"\x1b(J\x5c\x1b$BF|\x1b(B"
    # ESC, SO and SI are errors "with U+FFFD" (to prevent attacks) in ASCII and Roman states
    assert ISO_2022_JP.encode("a\x1bb", "html") == b"a&#65533;b"
    assert ISO_2022_JP.encode("日\x0e", "html") == b"\x1b$BF|\x1b(B&#65533;"
    with pytest.raises(EncodeError):
        ISO_2022_JP.encode("\x0f")
    # unencodable in jis0208 state: back to ASCII first, then the error
    assert ISO_2022_JP.encode("日€", "html") == b"\x1b$BF|\x1b(B&#8364;"
    # the standard's oddity: two encodings of U+00A5 concatenated decode with an error between
    twice = ISO_2022_JP.encode("¥") * 2
    assert ISO_2022_JP.decode(twice) == "¥\ufffd¥"


@pytest.mark.parametrize(
    "codec", [GB18030, GBK, BIG5, EUC_JP, SHIFT_JIS, EUC_KR, ISO_2022_JP], ids=lambda c: c.name
)
def test_html_mode_and_strict_errors(codec) -> None:
    text = "a\U0001f600b\ud800c"  # an emoji (only gb18030 encodes it) and a lone surrogate
    html = codec.encode(text, "html")
    if codec is GB18030:  # gb18030 encodes the emoji, and the lone surrogate as U+FFFD
        assert html == b"a" + four_bytes(189000 + 0x1F600 - 0x10000) + b"b" + GB18030.encode("\ufffd") + b"c"
    else:
        assert html == b"a&#128512;b&#65533;c"
    with pytest.raises(EncodeError) as info:
        codec.encode(text)
    assert info.value.start == (3 if codec is GB18030 else 1)
