"""The evaluation helpers behind the development and test reports (benchmarks/detect_eval.py,
tools/detect_testset.py): the fair metric, the families, the split of the catalogs."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

import detect_eval  # noqa: E402
import detect_testset  # noqa: E402


def test_mapping_conventions_are_not_held_against_an_answer():
    # 0x8160 is "〜" (U+301C) in Python's shift_jis and "～" (U+FF5E) in cp932 and in the WHATWG
    # Shift_JIS decoder: a shift_jis file answered "cp932" is right, since the truth label's WHATWG
    # decoding gives the same text as the answer's Python codec
    data = "表示〜テスト".encode("shift_jis")
    truths = detect_eval.decodings(data, "shift_jis")
    assert len(truths) == 2
    assert detect_eval.is_right(data, "cp932", truths)
    assert detect_eval.is_right(data, "Shift_JIS", truths)
    assert not detect_eval.is_right(data, "EUC-JP", truths)
    assert not detect_eval.is_right(data, None, truths)


def test_bom_is_not_text():
    data = "\ufeffhello".encode("utf-8")
    assert detect_eval.decodings(data, "utf-8") == {"hello"}


def test_families_follow_the_issue():
    assert detect_eval.family("windows-1258") == "latin-other"
    assert detect_eval.family("cp1125") == "dos-oem"
    assert detect_eval.family("mac_latin2") == "mac"
    assert detect_eval.family("cp273") == "ebcdic"
    assert detect_eval.family("big5hkscs") == "chinese-trad"
    assert detect_eval.family("viscii") == "other"


def test_catalog_split_is_a_partition_and_stable():
    domains = [f"domain{i}" for i in range(200)] + ["gtk30", "glib20", "coreutils"]
    halves = {d: detect_testset.split_of(d) for d in domains}
    assert set(halves.values()) == {"test", "dev"}
    assert 60 < sum(v == "test" for v in halves.values()) < 140
    assert halves == {d: detect_testset.split_of(d) for d in domains}


def test_messages_are_cleaned_of_placeholders_and_accelerators():
    assert detect_testset.clean("_Open %s in <b>%1$d</b> {name} windows") == "Open in windows"
    assert detect_testset.clean("&Datei   öffnen") == "Datei öffnen"
