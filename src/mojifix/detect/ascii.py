"""Stage 4: pure ASCII input (every byte below 0x80, no escape-sequence encoding announced).

ASCII decodes to the same text in UTF-8, windows-1252 and every other ASCII-compatible encoding, so
there is nothing to choose: the verdict is "ascii" and the single candidate is UTF-8 (the superset a
later edit would most likely use).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ASCII_CANDIDATE", "is_ascii"]

ASCII_CANDIDATE = "UTF-8"


def is_ascii(hist: Sequence[int]) -> bool:
    """True when the byte histogram has no byte >= 0x80."""
    return not any(hist[128:])
