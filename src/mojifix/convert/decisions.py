"""A person's decisions on quarantined files: the decisions file's schema, loading, and applying one.

Guess, verify, admit, then settle: ``mojifix review`` shows the quarantine to a person, who picks a
reading per file; the page saves the choices as a decisions file, and ``mojifix convert SRC DST
--decisions FILE`` applies them. A decision applies only to the exact bytes it was made on (the
source SHA-1) and only when the chosen decoding is proven lossless, exactly as ``convert`` proves
its own; anything else is reported as a decision that no longer applies, never guessed.

The file is a JSON array; each object is one of (docs/review.md)::

    {"path": P, "sha1": S, "encoding": "Big5"}                         the whole file in one encoding
    {"path": P, "sha1": S, "segments": [{"end": 1200, "encoding": "Big5"},
                                        {"end": 1530, "encoding": "GBK"}]}   a mixed file, in parts
    {"path": P, "sha1": S, "encoding": null}                          leave the file out

``path`` is the path as written in the manifest; ``path_hex`` (optional) is the manifest's exact
name bytes for names that are not valid UTF-8. ``end`` is the byte offset where a segment ends (the
last one at the file's size).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mojifix.convert.codec import canonical_name, decode_strict, reencode_name, reencodes_to
from mojifix.convert.records import DeclarationRewrite, FileRecord
from mojifix.convert.verify import Verdict, line_endings, relabel
from mojifix.detect.bom import sniff_bom
from mojifix.errors import ConversionError

__all__ = [
    "PERSON",
    "STALE",
    "Decision",
    "Decisions",
    "DecisionsError",
    "Segment",
    "check_reading",
    "dump_decisions",
    "load_decisions",
    "parse_decisions",
    "unapplied",
]

#: the manifest's ``decision`` value for a file settled by a person's decision
PERSON = "person"
#: prefix of the manifest warning that says a decision was not applied (and why)
STALE = "decision not applied: "
#: the default name of a decisions file (what the review page downloads)
DEFAULT_NAME = "mojifix-decisions.json"

_SHA1 = re.compile(r"[0-9a-f]{40}")
_HEX = re.compile(r"(?:[0-9a-f]{2})+")
_KEYS = frozenset({"path", "path_hex", "sha1", "encoding", "segments"})
_UTF8_BOM = b"\xef\xbb\xbf"


class DecisionsError(ConversionError, ValueError):
    """The decisions file cannot be read or does not follow the schema (says which entry and why)."""


@dataclass(frozen=True, slots=True)
class Segment:
    """Bytes up to ``end`` (from the previous segment's end) are text in ``encoding``."""

    end: int
    encoding: str


@dataclass(frozen=True, slots=True)
class Decision:
    """One file's decision: an encoding, segments (a mixed file), or neither (leave the file out)."""

    path: str
    sha1: str
    encoding: str | None = None
    segments: tuple[Segment, ...] | None = None
    path_hex: str | None = None

    @property
    def key(self) -> str:
        """The manifest's key for the file (its exact name bytes in hex, else its path)."""
        return self.path_hex or self.path

    @property
    def left_out(self) -> bool:
        return self.encoding is None and self.segments is None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"path": self.path}
        if self.path_hex:
            d["path_hex"] = self.path_hex
        d["sha1"] = self.sha1
        if self.segments is not None:
            d["segments"] = [{"end": s.end, "encoding": s.encoding} for s in self.segments]
        else:
            d["encoding"] = self.encoding
        return d

    def describe(self) -> str:
        """Human words for the choice, as the manifest's ``reason`` records it."""
        if self.segments is not None:
            parts = []
            start = 0
            for s in self.segments:
                parts.append(f"{s.encoding} bytes {start}-{s.end}")
                start = s.end
            return ", ".join(parts)
        return self.encoding or "left out"


@dataclass(frozen=True, slots=True)
class Decisions:
    """Every decision of one file, looked up by the manifest's key; passed to every worker in Options."""

    items: tuple[Decision, ...]
    source: str = ""
    _by_key: dict[str, Decision] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {d.key: d for d in self.items})

    def __len__(self) -> int:
        return len(self.items)

    def get(self, key: str) -> Decision | None:
        return self._by_key.get(key)

    def settle(
        self, key: str, data: bytes, sha1: str, bom: str = "strip", keep_declarations: bool = False
    ) -> Verdict | tuple[str, ...]:
        """The verdict for file ``key`` as its decision says, or ``()`` without a decision, or the one
        ``STALE`` warning that says why the decision does not apply to these bytes. In-band
        declarations of the output are relabelled to utf-8 as ``convert`` does for every file, unless
        ``keep_declarations``."""
        d = self._by_key.get(key)
        if d is None:
            return ()
        read = check_decision(d, data, sha1)
        if isinstance(read, str):
            return (STALE + read,)
        return _verdict(d, read, bom, keep_declarations)


# ---------------------------------------------------------------------------------------------- schema


