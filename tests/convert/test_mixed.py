"""Mixed files: head in one encoding, tail appended in another -> boundary offset + both encodings."""

from __future__ import annotations

import pytest
from conftest import FR, ZH_HANS, ZH_HANT
from fakedetect import detect as fake_detect
from hypothesis import given, settings
from hypothesis import strategies as st
from test_verify import fixed

from mojifix.convert.mixed import _utf8_bad_span, find_split, salvage
from mojifix.convert.options import Options
from mojifix.convert.verify import examine

SALVAGE = Options(salvage=True)
EN = "Plain English line with nothing special.\n"


def _check(
    head: bytes, tail: bytes, head_text: str, tail_text: str, detect, head_enc: str, tail_enc: str
) -> None:
    v = examine(head + tail, SALVAGE, detect)
    assert (v.outcome, v.verification) == ("quarantined", "mixed"), v
    assert v.mixed is not None
    assert (v.mixed.head_encoding, v.mixed.tail_encoding) == (head_enc, tail_enc)
    assert v.mixed.boundary == len(head)
    assert str(v.mixed.boundary) in v.reason
    assert v.salvage == (head_text + tail_text).encode()


def test_utf8_head_windows1252_tail_that_decodes_cleanly() -> None:
    head, tail = ZH_HANS + FR, FR + EN
    # the whole file is valid windows-1252: only the UTF-8 head's structure shows the split
    _check(
        head.encode(),
        tail.encode("cp1252"),
        head,
        tail,
        fixed(("windows-1252", 0.6)),
        "UTF-8",
        "windows-1252",
    )


def test_gbk_head_utf8_tail() -> None:
    head, tail = ZH_HANS * 2, "Déjà vu, “quoted” — 中文字。\n"
    _check(head.encode("gbk"), tail.encode(), head, tail, fake_detect, "GBK", "UTF-8")


def test_utf8_head_gbk_tail_strict_failure() -> None:
    head, tail = FR + ZH_HANS, ZH_HANS
    _check(head.encode(), tail.encode("gbk"), head, tail, fake_detect, "UTF-8", "GBK")


def test_utf16_head_with_8bit_tail() -> None:
    head, tail = EN + FR, FR + EN
    _check(
        head.encode("utf-16-le"), tail.encode("cp1252"), head, tail, fake_detect, "UTF-16LE", "windows-1252"
    )


def test_big5_head_gbk_tail() -> None:
    head, tail = ZH_HANT * 2, ZH_HANS * 2
    _check(head.encode("big5"), tail.encode("gbk"), head, tail, fake_detect, "Big5", "GBK")


@pytest.mark.parametrize(
    ("text", "codec", "name"),
    [
        (ZH_HANS * 4, "gbk", "GBK"),
        (ZH_HANT * 4, "big5", "Big5"),
        (FR * 6, "cp1252", "windows-1252"),
        ((FR + ZH_HANS) * 3, "utf-16-le", "UTF-16LE"),
    ],
)
def test_clean_files_are_not_split(text: str, codec: str, name: str) -> None:
    data = text.encode(codec)
    assert find_split(data, 0, name, None, fake_detect) is None
    assert examine(data, SALVAGE, fixed((name, 0.95))).verification == "lossless"


def test_salvage_refuses_a_segment_that_does_not_decode() -> None:
    from mojifix.convert.records import Split

    data = b"abc\n\xff\xfe\xfd"
    assert salvage(data, 0, Split(4, "UTF-8", "UTF-8", "test")) is None


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_8bit_head_utf16_tail(codec: str) -> None:
    head, tail = FR * 2, EN + ZH_HANS
    name = "UTF-16LE" if codec == "utf-16-le" else "UTF-16BE"
    whole = head.encode("cp1252") + tail.encode(codec)
    # whatever the whole-file verdict (UTF-16, binary...), the NUL layout shows the split
    for verdict in (fixed((name, 0.9)), fixed(verdict="binary"), fake_detect):
        _check(
            head.encode("cp1252"),
            tail.encode(codec),
            head,
            tail,
            whole_file_says(whole, verdict),
            "windows-1252",
            name,
        )


