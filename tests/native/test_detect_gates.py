"""The byte tests that let the detector skip work (a declaration's parsers, the escape-sequence search)
give the same results as running that work: each gate is patched open and the answers compared."""

from __future__ import annotations

import random

import pytest

from mojifix.detect import declarations, detect, pipeline

#: pieces of declarations, comments and escape sequences, glued at random into inputs
_PIECES = (
    b"<meta",
    b"<META",
    b"<MeTa",
    b" charset=",
    b"<meta charset=koi8-r>",
    b"<META CHARSET='windows-1251'/>",
    b"<MeTa http-equiv=Content-Type content='text/html;charset=gbk'>",
    b"<meta\tcharset=",
    b"koi8-r",
    b'"utf-8"',
    b"http-equiv=content-type ",
    b'content="text/html; charset=windows-1251"',
    b">",
    b"<!--",
    b"-->",
    b"# -*- coding: latin-1 -*-",
    b"# coding=cp1252",
    b"coding:",
    b"vim: set fileencoding=koi8_r :",
    b" vim: fenc=big5",
    b"fenc=",
    b"\n",
    b"\r\n",
    b"#",
    b"/* -*- coding: utf-8 -*- */",
    b'@charset "iso-8859-2";',
    b"<?xml version='1.0' ",
    b"encoding='shift_jis'?>",
    b"\x1b$B",
    b"\x1b(B",
    b"\x1b$)C",
    b"\x0e",
    b"\x0f",
    b"~{",
    b"~}",
    b"~",
    b"{",
    b"<5B6D>",
    b"\x1b",
    b"text ",
    b"$B",
    b"\xe9",
    b"\xc3\xa9",
    b"\xff",
)


def _inputs(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        out.append(b"".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 14))))
    return out


def test_declaration_gates_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    datas = _inputs(13, 3000)
    gated = [declarations.find_declarations(d) for d in datas]
    assert sum(1 for g in gated if any(x.kind == "meta" for x in g)) > 50  # the inputs do declare
    assert sum(1 for g in gated if any(x.kind == "coding" for x in g)) > 50
    monkeypatch.setattr(declarations, "_may_hold_meta", lambda data: True)
    monkeypatch.setattr(declarations, "_may_hold_coding", lambda data: True)
    assert [declarations.find_declarations(d) for d in datas] == gated


def test_declaration_gates_say_no_only_without_the_bytes() -> None:
    assert declarations._may_hold_meta(b"x <MEtA charset=utf-8>")
    assert not declarations._may_hold_meta(b"<met a charset=utf-8>")
    assert declarations._may_hold_coding(b"# vim: fenc=x") and declarations._may_hold_coding(b"coding:x")
    assert not declarations._may_hold_coding(b"# -*- Coding: latin-1 -*-")  # the patterns are case-sensitive
    assert declarations.find_declaration(b"# -*- Coding: latin-1 -*-\n") is None


def test_escape_gate_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    datas = [d for d in _inputs(7, 1500) if d.isascii()]
    gated = [repr(detect(d)) for d in datas]
    assert sum("escape" in g for g in gated) > 20  # some inputs are read as escape encodings
    monkeypatch.setattr(pipeline, "_may_hold_escape", lambda counts: True)
    assert [repr(detect(d)) for d in datas] == gated
