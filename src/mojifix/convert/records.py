"""Result records of a scan or conversion run: one :class:`FileRecord` per file, one :class:`Report` per run.

Records are frozen and JSON-able: a record *is* a manifest line (``to_json()``), so what the manifest
says and what the summary counts can never disagree.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["OUTCOMES", "TREE_PRIOR", "DeclarationRewrite", "FileRecord", "Report", "ScanReport", "Split"]

#: the manifest's ``decision`` value for a file written on the strength of the tree prior
#: (convert/tree_prior.py; defined here, where the summary counts it, so the modules share one spelling)
TREE_PRIOR = "tree-prior"

#: every file gets exactly one of these (issue 5, "Every file gets one outcome"); ``copied``: a regular
#: file judged binary, copied unchanged into the mirror so that it is complete (issue 12)
OUTCOMES: tuple[str, ...] = ("converted", "utf8", "copied", "quarantined", "skipped", "error")


@dataclass(frozen=True, slots=True)
class Split:
    """A mixed file: bytes ``[0, boundary)`` are ``head_encoding``, the rest ``tail_encoding``.

    ``uncertain``: why one of the two encodings is only the detector's best guess ("" when both are
    confident); the split itself is proven by other evidence, but no salvage is offered then.
    """

    boundary: int
    head_encoding: str
    tail_encoding: str
    evidence: str
    uncertain: str = ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "boundary": self.boundary,
            "head_encoding": self.head_encoding,
            "tail_encoding": self.tail_encoding,
            "evidence": self.evidence,
        }
        if self.uncertain:
            d["uncertain"] = self.uncertain
        return d


@dataclass(frozen=True, slots=True)
class DeclarationRewrite:
    """An in-band declaration rewritten in the output: ``output[offset:offset + len(new_label)]`` is
    ``new_label`` where the source's text said ``old_label``; everywhere else the output is exactly the
    UTF-8 of the decoded text. ``kind`` is "xml", "meta", "css" or "coding" (mojifix.detect.declarations)."""

    kind: str
    offset: int
    old_label: str
    new_label: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "offset": self.offset,
            "old_label": self.old_label,
            "new_label": self.new_label,
        }


@dataclass(frozen=True, slots=True)
class FileRecord:
    """What happened to one file; serialised as one manifest line.

    ``path`` is the path relative to SRC, '/'-separated; for a name that is not valid UTF-8 the
    invalid bytes appear as ``\\xNN`` escapes and ``path_hex`` holds the exact bytes.
    ``verification`` is one of: ``lossless`` (strict decode, no U+FFFD, re-encode == source bytes),
    ``bom-stripped`` (lossless text, BOM removed), ``noncanonical`` (clean decode, but the source bytes
    are not the canonical encoding of the text), ``decode-error``, ``replacement-char``, ``mixed``,
    ``ambiguous``, ``unconfident``, ``declared-conflict``, ``undecided`` or ``none`` (not examined).
    ``declarations``: the in-band declarations rewritten to UTF-8 in the output (empty with
    ``--keep-declarations``, or when the file declares UTF-8 or nothing).
    """

    path: str
    outcome: str
    size: int = 0
    sha1: str | None = None
    encoding: str | None = None
    confidence: float | None = None
    decision: str = ""
    verification: str = "none"
    output: str | None = None
    output_sha1: str | None = None
    reason: str = ""
    warnings: tuple[str, ...] = ()
    candidates: tuple[tuple[str, float], ...] = ()
    bom: str | None = None
    line_endings: str | None = None
    binary: bool = False
    ambiguous: bool = False
    mixed: Split | None = None
    salvaged: str | None = None
    path_hex: str | None = None
    declarations: tuple[DeclarationRewrite, ...] = ()

    @property
    def lossless(self) -> bool:
        """True when the written output provably holds exactly the source's text."""
        return self.outcome in ("converted", "utf8") and self.verification in ("lossless", "bom-stripped")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "path": self.path,
            "size": self.size,
            "sha1": self.sha1,
            "outcome": self.outcome,
            "encoding": self.encoding,
            "confidence": self.confidence,
            "decision": self.decision,
            "verification": self.verification,
            "output": self.output,
            "output_sha1": self.output_sha1,
            "warnings": list(self.warnings),
        }
        if self.reason:
            d["reason"] = self.reason
        if self.candidates:
            d["candidates"] = [{"encoding": e, "confidence": c} for e, c in self.candidates]
        if self.bom:
            d["bom"] = self.bom
        if self.line_endings:
            d["line_endings"] = self.line_endings
        if self.binary:
            d["binary"] = True
        if self.ambiguous:
            d["ambiguous"] = True
        if self.mixed is not None:
            d["mixed"] = self.mixed.to_dict()
        if self.salvaged:
            d["salvaged"] = self.salvaged
        if self.path_hex:
            d["path_hex"] = self.path_hex
        if self.declarations:
            d["declarations"] = [r.to_dict() for r in self.declarations]
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FileRecord:
        """Rebuild a record from a manifest line (used by ``--resume``)."""
        mixed = d.get("mixed")
        return cls(
            path=d["path"],
            outcome=d["outcome"],
            size=int(d.get("size") or 0),
            sha1=d.get("sha1"),
            encoding=d.get("encoding"),
            confidence=d.get("confidence"),
            decision=d.get("decision", ""),
            verification=d.get("verification", "none"),
            output=d.get("output"),
            output_sha1=d.get("output_sha1"),
            reason=d.get("reason", ""),
            warnings=tuple(d.get("warnings") or ()),
            candidates=tuple((c["encoding"], c["confidence"]) for c in d.get("candidates") or ()),
            bom=d.get("bom"),
            line_endings=d.get("line_endings"),
            binary=bool(d.get("binary", False)),
            ambiguous=bool(d.get("ambiguous", False)),
            mixed=Split(**mixed) if mixed else None,
            salvaged=d.get("salvaged"),
            path_hex=d.get("path_hex"),
            declarations=tuple(DeclarationRewrite(**r) for r in d.get("declarations") or ()),
        )


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of a whole ``convert`` (or ``scan``) run: records plus the summary counts."""

    records: tuple[FileRecord, ...]
    wall_time: float
    manifest: str | None = None
    dry_run: bool = False
    resumed: int = 0
    fatal: str | None = None

    def count(self, outcome: str) -> int:
        return sum(1 for r in self.records if r.outcome == outcome)

    @property
    def bytes_total(self) -> int:
        return sum(r.size for r in self.records)

    @property
    def exit_code(self) -> int:
        """0 all good, 1 something quarantined or errored, 2 fatal I/O error (issue 5)."""
        if self.fatal:
            return 2
        return 1 if any(r.outcome in ("quarantined", "error") for r in self.records) else 0

    def summary(self) -> dict[str, Any]:
        """The summary table as a dict (what ``--json`` prints)."""
        total_bytes = self.bytes_total
        return {
            "total": len(self.records),
            "converted": self.count("converted"),
            "tree_prior": sum(1 for r in self.records if r.decision == TREE_PRIOR),
            "already_utf8": self.count("utf8"),
            "copied": self.count("copied"),
            "declarations_rewritten": sum(1 for r in self.records if r.declarations),
            "lossless": sum(1 for r in self.records if r.lossless),
            "noncanonical": sum(1 for r in self.records if r.verification == "noncanonical"),
            "quarantined": self.count("quarantined"),
            "mixed": sum(1 for r in self.records if r.mixed is not None),
            "ambiguous": sum(1 for r in self.records if r.verification == "ambiguous"),
            "unconfident": sum(1 for r in self.records if r.verification == "unconfident"),
            "declared_conflict": sum(1 for r in self.records if r.verification == "declared-conflict"),
            "salvaged": sum(1 for r in self.records if r.salvaged),
            "skipped": self.count("skipped"),
            "errors": self.count("error"),
            "bytes": total_bytes,
            "wall_time_s": round(self.wall_time, 4),
            "mb_per_s": round(total_bytes / 1e6 / self.wall_time, 2) if self.wall_time > 0 else None,
            "resumed": self.resumed,
            "dry_run": self.dry_run,
            "manifest": self.manifest,
            "fatal": self.fatal,
            "exit_code": self.exit_code,
        }


@dataclass(frozen=True, slots=True)
class ScanReport:
    """Inventory of a tree: per-file records (no output written) and the encoding distribution."""

    records: tuple[FileRecord, ...]
    wall_time: float

    @property
    def exit_code(self) -> int:
        return 1 if any(r.outcome in ("quarantined", "error") for r in self.records) else 0

    def distribution(self) -> dict[str, dict[str, int]]:
        """encoding (or verdict) -> {"files": n, "bytes": b}, largest first."""
        dist: dict[str, dict[str, int]] = {}
        for r in self.records:
            key = r.encoding or ("binary" if r.binary else r.outcome)
            slot = dist.setdefault(key, {"files": 0, "bytes": 0})
            slot["files"] += 1
            slot["bytes"] += r.size
        return dict(sorted(dist.items(), key=lambda kv: (-kv[1]["bytes"], kv[0])))

    def summary(self) -> dict[str, Any]:
        total_bytes = sum(r.size for r in self.records)
        return {
            "total": len(self.records),
            "text": sum(1 for r in self.records if r.outcome in ("converted", "utf8", "quarantined")),
            "binary": sum(1 for r in self.records if r.binary),
            "ambiguous": sum(1 for r in self.records if r.ambiguous),
            "would_convert": sum(1 for r in self.records if r.outcome == "converted"),
            "already_utf8": sum(1 for r in self.records if r.outcome == "utf8"),
            "would_quarantine": sum(1 for r in self.records if r.outcome == "quarantined"),
            "would_copy": sum(1 for r in self.records if r.binary and r.outcome in ("skipped", "copied")),
            "skipped": sum(1 for r in self.records if r.outcome == "skipped"),
            "errors": sum(1 for r in self.records if r.outcome == "error"),
            "bytes": total_bytes,
            "wall_time_s": round(self.wall_time, 4),
            "distribution": self.distribution(),
            "exit_code": self.exit_code,
        }
