"""Stage 8: statistical scoring of candidate decodings with per-language character-bigram models.

A decoding is turned into an array of global ids with one table lookup per character (``model.lut``,
NumPy fancy indexing), runs of separators are collapsed, and the log-likelihood under every plausible
language is summed in three vectorised gathers (local ids, bigram table, out-of-list refinement). No
Python loop runs per character. Candidates decode the *same* bytes, so their log-likelihoods are directly
comparable: ``P(bytes | encoding, language) = P(text | language)`` because decoding is one-to-one.

On short input the cost is the number of NumPy calls, not the arithmetic, so the per-call code gathers
with ``table.take(idx)`` (indexing by an array of uint16 gids or int32 flat indices converts it on a
path about three times slower at these sizes; the values are the same) and calls array methods
(``a.nonzero()``, ``a.repeat()``, ``a.searchsorted()``) rather than the ``np.`` functions that wrap
them in a Python-level dispatch.

That is the NumPy reference. The compiled kernel (``mojifix.detect._scoring``) computes the same integers
from the same tables, handed to it as buffers (the model's typed views, :mod:`mojifix.detect.model`):
NumPy is imported only by the reference functions, so a process on the compiled path never loads it.
"""

from __future__ import annotations

import functools
import itertools
import operator
import unicodedata
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING

from mojifix import _native
from mojifix.detect import model as M
from mojifix.detect.encodings import REGISTRY, SAME_LANGUAGES_AS, SERVES

if TYPE_CHECKING:
    import numpy as np

__all__ = ["LanguageScore", "Scorer", "get_scorer", "score_text"]

#: languages that get the full bigram scoring per decoding, chosen by unigram likelihood. On long
#: texts the unigram ranks languages reliably and 2 suffice (3: +0.1 point, -30% speed); on short ones
#: it does not ("Quellcode für Überblick" reads as Spanish by letter counts), and more are cheap there.
#: Short: 8 and 5 got the same number of benchmark samples right (quick + full: 3,436 of 3,473, once
#: the pair penalties below were in), 5 is ~8% faster.
TOP_LANGUAGES = 2
TOP_LANGUAGES_SHORT = 5
#: total characters (all decodings together) up to which TOP_LANGUAGES_SHORT languages are scored.
SHORT_TEXT_CHARS = 4000


def top_languages(n_chars: int) -> int:
    """Languages :meth:`Scorer.score_many` tries per text by default, for ``n_chars`` characters in all."""
    return TOP_LANGUAGES_SHORT if n_chars <= SHORT_TEXT_CHARS else TOP_LANGUAGES


#: cost of an upper-case letter directly after a lower-case one (camelCase is rare in prose; in a
#: misread Cyrillic or Mac code page it is everywhere: Bulgarian „поле“ read by windows-1251 from
#: x-mac-cyrillic bytes is "Чполе" + "Т"). Was -2, chosen on the benchmark (0 -> 1,219 of 1,252
#: Latin/Cyrillic/DOS/Mac samples right, -2 -> 1,221, -4 -> 1,218); with mixed-language scoring, on the
#: development sets (uchardet + the catalogs' dev half, 1,743 files): -2 -> 1,735 right, 5 wrong
#: without "ambiguous"; -4 -> 1,736, 3; -6 -> 1,737, 3; the benchmark's quick corpus 98.84% at all three.
CASE_FLIP_LOGP = -6.0
#: cost of a letter directly after a letter of another alphabetic script, inside one word ("caf้",
#: "cr่me": windows-1252 é/è read as Thai tone marks by windows-874; "wordКword"). Real prose changes
#: script only at word boundaries; the bigram model alone saw a Thai mark after a Latin letter as just
#: one more foreign letter, and an English reading with four of them came within 10 nats of the true
#: French-accented windows-1252 one. Pairs involving Han, kana or Hangul are exempt: CJK text glues
#: Latin words and mixes these scripts within words ("Windows版", "食べる"). Chosen on
#: ``benchmarks/detect_accuracy.py --quick`` (see docs/detection.md).
SCRIPT_SWITCH_LOGP = -6.0
_SWITCH_EXEMPT = tuple(M.SCRIPTS.index(x) for x in ("HANGUL", "KANA", "HAN"))
#: cost of a non-ASCII punctuation mark or symbol squeezed between two letters ("Aufz‰hlung",
#: "l‘se", "v\xa0clav": a letter misread by a neighbouring Mac or DOS code page). The bigram model
#: prices the mark after a letter and the letter after the mark separately, each barely above a
#: foreign letter; prose has these marks at word edges. Apostrophes, hyphens and the Catalan middle
#: dot, which do sit inside words, are exempt, and so are spaces (NBSP after Czech "v", Russian "в")
#: and marks next to Han, kana or Hangul (CJK text has no spaces between words). Full benchmark: 0 ->
#: DOS 96.7%, -6 -> 97.5% (-10, -14: the same); see docs/detection.md.
IN_WORD_MARK_LOGP = -6.0
_IN_WORD_OK = "\u2019\u02bc\u00b7\u2010\u2011\u2027"
# (score_many adds these three as count x penalty per text: the same float as a per-character sum
# while they are whole numbers, as now; fractional ones could differ from it in the last bit)
_NO_SCRIPT = 255
# bits of Scorer.cp_flags (one gather per character instead of three)
_UPPER, _LOWER, _MARK = 1, 2, 4
_NON_BMP_STANDIN = 0x00A6  # "¦": non-BMP characters (HKSCS, GB18030 4-byte) are scored as a rare symbol


