"""The code pages' decoding tables built in one decode equal the byte-by-byte reference."""

from __future__ import annotations

import pytest

from mojifix.detect.encodings import REGISTRY, UNDEFINED, _table, _table_bytewise

PAGES = [i for i in REGISTRY if i.kind in ("single", "ebcdic") and i.index is None]


@pytest.mark.parametrize("info", PAGES, ids=lambda i: i.name)
def test_one_decode_equals_byte_by_byte(info) -> None:
    assert _table.__wrapped__(info.name, info.pycodec, None) == _table_bytewise(info.pycodec)


def test_the_fallback_is_taken_and_undefined_bytes_are_marked() -> None:
    # cp424 leaves bytes below 0x80 unmapped ("surrogateescape" cannot mark them): read byte by byte
    table = _table.__wrapped__("cp424", "cp424", None)
    assert table[0x70] == UNDEFINED and len(table) == 256
    assert len(PAGES) >= 30 and any(UNDEFINED in _table_bytewise(i.pycodec) for i in PAGES)
