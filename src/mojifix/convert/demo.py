"""``make demo`` part for convert: a small mixed legacy tree, converted for real, ending with the summary.

The tree (under ``demo-out/`` in the repository, gitignored) holds a few dozen files in every encoding
of issue 5 (UTF-8, UTF-8 with BOM, GBK, GB18030, Big5, windows-1252, UTF-16LE and UTF-16BE without
BOM), two of them corrupted by a tail appended in another encoding. It is rebuilt from the same seed
on every run, then converted with salvage on; the quarantined files and the summary table are printed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mojifix.convert import convert
from mojifix.convert.cli import print_convert
from mojifix.convert.corpus import generate

#: repository root (src/mojifix/convert/demo.py -> ../../..)
ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "demo-out"
#: files per encoding in the demo tree (8 encodings -> 40 files) and how many get a foreign tail
FILES_PER_ENCODING = 5
CORRUPTED = 2


def run(out: Path = OUT) -> int:
    """Build the demo tree under ``out``, convert it into ``out/utf8``; returns the run's exit code."""
    src, dst = out / "legacy", out / "utf8"
    for d in (src, dst):
        shutil.rmtree(d, ignore_errors=True)
    truths = generate(
        src, FILES_PER_ENCODING, corrupted=CORRUPTED, short_fraction=0.1, mean_bytes=1500, seed=7, subdirs=4
    )
    labels = sorted({t.label for t in truths})
    print(f"mojifix convert demo: {len(truths)} files in {', '.join(labels)} under {src.relative_to(ROOT)}")
    for t in truths:
        if not t.clean:
            print(
                f"  corrupted on purpose: {t.path} "
                f"({t.label} + a tail in {t.tail_label} at byte {t.boundary})"
            )
    report = convert(src, dst, salvage=True)
    print(f"\nmojifix convert {src.relative_to(ROOT)} {dst.relative_to(ROOT)} --salvage")
    print_convert(report)
    return report.exit_code


if __name__ == "__main__":
    raise SystemExit(run())
