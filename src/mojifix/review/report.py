"""The review report's data: the run's summary and one card per quarantined file, read from DST.

Reads only what ``convert`` wrote: the manifest (``convert.records``' format, one line per file) and
each quarantined file's copy under ``DST/_quarantine/`` (the original bytes). The detector is run
again on each copy for its structured evidence and the language of each candidate reading (used as
the reading's ``lang``); the choice a card offers is proven over every byte by the same check
``convert --decisions`` applies.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from dataclasses import dataclass
from typing import Any

from mojifix.convert.decisions import PERSON, record_rel
from mojifix.convert.engine import manifest_records
from mojifix.convert.options import MANIFEST_NAME, QUARANTINE_DIR, STREAM_THRESHOLD
from mojifix.convert.records import FileRecord
from mojifix.errors import ConversionError
from mojifix.review import readings as R

__all__ = ["ReviewData", "collect"]

#: outcomes drawn as "written" in the encodings chart (the rest: quarantined, or nothing written)
_WRITTEN = ("converted", "utf8")


@dataclass(frozen=True, slots=True)
class ReviewData:
    """Everything the page shows: JSON-able ``summary`` and ``cards``, and the run's records."""

    dst: str
    manifest: str
    records: tuple[FileRecord, ...]
    cards: tuple[dict[str, Any], ...]
    summary: dict[str, Any]
    report_id: str

    @property
    def unreadable(self) -> int:
        """Quarantined files whose copy is missing, changed or too large to settle (shown, with why)."""
        return sum(1 for c in self.cards if c["problem"])


def _lang(code: str | None) -> str | None:
    """The detector's language name (``zh_Hant``) as a BCP 47 tag (``zh-Hant``)."""
    return code.replace("_", "-") if code else None


def _detect_langs(data: bytes, prefix: str, out: dict[str, str]) -> list[list[Any]]:
    """Fill ``out`` with prefix+encoding -> language from the detector; returns its evidence."""
    from mojifix.detect import detect

    det = detect(data, domain="file")
    for c in det.candidates:
        lang = _lang(c.language)
        if lang:
            out.setdefault(prefix + c.encoding, lang)
    best = det.best()
    ev = [*det.evidence, *(best.evidence if best else ())]
    return [[e.kind, e.detail] for e in ev]


def _reading_dict(r: R.Reading, common: set[R.Span]) -> dict[str, Any]:
    choice: dict[str, Any] | None = None
    if r.why_not is None:
        if len(r.segments) == 1:
            choice = {"encoding": r.segments[0].encoding}
        else:
            choice = {"segments": [{"end": s.end, "encoding": s.encoding} for s in r.segments]}
    return {
        "label": r.label,
        "encoding": r.encoding,
        "confidence": r.confidence,
        "choice": choice,
        "why_not": r.why_not,
        "parts": [
            {
                "label": p.label,
                "lang": p.lang,
                "start": p.start,
                "end": p.end,
                "aligned": p.spans is not None,
                "runs": R.runs(p, common),
            }
            for p in r.parts
        ],
    }


