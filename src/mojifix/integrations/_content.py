"""Which decoding rule a response body follows, by its MIME type, and the rules for non-HTML bodies.

HTML goes to :func:`mojifix.sniff.decode_html` (the HTML Standard's algorithm). The other text types a
crawler meets follow their own standards; what is implemented here:

* JSON (``application/json``, ``text/json``, ``*/*+json``): UTF-8 always, a leading UTF-8 BOM removed.
  That is RFC 8259 section 8.1 and what browsers do (Fetch, "consume body" as JSON = "UTF-8 decode");
  a ``charset`` parameter is ignored, with a warning when it names something else.
* XML (``text/xml``, ``application/xml``, ``*/*+xml`` incl. XHTML, RSS, Atom, SVG): BOM, then the
  ``charset`` parameter (RFC 7303 section 3 makes it authoritative; XML 1.0 appendix F.2 agrees),
  then the XML declaration's ``encoding`` (XML 1.0 appendix F, incl. BOM-less UTF-16 spotted from
  ``<?xml``), then UTF-8.
* CSS (``text/css``): BOM, then ``charset``, then an ``@charset "...";`` rule at byte 0 (CSS Syntax 3,
  "determine the fallback encoding"), then detection (we do not know the referring document's encoding).
* everything else textual (``text/plain``, JavaScript, CSV, ...): BOM, then ``charset``, then detection:
  UTF-8 when the whole body is valid UTF-8, else mojifix's detector (web encodings, URL's TLD as hint),
  else the browser's legacy fallback for the URL.

Labels are resolved with the WHATWG label table, so ``iso-8859-1`` means windows-1252 here as in
browsers; a label naming UTF-16 on ASCII-compatible bytes (XML declaration, ``@charset``) means UTF-8;
a label naming the replacement encoding gives one U+FFFD, as in browsers and ``decode_html``.
A body without any Content-Type is treated as HTML (a crawler's pages mostly are; browsers would sniff).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import import_module
from typing import TYPE_CHECKING

from mojifix.errors import MojifixError
from mojifix.sniff.content_type import (
    MimeType,
    TransportCharset,
    legacy_extract_encoding,
)
from mojifix.sniff.tld_defaults import fallback_for_url, tld_of
from mojifix.whatwg import Encoding, bom_sniff, lookup

if TYPE_CHECKING:
    from mojifix.sniff import DecodedHTML

__all__ = ["body_kind", "decode_body", "decode_parsed", "is_textual", "transport_and_kind", "transport_of"]

#: CSS Syntax 3, "determine the fallback encoding": the 1024 bytes that may hold ``@charset "...";``.
_CSS_CHARSET_WINDOW = 1024
_CSS_CHARSET_RE = re.compile(rb'^@charset "([^"]*)";')
#: XML declaration at byte 0 (XML 1.0 section 2.8, EncodingDecl); bounded to the first 1 KB because a
#: declaration is short, and the scan must stay cheap on multi-MB bodies.
_XML_DECL_WINDOW = 1024
_XML_DECL_RE = re.compile(rb"""^<\?xml[ \t\r\n][^>]*?encoding[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)')""")
#: XML 1.0 appendix F.1: ``<?`` in BOM-less UTF-16.
_XML_UTF16 = {b"\x00<\x00?": "UTF-16BE", b"<\x00?\x00": "UTF-16LE"}

_JSON_TYPES = frozenset({"application/json", "text/json"})
_XML_TYPES = frozenset({"text/xml", "application/xml"})
_HTML_TYPES = frozenset({"text/html"})
#: Non-``text/*`` types that carry text (MIME Sniffing's JavaScript MIME types and friends).
_TEXTUAL_APPLICATION = frozenset(
    {
        "application/javascript",
        "application/ecmascript",
        "application/x-javascript",
        "application/x-ecmascript",
        "application/x-www-form-urlencoded",
        "application/x-sh",
        "application/csv",
    }
)


def body_kind(mime: MimeType | None) -> str:
    """``html``, ``json``, ``xml``, ``css``, ``text`` or ``binary`` for a response's MIME type.

    No (valid) MIME type counts as HTML: a crawler's undeclared bodies are mostly pages.
    """
    if mime is None or mime.essence in _HTML_TYPES:
        return "html"
    essence = mime.essence
    if essence in _JSON_TYPES or essence.endswith("+json"):
        return "json"
    if essence in _XML_TYPES or essence.endswith("+xml"):
        return "xml"
    if essence == "text/css":
        return "css"
    if essence.startswith("text/") or essence in _TEXTUAL_APPLICATION:
        return "text"
    return "binary"


def transport_of(content_type: str | bytes | Sequence[str | bytes] | None) -> TransportCharset:
    """Fetch's "extract a MIME type" and "legacy extract an encoding" over every Content-Type value."""
    return transport_and_kind(content_type)[0]


