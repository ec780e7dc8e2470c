"""The ``mojifix`` command line: ``main(argv) -> int``.

Each subcommand lives next to the code it drives and registers itself through a
``register(subparsers)`` function that sets ``func(args) -> int`` as the parser default.

Exit codes (documented in docs/cli.md):
  0    success, nothing to report
  1    the job ran, but something needs attention (quarantined files, ambiguous verdicts, replacement chars)
  2    usage error, unknown encoding label, missing optional package, or fatal I/O error (e.g. a full disk)
  130  interrupted (Ctrl-C)
  141  standard output closed early by its reader (``mojifix detect big | head``), as for a tool killed by
       SIGPIPE; nothing is printed

No error ends in a traceback: ``main`` maps each one to a one-line ``mojifix: error: ...`` that says what to
do next. A bug still shows its traceback (that is what a bug report needs).
"""

from __future__ import annotations

import argparse
import errno
import gc
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from importlib import import_module
from importlib.util import find_spec
from types import FrameType
from typing import Any

from mojifix import __version__
from mojifix.errors import MojifixError

EXIT_OK = 0
EXIT_ATTENTION = 1
EXIT_USAGE = 2
#: 128 + SIGINT, what a shell reports for a program stopped by Ctrl-C
EXIT_INTERRUPTED = 130
#: 128 + SIGPIPE, what a shell reports for a program whose reader went away (``| head``)
EXIT_BROKEN_PIPE = 141

#: optional top-level module -> the extra of ``pyproject.toml`` that installs it
EXTRA_OF: dict[str, str] = {
    "fastwarc": "warc",
    "warcio": "warc",
    "pyarrow": "warc",
    "rich": "progress",
    "requests": "requests",
    "httpx": "httpx",
    "scrapy": "scrapy",
    "pyspark": "spark",
    "pandas": "spark",
}


class MissingExtraError(MojifixError, ImportError):
    """An optional package a command needs is not installed; the message names the extra to install."""

    def __init__(self, feature: str, module: str) -> None:
        extra = EXTRA_OF.get(module)
        hint = f"pip install 'mojifix[{extra}]'" if extra else f"pip install {module}"
        super().__init__(f"{feature} needs the optional package {module!r}: {hint}")
        self.module = module
        self.extra = extra


def require_extra(feature: str, *modules: str) -> None:
    """Raise :class:`MissingExtraError` for the first of ``modules`` that is not installed.

    Commands call this before they start writing, so a missing extra fails fast and leaves nothing behind.
    """
    for module in modules:
        if find_spec(module) is None:
            raise MissingExtraError(feature, module)


def read_input(name: str) -> bytes:
    """The bytes of file ``name``, or of standard input for ``-`` (the subcommands' FILE argument)."""
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as f:
        return f.read()


# ---- plain-text fallback for the summary tables (rich is the optional ``progress`` extra) ------------


class PlainTable:
    """The part of ``rich.table.Table`` the summary tables use, rendered as aligned plain text.

    ``rich`` is optional (docs/architecture.md, "Dependencies of the CLI"): without it the same rows are
    printed as columns separated by two spaces, a form ``grep``/``awk`` also read well.
    """

    def __init__(self, title: str | None = None, show_header: bool = True, **_style: Any) -> None:
        self.title = title
        self.show_header = show_header
        self.headers: list[str] = []
        self.right: list[bool] = []
        self.rows: list[tuple[str, ...]] = []

    def add_column(self, header: str = "", justify: str = "left", **_style: Any) -> None:
        self.headers.append(header)
        self.right.append(justify == "right")

    def add_row(self, *cells: str) -> None:
        self.rows.append(tuple(str(c) for c in cells))

    def __str__(self) -> str:
        rows = ([tuple(self.headers)] if self.show_header else []) + self.rows
        widths = [max((len(r[i]) for r in rows if i < len(r)), default=0) for i in range(len(self.headers))]
        lines = [self.title] if self.title else []
        for row in rows:
            cells = [
                cell.rjust(widths[i]) if self.right[i] else cell.ljust(widths[i])
                for i, cell in enumerate(row)
            ]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)


