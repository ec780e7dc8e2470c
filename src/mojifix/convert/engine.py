"""The run: walk SRC, examine every file (in this process or in worker processes), write, record.

One read per file, one SHA-1 per file (plus one of the output when it differs), no subprocess per
file: workers are long-lived processes that receive batches of paths and write their own outputs,
so file contents never cross a process boundary. The parent owns the manifest: one JSONL line
appended (and flushed) as each file finishes, so a killed run leaves a usable manifest for
``--resume``; at the end the manifest is rewritten atomically with exactly one line per file.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from importlib import import_module
from typing import BinaryIO

from mojifix.convert import decisions, fsio, tree_prior
from mojifix.convert.codec import try_decode
from mojifix.convert.options import MANIFEST_NAME, QUARANTINE_DIR, Options
from mojifix.convert.records import FileRecord, Report, ScanReport
from mojifix.convert.stream import examine_stream
from mojifix.convert.verify import Verdict, examine
from mojifix.convert.walk import Entry, display_path, matches, walk
from mojifix.detect.result import Detection
from mojifix.errors import ConversionError, UnsafePathError

__all__ = ["FatalIOError", "Job", "ManifestWriteError", "run_convert", "run_scan"]

DetectFn = Callable[..., Detection]
Progress = Callable[[FileRecord], None]

#: files per task sent to a worker: amortises inter-process overhead (a few hundred microseconds per
#: task) over many small files while keeping the load balanced near the end of a run
BATCH_FILES = 64
#: ...or fewer files when they are large (bytes per task)
BATCH_BYTES = 8 * 1024 * 1024
#: tasks in flight per worker: enough to keep workers busy, bounded so memory stays bounded
INFLIGHT_PER_WORKER = 4
_Q = QUARANTINE_DIR.encode()
#: what the parent detects before starting workers: short legacy text (windows-1252), so that the
#: detector's first call, which loads the model, happens once
_WARM_UP = "Les élèves ont étudié l’œuvre de Molière.\n".encode("cp1252")


class FatalIOError(ConversionError):
    """Disk full, read-only destination, I/O error: the run stops (exit code 2)."""


class ManifestWriteError(FatalIOError):
    """The manifest could not be written (disk full...): what the run did is in ``report``, the outputs
    written so far stay, and the manifest's lines so far stay for ``--resume``. The message is the
    one the CLI prints for the same error (path, reason, what to do next)."""

    def __init__(self, cause: OSError, path: bytes, report: Report) -> None:
        from mojifix.cli import os_error_message

        if cause.filename is None:  # a failed flush does not say which file
            cause = OSError(cause.errno, cause.strerror, os.fsdecode(path))
        super().__init__(os_error_message(cause))
        self.report = report


@dataclass(frozen=True, slots=True)
class Job:
    """Where a run reads and writes; ``mode`` is "convert", "in-place" or "scan"."""

    src: bytes
    dst: bytes | None
    opts: Options
    mode: str = "convert"

    @property
    def out_root(self) -> bytes | None:
        """Root of the converted mirror (SRC itself in place)."""
        return self.src if self.mode == "in-place" else self.dst

    @property
    def side_root(self) -> bytes | None:
        """Root holding _quarantine/, backups and the manifest."""
        if self.mode == "in-place":
            assert self.opts.backup_dir is not None
            return os.fsencode(self.opts.backup_dir)
        return self.dst


def load_detector(spec: str) -> DetectFn:
    """ "module:function" -> the function."""
    module, _, name = spec.partition(":")
    return getattr(import_module(module), name or "detect")


# ---------------------------------------------------------------------------------------------- per file


def _sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def _join(root: bytes, rel: bytes) -> bytes:
    return os.path.join(root, rel)


def _record(entry: Entry, outcome: str, **kw: object) -> FileRecord:
    path, path_hex = display_path(entry.rel)
    warnings = tuple(kw.pop("warnings", ()))  # type: ignore[arg-type]
    if path_hex is not None:
        warnings = ("file name is not valid UTF-8 (kept as is)", *warnings)
    return FileRecord(path=path, outcome=outcome, path_hex=path_hex, warnings=warnings, **kw)  # type: ignore[arg-type]


def _write_quarantine(
    job: Job,
    entry: Entry,
    data: bytes | None,
    fd: int | None,
    st: os.stat_result,
    v: Verdict,
    sha1: str,
    group: fsio.CommitGroup | None = None,
) -> tuple[str, str | None]:
    """Copy the original bytes under _quarantine/ with a reason file; returns (output, salvaged) names.

    The reason (and salvage) files are committed before the copy: the copy's presence is what
    ``--resume`` takes as "done".
    """
    side = job.side_root
    assert side is not None
    qrel = _Q + b"/" + entry.rel
    qpath = _join(side, qrel)
    fsync = job.opts.fsync
    reason = {
        "path": display_path(entry.rel)[0],
        "sha1": sha1,
        "reason": v.reason,
        "verification": v.verification,
        "encoding": v.encoding,
        "candidates": [{"encoding": e, "confidence": c} for e, c in v.candidates],
        "mixed": v.mixed.to_dict() if v.mixed else None,
    }
    body = json.dumps(reason, ensure_ascii=False, indent=1).encode()
    fsio.atomic_write(qpath + b".reason.json", body, None, fsync, group)
    salvaged = None
    if v.salvage is not None:
        fsio.atomic_write(qpath + b".salvaged", v.salvage, st, fsync, group)
        salvaged = display_path(qrel + b".salvaged")[0]
    if data is not None:
        fsio.atomic_write(qpath, data, st, fsync, group)
    else:
        assert fd is not None
        _copy_fd(job, fd, qpath, st, group)
    return display_path(qrel)[0], salvaged


def _copy_fd(
    job: Job, fd: int, path: bytes, st: os.stat_result, group: fsio.CommitGroup | None = None
) -> None:
    """Copy the whole file open at ``fd`` to ``path`` atomically, in chunks (bounded memory)."""
    with fsio.AtomicWriter(path, st, job.opts.fsync) as w:
        os.lseek(fd, 0, os.SEEK_SET)
        while chunk := os.read(fd, job.opts.chunk_size):
            w.write(chunk)
        w.commit(group)


def _mirror_binary(job: Job, v: Verdict) -> Verdict:
    """In mirror mode a regular file judged binary is copied unchanged (outcome ``copied``), so the
    mirror is complete; in place it is already where it belongs, and a scan writes nothing."""
    if job.mode != "convert" or not (v.binary and v.outcome == "skipped"):
        return v
    return replace(v, outcome="copied", reason="binary: copied unchanged")


def out_rel(job: Job, rel: bytes) -> bytes:
    """The output path of ``rel``: the same bytes, or with ``--convert-names ENC`` every name component
    that is not valid UTF-8 decoded strictly with ENC (a component that does not decode is kept)."""
    enc = job.opts.names_encoding
    if enc is None or job.mode != "convert":
        return rel
    try:
        rel.decode("utf-8")
        return rel
    except UnicodeDecodeError:
        pass
    parts = []
    for comp in rel.split(b"/"):
        text = try_decode(comp, enc)
        parts.append(
            text.encode("utf-8") if text is not None and "/" not in text and "\x00" not in text else comp
        )
    return b"/".join(parts)


def _write_output(
    job: Job,
    entry: Entry,
    data: bytes,
    output: bytes,
    st: os.stat_result,
    group: fsio.CommitGroup | None = None,
) -> str:
    """Write the UTF-8 output (mirror, or in place after backing up the original); returns its name."""
    out_root = job.out_root
    assert out_root is not None
    if job.mode == "in-place":
        if output == data:
            return display_path(entry.rel)[0]  # nothing to rewrite
        fsio.atomic_write(
            _join(job.side_root or b"", entry.rel), data, st, job.opts.fsync, group
        )  # backup first
    rel = out_rel(job, entry.rel)
    fsio.atomic_write(_join(out_root, rel), output, st, job.opts.fsync, group)
    return display_path(rel)[0]


def _from_verdict(entry: Entry, v: Verdict, size: int, sha1: str, **kw: object) -> FileRecord:
    warnings = (*v.warnings, *kw.pop("warnings", ()))  # type: ignore[misc]
    return _record(
        entry,
        v.outcome,
        size=size,
        sha1=sha1,
        encoding=v.encoding,
        confidence=v.confidence,
        decision=v.decision,
        verification=v.verification,
        reason=v.reason,
        warnings=warnings,
        candidates=v.candidates,
        bom=v.bom,
        line_endings=v.line_endings,
        binary=v.binary,
        ambiguous=v.ambiguous,
        mixed=v.mixed,
        declarations=v.declarations,
        **kw,
    )


def _process_stream(
    job: Job, entry: Entry, detect: DetectFn, write: bool, previous: FileRecord | None
) -> FileRecord:
    fd, st = fsio.open_source(_join(job.src, entry.rel))
    try:
        if previous is not None:  # --resume: one hashing pass decides whether the work is done
            sha = hashlib.sha1()
            while chunk := os.read(fd, job.opts.chunk_size):
                sha.update(chunk)
            if _resumable(job, entry, previous, sha.hexdigest()):
                return previous
        opener = None
        if write:
            if job.mode == "in-place":
                # back up the original first (streamed), then rewrite in place
                with fsio.AtomicWriter(_join(job.side_root or b"", entry.rel), st, job.opts.fsync) as w:
                    os.lseek(fd, 0, os.SEEK_SET)
                    while chunk := os.read(fd, job.opts.chunk_size):
                        w.write(chunk)
                    w.commit()
            out_root = job.out_root
            assert out_root is not None
            rel = out_rel(job, entry.rel)

            def opener() -> fsio.AtomicWriter:
                return fsio.AtomicWriter(_join(out_root, rel), st, job.opts.fsync)

        res = examine_stream(fd, job.opts, detect, opener)
        v = _mirror_binary(job, res.verdict)
        output = salvaged = None
        output_sha1 = res.output_sha1
        if res.written:
            output = display_path(out_rel(job, entry.rel))[0]
        elif v.outcome == "copied":
            output_sha1 = res.sha1
            if write:
                rel = out_rel(job, entry.rel)
                _copy_fd(job, fd, _join(job.out_root or b"", rel), st)
                output = display_path(rel)[0]
        elif write and v.outcome == "quarantined":
            output, salvaged = _write_quarantine(job, entry, None, fd, st, v, res.sha1)
        return _from_verdict(
            entry,
            v,
            st.st_size,
            res.sha1,
            output=output,
            output_sha1=output_sha1,
            salvaged=salvaged,
            warnings=("streamed (file larger than the in-memory limit)",),
        )
    finally:
        os.close(fd)


RESUMED = "resumed"


def process_entry(
    job: Job,
    entry: Entry,
    detect: DetectFn,
    previous: FileRecord | None = None,
    group: fsio.CommitGroup | None = None,
) -> FileRecord:
    """Examine one walked entry and write its outputs; raises FatalIOError when the run must stop.

    With ``--resume``, returns ``previous`` itself (the identical object) when the file is done already.
    """
    opts = job.opts
    if entry.kind == "symlink":
        return _record(entry, "skipped", reason=entry.detail)
    if entry.kind == "special":
        return _record(entry, "skipped", reason=entry.detail)
    if entry.kind == "error":
        return _record(entry, "error", reason=entry.detail)
    rel_str = display_path(entry.rel)[0]
    if (opts.include and not matches(rel_str, opts.include)) or (
        opts.exclude and matches(rel_str, opts.exclude)
    ):
        return _record(entry, "skipped", size=entry.size, reason="excluded")
    write = job.mode != "scan" and not opts.dry_run
    src_path = _join(job.src, entry.rel)
    try:
        data, st = fsio.read_source(src_path, max_size=opts.stream_threshold)
    except fsio.NotRegularFile:
        return _record(entry, "skipped", reason="not a regular file (changed during the walk)")
    except OSError as exc:
        if fsio.is_fatal(exc):
            raise FatalIOError(f"reading {rel_str}: {exc.strerror or exc}") from exc
        return _record(entry, "error", size=entry.size, reason=f"unreadable: {exc.strerror or exc}")
    try:
        if data is None:
            return _process_stream(job, entry, detect, write, previous)
        sha1 = _sha1(data)
        # --decisions: a person's decision, when it applies to these bytes, replaces the examination
        settled = (
            opts.decisions.settle(_key(entry), data, sha1, opts.bom, opts.keep_declarations)
            if opts.decisions
            else ()
        )
        stale = settled if isinstance(settled, tuple) else ()
        if isinstance(settled, tuple) and previous is not None and _resumable(job, entry, previous, sha1):
            return replace(previous, warnings=(*previous.warnings, *stale)) if stale else previous
        try:
            v = settled if isinstance(settled, Verdict) else examine(data, opts, detect)
        except (ValueError, LookupError, KeyError, AssertionError, RuntimeError) as exc:
            # A failure inside the detector or a decoder on one file must not end the run: the file
            # gets outcome "error" with the cause, the others go on (exit code 1 tells the user).
            return _record(
                entry,
                "error",
                size=len(data),
                sha1=sha1,
                reason=f"examining failed: {type(exc).__name__}: {exc}",
            )
        v = _mirror_binary(job, v)
        output = output_sha1 = salvaged = None
        if v.outcome == "copied":
            output_sha1 = sha1
            if write:
                output = _write_output(job, entry, data, data, st, group)
        elif v.outcome in ("converted", "utf8"):
            assert v.output is not None
            output_sha1 = sha1 if v.output is data or v.output == data else _sha1(v.output)
            if write:
                output = _write_output(job, entry, data, v.output, st, group)
        elif v.outcome == "quarantined" and write:
            output, salvaged = _write_quarantine(job, entry, data, None, st, v, sha1, group)
        if stale:
            v = replace(v, warnings=(*v.warnings, *stale))
        return _from_verdict(
            entry, v, len(data), sha1, output=output, output_sha1=output_sha1, salvaged=salvaged
        )
    except OSError as exc:
        if fsio.is_fatal(exc):
            raise FatalIOError(f"writing {rel_str}: {exc.strerror or exc}") from exc
        return _record(
            entry,
            "error",
            size=len(data) if data else entry.size,
            reason=f"write failed: {exc.strerror or exc}",
        )


def _resumable(job: Job, entry: Entry, prev: FileRecord, sha1: str) -> bool:
    """``--resume``: same source SHA-1 and the output the manifest names is present."""
    if prev.sha1 != sha1 or prev.outcome not in ("converted", "utf8", "copied", "quarantined"):
        return False
    if prev.outcome == "quarantined":
        return os.path.exists(_join(job.side_root or b"", _Q + b"/" + entry.rel))
    return os.path.exists(_join(job.out_root or b"", out_rel(job, entry.rel)))


# ---------------------------------------------------------------------------------------------- workers

_WORKER: dict[str, object] = {}


def _worker_init(job: Job) -> None:
    _WORKER["job"] = job
    _WORKER["detect"] = load_detector(job.opts.detector)


def _process_batch(
    job: Job, batch: list[tuple[int, Entry, FileRecord | None]], detect: DetectFn
) -> tuple[list[tuple[int, FileRecord, bool]], str | None, fsio.CommitGroup]:
    """Examine a batch and write its outputs as temporary files; the returned group still has to be
    committed (renamed into place) before the records may be reported."""
    group = fsio.CommitGroup()
    out: list[tuple[int, FileRecord, bool]] = []
    fatal = None
    try:
        for i, entry, prev in batch:
            try:
                rec = process_entry(job, entry, detect, prev, group)
            except FatalIOError as exc:
                fatal = str(exc)
                break
            out.append((i, rec, prev is not None and rec is prev))
    except BaseException:
        group.abort()
        raise
    return out, fatal, group


def _commit(group: fsio.CommitGroup) -> str | None:
    """Commit a batch's outputs; returns the fatal error message (outputs removed), or None."""
    try:
        group.commit()
    except OSError as exc:
        if not fsio.is_fatal(exc):
            raise
        return f"committing outputs: {exc.strerror or exc}"
    finally:
        group.abort()  # no-op after a successful commit
    return None


