"""The rows of ``mojifix warc`` on Spark: one task per WARC file, records streamed.

Each task opens one archive and runs the local reader and decoder on it
(:func:`mojifix.integrations.warc.iter_http_records`, :func:`~mojifix.integrations.warc.decode_records`).
:func:`write_warc_dataset` (what ``mojifix spark warc -o DIR`` runs on a shared file system) has each
task write its file's rows with the local Parquet writer and return the file's :class:`WarcSummary`;
:func:`decode_warc` hands the rows to Spark instead, as Arrow record batches of bounded size
(``mapInArrow``), with the per-file summaries in an accumulator keyed by file index. Either way a task
holds one batch (or row group) and one record at a time, and the summaries are merged in input order,
so they read exactly as the local command's. docs/spark.md says how retries keep both exactly-once.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields
from typing import Any
from urllib.parse import urlsplit

from mojifix.integrations.warc import (
    ROW_FIELDS,
    WarcSummary,
    _parquet_schema,
    decode_records,
    iter_http_records,
    write_rows,
)

__all__ = [
    "BATCH_ROWS",
    "BATCH_TEXT_BYTES",
    "WarcSummaryAccumulator",
    "decode_warc",
    "warc_summary",
    "write_warc_dataset",
]

#: Rows per Arrow batch handed to Spark: the local Parquet writer's row group (DEFAULT_ROW_GROUP_ROWS),
#: so a task holds about what the local command holds at a time.
BATCH_ROWS = 1000
#: ...or fewer rows once their text reaches this many bytes: keeps a batch of very large pages far from
#: Arrow's 2 GiB limit for one string column and bounds a task's memory (same bound as one WARC member).
BATCH_TEXT_BYTES = 64 << 20
#: Name of a part file of :func:`write_warc_dataset`: one per input file, by input position.
PART_NAME = "part-{:05d}.parquet"
#: Its temporary name while being written (a leading dot: Parquet readers skip it).
_PART_TEMP = ".part-{:05d}.tmp-{}.parquet"
#: The marker of a complete dataset, as Spark's writers leave it.
_SUCCESS = "_SUCCESS"
#: Copy size when a remote archive (S3, HDFS, GCS) is staged to the task's local disk.
_COPY_CHUNK = 8 << 20


def _arrow_schema() -> Any:
    """The local Parquet schema with plain (32-bit offset) strings, which Spark's Arrow path expects."""
    import pyarrow as pa

    schema = _parquet_schema()
    return pa.schema(
        [f.with_type(pa.string()) if f.type == pa.large_string() else f for f in schema], metadata=None
    )


def spark_schema() -> Any:
    """The output columns (``ROW_FIELDS``) as a Spark schema."""
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(_arrow_schema())


class _PerFile:
    """Accumulator parameter (PySpark's AccumulatorParam protocol): {file index: WarcSummary}; merging is
    a union, one entry per file."""

    def zero(self, value: dict[int, WarcSummary]) -> dict[int, WarcSummary]:
        return {}

    def addInPlace(self, a: dict[int, WarcSummary], b: dict[int, WarcSummary]) -> dict[int, WarcSummary]:
        a.update(b)
        return a


class WarcSummaryAccumulator:
    """Collects the per-file summaries of :func:`decode_warc`; :meth:`result` is the run's WarcSummary."""

    def __init__(self, spark: Any) -> None:
        self.accumulator = spark.sparkContext.accumulator({}, _PerFile())

    def result(self) -> WarcSummary:
        """The files' summaries merged in input order (so counters list keys as the local run does)."""
        return merge_summaries(s for _, s in sorted(self.accumulator.value.items()))

    @property
    def files(self) -> int:
        """How many files have reported so far."""
        return len(self.accumulator.value)


def warc_summary(spark: Any) -> WarcSummaryAccumulator:
    """A summary accumulator to pass to :func:`decode_warc` (read it after the action that runs the job)."""
    return WarcSummaryAccumulator(spark)


