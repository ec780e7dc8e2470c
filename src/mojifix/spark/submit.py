"""Entry script for ``spark-submit``: ``spark-submit [options] .../mojifix/spark/submit.py warc|convert ...``.

spark-submit runs a Python file, not a console script; this one is ``mojifix spark`` with the job's
arguments, under the master and configuration spark-submit set up. Print its path with
``python -m mojifix.spark.submit --path``.
"""

from __future__ import annotations

import sys

from mojifix.cli import main


def submit(argv: list[str]) -> int:
    """``mojifix spark ARGV...``; ``--path`` prints this file's path (for the spark-submit command line)."""
    if argv == ["--path"]:
        print(__file__)
        return 0
    return main(["spark", *argv])


if __name__ == "__main__":
    sys.exit(submit(sys.argv[1:]))
