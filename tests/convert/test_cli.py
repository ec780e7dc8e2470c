"""``mojifix scan`` / ``mojifix convert`` on the command line: exit codes, --json, the summary table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FAKE, FR, ZH_HANS, tree_fingerprint, write_tree

from mojifix.cli import main
from mojifix.convert import options


@pytest.fixture(autouse=True)
def stand_in_detector(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(options, "DEFAULT_DETECTOR", FAKE)


def test_convert_clean_tree_exit_0_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": (FR * 2).encode("cp1252"), "b.txt": ZH_HANS.encode()})
    assert main(["convert", str(src), str(tmp_path / "dst")]) == 0
    out = capsys.readouterr().out
    for label in (
        "total",
        "converted",
        "already UTF-8",
        "lossless",
        "quarantined",
        "skipped",
        "errors",
        "bytes",
        "wall time",
        "MB/s",
    ):
        assert label in out
    assert (tmp_path / "dst/a.txt").read_text("utf-8") == FR * 2


def test_convert_json_and_exit_1_on_quarantine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mixed = (ZH_HANS + FR).encode() + (FR * 2).encode("cp1252")
    src = write_tree(tmp_path / "src", {"ok.txt": b"fine\n", "mixed.txt": mixed})
    before = tree_fingerprint(src)
    assert main(["convert", str(src), str(tmp_path / "dst"), "--json", "--salvage"]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert summary["quarantined"] == 1 and summary["mixed"] == 1 and summary["salvaged"] == 1
    assert summary["total"] == 2 and summary["exit_code"] == 1
    assert tree_fingerprint(src) == before


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": b"x"})
    assert main(["convert", str(src)]) == 2
    assert main(["convert", str(src), "--in-place"]) == 2
    assert "--backup-dir" in capsys.readouterr().err
    assert main(["convert", str(src), str(tmp_path / "d"), "--prefer", "no-such-encoding"]) == 2
    assert main(["convert", str(tmp_path / "missing"), str(tmp_path / "d2")]) == 2


def test_dry_run_and_in_place(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": (FR * 2).encode("cp1252")})
    assert main(["convert", str(src), str(tmp_path / "dst"), "--dry-run"]) == 0
    assert not (tmp_path / "dst").exists()
    assert main(["convert", str(src), "--in-place", "--backup-dir", str(tmp_path / "bk")]) == 0
    assert (src / "a.txt").read_text("utf-8") == FR * 2
    assert (tmp_path / "bk/a.txt").read_bytes() == (FR * 2).encode("cp1252")


def test_scan_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write_tree(
        tmp_path / "src",
        {"g.txt": (ZH_HANS * 3).encode("gbk"), "u.txt": b"\xff\xfe" + FR.encode("utf-16-le")},
    )
    assert main(["scan", str(src)]) == 0
    out = capsys.readouterr().out
    assert "GBK" in out and "UTF-16LE" in out and "encoding distribution" in out
    assert main(["scan", str(src), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by = {f["path"]: f for f in data["files"]}
    assert by["g.txt"]["encoding"] == "GBK" and by["u.txt"]["bom"] == "UTF-16LE"
    assert data["summary"]["distribution"]["GBK"]["files"] == 1
