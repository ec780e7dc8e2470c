"""The tree prior (mojifix.convert.tree_prior): refused files re-decided with the run's confident votes."""

from __future__ import annotations

import json
import math
import shutil
import sys
from pathlib import Path

import pytest
from conftest import write_tree

from mojifix.convert import convert, scan
from mojifix.convert.records import FileRecord, Split
from mojifix.convert.tree_prior import (
    MAX_ODDS,
    TREE_PRIOR,
    TreePrior,
    accepts_prior,
    redecidable,
    with_prior,
)
from mojifix.detect import detect
from mojifix.detect.ambiguity import TEMPERATURE
from mojifix.detect.result import Detection

#: windows-1252 prose, each file long enough that the detector is confident on its own (the voters)
_PROSE = (
    "Le café de la gare a rouvert ; les élèves y révisent leurs leçons.",
    "Über die Brücke gingen wir zum Bäcker, der früh öffnet.",
    "Mañana la señora Núñez llevará el pañuelo de algodón.",
    "Dès l’aube, le garçon répète sa pièce pour la fête de Noël.",
    "Die Straße hinter dem Schloß führt zu einem großen Gärtner.",
    "À côté du théâtre, un hôtel très élégant ouvre ses fenêtres.",
    "Los niños compraron azúcar y café en la tienda del señor.",
    "Wir müssen die Bücher zurückgeben, bevor die Bibliothek schließt.",
    "Cette année, la récolte des pêches a été médiocre, hélas.",
    "Él caminó hacia la estación mientras sonaba la canción.",
    "Ein kühler Föhn weht über die Dächer der Häuser im Tal.",
    "La forêt était silencieuse ; même les oiseaux s’étaient tus.",
)
VOTERS = {f"notes/n{i:02}.txt": (text + "\n").encode("cp1252") for i, text in enumerate(_PROSE)}
#: a short windows-1252 file the detector alone is not confident about (windows-1252 0.81 < 0.9)
SHORT_1252 = "Noël".encode("cp1252")
#: a short macintosh file whose bytes read as macintosh on their own (macintosh 0.81, windows-1252 0.09):
#: among windows-1252 voters it must stay macintosh or be quarantined, never be written as windows-1252
SHORT_MAC = "Noël".encode("mac_roman")
#: a short macintosh file the detector is confident about on its own (never re-decided)
CLEAR_MAC = "café".encode("mac_roman")


def _records(report) -> dict[str, FileRecord]:
    return {r.path: r for r in report.records}


def _run(tmp_path: Path, files: dict[str, bytes], name: str = "out", **kw) -> dict[str, FileRecord]:
    src = write_tree(tmp_path / f"src-{name}", files)
    return _records(convert(src, tmp_path / name, fsync=False, **kw))


def test_short_file_is_settled_by_the_trees_votes(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {**VOTERS, "short.txt": SHORT_1252})
    report = convert(src, tmp_path / "out", fsync=False)
    recs = _records(report)
    assert all(recs[p].decision == "detector" and recs[p].outcome == "converted" for p in VOTERS)
    rec = recs["short.txt"]
    assert (rec.outcome, rec.encoding, rec.decision, rec.verification) == (
        "converted",
        "windows-1252",
        TREE_PRIOR,
        "lossless",
    )
    assert rec.confidence is not None and rec.confidence >= 0.9
    n = len(VOTERS)
    assert rec.reason.startswith(f"tree prior: windows-1252 decided {n} of {n} confident files of this run")
    own = detect(SHORT_1252).best()
    assert own is not None and own.encoding == "windows-1252" and own.confidence < 0.9
    assert f"on its own bytes windows-1252 had confidence {own.confidence:.2f}" in rec.reason
    assert (tmp_path / "out" / "short.txt").read_text("utf-8") == "Noël"
    # the quarantine copy of the first pass is gone, with its reason file
    assert not (tmp_path / "out" / "_quarantine").exists()
    manifest = [json.loads(x) for x in (tmp_path / "out" / "mojifix-manifest.jsonl").read_text().splitlines()]
    assert len(manifest) == len(VOTERS) + 1
    line = next(x for x in manifest if x["path"] == "short.txt")
    assert (line["decision"], line["outcome"]) == (TREE_PRIOR, "converted")
    assert line["reason"] == rec.reason
    assert report.summary()["tree_prior"] == 1 and report.summary()["quarantined"] == 0
    assert report.exit_code == 0


