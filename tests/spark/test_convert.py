"""``mojifix spark convert`` against ``mojifix convert`` on the same trees: byte-identical outputs and
quarantine, the same manifest records, the same summary and exit code; resume, dry run, refusals."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from treeutil import build_tree, comparable_summary, manifest_records, snapshot

from mojifix.cli import main
from mojifix.convert import convert
from mojifix.convert.options import MANIFEST_NAME
from mojifix.spark import manifest_frame
from mojifix.spark.convert import PARTS_DIR, plan_slices


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tree(tmp_path_factory.mktemp("tree") / "src")


def _convert(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any], str]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def _both(
    src: Path, local: Path, spark_dst: Path, options: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[tuple[int, dict[str, Any], str], tuple[int, dict[str, Any], str]]:
    ran_local = _convert(["convert", str(src), str(local), *options], capsys)
    ran_spark = _convert(
        ["spark", "convert", str(src), str(spark_dst), "--master", "local[2]", *options], capsys
    )
    return ran_local, ran_spark


def assert_same_run(local: Path, spark_dst: Path, ran_local: tuple, ran_spark: tuple) -> None:
    """Outputs byte for byte (mode and mtime too), manifest records as sets by path, summary, exit code."""
    assert snapshot(spark_dst) == snapshot(local)
    records = manifest_records(spark_dst / MANIFEST_NAME)
    assert records == manifest_records(local / MANIFEST_NAME)
    assert (spark_dst / MANIFEST_NAME).read_bytes() == (local / MANIFEST_NAME).read_bytes()  # walk order too
    assert comparable_summary(ran_spark[1]) == comparable_summary(ran_local[1])
    assert ran_spark[0] == ran_local[0]
    assert not (spark_dst / PARTS_DIR).exists()


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--salvage", "--bom", "keep", "--prefer", "big5", "--exclude", "*.png", "--convert-names", "cp1252"],
    ],
    ids=["defaults", "options"],
)
def test_spark_convert_equals_local_convert(
    spark: Any, tree: Path, tmp_path: Path, options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    ran_local, ran_spark = _both(tree, tmp_path / "local", tmp_path / "spark", options, capsys)
    assert_same_run(tmp_path / "local", tmp_path / "spark", ran_local, ran_spark)
    summary = ran_spark[1]
    assert summary["quarantined"] >= 5 and summary["converted"] > 20 and summary["errors"] == 2
    assert ran_spark[0] == 1
    records = manifest_records(tmp_path / "spark" / MANIFEST_NAME)
    errors = sorted(r["reason"] for r in records.values() if r["outcome"] == "error")
    assert errors[0].startswith("cannot read directory") and errors[1].startswith("unreadable")
    frame = manifest_frame(spark, tmp_path / "spark" / MANIFEST_NAME)
    assert frame.count() == len(records) == summary["total"]


def _interrupt(dst: Path, keep_lines: int) -> list[str]:
    """Make ``dst`` look like a run killed part-way: the manifest cut after ``keep_lines`` lines, and the
    outputs of a few later files (and one earlier) removed; returns the removed manifest lines."""
    lines = (dst / MANIFEST_NAME).read_text(encoding="utf-8").splitlines(keepends=True)
    (dst / MANIFEST_NAME).write_text("".join(lines[:keep_lines]), encoding="utf-8")
    for line in lines[keep_lines - 1 : keep_lines + 6]:
        out = json.loads(line).get("output")
        if out and (dst / out).is_file():
            (dst / out).unlink()
    return lines[keep_lines:]


def test_resume_after_a_killed_run_and_a_killed_driver(
    spark: Any, tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local, spark_dst = tmp_path / "local", tmp_path / "spark"
    assert main(["convert", str(tree), str(local), "--json"]) == 1
    capsys.readouterr()
    assert len(_interrupt(local, 30)) > 20
    shutil.copytree(local, spark_dst, symlinks=True)
    # the killed driver's tasks had also finished the next ten files: their part is left in DST, and the
    # local run gets the same ten lines in its manifest
    extra = _local_lines_after(tree, tmp_path, 30, 10)
    (spark_dst / PARTS_DIR).mkdir()
    (spark_dst / PARTS_DIR / "part-000005.jsonl").write_text("".join(extra), encoding="utf-8")
    with open(local / MANIFEST_NAME, "a", encoding="utf-8") as f:
        f.write("".join(extra))
    ran_local = _convert(["convert", str(tree), str(local), "--resume"], capsys)
    ran_spark = _convert(["spark", "convert", str(tree), str(spark_dst), "--resume"], capsys)
    assert ran_local[1]["resumed"] > 20 and ran_spark[1]["resumed"] == ran_local[1]["resumed"]
    assert_same_run(local, spark_dst, ran_local, ran_spark)


def _local_lines_after(tree: Path, tmp_path: Path, start: int, count: int) -> list[str]:
    """Manifest lines ``start``..``start+count`` of a fresh local run (the same lines any run writes)."""
    ref = tmp_path / "reference"
    convert(tree, ref)
    lines = (ref / MANIFEST_NAME).read_text(encoding="utf-8").splitlines(keepends=True)
    return lines[start : start + count]


def test_dry_run_writes_nothing_and_reports_as_local(
    spark: Any, tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ran_local, ran_spark = _both(tree, tmp_path / "local", tmp_path / "spark", ["--dry-run"], capsys)
    assert comparable_summary(ran_spark[1]) == comparable_summary(ran_local[1])
    assert ran_spark[1]["dry_run"] and ran_spark[0] == ran_local[0]
    assert not (tmp_path / "spark").exists() and not (tmp_path / "local").exists()


def test_refusals_are_the_local_commands(
    spark: Any, tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inside = tree / "d0" / "out"
    assert main(["convert", str(tree), str(inside)]) == 2
    local_err = capsys.readouterr().err
    assert main(["spark", "convert", str(tree), str(inside)]) == 2
    assert capsys.readouterr().err == local_err and "inside SRC" in local_err
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("x")
    assert main(["spark", "convert", str(tree), str(full)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert main(["spark", "convert", str(tree), str(tmp_path / "a"), "--workers", "2"]) == 2
    assert "Spark decides the parallelism" in capsys.readouterr().err
    assert main(["spark", "convert", str(tree), "--in-place", "--backup-dir", str(tmp_path / "b")]) == 2
    assert "not offered on Spark" in capsys.readouterr().err
    assert (
        main(["spark", "convert", str(tree), str(tmp_path / "c"), "--decisions", str(tmp_path / "d.json")])
        == 2
    )
    assert "--decisions is not offered on Spark" in capsys.readouterr().err
    assert not os.path.exists(inside)


def test_slices_cover_every_entry_once_in_order() -> None:
    from mojifix.convert.walk import Entry

    entries = [Entry(b"f%d" % i, "file", size) for i, size in enumerate([10, 5_000_000, 3] * 50)]
    slices = plan_slices(entries, cores=2)
    assert [i for s in slices for i in s] == list(range(len(entries)))
    assert len(slices) == 8  # SLICES_PER_CORE x 2 cores: the tree is neither large nor many files
    assert plan_slices([], cores=2) == []
    few = plan_slices(entries[:3], cores=8)  # by weight: the 5 MB file alone, the small ones together
    assert [list(s) for s in few] == [[0, 1], [2]]
