"""End to end with mojifix's own detector on a generated corpus (mojifix.convert.corpus).

What convert itself guarantees is checked independently of the detector's accuracy: every written
file is a proven lossless conversion (re-checked here from the source bytes). What the issue demands
end to end is checked too: every file with an appended tail is quarantined (never written as if it
were right), and no clean file is quarantined as mixed.
"""

from __future__ import annotations

import pytest

from mojifix.convert import convert
from mojifix.convert.codec import decode_strict, encode_strict, reencode_name
from mojifix.convert.corpus import generate


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("corpus")
    truths = generate(root / "src", files_per_encoding=8, corrupted=12, mean_bytes=2000, seed=11)
    report = convert(root / "src", root / "dst", salvage=True, fsync=False)
    return root, truths, {r.path: r for r in report.records}


def test_every_written_file_is_a_proven_lossless_conversion(run) -> None:
    root, truths, recs = run
    written = 0
    for t in truths:
        r = recs[t.path]
        if r.outcome not in ("converted", "utf8"):
            continue
        written += 1
        src = (root / "src" / t.path).read_bytes()
        out = (root / "dst" / r.output).read_bytes()
        body = src[3:] if r.bom == "UTF-8" else src[2:] if r.bom else src
        text = out.decode("utf-8")
        assert decode_strict(body, r.encoding) == text, t.path
        assert "\ufffd" not in text or r.encoding == "UTF-8"
        assert encode_strict(text, reencode_name(r.encoding)) == body, t.path
    assert written >= len(truths) // 2


def test_files_with_a_foreign_tail_are_never_written(run) -> None:
    _root, truths, recs = run
    corrupted = [t for t in truths if not t.clean]
    assert len(corrupted) == 12
    written = [
        (t.path, t.label, t.tail_label, recs[t.path].encoding)
        for t in corrupted
        if recs[t.path].outcome in ("converted", "utf8")
    ]
    assert written == [], "mixed files converted as if they were one encoding"


def test_mixed_verdicts_name_the_boundary_and_salvage_matches_the_truth(run) -> None:
    root, truths, recs = run
    clean_mixed = [t.path for t in truths if t.clean and recs[t.path].mixed is not None]
    assert clean_mixed == [], "clean files reported as mixed"
    salvaged = 0
    for t in truths:
        r = recs[t.path]
        if not t.clean and r.mixed is not None and r.salvaged:
            salvaged += (root / "dst" / r.salvaged).read_text("utf-8") == t.text
    assert salvaged >= 8