def test_no_tree_prior_decides_every_file_on_its_own_bytes(tmp_path: Path) -> None:
    rec = _run(tmp_path, {**VOTERS, "short.txt": SHORT_1252}, tree_prior=False)["short.txt"]
    assert (rec.outcome, rec.verification, rec.decision) == ("quarantined", "unconfident", "detector")
    assert (tmp_path / "out" / "_quarantine" / "short.txt").read_bytes() == SHORT_1252


def test_a_one_file_tree_behaves_as_without_the_prior(tmp_path: Path) -> None:
    for data in (SHORT_1252, SHORT_MAC, CLEAR_MAC):
        on = _run(tmp_path, {"f.txt": data}, "on")["f.txt"]
        off = _run(tmp_path, {"f.txt": data}, "off", tree_prior=False)["f.txt"]
        assert on == off
        for name in ("src-on", "src-off", "on", "off"):
            shutil.rmtree(tmp_path / name)


def test_macintosh_among_windows_1252_files_is_never_written_as_windows_1252(tmp_path: Path) -> None:
    recs = _run(tmp_path, {**VOTERS, "mac.txt": SHORT_MAC, "clear-mac.txt": CLEAR_MAC})
    for path in ("mac.txt", "clear-mac.txt"):
        rec = recs[path]
        assert rec.outcome == "quarantined" or (rec.outcome, rec.encoding) == ("converted", "macintosh"), rec
    assert recs["clear-mac.txt"].decision == "detector"  # confident on its own: never re-decided
    assert (tmp_path / "out" / "clear-mac.txt").read_text("utf-8") == "café"
    assert (tmp_path / "out" / "_quarantine" / "mac.txt").read_bytes() == SHORT_MAC


def test_result_does_not_depend_on_file_order_or_workers(tmp_path: Path) -> None:
    files = {**VOTERS, "a-short.txt": SHORT_1252, "z-short.txt": SHORT_1252, "m-mac.txt": SHORT_MAC}
    one = _run(tmp_path, files, "one")
    two = _run(tmp_path, files, "two", workers=2)
    assert one == two
    # the short files named to come first and last in the walk are decided alike
    assert one["a-short.txt"].decision == one["z-short.txt"].decision == TREE_PRIOR


def test_dry_run_and_scan_report_what_convert_does(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {**VOTERS, "short.txt": SHORT_1252})
    dry = _records(convert(src, tmp_path / "dry", dry_run=True))["short.txt"]
    assert (dry.outcome, dry.decision, dry.output) == ("converted", TREE_PRIOR, None)
    assert not (tmp_path / "dry").exists() or not any((tmp_path / "dry").iterdir())
    scanned = {r.path: r for r in scan(src).records}["short.txt"]
    assert (scanned.outcome, scanned.decision) == ("converted", TREE_PRIOR)
    assert {r.path: r.decision for r in scan(src, tree_prior=False).records}["short.txt"] == "detector"


def test_resume_keeps_the_settled_file_and_decides_the_same(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {**VOTERS, "short.txt": SHORT_1252})
    first = _records(convert(src, tmp_path / "out", fsync=False))
    again = convert(src, tmp_path / "out", fsync=False, resume=True)
    assert _records(again) == first and again.resumed == len(first)


def test_in_place_settles_the_file_in_place(tmp_path: Path) -> None:
    src = write_tree(tmp_path / "src", {**VOTERS, "short.txt": SHORT_1252})
    report = convert(src, in_place=True, backup_dir=str(tmp_path / "backup"), fsync=False)
    assert _records(report)["short.txt"].decision == TREE_PRIOR
    assert (src / "short.txt").read_text("utf-8") == "Noël"
    assert (tmp_path / "backup" / "short.txt").read_bytes() == SHORT_1252  # the original, backed up
    assert not (tmp_path / "backup" / "_quarantine" / "short.txt").exists()


def test_a_file_that_changed_since_the_first_pass_is_left_as_recorded(tmp_path: Path) -> None:
    from mojifix.convert import engine

    src = write_tree(tmp_path / "src", {**VOTERS, "short.txt": SHORT_1252})
    real = engine._tree_prior_pass

    def change_then_pass(job, entries, results, settle):
        (src / "short.txt").write_bytes("Noël!".encode("cp1252"))
        return real(job, entries, results, settle)

    engine._tree_prior_pass = change_then_pass
    try:
        rec = _records(convert(src, tmp_path / "out", fsync=False))["short.txt"]
    finally:
        engine._tree_prior_pass = real
    assert (rec.outcome, rec.decision) == ("quarantined", "detector")
    assert (tmp_path / "out" / "_quarantine" / "short.txt").read_bytes() == SHORT_1252


# ---------------------------------------------------------------------------------------------- the votes


