"""Differential test against encoding_rs (Firefox's implementation) through the ``endec`` package.

Same byte soups as the property tests, all 40 encodings, all three BOM modes: mojifix and encoding_rs
must produce identical text, and agree on whether strict decoding fails. Encoders are compared for
every encoding the standard gives an encoder. Disagreements found while writing this are discussed
in docs/whatwg.md ("Comparison with encoding_rs").
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import endec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mojifix.errors import DecodeError, EncodeError
from mojifix.whatwg import lookup
from mojifix.whatwg._tables import ENCODINGS


def _load_property_module():  # reuse the soups of tests/property (test dirs are not packages)
    path = Path(__file__).resolve().parents[1] / "property" / "test_whatwg_property.py"
    spec = importlib.util.spec_from_file_location("whatwg_property_soups", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("whatwg_property_soups", module)
    spec.loader.exec_module(module)
    return module


SOUP = _load_property_module().SOUP
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: mojifix BOM mode -> endec's name for the same encoding_rs entry point ("evaluate" sniffs only for UTF-*)
ENDEC_BOM = {"sniff": "evaluateall", "strip": "strip", "ignore": "ignore"}
#: encodings the standard gives no encoder (encoding_rs substitutes UTF-8 there; see docs/whatwg.md)
NO_ENCODER = {"replacement", "UTF-16BE", "UTF-16LE"}


ALL = [name for name, _ in ENCODINGS]


def label_of(name: str) -> str:
    """A label encoding_rs accepts ("replacement" is a name, not a label)."""
    return lookup(name).labels[0]


@pytest.mark.parametrize("name", ALL)
@SETTINGS
@given(
    prefix=st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]),
    soup=SOUP,
    bom=st.sampled_from(["sniff", "strip", "ignore"]),
)
def test_decode_same_as_encoding_rs(name: str, prefix: bytes, soup: bytes, bom: str) -> None:
    data = prefix + soup
    encoding = lookup(name)
    theirs = endec.decode(data, label_of(name), "replace", bom=ENDEC_BOM[bom])
    assert encoding.decode(data, bom=bom) == theirs
    try:
        endec.decode(data, label_of(name), "strict", bom=ENDEC_BOM[bom])
        they_fail = False
    except Exception:  # endec.exceptions.DecodeError (a UnicodeError)
        they_fail = True
    try:
        encoding.decode(data, errors="strict", bom=bom)
        we_fail = False
    except DecodeError:
        we_fail = True
    assert we_fail == they_fail


#: text drawn from the scripts these encodings are for, plus anything else
TEXT = st.text(
    st.one_of(
        st.characters(min_codepoint=0, max_codepoint=0x2FF),
        st.characters(min_codepoint=0x370, max_codepoint=0x6FF),
        st.characters(min_codepoint=0x2000, max_codepoint=0x33FF),
        st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
        st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),
        st.characters(min_codepoint=0xE000, max_codepoint=0xFFFF),
        st.characters(exclude_categories=["Cs"]),
    ),
    max_size=24,
)


@pytest.mark.parametrize("name", [name for name in ALL if name not in NO_ENCODER])
@SETTINGS
@given(text=TEXT)
def test_encode_same_as_encoding_rs(name: str, text: str) -> None:
    encoding = lookup(name)
    assert encoding.encode(text, errors="html") == endec.encode(text, label_of(name), "xmlcharrefreplace")
    try:
        theirs: bytes | None = endec.encode(text, label_of(name), "strict")
    except Exception:  # endec.exceptions.EncodeError
        theirs = None
    try:
        ours: bytes | None = encoding.encode(text)
    except EncodeError:
        ours = None
    assert ours == theirs


def test_a_known_disagreement_with_cpython_is_an_agreement_here() -> None:
    data = b"\x80\x81\x8d\x8f\x90\x9d"
    assert lookup("windows-1252").decode(data) == endec.decode(data, "windows-1252", "replace")
