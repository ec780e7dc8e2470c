"""The mixed-file probes' exact shortcuts give what the probes give without them (issue 13).

Each shortcut in :mod:`mojifix.convert.mixed` skips work that cannot find a split, by a test that is
exact (never a threshold of its own). Here every shortcut is forced off and the results compared, split
by split and verdict by verdict, over generated trees (both text sets, clean and mixed files of every
encoding of the corpus); a shortcut that skipped a probe able to find a split would show as a
difference. The shortcuts must also fire (a comparison over files they never touch proves nothing).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from mojifix.convert import mixed, verify
from mojifix.convert.corpus import generate
from mojifix.convert.options import Options
from mojifix.detect import detect, score_text
from mojifix.detect.scoring import get_scorer

#: the shortcuts, as (name in mixed, what the function returns when it does not take the shortcut)
SHORTCUTS = (("_no_nul_at_parity", False), ("_utf16_beyond_doubt", False))
_SURROGATE = re.compile("[\ud800-\udfff]")


@pytest.fixture(scope="module")
def corpus_files(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """Every file of two small generated trees (project and held-out texts), clean and mixed."""
    root = tmp_path_factory.mktemp("fast")
    out: list[bytes] = []
    for seed, texts in ((21, "project"), (22, "held-out")):
        truths = generate(
            root / texts, files_per_encoding=14, corrupted=24, mean_bytes=2400, seed=seed, texts=texts
        )
        out += [(root / texts / t.path).read_bytes() for t in truths]
    return out


def _examine_all(files: list[bytes]) -> list[verify.Verdict]:
    return [verify.examine(data, Options(salvage=True), detect) for data in files]


def test_forcing_every_shortcut_off_changes_no_verdict(corpus_files, monkeypatch) -> None:
    taken: Counter[str] = Counter()
    for name, _ in SHORTCUTS:
        original = getattr(mixed, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            result = _original(*args, **kwargs)
            taken[_name] += bool(result)
            return result

        monkeypatch.setattr(mixed, name, counted)
    fast = _examine_all(corpus_files)
    assert all(taken[name] > 0 for name, _ in SHORTCUTS), taken  # every shortcut fired
    for name, never in SHORTCUTS:
        monkeypatch.setattr(mixed, name, lambda *a, _never=never, **k: _never)
    slow = _examine_all(corpus_files)
    assert sum(v.verification == "mixed" for v in slow) >= 20  # the trees hold mixed files to find
    assert fast == slow


def test_forcing_every_shortcut_off_changes_no_split_of_a_utf16_file(corpus_files, monkeypatch) -> None:
    """find_split under both byte orders of every UTF-16-like file (NUL bytes), clean or not."""
    utf16ish = [d for d in corpus_files if b"\x00" in d]
    assert len(utf16ish) >= 20

    def splits() -> list[object]:
        return [mixed.find_split(d, 0, head, None, detect) for d in utf16ish for head in mixed._UTF16]

    fast = splits()
    for name, never in SHORTCUTS:
        monkeypatch.setattr(mixed, name, lambda *a, _never=never, **k: _never)
    slow = splits()
    assert any(s is not None for s in slow)
    assert fast == slow


def test_score_text_never_exceeds_the_bound_the_utf16_shortcut_relies_on() -> None:
    """MAX_TEXT_SCORE is an upper bound of score_text, alone and in batches (as mixed._scores calls it)."""
    rng = random.Random(13)
    texts = [
        "a",
        "e" * 300,
        "the the the the the",
        "Le cœur déçu mais l'âme plutôt naïve.",
        "我们需要一份清单，列出每个文件的编码。",
        "ÃƒÂ©" * 20,
        "\u4100\u6200\u2000" * 30,
        " \n\t",
        "0123456789",
    ]
    for _ in range(200):
        n = rng.randint(1, 300)
        lo, hi = rng.choice(((0x20, 0x7E), (0x20, 0x24F), (0x400, 0x4FF), (0x3000, 0x9FFF), (0x20, 0xFFFF)))
        texts.append(_SURROGATE.sub(" ", "".join(chr(rng.randint(lo, hi)) for _ in range(n))))
    for t in texts:
        assert score_text(t)[1] <= mixed.MAX_TEXT_SCORE, t
    for k in range(0, len(texts), 7):
        batch = texts[k : k + 7]
        for t, r in zip(batch, get_scorer().score_many(batch, [None] * len(batch)), strict=True):
            assert r.loglik / max(len(t), 1) <= mixed.MAX_TEXT_SCORE, t


def _first_lines_reference(data: bytes, start: int) -> bytes:
    """The first lines as the probes defined them before the linear scan: the prefix re-counted at
    every line end."""
    end = start
    limit = min(len(data), start + mixed.FIRST_LINES_MAX)
    while end < limit:
        nxt = data.find(b"\n", end, limit)
        end = limit if nxt == -1 else nxt + 1
        seg = data[start:end]
        if sum(b >= 0x80 for b in seg) >= mixed.FIRST_LINES_NON_ASCII:
            break
    return data[start:end]


def _implausible_reference(seg: bytes, encoding: str) -> bool:
    """_implausible_utf16 as a loop over the characters (its definition)."""
    text = seg[: len(seg) & ~1].decode("utf-16-le" if encoding == "UTF-16LE" else "utf-16-be", "replace")
    if not text:
        return False
    odd = sum(
        1
        for c in map(ord, text)
        if (0x20 <= c & 0xFF <= 0x7E and 0x20 <= c >> 8 <= 0x7E)
        or 0xAC00 <= c <= 0xD7A3
        or 0xE000 <= c <= 0xF8FF
    )
    return odd / len(text) >= mixed.IMPLAUSIBLE_UTF16_SHARE


def test_first_lines_and_the_utf16_plausibility_test_match_their_definitions(corpus_files) -> None:
    rng = random.Random(7)
    samples = list(corpus_files)
    for _ in range(300):  # random bytes: lines of every length, every share of non-ASCII bytes
        alphabet = rng.choice((b"ab\n", b"a\x80\n", bytes(range(256)), b"\x00A\n\x00\xe9\x00\x4e"))
        samples.append(bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 600))))
    flips = Counter()
    for data in samples:
        for start in (0, 3):
            assert mixed._first_lines(data, start, "GBK") == _first_lines_reference(data, start)
        for enc in mixed._UTF16:
            want = _implausible_reference(data, enc)
            flips[want] += 1
            assert mixed._implausible_utf16(data, enc) is want
    assert flips[True] and flips[False]


def test_no_nul_at_parity_is_what_probe_g_counts() -> None:
    data = "Grüße\n".encode("utf-16-le")  # NUL bytes only at odd offsets
    assert mixed._no_nul_at_parity(data, 0, 0)
    assert not mixed._no_nul_at_parity(data, 0, 1)
    assert not mixed._no_nul_at_parity(b"\xff\xfe" + data, 2, 1)
    assert mixed._no_nul_at_parity(b"\xff\xfe" + data, 2, 0)
    assert mixed._no_nul_at_parity(b"", 0, 0)


def _probe_d_after_g(data: bytes, head: str) -> object:
    """Probe D on a UTF-16 head, after probe G has filled the file's score memo (as in find_split)."""
    token = mixed._MEMO.set({})
    try:
        mixed._probe_endianness(data, 0, head)
        return mixed._probe_tail_utf16(data, 0, head, detect)
    finally:
        mixed._MEMO.reset(token)


