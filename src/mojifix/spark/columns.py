"""``decode_html_columns``: ``mojifix warc``'s decoding for a DataFrame that already holds raw bodies.

Vectorised with Arrow (``mapInArrow``): each task receives record batches of the body, Content-Type
and URL columns, decodes each body in the Python worker and appends the decoded columns to the same
batch, so rows never cross the JVM boundary one at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mojifix.integrations._content import body_kind, decode_parsed, transport_of
from mojifix.integrations.warc import ROW_FIELDS
from mojifix.spark.warc import _arrow_schema, check_choices

__all__ = ["DECODED_FIELDS", "decode_html_columns", "decode_row"]

#: columns added by :func:`decode_html_columns`, in order: the decoding columns of ``mojifix warc``'s rows
DECODED_FIELDS = tuple(f for f in ROW_FIELDS[ROW_FIELDS.index("kind") :] if f != "truncated")


def _decoded_arrow_fields() -> list[Any]:
    """The Arrow fields of :data:`DECODED_FIELDS`, from the Spark copy of ``mojifix warc``'s schema."""
    schema = _arrow_schema()
    return [schema.field(name) for name in DECODED_FIELDS]


def decode_row(
    body: bytes | None,
    content_type: str | None,
    url: str | None,
    fallback: str = "detect",
    trust: str = "browser",
) -> dict[str, Any]:
    """The decoded columns of one body, by ``mojifix warc``'s rules (a binary type keeps only ``kind``).

    A null body has null decoded columns; a body whose MIME type is not textual (images, archives) is
    not decoded (``kind`` = ``binary``, the rest null), as ``mojifix warc`` skips such responses.
    """
    empty: dict[str, Any] = dict.fromkeys(DECODED_FIELDS)
    if body is None:
        return empty
    transport = transport_of(content_type)
    kind = body_kind(transport.mime_type)
    if kind == "binary":
        return {**empty, "kind": kind}
    decoded = decode_parsed(bytes(body), content_type, transport, url=url, fallback=fallback, trust=trust)
    return {
        "kind": kind,
        "encoding": decoded.encoding,
        "source": decoded.source,
        "confidence": decoded.confidence,
        "browser_encoding": decoded.browser_encoding,
        "overridden": decoded.source == "evidence",
        "warnings": [w.code for w in decoded.warnings],
        "replacement_count": decoded.replacement_count,
        "text": decoded.text,
    }


def decode_html_columns(
    df: Any,
    body: str = "body",
    content_type: str = "content_type",
    url: str = "url",
    *,
    fallback: str = "detect",
    trust: str = "browser",
) -> Any:
    """``df`` with the decoded columns (:data:`DECODED_FIELDS`) appended after its own.

    ``trust="evidence"``: a declaration the bytes prove wrong is overruled (column ``overridden``).

    ``body`` is a binary column; ``content_type`` and ``url`` are string columns, or None when the
    frame has no such column (every body is then undeclared, or decoded without a URL hint).
    """
    from pyspark.sql.pandas.types import from_arrow_schema
    from pyspark.sql.types import BinaryType, StructType

    check_choices(fallback=fallback, trust=trust)
    names = df.columns
    for role, column in (("body", body), ("content_type", content_type), ("url", url)):
        if column is not None and column not in names:
            raise ValueError(f"{role} column {column!r} is not in the DataFrame (columns: {names})")
    if not isinstance(df.schema[body].dataType, BinaryType):
        raise ValueError(
            f"body column {body!r} must be binary, not {df.schema[body].dataType.simpleString()}"
        )
    clash = [name for name in DECODED_FIELDS if name in names]
    if clash:
        raise ValueError(f"the DataFrame already has columns named {clash}: rename them first")
    import pyarrow as pa

    decoded_fields = _decoded_arrow_fields()
    columns = (body, content_type, url)

    def decode_partition(batches: Iterator[Any]) -> Iterator[Any]:
        for batch in batches:
            inputs = [
                batch.column(c).to_pylist() if c is not None else [None] * batch.num_rows for c in columns
            ]
            decoded = [decode_row(b, t, u, fallback, trust) for b, t, u in zip(*inputs, strict=True)]
            arrays = list(batch.columns)
            for f in decoded_fields:
                arrays.append(pa.array([row[f.name] for row in decoded], type=f.type))
            # the input columns keep the Arrow types Spark gave them
            yield pa.RecordBatch.from_arrays(arrays, schema=pa.schema([*batch.schema, *decoded_fields]))

    added = from_arrow_schema(pa.schema(decoded_fields))
    return df.mapInArrow(decode_partition, StructType([*df.schema.fields, *added.fields]))
