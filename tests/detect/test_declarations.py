"""In-band declarations (``mojifix.detect.declarations``): one parser per kind, labels located exactly."""

from __future__ import annotations

import pytest

from mojifix.detect.declarations import DECLARATION_LIMIT, Declaration, find_declaration, find_declarations


def _one(data: bytes) -> Declaration:
    found = find_declaration(data)
    assert found is not None, data
    assert data[found.start : found.end] == found.label.encode("latin-1"), "the span is the label as written"
    return found


@pytest.mark.parametrize(
    ("data", "kind", "label", "encoding"),
    [
        (b'<?xml version="1.0" encoding="EUC-JP"?>\n<rss version="2.0">', "xml", "EUC-JP", "EUC-JP"),
        (b"<?xml version='1.0' encoding='koi8-r' standalone='yes'?><a/>", "xml", "koi8-r", "KOI8-R"),
        (b'<?xml version="1.0" encoding="utf-16"?><a/>', "xml", "utf-16", "UTF-8"),  # step 17
        (b'<?xml version="1.0" encoding="IBM437"?><a/>', "xml", "IBM437", "cp437"),  # IANA, CPython knows
        (b'<?xml version="1.0" encoding="x-no-such"?><a/>', "xml", "x-no-such", None),
        (b'\xef\xbb\xbf<?xml version="1.0" encoding="utf-8"?><a/>', "xml", "utf-8", "UTF-8"),
        (b'<!DOCTYPE html><head><meta charset="gb2312"><title>', "meta", "gb2312", "GBK"),
        (b"<head><meta charset=Shift_JIS>", "meta", "Shift_JIS", "Shift_JIS"),
        (b"<head><meta charset='  euc-kr  '>", "meta", "  euc-kr  ", "EUC-KR"),
        (
            b'<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
            "meta",
            "windows-1251",
            "windows-1251",
        ),
        (
            b"<meta content='text/html; charset=\"big5\"' http-equiv=content-type>",
            "meta",
            "big5",
            "Big5",
        ),
        (b'<meta charset="utf-16le">', "meta", "utf-16le", "UTF-8"),  # prescan step 14
        (b'<meta charset="x-user-defined">', "meta", "x-user-defined", "windows-1252"),  # step 15
        (b'<meta charset="iso-2022-kr">', "meta", "iso-2022-kr", "iso2022_kr"),  # not "replacement"
        (b'<meta charset="hz-gb-2312">', "meta", "hz-gb-2312", "hz"),
        (b'@charset "iso-8859-15";\nbody { color: red }', "css", "iso-8859-15", "ISO-8859-15"),
        (b'\xef\xbb\xbf@charset "utf-8";', "css", "utf-8", "UTF-8"),
        (b'@charset "utf-16be";', "css", "utf-16be", "UTF-8"),  # CSS Syntax: utf-16 -> utf-8
        (b'@charset "klingon";', "css", "klingon", None),
        (b"# -*- coding: latin-1 -*-\nimport os\n", "coding", "latin-1", "iso8859-1"),
        (b"#!/usr/bin/env python\n# -*- coding: cp1252 -*-\n", "coding", "cp1252", "cp1252"),
        (b"# coding=euc_jp\n", "coding", "euc_jp", "euc_jp"),
        (b"# vim: set fileencoding=koi8_r :\n", "coding", "koi8_r", "koi8-r"),
        (b"  \t# This Python file uses the following encoding: utf-8\n", "coding", "utf-8", "utf-8"),
        (b"# -*- coding: UTF-8-unix -*-\n", "coding", "UTF-8-unix", "utf-8"),  # the tokenizer folds it
        (b"# coding: no-such-codec\n", "coding", "no-such-codec", None),
        (b"\n# coding: gbk\n", "coding", "gbk", "gbk"),  # a blank first line lets line two count
        (b"/* -*- mode: c; coding: iso-8859-2 -*- */\nint x;\n", "coding", "iso-8859-2", "iso8859-2"),
        (b";; -*- coding: cp1251 -*-\n", "coding", "cp1251", "cp1251"),
        (b"% vim: fenc=big5\n", "coding", "big5", "big5"),
        (b"\xef\xbb\xbf# coding: utf-8\r\nx = 1\r\n", "coding", "utf-8", "utf-8"),
        (b"#!/bin/sh\r# -*- coding: cp850 -*-\r", "coding", "cp850", "cp850"),  # old Mac line ends
    ],
)
def test_declaration(data: bytes, kind: str, label: str, encoding: str | None) -> None:
    found = _one(data)
    assert (found.kind, found.label, found.encoding) == (kind, label, encoding)