def _sync(job: Job, directories: set[bytes], fatal: str | None) -> str | None:
    """At the end of a run, fsync every directory that received an output (renames durable); returns
    ``fatal``, or the error that stopped the fsync."""
    if not job.opts.fsync or not directories:
        return fatal
    try:
        fsio.sync_directories(directories)
    except OSError as exc:
        if not fsio.is_fatal(exc):
            raise
        return fatal or f"making the outputs durable: {exc.strerror or exc}"
    return fatal


def run_batch(
    job: Job, batch: list[tuple[int, Entry, FileRecord | None]], detect: DetectFn
) -> tuple[list[tuple[int, FileRecord, bool]], str | None, set[bytes]]:
    """Process a batch of entries with one group commit; returns ([(index, record, resumed)], fatal,
    the directories the outputs were renamed into).

    Records are returned only after their outputs are renamed into place, so a manifest line never
    names an output that is not in place yet.
    """
    out, fatal, group = _process_batch(job, batch, detect)
    commit_fatal = _commit(group)
    if commit_fatal is not None:
        return [], commit_fatal, group.directories
    return out, fatal, group.directories


def _run_serial(
    job: Job,
    items: Iterable[tuple[int, Entry, FileRecord | None]],
    sink: Callable[[int, FileRecord, bool], None],
) -> str | None:
    """One worker: batch k+1 is examined while batch k is committed in a background thread.

    The same thread then reports batch k's records to ``sink`` (only after the commit succeeded,
    exactly as :func:`run_batch` returns them), so the manifest keeps up with the outputs; ``sink``
    is only ever called from that one thread, in batch order. At the end every directory that
    received an output is fsynced once.
    """
    detect = load_detector(job.opts.detector)
    directories: set[bytes] = set()

    def commit_and_report(group: fsio.CommitGroup, done: list[tuple[int, FileRecord, bool]]) -> str | None:
        fatal = _commit(group)
        directories.update(group.directories)
        if fatal is None:
            for i, rec, resumed in done:
                sink(i, rec, resumed)
        return fatal

    with cf.ThreadPoolExecutor(1, thread_name_prefix="mojifix-commit") as committer:
        pending: cf.Future[str | None] | None = None
        for batch in _batches(items):
            try:
                done, fatal, group = _process_batch(job, batch, detect)
            except BaseException:
                if pending is not None:
                    pending.result()  # the previous batch is committed and reported first
                raise
            if pending is not None:
                try:
                    commit_fatal = pending.result()
                except BaseException:
                    group.abort()  # this batch's temporary files must not outlive the failure
                    raise
                if commit_fatal is not None:
                    group.abort()
                    return _sync(job, directories, commit_fatal)
            pending = committer.submit(commit_and_report, group, done)
            if fatal is not None:
                return _sync(job, directories, pending.result() or fatal)
        last = pending.result() if pending is not None else None
    return _sync(job, directories, last)


