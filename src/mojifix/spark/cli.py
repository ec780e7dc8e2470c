"""``mojifix spark warc|convert``: the WARC and tree jobs on a Spark master (default ``local[*]``).

``mojifix spark warc INPUT... -o OUT.parquet`` writes a Parquet dataset (a directory of part files, as
Spark writes it) with ``mojifix warc``'s rows; ``mojifix spark convert SRC DST`` takes ``mojifix
convert``'s options. Exit codes are the local commands': 0 clean, 1 needs attention, 2 usage or fatal
error, including PySpark not being installed (one line naming ``mojifix[spark]``). Spark draws its
own console progress; the local command's summary follows at the end. Runs under ``spark-submit``
through :mod:`mojifix.spark.submit`.
"""

from __future__ import annotations

import argparse
import gzip
import os
import time
from pathlib import Path
from typing import Any

from mojifix.cli import MissingExtraError
from mojifix.convert.cli import _usage
from mojifix.spark._session import DEFAULT_MASTER, open_session, require_spark

#: options of ``mojifix convert`` that a Spark run does not take (hidden here, refused when given)
_NOT_ON_SPARK = {
    "in_place": "in-place conversion is not offered on Spark: convert into a new DST",
    "backup_dir": "--backup-dir goes with --in-place, which is not offered on Spark",
    "workers": "--workers: Spark decides the parallelism (--master local[N], executors)",
    "decisions": "--decisions is not offered on Spark yet: apply a review's choices with mojifix convert",
}


#: ``mojifix convert`` arguments whose destination is the name of an Options field
_SAME_NAME_OPTIONS = ("bom", "salvage", "resume", "dry_run", "accept_noncanonical", "manifest")


def register(subparsers: Any) -> None:
    spark = subparsers.add_parser(
        "spark",
        help="run the warc and convert jobs on Apache Spark (extra mojifix[spark])",
        description="The `warc` and `convert` jobs as Spark applications: same rows, same outputs and "
        "manifest lines as the local commands. Needs `pip install 'mojifix[spark]'` and Java 17+.",
    )
    jobs = spark.add_subparsers(dest="spark_job", metavar="JOB")
    warc = jobs.add_parser(
        "warc",
        help="decode the HTTP responses of WARC/ARC files into a Parquet dataset",
        description="One Spark task per archive; the rows and the summary are those of `mojifix warc`.",
    )
    warc.add_argument(
        "inputs", nargs="*", metavar="INPUT", help="WARC/ARC file: local, file://, s3://, hdfs://"
    )
    warc.add_argument(
        "--paths",
        metavar="FILE",
        help="also every path listed in FILE, one per line (gzip allowed), e.g. Common Crawl's warc.paths.gz",
    )
    warc.add_argument(
        "--path-prefix",
        default="",
        metavar="PREFIX",
        help="prepended to each line of --paths, e.g. s3://commoncrawl/",
    )
    warc.add_argument("-o", "--output", required=True, help="output Parquet dataset (a directory), *.parquet")
    _warc_options(
        warc,
        reader="archive reader (as mojifix warc)",
        fallback="undeclared pages (as mojifix warc)",
        trust="declarations the bytes prove wrong are overruled with 'evidence' (as mojifix warc)",
    )
    warc.add_argument("--json", action="store_true", help="print the summary as JSON on stdout")
    _master(warc)
    warc.set_defaults(func=run_warc)

    convert = jobs.add_parser(
        "convert",
        parents=[_convert_parser()],
        conflict_handler="resolve",
        help="write a verified UTF-8 mirror of SRC into DST with Spark tasks",
        description="`mojifix convert SRC DST` with the files examined and written by Spark tasks. DST must "
        "be a POSIX file system every executor sees at the same path (local, NFS, a FUSE mount).",
    )
    _master(convert)
    convert.set_defaults(func=run_convert)
    spark.set_defaults(func=lambda _args: _usage("mojifix spark needs a job: warc or convert"))


def _master(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--master",
        metavar="URL",
        help=f"Spark master (default {DEFAULT_MASTER}, or spark-submit's --master), e.g. local[2], yarn",
    )


