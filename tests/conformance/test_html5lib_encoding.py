"""The html5lib-tests encoding suite (``../shared/data/html5lib-tests/encoding``), read as bytes.

Format (SOURCE.md there): cases split on ``#data\\n``; the document runs up to ``\\n#encoding\\n``;
the expected name is matched after WHATWG label resolution; no transport layer; the default is
windows-1252 (``fallback="browser"`` with no URL gives exactly that on these pages).

Two checks per case:
- ``decode_html`` (Chromium's rules, which mojifix follows) gives the expected encoding, except for
  the cases in ``CHROMIUM_DIFFERS`` (listed with the reason, strict xfail);
- the HTML Standard's prescan alone, over the first 1024 bytes, gives the expected encoding, except
  for ``BEYOND_PRESCAN_WINDOW`` (the meta lies past byte 1024; the suite expects the full parser's
  answer there, which mojifix's late-meta rule gives) and the scripted case.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mojifix.sniff import decode_html
from mojifix.sniff.prescan import prescan
from mojifix.sniff.xml_declaration import get_xml_encoding
from mojifix.whatwg import lookup

SUITE = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "html5lib-tests" / "encoding"

#: Cases where Chromium (measured: docs/browser-measurements.md, "Because it is a tokenizer") and
#: so mojifix give windows-1252 while the suite expects the Standard's answer.
CHROMIUM_DIFFERS = {
    "tests1.dat#54": "meta in a <script> (a document.write string): Chromium's scan reads script as raw text",
    "tests1.dat#55": "meta inside <script type=text/plain>: raw text for Chromium's tokenizer",
    "tests1.dat#56": "meta inside <style>: RAWTEXT for Chromium's tokenizer",
    "scripted/tests1.dat#0": "needs a scripting parser: document.write of a meta built by concatenation",
}

#: Cases whose meta lies past the 1024-byte prescan window (the prescan alone cannot find it).
BEYOND_PRESCAN_WINDOW = {f"tests1.dat#{i}" for i in range(47, 54)}


def _cases() -> list[tuple[str, bytes, str]]:
    if not SUITE.is_dir():
        return []
    out = []
    for path in sorted(SUITE.rglob("*.dat")):
        raw = path.read_bytes()
        for index, chunk in enumerate(raw.split(b"#data\n")[1:]):
            data, sep, rest = chunk.partition(b"\n#encoding\n")
            assert sep, f"{path.name} case {index} has no #encoding line"
            expected = lookup(rest.split(b"\n", 1)[0].decode("ascii"))
            assert expected is not None
            out.append((f"{path.relative_to(SUITE).as_posix()}#{index}", data, expected.name))
    return out


CASES = _cases()
pytestmark = pytest.mark.skipif(not CASES, reason=f"html5lib-tests not found at {SUITE}")


def _params(known: dict[str, str]) -> list[object]:
    params = []
    for case_id, data, expected in CASES:
        marks = ()
        if case_id in known:
            marks = (pytest.mark.xfail(strict=True, reason=known[case_id]),)
        params.append(pytest.param(data, expected, id=case_id, marks=marks))
    return params


def test_suite_is_complete() -> None:
    assert len(CASES) == 83  # SOURCE.md: 59 + 22 + 1 + 1


@pytest.mark.parametrize(("data", "expected"), _params(CHROMIUM_DIFFERS))
def test_decode_html(data: bytes, expected: str) -> None:
    assert decode_html(data, fallback="browser").encoding == expected


_PRESCAN_ONLY_MISSES = {
    "scripted/tests1.dat#0": CHROMIUM_DIFFERS["scripted/tests1.dat#0"],
    **dict.fromkeys(BEYOND_PRESCAN_WINDOW, "the meta lies past byte 1024: the suite expects the full parser"),
}


@pytest.mark.parametrize(("data", "expected"), _params(_PRESCAN_ONLY_MISSES))
def test_standard_prescan(data: bytes, expected: str) -> None:
    # The Standard's algorithm: BOM, then the prescan (with "get an XML encoding"), else the default.
    if data.startswith(b"\xef\xbb\xbf"):
        found = "UTF-8"
    else:
        declaration = prescan(data) or get_xml_encoding(data, 1024)
        found = declaration.encoding.name if declaration is not None else "windows-1252"
    assert found == expected
