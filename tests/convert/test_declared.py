"""In-band declarations in convert: relabelled to UTF-8 in the output, recorded, verifiable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FR, ZH_HANS, ZH_HANT, write_tree
from test_verify import OPTS, fixed, must_not_call

from mojifix.cli import main
from mojifix.convert import convert
from mojifix.convert.declared import names_utf8, restore, rewrite_declarations
from mojifix.convert.options import MANIFEST_NAME, Options
from mojifix.convert.records import DeclarationRewrite, FileRecord
from mojifix.convert.verify import examine

#: a detector for whole runs (``convert`` loads it by name): always GBK, confidently
fixed_gbk = fixed(("GBK", 0.99))

JA = "日本語のフィードです。今日は良い天気でした。\n"

# (kind, source text with {label}, label, python codec, detector name)
ROUND_TRIPS = [
    ("xml", '<?xml version="1.0" encoding="{label}"?>\n<rss><title>' + JA + "</title></rss>\n", "EUC-JP",
     "euc_jp", "EUC-JP"),
    ("meta", '<!DOCTYPE html>\n<html><head><meta charset="{label}"><title>' + ZH_HANS + "</title>", "gb2312",
     "gbk", "GBK"),
    ("meta", '<html><head>\n<meta http-equiv="Content-Type" content="text/html; charset={label}">\n'
     + ZH_HANT + "</head>", "BIG5", "big5", "Big5"),
    ("css", '@charset "{label}";\n/* ' + FR + " */\nbody { font-family: serif }\n", "windows-1252", "cp1252",
     "windows-1252"),
    ("coding", "#!/usr/bin/env python\n# -*- coding: {label} -*-\nNOTE = '" + FR.strip() + "'\n", "cp1252",
     "cp1252", "windows-1252"),
    ("coding", "# vim: set fileencoding={label} :\nTEXT = '" + ZH_HANS.strip() + "'\n", "gbk", "gbk", "GBK"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "template", "label", "codec", "name"), ROUND_TRIPS)
def test_declaration_relabelled_and_round_trips(
    kind: str, template: str, label: str, codec: str, name: str
) -> None:
    text = template.replace("{label}", label)
    data = text.encode(codec)
    v = examine(data, OPTS, fixed((name, 0.99)))
    assert (v.outcome, v.encoding, v.verification) == ("converted", name, "lossless")
    new = "UTF-8" if label.isupper() else "utf-8"
    assert v.output == template.replace("{label}", new).encode("utf-8")
    (rewrite,) = v.declarations
    assert (rewrite.kind, rewrite.old_label, rewrite.new_label) == (kind, label, new)
    assert v.output[rewrite.offset : rewrite.offset + len(new)] == new.encode()
    # the proof: the output is the UTF-8 of the decoded text except in the recorded span
    assert restore(v.output, v.declarations) == text.encode("utf-8")
    keep = examine(data, Options(keep_declarations=True), fixed((name, 0.99)))
    assert keep.output == text.encode("utf-8") and keep.declarations == ()


def test_several_declarations_and_offsets_after_growth() -> None:
    """Offsets are in the output: a GBK title before the <meta> grows by half in UTF-8."""
    text = (
        '<?xml version="1.0" encoding="GB2312"?>\n<html><head><title>'
        + ZH_HANS * 4
        + '</title><meta http-equiv=content-type content="text/html;charset=gb2312"></head></html>\n'
    )
    v = examine(text.encode("gbk"), OPTS, fixed(("GBK", 0.99)))
    assert [(r.kind, r.old_label, r.new_label) for r in v.declarations] == [
        ("xml", "GB2312", "UTF-8"),
        ("meta", "gb2312", "utf-8"),
    ]
    assert v.output.decode("utf-8") == text.replace('encoding="GB2312"', 'encoding="UTF-8"').replace(
        "charset=gb2312", "charset=utf-8"
    )
    assert restore(v.output, v.declarations) == text.encode()


def test_utf16_source_declaring_utf16_is_relabelled() -> None:
    """A UTF-16 file's declaration is not ASCII bytes in the source; it is found in the UTF-8 output."""
    text = '<?xml version="1.0" encoding="UTF-16"?>\n<doc>' + JA + "</doc>\n"
    v = examine(b"\xff\xfe" + text.encode("utf-16-le"), OPTS, fixed(("UTF-16LE", 1.0)))
    assert v.decision == "bom" and v.output == text.replace("UTF-16", "UTF-8").encode()
    assert v.declarations == (DeclarationRewrite("xml", text.index("UTF-16"), "UTF-16", "UTF-8"),)


def test_ebcdic_source_declaration_is_relabelled() -> None:
    text = '<?xml version="1.0" encoding="IBM037"?>\n<note>' + "Grüße, Zürich!" + "</note>\n"
    v = examine(text.encode("cp037"), OPTS, fixed(("cp037", 0.99)))
    assert v.outcome == "converted" and v.output == text.replace("IBM037", "UTF-8").encode()


def test_utf8_declaration_and_markup_rules() -> None:
    # already naming UTF-8 (any spelling): nothing to rewrite
    for label in ("utf-8", "UTF8", "unicode-1-1-utf-8"):
        data = f'<html><meta charset="{label}">{ZH_HANS}'.encode("gbk")
        v = examine(data, OPTS, fixed(("GBK", 0.99)))
        assert v.outcome == "converted" and v.declarations == ()
    # a "<meta" inside a program that is not markup is not a declaration of the file
    code = f'PAGE = "<meta charset=gb2312>"\nTITLE = "{ZH_HANS.strip()}"\n'
    v = examine(code.encode("gbk"), OPTS, fixed(("GBK", 0.99)))
    assert v.outcome == "converted" and v.declarations == () and v.output == code.encode()
    # ...and one past the window of the output is not either
    late = "<p>" + "x" * 5000 + '<meta charset="gb2312">' + ZH_HANS
    assert examine(late.encode("gbk"), OPTS, fixed(("GBK", 0.99))).declarations == ()