@dataclass(frozen=True, slots=True)
class LanguageScore:
    """Best language for a text, its log-likelihood (nats), and how many letters were scored."""

    language: str | None
    loglik: float
    letters: int
    known_share: float  # share of letters among the language's listed (frequent) characters


@dataclass(slots=True)
class ReferenceArrays:
    """A :class:`Scorer`'s tables as NumPy arrays, in the shapes its NumPy reference computes with
    (:meth:`Scorer._counts_reference`, :meth:`Scorer.histogram_scores`, the NumPy sum of
    :meth:`Scorer.upper_bounds`): views of the same memory, made on first use of that path."""

    lut: np.ndarray  # uint16[65536]: the model's code point -> gid table
    known: np.ndarray  # bool [L, G]: gids among each language's frequent characters
    known_flat: np.ndarray  # ... flat
    is_letter_gid: np.ndarray  # bool [G]
    switch_script: np.ndarray  # int16 [G]: script for the switch test, -1 for non-letters and CJK
    unigram_full_t: np.ndarray  # float32 [G, L]
    unigram_full: np.ndarray  # float32 [L, G]
    unigram_cost_t: np.ndarray  # uint16 [G, L]
    cp_flags: np.ndarray  # uint8 [65536]: _UPPER | _LOWER | _MARK
    is_upper: np.ndarray  # bool [65536]
    is_lower: np.ndarray
    in_word_mark: np.ndarray
    loc_flat: np.ndarray  # uint8 [L x G]: the model's local ids, flat for int32 index arithmetic
    bigram_q: np.ndarray  # uint8 [L x 256 x 256]: the bigram and refinement tables as stored, flat
    ext_q: np.ndarray  # uint8 [L x G]
    sb_gids: np.ndarray  # uint16 [pages, 256]: each single-byte page's reading of each byte, as gids
    # the (code page, language) pairs where the page can write the language, sorted by page then language
    sb_pair_lang: np.ndarray  # intp [pairs]: each pair's language
    sb_pair_start: np.ndarray  # intp [pages]: each page's first pair
    sb_pair_size: np.ndarray  # intp [pages]: each page's number of pairs
    sb_high_logp: np.ndarray  # float32 [128, pairs]: log P of each page's high-half characters, by byte
    bound_cost: np.ndarray  # int64 [256, pages]: Scorer.upper_bounds' table
    all_langs: np.ndarray  # intp [L]: every language
    primary_script: np.ndarray  # intp [L]

    @classmethod
    def of(cls, scorer: Scorer) -> ReferenceArrays:
        """``scorer``'s tables as arrays (NumPy imported here)."""
        import numpy as np

        t = {name: M.as_array(table) for name, table in scorer.tables.items()}
        flags = t["cp_flags"]
        return cls(
            lut=scorer.model.lut,
            known=t["known"],
            known_flat=t["known"].reshape(-1),
            is_letter_gid=t["is_letter_gid"],
            switch_script=t["switch_script"],
            unigram_full_t=t["unigram_full_t"],
            unigram_full=t["unigram_full_t"].T,
            unigram_cost_t=t["unigram_cost_t"],
            cp_flags=flags,
            is_upper=(flags & _UPPER) != 0,
            is_lower=(flags & _LOWER) != 0,
            in_word_mark=(flags & _MARK) != 0,
            loc_flat=scorer.model.loc.reshape(-1),
            bigram_q=scorer.model.bigram_q.reshape(-1),
            ext_q=scorer.model.ext_q.reshape(-1),
            sb_gids=t["sb_gids"],
            sb_pair_lang=t["sb_pair_lang"],
            sb_pair_start=t["sb_pair_start"],
            sb_pair_size=t["sb_pair_size"],
            sb_high_logp=t["sb_high_logp"],
            bound_cost=t["bound_cost"],
            all_langs=np.arange(len(scorer.model.languages), dtype=np.intp),
            primary_script=np.array(scorer.primary_script, np.intp),
        )


