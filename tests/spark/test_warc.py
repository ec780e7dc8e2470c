"""``mojifix spark warc`` and ``decode_warc`` / ``decode_html_columns`` against the local command, on Spark.

The archives are the local command's test fixtures (tests/integrations/test_warc_cli.py): every kind
of record, a wrong Content-Length, a truncated payload, chunked + gzip bodies; plus a gzip archive cut
inside its last member (a corrupt member) and an ARC file. The Spark rows must equal the local rows,
in the same order, and the summaries must be the same numbers.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from test_warc_cli import PAGES, TEXT_PAGES, Page, _arc_record, _html, _record_bytes, build_warc

from mojifix.cli import main
from mojifix.integrations.warc import ROW_FIELDS
from mojifix.spark import decode_html_columns, decode_warc, warc_summary
from mojifix.spark.columns import DECODED_FIELDS, decode_row


def read_dataset(path: Path) -> list[dict[str, Any]]:
    """Rows of a Spark-written Parquet dataset in partition order (part files sorted by name)."""
    parts = sorted(path.glob("part-*.parquet"))
    assert parts, f"no part files in {path}"
    return [row for part in parts for row in pq.read_table(part).to_pylist()]


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("warcs")
    gz, plain, cut, arc = root / "a.warc.gz", root / "b.warc", root / "c.warc.gz", root / "d.arc"
    build_warc(gz, compress=True)
    build_warc(plain, compress=False, include_bad=False)
    build_warc(cut, compress=True)
    big = _html(" ".join(f"słowo{i} żółw" for i in range(3000)))
    last = gzip.compress(
        _record_bytes(Page("http://big.example.pl/z", (("Content-Type", "text/html"),), big.encode(), None))
    )
    cut.write_bytes(cut.read_bytes() + last[: len(last) // 2])  # the last member is cut off: corrupt
    desc = _arc_record(
        b"filedesc://d.arc 0.0.0.0 20240101000000 text/plain",
        b"1 0 mojifix-tests\nURL IP-address Archive-date Content-type Archive-length\n",
    )
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=koi8-r\r\n\r\n" + "<p>Привет</p>".encode(
        "koi8-r"
    )
    arc.write_bytes(
        desc + b"\n" + _arc_record(b"http://example.ru/ 127.0.0.1 20240102030405 text/html", http)
    )
    return [gz, plain, cut, arc]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(argv)
    summary = json.loads(capsys.readouterr().out)
    summary.pop("seconds")
    return code, summary


def test_spark_warc_rows_and_summary_equal_the_local_command(
    spark: Any, archives: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = [str(p) for p in archives]
    local_code, local_summary = _run(
        ["warc", *inputs, "-o", str(tmp_path / "local.parquet"), "--json"], capsys
    )
    out = tmp_path / "spark.parquet"
    code, summary = _run(["spark", "warc", *inputs, "-o", str(out), "--json", "--master", "local[2]"], capsys)
    local_rows = pq.read_table(tmp_path / "local.parquet").to_pylist()
    rows = read_dataset(out)
    assert len(rows) == summary["rows_written"] == local_summary["rows_written"] > 25
    # warcio makes up a new WARC-Record-ID for an ARC record each time it reads one: the ARC's row
    # (the last file's) is compared without it
    arc_rows = [i for i, r in enumerate(local_rows) if r["uri"] == "http://example.ru/"]
    assert arc_rows == [len(local_rows) - 1]
    for row in (rows[-1], local_rows[-1]):
        assert str(row.pop("record_id")).startswith("<urn:uuid:")
    assert rows == local_rows  # every column, every value, same order
    assert [list(r) for r in rows[:1]] == [list(ROW_FIELDS)]
    ids = [r["record_id"] for r in rows[:-1]]
    assert len(set(ids)) == len(ids)
    assert summary == local_summary
    assert code == local_code == 1  # the cut member, the bad length, a truncated page
    assert any("gzip member cut off" in e for e in summary["errors"])
    assert summary["by_record_type"]["warcinfo"] == 4  # three WARCs and the ARC's filedesc
    assert sorted(p.name for p in out.iterdir()) == ["_SUCCESS"] + [f"part-{i:05d}.parquet" for i in range(4)]
    # a second run replaces the dataset (as the local command replaces its output file)
    assert main(["spark", "warc", str(archives[1]), "-o", str(out), "--json"]) == 1  # a page with U+FFFD
    capsys.readouterr()
    assert len(read_dataset(out)) == len(TEXT_PAGES) - 1


def test_decode_warc_frame_equals_the_local_rows_and_counts_per_file(
    spark: Any, archives: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The DataFrame path (Spark's own Parquet writer, the summary in an accumulator)."""
    acc = warc_summary(spark)
    frame = decode_warc(spark, [archives[0].as_uri(), str(archives[1])], summary=acc)
    assert frame.rdd.getNumPartitions() == 2  # one task per file
    assert frame.columns == list(ROW_FIELDS)
    frame.write.parquet(str(tmp_path / "frame.parquet"))
    rows = read_dataset(tmp_path / "frame.parquet")
    _, local_summary = _run(
        ["warc", str(archives[0]), str(archives[1]), "-o", str(tmp_path / "l.parquet"), "--json"], capsys
    )
    assert rows == pq.read_table(tmp_path / "l.parquet").to_pylist()
    # partition order is file order: the gzip archive's rows, then the plain one's (no bad-length page)
    assert [r["uri"] for r in rows] == [p.uri for p in TEXT_PAGES] + [
        p.uri for p in TEXT_PAGES if not p.bad_length
    ]
    assert acc.files == 2
    assert {**acc.result().to_dict(), "rows_written": len(rows)} == local_summary


