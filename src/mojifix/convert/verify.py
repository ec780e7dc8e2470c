"""Decide and verify one file held in memory: the heart of ``convert`` (issue 5, "Verify every file").

Decision, in order (each step says how the file was decided, recorded in the manifest):

1. empty file: already UTF-8.
2. BOM (Encoding Standard "BOM sniff": UTF-8, UTF-16BE, UTF-16LE): the BOM names the encoding.
3. valid UTF-8 without NUL, C0 controls, ISO-2022 escapes, HZ's ``~{`` + GB pair or UTF-7's shifted
   sequences (``detect.utf7``'s structure rules): already UTF-8.
   Validity over every byte is decisive (a legacy file is valid UTF-8 only by accident, and the
   detector's first rule is the same); the excluded bytes send 7-bit ISO-2022/HZ/UTF-7 text, UTF-16
   and binary to the detector.
4. the detector, over the whole file. An ambiguous verdict is quarantined with its candidates
   named, unless ``--prefer`` names one of them.

Verification (the lossless proof): strict decode of every byte, no U+FFFD in the text, and
re-encoding the text with the same encoding gives back the source bytes exactly. A clean decode that
does not re-encode to the source is *noncanonical* (reported separately; quarantined unless
``accept_noncanonical``). A file that decodes, or fails, in a way that shows two encodings is *mixed*
(see :mod:`mojifix.convert.mixed`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from mojifix.convert import declared, gate, mixed
from mojifix.convert.codec import canonical_name, decode_strict, reencode_name, reencodes_to, same_decoder
from mojifix.convert.options import Options
from mojifix.convert.records import DeclarationRewrite, Split
from mojifix.detect import utf7
from mojifix.detect.bom import sniff_bom
from mojifix.detect.declarations import Declaration
from mojifix.detect.result import Detection

__all__ = ["Verdict", "examine", "line_endings"]

DetectFn = Callable[..., Detection]

#: encodings whose BOM decides a file here (the Encoding Standard's BOM sniff); a UTF-32 BOM is left
#: to the detector, which knows UTF-32 for files
BOM_ENCODINGS = frozenset({"UTF-8", "UTF-16LE", "UTF-16BE"})
_UTF8_BOM = b"\xef\xbb\xbf"
#: C0 controls that do not occur in ordinary text (TAB, LF, VT, FF, CR and ESC excluded; ESC is
#: checked separately because it marks ISO-2022 text, not binary)
_ODD_CONTROLS = bytes([*range(0x01, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])
#: ISO-2022 text (ISO/IEC 2022 escape sequences: ESC $ designates a multi-byte set, ESC ( ) * + , - . /
#: a 94/96-character set, ESC N / O single-shift): only these make a 7-bit file ISO-2022-JP/KR/CN.
#: Another ESC (a terminal colour code "ESC [31m" in a log, a lone ESC) is a control character in text.
_ISO2022_ESCAPE = re.compile(rb"\x1b[$()*+,\-./NO]")
#: HZ (RFC 1843) text: "~{" switching to GB mode, followed by a GB2312 pair (two bytes 0x21-0x7E). A
#: "~{" followed by anything else (a line end, a space: "the escape sequence ~{" in a manual) cannot
#: start HZ-encoded Chinese, so such a file stays plain ASCII/UTF-8 without asking the detector.
_HZ_GB_MODE = re.compile(rb"~\{[\x21-\x7e]{2}")
#: candidates listed in an ambiguity reason
AMBIGUOUS_LISTED = 3
#: an ambiguous file is searched for a split under its best candidate and under the second one when the
#: detector hesitates between them: the second's confidence is at least this share of the best's, odds
#: within the write gate's own 9:1 (gate.WRITE_ODDS), not tuned. A reading the detector puts
#: a million times below the best (windows-1250 at 5e-6 beside GBK at 0.5 for 14 bytes of BOM-less
#: UTF-16) is no head a split could be built on: its "split" was a 5-byte macintosh head before a GBK
#: tail, a clean file quarantined as mixed before the tree prior could read it as UTF-16 (issue 12).
SPLIT_CANDIDATE_SHARE = 1.0 / gate.WRITE_ODDS


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with one file's bytes (the engine adds path, hashes and output names)."""

    outcome: str  # converted | utf8 | quarantined | skipped
    encoding: str | None
    confidence: float | None
    decision: str
    verification: str
    output: bytes | None = None
    reason: str = ""
    warnings: tuple[str, ...] = ()
    candidates: tuple[tuple[str, float], ...] = ()
    bom: str | None = None
    line_endings: str | None = None
    binary: bool = False
    ambiguous: bool = False
    mixed: Split | None = None
    salvage: bytes | None = None
    declarations: tuple[DeclarationRewrite, ...] = ()


