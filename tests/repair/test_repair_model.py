"""The generated character model (_langmodel.json) is exactly what _train.py builds from wordfreq."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from mojifix.repair import _train


def test_model_metadata_matches_the_generator() -> None:
    raw = json.loads(
        resources.files("mojifix.repair").joinpath("_langmodel.json").read_text(encoding="utf-8")
    )
    meta = raw["_meta"]
    assert meta["generator"] == "mojifix.repair._train"
    assert meta["languages"] == list(_train.LANGUAGES) == sorted(raw["langs"])
    assert meta["words_per_language"] == _train.WORDS_PER_LANGUAGE
    for table in raw["langs"].values():
        assert 0 < len(table["chars"]) <= _train.CHARS_PER_LANGUAGE
        assert 0 < len(table["pairs"]) <= _train.PAIRS_PER_LANGUAGE
        assert all(v <= 0 for v in table["chars"].values())  # log10 probabilities * QUANT


@pytest.mark.slow
def test_model_is_fresh() -> None:
    """Rebuilds the model from wordfreq (~15 s): fails when _langmodel.json is stale."""
    pytest.importorskip("wordfreq")
    assert _train.main(["--check"]) == 0, "run: python -m mojifix.repair._train"
