"""The compiled code-page kernel (``mojifix.detect._scoring.CodePages``) gives exactly what its references
give: the shortlist of single-byte code pages (``pipeline._shortlisted_reference``, float32 unigram sums
compared as the same pages kept), the upper bounds' sums (``Scorer.upper_bounds`` on NumPy) and the
readings of the sample (``codecs.charmap_decode``), on byte histograms and bytes of real files, of
generated text in every single-byte code page, and of random and scaled counts; and ``Tables.score``
takes languages as bit sets as it takes the reference's rows. Whole detections with and without the
kernels are compared in ``test_detect_kernel.py``.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from mojifix.detect import pipeline, scoring
from mojifix.detect.encodings import REGISTRY
from mojifix.detect.scoring import MIX_WORD_COST, Scorer, get_scorer
from mojifix.textcodec import encode_as

UCHARDET = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "detect-dev" / "uchardet"
SINGLES = [info.name for info in REGISTRY if info.kind == "single"]
BOUNDED = [info.name for info in REGISTRY if info.kind in ("single", "ebcdic")]
TEXT = "Größere Änderungen; Příliš žluťoučký kůň; Вчера вечером; Το πρωί; flatskrár Þórður; Şimdi ığdır"


@pytest.fixture(scope="module")
def scorer(detect_kernel: ModuleType) -> Scorer:
    scorer = get_scorer()
    assert scorer.pages is not None, "the kernel is built, so the scorer must use its code-page tables"
    return scorer


def histograms() -> Iterator[np.ndarray]:
    """Byte histograms: uchardet's files, generated text in every single-byte page, random counts."""
    for path in sorted(UCHARDET.rglob("*.*"))[::3]:
        yield np.bincount(np.frombuffer(path.read_bytes()[:4096], np.uint8), minlength=256)
    for name in SINGLES:
        data = b"".join(_encodable(ch, name) for ch in TEXT)
        yield np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    rng = np.random.default_rng(13)
    for n_values in (0, 1, 2, 5, 20, 47, 48, 49, 100, 256):
        hist = np.zeros(256, np.int64)
        hist[rng.choice(256, n_values, replace=False)] = rng.integers(1, 5000, n_values)
        yield hist
        yield np.bincount(rng.integers(0, 128, 40), minlength=256)  # ASCII only


def _encodable(ch: str, name: str) -> bytes:
    try:
        return encode_as(ch, name)
    except UnicodeError:
        return b""


def kept(scorer: Scorer, singles: list[str], hist: np.ndarray) -> tuple[set[str], set[str]]:
    flags = scorer.pages.shortlist(
        hist, scorer.code_page_rows(singles), pipeline.SHORTLIST_MARGIN, pipeline.SHORTLIST_MIN
    )
    compiled = {name for name, k in zip(singles, flags, strict=True) if k}
    return compiled, pipeline._shortlisted_reference(scorer, singles, hist)


def test_shortlist_equals_the_reference(scorer: Scorer) -> None:
    rng = np.random.default_rng(5)
    n = 0
    for hist in histograms():
        for singles in (SINGLES, SINGLES[::-1], list(rng.permutation(SINGLES)[:12])):
            compiled, python = kept(scorer, singles, hist)
            assert compiled == python, (hist.nonzero()[0].tolist(), singles)
            # the ASCII-scaled form _shortlist passes (float64 counts)
            scaled = hist.astype(np.float64)
            scaled[:128] *= 0.37
            compiled, python = kept(scorer, singles, scaled)
            assert compiled == python
            n += 1
    assert n > 300


def test_shortlist_keeps_pages_within_the_margin_only(scorer: Scorer) -> None:
    """The comparison can fail: a narrower margin keeps fewer pages, as the reference would with it."""
    data = "Größere Änderungen am Straßenplan wurden für übermorgen angekündigt".encode("cp1252")
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    rows = scorer.code_page_rows(SINGLES)
    wide = scorer.pages.shortlist(hist, rows, 15.0, 5)
    narrow = scorer.pages.shortlist(hist, rows, 0.0, 1)
    assert sum(narrow) < sum(wide)
    assert len(wide) == len(SINGLES) and set(wide) <= {0, 1}


def test_bounds_equal_the_reference(scorer: Scorer) -> None:
    rng = np.random.default_rng(7)
    names: list[str | tuple[str, ...]] = [*BOUNDED, ("cp437", "cp861"), ("windows-1252", "cp037")]
    for hist in histograms():
        order = [names[i] for i in rng.permutation(len(names))]
        compiled = scorer.upper_bounds(order, hist)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(scorer, "pages", None)
            python = scorer.upper_bounds(order, hist)
        assert compiled.tolist() == python.tolist()


