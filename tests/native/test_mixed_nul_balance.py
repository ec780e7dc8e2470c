"""Convert's probe G finds the same boundary candidates compiled and in the reference.

``mojifix._kernels.nul_balance_ends`` computes what ``convert.mixed._balance_ends_reference`` does with
NumPy (the unit ends after the NULs where the running NUL balance of one byte order against the other
is within ``ENDIAN_SLACK`` of its maximum): compared with ``==`` on Hypothesis inputs (NULs at either
parity, both heads, every start), on UTF-16 files of one byte order followed by the other, and on
degenerate input (no NUL, only NULs, a start at the end). One test checks that the comparison can fail.
"""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.convert import mixed


def _both(kernels: ModuleType, data: bytes, start: int, parity: int) -> tuple[list[int], list[int]]:
    """(compiled, reference) candidates of ``data`` from ``start`` for a head of ``parity``."""
    compiled = kernels.nul_balance_ends(data, start, parity, mixed.ENDIAN_SLACK, mixed.ENDIAN_CANDIDATES)
    return compiled, mixed._balance_ends_reference(data, start, parity)


@settings(max_examples=400, deadline=None)
@given(
    data=st.binary(max_size=300).map(lambda b: bytes(0 if x < 96 else x for x in b)),
    start=st.integers(0, 8),
    parity=st.integers(0, 1),
)
def test_candidates_match_the_reference(kernels: ModuleType, data: bytes, start: int, parity: int) -> None:
    start = min(start, len(data))
    compiled, reference = _both(kernels, data, start, parity)
    assert compiled == reference


@pytest.mark.parametrize(
    ("head", "tail"),
    [
        ("Grüße aus Köln.\n" * 40, "Hello again, world.\n" * 30),
        ("中文的段落，一二三。\n" * 30, "English after Chinese.\n" * 20),
        ("Short.\n", "Ein längerer Schwanz in der anderen Bytefolge.\n" * 50),
    ],
)
@pytest.mark.parametrize("order", ["utf-16-le", "utf-16-be"])
def test_candidates_of_flipped_utf16_files_match(
    kernels: ModuleType, head: str, tail: str, order: str
) -> None:
    other = "utf-16-be" if order == "utf-16-le" else "utf-16-le"
    data = head.encode(order) + tail.encode(other)
    for start in (0, 2):
        for parity in (0, 1):
            compiled, reference = _both(kernels, data, start, parity)
            assert compiled == reference
    assert any(_both(kernels, data, 0, parity)[0] for parity in (0, 1))  # (the file exercises the search)


def test_degenerate_input(kernels: ModuleType) -> None:
    for data, start in ((b"", 0), (b"abc", 0), (bytes(64), 0), (bytes(64), 64), (b"a\x00" * 9, 17)):
        for parity in (0, 1):
            compiled, reference = _both(kernels, data, start, parity)
            assert compiled == reference
    with pytest.raises(ValueError):
        kernels.nul_balance_ends(b"abc", 4, 0, 3, 8)
    with pytest.raises(ValueError):
        kernels.nul_balance_ends(b"abc", 0, 0, -1, 8)


def test_comparison_can_fail(kernels: ModuleType) -> None:
    """Another slack gives other candidates: the test would see a kernel that kept the wrong NULs."""
    data = ("Grüße\n" * 10).encode("utf-16-le") + ("\u4e00abc\n" * 10).encode("utf-16-le")
    right = kernels.nul_balance_ends(data, 0, 1, mixed.ENDIAN_SLACK, mixed.ENDIAN_CANDIDATES)
    assert right == mixed._balance_ends_reference(data, 0, 1)
    assert kernels.nul_balance_ends(data, 0, 1, 0, mixed.ENDIAN_CANDIDATES) != right
