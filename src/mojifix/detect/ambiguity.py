"""Stage 10: confidence and the honest "ambiguous" flag.

Scores are log posterior odds (model log-likelihood + log prior, in nats). Confidence is their softmax
at temperature :data:`TEMPERATURE`. ``ambiguous`` is set when the two best candidates decode the input
to *different* text (identical decodings were merged before) and the score margin between them is below
:data:`AMBIGUITY_MARGIN`.
"""

from __future__ import annotations

import math

__all__ = ["AMBIGUITY_MARGIN", "TEMPERATURE", "confidences", "is_ambiguous"]

#: softmax temperature. The bigram model treats neighbouring characters as independent given the
#: previous one, which overstates the evidence of long texts; T=2 halves the log-odds so confidences of
#: short inputs are not all 0.99+. Calibrated by eye on the benchmark's 20-200 byte band.
TEMPERATURE = 2.0
#: margin (nats) under which the top two are called ambiguous: e^3 = 20:1 odds. One mis-decoded letter
#: costs 5-10 nats in a good model, so a margin below 3 means the evidence is one letter's worth or less.
AMBIGUITY_MARGIN = 3.0


def confidences(scores: list[float]) -> list[float]:
    """Softmax of ``scores`` / TEMPERATURE (sums to 1)."""
    if not scores:
        return []
    top = max(scores)
    weights = [math.exp((s - top) / TEMPERATURE) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def is_ambiguous(scores: list[float]) -> bool:
    """True when the two best (distinct-text) scores are within :data:`AMBIGUITY_MARGIN`."""
    if len(scores) < 2:
        return False
    first, second = sorted(scores, reverse=True)[:2]
    return first - second < AMBIGUITY_MARGIN
