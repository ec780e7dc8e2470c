"""``mojifix scan --check [--expect ENC] PATH...``: the CI / pre-commit check, and .pre-commit-hooks.yaml."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mojifix.cli import main
from mojifix.convert.check import Offender, check_bytes, check_paths

REPO = Path(__file__).resolve().parent.parent
FRENCH = "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au-delà des îles.\n"
JAPANESE = "いろはにほへと ちりぬるを わかよたれそ つねならむ。日本語の文章です。\n"


@pytest.fixture
def repo(tmp_path):
    files = {
        "README.md": b"# plain ASCII\n",
        "src/ok.py": "print('café')\n".encode(),
        "src/empty.txt": b"",
        "src/logo.png": b"\x89PNG\r\n\x1a\n" + bytes(range(256)),
        "src/legacy.txt": b"first line\n" + FRENCH.encode("cp1252"),
        "src/bom.txt": b"\xef\xbb\xbf" + FRENCH.encode(),
        "src/utf16.txt": (FRENCH * 2).encode("utf-16-le"),
        "src/utf16-bom.txt": (FRENCH * 2).encode("utf-16"),
        "docs/sjis.txt": (JAPANESE * 3).encode("cp932"),
        ".git/objects/blob": FRENCH.encode("cp1252"),
    }
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    return tmp_path


def test_each_rule(repo):
    report = check_paths([str(repo)])
    by_path = {Path(o.path).relative_to(repo).as_posix(): o for o in report.offenders}
    assert sorted(by_path) == [
        "docs/sjis.txt",
        "src/bom.txt",
        "src/legacy.txt",
        "src/utf16-bom.txt",
        "src/utf16.txt",
    ]
    legacy = by_path["src/legacy.txt"]
    assert (legacy.line, legacy.column, legacy.offset) == (2, 5, 15)  # "Le cœur": 0x9c is byte 5 of line 2
    assert "0x9c" in legacy.problem and "windows-1252" in (legacy.detected or "")
    assert "byte order mark" in by_path["src/bom.txt"].problem
    assert "UTF-16LE" in (by_path["src/utf16.txt"].detected or "")
    assert "Shift_JIS" in (by_path["docs/sjis.txt"].detected or "")
    assert report.ignored_binary == 1  # the PNG; .git is not walked
    assert report.passed == 3 and report.checked == 9
    assert report.exit_code == 1


def test_cli_lines_and_exit_codes(repo, capsys):
    assert main(["scan", "--check", str(repo / "README.md"), str(repo / "src/ok.py")]) == 0
    assert capsys.readouterr().out == ""
    assert main(["scan", "--check", str(repo / "src/legacy.txt"), str(repo / "src/bom.txt")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{repo / 'src/legacy.txt'}:2:5: not UTF-8: invalid byte 0x9c")
    assert out[1] == f"{repo / 'src/bom.txt'}:1:1: UTF-8 byte order mark (remove the first 3 bytes)"
    assert len(out) == 2


def test_expect_another_encoding(repo, capsys):
    sjis, ok = str(repo / "docs/sjis.txt"), str(repo / "src/ok.py")
    assert main(["scan", "--check", "--expect", "shift_jis", sjis, str(repo / "README.md")]) == 0
    assert main(["scan", "--check", "--expect", "sjis", sjis, ok]) == 1
    assert capsys.readouterr().out.strip() == f"{ok}:1:1: UTF-8 text, not Shift_JIS"
    assert main(["scan", "--check", "--expect", "shift_jis", str(repo / "src/legacy.txt")]) == 1
    assert "not Shift_JIS: invalid bytes" in capsys.readouterr().out
    assert main(["scan", "--check", "--expect", "utf-16le", str(repo / "src/utf16-bom.txt")]) == 0


def test_json_output(repo, capsys):
    assert main(["scan", "--check", "--json", str(repo / "src")]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["exit_code"] == 1 and data["expect"] == "UTF-8"
    assert {Path(o["path"]).name for o in data["offenders"]} == {
        "legacy.txt",
        "bom.txt",
        "utf16.txt",
        "utf16-bom.txt",
    }


def test_usage_errors(repo, capsys):
    assert main(["scan", "--check", str(repo / "nope")]) == 2
    assert "no such file or directory" in capsys.readouterr().err
    assert main(["scan", "--check", "--expect", "no-such-encoding", str(repo)]) == 2
    assert main(["scan", str(repo), str(repo)]) == 2  # several paths only with --check


def test_include_exclude(repo):
    report = check_paths([str(repo)], include=("*.txt",), exclude=("utf16*",))
    assert sorted(Path(o.path).name for o in report.offenders) == ["bom.txt", "legacy.txt", "sjis.txt"]


def test_check_bytes_edges():
    assert check_bytes("a", b"") is None
    assert check_bytes("a", b"ascii only\n") is None
    assert check_bytes("a", "é".encode()) is None
    assert check_bytes("a", b"\x00\x01\x02\x03\xff\xfe" * 50) is False  # binary: ignored
    offender = check_bytes("a", b"ok\n\xe9t\xe9\n")
    assert isinstance(offender, Offender) and str(offender).startswith("a:2:1: not UTF-8")


def test_pre_commit_hooks_file_runs_the_check():
    text = (REPO / ".pre-commit-hooks.yaml").read_text()
    entries = [
        line.split(":", 1)[1].strip() for line in text.splitlines() if line.strip().startswith("entry:")
    ]
    assert entries and all(e == "mojifix scan --check" for e in entries)
    ids = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("- id:")]
    assert ids == ["mojifix-utf8", "mojifix-expect"]
    assert "language: python" in text
