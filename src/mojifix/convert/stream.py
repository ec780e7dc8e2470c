"""Files larger than ``Options.stream_threshold``: decide, verify and convert in bounded memory.

Pass 1 reads the file in chunks: SHA-1, strict UTF-8 validity (incremental decoder), NUL/ESC/control
bytes, and two bounded samples (head and tail). The decision uses the BOM, UTF-8 validity over every
byte, or the detector on the head sample; the tail sample goes through the mixed-file probes.
Pass 2 decodes every byte strictly with an incremental decoder, re-encodes each decoded chunk and
hashes the result (re-encoded SHA-1 == source SHA-1 is the lossless proof without holding either
text), and streams UTF-8 into the atomic writer. Memory stays at a few chunk sizes whatever the file size.
Known limit: a stateful encoder (ISO-2022-JP) re-encodes chunk by chunk differently from the whole,
so such huge files are reported non-canonical (quarantined), never silently wrong.
"""

from __future__ import annotations

import codecs
import hashlib
import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass, replace

from mojifix.convert import declared, gate, mixed
from mojifix.convert.codec import encode_strict, incremental_decoder, reencode_name, try_decode
from mojifix.convert.fsio import AtomicWriter
from mojifix.convert.options import Options
from mojifix.convert.verify import Verdict, _bom, _choose, _plain_utf8, utf8_relabel_warnings
from mojifix.detect.result import Detection

__all__ = ["StreamResult", "examine_stream"]

DetectFn = Callable[..., Detection]

#: bytes of the head and of the tail handed to the detector / mixed probes (1 MiB: far more than the
#: detector needs to separate encodings, small enough to keep memory bounded)
SAMPLE_BYTES = 1024 * 1024
#: bytes per code unit of the encodings whose characters a cut at a line feed could split
_CODE_UNIT = {"UTF-16LE": 2, "UTF-16BE": 2, "utf-32-le": 4, "utf-32-be": 4}
#: bytes of one chunk kept for the next one's plain-text test: the longest sequence it looks for
#: ("~{" + a GB pair) is 4 bytes, so 3 from before complete any that straddle the chunk boundary
PLAIN_CARRY = 3


def head_sample(head: bytes, whole: bool, encoding: str, start: int) -> bytes:
    """The part of the head sample that holds only whole characters: all of it when it is the whole
    file; UTF-16 and UTF-32 up to a code-unit boundary (UTF-16 not after a high surrogate, whose pair
    was cut); other encodings up to the last line feed (in every byte-oriented encoding here byte 0A is
    a line feed, never part of a multi-byte character)."""
    if whole:
        return head
    unit = _CODE_UNIT.get(encoding)
    if unit is None:
        return head[: head.rfind(b"\n") + 1]
    end = start + (len(head) - start) // unit * unit
    if unit == 2 and end - 2 >= start:
        last = int.from_bytes(head[end - 2 : end], "little" if encoding == "UTF-16LE" else "big")
        if 0xD800 <= last < 0xDC00:
            end -= 2
    return head[:end]


@dataclass(frozen=True, slots=True)
class StreamResult:
    verdict: Verdict
    sha1: str
    output_sha1: str | None
    written: bool


def _chunks(fd: int, size: int):
    os.lseek(fd, 0, os.SEEK_SET)
    while True:
        chunk = os.read(fd, size)
        if not chunk:
            return
        yield chunk


