"""Prove that the detector's training, development and test sets share no sentence.

    python tools/detect_overlap.py

Each set is reduced to the SHA-256 of its normalised sentences (``tools/train_detect.normalise``:
case-folded letters, single separators), and every pair of sets must have no hash in common:

- train: the Django catalog sentences the model is trained on (``train_detect.training_messages``).
  wordfreq contributes single words, not sentences (every text shares words with it), so it is not
  part of the check, as in ``train_detect.py check``.
- dev: the lines of ``../shared/data/detect-dev`` (uchardet's files) and the messages of the
  development half of Debian's gettext catalogs (``tools/detect_testset.py --split dev``).
- test: the messages of the test half (``tools/detect_testset.py``).
- benchmark: the messages of ``benchmarks/detect_accuracy.py``'s corpus (Sphinx, other Django apps),
  which must not overlap training either (``train_detect.py check``) and is reported, not required,
  against dev and test.

Exit 0 when train, dev and test are pairwise disjoint, 1 otherwise (the overlapping sentences printed).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "src"))

#: sentences shorter than this (normalised) are left out of the comparison: the test set's builder keeps
#: only messages this long (``detect_testset.MIN_MESSAGE_CHARS``), and shorter lines ("tis", "ok") are
#: single words, which every corpus shares, as it shares wordfreq's
MIN_CHARS = 12


def hashes(sentences: Iterable[str]) -> dict[str, str]:
    """SHA-256 of each normalised sentence -> one sentence with that hash."""
    from train_detect import normalise

    out = {}
    for sentence in sentences:
        key = normalise(sentence)
        if len(key) >= MIN_CHARS:
            out[hashlib.sha256(key.encode()).hexdigest()] = sentence
    return out


def main() -> int:
    """Entry point."""
    import detect_testset
    from detect_accuracy import evaluation_pools
    from train_detect import training_messages

    sets = {
        "train": hashes(training_messages()),
        "dev": hashes([*detect_testset.dev_lines(), *detect_testset.pool_messages("dev")]),
        "test": hashes(detect_testset.pool_messages("test")),
        "benchmark": hashes(m for msgs in evaluation_pools().values() for m in msgs),
    }
    failed = False
    names = list(sets)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            common = sets[a].keys() & sets[b].keys()
            required = {a, b} <= {"train", "dev", "test"} or "train" in (a, b)
            mark = "ok" if not common else ("OVERLAP" if required else "shared (not required)")
            print(
                f"{a:9} x {b:9}: {len(sets[a]):7,} x {len(sets[b]):7,} sentences, "
                f"{len(common):,} common  {mark}"
            )
            if common and required:
                failed = True
                for h in sorted(common)[:5]:
                    print(f"    {sets[a][h]!r}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