class Scorer:
    """Vectorised scoring against the loaded model.

    The model tables are immutable after construction; two small memo tables keep per-call constants
    (which languages a tuple of encodings can write, the table rows of a list of code pages), read-only
    arrays that depend only on their key, so results never depend on what was scored before.
    """

    def __init__(self, model: M.Model, tables: Mapping[str, memoryview | np.ndarray] | None = None) -> None:
        """Scorer over ``model``; ``tables`` are its derived arrays (:func:`build_tables`'s, as
        ``data/scorer.bin`` stores them), computed here when not given.

        Nothing here needs NumPy when ``tables`` are given (the stored views): the compiled kernels take
        them as buffers, and the NumPy arrays of the reference path (:attr:`reference`) are made on
        first use, so a process that only runs the compiled path never imports NumPy."""
        self.model = model
        self.lang_idx, self.enc_langs = _language_sets(model)
        #: the derived tables as given (or built): name -> typed view or array
        self.tables = build_tables(model) if tables is None else tables
        # the languages each encoding can write as bit sets (bit i = language i), for fast unions
        self.all_language_bits = (1 << len(model.languages)) - 1
        self.enc_bits = {enc: sum(1 << i for i in idx) for enc, idx in self.enc_langs.items()}
        primary = model.meta["primary_script"]
        #: the script index (into SCRIPTS) of each language's primary script
        self.primary_script = [M.SCRIPTS.index(primary[lang]) for lang in model.languages]
        self.n_gids = model.n_gids
        self.kernel = _scoring_kernel(self)
        #: the compiled cut of the sample (``mojifix.detect._scoring.segments``, twin of
        #: ``pipeline._segments_reference``), or None
        self.segments = getattr(_native.detect_kernel(), "segments", None)
        # single-byte code pages: each one's row in the code-page tables, and the EBCDIC pages' rows in
        # ``bound_cost`` after them
        singles = [info.name for info in REGISTRY if info.kind == "single"]
        self.sb_row = {name: i for i, name in enumerate(singles)}
        ebcdic = [info.name for info in REGISTRY if info.kind == "ebcdic"]
        self.bound_row = {**self.sb_row, **{name: len(singles) + i for i, name in enumerate(ebcdic)}}
        #: the compiled shortlist and bound sums over these tables (None: the NumPy reference runs)
        self.pages = _pages_kernel(self)
        # per-call constants, computed once per distinct argument and kept (bounded; see _remember):
        # allowed-language rows per tuple of encodings, code-page rows per tuple of names
        self._allowed_memo: dict[tuple[str | tuple[str, ...] | None, ...], np.ndarray] = {}
        self._rows_memo: dict[tuple[str, ...], tuple[int, ...]] = {}

    @cached_property
    def reference(self) -> ReferenceArrays:
        """The tables as the NumPy reference computes with them (made, and NumPy imported, on first use)."""
        return ReferenceArrays.of(self)

    def upper_bounds(self, names: Sequence[str | tuple[str, ...]], hist: Sequence[float]) -> np.ndarray:
        """An upper bound of :meth:`score_many`'s log-likelihood for bytes with histogram ``hist`` read in
        each single-byte (or EBCDIC) encoding of ``names``, whatever languages it picks.

        Per character it takes the cheapest transition into that character from any predecessor, in the
        best language the encoding can write *for that character* (a mixed score takes each word in
        the better of two languages); the pair penalties and mixing costs, all <= 0, are left out. Exact
        (whole quanta, like the scores) and cheap (byte histogram only), it lets the pruning pass skip
        readings that cannot come within its margin.
        """
        import numpy as np

        return np.array(self.upper_bound_list(names, hist), np.float64)

    def upper_bound_list(self, names: Sequence[str | tuple[str, ...]], hist: Sequence[float]) -> list[float]:
        """:meth:`upper_bounds` as a list of floats (what the pruning passes compare one by one)."""
        if any(isinstance(name, tuple) for name in names):  # identical decodings: the best of them
            flat = [e for name in names for e in (name if isinstance(name, tuple) else (name,))]
            each = iter(self.upper_bound_list(flat, hist))
            return [max(next(each) for _ in (n if isinstance(n, tuple) else (n,))) for n in names]
        rows = [self.bound_row[name] for name in names]
        if self.pages is not None:  # (the same integers; -c / QUANT is the same float as NumPy's)
            return [-cost / M.QUANT for cost in self.pages.bound_costs(hist, rows)]
        hist = M.as_array(hist)
        present = hist.nonzero()[0]  # (the rows of absent byte values would add zeros)
        cost = hist[present] @ self.reference.bound_cost[present]  # [pages], exact integers
        return (-cost[rows] / M.QUANT).tolist()

    def histogram_scores(self, names: list[str], hist: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
        """Best-language unigram log-likelihood of the input read in each single-byte encoding.

        Computed from the byte histogram alone: every byte value present is mapped through each code
        page's table to a global id, and ``count x log P(id)`` is summed per language, for all
        encodings and languages at once. Used to shortlist single-byte candidates before decoding.
        Returns (score per encoding, primary script index of its best language per encoding).
        """
        import numpy as np

        r, hist = self.reference, M.as_array(hist)
        rows = np.array(self.code_page_rows(names), np.intp)
        # ASCII reads the same in every single-byte candidate: its share is one vector over languages
        low = hist[:128].nonzero()[0]
        # (rows of the gid-major table: a column gather from the language-major one touched a cache
        # line per language and character; the product and its sum are the same)
        ascii_part = (r.unigram_full_t.take(r.lut[low], axis=0).T * hist[low].astype(np.float32)).sum(axis=1)
        per_pair = _weighted_rows(r.sb_high_logp, hist[128:]) + ascii_part[r.sb_pair_lang]
        best = np.maximum.reduceat(per_pair, r.sb_pair_start)  # per code page
        # its best language: the first pair (in language order) reaching the maximum
        at_best = (per_pair == best.repeat(r.sb_pair_size)).nonzero()[0]
        first = at_best[at_best.searchsorted(r.sb_pair_start)]
        return best[rows], r.primary_script[r.sb_pair_lang[first[rows]]]

    def score(self, text: str, encoding: str | None = None) -> LanguageScore:
        """Best language and log-likelihood of ``text`` (as decoded with ``encoding``, if given)."""
        return self.score_many([text], [encoding])[0]

    def score_many(
        self,
        texts: list[str],
        encodings: Sequence[str | tuple[str, ...] | None],
        *,
        languages: int | Sequence[int] | None = None,
    ) -> list[LanguageScore]:
        """Score several texts (candidate decodings) in one pass.

        Per text, the unigram step picks the :data:`TOP_LANGUAGES` best languages the encoding can write
        (or ``languages`` of them: one number, or one per text; a tuple of encodings that decode the text
        alike stands for the languages any of them can write), plus English; the bigram and refinement
        costs are then summed in each, and the best is the text's language. A text's result does not
        depend on the other texts of the call: scoring texts together or apart gives the same numbers.

        The sums are whole numbers of the model's quanta (1/QUANT nat), so they are exact and do not
        depend on the order of summation: the compiled kernel (``mojifix.detect._scoring``, one call for
        all texts and languages, the GIL released) and the NumPy reference (:meth:`_counts_reference`)
        give the same integers, and the one float formula below turns them into nats.
        """
        m = self.model
        n_langs = len(m.languages)
        texts = texts if isinstance(texts, list) else list(texts)  # (the kernel takes a list)
        live = [i for i, t in enumerate(texts) if t]
        if len(live) < len(texts):  # empty texts read as nothing: scored apart from the others
            out = [LanguageScore(None, 0.0, 0, 0.0)] * len(texts)
            if live:
                kept = [languages[i] for i in live] if isinstance(languages, Sequence) else languages
                got = self.score_many([texts[i] for i in live], [encodings[i] for i in live], languages=kept)
                for i, score in zip(live, got, strict=True):
                    out[i] = score
            return out
        # English is always among the languages tried, as one more beyond the unigram's choice when
        # that lacks it: it is the language of the markup, code, identifiers and names around text
        # everywhere, and the usual second language of a mixed reading (_mixed_costs). Without it a
        # code page serving one language plus English had an edge over a Western one whose letter
        # counts picked Italian and Spanish for an English CSV with French translations
        # (one more column for every text, even those whose choice has English already)
        if languages is None or isinstance(languages, int):
            k = min(languages or top_languages(sum(map(len, texts))), n_langs)
            ks = [min(k + 1, n_langs)] * len(texts)
        else:
            ks = [min(k + 1, n_langs) for k in languages[: len(texts)]]
        if self.kernel is not None:  # (the languages as bit sets: the kernel unpacks them)
            rows = self.kernel.score(texts, self._language_bits(encodings[: len(texts)]), ks, MIX_WORD_COST)
        else:
            rows = self._counts_reference(texts, self._allowed(list(encodings[: len(texts)])), ks)
        names = m.languages
        return [
            LanguageScore(
                names[lang] if n_letters else None,
                -cost / M.QUANT
                + (CASE_FLIP_LOGP * n_pair + SCRIPT_SWITCH_LOGP * n_switch + IN_WORD_MARK_LOGP * n_mark),
                n_letters,
                n_known / n_letters if n_letters else 0.0,
            )
            for lang, cost, n_pair, n_switch, n_mark, n_letters, n_known in rows
        ]

    def _counts_reference(
        self, texts: list[str], allowed: np.ndarray, ks: list[int]
    ) -> list[tuple[int, float, int, int, int, int, int]]:
        """What :meth:`score_many` needs per text, as the compiled kernel's ``score`` computes it:
        (best language, its cost in quanta (+inf when no language may read it), case flips, script
        switches, in-word marks, letters, letters among the best language's frequent characters).

        ``texts`` are non-empty, ``allowed`` [S, L] the languages each may be read in, ``ks`` how many
        languages each is scored in (English included). All texts are concatenated and kept apart by
        their offsets; no Python loop runs per character or per text (but one per run of texts scored
        in the same number of languages).
        """
        import numpy as np

        r = self.reference
        joined = "".join(texts)
        cps = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), np.uint32)
        bmp = np.where(cps > 0xFFFF, _NON_BMP_STANDIN, cps) if cps.max() > 0xFFFF else cps
        g = r.lut.take(bmp)
        n_seg = len(texts)
        # (lengths and offsets also as Python integers, for slicing per run below)
        lens_list = [len(t) for t in texts]  # all >= 1
        starts_list = [0, *itertools.accumulate(lens_list[:-1])]
        lens, starts = np.array(lens_list, np.intp), np.array(starts_list, np.intp)
        # 1. unigram cost per (text, language), letters only -> top languages per text
        # (no BLAS matmul anywhere: on small shapes its thread start-up costs more than the work)
        # (text, gid) pairs with their counts, sorted by text then gid, from one histogram over the
        # gids actually present (renumbered densely, in gid order)
        present = np.zeros(self.n_gids, bool)
        present[g] = True
        distinct = np.flatnonzero(present)
        n_d = len(distinct)
        rank = np.empty(self.n_gids, np.intp)
        rank[distinct] = np.arange(n_d)
        hist = np.bincount(np.arange(n_seg).repeat(lens) * n_d + rank[g], minlength=n_seg * n_d)
        pairs = np.flatnonzero(hist)
        gid_p = distinct[pairs % n_d]
        seg_start = np.searchsorted(pairs, np.arange(n_seg) * n_d)
        # letters only: punctuation and symbols are scored below, but their unigram costs differ
        # between languages by how much punctuation each training corpus had, and a dozen curly
        # quotes outweighed 300 letters (Dutch windows-1252 ranked as English, lost to windows-874)
        weight = hist[pairs] * r.is_letter_gid.take(gid_p)
        rows = r.unigram_cost_t.take(gid_p, axis=0) * weight[:, None]  # [P, L] int64
        # (float64 holds these integer sums exactly, and +inf marks a language the text may not use)
        uni = np.where(allowed, np.add.reduceat(rows, seg_start, axis=0), np.inf)  # [S, L]
        k = max(ks)
        top = uni.argsort(axis=1, kind="stable")[:, :k]  # [S, K]: cheapest first, ties by language
        if k > 1:  # English in, as the last of a text's languages, when the unigram's choice lacks it
            en = self.lang_idx["en"]
            last = np.array(ks, np.intp) - 1
            within = np.arange(k)[None, :] < last[:, None]  # each text's unigram choices
            lacks = ~((top == en) & within).any(axis=1) & (uni[:, en] < np.inf)
            if lacks.any():
                top[lacks.nonzero()[0], last[lacks]] = en
        top_ok = uni[np.arange(n_seg)[:, None], top] < np.inf
        sums = np.full((2, n_seg, k), np.inf)  # plain and mixed costs
        # 2. bigram + refinement, one [K, N] pass per run of consecutive texts scored in K languages
        a = 0
        for b in range(n_seg):
            if b + 1 < n_seg and ks[b + 1] == ks[a]:
                continue
            kk = ks[a]
            top_ok[a : b + 1, kk:] = False
            first, end = starts_list[a], starts_list[b] + lens_list[b]
            sums[:, a : b + 1, :kk] = self._bigram_costs(
                g[first:end],
                lens[a : b + 1],
                starts[a : b + 1] - first,
                top[a : b + 1, :kk],
                top_ok[a : b + 1, :kk],
            )
            a = b + 1
        plain, mixed = np.where(top_ok, sums, np.inf)
        # the text's language: the one it reads best in alone (the first of equals); its cost: the
        # better mix of two, with that language as the main one or with English (_mixed_costs)
        best_k = plain.argmin(axis=1)
        best_lang = top[np.arange(n_seg), best_k]
        main = (top == self.lang_idx["en"]) | (np.arange(k) == best_k[:, None])
        best_cost = np.where(main, mixed, np.inf).min(axis=1)
        # pair penalties (no pair spans two texts): case flips, script switches and marks inside a
        # word. Case: the model is case-folded, but an upper-case letter right after a lower-case
        # one ("моЯ", "wordКword") is what a Cyrillic/Mac code page mix-up produces
        sc = r.switch_script.take(g)
        alpha = sc >= 0  # letters of alphabetic scripts (CJK text has no spaces to mark words)
        # pair i = (character i, character i + 1); pairs and triples that span two texts are dropped
        # (each is counted at the position of its second character, so per-text counts are sums
        # over that text's positions)
        flags = r.cp_flags.take(bmp)
        upper = (flags & _UPPER).view(bool)
        n = len(g)
        # per-position counts, one row each: case flips, script switches, in-word marks, letters,
        # letters among the best language's frequent characters (summed per text in one call)
        rows_b = np.zeros((5, n), bool)
        pair, switch, mark, letter, known_letter = rows_b
        np.logical_and(upper[1:], (flags[:-1] & _LOWER).astype(bool), out=pair[1:])  # case flip
        np.not_equal(sc[1:], sc[:-1], out=switch[1:])
        switch[1:] &= alpha[1:] & alpha[:-1]
        if n > 2:  # mark: triple centred on position i
            np.logical_and(flags[1:-1] & _MARK, alpha[:-2], out=mark[1:-1])
            mark[1:-1] &= alpha[2:]
        cross = starts[1:]  # pairs whose second character starts a text
        pair[cross] = False
        switch[cross] = False
        edge = np.concatenate((cross - 1, cross))  # triples with a neighbour in the next / previous text
        mark[edge] = False
        r.is_letter_gid.take(g, out=letter)
        known_at = r.known_flat.take((best_lang * self.n_gids).repeat(lens) + g)
        np.logical_and(known_at, letter, out=known_letter)
        counts_by_text = np.add.reduceat(rows_b, starts, axis=1, dtype=np.intp).T.tolist()
        return [
            (lang, cost, *counts)
            for lang, cost, counts in zip(best_lang.tolist(), best_cost.tolist(), counts_by_text, strict=True)
        ]

    def _bigram_costs(
        self, g: np.ndarray, lens: np.ndarray, starts: np.ndarray, top: np.ndarray, ok: np.ndarray
    ) -> np.ndarray:
        """[2, S, K] bigram + refinement cost (quanta) of each text (``g`` concatenated, ``lens`` long,
        starting at ``starts``) in each of its ``top`` languages (``ok``: those it may be read in), on
        flat tables with int32 indices: plain, and *mixed* with that language as the main one
        (:func:`_mixed_costs`: words that read better in another language tried are scored in it).
        """
        import numpy as np

        r = self.reference
        lang = np.ascontiguousarray(top.T.astype(np.int32)).repeat(lens, axis=1)  # [K, N]
        idx = g + lang * np.int32(self.n_gids)
        loc = r.loc_flat.take(idx)
        pair = np.empty(loc.shape, np.int32)  # bigram index: (language, previous local id, local id)
        pair[:, 1:] = loc[:, :-1]
        pair[:, starts] = M.L_SEP
        pair <<= 8
        pair |= loc
        pair |= lang << np.int32(16)
        tot = r.bigram_q.take(pair).astype(np.int32)  # [K, N]: cost of each character, in quanta
        tot += r.ext_q.take(idx)
        costs = np.add.reduceat(tot, starts, axis=1, dtype=np.int64).T.astype(np.float64)
        return np.stack((costs, _mixed_costs(costs, tot, g, starts, ok) if len(top[0]) > 1 else costs))

    def code_page_rows(self, names: Sequence[str]) -> tuple[int, ...]:
        """Rows of the code-page tables (``sb_gids`` and the others) for single-byte ``names`` (the
        same list of code pages recurs from call to call: kept per list)."""
        key = tuple(names)
        rows = self._rows_memo.get(key)
        if rows is None:
            rows = tuple(self.sb_row[name] for name in key)
            _remember(self._rows_memo, key, rows)
        return rows

    def _allowed(self, encodings: list[str | tuple[str, ...] | None]) -> np.ndarray:
        """[S, L]: the languages each encoding can write; for several encodings (that decode a text
        identically), the languages any of them can write (read-only: the same candidate tuples
        recur from call to call, so the rows are built once per tuple)."""
        key = tuple(encodings)
        allowed = self._allowed_memo.get(key)
        if allowed is None:
            allowed = self._allowed_rows(encodings)
            allowed.flags.writeable = False
            _remember(self._allowed_memo, key, allowed)
        return allowed

    def _language_bits(self, encodings: Sequence[str | tuple[str, ...] | None]) -> list[int]:
        """The languages each encoding can write as a bit set (bit i: language i; for several encodings,
        the union), the form the compiled kernel takes them in."""
        every = self.all_language_bits
        return [
            every
            if not enc
            else self.enc_bits.get(enc, every)
            if isinstance(enc, str)
            else functools.reduce(operator.or_, (self.enc_bits.get(e, every) for e in enc))
            for enc in encodings
        ]

    def _allowed_rows(self, encodings: list[str | tuple[str, ...] | None]) -> np.ndarray:
        """:meth:`_allowed` computed (Python integers as bit sets, one NumPy call for all texts)."""
        import numpy as np

        bits = self._language_bits(encodings)
        n_bytes = (len(self.model.languages) + 7) // 8
        packed = np.frombuffer(b"".join(b.to_bytes(n_bytes, "little") for b in bits), np.uint8)
        unpacked = np.unpackbits(packed.reshape(len(bits), n_bytes), axis=1, bitorder="little")
        return np.ascontiguousarray(unpacked[:, : len(self.model.languages)].view(bool))  # (for the kernel)