def test_tables_that_do_not_fit_are_refused(detect_kernel: ModuleType, scorer: Scorer) -> None:
    arguments = scoring.pages_arguments(scorer)
    with pytest.raises(ValueError, match="do not fit"):
        detect_kernel.CodePages(**{**arguments, "pair_start": arguments["pair_start"][:-1]})
    with pytest.raises(ValueError, match="dimensions"):
        detect_kernel.CodePages(**{**arguments, "gids": np.asarray(arguments["gids"]).astype(np.int32)})
    rows = scorer.code_page_rows(SINGLES)
    with pytest.raises(ValueError, match="histogram"):
        scorer.pages.shortlist(np.zeros(255, np.int64), rows, 15.0, 5)
    with pytest.raises(ValueError, match="rows"):
        scorer.pages.shortlist(np.zeros(256, np.int64), np.array([len(SINGLES)]), 15.0, 5)
    with pytest.raises(ValueError, match="rows"):
        scorer.pages.bound_costs(np.zeros(256, np.int64), [-1])


def test_language_bit_sets_equal_the_rows(scorer: Scorer) -> None:
    """``Tables.score`` takes the languages as bit sets (what ``score_many`` passes) or as the reference's
    rows: the same results, and bit sets that do not fit are refused."""
    texts = [TEXT, "flatskrár Lína", "Вчера вечером the concert", "昨日は駅前の図書館で", "x"]
    kinds = [None, "windows-1252", ("cp437", "cp861"), "Shift_JIS", "windows-1251", "EUC-KR", "ISO-8859-7"]
    rng = np.random.default_rng(3)
    for _ in range(40):
        encodings = [kinds[i] for i in rng.integers(0, len(kinds), len(texts))]
        ks = [int(k) for k in rng.integers(1, 6, len(texts))]
        bits = scorer._language_bits(encodings)
        rows = scorer._allowed(encodings)
        assert scorer.kernel.score(texts, bits, ks, MIX_WORD_COST) == scorer.kernel.score(
            texts, rows, ks, MIX_WORD_COST
        )
    for bad in ([-1] * len(texts), [1.0] * len(texts), [1] * (len(texts) - 1)):
        with pytest.raises(ValueError, match="languages"):
            scorer.kernel.score(texts, bad, [2] * len(texts), MIX_WORD_COST)


def test_decode_equals_charmap_decode(scorer: Scorer) -> None:
    """``CodePages.decode`` reads bytes as ``codecs.charmap_decode(data, "replace", table)`` does, in every
    single-byte page: text, every byte value (undefined ones read as U+FFFD), empty input."""
    rng = np.random.default_rng(17)
    infos = [info for info in REGISTRY if info.kind == "single"]
    rows = scorer.code_page_rows([info.name for info in infos])
    inputs = [b"", bytes(range(256)), TEXT.encode("utf-8"), b"plain ASCII", bytes(rng.integers(0, 256, 3000))]
    inputs += [_encodable_text(info.name) for info in infos[::5]]
    for data in inputs:
        got = scorer.pages.decode(data, rows)
        assert got == [codecs.charmap_decode(data, "replace", info.table())[0] for info in infos]
    with pytest.raises(ValueError, match="rows"):
        scorer.pages.decode(b"abc", [len(infos)])


def _encodable_text(name: str) -> bytes:
    return b"".join(_encodable(ch, name) for ch in TEXT)


def test_byte_counts_equal_bincount(detect_kernel: ModuleType) -> None:
    """``add_byte_counts`` adds what ``np.bincount`` counts, on short and long input (the GIL released
    from 64 KB), bytes and bytearray; a histogram of another shape or type is refused."""
    rng = np.random.default_rng(19)
    for data in (b"", b"\x00", bytes(range(256)) * 3, bytes(rng.integers(0, 256, 70_000)), b"a" * 100_003):
        for form in (bytes, bytearray):
            counts = np.full(256, 5, np.int64)
            detect_kernel.add_byte_counts(form(data), counts)
            assert (counts - 5).tolist() == np.bincount(np.frombuffer(data, np.uint8), minlength=256).tolist()
    assert (
        pipeline._byte_counts(b"abca").tolist()
        == np.bincount(np.frombuffer(b"abca", np.uint8), minlength=256).tolist()
    )
    for bad in (np.zeros(255, np.int64), np.zeros(256, np.int32), np.zeros(256, np.float64)):
        with pytest.raises(ValueError, match="counts"):
            detect_kernel.add_byte_counts(b"abc", bad)
