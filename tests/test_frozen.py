"""mojifix._frozen: the generated constructor builds what the dataclass's ``__init__`` builds."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from mojifix._frozen import slot_constructor
from mojifix.integrations.warc import HttpRecord, WarcRow, _new_http_record, _new_row
from mojifix.sniff.result import DecodedHTML, new_decoded_html

ROW = {
    "uri": "http://example.fr/",
    "record_id": "<urn:uuid:1>",
    "date": "2024-01-01T00:00:00+00:00",
    "status": 200,
    "content_type": "text/html",
    "kind": "html",
    "encoding": "windows-1252",
    "source": "meta",
    "confidence": "tentative",
    "browser_encoding": "windows-1252",
    "overridden": False,
    "warnings": ("late-meta",),
    "replacement_count": 0,
    "truncated": None,
    "text": "café",
}
RECORD = {
    "record_type": "response",
    "uri": "http://example.fr/",
    "record_id": "<urn:uuid:1>",
    "date": "2024-01-01T00:00:00Z",
    "status": 200,
    "headers": (("Content-Type", "text/html"),),
    "payload": b"caf\xe9",
    "truncated": None,
    "problems": ("warc-content-length-mismatch",),
    "content_length": 99,
}


@pytest.mark.parametrize(
    ("cls", "build", "values"), [(WarcRow, _new_row, ROW), (HttpRecord, _new_http_record, RECORD)]
)
def test_builds_what_init_builds(cls: type, build, values: dict[str, object]) -> None:
    fast, slow = build(**values), cls(**values)
    assert type(fast) is cls and fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert list(inspect.signature(build).parameters) == [f.name for f in dataclasses.fields(cls)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.uri = "x"


def test_defaults_are_the_dataclass_defaults() -> None:
    values = {k: v for k, v in RECORD.items() if k not in ("problems", "content_length")}
    assert _new_http_record(**values) == HttpRecord(**values)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _new_http_record(**{k: v for k, v in values.items() if k != "uri"})  # a field without default


def test_decoded_html_constructor_is_generated_from_its_fields() -> None:
    assert list(inspect.signature(new_decoded_html).parameters) == [
        f.name for f in dataclasses.fields(DecodedHTML)
    ]


def test_refuses_classes_it_cannot_build() -> None:
    @dataclasses.dataclass(slots=True)
    class Mutable:
        a: int

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class PostInit:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    for cls in (Mutable, NoSlots, PostInit, Factory, int):
        with pytest.raises(TypeError):
            slot_constructor(cls)