def _rec(path: str, outcome: str, decision: str, encoding: str | None, **kw) -> FileRecord:
    return FileRecord(path=path, outcome=outcome, decision=decision, encoding=encoding, sha1="0" * 40, **kw)


def test_only_the_detectors_confident_decisions_vote() -> None:
    records = [
        _rec("a", "converted", "detector", "windows-1252"),
        _rec("b", "converted", "detector", "windows-1252"),
        _rec("c", "converted", "detector", "GBK"),
        _rec("d", "utf8", "utf8-valid", "UTF-8"),  # structure: no vote
        _rec("e", "utf8", "ascii", "UTF-8"),
        _rec("f", "converted", "bom", "UTF-16LE"),
        _rec("g", "converted", "prefer macintosh", "macintosh"),  # the user's, not the detector's
        _rec("h", "converted", TREE_PRIOR, "windows-1252"),  # never a loop on its own output
        _rec("i", "quarantined", "detector", "macintosh", verification="unconfident"),
        _rec("j", "converted", "person", "macintosh"),
    ]
    prior = TreePrior.of(records)
    assert prior.votes == (("windows-1252", 2), ("GBK", 1)) and prior.voters == 3
    words = "tree prior: windows-1252 decided 2 of 3 confident files of this run"
    assert prior.describe("windows-1252") == words


def test_laplace_odds_capped_at_the_gates_odds() -> None:
    assert pytest.approx(9.0) == MAX_ODDS
    prior = TreePrior((("windows-1252", 45), ("GBK", 3), ("Big5", 1)), 49)
    assert prior.odds("windows-1252") == pytest.approx(9.0)  # (45 + 1) / 1, capped
    assert prior.odds("GBK") == pytest.approx(4.0)
    assert prior.odds("Big5") == pytest.approx(2.0)  # one odd file: 2:1 at most
    assert prior.odds("macintosh") == 1.0  # no vote, no change
    logodds = prior.logodds()
    assert set(logodds) == {"windows-1252", "GBK", "Big5"}
    assert logodds["GBK"] == pytest.approx(TEMPERATURE * math.log(4.0))
    assert TreePrior.of([]).logodds() == {}


def test_which_records_are_re_decided() -> None:
    def q(**kw) -> FileRecord:
        base = {"verification": "unconfident"}
        base.update(kw)
        decision = base.pop("decision", "detector")
        return _rec("x", "quarantined", decision, "windows-1252", **base)

    assert redecidable(q()) and redecidable(q(verification="ambiguous"))
    assert not redecidable(q(verification="decode-error"))
    assert not redecidable(q(verification="declared-conflict"))
    assert not redecidable(q(verification="mixed", mixed=Split(3, "GBK", "Big5", "probe")))
    assert not redecidable(q(warnings=("streamed (file larger than the in-memory limit)",)))
    assert not redecidable(q(decision="prefer GBK"))
    assert not redecidable(_rec("x", "converted", "detector", "windows-1252"))


def test_the_prior_goes_to_the_files_own_decision_only() -> None:
    calls: list[tuple[bytes, dict]] = []

    def spy(data: bytes, **kw) -> Detection:
        calls.append((data, kw))
        return Detection((), "empty")

    data = b"caf\xe9 " * 3
    prior = TreePrior((("windows-1252", 5),), 5)
    fn = with_prior(spy, data, prior)
    fn(data[:5], domain="file")  # a probe of part of the file
    fn(data, domain="file")  # the file's own decision
    fn(data, domain="file")  # a later probe of the same bytes
    assert [("prior" in kw) for _, kw in calls] == [False, True, False]
    assert calls[1][1]["prior"] == prior.logodds()


def test_detectors_without_the_keyword_are_left_alone() -> None:
    def old(data: bytes, domain: str = "file") -> Detection:
        return Detection((), "empty")

    def open_ended(data: bytes, **kw: object) -> Detection:
        return Detection((), "empty")

    assert accepts_prior(detect) and accepts_prior(open_ended) and not accepts_prior(old)


# ---------------------------------------------------------------------------------------------- the cap

#: short texts in the encodings short files of real trees have (Latin, Cyrillic, Greek, CJK), some read
#: by the detector as something else on their own
_SHORT = [
    ("Noël", "cp1252"), ("naïve", "cp1252"), ("piñata", "cp1252"), ("Zoë", "cp1252"), ("Gödel", "cp1252"),
    ("Noël", "mac_roman"), ("piñata", "mac_roman"), ("señor", "mac_roman"), ("Müller", "mac_roman"),
    ("naïve señor", "mac_roman"), ("Łódź", "cp1250"), ("Škoda", "iso8859_2"), ("мир", "cp1251"),
    ("мир", "koi8_r"), ("Αθήνα", "cp1253"), ("中文", "gbk"), ("中文", "big5"), ("日本", "shift_jis"),
    ("한국", "euc_kr"), ("ça", "cp850"), ("Ørsted", "cp865"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "codec"), _SHORT)