def _warc_options(parser: argparse.ArgumentParser, **helps: str) -> None:
    """``mojifix warc``'s options named in ``helps`` (their flags, choices and defaults), with this help."""
    from mojifix.integrations import cli as warc_cli

    commands = argparse.ArgumentParser(add_help=False).add_subparsers()
    warc_cli.register(commands)
    local = {action.dest: action for action in commands.choices["warc"]._actions}
    for dest, text in helps.items():
        action = local[dest]
        parser.add_argument(*action.option_strings, choices=action.choices, default=action.default, help=text)


def _convert_parser() -> argparse.ArgumentParser:
    """``mojifix convert``'s own parser, so both commands take exactly the same convert options."""
    from mojifix.convert import cli as convert_cli

    commands = argparse.ArgumentParser(add_help=False).add_subparsers()
    convert_cli.register(commands)
    parser: argparse.ArgumentParser = commands.choices["convert"]
    for action in parser._actions:
        if action.dest in _NOT_ON_SPARK:
            action.help = argparse.SUPPRESS
    return parser


def run_warc(args: argparse.Namespace) -> int:
    from mojifix.spark.warc import local_path

    if not args.output.lower().rstrip("/").endswith(".parquet"):
        return _usage(f"spark warc writes a Parquet dataset: -o must end in .parquet, not {args.output!r}")
    inputs = list(args.inputs)
    if args.paths:
        if not os.path.isfile(args.paths):
            return _usage(f"no such file: {args.paths}")
        inputs.extend(read_path_list(args.paths, args.path_prefix))
    if not inputs:
        return _usage("spark warc needs INPUT files or --paths FILE")
    missing = [p for p in inputs if (local := local_path(p)) is not None and not os.path.isfile(local)]
    if missing:
        return _usage(f"no such file: {', '.join(missing)}")
    try:
        require_spark()
    except MissingExtraError as exc:
        return _usage(str(exc))
    from mojifix.integrations.cli import report_run
    from mojifix.spark.warc import decode_warc, warc_summary, write_warc_dataset

    started = time.perf_counter()
    session = open_session(args.master, "mojifix spark warc")
    try:
        if local_path(args.output) is not None:  # a shared file system: each task writes its part itself
            summary = write_warc_dataset(
                session.spark,
                inputs,
                local_path(args.output) or "",
                fallback=args.fallback,
                reader=args.reader,
                trust=args.trust,
            )
        else:  # object storage, HDFS: Spark's own writer
            counts = warc_summary(session.spark)
            rows = decode_warc(
                session.spark,
                inputs,
                fallback=args.fallback,
                reader=args.reader,
                summary=counts,
                trust=args.trust,
            )
            rows.write.mode("overwrite").parquet(args.output)
            summary = counts.result()
    except ValueError as exc:
        return _usage(str(exc))
    finally:
        session.close()
    elapsed = time.perf_counter() - started
    return report_run(summary, summary.decoded, Path(args.output), elapsed, as_json=args.json)


def read_path_list(listing: str, prefix: str = "") -> list[str]:
    """The paths of a listing file (one per line, blank lines ignored; ``.gz`` is decompressed)."""
    opener = gzip.open if listing.endswith(".gz") else open
    with opener(listing, "rt", encoding="utf-8") as f:
        return [prefix + line.strip() for line in f if line.strip()]


def run_convert(args: argparse.Namespace) -> int:
    for dest, message in _NOT_ON_SPARK.items():
        if getattr(args, dest) not in (None, False, 1):
            return _usage(message)
    if not args.dst:
        return _usage("spark convert needs SRC and DST")
    try:
        require_spark()
    except MissingExtraError as exc:
        return _usage(str(exc))
    from mojifix.convert.cli import _options, print_fatal, print_result
    from mojifix.spark.convert import convert_tree

    options = _options(args)  # convert's mapping of its common options (prefer, include, exclude, ...)
    del options["workers"]
    # convert's options that are Options fields of the same name, then the two that are spelt otherwise
    options.update({name: getattr(args, name) for name in _SAME_NAME_OPTIONS})
    options.update(fsync=not args.no_fsync, names_encoding=args.convert_names)
    session = open_session(args.master, "mojifix spark convert")
    try:
        report = convert_tree(session.spark, args.src, args.dst, **options)
    except LookupError as exc:
        return _usage(f"{exc}: --prefer/--convert-names take an encoding label such as big5, gbk")
    finally:
        session.close()
    print_fatal(report)
    print_result(report, report.summary(), as_json=args.json)
    return report.exit_code
