"""``mojifix scan --check [--expect ENC] PATH...``: is every text file UTF-8 (or ENC)? For CI and pre-commit.

One line per offending file, ``PATH:LINE:COLUMN: what is wrong`` (the form compilers use, so editors and CI
annotations can jump there), and exit 1 when there is any. What passes and what is ignored:

- empty and pure-ASCII files pass (ASCII is valid in UTF-8 and in every ASCII-compatible encoding);
- binary files are ignored: valid UTF-8 without NUL bytes is text, anything else is judged by the
  detector's binary verdict (signatures, control bytes), so UTF-16 text without a BOM is *not* ignored;
- a UTF-8 byte order mark is reported (it breaks shebang lines, concatenation and many parsers);
- with ``--expect ENC`` a file passes when it decodes strictly with ENC and is not UTF-8 in disguise
  (valid UTF-8 with non-ASCII characters). For a single-byte ENC nearly every byte sequence decodes, so
  only bytes that ENC leaves undefined and UTF-8 files can be caught: that is a limit of the question.

Directories are walked recursively (symlinks not followed, ``.git``/``.hg``/``.svn`` skipped); the
pre-commit framework passes file names, which are checked as given.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field

from mojifix.convert.walk import display_path, matches, walk

__all__ = ["CheckReport", "Offender", "check_bytes", "check_paths", "run_check"]

#: version-control directories never descended into (their files are not the repository's text)
VCS_DIRS = frozenset({b".git", b".hg", b".svn"})


@dataclass(frozen=True, slots=True)
class Offender:
    """A text file that is not in the expected encoding: where, and what it looks like instead."""

    path: str
    problem: str
    line: int = 1
    column: int = 1
    offset: int | None = None
    detected: str | None = None  # the detector's best guess, when it has one

    def __str__(self) -> str:
        looks = f"; looks like {self.detected}" if self.detected else ""
        return f"{self.path}:{self.line}:{self.column}: {self.problem}{looks}"


@dataclass(slots=True)
class CheckReport:
    """Counts of one check run and its offenders (``exit_code`` 1 when there is any, 2 on read errors)."""

    expect: str
    checked: int = 0
    passed: int = 0
    ignored_binary: int = 0
    offenders: list[Offender] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if self.errors:
            return 2
        return 1 if self.offenders else 0

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["exit_code"] = self.exit_code
        return d


def _plain(name: str) -> str:
    """``utf-32-le`` and ``UTF-32LE`` alike (names of BOM encodings differ in case and hyphens)."""
    return name.replace("-", "").replace("_", "").upper()


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based (line, column in bytes) of byte ``offset``."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1


def _detected(data: bytes) -> tuple[str | None, bool]:
    """(the detector's "encoding confidence" guess, or None; True when it calls the bytes binary)."""
    from mojifix.detect import detect

    result = detect(data)
    if result.verdict == "binary":
        return None, True
    best = result.best()
    if best is None:
        return None, False
    flag = ", ambiguous" if result.ambiguous else ""
    return f"{best.encoding} ({best.confidence:.2f}{flag})", False


def check_bytes(path: str, data: bytes, expect: str = "UTF-8") -> Offender | bool | None:
    """Judge one file's bytes: an :class:`Offender`, ``None`` when it passes, ``False`` when it is binary.

    ``expect`` is an encoding name as :func:`mojifix.detect.encodings.canonical_name` returns it.
    """
    if not data or (data.isascii() and b"\x00" not in data):
        return None
    from mojifix.detect.bom import sniff_bom  # here: the detect package loads NumPy; ASCII never needs it

    bom = sniff_bom(data, "file")  # file domain: UTF-32 BOMs too (FF FE 00 00 is not UTF-16LE's)
    if bom is not None and bom[0] == "UTF-8":
        if expect == "UTF-8":
            return Offender(path, "UTF-8 byte order mark (remove the first 3 bytes)", offset=0)
        return Offender(path, f"UTF-8 (with a byte order mark), not {expect}", offset=0)
    if bom is not None:
        if _plain(expect) == _plain(bom[0]):
            return None
        return Offender(path, f"{bom[0]} (byte order mark), not {expect}", offset=0)
    utf8_error: UnicodeDecodeError | None = None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        utf8_error = exc
    if utf8_error is None and b"\x00" not in data:
        if expect == "UTF-8":
            return None
        return Offender(path, f"UTF-8 text, not {expect}")
    detected, binary = _detected(data)
    if binary:
        return False
    if expect == "UTF-8":
        if utf8_error is None:  # valid UTF-8 with NUL bytes that is not binary: UTF-16/32 text
            return Offender(path, "not UTF-8 (NUL bytes in text)", detected=detected)
        line, column = _position(data, utf8_error.start)
        byte = data[utf8_error.start]
        return Offender(
            path,
            f"not UTF-8: invalid byte 0x{byte:02x} at offset {utf8_error.start}",
            line,
            column,
            utf8_error.start,
            detected,
        )
    from mojifix.textcodec import decode_as

    try:
        decode_as(data, expect)
    except UnicodeDecodeError as exc:
        line, column = _position(data, exc.start)
        return Offender(
            path, f"not {expect}: invalid bytes at offset {exc.start}", line, column, exc.start, detected
        )
    return None


def _files(
    paths: Iterable[str], include: tuple[str, ...], exclude: tuple[str, ...]
) -> Iterator[tuple[str, str]]:
    """(display path, file system path) of every regular file to check, or ("", message) for an error."""
    for given in paths:
        if os.path.isdir(given) and not os.path.islink(given):
            root = os.fsencode(given)
            for entry in walk(root, skip=VCS_DIRS):
                rel, _hex = display_path(entry.rel)
                if entry.kind == "error":
                    yield "", f"{os.path.join(given, rel)}: {entry.detail}"
                    continue
                if entry.kind != "file" or any(part in VCS_DIRS for part in entry.rel.split(b"/")):
                    continue
                if (include and not matches(rel, include)) or (exclude and matches(rel, exclude)):
                    continue
                yield os.path.normpath(os.path.join(given, rel)), os.fsdecode(os.path.join(root, entry.rel))
        elif os.path.isfile(given):
            yield given, given
        elif os.path.lexists(given):
            continue  # a symlink or special file named on the command line: not a text file to judge
        else:
            yield "", f"{given}: no such file or directory"


def check_paths(
    paths: Iterable[str],
    expect: str = "UTF-8",
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
) -> CheckReport:
    """Check every file of ``paths`` (files or directories); see the module docstring for the rules."""
    report = CheckReport(expect=expect)
    for shown, path in _files(paths, include, exclude):
        if not shown:
            report.errors.append(path)
            continue
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            report.errors.append(f"{shown}: cannot read: {exc.strerror or exc}")
            continue
        report.checked += 1
        verdict = check_bytes(shown, data, expect)
        if verdict is False:
            report.ignored_binary += 1
        elif verdict is None:
            report.passed += 1
        else:
            assert isinstance(verdict, Offender)
            report.offenders.append(verdict)
    return report


def run_check(args: argparse.Namespace) -> int:
    """``mojifix scan --check``: offenders on standard output, one line each; counts on standard error."""
    from mojifix.detect.encodings import canonical_name

    expect = canonical_name(args.expect) if args.expect else "UTF-8"
    report = check_paths([args.src, *args.more], expect, tuple(args.include), tuple(args.exclude))
    if args.json:
        sys.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False, indent=1) + "\n")
    else:
        for offender in report.offenders:
            print(offender)
    for message in report.errors:
        print(f"mojifix: error: {message}", file=sys.stderr)
    if not args.json:
        text_files = report.checked - report.ignored_binary
        binary = f"{report.ignored_binary} binary file{'' if report.ignored_binary == 1 else 's'} ignored"
        print(
            f"mojifix scan --check: {len(report.offenders)} of {text_files} text files not {expect}"
            f" ({binary})",
            file=sys.stderr,
        )
    return report.exit_code
