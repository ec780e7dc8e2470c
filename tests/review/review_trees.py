"""Generated trees whose quarantine holds ambiguous short notes and mixed files of several kinds.

Texts are written for these tests (short notes) or drawn from ``mojifix.convert.corpus`` (mixed files);
the ground truth stays in memory (:class:`Planted`), never in the tree.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

from mojifix.convert.corpus import make_text

#: the stand-in detector (tests/review is on sys.path, see conftest.py)
STANDIN = "review_standin:detect"

#: short notes: (encoding name as mojifix reports it, Python codec, text)
NOTES: tuple[tuple[str, str, str], ...] = (
    ("GBK", "gbk", "会议记录在第二个文件夹"),
    ("Big5", "big5", "會議紀錄在第二個資料夾"),
    ("windows-1252", "cp1252", "Café crème à 4 €, s’il vous plaît"),
    ("KOI8-R", "koi8-r", "Привет, мир: заметка"),
    ("Shift_JIS", "shift_jis", "日本語のメモです"),
    ("EUC-KR", "euc-kr", "한국어 메모입니다"),
)
#: mixed files: (head corpus label, head name, head language, tail label, tail name, tail language)
MIXED: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("gbk", "GBK", "zh-Hans", "utf-16be", "UTF-16BE", "fr"),
    ("cp1252", "windows-1252", "de", "utf-8", "UTF-8", "zh-Hant"),
    ("big5", "Big5", "zh-Hant", "utf-16le", "UTF-16LE", "en"),
)
_CODEC = {"gbk": "gbk", "cp1252": "cp1252", "big5": "big5", "utf-16be": "utf-16-be", "utf-16le": "utf-16-le"}


@dataclass(frozen=True, slots=True)
class Planted:
    """One file of a generated tree and the truth about it."""

    rel: bytes
    text: str
    encoding: str | None = None  # a note's encoding
    boundary: int | None = None  # a mixed file's boundary...
    head: str | None = None  # ...and its two encodings
    tail: str | None = None

    @property
    def path(self) -> str:
        return self.rel.decode("utf-8", "backslashreplace")


def _write(root: Path, rel: bytes, data: bytes) -> None:
    path = os.path.join(os.fsencode(root), rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def review_tree(root: Path, seed: int = 17) -> list[Planted]:
    """Notes in six encodings, three mixed files, a hostile name and a name that is not UTF-8."""
    rng = random.Random(seed)
    planted: list[Planted] = []
    for n, (name, codec, text) in enumerate(NOTES):
        rel = f"notes/n{n}.txt".encode()
        _write(root, rel, text.encode(codec))
        planted.append(Planted(rel, text, encoding=name))
    for n, (hl, hname, hlang, tl, tname, tlang) in enumerate(MIXED):
        head = make_text(rng, hlang, 700, hl)
        tail = make_text(rng, tlang, 200, tl)
        hb = head.encode(_CODEC.get(hl, hl))
        rel = f"mixed/m{n}.txt".encode()
        _write(root, rel, hb + tail.encode(_CODEC.get(tl, tl)))
        planted.append(Planted(rel, head + tail, boundary=len(hb), head=hname, tail=tname))
    hostile = "Café </script><script>window.__pwned = 2</script> <!-- «»"
    rel = b'odd/<img src=x onerror="window.__pwned=1">&amp;.txt'
    _write(root, rel, hostile.encode("cp1252"))
    planted.append(Planted(rel, hostile, encoding="windows-1252"))
    rel = b"odd/caf\xe9-note.txt"  # a windows-1252 file name: not valid UTF-8
    _write(root, rel, "Grüße aus München".encode("cp1252"))
    planted.append(Planted(rel, "Grüße aus München", encoding="windows-1252"))
    clean = make_text(rng, "en", 300, "utf-8")
    _write(root, b"clean/readme.txt", clean.encode())  # not quarantined: must stay as it is
    return planted


def big_quarantine(root: Path, files: int) -> list[Planted]:
    """``files`` short notes (all ambiguous under the stand-in), cycling through :data:`NOTES`."""
    planted = []
    for i in range(files):
        name, codec, text = NOTES[i % len(NOTES)]
        text = f"{text} {i}"
        rel = f"d{i % 10}/note{i:04d}.txt".encode()
        _write(root, rel, text.encode(codec))
        planted.append(Planted(rel, text, encoding=name))
    return planted
