"""Results of detection: ranked candidates with structured evidence (frozen, printable, JSON-able).

This is the contract between the detector and its users (decode_html, convert, repair, CLI).
Encoding names: the WHATWG name where the encoding is one of the standard's 40 (``"windows-1252"``,
``"Shift_JIS"``, ``"UTF-16LE"``, ``"gb18030"``, ``"GBK"``...), else the canonical CPython codec name
(``"cp437"``, ``"utf-32-le"``, ``"mac-greek"``, ``"cp037"``...). ``"binary"`` and ``"empty"`` are verdicts,
never candidates.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Evidence:
    """One structured finding, e.g. kind="validity", detail="all 5,210 bytes valid in gb18030"."""

    # bom | binary | structure | ascii | utf8 | escape | validity | language | prior | ambiguity |
    # declaration (an in-band label and its byte span; value = its offset) | invalid (value = count)
    kind: str
    detail: str
    value: float | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """One candidate encoding with its confidence in [0, 1]."""

    encoding: str
    confidence: float
    language: str | None = None
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True, slots=True)
class Detection:
    """Ranked candidates, best first. ``verdict`` is "text", "ascii", "empty" or "binary"."""

    candidates: tuple[Candidate, ...]
    verdict: str = "text"
    ambiguous: bool = False
    bom: str | None = None  # encoding named by a BOM, if one was found
    bytes_examined: int = 0
    evidence: tuple[Evidence, ...] = field(default=())

    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None

    @property
    def encoding(self) -> str | None:
        best = self.best()
        return best.encoding if best else None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    def __str__(self) -> str:
        if not self.candidates:
            return f"<Detection {self.verdict}>"
        top = ", ".join(f"{c.encoding} {c.confidence:.2f}" for c in self.candidates[:3])
        flag = " AMBIGUOUS" if self.ambiguous else ""
        return f"<Detection {self.verdict}: {top}{flag}>"