def test_utf16_head_8bit_tail_found_by_nul_layout() -> None:
    head, tail = EN + ZH_HANS, FR * 2
    whole = head.encode("utf-16-be") + tail.encode("cp1252")
    _check(
        head.encode("utf-16-be"),
        tail.encode("cp1252"),
        head,
        tail,
        whole_file_says(whole, fixed(("UTF-16BE", 0.9))),
        "UTF-16BE",
        "windows-1252",
    )


def whole_file_says(whole: bytes, verdict):
    """The given verdict for the whole file, the stand-in detector for its parts."""

    def detect(data: bytes, **kw: object):
        return verdict(data, **kw) if data == whole else fake_detect(data, **kw)

    return detect


@pytest.mark.parametrize(("first", "second"), [("utf-16-le", "utf-16-be"), ("utf-16-be", "utf-16-le")])
def test_utf16_tail_of_the_other_byte_order(first: str, second: str) -> None:
    head, tail = EN + ZH_HANS + FR, FR + EN
    name = {"utf-16-le": "UTF-16LE", "utf-16-be": "UTF-16BE"}
    whole = head.encode(first) + tail.encode(second)
    det = whole_file_says(whole, fixed((name[first], 0.95)))
    _check(head.encode(first), tail.encode(second), head, tail, det, name[first], name[second])


def test_batched_line_scores_equal_score_text() -> None:
    """The probes score several lines in one call (mixed._scores); each value must be exactly what
    mojifix.detect.score_text gives for that line alone, or the probes' thresholds would shift."""
    from mojifix.convert import mixed
    from mojifix.detect import score_text

    lines = [ZH_HANS, ZH_HANT, FR, ZH_HANS.encode("gbk").decode("big5", "replace"), "x", FR.upper()]
    batched = mixed._scores(*lines)
    assert batched == [score_text(t)[1] for t in lines]
    assert len(set(batched)) > 3  # distinct texts really got distinct scores


def test_windows1252_head_short_utf8_tail_with_one_latin_sequence() -> None:
    """Probe A: one Latin-script UTF-8 sequence ("ö" = C3 B6, "Ã¶" in windows-1252) after the last
    byte invalid in UTF-8 is enough when every sequence there has a Latin-script lead byte."""
    head, tail = FR * 3, "Der Zug nach Köln hatte Verspätung, also tranken wir Kaffee.\n"
    one = "Der Zug nach Köln hatte vierzig Minuten Verspaetung.\n"
    det = fixed(("windows-1252", 0.99))
    _check(head.encode("cp1252"), tail.encode(), head, tail, det, "windows-1252", "UTF-8")
    _check(head.encode("cp1252"), one.encode(), head, one, det, "windows-1252", "UTF-8")


def test_windows1252_old_spelling_is_not_split() -> None:
    """ "daß“" is DF 93 in windows-1252: a valid UTF-8 pair, but not a Latin-script one."""
    text = FR * 3 + "Er sagte, „daß“ sei richtig.\n"
    v = examine(text.encode("cp1252"), Options(), fixed(("windows-1252", 0.99)))
    assert (v.outcome, v.output) == ("converted", text.encode())


def test_utf8_bom_in_the_middle_marks_an_appended_file() -> None:
    head, tail = FR * 3, "\ufeffPlain English, appended with its BOM.\n"
    _check(
        head.encode("cp1252"),
        tail.encode(),
        head,
        tail,
        fixed(("windows-1252", 0.99)),
        "windows-1252",
        "UTF-8",
    )


