"""Development report: mojifix.detect (and chardet, same files, same metric) on real prose written by others.

    python benchmarks/detect_dev.py [--dev DIR] [--failures] [--json OUT]

The set is ``../shared/data/detect-dev/uchardet/<language>/<encoding>.<ext>`` (uchardet's test files:
Wikipedia prose, 120 files). It is a DEVELOPMENT set: look at it, calibrate on it, never train on it
and never fit a constant file by file to it; the acceptance figures come from the held-out test set
(``benchmarks/detect_test.py``). Metric: :mod:`detect_eval` (decoding with the answer gives the true
text under Python's codec or the WHATWG decoder; mojifix.extra_codecs supplies VISCII and EUC-TW, which
CPython lacks). A file whose encoding no decoder knows would be listed apart: there the question is only
whether confidence is honest.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from detect_eval import (
    ROOT,
    UNICODE_FAMILIES,
    band_labels,
    band_of,
    decodings,
    family,
    is_right,
    python_codec,
)

DEV = ROOT.parent / "shared" / "data" / "detect-dev" / "uchardet"

#: uchardet's file names -> a label CPython or the WHATWG standard knows
UCHARDET_LABELS = {
    "ibm852": "cp852",
    "ibm855": "cp855",
    "ibm866": "cp866",
    "mac-centraleurope": "mac_latin2",
    "mac-cyrillic": "mac_cyrillic",
    "uhc": "cp949",
}


@dataclass
class Row:
    """One file's outcome."""

    path: str
    label: str
    family: str
    mojifix: str | None
    confidence: float
    ambiguous: bool
    verdict: str
    right: bool | None  # None when no decoder knows the truth label
    chardet: str | None = None
    chardet_right: bool | None = None


def truth_label(path: Path) -> str:
    """The encoding a uchardet file name states (``utf-16.be`` -> ``utf-16-be``)."""
    stem, ext = path.stem, path.suffix.lstrip(".")
    if ext in ("be", "le"):
        stem = f"{stem}-{ext}"
    return UCHARDET_LABELS.get(stem, stem)


def evaluate(files: list[Path], peers: bool = True, labels: dict[Path, str] | None = None) -> list[Row]:
    """Run the detectors over ``files`` and judge each answer (truth from ``labels``, else the name)."""
    import mojifix

    chardet = None
    if peers:
        try:
            import chardet
        except ImportError:
            chardet = None
    rows = []
    for path in files:
        data = path.read_bytes()
        label = labels[path] if labels is not None else truth_label(path)
        truths = decodings(data, label) if python_codec(label) else set()
        d = mojifix.detect(data)
        best = d.best()
        answer = best.encoding if best else None
        row = Row(
            str(path.relative_to(path.parents[1])),
            label,
            family(label),
            answer,
            best.confidence if best else 0.0,
            d.ambiguous,
            d.verdict,
            is_right(data, answer, truths) if truths else None,
        )
        if chardet is not None:
            row.chardet = chardet.detect(data)["encoding"]
            row.chardet_right = is_right(data, row.chardet, truths) if truths else None
        rows.append(row)
    return rows


def _pct(right: int, n: int) -> str:
    return f"{100 * right / n:6.1f}%" if n else "     -"


def report(rows: list[Row], show_failures: bool = False) -> str:
    """Per-family accuracy, confidence bands and the confidently-wrong count, as text."""
    judged = [r for r in rows if r.right is not None]
    out = [f"files: {len(rows)} ({len(judged)} with a decodable truth label)", ""]
    fams: dict[str, list[Row]] = defaultdict(list)
    for r in judged:
        fams[r.family].append(r)
    out.append(f"{'family':16} {'n':>4} {'mojifix':>8} {'chardet':>8} {'ambig':>6}")

    def line(name: str, rs: list[Row]) -> str:
        m = sum(r.right for r in rs)
        c = sum(bool(r.chardet_right) for r in rs)
        a = sum(r.ambiguous for r in rs)
        return f"{name:16} {len(rs):4} {_pct(m, len(rs)):>8} {_pct(c, len(rs)):>8} {a:6}"

    for name in sorted(fams):
        out.append(line(name, fams[name]))
    legacy = [r for r in judged if r.family not in UNICODE_FAMILIES]
    out.append(line("legacy", legacy))
    out.append(line("ALL", judged))
    out += ["", "reliability (mojifix first candidate): confidence band -> right / n"]
    bands: dict[str, list[bool]] = defaultdict(list)
    for r in judged:
        bands[band_of(r.confidence)].append(bool(r.right))
    for b in band_labels():
        got = bands.get(b, [])
        out.append(f"  {b:14} {sum(got):4} / {len(got):<4} {_pct(sum(got), len(got))}")
    wrong_plain = [r for r in judged if not r.right and not r.ambiguous]
    high_wrong = [r for r in judged if not r.right and r.confidence >= 0.9]
    out.append(
        f"wrong without 'ambiguous': {len(wrong_plain)} of {len(judged)} "
        f"({100 * len(wrong_plain) / max(len(judged), 1):.1f}%); "
        f"wrong with confidence >= 0.9: {len(high_wrong)}"
    )
    unknown = [r for r in rows if r.right is None]
    if unknown:
        out += ["", "no decoder for the truth label (is the confidence honest?):"]
        for r in unknown:
            flag = " ambiguous" if r.ambiguous else ""
            out.append(f"  {r.path:28} -> {r.mojifix} {r.confidence:.2f}{flag} ({r.verdict})")
    if show_failures:
        out += ["", "mojifix failures:"]
        for r in judged:
            if not r.right:
                flag = " ambiguous" if r.ambiguous else ""
                out.append(f"  {r.path:28} -> {r.mojifix} {r.confidence:.2f}{flag} (chardet {r.chardet})")
    return "\n".join(out)


def report_parser(doc: str, where: str, default: Path) -> argparse.ArgumentParser:
    """The command line both reports share: the set's folder (``--<where>``) and the output options."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument(f"--{where}", type=Path, default=default)
    ap.add_argument("--failures", action="store_true", help="list mojifix's wrong answers")
    ap.add_argument("--no-peers", action="store_true", help="run mojifix only")
    ap.add_argument("--json", type=Path, help="write every file's outcome here")
    return ap


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = report_parser(__doc__, "dev", DEV).parse_args(argv)
    files = sorted(p for p in args.dev.glob("*/*") if p.is_file())
    if not files:
        print(f"detect_dev: error: no files under {args.dev}", file=sys.stderr)
        return 2
    rows = evaluate(files, peers=not args.no_peers)
    print(report(rows, args.failures))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
