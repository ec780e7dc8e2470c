"""Helpers for the Spark convert tests: a legacy tree with every kind of entry, and tree snapshots."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from mojifix.convert.corpus import generate
from mojifix.convert.options import MANIFEST_NAME

#: Linux's PATH_MAX: a path longer than this cannot be opened by name, whoever runs (root included)
PATH_MAX = 4096


def _deep_unreadable(root: Path) -> None:
    """A file whose full path is longer than PATH_MAX (open() fails with ENAMETOOLONG even for root),
    and below it a directory that cannot be opened either: the walk and the read both report errors."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    length = len(os.fsencode(root))
    depth = 0
    while length + 1 + 100 <= PATH_MAX - 100:  # directories up to 100-200 bytes short of PATH_MAX
        name = f"{depth:02d}" + "d" * 98
        os.mkdir(name, dir_fd=fd)
        nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd, length, depth = nfd, length + 1 + len(name), depth + 1
    over = PATH_MAX - length + 10  # a name this long takes the path past PATH_MAX (and fits NAME_MAX)
    out = os.open("f" * (over - 4) + ".txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    os.write(out, "Zoë’s café\n".encode("cp1252"))
    os.close(out)
    os.mkdir("g" * over, dir_fd=fd)  # its path is past PATH_MAX too: the walk cannot read it
    os.close(fd)


def build_tree(root: Path, files_per_encoding: int = 6, seed: int = 11) -> Path:
    """The corpus generator's mixed legacy tree plus an empty file, a binary file, a name that is not
    UTF-8, a symlink, a FIFO, and an unreadable file and directory."""
    generate(root, files_per_encoding, corrupted=5, seed=seed, subdirs=4)
    (root / "empty.txt").write_bytes(b"")
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (root / os.fsdecode(b"caf\xe9.txt")).write_bytes("Déjà vu à la française\n".encode("cp1252"))
    os.symlink("/etc/hostname", root / "link.txt")
    os.mkfifo(root / "pipe")
    _deep_unreadable(root)
    return root


def snapshot(root: Path) -> dict[bytes, tuple[int, int | None, bytes]]:
    """Every file under ``root``: relative path -> (mode, mtime_ns, bytes). The mtimes of the manifest and
    of quarantine reason files are left out: they are written when their run writes them (outputs and
    quarantined copies carry their source's times)."""
    out: dict[bytes, tuple[int, int | None, bytes]] = {}
    base = os.fsencode(root)
    for dirpath, _dirs, names in os.walk(base):
        for name in names:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, base)
            with open(path, "rb") as f:
                data = f.read()
            written_now = name == MANIFEST_NAME.encode() or name.endswith(b".reason.json")
            out[rel] = (st.st_mode, None if written_now else st.st_mtime_ns, data)
    return out


def manifest_records(path: Path) -> dict[str, dict[str, Any]]:
    """A manifest's records keyed by path; fails on a path that appears twice."""
    records: dict[str, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        key = rec.get("path_hex") or rec["path"]
        assert key not in records, f"{key} appears twice in {path}"
        records[key] = rec
    return records


def comparable_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """A convert summary without what differs between two runs of the same job (time, manifest path)."""
    return {k: v for k, v in summary.items() if k not in ("wall_time_s", "mb_per_s", "manifest")}