def transport_and_kind(
    content_type: str | bytes | Sequence[str | bytes] | None,
) -> tuple[TransportCharset, str]:
    """:func:`transport_of` and the :func:`body_kind` of its MIME type, in one step (remembered for the
    short header sets a crawl repeats on every record)."""
    if content_type is None:
        values: tuple[str, ...] = ()
    elif type(content_type) is list and len(content_type) == 1 and type(content_type[0]) is str:
        values = (content_type[0],)  # the WARC loop's usual call: one Content-Type header
    elif isinstance(content_type, str | bytes | bytearray):
        values = (_header_text(content_type),)
    else:
        values = tuple(_header_text(v) for v in content_type)
    if sum(map(len, values)) <= _TRANSPORT_MEMO_MAX_CHARS:
        return _extract_remembered(values)
    return _extract(values)


#: Distinct Content-Type header sets whose parse is remembered: a crawl repeats a handful of values
#: ("text/html; charset=utf-8", ...) on every record (sized as sniff's own memo of single values).
_TRANSPORT_MEMO_SIZE = 512
#: Longer header sets are parsed every time (rare, and they would make the memo heavy).
_TRANSPORT_MEMO_MAX_CHARS = 256


def _extract(values: tuple[str, ...]) -> tuple[TransportCharset, str]:
    transport = legacy_extract_encoding(values)
    return transport, body_kind(transport.mime_type)


#: ``_extract``, remembered: its result is a frozen dataclass of immutable parts and a string.
_extract_remembered = lru_cache(maxsize=_TRANSPORT_MEMO_SIZE)(_extract)


def _header_text(value: str | bytes | bytearray) -> str:
    """Header values as Fetch reads them: bytes are isomorphic-decoded (latin-1)."""
    return bytes(value).decode("latin-1") if isinstance(value, bytes | bytearray) else str(value)


def is_textual(content_type: str | bytes | Sequence[str | bytes] | None) -> bool:
    """True when a body with this Content-Type is text that mojifix should decode."""
    return transport_and_kind(content_type)[1] != "binary"


def decode_body(
    body: bytes,
    content_type: str | bytes | Sequence[str | bytes] | None = None,
    *,
    url: str | None = None,
    override: str | None = None,
    fallback: str = "detect",
    trust: str = "browser",
) -> DecodedHTML:
    """Decode a response body by the rules of its MIME type (see the module docstring).

    HTML (or no Content-Type) is :func:`mojifix.sniff.decode_html`; the result type is the same
    ``DecodedHTML`` for every kind so pipelines store one shape. ``trust="evidence"`` lets the bytes
    overrule a provably wrong declaration of an HTML body (:mod:`mojifix.sniff.evidence`); other kinds
    follow their own rules either way.
    """
    if not isinstance(body, bytes | bytearray | memoryview):
        raise TypeError(f"decode_body() takes bytes, not {type(body).__name__}")
    transport = transport_of(content_type)
    return decode_parsed(
        bytes(body), content_type, transport, url=url, override=override, fallback=fallback, trust=trust
    )


def decode_parsed(
    body: bytes,
    content_type: str | bytes | Sequence[str | bytes] | None,
    transport: TransportCharset,
    *,
    url: str | None = None,
    override: str | None = None,
    fallback: str = "detect",
    trust: str = "browser",
) -> DecodedHTML:
    """:func:`decode_body` for a caller that already ran :func:`transport_of` (the WARC loop does)."""
    from mojifix.sniff import decode_html

    kind = body_kind(transport.mime_type)
    if kind == "html" or override is not None:
        return decode_html(body, content_type, url=url, override=override, fallback=fallback, trust=trust)
    return _NonHtml(body, transport, kind, url).decide()


