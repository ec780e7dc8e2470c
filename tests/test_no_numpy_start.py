"""With the compiled core active, detection and the commands built on it never import NumPy.

NumPy costs a new process ~0.1 s to import (a CLI call, a Spark worker); the compiled path reads the
model's tables as buffers and needs none of it (docs/architecture.md, "NumPy off the compiled path").
Each job runs in a fresh interpreter with the compiled core on (``MOJIFIX_PURE_PYTHON`` removed from its
environment, so this holds in the suite's pure-Python run too), and fails naming the first importer.
The pure-Python reference keeps NumPy: one test shows the check can fail there.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: run in the child: record who imports NumPy first, run the job, report what it saw
CHILD = r"""
import json, sys, traceback
seen = {}

class Spy:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" and "by" not in seen:
            seen["by"] = "".join(traceback.format_stack(limit=12)[:-1])
        return None

sys.meta_path.insert(0, Spy())
job, arg = sys.argv[1], json.load(sys.stdin)
from mojifix import _native
if job == "detect":
    from mojifix import detect
    for name, hex_bytes in arg.items():
        found = detect(bytes.fromhex(hex_bytes))
        best = found.best()
        seen.setdefault("results", {})[name] = found.verdict if best is None else best.encoding
elif job == "decode_html":
    import mojifix
    seen["results"] = mojifix.decode_html(bytes.fromhex(arg), "text/html").encoding
else:
    from mojifix.cli import main
    seen["results"] = main(arg)
seen["not_built"] = _native.not_built()
seen["numpy"] = "numpy" in sys.modules
print(json.dumps(seen))
"""

#: one input of each kind the brief names: multi-byte, single-byte, CJK, UTF-16 without BOM, EBCDIC, binary
SAMPLES = {
    "UTF-8": "Le café déçu, naïve et crapaütée. Ça va ?".encode(),
    "windows-1252": "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë.".encode(
        "cp1252"
    ),
    "GBK": "中文编码检测测试，这是一个简单的句子，用来检测编码。".encode("gbk"),
    "UTF-16LE": "Hello world, this is UTF-16 text without a byte order mark.".encode("utf-16-le"),
    "cp037": "Hello world, this is EBCDIC text in a mainframe file.".encode("cp037"),
    "binary": bytes(range(256)) * 8,
    "Shift_JIS": "日本語のテキストです。文字化けしない。".encode("shift_jis"),
    "windows-1251": "Привет, это русский текст в кодировке Windows.".encode("cp1251"),
    # several 64 KB blocks: the histograms summed block by block, the sample cut by the compiled kernel
    "windows-1250": "Příliš žluťoučký kůň úpěl ďábelské ódy. Zażółć gęślą jaźń.\n".encode("cp1250") * 4000,
}
#: an undeclared legacy page: the sniffer falls back to the detector
PAGE = "<html><body><p>Съешь же ещё этих мягких французских булок, да выпей чаю.</p></body></html>".encode(
    "cp1251"
)


def _run(job: str, arg: object) -> dict:
    """The child's report for ``job`` (compiled core on: the pure-Python switch removed)."""
    env = {k: v for k, v in os.environ.items() if k != "MOJIFIX_PURE_PYTHON"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, job],
        input=json.dumps(arg),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    if report["not_built"]:
        if os.environ.get("CI") == "true":
            pytest.fail(
                f"compiled core not built on CI ({report['not_built']}): `pip install .` should build it"
            )
        pytest.skip(
            f"LOUD SKIP: compiled core not built ({', '.join(report['not_built'])}); nothing to check"
        )
    return report


def _no_numpy(report: dict) -> None:
    assert not report["numpy"], "NumPy was imported by:\n" + report.get("by", "?")


def test_detect_never_imports_numpy() -> None:
    report = _run("detect", {name: data.hex() for name, data in SAMPLES.items()})
    _no_numpy(report)
    got = report["results"]
    assert got["binary"] == "binary"
    for name in SAMPLES.keys() - {"binary"}:
        assert got[name] == name  # (each reached the stage it was meant to exercise)


def test_decode_html_of_an_undeclared_page_never_imports_numpy() -> None:
    report = _run("decode_html", PAGE.hex())
    _no_numpy(report)
    assert report["results"] == "windows-1251"


def test_detect_and_sniff_commands_never_import_numpy(tmp_path: Path) -> None:
    note, page = tmp_path / "note.txt", tmp_path / "page.html"
    note.write_bytes(SAMPLES["windows-1252"])
    page.write_bytes(PAGE)
    for argv in (["detect", str(note)], ["sniff", str(page)]):
        report = _run("cli", argv)
        _no_numpy(report)
        assert report["results"] == 0, argv


def test_convert_never_imports_numpy(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    for name, data in SAMPLES.items():
        if name != "binary":
            (tree / f"{name}.txt").write_bytes(data * 3)
    # UTF-16 of one byte order followed by the other: convert's mixed-file probes run on it
    flipped = "Grüße aus Köln.\n".encode("utf-16-le") * 20 + "Hello again.\n".encode("utf-16-be") * 20
    (tree / "flipped.txt").write_bytes(flipped)
    report = _run("cli", ["convert", str(tree), str(tmp_path / "out")])
    _no_numpy(report)
    assert report["results"] in (0, 1)  # (1: a file quarantined, which is not this test's business)
    assert any((tmp_path / "out").rglob("*.txt"))


def test_warc_never_imports_numpy(tmp_path: Path) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = tmp_path / "tiny.warc.gz"
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=True)
        for i, (body, content_type) in enumerate(
            [
                (PAGE, "text/html"),
                ("<p>Grüße</p>".encode(), "text/html; charset=utf-8"),
                (SAMPLES["GBK"], "text/html"),
            ]
        ):
            headers = StatusAndHeaders("200 OK", [("Content-Type", content_type)], protocol="HTTP/1.1")
            record = writer.create_warc_record(
                f"http://example.org/{i}",
                "response",
                payload=io.BytesIO(body),
                http_headers=headers,
            )
            writer.write_record(record)
    report = _run("cli", ["warc", "-q", str(path), "-o", str(tmp_path / "rows.jsonl")])
    _no_numpy(report)
    assert report["results"] == 0
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [row["encoding"] for row in rows] == ["windows-1251", "UTF-8", "GBK"]


def test_the_check_can_fail_on_the_pure_path() -> None:
    """The reference path imports NumPy: the child's report would show an importer that came back."""
    env = {**os.environ, "MOJIFIX_PURE_PYTHON": "1"}
    arg = json.dumps({"windows-1252": SAMPLES["windows-1252"].hex()})
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "detect"],
        input=arg,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["numpy"] and "mojifix" in report["by"]