#: cost (nats) of a word read in another language than the text's main one. Documents mix languages
#: by word: English identifiers and names in a German CSV, English commands around Chinese words in a
#: runbook, an English abstract in a Czech page. Scored in one language, such a document was judged
#: as if every foreign word were a misread one, and a reading that turned the German letters into
#: ASCII braces (cp273 vs cp037) read better as English. With the mix, each word takes the better of
#: the main language and the best other candidate language minus this cost (about a misread letter's
#: worth, so junk is not explained away word by word). Chosen on the development sets
#: (uchardet's files of benchmarks/detect_dev.py and the catalogs' development half, build/detect-devcat).
#: The main language is the one the text reads best in alone, or English, whichever mix is better:
#: English notes with a few Korean words read best alone as Korean (each Korean word is dear in
#: English), and mixing into Korean priced every English word at this cost, while a Chinese misreading
#: of the same bytes, best alone as English, mixed its few words into Chinese and won at 1.00. Every
#: language tried as a main one was tried too and dropped: the main can then be picked for the few
#: words that tell two readings apart (Finnish "ääni" in windows-1252 tied with cp850's Estonian-looking
#: "õõni", the rest of the page mixed in), one right answer of the catalogs' development half lost.
MIX_WORD_LOGP = -4.0


#: ... the same in the model's quanta (1/QUANT nat), as the sums are kept (exact while MIX_WORD_LOGP is
#: a multiple of 1/QUANT, as -4.0 is)
MIX_WORD_COST = round(-MIX_WORD_LOGP * M.QUANT)


