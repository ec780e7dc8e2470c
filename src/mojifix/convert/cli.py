"""``mojifix scan`` and ``mojifix convert``: the command-line face of :mod:`mojifix.convert`.

Exit codes (docs/convert.md): 0 all good; 1 something was quarantined or errored; 2 usage error,
unsafe paths (DST inside SRC...), or a fatal I/O error such as a full disk.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mojifix.cli import console, has_rich, table_class
from mojifix.convert.records import TREE_PRIOR, FileRecord, Report, ScanReport

EXIT_USAGE = 2


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser(
        "scan", help="inventory a tree: encoding, confidence, BOM, line endings, binary, ambiguity"
    )
    s.add_argument("src", help="directory (or file) to inventory; nothing is written")
    s.add_argument("more", nargs="*", metavar="PATH", help="with --check: more files or directories")
    s.add_argument(
        "--check",
        action="store_true",
        help="for CI and pre-commit: exit 1 if a text file is not UTF-8 (or --expect ENC), one line each",
    )
    s.add_argument("--expect", metavar="ENC", help="with --check: the encoding files must be in (UTF-8)")
    s.add_argument("--json", action="store_true", help="print every record and the summary as JSON")
    _common(s)
    s.set_defaults(func=run_scan)

    c = sub.add_parser(
        "convert",
        help="write a verified UTF-8 mirror of SRC into DST (SRC is never modified)",
        description="Convert every text file of SRC to UTF-8 under DST, proving each conversion lossless; "
        "what cannot be proven goes to DST/_quarantine/ with the reason. Exit 0: all good; 1: something "
        "was quarantined or errored; 2: usage or fatal I/O error.",
    )
    c.add_argument("src", help="source directory (read only, never modified)")
    c.add_argument("dst", nargs="?", help="destination directory (new or empty; not inside SRC)")
    c.add_argument("--in-place", action="store_true", help="rewrite SRC itself (needs --backup-dir)")
    c.add_argument(
        "--backup-dir", metavar="DIR", help="with --in-place: original bytes of every rewritten file"
    )
    c.add_argument("--dry-run", action="store_true", help="decide and verify everything, write nothing")
    c.add_argument(
        "--bom", choices=("strip", "keep"), default="strip", help="BOM of UTF-8 output (default strip)"
    )
    c.add_argument(
        "--salvage", action="store_true", help="also write a segment-by-segment decoding of mixed files"
    )
    c.add_argument("--resume", action="store_true", help="continue an interrupted run into the same DST")
    c.add_argument(
        "--decisions",
        metavar="FILE",
        help="apply a person's choices saved by the `mojifix review` page (implies --resume)",
    )
    c.add_argument(
        "--accept-noncanonical",
        action="store_true",
        help="convert files that decode cleanly but whose bytes are not canonical (not lossless)",
    )
    c.add_argument("--manifest", metavar="PATH", help="manifest file (default DST/mojifix-manifest.jsonl)")
    c.add_argument("--no-fsync", action="store_true", help="skip fsync and syncfs (faster, not crash-safe)")
    c.add_argument(
        "--convert-names",
        metavar="ENC",
        help="decode file names that are not valid UTF-8 with ENC (strictly) in DST",
    )
    c.add_argument(
        "--keep-declarations",
        action="store_true",
        help="leave in-band declarations (<meta charset>, <?xml encoding>, @charset, coding comments) "
        "as the source has them instead of relabelling them utf-8",
    )
    c.add_argument("--json", action="store_true", help="print the summary as JSON")
    _common(c)
    c.set_defaults(func=run_convert)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--prefer",
        action="append",
        default=[],
        metavar="ENC",
        help="settle ambiguous or unconfident detections, or a clash with the file's own declaration, in "
        "favour of ENC (repeatable), e.g. --prefer big5",
    )
    p.add_argument("--include", action="append", default=[], metavar="GLOB", help="only files matching GLOB")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip files matching GLOB")
    p.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes (default 1)")
    p.add_argument(
        "--no-tree-prior",
        action="store_true",
        help="decide every file on its own bytes only: do not re-decide unconfident or ambiguous files "
        "with the encodings the run's confident files have (docs/convert.md, tree prior)",
    )


class _Bar:
    """A rich progress bar on a terminal (standard error); nothing otherwise."""

    def __init__(self, enabled: bool) -> None:
        self.progress = None
        self.task = None
        if enabled and has_rich():  # rich is the optional progress extra: no bar without it
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                transient=True,
                console=_console(stderr=True),
            )

    def set_total(self, total: int) -> None:
        if self.progress is not None:
            self.progress.start()
            self.task = self.progress.add_task("mojifix", total=total)

    def __call__(self, rec: FileRecord) -> None:
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, advance=1, description=rec.outcome)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def _console(stderr: bool = False) -> Any:
    return console(stderr=stderr)  # rich's, or plain text without the progress extra


def _options(args: argparse.Namespace) -> dict[str, Any]:
    from mojifix.convert import options

    return {
        "detector": options.DEFAULT_DETECTOR,
        "prefer": tuple(args.prefer),
        "include": tuple(args.include),
        "exclude": tuple(args.exclude),
        "workers": args.workers,
        "tree_prior": not args.no_tree_prior,
    }


def _usage(msg: str) -> int:
    print(f"mojifix: error: {msg}", file=sys.stderr)
    return EXIT_USAGE


def run_scan(args: argparse.Namespace) -> int:
    from mojifix.convert import scan

    if args.check or args.expect:
        from mojifix.convert.check import run_check

        return run_check(args)
    if args.more:
        return _usage("scan takes one SRC (several paths only with --check)")
    if args.workers < 1:
        return _usage("--workers must be at least 1")
    bar = _Bar(sys.stderr.isatty() and not args.json)
    try:
        report = scan(args.src, progress=bar, **_options(args))
    except LookupError as exc:
        return _usage(f"{exc}: --prefer takes an encoding label such as big5, gbk, shift_jis")
    finally:
        bar.close()
    if args.json:
        out = {"files": [r.to_dict() for r in report.records], "summary": report.summary()}
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    else:
        print_scan(report)
    return report.exit_code


def run_convert(args: argparse.Namespace) -> int:
    from mojifix.convert import convert

    if args.in_place and args.dst:
        return _usage("--in-place rewrites SRC; give no DST (originals go to --backup-dir)")
    if args.in_place and not args.backup_dir:
        return _usage("--in-place needs --backup-dir DIR to keep the original bytes of every rewritten file")
    if not args.in_place and not args.dst:
        return _usage("convert needs SRC and DST (or --in-place --backup-dir DIR)")
    if args.workers < 1:
        return _usage("--workers must be at least 1")
    opts = _options(args)
    if args.decisions:
        from mojifix.convert.decisions import load_decisions

        opts["decisions"] = load_decisions(args.decisions)
    opts.update(
        bom=args.bom,
        salvage=args.salvage,
        resume=args.resume,
        dry_run=args.dry_run,
        accept_noncanonical=args.accept_noncanonical,
        manifest=args.manifest,
        fsync=not args.no_fsync,
        in_place=args.in_place,
        backup_dir=args.backup_dir,
        names_encoding=args.convert_names,
        keep_declarations=args.keep_declarations,
    )
    bar = _Bar(sys.stderr.isatty() and not args.json)
    try:
        report = convert(args.src, None if args.in_place else args.dst, progress=bar, **opts)
    except LookupError as exc:
        return _usage(f"{exc}: --prefer/--convert-names take an encoding label such as big5, gbk")
    finally:
        bar.close()
    print_fatal(report)
    summary = report.summary()
    not_applied = _report_decisions(opts.get("decisions"), report, summary)
    print_result(report, summary, as_json=args.json)
    return max(report.exit_code, 1 if not_applied else 0)


def print_fatal(report: Report) -> None:
    """The one error line of a run that stopped early (``report.fatal``), if it did."""
    if report.fatal:
        print(
            f"mojifix: error: {report.fatal} (run stopped; fix the cause and rerun with --resume)",
            file=sys.stderr,
        )


def print_result(report: Report, summary: dict[str, Any], *, as_json: bool) -> None:
    """A run's ``summary`` as one JSON object, or its table (shared by ``mojifix spark convert``)."""
    if as_json:
        sys.stdout.write(json.dumps(summary, ensure_ascii=False, indent=1) + "\n")
    else:
        print_convert(report)


