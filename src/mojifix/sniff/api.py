"""``decode_html``: the HTML Standard's encoding sniffing algorithm, Chromium's behaviour where it
differs, and a better answer than either for undeclared pages. See docs/sniffing.md.

Order (HTML Standard 13.2.3.2 "determining the character encoding", step numbers in comments):
BOM -> caller's override -> transport layer (Content-Type) -> UTF-16 ``<?x`` pattern -> ``<meta>``
in the first 1024 bytes (the prescan) -> ``<meta>`` later in the head (Chromium) -> XML
declaration -> undeclared: UTF-8 if the whole body is valid UTF-8, else the detector, else the
browser's fallback (TLD default or windows-1252).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from mojifix.errors import UnknownEncodingError
from mojifix.sniff.content_type import TransportCharset, legacy_extract_encoding, normalize_header_values
from mojifix.sniff.late_meta import META_OPEN, scan_head_meta, top_meta_charset
from mojifix.sniff.prescan import PRESCAN_LIMIT, Declaration, prescan
from mojifix.sniff.result import (
    DecodedHTML,
    Finding,
    decoder_replacements,
    fffd_count,
    new_decoded_html,
    replacement_finding,
)
from mojifix.sniff.tld_defaults import fallback_for_url, tld_of
from mojifix.sniff.xml_declaration import get_xml_encoding
from mojifix.textcodec import decode_as, is_whatwg
from mojifix.whatwg import Encoding, bom_sniff, lookup

if TYPE_CHECKING:
    # Imported where a page needs them (a legacy declaration, an undeclared legacy body, trust="evidence"):
    # a process that meets only UTF-8 pages never loads the proofs (about 5 ms of `mojifix sniff`).
    from mojifix.sniff.evidence import LazyDetection, Proof

__all__ = ["decode_html"]

#: "The declared legacy decoder errors on many sequences": at least this many decoder errors
#: (U+FFFD produced) before mojifix looks for a candidate that decodes the body cleanly. Three,
#: so that one stray byte (a truncated upload, a binary cookie in a script) does not raise it.
SUSPECT_MIN_ERRORS = 3

_FALLBACKS = ("detect", "browser")
#: ``trust=``: "browser" follows every declaration; "evidence" overrides one the bytes prove wrong.
TRUSTS = ("browser", "evidence")
#: The sources a declaration decided, which ``trust="evidence"`` may override (never a BOM or override).
_DECLARED_SOURCES = frozenset({"transport", "meta", "meta-late", "xml-declaration"})
_UTF16 = ("UTF-16LE", "UTF-16BE")
_UNICODE = ("UTF-8", *_UTF16)
#: The encodings whose decoder does NOT return every ASCII byte as the code point of the same value.
#: Every other one does (Encoding Standard: the UTF-8, single-byte, gb18030, Big5, EUC-JP, EUC-KR,
#: Shift_JIS and x-user-defined decoders all begin "if byte is an ASCII byte, return a code point
#: whose value is byte", and a multi-byte decoder only leaves that state after a byte >= 0x80), so
#: on an all-ASCII body they all equal ASCII decoding. Excluded: UTF-16BE/LE (two bytes per code
#: unit), replacement (one U+FFFD) and ISO-2022-JP (ESC switches its state; SO and SI are errors).
_ASCII_NOT_AS_IS = frozenset({"UTF-16BE", "UTF-16LE", "replacement", "ISO-2022-JP"})
#: First bytes of the three BOMs the web knows (EF BB BF, FE FF, FF FE): any other first byte
#: means no BOM, without a call into the Encoding layer.
_BOM_FIRST_BYTES = frozenset(b"\xef\xfe\xff")

#: Distinct Content-Type values whose parse is remembered. A scraper sees a handful of values
#: ("text/html; charset=utf-8", ...) over and over; 512 covers them with room to spare.
_TRANSPORT_CACHE_SIZE = 512
#: Longer values are parsed every time (they are rare, and would make the cache heavy).
_TRANSPORT_CACHE_MAX_CHARS = 256


@lru_cache(maxsize=_TRANSPORT_CACHE_SIZE)
def _cached_transport(value: str) -> TransportCharset:
    return legacy_extract_encoding((value,))


def _transport(values: list[str]) -> TransportCharset:
    """Fetch's "legacy extract an encoding" over ``values``, remembered for a single short value.

    The result is a frozen dataclass of immutable parts, so sharing it between calls is safe.
    """
    if len(values) == 1 and len(values[0]) <= _TRANSPORT_CACHE_MAX_CHARS:
        return _cached_transport(values[0])
    return legacy_extract_encoding(values)


#: Encodings by standard name, filled on first use (``_enc`` runs on every undeclared page).
_BY_NAME: dict[str, Encoding] = {}


def _enc(name: str) -> Encoding:
    found = _BY_NAME.get(name)
    if found is None:
        found = lookup(name)
        if found is None:  # pragma: no cover - names from our own tables
            raise UnknownEncodingError(name)
        _BY_NAME[name] = found
    return found


def _same_unicode_family(a: Encoding, b: Encoding) -> bool:
    return a.name == b.name or (a.name in _UTF16 and b.name in _UTF16)


def _utf8_text(body: bytes | memoryview) -> str | None:
    """The body as UTF-8 if it is entirely valid UTF-8 (CPython's strict decoder agrees with the
    standard's on valid input), else ``None``. A memoryview is decoded in place, without a copy."""
    try:
        return str(body, "utf-8")
    except UnicodeDecodeError:
        return None


#: How much of a body ``_probed_utf8_text`` checks before the whole: a legacy body almost always
#: fails in its first 4 KB (at its first non-ASCII character).
_UTF8_PROBE_BYTES = 4096
#: The longest UTF-8 sequence: an error found this far from the probe's end is not a sequence the
#: probe cut off.
_UTF8_MAX_SEQUENCE = 4


def _probed_utf8_text(body: bytes) -> str | None:
    """``_utf8_text(body)``, after a strict decode of the first 4 KB of a longer body.

    A failed strict decode copies its whole input into the exception (about 3 us per 100 KB); a legacy
    body almost always fails in its first 4 KB, which the probe settles at the cost of a 4 KB copy. (A
    regex search for the first non-ASCII byte, tried before, costs more than the strict decode itself:
    10-15 us against 1.5 us on benchmarks/warc.py's 3 KB pages.)
    """
    if len(body) > _UTF8_PROBE_BYTES:
        try:
            str(memoryview(body)[:_UTF8_PROBE_BYTES], "utf-8")
        except UnicodeDecodeError as exc:
            if exc.start <= _UTF8_PROBE_BYTES - _UTF8_MAX_SEQUENCE:
                return None  # an invalid sequence that lies wholly inside the probe
    return _utf8_text(body)


def _detect(body: bytes, tld: str | None) -> tuple[str, str] | None:
    """The statistical detector's best guess for an undeclared page: (encoding name, origin), or ``None``.

    The name is a WHATWG name, or a CPython codec name for encodings outside the standard (e.g.
    "utf-32-be"), as ``mojifix.detect`` reports them. One small door to ``mojifix.detect`` (built in
    parallel): until its ``detect`` function exists, this returns ``None`` and the browser's
    fallback is used.
    """
    from mojifix.sniff.evidence import web_detection

    detection = web_detection(body, tld)
    if detection is None:
        return None
    best = detection.best() if detection.verdict in ("text", "ascii") else None
    if best is None:
        return None
    return best.encoding, f"detector ({best.confidence:.2f})"


def _whatwg(name: str) -> Encoding | None:
    """The WHATWG encoding a detection name denotes (names are labels too), else ``None``."""
    return lookup(name) if is_whatwg(name) else None


def _decode_detected(body: bytes, name: str) -> tuple[str, bool]:
    """Decode with a detected encoding: WHATWG-exact, or CPython's codec for names outside the standard."""
    enc = _whatwg(name)
    if enc is not None:
        return _decode(body, enc)
    text = decode_as(body, name, errors="replace")
    # A detected Unicode encoding outside the web's (UTF-32) may start with its BOM: not content.
    return (text[1:] if text.startswith("\ufeff") else text), False


def _decode(body: bytes, encoding: Encoding, ascii_body: bool = False) -> tuple[str, bool]:
    """Decode once with the standard's decoder (errors -> U+FFFD): (text, known to be error-free).

    Valid UTF-8 takes CPython's strict decoder, which agrees with the standard's on valid input.
    ``ascii_body`` (the caller's ``body.isascii()``, when it has it): an all-ASCII body in an
    ASCII-compatible encoding is decoded as ASCII, which is what the standard's decoder gives
    (see ``_ASCII_NOT_AS_IS``) at memory speed, where a charmap or multi-byte decoder looks at each byte.
    """
    name = encoding.name
    if name == "UTF-8":
        # After a BOM, a view of the rest: slicing would copy the whole body first.
        fast = _utf8_text(memoryview(body)[3:] if body.startswith(b"\xef\xbb\xbf") else body)
        if fast is not None:
            return fast, True
    elif ascii_body and name not in _ASCII_NOT_AS_IS:
        # No BOM either: every BOM starts with a byte >= 0x80.
        return body.decode("ascii"), True
    # The BOM was sniffed already: "sniff" only when one is there (it decided, and is stripped).
    bom = "sniff" if body[:2] in (b"\xef\xbb", b"\xfe\xff", b"\xff\xfe") else "ignore"
    return encoding.decode(body, errors="replace", bom=bom), False


#: The document's own declaration, as Chromium finds it, and what the Standard's prescan says:
#: (declaration, late, prescan). ``declaration`` decides (Chromium's scan; or the UTF-16 '<?x'
#: pattern); ``late``: it ends past the 1024-byte prescan window; ``prescan``: the HTML Standard's
#: prescan over the first 1024 bytes (``None`` when not run). A plain tuple, not a dataclass: it
#: never leaves this module, and it is built on every page that declares in the document.
_MetaSearch = tuple[Declaration | None, bool, Declaration | None]

#: No declaration found, or none looked for.
_NO_META: _MetaSearch = (None, False, None)


def _find_meta(body: bytes, *, deciding: bool) -> _MetaSearch:
    """Chromium's meta scan decides (measured); the Standard's prescan is run to report divergences.

    ``deciding=False``: a BOM or the transport layer has decided and the meta is only checked for
    a conflict; then the scans run only when a "<meta" appears in the first 1024 bytes (a late
    meta under a header charset goes unreported, which keeps header-declared pages fast).
    """
    if body[:6] in (b"<\x00?\x00x\x00", b"\x00<\x00?\x00x"):
        # Prescan step 2; Chromium's CheckForXMLCharset does the same before any meta scan.
        spec = prescan(body)
        return spec, False, spec
    # The prescan needs a "<meta" (any case) in its window to find anything.
    early_meta = META_OPEN.search(body, 0, PRESCAN_LIMIT) is not None
    if not deciding and not early_meta:
        return _NO_META
    if early_meta:
        # The common page: a plain <meta charset> near the top that Chromium's scan and the prescan
        # are sure to read alike (an exact shortcut; only the prescan's encoding matters here).
        top = top_meta_charset(body)
        if top is not None:
            return top, False, top if deciding else None
    spec = prescan(body) if deciding and early_meta else None
    found = scan_head_meta(body).declaration
    late = found is not None and found.end > PRESCAN_LIMIT
    return found, late, spec


def _divergence(search: _MetaSearch) -> Finding | None:
    """The "prescan-divergence" finding: the Standard's prescan and Chromium disagree on this page.

    Chromium tokenizes (a meta inside <script>/<style>/<title> is text, the last duplicate charset
    attribute wins, "--!>" closes a comment); Firefox, html5lib and most tools follow the prescan.
    """
    declaration, late, spec = search
    chromium = None if late else declaration
    spec_name = spec.encoding.name if spec is not None else None
    chromium_name = chromium.encoding.name if chromium is not None else None
    if spec_name == chromium_name:
        return None
    return Finding(
        "prescan-divergence",
        f"the HTML Standard's prescan (Firefox, html5lib) reads "
        f"{spec_name or 'no declaration'} in the first {PRESCAN_LIMIT} bytes, Chromium reads "
        f"{chromium_name or 'none there'}; mojifix follows Chromium. Other tools may decode this page "
        "differently: make the declaration a plain <meta charset> at the top of <head>",
        {
            "prescan": spec_name,
            "prescan_offset": spec.start if spec is not None else None,
            "chromium": chromium_name,
            "chromium_offset": chromium.start if chromium is not None else None,
        },
    )


def _meta_origin(decl: Declaration) -> str:
    if decl.kind == "meta-charset":
        return f"<meta charset> at byte {decl.start}"
    if decl.kind == "meta-content":
        return f"<meta http-equiv content> at byte {decl.start}"
    if decl.kind == "utf-16-xml-pattern":
        return "UTF-16 '<?x' at byte 0"
    return f"XML declaration at byte {decl.start}"


def _transport_findings(problems: Sequence[str], label: str | None, values: list[str]) -> list[Finding]:
    out: list[Finding] = []
    for problem in problems:
        if problem == "invalid-content-type":
            out.append(
                Finding(
                    "invalid-content-type",
                    "the Content-Type header is not a valid MIME type and was ignored, as browsers do; "
                    "the encoding was taken from the document itself",
                    {"values": list(values)},
                )
            )
        elif problem == "unknown-label":
            out.append(
                Finding(
                    "unknown-label",
                    f"the Content-Type charset {label!r} names no encoding of the Encoding Standard and "
                    "was ignored, as browsers do; pass override= if you know the real encoding",
                    {"label": label, "origin": "Content-Type header"},
                )
            )
    return out


def decode_html(
    body: bytes,
    content_type: str | Sequence[str] | None = None,
    *,
    url: str | None = None,
    override: str | None = None,
    fallback: str = "detect",
    trust: str = "browser",
) -> DecodedHTML:
    """Decode an HTML document's bytes the way a browser does, and say which rule decided.

    ``content_type``: the Content-Type header value, or all of them (several headers are
    combined as Fetch does). ``url``: the page's address; its TLD picks the legacy fallback and
    hints the detector. ``override``: an encoding label that beats everything but a BOM (the
    standard's "user override"). ``fallback``: for undeclared pages, "detect" (UTF-8 if the body
    is valid UTF-8, else the detector) or "browser" (exactly the browser's legacy fallback).
    ``trust``: "browser" (a declaration always wins, as in browsers) or "evidence" (a declaration
    wins unless the bytes prove it wrong; then the true text comes back with ``source="evidence"``
    and a ``declaration-overridden`` warning that keeps the browser's choice; see
    :mod:`mojifix.sniff.evidence`). A BOM and ``override`` are never overridden.

    Raises ``TypeError`` if ``body`` is not bytes, ``UnknownEncodingError`` for an unknown
    ``override`` label, ``ValueError`` for an unknown ``fallback`` or ``trust``. A malformed Content-Type is
    never an error: it is ignored, with a warning.
    """
    if type(body) is not bytes:
        if not isinstance(body, bytes | bytearray | memoryview):
            raise TypeError(
                f"decode_html() takes the document as bytes, not {type(body).__name__}; "
                "pass the raw body (e.g. response.content), not already-decoded text"
            )
        body = bytes(body)
    if fallback not in _FALLBACKS:
        raise ValueError(f"fallback must be 'detect' or 'browser', not {fallback!r}")
    if trust not in TRUSTS:
        raise ValueError(f"trust must be 'browser' or 'evidence', not {trust!r}")
    warnings: list[Finding] = []

    # Transport layer: Fetch's "legacy extract an encoding" over every Content-Type value.
    if type(content_type) is str and len(content_type) <= _TRANSPORT_CACHE_MAX_CHARS:
        # The usual call: one short value, whose parse is remembered (as _transport would do).
        values = [content_type]
        transport = _cached_transport(content_type)
    else:
        values, dropped = normalize_header_values(content_type)
        if dropped:
            warnings.append(
                Finding(
                    "invalid-content-type",
                    "content_type must be a string or a sequence of strings; the unusable part "
                    f"({type(content_type).__name__}) was ignored",
                    {"type": type(content_type).__name__},
                )
            )
        transport = _transport(values)
    if transport.problems:
        warnings.extend(_transport_findings(transport.problems, transport.label, values))

    override_enc: Encoding | None = None
    if override is not None:
        override_enc = lookup(override)
        if override_enc is None:
            raise UnknownEncodingError(override)

    # Declarations in the document itself (used to decide, or to warn about conflicts).
    bom = bom_sniff(body) if body[:1] and body[0] in _BOM_FIRST_BYTES else None
    decided_outside = bom is not None or override_enc is not None or transport.encoding is not None
    if bom is None or bom.name == "UTF-8":
        search = _find_meta(body, deciding=not decided_outside)
    else:
        search = _NO_META
    meta, late, _ = search

    encoding: Encoding
    source: str
    confidence: str
    label: str | None = None
    origin: str | None = None

    if bom is not None:
        # 1. BOM sniffing wins over everything, even the user's override (Chromium does the same).
        encoding, source, confidence, origin = bom, "bom", "certain", "byte order mark"
        for name, declared in (("Content-Type header", transport.encoding), ("meta", meta and meta.declared)):
            if isinstance(declared, Encoding) and not _same_unicode_family(declared, bom):
                warnings.append(
                    Finding(
                        "bom-contradicts-declaration",
                        f"the byte order mark says {bom.name} but the {name} declares {declared.name}; "
                        "the BOM wins (browsers agree), so the declaration is wrong",
                        {"bom": bom.name, "declared": declared.name, "origin": name},
                    )
                )
    elif override_enc is not None:
        # 2. The user's explicit override.
        encoding, source, confidence = override_enc, "override", "certain"
        label, origin = override, "override argument"
    elif transport.encoding is not None:
        # 4. The transport layer's charset.
        encoding, source, confidence = transport.encoding, "transport", "certain"
        label, origin = transport.label, transport.origin
        if meta is not None and meta.encoding.name != encoding.name:
            warnings.append(
                Finding(
                    "header-meta-conflict",
                    f"the Content-Type header says {encoding.name} but {_meta_origin(meta)} says "
                    f"{meta.encoding.name}; the header wins (browsers agree). If the text looks wrong, "
                    f"try override={meta.label!r}",
                    {
                        "header_label": transport.label,
                        "header_encoding": encoding.name,
                        "meta_label": meta.label,
                        "meta_encoding": meta.encoding.name,
                        "meta_offset": meta.start,
                    },
                )
            )
    elif meta is not None:
        # 5. The meta scan (Chromium's: in the head without limit, else the first 1024 bytes).
        encoding, label, origin, confidence = meta.encoding, meta.label, _meta_origin(meta), "tentative"
        divergence = _divergence(search)
        if divergence is not None:
            warnings.append(divergence)
        source = "meta-late" if late else "meta"
        if meta.kind == "utf-16-xml-pattern":
            source, label = "xml-declaration", None  # a byte pattern, not a label
        if late:
            warnings.append(
                Finding(
                    "late-meta",
                    f"the encoding declaration ({origin}) ends at byte {meta.end}, past the "
                    f"{PRESCAN_LIMIT}-byte prescan window; Chromium still honours it because it is in the "
                    "document head, other tools do not. Move it to the top of <head>",
                    {"offset": meta.start, "end": meta.end, "window": PRESCAN_LIMIT},
                )
            )
    else:
        divergence = _divergence(search)
        if divergence is not None:
            warnings.append(divergence)
        xml = get_xml_encoding(body)
        if xml is not None:
            # The prescan's "get an XML encoding" (Chromium: CheckForXMLCharset).
            encoding, source, confidence = xml.encoding, "xml-declaration", "tentative"
            label, origin = xml.label, _meta_origin(xml)
        else:
            return _undeclared(body, url, fallback, warnings)

    # isascii() stops at the first byte >= 0x80; a UTF-8 decode needs no such test.
    ascii_body = encoding.name != "UTF-8" and body.isascii()
    text, clean = _decode(body, encoding, ascii_body)
    count = 0 if clean or "\ufffd" not in text else decoder_replacements(text, body, encoding.name)
    # one detection for _suspect and prove_mislabel, run only if one of them asks
    detection: LazyDetection | None = None
    if encoding.name == "replacement":
        warnings.append(
            Finding(
                "replacement-label",
                f"the label {label!r} maps to the 'replacement' encoding (a security measure for "
                "ISO-2022-KR, HZ-GB-2312 and similar): browsers show the whole document as one U+FFFD. "
                "Pass override= with the real encoding to read it",
                {"label": label, "origin": origin},
            )
        )
    elif (source in _DECLARED_SOURCES or source == "override") and encoding.name not in _UNICODE:
        # (_suspect finds nothing on a declared UTF-8 or UTF-16 page: the call is skipped there)
        from mojifix.sniff.evidence import LazyDetection

        detection = LazyDetection(body, url)
        suspect = _suspect(body, encoding, count, url, ascii_body, detection)
        if suspect is not None:
            warnings.append(suspect)
    if trust == "evidence" and source in _DECLARED_SOURCES:
        from mojifix.sniff.evidence import LazyDetection, prove_mislabel

        if detection is None:
            detection = LazyDetection(body, url)
        proof = prove_mislabel(body, encoding, count, tld_of(url), text, detection)
        if proof is not None:
            return _overridden(body, proof, encoding, source, label, origin, warnings)
    if count and encoding.name != "replacement":
        warnings.append(replacement_finding(count, encoding.name))
    return new_decoded_html(
        text=text,
        encoding=encoding.name,
        source=source,
        confidence=confidence,
        label=label,
        label_origin=origin,
        warnings=tuple(warnings),
        replacement_count=count,
        browser_encoding=encoding.name,
        browser_source=source,
    )


def _overridden(
    body: bytes,
    proof: Proof,
    declared: Encoding,
    declared_source: str,
    label: str | None,
    origin: str | None,
    warnings: list[Finding],
) -> DecodedHTML:
    """The result when the bytes prove the declaration wrong (``trust="evidence"``)."""
    # The suspect warning said the same thing, less surely; the override finding replaces it.
    kept = [w for w in warnings if w.code != "declared-encoding-suspect"]
    why = proof.describe(declared.name)
    kept.append(
        Finding(
            "declaration-overridden",
            f"the page declares {declared.name} ({origin}), which browsers follow, but {why}; "
            f"decoded as {proof.encoding.name} instead. Pass trust='browser' to get what a browser shows",
            {
                "declared": declared.name,
                "declared_label": label,
                "declared_source": declared_source,
                "declared_origin": origin,
                "chosen": proof.encoding.name,
                "rule": proof.rule,
                **proof.details,
            },
        )
    )
    text = proof.text  # the proof decoded the body as proof.encoding already
    count = decoder_replacements(text, body, proof.encoding.name)
    if count:
        kept.append(replacement_finding(count, proof.encoding.name))
    return new_decoded_html(
        text=text,
        encoding=proof.encoding.name,
        source="evidence",
        confidence="tentative",
        label=None,
        label_origin=why,
        warnings=tuple(kept),
        replacement_count=count,
        browser_encoding=declared.name,
        browser_source=declared_source,
    )


def _suspect(
    body: bytes, encoding: Encoding, errors: int, url: str | None, ascii_body: bool, detection: LazyDetection
) -> Finding | None:
    """The "declared-encoding-suspect" check: the declaration is probably wrong.

    Two signs. (a) A legacy encoding is declared but the body is valid UTF-8 with multibyte
    sequences: legacy text is almost never valid UTF-8 by accident. (b) The declared decoder
    produced at least SUSPECT_MIN_ERRORS errors while another candidate (UTF-8, the detector's
    choice, the TLD's fallback) decodes the body without any. ``ascii_body``: the caller's
    ``body.isascii()`` (an ASCII body has no multibyte sequence). ``detection``: the page's detection,
    shared with ``prove_mislabel`` (run once, if either needs it).
    """
    if encoding.name in _UNICODE:
        return None
    if not ascii_body and _probed_utf8_text(body) is not None:
        return Finding(
            "declared-encoding-suspect",
            f"the page declares {encoding.name} but its bytes are valid UTF-8 with multibyte sequences; "
            "it is probably UTF-8 (browsers follow the declaration). Try override='utf-8'",
            {"declared": encoding.name, "suggested": "UTF-8", "reason": "valid-utf-8"},
        )
    if errors < SUSPECT_MIN_ERRORS:
        return None
    candidates: list[Encoding] = []
    found = detection.get()
    best = found.best() if found is not None and found.verdict in ("text", "ascii") else None
    detected_enc = _whatwg(best.encoding) if best is not None else None
    if detected_enc is not None:
        candidates.append(detected_enc)
    candidates.append(_enc(fallback_for_url(url)[0]))
    for candidate in candidates:
        if candidate.name == encoding.name:
            continue
        if "\ufffd" not in candidate.decode(body, errors="replace", bom="sniff"):
            return Finding(
                "declared-encoding-suspect",
                f"decoding as the declared {encoding.name} produced {errors} errors, but "
                f"{candidate.name} decodes the page cleanly; the declaration is probably wrong. "
                f"Try override={candidate.name!r}",
                {
                    "declared": encoding.name,
                    "suggested": candidate.name,
                    "reason": "decoder-errors",
                    "errors": errors,
                },
            )
    return None


def _browser_fallback(
    plain_ascii: bool, url: str | None, detected: tuple[str, str] | None
) -> tuple[Encoding, str, str | None]:
    """What Chromium picks for an undeclared page: (encoding, source, origin).

    Chromium runs its detector (CED) and keeps a non-UTF-8 answer; pure ASCII comes out as
    windows-1252 on every host; a UTF-8 answer or no answer falls back to the TLD table, else to
    windows-1252 (docs/browser-measurements.md, section 4). mojifix's detector stands in for CED.
    ``plain_ascii``: the body is ASCII without ESC (see ``_undeclared``).
    """
    if plain_ascii:
        return _enc("windows-1252"), "default", "ASCII-only body"
    enc = _whatwg(detected[0]) if detected is not None else None
    if enc is not None and detected is not None and enc.name not in ("UTF-8", "replacement", *_UTF16):
        return enc, "detected", detected[1]
    name, table_tld = fallback_for_url(url)
    if table_tld is not None:
        return _enc(name), "tld-default", f"fallback for .{table_tld}"
    return _enc(name), "default", None


def _utf32be_with_bom(body: bytes) -> bool:
    """00 00 FE FF and the rest valid UTF-32BE. (FF FE 00 00 is UTF-16LE's BOM on the web.)"""
    if not body.startswith(b"\x00\x00\xfe\xff") or len(body) % 4:
        return False
    try:
        body.decode("utf-32-be")
    except UnicodeDecodeError:
        return False
    return True


def _undeclared(body: bytes, url: str | None, fallback: str, warnings: list[Finding]) -> DecodedHTML:
    """Steps 6-9 for a page that declares nothing: the browser falls back; mojifix reads it right."""
    # mojifix reads a valid UTF-8 body as UTF-8 -- except 7-bit text with escape sequences, which is
    # valid ASCII but may well be ISO-2022-JP: the detector decides those (CED recognises them too).
    ascii_body = body.isascii()  # stops at the first 8-bit byte
    seven_bit_escapes = ascii_body and b"\x1b" in body
    plain_ascii = ascii_body and not seven_bit_escapes
    text = _probed_utf8_text(body) if fallback == "detect" and not seven_bit_escapes else None
    # The detector runs once, only when its answer can matter.
    needs_detector = not plain_ascii and (fallback == "browser" or text is None)
    detected = _detect(body, tld_of(url)) if needs_detector else None
    if fallback == "detect" and text is None and _utf32be_with_bom(body):
        # The web has no UTF-32 (browsers ignore its BOM); mojifix reads it, beyond the browser.
        detected = ("utf-32-be", "UTF-32BE byte order mark (not a web encoding)")
    browser_enc, browser_source, browser_origin = _browser_fallback(plain_ascii, url, detected)
    name: str
    if text is not None:
        name, source, origin = "UTF-8", "utf-8-valid", "whole body is valid UTF-8"
        count = 0  # the whole body is valid UTF-8
    else:
        name, source, origin = browser_enc.name, browser_source, browser_origin
        if fallback == "detect" and detected is not None:
            # mojifix trusts the detector's answer, UTF-8 included (browsers discard a UTF-8 answer).
            name, source, origin = detected[0], "detected", detected[1]
        elif fallback == "detect" and seven_bit_escapes:
            name, source, origin = "UTF-8", "utf-8-valid", "whole body is valid UTF-8"
        chosen = _whatwg(name)
        if chosen is not None:
            text, clean = _decode(body, chosen, ascii_body)
        else:
            text, clean = _decode_detected(body, name)
        count = 0 if clean else fffd_count(text)
    if count:
        warnings.append(replacement_finding(count, name))
    return new_decoded_html(
        text=text,
        encoding=name,
        source=source,
        confidence="tentative",
        label=None,
        label_origin=origin,
        warnings=tuple(warnings),
        replacement_count=count,
        browser_encoding=browser_enc.name,
        browser_source=browser_source,
    )