def _mixed_costs(
    costs: np.ndarray, tot: np.ndarray, g: np.ndarray, starts: np.ndarray, ok: np.ndarray
) -> np.ndarray:
    """[S, K]: each text's mixed cost with each language of ``costs`` (its plain costs) as its main one.

    Words are runs of non-separators (a separator belongs to the word before it; each text starts a
    word). Per word and main language: the main language's cost, or the cheapest allowed language's
    cost plus :data:`MIX_WORD_COST`, whichever is lower; summed per text. Never above a language's
    plain cost. :meth:`Scorer._counts_reference` takes the better of two mains: the language the
    text reads best in alone, and English.
    """
    import numpy as np

    n = tot.shape[1]
    sep = g == M.G_SEP
    word_start = np.zeros(n, bool)
    np.greater(sep[:-1], sep[1:], out=word_start[1:])  # a separator, then a non-separator
    word_start[starts] = True
    positions = word_start.nonzero()[0]
    ws = np.add.reduceat(tot, positions, axis=1, dtype=np.int64)  # [K, W]
    first_word = positions.searchsorted(starts)
    text_of_word = np.zeros(len(positions), np.intp)
    text_of_word[first_word[1:]] = 1
    text_of_word = text_of_word.cumsum()
    other = np.where(ok.T[:, text_of_word], ws, np.inf).min(axis=0) + MIX_WORD_COST  # [W]
    return np.minimum(costs, np.add.reduceat(np.minimum(ws, other), first_word, axis=1).T)


