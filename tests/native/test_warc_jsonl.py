"""``mojifix warc``'s compiled JSON-lines writer (``mojifix.integrations._jsonl``) against its reference,
``json.dumps(row, ensure_ascii=False) + "\\n"`` encoded as UTF-8: the same bytes for every value a row can
hold (any code point, every escape, None, bools, ints, lists of strings), and None (the reference's way)
for what it does not write."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.integrations import warc
from mojifix.integrations.warc import ROW_FIELDS, WarcRow

#: Text with every escape JSON has, control characters, non-ASCII of every UTF-8 length, and lone
#: surrogates (which UTF-8 cannot encode).
_TEXT = st.text(
    st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF), max_size=40
) | st.sampled_from(['"', "\\", "\n\r\t\b\f", "\x00\x1f\x7f", "é", "日本", "😀", "a\ud800b", "\udfff", ""])
_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    _TEXT,
    st.lists(_TEXT, max_size=4).map(tuple),
    st.lists(_TEXT, max_size=4),
)


def _reference(values: tuple[object, ...]) -> bytes:
    return (json.dumps(dict(zip(ROW_FIELDS, values, strict=True)), ensure_ascii=False) + "\n").encode("utf-8")


def _writes_utf8(values: tuple[object, ...]) -> bool:
    try:
        _reference(values)
    except UnicodeEncodeError:
        return False
    return True


@settings(max_examples=1500, deadline=None)
@given(values=st.tuples(*[_VALUE] * len(ROW_FIELDS)))
def test_line_is_json_dumps(warc_writer_kernel: ModuleType, values: tuple[object, ...]) -> None:
    got = warc_writer_kernel.line(warc._JSONL_PREFIXES, values, warc._JSONL_END)
    if _writes_utf8(values):
        assert got == _reference(values)
    else:
        assert got is None  # a lone surrogate: left to the reference, which raises


@pytest.mark.parametrize("escape", ['"', "\\", "\n", "\x00", "\x1f", "\x7f", "é", "日", "😀"])
def test_every_offset_of_a_byte_to_escape(warc_writer_kernel: ModuleType, escape: str) -> None:
    """The writer copies eight bytes at a time up to the next byte to escape: every offset within and across
    words, in ASCII and in multi-byte text, and runs of escapes."""
    for offset in range(20):
        for filler in ("a", "é", "日"):
            text = filler * offset + escape + filler * (offset % 9) + escape * (offset % 4)
            values = (text,) * len(ROW_FIELDS)
            assert warc_writer_kernel.line(warc._JSONL_PREFIXES, values, warc._JSONL_END) == _reference(
                values
            )


@pytest.mark.parametrize("kind", ["ascii", "latin-1", "ucs-2", "ucs-4"])
def test_each_kind_of_str_at_every_alignment(warc_writer_kernel: ModuleType, kind: str) -> None:
    """The writer reads a str's code units by CPython's kind (one, two or four bytes each) and copies runs of
    ASCII a word at a time: long ASCII runs broken by escapes and by code points of each UTF-8 length, at
    every offset, in a str of each kind; and a lone surrogate anywhere is left to the reference."""
    widest = {"ascii": "", "latin-1": "\xff", "ucs-2": "\uffff", "ucs-4": "\U0010ffff"}[kind]
    breaks = ['"', "\\", "\n", "\x00", "\x1f", "\x7f", "\x80", "é", "\u07ff", "\u0800", "日", "\U00010000"]
    for offset in range(17):
        for brk in breaks:
            text = widest + "a" * offset + brk + "b" * (offset + 9) + brk * 2 + "c" * (17 - offset)
            if max(map(ord, text)) > max(map(ord, widest or "a")) and ord(brk) > 0x7F:
                continue  # a wider break would change the str's kind
            values = (text,) * len(ROW_FIELDS)
            got = warc_writer_kernel.line(warc._JSONL_PREFIXES, values, warc._JSONL_END)
            assert got == _reference(values)
    if kind in ("ucs-2", "ucs-4"):
        for offset in range(12):
            text = widest + "a" * offset + "\ud800" + "a" * 5
            values = ("x",) * (len(ROW_FIELDS) - 1) + (text,)
            assert warc_writer_kernel.line(warc._JSONL_PREFIXES, values, warc._JSONL_END) is None


class _Int(int):
    pass


@pytest.mark.parametrize("odd", [1.5, _Int(3), b"bytes", {"a": 1}, ("ok", 2), ["ok", None]])
def test_values_it_does_not_write_are_left_to_the_reference(
    warc_writer_kernel: ModuleType, odd: object
) -> None:
    values = ("x",) * (len(ROW_FIELDS) - 1) + (odd,)
    assert warc_writer_kernel.line(warc._JSONL_PREFIXES, values, warc._JSONL_END) is None


def test_a_row_longer_than_the_bound_is_left_to_the_reference(warc_writer_kernel: ModuleType) -> None:
    """Six bytes of room per code point: past 64 MiB of room the row goes the reference way."""
    values = ("x",) * (len(ROW_FIELDS) - 1) + ("a" * (11 << 20),)
    assert warc_writer_kernel.line(warc._JSONL_PREFIXES, values, warc._JSONL_END) is None
    shorter = ("x",) * (len(ROW_FIELDS) - 1) + ("a" * (10 << 20),)
    assert warc_writer_kernel.line(warc._JSONL_PREFIXES, shorter, warc._JSONL_END) == _reference(shorter)


def test_write_rows_writes_the_reference_bytes(
    warc_writer_kernel: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole files: rows of every shape (a surrogate-free text of every kind) written compiled and by the
    reference are the same bytes."""
    texts = ["plain", 'a "quoted" \\ path\n', "café\tnaïve", "日本語 😀", "\x00\x01\x1f", ""]
    rows = [
        WarcRow(
            uri=f"http://e{k}.example/" if k % 3 else None,
            record_id=f"<urn:{k}>",
            date="2024-01-01T00:00:00+00:00",
            status=200 if k % 2 else None,
            content_type="text/html; charset=utf-8",
            kind="html",
            encoding="UTF-8",
            source="transport",
            confidence="certain",
            browser_encoding="UTF-8",
            overridden=bool(k % 2),
            warnings=tuple(texts[: k % 4]),
            replacement_count=k,
            truncated="length" if k == 2 else None,
            text=text,
        )
        for k, text in enumerate(texts * 3)
    ]
    compiled, reference = tmp_path / "c.jsonl", tmp_path / "r.jsonl"
    warc.write_rows(rows, compiled)
    monkeypatch.setattr(warc._native, "warc_writer_kernel", lambda: None)
    warc.write_rows(rows, reference)
    assert compiled.read_bytes() == reference.read_bytes()
    assert [json.loads(line)["text"] for line in compiled.read_text("utf-8").splitlines()] == texts * 3


def test_a_row_utf8_cannot_hold_raises_as_the_reference_does(
    warc_writer_kernel: ModuleType, tmp_path: Path
) -> None:
    row = WarcRow(
        None, None, None, None, None, "html", "UTF-8", "bom", "certain", "UTF-8", False, (), 0, None, "\ud800"
    )
    with pytest.raises(UnicodeEncodeError):
        warc.write_rows([row], tmp_path / "x.jsonl")
