"""Results of repair: the steps of a plan and the repaired text (frozen, printable, JSON-able, replayable)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mojifix.errors import RepairError

__all__ = ["SCOPES", "Repaired", "Step"]

#: where a step applies: "all" = the whole text as one byte string (strict; the normal case);
#: "runs" = each run of non-whitespace characters separately, runs that do not round-trip are left as
#: they are (mixed text where only some parts were garbled); "lossy" = the whole text, where each U+FFFD
#: marks bytes the wrong decoder replaced: the characters those bytes belonged to become one U+FFFD,
#: everything else is rebuilt exactly (UTF-8 read as GBK with a lost byte, ``requests``' cp1252 gaps).
SCOPES = ("all", "runs", "lossy")


@dataclass(frozen=True, slots=True)
class Step:
    """Undo one wrong decoding: encode with ``encode_as`` (rebuilding the bytes), decode with ``decode_as``.

    ``Step("windows-1252", "UTF-8", "all")`` undoes "UTF-8 bytes displayed as windows-1252".
    """

    encode_as: str
    decode_as: str
    scope: str = "all"

    def __post_init__(self) -> None:
        if self.scope not in SCOPES:
            raise RepairError(f"unknown step scope {self.scope!r}; use one of {', '.join(SCOPES)}")

    def __str__(self) -> str:
        where = {"all": "", "runs": " (garbled runs only)", "lossy": " (U+FFFD marks lost bytes)"}[self.scope]
        return f"encode as {self.encode_as}, decode as {self.decode_as}{where}"

    def to_dict(self) -> dict[str, str]:
        return {"encode_as": self.encode_as, "decode_as": self.decode_as, "scope": self.scope}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        """Rebuild a step from ``to_dict()`` output (or a JSON list ``[encode_as, decode_as, scope]``)."""
        if isinstance(data, list | tuple):
            return cls(*data)
        try:
            return cls(data["encode_as"], data["decode_as"], data.get("scope", "all"))
        except (KeyError, TypeError) as exc:
            raise RepairError(f"not a repair step: {data!r}; expected encode_as, decode_as, scope") from exc


@dataclass(frozen=True, slots=True)
class Repaired:
    """What ``repair()`` did to a text, and why.

    ``plan`` is empty when the text was left alone. ``unrecoverable`` says why some or all of the original
    bytes are provably gone (U+FFFD present, ``锟斤拷``...) even when the rest could be repaired.
    ``confidence`` is the probability the returned text is right, from the likelihood ratio between the
    repaired and the original text (see docs/repair.md).
    """

    text: str
    plan: tuple[Step, ...]
    confidence: float
    original: str
    unrecoverable: str | None = None
    language: str | None = None
    gain: float = 0.0  # log10 likelihood ratio repaired/original; the proof's margin
    notes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return self.text != self.original

    def explain(self) -> str:
        """A few human-readable lines: what was done, and the evidence for it."""
        lines: list[str] = []
        if self.plan:
            lines.append(f"repaired with {len(self.plan)} step(s), confidence {self.confidence:.3f}:")
            lines += [f"  {i}. {step}" for i, step in enumerate(self.plan, 1)]
            lang = f" as {self.language}" if self.language else ""
            lines.append(f"  the repaired text is 10^{self.gain:.1f} times more plausible{lang}")
        else:
            lines.append(f"left unchanged (confidence {self.confidence:.3f} that it is right as it is)")
        lines += [f"  - {note}" for note in self.notes]
        if self.unrecoverable:
            lines.append(f"  unrecoverable: {self.unrecoverable}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "changed": self.changed,
            "plan": [step.to_dict() for step in self.plan],
            "confidence": round(self.confidence, 6),
            "unrecoverable": self.unrecoverable,
            "language": self.language,
            "gain": round(self.gain, 3),
            "notes": list(self.notes),
        }

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    def __str__(self) -> str:
        return self.text