def _worker_batch(
    batch: list[tuple[int, Entry, FileRecord | None]],
) -> tuple[list[tuple[int, FileRecord | str]], str | None, set[bytes]]:
    job = _WORKER["job"]
    detect = _WORKER["detect"]
    assert isinstance(job, Job)
    done, fatal, directories = run_batch(job, batch, detect)  # type: ignore[arg-type]
    # a resumed record goes back as a marker: the parent holds the identical object already
    return [(i, RESUMED if resumed else rec) for i, rec, resumed in done], fatal, directories


def _batches(
    items: Iterable[tuple[int, Entry, FileRecord | None]],
) -> Iterator[list[tuple[int, Entry, FileRecord | None]]]:
    batch: list[tuple[int, Entry, FileRecord | None]] = []
    size = 0
    for item in items:
        batch.append(item)
        size += item[1].size
        if len(batch) >= BATCH_FILES or size >= BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _execute(
    job: Job,
    entries: list[Entry],
    previous: dict[str, FileRecord],
    sink: Callable[[int, FileRecord, bool], None],
) -> str | None:
    """Process every entry, calling ``sink(index, record, resumed)``; returns the fatal error, if any."""
    prev_of = [previous.get(_key(e)) for e in entries]
    items = ((i, e, prev_of[i]) for i, e in enumerate(entries))
    if job.opts.workers <= 1:
        return _run_serial(job, items, sink)
    # One detector call here, before the fork, loads what its first call loads (the model, decoder
    # tables) once: the workers share those pages instead of each loading its own copy.
    load_detector(job.opts.detector)(_WARM_UP, domain="file")
    import multiprocessing  # only with --workers N (~6 ms of start-up otherwise)

    ctx = multiprocessing.get_context("fork")
    fatal = None
    directories: set[bytes] = set()
    with cf.ProcessPoolExecutor(
        job.opts.workers, mp_context=ctx, initializer=_worker_init, initargs=(job,)
    ) as pool:
        pending: set[cf.Future[tuple[list[tuple[int, FileRecord | str]], str | None, set[bytes]]]] = set()
        batches = _batches(items)
        limit = job.opts.workers * INFLIGHT_PER_WORKER
        exhausted = False
        while True:
            while not exhausted and fatal is None and len(pending) < limit:
                batch = next(batches, None)
                if batch is None:
                    exhausted = True
                    break
                pending.add(pool.submit(_worker_batch, batch))
            if not pending:
                break
            done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                results, batch_fatal, batch_directories = fut.result()
                directories.update(batch_directories)
                for i, rec in results:
                    if isinstance(rec, str):  # RESUMED
                        prev = prev_of[i]
                        assert prev is not None
                        sink(i, prev, True)
                    else:
                        sink(i, rec, False)
                fatal = fatal or batch_fatal
            if fatal is not None:
                for fut in pending:
                    fut.cancel()
    return _sync(job, directories, fatal)


