"""The write gate: a file is written only when its decoding is proven AND the detection is confident.

The lossless proof (:mod:`mojifix.convert.verify`) shows that the bytes *are* a valid text in the chosen
encoding; it cannot show that it is the *intended* text (Japanese bytes also decode cleanly as Greek
letters). The gate refuses a detector decision, and ``convert`` quarantines the file with the reason,
when any of these holds:

1. ``ambiguous``: the detector says two readings that differ are too close to call (unless ``--prefer``
   names one of them: the person decided, and the gate does not second-guess it); that one is settled
   first, in ``verify._choose``, because an ambiguous verdict is also probed for a mixed file;
2. ``unconfident``: the chosen candidate's confidence is below :data:`MIN_WRITE_CONFIDENCE`;
3. error evidence: the detector names the encoding together with invalid sequences in the bytes
   (partial validity: "EUC-KR, 1 invalid sequence at byte 40,112"), which the strict decode would also
   refuse; the gate names the detector's count in the reason;
4. ``declared-conflict``: the file declares another encoding in-band (``<meta charset>``, ``<?xml
   encoding>``, ``@charset``, a coding comment) that also decodes every byte, to a different text
   (:func:`mojifix.convert.declared.conflicting_declaration`), and the detector does not say it
   weighed that declaration (an :data:`DECLARATION_EVIDENCE` finding): a detector that reads
   declarations and still chose otherwise has judged the declared reading worse, which convert reports
   as a warning; one that ignores them has not judged it at all.

Decisions that are not the detector's (BOM, valid UTF-8, empty, ``--prefer``) are structural or the
user's and pass the gate. A file refused as ``unconfident`` or ``ambiguous`` may be re-decided at the end
of the run with the tree prior (:mod:`mojifix.convert.tree_prior`): that decision is still the
detector's, and passes this same gate or stays quarantined.
"""

from __future__ import annotations

from mojifix.detect.declarations import Declaration
from mojifix.detect.result import Candidate, Detection, Evidence

__all__ = [
    "DECLARATION_EVIDENCE",
    "ERROR_EVIDENCE_KINDS",
    "MIN_WRITE_CONFIDENCE",
    "WRITE_ODDS",
    "refusal",
    "weighed_declaration",
]

#: Below this the detector is not "confident" and nothing is written. 0.9 is the calibration point of
#: issue 12 (answers with confidence >= 0.9 must be right >= 99.5% of the time on the detector's test
#: set), so a written file inherits that promise. Checked, not fitted, on the uchardet
#: development set (benchmarks/convert_detect_dev.py): with the main branch's detector the
#: lowest confidence of a right, unambiguous answer there is 0.93, so the gate quarantines no right file
#: of it; the generated tree of benchmarks/convert_corpus.py is the other check (every clean file right).
MIN_WRITE_CONFIDENCE = 0.9
#: the gate's odds, MIN_WRITE_CONFIDENCE : 1 - MIN_WRITE_CONFIDENCE = 9 (the tree prior's cap; the share
#: of the best's confidence a second candidate needs to be searched for a split is their inverse)
WRITE_ODDS = MIN_WRITE_CONFIDENCE / (1.0 - MIN_WRITE_CONFIDENCE)
#: Evidence kinds by which the detector reports invalid sequences in the reading it names (partial
#: validity: ``Evidence("invalid", "EUC-KR: 1 invalid sequence at byte 40,112", 1.0)``, value = count).
ERROR_EVIDENCE_KINDS = ("invalid",)
#: The Evidence kind by which the detector says it read the file's in-band declaration and weighed it
#: (``Evidence("declaration", "xml declaration 'EUC-JP' (bytes 30-36) names EUC-JP; ...")``).
DECLARATION_EVIDENCE = "declaration"


def weighed_declaration(det: Detection) -> bool:
    """True when the detector reports having read and weighed the file's declaration."""
    found = (*det.evidence, *(ev for c in det.candidates for ev in c.evidence))
    return any(ev.kind == DECLARATION_EVIDENCE for ev in found)


def _error_evidence(det: Detection, cand: Candidate) -> Evidence | None:
    for ev in (*cand.evidence, *det.evidence):
        if ev.kind in ERROR_EVIDENCE_KINDS and (ev.value is None or ev.value > 0):
            return ev
    return None


def refusal(
    det: Detection, encoding: str, conflict: tuple[Declaration, str] | None
) -> tuple[str, str] | None:
    """``(verification, reason)`` when the detector's decision ``encoding`` must not be written, else None.

    ``conflict`` is the caller's :func:`mojifix.convert.declared.conflicting_declaration` for the proven
    decoding (the caller reads the declarations once and reports the same conflict as a warning when
    the gate lets it through); ``None`` when there is none or the text is not known (a streamed file's
    head sample that does not decode on its own).
    """
    cand = next((c for c in det.candidates if c.encoding == encoding), det.best())
    if cand is None:
        return "undecided", "the detector found no candidate encoding"
    if cand.confidence < MIN_WRITE_CONFIDENCE:
        others = ", ".join(f"{c.encoding} ({c.confidence:.2f})" for c in det.candidates[1:3])
        return "unconfident", (
            f"confidence {cand.confidence:.2f} for {encoding} is below {MIN_WRITE_CONFIDENCE}"
            + (f" (next: {others})" if others else "")
            + f"; settle it with --prefer {encoding} if that reading is right"
        )
    ev = _error_evidence(det, cand)
    if ev is not None:
        return "decode-error", f"the detector reports invalid bytes for {encoding}: {ev.detail}"
    if conflict is None or weighed_declaration(det):
        return None
    decl, _ = conflict
    return "declared-conflict", (
        f"declares {decl.label!r} ({decl.kind} at byte {decl.start}), which also decodes every byte, "
        f"but the detector chose {encoding}; settle it with --prefer {decl.encoding} "
        f"or --prefer {encoding}"
    )
