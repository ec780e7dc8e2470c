"""The review report without a browser: what each card offers, alignment of readings, escaping, the CLI."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from review_trees import STANDIN, Planted, review_tree

from mojifix.cli import main
from mojifix.convert import convert
from mojifix.convert.decisions import Segment, check_reading
from mojifix.review import REPORT_NAME, collect, write_report
from mojifix.review.page import chart_svg
from mojifix.review.readings import SpanCache, align, char_spans


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Planted]]:
    root = tmp_path_factory.mktemp("review-report")
    planted = review_tree(root / "src")
    convert(root / "src", root / "dst", detector=STANDIN, fsync=False)
    return root / "src", root / "dst", planted


def _cards(dst: Path) -> dict[str, dict]:
    return {c["path"]: c for c in collect(dst).cards}


def test_every_quarantined_file_has_a_card_offering_its_true_reading(
    tree: tuple[Path, Path, list[Planted]],
) -> None:
    _src, dst, planted = tree
    cards = _cards(dst)
    assert set(cards) == {p.path for p in planted}
    for p in planted:
        card = cards[p.path]
        choices = [r["choice"] for r in card["readings"] if r["choice"] is not None]
        if p.encoding:
            assert {"encoding": p.encoding} in choices, (p.path, card["readings"])
        else:
            size = card["size"]
            want = {"segments": [{"end": p.boundary, "encoding": p.head}, {"end": size, "encoding": p.tail}]}
            assert card["readings"][0]["choice"] == want  # the split reading comes first
            assert card["mixed"]["boundary"] == p.boundary
            head, tail = card["readings"][0]["parts"]
            assert head["label"] == f"head: {p.head}" and tail["label"] == f"tail: {p.tail}"
            assert tail["start"] == p.boundary and head["end"] == p.boundary


def test_every_offered_choice_is_lossless_and_every_refusal_says_why(
    tree: tuple[Path, Path, list[Planted]],
) -> None:
    _src, dst, _planted = tree
    for card in collect(dst).cards:
        data = (dst / "_quarantine").joinpath(card["path"]).read_bytes() if not card["path_hex"] else None
        for r in card["readings"]:
            if r["choice"] is None:
                assert r["why_not"]
            elif data is not None:
                segs = r["choice"].get("segments") or [
                    {"end": card["size"], "encoding": r["choice"]["encoding"]}
                ]
                assert check_reading(data, [Segment(s["end"], s["encoding"]) for s in segs]) is None


def test_mixed_card_marks_the_tail_not_the_head(tree: tuple[Path, Path, list[Planted]]) -> None:
    """The split reading and the whole-file head reading agree on the head and part ways at the boundary."""
    _src, dst, planted = tree
    p = next(p for p in planted if p.head == "GBK")
    card = _cards(dst)[p.path]
    split, whole = card["readings"][0], card["readings"][1]
    assert whole["label"] == "GBK" and whole["choice"] is None  # GBK cannot read the UTF-16 tail
    head_runs = split["parts"][0]["runs"]
    assert len(head_runs) == 1 and head_runs[0]  # one "same" run: nothing marked in the head
    tail_runs = split["parts"][1]["runs"]
    assert tail_runs[0] == "" and len(tail_runs[1]) > 20  # the tail starts marked
    assert card["first_diff"] == p.boundary
    assert card["dump"]["at"] == p.boundary
    text = "".join(head_runs) + "".join(tail_runs)
    assert text in p.text  # the window is the true text around the boundary


def test_ambiguous_card_marks_only_what_the_encodings_read_differently(
    tree: tuple[Path, Path, list[Planted]],
) -> None:
    _src, dst, planted = tree
    p = next(p for p in planted if p.encoding == "windows-1252" and p.path.startswith("odd/<"))
    card = _cards(dst)[p.path]
    first = card["readings"][0]
    assert first["encoding"] == "windows-1252"
    runs = first["parts"][0]["runs"]
    assert "".join(runs) == p.text
    marked = "".join(runs[1::2])
    assert set(marked) <= {ch for ch in p.text if ord(ch) > 0x7F}  # ASCII reads alike everywhere
    assert "é" in marked
    big5 = next(q for q in planted if q.encoding == "Big5")
    reading = next(r for r in _cards(dst)[big5.path]["readings"] if r["encoding"] == "Big5")
    assert reading["parts"][0]["lang"].startswith("zh")  # from the detector, else the encoding's table


def test_page_is_self_contained_and_data_cannot_become_markup(tree: tuple[Path, Path, list[Planted]]) -> None:
    _src, dst, _planted = tree
    result = write_report(dst)
    page = Path(result.path).read_text(encoding="utf-8")
    assert result.path == str(dst / REPORT_NAME)
    assert page.count("<script") == 2  # the data element and the page's own script, nothing from the tree
    assert "<img" not in page and "window.__pwned" in page  # the hostile name/content is there, as data
    assert not re.search(r"(?i)\b(?:src|href)\s*=\s*[\"']?(?:https?:)?//", page)  # no network
    assert 'http-equiv="Content-Security-Policy"' in page and "default-src 'none'" in page
    raw = re.search(r'<script id="mojifix-data" type="application/json">(.*?)</script>', page, re.S)
    assert raw is not None
    data = json.loads(raw.group(1))
    assert len(data["cards"]) == result.cards == len(_planted)
    assert any(c["path"] == 'odd/<img src=x onerror="window.__pwned=1">&amp;.txt' for c in data["cards"])


def test_chart_escapes_labels() -> None:
    svg = chart_svg([["<b>x</b>", {"written": 3, "quarantined": 1}], ["GBK", {"other": 2}]])
    assert "<b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg
    assert svg.count("<rect") == 3 + 3  # three bars and the three legend boxes


def test_cli(
    tree: tuple[Path, Path, list[Planted]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _src, dst, planted = tree
    out = tmp_path / "r.html"
    assert main(["review", str(dst), "-o", str(out)]) == 0
    assert f"{len(planted)} quarantined files to settle -> file://" in capsys.readouterr().out
    assert out.stat().st_size > 1000
    assert main(["review", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mojifix: error: no manifest at") and "Traceback" not in err


def test_missing_quarantine_copy_is_shown_not_hidden(
    tree: tuple[Path, Path, list[Planted]], tmp_path: Path
) -> None:
    _src, dst, planted = tree
    copy = tmp_path / "dst"
    shutil.copytree(dst, copy)
    victim = next(p for p in planted if p.encoding == "GBK")
    os.unlink(os.path.join(os.fsencode(copy), b"_quarantine/" + victim.rel))
    assert main(["review", str(copy)]) == 1
    card = _cards(copy)[victim.path]
    assert card["problem"].startswith("the quarantine copy cannot be read") and card["readings"] == []


@pytest.mark.parametrize(
    ("text", "encoding", "codec"),
    [
        ("會議 a紀錄\n資料", "Big5", "big5"),
        ("会议 ab 记录 𠮷", "gb18030", "gb18030"),
        ("Grüße 𠮷 x", "UTF-16LE", "utf-16-le"),
        ("日本語 memo", "Shift_JIS", "shift_jis"),
        ("naïve € ‘x’", "windows-1252", "cp1252"),
    ],
)
def test_char_spans_rebuild_the_bytes(text: str, encoding: str, codec: str) -> None:
    data = text.encode(codec)
    spans = char_spans(data, 0, len(data), encoding, SpanCache())
    assert spans is not None
    assert "".join(s[2] for s in spans) == text
    assert b"".join(data[a:b] for a, b, _ in spans) == data
    assert all(s[2].encode(codec) == data[s[0] : s[1]] for s in spans)


def test_char_spans_mark_invalid_bytes_and_align_finds_boundaries() -> None:
    data = b"ab\x81c" + "會議".encode("big5")  # a lead byte before ASCII: one bad byte (Encoding Standard)
    spans = char_spans(data, 0, len(data), "Big5", SpanCache())
    assert spans is not None
    assert [s[2] for s in spans][:4] == ["a", "b", "\ufffd", "c"]
    assert spans[2][:2] == (2, 3)
    assert "".join(s[2] for s in spans[4:]) == "會議"
    cjk = ("會議\n" * 3).encode("big5")
    assert align(cjk, 1, "Big5", 0, SpanCache()) == 5  # the next line start, not the middle of 會
    assert align(b"\x00a\x00b", 1, "UTF-16BE", 0, SpanCache()) == 2
    assert align(b"abc\xe9", 2, "windows-1252", 0, SpanCache()) == 2


def test_demo_tree_can_be_settled_from_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make demo`'s tree: every quarantined file offers a lossless reading, and applying them settles all."""
    from mojifix.convert import demo

    monkeypatch.setattr(demo, "ROOT", tmp_path)  # the demo prints paths relative to the repository
    assert demo.run(tmp_path) == 1  # the demo quarantines its corrupted files on purpose
    dst = tmp_path / "utf8"
    cards = collect(dst).cards
    assert cards
    decisions = []
    salvaged = {}
    for c in cards:
        choice = next(r["choice"] for r in c["readings"] if r["choice"] is not None)
        decisions.append({"path": c["path"], "sha1": c["sha1"], **choice})
        salvaged[c["path"]] = (dst / "_quarantine" / (c["path"] + ".salvaged")).read_bytes()
    saved = tmp_path / "d.json"
    saved.write_text(json.dumps(decisions), encoding="utf-8")
    capsys.readouterr()
    assert main(["convert", str(tmp_path / "legacy"), str(dst), "--decisions", str(saved), "--no-fsync"]) == 0
    for path, text in salvaged.items():  # the split reading is the segment-by-segment salvage, exactly
        assert (dst / path).read_bytes() == text
    assert [f for _d, _s, files in os.walk(dst / "_quarantine") for f in files] == []
    assert not any(os.scandir(dst / "_quarantine"))  # emptied directories go too


def test_a_file_too_large_for_decisions_says_so(
    tree: tuple[Path, Path, list[Planted]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """convert streams files above its in-memory limit and decisions do not apply to those: no choices."""
    from mojifix.review import report

    _src, dst, planted = tree
    monkeypatch.setattr(report, "STREAM_THRESHOLD", 20)
    cards = _cards(dst)
    big = next(p for p in planted if p.boundary is not None)
    assert cards[big.path]["problem"].startswith("larger than convert's in-memory limit")
    assert cards[big.path]["readings"] == [] and cards[big.path]["settleable"] is False
    small = next(c for c in cards.values() if c["size"] <= 20)
    assert small["settleable"] and small["readings"]