# ---------------------------------------------------------------------------------------------- tree prior


def _tree_prior_pass(
    job: Job,
    entries: list[Entry],
    results: list[FileRecord | None],
    settle: Callable[[int, FileRecord], None],
) -> str | None:
    """After every file is examined: re-decide the files the gate refused as unconfident or ambiguous
    with the run's tree prior (convert/tree_prior.py), write those it settles in one group commit, then
    ``settle(index, record)`` each; returns the fatal error, if any. Runs in this process, once."""
    if not job.opts.tree_prior:
        return None
    todo = [i for i, r in enumerate(results) if r is not None and tree_prior.redecidable(r)]
    if not todo:
        return None
    detect = load_detector(job.opts.detector)
    prior = tree_prior.TreePrior.of(r for r in results if r is not None)
    if not prior.voters or not tree_prior.accepts_prior(detect):
        return None
    write = job.mode != "scan" and not job.opts.dry_run
    group = fsio.CommitGroup()
    settled: list[tuple[int, FileRecord]] = []
    try:
        for i in todo:
            new = _redecide(job, entries[i], results[i], detect, prior, group, write)
            if new is not None:
                settled.append((i, new))
    except FatalIOError as exc:
        group.abort()
        return str(exc)
    except BaseException:
        group.abort()
        raise
    fatal = _sync(job, group.directories, _commit(group))
    for i, rec in settled if fatal is None else ():
        settle(i, rec)
    return fatal


