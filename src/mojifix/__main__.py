"""``python -m mojifix``: the same command line as the ``mojifix`` script (for when it is not on PATH)."""

from mojifix.cli import console_main

if __name__ == "__main__":
    console_main()