def _report_decisions(decisions: Any, report: Report, summary: dict[str, Any]) -> int:
    """Say which decisions were applied and which no longer apply (standard error); returns how many
    did not apply. A decision that does not apply is never guessed: its file stays as the run left it."""
    if decisions is None:
        return 0
    from mojifix.convert.decisions import unapplied

    missed = unapplied(decisions, report.records)
    for path, why in missed:
        print(f"mojifix: decision not applied: {path}: {why}", file=sys.stderr)
    applied = len(decisions) - len(missed)
    print(f"mojifix: decisions: {applied} applied, {len(missed)} not applied", file=sys.stderr)
    summary["decisions"] = {"applied": applied, "not_applied": [{"path": p, "why": w} for p, w in missed]}
    return len(missed)


def print_convert(report: Report) -> None:
    """Attention-needing files, then the summary table."""
    Table = table_class()  # rich's, or plain text without the progress extra

    console = _console()
    for r in report.records:
        if r.outcome in ("quarantined", "error"):
            console.print(f"{r.outcome:11} {r.path}: {r.reason}", markup=False)
    s = report.summary()
    t = Table(title="mojifix convert" + (" (dry run)" if report.dry_run else ""), show_header=False)
    t.add_column("what")
    t.add_column("value", justify="right")
    for label, key in (
        ("total", "total"),
        ("converted", "converted"),
        ("  by the tree prior", "tree_prior"),
        ("already UTF-8", "already_utf8"),
        ("copied (binary)", "copied"),
        ("declarations relabelled", "declarations_rewritten"),
        ("lossless", "lossless"),
        ("non-canonical", "noncanonical"),
        ("quarantined", "quarantined"),
        ("  mixed", "mixed"),
        ("  ambiguous", "ambiguous"),
        ("  not confident", "unconfident"),
        ("  declaration conflict", "declared_conflict"),
        ("  salvaged", "salvaged"),
        ("skipped", "skipped"),
        ("errors", "errors"),
        ("resumed", "resumed"),
    ):
        t.add_row(label, str(s[key]))
    t.add_row("bytes", f"{s['bytes']:,}")
    t.add_row("wall time", f"{s['wall_time_s']:.3f} s")
    t.add_row("MB/s", f"{s['mb_per_s']}")
    if s["manifest"]:
        t.add_row("manifest", s["manifest"])
    console.print(t)


