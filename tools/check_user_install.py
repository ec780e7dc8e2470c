"""Install mojifix as a user would and run every subcommand: no traceback, the documented exit codes.

Why: ``make test`` runs in the ``.[dev]`` environment, which has every optional package, so a command
that needs one (rich, FastWARC, pyarrow) can crash for users and still pass every test. This script
builds the wheel with ``pip wheel`` (whatever the build is, pure or with a compiled core), installs it
into a fresh virtual environment *without extras*, and runs each subcommand on small inputs it writes
itself (text in several encodings, an HTML page, a WARC file written by hand, mojibake, standard input,
a broken pipe, a full device, Ctrl-C). Then it adds each extra in turn ([warc], [progress], then the
HTTP clients) and runs what that extra enables. Every run must end with its expected exit code and
with no "Traceback" on either stream.

Usage (with the development venv's Python, which has pip)::

    .venv/bin/python tools/check_user_install.py [--keep] [--workdir DIR] [--stages core,warc,...]

Exit 0 when every check passed, 1 otherwise (the failures are listed). pip's cache is reused, so after
the first run nothing is downloaded.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STAGES = ("core", "warc", "progress", "clients")
#: seconds any one command may take before it counts as hung (generous: 2 shared cores, cold caches)
COMMAND_TIMEOUT = 300
#: seconds to wait for a process to reach its blocking read before Ctrl-C is sent
READY_TIMEOUT = 60


@dataclass
class Check:
    """One command and what must hold for it."""

    name: str
    argv: Sequence[str]
    codes: tuple[int, ...] = (0,)
    stdin: bytes | None = None
    stdout_has: tuple[str, ...] = ()
    stderr_has: tuple[str, ...] = ()
    shell: bool = False
    then: Callable[[Path], str | None] | None = None  # extra check on the work dir; returns a failure


@dataclass
class Outcome:
    name: str
    failure: str | None
    seconds: float
    detail: str = ""


@dataclass
class Env:
    """The fresh virtual environment and the directory the commands run in."""

    venv: Path
    work: Path
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    def environ(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MOJIFIX", "VIRTUAL_ENV"))}
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(self.venv)
        env["COLUMNS"] = "120"
        return env


def _pip(*args: str, python: Path | None = None) -> None:
    """pip of the Python running this script, aimed at ``python``'s environment (``pip --python``)."""
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-qq"]  # errors only
    if python is not None:
        cmd += ["--python", str(python)]
    subprocess.run([*cmd, *args], check=True, timeout=1200)


#: never copied into the clean source tree (environments, caches, build outputs)
_NOT_SOURCE = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".ruff_cache")


def clean_checkout(dest: Path) -> Path:
    """The checkout's files (tracked, or new and not ignored) copied to ``dest``.

    Building from a copy keeps setuptools' in-tree ``build/`` of earlier builds (which can hold modules
    that no longer exist) out of the wheel, as on a fresh clone.
    """
    try:
        listed = subprocess.run(
            ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            check=True,
        ).stdout.split(b"\0")
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an sdist, a tarball)
        shutil.copytree(REPO, dest, ignore=shutil.ignore_patterns(*_NOT_SOURCE))
        return dest
    for rel in filter(None, (os.fsdecode(p) for p in listed)):
        source = REPO / rel
        if source.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)
    return dest