class _NonHtml:
    """One non-HTML decision: the steps in order, then the result (per-call state, no globals)."""

    def __init__(self, body: bytes, transport: TransportCharset, kind: str, url: str | None) -> None:
        self.body = body
        self.transport = transport
        self.kind = kind
        self.url = url
        self.findings: list[tuple[str, str, dict[str, object]]] = []

    def warn(self, code: str, message: str, **details: object) -> None:
        self.findings.append((code, message, details))

    def _declared(self, label: str, where: str) -> Encoding | None:
        enc = lookup(label)
        if enc is None:
            self.warn("unknown-label", f"{where} names an unknown encoding {label!r}; ignored", label=label)
        elif enc.name == "replacement":
            self.warn(
                "replacement-label",
                f"{where} names {label!r}, which the Encoding Standard maps to the replacement encoding: "
                "browsers show the body as one U+FFFD. Pass override= with the real encoding to read it",
                label=label,
            )
        return enc

    def decide(self) -> DecodedHTML:
        body = self.body
        transport = self.transport
        charset = transport.label
        # Step 1 for every kind: a UTF-8 / UTF-16 BOM wins (Encoding Standard "decode").
        bom = bom_sniff(body[:3])
        if bom is not None and (self.kind != "json" or bom.name == "UTF-8"):
            if transport.encoding is not None and transport.encoding.name != bom.name:
                self.warn(
                    "bom-contradicts-declaration",
                    f"the body starts with a {bom.name} BOM but the header says {charset!r}",
                    bom=bom.name,
                    label=charset,
                )
            return self.result(bom, "bom", "certain", None, "BOM at byte 0")
        if self.kind == "json":
            if transport.encoding is not None and transport.encoding.name != "UTF-8":
                self.warn(
                    "json-charset-ignored",
                    f"JSON is always UTF-8 (RFC 8259 section 8.1); the header's {charset!r} is ignored",
                    label=charset,
                )
            return self.result(_utf8(), "default", "certain", charset, "JSON is UTF-8")
        # Step 2: the transport layer.
        if charset:
            enc = self._declared(charset, "the Content-Type header")  # warns on unknown/replacement labels
            if enc is not None:
                return self.result(enc, "transport", "certain", charset, transport.origin)
        # Step 3: in-band declarations of XML and CSS.
        if self.kind == "xml":
            found = self._xml_declaration()
            if found is not None:
                return found
            return self.result(_utf8(), "default", "certain", None, "XML without declaration is UTF-8")
        if self.kind == "css":
            found = self._css_charset()
            if found is not None:
                return found
        return self._detect()

    def _xml_declaration(self) -> DecodedHTML | None:
        head = self.body[:_XML_DECL_WINDOW]
        utf16 = _XML_UTF16.get(head[:4])
        if utf16 is not None:
            enc = lookup(utf16)
            assert enc is not None
            return self.result(enc, "xml-declaration", "certain", None, "BOM-less UTF-16 '<?' at byte 0")
        match = _XML_DECL_RE.match(head)
        if match is None:
            return None
        label = (match.group(1) or match.group(2) or b"").decode("ascii", "replace")
        return self._in_band(label, "xml-declaration", "the XML declaration", match.start(1))

    def _css_charset(self) -> DecodedHTML | None:
        match = _CSS_CHARSET_RE.match(self.body[:_CSS_CHARSET_WINDOW])
        if match is None:
            return None
        label = match.group(1).decode("ascii", "replace")
        return self._in_band(label, "css-charset", "the @charset rule", match.start(1))

    def _in_band(self, label: str, source: str, where: str, offset: int) -> DecodedHTML | None:
        enc = self._declared(label, where)
        if enc is None:
            return None
        if enc.name in ("UTF-16LE", "UTF-16BE"):
            # The declaration itself was read as ASCII, so the bytes are not UTF-16 (CSS Syntax 3 and the
            # HTML prescan use the same rule).
            self.warn(
                "utf16-label-on-ascii", f"{where} says {label!r} on ASCII bytes; using UTF-8", label=label
            )
            enc = _utf8()
        return self.result(enc, source, "certain", label, f"{where} at byte {offset}")

    def _detect(self) -> DecodedHTML:
        """No declaration: UTF-8 when the whole body is valid UTF-8, else the detector's best web encoding."""
        try:
            self.body.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            return self.result(_utf8(), "utf-8-valid", "tentative", None, None)
        best = self._detector_choice()
        if best is not None:
            return self.result(best[0], "detected", "tentative", None, best[1])
        fallback = lookup(fallback_for_url(self.url)[0])
        assert fallback is not None
        return self.result(fallback, "default", "tentative", None, None)

    def _detector_choice(self) -> tuple[Encoding, str] | None:
        # mojifix.detect is an optional stage here exactly as in decode_html: while it is missing or
        # finds nothing usable, the browser's fallback for the URL decides.
        try:
            detect = import_module("mojifix.detect").detect
        except (ImportError, AttributeError):
            return None
        try:
            detection = detect(self.body, domain="web", tld=tld_of(self.url))
        except MojifixError:
            return None
        for candidate in detection.candidates:
            enc = lookup(candidate.encoding)
            if enc is not None and enc.name not in ("UTF-16LE", "UTF-16BE", "replacement"):
                return enc, f"detector ({candidate.confidence:.2f})"
        return None

    def result(
        self, enc: Encoding, source: str, confidence: str, label: str | None, origin: str | None
    ) -> DecodedHTML:
        from mojifix.sniff import DecodedHTML, Finding
        from mojifix.sniff.result import decoder_replacements, replacement_finding

        # "strip": the BOM step already ran, so only this encoding's own BOM can lead (and JSON's "UTF-8
        # decode" must not let a UTF-16 BOM switch the encoding).
        text = enc.decode(self.body, errors="replace", bom="strip")
        replacements = decoder_replacements(text, self.body, enc.name)
        browser, browser_source = enc, source
        if source in ("utf-8-valid", "detected"):
            # A browser does not detect: it falls back to the URL's legacy default (HTML Standard 13.2.3.3).
            name, tld = fallback_for_url(self.url)
            browser = lookup(name) or enc
            browser_source = "tld-default" if tld else "default"
        if replacements:
            finding = replacement_finding(replacements, enc.name)
            self.warn(finding.code, finding.message, **finding.details)
        return DecodedHTML(
            text=text,
            encoding=enc.name,
            source=source,
            confidence=confidence,
            label=label,
            label_origin=origin,
            warnings=tuple(Finding(code, message, details) for code, message, details in self.findings),
            replacement_count=replacements,
            browser_encoding=browser.name,
            browser_source=browser_source,
        )


def _utf8() -> Encoding:
    enc = lookup("utf-8")
    assert enc is not None
    return enc
