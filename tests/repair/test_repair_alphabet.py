"""The step alphabets that prune repair's search, and proof that pruning changes no result.

A step (``encode_as``, ``decode_as``) can only change a run holding a character of its alphabet
(``_codecs.StepAlphabet``). Checked here: the lead-byte table against each decoder itself; the claim on
every single-byte step and on every step over generated runs; and the search (``_expand``) against the
reference search of every step and every run (``_expand_every_step``, with an alphabet that meets every
text for the replays) on the corpus, on correct text of many languages and on generated text: the same
candidates in the same order, the same ``Repaired`` results.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.repair import _codecs, _search, repair
from mojifix.repair._codecs import (
    SINGLE_BYTE,
    STEP_PAIRS,
    CodecFailure,
    StepAlphabet,
    decode_lossy,
    encode_strict,
    step_alphabet,
)

CASES = json.loads((Path(__file__).with_name("cases.json")).read_text(encoding="utf-8"))

#: correct text with legitimate non-ASCII letters (none of it is mojibake), and some that looks close
CORRECT = [
    "Le café de la gare a rouvert, même le dimanche : déjà très prisé.",
    "Größere Änderungen müssen vorher abgesprochen werden.",
    "São Paulo é a maior cidade do Brasil; ação, informação, pão.",
    "Ελληνικά: η γρήγορη καφέ αλεπού",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "中文信息处理，价格：¥120。",
    "日本語のテキスト、カタカナとひらがな。",
    "한국어 텍스트입니다, 감사합니다.",
    "Zażółć gęślą jaźń; Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "İstanbul’da Şişli, Çarşı ve Ağaç sokakları.",
    "Tiếng Việt có dấu: phở, bánh mì, cà phê sữa đá.",
    "עברית וערבית: שלום, مرحبا بالعالم",
    "© 2024 ACME™ — “quoted” ‘text’ … 10 € • 5 £ ½ ° ±",
]


def every_step_alphabet(encode_as: str, decode_as: str) -> StepAlphabet:
    """An alphabet that meets every non-ASCII text: no pruning at all (the full search)."""
    return StepAlphabet(None, frozenset(map(chr, range(0x80))))


@pytest.mark.parametrize("decode_as", sorted(_codecs._LEAD_BYTES))
def test_lead_bytes_are_the_decoders_own(decode_as: str) -> None:
    """A byte is a lead exactly when some byte after it is not decoded on its own."""
    for lead in range(0x80, 0x100):
        alone = decode_lossy(bytes((lead,)), decode_as)
        joins = any(
            decode_lossy(bytes((lead, trail)), decode_as) != alone + decode_lossy(bytes((trail,)), decode_as)
            for trail in range(0x100)
        )
        assert joins == (lead in _codecs._LEAD_BYTES[decode_as]), (decode_as, hex(lead))


@pytest.mark.parametrize("decode_as", sorted(_codecs._TRAIL_BYTES))
def test_trail_bytes_are_the_decoders_own(decode_as: str) -> None:
    """Every byte that some lead, it and what may follow decode strictly to one character with is a trail
    (the table may hold more: the standard's ranges, some of whose pointers the index leaves empty)."""
    tails = (b"", b"\x81\x30", b"\xa1", b"\x80", b"\x80\x80")  # gb18030's four bytes, EUC-JP's three
    for trail in range(0x100):
        joins = any(
            len(decoded) == 1
            for lead in _codecs._LEAD_BYTES[decode_as]
            for tail in tails
            for decoded in [_decoded_or_empty(bytes((lead, trail)) + tail, decode_as)]
        )
        assert trail in _codecs._TRAIL_BYTES[decode_as] or not joins, (decode_as, hex(trail))


def _decoded_or_empty(data: bytes, decode_as: str) -> str:
    try:
        return _codecs.decode_strict(data, decode_as)
    except CodecFailure:
        return ""


@pytest.mark.parametrize("pair", [pair for pair in STEP_PAIRS if pair[0] in SINGLE_BYTE])
def test_single_byte_alphabets_are_exact_per_character(pair: tuple[str, str]) -> None:
    """Outside the alphabet, a character followed by ASCII never changes (each one really is inert)."""
    encode_as, decode_as = pair
    alphabet = step_alphabet(encode_as, decode_as)
    assert alphabet.chars is not None
    table = _codecs._table(encode_as)
    for ch in sorted(table.encodable - alphabet.chars):
        for text in (ch, ch + "a", "a" + ch + "b", ch + ch):
            with contextlib.suppress(CodecFailure):
                assert _search._roundtrip(text, _search.Step(encode_as, decode_as)) == text, (pair, text)


def _runs_of(draw_chars: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.text(draw_chars, max_size=12)


_MIXED = st.one_of(
    st.sampled_from(list("aeéèàçüößñÃÂ©€™–“”¤¥‾ãõ·°±²µ¶»¼½¾¿×÷ΑθήПриветЖ")),
    st.characters(min_codepoint=0x80, max_codepoint=0x024F),
    st.characters(min_codepoint=0x0370, max_codepoint=0x04FF),
    st.characters(min_codepoint=0x2000, max_codepoint=0x20CF),
    st.characters(min_codepoint=0x3040, max_codepoint=0x30FF),
    st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),
    st.characters(min_codepoint=0xFF61, max_codepoint=0xFF9F),
)


@settings(max_examples=300, deadline=None)
@given(st.text(_MIXED, min_size=1, max_size=12))
def test_a_run_outside_the_alphabet_is_never_changed(run: str) -> None:
    """The claim itself, for every step: no alphabet character, no change (the step fails or is a no-op)."""
    for encode_as, decode_as in STEP_PAIRS:
        if step_alphabet(encode_as, decode_as).meets(run):
            continue
        try:
            out = _search._roundtrip(run, _search.Step(encode_as, decode_as))
        except CodecFailure:
            continue
        assert out == run, (encode_as, decode_as, run)


def _texts() -> list[str]:
    return [case["input"] for case in CASES] + [case["original"] for case in CASES] + CORRECT


def test_pruned_expansion_equals_the_full_one() -> None:
    """Depth 1 and 2 of the search: the same candidates, in the same order, as the reference search."""
    checked = 0
    for text in _texts():
        if text.isascii():
            continue
        full = _search._expand_every_step(text, ())
        assert _search._expand(text, ()) == full, text
        for cand in full[:2]:
            if not cand.text.isascii():
                pruned = _search._expand(cand.text, cand.plan)
                assert pruned == _search._expand_every_step(cand.text, cand.plan)
        checked += 1
    assert checked > 1500


def _full_search_repair(text: str, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as patch:
        _every_step(patch)
        return repair(text)


def _every_step(patch: pytest.MonkeyPatch) -> None:
    """The reference search: every step, every run (no alphabet), each run encoded on its own."""
    patch.setattr(_search, "step_alphabet", every_step_alphabet)
    patch.setattr(_search, "_expand", _search._expand_every_step)
    patch.setattr(_search, "_compiled_steps", lambda: None)


def test_pruned_repair_equals_the_full_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole results (text, plan, confidence, language, gain, notes) on the corpus and on correct text."""
    texts = _texts()
    pruned = [repair(text) for text in texts]
    full = [_full_search_repair(text, monkeypatch) for text in texts]
    assert pruned == full
    assert sum(r.changed for r in pruned) > 1000  # the corpus' repairs are in there


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(_MIXED, min_size=1, max_size=8), min_size=1, max_size=5))
def test_pruned_repair_equals_the_full_search_on_generated_text(words: list[str]) -> None:
    text = " ".join(words)
    with pytest.MonkeyPatch.context() as patch:
        _every_step(patch)
        full = repair(text)
    assert repair(text) == full


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(CORRECT), st.sampled_from(["iso-8859-1", "windows-1252", "GBK", "Shift_JIS"]))
def test_pruned_repair_equals_the_full_search_on_mojibake(text: str, reader: str) -> None:
    garbled = decode_lossy(text.encode(), reader)
    with pytest.MonkeyPatch.context() as patch:
        _every_step(patch)
        full = repair(garbled)
    assert repair(garbled) == full


def test_shift_jis_yen_sign_is_in_the_alphabet() -> None:
    """U+00A5 is 0x5C in the Shift_JIS encoder: rebuilt and read as UTF-8 it is a backslash, a change."""
    assert encode_strict("¥", "Shift_JIS") == b"\\"
    assert step_alphabet("Shift_JIS", "UTF-8").meets("¥")


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["GBK", "gb18030", "Big5", "Shift_JIS", "EUC-KR", "EUC-JP"]),
    st.sets(st.one_of(_MIXED, st.characters()), max_size=20),
)
def test_learnt_bytes_are_encode_strict(name: str, chars: set[str]) -> None:
    """The one-call encoding of new characters gives what encode_strict gives for each (None: it fails)."""
    for ch, data in _codecs._encoded_each(chars, name).items():
        try:
            expected: bytes | None = encode_strict(ch, name)
        except CodecFailure:
            expected = None
        assert data == expected, (name, ch)
