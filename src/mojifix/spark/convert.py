"""``convert_tree``: the ``mojifix convert`` job over a file tree, its files examined by Spark tasks.

The driver does what the local command does before and after the work: checks the paths
(:func:`mojifix.convert.engine.check_paths`), walks SRC in the same order, reads the manifest of a
previous run for ``--resume``. The walk's entries are cut into contiguous slices, one Spark task each;
a task runs the local one-worker loop (:func:`mojifix.convert.engine._run_serial`: the same decisions,
verification, quarantine and group-committed atomic writes) and writes its records as one manifest
part, atomically, named by its slice. The driver merges the parts by path into the manifest, in walk
order. A retried or speculative attempt rewrites the same outputs with the same bytes and the same
part under the same name, so no line is ever duplicated; a killed attempt's temporary files are
removed when the job ends. DST must be a POSIX file system that the driver and every executor see
at the same path (local disk in local mode, NFS, a FUSE mount of object storage).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mojifix.convert import _options, fsio
from mojifix.convert.engine import (
    Job,
    _key,
    _manifest_path,
    _run_serial,
    _tree_prior_pass,
    check_paths,
    discard_settled,
    manifest_records,
    read_manifest,
)
from mojifix.convert.records import FileRecord, Report
from mojifix.convert.walk import Entry, walk
from mojifix.errors import ConversionError

__all__ = ["PARTS_DIR", "convert_tree", "manifest_frame", "plan_slices"]

#: DST/<this>/ holds the tasks' manifest parts until the driver has merged them (and, after a killed
#: driver, for --resume); removed once the manifest is written.
PARTS_DIR = "_mojifix-spark-parts"
#: a slice (one task) holds at most this many bytes of files: large enough that Spark's per-task cost
#: (tens of milliseconds: scheduling, shipping the slice, a Python worker round trip) stays below 1% of
#: the work at the local command's ~30-60 MB/s on the benchmark's generated tree, small enough that a
#: retried task repeats little
SLICE_BYTES = 64 << 20
#: ...or this many files, for the same reason on trees of small files (~0.3 ms a file locally)
SLICE_FILES = 4096
#: at least this many slices per core Spark offers (when there are files enough), so that the last
#: tasks of a run on uneven trees do not leave cores idle
SLICES_PER_CORE = 4

Item = tuple[int, Entry, FileRecord | None]


@dataclass(frozen=True, slots=True)
class _TaskResult:
    """What one task tells the driver besides its part: counts, and the fatal error that stopped it."""

    slice_index: int
    records: int
    resumed: int
    fatal: str | None
    lines: tuple[bytes, ...] = ()  # the records themselves, in a dry run only (which writes no part)


def plan_slices(entries: list[Entry], cores: int) -> list[range]:
    """Contiguous index ranges of ``entries``, one per task, balanced by bytes and files."""
    if not entries:
        return []
    total = sum(e.size for e in entries)
    wanted = max(
        -(-total // SLICE_BYTES), -(-len(entries) // SLICE_FILES), min(len(entries), cores * SLICES_PER_CORE)
    )
    # weight = bytes plus a per-file share, so slices of many small files are not as long as slices
    # of a few large ones
    per_file = max(1, total // len(entries))
    target = (total + per_file * len(entries)) / wanted
    slices: list[range] = []
    start, weight = 0, 0
    for i, entry in enumerate(entries):
        weight += entry.size + per_file
        if weight >= target and len(slices) < wanted - 1:
            slices.append(range(start, i + 1))
            start, weight = i + 1, 0
    if start < len(entries):
        slices.append(range(start, len(entries)))
    return slices


def _part_name(slice_index: int) -> bytes:
    return b"part-%06d.jsonl" % slice_index


def _convert_slice(job: Job, parts: bytes | None, slice_index: int, items: list[Item]) -> _TaskResult:
    """Run the local one-worker loop over one slice and write its manifest part (on an executor)."""
    lines: list[bytes] = []
    resumed = 0

    def sink(_i: int, rec: FileRecord, was_resumed: bool) -> None:
        nonlocal resumed
        lines.append(rec.to_json().encode() + b"\n")
        resumed += was_resumed

    fatal = _run_serial(job, items, sink)
    if parts is None:
        return _TaskResult(slice_index, len(lines), resumed, fatal, tuple(lines))
    fsio.atomic_write(os.path.join(parts, _part_name(slice_index)), b"".join(lines), None, job.opts.fsync)
    return _TaskResult(slice_index, len(lines), resumed, fatal)


def _read_parts(parts: bytes) -> dict[str, FileRecord]:
    """Every record of the parts under ``parts``, by path (a later part wins, as a later manifest line)."""
    out: dict[str, FileRecord] = {}
    if not os.path.isdir(parts):
        return out
    for name in sorted(os.listdir(parts)):
        if name.startswith(b"part-") and name.endswith(b".jsonl"):
            out.update(read_manifest(os.path.join(parts, name)))
    return out


def _lines(entries: list[Entry], records: dict[str, FileRecord]) -> Iterator[bytes]:
    for entry in entries:
        rec = records.get(_key(entry))
        if rec is not None:
            yield rec.to_json().encode() + b"\n"


def convert_tree(
    spark: Any, src: str | os.PathLike[str], dst: str | os.PathLike[str], **options: Any
) -> Report:
    """``mojifix.convert(src, dst, **options)`` with the files examined and written by Spark tasks.

    Same :class:`~mojifix.convert.Report`, same outputs, quarantine and manifest lines (in walk order,
    in ``DST/mojifix-manifest.jsonl`` unless ``manifest=`` says otherwise). ``in_place`` is not
    offered (a cluster job should not rewrite its only copy of the data); ``workers`` is Spark's
    business and must stay 1.
    """
    opts = _options(dict(options))
    if opts.in_place:
        raise ConversionError("in-place conversion is not offered on Spark: convert into a new DST")
    if opts.workers != 1:
        raise ConversionError("workers: Spark decides the parallelism (cores, executors); leave it at 1")
    job = Job(os.fsencode(src), os.fsencode(dst), opts, "convert")
    return run_tree(spark, job)


def run_tree(spark: Any, job: Job) -> Report:
    """The driver's side of :func:`convert_tree` (see the module docstring)."""
    t0 = time.perf_counter()
    check_paths(job)
    opts = job.opts
    assert job.dst is not None
    if os.path.lexists(os.path.join(job.src, PARTS_DIR.encode())):
        raise ConversionError(
            f"SRC has a top-level {PARTS_DIR!r} entry, which would collide with DST/{PARTS_DIR}: "
            "convert its parent directories separately"
        )
    manifest = None if opts.dry_run else _manifest_path(job)
    parts = None if opts.dry_run else os.path.join(job.dst, PARTS_DIR.encode())
    entries = list(walk(job.src))
    previous: dict[str, FileRecord] = {}
    if parts is not None:
        fsio.remove_stale_temps(job.dst)
        if opts.resume:
            assert manifest is not None
            previous = read_manifest(manifest)
            previous.update(_read_parts(parts))  # a killed driver's tasks may have finished more
            # fold them into the manifest before this run's parts (new slice numbers) replace them
            fsio.atomic_write(manifest, b"".join(_lines(entries, previous)), None, opts.fsync)
        if os.path.isdir(parts):
            shutil.rmtree(parts)
        os.makedirs(parts)
    items: list[Item] = [(i, e, previous.get(_key(e))) for i, e in enumerate(entries)]
    slices = plan_slices(entries, spark.sparkContext.defaultParallelism)
    # executors resolve paths on their own: give them absolute ones (a relative DST means the driver's)
    task_job = Job(os.path.abspath(job.src), os.path.abspath(job.dst), opts, job.mode)
    task_parts = os.path.abspath(parts) if parts is not None else None
    tasks = spark.sparkContext.parallelize([items[s.start : s.stop] for s in slices], max(1, len(slices)))
    results: list[_TaskResult] = tasks.mapPartitionsWithIndex(
        lambda index, chunk: [_convert_slice(task_job, task_parts, index, [it for c in chunk for it in c])]
    ).collect()
    results.sort(key=lambda r: r.slice_index)
    fatal = next((r.fatal for r in results if r.fatal), None)
    resumed = sum(r.resumed for r in results)
    if parts is not None:
        fsio.remove_stale_temps(job.dst)  # temporaries of attempts that were killed mid-batch
        done = _read_parts(parts)
    else:
        done = manifest_records(line for r in results for line in r.lines)
    records = [done[_key(e)] for e in entries if _key(e) in done]
    if fatal is None and len(records) != len(entries):
        missing = len(entries) - len(records)
        raise ConversionError(f"{missing} files have no manifest line after the Spark job (parts lost?)")
    if fatal is None:  # the tree prior's second pass, in the driver, as a local run does it at the end

        def settle(i: int, rec: FileRecord) -> None:
            records[i] = done[_key(entries[i])] = rec
            discard_settled(job, rec)

        fatal = _tree_prior_pass(job, entries, list(records), settle)
    if parts is not None:
        assert manifest is not None
        fsio.atomic_write(manifest, b"".join(_lines(entries, done)), None, opts.fsync)
        shutil.rmtree(parts)
    return Report(
        tuple(records),
        time.perf_counter() - t0,
        os.fsdecode(manifest) if manifest else None,
        dry_run=opts.dry_run,
        resumed=resumed,
        fatal=fatal,
    )


def manifest_frame(spark: Any, manifest: str | os.PathLike[str]) -> Any:
    """A DataFrame of a manifest's records (one row per file), read by Spark from the shared file system."""
    return spark.read.json(os.fspath(manifest))
