"""Replaying plans: apply_plan(other_text, plan) repairs other text with the same history."""

from __future__ import annotations

import json

import pytest

from mojifix.errors import RepairError
from mojifix.repair import Repaired, Step, apply_plan, repair
from mojifix.repair._codecs import decode_lossy


def _garble(text: str, *chain: tuple[str, str]) -> str:
    for enc, dec in chain:
        text = decode_lossy(text.encode(enc), dec)
    return text


def test_plan_learned_on_one_text_repairs_another() -> None:
    first = repair(_garble("Le café est prêt.", ("utf-8", "windows-1252")))
    other = _garble("Ça coûte 3 € à Besançon.", ("utf-8", "windows-1252"))
    assert first.plan == (Step("windows-1252", "UTF-8"),) or first.plan == (Step("iso-8859-1", "UTF-8"),)
    # the other text holds € and “’”-style windows-1252-only characters: replay with the learned plan
    assert apply_plan(other, (Step("windows-1252", "UTF-8"),)) == "Ça coûte 3 € à Besançon."


def test_two_layer_plan_replays_on_other_text() -> None:
    original = "今天天气很好"
    garbled = _garble(_garble(original, ("gbk", "latin-1")), ("utf-8", "windows-1252"))
    result = repair(garbled)
    assert result.text == original and len(result.plan) == 2
    other = "价格太贵了"
    assert (
        apply_plan(_garble(_garble(other, ("gbk", "latin-1")), ("utf-8", "windows-1252")), result.plan)
        == other
    )


def test_plan_survives_json() -> None:
    result = repair(_garble("Größere Änderungen", ("utf-8", "windows-1252")))
    data = json.loads(result.to_json())
    plan = [Step.from_dict(d) for d in data["plan"]]
    assert tuple(plan) == result.plan
    assert apply_plan(result.original, data["plan"]) == "Größere Änderungen"  # dicts are accepted too


def test_runs_scope_replays_only_garbled_runs() -> None:
    text = "Café déjà vu, " + _garble("Café déjà vu", ("utf-8", "latin-1"))
    result = repair(text)
    assert result.text == "Café déjà vu, Café déjà vu"
    assert [s.scope for s in result.plan] == ["runs"]
    assert apply_plan("naïve " + _garble("naïve", ("utf-8", "latin-1")), result.plan) == "naïve naïve"


def test_wrong_history_raises_repair_error() -> None:
    with pytest.raises(RepairError, match="did not go through the same wrong decoding"):
        apply_plan("Café", (Step("iso-8859-1", "UTF-8"),))  # E9 alone is not UTF-8
    with pytest.raises(RepairError, match="unknown codec"):
        apply_plan("x", (Step("no-such-codec", "UTF-8"),))
    with pytest.raises(RepairError, match="scope"):
        Step("iso-8859-1", "UTF-8", "everywhere")
    with pytest.raises(RepairError, match="not a repair step"):
        Step.from_dict({"encode": "x"})


def test_empty_plan_is_identity() -> None:
    assert apply_plan("CafÃ©", ()) == "CafÃ©"


def test_result_is_frozen_and_printable() -> None:
    result = repair("CafÃ©")
    assert isinstance(result, Repaired)
    assert str(result) == "Café"
    with pytest.raises(AttributeError):
        result.text = "x"  # type: ignore[misc]
    explanation = result.explain()
    assert "encode as iso-8859-1, decode as UTF-8" in explanation
    assert "10^" in explanation
    assert "left unchanged" in repair("Café").explain()


def test_lossy_plan_replays_on_other_text_with_lost_bytes() -> None:
    garbled = _garble("中文的文字 ok", ("utf-8", "GBK"))
    result = repair(garbled)
    assert [s.scope for s in result.plan] == ["lossy"]
    other = _garble("你好吗 ok", ("utf-8", "GBK"))  # 9 bytes: the last one is lost too
    assert apply_plan(other, result.plan) == "你好\ufffd ok"
