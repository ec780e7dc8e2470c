"""The write gate (mojifix.convert.gate) and the mirror's ``copied`` outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FAKE, FR, ZH_HANS, ZH_HANT, write_tree
from test_verify import OPTS, fixed

from mojifix.convert import convert, scan
from mojifix.convert.gate import MIN_WRITE_CONFIDENCE
from mojifix.convert.options import Options
from mojifix.convert.verify import examine
from mojifix.detect.result import Candidate, Detection, Evidence

CP1252 = (FR * 3).encode("cp1252")


def test_confident_detection_is_written() -> None:
    v = examine(CP1252, OPTS, fixed(("windows-1252", MIN_WRITE_CONFIDENCE)))
    assert (v.outcome, v.verification) == ("converted", "lossless")


def test_unconfident_detection_is_quarantined_with_the_reason() -> None:
    v = examine(CP1252, OPTS, fixed(("windows-1252", 0.6), ("ISO-8859-15", 0.3)))
    assert (v.outcome, v.verification) == ("quarantined", "unconfident")
    assert "0.60" in v.reason and "ISO-8859-15 (0.30)" in v.reason and "--prefer windows-1252" in v.reason
    assert v.output is None


def test_prefer_is_the_users_decision_and_passes_the_gate() -> None:
    det = fixed(("windows-1252", 0.55), ("ISO-8859-15", 0.45), ambiguous=True)
    assert examine(CP1252, OPTS, det).verification == "ambiguous"
    v = examine(CP1252, Options(prefer=("windows-1252",)), det)
    assert (v.outcome, v.decision) == ("converted", "prefer windows-1252")


@pytest.mark.parametrize(
    "evidence",
    [
        Evidence("invalid", "windows-1252: 1 invalid sequence at byte 40", 1.0),
        Evidence("invalid", "2 invalid sequences (bytes 12, 90)", 2.0),
    ],
)
def test_error_evidence_is_quarantined(evidence: Evidence) -> None:
    def detect(data: bytes, **_: object) -> Detection:
        return Detection((Candidate("windows-1252", 0.99, None, (evidence,)),))

    v = examine(CP1252, OPTS, detect)
    assert (v.outcome, v.verification) == ("quarantined", "decode-error")
    assert evidence.detail in v.reason


def test_validity_evidence_without_errors_is_not_error_evidence() -> None:
    """Only the detector's "invalid" finding with a positive count stops the write."""
    ok = Evidence("validity", "all 1,200 bytes valid in windows-1252, none invalid")

    def detect(data: bytes, **_: object) -> Detection:
        return Detection((Candidate("windows-1252", 0.99, None, (ok,)),))

    assert examine(CP1252, OPTS, detect).outcome == "converted"

    def zero(data: bytes, **_: object) -> Detection:
        return Detection((Candidate("windows-1252", 0.99, None, (Evidence("invalid", "none", 0.0),)),))

    assert examine(CP1252, OPTS, zero).outcome == "converted"


def test_declaration_that_also_decodes_differently_is_a_conflict() -> None:
    """The issue's RSS case: EUC-JP declared and clean, the detector says something else."""
    text = '<?xml version="1.0" encoding="EUC-JP"?>\n<rss><title>日本語のフィードです。</title></rss>\n'
    data = text.encode("euc_jp")
    v = examine(data, OPTS, fixed(("mac-greek", 1.0)))
    assert (v.outcome, v.verification) == ("quarantined", "declared-conflict")
    assert "EUC-JP" in v.reason and "mac-greek" in v.reason
    agreed = examine(data, OPTS, fixed(("EUC-JP", 0.99)))
    assert agreed.outcome == "converted" and agreed.output == text.replace("EUC-JP", "UTF-8").encode()


def test_declaration_decoding_to_the_same_text_is_no_conflict() -> None:
    """<meta charset=iso-8859-1> is windows-1252 to the Encoding Standard: the same reading."""
    data = ("<html><meta charset=iso-8859-1>" + FR).encode("cp1252")
    assert examine(data, OPTS, fixed(("windows-1252", 0.99))).outcome == "converted"


def test_coding_comment_that_python_would_read_otherwise_is_a_conflict() -> None:
    """latin-1 cookie on cp1252 bytes with curly quotes: Python reads C1 controls there, not quotes."""
    data = ("# -*- coding: latin-1 -*-\nNOTE = '" + FR.strip() + "'\n").encode("cp1252")
    v = examine(data, OPTS, fixed(("windows-1252", 0.99)))
    assert (v.outcome, v.verification) == ("quarantined", "declared-conflict")


