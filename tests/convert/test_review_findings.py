"""The findings of convert's last review, one test each (each fails on the code before its fix): the
declarations read once per file, one round-trip check for decisions, the BOM sniff of one module, one
set of fatal errnos, declarations relabelled in streamed files whatever the chunk size, a head sample
that never splits a UTF-16 character, a full disk while writing the manifest, and durable writes that
cost exactly one fsync per file (or one syncfs per batch where that keeps fsync's promise) and one per
directory."""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import stat
from pathlib import Path

import pytest
from conftest import FAKE, FR, ZH_HANS, write_tree

from mojifix import cli
from mojifix.convert import convert, declared, engine, fsio
from mojifix.convert.check import check_bytes
from mojifix.convert.decisions import Segment, check_reading, parse_decisions
from mojifix.convert.options import MANIFEST_NAME, Options
from mojifix.convert.stream import head_sample
from mojifix.convert.verify import examine
from mojifix.errors import ConversionError

PAGE = '<html><head><meta charset="iso-8859-1"><title>t</title></head><body>\n'


def _page(body_lines: int = 40, before: int = 0, codec: str = "cp1252") -> bytes:
    """A page (windows-1252 unless ``codec``) whose <meta> names iso-8859-1, ``before`` bytes of markup in."""
    pad = "<!-- " + "x" * max(before - 10, 0) + " -->\n" if before else ""
    return ("<html>" + pad + PAGE[6:] + FR * body_lines + "</body></html>\n").encode(codec)


