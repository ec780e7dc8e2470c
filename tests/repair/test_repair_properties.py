"""Properties: repair never raises on text, its plan reproduces its output, ASCII is never touched."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import mojifix
from mojifix.repair import apply_plan, repair
from mojifix.repair._codecs import decode_lossy

_ALPHABET = st.sampled_from(list("aeéèàçüößñ ÃÂ©€™–“”¤中文日本語한국어ПриветΑθήνα.,!?0123456789\ufffd涓枃"))


@settings(max_examples=60, deadline=None)
@given(st.text(_ALPHABET, max_size=24))
def test_plan_reproduces_output(text: str) -> None:
    result = repair(text)
    assert apply_plan(text, result.plan) == result.text
    assert result.changed == bool(result.plan)
    assert 0.0 <= result.confidence <= 1.0


@settings(max_examples=40, deadline=None)
@given(st.text(st.characters(max_codepoint=0x7F), max_size=40))
def test_ascii_is_never_changed(text: str) -> None:
    result = repair(text)
    assert result.text == text and result.plan == ()


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(["Größere Änderungen", "déjà prêt", "中文信息处理", "日本語のテキスト", "Привет мир"]),
    st.sampled_from(["iso-8859-1", "windows-1252", "macintosh"]),
)
def test_utf8_mojibake_is_undone(text: str, reader: str) -> None:
    assert repair(decode_lossy(text.encode(), reader)).text == text


def test_max_steps_limits_layers() -> None:
    double = decode_lossy(decode_lossy("déjà".encode(), "windows-1252").encode(), "windows-1252")
    assert repair(double).text == "déjà"
    assert repair(double, max_steps=1).text == decode_lossy("déjà".encode(), "windows-1252")
    assert repair(double, max_steps=0).text == double


def test_public_api_shortcut() -> None:
    assert mojifix.repair("CafÃ©").text == "Café"
    assert mojifix.apply_plan("CafÃ©", mojifix.repair("CafÃ©").plan) == "Café"