def merge_summaries(summaries: Iterable[WarcSummary]) -> WarcSummary:
    """One WarcSummary from several, field by field: counts added, counters updated, errors appended."""
    out = WarcSummary()
    for part in summaries:
        for f in fields(WarcSummary):
            mine, theirs = getattr(out, f.name), getattr(part, f.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            else:
                setattr(out, f.name, mine + theirs)
    return out


def decode_warc(
    spark: Any,
    paths: Sequence[str],
    *,
    fallback: str = "detect",
    reader: str = "auto",
    summary: WarcSummaryAccumulator | None = None,
    trust: str = "browser",
) -> Any:
    """A DataFrame with one row per text HTTP response of ``paths``: ``mojifix warc``'s columns and values.

    One task per file, in the order given (so the rows of file k come before those of file k+1 in
    partition order). Paths are local, ``file://``, or any URI ``pyarrow.fs`` opens (``s3://``,
    ``hdfs://``, ``gs://``); a remote archive is streamed to the task's local disk first. Pass
    ``summary=warc_summary(spark)`` to get the run's counts after the action. ``trust="evidence"``:
    as ``mojifix warc --trust evidence`` (column ``overridden``).
    """
    if not paths:
        raise ValueError("decode_warc needs at least one path")
    check_choices(fallback=fallback, reader=reader, trust=trust)
    files = spark.sparkContext.parallelize(list(enumerate(paths)), len(paths))
    frame = spark.createDataFrame(files, "file_index int, path string")
    accumulator = summary.accumulator if summary is not None else None

    def decode_partition(batches: Iterator[Any]) -> Iterator[Any]:
        for batch in batches:
            indexes = batch.column(0).to_pylist()
            for file_index, path in zip(indexes, batch.column(1).to_pylist(), strict=True):
                yield from _decode_file(file_index, path, fallback, reader, accumulator, trust)

    return frame.mapInArrow(decode_partition, spark_schema())


#: the values ``mojifix warc``'s options take (and its ValueError messages name)
CHOICES = {
    "fallback": ("detect", "browser"),
    "reader": ("auto", "fastwarc", "warcio"),
    "trust": ("browser", "evidence"),
}


def check_choices(**values: str) -> None:
    """Raise ValueError for the first of ``values`` (fallback=, reader=, trust=) not in :data:`CHOICES`."""
    for name, value in values.items():
        allowed = [repr(choice) for choice in CHOICES[name]]
        if value not in CHOICES[name]:
            raise ValueError(f"{name} must be {', '.join(allowed[:-1])} or {allowed[-1]}, not {value!r}")


def _decode_file(
    file_index: int, path: str, fallback: str, reader: str, accumulator: Any, trust: str = "browser"
) -> Iterator[Any]:
    """The Arrow batches of one archive (runs on an executor); its summary goes to ``accumulator``."""
    import pyarrow as pa

    schema = _arrow_schema()
    summary = WarcSummary()
    buffer: dict[str, list[Any]] = {name: [] for name in ROW_FIELDS}
    text_bytes = 0
    with _local_copy(path) as local:
        records = iter_http_records(local, reader=reader, errors=summary.errors, full_records=False)
        for row in decode_records(records, summary, fallback=fallback, trust=trust):
            for name, value in row.to_dict().items():
                buffer[name].append(value)
            text_bytes += len(row.text)
            if len(buffer["uri"]) >= BATCH_ROWS or text_bytes >= BATCH_TEXT_BYTES:
                yield pa.RecordBatch.from_pydict(buffer, schema=schema)
                buffer = {name: [] for name in ROW_FIELDS}
                text_bytes = 0
        if local != path:  # problems are reported under the caller's name, not the staged copy's
            summary.errors[:] = [e.replace(local, path, 1) for e in summary.errors]
    if buffer["uri"]:
        yield pa.RecordBatch.from_pydict(buffer, schema=schema)
    if accumulator is not None:
        accumulator.add({file_index: summary})


def local_path(path: str) -> str | None:
    """The local file a path or ``file://`` URI names, or None for a remote URI."""
    parts = urlsplit(path)
    if parts.scheme == "file":
        return parts.path
    if parts.scheme and len(parts.scheme) > 1:  # "C:" style drive letters are not schemes
        return None
    return path


@contextlib.contextmanager
def _local_copy(path: str) -> Iterator[str]:
    """A local path for ``path``: itself, or a temporary copy of a remote archive (removed afterwards).

    The archive readers seek back to the start after sniffing the format and read gzip members as a
    stream; a staged copy keeps that memory-flat for any file system pyarrow can open.
    """
    local = local_path(path)
    if local is not None:
        yield local
        return
    from pyarrow import fs

    filesystem, inner = fs.FileSystem.from_uri(path)
    fd, staged = tempfile.mkstemp(prefix="mojifix-warc-", suffix=os.path.basename(inner))
    try:
        with os.fdopen(fd, "wb") as out, filesystem.open_input_stream(inner) as stream:
            shutil.copyfileobj(stream, out, _COPY_CHUNK)
        yield staged
    finally:
        os.unlink(staged)


def write_warc_dataset(
    spark: Any,
    paths: Sequence[str],
    output: str,
    *,
    fallback: str = "detect",
    reader: str = "auto",
    trust: str = "browser",
) -> WarcSummary:
    """``mojifix warc``'s rows of ``paths`` as a Parquet dataset in the directory ``output``; the summary.

    One task per file, as :func:`decode_warc`, but each task writes its file's rows itself with the
    local command's writer (:func:`~mojifix.integrations.warc.write_rows`: same schema, same row
    groups) to ``part-NNNNN.parquet`` (NNNNN = the file's position in ``paths``), through a temporary
    name and an atomic rename: a retried or speculative attempt replaces the part with the same rows,
    and a killed attempt's temporary file is removed at the end. The rows never pass through the JVM,
    which is what makes this the faster way to a Parquet output on a file system every executor
    shares (local, NFS); :func:`decode_warc` and Spark's writer serve any other output. An existing
    ``output`` that holds only an earlier dataset's files is replaced.
    """
    if not paths:
        raise ValueError("write_warc_dataset needs at least one path")
    check_choices(fallback=fallback, reader=reader, trust=trust)
    out = os.path.abspath(output)
    _clear_dataset(out)
    os.makedirs(out, exist_ok=True)
    files = spark.sparkContext.parallelize(list(enumerate(paths)), len(paths))
    summaries = files.map(
        lambda item: (item[0], _write_part(item[0], item[1], out, fallback, reader, trust))
    ).collect()
    for name in os.listdir(out):  # temporaries of killed attempts
        if name.startswith(".part-") and ".tmp-" in name:
            os.unlink(os.path.join(out, name))
    with open(os.path.join(out, _SUCCESS), "wb"):
        pass
    return merge_summaries(s for _, s in sorted(summaries, key=lambda item: item[0]))


def _write_part(
    file_index: int, path: str, out: str, fallback: str, reader: str, trust: str = "browser"
) -> WarcSummary:
    """Decode one archive into its part file (runs on an executor); returns the file's summary."""
    summary = WarcSummary()
    temp = os.path.join(out, _PART_TEMP.format(file_index, os.getpid()))
    with _local_copy(path) as local:
        records = iter_http_records(local, reader=reader, errors=summary.errors, full_records=False)
        write_rows(decode_records(records, summary, fallback=fallback, trust=trust), temp)
        if local != path:
            summary.errors[:] = [e.replace(local, path, 1) for e in summary.errors]
    os.replace(temp, os.path.join(out, PART_NAME.format(file_index)))
    return summary


def _clear_dataset(out: str) -> None:
    """Remove an earlier dataset at ``out``; refuse to touch anything that is not one."""
    if not os.path.lexists(out):
        return
    if not os.path.isdir(out) or os.path.islink(out):
        raise ValueError(f"{out} exists and is not a dataset directory: choose another output")
    names = os.listdir(out)
    foreign = [
        n
        for n in names
        if not (n.startswith(("part-", ".part-", "_", ".")) and n.endswith((".parquet", ".crc", "_SUCCESS")))
    ]
    if foreign:
        raise ValueError(
            f"{out} holds files that are not a Parquet dataset's ({foreign[0]}, ...): choose another output"
        )
    for name in names:
        os.unlink(os.path.join(out, name))