def test_declarations_are_read_once_per_file(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = declared.declarations_of

    def counting(data: bytes) -> list:
        calls.append(len(data))
        return real(data)

    monkeypatch.setattr(declared, "declarations_of", counting)
    v = examine(_page(), Options(), engine.load_detector(FAKE))
    assert (v.outcome, v.encoding) == ("converted", "windows-1252")
    assert [r.old_label for r in v.declarations] == ["iso-8859-1"]
    assert len(calls) == 1  # gate, stale-declaration warnings and the conflict warning share one read


# RFC 1557: the designation ESC $ ) C once, at the start, before any SO; CPython's encoder writes it
# just before the first SO instead
_KR_TEXT = "Hello\n안녕하세요, 세계\n"
_KR_RFC = b"\x1b$)C" + _KR_TEXT.encode("iso2022_kr").replace(b"\x1b$)C", b"", 1)


def test_decision_readings_use_the_round_trip_check_of_convert() -> None:
    assert _KR_TEXT.encode("iso2022_kr") != _KR_RFC  # the header's place differs from CPython's
    assert check_reading(_KR_RFC, [Segment(len(_KR_RFC), "iso2022_kr")]) is None
    twice = _KR_RFC[:4] + _KR_RFC  # a second header is more than its place: not the same bytes
    assert "not lossless" in (check_reading(twice, [Segment(len(twice), "iso2022_kr")]) or "")


def test_a_decision_applies_to_an_rfc_1557_file(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {"kr.txt": _KR_RFC})
    sha1 = hashlib.sha1(_KR_RFC).hexdigest()
    decisions = parse_decisions([{"path": "kr.txt", "sha1": sha1, "encoding": "iso2022_kr"}])
    (rec,) = convert(src, tmp_path / "dst", detector=FAKE, decisions=decisions).records
    assert (rec.outcome, rec.decision, rec.encoding) == ("converted", "person", "iso2022_kr")
    assert (tmp_path / "dst/kr.txt").read_text("utf-8") == _KR_TEXT


def test_a_decision_keeps_the_bom_rule_of_the_standard(tmp_path: Path) -> None:
    data = b"\xff\xfe" + FR.encode("utf-16-le")
    decisions = parse_decisions(
        [{"path": "a.txt", "sha1": hashlib.sha1(data).hexdigest(), "encoding": "utf-16le"}]
    )
    src = write_tree(tmp_path / "src", {"a.txt": data})
    (rec,) = convert(src, tmp_path / "dst", detector=FAKE, decisions=decisions, bom="keep").records
    assert (rec.decision, rec.bom) == ("person", "UTF-16LE")
    assert (tmp_path / "dst/a.txt").read_bytes() == b"\xef\xbb\xbf" + FR.encode()


@pytest.mark.parametrize(
    ("data", "expect", "problem"),
    [
        (b"\xff\xfe\x00\x00" + "é".encode("utf-32-le"), "UTF-8", "utf-32-le (byte order mark), not UTF-8"),
        (b"\x00\x00\xfe\xff" + "é".encode("utf-32-be"), "UTF-8", "utf-32-be (byte order mark), not UTF-8"),
        (b"\xfe\xff" + "é".encode("utf-16-be"), "UTF-8", "UTF-16BE (byte order mark), not UTF-8"),
        (b"\xff\xfe" + "é".encode("utf-16-le"), "UTF-16LE", None),
        (b"\xff\xfe\x00\x00" + "é".encode("utf-32-le"), "utf-32-le", None),
    ],
)
def test_check_sniffs_boms_with_the_detectors_table(data: bytes, expect: str, problem: str | None) -> None:
    found = check_bytes("f", data, expect)
    assert (None if found is None else found.problem) == problem  # type: ignore[union-attr]


def test_the_cli_and_convert_stop_on_the_same_errnos(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard output failing with any errno that stops a run (EROFS too) is silenced, not retried."""
    silenced = []
    monkeypatch.setattr(cli, "_silence_stdout", lambda: silenced.append(True))
    for code in sorted(fsio.FATAL_ERRNOS):

        def failing(_argv: object, code: int = code) -> int:
            raise OSError(code, os.strerror(code))

        monkeypatch.setattr(cli, "_run", failing)
        assert cli.main([]) == 2
    assert len(silenced) == len(fsio.FATAL_ERRNOS)
    assert fsio.is_fatal(OSError(errno.EROFS, "read-only")) and not fsio.is_fatal(OSError(errno.EACCES, "x"))


@pytest.mark.parametrize("chunk_size", [1, 3, 7, 64, 333])
@pytest.mark.parametrize("before", [0, 100, 700])
@pytest.mark.parametrize("codec", ["cp1252", "utf-8"])
def test_streamed_files_relabel_declarations_at_any_chunk_size(
    tmp_path: Path, chunk_size: int, before: int, codec: str
) -> None:
    """The declaration straddles chunks, or lies beyond the first one (or the file is UTF-8, whose
    wrong label goes as in memory): the streamed output and its record are the in-memory path's."""
    data = _page(30, before, codec)
    src = write_tree(tmp_path / "src", {"p.html": data})
    (whole,) = convert(src, tmp_path / "whole", detector=FAKE).records
    opts = {"stream_threshold": 256, "chunk_size": chunk_size}
    (streamed,) = convert(src, tmp_path / "streamed", detector=FAKE, **opts).records
    assert any("streamed" in w for w in streamed.warnings)
    assert [r.old_label for r in whole.declarations] == ["iso-8859-1"]
    assert streamed.declarations == whole.declarations
    assert [w for w in streamed.warnings if "streamed" not in w] == list(whole.warnings)
    assert (tmp_path / "streamed/p.html").read_bytes() == (tmp_path / "whole/p.html").read_bytes()
    assert b'charset="utf-8"' in (tmp_path / "whole/p.html").read_bytes()


@pytest.mark.parametrize("encoding", ["UTF-16LE", "UTF-16BE"])
def test_the_head_sample_never_splits_a_utf16_character(encoding: str) -> None:
    codec = encoding.lower().replace("utf-16", "utf-16-")
    # U+4E0A (上) holds byte 0A in either byte order, and 𠮷 is a surrogate pair
    text = ("上海的早上很冷。\n" * 5) + "上𠮷上"
    data = text.encode(codec)
    for cut in range(len(data) - 8, len(data)):
        sample = head_sample(data[:cut], False, encoding, 0)
        assert sample.decode(codec)  # strict: no half unit, no lone high surrogate
        assert len(data[:cut]) - len(sample) <= 3
    bom = b"\xff\xfe" if encoding == "UTF-16LE" else b"\xfe\xff"
    sample = head_sample(bom + data[:-3], False, encoding, 2)  # ...ends inside 𠮷: its pair is cut
    assert sample[2:].decode(codec).endswith("上")


def test_the_head_sample_of_8_bit_text_ends_at_a_line_end() -> None:
    data = (ZH_HANS * 3).encode("gbk")
    assert head_sample(data[:-5], False, "GBK", 0).endswith(b"\n")
    assert head_sample(data[:-5], True, "GBK", 0) == data[:-5]


class _FullDisk(io.BufferedWriter):
    """A manifest log whose flushes fail with ENOSPC after ``lines`` lines (the disk fills up)."""

    lines = 0

    def flush(self) -> None:
        if type(self).lines <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        type(self).lines -= 1
        super().flush()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self.raw.close()


def _bulk(root: Path, n: int) -> Path:
    return write_tree(root, {f"d{i % 3}/f{i:03d}.txt": (FR * (1 + i % 4)).encode("cp1252") for i in range(n)})


def test_a_full_disk_while_writing_the_manifest_raises_the_projects_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = _bulk(tmp_path / "src", 100)  # two batches
    dst = tmp_path / "dst"
    real_open = open

    def opening(path: object, mode: str = "r", *a: object, **kw: object) -> object:
        if isinstance(path, bytes) and path.endswith(MANIFEST_NAME.encode()) and "r" not in mode:
            return _FullDisk(real_open(path, mode, buffering=0), buffer_size=1 << 20)  # type: ignore[call-overload]
        return real_open(path, mode, *a, **kw)  # type: ignore[call-overload]

    _FullDisk.lines = 70  # the disk fills up in the second batch
    monkeypatch.setattr(engine, "open", opening, raising=False)
    with pytest.raises(ConversionError) as caught:
        convert(src, dst, detector=FAKE)
    exc = caught.value
    assert isinstance(exc, engine.ManifestWriteError)
    message = str(exc)
    assert MANIFEST_NAME in message and "No space left on device" in message and "--resume" in message
    assert len(exc.report.records) >= 70  # nothing the run did is lost to the caller
    monkeypatch.undo()
    lines = (dst / MANIFEST_NAME).read_bytes().splitlines()
    assert len(lines) == 70  # the lines written before the disk filled up stay
    for line in lines:
        rec = json.loads(line)
        assert (dst / rec["output"]).read_bytes() == (src / rec["path"]).read_bytes().decode(
            "cp1252"
        ).encode()
    again = convert(src, dst, detector=FAKE, resume=True)
    assert again.exit_code == 0 and again.resumed >= 70
    assert len((dst / MANIFEST_NAME).read_bytes().splitlines()) == 100


def test_the_cli_reports_a_full_disk_on_the_manifest_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _bulk(tmp_path / "src", 10)
    real_open = open

    def opening(path: object, mode: str = "r", *a: object, **kw: object) -> object:
        if isinstance(path, bytes) and path.endswith(MANIFEST_NAME.encode()) and "r" not in mode:
            return _FullDisk(real_open(path, mode, buffering=0), buffer_size=1 << 20)  # type: ignore[call-overload]
        return real_open(path, mode, *a, **kw)  # type: ignore[call-overload]

    _FullDisk.lines = 3
    monkeypatch.setattr(engine, "open", opening, raising=False)
    monkeypatch.setattr("mojifix.convert.options.DEFAULT_DETECTOR", FAKE)
    assert cli.main(["convert", str(src), str(tmp_path / "dst")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mojifix: error: ") and "No space left on device" in err[0]


def _fd_path(fd: int) -> str:
    return os.readlink(f"/proc/self/fd/{fd}")


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name what is fsynced")
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("policy", ["fsync", "syncfs"])
def test_durable_writes_cost_one_sync_per_file_or_batch_and_one_per_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int, policy: str
) -> None:
    """Every output is made durable before its rename, and every directory after its last rename: by one
    fsync per file, or (``syncfs``) one syncfs per batch of temporary files, before any of its renames,
    and then an fsync only for the manifest (written alone, not in a batch)."""
    files = {f"d{i % 3}/f{i:03d}.txt": (FR * 2).encode("cp1252") for i in range(90)}
    files["d0/mixed.txt"] = (ZH_HANS * 2).encode() + (FR * 2).encode("cp1252")  # quarantined: 2 files
    src = write_tree(tmp_path / "src", files)
    dst = tmp_path / "dst"
    log = tmp_path / "fsync.log"  # worker processes append here too
    real_fsync, real_rename = os.fsync, os.rename

    def note(line: str) -> None:
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {line}\n")

    def fsync(fd: int) -> None:
        kind = "dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        note(f"fsync {kind} {_fd_path(fd)}")
        real_fsync(fd)

    def syncfs(fd: int) -> None:
        note(f"syncfs {_fd_path(fd)}")
        os.sync()  # what syncfs does, for every file system (this test's tmp_path may not be ext4)

    def rename(a: object, b: object) -> None:
        real_rename(a, b)  # type: ignore[arg-type]
        note(f"rename {os.fsdecode(b)}")  # type: ignore[arg-type]

    monkeypatch.setattr(fsio, "batch_syncfs_usable", lambda device: policy == "syncfs")
    monkeypatch.setattr(fsio, "syncfs", syncfs)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "rename", rename)
    report = convert(src, dst, detector=FAKE, workers=workers)
    monkeypatch.undo()
    assert report.count("quarantined") == 1
    logged = [line.split(" ", 1) for line in log.read_text().splitlines()]
    events = [e for _pid, e in logged]
    renamed = [e.split(" ", 1)[1] for e in events if e.startswith("rename ")]
    file_syncs = [e.split(" ", 2)[2] for e in events if e.startswith("fsync file ")]
    dir_syncs = [e.split(" ", 2)[2] for e in events if e.startswith("fsync dir ")]
    outputs = [str(p) for p in dst.resolve().rglob("*") if p.is_file()]
    manifest = str((dst / MANIFEST_NAME).resolve())
    assert sorted(renamed) == sorted(outputs)  # every output (and the manifest) renamed once
    if policy == "fsync":
        assert len(file_syncs) == len(outputs)  # ...and fsynced once, no more
        assert not any(e.startswith("syncfs ") for e in events)
    else:
        temp_manifest = os.path.join(str(dst.resolve()), "." + MANIFEST_NAME)  # ".NAME.mojifix-tmp-PID"
        assert len(file_syncs) == 1 and file_syncs[0].startswith(temp_manifest)
        assert sum(e.startswith("syncfs ") for e in events) == 2  # 92 outputs: two batches of at most 64
        for pid in {pid for pid, _ in logged}:  # in each process, a batch's syncfs precedes its renames
            mine = [e for p, e in logged if p == pid and e.startswith(("syncfs ", "rename "))]
            assert not mine or mine[0].startswith("syncfs ") or mine == [f"rename {manifest}"]
    assert sorted(dir_syncs) == sorted({os.path.dirname(p) for p in outputs})  # each directory once
    for d in dir_syncs:  # after the last rename into it
        last_rename = max(
            i for i, e in enumerate(events) if e.startswith("rename ") and os.path.dirname(e[7:]) == d
        )
        assert events.index(f"fsync dir {d}") > last_rename


def test_a_failed_syncfs_stops_the_run_before_any_rename_of_its_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """syncfs reports a write-back error (EIO): the batch's temporary files are removed, none renamed,
    and the run stops with the project's fatal error (exit code 2)."""
    src = _bulk(tmp_path / "src", 30)
    dst = tmp_path / "dst"

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(fsio, "batch_syncfs_usable", lambda device: True)
    monkeypatch.setattr(fsio, "syncfs", failing)
    report = convert(src, dst, detector=FAKE)
    assert report.exit_code == 2 and report.fatal and "Input/output error" in report.fatal
    assert [p.name for p in dst.rglob("*.txt*")] == []  # no output, no temporary file


@pytest.mark.skipif(fsio._libc_syncfs() is None, reason="syncfs(2) needs Linux >= 5.8")
def test_syncfs_is_the_kernels_call(tmp_path: Path) -> None:
    """The real syncfs: 0 on an open file; EBADF, as an OSError, on a closed descriptor."""
    fd = os.open(tmp_path / "f", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.write(fd, b"x")
        fsio.syncfs(fd)
    finally:
        os.close(fd)
    with pytest.raises(OSError) as err:
        fsio.syncfs(fd)
    assert err.value.errno == errno.EBADF


def test_file_system_type_names_the_mount(tmp_path: Path) -> None:
    """The type of the file system of a directory, as the mount table gives it (None without /proc)."""
    kind = fsio.file_system_type(os.stat(tmp_path).st_dev)
    if not os.path.exists("/proc/self/mountinfo"):
        assert kind is None
    else:
        with open("/proc/self/mountinfo") as f:
            assert kind is None or any(f" - {kind} " in line for line in f)


def test_no_fsync_means_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = _bulk(tmp_path / "src", 10)
    calls = []
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(fd))
    assert convert(src, tmp_path / "dst", detector=FAKE, fsync=False).exit_code == 0
    assert calls == []


def test_a_commit_group_keeps_few_files_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past GROUP_OPEN_FILES the oldest temporary files are fsynced and closed at once; the outputs
    and the fsync count stay the same."""
    src = _bulk(tmp_path / "src", 30)
    monkeypatch.setattr(fsio, "GROUP_OPEN_FILES", 2)
    monkeypatch.setattr(fsio, "batch_syncfs_usable", lambda device: False)  # one fsync per file
    most = []
    real_add = fsio.CommitGroup.add

    def add(self: fsio.CommitGroup, *args: object) -> None:
        real_add(self, *args)  # type: ignore[arg-type]
        most.append(self.open_files)

    monkeypatch.setattr(fsio.CommitGroup, "add", add)
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    report = convert(src, tmp_path / "dst", detector=FAKE)
    assert report.exit_code == 0 and max(most) == 2
    assert len(synced) == 30 + 1 + 4  # the outputs, the manifest, its 4 directories (dst, d0, d1, d2)
    for rec in report.records:
        assert (tmp_path / "dst" / rec.path).read_bytes() == (src / rec.path).read_bytes().decode(
            "cp1252"
        ).encode()


def test_a_full_disk_while_rewriting_the_manifest_keeps_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last step (the manifest rewritten in walk order) fails: the error is the project's, and the
    append-only log of the run stays whole for --resume."""
    src = _bulk(tmp_path / "src", 20)
    dst = tmp_path / "dst"
    real = fsio.atomic_write

    def failing(dest: bytes, *args: object, **kwargs: object) -> None:
        if dest.endswith(MANIFEST_NAME.encode()):
            raise OSError(errno.ENOSPC, "No space left on device", os.fsdecode(dest))
        real(dest, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(fsio, "atomic_write", failing)
    with pytest.raises(engine.ManifestWriteError, match=r"No space left on device.*--resume"):
        convert(src, dst, detector=FAKE)
    monkeypatch.undo()
    assert len((dst / MANIFEST_NAME).read_bytes().splitlines()) == 20
    again = convert(src, dst, detector=FAKE, resume=True)
    assert again.exit_code == 0 and again.resumed == 20


def pid_detector(data: bytes, **kw: object) -> object:
    """The stand-in detector, noting which process called it with which bytes."""
    log = os.environ.get("MOJIFIX_TEST_PID_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {hashlib.sha1(data).hexdigest()}\n")
    return engine.load_detector(FAKE)(data, **kw)


def test_workers_start_from_a_detector_the_parent_warmed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --workers the parent calls the detector once before the fork (the model is then loaded
    once and shared); every file is still detected in a worker."""
    log = tmp_path / "pids.log"
    monkeypatch.setenv("MOJIFIX_TEST_PID_LOG", str(log))
    src = _bulk(tmp_path / "src", 12)
    report = convert(src, tmp_path / "dst", detector="test_review_findings:pid_detector", workers=2)
    assert report.exit_code == 0
    calls = [line.split() for line in log.read_text().splitlines()]
    parent = [h for pid, h in calls if int(pid) == os.getpid()]
    assert parent == [hashlib.sha1(engine._WARM_UP).hexdigest()]
    assert len(calls) - 1 >= 12 and all(int(pid) != os.getpid() for pid, _ in calls[1:])
