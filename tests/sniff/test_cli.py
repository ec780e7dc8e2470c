"""``mojifix sniff``: output, JSON, --text-out, and the documented exit codes."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from mojifix.cli import main

RU_1251 = "Привет, мир".encode("cp1251")


def _write(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "page.html"
    path.write_bytes(data)
    return str(path)


def test_clean_page_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sniff", _write(tmp_path, b"<meta charset=windows-1251><p>" + RU_1251)])
    out = capsys.readouterr().out
    assert code == 0
    assert "windows-1251" in out and "meta" in out and "<meta charset> at byte 0" in out


def test_warnings_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = _write(tmp_path, b"<meta charset=koi8-r><p>" + RU_1251)
    code = main(["sniff", page, "--content-type", "text/html; charset=windows-1251"])
    out = capsys.readouterr().out
    assert code == 1
    assert "header-meta-conflict" in out


def test_json_and_text_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = _write(tmp_path, b"<p>" + RU_1251)
    text_out = tmp_path / "out.txt"
    code = main(["sniff", page, "--url", "http://example.ru/", "--fallback", "browser", "--json",
                 "--text-out", str(text_out)])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["encoding"] == data["browser_encoding"]
    assert text_out.read_text("utf-8") == data["text"]


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf<p>hi</p>")))
    code = main(["sniff", "-", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert (code, data["source"], data["text"]) == (0, "bom", "<p>hi</p>")


def test_several_content_types(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = _write(tmp_path, RU_1251)
    args = ["sniff", page, "--content-type", "text/html; charset=windows-1251", "--content-type", "text/html"]
    code = main([*args, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert (code, data["encoding"], data["label_origin"]) == (
        0,
        "windows-1251",
        "Content-Type header (value 1 of 2)",
    )


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sniff", str(tmp_path / "missing.html")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["sniff", _write(tmp_path, b"x"), "--override", "no-such-label"]) == 2
    assert "not an encoding label" in capsys.readouterr().err
    assert main(["sniff"]) == 2
    assert main(["sniff", "x", "--fallback", "guess"]) == 2


def test_trust_evidence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = _write(tmp_path, "<p>Вчера вечером мы долго гуляли по набережной</p>".encode())
    assert main(["sniff", page, "--content-type", "text/html; charset=windows-1251", "--json"]) == 1
    browser = json.loads(capsys.readouterr().out)
    assert browser["encoding"] == "windows-1251"  # the browser follows the label (exit 1: suspect)
    code = main(
        ["sniff", page, "--content-type", "text/html; charset=windows-1251", "--trust", "evidence", "--json"]
    )
    result = json.loads(capsys.readouterr().out)
    assert code == 1  # the override is itself a finding
    assert (result["encoding"], result["source"]) == ("UTF-8", "evidence")
    assert "Вчера" in result["text"]
    assert result["warnings"][-1]["code"] == "declaration-overridden"
    assert result["browser_encoding"] == "windows-1251"
