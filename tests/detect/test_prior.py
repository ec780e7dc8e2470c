"""``detect(prior=...)``: a caller's log prior odds added to each statistical reading's score."""

from __future__ import annotations

import math

import pytest

from mojifix.detect import Detector, detect
from mojifix.errors import UnknownEncodingError

#: a short windows-1252 text the detector alone is not confident about (windows-1252 first, < 0.9)
SHORT = "Noël".encode("cp1252")


def _conf(det, encoding: str) -> float:
    return next((c.confidence for c in det.candidates if c.encoding == encoding), 0.0)


def test_no_prior_and_an_empty_prior_change_nothing() -> None:
    for data in (SHORT, "Le café est fermé.".encode("cp1252"), "中文字".encode("gbk")):
        assert detect(data, prior={}) == detect(data) == detect(data, prior=None)
        assert detect(data, prior={"macintosh": 0.0}).candidates == detect(data).candidates


def test_the_prior_moves_the_odds_by_its_nats() -> None:
    alone = detect(SHORT)
    assert alone.best().encoding == "windows-1252" and alone.best().confidence < 0.9
    boost = 4.0
    lifted = detect(SHORT, prior={"windows-1252": boost})
    assert lifted.best().encoding == "windows-1252" and lifted.best().confidence > alone.best().confidence
    # confidences are the softmax of score / TEMPERATURE: the ratio to any rival grows by e^(boost / T)
    from mojifix.detect.ambiguity import TEMPERATURE

    rival = alone.candidates[1].encoding
    before = _conf(alone, "windows-1252") / _conf(alone, rival)
    after = _conf(lifted, "windows-1252") / _conf(lifted, rival)
    assert after / before == pytest.approx(math.exp(boost / TEMPERATURE), rel=1e-6)
    ev = [e for e in lifted.best().evidence if e.kind == "prior" and "caller" in e.detail]
    assert ev and ev[0].value == boost
    # a prior on a rival lowers the best reading's confidence
    assert _conf(detect(SHORT, prior={rival: boost}), "windows-1252") < _conf(alone, "windows-1252")


def test_labels_are_resolved_and_checked() -> None:
    assert detect(SHORT, prior={"latin1": 3.0}) == detect(SHORT, prior={"windows-1252": 3.0})
    assert detect(SHORT, prior={"cp1252": 3.0, "windows-1252": 3.0}) == detect(SHORT, prior={"cp1252": 3.0})
    with pytest.raises(UnknownEncodingError):
        detect(SHORT, prior={"no-such-encoding": 1.0})
    with pytest.raises(ValueError, match="finite"):
        detect(SHORT, prior={"windows-1252": math.inf})
    with pytest.raises(ValueError, match="twice"):
        detect(SHORT, prior={"cp1252": 1.0, "windows-1252": 2.0})


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbfLe caf\xc3\xa9",  # BOM
        "Le café".encode(),  # valid UTF-8
        b"plain ASCII text",
        "Le café est fermé le lundi.".encode("utf-16-le"),  # UTF-16 by its zero bytes
    ],
)
def test_decisions_by_structure_ignore_the_prior(data: bytes) -> None:
    assert detect(data, prior={"macintosh": 20.0, "windows-1252": 20.0}) == detect(data)


def test_the_prior_s_encodings_are_always_scored() -> None:
    # the unigram shortlist drops KOI8-R for French text; a prior on it keeps it among the readings
    # (else a prior could not weigh the reading it names at all)
    data = "Le café est fermé le lundi et le mardi.".encode("cp1252")
    assert "KOI8-R" not in {c.encoding for c in detect(data).candidates}
    assert "KOI8-R" in {c.encoding for c in detect(data, prior={"KOI8-R": 0.5}).candidates}
    assert detect(data, prior={"KOI8-R": 0.5}).best().encoding == "windows-1252"


def test_streaming_gives_the_same_answer() -> None:
    prior = {"windows-1252": 3.0}
    streamed = Detector(prior=prior)
    for i in range(len(SHORT)):
        streamed.feed(SHORT[i : i + 1])
    assert streamed.close() == detect(SHORT, prior=prior)


def test_a_prior_for_utf16_has_short_zero_free_utf16_read_by_content() -> None:
    # 9 Chinese characters in UTF-16LE: no zero byte, and one 0x0A byte (half of U+4E0A) is over the
    # 5% space screen of an 18-byte input, so the content check is skipped on the bytes alone
    data = "氣象報告說今天晚上".encode("utf-16-le")
    assert b"\x00" not in data and data.count(b"\n") == 1
    assert detect(data).best().encoding != "UTF-16LE"
    asked = detect(data, prior={"UTF-16LE": 4.0})
    assert asked.best().encoding == "UTF-16LE" and not asked.ambiguous
    assert any(e.kind == "prior" and "UTF-16" in e.detail for e in asked.best().evidence)
    # ... the content check itself is unchanged: legacy text does not become UTF-16
    for text, codec in (("Noël", "cp1252"), ("Le café\n", "cp1252"), ("中文字\n", "gbk")):
        legacy = text.encode(codec)
        assert detect(legacy, prior={"UTF-16LE": 4.0, "UTF-16BE": 4.0}).best().encoding not in (
            "UTF-16LE",
            "UTF-16BE",
        )
