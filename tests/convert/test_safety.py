"""The safety list of issue 5, one test each: SRC untouched, unsafe layouts refused, symlinks and special
files never followed or opened, unreadable files reported, disk full and kill -9 leave no partial
output and --resume finishes, non-UTF-8 names, huge files in bounded memory."""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import FAKE, FR, HERE, ZH_HANS, tree_fingerprint, write_tree

from mojifix.cli import main
from mojifix.convert import convert, fsio
from mojifix.convert.options import MANIFEST_NAME
from mojifix.errors import UnsafePathError

REPO_SRC = str(HERE.parent.parent / "src")


@pytest.fixture
def alarm():
    """Fail (instead of hanging forever) if a run blocks, e.g. on a FIFO."""

    def on_alarm(*_: object) -> None:
        raise TimeoutError("convert blocked")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def mixed_tree(root: Path, sample_files: dict[str, bytes]) -> Path:
    files = dict(sample_files)
    files["sub/mixed.txt"] = (ZH_HANS + FR).encode() + (FR * 2).encode("cp1252")
    files["amb.txt"] = b"\xb0\xa1"
    return write_tree(root, files)


@pytest.mark.parametrize("workers", [1, 2])
def test_source_tree_identical_after_a_run(
    tmp_path: Path, sample_files: dict[str, bytes], workers: int
) -> None:
    src = mixed_tree(tmp_path / "src", sample_files)
    (src / "link").symlink_to(tmp_path)
    before = tree_fingerprint(src)
    report = convert(src, tmp_path / "dst", detector=FAKE, salvage=True, workers=workers)
    assert report.count("quarantined") >= 1
    assert tree_fingerprint(src) == before
    convert(src, tmp_path / "dst", detector=FAKE, resume=True, workers=workers)
    assert tree_fingerprint(src) == before


@pytest.mark.parametrize(
    "layout",
    ["dst-inside-src", "src-inside-dst", "same", "backup-inside-src", "manifest-inside-src"],
)
def test_unsafe_layouts_refused(tmp_path: Path, layout: str) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": b"abc"})
    before = tree_fingerprint(tmp_path)
    with pytest.raises(UnsafePathError):
        if layout == "dst-inside-src":
            convert(src, src / "out", detector=FAKE)
        elif layout == "src-inside-dst":
            convert(src, tmp_path, detector=FAKE, resume=True)
        elif layout == "same":
            convert(src, tmp_path / "src/./", detector=FAKE)
        elif layout == "backup-inside-src":
            convert(src, in_place=True, backup_dir=src / "bk", detector=FAKE)
        else:
            convert(src, tmp_path / "dst", manifest=src / "m.jsonl", detector=FAKE)
    assert tree_fingerprint(tmp_path) == before


def test_unsafe_layout_is_exit_2_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": b"abc"})
    assert main(["convert", str(src), str(src / "out")]) == 2
    assert "inside SRC" in capsys.readouterr().err
    assert not (src / "out").exists()


def test_symlinks_not_followed_out_of_src(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"secret.txt": (FR * 2).encode("cp1252")})
    src = write_tree(tmp_path / "src", {"a.txt": b"abc"})
    (src / "to-file").symlink_to(outside / "secret.txt")
    (src / "to-dir").symlink_to(outside)
    (src / "dangling").symlink_to(tmp_path / "nope")
    before = tree_fingerprint(outside)
    report = convert(src, tmp_path / "dst", detector=FAKE)
    by = {r.path: r for r in report.records}
    for name in ("to-file", "to-dir", "dangling"):
        assert by[name].outcome == "skipped" and "not followed" in by[name].reason
    assert set(by) == {"a.txt", "to-file", "to-dir", "dangling"}  # nothing walked through to-dir
    assert tree_fingerprint(outside) == before
    assert sorted(os.listdir(tmp_path / "dst")) == ["a.txt", MANIFEST_NAME]


def test_fifo_socket_and_device_skipped_without_hanging(tmp_path: Path, alarm: None) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": b"abc"})
    os.mkfifo(src / "fifo")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(src / "sock"))
    expected = {"fifo": "FIFO", "sock": "socket"}
    try:
        os.mknod(src / "null", 0o600 | 0o020000, os.makedev(1, 3))
        expected["null"] = "character device"
    except (PermissionError, OSError):
        pass  # no CAP_MKNOD here; FIFO and socket still cover special files
    try:
        report = convert(src, tmp_path / "dst", detector=FAKE)
    finally:
        sock.close()
    by = {r.path: r for r in report.records}
    for name, kind in expected.items():
        assert by[name].outcome == "skipped" and kind in by[name].reason
    assert report.exit_code == 0


