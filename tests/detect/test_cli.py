"""``mojifix detect``: output, JSON, exit codes."""

import json

from mojifix.cli import main


def test_detect_text_and_json(tmp_path, capsys):
    f = tmp_path / "cz.txt"
    f.write_bytes("Příliš žluťoučký kůň úpěl ďábelské ódy.".encode("cp1250"))
    assert main(["detect", str(f)]) == 0
    out = capsys.readouterr().out
    assert "windows-1250" in out and "validity:" in out
    assert main(["detect", "--json", "--all", str(f)]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["file"] == str(f)
    assert record["candidates"][0]["encoding"] == "windows-1250"
    assert len(record["candidates"]) > 3


def test_detect_binary_exit_1(tmp_path, capsys):
    f = tmp_path / "x.png"
    f.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    assert main(["detect", str(f)]) == 1
    assert "binary" in capsys.readouterr().out


def test_detect_web_and_prefer(tmp_path, capsys):
    f = tmp_path / "ru.txt"
    f.write_bytes("Все люди рождаются свободными.".encode("cp866"))
    assert main(["detect", "--web", "--json", str(f)]) == 0
    assert json.loads(capsys.readouterr().out)["candidates"][0]["encoding"] == "IBM866"
    # restricted to KOI8-R, the cp866 bytes read as junk: still named, but flagged (exit 1), since no
    # reading looks like text (issue 12: confidence low when nothing reads well)
    assert main(["detect", "--prefer", "KOI8-R", "--json", str(f)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["candidates"][0]["encoding"] == "KOI8-R" and out["ambiguous"]
    assert out["candidates"][0]["confidence"] <= 0.5


def test_missing_file_exit_2(tmp_path):
    assert main(["detect", str(tmp_path / "nope")]) == 2


def test_a_directory_is_refused_before_any_output(tmp_path, capsys):
    (tmp_path / "a.txt").write_bytes(b"caf\xe9")
    assert main(["detect", str(tmp_path / "a.txt"), str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # not half a report: the first file was not detected either
    assert f"{tmp_path}: is a directory" in err and f"mojifix scan {tmp_path}" in err