def discard_settled(job: Job, rec: FileRecord) -> None:
    """Remove the quarantine copy of a file the tree prior settled, once its output is committed and its
    manifest line written (a run killed before leaves the copy, and ``--resume`` settles it again)."""
    if job.mode != "scan" and not job.opts.dry_run:
        decisions.discard_quarantine(job.side_root or b"", decisions.record_rel(rec), _Q)
        with contextlib.suppress(OSError):  # and _quarantine/ itself, when that was its only file
            os.rmdir(_join(job.side_root or b"", _Q))


def _redecide(
    job: Job,
    entry: Entry,
    rec: FileRecord,
    detect: DetectFn,
    prior: tree_prior.TreePrior,
    group: fsio.CommitGroup,
    write: bool,
) -> FileRecord | None:
    """The record of a refused file that the tree prior settles (its output written into ``group``),
    or None: the gate still refuses it, or its bytes changed or cannot be read (the first record stays)."""
    try:
        data, st = fsio.read_source(_join(job.src, entry.rel), max_size=job.opts.stream_threshold)
        if data is None or _sha1(data) != rec.sha1:
            return None
        v = examine(data, job.opts, tree_prior.with_prior(detect, data, prior))
    except (OSError, ValueError, LookupError, KeyError, AssertionError, RuntimeError):
        return None  # as in the first pass, which recorded it already
    if v.outcome != "converted" or v.decision != "detector" or v.output is None:
        return None
    alone = dict(rec.candidates).get(v.encoding or "", 0.0)
    reason = f"{prior.describe(v.encoding or '')}; on its own bytes {v.encoding} had confidence {alone:.2f}"
    v = replace(v, decision=tree_prior.TREE_PRIOR, reason=reason)
    try:
        output = _write_output(job, entry, data, v.output, st, group) if write else None
    except OSError as exc:
        if fsio.is_fatal(exc):
            raise FatalIOError(f"writing {display_path(entry.rel)[0]}: {exc.strerror or exc}") from exc
        return None
    return _from_verdict(entry, v, len(data), rec.sha1 or "", output=output, output_sha1=_sha1(v.output))


