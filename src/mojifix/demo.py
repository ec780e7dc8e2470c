"""``make demo``: decode a few classic traps and print what decided (grows with each feature)."""

from __future__ import annotations

from mojifix.whatwg import lookup

SAMPLES = [
    ("windows-1252 label, euro byte", b"Price: 5 \x80", "iso-8859-1"),
    ("Shift_JIS wave dash 0x8160", b"\x82\xa0\x81\x60", "shift_jis"),
    ("gb2312 label, GBK-only char", b"\x81\x40", "gb2312"),
]


def main() -> int:
    for title, data, label in SAMPLES:
        enc = lookup(label)
        assert enc is not None
        text = enc.decode(data)
        print(f"{title:36} label={label!r:12} -> {enc.name:12} {text!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
