"""The XML declaration's encoding (HTML Standard "get an XML encoding"; Chromium's CheckForXMLCharset)."""

from __future__ import annotations

import pytest

from mojifix.sniff.xml_declaration import get_xml_encoding


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'<?xml version="1.0" encoding="koi8-r"?>', "KOI8-R"),
        (b"<?xml encoding='koi8-r'?>", "KOI8-R"),
        (b'<?xml version="1.0" encoding = "koi8-r" ?>', "KOI8-R"),
        (b'<?xml version="1.0" encoding="utf-16"?>', "UTF-8"),  # step 17
        (b'<?xml version="1.0" encoding="x-user-defined"?>', "x-user-defined"),  # not mapped (measured)
        (b'<?xml version="1.0" encoding="iso-2022-kr"?>', "replacement"),
        (b' <?xml version="1.0" encoding="koi8-r"?>', None),  # only at byte 0
        (b'\n<?xml version="1.0" encoding="koi8-r"?>', None),
        (b'<?XML version="1.0" encoding="koi8-r"?>', None),  # case-sensitive
        (b'<?xml version="1.0" Encoding="koi8-r"?>', None),
        (b"<?xml version='1.0' encoding=koi8-r?>", None),  # unquoted
        (b'<?xml version="1.0" encoding="koi8-r ?>', None),  # no closing quote before ">"
        (b'<?xml version="1.0" encoding="koi 8"?>', None),  # a space inside the label
        (b'<?xml version="1.0" encoding="bogus"?>', None),
        (b'<?xml version="1.0" encoding="koi8-r"', None),  # no ">"
        (b'<?xml version="1.0"?><p encoding="koi8-r">', None),  # "encoding" after the declaration
        (b"", None),
    ],
)
def test_get_xml_encoding(data: bytes, expected: str | None) -> None:
    found = get_xml_encoding(data)
    assert (None if found is None else found.encoding.name) == expected


def test_label_and_offsets() -> None:
    data = b'<?xml version="1.0" encoding="KOI8-R"?><p>'
    found = get_xml_encoding(data)
    assert found is not None
    assert (found.label, found.start, found.end, found.kind) == (
        "KOI8-R",
        0,
        data.index(b'"?>') + 1,
        "xml-declaration",
    )