def test_the_cap_never_lifts_a_reading_the_detector_ranked_below_even(text: str, codec: str) -> None:
    # the largest prior the tree can give one encoding (MAX_ODDS) cannot take a reading the detector
    # alone gave < 0.5 over the write gate: 9c / (9c + 1 - c) >= 0.9 needs c >= 0.5
    data = text.encode(codec)
    alone = detect(data)
    for cand in alone.candidates[:6]:
        if cand.confidence >= 0.5:
            continue
        lifted = detect(data, prior={cand.encoding: TEMPERATURE * math.log(MAX_ODDS)})
        best = lifted.best()
        assert best is not None
        written = best.encoding == cand.encoding and best.confidence >= 0.9 and not lifted.ambiguous
        assert not written, (text, codec, cand.encoding, cand.confidence, best.confidence)


# ---------------------------------------------------------------------------------------------- whole trees

ROOT = Path(__file__).resolve().parents[2]
UCHARDET = ROOT.parent / "shared" / "data" / "detect-dev" / "uchardet"


def _written_wrong(dst: Path, report, is_right) -> tuple[set[str], set[str]]:
    """(paths written right, paths written wrong) of a run."""
    right, wrong = set(), set()
    for rec in report.records:
        if rec.outcome in ("converted", "utf8"):
            (right if is_right(rec, (dst / rec.output).read_bytes()) else wrong).add(rec.path)
    return right, wrong


def test_a_generated_tree_gains_right_files_and_no_wrong_one(tmp_path: Path) -> None:
    # benchmarks/convert_corpus.py's kind of tree (8 encodings, tails appended to some files), smaller
    from mojifix.convert.corpus import generate
    from mojifix.convert.declared import restore

    truths = {t.path: t for t in generate(tmp_path / "src", 30, corrupted=24, seed=23, short_fraction=0.3)}

    def is_right(rec: FileRecord, out: bytes) -> bool:
        raw = restore(out, rec.declarations)
        return raw is not None and raw.decode("utf-8").removeprefix("\ufeff") == truths[rec.path].text

    runs = {}
    for on in (True, False):
        dst = tmp_path / f"dst-{on}"
        report = convert(tmp_path / "src", dst, fsync=False, salvage=True, tree_prior=on)
        runs[on] = (report, *_written_wrong(dst, report, is_right))
    (with_prior, right_on, wrong_on), (_, right_off, wrong_off) = runs[True], runs[False]
    settled = {r.path for r in with_prior.records if r.decision == TREE_PRIOR}
    assert settled, "the tree prior settled no file of this tree: the test no longer tests it"
    assert not wrong_on and not wrong_off
    assert right_on == right_off | settled
    assert all(truths[p].clean for p in settled)  # never a file with an appended tail


def test_the_uchardet_tree_gains_no_silently_wrong_file(tmp_path: Path) -> None:
    # real prose in ~45 encodings, one tree: a tree of many encodings must not gain wrong files
    if not UCHARDET.is_dir():
        pytest.skip(f"development set missing: {UCHARDET} (../shared beside the repository)")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import convert_detect_dev as dev
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    truths = dev.build_tree(tmp_path / "src", UCHARDET)

    def is_right(rec: FileRecord, out: bytes) -> bool:
        label, original = truths[rec.path]
        data = original.read_bytes()
        text = dev.undo_declarations(out.decode("utf-8").removeprefix("\ufeff"), rec.to_dict())
        return text in dev.true_texts(data, label) or (not dev.true_texts(data, label) and data.isascii())

    on_report = convert(tmp_path / "src", tmp_path / "on", fsync=False)
    off_report = convert(tmp_path / "src", tmp_path / "off", fsync=False, tree_prior=False)
    right_on, wrong_on = _written_wrong(tmp_path / "on", on_report, is_right)
    right_off, wrong_off = _written_wrong(tmp_path / "off", off_report, is_right)
    assert wrong_on <= wrong_off and right_on >= right_off  # (whatever the detector gets wrong alone)


