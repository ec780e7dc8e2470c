"""sniff/result.py: the hot path's ``new_decoded_html`` builds exactly what ``DecodedHTML(...)`` builds."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from mojifix.sniff.result import DecodedHTML, Finding, new_decoded_html

FIELDS = [f.name for f in dataclasses.fields(DecodedHTML)]


def _values() -> dict[str, object]:
    warning = Finding("late-meta", "moved", {"offset": 2000})
    return {
        "text": "Größe",
        "encoding": "windows-1252",
        "source": "meta-late",
        "confidence": "tentative",
        "label": "latin1",
        "label_origin": "<meta charset> at byte 2000",
        "warnings": (warning,),
        "replacement_count": 3,
        "browser_encoding": "windows-1251",
        "browser_source": "tld-default",
    }


def test_factory_takes_exactly_the_dataclass_fields() -> None:
    # A field added to DecodedHTML must be added to the factory too (else it would be left unset).
    assert list(inspect.signature(new_decoded_html).parameters) == FIELDS
    assert set(_values()) == set(FIELDS)


def test_factory_builds_what_init_builds() -> None:
    fast = new_decoded_html(**_values())  # type: ignore[arg-type]
    slow = DecodedHTML(**_values())  # type: ignore[arg-type]
    assert type(fast) is DecodedHTML
    assert fast == slow and fast.to_json() == slow.to_json()
    for name in FIELDS:
        assert getattr(fast, name) == getattr(slow, name), name
    assert str(fast) == str(slow)


def test_factory_result_is_frozen() -> None:
    fast = new_decoded_html(**_values())  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.encoding = "UTF-8"  # type: ignore[misc]
    assert dataclasses.replace(fast, encoding="UTF-8").encoding == "UTF-8"
