"""U+00A4 CURRENCY SIGN is priced as the placeholder it is (pipeline.PLACEHOLDER_SIGN_LOGP).

Byte 0xA4 is "€" in ISO-8859-15 and "¤" in windows-1252 and ISO-8859-1. The model counts symbols as one
class, so before this prior the two readings of a text with a euro amount tied (ambiguous).
"""

from __future__ import annotations

import pytest

from mojifix.detect import detect, pipeline

#: our own sentences with a euro amount (the only non-ASCII byte that differs between the readings)
EURO_TEXTS = (
    "Billetten koster 20 € og kan købes på stationen.\n",
    "Le billet coûte 20 € et se vend à la gare.\n",
    "Das Ticket kostet 20 € und ist am Bahnhof erhältlich.\n",
)


@pytest.mark.parametrize("text", EURO_TEXTS)
def test_euro_in_latin_9_beats_the_placeholder_reading(text: str) -> None:
    det = detect(text.encode("iso-8859-15"))
    best = det.best()
    assert best is not None and best.encoding == "ISO-8859-15" and not det.ambiguous
    rival = next(c for c in det.candidates if c.encoding == "windows-1252")
    assert any(e.kind == "prior" and "placeholder currency sign" in e.detail for e in rival.evidence)
    assert not any("placeholder" in e.detail for e in best.evidence)


@pytest.mark.parametrize("text", EURO_TEXTS)
def test_without_the_prior_the_readings_tie(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "PLACEHOLDER_SIGN_LOGP", 0.0)
    assert detect(text.encode("iso-8859-15")).ambiguous


def test_a_text_without_the_sign_is_not_priced() -> None:
    det = detect("Le café de la gare a rouvert.\n".encode("cp1252"))
    assert not any("placeholder" in e.detail for c in det.candidates for e in c.evidence)
