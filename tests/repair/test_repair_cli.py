"""``mojifix repair [FILE|-] [--explain] [--json]``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from mojifix.cli import main


def _run(argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsysbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


def test_repairs_a_file(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    src = tmp_path / "in.txt"
    src.write_text("CafÃ© ÖÐÎÄ\n", encoding="utf-8")
    code, out, err = _run(["repair", str(src), "--explain"], capsysbinary)
    assert (code, out) == (0, "Café 中文\n")
    assert "GBK" in err and "UTF-8" in err


def test_json_output(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    src = tmp_path / "in.txt"
    src.write_text("ÐŸÑ€Ð¸Ð²ÐµÑ‚", encoding="utf-8")
    code, out, _ = _run(["repair", str(src), "--json"], capsysbinary)
    data = json.loads(out)
    assert code == 0 and data["text"] == "Привет" and data["changed"] is True
    assert data["plan"] == [{"encode_as": "windows-1252", "decode_as": "UTF-8", "scope": "all"}]


def test_stdin_and_unrecoverable_exit_code(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("锟斤拷锟斤拷".encode())))
    code, out, err = _run(["repair", "-", "--explain"], capsysbinary)
    assert code == 1 and out == "锟斤拷锟斤拷" and "gone" in err


def test_non_utf8_input_is_a_usage_error(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    src = tmp_path / "in.txt"
    src.write_bytes(b"caf\xe9")
    code, _, err = _run(["repair", str(src)], capsysbinary)
    assert code == 2 and "mojifix decode" in err