def line_endings(text: str) -> str:
    """ "LF", "CRLF", "CR", "mixed" or "none"."""
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    kinds = [k for k, n in (("LF", lf), ("CRLF", crlf), ("CR", cr)) if n]
    return kinds[0] if len(kinds) == 1 else ("mixed" if kinds else "none")


def _bom(data: bytes) -> tuple[str, int] | None:
    """(encoding, BOM length) when ``data`` starts with a BOM of :data:`BOM_ENCODINGS`, else None."""
    found = sniff_bom(data, "file")  # file domain: FF FE 00 00 is UTF-32LE's BOM, not UTF-16LE's
    return found if found is not None and found[0] in BOM_ENCODINGS else None


def _plain_utf8(data: bytes, decode: bool = True) -> str | None:
    """The text when step 3 applies (valid UTF-8 and nothing that needs the detector), else None.

    ``decode=False`` runs only the byte tests (the streaming path checks UTF-8 incrementally) and
    returns "" when they pass.
    """
    if b"\x00" in data or (b"\x1b" in data and _ISO2022_ESCAPE.search(data)):
        return None
    if b"~{" in data and _HZ_GB_MODE.search(data):
        return None
    if utf7.utf7_reading(data) is not None:  # RFC 2152 shifted sequences that decode to text: UTF-7
        return None
    if len(data.translate(None, _ODD_CONTROLS)) != len(data):
        return None
    if not decode:
        return ""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _relabel_utf8(
    output: bytes, body: bytes, opts: Options
) -> tuple[bytes, tuple[DeclarationRewrite, ...], tuple[str, ...]]:
    """A UTF-8 source's ``output`` with declarations of other encodings relabelled, and warnings.

    Non-ASCII UTF-8 declared as something else: validity over every byte is decisive, the declaration
    is wrong, and the mirror must not keep the mislabel. An ASCII ``body`` reads the same under either
    label and is left as it is.
    """
    if body.isascii() or opts.keep_declarations:
        return output, (), ()
    output, rewrites = declared.rewrite_declarations(output)
    return output, rewrites, utf8_relabel_warnings(rewrites)


def utf8_relabel_warnings(rewrites: tuple[DeclarationRewrite, ...]) -> tuple[str, ...]:
    """The warnings for declarations of another encoding relabelled in a UTF-8 source."""
    return tuple(
        f"declared {r.old_label!r} ({r.kind}), but every byte is UTF-8: label rewritten" for r in rewrites
    )


def relabel(output: bytes) -> tuple[bytes, tuple[DeclarationRewrite, ...]] | None:
    """``output`` (UTF-8) with its declarations relabelled (:func:`declared.rewrite_declarations`) and
    the rewrites, or ``None`` when :func:`declared.restore` does not give ``output`` back (the proof
    that the rewrite touched nothing but the labels; it holds by construction)."""
    relabelled, rewrites = declared.rewrite_declarations(output)
    if rewrites and declared.restore(relabelled, rewrites) != output:  # pragma: no cover - by construction
        return None
    return relabelled, rewrites


def _utf8_output(text: str, opts: Options, had_bom: bool) -> bytes:
    """UTF-8 bytes of ``text``; with ``--bom keep`` a source BOM becomes a UTF-8 BOM."""
    out = text.encode("utf-8")
    return _UTF8_BOM + out if had_bom and opts.bom == "keep" else out


def _choose(det: Detection, opts: Options, decls: list[Declaration]) -> tuple[str | None, str, float | None]:
    """(encoding, decision, confidence) from a detection; encoding None means ambiguous, unsettled.

    ``--prefer`` settles what the write gate would refuse: an ambiguous verdict, a confidence below
    the gate's, or a declaration (``decls``, the file's own) naming another encoding. The preferred
    encoding may be a candidate or the declared one; it is verified like any other.
    """
    best = det.best()
    assert best is not None
    if opts.prefer:
        others = [d.encoding for d in decls if d.encoding is not None]
        contested = (
            det.ambiguous
            or best.confidence < gate.MIN_WRITE_CONFIDENCE
            or any(not same_decoder(enc, best.encoding) for enc in others)
        )
        if contested:
            confidence = {c.encoding: c.confidence for c in reversed(det.candidates)}
            for pref in opts.prefer:
                for enc in (*confidence, *others):
                    if same_decoder(enc, pref):
                        return enc, f"prefer {pref}", confidence.get(enc)
    if not det.ambiguous:
        return best.encoding, "detector", best.confidence
    return None, "detector", best.confidence


