"""The detector's compiled scoring kernel gives exactly what its NumPy reference gives.

``mojifix.detect._scoring`` is the compiled twin of ``Scorer._counts_reference``. Compared with ``==``
(no tolerance), three ways: the kernel's raw rows against the reference's on the same arguments; the
public ``Scorer.score_many`` with the kernel against the same scorer with the kernel taken out; and
``repr(detect())`` (encoding, confidences, candidates, evidence) of whole detections, on uchardet's real
files, on generated text in every encoding family the detector knows, and on Hypothesis inputs. One test
checks that the comparison can fail: a kernel given other constants disagrees with the reference.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.detect import detect, pipeline, scoring, validity
from mojifix.detect.encodings import REGISTRY, EncodingInfo
from mojifix.detect.scoring import MIX_WORD_COST, Scorer, get_scorer
from mojifix.detect.utf8 import Utf8Validator
from mojifix.textcodec import encode_as

UCHARDET = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "detect-dev" / "uchardet"

#: one sentence per script family, so that every encoding the detector names has text it can encode
SENTENCES = [
    "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au-delà des îles.",
    "Größere Änderungen am Straßenplan wurden für übermorgen angekündigt, sagte die Behörde.",
    "Příliš žluťoučký kůň úpěl ďábelské ódy; zażółć gęślą jaźń; árvíztűrő tükörfúrógép.",
    "Vår ærlige søster så blåbær på øya; flatskrár Lína; Þórður og Ævar fóru í ferð.",
    "Şimdi çalışan öğrenciler ığdır'a gitti; Ruđer i Đurđa; ĉiuĵaŭde ŝi manĝas.",
    "Вчера вечером в парке играл оркестр, и жители собрались послушать музыку. Її їжак.",
    "Το πρωί περπατήσαμε στην παραλία και μετά πήγαμε για καφέ στην πλατεία.",
    "בבוקר הלכנו לים ואחר כך שתינו קפה בכיכר העיר הישנה.",
    "ذهبنا في الصباح إلى البحر ثم شربنا القهوة في ساحة المدينة القديمة.",
    "เมื่อเช้านี้เราไปเดินเล่นที่ชายหาดแล้วก็ไปดื่มกาแฟที่จัตุรัส",
    "Hôm nay chúng tôi đi dạo trên bãi biển rồi uống cà phê ở quảng trường.",
    "Sveiki, mūsų šalis graži; Rīgā ir daudz ielu; Tallinnas on palju tänavaid.",
    "这个目录里的文件来自不同的年代，有的用国标码保存，有的用统一码保存。",
    "這個目錄裡的檔案來自不同的年代，有的用大五碼儲存，會議記錄放在第二個資料夾。",
    "昨日は駅前の図書館で新しい本を借りて、公園のベンチでゆっくり読みました。",
    "오늘 아침 시장에서 신선한 과일과 채소를 사서 집으로 돌아왔습니다.",
    "plain ASCII words, with CamelCase and snake_case identifiers, 1234 numbers!",
]


@pytest.fixture(scope="module")
def scorer(detect_kernel: ModuleType) -> Scorer:
    scorer = get_scorer()
    assert scorer.kernel is not None, "the kernel is built, so the scorer must use it"
    return scorer


@contextmanager
def reference(scorer: Scorer) -> Iterator[None]:
    """The shared scorer (the one ``detect`` uses) on its NumPy reference for the duration (the scoring
    kernel, the code pages' kernel and the sample's cut all taken out), and the pipeline's compiled
    functions too (byte counts, the mark and glue priors)."""
    kernel, pages, segments = scorer.kernel, scorer.pages, scorer.segments
    compiled = pipeline._compiled
    scorer.kernel = scorer.pages = scorer.segments = None
    pipeline._compiled = lambda name: None
    try:
        yield
    finally:
        scorer.kernel, scorer.pages, scorer.segments = kernel, pages, segments
        pipeline._compiled = compiled


def both_detections(scorer: Scorer, data: bytes, **kwargs: object) -> tuple[str, str]:
    compiled = repr(detect(data, **kwargs))
    with reference(scorer):
        python = repr(detect(data, **kwargs))
    return compiled, python


def generated_inputs() -> list[tuple[str, bytes]]:
    """Every sentence in every encoding the detector knows that can encode it (whole, or its first
    line of a few hundred characters), short and repeated."""
    out = []
    for info in REGISTRY:
        for text in SENTENCES:
            try:
                out.append((info.name, encode_as(text, info.name)))
                out.append((info.name, encode_as((text + "\n") * 6, info.name)))
            except (UnicodeError, LookupError):
                continue
    return out


def _encodable(text: str, name: str) -> bytes:
    """``text`` in encoding ``name`` (single-byte or multi-byte), without the characters it lacks."""
    out = []
    for ch in text:
        try:
            out.append(encode_as(ch, name))
        except UnicodeError:
            continue
    return b"".join(out) or b"x"


def test_every_uchardet_file(scorer: Scorer) -> None:
    files = sorted(UCHARDET.rglob("*.*"))
    assert len(files) >= 100, f"uchardet's files are read from {UCHARDET}"
    for path in files:
        data = path.read_bytes()
        for kwargs in ({}, {"domain": "web"}):
            compiled, python = both_detections(scorer, data, **kwargs)
            assert compiled == python, (path, kwargs)


def test_generated_text_in_every_family(scorer: Scorer) -> None:
    inputs = generated_inputs()
    kinds = {next(i.kind for i in REGISTRY if i.name == name) for name, _ in inputs}
    assert {"single", "multi", "ebcdic", "utf8", "utf16", "utf32"} <= kinds
    for name, data in inputs:
        compiled, python = both_detections(scorer, data)
        assert compiled == python, (name, data[:40])


def test_raw_rows_equal_the_reference(scorer: Scorer) -> None:
    texts = [s for s in SENTENCES] + [s.upper() for s in SENTENCES] + ["x", "\U0001f600 é\u2030e", "...  ,,"]
    for encodings in ([None] * len(texts), ["windows-1252"] * len(texts), [("cp437", "cp861")] * len(texts)):
        allowed = scorer._allowed(list(encodings))
        every = len(scorer.model.languages)
        for ks in (
            [1] * len(texts),
            [3] * len(texts),
            [k % 6 + 1 for k in range(len(texts))],
            [every] * len(texts),
        ):
            got = scorer.kernel.score(texts, allowed, ks, MIX_WORD_COST)
            assert got == scorer._counts_reference(texts, allowed, ks)


#: English notes with a few CJK words (issue 12: the mix into English as the main language), and
#: encodings to try them in (those that cannot write a text are skipped)
MIXED = [
    ("Check the disk (디스크) and the backup job (백업, 서버).\n", ("EUC-KR", "johab", "GBK", "EUC-JP")),
    ("Restart the service 再起動 and look at the ログ file.\n", ("Shift_JIS", "EUC-JP", "GBK", "Big5")),
    ("Send a note to 负责人 when the 测试 is done, then 完成.\n", ("GBK", "EUC-KR", "Big5")),
    ("The 備份 job and the 伺服器 host, 磁碟 full again.\n", ("Big5", "GBK", "EUC-JP")),
]


def test_mixed_documents_equal_the_reference(scorer: Scorer) -> None:
    """Every reading of English notes with CJK words, in the languages of each encoding and in all,
    scored in 1 to every language: the kernel's rows and detections are the reference's."""
    every = len(scorer.model.languages)
    tried = 0
    for text, names in MIXED:
        for name in names:
            try:
                data = encode_as(text * 3, name)
            except UnicodeError:
                continue
            tried += 1
            compiled, python = both_detections(scorer, data)
            assert compiled == python, (name, text)
            readings = [data.decode(codec, "replace") for codec in ("cp949", "gbk", "euc_jp", "big5")]
            for encodings in ([name] * 4, [None] * 4):
                allowed = scorer._allowed(encodings)
                for ks in ([1] * 4, [2] * 4, [6, 3, 2, 1], [every] * 4):
                    got = scorer.kernel.score(readings, allowed, ks, MIX_WORD_COST)
                    assert got == scorer._counts_reference(readings, allowed, ks), (name, encodings, ks)
    assert tried >= 8


@settings(max_examples=300, deadline=None)
@given(
    texts=st.lists(
        st.text(
            alphabet=st.one_of(
                st.sampled_from("aeinrstAEIZ éèàçßøåžšćłğışțăâœæ’'·\u2030\u00a0 \n.,-1"),
                st.characters(min_codepoint=0x370, max_codepoint=0x6FF),
                st.characters(min_codepoint=0xE00, max_codepoint=0xE7F),
                st.characters(min_codepoint=0x3040, max_codepoint=0x30FF),
                st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF),
                st.characters(min_codepoint=0xAC00, max_codepoint=0xAD00),
                st.characters(min_codepoint=0x1F600, max_codepoint=0x1F64F),
                st.characters(min_codepoint=0, max_codepoint=0xFFFF, exclude_categories=("Cs",)),
            ),
            max_size=80,
        ),
        min_size=1,
        max_size=6,
    ),
    encodings=st.lists(
        st.one_of(
            st.none(),
            st.sampled_from([i.name for i in REGISTRY]),
            st.tuples(st.sampled_from(["cp437", "cp850", "KOI8-R"]), st.sampled_from(["cp861", "KOI8-U"])),
        ),
        min_size=6,
        max_size=6,
    ),
    languages=st.one_of(st.none(), st.integers(1, 8), st.lists(st.integers(1, 8), min_size=6, max_size=6)),
)
def test_score_many_equals_the_reference(scorer: Scorer, texts, encodings, languages) -> None:
    encodings = encodings[: len(texts)]
    compiled = scorer.score_many(texts, encodings, languages=languages)
    with reference(scorer):
        python = scorer.score_many(texts, encodings, languages=languages)
    assert compiled == python


@settings(max_examples=150, deadline=None)
@given(
    data=st.one_of(
        st.binary(min_size=1, max_size=400),
        st.builds(
            lambda text, name: _encodable(text, name),
            st.text(st.sampled_from("".join(SENTENCES)), min_size=1, max_size=300),
            st.sampled_from([i.name for i in REGISTRY if i.kind in ("single", "multi", "ebcdic")]),
        ),
    )
)
def test_detect_equals_the_reference(scorer: Scorer, data: bytes) -> None:
    compiled, python = both_detections(scorer, data)
    assert compiled == python


def test_the_comparison_can_fail(scorer: Scorer) -> None:
    """A kernel off by one quantum in a constant is caught: mixed texts score differently."""
    texts = ["Quellcode für Überblick and the README of the project", "Вчера вечером the concert"]
    allowed = scorer._allowed([None, None])
    right = scorer.kernel.score(texts, allowed, [3, 3], MIX_WORD_COST)
    assert right == scorer._counts_reference(texts, allowed, [3, 3])
    assert scorer.kernel.score(texts, allowed, [3, 3], MIX_WORD_COST + 1) != right


def test_kernel_refuses_tables_that_do_not_fit(detect_kernel: ModuleType, scorer: Scorer) -> None:
    arguments = scoring.kernel_arguments(scorer)
    assert detect_kernel.Tables(**arguments) is not None
    with pytest.raises(ValueError, match="do not fit"):
        detect_kernel.Tables(**{**arguments, "ext_q": scorer.model.ext_q[:, :-1].copy()})
    with pytest.raises(ValueError, match="dimensions"):
        wide = scorer.reference.unigram_cost_t.astype("int32")
        detect_kernel.Tables(**{**arguments, "unigram_cost_t": wide})


def test_bad_arguments_are_refused(scorer: Scorer) -> None:
    allowed = scorer._allowed([None, None])
    assert scorer.kernel.score(["abc", "d"], allowed, [2, 2], MIX_WORD_COST)  # (the well-formed call)
    for texts, ks in ((["abc", ""], [2, 2]), (["abc", b"x"], [2, 2]), (["abc", "d"], [2, 0]), (["abc"], [2])):
        with pytest.raises(ValueError):
            scorer.kernel.score(texts, allowed, ks, MIX_WORD_COST)
    with pytest.raises(ValueError, match="allowed"):
        scorer.kernel.score(["abc", "d"], allowed[:, :-1].copy(), [2, 2], MIX_WORD_COST)


def test_threads_get_the_same_detections(scorer: Scorer) -> None:
    """The kernel runs without the GIL: two threads detecting at once get what one thread gets (long
    inputs too, whose scoring calls and byte counts release it)."""
    inputs = [data for _, data in generated_inputs()[::3]]
    inputs += [encode_as(SENTENCES[i] * 900, name) for i, name in ((1, "cp1252"), (5, "cp1251"), (12, "gbk"))]
    alone = [repr(detect(d)) for d in inputs]
    results: dict[int, list[str]] = {}

    def work(k: int) -> None:
        results[k] = [repr(detect(d)) for d in inputs[k::2]]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == alone[0::2]
    assert results[1] == alone[1::2]


def test_version_line_names_a_part_that_is_not_built(monkeypatch: pytest.MonkeyPatch, scorer: Scorer) -> None:
    from mojifix import _native

    if _native.kernels() is None:
        pytest.skip("LOUD SKIP: mojifix._kernels is not built; the line is checked with both extensions")
    assert _native.status() == "compiled core: active"
    monkeypatch.setattr(_native, "detect_kernel", lambda: None)
    assert _native.status() == (
        "compiled core: active (kernels, warc writer; not built: detector, which runs pure Python)"
    )
    monkeypatch.setattr(_native, "warc_writer_kernel", lambda: None)
    assert _native.status() == (
        "compiled core: active (kernels; not built: detector, warc writer, which run pure Python)"
    )


def test_long_text_equals_the_reference(scorer: Scorer) -> None:
    text = "".join(SENTENCES) * 300  # ~100,000 characters, every script: the word costs grow as needed
    compiled = scorer.score_many([text, text[:5000]], [None, "windows-1252"], languages=[6, 3])
    with reference(scorer):
        assert scorer.score_many([text, text[:5000]], [None, "windows-1252"], languages=[6, 3]) == compiled


# ---- the pipeline's speed-ups give what their straight-line forms give --------------------------
#: the glued-letter, in-word-mark and glued-byte tests as the rules state them (a lookbehind first)
GLUED_SPEC = re.compile(r"(?<=[0-9])[^\x00-\x7f]|[^\x00-\x7f](?=[0-9])")
MARK_SPEC = re.compile(r"(?<=[^\W\d_])[\[\]{}|\\~^](?=[^\W\d_])")
GLUED_BYTES_SPEC = re.compile(rb"[0-9][\x80-\xff]|[\x80-\xff][0-9]")


@settings(max_examples=500, deadline=None)
@given(
    text=st.text(st.sampled_from("0912aZé£Ł_ \n[]{}|\\~^€ж年ºx.-"), max_size=30),
    data=st.lists(st.sampled_from(b"09/:A\x7f\x80\xe9\xff"), max_size=30).map(bytes),
)
def test_pipeline_expressions_match_their_spec_forms(text: str, data: bytes) -> None:
    assert pipeline._GLUED.findall(text) == GLUED_SPEC.findall(text)
    assert pipeline._IN_WORD_ASCII_MARK.findall(text) == MARK_SPEC.findall(text)
    assert pipeline._glued_bytes(data) == (GLUED_BYTES_SPEC.search(data) is not None)


#: characters around the mark and glue rules' edges: ASCII letters, digits and marks, "_", letters of
#: other scripts, digits that are not ASCII (decimal: "٣"; not decimal: "²"), º ª µ, CJK, a combining
#: mark, an astral letter and an astral symbol
MARK_ALPHABET = "aZ09_ []{}|\\~^.-é£ŁжΩא٣²ºªµ年か한ｱ\u0301𝐀😀\u00a0"


@settings(max_examples=500, deadline=None)
@given(texts=st.lists(st.text(st.sampled_from(MARK_ALPHABET), max_size=20), max_size=5))
def test_text_marks_kernel_equals_the_expressions(detect_kernel: ModuleType, texts: list[str]) -> None:
    for uniform in (False, True):
        for glue in (False, True):
            expected = [pipeline._text_marks(t, uniform, glue) for t in texts]
            assert detect_kernel.text_marks(texts, uniform, glue) == expected


@settings(max_examples=500, deadline=None)
@given(data=st.lists(st.sampled_from(b"09/:A\x7f\x80\xe9\xff"), max_size=30).map(bytes))
def test_glued_bytes_kernel_equals_the_translation(detect_kernel: ModuleType, data: bytes) -> None:
    assert detect_kernel.glued_bytes(data) == pipeline._glued_bytes_reference(data)


def test_text_marks_kernel_on_real_readings(detect_kernel: ModuleType) -> None:
    """Every uchardet file read by a few code pages (Latin, Cyrillic, EBCDIC, CJK) counts the same marks."""
    texts = []
    for path in sorted(UCHARDET.rglob("*.*")):
        data = path.read_bytes()[:4096]
        codecs = ("cp1252", "cp1251", "cp037", "cp273", "gb18030")
        texts += [data.decode(codec, "replace") for codec in codecs]
    assert len(texts) >= 500
    got = detect_kernel.text_marks(texts, True, True)
    assert got == [pipeline._text_marks(t, True, True) for t in texts]
    assert sum(m for m, _ in got) > 0 and sum(g for _, g in got) > 0  # both rules met on real text
    assert detect_kernel.text_marks(["a[b 12é Ł9 ª1 年2"], True, True) == [(1, 2)]


def _twin_spec(head: bytes, best: EncodingInfo, pages: list[EncodingInfo]) -> str | None:
    """The twin rule over the decoded head, character by character (what ``pipeline._twin`` computes
    from the byte values present)."""
    mine = best.decode(head, "replace")
    for info in pages:
        theirs = info.decode(head, "replace")
        if best.kind == "ebcdic":  # marks that pair up in one reading and not in the other tell them apart
            unpaired = [
                abs(t.count("[") - t.count("]")) + t.count("¢") + t.count("¬") for t in (mine, theirs)
            ]
            if unpaired[1] - unpaired[0] >= pipeline.TWIN_MARK_EVIDENCE:
                continue
        pairs = [(x, y) for x, y in zip(mine, theirs, strict=True) if x != y]
        if best.kind == "ebcdic":
            fine = all(not (x.isalnum() or y.isalnum()) for x, y in pairs)
        else:
            fine = all({(x, y), (y, x)} & pipeline._VARIANT_LETTERS for x, y in pairs)
        if pairs and fine:
            return info.name
    return None


def test_twin_equals_the_character_comparison() -> None:
    ebcdic = [i for i in REGISTRY if i.kind == "ebcdic"]
    variant = [i for i in REGISTRY if i.name in pipeline._VARIANT_PAGES]
    assert ebcdic and len(variant) == 3
    romanian = "Știința și țara: oraşul, ţărmul, Şcoala. Înțelepciune 123 ! [x] ¢ | ^"
    found = set()
    for text in [romanian, *SENTENCES]:
        for best in ebcdic + variant:
            data = _encodable(text, best.name)
            pages = [i for i in (ebcdic if best.kind == "ebcdic" else variant) if i.name != best.name]
            state = pipeline._State(domain="file", tld=None, allowed=(), max_bytes=None, head=data)
            got = pipeline._twin(state, best, [(i, None) for i in pages])
            assert got == _twin_spec(data, best, pages), (best.name, text)
            found.add(got)
    assert len(found - {None}) >= 2, "some pages must have a twin, or the comparison proves little"


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(st.sampled_from("ab é€ж年\U0001f600\n"), min_size=1, max_size=100),
    bad=st.lists(st.tuples(st.integers(20, 400), st.integers(0x80, 0xFF)), max_size=12),
    cuts=st.lists(st.integers(1, 700), min_size=1, max_size=8),
)
def test_utf8_validator_resumes_as_one_strict_pass(text: str, bad: list, cuts: list[int]) -> None:
    """Fed in any chunks, the UTF-8 validator (validity.decode_resuming) finds the invalid sequences
    a straight strict decode of the whole input finds, stopping by the same rule, and counts the same
    non-ASCII characters."""
    valid = (text * (4000 // len(text) + 1)).encode()[:4000]
    data, at = bytearray(valid), 0
    for gap, value in bad:  # invalid bytes about `gap` bytes apart (inside characters too)
        at += gap
        data.insert(min(at, len(data)), value)
    data = bytes(data)
    v = Utf8Validator()
    pos = k = 0
    while pos < len(data):
        v.feed(data[pos : pos + cuts[k % len(cuts)]], pos)
        pos, k = pos + cuts[k % len(cuts)], k + 1
    errors, multibyte, broken, pos = [], 0, False, 0
    while True:
        try:
            good = data[pos:].decode("utf-8")
            break
        except UnicodeDecodeError as exc:
            good = data[pos : pos + exc.start].decode("utf-8")
            if exc.reason == "unexpected end of data" and pos + exc.end == len(data):
                break  # a sequence cut off by the end: tolerated
            errors.append(pos + exc.start)
            if len(errors) > validity.MAX_ERRORS or len(errors) * validity.ERROR_SPACING > errors[-1]:
                broken, good = True, ""
                break
            multibyte += sum(ch >= "\x80" for ch in good)
            pos += exc.end
    multibyte += sum(ch >= "\x80" for ch in good)
    assert (v.errors, v.broken, v.error_at) == (errors, broken, errors[0] if errors else None)
    if not broken:
        assert v.multibyte == multibyte
