"""Measure how the nearest CPython codecs differ from the WHATWG Encoding Standard's CJK decoders.

Usage: python tools/cpython_diff.py [--output docs/whatwg-cpython-differences.md] [--no-four-byte]

For each CJK encoding and each nearby CPython codec, decodes every 1- and 2-byte input (plus every
EUC-JP 0x8F three-byte input and every gb18030 four-byte input; ISO-2022-JP also after ESC $ B) with
both and counts: sequences decoded differently (both valid), rejected by one but not the other, and
invalid inputs where the number of U+FFFD differs. mojifix's decoders stand in for the standard here:
tests/whatwg/test_cjk_exhaustive.py checks them against a straight-from-the-spec reference on the same
inputs. Also encodes every code point U+0001-U+10FFFF with each nearby CPython encoder and with
mojifix's encoder and counts the differences. Writes a Markdown report (tables generated; the design
notes are part of this tool).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from mojifix.whatwg import big5, euc_jp, euc_kr, gb18030, iso_2022_jp, shift_jis  # noqa: E402
from mojifix.whatwg._cjk import StatelessCjkCodec, cpython_encodings  # noqa: E402

OUTPUT = ROOT / "docs" / "whatwg-cpython-differences.md"
EXAMPLES = 4  # examples kept per category

#: standard encoding -> the CPython codecs compared (the first is the fast path's, where there is one)
NEAREST = {
    "gb18030": ["gbk", "gb18030"],
    "Big5": ["big5hkscs", "big5", "cp950"],
    "EUC-JP": ["euc_jp"],
    "ISO-2022-JP": ["iso2022_jp"],
    "Shift_JIS": ["cp932", "shift_jis"],
    "EUC-KR": ["cp949", "euc_kr"],
}
CODECS = {**gb18030.CODECS, **big5.CODECS, **euc_jp.CODECS, **iso_2022_jp.CODECS, **shift_jis.CODECS,
          **euc_kr.CODECS}  # fmt: skip
CATEGORIES = {
    "differ": "both accept, different text",
    "cpython_rejects": "only CPython rejects",
    "standard_rejects": "only the standard rejects",
    "fffd_count": "both reject, different U+FFFD count",
    "other": "both reject, same count, different text",
}


@dataclass
class Tally:
    """Counts and a few examples per category for one (encoding, CPython codec) pair."""

    inputs: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    examples: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in CATEGORIES})

    def add(self, data: bytes, standard: str, python: str, name: str, py: str) -> None:
        self.inputs += 1
        if standard == python:
            return
        std_ok = "\ufffd" not in standard or accepts(lambda: CODECS[name].decode(data, "strict"))
        py_ok = "\ufffd" not in python or accepts(lambda: data.decode(py))
        if std_ok and py_ok:
            category = "differ"
        elif std_ok:
            category = "cpython_rejects"
        elif py_ok:
            category = "standard_rejects"
        elif standard.count("\ufffd") != python.count("\ufffd"):
            category = "fffd_count"
        else:
            category = "other"
        self.counts[category] += 1
        # An input starting with an ASCII byte only repeats what its tail shows alone: not an example.
        interesting = data[0] >= 0x80 or len(data) == 1 or data.startswith(b"\x1b")
        if len(self.examples[category]) < EXAMPLES and interesting:
            self.examples[category].append(
                f"`{data.hex(' ')}`: CPython {show(python)}, standard {show(standard)}"
            )


def accepts(decode) -> bool:
    """True if ``decode()`` succeeds in strict mode (U+FFFD can be a valid character, e.g. gb18030)."""
    try:
        decode()
    except UnicodeDecodeError:
        return False
    return True


def show(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text) or "(nothing)"


def inputs_for(name: str, four_byte: bool) -> Iterator[tuple[str, bytes]]:
    """(input set label, input) pairs for an encoding."""
    for b in range(256):
        yield "1-2 byte", bytes([b])
    for a in range(256):
        for b in range(256):
            yield "1-2 byte", bytes([a, b])
    if name == "EUC-JP":
        for a in range(256):
            for b in range(256):
                yield "0x8F 3-byte", bytes([0x8F, a, b])
    if name == "ISO-2022-JP":
        for a in range(256):
            for b in range(256):
                yield "ESC $ B + 2 bytes", b"\x1b$B" + bytes([a, b])
    if name == "gb18030" and four_byte:
        for a in range(0x81, 0xFF):
            for b in range(0x30, 0x3A):
                for c in range(0x81, 0xFF):
                    for d in range(0x30, 0x3A):
                        yield "4-byte", bytes([a, b, c, d])


def measure(name: str, four_byte: bool) -> dict[str, dict[str, Tally]]:
    """{CPython codec: {input set: Tally}} for one encoding."""
    codec = CODECS[name]
    results: dict[str, dict[str, Tally]] = {py: {} for py in NEAREST[name]}
    for label, data in inputs_for(name, four_byte):
        standard = codec.decode(data)
        for py in NEAREST[name]:
            tally = results[py].setdefault(label, Tally())
            tally.add(data, standard, data.decode(py, "replace"), name, py)
    return results


#: standard encoding -> the CPython encoders compared (the first is the fast path's)
NEAREST_ENCODERS = {
    "gb18030": ["gbk", "gb18030"],
    "GBK": ["gbk"],
    "Big5": ["big5hkscs", "big5", "cp950"],
    "EUC-JP": ["euc_jp"],
    "Shift_JIS": ["shift_jis", "cp932"],
    "EUC-KR": ["cp949", "euc_kr"],
}
ENCODER_CATEGORIES = {
    "differ": "both encode, different bytes",
    "standard_rejects": "only CPython encodes",
    "cpython_rejects": "only the standard encodes",
}


def measure_encoders() -> list[tuple[str, str, dict[str, int]]]:
    """(encoding, CPython encoder, counts) over every code point U+0001-U+10FFFF."""
    rows = []
    for name, encoders in NEAREST_ENCODERS.items():
        codec = CODECS[name]
        assert isinstance(codec, StatelessCjkCodec)
        standard = {}
        for cp in range(1, 0x110000):
            if (got := codec.encode_char(cp)) is not None:
                standard[cp] = got
        for py in encoders:
            cpython = cpython_encodings(py)
            counts = {
                "differ": sum(1 for cp, got in cpython.items() if cp in standard and standard[cp] != got),
                "standard_rejects": sum(1 for cp in cpython if cp not in standard),
                "cpython_rejects": sum(1 for cp in standard if cp not in cpython),
            }
            rows.append((name, py, counts))
    return rows


def plan_summary(name: str) -> str:
    codec = CODECS[name]
    if not isinstance(codec, StatelessCjkCodec):
        remap, slow = codec._cpython_plan()
        return (
            f"`iso2022_jp` for plain input ({len(remap)} characters translated back, {len(slow)} sending "
            "text elsewhere), else segment decoding (see below)"
        )
    plan = codec.plan
    parts = [f"fast path `{plan.py_codec}`", f"{len(plan.remap)} characters translated back"]
    parts.append(f"{len(plan.slow_chars)} characters sending text to the exact path")
    if plan.slow_sequences:
        seqs = ", ".join(f"`{s.hex(' ')}`" for seqs in plan.slow_sequences.values() for s in seqs)
        parts.append(f"byte sequences checked when their CPython output appears: {seqs}")
    enc = codec.encode_plan
    marker = f", marker bytes {enc.marker[0]:#04x}-{enc.marker[-1]:#04x} in the output" if enc.marker else ""
    test = "a character class" if enc.scan is not None else f"{len(enc.scanned)} `in` scans"
    wrong = f"{len(enc.wrong):,} wrong characters"
    parts.append(f"encoder `{enc.py_codec}`: {wrong}{marker}, {test} for the rest")
    return "; ".join(parts)


CLOSING = {
    "differ": "`str.translate` when the wrong character only ever stands for one standard character "
    "(e.g. EUC-JP U+301C -> U+FF5E); otherwise the text goes through the exact path",
    "cpython_rejects": "the error handler runs the standard's decoder for one item there and outputs "
    "its character",
    "standard_rejects": "CPython's character is on the plan's slow list: the exact path decodes that piece",
    "fffd_count": "the error handler emits one U+FFFD per standard error and resumes where the standard "
    "resumes (ASCII trail bytes are read again; a non-ASCII invalid trail byte is consumed)",
    "other": "as for the U+FFFD count: the handler decides where decoding resumes",
}

DESIGN = """\
## How mojifix closes the gaps: the fast-path design

