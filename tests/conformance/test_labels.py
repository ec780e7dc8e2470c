"""All 228 labels of the standard resolve to their encoding, with whitespace and case variants.

Reads ``encodings.json`` from the shared WHATWG data next to the repository (``../shared``); fails,
never skips, when it is missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mojifix.whatwg import lookup

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "whatwg"
#: The standard's label count at the data snapshot in ../shared/data/whatwg/SOURCE.md.
EXPECTED_LABELS = 228
ASCII_WHITESPACE = ["\t", "\n", "\f", "\r", " "]


def load_labels() -> list[tuple[str, str]]:
    path = SHARED / "encodings.json"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path.resolve()} is missing: the label conformance test needs the shared WHATWG data "
            "(../shared/data/whatwg next to the repository)"
        )
    groups = json.loads(path.read_text(encoding="utf-8"))
    return [(label, enc["name"]) for group in groups for enc in group["encodings"] for label in enc["labels"]]


LABELS = load_labels()


def test_label_count() -> None:
    assert len(LABELS) == EXPECTED_LABELS
    assert len({name for _, name in LABELS}) == 40


@pytest.mark.parametrize(("label", "name"), LABELS)
def test_label(label: str, name: str) -> None:
    variants = [label, label.upper(), label.title(), label.swapcase()]
    variants += [ws + label + ws for ws in ASCII_WHITESPACE]
    variants.append(" \t\n\f\r" + label.upper() + "\r\n\f\t ")
    for variant in variants:
        encoding = lookup(variant)
        assert encoding is not None, repr(variant)
        assert encoding.name == name, repr(variant)
    assert label in lookup(label).labels


@pytest.mark.parametrize(("label", "name"), LABELS)
def test_near_misses_are_not_labels(label: str, name: str) -> None:
    """Only ASCII whitespace is stripped and only ASCII letters are case-folded."""
    for variant in ("\v" + label, label + "\u00a0", "\u3000" + label, "\x00" + label):
        assert lookup(variant) is None, repr(variant)
    if "i" in label:  # U+0130 and U+0131 are not ASCII: "latİn1" is no label
        assert lookup(label.replace("i", "\u0130", 1)) is None
        assert lookup(label.replace("i", "\u0131", 1)) is None
    if "k" in label:  # KELVIN SIGN lowercases to "k" in Unicode, not in ASCII
        assert lookup(label.replace("k", "\u212a", 1)) is None


def test_names_lowercased_are_labels() -> None:
    """The standard notes that ASCII-lowercasing a name always yields one of its labels."""
    for _, name in LABELS:
        assert lookup(name.lower()).name == name
