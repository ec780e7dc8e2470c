"""Walk SRC: every entry once, in a stable order, nothing followed out of the tree.

Paths are bytes end to end (a file name that is not valid UTF-8 is still a file to convert).
Symlinks are never followed (recorded as skipped with their target); FIFOs, sockets and device files
are recorded as skipped without being opened; directories are read through descriptors opened with
``O_NOATIME`` so even their access times stay as they were.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass

from mojifix.convert.fsio import open_dir_noatime

__all__ = ["Entry", "display_path", "matches", "walk"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One walked entry: ``rel`` relative to SRC (b'/'-separated), ``kind`` file/symlink/special/error."""

    rel: bytes
    kind: str
    size: int = 0
    detail: str = ""


def display_path(rel: bytes) -> tuple[str, str | None]:
    """(printable path, hex of the raw bytes or None when the name is valid UTF-8)."""
    try:
        return rel.decode("utf-8"), None
    except UnicodeDecodeError:
        return rel.decode("utf-8", "backslashreplace"), rel.hex()


def matches(rel: str, patterns: tuple[str, ...]) -> bool:
    """Glob match: a pattern without '/' matches the file name, one with '/' the whole relative path."""
    name = rel.rsplit("/", 1)[-1]
    for pat in patterns:
        target = rel if "/" in pat else name
        if fnmatch.fnmatchcase(target, pat.rstrip("/")) or (
            "/" in pat and fnmatch.fnmatchcase(rel, pat + "*")
        ):
            return True
    return False


def _special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return "special file"


def walk(root: bytes, skip: frozenset[bytes] = frozenset()) -> Iterator[Entry]:
    """Yield every entry under the directory ``root``, sorted (``skip``: top-level names to ignore)."""
    stack: list[bytes] = [b""]
    while stack:
        rel_dir = stack.pop()
        path = os.path.join(root, rel_dir) if rel_dir else root
        try:
            fd = open_dir_noatime(path)
        except OSError as exc:
            yield Entry(rel_dir, "error", detail=f"cannot read directory: {exc.strerror or exc}")
            continue
        rows: list[tuple[bytes, str, int, str]] = []
        try:
            with os.scandir(fd) as it:
                for de in it:
                    name = os.fsencode(de.name)
                    if not rel_dir and name in skip:
                        continue
                    rel = rel_dir + b"/" + name if rel_dir else name
                    try:
                        st = de.stat(follow_symlinks=False)
                    except OSError as exc:
                        rows.append((rel, "error", 0, f"cannot stat: {exc.strerror or exc}"))
                        continue
                    mode = st.st_mode
                    if stat.S_ISLNK(mode):
                        # readlink() would update the link's access time: SRC must not change at all
                        rows.append((rel, "symlink", 0, "symlink (not followed)"))
                    elif stat.S_ISDIR(mode):
                        rows.append((rel, "dir", 0, ""))
                    elif stat.S_ISREG(mode):
                        rows.append((rel, "file", st.st_size, ""))
                    else:
                        rows.append((rel, "special", 0, f"{_special_kind(mode)} (not opened)"))
        finally:
            os.close(fd)
        rows.sort()
        subdirs = []
        for rel, kind, size, detail in rows:
            if kind == "dir":
                subdirs.append(rel)
            else:
                yield Entry(rel, kind, size, detail)
        stack.extend(reversed(subdirs))
