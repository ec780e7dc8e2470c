"""The decisions file: schema round trip, validation, and `convert --decisions` applying (or refusing) it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from review_trees import STANDIN, Planted, review_tree

from mojifix.cli import main
from mojifix.convert import convert
from mojifix.convert.decisions import (
    PERSON,
    STALE,
    Decision,
    DecisionsError,
    Segment,
    dump_decisions,
    load_decisions,
    parse_decisions,
)
from mojifix.convert.engine import read_manifest

SHA = "0123456789abcdef0123456789abcdef01234567"


def _sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


# ---------------------------------------------------------------------------------------------- schema


def test_schema_round_trip_every_shape() -> None:
    items = [
        Decision("a.txt", SHA, "Big5"),
        Decision("b.txt", SHA, None),
        Decision("c.txt", SHA, None, (Segment(10, "GBK"), Segment(30, "UTF-16BE"))),
        Decision("caf\\xe9.txt", SHA, "windows-1252", None, "636166e92e747874"),
    ]
    text = dump_decisions(items)
    again = parse_decisions(json.loads(text))
    assert list(again.items) == items
    assert dump_decisions(again.items) == text
    assert json.loads(text)[1] == {"path": "b.txt", "sha1": SHA, "encoding": None}
    assert json.loads(text)[2]["segments"] == [
        {"end": 10, "encoding": "GBK"},
        {"end": 30, "encoding": "UTF-16BE"},
    ]
    assert again.get("636166e92e747874") == items[3]  # looked up by the manifest's key
    assert again.get("caf\\xe9.txt") is None


def test_labels_become_result_names() -> None:
    d = parse_decisions(
        [{"path": "a", "sha1": SHA, "encoding": "big5"}, {"path": "b", "sha1": SHA, "encoding": "latin1"}]
    )
    assert [x.encoding for x in d.items] == ["Big5", "windows-1252"]


@pytest.mark.parametrize(
    ("obj", "needle"),
    [
        ({"path": "a"}, "is a JSON array"),
        ([{"path": "a", "sha1": "xyz", "encoding": "GBK"}], "sha1 must be 40"),
        ([{"path": "a", "sha1": SHA.upper(), "encoding": "GBK"}], "sha1 must be 40"),
        ([{"sha1": SHA, "encoding": "GBK"}], "path must be"),
        ([{"path": "a", "sha1": SHA}], "exactly one of encoding"),
        ([{"path": "a", "sha1": SHA, "encoding": "GBK", "segments": []}], "exactly one of encoding"),
        ([{"path": "a", "sha1": SHA, "encoding": "no-such-codec"}], "unknown encoding"),
        ([{"path": "a", "sha1": SHA, "encoding": "GBK", "note": 1}], "unknown key"),
        ([{"path": "a", "sha1": SHA, "segments": []}], "non-empty list"),
        (
            [
                {
                    "path": "a",
                    "sha1": SHA,
                    "segments": [{"end": 5, "encoding": "GBK"}, {"end": 5, "encoding": "Big5"}],
                }
            ],
            "after 5",
        ),
        ([{"path": "a", "sha1": SHA, "segments": [{"end": True, "encoding": "GBK"}]}], "integer byte offset"),
        ([{"path": "a", "sha1": SHA, "segments": [{"end": 4, "encoding": None}]}], "encoding name"),
        (
            [{"path": "a", "sha1": SHA, "encoding": "GBK"}, {"path": "a", "sha1": SHA, "encoding": None}],
            "second decision",
        ),
        ([{"path": "a", "sha1": SHA, "encoding": "GBK", "path_hex": "zz"}], "path_hex"),
    ],
)
def test_off_schema_is_refused_with_the_entry(obj: object, needle: str) -> None:
    with pytest.raises(DecisionsError, match=needle):
        parse_decisions(obj)


def test_unreadable_or_not_json(tmp_path: Path) -> None:
    with pytest.raises(DecisionsError, match="cannot read"):
        load_decisions(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("[{", encoding="utf-8")
    with pytest.raises(DecisionsError, match="not JSON"):
        load_decisions(bad)


def test_cli_bad_decisions_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "src").mkdir()
    bad = tmp_path / "d.json"
    bad.write_text('[{"path": "a", "sha1": "no"}]', encoding="utf-8")
    code = main(["convert", str(tmp_path / "src"), str(tmp_path / "dst"), "--decisions", str(bad)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("mojifix: error: decisions entry 0:") and "Traceback" not in err


# ---------------------------------------------------------------------------------------------- applying


@pytest.fixture(scope="module")
def quarantined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Planted]]:
    """A review tree converted once with the stand-in detector (every note and mixed file quarantined)."""
    root = tmp_path_factory.mktemp("review-tree")
    planted = review_tree(root / "src")
    report = convert(root / "src", root / "dst", detector=STANDIN, fsync=False)
    assert report.count("quarantined") == len(planted)
    return root / "src", root / "dst", planted


@pytest.fixture
def tree(quarantined: tuple[Path, Path, list[Planted]], tmp_path: Path) -> tuple[Path, Path, list[Planted]]:
    """A private copy (decisions change SRC's and DST's state in these tests)."""
    src, dst, planted = quarantined
    shutil.copytree(src, tmp_path / "src", symlinks=True)
    shutil.copytree(dst, tmp_path / "dst", symlinks=True)
    return tmp_path / "src", tmp_path / "dst", planted


def _decision(src: Path, p: Planted, **choice: object) -> dict[str, object]:
    data = (Path(os.fsdecode(os.path.join(os.fsencode(src), p.rel)))).read_bytes()
    d: dict[str, object] = {"path": p.path, "sha1": _sha1(data)}
    if p.path != p.rel.decode("utf-8", "replace"):
        d["path_hex"] = p.rel.hex()
    d.update(choice)
    return d


def _write(tmp: Path, decisions: list[dict[str, object]]) -> str:
    path = tmp / "mojifix-decisions.json"
    path.write_text(json.dumps(decisions, ensure_ascii=False), encoding="utf-8")
    return str(path)


def _out(root: Path, rel: bytes) -> bytes:
    with open(os.path.join(os.fsencode(root), rel), "rb") as f:
        return f.read()


def _exists(root: Path, rel: bytes) -> bool:
    return os.path.lexists(os.path.join(os.fsencode(root), rel))


def test_decisions_apply_exactly_and_settle_the_manifest(
    tree: tuple[Path, Path, list[Planted]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, dst, planted = tree
    notes = [p for p in planted if p.encoding]
    mixed = [p for p in planted if p.boundary is not None]
    decided = notes[:-1]
    left_out = notes[-1]
    decisions = [_decision(src, p, encoding=p.encoding) for p in decided]
    decisions.append(_decision(src, left_out, encoding=None))
    m = mixed[0]
    size = len(_out(src, m.rel))
    decisions.append(
        _decision(
            src, m, segments=[{"end": m.boundary, "encoding": m.head}, {"end": size, "encoding": m.tail}]
        )
    )
    code = main(["convert", str(src), str(dst), "--decisions", _write(tmp_path, decisions), "--no-fsync"])
    err = capsys.readouterr().err
    assert "decisions: " + str(len(decisions)) + " applied, 0 not applied" in err
    assert code == 1  # two mixed files are still undecided, so still quarantined
    manifest = {
        r.path: r for r in read_manifest(os.path.join(os.fsencode(dst), b"mojifix-manifest.jsonl")).values()
    }
    for p in [*decided, m]:
        assert _out(dst, p.rel) == p.text.encode("utf-8"), p.path
        assert not _exists(dst, b"_quarantine/" + p.rel)
        assert not _exists(dst, b"_quarantine/" + p.rel + b".reason.json")
        rec = manifest[p.path]
        assert (rec.outcome, rec.decision, rec.verification) == ("converted", PERSON, "lossless")
        assert rec.output_sha1 == _sha1(p.text.encode("utf-8"))
        assert rec.reason.startswith("settled by a person: ")
    assert (
        manifest[m.path].reason
        == f"settled by a person: {m.head} bytes 0-{m.boundary}, {m.tail} bytes {m.boundary}-{size}"
    )
    rec = manifest[left_out.path]
    assert (rec.outcome, rec.decision) == ("skipped", PERSON)
    assert not _exists(dst, left_out.rel) and not _exists(dst, b"_quarantine/" + left_out.rel)
    for p in mixed[1:]:
        assert manifest[p.path].outcome == "quarantined" and _exists(dst, b"_quarantine/" + p.rel)
    assert manifest["clean/readme.txt"].outcome == "utf8"
    # applying the same file again changes nothing (idempotent) and the run still reports them applied
    code = main(["convert", str(src), str(dst), "--decisions", _write(tmp_path, decisions), "--no-fsync"])
    assert code == 1
    assert "0 not applied" in capsys.readouterr().err
    for p in decided:
        assert _out(dst, p.rel) == p.text.encode("utf-8")


def test_stale_decisions_are_reported_never_guessed(
    tree: tuple[Path, Path, list[Planted]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, dst, planted = tree
    gbk, big5, cp1252 = (next(p for p in planted if p.encoding == e) for e in ("GBK", "Big5", "windows-1252"))
    mixed = next(p for p in planted if p.boundary is not None)
    changed = _decision(src, gbk, encoding="GBK")
    wrong = _decision(src, cp1252, encoding="UTF-16BE")  # odd length: UTF-16 cannot read it
    short = _decision(src, mixed, segments=[{"end": 10, "encoding": "GBK"}])
    gone = {"path": "no/such.txt", "sha1": SHA, "encoding": "GBK"}
    odd = next(p for p in planted if p.rel.startswith(b"odd/caf"))
    unnamed = {"path": odd.path, "sha1": SHA, "encoding": "windows-1252"}  # no path_hex for a non-UTF-8 name
    good = _decision(src, big5, encoding="Big5")
    # the GBK note changes after the review: its decision was made on other bytes
    with open(os.path.join(os.fsencode(src), gbk.rel), "ab") as f:
        f.write("。".encode("gbk"))
    code = main(
        [
            "convert",
            str(src),
            str(dst),
            "--no-fsync",
            "--decisions",
            _write(tmp_path, [changed, wrong, short, gone, unnamed, good]),
        ]
    )
    err = capsys.readouterr().err
    assert code == 1
    assert "decisions: 1 applied, 5 not applied" in err
    assert f'decision not applied: {odd.path}: the name is not UTF-8: give its bytes as "path_hex"' in err
    assert f"decision not applied: {gbk.path}: the source changed since the review" in err
    assert f"decision not applied: {cp1252.path}: UTF-16BE cannot decode byte" in err
    assert f"decision not applied: {mixed.path}: the segments end at byte 10" in err
    assert "decision not applied: no/such.txt: no such file in SRC" in err
    manifest = {
        r.path: r for r in read_manifest(os.path.join(os.fsencode(dst), b"mojifix-manifest.jsonl")).values()
    }
    for p in (gbk, cp1252, mixed):
        rec = manifest[p.path]
        assert rec.decision != PERSON
        assert any(w.startswith(STALE) for w in rec.warnings), rec.warnings
    # a changed file is examined afresh, as any changed file is on --resume (here: converted by the detector)
    assert manifest[gbk.path].decision == "detector"
    for p in (cp1252, mixed):  # same bytes, refused decision: stays quarantined, nothing written
        assert not _exists(dst, p.rel)
        assert manifest[p.path].outcome == "quarantined" and _exists(dst, b"_quarantine/" + p.rel)
    assert manifest[big5.path].decision == PERSON
    assert _out(dst, big5.rel) == big5.text.encode("utf-8")


def test_a_decoding_that_is_not_lossless_is_refused(tree: tuple[Path, Path, list[Planted]]) -> None:
    """A reading whose bytes do not decode strictly is refused, whoever chose it (the proof decides)."""
    src, dst, planted = tree
    big5 = next(p for p in planted if p.encoding == "Big5")
    data = _out(src, big5.rel)
    d = parse_decisions([{"path": big5.path, "sha1": _sha1(data), "encoding": "UTF-8"}])
    got = d.settle(big5.path, data, _sha1(data))
    assert isinstance(got, tuple) and got[0].startswith(STALE + "UTF-8 cannot decode byte 0")
    report = convert(src, dst, decisions=d, fsync=False)  # the library API: implies resume
    rec = next(r for r in report.records if r.path == big5.path)
    assert rec.outcome == "quarantined" and rec.warnings[-1].startswith(STALE)


def test_decisions_into_a_new_dst(tree: tuple[Path, Path, list[Planted]], tmp_path: Path) -> None:
    """No earlier run needed: decided files are written, the rest examined as usual."""
    src, _dst, planted = tree
    notes = [p for p in planted if p.encoding]
    decisions = [_decision(src, p, encoding=p.encoding) for p in notes]
    new = tmp_path / "fresh"
    report = convert(src, new, decisions=_write(tmp_path, decisions), fsync=False)
    for p in notes:
        assert _out(new, p.rel) == p.text.encode("utf-8")
    assert sum(1 for r in report.records if r.decision == PERSON) == len(notes)


def test_decisions_in_place(tmp_path: Path) -> None:
    """--in-place: the settled file is rewritten in SRC after its original is backed up; the quarantine
    copy (in the backup directory) goes."""
    planted = review_tree(tmp_path / "src")
    bak = tmp_path / "bak"
    convert(tmp_path / "src", None, in_place=True, backup_dir=str(bak), detector=STANDIN, fsync=False)
    p = next(p for p in planted if p.encoding == "Shift_JIS")
    original = _out(tmp_path / "src", p.rel)
    decisions = _write(tmp_path, [_decision(tmp_path / "src", p, encoding="Shift_JIS")])
    args = ["convert", str(tmp_path / "src"), "--in-place", "--backup-dir", str(bak), "--no-fsync"]
    assert main([*args, "--decisions", decisions]) == 1  # the others are still quarantined
    assert _out(tmp_path / "src", p.rel) == p.text.encode("utf-8")
    assert _out(bak, p.rel) == original
    assert not _exists(bak, b"_quarantine/" + p.rel)
