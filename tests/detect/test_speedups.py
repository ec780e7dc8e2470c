"""The detector's speed-only machinery gives the answers of the plain computation it shortcuts.

Each shortcut is checked against the straightforward path it replaces: the pruning pass's upper bound
(skipped readings are ones full scoring would have dropped), scoring texts together or apart, the two
branches of the histogram sums, the cap on the scored sample (no character split for any candidate),
the vectorised pair penalties (against a count character by character), the validators made only when
a stage reads them, and the control-byte count read from the histogram's list.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.detect import detect, pipeline, scoring
from mojifix.detect.encodings import REGISTRY
from mojifix.detect.scoring import _weighted_rows, get_scorer
from mojifix.textcodec import decode_as

SINGLE_BYTE = [info.name for info in REGISTRY if info.kind in ("single", "ebcdic")]

LONG_INPUTS = [
    ("这个目录里的文件来自不同的年代，有的用国标码保存，有的用统一码保存。\n" * 30, "gbk"),
    ("這個目錄裡的檔案來自不同的年代，有的用大五碼儲存。\n" * 30, "big5"),
    ("Вчера вечером в парке играл оркестр, и жители собрались послушать музыку.\n" * 12, "cp1251"),
    ("Größere Änderungen am Straßenplan wurden für übermorgen angekündigt.\n" * 12, "cp1252"),
    ("Το πρωί περπατήσαμε στην παραλία και μετά πήγαμε για καφέ.\n" * 12, "iso8859_7"),
    ("Příliš žluťoučký kůň úpěl ďábelské ódy, řekl Václav.\n" * 12, "cp852"),
]
SHORT_INPUTS = [
    (
        "这个目录里的文件来自不同的年代，有的用国标码保存，有的用统一码保存。会议记录放在第二个文件夹里。",
        "gbk",
    ),
    ("昨日は駅前の図書館で新しい本を借りて、公園のベンチでゆっくり読みました。", "cp932"),
    ("오늘 아침 시장에서 신선한 과일과 채소를 사서 집으로 돌아왔습니다.", "cp949"),
]


def _unbounded(monkeypatch):
    """The bound test switched off: every reading is scored."""
    monkeypatch.setattr(pipeline, "_BOUND_SLACK", float("inf"))


@pytest.mark.parametrize(("text", "codec"), LONG_INPUTS)
def test_pruning_bound_changes_nothing(monkeypatch, text, codec):
    data = text.encode(codec)
    fast = detect(data)
    _unbounded(monkeypatch)
    assert detect(data) == fast


@pytest.mark.parametrize(("text", "codec"), SHORT_INPUTS)
def test_short_input_bound_only_leaves_out_hopeless_readings(monkeypatch, text, codec):
    data = text.encode(codec)
    fast = detect(data)
    _unbounded(monkeypatch)
    assert detect(data) == fast  # which readings the bound let through first does not matter
    monkeypatch.setattr(pipeline, "BOUNDED_MIN_CHARS", 10**9)  # every reading scored and reported
    full = detect(data)
    assert (fast.encoding, fast.ambiguous) == (full.encoding, full.ambiguous)
    everyone = {c.encoding: c for c in full.candidates}
    # every candidate reported is reported identically; those left out were hopeless
    for cand in fast.candidates:
        assert everyone[cand.encoding].evidence == cand.evidence
    left_out = set(everyone) - {c.encoding for c in fast.candidates}
    assert left_out
    assert all(everyone[name].confidence < 1e-6 for name in left_out)


@settings(max_examples=40, deadline=None)
@given(
    data=st.binary(min_size=1, max_size=300),
    name=st.sampled_from(SINGLE_BYTE),
    languages=st.integers(min_value=1, max_value=6),
)
def test_upper_bound_is_an_upper_bound(data, name, languages):
    scorer = get_scorer()
    info = next(i for i in REGISTRY if i.name == name)
    text = info.decode(data, "replace")
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    bound = scorer.upper_bounds([name], hist)[0]
    score = scorer.score_many([text], [name], languages=languages)[0].loglik
    assert score <= bound + pipeline._BOUND_SLACK


def test_upper_bound_of_identical_decodings_is_the_best_member():
    scorer = get_scorer()
    hist = np.bincount(np.frombuffer("flatskrár Lína".encode("cp861"), np.uint8), minlength=256)
    each = scorer.upper_bounds(["cp437", "cp861"], hist)
    assert scorer.upper_bounds([("cp437", "cp861")], hist)[0] == max(each)


def test_scoring_together_or_apart_gives_the_same_numbers():
    scorer = get_scorer()
    texts = ["Größere Änderungen", "Вчера вечером", "昨日は駅前の図書館で", "x", "Příliš žluťoučký kůň"]
    encodings = ["windows-1252", "windows-1251", "Shift_JIS", None, ("windows-1250", "ISO-8859-2")]
    languages = [2, 5, 3, 2, 5]
    together = scorer.score_many(texts, encodings, languages=languages)
    apart = [
        scorer.score_many([t], [e], languages=k)[0]
        for t, e, k in zip(texts, encodings, languages, strict=True)
    ]
    assert together == apart


def test_identical_decodings_are_judged_in_any_members_languages():
    # cp437 and cp861 decode this alike; only cp861 writes Icelandic (the group was read as Latvian
    # and lost to cp775's "flatskrĀr")
    text = "flatskrár\nPunktur\nLína\nMarghyrningu"
    result = detect(text.encode("cp861"))
    assert result.encoding in ("cp437", "cp861")
    assert result.best().language == "is"


def test_dos_slovak_reads_as_a_dos_page():
    text = "Súbory Texinfo sú v  .\nSpustite v tomto adresári 'make' na i"
    data = text.encode("cp852")
    # the DOS pages that read this alike (cp437, cp852...) are judged in Slovak too; windows-1250's
    # "SŁbory ... adres\xa0ri" used to win
    assert decode_as(data, detect(data).encoding) == text


@pytest.mark.parametrize("present", [3, 40, 128])
def test_weighted_rows_branches_agree(present):
    rng = np.random.default_rng(present)
    table = rng.normal(size=(128, 50)).astype(np.float32)
    hist = np.zeros(128, np.int64)
    hist[rng.choice(128, present, replace=False)] = rng.integers(1, 500, present)
    dense = np.einsum("u,uk->k", hist.astype(np.float32), table)
    assert np.array_equal(_weighted_rows(table, hist), dense)


def test_histogram_scores_match_a_dense_computation():
    scorer = get_scorer()
    data = "Příliš žluťoučký kůň úpěl ďábelské ódy. Вчера вечером ".encode("cp1250", "replace")
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    names = [info.name for info in REGISTRY if info.kind == "single"]
    scores, scripts = scorer.histogram_scores(names, hist)
    for name, score, script in zip(names, scores.tolist(), scripts.tolist(), strict=True):
        info = next(i for i in REGISTRY if i.name == name)
        gids = scorer.model.lut[[ord(c) for c in info.table()]]
        per_lang = (scorer.reference.unigram_full[:, gids] * hist.astype(np.float32)).sum(axis=1)
        allowed = np.array(scorer.enc_langs.get(name, scorer.reference.all_langs))
        best = allowed[int(np.argmax(per_lang[allowed]))]
        assert score == pytest.approx(float(per_lang[best]), abs=1e-2)
        assert script == scorer.primary_script[best]


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("昨日は駅前の図書館で新しい本を借りて、公園のベンチでゆっくり読みました。\n" * 400, "cp932"),
        ("这个目录里的文件来自不同的年代，有的用国标码保存，有的用统一码保存。\n" * 400, "gbk"),
        ("Το πρωί περπατήσαμε στην παραλία και μετά πήγαμε για καφέ.\n" * 400, "iso8859_7"),
    ],
)
def test_scored_sample_of_dense_text_is_capped_and_splits_no_character(text, codec):
    data = text.encode(codec)
    det = pipeline.Detector()
    det.feed(data)
    state = det._s
    det.close()
    sample, at_end = pipeline._segments(state)
    extra = (pipeline.SCORE_BYTES // (2 * pipeline.SEGMENT_CONTEXT + 1)) * pipeline.LONG_PIECE
    assert len(sample) <= pipeline.SCORE_BYTES + pipeline.LONG_PIECE + extra
    assert len(sample) < len(data) // 10
    assert not at_end
    # every piece starts and ends on a character boundary: the strict decoder accepts the whole sample
    sample.decode(codec)


def test_shift_jis_cut_keeps_ascii_range_trail_bytes():
    # "ソ" is 83 5C in Shift_JIS: a cut that fell between the two bytes would leave a lone lead byte
    text = ("ソフトウェアの表示" * 300 + "\n") * 3
    data = text.encode("cp932")
    det = pipeline.Detector()
    det.feed(data)
    state = det._s
    det.close()
    sample, _ = pipeline._segments(state)
    sample.decode("cp932")


def test_top_languages_is_what_score_many_uses_by_default():
    scorer = get_scorer()
    text = "Größere Änderungen am Straßenplan " * 3
    k = scoring.top_languages(len(text))
    assert scorer.score_many([text], ["windows-1252"]) == scorer.score_many(
        [text], ["windows-1252"], languages=k
    )


def test_extra_windows_never_start_inside_a_multibyte_character() -> None:
    """Dense GBK text (no byte below 0x30 for hundreds of bytes) with a byte value that first occurs
    late, as the trail byte of a character at an odd offset: the window added for that value must not
    start on a trail byte (a misaligned window reads as other, wrong characters in the true encoding),
    so every piece of the scored sample decodes, as GBK, to a piece of the original text."""
    from mojifix.detect.pipeline import Detector, _segments

    common = (
        "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就"
        "分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经"
    )
    # a first paragraph past the 2 KB scoring budget (cut at its line feed), then a long dense one
    prefix = (common * 40)[:1100] + "\n" + (common * 40)[:1500]
    seen = set(prefix.encode("gbk"))
    rare = next(
        ch
        for ch in (chr(c) for c in range(0x4E00, 0x9FA6))
        if len(b := ch.encode("gbk", "ignore")) == 2 and b[0] in seen and b[1] >= 0x80 and b[1] not in seen
    )
    text = prefix + rare + common * 3
    data = text.encode("gbk")
    det = Detector()
    det.feed(data).close()
    out, _ = _segments(det._s)
    for piece in out.split(b"\n"):
        assert piece.decode("gbk") in text


# ---- per-call cost of short input (memos: the same results as the general path) -----------------------
def test_allowed_memo_gives_the_computed_rows_and_stays_bounded(monkeypatch):
    scorer = get_scorer()
    keys = [("windows-1252", ("cp437", "cp861"), None), ("Shift_JIS",), (("KOI8-R", "KOI8-U"), "GBK")]
    for key in keys:
        first = scorer._allowed(list(key))
        assert np.array_equal(first, scorer._allowed_rows(list(key)))
        assert scorer._allowed(list(key)) is first  # memoised
        assert not first.flags.writeable  # callers cannot change what later calls get
    assert not scorer._allowed(["Shift_JIS"])[0].all()  # Shift_JIS does not write every language
    monkeypatch.setattr(scoring, "MEMO_ENTRIES", 2)
    monkeypatch.setattr(scorer, "_allowed_memo", {})  # (a fresh memo: other tests filled the shared one)
    for name in ("windows-1250", "windows-1253", "windows-1254"):
        assert np.array_equal(scorer._allowed([name]), scorer._allowed_rows([name]))
        assert 1 <= len(scorer._allowed_memo) <= 2


def test_code_page_rows_are_the_registry_rows():
    scorer = get_scorer()
    names = [info.name for info in REGISTRY if info.kind == "single"][::3]
    rows = scorer.code_page_rows(names)
    assert list(rows) == [scorer.sb_row[n] for n in names]
    assert scorer.code_page_rows(list(names)) is rows


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=255), min_size=1, max_size=40))
def test_single_byte_invalid_bits_match_single_byte_validity(values):
    from mojifix.detect import validity

    hist = np.bincount(np.array(values, np.intp), minlength=256)
    valid = validity.single_byte_validity(hist)
    bad = validity.single_byte_invalid(hist.tolist())
    assert {n: not (bad >> validity.single_byte_row(n) & 1) for n in valid} == valid


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=200))
def test_ebcdic_test_on_integers_matches_the_array_formula(data):
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    n = len(data)
    ranges = ((0x81, 0x89), (0x91, 0x99), (0xA2, 0xA9), (0xC1, 0xC9), (0xD1, 0xD9), (0xE2, 0xE9))
    letters = [b for lo, hi in ranges for b in range(lo, hi + 1)]
    breaks = hist[[0x40, 0x15, 0x25, 0x0D]].sum() > 0 or n <= pipeline.EBCDIC_UNBROKEN_MAX
    expected = breaks and bool(
        hist[0x40] >= pipeline.EBCDIC_SPACE_SHARE * n
        or hist[letters].sum() >= pipeline.EBCDIC_LETTER_SHARE * n
        or hist[0x61:0x7B].sum() + hist[0x20] < pipeline.ASCII_LIKE_SHARE * n
    )
    assert pipeline._ebcdic_like(hist.tolist(), n) == expected


@pytest.mark.parametrize("tld", [None, "", "ru", ".RU.", "co.kr", "jp", "example", "cz"])
def test_customary_encodings_are_those_the_tld_prior_boosts(tld):
    from mojifix.detect import priors

    boosted = priors.customary(tld)
    for info in REGISTRY:
        assert priors.tld_prior(info.name, tld) == (priors.TLD_BOOST if info.name in boosted else 0.0)


def test_shortlist_of_ascii_only_pieces_keeps_every_code_page():
    # no byte >= 0x80 in the scored bytes: every code page reads them alike (zero-width readings)
    scorer = get_scorer()
    survivors = [(info, "") for info in REGISTRY if info.kind in ("single", "multi")]
    hist = np.bincount(np.frombuffer(b"plain ASCII text, nothing else", np.uint8), minlength=256)
    kept = pipeline._shortlist(scorer, survivors, hist)
    assert {i.name for i, _ in kept} >= pipeline.ALWAYS_SCORED
    assert all(i.kind == "single" or (i, "") in kept for i, _ in survivors)


BOUNDED_INPUTS = [
    *SHORT_INPUTS,
    ("<p>\ub611 \ud74f \ubdc1! 오늘의 일기입니다. 방가하의 즐거운 이야기, 그리고</p>", "cp949"),
    # Hungarian with a valid Big5/GBK reading: single-byte and multi-byte readings together
    (
        'átirányítva innen\nAbszolút útvonal legyen, a domain név nélkül. Például: "/cikk/keres/".\n'
        "átirányítva ide\nLehet abszolút útvonal is (mint feljebb), vag",
        "cp1252",
    ),
]


@pytest.mark.parametrize(("text", "codec"), BOUNDED_INPUTS)
def test_short_input_scored_in_one_call_keeps_what_the_bound_keeps(monkeypatch, text, codec):
    data = text.encode(codec)
    calls = []
    real = pipeline._score_bounded
    monkeypatch.setattr(pipeline, "_score_bounded", lambda *a: calls.append(1) or real(*a))
    one_call = detect(data)
    monkeypatch.setattr(pipeline, "BOUNDED_ONE_CALL_CHARS", 0)  # the bound test, in one or two calls
    assert detect(data) == one_call
    assert calls  # the inputs do take the short-input bound path


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.binary(min_size=1, max_size=60).map(lambda b: bytes(x & 0x7F for x in b)),
            st.binary(max_size=4),
        ),
        max_size=12,
    )
)
def test_short_sample_pieces_match_the_array_path(parts):
    data = b"".join(parts)[: pipeline.SHORT_SAMPLE]
    det = pipeline.Detector()
    det.feed(data)
    state = det._s
    det.close()
    if not state.sample:
        return
    short = pipeline._segments(state)
    saved = pipeline.SHORT_SAMPLE
    try:
        pipeline.SHORT_SAMPLE = -1  # (every sample through the general path)
        general = pipeline._segments(state)
    finally:
        pipeline.SHORT_SAMPLE = saved
    assert short == general


def _penalty_counts(scorer, text):
    """(case flips, script switches, in-word marks) of ``text``, counted character by character."""
    cps = [ord(c) if ord(c) <= 0xFFFF else scoring._NON_BMP_STANDIN for c in text]
    r = scorer.reference
    script = [int(r.switch_script[r.lut[c]]) for c in cps]
    flips = sum(bool(r.is_lower[a] and r.is_upper[b]) for a, b in itertools.pairwise(cps))
    switches = sum(a >= 0 and b >= 0 and a != b for a, b in itertools.pairwise(script))
    marks = sum(
        bool(script[i - 1] >= 0 and r.in_word_mark[cps[i]] and script[i + 1] >= 0)
        for i in range(1, len(cps) - 1)
    )
    return flips, switches, marks


#: letters of two alphabets in both cases, a Thai mark, marks inside and outside words, NBSP, Han, a
#: modifier letter, separators and a non-BMP character
PENALTY_ALPHABET = (
    "aZ\u00e9\u00c9\u044f\u042f\u0e48\u2030\u2018\u2019\u00a0\u00b7\u6f22\u02bc \n.,-1\U0001f600"
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(PENALTY_ALPHABET, max_size=12), min_size=1, max_size=5))
def test_pair_penalties_match_a_per_character_count(texts):
    # each penalty switched off in turn: the score moves by exactly that penalty's count x cost (the
    # language is chosen before the penalties, so it does not change); no pair spans two texts
    scorer = get_scorer()
    encodings = [None] * len(texts)
    full = scorer.score_many(texts, encodings)
    expected = [_penalty_counts(scorer, t) for t in texts]
    names = ("CASE_FLIP_LOGP", "SCRIPT_SWITCH_LOGP", "IN_WORD_MARK_LOGP")
    for k, name in enumerate(names):
        cost = getattr(scoring, name)
        try:
            setattr(scoring, name, 0.0)  # (hypothesis: no function-scoped monkeypatch)
            without = scorer.score_many(texts, encodings)
        finally:
            setattr(scoring, name, cost)
        for r, w, counts in zip(full, without, expected, strict=True):
            assert r.loglik - w.loglik == pytest.approx(cost * counts[k], abs=1e-6)


def test_one_block_input_makes_only_the_validators_ranking_reads():
    """While the input is one block, ranking makes the multi-byte validators and no others; a second
    block makes all of them, and either way the detection is what the validators of every block give."""
    text = "Größere Änderungen am Straßenplan wurden für übermorgen angekündigt.\n"
    one = pipeline.Detector().feed(text.encode("cp1252"))
    found = one.close()
    made = set(one._s.validators)
    assert made == {info.name for info in REGISTRY if info.kind == "multi"}
    two = pipeline.Detector()
    data = (text * (pipeline.BLOCK // len(text) + 2)).encode("cp1252")
    two.feed(data)
    assert repr(two.close()) == repr(detect(data))
    streamed = {info.name for info in REGISTRY if info.kind in pipeline._STREAMED_KINDS}
    assert set(two._s.validators) == streamed  # (the file domain streams them all)
    assert found.best().encoding == "windows-1252"


@settings(max_examples=200, deadline=None)
@given(counts=st.lists(st.integers(0, 50), min_size=256, max_size=256), ebcdic=st.booleans())
def test_binary_evidence_on_a_list_is_the_array_formula(counts, ebcdic):
    from mojifix.detect import binary

    total = max(sum(counts), 1)
    as_array = np.array(counts, np.int64)
    mask = np.zeros(256, bool)
    mask[list(binary._CONTROLS)] = True
    controls = int(as_array[mask].sum()) - (counts[0x7F] if ebcdic else 0)
    share = controls / total
    expected = binary.binary_evidence(as_array, total, ebcdic_like=ebcdic)
    assert binary.binary_evidence(counts, total, ebcdic_like=ebcdic) == expected
    assert (expected is not None) == (share > binary.MAX_CONTROL_SHARE)