@pytest.mark.parametrize(
    ("tail", "found"),
    [
        # an 8-bit tail after UTF-16: its UTF-16 reading is in the memo (probe G scored it) and reads
        # as nothing: no shortcut, and probe D finds the split
        # (an even number of bytes, none of them D8-DF: it decodes strictly as UTF-16 too)
        ("Le café de la gare a rouvert, très agréable à voir.\n".encode("cp1252"), True),
        # a UTF-16 tail of the same text: the shortcut is taken, and there is nothing to find
        ("The minutes of the meeting are attached below.\n".encode("utf-16-le"), False),
    ],
)
def test_probe_d_on_utf16_gives_the_same_with_and_without_its_shortcut(tail, found, monkeypatch) -> None:
    data = "Work everything sent through the office before noon.\n".encode("utf-16-le") * 6 + tail
    fast = _probe_d_after_g(data, "UTF-16LE")
    monkeypatch.setattr(mixed, "_utf16_beyond_doubt", lambda *a, **k: False)
    slow = _probe_d_after_g(data, "UTF-16LE")
    assert fast == slow
    assert (slow is not None) is found


@pytest.fixture(scope="module")
def big5_then_gbk(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, int]:
    """A Big5 file with a GB18030 tail whose first lines also decode as Shift_JIS (project texts, seed
    43): the detector calls the whole ambiguous GBK, and probe H asks which sibling the head reads as."""
    root = tmp_path_factory.mktemp("sibling")
    truths = generate(root, seed=43, texts="project")
    truth = next(t for t in truths if t.path == "d0/f00248.txt")
    assert (truth.label, truth.tail_label) == ("big5", "gb18030")
    return (root / truth.path).read_bytes(), truth.boundary


def test_the_sibling_chosen_for_a_head_does_not_depend_on_the_order_encodings_are_tried(
    big5_then_gbk, monkeypatch
) -> None:
    """Two siblings clear SIBLING_MARGIN here (Big5 and Shift_JIS): the best reading wins whatever the
    order of the walk (it was a set's, so the split changed with PYTHONHASHSEED), and it is the truth."""
    data, boundary = big5_then_gbk
    verdicts = []
    for order in (mixed._CJK_ORDER, mixed._CJK_ORDER[::-1]):
        monkeypatch.setattr(mixed, "_CJK_ORDER", order)
        verdicts.append(verify.examine(data, Options(salvage=True), detect))
    assert verdicts[0] == verdicts[1]
    split = verdicts[0].mixed
    assert split is not None and (split.head_encoding, split.boundary) == ("Big5", boundary)
