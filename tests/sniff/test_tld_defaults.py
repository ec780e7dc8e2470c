"""Chromium's TLD fallback table and host parsing."""

from __future__ import annotations

import pytest

from mojifix.sniff.tld_defaults import DEFAULT_FALLBACK, TLD_FALLBACKS, fallback_for_url, tld_of
from mojifix.whatwg import lookup


@pytest.mark.parametrize(
    ("url", "tld"),
    [
        ("http://example.jp/", "jp"),
        ("https://www.Example.CO.JP:8443/path?q=1", "jp"),
        ("example.ru", "ru"),
        ("http://localhost:8000/", None),
        ("http://127.0.0.1/", None),
        ("http://[::1]/", None),
        ("", None),
        (None, None),
        ("http://", None),
    ],
)
def test_tld_of(url: str | None, tld: str | None) -> None:
    assert tld_of(url) == tld


@pytest.mark.parametrize(
    ("tld", "encoding"),
    [
        # Measured with Chromium 156 (docs/browser-measurements.md, section 3).
        ("jp", "Shift_JIS"), ("ru", "windows-1251"), ("ua", "windows-1251"), ("cn", "GBK"), ("tw", "Big5"),
        ("kr", "EUC-KR"), ("gr", "ISO-8859-7"), ("tr", "windows-1254"), ("il", "windows-1255"),
        ("th", "windows-874"), ("vn", "windows-1258"), ("pl", "ISO-8859-2"), ("de", "windows-1252"),
    ],
)  # fmt: skip
def test_measured_entries(tld: str, encoding: str) -> None:
    assert fallback_for_url(f"http://example.{tld}/") == (encoding, tld)


def test_unlisted_tld_falls_back_to_windows_1252() -> None:
    assert fallback_for_url("http://example.com/") == (DEFAULT_FALLBACK, None)
    assert fallback_for_url(None) == ("windows-1252", None)


def test_every_entry_is_a_whatwg_encoding() -> None:
    for name in TLD_FALLBACKS.values():
        found = lookup(name)
        assert found is not None and found.name == name
