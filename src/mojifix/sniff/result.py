"""Results of :func:`mojifix.decode_html`: the decoded text and how the decision was made.

Frozen, slotted, printable and JSON-able, like every result in mojifix: a caller can log
``str(result)``, store ``result.to_json()``, or branch on ``result.source`` and the warning codes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mojifix._frozen import slot_constructor

#: Where the encoding came from, in the order the algorithm tries them (docs/sniffing.md).
SOURCES = (
    "bom",
    "override",
    "transport",
    "meta",
    "meta-late",
    "xml-declaration",
    "evidence",
    "utf-8-valid",
    "detected",
    "tld-default",
    "default",
)

#: How sure the decision is, in the HTML Standard's words ("confidence", 13.2.3).
CONFIDENCES = ("certain", "tentative", "irrelevant")

#: Characters of ``text`` shown by ``__str__`` before it is cut.
_PREVIEW_CHARS = 60


@dataclass(frozen=True, slots=True)
class Finding:
    """One structured warning, e.g. code="header-meta-conflict" with the two labels in ``details``.

    ``code`` is stable (tests and callers branch on it); ``message`` is for people and says what to
    do next; ``details`` holds the machine-readable facts (labels, byte offsets, counts).
    """

    code: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": dict(self.details)}

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


@dataclass(frozen=True, slots=True)
class DecodedHTML:
    """An HTML document decoded the way a browser would, with the rule that decided.

    ``encoding`` is the WHATWG name used for ``text``; ``browser_encoding`` is what a browser
    picks for the same bytes. They differ only on undeclared pages, where mojifix reads a valid
    UTF-8 body as UTF-8 (or trusts the detector) while browsers fall back to a legacy default.
    """

    text: str
    encoding: str
    source: str
    confidence: str
    label: str | None
    label_origin: str | None
    warnings: tuple[Finding, ...]
    replacement_count: int
    browser_encoding: str
    browser_source: str

    @property
    def warning_codes(self) -> tuple[str, ...]:
        """The codes of ``warnings``, in order (handy for ``in`` tests)."""
        return tuple(w.code for w in self.warnings)

    def to_dict(self) -> dict[str, Any]:
        """All fields as plain JSON-able values (warnings as dicts)."""
        return {
            "text": self.text,
            "encoding": self.encoding,
            "source": self.source,
            "confidence": self.confidence,
            "label": self.label,
            "label_origin": self.label_origin,
            "warnings": [w.to_dict() for w in self.warnings],
            "replacement_count": self.replacement_count,
            "browser_encoding": self.browser_encoding,
            "browser_source": self.browser_source,
        }

    def to_json(self, **kwargs: Any) -> str:
        """``to_dict()`` as JSON (non-ASCII kept as is; keyword arguments go to ``json.dumps``)."""
        import json  # here, not at import: decode_html's callers mostly never ask for JSON

        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    def __str__(self) -> str:
        lines = [f"encoding: {self.encoding} (source: {self.source}, confidence: {self.confidence})"]
        if self.label is not None:
            lines.append(f"label:    {self.label!r} from {self.label_origin}")
        if (self.browser_encoding, self.browser_source) != (self.encoding, self.source):
            lines.append(f"browser:  {self.browser_encoding} (source: {self.browser_source})")
        if self.replacement_count:
            lines.append(f"replacement characters: {self.replacement_count}")
        lines.extend(f"warning:  {w}" for w in self.warnings)
        preview = self.text[:_PREVIEW_CHARS]
        more = "..." if len(self.text) > _PREVIEW_CHARS else ""
        lines.append(f"text:     {preview!r}{more} ({len(self.text)} characters)")
        return "\n".join(lines)


#: ``DecodedHTML(...)`` for ``decode_html``'s hot path: the same frozen object, built without ``__init__``
#: (about a fifth of decode_html's fixed cost on a header-declared page; see mojifix._frozen).
#: tests/sniff/test_result.py checks that it builds what ``__init__`` builds.
new_decoded_html = slot_constructor(DecodedHTML)


_REPLACEMENT_UTF8 = b"\xef\xbf\xbd"


def fffd_count(text: str) -> int:
    """How many U+FFFD ``text`` holds. Most texts hold none: ``in`` (a fast search) answers that
    many times faster than ``count`` (a loop over every character)."""
    return text.count("\ufffd") if "\ufffd" in text else 0


def decoder_replacements(text: str, body: bytes, encoding: str) -> int:
    """U+FFFD that decoding ``body`` as ``encoding`` (a WHATWG name) produced for decoder errors: a
    U+FFFD written in a UTF-8 body is content, not a replacement, and is not counted."""
    count = fffd_count(text)
    if count and encoding == "UTF-8":
        count -= body.count(_REPLACEMENT_UTF8)
    return max(count, 0)


def replacement_finding(count: int, encoding: str) -> Finding:
    """The "replacement-characters" warning: ``count`` decoder errors decoding as ``encoding``."""
    return Finding(
        "replacement-characters",
        f"decoding as {encoding} produced {count} U+FFFD replacement character(s): some bytes are not "
        "valid in that encoding (browsers show the same); the text is lossy",
        {"count": count, "encoding": encoding},
    )