def _fail(i: int, msg: str) -> DecisionsError:
    return DecisionsError(f"decisions entry {i}: {msg}")


def _encoding(i: int, name: object, where: str) -> str:
    if not isinstance(name, str) or not name:
        raise _fail(i, f"{where} must be an encoding name (a string)")
    try:
        return canonical_name(name)
    except LookupError:
        raise _fail(i, f"{where}: unknown encoding {name!r}") from None


def _decision(i: int, obj: object) -> Decision:
    if not isinstance(obj, dict):
        raise _fail(i, "must be an object with path, sha1 and encoding (or segments)")
    extra = set(obj) - _KEYS
    if extra:
        raise _fail(i, f"unknown key(s) {', '.join(sorted(extra))}")
    path, sha1, path_hex = obj.get("path"), obj.get("sha1"), obj.get("path_hex")
    if not isinstance(path, str) or not path:
        raise _fail(i, "path must be the file's path as written in the manifest")
    if not isinstance(sha1, str) or not _SHA1.fullmatch(sha1):
        raise _fail(i, f"{path}: sha1 must be 40 lowercase hex digits")
    if path_hex is not None and (not isinstance(path_hex, str) or not _HEX.fullmatch(path_hex)):
        raise _fail(i, f"{path}: path_hex must be the name's bytes in lowercase hex")
    has_enc, has_seg = "encoding" in obj, "segments" in obj
    if has_enc == has_seg:
        raise _fail(i, f"{path}: give exactly one of encoding (a name, or null to leave out) and segments")
    if has_enc:
        enc = obj["encoding"]
        return Decision(path, sha1, None if enc is None else _encoding(i, enc, "encoding"), None, path_hex)
    raw = obj["segments"]
    if not isinstance(raw, list) or not raw:
        raise _fail(i, f"{path}: segments must be a non-empty list of {{end, encoding}}")
    segments: list[Segment] = []
    last = 0
    for j, seg in enumerate(raw):
        if not isinstance(seg, dict) or set(seg) != {"end", "encoding"}:
            raise _fail(i, f"{path}: segment {j} must be exactly {{end, encoding}}")
        end = seg["end"]
        if not isinstance(end, int) or isinstance(end, bool) or end <= last:
            raise _fail(i, f"{path}: segment {j} end must be an integer byte offset after {last}")
        segments.append(Segment(end, _encoding(i, seg["encoding"], f"segment {j} encoding")))
        last = end
    return Decision(path, sha1, None, tuple(segments), path_hex)


def parse_decisions(obj: object, source: str = "") -> Decisions:
    """Validate a parsed decisions file (a JSON array); raises DecisionsError naming the bad entry."""
    if not isinstance(obj, list):
        raise DecisionsError("a decisions file is a JSON array of {path, sha1, encoding|segments} objects")
    items = tuple(_decision(i, o) for i, o in enumerate(obj))
    seen: set[str] = set()
    for i, d in enumerate(items):
        if d.key in seen:
            raise _fail(i, f"{d.path}: a second decision for the same file")
        seen.add(d.key)
    return Decisions(items, source)


def load_decisions(path: str | os.PathLike[str]) -> Decisions:
    """Read and validate a decisions file; raises DecisionsError (unreadable, not JSON, off-schema)."""
    name = os.fsdecode(path)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise DecisionsError(f"cannot read decisions file {name!r}: {exc.strerror or exc}") from None
    try:
        obj = json.loads(raw)
    except ValueError as exc:
        raise DecisionsError(f"decisions file {name!r} is not JSON: {exc}") from None
    return parse_decisions(obj, name)


def dump_decisions(items: Iterable[Decision]) -> str:
    """The decisions file text for ``items`` (what the review page writes, byte for byte)."""
    return json.dumps([d.to_dict() for d in items], ensure_ascii=False, indent=1) + "\n"


# ---------------------------------------------------------------------------------------------- applying


def _bom_length(data: bytes, encoding: str) -> int:
    """Length of the BOM ``data`` starts with when it names ``encoding`` (the Encoding Standard's BOM
    sniff: a first segment in UTF-8 or UTF-16 may start with its BOM), else 0."""
    found = sniff_bom(data, "web")
    return found[1] if found is not None and found[0] == encoding else 0


def _read(data: bytes, segments: Sequence[Segment]) -> tuple[str, int] | str:
    """(text, BOM length) when decoding ``data`` segment by segment is lossless (strict decode, no
    U+FFFD outside UTF-8, re-encoding gives back the bytes: :func:`mojifix.convert.codec.reencodes_to`,
    the round-trip check ``convert`` itself uses), else why not."""
    bom = _bom_length(data[: segments[0].end], segments[0].encoding)
    texts: list[str] = []
    start = 0
    for s in segments:
        chunk = data[start + bom if start == 0 else start : s.end]
        try:
            text = decode_strict(chunk, s.encoding)
        except UnicodeDecodeError as exc:
            return f"{s.encoding} cannot decode byte {s.end - len(chunk) + exc.start}"
        except LookupError:
            return f"no decoder for {s.encoding}"
        if "\ufffd" in text and s.encoding != "UTF-8":
            return f"decoding bytes {start}-{s.end} as {s.encoding} yields U+FFFD"
        if not reencodes_to(text, reencode_name(s.encoding), chunk):
            return f"bytes {start}-{s.end} as {s.encoding} are not lossless (re-encoding differs)"
        texts.append(text)
        start = s.end
    return "".join(texts), bom


