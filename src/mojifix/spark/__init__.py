"""Apache Spark jobs: the ``mojifix warc`` and ``mojifix convert`` work on a cluster, with the same results.

The unit of parallelism is the local command's own unit of work (cc-pyspark's design): one task per
WARC file, records streamed inside it by :mod:`mojifix.integrations.warc`; or one task per slice of
a walked file tree, each file examined, verified and written by :mod:`mojifix.convert.engine`. Spark
schedules, retries and reports progress; the decisions are the local code's, unchanged.

Needs the ``spark`` extra (``pip install 'mojifix[spark]'``); importing this package does not import
PySpark, so the CLI can say what is missing in one line. See docs/spark.md.
"""

from __future__ import annotations

from mojifix._lazy import attribute_loader

__all__ = [
    "convert_tree",
    "decode_html_columns",
    "decode_warc",
    "manifest_frame",
    "warc_summary",
    "write_warc_dataset",
]

#: public name -> the submodule that defines it (loaded on first use: PySpark stays unimported until then)
_LAZY = {
    "decode_warc": "mojifix.spark.warc",
    "warc_summary": "mojifix.spark.warc",
    "write_warc_dataset": "mojifix.spark.warc",
    "decode_html_columns": "mojifix.spark.columns",
    "convert_tree": "mojifix.spark.convert",
    "manifest_frame": "mojifix.spark.convert",
}


__getattr__ = attribute_loader(__name__, _LAZY, globals())
