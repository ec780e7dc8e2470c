"""Hypothesis byte soups: fast path == spec reference; incremental == one-shot for random splits.

Soups are biased toward the bytes where decoders change state: lead bytes of every multi-byte family,
ESC and the ISO-2022-JP escape letters, 0x30-0x39 (gb18030's four-byte second/fourth bytes), surrogate
high bytes for UTF-16, and truncation (a valid encoded text cut at a random point).
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mojifix.errors import DecodeError
from mojifix.whatwg import lookup
from mojifix.whatwg._tables import ENCODINGS


def _load_reference():  # tests/whatwg/reference.py, imported by path (test dirs are not packages)
    path = Path(__file__).resolve().parents[1] / "whatwg" / "reference.py"
    spec = importlib.util.spec_from_file_location("whatwg_reference", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("whatwg_reference", module)
    spec.loader.exec_module(module)
    return module


reference = _load_reference()

ALL_NAMES = [name for name, _ in ENCODINGS]
REFERENCE_NAMES = sorted(reference.reference_encodings())

#: bytes where some decoder changes state (see module docstring)
BIASED = sorted(
    {0x00, 0x0E, 0x0F, 0x1B, 0x24, 0x28, 0x40, 0x41, 0x42, 0x44, 0x49, 0x4A, 0x5C, 0x7E, 0x7F}
    | set(range(0x30, 0x3A))
    | {0x80, 0x81, 0x8E, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xBF, 0xC2, 0xC7, 0xC8, 0xDF, 0xE0, 0xED, 0xEF}
    | {0xF0, 0xF4, 0xF5, 0xF9, 0xFC, 0xFD, 0xFE, 0xFF, 0xD7, 0xD8, 0xDB, 0xDC}
)
ONE_BYTE = st.one_of(st.sampled_from(BIASED), st.integers(0, 255))
RANDOM_SOUP = st.lists(ONE_BYTE, max_size=48).map(bytes)
#: codecs to produce mostly-valid input for each family, then cut and spliced
_VALID_SOURCES = [
    "utf-8",
    "utf-16-le",
    "utf-16-be",
    "gb18030",
    "big5",
    "euc_jp",
    "iso2022_jp",
    "cp932",
    "cp949",
]


@st.composite
def truncated_text(draw: st.DrawFn) -> bytes:
    text = draw(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=16))
    source = draw(st.sampled_from(_VALID_SOURCES))
    data = text.encode(source, "ignore")
    cut = draw(st.integers(0, len(data)))
    return data[:cut]


SOUP = st.one_of(
    RANDOM_SOUP,
    truncated_text(),
    st.tuples(truncated_text(), RANDOM_SOUP, truncated_text()).map(b"".join),
)

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", REFERENCE_NAMES)
@SETTINGS
@given(data=SOUP)
def test_fast_path_equals_reference(name: str, data: bytes) -> None:
    encoding = lookup(name)
    expected, errors = reference.decode(name, data)
    assert encoding.decode(data, bom="ignore") == expected
    if errors:
        with pytest.raises(DecodeError) as info:
            encoding.decode(data, errors="strict", bom="ignore")
        assert (info.value.start, info.value.end) == errors[0]
    else:
        assert encoding.decode(data, errors="strict", bom="ignore") == expected


@st.composite
def splits(draw: st.DrawFn) -> tuple[bytes, list[bytes]]:
    data = draw(
        st.one_of(
            SOUP, st.tuples(st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]), SOUP).map(b"".join)
        )
    )
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=8)))
    bounds = [0, *cuts, len(data)]
    return data, [data[a:b] for a, b in itertools.pairwise(bounds)]


@pytest.mark.parametrize("name", ALL_NAMES)
@SETTINGS
@given(case=splits(), bom=st.sampled_from(["sniff", "strip", "ignore"]))
def test_incremental_equals_one_shot(name: str, case: tuple[bytes, list[bytes]], bom: str) -> None:
    data, pieces = case
    encoding = lookup(name)
    decoder = encoding.incremental_decoder(bom=bom)
    out = [decoder.decode(piece) for piece in pieces]
    out.append(decoder.decode(b"", final=True))
    assert "".join(out) == encoding.decode(data, bom=bom)


@pytest.mark.parametrize("name", [name for name in REFERENCE_NAMES if name != "replacement"])
@SETTINGS
@given(data=SOUP)
def test_decode_then_encode_round_trips(name: str, data: bytes) -> None:
    """What decodes without error encodes back to the same bytes (single-byte, UTF-8, UTF-16, x-user-defined).

    (replacement has no encoder.)
    """
    encoding = lookup(name)
    try:
        text = encoding.decode(data, errors="strict", bom="ignore")
    except DecodeError:
        return
    assert encoding.encode(text) == data


@pytest.mark.parametrize("name", ALL_NAMES)
@settings(SETTINGS, max_examples=40)
@given(case=splits(), bom=st.sampled_from(["sniff", "strip", "ignore"]), data=st.data())
def test_getstate_setstate_resumes(
    name: str, case: tuple[bytes, list[bytes]], bom: str, data: st.DataObject
) -> None:
    """A fresh decoder given another's getstate() continues exactly where that one stopped."""
    whole, pieces = case
    encoding = lookup(name)
    first = encoding.incremental_decoder(bom=bom)
    handover = data.draw(st.integers(0, len(pieces)))
    out = [first.decode(piece) for piece in pieces[:handover]]
    second = encoding.incremental_decoder(bom=bom)
    second.setstate(first.getstate())
    out += [second.decode(piece) for piece in pieces[handover:]]
    out.append(second.decode(b"", final=True))
    assert "".join(out) == encoding.decode(whole, bom=bom)