Decoding byte by byte in Python would run at a few MB/s; CPython's C codecs run at hundreds. So each
stateless CJK decoder (gb18030/GBK, Big5, EUC-JP, Shift_JIS, EUC-KR) works in three layers
(`src/mojifix/whatwg/_cjk.py`):

1. **An exact one-step decoder** per encoding, a transcription of the standard's handler that starts
   in the initial state at a byte offset, runs until it outputs one item (characters or an error) and
   says where the standard resumes. These five decoders are back in their initial state after every
   item, so one step needs no other context. Looping it is the exact (slow) path.
2. **The nearest CPython codec with a custom error handler.** At each CPython error, the handler runs
   one exact step at that offset and resumes where the standard resumes, so the number and position of
   U+FFFD are the standard's, and sequences CPython lacks (gb18030's 0x80 and four-byte sequences,
   Big5's extra index entries, Shift_JIS's EUDC, ...) decode to the standard's characters.
3. **A plan built once per codec instance** (at first use, 20-80 ms) by comparing every CPython
   token (every accepted 1- and 2-byte sequence, and EUC-JP's 3-byte ones; CPython's `gbk`, used for
   gb18030, has no longer ones)
   with the exact step. A token that agrees needs nothing. A wrong character that the standard never
   outputs and that always stands for the same standard character is translated back with
   `str.translate`. Any other wrong character is "slow": if it appears in the output, the input is cut
   after sync bytes (bytes the decoder never accepts as a continuation, e.g. any byte below 0x30: they
   end any pending sequence) into pieces of about 4 KB, and the pieces that contain it are decoded by
   the exact path. A wrong character that is also right elsewhere
   (EUC-JP 0x8F 0xA2 0xB7 is "~" in CPython) is resolved by looking for its byte sequence in the input.