def test_binary_is_copied_in_the_mirror_and_skipped_elsewhere(tmp_path: Path) -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(300) + bytes(range(256))
    src = write_tree(tmp_path / "src", {"img/a.png": png, "t.txt": CP1252})
    (src / "link").symlink_to(src / "t.txt")
    dst = tmp_path / "dst"
    report = convert(src, dst, detector=FAKE, exclude=["t.txt"])
    by = {r.path: r for r in report.records}
    assert (by["img/a.png"].outcome, by["img/a.png"].output) == ("copied", "img/a.png")
    assert (dst / "img/a.png").read_bytes() == png and by["img/a.png"].output_sha1 == by["img/a.png"].sha1
    assert by["link"].outcome == "skipped" and by["t.txt"].outcome == "skipped"  # symlink, excluded
    assert report.exit_code == 0 and report.summary()["copied"] == 1
    manifest = [json.loads(line) for line in (dst / "mojifix-manifest.jsonl").read_text().splitlines()]
    assert {d["path"]: d["outcome"] for d in manifest}["img/a.png"] == "copied"
    # resumable like any other output
    assert convert(src, dst, detector=FAKE, exclude=["t.txt"], resume=True).resumed == 1
    # a scan writes nothing and says what convert would do
    s = scan(src, detector=FAKE).summary()
    assert s["binary"] == 1 and s["would_copy"] == 1
    # in place, a binary file already is where it belongs
    backup = tmp_path / "backup"
    inplace = convert(src, None, detector=FAKE, in_place=True, backup_dir=str(backup), exclude=["t.txt"])
    assert {r.path: r.outcome for r in inplace.records}["img/a.png"] == "skipped"
    assert not (backup / "img/a.png").exists()


def test_streamed_binary_is_copied(tmp_path: Path) -> None:
    blob = (b"\x00\x01\x02\xff" * 5000) + bytes(range(256)) * 40
    src = write_tree(tmp_path / "src", {"blob.bin": blob})
    report = convert(src, tmp_path / "dst", detector=FAKE, stream_threshold=1024, chunk_size=4096)
    (rec,) = report.records
    assert rec.outcome == "copied" and (tmp_path / "dst/blob.bin").read_bytes() == blob
    assert any("streamed" in w for w in rec.warnings)


def test_dry_run_reports_copied_without_writing(tmp_path: Path) -> None:
    src = write_tree(
        tmp_path / "src", {"a.bin": bytes(300) + bytes(range(256)), "z.txt": (ZH_HANS + ZH_HANT).encode()}
    )
    report = convert(src, tmp_path / "dst", detector=FAKE, dry_run=True)
    assert [(r.outcome, r.output) for r in report.records] == [("copied", None), ("utf8", None)]
    assert not (tmp_path / "dst").exists()


def test_prefer_settles_what_the_gate_refuses() -> None:
    """The reasons' hints work: --prefer settles an unconfident verdict and a declaration conflict."""
    unsure = fixed(("windows-1252", 0.6), ("ISO-8859-15", 0.3))
    v = examine(CP1252, Options(prefer=("windows-1252",)), unsure)
    assert (v.outcome, v.decision, v.verification) == ("converted", "prefer windows-1252", "lossless")
    text = '<?xml version="1.0" encoding="EUC-JP"?>\n<rss><title>日本語のフィードです。</title></rss>\n'
    data = text.encode("euc_jp")
    greek = fixed(("mac-greek", 1.0))
    as_declared = examine(data, Options(prefer=("EUC-JP",)), greek)
    assert (as_declared.outcome, as_declared.encoding) == ("converted", "EUC-JP")
    assert as_declared.output == text.replace("EUC-JP", "UTF-8").encode()
    as_detected = examine(data, Options(prefer=("mac-greek",)), greek)
    assert (as_detected.outcome, as_detected.decision) == ("converted", "prefer mac-greek")
    # an uncontested, confident verdict is not overruled by a preference
    assert (
        examine(CP1252, Options(prefer=("ISO-8859-15",)), fixed(("windows-1252", 0.99))).decision
        == "detector"
    )


def test_a_detector_that_weighed_the_declaration_is_trusted_with_a_warning() -> None:
    """A detector reporting a 'declaration' finding has judged the declared reading: no refusal."""
    text = '<?xml version="1.0" encoding="EUC-JP"?>\n<rss><title>日本語のフィードです。</title></rss>\n'
    data = text.encode("euc_jp")
    finding = Evidence("declaration", "xml declaration 'EUC-JP' (bytes 30-36) names EUC-JP; outscored")

    def weighed(data: bytes, **_: object) -> Detection:
        return Detection((Candidate("mac-greek", 0.99),), evidence=(finding,))

    v = examine(data, OPTS, weighed)
    assert (v.outcome, v.encoding) == ("converted", "mac-greek")
    assert any("weighed it and chose mac-greek" in w for w in v.warnings)
