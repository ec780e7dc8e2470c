"""The multi-byte validators give the same results on compacted blocks as on every byte.

``mojifix.detect._scoring.compact_ascii`` drops the interior of the ASCII runs of a block before the
multi-byte validators (GB18030, Shift_JIS, EUC-KR, Big5, EUC-JP, Johab) decode it
(``validity.compact_ascii_reference`` is its twin). Compared with ``==``: the compiled cut against the
reference; and each validator's errors, first error, reason, "gave up" and pending bytes, fed the same
input in the same chunks, with and without compaction, on Hypothesis inputs (bytes chosen around the
codecs' lead, trail and four-byte ranges), on generated CJK text with damage, and on uchardet's real
files. One test checks that the comparison can fail: a compaction keeping one byte of each run, not
three, changes a GB18030 result.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.detect import detect, validity
from mojifix.detect.encodings import REGISTRY, EncodingInfo

UCHARDET = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "detect-dev" / "uchardet"
MULTI = [info for info in REGISTRY if info.kind == "multi"]
#: bytes around the codecs' rules: ASCII letters, digits (GB18030's four-byte form), space, and leads and
#: trails of every multi-byte encoding (0x80, 0x81, 0x8E/0x8F for EUC-JP, 0xA1, 0xD7, 0xFE, 0xFF ...)
BYTES = b"ab 0369\n\x40\x7e\x80\x81\x84\x8e\x8f\x90\xa0\xa1\xb0\xc8\xd7\xdf\xe3\xfd\xfe\xff"

Result = tuple[list[int], bool, int | None, str, tuple[bytes, int]]


def validate(
    info: EncodingInfo, data: bytes, cuts: list[int], compact: Callable[[bytes], object] | None
) -> Result:
    """A validator's results over ``data`` fed in chunks ending at ``cuts``, on blocks compacted by
    ``compact`` (None: every byte decoded)."""
    v = validity.StreamValidator.start(info)
    start = 0
    for end in [*cuts, len(data)]:
        chunk = data[start:end]
        found = compact(chunk) if compact is not None else None
        if found is None:
            block = validity.Block(chunk, start)
        else:
            compacted, positions, dropped = found  # type: ignore[misc]
            block = validity.Block(
                chunk, start, compacted, memoryview(positions).cast("q"), memoryview(dropped).cast("q")
            )
        v.feed(block)
        start = end
    return (list(v.errors), v.broken, v.error_at, v.error_reason, v.decoder.getstate())


def assert_same(data: bytes, cuts: list[int], compact: Callable[[bytes], object]) -> None:
    for info in MULTI:
        assert validate(info, data, cuts, compact) == validate(info, data, cuts, None), (info.name, data)


#: inputs of runs: a byte of BYTES repeated 1-20 times, so that long ASCII runs (read eight bytes at a
#: time by the compiled cut) and long non-ASCII ones occur
RUNS = st.lists(st.tuples(st.sampled_from(BYTES), st.integers(1, 20)), max_size=12).map(
    lambda runs: b"".join(bytes([byte]) * count for byte, count in runs)
)


@settings(max_examples=500, deadline=None)
@given(data=st.lists(st.sampled_from(BYTES), max_size=60).map(bytes) | RUNS)
def test_compiled_cut_equals_the_reference(detect_kernel: ModuleType, data: bytes) -> None:
    assert detect_kernel.compact_ascii(data) == validity.compact_ascii_reference(data)


@settings(max_examples=300, deadline=None)
@given(
    data=(st.lists(st.sampled_from(BYTES), min_size=1, max_size=80).map(bytes) | RUNS).filter(len),
    cuts=st.lists(st.integers(1, 79), max_size=3).map(lambda c: sorted(set(c))),
)
def test_validators_on_compacted_blocks(detect_kernel: ModuleType, data: bytes, cuts: list[int]) -> None:
    assert_same(data, [c for c in cuts if c < len(data)], detect_kernel.compact_ascii)


def test_generated_cjk_text_with_damage(detect_kernel: ModuleType) -> None:
    text = (
        "Quarterly report 2023: 这个目录里的文件来自不同的年代 (GB) 1234; 昨日は駅前の図書館で 5678 "
        "오늘 아침 시장에서 42 個檔案 -- plain ASCII between, digits 0123456789 and more words.\n"
    ) * 20
    for info in MULTI:
        data = text.encode(info.pycodec, "ignore")
        for damaged in (
            data,
            data[:-1],
            data[:500] + b"\xff\x30 \x81" + data[500:],
            data.replace(b" ", b"\x81", 3),
        ):
            assert_same(damaged, [len(damaged) // 3, len(damaged) // 2], detect_kernel.compact_ascii)


def test_uchardet_files(detect_kernel: ModuleType) -> None:
    files = sorted(UCHARDET.rglob("*.*"))
    assert len(files) >= 100, f"uchardet's files are read from {UCHARDET}"
    for path in files:
        data = path.read_bytes()
        assert_same(data, [len(data) // 2], detect_kernel.compact_ascii)


def test_detect_uses_the_compiled_cut(detect_kernel: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """``detect`` compacts the blocks its multi-byte validators decode (and still gives the same answer)."""
    calls: list[bytes] = []
    real = detect_kernel.compact_ascii
    monkeypatch.setattr(validity, "_compact_kernel", lambda: lambda b: calls.append(b) or real(b))
    data = ("Grüße aus Köln, 12 Äpfel für 3,50 €. " * 40).encode("cp1252")
    got = repr(detect(data))
    assert calls == [data]
    monkeypatch.setattr(validity, "_compact_kernel", lambda: None)
    assert repr(detect(data)) == got


def test_the_comparison_can_fail(detect_kernel: ModuleType) -> None:
    """Keeping one byte of each ASCII run instead of three lets GB18030 read ``\\xd7 6`` + the next
    non-ASCII byte as a four-byte sequence that the real input does not have (found on a Dutch CSV)."""

    def one_byte(block: bytes) -> tuple[bytes, bytes, bytes] | None:
        saved = validity.COMPACT_LOOKAHEAD
        validity.COMPACT_LOOKAHEAD = 1
        try:
            return validity.compact_ascii_reference(block)
        finally:
            validity.COMPACT_LOOKAHEAD = saved

    data = b"Index 4\xd76 (post) and 4\xd76 extra text"
    gbk = next(info for info in MULTI if info.name == "GBK")
    assert validate(gbk, data, [], one_byte) != validate(gbk, data, [], None)
    assert validate(gbk, data, [], detect_kernel.compact_ascii) == validate(gbk, data, [], None)
