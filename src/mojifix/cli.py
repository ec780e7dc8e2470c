"""The ``mojifix`` command line: ``main(argv) -> int``.

Each subcommand lives next to the code it drives and registers itself through a
``register(subparsers)`` function that sets ``func(args) -> int`` as the parser default.

Exit codes (documented in docs/cli.md):
  0  success, nothing to report
  1  the job ran, but something needs attention (quarantined files, ambiguous verdicts, replacement chars)
  2  usage error, unknown encoding label, or fatal I/O error
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from mojifix import __version__
from mojifix.errors import MojifixError

EXIT_OK = 0
EXIT_ATTENTION = 1
EXIT_USAGE = 2


def read_input(name: str) -> bytes:
    """The bytes of file ``name``, or of standard input for ``-`` (the subcommands' FILE argument)."""
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as f:
        return f.read()


#: subcommand modules, each with register(subparsers); order is the order in --help.
COMMANDS: list[str] = [
    "mojifix.whatwg.cli",
    "mojifix.integrations.cli",
    "mojifix.sniff.cli",
    "mojifix.convert.cli",
    "mojifix.repair.cli",
    "mojifix.detect.cli",
    "mojifix.spark.cli",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mojifix",
        description="Decode bytes of unknown or mislabeled encoding the way a browser would, "
        "detect encodings, convert legacy file trees to UTF-8 losslessly, and repair mojibake.",
    )
    parser.add_argument("--version", action="version", version=f"mojifix {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        import_module(module).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except MojifixError as exc:
        print(f"mojifix: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"mojifix: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("mojifix: interrupted", file=sys.stderr)
        return 130


def console_main() -> None:
    sys.exit(main())
