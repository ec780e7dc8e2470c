"""``mojifix repair``: repair mojibake in a UTF-8 text file (or standard input), provably or not at all.

The repaired text goes to standard output (``--json``: the full result as JSON instead); ``--explain``
writes what was done and why to standard error. Exit codes follow ``mojifix.cli``: 0 the text was fine
or was repaired; 1 some original bytes are provably gone (``unrecoverable``: U+FFFD, 锟斤拷...), the text
is written anyway; 2 usage or I/O error, or the input is not UTF-8 (decode it first with
``mojifix decode``).
"""

from __future__ import annotations

import argparse
import sys

from mojifix.cli import EXIT_ATTENTION, EXIT_OK, EXIT_USAGE, read_input


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "repair",
        help="repair text that was already decoded with the wrong encoding (mojibake)",
        description="Undo up to --max-steps wrong decodings (UTF-8 read as Latin-1/windows-1252/a DOS or Mac "
        "code page; GBK/Big5/Shift_JIS/EUC bytes read as Latin-1; UTF-8 read as GBK/Big5/Shift_JIS). The "
        "text changes only when the repair is proven; see docs/repair.md.",
    )
    p.add_argument("file", nargs="?", default="-", help="UTF-8 text file, or - for standard input (default)")
    p.add_argument("--explain", action="store_true", help="say what was done and why (on stderr)")
    p.add_argument("--json", action="store_true", help="write the result (text, plan, confidence...) as JSON")
    p.add_argument("--max-steps", type=int, default=2, metavar="N", help="layers of mojibake to undo (2)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mojifix.repair import repair

    data = read_input(args.file)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        print(
            f"mojifix: error: {args.file} is not UTF-8 text (invalid byte at offset {exc.start}); repair "
            "works on text that was already decoded: decode the bytes first with 'mojifix decode'",
            file=sys.stderr,
        )
        return EXIT_USAGE
    result = repair(text, max_steps=args.max_steps)
    out = result.to_json(indent=1) + "\n" if args.json else result.text
    sys.stdout.buffer.write(out.encode("utf-8"))
    sys.stdout.buffer.flush()
    if args.explain:
        print(result.explain(), file=sys.stderr)
    return EXIT_ATTENTION if result.unrecoverable else EXIT_OK
