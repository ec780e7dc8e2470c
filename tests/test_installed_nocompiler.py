"""Installed where no C compiler works: the build skips the optional kernels and the pure path runs.

Builds the wheel from a clean copy with ``CC``/``CXX`` pointing at a compiler that always fails (what
``pip install mojifix`` meets on a machine without one), installs it into a fresh venv without extras,
and checks that ``mojifix --version`` says the compiled core was not built, that no extension module
was installed, and that detection, conversion and repair give the same answers as this checkout's
(compiled) build. Marked ``install`` like the user-install check (the same pip cache or PyPI); skips
loudly when neither is reachable, except under ``CI=true``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
import check_user_install as cui  # noqa: E402

#: our own text in three encodings, and one mojibake line
SAMPLES = {
    "fr.txt": "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë.\n".encode("cp1252"),
    "ru.txt": "Съешь же ещё этих мягких французских булок, да выпей чаю.\n".encode("cp1251"),
    "zh.txt": "中文文本的编码检测，这是一个简单的例子。\n".encode("gbk"),
}
TRUE_TEXT = "Le café est prêt, déjà servi.\n"
MOJIBAKE = TRUE_TEXT.encode("utf-8").decode("cp1252")  # "Le cafÃ© est prÃªt, dÃ©jÃ\xa0 servi."


#: the installed commands run without MOJIFIX_PURE_PYTHON (``make test``'s second half sets it): what is
#: checked is that the build itself left the pure path, not that it was asked for
_ENV = {k: v for k, v in os.environ.items() if k != "MOJIFIX_PURE_PYTHON"}


def _run(python: Path, *args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    exe = python.parent / "mojifix"
    return subprocess.run(
        [str(exe), *args], input=stdin, capture_output=True, text=True, cwd=cwd, timeout=300, env=_ENV
    )


@pytest.mark.install
def test_without_a_compiler_the_pure_path_is_installed_and_gives_the_same_answers(tmp_path: Path) -> None:
    failing = tmp_path / "no-cc"
    failing.write_text("#!/bin/sh\necho 'no C compiler here' >&2\nexit 1\n")
    failing.chmod(0o755)
    env_backup = {k: os.environ.get(k) for k in ("CC", "CXX", "LDSHARED")}
    os.environ.update(CC=str(failing), CXX=str(failing), LDSHARED=f"{failing} -shared")
    try:
        source = cui.clean_checkout(tmp_path / "source")
        try:
            wheel = cui.build_wheel(tmp_path / "wheelhouse", source)
        except subprocess.CalledProcessError as exc:
            if os.environ.get("CI") != "true":
                pytest.skip(f"LOUD SKIP: pip could not build (no cache, no PyPI?): {exc}")
            raise
    finally:
        for k, v in env_backup.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    listing = subprocess.run(
        [sys.executable, "-m", "zipfile", "-l", str(wheel)], capture_output=True, text=True, check=True
    ).stdout
    assert ".so" not in listing and ".pyd" not in listing, listing
    python = cui.make_venv(tmp_path / "venv")
    cui._pip("install", str(wheel), python=python)
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    for name, data in SAMPLES.items():
        (work / "src" / name).write_bytes(data)
    version = _run(python, "--version", cwd=work)
    assert version.returncode == 0 and "compiled core: not built (pure Python)" in version.stdout, version
    installed = {}
    for name in SAMPLES:
        proc = _run(python, "detect", "--json", f"src/{name}", cwd=work)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc
        installed[name] = json.loads(proc.stdout)
    here = {}
    for name in SAMPLES:
        proc = subprocess.run(
            [sys.executable, "-m", "mojifix", "detect", "--json", f"src/{name}"],
            capture_output=True,
            text=True,
            cwd=work,
            check=True,
        )
        here[name] = json.loads(proc.stdout)
    assert installed == here
    convert = _run(python, "convert", "src", "out", "--no-fsync", cwd=work)
    assert convert.returncode == 0, convert
    assert (work / "out" / "zh.txt").read_text("utf-8") == SAMPLES["zh.txt"].decode("gbk")
    repair = _run(python, "repair", "-", cwd=work, stdin=MOJIBAKE)
    assert repair.returncode == 0 and repair.stdout == TRUE_TEXT, repair