#: entries kept per memo table of the :class:`Scorer`: distinct candidate tuples seen in practice
#: number a few hundred (one per combination of surviving code pages and identical-decoding groups);
#: the bound only keeps a long-running process that sees unusual inputs from growing without limit.
MEMO_ENTRIES = 4096


def _language_sets(model: M.Model) -> tuple[dict[str, int], dict[str, tuple[int, ...]]]:
    """(language -> index, encoding -> sorted indices of the languages it reads) for ``model``."""
    lang_idx = {lang: i for i, lang in enumerate(model.languages)}
    enc_langs = {
        enc: tuple(sorted(lang_idx[x] for x in langs))
        for enc, langs in model.meta["encoding_languages"].items()
    }
    for enc, like in SAME_LANGUAGES_AS.items():
        if enc not in enc_langs and like in enc_langs:
            enc_langs[enc] = enc_langs[like]
    # a national code page reads only the languages it serves, and English (encodings.SERVES)
    for enc, served in SERVES.items():
        own = [lang_idx[x] for x in (*served, "en") if x in lang_idx]
        both = tuple(sorted(set(enc_langs.get(enc, ())) & set(own)))
        enc_langs[enc] = both or tuple(sorted(own))
    return lang_idx, enc_langs


def build_tables(model: M.Model) -> dict[str, np.ndarray]:
    """The scorer's arrays derived from ``model``, the code pages' tables and Unicode's character
    properties: the reference computation of what ``data/scorer.bin`` stores.

    Why stored: computing them (65,536 character properties, the gathers over every language and
    character) took a new process ~70 ms before its first detection; ``tools/gen_detect_tables.py``
    writes them once, and ``tests/detect/test_scorer_tables.py`` fails when the file is stale.
    """
    import numpy as np

    enc_langs = _language_sets(model)[1]
    all_langs = np.arange(len(model.languages), dtype=np.intp)
    n_scripts = len(M.SCRIPTS)
    t: dict[str, np.ndarray] = {}
    # unseen-letter level per (language, script): the value of the script's class gid
    class_gids = np.arange(M.G_SCRIPT0, M.G_SCRIPT0 + n_scripts)
    ext = model.ext
    unseen = ext[:, class_gids]  # [L, S]
    gid_script = model.gid_script.astype(np.intp)
    is_letter = gid_script != _NO_SCRIPT
    script_for_gid = np.where(is_letter, gid_script, 0)
    known = (model.loc >= M.N_LOCAL_CLASSES) | (
        (model.loc == M.L_NATIVE) & is_letter[None, :] & (ext > unseen[:, script_for_gid] + 1e-3)
    )
    known[:, : M.N_CLASSES] = False
    t["known"] = known
    t["is_letter_gid"] = is_letter
    # script per gid for the switch test: -1 for non-letters and for the exempt CJK scripts
    switch_script = np.where(is_letter, gid_script, -1).astype(np.int16)
    switch_script[np.isin(gid_script, _SWITCH_EXEMPT)] = -1
    # modifier letters and combining diacritics (U+02B0-U+036F) attach to letters of any script
    # (Ukrainian ʼ, a stress accent on Cyrillic)
    # (individual gids only: a rare one may share its script's class gid with real letters)
    mods = model.lut[0x02B0:0x0370]
    switch_script[mods[mods >= M.N_CLASSES]] = -1
    t["switch_script"] = switch_script
    is_ascii_gid = np.zeros(len(gid_script), bool)
    is_ascii_gid[model.lut[:128]] = True
    t["is_ascii_gid"] = is_ascii_gid
    # unigram log-probability of every gid in every language (local-id unigram + refinement)
    unigram_full = (np.take_along_axis(model.uni, model.loc.astype(np.intp), axis=1) + ext).astype(np.float32)
    t["unigram_full_t"] = np.ascontiguousarray(unigram_full.T)  # [G, L]
    # ... and its cost in the model's quanta (-log P x QUANT, a whole number: the sum of two stored
    # bytes, the unigram table as stored), as score_many sums it
    uni_q = M.as_array(model.tables["uni"]).astype(np.uint16)
    t["unigram_cost_t"] = np.ascontiguousarray(
        (np.take_along_axis(uni_q, model.loc.astype(np.intp), axis=1) + model.ext_q).T
    )  # uint16 [G, L]
    chars = [chr(c) for c in range(0x10000)]
    # non-ASCII punctuation and symbols by code point (for IN_WORD_MARK_LOGP)
    # (by Unicode category: frequent marks such as curly quotes have gids of their own)
    in_word_mark = np.array([unicodedata.category(c)[0] in "PS" for c in chars], bool)
    in_word_mark[:128] = False
    in_word_mark[[ord(c) for c in _IN_WORD_OK]] = False
    is_upper = np.array([c.isupper() for c in chars], bool)
    is_lower = np.array([c.islower() for c in chars], bool)
    t["cp_flags"] = (
        is_upper * np.uint8(_UPPER) | is_lower * np.uint8(_LOWER) | in_word_mark * np.uint8(_MARK)
    ).astype(np.uint8)
    # single-byte code pages as gid tables, and which languages each can write
    singles = [info for info in REGISTRY if info.kind == "single"]
    cps = np.array([[ord(ch) for ch in info.table()] for info in singles], np.uint32)
    t["sb_code_points"] = cps
    sb_gids = t["sb_gids"] = model.lut[np.minimum(cps, 0xFFFF)]
    n_langs = len(model.languages)
    sb_allowed = np.zeros((len(singles), n_langs), bool)
    for row, info in enumerate(singles):
        sb_allowed[row, enc_langs.get(info.name, all_langs)] = True
    t["sb_allowed"] = sb_allowed
    # the (code page, language) pairs where the code page can write the language, sorted by code
    # page then language
    pair_enc, pair_lang = np.nonzero(sb_allowed)
    t["sb_pair_lang"] = pair_lang
    t["sb_pair_start"] = pair_start = np.searchsorted(pair_enc, np.arange(len(singles)))
    t["sb_pair_size"] = np.diff(pair_start, append=len(pair_enc))
    # log P of each code page's high-half characters in each of its languages, by byte: [128, pairs]
    t["sb_high_logp"] = _pairs_by_byte(t["unigram_full_t"][sb_gids[:, 128:]], pair_enc, pair_lang)
    # lower bound of the cost score_many gives each character, per language: the cheapest transition
    # into it from any predecessor (the first character's predecessor, a separator, is one of them)
    # plus its refinement, in quanta
    best_in = model.bigram_q.min(axis=1).astype(np.int32)  # [L, 256 local ids]
    bound = (np.take_along_axis(best_in, model.loc.astype(np.intp), axis=1) + model.ext_q).T  # [G, L]
    # ... and per byte value, read in each single-byte then each EBCDIC page, the cheapest of the
    # languages the page can write (a mixed score, _mixed_costs, may take each word in another
    # language): [256, pages], the table upper_bounds weighs with the byte histogram
    ebcdic = [info for info in REGISTRY if info.kind == "ebcdic"]
    ebcdic_cps = np.array([[ord(ch) for ch in info.table()] for info in ebcdic], np.uint32)
    page_gids = np.concatenate((sb_gids, model.lut[np.minimum(ebcdic_cps, 0xFFFF)]))
    page_allowed = np.zeros((len(page_gids), n_langs), bool)
    for row, info in enumerate((*singles, *ebcdic)):
        page_allowed[row, enc_langs.get(info.name, all_langs)] = True
    unreachable = np.iinfo(np.int32).max
    cheapest = np.where(page_allowed[:, None, :], bound[page_gids], unreachable).min(axis=2)
    t["bound_cost"] = np.ascontiguousarray(cheapest.T.astype(np.int64))
    return t