# ---------------------------------------------------------------------------------------------- manifest


def _key(entry_or_record: Entry | FileRecord) -> str:
    if isinstance(entry_or_record, Entry):
        path, path_hex = display_path(entry_or_record.rel)
        return path_hex or path
    return entry_or_record.path_hex or entry_or_record.path


def read_manifest(path: bytes) -> dict[str, FileRecord]:
    """Records of a (possibly interrupted) manifest: latest line per file wins, a torn line is ignored."""
    try:
        with open(path, "rb") as f:
            return manifest_records(f)
    except FileNotFoundError:
        return {}


def manifest_records(lines: Iterable[bytes]) -> dict[str, FileRecord]:
    """Records by path of manifest lines (a later line for the same file wins, a torn line is ignored)."""
    out: dict[str, FileRecord] = {}
    for raw in lines:
        try:
            rec = FileRecord.from_dict(json.loads(raw))
        except (ValueError, KeyError, TypeError):
            continue
        out[_key(rec)] = rec
    return out


def _manifest_path(job: Job) -> bytes | None:
    if job.opts.manifest:
        return os.fsencode(job.opts.manifest)
    if job.side_root is None:
        return None
    return os.path.join(job.side_root, MANIFEST_NAME.encode())


# ---------------------------------------------------------------------------------------------- safety