def test_fifo_swapped_in_after_the_walk_is_not_opened_blocking(tmp_path: Path, alarm: None) -> None:
    os.mkfifo(tmp_path / "f")
    with pytest.raises(fsio.NotRegularFile):
        fsio.read_source(os.fsencode(tmp_path / "f"))


def test_unreadable_file_is_an_error_not_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = write_tree(tmp_path / "src", {"a.txt": b"abc", "locked.txt": b"secret"})
    real = fsio._open_noatime

    def deny(path: bytes, flags: int) -> int:  # running as root: chmod 000 would not stop reads
        if path.endswith(b"locked.txt"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
        return real(path, flags)

    monkeypatch.setattr(fsio, "_open_noatime", deny)
    report = convert(src, tmp_path / "dst", detector=FAKE)
    by = {r.path: r for r in report.records}
    assert by["locked.txt"].outcome == "error" and "Permission denied" in by["locked.txt"].reason
    assert by["a.txt"].outcome == "utf8" and report.exit_code == 1


def _temps(root: Path) -> list[str]:
    return [n for _, _, files in os.walk(root) for n in files if ".mojifix-tmp-" in n]


def _expected_outputs(src: Path) -> dict[str, bytes]:
    out = {}
    for p in src.rglob("*.txt"):
        rel = str(p.relative_to(src))
        out[rel] = p.read_bytes().decode("cp1252" if rel.startswith("w") else "utf-8").encode()
    return out


def _bulk_tree(root: Path, n: int) -> Path:
    files = {}
    for i in range(n):
        files[f"w{i:03d}.txt"] = (FR * (1 + i % 5)).encode("cp1252")
        files[f"u{i:03d}.txt"] = (ZH_HANS * (1 + i % 3)).encode()
    return write_tree(root, files)


def test_disk_full_leaves_no_partial_output_and_resume_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = _bulk_tree(tmp_path / "src", 20)
    dst = tmp_path / "dst"
    real_write = fsio.AtomicWriter.write
    state = {"n": 0}

    def failing_write(self: fsio.AtomicWriter, data: bytes | memoryview) -> None:
        state["n"] += 1
        if state["n"] == 15:
            real_write(self, bytes(data)[: len(data) // 2])  # half written, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(self, data)

    monkeypatch.setattr(fsio.AtomicWriter, "write", failing_write)
    report = convert(src, dst, detector=FAKE)
    assert report.fatal and "No space left" in report.fatal and report.exit_code == 2
    assert _temps(dst) == []
    expected = _expected_outputs(src)
    written = [p for p in expected if (dst / p).exists()]
    assert 0 < len(written) < len(expected)
    for p in written:
        assert (dst / p).read_bytes() == expected[p]  # every present output is complete
    monkeypatch.setattr(fsio.AtomicWriter, "write", real_write)
    again = convert(src, dst, detector=FAKE, resume=True)
    assert again.exit_code == 0 and again.resumed == len(written)
    lines = [json.loads(x) for x in (dst / MANIFEST_NAME).read_bytes().splitlines()]
    assert sorted(d["path"] for d in lines) == sorted(expected)
    for p, data in expected.items():
        assert (dst / p).read_bytes() == data


def test_failed_group_commit_reports_only_committed_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One worker commits batch k in the background while it examines batch k+1: when the second
    commit fails, the first batch's records are in the manifest and nothing of the second is."""
    src = _bulk_tree(tmp_path / "src", 50)  # 100 files: two batches of at most 64
    dst = tmp_path / "dst"
    real_commit = fsio.CommitGroup.commit
    calls = {"n": 0}

    def failing_commit(self: fsio.CommitGroup) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_commit(self)

    monkeypatch.setattr(fsio.CommitGroup, "commit", failing_commit)
    report = convert(src, dst, detector=FAKE)
    assert report.fatal and report.fatal.startswith("committing outputs") and report.exit_code == 2
    assert _temps(dst) == []
    expected = _expected_outputs(src)
    lines = [json.loads(x) for x in (dst / MANIFEST_NAME).read_bytes().splitlines()]
    named = {d["path"] for d in lines}
    present = {p for p in expected if (dst / p).exists()}
    assert named == present and 0 < len(present) < len(expected)
    for p in present:
        assert (dst / p).read_bytes() == expected[p]
    monkeypatch.setattr(fsio.CommitGroup, "commit", real_commit)
    again = convert(src, dst, detector=FAKE, resume=True)
    assert again.exit_code == 0 and again.resumed == len(present)
    for p, data in expected.items():
        assert (dst / p).read_bytes() == data


def test_an_exception_while_reporting_leaves_no_temporary_files(tmp_path: Path) -> None:
    """A progress callback that raises (in the commit thread, while batch 2 is being examined): the
    exception reaches the caller, and batch 2's temporary files are removed, not left behind."""
    src = _bulk_tree(tmp_path / "src", 50)  # 100 files: two batches
    dst = tmp_path / "dst"

    def boom(_record: object) -> None:
        raise RuntimeError("progress display failed")

    with pytest.raises(RuntimeError, match="progress display failed"):
        convert(src, dst, detector=FAKE, progress=boom)
    assert _temps(dst) == []


def test_kill_9_mid_run_then_resume(tmp_path: Path) -> None:
    src = _bulk_tree(tmp_path / "src", 40)
    dst = tmp_path / "dst"
    script = textwrap.dedent(f"""
        import sys, time
        sys.path[:0] = [{REPO_SRC!r}, {str(HERE)!r}]
        import fakedetect
        slow = fakedetect.detect
        def detect(data, **kw):
            time.sleep(0.02)
            return slow(data, **kw)
        fakedetect.detect = detect
        from mojifix.convert import convert
        convert({str(src)!r}, {str(dst)!r}, detector="fakedetect:detect")
    """)
    proc = subprocess.Popen([sys.executable, "-c", script])
    manifest = dst / MANIFEST_NAME
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if manifest.exists() and manifest.read_bytes().count(b"\n") >= 10:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    expected = _expected_outputs(src)
    present = [p for p in expected if (dst / p).exists()]
    assert 0 < len(present) < len(expected), "the run should have been killed part-way"
    for p in present:
        assert (dst / p).read_bytes() == expected[p]  # no partial output under a final name
    report = convert(src, dst, detector=FAKE, resume=True)
    assert report.exit_code == 0 and report.resumed >= 10
    assert _temps(dst) == []
    lines = [json.loads(x) for x in manifest.read_bytes().splitlines()]
    assert sorted(d["path"] for d in lines) == sorted(expected)  # one line per file, no duplicates
    for p, data in expected.items():
        assert (dst / p).read_bytes() == data


@pytest.mark.slow
def test_large_file_streams_in_bounded_memory(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    line = (FR * 4).encode("cp1252")
    size = 80 * 1024 * 1024
    with open(src / "big.txt", "wb") as f:
        block = line * (1024 * 1024 // len(line) + 1)
        written = 0
        while written < size:
            f.write(block)
            written += len(block)
    script = textwrap.dedent(f"""
        import resource, sys, json
        sys.path[:0] = [{REPO_SRC!r}, {str(HERE)!r}]
        from mojifix.convert import convert
        import fakedetect  # noqa: F401
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        r = convert({str(src)!r}, {str(tmp_path / "dst")!r}, detector="fakedetect:detect",
                    stream_threshold=8 * 1024 * 1024)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(json.dumps({{"base_kb": base, "peak_kb": peak, "rec": r.records[0].to_dict()}}))
    """)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=600
    )
    res = json.loads(out.stdout)
    rec = res["rec"]
    assert rec["outcome"] == "converted" and rec["verification"] == "lossless"
    assert any("streamed" in w for w in rec["warnings"])
    growth_mb = (res["peak_kb"] - res["base_kb"]) / 1024
    assert growth_mb < 40, f"memory grew by {growth_mb:.0f} MB for an {written >> 20} MB file"
    dst = tmp_path / "dst/big.txt"
    assert dst.stat().st_size > written  # the UTF-8 text is longer (accents take two bytes)
    with open(dst, "rb") as f:
        expected = (FR * 12).encode()
        assert f.read(len(expected)) == expected
