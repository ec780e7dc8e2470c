"""Stage 2: binary input gets a clear "binary" verdict, never a guessed encoding."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.detect import detect
from mojifix.detect.binary import binary_evidence, signature


@pytest.mark.parametrize(
    "head",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"GIF89a\x01\x00\x01\x00",
        b"\xff\xd8\xff\xe0\x00\x10JFIF",
        b"PK\x03\x04\x14\x00\x00\x00",
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00",
        b"\x7fELF\x02\x01\x01\x00",
    ],
)
def test_signatures_are_binary(head):
    assert signature(head) is not None
    result = detect(head + bytes(200))
    assert result.verdict == "binary"
    assert result.candidates == ()
    assert result.best() is None


def test_text_looking_signature_needs_controls():
    # "MZ" and "%PDF-" also start ordinary text; without control bytes they are not signatures
    assert signature(b"MZ is a postcode district") is None
    assert signature(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\x00") == "PDF document"


def test_random_bytes_are_binary():
    rng = random.Random(7)
    data = bytes(rng.randrange(256) for _ in range(4096))
    result = detect(data)
    assert result.verdict == "binary"
    assert any(ev.kind == "binary" for ev in result.evidence)


def test_control_share_threshold():
    hist = np.zeros(256, np.int64)
    hist[ord("a")] = 995
    hist[0x01] = 5  # 0.5%: below the threshold
    assert binary_evidence(hist, 1000) is None
    hist[0x01] = 20  # 2%
    assert binary_evidence(hist, 1015) is not None


def test_layout_controls_are_text():
    data = b"col1\tcol2\r\nval\x0cnext page\x1b[1mbold\x1b[0m\n" * 20
    assert detect(data).verdict == "ascii"


#: C0 controls that are not layout, and DEL: what the control share counts (the formula's own words)
_BINARY_CONTROLS = {b for b in range(0x20) if b not in (0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x1A, 0x1B)}
_BINARY_CONTROLS.add(0x7F)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec=None, exclude_categories=()), min_size=1, max_size=60))
def test_decoded_binary_evidence_counts_control_code_points(text):
    """The share of control characters in decoded (UTF-16/32) text, counted one code point at a time:
    ``decoded_binary_evidence`` counts them without a per-character loop (and without NumPy)."""
    from mojifix.detect.binary import MAX_CONTROL_SHARE, decoded_binary_evidence

    controls = sum(ord(ch) in _BINARY_CONTROLS for ch in text)
    got = decoded_binary_evidence(text)
    assert (got is not None) == (controls / len(text) > MAX_CONTROL_SHARE)
    if got is not None:
        assert got[0] == controls / len(text)
        assert got[1].startswith(f"{controls:,} control characters")


def test_decoded_binary_evidence_ignores_controls_beyond_ascii():
    """U+0080-U+009F (C1) and characters whose low byte is a control (U+0101, U+4E01) are not C0 controls."""
    from mojifix.detect.binary import decoded_binary_evidence

    assert decoded_binary_evidence("\u0081\u0101\u4e01\U00010001" * 10) is None
    assert decoded_binary_evidence("ab\x01c" * 10) is not None