def _real(p: bytes) -> bytes:
    return os.path.realpath(os.path.abspath(p))


def _inside(child: bytes, parent: bytes) -> bool:
    return child == parent or child.startswith(parent.rstrip(b"/") + b"/")


def check_paths(job: Job) -> None:
    """Refuse layouts that could damage SRC (issue 5 safety list): UnsafePathError / ConversionError."""
    src = _real(job.src)
    if not os.path.isdir(job.src):
        raise ConversionError(f"SRC {os.fsdecode(job.src)!r} is not a directory")
    others: list[tuple[str, bytes]] = []
    if job.mode == "convert":
        assert job.dst is not None
        others.append(("DST", job.dst))
    if job.mode == "in-place":
        others.append(("--backup-dir", os.fsencode(job.opts.backup_dir or "")))
    if job.opts.manifest:
        others.append(("--manifest", os.fsencode(job.opts.manifest)))
    for what, path in others:
        real = _real(path)
        if _inside(real, src):
            raise UnsafePathError(
                f"{what} {os.fsdecode(path)!r} is inside SRC {os.fsdecode(job.src)!r}: "
                "choose a location outside the source tree"
            )
        if what != "--manifest" and _inside(src, real):
            raise UnsafePathError(
                f"SRC {os.fsdecode(job.src)!r} is inside {what} {os.fsdecode(path)!r}: "
                "choose a location outside the source tree"
            )
    side = job.side_root
    if job.mode != "scan" and side is not None and os.path.isdir(side) and not job.opts.dry_run:
        names = set(os.listdir(side))
        if names and not job.opts.resume:
            raise ConversionError(
                f"{os.fsdecode(side)!r} is not empty: choose an empty or new directory, "
                "or add --resume to continue a previous run there"
            )
    if job.mode == "convert" and os.path.lexists(os.path.join(job.src, _Q)):
        raise ConversionError(
            f"SRC has a top-level {QUARANTINE_DIR!r} entry, which would collide with "
            f"DST/{QUARANTINE_DIR}: convert its parent directories separately"
        )


# ---------------------------------------------------------------------------------------------- runs


def _announce(progress: Progress | None, total: int) -> None:
    """Tell a progress display how many files to expect, when it wants to know (``set_total``)."""
    set_total = getattr(progress, "set_total", None)
    if set_total is not None:
        set_total(total)