def print_scan(report: ScanReport) -> None:
    """Per-file inventory, then the encoding distribution."""
    Table = table_class()  # rich's, or plain text without the progress extra

    console = _console()
    files = Table(title="mojifix scan")
    for col in ("path", "encoding", "conf", "BOM", "EOL", "kind", "verdict"):
        files.add_column(col)
    for r in report.records:
        kind = (
            "binary" if r.binary else ("text" if r.outcome in ("converted", "utf8", "quarantined") else "-")
        )
        verdict = r.verification if r.outcome != "skipped" else f"skipped: {r.reason}"
        if r.binary:
            verdict = "binary: convert copies it unchanged"
        if r.mixed is not None:
            verdict = f"mixed: {r.mixed.head_encoding} + {r.mixed.tail_encoding} at byte {r.mixed.boundary}"
        elif r.ambiguous:
            verdict += " (ambiguous: " + ", ".join(e for e, _ in r.candidates[:3]) + ")"
        if r.decision == TREE_PRIOR:
            verdict += " (tree prior)"
        conf = f"{r.confidence:.2f}" if r.confidence is not None else "-"
        files.add_row(r.path, r.encoding or "-", conf, r.bom or "-", r.line_endings or "-", kind, verdict)
    console.print(files)
    dist = Table(title="encoding distribution")
    dist.add_column("encoding")
    dist.add_column("files", justify="right")
    dist.add_column("bytes", justify="right")
    for enc, d in report.distribution().items():
        dist.add_row(enc, str(d["files"]), f"{d['bytes']:,}")
    console.print(dist)