def test_command_line_switch_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mojifix.cli import main

    src = write_tree(tmp_path / "src", {**VOTERS, "short.txt": SHORT_1252})
    assert main(["convert", str(src), str(tmp_path / "on"), "--no-fsync"]) == 0
    table = capsys.readouterr().out
    row = next(line for line in table.splitlines() if "by the tree prior" in line)
    assert [w for w in row.split() if w.isdigit()] == ["1"]
    assert main(["convert", str(src), str(tmp_path / "off"), "--no-fsync", "--no-tree-prior", "--json"]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert (summary["tree_prior"], summary["unconfident"]) == (0, 1)
    assert main(["scan", str(src), "--json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert files["short.txt"]["decision"] == TREE_PRIOR
    assert main(["scan", str(src), "--no-tree-prior", "--json"]) == 1


def test_ebcdic_twins_stay_quarantined_among_confident_neighbours(tmp_path: Path) -> None:
    """cp037 and cp500 read the same letters and differ in ``! [ ] ^ |``. Where the marks pair up in
    one reading only (cp500's "[OPTION]" is cp037's "¢OPTION!"), the file's own bytes decide; where
    they cannot ("Attention !" vs "Attention |"), the detector gives the twins even odds whatever the
    prior, so six confident cp037 neighbours must not write a cp500 file as cp037 (silently wrong)."""
    voter = (
        "Le comité a décidé que la réunion aura lieu à Genève, près du lac, en été. "
        "Les élèves préparent leurs thèmes avec soin et beaucoup de café.\n"
    )
    bracketed = (
        "Utilisation : commande [OPTION]... [FICHIER]... Attention ! Ceci efface tout !\n"
        "Voir aussi [AIDE] et [MANUEL] pour les détails.\n"
    ) * 3
    twin = "Attention ! Ceci efface tout ! Vérifiez la sauvegarde avant de continuer !\n" * 3
    files = {f"mainframe/v{i}.txt": (voter * (i + 2)).encode("cp037") for i in range(6)}
    tree = {
        **files,
        "mainframe/usage.txt": bracketed.encode("cp500"),
        "mainframe/warn.txt": twin.encode("cp500"),
    }
    src = write_tree(tmp_path / "src", tree)
    recs = _records(convert(src, tmp_path / "out", fsync=False))
    assert all((recs[p].outcome, recs[p].encoding) == ("converted", "cp037") for p in files)
    rec = recs["mainframe/usage.txt"]
    assert (rec.outcome, rec.encoding, rec.decision) == ("converted", "cp500", "detector")
    assert (tmp_path / "out" / "mainframe" / "usage.txt").read_text("utf-8") == bracketed
    rec = recs["mainframe/warn.txt"]
    assert (rec.outcome, rec.verification, rec.decision) == ("quarantined", "ambiguous", "detector")
    assert not (tmp_path / "out" / "mainframe" / "warn.txt").exists()


#: Traditional Chinese UTF-16LE notes without BOM, long enough to be decided on their own (the voters)
_ZH_HANT = (
    "我們明天早上在車站見面，然後一起去圖書館看書。",
    "這家餐廳的湯麵很好吃，價錢也不貴，我常常來這裡。",
    "他說今年夏天要去台灣旅行，想看看山上的風景。",
    "老師請學生把作業寫完以後，再交給班長收起來。",
    "下雨的時候，我們就在家裡喝茶、聊天、聽音樂。",
    "這本書的故事很長，可是每一章都寫得非常精彩。",
)
#: 14 bytes of BOM-less UTF-16LE ("他把舊電腦裡的"): its line-feed byte (0x0A, the low byte of 舊) once
#: made convert search it for a split under a reading the detector put at 5e-6 (windows-1250), and it
#: was quarantined as "mixed: macintosh up to byte 5, then GBK" before the tree prior could read it
SHORT_UTF16 = "他把舊電腦裡的".encode("utf-16-le")


def test_short_bomless_utf16_is_not_split_under_an_improbable_reading(tmp_path: Path) -> None:
    alone = _run(tmp_path, {"short.txt": SHORT_UTF16}, name="alone")["short.txt"]
    assert (alone.outcome, alone.verification) == ("quarantined", "ambiguous")
    assert alone.mixed is None
    voters = {f"zh/n{i}.txt": (t + "\n").encode("utf-16-le") for i, t in enumerate(_ZH_HANT)}
    recs = _run(tmp_path, {**voters, "zh/short.txt": SHORT_UTF16}, name="tree")
    assert all(recs[p].encoding == "UTF-16LE" and recs[p].outcome == "converted" for p in voters)
    rec = recs["zh/short.txt"]
    assert (rec.outcome, rec.encoding, rec.decision) == ("converted", "UTF-16LE", TREE_PRIOR)
    assert (tmp_path / "tree" / "zh" / "short.txt").read_text("utf-8") == "他把舊電腦裡的"