class PlainConsole:
    """The part of ``rich.console.Console`` the subcommands use: ``print`` to stdout or stderr."""

    def __init__(self, stderr: bool = False, **_style: Any) -> None:
        self.stderr = stderr

    def print(self, *objects: Any, **_style: Any) -> None:
        print(*objects, file=sys.stderr if self.stderr else sys.stdout)


def has_rich() -> bool:
    """True when ``rich`` (the ``progress`` extra) is installed: tables are drawn, progress bars shown."""
    return find_spec("rich") is not None


def console(stderr: bool = False) -> Any:
    """A ``rich`` console when rich is installed, else a :class:`PlainConsole` (same ``print``)."""
    if has_rich():
        from rich.console import Console

        return Console(stderr=stderr, highlight=False)
    return PlainConsole(stderr=stderr)


def table_class() -> type:
    """``rich.table.Table`` when rich is installed, else :class:`PlainTable` (same constructor, methods)."""
    if has_rich():
        from rich.table import Table

        return Table
    return PlainTable


# ---- the parser ---------------------------------------------------------------------------------------

#: subcommand modules, each with register(subparsers); order is the order in --help.
COMMANDS: list[str] = [
    "mojifix.whatwg.cli",
    "mojifix.integrations.cli",
    "mojifix.sniff.cli",
    "mojifix.convert.cli",
    "mojifix.repair.cli",
    "mojifix.detect.cli",
    "mojifix.review.cli",
    "mojifix.spark.cli",
]

#: the subcommand names each module registers. Importing a subcommand's module imports its package
#: (the detector and NumPy for `detect`, the engine for `convert`...), so a call names its command and
#: only that module is imported; --help and unknown commands import them all.
#: tests/test_cli.py checks this table against what the modules register.
COMMAND_NAMES: dict[str, str] = {
    "decode": "mojifix.whatwg.cli",
    "warc": "mojifix.integrations.cli",
    "sniff": "mojifix.sniff.cli",
    "scan": "mojifix.convert.cli",
    "convert": "mojifix.convert.cli",
    "repair": "mojifix.repair.cli",
    "detect": "mojifix.detect.cli",
    "review": "mojifix.review.cli",
    "spark": "mojifix.spark.cli",
}


def version_text() -> str:
    """What ``mojifix --version`` prints: the version, and whether the compiled core is active."""
    from mojifix import _native

    python = ".".join(str(n) for n in sys.version_info[:3])
    return f"mojifix {__version__} (Python {python})\n{_native.status()}"


