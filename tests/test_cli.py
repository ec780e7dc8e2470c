import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mojifix import _native, cli
from mojifix.cli import main

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def test_help_exits_zero(capsys):
    assert main(["--help"]) == 0
    assert "usage: mojifix" in capsys.readouterr().out


def test_no_command_is_usage_error(capsys):
    assert main([]) == 2


def test_unknown_label_is_exit_2(tmp_path, capsys):
    f = tmp_path / "x.txt"
    f.write_bytes(b"abc")
    assert main(["decode", str(f), "-e", "no-such-label"]) == 2
    assert "no-such-label" in capsys.readouterr().err


# ---- first run as a user: version, python -m, missing extras, plain tables, signals, full disk ------


def _run(*args, **kwargs):
    """``python -m mojifix ARGS`` in a subprocess (the real process: exit code, both streams)."""
    return subprocess.run([sys.executable, "-m", "mojifix", *args], capture_output=True, **kwargs)


def test_version_names_the_compiled_core_status(capsys):
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"mojifix {cli.__version__} ")
    assert _native.status() in out.splitlines()


def test_python_dash_m_runs_the_cli():
    proc = _run("--version")
    assert proc.returncode == 0
    assert b"compiled core:" in proc.stdout


def test_warc_without_its_extra_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "fastwarc", None)  # what an install without [warc] looks like
    warc = tmp_path / "a.warc"
    warc.write_bytes(b"WARC/1.0\r\n\r\n")
    out = tmp_path / "out.jsonl"
    assert main(["warc", str(warc), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "mojifix: error: mojifix warc needs the optional package 'fastwarc': pip install 'mojifix[warc]'"
    ]
    assert not out.exists()


def test_parquet_output_needs_pyarrow_named(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    warc = tmp_path / "a.warc"
    warc.write_bytes(b"")
    assert main(["warc", str(warc), "-o", str(tmp_path / "o.parquet")]) == 2
    assert "'pyarrow': pip install 'mojifix[warc]'" in capsys.readouterr().err


def test_a_missing_module_raised_inside_a_command_names_its_extra(monkeypatch, capsys):
    def needs_scrapy(args):
        raise ModuleNotFoundError("No module named 'scrapy.http'", name="scrapy.http")

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    parser.set_defaults(func=needs_scrapy)
    assert main([]) == 2
    assert "pip install 'mojifix[scrapy]'" in capsys.readouterr().err


def test_a_missing_core_module_says_reinstall():
    exc = ModuleNotFoundError("No module named 'numpy'", name="numpy")
    assert "pip install --force-reinstall mojifix" in cli._missing_module_message(exc)


def _tree(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_bytes("Café crème, déjà vu, à la façon".encode("cp1252"))
    (src / "b.txt").write_bytes(b"plain\n")
    return src


def test_scan_and_convert_print_plain_tables_without_rich(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "rich", None)  # an install without the [progress] extra
    src = _tree(tmp_path)
    assert main(["scan", str(src)]) == 0
    out = capsys.readouterr().out
    assert "encoding distribution" in out
    assert any(line.split()[:2] == ["a.txt", "windows-1252"] for line in out.splitlines())
    assert "━" not in out and "│" not in out  # not rich's box drawing
    assert main(["convert", str(src), str(tmp_path / "dst")]) == 0
    out = capsys.readouterr().out
    assert any(line.split() == ["converted", "1"] for line in out.splitlines())


def test_plain_table_aligns_columns_and_justifies_right():
    table = cli.PlainTable(title="t")
    table.add_column("name")
    table.add_column("n", justify="right")
    table.add_row("a", "1")
    table.add_row("long", "100")
    assert str(table).splitlines() == ["t", "name    n", "a       1", "long  100"]
    headless = cli.PlainTable(show_header=False)
    headless.add_column("k")
    headless.add_row("v")
    assert str(headless) == "v"


def test_rich_is_used_when_installed(tmp_path, capsys):
    pytest.importorskip("rich")
    assert cli.table_class().__module__.startswith("rich")
    assert main(["scan", str(_tree(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "━" in out or "─" in out


def test_broken_pipe_exits_141_silently(tmp_path):
    for i in range(200):
        (tmp_path / f"f{i:03}.txt").write_bytes(b"caf\xe9 %d\n" % i)
    files = sorted(str(p) for p in tmp_path.iterdir())
    proc = subprocess.Popen(
        [sys.executable, "-m", "mojifix", "detect", *files], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # the reader goes away, as `| head -1` does
    err = proc.stderr.read()
    assert proc.wait() == 141
    assert first.startswith(files[0].encode())
    assert err == b""


def test_full_device_on_stdout_is_one_line_exit_2(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"hello\n" * 1000)
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "mojifix", "detect", str(f)], stdout=full, stderr=subprocess.PIPE
        )
    assert proc.returncode == 2
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mojifix: error: No space left on device"), lines


def test_os_error_message_names_the_file_and_what_to_do():
    exc = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "/mnt/out/a.txt")
    message = cli.os_error_message(exc)
    assert message.startswith("/mnt/out/a.txt: No space left on device")
    assert "--resume" in message
    assert cli.os_error_message(FileNotFoundError(errno.ENOENT, "No such file or directory", "x")) == (
        "x: No such file or directory"
    )


def test_missing_input_file_is_exit_2_without_traceback():
    proc = _run("detect", "/no/such/file")
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("mojifix: error: ")
    assert b"Traceback" not in proc.stderr


def test_keyboard_interrupt_in_a_command_is_exit_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    parser.set_defaults(func=interrupted)
    assert main([]) == 130
    assert capsys.readouterr().err == "mojifix: interrupted\n"


def test_sigint_raises_in_the_main_process_and_ends_a_forked_worker_quietly():
    with cli._interrupts_end_quietly():
        pid = os.fork()
        if pid == 0:  # a worker: the same SIGINT must end it with 130 and no traceback
            try:
                os.kill(os.getpid(), signal.SIGINT)
                signal.pause()
            except SystemExit as exc:
                os._exit(exc.code if isinstance(exc.code, int) else 1)
            os._exit(1)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 130
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            signal.pause()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_while_reading_stdin_exits_130():
    proc = subprocess.Popen(
        [sys.executable, "-m", "mojifix", "repair", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    proc.stdin.write(b"Caf")
    proc.stdin.flush()
    # wait until it is blocked reading stdin: a sleeping process whose CPU time no longer changes
    sys.path.insert(0, str(TOOLS))
    try:
        from check_user_install import _wait_blocked
    finally:
        sys.path.pop(0)
    assert _wait_blocked(proc.pid)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == b"mojifix: interrupted\n"


def test_convert_into_a_full_disk_is_one_line_exit_2(tmp_path):
    """A real full file system: a 64 KiB tmpfs in a private mount namespace (needs root and unshare)."""
    src = tmp_path / "src"
    src.mkdir()
    for i in range(200):
        (src / f"f{i:03}.txt").write_bytes(f"{i} café crème déjà vu\n".encode("cp1252") * 40)
    script = (
        f"mount -t tmpfs -o size=64k tmpfs {tmp_path}/full || exit 99; "
        f"{sys.executable} -m mojifix convert {src} {tmp_path}/full/out"
    )
    (tmp_path / "full").mkdir()
    try:
        proc = subprocess.run(
            ["unshare", "-m", "--propagation", "private", "sh", "-c", script], capture_output=True, text=True
        )
    except FileNotFoundError:
        pytest.skip("LOUD SKIP: no unshare(1) to make a full file system")
    if proc.returncode == 99 or "unshare failed" in proc.stderr:
        pytest.skip(f"LOUD SKIP: cannot mount a tmpfs here (needs root): {proc.stderr.strip()}")
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "No space left on device" in proc.stderr
    assert proc.stderr.startswith("mojifix: error: ")
