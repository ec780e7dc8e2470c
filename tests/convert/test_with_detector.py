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
from mojifix.convert.corpus import HELD_OUT_SENTENCES, generate
from mojifix.convert.declared import restore


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
        out = restore((root / "dst" / r.output).read_bytes(), r.declarations)
        assert out is not None, t.path
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


def _page(lang: str, n: int = 6) -> str:
    return "".join(HELD_OUT_SENTENCES[lang][i % len(HELD_OUT_SENTENCES[lang])] + "\n" for i in range(n))


#: files declaring their encoding in-band, as a real archive holds them: name -> (text, python codec)
_FEED = '<?xml version="1.0" encoding="EUC-JP"?>\n<rss version="2.0"><channel><title>'
_HTML = '<!DOCTYPE html>\n<html><head><meta charset="gb2312"><title>新闻</title></head><body>\n'
_HTM = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=big5">\n</head><body>'
DECLARED = {
    "feed.rss": (
        _FEED + "今日は駅前の本屋で新しい地図を買いました。\n" * 6 + "</title></channel></rss>\n",
        "euc_jp",
    ),
    "index.html": (_HTML + _page("zh-Hans") + "</body></html>\n", "gbk"),
    "old.htm": (_HTM + _page("zh-Hant") + "</body></html>\n", "big5"),
    "style.css": (
        '@charset "windows-1252";\n/* ' + _page("fr", 3) + " */\nq { quotes: '«' '»' }\n",
        "cp1252",
    ),
    "notes.py": ('# -*- coding: cp1252 -*-\nNOTES = """\n' + _page("de") + '"""\n', "cp1252"),
}


def test_declared_files_with_the_real_detector(tmp_path) -> None:
    """Declarations relabelled and the text exact, or a quarantine with the reason: never silently wrong."""
    src = tmp_path / "src"
    src.mkdir()
    for name, (text, codec) in DECLARED.items():
        (src / name).write_bytes(text.encode(codec))
    report = convert(src, tmp_path / "dst", fsync=False)
    written = 0
    for r in report.records:
        text, _ = DECLARED[r.path]
        if r.outcome == "quarantined":
            assert r.verification in ("declared-conflict", "unconfident", "ambiguous"), (r.path, r.reason)
            continue
        written += 1
        out = (tmp_path / "dst" / r.path).read_bytes()
        assert r.outcome == "converted" and restore(out, r.declarations) == text.encode(), r.path
        (rewrite,) = r.declarations
        assert rewrite.new_label.lower() == "utf-8" and rewrite.old_label in text
    # the GBK, Big5, windows-1252 files are not hard cases: at most the EUC-JP feed may be held back
    assert written >= len(DECLARED) - 1, [(r.path, r.reason) for r in report.records]


def test_a_clean_file_whose_first_lines_read_alike_in_a_sibling_code_page_is_not_mixed(tmp_path) -> None:
    """ISO-8859-13 text whose only quotation marks („ “) come last: its first lines read the same in
    windows-1257, which the detector prefers for them alone, and windows-1257 then fails at the
    quotation mark; probe H must not split a file whose first lines the verdict already reads."""
    head = (
        "Vilniaus senamiestis yra vienas didžiausių Rytų Europoje. Šiaurės rytuose teka Neris, "
        "o pietuose - kalvos ir miškai. Čia gyvena žmonės iš įvairių šalių.\n"
    ) * 12
    text = head + "Miesto gidas sako: „Ateikite rytą“, kai gatvės dar tuščios.\n"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lt.txt").write_bytes(text.encode("iso8859_13"))
    report = convert(tmp_path / "src", tmp_path / "dst", fsync=False)
    (rec,) = report.records
    assert (rec.outcome, rec.encoding) == ("converted", "ISO-8859-13"), rec.reason
    assert (tmp_path / "dst" / "lt.txt").read_text("utf-8") == text
