"""README.md's code blocks run as written, top to bottom, in an empty directory.

Python blocks share one namespace (as a reader's session would); ``# -> TEXT`` at the end of a line says
what that line prints, and the printed lines must be exactly those. Shell blocks run with ``bash -e`` and
must exit 0. A block may be left out only by an HTML comment right above it that says why
(``<!-- not run by tests/test_cli_readme.py: ... -->``); a yaml block must name a hook that
``.pre-commit-hooks.yaml`` defines.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
NOT_RUN = re.compile(r"<!-- not run by tests/test_cli_readme\.py: (?P<reason>\S.*) -->")
EXPECT = " # -> "


@dataclass
class Block:
    lang: str
    code: str
    line: int
    not_run: str | None


def readme_blocks() -> list[Block]:
    blocks: list[Block] = []
    lines = README.read_text("utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        previous = next((ln for ln in reversed(lines[:i]) if ln.strip()), "")
        marker = NOT_RUN.search(previous)
        end = lines.index("```", i + 1)
        blocks.append(
            Block(fence.group(1), "\n".join(lines[i + 1 : end]) + "\n", i + 1, marker and marker["reason"])
        )
        i = end + 1
    return blocks


def _expected(code: str) -> list[str]:
    return [line.split(EXPECT, 1)[1] for line in code.splitlines() if EXPECT in line]


def test_readme_has_a_quickstart_with_each_job():
    blocks = readme_blocks()
    run = [b for b in blocks if b.not_run is None]
    code = "".join(b.code for b in run)
    for job in (
        "decode_html",
        "mojifix.detect",
        "mojifix convert",
        "mojifix.repair",
        "compat.chardet",
        "scan --check",
    ):
        assert job in code, job
    assert all(b.lang in ("python", "sh", "yaml") for b in run), [(b.line, b.lang) for b in run]


def test_readme_blocks_run_top_to_bottom(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for block in readme_blocks():
        where = f"README.md line {block.line}"
        if block.not_run is not None:
            continue
        if block.lang == "python":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(block.code, where, "exec"), namespace)
            assert out.getvalue().splitlines() == _expected(block.code), where
        elif block.lang == "sh":
            proc = subprocess.run(["bash", "-e", "-c", block.code], capture_output=True, text=True, env=env)
            assert proc.returncode == 0, f"{where}:\n{proc.stdout}\n{proc.stderr}"
            assert "Traceback" not in proc.stderr
        elif block.lang == "yaml":
            hooks = (REPO / ".pre-commit-hooks.yaml").read_text()
            for hook in re.findall(r"- id: (\S+)", block.code):
                assert f"- id: {hook}\n" in hooks, f"{where}: no hook {hook!r} in .pre-commit-hooks.yaml"
        else:
            pytest.fail(f"{where}: a {block.lang or 'plain'} block is neither run nor marked as not run")
    assert (tmp_path / "legacy-utf8" / "note.txt").read_text("utf-8").startswith("Le cœur")
