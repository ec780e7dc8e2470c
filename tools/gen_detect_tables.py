"""Generate ``src/mojifix/detect/data/scorer.bin``: the detector scorer's derived tables.

Usage: python tools/gen_detect_tables.py [--check]

Computes :func:`mojifix.detect.scoring.build_tables` over the packaged model (the arrays a new process
would otherwise compute before its first detection: Unicode character properties of every BMP code
point, the unigram and bound tables of every language and code page) and stores them with
:func:`mojifix.detect.model.write_tables`, bound to the model's SHA-256 and this Python's Unicode
version. ``--check`` exits 1 when the packaged file differs from what would be generated. Run it after
``tools/train_detect.py`` retrains the model, or after a change to the code pages or to ``build_tables``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from mojifix.detect import model as M
from mojifix.detect.scoring import build_tables

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "src" / "mojifix" / "detect" / "data" / "scorer.bin"


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the tables file; exit status 1 when stale."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the packaged file is stale")
    args = parser.parse_args(argv)
    model = M.load_model()
    tables = build_tables(model)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp) / "scorer.bin"
            M.write_tables(fresh, tables, model)
            same = OUTPUT.is_file() and fresh.read_bytes() == OUTPUT.read_bytes()
        state = "up to date" if same else "STALE (run tools/gen_detect_tables.py)"
        print(f"{OUTPUT.relative_to(ROOT)}: {state}")
        return 0 if same else 1
    M.write_tables(OUTPUT, tables, model)
    print(f"wrote {OUTPUT.relative_to(ROOT)} ({OUTPUT.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
