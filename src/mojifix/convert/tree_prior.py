"""The tree as evidence: a prior over encodings from the run's own confident decisions (empirical Bayes).

A real archive is rarely a random mix of encodings. When 45 files of a run were confidently decided
windows-1252 and none macintosh, a 7-byte file that reads as either is far more likely windows-1252.
``convert`` therefore collects the run first, then re-decides the files the write gate refused as
``unconfident`` or ``ambiguous`` with the tree's odds added to the detector's own (``detect(prior=...)``),
and writes one only when its new confidence passes the same gate and every other check. Their records
say so: decision :data:`TREE_PRIOR` and a reason naming the votes. ``--no-tree-prior`` turns it off.

The statistics:

* **Voters** are the detector's own confident decisions of this run: files written with decision
  ``detector`` (so they passed the gate: confidence >= 0.9, not ambiguous, proven lossless). Files
  decided by structure (BOM, valid UTF-8, ASCII, empty) do not vote: such a file is compatible with
  any legacy encoding of its neighbours, so it says nothing about which one they use, and its own
  encoding never takes part in a near-tie (it is decided by structure, not by statistics). The
  detector's structural decisions (UTF-16 by its zero bytes, escape sequences) vote only for what they
  are. A person's decisions, ``--prefer`` and earlier tree-prior decisions do not vote: the prior is
  the detector's evidence about the tree, never a loop on its own output.
* **The prior** is the posterior predictive of the next file's encoding under a symmetric Dirichlet
  (Laplace's rule of succession, :data:`PSEUDO_COUNT` = 1 per encoding): odds ``(n_a + 1) : (n_b + 1)``
  between two encodings voted ``n_a`` and ``n_b`` times. A tree without voters changes nothing
  (all odds 1), one odd file moves the odds by 2:1 at most.
* **The cap**: no encoding's odds are multiplied by more than :data:`MAX_ODDS`, the write gate's own
  odds (0.9 : 0.1 = 9). Its consequence is the safety property: a reading the detector alone gave less
  than 0.5 can never reach 0.9 with the prior (``9c / (9c + (1 - c)) >= 0.9`` needs ``c >= 0.5``), so
  the tree prior only ever lifts the detector's own best reading of a file over the gate, when the tree
  agrees with it; it never overturns the detector's ranking (the adversarial macintosh file among
  windows-1252 files stays macintosh or quarantined). Nine agreeing voters reach the cap.

Order-independence: the prior is a count over every record of the run, and each refused file is
re-decided from its own bytes and that count alone, after every file has been examined; the result
does not depend on file order or on the number of workers.
"""

from __future__ import annotations

import inspect
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mojifix.convert.decisions import STALE
from mojifix.convert.gate import WRITE_ODDS
from mojifix.convert.records import TREE_PRIOR, FileRecord
from mojifix.detect.ambiguity import TEMPERATURE
from mojifix.detect.result import Detection

__all__ = ["MAX_ODDS", "PSEUDO_COUNT", "REDECIDED", "TREE_PRIOR", "TreePrior", "accepts_prior", "redecidable"]

#: the gate's refusals the tree prior may settle: the detector could not separate the readings on the
#: file's own bytes. Every other refusal (invalid bytes, a declaration conflict, a mixed file, binary)
#: is about the bytes, which no prior changes.
REDECIDED = ("unconfident", "ambiguous")
#: Dirichlet pseudo-count per encoding: 1 is Laplace's rule of succession (the uniform prior over the
#: tree's mix); not tuned. Smaller values (Jeffreys' 0.5) would let one odd file weigh more.
PSEUDO_COUNT = 1.0
#: the largest factor by which the tree may multiply an encoding's odds: the write gate's odds,
#: MIN_WRITE_CONFIDENCE : 1 - MIN_WRITE_CONFIDENCE = 9. Follows from the gate, not tuned: it is the
#: largest factor that cannot lift a reading the detector alone gave below 0.5 over the gate.
MAX_ODDS = WRITE_ODDS
#: decisions that vote: the detector's own (the gate passed them; see the module docstring)
_VOTING_DECISION = "detector"


@dataclass(frozen=True, slots=True)
class TreePrior:
    """How many confident detector decisions of one run chose each encoding."""

    votes: tuple[tuple[str, int], ...]  # (encoding, files), most first, then by name
    voters: int

    @classmethod
    def of(cls, records: Iterable[FileRecord]) -> TreePrior:
        """The votes of a run's records (see the module docstring for who votes)."""
        counts = Counter(r.encoding for r in records if _votes(r))
        votes = tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        return cls(votes, sum(counts.values()))  # type: ignore[arg-type]

    def files(self, encoding: str) -> int:
        """How many of the run's confident files chose ``encoding`` (a look along the few votes)."""
        return next((n for name, n in self.votes if name == encoding), 0)

    def odds(self, encoding: str) -> float:
        """The factor the tree puts on ``encoding``'s odds: (n + 1) / 1 under Laplace, at most MAX_ODDS."""
        return min((self.files(encoding) + PSEUDO_COUNT) / PSEUDO_COUNT, MAX_ODDS)

    def logodds(self) -> dict[str, float]:
        """The prior for ``detect(prior=...)``: nats added to each voted encoding's score (0 for the
        others). The detector's confidence is the softmax of its scores divided by
        :data:`~mojifix.detect.ambiguity.TEMPERATURE` (which halves the model's overstated evidence);
        the tree's odds are real counts, so they enter the score multiplied by it, and the confidence
        moves by exactly :meth:`odds`."""
        return {enc: TEMPERATURE * math.log(self.odds(enc)) for enc, _ in self.votes}

    def describe(self, encoding: str) -> str:
        """Provenance words: "tree prior: windows-1252 decided 45 of 52 confident files of this run"."""
        n = self.files(encoding)
        return f"tree prior: {encoding} decided {n} of {self.voters} confident files of this run"


def _votes(rec: FileRecord) -> bool:
    return rec.outcome == "converted" and rec.decision == _VOTING_DECISION and rec.encoding is not None


def redecidable(rec: FileRecord) -> bool:
    """Whether the tree prior may re-decide this record: the detector's decision, refused by the gate
    as unconfident or ambiguous (never a mixed, streamed, binary or otherwise refused file), and no
    person's decision named it (one that did not apply leaves the file as it was: never guessed)."""
    return (
        rec.outcome == "quarantined"
        and rec.decision == _VOTING_DECISION
        and rec.verification in REDECIDED
        and rec.mixed is None
        and rec.sha1 is not None
        and not any(w.startswith(("streamed", STALE)) for w in rec.warnings)
    )


def accepts_prior(detect: Callable[..., Detection]) -> bool:
    """Whether a detector (``--detector module:function``) takes the ``prior`` keyword."""
    try:
        params = inspect.signature(detect).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "prior" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def with_prior(detect: Callable[..., Detection], data: bytes, prior: TreePrior) -> Callable[..., Detection]:
    """``detect`` that adds the tree prior to the file's own decision only: the first call, on ``data``
    itself (:func:`mojifix.convert.verify.examine`'s step 4). The mixed-file probes that follow judge
    segments on their own bytes, so a tail in another encoding is not pulled towards the tree's."""
    logodds = prior.logodds()
    used = False

    def detect_with_prior(sample: bytes, **kw: object) -> Detection:
        nonlocal used
        if used or sample is not data:
            return detect(sample, **kw)
        used = True
        return detect(sample, prior=logodds, **kw)

    return detect_with_prior