def test_decode_html_columns_equals_the_row_decoder_and_the_warc_rows(spark: Any) -> None:
    pages = [
        p for p in PAGES if not any(k in ("Content-Encoding", "Transfer-Encoding") for k, _ in p.headers)
    ]
    data = [
        (p.uri, p.payload, ", ".join(v for k, v in p.headers if k == "Content-Type"), i)
        for i, p in enumerate(pages)
    ]
    data.append(("http://x.example.com/none", None, "text/html", len(data)))
    data.append(("http://x.example.jp/undeclared", "日本語の文章です。".encode("shift_jis"), None, len(data)))
    frame = spark.createDataFrame(data, "url string, body binary, content_type string, n int").repartition(2)
    out = decode_html_columns(frame)
    assert out.columns == ["url", "body", "content_type", "n", *DECODED_FIELDS]
    rows = sorted((r.asDict() for r in out.collect()), key=lambda r: r["n"])
    assert len(rows) == len(data)
    for row, (url, body, content_type, _) in zip(rows, data, strict=True):
        expect = decode_row(body, content_type, url)
        assert {k: row[k] for k in DECODED_FIELDS} == expect
    by_url = {r["url"]: r for r in rows}
    for page in pages:
        if page.expect is None:
            assert by_url[page.uri]["kind"] == "binary" and by_url[page.uri]["text"] is None
            continue
        for key in ("encoding", "source", "text", "kind"):
            if key in page.expect:
                assert by_url[page.uri][key] == page.expect[key], (page.uri, key)
    assert by_url["http://x.example.com/none"]["text"] is None
    assert by_url["http://x.example.jp/undeclared"]["text"] == "日本語の文章です。"


_MISLABELED = _html("Le café de la gare a rouvert ; on y sert des crêpes et du thé à toute heure.")


