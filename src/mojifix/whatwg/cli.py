"""``mojifix decode``: decode a file with a named WHATWG encoding."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("decode", help="decode FILE with a WHATWG encoding label, exactly as a browser does")
    p.add_argument("file", help="input file, or - for standard input")
    p.add_argument("-e", "--encoding", required=True, help="a WHATWG encoding label, e.g. shift_jis")
    p.add_argument("--strict", action="store_true", help="fail on the first invalid byte sequence")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mojifix.whatwg import decode

    if args.file == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(args.file, "rb") as f:
            data = f.read()
    text = decode(data, args.encoding, errors="strict" if args.strict else "replace")
    sys.stdout.write(text)
    return 0
