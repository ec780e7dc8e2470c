"""Stage 6b: UTF-7 (RFC 2152), in the file domain only, and only on strict evidence.

UTF-7 is 7-bit, so it reaches this stage only when the input is otherwise ASCII. It is not a WHATWG
encoding (the Encoding Standard maps its labels to nothing, and browsers do not decode it), so
``domain="web"`` never names it; old mail archives and Windows/Java exports still hold it.

Every ``+`` in ASCII text starts a would-be *shifted sequence* (RFC 2152, rule 2: ``+``, modified
base64 of UTF-16 code units, ended by ``-`` or by any character outside the base64 alphabet; ``+-``
is a literal ``+``). Ordinary ASCII is full of ``+``: "C++", "1+1=2", "a+b-c", URLs, e-mail tags,
base64 blobs. So the input is read as UTF-7 only when every one of its shifted sequences is what an
encoder writes, and what they decode to reads as text:

1. the base64 bits make whole UTF-16 code units, the bits left over are fewer than six and all zero,
   and the code units pair into valid characters (no lone surrogate) (RFC 2152's decoding rules;
   "C++", "1+1", "a+b" leave 6 or 12 bits: not UTF-7);
2. a sequence is not followed by base64 padding (``==``, or ``=`` at the end of a line), which
   UTF-7 never writes and base64 blobs end with;
3. an encoder shifts only what it may not write directly: a sequence decodes to non-ASCII characters
   (and the ASCII that RFC 2152 leaves out of its direct characters: ``~``, ``\\``, controls),
   never to ASCII letters, digits or punctuation;
4. every decoded non-ASCII character is one that text uses (a letter, mark, digit, punctuation,
   symbol or space: no control, unassigned, private-use or surrogate code point, no noncharacter);
5. the decoded letters are of at most two scripts, and if two, one of them is Latin (random base64
   decodes to a scatter of Hangul, Han, Yi, Cyrillic... at once);
6. in all, at least :data:`MIN_SHIFTED_CHARS` non-ASCII characters are decoded, and the words holding
   them are typographic marks only (``»Text«``, "10 €") or read as text in some language (the
   pipeline's reads-as-text test on the model's score, and :data:`MIN_KNOWN_SHARE` of their letters
   among the language's frequent ones).

Rules 1-5 are structure and need no model; rule 6 is the same bar every other reading must pass.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass

__all__ = ["MIN_KNOWN_SHARE", "MIN_SHIFTED_CHARS", "UTF7", "Utf7Reading", "utf7_reading"]

#: the registry name (CPython's codec name)
UTF7 = "utf-7"
#: non-ASCII characters the shifted sequences must decode to in all: a single one is what a stray
#: ``+tag`` or ``+abc`` gives by chance (18 bits: one code unit and two zero bits, 1 in 4 of them),
#: while text in a language that needs UTF-7 has a non-ASCII character in most words. Reasoning, not
#: tuned on a data set; the cost is that a note whose only non-ASCII character is one "é" stays ASCII.
MIN_SHIFTED_CHARS = 2
#: share of the decoded words' letters that must be among their language's frequent characters (rule
#: 6, beside the reads-as-text bar): random base64 reads as a scatter of rare Han or Hangul, which the
#: CJK bar lets through. Chosen on the catalogs' development half (224 UTF-7 documents in 14
#: languages: every one >= 0.96) against 20,000 generated ASCII lines with "+" in words, e-mail tags
#: and base64 blobs (the 41 that pass rules 1-5 score <= 0.8)
MIN_KNOWN_SHARE = 0.9
#: a shifted sequence: ``+``, then the modified base64 alphabet (RFC 2152 Set B), up to the first
#: character outside it (``-`` is absorbed as the explicit end)
_SHIFTED = re.compile(rb"\+([A-Za-z0-9+/]*)(-?)")
#: base64 padding after a run: "==", or "=" ending the line ("Größe=5" is text, "...QAB=" a blob's end)
_PADDING = re.compile(rb"=(?:=|\r?\n|\Z)")
_B64 = {c: i for i, c in enumerate(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
#: ASCII characters an encoder shifts although they are ASCII: those RFC 2152 leaves out of its direct
#: characters (Set D, Set O, space, tab, CR, LF): "+", "~", "\\" and the controls (CPython writes "~"
#: as "+AH4-", and the "+" of "데이터+스택" inside the run); a run that decodes to a letter, digit or
#: Set O mark is not an encoder's
_SHIFTED_ASCII = frozenset("+~\\\x7f" + "".join(chr(c) for c in range(32) if chr(c) not in "\t\r\n"))
#: Unicode general categories of characters that text uses (rule 4); format characters are allowed
#: only as the soft hyphen, the joiners and the bidirectional marks of :data:`_FORMAT_OK` (Arabic and
#: Persian text has them)
_TEXT_CATEGORIES = frozenset(
    ("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf",
     "Po", "Sm", "Sc", "Sk", "So", "Zs")
)  # fmt: skip
_WORD = re.compile(r"\S+")
_FORMAT_OK = frozenset("\u00ad\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: scripts that one language writes together (Japanese: Han and kana), counted as one for rule 5
_SCRIPT_GROUP = dict.fromkeys(
    ("HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "CJK", "IDEOGRAPHIC", "HALFWIDTH", "FULLWIDTH"), "CJK"
)
#: the letters whose script rule 5 counts (modifier letters such as Ukrainian's "ʼ" belong to none)
_SCRIPT_LETTERS = frozenset(("Lu", "Ll", "Lt", "Lo"))


@dataclass(frozen=True, slots=True)
class Utf7Reading:
    """The input read as UTF-7: its text, the number of shifted sequences and of non-ASCII
    characters they decode to."""

    text: str
    sequences: int
    shifted_chars: int
    #: the words (runs between white space) that hold a decoded non-ASCII character, one space
    #: between each: what rule 6 scores (the ASCII elsewhere reads alike either way and would carry
    #: three random CJK characters in an English page over the bar)
    words: str
    #: every decoded non-ASCII character is typographic punctuation or a symbol (« » – “ ” € ° ...):
    #: words without letters, which no language model scores, and which random base64 hardly ever
    #: decodes to (143 of 65,536 code units each)
    typographic: bool


def utf7_reading(data: bytes) -> Utf7Reading | None:
    """``data`` (7-bit) read as UTF-7 when its shifted sequences pass rules 1-5 and decode to at least
    :data:`MIN_SHIFTED_CHARS` non-ASCII characters; None otherwise. Rule 6 (reads as text) is the
    caller's: the model's score of :attr:`Utf7Reading.words`."""
    if not data.isascii() or b"+" not in data:
        return None
    out: list[str] = []
    spans: list[int] = []  # offsets in the text of the decoded non-ASCII characters
    pos = sequences = shifted = length = 0
    scripts: set[str] = set()
    for m in _SHIFTED.finditer(data):
        direct = data[pos : m.start()].decode("ascii")
        out.append(direct)
        length += len(direct)
        pos = m.end()
        run, explicit_end = m.group(1), m.group(2)
        if not run:
            if not explicit_end:
                return None  # a "+" followed by neither base64 nor "-": "a + b", "C++" ends here
            out.append("+")  # "+-" is a literal plus sign
            length += 1
            continue
        if not explicit_end and _PADDING.match(data, pos):
            return None  # rule 2: base64 padding
        decoded = _decode_run(run)
        if decoded is None:
            return None
        for k, ch in enumerate(decoded):
            if ch.isascii():
                if ch not in _SHIFTED_ASCII:
                    return None  # rule 3
                continue
            if ch == "\ufeff" and length + k == 0:
                continue  # the signature "+/v8-" (RFC 2152's byte order mark), not text
            if not _text_character(ch):
                return None  # rule 4
            shifted += 1
            spans.append(length + k)
            if unicodedata.category(ch) in _SCRIPT_LETTERS:
                scripts.add(_script(ch))
        sequences += 1
        out.append(decoded)
        length += len(decoded)
    out.append(data[pos:].decode("ascii"))
    if shifted < MIN_SHIFTED_CHARS or len(scripts - {"LATIN"}) > 1:
        return None  # rule 6's count, rule 5
    text = "".join(out)
    typographic = all(_typographic(text[i]) for i in spans)
    return Utf7Reading(text, sequences, shifted, _words_at(text, spans), typographic)


def _typographic(ch: str) -> bool:
    """Punctuation or a symbol of Latin-1 (U+00A0-U+00BF), General Punctuation or the currency signs."""
    return "\u00a0" <= ch <= "\u00bf" or "\u2010" <= ch <= "\u205e" or "\u20a0" <= ch <= "\u20bf"


def _words_at(text: str, offsets: list[int]) -> str:
    """The distinct white-space-delimited words of ``text`` holding a character at ``offsets``."""
    bounds = [m.span() for m in _WORD.finditer(text)]
    starts = [start for start, _ in bounds]
    chosen = dict.fromkeys(bounds[bisect.bisect_right(starts, i) - 1] for i in offsets)
    return " ".join(text[start:end] for start, end in chosen)


def _decode_run(run: bytes) -> str | None:
    """The characters of one shifted sequence's base64 ``run`` (rule 1), or None when it is not what
    an encoder writes."""
    bits = nbits = 0
    units: list[int] = []
    for c in run:
        bits = (bits << 6) | _B64[c]
        nbits += 6
        if nbits >= 16:
            nbits -= 16
            units.append(bits >> nbits)
            bits &= (1 << nbits) - 1
    if nbits >= 6 or bits != 0 or not units:
        return None
    try:
        return b"".join(u.to_bytes(2, "big") for u in units).decode("utf-16-be")
    except UnicodeDecodeError:
        return None  # a lone surrogate


def _text_character(ch: str) -> bool:
    """Rule 4: a character text uses (not a control, unassigned, private-use or noncharacter)."""
    if ch in _FORMAT_OK:
        return True
    code = ord(ch)
    if 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE:
        return False
    return unicodedata.category(ch) in _TEXT_CATEGORIES


def _script(ch: str) -> str:
    """The script of a letter, by the first word of its Unicode name (Han and kana as one)."""
    word = unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]
    return _SCRIPT_GROUP.get(word, word)