def test_trust_evidence_on_spark_equals_the_local_command(
    spark: Any, archives: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--trust evidence: spark warc rows equal mojifix warc --trust evidence rows (one page overridden),
    and decode_html_columns(trust="evidence") overrules the same page."""
    page = Page(
        "http://cafe.example.fr/",
        (("Content-Type", "text/html; charset=iso-8859-1"),),
        _MISLABELED.encode("utf-8"),
        {},
    )
    archive = tmp_path / "mislabeled.warc.gz"
    archive.write_bytes(archives[0].read_bytes() + gzip.compress(_record_bytes(page)))
    local = tmp_path / "local.parquet"
    _run(["warc", str(archive), "-o", str(local), "--json", "--trust", "evidence"], capsys)
    out = tmp_path / "spark.parquet"
    _run(["spark", "warc", str(archive), "-o", str(out), "--json", "--trust", "evidence"], capsys)
    rows = read_dataset(out)
    assert rows == pq.read_table(local).to_pylist()
    assert [r["uri"] for r in rows if r["overridden"]] == [page.uri]
    assert rows[-1]["text"] == _MISLABELED
    frame = spark.createDataFrame(
        [(page.payload, page.headers[0][1], page.uri)], "body binary, content_type string, url string"
    )
    (row,) = decode_html_columns(frame, trust="evidence").collect()
    assert (row["overridden"], row["source"], row["text"]) == (True, "evidence", _MISLABELED)
    (row,) = decode_html_columns(frame).collect()
    assert row["overridden"] is False and row["text"] != _MISLABELED


def test_decode_html_columns_refuses_bad_columns(spark: Any) -> None:
    frame = spark.createDataFrame([("a", "t")], "body string, text string")
    with pytest.raises(ValueError, match="must be binary"):
        decode_html_columns(frame, content_type=None, url=None)
    with pytest.raises(ValueError, match="not in the DataFrame"):
        decode_html_columns(frame, body="missing")


def test_write_warc_dataset_refuses_bad_choices_before_writing(
    spark: Any, archives: list[Path], tmp_path: Path
) -> None:
    """fallback=, reader= and trust= are checked up front: nothing is created for a bad value."""
    from mojifix.spark import write_warc_dataset

    for bad in ({"fallback": "guess"}, {"reader": "fast"}, {"trust": "always"}):
        out = tmp_path / f"{next(iter(bad))}.parquet"
        with pytest.raises(ValueError, match=next(iter(bad.values()))):
            write_warc_dataset(spark, [str(archives[0])], str(out), **bad)
        assert not out.exists()


def test_spark_warc_usage_errors(spark: Any, archives: list[Path], tmp_path: Path, capsys) -> None:
    assert main(["spark", "warc", str(archives[0]), "-o", str(tmp_path / "x.jsonl")]) == 2
    assert "must end in .parquet" in capsys.readouterr().err
    assert main(["spark", "warc", str(tmp_path / "missing.warc"), "-o", str(tmp_path / "x.parquet")]) == 2
    assert "no such file" in capsys.readouterr().err
    foreign = tmp_path / "taken.parquet"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    assert main(["spark", "warc", str(archives[0]), "-o", str(foreign)]) == 2
    assert "not a Parquet dataset's" in capsys.readouterr().err and (foreign / "notes.txt").exists()


def test_paths_listing_with_prefix_as_for_common_crawl(
    spark: Any, archives: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--paths warc.paths.gz --path-prefix P``: the listing's lines, prefixed, are the inputs."""
    listing = tmp_path / "warc.paths.gz"
    listing.write_bytes(gzip.compress(f"{archives[0].name}\n\n{archives[1].name}\n".encode()))
    prefix = archives[0].parent.as_uri() + "/"
    out = tmp_path / "listed.parquet"
    code, summary = _run(
        ["spark", "warc", "--paths", str(listing), "--path-prefix", prefix, "-o", str(out), "--json"], capsys
    )
    local_code, local_summary = _run(
        ["warc", str(archives[0]), str(archives[1]), "-o", str(tmp_path / "l.parquet"), "--json"], capsys
    )
    assert (code, summary) == (local_code, local_summary)
    assert read_dataset(out) == pq.read_table(tmp_path / "l.parquet").to_pylist()
    assert main(["spark", "warc", "-o", str(out)]) == 2
    assert "needs INPUT files or --paths" in capsys.readouterr().err
