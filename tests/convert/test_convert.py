"""Whole runs of mojifix.convert: outcomes, manifest, resume, workers, in-place, dry run, names."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from conftest import FAKE, FR, ZH_HANS, tree_fingerprint, write_tree

import mojifix
from mojifix.convert import convert, scan
from mojifix.convert.options import MANIFEST_NAME

MANIFEST_KEYS = {
    "path",
    "size",
    "sha1",
    "outcome",
    "encoding",
    "confidence",
    "decision",
    "verification",
    "output",
    "output_sha1",
    "warnings",
}


def manifest_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def test_every_outcome_and_the_manifest(tmp_path: Path, sample_files: dict[str, bytes]) -> None:
    src = write_tree(tmp_path / "src", sample_files)
    (src / "link").symlink_to(src / "u8.txt")
    dst = tmp_path / "dst"
    report = convert(src, dst, detector=FAKE)
    by = {r.path: r for r in report.records}
    assert by["u8.txt"].outcome == "utf8" and (dst / "u8.txt").read_bytes() == sample_files["u8.txt"]
    assert by["bom.txt"].verification == "bom-stripped" and (dst / "bom.txt").read_bytes() == FR.encode()
    assert by["sub/gbk.txt"].outcome == "converted" and by["sub/gbk.txt"].lossless
    assert (dst / "sub/gbk.txt").read_text("utf-8") == ZH_HANS * 3
    assert (dst / "sub/deep/cp1252.txt").read_text("utf-8") == FR * 3
    assert by["u16.txt"].encoding == "UTF-16LE" and by["u16.txt"].decision == "bom"
    # binary: copied unchanged so the mirror is complete (not an error: exit code 0)
    assert by["bin.dat"].outcome == "copied" and by["bin.dat"].binary
    assert (dst / "bin.dat").read_bytes() == sample_files["bin.dat"]
    assert by["empty.txt"].outcome == "utf8" and (dst / "empty.txt").read_bytes() == b""
    assert by["link"].outcome == "skipped" and "symlink" in by["link"].reason and not (dst / "link").exists()
    lines = manifest_lines(dst / MANIFEST_NAME)
    assert len(lines) == len(by) == len({d["path"] for d in lines})
    for d in lines:
        assert d.keys() >= MANIFEST_KEYS
        data = (src / d["path"]).read_bytes() if d["outcome"] != "skipped" else None
        if data is not None:
            assert d["sha1"] == hashlib.sha1(data).hexdigest()
        if d["outcome"] in ("converted", "utf8", "copied"):
            assert d["output_sha1"] == hashlib.sha1((dst / d["output"]).read_bytes()).hexdigest()
    s = report.summary()
    assert s["total"] == 9 and s["converted"] == 4 and s["already_utf8"] == 3 and s["copied"] == 1
    assert s["skipped"] == 1  # the symlink
    assert s["lossless"] == 7 and report.exit_code == 0


def test_permissions_and_mtime_copied(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": (FR * 2).encode("cp1252")})
    os.chmod(src / "a.txt", 0o640)
    os.utime(src / "a.txt", ns=(1_000_000_000_000_000_000, 1_100_000_000_123_456_789))
    convert(src, tmp_path / "dst", detector=FAKE)
    st = os.stat(tmp_path / "dst/a.txt")
    assert (st.st_mode & 0o777, st.st_mtime_ns) == (0o640, 1_100_000_000_123_456_789)


def test_quarantine_with_reason_and_salvage(tmp_path: Path) -> None:
    head, tail = (ZH_HANS + FR).encode(), (FR * 2).encode("cp1252")
    src = write_tree(tmp_path / "src", {"mixed.txt": head + tail, "ok.txt": b"fine\n"})
    dst = tmp_path / "dst"
    report = convert(src, dst, detector=FAKE, salvage=True)
    rec = next(r for r in report.records if r.path == "mixed.txt")
    assert rec.outcome == "quarantined" and rec.mixed is not None and rec.mixed.boundary == len(head)
    assert not rec.lossless and report.exit_code == 1
    q = dst / "_quarantine"
    assert (q / "mixed.txt").read_bytes() == head + tail
    reason = json.loads((q / "mixed.txt.reason.json").read_text())
    assert reason["mixed"]["boundary"] == len(head) and reason["mixed"]["tail_encoding"] == "windows-1252"
    assert (q / "mixed.txt.salvaged").read_text("utf-8") == ZH_HANS + FR + FR * 2
    assert rec.salvaged == "_quarantine/mixed.txt.salvaged"
    assert not (dst / "mixed.txt").exists()


def test_dry_run_writes_nothing(tmp_path: Path, sample_files: dict[str, bytes]) -> None:
    src = write_tree(tmp_path / "src", sample_files)
    report = convert(src, tmp_path / "dst", detector=FAKE, dry_run=True)
    assert not (tmp_path / "dst").exists()
    assert report.summary()["converted"] == 4 and all(r.output is None for r in report.records)


def test_include_exclude(tmp_path: Path, sample_files: dict[str, bytes]) -> None:
    src = write_tree(tmp_path / "src", sample_files)
    report = convert(src, tmp_path / "dst", detector=FAKE, include=["*.txt"], exclude=["sub/deep/*"])
    by = {r.path: r for r in report.records}
    assert by["bin.dat"].reason == "excluded" and by["sub/deep/cp1252.txt"].reason == "excluded"
    assert by["sub/gbk.txt"].outcome == "converted"


def test_resume_skips_done_files_and_redoes_changed_ones(
    tmp_path: Path, sample_files: dict[str, bytes]
) -> None:
    src = write_tree(tmp_path / "src", sample_files)
    dst = tmp_path / "dst"
    first = convert(src, dst, detector=FAKE)
    again = convert(src, dst, detector=FAKE, resume=True)
    done = ("converted", "utf8", "copied", "quarantined")
    assert again.resumed == sum(1 for r in first.records if r.outcome in done)
    (src / "sub/gbk.txt").write_bytes(("改" + ZH_HANS).encode("gbk"))
    third = convert(src, dst, detector=FAKE, resume=True)
    assert third.resumed == again.resumed - 1
    assert (dst / "sub/gbk.txt").read_text() == "改" + ZH_HANS
    lines = manifest_lines(dst / MANIFEST_NAME)
    assert len(lines) == len({d["path"] for d in lines}) == len(first.records)


def test_nonempty_destination_refused_without_resume(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": b"x"})
    dst = write_tree(tmp_path / "dst", {"other": b"y"})
    with pytest.raises(mojifix.ConversionError, match="not empty"):
        convert(src, dst, detector=FAKE)


def test_workers_give_the_same_records(tmp_path: Path, sample_files: dict[str, bytes]) -> None:
    files = {f"{i}/{k}": v for i in range(6) for k, v in sample_files.items()}
    src = write_tree(tmp_path / "src", files)
    one = convert(src, tmp_path / "d1", detector=FAKE)
    two = convert(src, tmp_path / "d2", detector=FAKE, workers=2)
    assert [r.to_dict() for r in one.records] == [r.to_dict() for r in two.records]
    for r in one.records:
        if r.output:
            assert (tmp_path / "d1" / r.output).read_bytes() == (tmp_path / "d2" / r.output).read_bytes()


def test_in_place_keeps_every_original_in_the_backup(tmp_path: Path, sample_files: dict[str, bytes]) -> None:
    src = write_tree(tmp_path / "src", sample_files)
    backup = tmp_path / "backup"
    report = convert(src, in_place=True, backup_dir=backup, detector=FAKE)
    assert (src / "sub/gbk.txt").read_text("utf-8") == ZH_HANS * 3
    assert (backup / "sub/gbk.txt").read_bytes() == sample_files["sub/gbk.txt"]
    assert (src / "u8.txt").read_bytes() == sample_files["u8.txt"] and not (backup / "u8.txt").exists()
    assert (src / "bom.txt").read_bytes() == FR.encode() and (
        backup / "bom.txt"
    ).read_bytes() == sample_files["bom.txt"]
    assert (src / "bin.dat").read_bytes() == sample_files["bin.dat"]
    assert (backup / MANIFEST_NAME).exists() and report.exit_code == 0


def test_non_utf8_file_names(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    name = b"caf\xe9.txt"
    with open(os.path.join(os.fsencode(src), name), "wb") as f:
        f.write((FR * 2).encode("cp1252"))
    report = convert(src, tmp_path / "dst", detector=FAKE)
    rec = report.records[0]
    assert rec.path == "caf\\xe9.txt" and rec.path_hex == name.hex() and rec.outcome == "converted"
    assert any("not valid UTF-8" in w for w in rec.warnings)
    assert os.path.exists(os.path.join(os.fsencode(tmp_path / "dst"), name))  # name kept as is
    json.loads((tmp_path / "dst" / MANIFEST_NAME).read_text("utf-8"))  # the manifest stays valid UTF-8 JSON
    renamed = convert(src, tmp_path / "dst2", detector=FAKE, names_encoding="latin1")
    assert renamed.records[0].output == "café.txt" and (tmp_path / "dst2/café.txt").exists()


def test_scan_inventory(tmp_path: Path, sample_files: dict[str, bytes]) -> None:
    src = write_tree(tmp_path / "src", sample_files)
    before = tree_fingerprint(src)
    report = scan(src, detector=FAKE)
    assert tree_fingerprint(src) == before
    by = {r.path: r for r in report.records}
    assert by["sub/gbk.txt"].encoding == "GBK" and by["sub/gbk.txt"].line_endings == "LF"
    assert by["u16.txt"].bom == "UTF-16LE" and by["bin.dat"].binary
    dist = report.distribution()
    assert dist["GBK"] == {"files": 1, "bytes": len(sample_files["sub/gbk.txt"])}
    single = scan(src / "sub/big5.txt", detector=FAKE)
    assert single.records[0].encoding == "Big5"


def test_public_callable_module(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": b"abc"})
    assert mojifix.convert(src, tmp_path / "dst", detector=FAKE).exit_code == 0


def test_streaming_path_outcomes_and_resume(tmp_path: Path) -> None:
    gbk = (ZH_HANS * 40).encode("gbk")
    bad = (FR * 30).encode() + b"\xff\xfe\xfd" + (FR * 30).encode()
    bom16 = b"\xff\xfe" + (FR * 30).encode("utf-16-le")
    src = write_tree(tmp_path / "src", {"gbk.txt": gbk, "bad.txt": bad, "u16.txt": bom16})
    dst = tmp_path / "dst"
    # tiny threshold and chunks: every file takes the streaming path, characters straddle chunks
    opts = {"detector": FAKE, "stream_threshold": 1024, "chunk_size": 333}
    report = convert(src, dst, **opts)
    by = {r.path: r for r in report.records}
    assert all(any("streamed" in w for w in r.warnings) for r in report.records)
    assert (by["gbk.txt"].outcome, by["gbk.txt"].verification) == ("converted", "lossless")
    assert (dst / "gbk.txt").read_text("utf-8") == ZH_HANS * 40
    assert by["gbk.txt"].output_sha1 == hashlib.sha1((ZH_HANS * 40).encode()).hexdigest()
    assert by["u16.txt"].encoding == "UTF-16LE" and (dst / "u16.txt").read_text("utf-8") == FR * 30
    assert by["bad.txt"].outcome == "quarantined" and (dst / "_quarantine/bad.txt").read_bytes() == bad
    again = convert(src, dst, resume=True, **opts)
    assert again.resumed == 3


hz_detector = __import__("test_verify").fixed(("hz", 0.99))


def test_streamed_hz_goes_to_the_detector_like_in_memory(tmp_path: Path) -> None:
    """7-bit HZ text is valid ASCII: only its "~{" + GB pairs say it is not, in any chunk."""
    text = "中文的测试文件。\n" * 300
    src = write_tree(tmp_path / "src", {"hz.txt": text.encode("hz")})
    (rec,) = convert(src, tmp_path / "dst", detector="test_convert:hz_detector").records
    assert (rec.outcome, rec.encoding) == ("converted", "hz") and (
        tmp_path / "dst/hz.txt"
    ).read_text() == text
    opts = {"stream_threshold": 1024, "chunk_size": 333}
    (rec,) = convert(src, tmp_path / "dst2", detector="test_convert:hz_detector", **opts).records
    # never "utf8" (written as the ASCII bytes); streamed stateful encodings re-encode chunk by chunk,
    # so the known limit applies: non-canonical, quarantined
    assert (rec.outcome, rec.encoding, rec.verification) == ("quarantined", "hz", "noncanonical")
