"""The detector's orchestrator: runs the stages in order over streamed input.

Stages (one module each): ``bom`` -> ``binary`` -> ``structure`` (UTF-16/32 without BOM) -> ``ascii``
-> ``utf8`` -> ``escape`` -> ``validity`` -> ``scoring`` -> ``priors`` -> ``ambiguity``.

Streaming: :class:`Detector` re-cuts whatever it is fed into fixed :data:`BLOCK`-byte blocks at absolute
offsets, so every statistic is the same however the input is chunked, and ``detect(data)`` is literally
``Detector().feed(data).close()``: streaming gives the same answer as one-shot by construction.
Per block it updates a byte histogram, zero-byte positions, the UTF-8 validator, one strict incremental
decoder per multi-byte/UTF-16/32/escape candidate, and keeps up to :data:`SAMPLE_BYTES` of blocks that
contain non-ASCII bytes for ranking. Validity is thus decided over every byte, ranking over a sample:
memory stays bounded (about BLOCK + SAMPLE_BYTES) on inputs of any size.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from mojifix.detect import ambiguity, ascii, binary, bom, escape, priors, structure, validity
from mojifix.detect.encodings import EncodingInfo, candidates_for
from mojifix.detect.result import Candidate, Detection, Evidence
from mojifix.detect.scoring import Scorer, get_scorer, score_text
from mojifix.detect.utf8 import Utf8Validator

__all__ = ["Detector", "detect"]

#: internal block size: large enough that per-block overhead (a dozen C calls) is negligible, small
#: enough to keep memory flat.
BLOCK = 1 << 16
#: bytes of non-ASCII-bearing blocks kept for ranking. Four blocks hold thousands of non-ASCII
#: characters in any language, far more than ranking needs (accuracy is flat beyond ~4 KB of
#: non-ASCII context in the benchmark).
SAMPLE_BYTES = 4 * BLOCK
#: ASCII context kept on each side of a non-ASCII byte when cutting the sample down for scoring: two
#: words either side is what a bigram model can use; ASCII far from any non-ASCII byte decodes the
#: same in every ASCII-compatible candidate and cannot change the ranking.
SEGMENT_CONTEXT = 16
#: at most this many bytes are decoded and scored per candidate.
SCORE_BYTES = 2048
#: decodings are first scored on this many bytes of the sample; those :data:`PRUNE_MARGIN` nats
#: (e^-30: far beyond anything the rest of the sample could overturn in the benchmark) behind the
#: best are dropped before the full scoring.
PREFIX_BYTES = 512
PRUNE_MARGIN = 30.0
#: single-byte candidates are shortlisted per script of their best-reading language (a unigram cannot
#: compare scripts: Thai letters are less predictable one by one than Cyrillic ones, yet random
#: Cyrillic is far less likely than real Thai once letter pairs count). Within a script, candidates
#: within this many nats of the script's best unigram score go on to full bigram scoring: 15 nats ~
#: two mis-read letters; no benchmark case had its true encoding further behind than that.
SHORTLIST_MARGIN = 15.0
#: ... and the best this many per script are kept whatever the margins.
SHORTLIST_MIN = 3
#: EBCDIC is considered only when its space byte (0x40) is at least this share of the input (EBCDIC
#: prose has ~15% spaces, ASCII-family text has 0x40 "@" well below 1%), or when EBCDIC letter bytes
#: (0x81-0xA9, 0xC1-0xE9 minus gaps) make up at least EBCDIC_LETTER_SHARE of it (word lists, short
#: lines): in ASCII-family text those bytes are accented letters, never half of everything.
EBCDIC_SPACE_SHARE = 0.05
EBCDIC_LETTER_SHARE = 0.5
_EBCDIC_LETTERS = np.array(
    [b for lo, hi in ((0x81, 0x89), (0x91, 0x99), (0xA2, 0xA9), (0xC1, 0xC9), (0xD1, 0xD9), (0xE2, 0xE9))
     for b in range(lo, hi + 1)]
)  # fmt: skip
#: minimum model score (nats per character) for UTF-16 text without zero bytes. Real text in its own
#: language scores -2 to -4; random code points (what binary data decodes to) score below -10.
UTF16_RESCUE_SCORE = -6.0
#: confidence reported for decisions that do not come from the statistical model (BOM, valid UTF-8,
#: UTF-16/32 structure, escape sequences): these are near-certain, but not proofs.
STRUCTURAL_CONFIDENCE = 0.99


_PYCODEC = {
    "UTF-16LE": "utf-16-le",
    "UTF-16BE": "utf-16-be",
    "utf-32-le": "utf-32-le",
    "utf-32-be": "utf-32-be",
}


@dataclass(slots=True)
class _State:
    """Per-call state of one detection (the stages' running statistics)."""

    domain: str
    tld: str | None
    allowed: tuple[EncodingInfo, ...]
    max_bytes: int | None
    total: int = 0
    pending: bytearray = field(default_factory=bytearray)
    hist: np.ndarray = field(default_factory=lambda: np.zeros(256, np.int64))
    zeros: structure.ZeroCounts = field(default_factory=lambda: structure.ZeroCounts([0, 0, 0, 0]))
    head: bytes = b""
    sample: list[tuple[int, bytes]] = field(default_factory=list)
    sample_size: int = 0
    utf8: Utf8Validator = field(default_factory=Utf8Validator)
    validators: dict[str, validity.StreamValidator] = field(default_factory=dict)
    closed: bool = False


class Detector:
    """Streaming detector: ``Detector(...).feed(chunk)...close() -> Detection``.

    Same keyword arguments as :func:`detect`. ``feed`` accepts any chunking; ``close`` may be called
    once. Bytes beyond ``max_bytes`` are ignored (and ``bytes_examined`` says how many were used).
    """

    def __init__(
        self,
        *,
        tld: str | None = None,
        domain: str = "file",
        candidates: Iterable[str] | None = None,
        max_bytes: int | None = None,
    ) -> None:
        if domain not in ("file", "web"):
            raise ValueError(f"domain must be 'file' or 'web', not {domain!r}")
        restrict = frozenset(candidates) if candidates is not None else None
        allowed = candidates_for(domain, restrict)
        self._s = _State(domain=domain, tld=tld, allowed=allowed, max_bytes=max_bytes)
        for info in allowed:
            if info.kind in ("multi", "utf16", "utf32", "escape"):
                self._s.validators[info.name] = validity.StreamValidator.start(info)

    def feed(self, chunk: bytes | bytearray | memoryview) -> Detector:
        """Add the next piece of input; returns self so calls can chain."""
        s = self._s
        if s.closed:
            raise ValueError("Detector.feed() after close(); create a new Detector")
        data = bytes(chunk)
        if s.max_bytes is not None:
            room = s.max_bytes - s.total - len(s.pending)
            data = data[: max(room, 0)]
        s.pending += data
        while len(s.pending) >= BLOCK:
            block = bytes(s.pending[:BLOCK])
            del s.pending[:BLOCK]
            self._block(block)
        return self

    def _block(self, block: bytes) -> None:
        s = self._s
        offset = s.total
        s.total += len(block)
        if not s.head:
            s.head = block
        arr = np.frombuffer(block, np.uint8)
        s.hist += np.bincount(arr, minlength=256)
        s.zeros.total += len(block)
        if s.hist[0]:
            zero = arr == 0
            for i in range(4):
                s.zeros.by_mod4[i] += int(np.count_nonzero(zero[i::4]))
        s.utf8.feed(block, offset)
        is_ascii_block = block.isascii()
        for v in s.validators.values():
            if v.error_at is not None:
                continue
            if is_ascii_block and v.info.ascii_compatible and not v.decoder.getstate()[0]:
                continue  # ASCII is valid in every ASCII-compatible encoding, with nothing pending
            v.feed(block, offset)
        if not is_ascii_block and s.sample_size < SAMPLE_BYTES:
            s.sample.append((offset, block))
            s.sample_size += len(block)

    def close(self) -> Detection:
        """Finish the input and return the detection."""
        s = self._s
        if s.closed:
            raise ValueError("Detector.close() called twice")
        if s.pending:
            block = bytes(s.pending)
            s.pending.clear()
            self._block(block)
        s.closed = True
        return _decide(s)


def detect(
    data: bytes | bytearray | memoryview,
    *,
    tld: str | None = None,
    domain: str = "file",
    candidates: Iterable[str] | None = None,
    max_bytes: int | None = None,
) -> Detection:
    """Detect the encoding of ``data``: ranked candidates with evidence, and an honest "ambiguous".

    ``domain="web"`` names only WHATWG encodings (what a browser can decode); ``domain="file"`` also
    UTF-16/32 without BOM, DOS and Mac code pages, EBCDIC and other legacy encodings. ``tld`` (e.g.
    "ru") tilts near-ties towards the encodings customary there. ``candidates`` restricts the names
    that may be returned. ``max_bytes`` bounds how much of ``data`` is examined.
    """
    return Detector(tld=tld, domain=domain, candidates=candidates, max_bytes=max_bytes).feed(data).close()


# ---- decision ------------------------------------------------------------------------------------
def _allowed_names(s: _State) -> set[str]:
    return {info.name for info in s.allowed}


def _decide(s: _State) -> Detection:
    n = s.total
    if n == 0:
        return Detection((), "empty", evidence=(Evidence("ascii", "no bytes"),))

    # 1. BOM
    found = bom.sniff_bom(s.head, s.domain)
    if found is not None:
        name, length = found
        ev = Evidence("bom", f"input starts with the {name} byte order mark ({length} bytes)", float(length))
        cand = Candidate(name, 1.0, None, (ev,))
        return Detection((cand,), "text", bom=name, bytes_examined=n, evidence=(ev,))

    # 2-3. binary, with zero bytes explained by UTF-16/32 structure
    guess = structure.structure_guess(s.zeros)
    if guess is not None:
        v = s.validators.get(guess[0])
        if v is None or not v.valid:
            guess = None
    magic = binary.signature(s.head)
    if magic is not None:
        return _binary(n, f"starts with the signature of {magic}")
    if guess is None:
        bin_ev = binary.binary_evidence(s.hist, n)
    else:  # UTF-16/32 text has control-range *bytes* (Cyrillic U+04xx -> 0x04): judge the decoded text
        bin_ev = binary.decoded_binary_evidence(s.head.decode(_PYCODEC[guess[0]], "replace"))
    if bin_ev is not None and magic is None and guess is None:
        guess = _utf16_without_zeros(s)
        if guess is not None:
            bin_ev = None
    if bin_ev is not None:
        return _binary(n, bin_ev[1], bin_ev[0])
    if guess is not None:
        name, share = guess
        if share >= 0:
            detail = (
                f"{share:.0%} of code units have their zero byte where {name} puts it; all {n:,} bytes valid"
            )
        else:
            detail = (
                f"no zero bytes, but all {n:,} bytes valid {name} reading as text ({share:.1f} nats/char)"
            )
        ev = Evidence("structure", detail, share)
        return Detection((Candidate(name, STRUCTURAL_CONFIDENCE, None, (ev,)),), "text", bytes_examined=n,
                         evidence=(ev,))  # fmt: skip

    names = _allowed_names(s)
    # 4 + 6. ASCII, unless an escape-sequence encoding announces itself
    if ascii.is_ascii(s.hist):
        for name, marker in escape.escape_candidates(s.head):
            v = s.validators.get(name)
            if v is not None and v.valid:
                detail = f"designation sequence {marker!r} present; all {n:,} bytes valid in {name}"
                ev = Evidence("escape", detail)
                return Detection((Candidate(name, STRUCTURAL_CONFIDENCE, None, (ev,)),), "text",
                                 bytes_examined=n, evidence=(ev,))  # fmt: skip
        ev = Evidence("ascii", f"all {n:,} bytes are ASCII (below 0x80)")
        return Detection((Candidate(ascii.ASCII_CANDIDATE, 1.0, None, (ev,)),), "ascii", bytes_examined=n,
                         evidence=(ev,))  # fmt: skip

    # 5. UTF-8
    if s.utf8.valid and s.utf8.multibyte and "UTF-8" in names:
        tail = s.utf8.truncated_tail
        detail = f"all {n:,} bytes valid UTF-8 with {s.utf8.multibyte:,} multi-byte characters"
        if tail:
            detail += f" (last {tail} bytes: a sequence cut off by the end of the input)"
        ev = Evidence("utf8", detail, float(s.utf8.multibyte))
        return Detection((Candidate("UTF-8", STRUCTURAL_CONFIDENCE, None, (ev,)),), "text", bytes_examined=n,
                         evidence=(ev,))  # fmt: skip
    global_ev: list[Evidence] = []
    if s.utf8.error_at is not None:
        global_ev.append(Evidence("utf8", f"not UTF-8: invalid sequence at byte {s.utf8.error_at:,}"))

    # 7. validity filter
    survivors: list[tuple[EncodingInfo, Evidence]] = []
    valid_single = validity.single_byte_validity(s.hist)
    ebcdic_like = bool(
        s.hist[0x40] >= EBCDIC_SPACE_SHARE * n or s.hist[_EBCDIC_LETTERS].sum() >= EBCDIC_LETTER_SHARE * n
    )
    for info in s.allowed:
        if info.kind in ("utf8", "escape"):
            continue
        if info.kind in ("single", "ebcdic"):
            if info.kind == "ebcdic" and not ebcdic_like:
                continue
            if valid_single[info.name]:
                detail = f"every byte value defined in {info.name}"
                survivors.append((info, Evidence("validity", f"all {n:,} bytes: {detail}")))
            continue
        if info.kind in ("utf16", "utf32"):
            continue  # decided by their zero-byte structure (stage 3), never by statistics
        v = s.validators[info.name]
        if v.valid:
            tail = len(v.decoder.getstate()[0]) if info.kind == "multi" else 0
            detail = f"all {n:,} bytes valid in {info.name}"
            if tail:
                detail += f" (last {tail} bytes cut off by the end of the input)"
            survivors.append((info, Evidence("validity", detail)))
    if not survivors:
        return _binary(n, "no allowed encoding decodes every byte of the input", None, tuple(global_ev))

    # 8-10. score, add priors, rank
    scorer = get_scorer()
    ranked = _rank(s, scorer, survivors)
    scores = [r[0] for r in ranked]
    confs = ambiguity.confidences(scores)
    amb = ambiguity.is_ambiguous(scores)
    cands = tuple(
        Candidate(info.name, conf, lang, evs)
        for (score, info, lang, evs), conf in zip(ranked, confs, strict=True)
    )
    if amb:
        margin = scores[0] - scores[1]
        global_ev.append(
            Evidence(
                "ambiguity",
                f"{cands[0].encoding} and {cands[1].encoding} decode differently and are only "
                f"{margin:.1f} nats apart (< {ambiguity.AMBIGUITY_MARGIN})",
                margin,
            )
        )
    return Detection(cands, "text", amb, None, n, tuple(global_ev))


def _utf16_without_zeros(s: _State) -> tuple[str, float] | None:
    """UTF-16 text with no zero byte at all (no ASCII-range character), which looks binary bytewise.

    Cyrillic, Greek, Arabic, Hebrew, Indic or Thai UTF-16 puts a control-range byte (0x03-0x0E) in
    every other position. Accepted when the UTF-16 decoding of that side is valid, has no control
    character and reads as text (model score per character at least :data:`UTF16_RESCUE_SCORE`).
    """
    if s.total % 2:
        return None
    for name in ("UTF-16LE", "UTF-16BE"):
        v = s.validators.get(name)
        if v is None or not v.valid:
            continue
        text = s.head[: SCORE_BYTES - SCORE_BYTES % 2].decode(_PYCODEC[name], "replace")
        if binary.decoded_binary_evidence(text) is not None:
            continue
        _, per_char = score_text(text)
        if per_char >= UTF16_RESCUE_SCORE:
            return name, per_char
    return None


def _binary(n: int, detail: str, value: float | None = None, extra: tuple[Evidence, ...] = ()) -> Detection:
    ev = Evidence("binary", detail, value)
    return Detection((), "binary", bytes_examined=n, evidence=(*extra, ev))


def _segments(s: _State) -> tuple[bytes, bool]:
    """The sample cut down to non-ASCII bytes with :data:`SEGMENT_CONTEXT` bytes of context each side.

    Cuts fall inside ASCII runs longer than twice the context, so no multi-byte character (whose
    trail bytes may be ASCII-range, as in Shift_JIS) is split. Contiguous sample blocks are joined
    first; separate runs are joined by a newline.
    """
    runs: list[bytearray] = []
    last_end = -1
    for offset, block in s.sample:
        if offset == last_end:
            runs[-1] += block
        else:
            runs.append(bytearray(block))
        last_end = offset + len(block)
    ctx = SEGMENT_CONTEXT
    pieces: list[tuple[int, int, int]] = []  # (run, start, end)
    first_piece: dict[int, int] = {}  # byte value -> first piece that contains it
    for r, run in enumerate(runs):
        arr = np.frombuffer(bytes(run), np.uint8)
        pos = np.flatnonzero(arr >= 0x80)
        if len(pos) == 0:
            continue
        breaks = np.flatnonzero(np.diff(pos) > 2 * ctx)
        starts = pos[np.concatenate(([0], breaks + 1))] - ctx
        ends = pos[np.concatenate((breaks, [len(pos) - 1]))] + ctx + 1
        piece_of_pos = np.concatenate(([0], np.cumsum(np.diff(pos) > 2 * ctx))) + len(pieces)
        values, first = np.unique(arr[pos], return_index=True)
        for v, i in zip(values.tolist(), first.tolist(), strict=True):
            first_piece.setdefault(v, int(piece_of_pos[i]))
        pieces.extend((r, max(a, 0), b) for a, b in zip(starts.tolist(), ends.tolist(), strict=True))
    # the first pieces up to SCORE_BYTES, plus the first piece holding each byte value not yet seen,
    # so that a byte which tells two code pages apart is scored even if it only occurs late
    chosen: list[int] = []
    size = 0
    for i, (_, a, b) in enumerate(pieces):
        if size >= SCORE_BYTES:
            break
        chosen.append(i)
        size += b - a + 1
    taken = set(chosen)
    extra = sorted({i for i in first_piece.values() if i not in taken})
    chosen = sorted(taken | set(extra[: SCORE_BYTES // (2 * ctx + 1)]))
    out = b"\n".join(bytes(runs[r][a:b]) for r, a, b in (pieces[i] for i in chosen))
    at_end = (
        bool(chosen) and last_end == s.total and pieces[chosen[-1]][2] >= len(runs[pieces[chosen[-1]][0]])
    )
    return out, at_end


def _decode_for_scoring(info: EncodingInfo, data: bytes, at_end: bool) -> str:
    """Decode the scoring bytes; errors become U+FFFD.

    A character cut off where the *sample* ends is dropped; one cut off by the end of the *input* is
    tolerated by the validity filter but scored as U+FFFD here, so that a trailing lone lead byte
    cannot make a multi-byte reading of a short input look better than the complete single-byte one.
    """
    if info.kind in ("single", "ebcdic"):
        return info.decode(data, "replace")
    return codecs.getincrementaldecoder(info.pycodec)("replace").decode(data, final=at_end)


def _rank(
    s: _State, scorer: Scorer, survivors: list[tuple[EncodingInfo, Evidence]]
) -> list[tuple[float, EncodingInfo, str | None, tuple[Evidence, ...]]]:
    uniform = any(not info.ascii_compatible for info, _ in survivors)
    if uniform:
        data = s.head[: SCORE_BYTES - SCORE_BYTES % 4]
        at_end = len(data) == s.total
        basis = f"first {len(data):,} bytes"
    else:
        data, at_end = _segments(s)
        basis = f"{len(data):,} bytes around non-ASCII bytes"
    survivors = _shortlist(scorer, survivors, s.hist)
    groups: dict[str, list[tuple[EncodingInfo, Evidence]]] = {}
    for info, ev in survivors:
        text = _decode_for_scoring(info, data, at_end)
        groups.setdefault(text, []).append((info, ev))
    texts = list(groups)
    if len(data) > PREFIX_BYTES and len(texts) > 2:
        texts = _prune(s, scorer, survivors, groups, data[:PREFIX_BYTES], texts)
    scores = scorer.score_many(texts, [groups[t][0][0].name for t in texts])
    ranked = []
    for text, ls in zip(texts, scores, strict=True):
        members = groups[text]
        info, valid_ev = members[0]  # survivors are in registry (preference) order
        prior = priors.base_prior(info.name) + priors.tld_prior(info.name, s.tld)
        evs = [valid_ev]
        if ls.language is not None:
            evs.append(
                Evidence(
                    "language",
                    f"{basis} read as {ls.language}: {ls.known_share:.0%} of {ls.letters:,} letters among "
                    f"its frequent characters, log-likelihood {ls.loglik:.1f} nats",
                    ls.loglik,
                )
            )
        evs.append(
            Evidence("prior", f"prior log-odds of {info.name}{' given .' + s.tld if s.tld else ''}", prior)
        )
        if len(members) > 1:
            same = ", ".join(m[0].name for m in members[1:])
            evs.append(Evidence("validity", f"decodes the sample identically to: {same}"))
        ranked.append((ls.loglik + prior, info, ls.language, tuple(evs)))
    ranked.sort(key=lambda r: -r[0])
    return ranked


def _prune(
    s: _State,
    scorer: Scorer,
    survivors: list[tuple[EncodingInfo, Evidence]],
    groups: dict[str, list[tuple[EncodingInfo, Evidence]]],
    prefix: bytes,
    texts: list[str],
) -> list[str]:
    """Drop decodings already :data:`PRUNE_MARGIN` nats behind the best on the first bytes.

    Sequential testing: a reading that loses by e^-30 on the first 512 bytes will not recover, so it
    is not worth scoring over the rest of the sample (Shift_JIS text has a dozen such code pages).
    """
    names = [groups[t][0][0] for t in texts]
    heads = [_decode_for_scoring(info, prefix, False) for info in names]
    quick = scorer.score_many(heads, [info.name for info in names])
    totals = [
        q.loglik + priors.base_prior(i.name) + priors.tld_prior(i.name, s.tld)
        for q, i in zip(quick, names, strict=True)
    ]
    best = max(totals)
    return [t for t, total in zip(texts, totals, strict=True) if total >= best - PRUNE_MARGIN]


def _shortlist(
    scorer: Scorer, survivors: list[tuple[EncodingInfo, Evidence]], hist: np.ndarray
) -> list[tuple[EncodingInfo, Evidence]]:
    """Keep every multi-byte survivor and the single-byte ones with a competitive unigram score.

    The unigram score needs no decoding: it is computed from the byte histogram and each code page's
    table, for all single-byte candidates and all languages in one vectorised step.
    """
    singles = [info.name for info, _ in survivors if info.kind == "single"]
    if len(singles) <= SHORTLIST_MIN:
        return survivors
    scores, scripts = scorer.histogram_scores(singles, hist)
    keep: set[str] = set()
    for script in np.unique(scripts).tolist():
        members = np.flatnonzero(scripts == script)
        order = members[np.argsort(-scores[members], kind="stable")]
        best = scores[order[0]]
        for rank, i in enumerate(order.tolist()):
            if rank < SHORTLIST_MIN or scores[i] >= best - SHORTLIST_MARGIN:
                keep.add(singles[i])
    return [(info, ev) for info, ev in survivors if info.kind != "single" or info.name in keep]