def examine_stream(
    fd: int,
    opts: Options,
    detect: DetectFn,
    open_writer: Callable[[], AtomicWriter] | None,
) -> StreamResult:
    """Decide and (when ``open_writer`` is given and the proof holds) convert the file open at ``fd``."""
    # Pass 1.
    sha = hashlib.sha1()
    utf8 = codecs.getincrementaldecoder("utf-8")("strict")
    is_utf8 = True
    ascii_only = True  # an ASCII UTF-8 file reads the same under any declared label: left as it is
    plain = True  # nothing that sends a file to the detector (verify._plain_utf8's tests)
    carry = b""  # the previous chunk's last bytes: an escape sequence may straddle two chunks
    head = b""
    tail = b""
    size = 0
    for chunk in _chunks(fd, opts.chunk_size):
        sha.update(chunk)
        size += len(chunk)
        if len(head) < SAMPLE_BYTES:
            head += chunk[: SAMPLE_BYTES - len(head)]
        tail = (tail + chunk)[-SAMPLE_BYTES:]
        ascii_only = ascii_only and chunk.isascii()
        if plain and _plain_utf8(carry + chunk, decode=False) is None:
            plain = False
        carry = chunk[-PLAIN_CARRY:]
        if is_utf8:
            try:
                utf8.decode(chunk)
            except UnicodeDecodeError:
                is_utf8 = False
    if is_utf8:
        try:
            utf8.decode(b"", True)
        except UnicodeDecodeError:
            is_utf8 = False
    digest = sha.hexdigest()

    start = 0
    det = None
    refused: tuple[str, str] | None = None
    bom = _bom(head)
    if bom is not None:
        encoding, start = bom
        decision, confidence = "bom", 1.0
    elif is_utf8 and plain:
        encoding, decision, confidence = "UTF-8", "utf8-valid", 1.0
    else:
        det = detect(head, domain="file")
        if det.verdict == "binary":
            return StreamResult(
                Verdict("skipped", None, None, "detector", "none", reason="binary", binary=True),
                digest,
                None,
                False,
            )
        if not det.candidates:
            return StreamResult(
                Verdict(
                    "quarantined",
                    None,
                    None,
                    "detector",
                    "undecided",
                    reason="the detector found no candidate encoding",
                ),
                digest,
                None,
                False,
            )
        decls = declared.declarations_of(head)  # the 1 KB window: the same in the head and its sample
        chosen, decision, confidence = _choose(det, opts, decls)
        if chosen is None:
            cands = tuple((c.encoding, c.confidence) for c in det.candidates)
            return StreamResult(
                Verdict(
                    "quarantined",
                    cands[0][0],
                    confidence,
                    decision,
                    "ambiguous",
                    reason="ambiguous: " + " vs ".join(e for e, _ in cands[:3]),
                    candidates=cands,
                    ambiguous=True,
                ),
                digest,
                None,
                False,
            )
        encoding = chosen
        if decision == "detector":
            sample = head_sample(head, size == len(head), encoding, 0)
            text = try_decode(sample, encoding)
            conflict = declared.conflicting_declaration(sample, encoding, text, decls) if text else None
            refused = gate.refusal(det, encoding, conflict)
        decision += " (head sample)"
    cands = tuple((c.encoding, round(c.confidence, 4)) for c in det.candidates) if det else ()
    bom_name = encoding if bom is not None else None

    def quarantined(verification: str, reason: str, split=None) -> StreamResult:
        warn = ("salvage is not available for streamed files",) if split is not None and opts.salvage else ()
        v = Verdict(
            "quarantined",
            encoding,
            confidence,
            decision,
            verification,
            reason=reason,
            warnings=warn,
            candidates=cands,
            bom=bom_name,
            mixed=split,
        )
        return StreamResult(v, digest, None, False)

    if refused is not None:  # the write gate (convert/gate.py), on the head sample
        return quarantined(*refused)

    # Mixed-file probes on the head sample (cut so that no character is split, as for the gate)
    # and on the tail sample (from its first line start; offsets made absolute).
    if encoding != "UTF-8":
        utf16 = encoding in ("UTF-16LE", "UTF-16BE")
        samples = [(0, head_sample(head, size == len(head), encoding, start), start)]
        if size > len(head):
            base = size - len(tail)
            cut = tail.find(b"\n") + 1 if not utf16 else (base - start) % 2
            samples.append((base + cut, tail[cut:], 0))
        for base, sample, origin in samples:
            split = mixed.find_split(sample, origin, encoding, None, detect) if sample else None
            if split is not None:
                split = mixed.Split(
                    base + split.boundary,
                    split.head_encoding,
                    split.tail_encoding,
                    split.evidence + f" (sample from byte {base})",
                    split.uncertain,
                )
                return quarantined(
                    "mixed",
                    f"mixed: {split.head_encoding} up to byte {split.boundary}, then {split.tail_encoding}",
                    split,
                )

    # Pass 2: strict incremental decode, re-encode hash, streaming write.
    decode = incremental_decoder(encoding)
    reenc = reencode_name(encoding)
    re_sha = hashlib.sha1()
    out_sha = hashlib.sha1()
    writer = open_writer() if open_writer is not None else None
    try:
        if bom is not None:
            re_sha.update(head[:start])
        prefix = b"\xef\xbb\xbf" if writer is not None and opts.bom == "keep" and bom is not None else b""
        if writer is not None and prefix:
            writer.write(prefix)
            out_sha.update(prefix)
        consumed = 0
        first = True
        held = b""  # output held back until it covers the window declarations are looked for in
        rewrites: tuple[declared.DeclarationRewrite, ...] = ()
        # as in memory (verify.examine): every non-UTF-8 label is relabelled, in UTF-8 sources too
        # unless they are ASCII
        relabel = not opts.keep_declarations and (encoding != "UTF-8" or not ascii_only)
        fail_reason = None
        for chunk in itertools.chain(_chunks(fd, opts.chunk_size), (b"",)):
            final = chunk == b""
            piece = chunk[start:] if first else chunk
            first = False
            try:
                text = decode(piece, final)
            except UnicodeDecodeError as exc:
                fail_reason = f"{encoding} cannot decode byte {start + consumed + exc.start}"
                break
            consumed += len(piece)
            if "\ufffd" in text and encoding != "UTF-8":
                fail_reason = f"decoding as {encoding} yields U+FFFD"
                break
            try:
                re_sha.update(encode_strict(text, reenc))
            except UnicodeEncodeError:
                fail_reason = f"re-encoding with {reenc} fails"
                break
            if writer is not None:
                out = text.encode("utf-8")
                if relabel:
                    # declarations are looked for in the output's first OUTPUT_WINDOW bytes, as for a
                    # file held in memory: hold chunks back until they cover it (or the file ends)
                    held += out
                    if len(held) < declared.OUTPUT_WINDOW and not final:
                        continue
                    out, rewrites = declared.rewrite_declarations(held)
                    rewrites = tuple(replace(r, offset=r.offset + len(prefix)) for r in rewrites)
                    relabel, held = False, b""
                writer.write(out)
                out_sha.update(out)
        if fail_reason is None and re_sha.hexdigest() != digest:
            if writer is not None:
                writer.abort()
            return quarantined(
                "noncanonical",
                f"decodes cleanly as {encoding}, but re-encoding with {reenc} "
                "does not give back the source bytes",
            )
        if fail_reason is not None:
            if writer is not None:
                writer.abort()
            return quarantined("decode-error", fail_reason)
        if writer is not None:
            writer.commit()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    warnings: tuple[str, ...] = ()
    if encoding == "UTF-8":
        verification = "bom-stripped" if bom is not None and opts.bom == "strip" else "lossless"
        outcome = "utf8"
        warnings = utf8_relabel_warnings(rewrites)
    else:
        verification, outcome = "lossless", "converted"
    v = Verdict(
        outcome,
        encoding,
        confidence,
        decision,
        verification,
        warnings=warnings,
        candidates=cands,
        bom=bom_name,
        declarations=rewrites,
    )
    return StreamResult(v, digest, out_sha.hexdigest() if writer is not None else None, writer is not None)
