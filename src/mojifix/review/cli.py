"""``mojifix review DST [-o PATH]``: write the review page for a convert run's quarantine.

Exit codes: 0 the page is written; 1 written, but some quarantined files could not be read from
``DST/_quarantine/`` (their cards say why and offer only "leave out"); 2 usage error or no manifest.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser(
        "review",
        help="write an HTML page to settle a convert run's quarantined files (saves a decisions file)",
        description="Write a self-contained HTML page (open it from file://, no server) showing every "
        "quarantined file of a `mojifix convert` run with its evidence and candidate readings side by side. "
        "The choices made on the page are saved as a decisions file for `mojifix convert SRC DST "
        "--decisions FILE`. Exit 0: written; 1: written, some quarantine copies unreadable; 2: usage error.",
    )
    r.add_argument("dst", help="the DST of a `mojifix convert` run (holds the manifest and _quarantine/)")
    r.add_argument(
        "-o", "--output", metavar="PATH", help="where to write the page (default DST/mojifix-review.html)"
    )
    r.add_argument(
        "--manifest", metavar="PATH", help="the run's manifest (default DST/mojifix-manifest.jsonl)"
    )
    r.set_defaults(func=run_review)


def run_review(args: argparse.Namespace) -> int:
    from mojifix.review import write_report

    result = write_report(args.dst, args.output, args.manifest)
    uri = Path(result.path).resolve().as_uri()
    print(f"mojifix review: {result.cards} quarantined files to settle -> {uri}")
    if result.unreadable:
        print(
            f"mojifix: {result.unreadable} quarantine copies could not be read (see their cards)",
            file=sys.stderr,
        )
        return 1
    return 0