@pytest.mark.parametrize(
    "data",
    [
        # inside a comment or otherwise not where its standard looks
        b'<!-- <meta charset="gb2312"> --><p>',
        b"<!--<meta charset=gb2312>--><p>",
        b'<script>var s = "<meta charset=gb2312>";</script>',  # the prescan reads this one...
        b'<html>\n<?xml version="1.0" encoding="EUC-JP"?>',  # XML declaration not at byte 0
        b' <?xml version="1.0" encoding="EUC-JP"?>',
        b'/* @charset "iso-8859-15"; */',
        b' @charset "iso-8859-15";',
        b"@charset 'iso-8859-15';",  # single quotes: not the exact form
        b'@charset  "iso-8859-15";',  # two spaces
        b'@CHARSET "iso-8859-15";',
        b'@charset "iso-8859-15"',  # no ";"
        b'x = "# coding: latin-1"\n',  # in a string, not a comment
        b"import os\n# coding: latin-1\n",  # line two after a line of code
        b"#!/usr/bin/python\n\n# coding: latin-1\n",  # line three
        b"# coding latin-1\n",  # no ":" or "="
        b'<meta charset="no-such-label">',  # the prescan skips unknown labels
        b'<meta http-equiv="Content-Type" content="text/html">',
        b'<meta content="text/html; charset=gbk">',  # content without http-equiv: need pragma
        b"",
        b"<",
    ],
)
def test_not_a_declaration(data: bytes) -> None:
    found = find_declaration(data)
    if data.startswith(b"<script>"):
        # The prescan does not know scripts (it sees a "<meta" tag), and neither do browsers' prescans.
        assert found is not None and found.kind == "meta"
    else:
        assert found is None, found


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-16", "utf-32"])
@pytest.mark.parametrize(
    "text",
    [
        '<?xml version="1.0" encoding="UTF-16"?><a/>',
        '<html><meta charset="gb2312"></html>',
        '@charset "utf-16";',
        "# -*- coding: latin-1 -*-\n",
    ],
)
def test_utf16_and_utf32_files_declare_nothing_bytewise(codec: str, text: str) -> None:
    """Declarations are ASCII bytes; in UTF-16/32 (with or without a BOM) they are not there to read."""
    assert find_declarations(text.encode(codec)) == ()


def test_prescan_limit_boundary() -> None:
    """A ``<meta>`` that ends exactly at the limit is read; one byte later it is not (nor XML/coding)."""
    meta = b'<meta charset="koi8-r">'
    fits = b"<p>" + b"x" * (DECLARATION_LIMIT - 3 - len(meta)) + meta
    assert len(fits) == DECLARATION_LIMIT
    assert _one(fits + b"<p>").encoding == "KOI8-R"
    over = b"<p>" + b"x" * (DECLARATION_LIMIT - 2 - len(meta)) + meta
    assert find_declaration(over) is None
    long_first_line = b"#" + b"x" * DECLARATION_LIMIT + b"\n# coding: latin-1\n"
    assert find_declaration(long_first_line) is None


def test_several_declarations_in_file_order() -> None:
    data = b'<?xml version="1.0" encoding="iso-8859-2"?>\n<html><head><meta charset="windows-1250"/>'
    found = find_declarations(data)
    assert [(d.kind, d.label, d.encoding) for d in found] == [
        ("xml", "iso-8859-2", "ISO-8859-2"),
        ("meta", "windows-1250", "windows-1250"),
    ]
    assert find_declaration(data) == found[0]
    for decl in found:
        assert data[decl.start : decl.end] == decl.label.encode()


def test_meta_label_span_is_the_attribute_the_prescan_used() -> None:
    """Labels repeated elsewhere in the tag do not mislead the span (first charset attribute wins)."""
    data = b'<meta content="gbk; charset=big5" http-equiv="content-type" charset="gbk" charset="utf-8">'
    found = _one(data)
    assert (found.label, found.encoding) == ("gbk", "GBK")
    assert data[found.start - len(b'charset="') : found.start] == b'charset="'
    content = b'<meta http-equiv=content-type content="charset; charsetX charset = gbk; charset=big5">'
    found = _one(content)
    assert (found.label, found.encoding, content[found.start - 2 : found.start]) == ("gbk", "GBK", b"= ")


def test_declaration_is_frozen() -> None:
    found = _one(b"<meta charset=gbk>")
    with pytest.raises(AttributeError):
        found.label = "utf-8"  # type: ignore[misc]
    assert not hasattr(found, "__dict__")
