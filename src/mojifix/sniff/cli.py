"""``mojifix sniff FILE|-``: decode an HTML document like a browser and show what decided.

Exit codes (docs/cli.md):
  0  decoded, nothing to report
  1  decoded, but something needs attention: any warning (header/meta conflict, late meta,
     replacement label, BOM contradicting a declaration, replacement characters, suspect
     declaration, invalid Content-Type, prescan divergence)
  2  usage error: unreadable file, unknown --override label, bad arguments
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mojifix.cli import read_input
from mojifix.sniff.api import decode_html
from mojifix.sniff.result import DecodedHTML

EXIT_OK = 0
EXIT_ATTENTION = 1
EXIT_USAGE = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``sniff`` subcommand."""
    parser = subparsers.add_parser(
        "sniff",
        help="decode an HTML file the way a browser does and show which rule picked the encoding",
        description="Decode an HTML document's bytes as a browser would (BOM, Content-Type, <meta>, "
        "XML declaration), or better for undeclared pages, and print the decision, its evidence and "
        "warnings. Exit 0: clean; 1: warnings; 2: usage error.",
    )
    parser.add_argument("file", help="HTML file to read, or - for standard input")
    parser.add_argument(
        "--content-type",
        action="append",
        metavar="VALUE",
        help="the Content-Type header value the document was served with (repeat for several headers)",
    )
    parser.add_argument("--url", help="the page's URL (its TLD picks the fallback for undeclared pages)")
    parser.add_argument("--override", metavar="LABEL", help="force this encoding (only a BOM beats it)")
    parser.add_argument(
        "--fallback",
        choices=("detect", "browser"),
        default="detect",
        help="undeclared pages: 'detect' (UTF-8 if valid, else the detector) or 'browser' (as a browser)",
    )
    parser.add_argument(
        "--trust",
        choices=("browser", "evidence"),
        default="browser",
        help="'browser' (default): a declaration always wins, as in browsers; 'evidence': a declaration "
        "wins unless the bytes prove it wrong, then the true text is given (warning declaration-overridden)",
    )
    parser.add_argument("--json", action="store_true", help="print the full result as JSON (text included)")
    parser.add_argument("--text-out", metavar="PATH", help="write the decoded text to PATH (UTF-8)")
    parser.set_defaults(func=run)


def _report(result: DecodedHTML) -> str:
    lines = [
        f"encoding:   {result.encoding}",
        f"source:     {result.source} (confidence: {result.confidence})",
    ]
    if result.label is not None or result.label_origin is not None:
        lines.append(f"evidence:   {result.label!r} from {result.label_origin}")
    lines.append(f"browser:    {result.browser_encoding} ({result.browser_source})")
    lines.append(f"characters: {len(result.text)}, replacement characters: {result.replacement_count}")
    for finding in result.warnings:
        lines.append(f"warning:    {finding}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Decode ``args.file`` and print the decision; return the documented exit code."""
    try:
        body = read_input(args.file)
    except OSError as exc:
        print(f"mojifix: error: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        result = decode_html(
            body,
            args.content_type,
            url=args.url,
            override=args.override,
            fallback=args.fallback,
            trust=args.trust,
        )
    except LookupError:
        print(
            f"mojifix: error: --override {args.override!r} is not an encoding label of the WHATWG "
            "Encoding Standard (try e.g. utf-8, windows-1252, shift_jis)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.text_out:
        try:
            Path(args.text_out).write_text(result.text, encoding="utf-8")
        except OSError as exc:
            print(f"mojifix: error: cannot write {args.text_out}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_USAGE
    print(result.to_json(indent=2) if args.json else _report(result))
    return EXIT_ATTENTION if result.warnings else EXIT_OK
