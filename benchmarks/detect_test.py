"""Acceptance report and calibration: mojifix.detect and chardet on the held-out TEST set.

    python tools/detect_testset.py          # builds build/detect-test (Debian's gettext catalogs)
    python benchmarks/detect_test.py [--set build/detect-test] [--failures] [--no-peers]

The test set is never tuned on (constants are set on the development set, ``benchmarks/detect_dev.py``).
Reported: accuracy per family and per document shape (markup vs plain), for mojifix and chardet on the
same files with the same metric (:mod:`detect_eval`), and the reliability table: confidence bands of
mojifix's first candidate against how often it is right, and the share of files answered wrong
without the ``ambiguous`` flag (issue 12's targets: >= 99.5% right at confidence >= 0.9, < 0.3% wrong
unflagged).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from detect_dev import evaluate, report, report_parser
from detect_eval import ROOT

SET = ROOT / "build" / "detect-test"
MARKUP = frozenset({"html", "html-declared", "xml-declared"})


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = report_parser(__doc__, "set", SET).parse_args(argv)
    manifest_path = args.set / "manifest.json"
    if not manifest_path.is_file():
        print(f"detect_test: error: {manifest_path} missing; run tools/detect_testset.py", file=sys.stderr)
        return 2
    manifest = json.loads(manifest_path.read_text())
    labels = {args.set / e["path"]: e["label"] for e in manifest["files"]}
    shapes = {args.set / e["path"]: e["shape"] for e in manifest["files"]}
    files = sorted(labels)
    rows = evaluate(files, peers=not args.no_peers, labels=labels)
    print(report(rows, args.failures))
    by_shape: dict[str, list] = defaultdict(list)
    for path, row in zip(files, rows, strict=True):
        if row.right is not None:
            by_shape["markup" if shapes[path] in MARKUP else "plain"].append(row)
            by_shape[shapes[path]].append(row)
    print("\nper document shape: n, mojifix, chardet")
    for name in sorted(by_shape):
        rs = by_shape[name]
        m = sum(bool(r.right) for r in rs) / len(rs)
        c = sum(bool(r.chardet_right) for r in rs) / len(rs)
        print(f"  {name:14} {len(rs):5} {100 * m:6.1f}% {100 * c:6.1f}%")
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