def check_reading(data: bytes, segments: Sequence[Segment]) -> str | None:
    """None when decoding ``data`` segment by segment is lossless (strict decode, no U+FFFD outside
    UTF-8, re-encode == the bytes), else why not. The review page offers only readings this accepts."""
    read = _read(data, segments)
    return read if isinstance(read, str) else None


def _segments(d: Decision, size: int) -> tuple[Segment, ...]:
    if d.segments is not None:
        return d.segments
    assert d.encoding is not None
    return (Segment(size, d.encoding),)


def check_decision(d: Decision, data: bytes, sha1: str) -> tuple[str, int] | str | None:
    """Whether ``d`` applies to ``data`` (same SHA-1, segments cover it, each decoding lossless): the
    proven (text, BOM length), or None for a decision to leave the file out; else why not (a str)."""
    if d.sha1 != sha1:
        return f"the source changed since the review (sha1 {sha1}, the decision was made on {d.sha1})"
    if d.left_out:
        return None
    segments = _segments(d, len(data))
    if segments[-1].end != len(data):
        return f"the segments end at byte {segments[-1].end}, the file has {len(data)} bytes"
    return _read(data, segments)


def _verdict(d: Decision, read: tuple[str, int] | None, bom: str, keep_declarations: bool = False) -> Verdict:
    """The verdict of a decision that :func:`check_decision` accepted, from its proven reading."""
    reason = f"settled by a person: {d.describe()}"
    if read is None:
        return Verdict("skipped", None, None, PERSON, "none", reason=reason)
    text, bom_length = read
    segments = d.segments or ()
    first = d.encoding if d.segments is None else segments[0].encoding
    assert first is not None
    output = text.encode("utf-8")
    if bom_length and bom == "keep":
        output = _UTF8_BOM + output
    all_utf8 = all(s.encoding == "UTF-8" for s in segments) if d.segments is not None else first == "UTF-8"
    rewrites: tuple[DeclarationRewrite, ...] = ()
    if not keep_declarations:
        # A settled page that still says charset=gb2312 would be mislabeled, as for any other file;
        # relabel() proves the rewrite touched nothing but the labels.
        relabelled = relabel(output)
        if relabelled is None:  # pragma: no cover - by construction
            raise AssertionError("rewriting the in-band declaration could not be verified")
        output, rewrites = relabelled
    return Verdict(
        "utf8" if all_utf8 else "converted",
        first,
        None,
        PERSON,
        "lossless",
        output=output,
        reason=reason,
        bom=first if bom_length else None,
        line_endings=line_endings(text),
        declarations=rewrites,
    )


def discard_quarantine(side_root: bytes, rel: bytes, quarantine_dir: bytes) -> None:
    """Remove a settled file's quarantine copy, its reason file and its salvage (whichever exist)."""
    top = os.path.join(side_root, quarantine_dir)
    base = os.path.join(top, rel)
    for suffix in (b"", b".reason.json", b".salvaged"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(base + suffix)
    parent = os.path.dirname(base)
    while len(parent) > len(top) and parent.startswith(top + b"/"):  # directories it leaves empty
        try:
            os.rmdir(parent)
        except OSError:
            break
        parent = os.path.dirname(parent)


def record_rel(rec: FileRecord) -> bytes:
    """The exact relative name bytes of a manifest record."""
    return bytes.fromhex(rec.path_hex) if rec.path_hex else rec.path.encode("utf-8")


def unapplied(decisions: Decisions, records: Iterable[FileRecord]) -> list[tuple[str, str]]:
    """(path, why) for every decision that the run did not apply: no such file, or the record's
    ``STALE`` warning, or the outcome that kept it from being applied (excluded, streamed)."""
    records = list(records)
    by_key = {r.path_hex or r.path: r for r in records}
    by_path = {r.path: r for r in records if r.path_hex}
    out: list[tuple[str, str]] = []
    for d in decisions.items:
        rec = by_key.get(d.key)
        if rec is None and d.path in by_path:
            hexname = by_path[d.path].path_hex
            out.append((d.path, f'the name is not UTF-8: give its bytes as "path_hex": "{hexname}"'))
        elif rec is None:
            out.append((d.path, "no such file in SRC"))
        elif rec.decision != PERSON:
            stale = [w[len(STALE) :] for w in rec.warnings if w.startswith(STALE)]
            why = stale[0] if stale else f"the file was {rec.outcome} ({rec.reason or rec.verification})"
            out.append((d.path, why))
    return out
