"""``mojifix warc INPUT... -o OUTPUT.jsonl|.parquet``: decode every HTTP response of WARC/ARC archives.

Exit codes: 0 every text response decoded cleanly; 1 the run finished but needs attention (unreadable
archive data, malformed records, or responses whose text holds U+FFFD); 2 usage or fatal I/O error.
A progress bar with records/s is drawn on stderr when it is a terminal (``--quiet`` turns it off);
the summary goes to stderr as text, or to stdout as JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mojifix.cli import require_extra
from mojifix.integrations.warc import (
    DEFAULT_ROW_GROUP_ROWS,
    WarcSummary,
    decode_records,
    iter_http_records,
    write_rows,
)

EXIT_OK = 0
EXIT_ATTENTION = 1
EXIT_USAGE = 2


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "warc",
        help="decode the HTTP responses of WARC/ARC archives to JSONL or Parquet",
        description="Decode every HTTP response record of WARC/ARC files (gzip or not) with the browser's "
        "rules and write one row per text response: URI, record id, date, status, content type, encoding, "
        "decision source, confidence, warnings, replacement characters, text.",
    )
    parser.add_argument(
        "inputs", nargs="+", metavar="INPUT", help="WARC or ARC file (.warc, .warc.gz, .arc.gz)"
    )
    parser.add_argument("-o", "--output", required=True, help="output file: .jsonl or .parquet")
    parser.add_argument(
        "--reader",
        choices=("auto", "fastwarc", "warcio"),
        default="auto",
        help="archive reader (auto: FastWARC for WARC, warcio for ARC)",
    )
    parser.add_argument(
        "--fallback",
        choices=("detect", "browser"),
        default="detect",
        help="undeclared pages: detect the encoding (default) or reproduce the browser's fallback",
    )
    parser.add_argument(
        "--trust",
        choices=("browser", "evidence"),
        default="browser",
        help="'browser' (default): declarations always win; 'evidence': a declaration the bytes prove "
        "wrong is overruled and the true text written (column overridden)",
    )
    parser.add_argument(
        "--row-group-rows",
        type=int,
        default=DEFAULT_ROW_GROUP_ROWS,
        help=f"Parquet rows per row group (bounds memory; default {DEFAULT_ROW_GROUP_ROWS})",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON on stdout")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    output = Path(args.output)
    if output.suffix.lower() not in (".jsonl", ".ndjson", ".parquet"):
        print(
            f"mojifix warc: error: output must end in .jsonl or .parquet, not {output.name!r}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.row_group_rows < 1:
        print("mojifix warc: error: --row-group-rows must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    # the [warc] extra: checked before anything is written (a missing one is exit 2, naming the extra)
    reader = "warcio" if args.reader == "warcio" else "fastwarc"
    require_extra("mojifix warc", reader, *(("pyarrow",) if output.suffix.lower() == ".parquet" else ()))
    missing = [p for p in args.inputs if not Path(p).is_file()]
    if missing:
        print(f"mojifix warc: error: no such file: {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    summary = WarcSummary()
    started = time.perf_counter()
    show_progress = not args.quiet and sys.stderr.isatty()
    with _Progress(show_progress) as progress:

        def records() -> Iterator[Any]:
            for path in args.inputs:
                progress.file(path)
                yield from iter_http_records(
                    path, reader=args.reader, errors=summary.errors, full_records=False
                )

        advance = progress.advance if progress.enabled else None  # no call per record without a bar
        rows = decode_records(records(), summary, fallback=args.fallback, trust=args.trust, on_record=advance)
        written = write_rows(rows, output, row_group_rows=args.row_group_rows)
    return report_run(summary, written, output, time.perf_counter() - started, as_json=args.json)


def report_run(summary: WarcSummary, written: int, output: Path, elapsed: float, *, as_json: bool) -> int:
    """Print a run's summary (one JSON object, or the readable lines on stderr); the exit code.

    Shared by ``mojifix warc`` and ``mojifix spark warc``: the same counts, the same exit codes.
    """
    if as_json:
        import json  # only for --json: not imported by every run

        print(json.dumps({**summary.to_dict(), "rows_written": written, "seconds": round(elapsed, 3)}))
    else:
        _print_summary(summary, written, output, elapsed)
    attention = summary.errors or summary.malformed or summary.with_replacement
    return EXIT_ATTENTION if attention else EXIT_OK


def _print_summary(summary: WarcSummary, written: int, output: Path, elapsed: float) -> None:
    rate = summary.records / elapsed if elapsed > 0 else 0.0
    err = sys.stderr
    print(
        f"{summary.records} records read ({rate:,.0f} records/s), {written} rows written to {output}",
        file=err,
    )
    types = ", ".join(f"{k} {v}" for k, v in summary.by_record_type.most_common())
    print(f"  record types: {types or 'none'}", file=err)
    print(
        f"  HTTP responses {summary.responses}: decoded {summary.decoded}, non-text skipped "
        f"{summary.skipped_non_text}, undecodable content-encoding {summary.skipped_undecodable}",
        file=err,
    )
    print(f"  skipped in all: {summary.skipped} (requests, revisits, metadata, non-text)", file=err)
    if summary.by_source:
        print(
            "  by decision source: " + ", ".join(f"{k} {v}" for k, v in summary.by_source.most_common()),
            file=err,
        )
        print(
            "  by encoding: " + ", ".join(f"{k} {v}" for k, v in summary.by_encoding.most_common()), file=err
        )
    print(f"  with replacement characters: {summary.with_replacement}", file=err)
    for source, per_mille in summary.replacement_rate_by_source().items():
        if per_mille:
            print(f"    {source}: {per_mille} U+FFFD per 1,000 characters", file=err)
    for host, count, per_mille in summary.top_hosts():
        print(f"    host {host or '(none)'}: {count} U+FFFD ({per_mille} per 1,000 characters)", file=err)
    if summary.malformed:
        print(f"  malformed records (flagged in warnings): {summary.malformed}", file=err)
    for message in summary.errors:
        print(f"  problem: {message}", file=err)


class _Progress:
    """A rich progress bar with records/s on a terminal; does nothing otherwise."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._progress: Any = None
        self._task: Any = None
        self._started = time.perf_counter()

    def __enter__(self) -> _Progress:
        if self.enabled:
            try:
                from rich.console import Console
                from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
            except ImportError:  # the progress extra is optional
                self.enabled = False
                return self
            self._progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                TextColumn("{task.completed:,} records"),
                TextColumn("{task.fields[rate]:,.0f} records/s"),
                TimeElapsedColumn(),
                console=Console(file=sys.stderr),
                transient=True,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task("reading", total=None, rate=0.0)
            self._started = time.perf_counter()
        return self

    def file(self, path: str) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=Path(path).name)

    def advance(self) -> None:
        if self._progress is not None:
            task = self._progress.tasks[0]
            elapsed = max(time.perf_counter() - self._started, 1e-9)
            self._progress.update(self._task, advance=1, rate=(task.completed + 1) / elapsed)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(None, None, None)
