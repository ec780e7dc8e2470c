"""Stage 2: binary input gets a clear "binary" verdict, never a guessed encoding."""

import random

import numpy as np
import pytest

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