Why it is exact: CPython and the standard start in the same state; every CPython token is, by the
exhaustive comparison, a standard token of the same length with the same (or translated) output;
so both reach each CPython error at the same offset, where the handler does what the standard does
and resumes where it resumes. Strict mode uses a handler that raises at the first standard error; if
CPython accepted something wrong before it, the exact path finds the real first error. The test suite
compares the result with a straight-from-the-spec reference on every 1- and 2-byte input, every EUC-JP
three-byte input and the gb18030 four-byte space (exhaustive for the BMP part, sampled elsewhere).

The presence tests are what the fast path costs beyond CPython: a few `in` scans of the output (C
speed, several GB/s each) or one compiled character class when a plan has more than 24 suspect
characters (none does today). Choices that came out of measuring:

- **gb18030 uses CPython's `gbk`, not `gb18030`**: `gbk` agrees with the standard on every two-byte
  sequence it accepts, so no output check is needed at all; CPython's `gb18030` maps 21 characters
  differently (GB18030-2005 vs 2022 mappings), which would need 21 scans of every output. Four-byte
  sequences (rare in Chinese text) go through the handler, one call each.
- **Big5 uses `big5hkscs`** (2 slow byte sequences, 9 translated characters); `big5` and `cp950` lack
  the HKSCS characters in the standard's index (about 250 slow characters each). Sequences the index
  has and `big5hkscs` lacks (e.g. the ETEN extensions 0xC6 0xA1-0xC8 0xFE) cost one handler call each.
- **Shift_JIS uses `cp932`** (4 slow Private Use characters for 0xA0 and 0xFD-0xFF); `shift_jis` lacks
  the NEC/IBM extensions, which would cost a handler call each.
- **EUC-KR uses `cp949`**: no differences on accepted sequences; only error recovery differs.

