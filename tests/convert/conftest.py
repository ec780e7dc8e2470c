"""Fixtures for convert tests: tree builders, a tree fingerprint, the stand-in detector."""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

#: the deterministic stand-in detector (see fakedetect.py); tests of mojifix's own detector on real
#: corpora live in test_with_detector.py
FAKE = "fakedetect:detect"


def tree_fingerprint(root: str | os.PathLike[str]) -> str:
    """Hash of every name, type, mode, size, mtime, atime and content under ``root``.

    Symlinks are not followed, not even read (readlink() updates a link's access time).

    Reads with O_NOATIME (files and directories) so that fingerprinting itself changes no access time.
    """
    h = hashlib.sha256()

    def visit(path: bytes) -> None:
        st = os.lstat(path)
        h.update(
            path
            + b"\0"
            + repr(
                (
                    stat.S_IFMT(st.st_mode),
                    stat.S_IMODE(st.st_mode),
                    st.st_size,
                    st.st_mtime_ns,
                    st.st_atime_ns,
                )
            ).encode()
        )
        if stat.S_ISREG(st.st_mode):
            fd = os.open(path, os.O_RDONLY | os.O_NOATIME)
            try:
                while chunk := os.read(fd, 1 << 20):
                    h.update(chunk)
            finally:
                os.close(fd)
        elif stat.S_ISDIR(st.st_mode):
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOATIME)
            try:
                names = sorted(os.fsencode(e.name) for e in os.scandir(fd))
            finally:
                os.close(fd)
            for name in names:
                visit(os.path.join(path, name))

    visit(os.fsencode(root))
    return h.hexdigest()


def write_tree(root: Path, files: dict[str, bytes]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return root


_HANS_1 = "这个目录里的文件来自不同的年代，有的用国标码保存，有的用统一码保存。"
ZH_HANS = _HANS_1 + "我们先检查每一个字节，再决定它属于哪一种编码。\n"
_HANT_1 = "這個目錄裡的檔案來自不同的年代，有的用大五碼儲存，有的用統一碼儲存。"
ZH_HANT = _HANT_1 + "我們先檢查每一個位元組，再決定它屬於哪一種編碼。\n"
FR = "Les élèves ont étudié l’œuvre de Molière — « un prix honnête » à 12 €.\n"


@pytest.fixture
def sample_files() -> dict[str, bytes]:
    """A small tree: UTF-8, UTF-8+BOM, GBK, Big5, windows-1252, UTF-16LE BOM, binary, empty."""
    return {
        "u8.txt": (ZH_HANS + FR).encode("utf-8"),
        "bom.txt": b"\xef\xbb\xbf" + FR.encode("utf-8"),
        "sub/gbk.txt": (ZH_HANS * 3).encode("gbk"),
        "sub/big5.txt": (ZH_HANT * 3).encode("big5"),
        "sub/deep/cp1252.txt": (FR * 3).encode("cp1252"),
        "u16.txt": b"\xff\xfe" + (FR + ZH_HANS).encode("utf-16-le"),
        "bin.dat": b"\x89PNG\r\n\x1a\n" + bytes(300) + bytes(range(256)),
        "empty.txt": b"",
    }


@pytest.fixture
def fake() -> str:
    return FAKE