def _remember(memo: dict, key: object, value: object) -> None:
    """Store ``value`` under ``key``, emptying ``memo`` first when it holds :data:`MEMO_ENTRIES`."""
    if len(memo) >= MEMO_ENTRIES:
        memo.clear()
    memo[key] = value


#: byte values present up to which :func:`_weighted_rows` gathers their rows; above it, one pass over
#: the whole table is cheaper (a speed choice only: both give the same sums)
_FEW_BYTES = 48


def _pairs_by_byte(table: np.ndarray, pair_enc: np.ndarray, pair_lang: np.ndarray) -> np.ndarray:
    """[E, B, L] per-encoding tables -> [B, pairs], contiguous: one row per byte value, one column
    per (encoding, language) pair."""
    import numpy as np

    return np.ascontiguousarray(table[pair_enc, :, pair_lang].T)


def _weighted_rows(table: np.ndarray, hist: np.ndarray) -> np.ndarray:
    """``sum over b of hist[b] * table[b]`` for a [B, K] float32 table, summed in byte order.

    Only the rows of byte values present when they are few; otherwise the whole table, where absent
    values add exact zeros (the same sums). No BLAS: its thread start-up costs more than this work.
    """
    import numpy as np

    present = hist.nonzero()[0]
    if len(present) <= _FEW_BYTES:
        return np.einsum("u,uk->k", hist[present].astype(np.float32), table[present])
    return np.einsum("u,uk->k", hist.astype(np.float32), table)


