"""``make demo``: mojifix's main jobs on bundled sample data.

1. Web pages: the classic HTML encoding traps, what ``requests`` gives and what mojifix gives, and why.
2. Legacy file tree: a generated mixed-encoding tree converted to UTF-8 (guess, verify, admit),
   ending with the conversion summary.
3. The review page for that tree's quarantine (settle), and the command that applies its decisions.
"""

from __future__ import annotations

import sys


def main() -> int:
    from mojifix.convert.demo import OUT
    from mojifix.convert.demo import run as convert_demo
    from mojifix.review.demo import run as review_demo
    from mojifix.sniff.demo import run as sniff_demo

    print("=== 1. Web pages: requests' .text vs mojifix.decode_html ===\n", flush=True)
    sniff_status = sniff_demo()
    print("\n=== 2. Legacy file tree: mojifix convert ===\n", flush=True)
    convert_status = convert_demo()
    print("\n=== 3. Settle the quarantine: mojifix review ===\n", flush=True)
    review_demo(OUT / "legacy", OUT / "utf8")
    # The demo tree contains two corrupted files on purpose: quarantining them is the expected outcome.
    return 0 if sniff_status in (0, 1) and convert_status in (0, 1) else 2


if __name__ == "__main__":
    sys.exit(main())
