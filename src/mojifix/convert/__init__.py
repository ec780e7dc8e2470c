"""``mojifix convert`` / ``mojifix scan``: lossless conversion of legacy file trees to UTF-8.

Guess (the detector, over every byte), verify (strict decode, no U+FFFD, re-encode == source bytes),
admit (what cannot be proven is quarantined with the reason, never written as if it were right).
See docs/convert.md.

    >>> report = convert("legacy/", "utf8/")          # doctest: +SKIP
    >>> report.summary()["lossless"], report.exit_code  # doctest: +SKIP
"""

from __future__ import annotations

import os
from typing import Any

from mojifix._callable import make_module_callable
from mojifix.convert.decisions import load_decisions
from mojifix.convert.engine import Job, Progress, run_convert, run_scan
from mojifix.convert.options import Options
from mojifix.convert.records import FileRecord, Report, ScanReport, Split
from mojifix.convert.verify import normalise_prefer

__all__ = ["FileRecord", "Options", "Report", "ScanReport", "Split", "convert", "scan"]


def _options(options: dict[str, Any]) -> Options:
    for key in ("prefer", "include", "exclude"):
        value = options.get(key)
        if isinstance(value, str):
            options[key] = (value,)
        elif value is not None:
            options[key] = tuple(value)
    if options.get("names_encoding"):
        options["names_encoding"] = normalise_prefer((options["names_encoding"],))[0]
    if options.get("prefer"):
        options["prefer"] = normalise_prefer(options["prefer"])
    if isinstance(options.get("decisions"), (str, bytes, os.PathLike)):
        options["decisions"] = load_decisions(options["decisions"])
    if options.get("decisions") is not None:
        options["resume"] = True  # decisions settle files of an earlier run into the same DST
    return Options(**options)


def convert(
    src: str | os.PathLike[str] | bytes,
    dst: str | os.PathLike[str] | bytes | None = None,
    *,
    progress: Progress | None = None,
    **options: Any,
) -> Report:
    """Write a verified UTF-8 mirror of ``src`` into ``dst`` (``src`` is never modified).

    With ``in_place=True, backup_dir=DIR`` (and ``dst=None``) files are rewritten in place after their
    original bytes are saved under DIR. ``options`` are the fields of :class:`Options`.
    ``progress(record)`` is called once per file, in order of commit, from one thread that is not
    necessarily the caller's (a one-worker run commits and reports in a background thread).
    Raises UnsafePathError for DST inside SRC (or SRC inside DST), ConversionError for unusable paths.
    """
    opts = _options(options)
    if opts.in_place:
        if dst is not None:
            raise ValueError("in-place conversion takes no DST (use backup_dir)")
        job = Job(os.fsencode(src), None, opts, "in-place")
    else:
        if dst is None:
            raise ValueError("convert needs DST (or in_place=True with backup_dir)")
        job = Job(os.fsencode(src), os.fsencode(dst), opts, "convert")
    return run_convert(job, progress)


def scan(
    src: str | os.PathLike[str] | bytes, *, progress: Progress | None = None, **options: Any
) -> ScanReport:
    """Inventory ``src`` (a tree or one file): per-file encoding, confidence, BOM, line endings, verdict."""
    return run_scan(os.fsencode(src), _options(options), progress)


make_module_callable(__name__, convert)
