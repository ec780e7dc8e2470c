"""Every pointer of every single-byte index decodes to its code point; the encoders invert them.

Reads the standard's own index files from ``../shared/data/whatwg`` (fails when missing). Also checks the
facts single_byte.py relies on: no index maps two pointers to one code point or a pointer to ASCII.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mojifix.errors import DecodeError, EncodeError
from mojifix.whatwg import lookup

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "whatwg"


def shared(name: str) -> Path:
    path = SHARED / name
    if not path.is_file():
        raise FileNotFoundError(f"{path.resolve()} is missing: these tests need ../shared/data/whatwg")
    return path


def single_byte_encodings() -> list[tuple[str, str]]:
    groups = json.loads(shared("encodings.json").read_text(encoding="utf-8"))
    (group,) = [g for g in groups if g["heading"] == "Legacy single-byte encodings"]
    return [
        (e["name"], "iso-8859-8" if e["name"] == "ISO-8859-8-I" else e["name"].lower())
        for e in group["encodings"]
    ]


def read_index(stem: str) -> dict[int, int]:
    entries = {}
    for line in shared(f"index-{stem}.txt").read_text(encoding="utf-8").split("\n"):
        if line.strip() and not line.startswith("#"):
            pointer, code_point = line.split("\t")[:2]
            entries[int(pointer)] = int(code_point, 16)
    return entries


ENCODINGS = single_byte_encodings()


def test_there_are_28() -> None:
    assert len(ENCODINGS) == 28


@pytest.mark.parametrize(("name", "stem"), ENCODINGS)
def test_decode_every_pointer(name: str, stem: str) -> None:
    index = read_index(stem)
    encoding = lookup(name)
    for byte in range(0x80):
        assert encoding.decode(bytes([byte]), errors="strict", bom="ignore") == chr(byte)
    for pointer in range(128):
        data = bytes([0x80 + pointer])
        if pointer in index:
            assert encoding.decode(data, errors="strict", bom="ignore") == chr(index[pointer]), pointer
        else:
            assert encoding.decode(data, bom="ignore") == "\ufffd"
            with pytest.raises(DecodeError):
                encoding.decode(data, errors="strict", bom="ignore")


@pytest.mark.parametrize(("name", "stem"), ENCODINGS)
def test_encode_every_code_point(name: str, stem: str) -> None:
    index = read_index(stem)
    encoding = lookup(name)
    assert len(set(index.values())) == len(index), "an index maps two pointers to one code point"
    assert all(cp >= 0x80 for cp in index.values()), "an index maps a pointer to ASCII"
    for code_point in range(0x80):
        assert encoding.encode(chr(code_point)) == bytes([code_point])
    # single-byte encoder: the index pointer for the code point, + 0x80
    first_pointer: dict[int, int] = {}
    for pointer, code_point in sorted(index.items()):
        first_pointer.setdefault(code_point, pointer)
    for code_point, pointer in first_pointer.items():
        assert encoding.encode(chr(code_point)) == bytes([0x80 + pointer])
    # a sample of code points not in the index: errors, and html mode writes a reference
    for code_point in (0x80, 0xFFFD, 0xFFFE, 0x1F600, 0x3042, 0x0100):
        if code_point in first_pointer:
            continue
        with pytest.raises(EncodeError):
            encoding.encode(chr(code_point))
        assert encoding.encode(chr(code_point), errors="html") == f"&#{code_point};".encode()