def _card(rec: FileRecord, data: bytes | None, problem: str | None, cache: R.SpanCache) -> dict[str, Any]:
    card: dict[str, Any] = {
        "path": rec.path,
        "path_hex": rec.path_hex,
        "sha1": rec.sha1,
        "size": rec.size,
        "verification": rec.verification,
        "reason": rec.reason,
        "warnings": list(rec.warnings),
        "candidates": [[e, c] for e, c in rec.candidates[: R.MAX_READINGS + 2]],
        "mixed": rec.mixed.to_dict() if rec.mixed else None,
        "evidence": [],
        "readings": [],
        "first_diff": None,
        "dump": None,
        "problem": problem,
        "settleable": rec.size <= STREAM_THRESHOLD,  # decisions apply to in-memory files only
    }
    if data is None:
        return card
    langs: dict[str, str] = {}
    card["evidence"] = _detect_langs(data, "", langs)
    mixed = None  # the split reading's dict, when the boundary falls inside the copy
    if rec.mixed is not None and 0 < rec.mixed.boundary < len(data):
        mixed = card["mixed"]
        _detect_langs(data[: rec.mixed.boundary], "head:", langs)
        _detect_langs(data[rec.mixed.boundary :], "tail:", langs)
    cands: list[tuple[str, float | None]] = list(rec.candidates)
    if not cands and rec.encoding:
        cands = [(rec.encoding, rec.confidence)]
    reads = R.card_readings(data, cands, mixed, langs, cache)
    common, first = R.differences(reads)
    card["candidates"] = [[e, c, langs.get(e) or R.LANG_OF_ENCODING.get(e)] for e, c in card["candidates"]]
    card["readings"] = [_reading_dict(r, common) for r in reads]
    card["first_diff"] = first
    if first is not None:
        card["dump"] = R.dump(data, first, reads, common)
    return card


def _quarantine_copy(dst: bytes, rec: FileRecord) -> tuple[bytes | None, str | None]:
    """The original bytes kept under _quarantine/, or None and what is wrong with the copy."""
    if rec.size > STREAM_THRESHOLD:
        return None, (
            f"larger than convert's in-memory limit ({STREAM_THRESHOLD // 2**20} MiB): decisions do not "
            "apply to it (convert streams it); settle it with --prefer ENC"
        )
    path = os.path.join(dst, QUARANTINE_DIR.encode(), record_rel(rec))
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        why = exc.strerror or exc
        return None, f"the quarantine copy cannot be read ({why}): rerun convert with --resume"
    if rec.sha1 and hashlib.sha1(data).hexdigest() != rec.sha1:
        return None, "the quarantine copy is not the bytes the manifest names (its sha1 differs)"
    return data, None


def _summary(records: tuple[FileRecord, ...]) -> dict[str, Any]:
    outcomes = Counter(r.outcome for r in records)
    quarantined = Counter(r.verification for r in records if r.outcome == "quarantined")
    by_encoding: dict[str, Counter[str]] = {}
    for r in records:
        key = r.encoding or ("binary" if r.binary else r.outcome)
        kind = "written" if r.outcome in _WRITTEN else "other"
        kind = "quarantined" if r.outcome == "quarantined" else kind
        by_encoding.setdefault(key, Counter())[kind] += 1
    encodings = sorted(by_encoding.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))
    return {
        "total": len(records),
        "outcomes": dict(sorted(outcomes.items(), key=lambda kv: -kv[1])),
        "quarantined_by_kind": dict(sorted(quarantined.items(), key=lambda kv: -kv[1])),
        "settled_by_person": sum(1 for r in records if r.decision == PERSON),
        "encodings": [[k, dict(v)] for k, v in encodings],
    }


def collect(dst: str | os.PathLike[str], manifest: str | os.PathLike[str] | None = None) -> ReviewData:
    """Read DST's manifest and quarantine; raises ConversionError when there is no manifest."""
    dst_b = os.fsencode(dst)
    mpath = os.fsencode(manifest) if manifest is not None else os.path.join(dst_b, MANIFEST_NAME.encode())
    if not os.path.isfile(mpath):
        raise ConversionError(
            f"no manifest at {os.fsdecode(mpath)!r}: run `mojifix convert SRC DST` first "
            "(or give --manifest PATH)"
        )
    with open(mpath, "rb") as f:
        raw = f.read()
    report_id = hashlib.sha1(raw).hexdigest()
    records = tuple(manifest_records(raw.splitlines()).values())
    cache = R.SpanCache()
    cards = []
    for rec in records:
        if rec.outcome != "quarantined":
            continue
        data, problem = _quarantine_copy(dst_b, rec)
        cards.append(_card(rec, data, problem, cache))
    return ReviewData(
        os.fsdecode(dst_b), os.fsdecode(mpath), records, tuple(cards), _summary(records), report_id
    )