def test_latin_tail_probe_skips_a_last_line_too_short_to_judge() -> None:
    """A GB18030 tail whose last line is one four-byte character ("•4²5" in windows-1252)."""
    head, tail = FR * 4, ZH_HANS * 2 + "𠮷\n"
    det = fixed(("windows-1252", 0.99))

    def detect(data: bytes, **kw: object):
        # the tail alone is GB18030 text; anything holding the head is windows-1252
        return fixed(("gb18030", 0.99))(data) if data.startswith(ZH_HANS[:4].encode("gb18030")) else det(data)

    _check(head.encode("cp1252"), tail.encode("gb18030"), head, tail, detect, "windows-1252", "gb18030")


@pytest.mark.parametrize(("first", "second"), [("utf-16-be", "utf-16-le"), ("utf-16-le", "utf-16-be")])
def test_chinese_utf16_then_the_other_byte_order_called_binary(first: str, second: str) -> None:
    """Probe G when the detector calls the whole file binary: Chinese UTF-16 has few NULs, some of the
    wrong parity (U+4E00 一 is 4E 00 in UTF-16BE)."""
    head, tail = (EN + ZH_HANS) * 6, ZH_HANS * 3  # "每一个" in ZH_HANS: stray NULs in the tail
    name = {"utf-16-le": "UTF-16LE", "utf-16-be": "UTF-16BE"}
    _check(
        head.encode(first),
        tail.encode(second),
        head,
        tail,
        fixed(verdict="binary"),
        name[first],
        name[second],
    )


def test_short_chinese_utf16_with_stray_nuls_is_not_split() -> None:
    text = "我们打算周末去爬山，如果天气好的话就在山顶野餐。 老师让每个学生写一篇关于家乡"
    data = text.encode("utf-16-be")
    v = examine(data, Options(), fixed(("UTF-16BE", 0.99)))
    assert (v.outcome, v.output) == ("converted", text.encode())


def test_split_holds_when_the_tail_encoding_is_uncertain() -> None:
    """UTF-16 head, NUL-free 8-bit tail: the NULs prove the split; an unsure detector on the tail only
    makes its encoding uncertain, and then no salvage is offered (it could be the wrong text)."""
    head, tail = EN + FR, FR + EN

    def unsure(data: bytes, **kw: object):
        if b"\x00" in data:
            return fake_detect(data, **kw)
        return fixed(("windows-1252", 0.5), ("windows-1250", 0.45), ambiguous=True)(data)

    data = head.encode("utf-16-le") + tail.encode("cp1252")
    v = examine(data, SALVAGE, unsure)
    assert (v.outcome, v.verification) == ("quarantined", "mixed")
    assert v.mixed is not None and v.mixed.boundary == len(head.encode("utf-16-le"))
    assert "uncertain" in v.mixed.uncertain and "windows-1250 (0.45)" in v.mixed.uncertain
    assert v.salvage is None and any(w.startswith("no salvage") for w in v.warnings)
    assert v.mixed.to_dict()["uncertain"] == v.mixed.uncertain


_UTF8_PIECES = [
    b"a",
    b"\n",
    b"\x00",
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80",
    b"\xff",
    b"\x80",
    b"\xc3",
    b"\xe2\x82",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_UTF8_PIECES), max_size=40))
def test_utf8_bad_span_is_the_first_and_last_invalid_byte(pieces: list[bytes]) -> None:
    """The span probes A and B share equals its straight-line definition: the offsets of the first
    invalid byte and of the end of the last invalid sequence under strict UTF-8, decoded piece by piece."""
    data = b"".join(pieces)
    bad: list[tuple[int, int]] = []  # (start, end) of each invalid sequence
    i = 0
    while i < len(data):
        try:
            data[i:].decode("utf-8")
            break  # the rest is valid
        except UnicodeDecodeError as exc:
            bad.append((i + exc.start, i + exc.end))
            i += exc.end
    assert _utf8_bad_span(data) == ((bad[0][0], bad[-1][1]) if bad else None)
