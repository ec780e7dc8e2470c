"""Compare mojifix's ``decode_html`` with what Chromium showed for a case (golden or live).

Shared by ``tests/differential/test_chromium_goldens.py`` and ``test_chromium_live.py`` so both apply
exactly the same rule:

- ``encoding`` must equal Chromium's ``document.characterSet`` (WHATWG names, case-insensitively);
- the text must give the same DOM text (html5lib tree construction on mojifix's ``str``, the extraction
  of :func:`browser.dom_text_of`) -- except for cases in :data:`KNOWN_PARSER_DIFFERENCES` (html5lib and
  Blink build different trees from the same characters) and :data:`KNOWN_CHROMIUM_DECODER_BUGS`
  (Chromium's decoder deviates from the Encoding Standard); for those mojifix's text must equal the
  exact decode of the body (encoding_rs through ``endec``) in Chromium's encoding.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import endec

from .browser import dom_text_of
from .cases import Case

#: Cases where html5lib's tree differs from Blink's for identical characters (so DOM text cannot be
#: compared); the decode is compared byte-exactly instead. Each entry says why.
KNOWN_PARSER_DIFFERENCES: dict[str, str] = {
    "bom-utf32le": "UTF-32LE read as UTF-16LE yields U+0000 after every character; Blink keeps them in the "
    "DOM as U+FFFD where html5lib drops or keeps them differently",
    "tokenizer-bogus-comment-gt": "Chromium 156 parses `<?php ... ?>` into a ProcessingInstruction node "
    "(not the Standard's bogus comment), which the Text/Comment walker skips; html5lib makes a Comment",
}

#: Declared cases where Chromium's *decoder* (not its sniffing) deviates from the Encoding Standard.
#: mojifix follows the Standard there: its text must equal the exact decode (encoding_rs), and its
#: encoding must still equal Chromium's. Measured with Chromium 156.0.8078.114.
KNOWN_CHROMIUM_DECODER_BUGS: dict[str, str] = {
    "bytes-chromium-bug-big5-two-code-points": "Big5 88 62 / 88 64 / 88 A3 / 88 A5 must decode to two code "
    "points each (U+00CA U+0304, U+00CA U+030C, U+00EA U+0304, U+00EA U+030C); Chromium yields "
    "U+0093 U+DF04, U+0093 U+DF0C, U+00B3 U+DF04, U+00B3 U+DF0C (a C1 control and a lone surrogate)",
    "bytes-chromium-bug-eucjp-jis0212-flag": "EUC-JP: after 8F + lead byte + an ASCII byte (an error), the "
    "Standard clears the JIS X 0212 flag; Chromium keeps it, so the next valid pair (A1 A1 = U+3000, "
    "A4 A2 = U+3042) is looked up in JIS X 0212 and becomes U+FFFD (or a wrong character)",
    "bytes-chromium-bug-eucjp-jis0212-leads": "same EUC-JP JIS X 0212 flag bug, for every lead byte A1..FE "
    "after 8F",
}

#: Cases compared by exact decode rather than by DOM text.
EXACT_DECODE_CASES = KNOWN_PARSER_DIFFERENCES.keys() | KNOWN_CHROMIUM_DECODER_BUGS.keys()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def reference_decode(body: bytes, character_set: str) -> str:
    """The body decoded with Chromium's encoding by encoding_rs (through ``endec``), independent of mojifix.

    A BOM for ``character_set`` is removed (``bom="evaluate"``); when Chromium chose the encoding
    because of a BOM, ``character_set`` is that BOM's encoding, so this is the standard's "decode".
    """
    return endec.decode(body, character_set, errors="replace")


@dataclass(frozen=True, slots=True)
class Verdict:
    """Result of one comparison: ``ok`` and, if not, a short explanation for the assertion message."""

    ok: bool
    why: str = ""


def compare(case: Case, result: object, character_set: str, dom_text_sha256: str) -> Verdict:
    """Does ``result`` (a ``DecodedHTML``) match Chromium's ``character_set`` and DOM text?"""
    encoding = getattr(result, "encoding", None)
    text = getattr(result, "text", None)
    if not isinstance(encoding, str) or encoding.lower() != character_set.lower():
        return Verdict(False, f"encoding: mojifix {encoding!r}, Chromium {character_set!r}")
    if not isinstance(text, str):
        return Verdict(False, f"text is {type(text).__name__}, not str")
    if case.id in EXACT_DECODE_CASES:
        ref = reference_decode(case.body, character_set)
        if text != ref:
            return Verdict(
                False, f"text differs from the exact decode in {character_set}: {_first_diff(text, ref)}"
            )
        return Verdict(True)
    got = dom_text_of(text)
    if sha256_text(got) != dom_text_sha256:
        return Verdict(False, f"DOM text differs from Chromium's (same encoding {character_set})")
    return Verdict(True)


def _first_diff(a: str, b: str) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"first difference at char {i}: {a[i : i + 12]!r} vs {b[i : i + 12]!r}"
    return f"lengths {len(a)} vs {len(b)}"
