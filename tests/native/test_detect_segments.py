"""The compiled cut of the sample (``mojifix.detect._scoring.segments``) gives exactly the bytes and the
end flag of its reference, ``pipeline._segments_reference``: on uchardet's real files, on generated text
in every single- and multi-byte encoding (short, long, dense in non-ASCII bytes, with rare byte values
late), on samples of several separate runs, and on Hypothesis inputs.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.detect import pipeline
from mojifix.detect.encodings import REGISTRY
from mojifix.detect.scoring import get_scorer
from mojifix.textcodec import encode_as

UCHARDET = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "detect-dev" / "uchardet"
TEXTS = [
    "Größere Änderungen am Straßenplan wurden für übermorgen angekündigt, sagte die Behörde.",
    "Вчера вечером в парке играл оркестр, и жители собрались послушать музыку.",
    "这个目录里的文件来自不同的年代，有的用国标码保存，有的用统一码保存。",
    "昨日は駅前の図書館で新しい本を借りて、公園のベンチでゆっくり読みました。ソフトウェア",
    "오늘 아침 시장에서 신선한 과일과 채소를 사서 집으로 돌아왔습니다.",
]


@pytest.fixture(scope="module")
def segments(detect_kernel: ModuleType):
    scorer = get_scorer()
    assert scorer.segments is not None, "the kernel is built, so the pipeline must use its cut"
    return scorer.segments


def state_of(data: bytes) -> pipeline._State:
    det = pipeline.Detector()
    det.feed(data).close()
    return det._s


def both(segments, data: bytes) -> tuple[tuple[bytes, bool], tuple[bytes, bool]]:
    s = state_of(data)
    return pipeline._segments(s), pipeline._segments_reference(s)


def generated() -> list[bytes]:
    out = []
    for info in REGISTRY:
        if info.kind not in ("single", "multi"):
            continue
        for text in TEXTS:
            try:
                one = encode_as(text, info.name)
            except (UnicodeError, LookupError):
                continue
            out += [one, one * 3, (b"plain ascii words " * 20 + one) * 40, one * 2000]
    return out


def test_real_files(segments) -> None:
    files = sorted(UCHARDET.rglob("*.*"))
    assert len(files) >= 100
    for path in files:
        compiled, python = both(segments, path.read_bytes())
        assert compiled == python, path


def test_generated_text(segments) -> None:
    inputs = generated()
    assert len(inputs) > 150
    for data in inputs:
        compiled, python = both(segments, data)
        assert compiled == python, data[:40]


def test_separate_runs_and_late_rare_bytes(segments) -> None:
    """ASCII blocks between non-ASCII ones make separate runs; a byte value first seen far into the
    sample gets a window of its own (a long dense piece, cut at safe bytes)."""
    block = pipeline.BLOCK
    rng = np.random.default_rng(11)
    gbk = (TEXTS[2] * 400).encode("gbk")
    several = 0
    for _ in range(12):
        parts = []
        for _ in range(int(rng.integers(1, 6))):
            if rng.random() < 0.5:
                parts.append(b"a" * (2 * block))  # (holds an all-ASCII block: not sampled)
            start = int(rng.integers(0, len(gbk) - 3000))
            noise = bytes(rng.integers(0x80, 0x100, int(rng.integers(1, 30))).astype(np.uint8))
            parts.append(gbk[start : start + int(rng.integers(100, 3000))] + noise + b"x" * 300)
        data = b"".join(parts)
        several += len(pipeline._sample_runs(state_of(data))[0]) > 1
        compiled, python = both(segments, data)
        assert compiled == python
    assert several >= 3


def test_comparison_can_fail(segments) -> None:
    """Another context width gives other spans: the test would see a kernel that cut differently."""
    s = state_of(TEXTS[0].encode("cp1252") * 3)
    runs, _ = pipeline._sample_runs(s)
    right = segments(runs, s.sample_hist, pipeline.SEGMENT_CONTEXT, pipeline.SCORE_BYTES, pipeline.LONG_PIECE)
    assert right[0] == pipeline._segments_reference(s)[0]
    assert segments(runs, s.sample_hist, 3, pipeline.SCORE_BYTES, pipeline.LONG_PIECE)[0] != right[0]
    with pytest.raises(ValueError, match="runs"):
        segments(["text"], s.sample_hist, 24, 2048, 196)
    with pytest.raises(ValueError, match="histogram"):
        segments(runs, s.sample_hist[:-1], 24, 2048, 196)


@settings(max_examples=200, deadline=None)
@given(
    data=st.lists(
        st.one_of(
            st.binary(min_size=1, max_size=300),
            st.sampled_from([b" ", b"\n", b"abc ", b"0", b"/"]),
            st.builds(lambda t: t.encode("gbk"), st.text(st.sampled_from(TEXTS[2]), max_size=80)),
        ),
        min_size=1,
        max_size=60,
    ).map(b"".join)
)
def test_hypothesis(segments, data: bytes) -> None:
    compiled, python = both(segments, data)
    assert compiled == python
