"""``mojifix decode``: decode a file with a WHATWG encoding label, exactly as a browser does.

The text goes to standard output (or ``-o FILE``) as UTF-8. Exit codes follow ``mojifix.cli``:
0 the input decoded without a single decoder error; 1 it had errors (with ``--strict`` nothing is
written; otherwise they became U+FFFD and stderr says where the first one was); 2 usage error,
unknown label or I/O error.
"""

from __future__ import annotations

import argparse
import sys

from mojifix.cli import EXIT_ATTENTION, EXIT_OK, read_input


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "decode",
        help="decode FILE with a WHATWG encoding label, exactly as a browser does",
        description="Decode FILE with the WHATWG Encoding Standard's decoder for LABEL and write UTF-8. "
        "By default a UTF-8/UTF-16 byte order mark overrides the label, as in browsers.",
    )
    p.add_argument("file", help="input file, or - for standard input")
    p.add_argument("-e", "--encoding", required=True, metavar="LABEL", help="a WHATWG label, e.g. shift_jis")
    p.add_argument("--strict", action="store_true", help="fail on the first invalid byte sequence (exit 1)")
    p.add_argument(
        "--bom",
        choices=["sniff", "strip", "ignore"],
        default="sniff",
        help="sniff: a BOM overrides the label (default, as browsers); strip: remove only this encoding's "
        "own BOM; ignore: no BOM processing",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write the text here (UTF-8) instead of stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mojifix.errors import DecodeError
    from mojifix.whatwg import decode

    data = read_input(args.file)
    status = EXIT_OK
    try:
        text = decode(data, args.encoding, errors="strict", bom=args.bom)
    except DecodeError as exc:
        if args.strict:
            print(f"mojifix: {exc}", file=sys.stderr)
            return EXIT_ATTENTION
        print(f"mojifix: warning: invalid bytes replaced by U+FFFD; the first: {exc}", file=sys.stderr)
        text = decode(data, args.encoding, errors="replace", bom=args.bom)
        status = EXIT_ATTENTION
    out = text.encode("utf-8")
    if args.output:
        with open(args.output, "wb") as f:
            f.write(out)
    else:
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()
    return status