def build_wheel(out: Path, source: Path) -> Path:
    """``pip wheel --no-deps SOURCE``: exactly what a user's ``pip install .`` builds."""
    _pip("wheel", "--no-deps", "--wheel-dir", str(out), str(source))
    wheels = sorted(out.glob("mojifix-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one mojifix wheel in {out}, found {wheels}")
    return wheels[0]


def make_venv(path: Path) -> Path:
    """A fresh venv without pip (this script's pip installs into it): nothing but the standard library."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    return path / "bin" / "python"


# ---- inputs -------------------------------------------------------------------------------------------

FRENCH = "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au-delà des îles.\n"
JAPANESE = "日本語のテキストです。文字コードの判定を試します。～\n"
CHINESE = "中文文本的编码检测，这是一个简单的例子。\n"
RUSSIAN = "Съешь же ещё этих мягких французских булок, да выпей чаю.\n"
TRADITIONAL = "這是繁體中文的測試文字，用來檢查編碼。\n"


def _warc_record(kind: str, uri: str, block: bytes, number: int, content_type: str) -> bytes:
    head = (
        f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\n"
        f"WARC-Date: 2026-01-01T00:00:0{number}Z\r\n"
        f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-00000000000{number}>\r\n"
        f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n"
    )
    return head.encode("ascii") + block + b"\r\n\r\n"


def warc_records() -> list[bytes]:
    """A warcinfo record, a request and two HTML responses (one Shift_JIS by <meta>, one windows-1252)."""
    sjis = f'<html><head><meta charset="shift_jis"><title>t</title></head><body>{JAPANESE}</body></html>'
    latin = f"<html><body><p>{FRENCH}</p></body></html>"
    return [
        _warc_record("warcinfo", "", b"software: mojifix check\r\n", 1, "application/warc-fields"),
        _warc_record(
            "request",
            "http://example.jp/",
            b"GET / HTTP/1.1\r\nHost: example.jp\r\n\r\n",
            2,
            "application/http; msgtype=request",
        ),
        _warc_record(
            "response",
            "http://example.jp/",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + sjis.encode("cp932"),
            3,
            "application/http; msgtype=response",
        ),
        _warc_record(
            "response",
            "http://example.fr/",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=iso-8859-1\r\n\r\n"
            + latin.encode("cp1252"),
            4,
            "application/http; msgtype=response",
        ),
    ]


def write_inputs(work: Path) -> None:
    """Every input file the checks use, under ``work``."""
    files = {
        "utf8.txt": FRENCH.encode("utf-8"),
        "utf8-bom.txt": b"\xef\xbb\xbf" + FRENCH.encode("utf-8"),
        "cp1252.txt": (FRENCH * 3).encode("cp1252"),
        "sjis.txt": (JAPANESE * 3).encode("cp932"),
        "gbk.txt": (CHINESE * 3).encode("gbk"),
        "big5.txt": (TRADITIONAL * 3).encode("big5"),
        "koi8r.txt": (RUSSIAN * 3).encode("koi8-r"),
        "utf16le.txt": (FRENCH * 2).encode("utf-16-le"),
        "utf16be-bom.txt": "\ufeff".encode("utf-16-be") + FRENCH.encode("utf-16-be"),
        "ascii.txt": b"plain ASCII\n",
        "empty.txt": b"",
        "binary.png": b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4,
        "mojibake.txt": FRENCH.encode("utf-8").decode("cp1252").encode("utf-8"),
        "page.html": (
            b'<!doctype html><html><head><meta charset="windows-1252"><title>caf\xe9</title></head>'
            b"<body>" + FRENCH.encode("cp1252") + b"</body></html>"
        ),
        "undeclared.html": b"<html><body>" + (JAPANESE * 4).encode("cp932") + b"</body></html>",
    }
    for name, data in files.items():
        (work / name).write_bytes(data)
    tree = work / "tree"
    for rel in ("utf8.txt", "utf8-bom.txt", "cp1252.txt", "sjis.txt", "gbk.txt", "koi8r.txt", "binary.png"):
        dest = tree / ("sub" if rel.startswith(("gbk", "koi8")) else "") / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(files[rel])
    (tree / "mixed.txt").write_bytes(FRENCH.encode("utf-8") * 3 + FRENCH.encode("cp1252"))
    good = work / "repo-good"
    for rel in ("utf8.txt", "ascii.txt", "empty.txt", "binary.png"):
        (good / "src").mkdir(parents=True, exist_ok=True)
        (good / "src" / rel).write_bytes(files[rel])
    records = warc_records()
    (work / "tiny.warc").write_bytes(b"".join(records))
    (work / "tiny.warc.gz").write_bytes(b"".join(gzip.compress(r, mtime=0) for r in records))
    many = work / "many"
    many.mkdir()
    for i in range(3000):  # enough for a convert to be interrupted while it runs
        (many / f"f{i:04}.txt").write_bytes(f"{i} {FRENCH}".encode("cp1252") * 4)
    (work / "full.jsonl").symlink_to("/dev/full")


# ---- checks -------------------------------------------------------------------------------------------


def _jsonl_rows(path: Path, expect: int, has: str) -> Callable[[Path], str | None]:
    def check(work: Path) -> str | None:
        rows = [json.loads(line) for line in (work / path).read_text("utf-8").splitlines()]
        if len(rows) != expect:
            return f"{path}: {len(rows)} rows, expected {expect}"
        if not any(has in row.get("text", "") for row in rows):
            return f"{path}: no row holds {has!r}"
        return None

    return check


def _utf8_tree(path: str, expect_text: dict[str, str]) -> Callable[[Path], str | None]:
    def check(work: Path) -> str | None:
        for rel, text in expect_text.items():
            target = work / path / rel
            if not target.is_file():
                return f"{target} was not written"
            if target.read_bytes().decode("utf-8") != text:
                return f"{target} does not hold the expected UTF-8 text"
        return None

    return check


def core_checks() -> list[Check]:
    """Without any extra: every subcommand, stdin, bad input, broken pipe, full device, missing extra."""
    warc_hint = "pip install 'mojifix[warc]'"
    return [
        Check("--version", ["mojifix", "--version"], stdout_has=("mojifix 0.", "compiled core:")),
        Check(
            "python -m mojifix --version", ["python", "-m", "mojifix", "--version"], stdout_has=("mojifix",)
        ),
        Check("--help", ["mojifix", "--help"], stdout_has=("sniff", "convert", "warc")),
        Check("no command", ["mojifix"], codes=(2,)),
        Check("unknown command", ["mojifix", "frobnicate"], codes=(2,)),
        Check("sniff page", ["mojifix", "sniff", "page.html"], stdout_has=("windows-1252",)),
        Check("sniff undeclared page", ["mojifix", "sniff", "undeclared.html"], codes=(0, 1)),
        Check(
            "sniff stdin",
            ["mojifix", "sniff", "-", "--content-type", "text/html; charset=shift_jis"],
            stdin=f"<p>{JAPANESE}</p>".encode("cp932"),
            stdout_has=("Shift_JIS",),
        ),
        Check("sniff json", ["mojifix", "sniff", "page.html", "--json"], stdout_has=('"encoding"',)),
        Check(
            "sniff missing file",
            ["mojifix", "sniff", "nope.html"],
            codes=(2,),
            stderr_has=("mojifix: error",),
        ),
        Check("sniff a directory", ["mojifix", "sniff", "tree"], codes=(2,), stderr_has=("mojifix: error",)),
        Check("decode", ["mojifix", "decode", "sjis.txt", "-e", "shift_jis"], stdout_has=(JAPANESE.strip(),)),
        Check("decode stdin", ["mojifix", "decode", "-", "-e", "koi8-r"], stdin=RUSSIAN.encode("koi8-r")),
        Check("decode unknown label", ["mojifix", "decode", "ascii.txt", "-e", "no-such"], codes=(2,)),
        Check(
            "decode --strict invalid",
            ["mojifix", "decode", "cp1252.txt", "-e", "utf-8", "--strict"],
            codes=(1,),
        ),
        Check(
            "decode to a full device",
            ["mojifix", "decode", "utf8.txt", "-e", "utf-8", "-o", "/dev/full"],
            codes=(2,),
        ),
        Check(
            "detect files",
            ["mojifix", "detect", "sjis.txt", "gbk.txt", "koi8r.txt", "cp1252.txt", "utf16le.txt"],
            codes=(0, 1),
            stdout_has=("Shift_JIS", "KOI8-R", "windows-1252", "UTF-16LE"),
        ),
        Check("detect stdin", ["mojifix", "detect", "-"], stdin=(CHINESE * 3).encode("gbk"), codes=(0, 1)),
        Check("detect json", ["mojifix", "detect", "--json", "utf8.txt"], stdout_has=('"UTF-8"',)),
        Check("detect binary", ["mojifix", "detect", "binary.png"], codes=(1,)),
        Check("detect empty", ["mojifix", "detect", "empty.txt"], codes=(0, 1)),
        Check(
            "detect missing file",
            ["mojifix", "detect", "nope.txt"],
            codes=(2,),
            stderr_has=("mojifix: error",),
        ),
        Check(
            "detect | head (broken pipe)",
            ["bash", "-c", "mojifix detect many/*.txt | head -n 1; exit ${PIPESTATUS[0]}"],
            codes=(141,),
            stdout_has=("f0000.txt",),
        ),
        Check("detect > /dev/full", ["bash", "-c", "mojifix detect utf8.txt > /dev/full"], codes=(2,)),
        Check(
            "scan",
            ["mojifix", "scan", "tree"],
            codes=(0, 1),
            stdout_has=("Shift_JIS", "encoding distribution"),
        ),
        Check("scan json", ["mojifix", "scan", "tree", "--json"], codes=(0, 1), stdout_has=('"summary"',)),
        Check("scan missing dir", ["mojifix", "scan", "nope"], codes=(2,), stderr_has=("mojifix: error",)),
        Check("scan two paths without --check", ["mojifix", "scan", "tree", "repo-good"], codes=(2,)),
        Check(
            "scan --check clean",
            ["mojifix", "scan", "--check", "repo-good"],
            stderr_has=("0 of 3 text files not UTF-8 (1 binary file ignored)",),
        ),
        Check(
            "scan --check offenders",
            ["mojifix", "scan", "--check", "tree", "utf8.txt", "ascii.txt"],
            codes=(1,),
            stdout_has=("cp1252.txt:1:", "utf8-bom.txt:1:1: UTF-8 byte order mark", "sub/gbk.txt"),
        ),
        Check(
            "scan --check --expect",
            ["mojifix", "scan", "--check", "--expect", "shift_jis", "sjis.txt", "ascii.txt"],
        ),
        Check(
            "scan --check bad label",
            ["mojifix", "scan", "--check", "--expect", "nope", "ascii.txt"],
            codes=(2,),
        ),
        Check(
            "convert",
            ["mojifix", "convert", "tree", "out"],
            codes=(0, 1),
            stdout_has=("converted",),
            then=_utf8_tree(
                "out", {"cp1252.txt": FRENCH * 3, "sjis.txt": JAPANESE * 3, "sub/gbk.txt": CHINESE * 3}
            ),
        ),
        Check("convert into a non-empty DST", ["mojifix", "convert", "tree", "out"], codes=(2,)),
        Check("convert DST inside SRC", ["mojifix", "convert", "tree", "tree/inside"], codes=(2,)),
        Check(
            "convert --dry-run --json",
            ["mojifix", "convert", "tree", "dry", "--dry-run", "--json"],
            codes=(0, 1),
        ),
        Check(
            "convert --workers 2",
            ["mojifix", "convert", "tree", "out2", "--workers", "2"],
            codes=(0, 1),
            then=_utf8_tree("out2", {"sub/koi8r.txt": RUSSIAN * 3}),
        ),
        Check("repair file", ["mojifix", "repair", "mojibake.txt"], stdout_has=(FRENCH.strip(),)),
        Check(
            "repair stdin", ["mojifix", "repair"], stdin="CafÃ© crÃ¨me".encode(), stdout_has=("Café crème",)
        ),
        Check("repair --json", ["mojifix", "repair", "--json", "mojibake.txt"], stdout_has=('"text"',)),
        Check(
            "repair binary input", ["mojifix", "repair", "binary.png"], codes=(2,), stderr_has=("not UTF-8",)
        ),
        Check(
            "warc without the extra",
            ["mojifix", "warc", "tiny.warc", "-o", "w.jsonl"],
            codes=(2,),
            stderr_has=(warc_hint,),
        ),
        Check(
            "compat shims",
            [
                "python",
                "-c",
                "import mojifix.compat.chardet as chardet, mojifix.compat.charset_normalizer as cn;"
                "d = open('sjis.txt','rb').read(); r = chardet.detect(d);"
                "assert d.decode(r['encoding']) == str(cn.from_bytes(d).best()), r;"
                "print(r['encoding'])",
            ],
            stdout_has=("CP932",),
        ),
    ]


def warc_checks() -> list[Check]:
    """With [warc]: mojifix warc reads plain and gzip WARC, writes JSONL and Parquet."""
    return [
        Check(
            "warc jsonl",
            ["mojifix", "warc", "tiny.warc", "-o", "w.jsonl"],
            then=_jsonl_rows(Path("w.jsonl"), 2, JAPANESE.strip()),
        ),
        Check(
            "warc.gz jsonl",
            ["mojifix", "warc", "tiny.warc.gz", "-o", "wz.jsonl", "--json"],
            stdout_has=('"records"',),
            then=_jsonl_rows(Path("wz.jsonl"), 2, FRENCH.strip()),
        ),
        Check("warc parquet", ["mojifix", "warc", "tiny.warc.gz", "-o", "w.parquet"]),
        Check(
            "warc --reader warcio", ["mojifix", "warc", "tiny.warc", "-o", "ww.jsonl", "--reader", "warcio"]
        ),
        Check("warc missing input", ["mojifix", "warc", "nope.warc", "-o", "x.jsonl"], codes=(2,)),
        Check("warc to a full device", ["mojifix", "warc", "tiny.warc", "-o", "full.jsonl"], codes=(2,)),
        Check("scan still plain without rich", ["mojifix", "scan", "tree"], codes=(0, 1)),
    ]


def progress_checks() -> list[Check]:
    """With [progress]: the rich tables."""
    return [
        Check(
            "scan with rich", ["mojifix", "scan", "tree"], codes=(0, 1), stdout_has=("encoding distribution",)
        ),
        Check(
            "convert with rich",
            ["mojifix", "convert", "tree", "out3"],
            codes=(0, 1),
            stdout_has=("converted",),
        ),
    ]


def client_checks() -> list[Check]:
    """With [requests,httpx,scrapy]: the adapters import, and the requests hook decodes a response."""
    code = (
        "import requests, mojifix.integrations.requests, mojifix.integrations.httpx, "
        "mojifix.integrations.scrapy, mojifix.compat.requests as c;"
        "c.install(); r = requests.models.Response(); r._content = open('sjis.txt','rb').read();"
        "print(r.apparent_encoding); assert r.text == r._content.decode('cp932')"
    )
    return [Check("adapters import, apparent_encoding", ["python", "-c", code], stdout_has=("CP932",))]


# ---- running ------------------------------------------------------------------------------------------


def run_check(env: Env, check: Check) -> None:
    started = time.monotonic()
    argv = list(check.argv)
    if argv[0] in ("mojifix", "python"):
        argv[0] = str(env.bin / argv[0])
    try:
        proc = subprocess.run(
            argv,
            input=check.stdin if check.stdin is not None else b"",
            capture_output=True,
            cwd=env.work,
            env=env.environ(),
            timeout=COMMAND_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        env.outcomes.append(Outcome(check.name, f"timed out after {COMMAND_TIMEOUT} s", COMMAND_TIMEOUT))
        return
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    failure = None
    if "Traceback" in err or "Traceback" in out:
        failure = "a traceback"
    elif proc.returncode not in check.codes:
        failure = f"exit {proc.returncode}, expected {' or '.join(map(str, check.codes))}"
    else:
        missing = [s for s in check.stdout_has if s not in out] + [
            s for s in check.stderr_has if s not in err
        ]
        if missing:
            failure = f"output lacks {missing}"
        elif check.then is not None:
            failure = check.then(env.work)
    detail = f"$ {' '.join(check.argv)}\n--- stdout\n{out[-2000:]}\n--- stderr\n{err[-3000:]}"
    env.outcomes.append(Outcome(check.name, failure, time.monotonic() - started, detail))


def _stat(pid: int) -> tuple[str, int]:
    """(state letter, CPU ticks) of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return fields[0], int(fields[11]) + int(fields[12])


def _wait_blocked(pid: int) -> bool:
    """True once the process sleeps with its CPU time unchanged over three polls (it is blocked reading)."""
    deadline = time.monotonic() + READY_TIMEOUT
    last, stable = -1, 0
    while time.monotonic() < deadline:
        time.sleep(0.1)
        state, ticks = _stat(pid)
        stable = stable + 1 if state == "S" and ticks == last else 0
        if stable >= 3:
            return True
        last = ticks
    return False


def run_interrupt(env: Env, name: str, argv: list[str], ready: Callable[[int], bool]) -> None:
    """Ctrl-C as a terminal sends it (SIGINT to the whole process group): exit 130, no traceback."""
    started = time.monotonic()
    proc = subprocess.Popen(
        [str(env.bin / argv[0]), *argv[1:]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=env.work,
        env=env.environ(),
        start_new_session=True,
    )
    failure = None
    if not ready(proc.pid):
        failure = "never got ready to be interrupted"
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=COMMAND_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        failure = "did not stop after Ctrl-C"
    text = err.decode("utf-8", "replace")
    if failure is None and "Traceback" in text:
        failure = "a traceback"
    elif failure is None and proc.returncode != 130:
        failure = f"exit {proc.returncode}, expected 130"
    shown = out.decode("utf-8", "replace")[-1000:]
    detail = f"$ {' '.join(argv)} (Ctrl-C)\n--- stdout\n{shown}\n--- stderr\n{text[-3000:]}"
    env.outcomes.append(Outcome(name, failure, time.monotonic() - started, detail))


def _manifest_started(work: Path) -> Callable[[int], bool]:
    def ready(pid: int) -> bool:
        manifest = work / "many-out" / "mojifix-manifest.jsonl"
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if manifest.is_file() and manifest.stat().st_size > 0:
                return True
            time.sleep(0.05)
        return False

    return ready


def run_stage(env: Env, stage: str, wheel: Path) -> None:
    python = env.bin / "python"
    started = time.monotonic()
    extras = {"core": "", "warc": "[warc]", "progress": "[progress]", "clients": "[requests,httpx,scrapy]"}[
        stage
    ]
    try:
        _pip("install", f"{wheel}{extras}", python=python)
    except subprocess.CalledProcessError as exc:
        env.outcomes.append(Outcome(f"{stage}: pip install {wheel.name}{extras}", str(exc), 0.0))
        return
    env.outcomes.append(
        Outcome(f"{stage}: pip install {wheel.name}{extras}", None, time.monotonic() - started)
    )
    checks = {"core": core_checks, "warc": warc_checks, "progress": progress_checks, "clients": client_checks}
    for check in checks[stage]():
        check.name = f"{stage}: {check.name}"
        run_check(env, check)
    if stage == "core":
        run_interrupt(env, "core: Ctrl-C while reading stdin", ["mojifix", "repair", "-"], _wait_blocked)
        run_interrupt(
            env,
            "core: Ctrl-C during convert --workers 2",
            ["mojifix", "convert", "many", "many-out", "--workers", "2"],
            _manifest_started(env.work),
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, help="where to build and install (default: a temporary dir)")
    parser.add_argument("--keep", action="store_true", help="keep the work dir for inspection")
    parser.add_argument(
        "--stages", default=",".join(STAGES), help=f"comma-separated, from {','.join(STAGES)}"
    )
    args = parser.parse_args(argv)
    stages = [s for s in args.stages.split(",") if s]
    unknown = set(stages) - set(STAGES)
    if unknown or not stages or stages[0] != "core":
        parser.error(f"--stages must start with core and name only {', '.join(STAGES)}")
    root = args.workdir or Path(tempfile.mkdtemp(prefix="mojifix-user-install-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        t0 = time.monotonic()
        shutil.rmtree(root / "source", ignore_errors=True)
        wheel = build_wheel(root / "wheelhouse", clean_checkout(root / "source"))
        print(f"built {wheel.name} from a clean copy in {time.monotonic() - t0:.1f} s", flush=True)
        env = Env(venv=root / "venv", work=root / "work")
        shutil.rmtree(env.venv, ignore_errors=True)
        shutil.rmtree(env.work, ignore_errors=True)
        make_venv(env.venv)
        env.work.mkdir()
        write_inputs(env.work)
        for stage in stages:
            run_stage(env, stage, wheel)
        failed = [o for o in env.outcomes if o.failure]
        for o in env.outcomes:
            verdict = (
                f"FAIL {o.seconds:5.1f} s  {o.name}: {o.failure}"
                if o.failure
                else f"ok   {o.seconds:5.1f} s  {o.name}"
            )
            print(verdict)
        for o in failed:
            print(f"\n==== {o.name}: {o.failure}\n{o.detail}")
        passed = len(env.outcomes) - len(failed)
        print(f"\n{passed} of {len(env.outcomes)} checks passed in {time.monotonic() - t0:.0f} s")
        return 1 if failed else 0
    finally:
        if args.keep:
            print(f"kept {root}")
        elif args.workdir is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
