"""``mojifix decode``."""

from __future__ import annotations

from pathlib import Path

from mojifix.cli import main


def test_decodes_to_utf8(tmp_path: Path, capsysbinary) -> None:
    f = tmp_path / "in.txt"
    f.write_bytes(b"caf\xe9 \x81")
    assert main(["decode", str(f), "-e", "latin1"]) == 0
    assert capsysbinary.readouterr().out == "café \x81".encode()


def test_invalid_bytes_exit_1_with_warning(tmp_path: Path, capsysbinary) -> None:
    f = tmp_path / "in.txt"
    f.write_bytes(b"ok\xff")
    assert main(["decode", str(f), "-e", "utf-8"]) == 1
    captured = capsysbinary.readouterr()
    assert captured.out == "ok\ufffd".encode()
    assert b"offset 2" in captured.err


def test_strict_writes_nothing(tmp_path: Path, capsysbinary) -> None:
    f = tmp_path / "in.txt"
    f.write_bytes(b"ok\xff")
    assert main(["decode", str(f), "-e", "utf-8", "--strict"]) == 1
    captured = capsysbinary.readouterr()
    assert captured.out == b""
    assert b"ff" in captured.err


def test_bom_and_output_file(tmp_path: Path) -> None:
    f, out = tmp_path / "in.txt", tmp_path / "out.txt"
    f.write_bytes(b"\xff\xfeA\x00")
    assert main(["decode", str(f), "-e", "windows-1252", "-o", str(out)]) == 0
    assert out.read_bytes() == b"A"
    assert main(["decode", str(f), "-e", "windows-1252", "--bom", "ignore", "-o", str(out)]) == 0
    assert out.read_bytes() == "ÿþA\x00".encode()


def test_unknown_label_and_missing_file(tmp_path: Path, capsys) -> None:
    assert main(["decode", str(tmp_path / "nope"), "-e", "utf-8"]) == 2
    f = tmp_path / "in.txt"
    f.write_bytes(b"x")
    assert main(["decode", str(f), "-e", "utf8x"]) == 2
    assert "did you mean" in capsys.readouterr().err