def test_names_utf8() -> None:
    assert names_utf8("utf-8") and names_utf8("UTF8") and names_utf8("utf_8")
    assert not names_utf8("utf-16") and not names_utf8("gb2312") and not names_utf8("no-such")


def test_rewrite_leaves_unknown_labels_relabelled_too() -> None:
    out, rewrites = rewrite_declarations(b'<?xml version="1.0" encoding="x-made-up"?><a/>')
    assert out == b'<?xml version="1.0" encoding="utf-8"?><a/>' and rewrites[0].old_label == "x-made-up"


def test_valid_utf8_declared_otherwise_is_relabelled_with_a_warning() -> None:
    data = f'<html><head><meta charset="iso-8859-1"></head>{FR}'.encode()
    v = examine(data, OPTS, must_not_call)
    assert (v.outcome, v.decision) == ("utf8", "utf8-valid")
    assert v.output == data.replace(b"iso-8859-1", b"utf-8") and v.declarations[0].old_label == "iso-8859-1"
    assert any("every byte is UTF-8" in w for w in v.warnings)
    ascii_page = b'<html><meta charset="iso-8859-1"><p>plain'
    assert examine(ascii_page, OPTS, must_not_call).output == ascii_page  # reads the same either way


def test_stale_declaration_is_reported() -> None:
    """A page re-encoded to GBK that still says iso-2022-jp: 8-bit bytes the declared encoding refuses."""
    text = '<html><head><meta charset="iso-2022-jp"></head><body>' + ZH_HANS * 2 + "</body></html>"
    v = examine(text.encode("gbk"), OPTS, fixed(("GBK", 0.99)))
    assert v.outcome == "converted", v.reason
    assert any("stale" in w and "iso-2022-jp" in w for w in v.warnings)
    assert v.declarations[0].old_label == "iso-2022-jp"


def test_convert_run_records_the_span_in_the_manifest(tmp_path: Path) -> None:
    template, label, codec, _ = ROUND_TRIPS[1][1:]
    text = template.replace("{label}", label)
    src = write_tree(tmp_path / "src", {"page.html": text.encode(codec)})
    dst = tmp_path / "dst"
    report = convert(src, dst, detector="test_declared:fixed_gbk")
    (rec,) = report.records
    line = json.loads((dst / MANIFEST_NAME).read_text())
    assert line["declarations"] == [
        {"kind": "meta", "offset": text.index(label), "old_label": label, "new_label": "utf-8"}
    ]
    assert FileRecord.from_dict(line) == rec
    out = (dst / "page.html").read_bytes()
    assert restore(out, rec.declarations) == text.encode() and report.summary()["declarations_rewritten"] == 1

    assert main(["convert", str(src), str(tmp_path / "kept"), "--keep-declarations", "--json"]) == 0
    assert (tmp_path / "kept/page.html").read_bytes() == text.encode()


def test_streamed_file_is_relabelled_and_gated(tmp_path: Path) -> None:
    """Files over the in-memory limit: the first decoded chunk is relabelled; the gate holds too."""
    text = '<?xml version="1.0" encoding="gb2312"?>\n<log>\n' + ZH_HANS * 200 + "</log>\n"
    src = write_tree(tmp_path / "src", {"big.xml": text.encode("gbk")})
    opts = {"stream_threshold": 1024, "chunk_size": 8192}
    report = convert(src, tmp_path / "dst", detector="test_declared:fixed_gbk", **opts)
    (rec,) = report.records
    assert rec.outcome == "converted" and rec.declarations[0].old_label == "gb2312"
    out = (tmp_path / "dst/big.xml").read_bytes()
    assert out == text.replace("gb2312", "utf-8").encode() and restore(out, rec.declarations) == text.encode()
    unsure = convert(src, tmp_path / "dst2", detector="test_declared:unsure_gbk", **opts)
    assert (unsure.records[0].outcome, unsure.records[0].verification) == ("quarantined", "unconfident")


unsure_gbk = fixed(("GBK", 0.5), ("Big5", 0.4))


@pytest.mark.parametrize("bom", ["strip", "keep"])
def test_utf8_with_bom_declared_otherwise_is_relabelled(bom: str) -> None:
    """Browsers let a BOM win over <meta>; once the BOM is stripped the page would fall back to it."""
    body = f'<html><head><meta charset="windows-1252"></head>{FR}'.encode()
    v = examine(b"\xef\xbb\xbf" + body, Options(bom=bom), must_not_call)
    fixed_body = body.replace(b"windows-1252", b"utf-8")
    assert v.output == (fixed_body if bom == "strip" else b"\xef\xbb\xbf" + fixed_body)
    (rewrite,) = v.declarations
    assert v.output[rewrite.offset : rewrite.offset + 5] == b"utf-8"


def test_in_place_relabels_and_backs_up_the_original(tmp_path: Path) -> None:
    text = '<html><head><meta charset="gb2312"><title>' + ZH_HANS + "</title>"
    data = text.encode("gbk")
    src = write_tree(tmp_path / "src", {"a/page.html": data})
    backup = tmp_path / "backup"
    report = convert(src, None, in_place=True, backup_dir=str(backup), detector="test_declared:fixed_gbk")
    (rec,) = report.records
    assert (src / "a/page.html").read_bytes() == text.replace("gb2312", "utf-8").encode()
    assert (backup / "a/page.html").read_bytes() == data and rec.declarations[0].old_label == "gb2312"