def _scoring_kernel(scorer: Scorer) -> object | None:
    """The compiled kernel over ``scorer``'s tables (``mojifix.detect._scoring.Tables``), or None when the
    extension is not built or the pure-Python reference is forced (:mod:`mojifix._native`).

    It takes the model's arrays and the constants as they are now (their shapes come from the model, so
    a retrained model needs no change in C) and computes what :meth:`Scorer._counts_reference` does.
    """
    module = _native.detect_kernel()
    return None if module is None else module.Tables(**kernel_arguments(scorer))


def _pages_kernel(scorer: Scorer) -> object | None:
    """The compiled shortlist and bound sums over ``scorer``'s code-page tables
    (``mojifix.detect._scoring.CodePages``), or None (as :func:`_scoring_kernel`).

    Twins: ``pipeline._shortlisted_reference`` (with :meth:`Scorer.histogram_scores`) and the NumPy sum
    in :meth:`Scorer.upper_bounds`.
    """
    module = _native.detect_kernel()
    return None if module is None else module.CodePages(**pages_arguments(scorer))


def pages_arguments(scorer: Scorer) -> dict[str, object]:
    """The keyword arguments of the kernel's ``CodePages``: ``scorer``'s code-page tables, as buffers
    (the stored tables themselves, and two small ones made here without NumPy)."""
    t, lut = scorer.tables, scorer.model.tables["lut"]
    # the unigram rows of the ASCII characters' gids: [128, languages]
    rows = memoryview(t["unigram_full_t"])
    width, full = rows.strides[0], rows.cast("B")
    ascii_logp = b"".join(full[g * width : (g + 1) * width] for g in lut[:128])
    return dict(
        high_logp=t["sb_high_logp"],
        ascii_logp=memoryview(ascii_logp).cast("f", (128, len(scorer.model.languages))),
        pair_lang=array("i", memoryview(t["sb_pair_lang"]).tolist()),
        pair_start=array("i", memoryview(t["sb_pair_start"]).tolist()),
        primary_script=array("i", scorer.primary_script),
        gids=t["sb_gids"],
        bound_cost=t["bound_cost"],
        code_points=t["sb_code_points"],
    )


def kernel_arguments(scorer: Scorer) -> dict[str, object]:
    """The keyword arguments of the kernel's ``Tables``: ``scorer``'s tables, as buffers, and constants."""
    t, model = scorer.tables, scorer.model.tables
    return dict(
        lut=model["lut"],
        loc=model["loc"],
        bigram_q=model["bigram"],
        ext_q=model["ext"],
        unigram_cost_t=t["unigram_cost_t"],
        known=t["known"],
        is_letter=t["is_letter_gid"],
        switch_script=t["switch_script"],
        cp_flags=t["cp_flags"],
        english=scorer.lang_idx["en"],
        separator_gid=M.G_SEP,
        separator_local=M.L_SEP,
        non_bmp_standin=_NON_BMP_STANDIN,
        upper=_UPPER,
        lower=_LOWER,
        mark=_MARK,
    )


@cache
def get_scorer() -> Scorer:
    """The scorer over the packaged model (built once, lazily), with its stored tables when they are
    the model's (:func:`mojifix.detect.model.load_tables`)."""
    model = M.load_model()
    return Scorer(model, M.load_tables(model))


def score_text(text: str) -> tuple[str | None, float]:
    """(language, score) of ``text``: higher score = more like real text in some language.

    The score is the model's log-likelihood per character (nats, <= 0), so texts of different
    lengths are comparable; use it to compare candidate decodings of the *same* bytes (repair,
    conversion). ``language`` is None for text without letters.
    """
    result = get_scorer().score(text)
    n = max(len(text), 1)
    return result.language, result.loglik / n
