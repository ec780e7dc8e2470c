"""``mojifix detect FILE... [--json] [--all]``: print the ranking and evidence per file.

Files are streamed through :class:`mojifix.detect.Detector` (bounded memory on any size). Exit codes
follow ``mojifix.cli``: 0 every file detected; 1 at least one file was ambiguous or binary; 2 usage or
I/O error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from mojifix.detect.result import Detection

from mojifix.cli import EXIT_ATTENTION, EXIT_OK, EXIT_USAGE

_READ = 1 << 20  # read files in 1 MiB pieces


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "detect",
        help="guess the encoding of files (ranked candidates with evidence)",
        description="Detect the character encoding of each FILE: the best candidate, its confidence and "
        "language, and the evidence. Exit 1 when a file is ambiguous or binary.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="files to examine, or - for standard input")
    p.add_argument("--json", action="store_true", help="one JSON object per file (JSON Lines)")
    p.add_argument("--all", action="store_true", help="show every candidate, not just the best three")
    p.add_argument("--web", action="store_true", help="only WHATWG encodings (what a browser can decode)")
    p.add_argument("--tld", metavar="TLD", help="top-level domain the text came from, e.g. ru or jp")
    p.add_argument(
        "--prefer",
        metavar="ENC",
        action="append",
        help="restrict the candidates to these encodings (repeatable; exact names as printed)",
    )
    p.add_argument("--max-bytes", type=int, metavar="N", help="examine at most N bytes of each file")
    p.set_defaults(func=run)


def _detect_stream(stream: BinaryIO, args: argparse.Namespace) -> Detection:
    from mojifix.detect import Detector

    det = Detector(
        domain="web" if args.web else "file", tld=args.tld, candidates=args.prefer, max_bytes=args.max_bytes
    )
    seen = 0
    while True:
        piece = stream.read(_READ)
        if not piece:
            break
        det.feed(piece)
        seen += len(piece)
        if args.max_bytes is not None and seen >= args.max_bytes:
            break
    return det.close()


def run(args: argparse.Namespace) -> int:
    status = EXIT_OK
    folders = [path for path in args.files if path != "-" and os.path.isdir(path)]
    if folders:  # before any output: the command reads files, and a tree has its own command
        print(
            f"mojifix: error: {folders[0]}: is a directory; detect reads files "
            f"(`mojifix scan {folders[0]}` inventories a tree)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    for path in args.files:
        if path == "-":
            result = _detect_stream(sys.stdin.buffer, args)
        else:
            with open(path, "rb") as fh:
                result = _detect_stream(fh, args)
        if result.ambiguous or result.verdict == "binary":
            status = EXIT_ATTENTION
        if args.json:
            record = {"file": path, **result.to_dict()}
            if not args.all:
                record["candidates"] = record["candidates"][:3]
            print(json.dumps(record, ensure_ascii=False))
            continue
        best = result.best()
        flag = "  AMBIGUOUS" if result.ambiguous else ""
        if best is None:
            print(f"{path}: {result.verdict}{flag}")
        else:
            lang = f" ({best.language})" if best.language else ""
            print(f"{path}: {best.encoding}{lang} {best.confidence:.2f} [{result.verdict}]{flag}")
        for ev in result.evidence:
            print(f"    {ev.kind}: {ev.detail}")
        shown = result.candidates if args.all else result.candidates[:3]
        for cand in shown:
            lang = f" {cand.language}" if cand.language else ""
            print(f"  {cand.confidence:6.3f}  {cand.encoding}{lang}")
            for ev in cand.evidence:
                print(f"            {ev.kind}: {ev.detail}")
    return status
