"""``make demo`` ends here: the review page for the demo tree's quarantine, and what to do with it."""

from __future__ import annotations

import os
from pathlib import Path

from mojifix.convert.decisions import DEFAULT_NAME
from mojifix.review import write_report


def run(src: Path, dst: Path) -> int:
    """Write ``dst``'s review page and print how to settle the quarantine with it; returns 0."""
    result = write_report(dst)
    src_shown, dst_shown = os.path.relpath(src), os.path.relpath(dst)
    print(f"mojifix review {dst_shown}: {result.cards} quarantined files to settle")
    print(f"  open {Path(result.path).resolve().as_uri()}")
    print("  pick a reading per file (mouse, or keys 1-9; 0 = leave out; j/k = next/previous file),")
    print("  press 'Save decisions', then apply them (a file is written only if its reading is lossless):")
    print(f"  mojifix convert {src_shown} {dst_shown} --decisions ~/Downloads/{DEFAULT_NAME}")
    return 0