def run_convert(job: Job, progress: Progress | None = None, entries: list[Entry] | None = None) -> Report:
    """Convert (or dry-run) a tree; see :func:`mojifix.convert.convert`."""
    t0 = time.perf_counter()
    check_paths(job)
    opts = job.opts
    manifest = None if opts.dry_run else _manifest_path(job)
    if entries is None:
        entries = list(walk(job.src))
    previous: dict[str, FileRecord] = {}
    if not opts.dry_run and job.side_root is not None:
        for root in {job.out_root, job.side_root}:
            if root is not None and (root != job.src or job.mode == "in-place"):
                fsio.remove_stale_temps(root)  # leftovers of a killed run
        if opts.resume and manifest is not None:
            previous = read_manifest(manifest)
        os.makedirs(job.side_root, exist_ok=True)
    results: list[FileRecord | None] = [None] * len(entries)
    lines: list[bytes] = [b""] * len(entries)
    resumed = 0
    _announce(progress, len(entries))
    log = open(manifest, "ab" if opts.resume else "wb") if manifest is not None else None  # noqa: SIM115
    failed: OSError | None = None  # a full disk (or the like) while writing the manifest
    fatal = None
    try:

        def sink(i: int, rec: FileRecord, was_resumed: bool) -> None:
            nonlocal resumed
            results[i] = rec
            resumed += was_resumed
            if rec.decision == decisions.PERSON and not was_resumed and not opts.dry_run:
                # the settled output is committed: only now may its quarantine copy go
                decisions.discard_quarantine(job.side_root or b"", decisions.record_rel(rec), _Q)
            if log is not None:
                lines[i] = rec.to_json().encode() + b"\n"
                if not was_resumed:
                    log.write(lines[i])
                    log.flush()
            if progress is not None:
                progress(rec)

        fatal = _execute(job, entries, previous, sink)

        def settle(i: int, rec: FileRecord) -> None:  # a file the tree prior settled: committed already
            results[i] = rec
            if log is not None:
                lines[i] = rec.to_json().encode() + b"\n"
                log.write(lines[i])
                log.flush()
            discard_settled(job, rec)

        fatal = fatal or _tree_prior_pass(job, entries, results, settle)
    except OSError as exc:
        if not fsio.is_fatal(exc):
            raise
        failed = exc
    finally:
        if log is not None:
            failed = _close_log(log) or failed
    records = tuple(r for r in results if r is not None)
    if manifest is not None and fatal is None and failed is None:
        # one line per file, in walk order: the append-only log of this run becomes the manifest
        try:
            fsio.atomic_write(manifest, b"".join(lines), None, opts.fsync)
        except OSError as exc:  # the log stays as it is: --resume reads it
            if not fsio.is_fatal(exc):
                raise
            failed = exc
    report = Report(
        records,
        time.perf_counter() - t0,
        os.fsdecode(manifest) if manifest else None,
        dry_run=opts.dry_run,
        resumed=resumed,
        fatal=fatal,
    )
    if failed is not None:
        assert manifest is not None
        raise ManifestWriteError(failed, manifest, report) from failed
    return report


def _close_log(log: BinaryIO) -> OSError | None:
    """Close the manifest log; returns the fatal error of its last flush (the file is closed anyway)."""
    try:
        log.close()
    except OSError as exc:
        if not fsio.is_fatal(exc):
            raise
        return exc
    return None


def run_scan(src: bytes, opts: Options, progress: Progress | None = None) -> ScanReport:
    """Inventory a tree (or one file) without writing anything."""
    t0 = time.perf_counter()
    opts = replace(opts, dry_run=True)
    if os.path.isdir(src):
        job = Job(src, None, opts, "scan")
        entries = list(walk(src))
    elif os.path.lexists(src):
        head, name = os.path.split(src)
        job = Job(head or b".", None, opts, "scan")
        entries = [Entry(name, "file", os.lstat(src).st_size)]
    else:
        raise ConversionError(f"{os.fsdecode(src)!r} does not exist")
    results: list[FileRecord | None] = [None] * len(entries)
    _announce(progress, len(entries))

    def sink(i: int, rec: FileRecord, _resumed: bool) -> None:
        results[i] = rec
        if progress is not None:
            progress(rec)

    fatal = _execute(job, entries, {}, sink)
    fatal = fatal or _tree_prior_pass(job, entries, results, results.__setitem__)
    if fatal:
        raise FatalIOError(fatal)
    return ScanReport(tuple(r for r in results if r is not None), time.perf_counter() - t0)