ISO-2022-JP keeps state across items, so it is decoded differently (`iso_2022_jp.py`). One-shot
decoding of plain input (ASCII bytes only, every ESC starting ESC $ B, ESC ( B or ESC ( J, no escape
sequence right after another, nothing but 0x21-0x7E in jis0208 segments; one regex pass
check this) uses CPython's `iso2022_jp`, whose error handler decodes the NEC/IBM pairs it lacks from
the index and gives up on anything else; its six jis0208 mapping differences are translated back as
for EUC-JP. Otherwise the input is split at valid escape sequences; the bodies of each mode are
joined with a byte that cannot occur in a well-formed body, checked with `bytes.translate`, decoded
in one call (jis0208 pairs + 0x80 through the exact EUC-JP decoder) and split again. Anything else
(an invalid byte for the mode, a stray ESC, strict-mode errors) goes through a transcription of the
state machine.

The error handler answers a two-byte sequence from a table of every pair the exact step decodes as one
character (built with the plan); it runs the step itself only for errors and longer sequences. This
matters for Big5: simplified-Chinese text in Big5 uses index entries `big5hkscs` lacks (0xC6 0xD3 无,
0xC6 0xD7 隶, 0xFE 0x52 猪: about 1,000 handler calls per MB), and the table made those calls about 4x
cheaper. What is left of the gap to CPython on Big5 is the presence test: 9 `in` scans and 2 byte
sequences for `big5hkscs`'s 9 translated characters (all in rows 0xA1-0xA2, so no cheaper byte test).

ISO-2022-JP's one-shot CPython path costs a regex pass (about 3 ms per MB) plus CPython's decode (about
4 ms per MB), so it stays near 0.5x CPython: CPython's `iso2022_jp` passes through escape sequences the
standard rejects and control bytes inside jis0208 segments, so the input must be checked first, and no
check cheaper than the regex was found (bytes.translate/count/replace variants measured slower).

## Encoders

The standard's encoders are a table look-up per code point; in Python that is `str.translate` plus
latin-1 (about 40 MB/s), far below CPython's C encoders (200-850 MB/s). Each stateless CJK encoder now
encodes with the nearest CPython encoder and an error handler that runs the standard's encoder on the
code points CPython cannot encode (strict: raise at that index; html: `&#N;`, a lone surrogate first
becoming U+FFFD). What makes it exact is a plan built at first use (60-150 ms) by encoding **every code
point** (U+0001-U+10FFFF, in one CPython call per plane block) and comparing with the standard's encoder:
the *wrong* characters are those CPython encodes to other bytes, or encodes where the standard has an
error. Text without a wrong character is exact: every character CPython encodes is the standard's bytes,
and the handler does the standard's work on the rest (these encoders are stateless; the one
context-dependent rule, `big5hkscs`'s Ê/ê + U+0304/U+030C, starts with a wrong character). Text with one
is cut around them: CPython between them, the standard's encoder on each. A strict-mode error from
CPython's side is only trusted if the text has no wrong character (one could come first).

The presence test is what the fast path costs beyond CPython. Where the wrong characters' CPython bytes
contain a byte the standard's encoder never outputs (checked against every standard output), the test is
on the output: EUC-JP's 0x8F (JIS X 0212, which the standard never encodes: one `memchr` covers 6,066 of
its 6,071 wrong characters) and Big5's 0x80-0xA0 (the HKSCS lead bytes the standard's encoder excludes:
one `bytes.translate` pass covers 3,774 of 3,793). The rest are `in` scans (up to 24) or a character
class (BMP and supplementary characters in separate patterns: `re` tests a BMP class with a bitmap but a
class with supplementary characters as a list, 3 MB/s with HKSCS's).

Wrong characters that CPython encodes to two bytes `xy` (x != y) and the standard to two others are
*fixable* in the output (Big5: 15, e.g. 无 0xFC 0xD3 -> 0xC6 0xD3, ／ 0xA2 0x41 -> 0xA1 0xFE, 隶 猪): one
`re.subn` pass replaces them when it finds exactly as many sequences as the text has such characters and
the sequences cannot overlap (no first byte of one is the second byte of one). Each such character put
its sequence at a character boundary; a sequence across a boundary would make the count larger. Any
other wrong character, or a count that does not add up, cuts the text as above.

Encoder choices (counts from the table above):

- **gb18030 and GBK use `gbk`**: no wrong character at all; four-byte sequences, U+E5E5 and GBK's
  U+20AC -> 0x80 go through the handler. (CPython's `gb18030` has 21 wrong characters.)
- **Big5 uses `big5hkscs`**: it has every character of the standard's index, so the handler is rare;
  `big5`/`cp950` have fewer wrong characters (265) but lack about 950 the standard encodes, e.g. 着 样 无,
  thousands per MB of simplified-derived text.
- **EUC-JP uses `euc_jp`** (marker 0x8F plus 5 `in` scans: ¢ £ ¬ ‖ 〜).
- **Shift_JIS uses `shift_jis`**, not `cp932`: 5 wrong characters instead of 2,262 (cp932 encodes the
  NEC-selected IBM duplicates the standard skips, pointers 8272-8835, and EUDC); the NEC/IBM extensions
  it lacks go through the handler.
- **EUC-KR uses `cp949`**: no wrong character.
- **ISO-2022-JP** (stateful): CPython's `iso2022_jp`, whose ASCII/jis0208 runs and escape sequences
  between them are the standard's (checked on every BMP code point alone and in runs). It encodes 10
  characters wrongly: SO, SI and ESC (errors in the standard) send the text to the standard's state
  machine in Python; ¥ ‾ (CPython returns to ASCII after each, the standard stays in Roman) and ¢ £ ¬ ‖ 〜
  are replaced by lone surrogates first (`str.replace`, only when present), so CPython hands them to the
  error handler like everything else it cannot encode (NEC/IBM extensions, halfwidth katakana, U+2212,
  errors). Bytes returned by a handler leave CPython's state unchanged, so the handler runs the
  standard's encoder from CPython's state (ASCII, or jis0208 if the previous character was a jis0208
  one) until, after a character, it is in that state again, and adds ESC ( B if the text ends first in
  another state while CPython is in ASCII (the one case it cannot fix, jis0208 in CPython and ASCII in
  the standard at the end, goes to the exact path).

Incremental decoders buffer at most the bytes after the last offset where the standard's decoder is in
its initial state and has looked at nothing beyond, so any split of the input gives the one-shot result.

Sources: the WHATWG Encoding Standard, https://encoding.spec.whatwg.org/ (sections "Indexes" and
"Legacy multi-byte ... encodings"; the data in `../shared/data/whatwg`), and CPython's codec
documentation, https://docs.python.org/3/library/codecs.html (error handlers, standard encodings).
"""


def render(
    results: dict[str, dict[str, dict[str, Tally]]],
    seconds: float,
    four_byte: bool,
    encoders: list[tuple[str, str, dict[str, int]]],
) -> str:
    lines = [
        "# CPython codecs vs the WHATWG Encoding Standard: CJK decoders and encoders",
        "",
        "<!-- GENERATED by tools/cpython_diff.py -- DO NOT EDIT (rerun the tool). -->",
        "",
        f"Measured with Python {sys.version.split()[0]} in {seconds:.0f} s over every 1- and 2-byte input,",
        "every EUC-JP 0x8F three-byte input, ISO-2022-JP 2-byte inputs after ESC $ B"
        + (" and every gb18030 four-byte input" if four_byte else "")
        + ". The standard's side is mojifix's decoder, which the tests check against a",
        "straight-from-the-spec reference on the same inputs. Inputs are decoded one by one (so a lead byte",
        "at the end is truncated input). GBK's decoder is gb18030's, so the gb18030 rows apply to GBK too.",
        "",
        "| encoding | CPython codec | inputs | " + " | ".join(CATEGORIES.values()) + " |",
        "|---|---|---|" + "---|" * len(CATEGORIES),
    ]
    for name, by_codec in results.items():
        for py, by_set in by_codec.items():
            for label, tally in by_set.items():
                counts = " | ".join(f"{tally.counts[k]:,}" for k in CATEGORIES)
                lines.append(f"| {name} | `{py}` | {label}: {tally.inputs:,} | {counts} |")
    lines += [
        "",
        "## Encoders: every code point",
        "",
        "Every code point U+0001-U+10FFFF encoded alone by CPython's encoder and by mojifix's (the",
        "standard's encoder, checked against the reference on every index code point). ISO-2022-JP is",
        "stateful and is described below.",
        "",
        "| encoding | CPython encoder | " + " | ".join(ENCODER_CATEGORIES.values()) + " |",
        "|---|---|" + "---|" * len(ENCODER_CATEGORIES),
    ]
    for name, py, counts in encoders:
        cells = " | ".join(f"{counts[k]:,}" for k in ENCODER_CATEGORIES)
        lines.append(f"| {name} | `{py}` | {cells} |")
    lines += ["", "## How mojifix closes each kind of difference", ""]
    lines += [f"- **{CATEGORIES[k]}**: {v}." for k, v in CLOSING.items()]
    lines += ["", "Fast-path plans (built from the same comparison when a codec is first used):", ""]
    lines += [f"- **{name}**: {plan_summary(name)}" for name in results]
    lines += ["", "## Examples", ""]
    for name, by_codec in results.items():
        for py, by_set in by_codec.items():
            for label, tally in by_set.items():
                shown = [(k, ex) for k in CATEGORIES for ex in tally.examples[k]]
                if not shown:
                    continue
                lines.append(f"### {name} vs `{py}` ({label})")
                lines.append("")
                for k in CATEGORIES:
                    if tally.examples[k]:
                        lines.append(
                            f"- {CATEGORIES[k]} ({tally.counts[k]:,}): " + "; ".join(tally.examples[k])
                        )
                lines.append("")
    lines.append(DESIGN)
    return "\n".join(lines)


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument(
        "--no-four-byte", action="store_true", help="skip the 1.6 million gb18030 four-byte inputs"
    )
    args = parser.parse_args(None if argv is None else list(argv))
    start = time.perf_counter()
    results = {name: measure(name, not args.no_four_byte) for name in NEAREST}
    encoders = measure_encoders()
    text = render(results, time.perf_counter() - start, not args.no_four_byte, encoders)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
