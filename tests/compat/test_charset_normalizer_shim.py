"""mojifix.compat.charset_normalizer: charset-normalizer's README usage, written anew, on mojifix."""

from __future__ import annotations

import io

import pytest

from mojifix.compat import charset_normalizer as cn
from mojifix.compat.chardet import detect as chardet_detect

TEXTS = [
    ("Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter. " * 5, "cp1252"),
    ("いろはにほへと ちりぬるを わかよたれそ つねならむ。 " * 5, "cp932"),
    ("Съешь же ещё этих мягких французских булок. " * 5, "koi8-r"),
    ("这个目录里的文件来自不同的年代。 " * 5, "gbk"),
    ("Ünïcödé “text” 🙂 " * 5, "utf-8"),
    ("with a BOM: café " * 5, "utf-8-sig"),
]


def test_readme_basic_usage_from_path(tmp_path):
    path = tmp_path / "my_subtitle.srt"
    text, codec = TEXTS[0]
    path.write_bytes(text.encode(codec))
    results = cn.from_path(path)
    assert str(results.best()) == text


@pytest.mark.parametrize(("text", "codec"), TEXTS)
def test_from_bytes_best_encoding_decodes_to_str(text, codec):
    data = text.encode(codec)
    best = cn.from_bytes(data).best()
    assert best is not None
    assert isinstance(best.encoding, str)
    assert str(best) == text
    assert data.decode(best.encoding) == str(best)
    assert best.raw == data
    assert best.output() == text.encode("utf-8")
    assert best.bom == best.byte_order_mark == (codec == "utf-8-sig")


def test_names_are_spelled_as_charset_normalizer_spells_them():
    real = pytest.importorskip("charset_normalizer")
    data = TEXTS[0][0].encode("cp1252")
    ours, theirs = cn.from_bytes(data).best(), real.from_bytes(data).best()
    assert ours.encoding == theirs.encoding == "cp1252"
    assert str(ours) == str(theirs)
    assert cn.from_bytes("café".encode()).best().encoding == "utf_8"


def test_binary_has_no_best_and_empty_is_utf_8():
    assert cn.from_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4).best() is None
    empty = cn.from_bytes(b"").best()
    assert empty is not None and empty.encoding == "utf_8" and str(empty) == ""


def test_matches_container():
    data = TEXTS[0][0].encode("cp1252")
    matches = cn.from_bytes(data)
    assert len(matches) >= 1 and bool(matches)
    assert matches[0] is matches.best() is matches.first()
    assert matches["cp1252"] is matches.best()
    assert matches["Windows-1252"] is matches.best()
    assert next(iter(matches)) is matches.best()
    with pytest.raises(KeyError):
        matches["euc_kr"]


def test_from_fp_and_detect():
    data = TEXTS[1][0].encode("cp932")
    assert str(cn.from_fp(io.BytesIO(data)).best()) == TEXTS[1][0]
    assert cn.detect(data) == chardet_detect(data)


def test_output_never_replaces():
    best = cn.from_bytes("日本語 ".encode("cp932") * 10).best()
    assert best is not None
    with pytest.raises(UnicodeEncodeError):
        best.output("latin-1")
