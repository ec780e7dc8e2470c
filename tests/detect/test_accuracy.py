"""Accuracy smoke test on a held-out sample of the benchmark corpus (thresholds that can fail).

The corpus comes from benchmarks/detect_accuracy.py (text the model was not trained on). The full
benchmark reports the real figures; this keeps a regression from going unnoticed.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

pytest.importorskip("django")
pytest.importorskip("sphinx")

from detect_accuracy import build_corpus  # noqa: E402

from mojifix.detect import detect  # noqa: E402
from mojifix.textcodec import decode_as  # noqa: E402

#: current figures on this subset are 99.2% (>= 200 B, 239 samples) and 97.8% (< 200 B, 134 samples);
#: the thresholds sit a few samples below so that catalog updates do not fail the suite, but a real
#: regression (the detector before the punctuation classes scored ~95% / ~90%) does.
MIN_LONG = 0.97
MIN_SHORT = 0.93


@pytest.fixture(scope="module")
def corpus():
    samples = build_corpus(quick=True, seed=4)
    return samples[::3]


def _correct(sample) -> bool:
    result = detect(sample.data, domain="web" if sample.kind == "html" else "file")
    if result.encoding is None:
        return False
    try:
        return decode_as(sample.data, result.encoding, "strict") == sample.text
    except (UnicodeError, LookupError):
        return False


def test_accuracy_long(corpus):
    long = [s for s in corpus if len(s.data) >= 200]
    assert len(long) > 100
    ok = sum(_correct(s) for s in long)
    assert ok / len(long) >= MIN_LONG, f"{ok}/{len(long)}"


def test_accuracy_short(corpus):
    short = [s for s in corpus if len(s.data) < 200]
    assert len(short) > 50
    ok = sum(_correct(s) for s in short)
    assert ok / len(short) >= MIN_SHORT, f"{ok}/{len(short)}"


def test_corpus_is_diverse(corpus):
    assert len({s.lang for s in corpus}) >= 30
    assert len({s.codec for s in corpus}) >= 50


def test_training_and_evaluation_do_not_overlap():
    import train_detect

    assert train_detect.check() == 0
