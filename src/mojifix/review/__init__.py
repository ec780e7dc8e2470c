"""``mojifix review``: a self-contained HTML page on which a person settles a convert run's quarantine.

Guess, verify, admit, settle: the page (``DST/mojifix-review.html`` by default, opened from
``file://``, no server, no network) shows each quarantined file's evidence and its candidate readings
side by side with their differences marked; the person's choices are saved as a decisions file that
``mojifix convert SRC DST --decisions FILE`` applies (see docs/review.md).

    >>> result = write_report("utf8/")          # doctest: +SKIP
    >>> result.path, result.cards                # doctest: +SKIP
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from mojifix.convert import fsio
from mojifix.review.page import render
from mojifix.review.report import ReviewData, collect

__all__ = ["REPORT_NAME", "ReviewResult", "collect", "render", "write_report"]

#: the report's default file name, at the root of DST (next to the manifest)
REPORT_NAME = "mojifix-review.html"


@dataclass(frozen=True, slots=True)
class ReviewResult:
    """Where the report went and what it holds."""

    path: str
    cards: int
    unreadable: int
    data: ReviewData


def write_report(
    dst: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    manifest: str | os.PathLike[str] | None = None,
) -> ReviewResult:
    """Write the review page for DST's quarantine (atomically); raises ConversionError without a manifest."""
    review = collect(dst, manifest)
    path = os.fsencode(out) if out is not None else os.path.join(os.fsencode(dst), REPORT_NAME.encode())
    text = render(review)
    # a lone surrogate (never produced by the strict decoders, but cheap to rule out) becomes a JSON escape
    fsio.atomic_write(path, text.encode("utf-8", "backslashreplace"), None, fsync=False)
    return ReviewResult(os.fsdecode(path), len(review.cards), review.unreadable, review)
