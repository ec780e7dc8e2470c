"""The generated corpus (cases.json): every chain one and two layers deep, negatives, decisions.

Schema: see gen_cases.py / docs/repair.md. Known failures are strict xfails: fixing one fails the suite
until its ``known_failure`` entry is removed from gen_cases.py.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from mojifix.repair import apply_plan, repair

CASES_PATH = Path(__file__).with_name("cases.json")
CASES: list[dict] = json.loads(CASES_PATH.read_text(encoding="utf-8"))


def _params() -> list:
    out = []
    for case in CASES:
        marks = (
            [pytest.mark.xfail(strict=True, reason=case["known_failure"])] if case["known_failure"] else []
        )
        out.append(pytest.param(case, id=case["label"], marks=marks))
    return out


@pytest.mark.parametrize("case", _params())
def test_case(case: dict) -> None:
    result = repair(case["input"])
    if case["expect"] == "fixed":
        assert result.text == case["original"]
        assert result.changed and result.plan
        assert result.unrecoverable is None
        assert 1 <= len(result.plan) <= 2
        assert apply_plan(case["input"], result.plan) == case["original"]  # the plan replays
    elif case["expect"] == "unchanged":
        assert result.text == case["input"]
        assert result.plan == ()
        assert not result.changed
    else:  # unrecoverable: say so, and never invent text in place of what was lost
        assert result.unrecoverable
        if result.changed:  # partial recovery: exact everywhere but at the U+FFFDs (one per loss site)
            assert result.text.count("\ufffd") == case["input"].count("\ufffd")
            assert consistent_with(result.text, case["original"])


def consistent_with(partial: str, original: str) -> bool:
    """True when ``partial`` is ``original`` with some characters replaced by U+FFFD.

    A run of U+FFFD stands for one or more lost characters (two loss sites may hit one character).
    """
    pattern = ".+?".join(re.escape(piece) for piece in re.split("\ufffd+", partial))
    return re.fullmatch(pattern, original, flags=re.DOTALL) is not None


def test_corpus_covers_the_issue() -> None:
    """At least 10 languages, every chain family, one and two layers, negatives and decisions."""
    langs = {c["language"] for c in CASES if c["category"] != "negative" or c["chain"]}
    assert len(langs) >= 10
    chains = {tuple(map(tuple, c["chain"])) for c in CASES}
    for needed in [
        (("UTF-8", "iso-8859-1"),),
        (("UTF-8", "windows-1252"),),
        (("UTF-8", "macintosh"),),
        (("UTF-8", "cp437"),),
        (("GBK", "iso-8859-1"),),
        (("Big5", "windows-1252"),),
        (("Shift_JIS", "iso-8859-1"),),
        (("EUC-KR", "windows-1252"),),
        (("EUC-JP", "iso-8859-1"),),
        (("UTF-8", "GBK"),),
        (("UTF-8", "Big5"),),
        (("UTF-8", "Shift_JIS"),),
        (("UTF-8", "windows-1252"), ("UTF-8", "windows-1252")),
    ]:
        assert needed in chains, needed
    expects = {c["expect"] for c in CASES}
    assert expects == {"fixed", "unchanged", "unrecoverable"}
    assert sum(c["category"] == "negative" for c in CASES) >= 50


def test_corpus_is_fresh() -> None:
    """cases.json is exactly what gen_cases.py writes (edit the generator, then rerun it)."""
    spec = importlib.util.spec_from_file_location("gen_cases", Path(__file__).with_name("gen_cases.py"))
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert CASES_PATH.read_text(encoding="utf-8") == gen.render(gen.build()), "run tests/repair/gen_cases.py"