def _mixed_reason(split: Split) -> str:
    return f"mixed: {split.head_encoding} up to byte {split.boundary}, then {split.tail_encoding}"


def _split_under(data: bytes, encoding: str, detect: DetectFn) -> Split | None:
    try:
        decode_strict(data, encoding)
        fail = None
    except UnicodeDecodeError as exc:
        fail = exc.start
    except LookupError:
        return None
    return mixed.find_split(data, 0, encoding, fail, detect)


def _salvage(data: bytes, split: Split, opts: Options, start: int = 0) -> bytes | None:
    if not opts.salvage:
        return None
    text = mixed.salvage(data, start, split)
    return None if text is None else text.encode("utf-8")


def examine(data: bytes, opts: Options, detect: DetectFn) -> Verdict:
    """Decide the encoding of ``data`` and prove (or refuse) a lossless conversion to UTF-8."""
    # Step 1: empty.
    if not data:
        return Verdict("utf8", "UTF-8", 1.0, "empty", "lossless", output=b"", line_endings="none")

    # Step 2: BOM sniff.
    start = 0
    bom = _bom(data)
    decls: list[Declaration] = []  # the file's declarations: read once, only for the detector's decision
    if bom is not None:
        encoding, start = bom
        decision, confidence, det = "bom", 1.0, None
    else:
        # Step 3: valid UTF-8 needs no detector.
        text = _plain_utf8(data)
        if text is not None:
            warnings = ("contains U+FFFD (damage from an earlier conversion?)",) if "\ufffd" in text else ()
            output, rewrites, relabelled = _relabel_utf8(data, data, opts)
            return Verdict(
                "utf8",
                "UTF-8",
                1.0,
                "ascii" if data.isascii() else "utf8-valid",
                "lossless",
                output=output,
                warnings=warnings + relabelled,
                line_endings=line_endings(text),
                declarations=rewrites,
            )
        # Step 4: the detector over the whole file.
        det = detect(data, domain="file")
        if det.verdict == "binary":
            # NUL bytes in only part of a file: UTF-16 text glued to 8-bit text, not binary data
            split = mixed.split_binary(data, detect) if b"\x00" in data else None
            if split is not None:
                return Verdict(
                    "quarantined",
                    split.head_encoding,
                    None,
                    "detector",
                    "mixed",
                    mixed=split,
                    reason=_mixed_reason(split),
                    salvage=_salvage(data, split, opts),
                )
            return Verdict("skipped", None, None, "detector", "none", reason="binary", binary=True)
        if det.verdict == "empty" or not det.candidates:
            reason = "the detector found no candidate encoding"
            return Verdict("quarantined", None, None, "detector", "undecided", reason=reason)
        cands = tuple((c.encoding, round(c.confidence, 4)) for c in det.candidates)
        decls = declared.declarations_of(data)
        chosen, decision, confidence = _choose(det, opts, decls)
        if chosen is None:
            # An ambiguous verdict can be a mixed file (e.g. Big5 head, GBK tail): look for a split
            # under each leading candidate before calling it ambiguous.
            best_conf = det.candidates[0].confidence
            for cand in det.candidates[:2]:
                if cand.confidence < best_conf * SPLIT_CANDIDATE_SHARE:
                    continue
                enc = cand.encoding
                split = _split_under(data, enc, detect)
                if split is not None:
                    return Verdict(
                        "quarantined",
                        enc,
                        confidence,
                        decision,
                        "mixed",
                        candidates=cands,
                        ambiguous=True,
                        reason=_mixed_reason(split),
                        mixed=split,
                        salvage=_salvage(data, split, opts),
                    )
            listed = cands[:AMBIGUOUS_LISTED]
            names = " vs ".join(f"{e} ({c:.2f})" for e, c in listed)
            hint = f"; settle it with --prefer {listed[0][0]}" if listed else ""
            return Verdict(
                "quarantined",
                listed[0][0] if listed else None,
                confidence,
                decision,
                "ambiguous",
                reason=f"ambiguous: {names}{hint}",
                candidates=cands,
                ambiguous=True,
            )
        encoding = chosen

    cands = tuple((c.encoding, round(c.confidence, 4)) for c in det.candidates) if det else ()
    bom_name = encoding if bom is not None else None
    body = data[start:]

    def quarantine(verification: str, reason: str, split: Split | None = None) -> Verdict:
        salvaged = None
        warnings: tuple[str, ...] = ()
        if split is not None and opts.salvage:
            text = mixed.salvage(data, start, split)
            if split.uncertain:
                warnings = (f"no salvage: {split.uncertain}",)
            elif text is None:
                warnings = ("salvage failed: a segment does not decode strictly",)
            else:
                salvaged = text.encode("utf-8")
        return Verdict(
            "quarantined",
            encoding,
            confidence,
            decision,
            verification,
            reason=reason,
            warnings=warnings,
            candidates=cands,
            bom=bom_name,
            mixed=split,
            salvage=salvaged,
            ambiguous=bool(det and det.ambiguous),
        )

    # Verification 1: strict decode of every byte.
    try:
        text = decode_strict(body, encoding)
    except UnicodeDecodeError as exc:
        fail = start + exc.start
        split = mixed.find_split(data, start, encoding, fail, detect)
        if split is not None:
            return quarantine(
                "mixed",
                f"mixed: {split.head_encoding} up to byte {split.boundary}, then {split.tail_encoding}",
                split,
            )
        bad = data[fail : fail + 4].hex(" ")
        return quarantine("decode-error", f"{encoding} cannot decode byte {fail} ({bad})")
    except LookupError as exc:
        return quarantine("undecided", f"no decoder for {encoding}: {exc}")

    # Verification 2: no U+FFFD (a replacement character in the source text is a past loss).
    if "\ufffd" in text and encoding != "UTF-8":
        return quarantine(
            "replacement-char", f"decoding as {encoding} yields U+FFFD at index {text.index(chr(0xFFFD))}"
        )

    # Mixed files that decode "cleanly" into mojibake.
    split = mixed.find_split(data, start, encoding, None, detect) if encoding != "UTF-8" else None
    if split is not None:
        return quarantine(
            "mixed",
            f"mixed: {split.head_encoding} up to byte {split.boundary}, then {split.tail_encoding}",
            split,
        )

    # Verification 3: re-encode gives back the source bytes exactly.
    reenc = reencode_name(encoding)
    canonical = reencodes_to(text, reenc, body)
    warnings: tuple[str, ...] = ()
    if "\ufffd" in text:
        warnings = ("contains U+FFFD (damage from an earlier conversion?)",)
    # The write gate: the detector's decision must be confident, not only decodable (convert/gate.py).
    conflict = None
    if det is not None and decision == "detector":
        conflict = declared.conflicting_declaration(data, encoding, text, decls)
        refused = gate.refusal(det, encoding, conflict)
        if refused is not None:
            return quarantine(*refused)
    if not canonical:
        if not opts.accept_noncanonical:
            return quarantine(
                "noncanonical",
                f"decodes cleanly as {encoding}, but re-encoding with {reenc} "
                "does not give back the source bytes (non-canonical byte sequences)",
            )
        warnings += ("non-canonical source bytes: converted text is right, the bytes cannot be rebuilt",)
        verification = "noncanonical"
    else:
        verification = "lossless"

    if encoding == "UTF-8":
        # A UTF-8 BOM file (or the detector's UTF-8): already UTF-8, BOM stripped or kept. Without
        # its BOM a page falls back to its <meta>, so a wrong declaration must go (browsers let the
        # BOM win over it).
        keep = opts.bom == "keep"
        output, rewrites, relabelled = _relabel_utf8(data if keep else body, body, opts)
        return Verdict(
            "utf8",
            encoding,
            confidence,
            decision,
            "lossless" if keep else "bom-stripped",
            output=output,
            warnings=warnings + relabelled,
            candidates=cands,
            bom=bom_name,
            line_endings=line_endings(text),
            declarations=rewrites,
        )
    output = _utf8_output(text, opts, bom is not None)
    rewrites: tuple[DeclarationRewrite, ...] = ()
    if det is not None:
        warnings += declared.stale_declarations(data, encoding, decls)
        if conflict is not None:  # the gate let it through: the detector weighed the declaration
            warnings += (
                f"declares {conflict[0].label!r} ({conflict[0].kind} at byte {conflict[0].start}), "
                f"which also decodes every byte; the detector weighed it and chose {encoding}",
            )
    if not opts.keep_declarations:
        relabelled = relabel(output)
        if relabelled is None:  # pragma: no cover - by construction
            return quarantine("undecided", "rewriting the in-band declaration could not be verified")
        output, rewrites = relabelled
    return Verdict(
        "converted",
        encoding,
        confidence,
        decision,
        verification,
        output=output,
        declarations=rewrites,
        warnings=warnings,
        candidates=cands,
        bom=bom_name,
        line_endings=line_endings(text),
        ambiguous=bool(det and det.ambiguous),
    )


def normalise_prefer(names: tuple[str, ...]) -> tuple[str, ...]:
    """``--prefer`` labels as detection-result names; raises LookupError for unknown labels."""
    return tuple(canonical_name(n) for n in names)
