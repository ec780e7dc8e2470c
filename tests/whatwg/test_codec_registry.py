"""Every encoding is reachable through Python's codec registry as ``whatwg-<name>``."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

import mojifix.whatwg
from mojifix.errors import DecodeError, EncodeError
from mojifix.whatwg import codec_registry, lookup
from mojifix.whatwg._tables import ENCODINGS

NAMES = [name for name, _ in ENCODINGS]


@pytest.mark.parametrize("name", NAMES)
def test_every_encoding_is_registered(name: str) -> None:
    encoding = lookup(name)
    info = codecs.lookup(encoding.codec_name)
    assert info.name == encoding.codec_name
    sample = bytes(range(0x20, 0x7F)) + bytes(range(0x80, 0x100))
    assert sample.decode(encoding.codec_name, "replace") == encoding.decode(sample, bom="ignore")


def test_spelling_variants() -> None:
    for variant in ("whatwg-shift_jis", "WHATWG-Shift-JIS", "whatwg_shift_jis", "whatwg shift jis"):
        assert codecs.lookup(variant).name == "whatwg-shift_jis"
    assert codecs.lookup("whatwg-x_user_defined").name == "whatwg-x-user-defined"
    assert codecs.lookup("whatwg-ISO-8859-8-I").name == "whatwg-iso-8859-8-i"


def test_labels_are_not_codec_names_and_cpython_codecs_are_untouched() -> None:
    with pytest.raises(LookupError):
        codecs.lookup("whatwg-sjis")  # a label, not a name
    with pytest.raises(LookupError):
        codecs.lookup("whatwg-")
    assert codecs.lookup("shift_jis").name == "shift_jis"  # CPython's own codec


def test_decode_is_exact_and_without_bom_processing() -> None:
    assert b"\x81\x8d".decode("whatwg-windows-1252") == "\x81\x8d"  # CPython's cp1252 raises here
    assert b"\xef\xbb\xbfa".decode("whatwg-utf-8") == "\ufeffa"
    assert b"\xff\xfeA\x00".decode("whatwg-windows-1252") == "ÿþA\x00"


def test_error_handlers() -> None:
    assert b"a\xff".decode("whatwg-utf-8", "replace") == "a\ufffd"
    with pytest.raises(DecodeError) as info:
        b"a\xff".decode("whatwg-utf-8")
    assert (info.value.start, info.value.end) == (1, 2)
    assert "✓".encode("whatwg-windows-1252", "xmlcharrefreplace") == b"&#10003;"
    with pytest.raises(EncodeError):
        "✓".encode("whatwg-windows-1252")
    with pytest.raises(ValueError, match="'strict' or 'replace'"):
        b"a".decode("whatwg-utf-8", "ignore")
    with pytest.raises(ValueError, match="xmlcharrefreplace"):
        "a".encode("whatwg-utf-8", "replace")


def test_incremental_codecs() -> None:
    decoder = codecs.getincrementaldecoder("whatwg-utf-16le")()
    data = "a😀b".encode("utf-16-le")
    assert (
        "".join(decoder.decode(data[i : i + 1]) for i in range(len(data))) + decoder.decode(b"", final=True)
        == "a😀b"
    )
    encoder = codecs.getincrementalencoder("whatwg-windows-1251")()
    assert encoder.encode("при") + encoder.encode("вет", final=True) == "привет".encode("cp1251")
    state = decoder.getstate()
    decoder.setstate(state)


def test_open_reads_and_writes(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(b"caf\xe9 \x81\n" * 3000)
    with open(path, encoding="whatwg-windows-1252") as f:
        assert f.read() == "café \x81\n" * 3000
    with open(path, "w", encoding="whatwg-koi8-u") as f:
        f.write("ўЎ")
    assert path.read_bytes() == b"\xae\xbe"
    path.write_bytes(b"\xf0\x9f\x98\x80" * 5000)
    with open(path, encoding="whatwg-utf-8") as f:
        assert f.read() == "😀" * 5000


def test_register_is_idempotent() -> None:
    codec_registry.register()
    codec_registry.register()
    assert codecs.lookup("whatwg-utf-8").name == "whatwg-utf-8"
    assert codec_registry.search("utf-8") is None
    assert mojifix.whatwg.lookup("utf-8").codec_name == "whatwg-utf-8"