class _VersionAction(argparse.Action):
    """``--version``: print :func:`version_text` as is (argparse's own action re-wraps the lines)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any, **_kwargs: Any) -> None:
        print(version_text())
        parser.exit(EXIT_OK)


def _command_of(argv: list[str] | None) -> str | None:
    """The subcommand ``argv`` names (its first word when that is a command), else None."""
    words = sys.argv[1:] if argv is None else argv
    return words[0] if words and words[0] in COMMAND_NAMES else None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``command``, only that subcommand's module is imported and registered."""
    parser = argparse.ArgumentParser(
        prog="mojifix",
        description="Decode bytes of unknown or mislabeled encoding the way a browser would, "
        "detect encodings, convert legacy file trees to UTF-8 losslessly, and repair mojibake.",
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="show the version and whether the compiled core is active"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in [COMMAND_NAMES[command]] if command is not None else COMMANDS:
        import_module(module).register(sub)
    return parser


# ---- errors -> one line and an exit code --------------------------------------------------------------


def _error(message: str, code: int = EXIT_USAGE) -> int:
    print(f"mojifix: error: {message}", file=sys.stderr)
    return code


def os_error_message(exc: OSError) -> str:
    """``path: reason`` for an OSError, with what to do next for a full disk."""
    reason = exc.strerror or str(exc)
    message = f"{os.fsdecode(exc.filename)}: {reason}" if exc.filename is not None else reason
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        message += " (free some space and run the command again; convert can continue with --resume)"
    return message


def _missing_module_message(exc: ModuleNotFoundError) -> str:
    module = (exc.name or "").partition(".")[0]
    if module in EXTRA_OF:
        return str(MissingExtraError("this command", module))
    return (
        f"the package {module or exc.name!r}, which mojifix needs, is not installed or is broken "
        "(reinstall: pip install --force-reinstall mojifix)"
    )


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null so the interpreter's final flush cannot fail again.

    After a broken pipe or a full device, Python would otherwise retry the flush at exit and print
    "Exception ignored ..." (see the note on SIGPIPE in the ``signal`` module's documentation).
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real stdout (captured in tests): nothing will flush to fd 1
        pass


@contextmanager
def _interrupts_end_quietly() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt here and ends forked workers (``convert --workers``) quietly.

    Worker processes get the same SIGINT from the terminal; with Python's default handler each would
    print its own KeyboardInterrupt traceback. Here a worker exits with SystemExit instead (its
    ``finally``/``except BaseException`` clean-ups still run; multiprocessing prints nothing for it).
    """
    main_pid = os.getpid()

    def handler(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != main_pid:
            raise SystemExit(EXIT_INTERRUPTED)
        raise KeyboardInterrupt

    try:
        previous: Callable[..., Any] | int | None = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread (main() called from a thread): keep the default
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _run(argv: list[str] | None) -> int:
    parser = build_parser(_command_of(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    code = int(args.func(args))
    sys.stdout.flush()  # inside the handlers below: a broken pipe or full disk is reported, not ignored
    return code


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit code.

    Errors never escape as exceptions: each is one ``mojifix: error: ...`` line and a documented exit code.
    """
    try:
        with _interrupts_end_quietly():
            return _run(argv)
    except KeyboardInterrupt:
        print("mojifix: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except MojifixError as exc:
        return _error(str(exc))
    except ModuleNotFoundError as exc:
        return _error(_missing_module_message(exc))
    except OSError as exc:
        from mojifix.convert.fsio import FATAL_ERRNOS

        if exc.filename is None and exc.errno in FATAL_ERRNOS:
            _silence_stdout()  # standard output itself failed (a named file has a filename)
        return _error(os_error_message(exc))
    except UnicodeDecodeError as exc:  # input that a command reads as text (e.g. --content-type values)
        return _error(f"cannot decode input as {exc.encoding}: {exc.reason} at byte {exc.start}")


#: OpenBLAS threads NumPy may start (one per core, at import, each spinning for a while): mojifix never
#: calls BLAS (its NumPy work is gathers and sums, the detector says so in scoring.py), and on this
#: 2-core machine the pool cost every command ~50 ms of CPU and ~40 ms of wall time at start-up
#: (benchmarks/startup.py, `mojifix detect` on one file). Only the command line sets it, and only
#: when the user has not: library callers keep their own BLAS set-up.
BLAS_THREADS = "1"


def console_main() -> None:
    """The ``mojifix`` script: :func:`main` in a process of its own.

    When the command is done, the garbage it left is collected once (its finalizers run, as at shutdown)
    and the objects still alive are moved out of the collector's reach (``gc.freeze``) before the
    interpreter shuts down: shutdown frees them by their reference counts as before (files flush and
    close, ``atexit`` handlers run), but skips the collector's passes over all of them, which took 20-25 ms
    of every ``mojifix warc`` on benchmarks/warc.py's archives (the process ended 36-40 ms after ``main``
    returned, 13-15 ms with the collection and the freeze; measured on its web-like archive).
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", BLAS_THREADS)
    code = main()
    gc.collect()
    gc.freeze()
    sys.exit(code)
