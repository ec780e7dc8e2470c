"""``mojifix convert`` over a tree of real prose written by others: silently wrong, quarantined, skipped.

The tree is built at run time, in a temporary directory outside the repository, from the development set
``../shared/data/detect-dev/uchardet/<language>/<encoding>.<ext>`` (uchardet's test files: Wikipedia
openings in ~45 encodings; nothing is copied into the repository). File names in the tree are neutral
(``<language>/f<n>.<ext>``), so nothing but the bytes tells the encoding. The truth is the file's text
decoded strictly with its named encoding, under either mapping convention: Python's codec or the WHATWG
decoder (``Shift_JIS`` vs ``cp932`` tables are never held against anyone). A written file is right when its
output decodes (UTF-8) to one of those texts, after any in-band declaration the run rewrote is put back.

This is a DEVELOPMENT set: it may calibrate, never fit constants file by file (docs/convert.md).

    python benchmarks/convert_detect_dev.py              # counts, then every file not written right
    python benchmarks/convert_detect_dev.py --json
    python benchmarks/convert_detect_dev.py --catalogs build/detect-devcat   # the catalogs' dev half

``--catalogs DIR`` runs the same measurement over a tree of ``tools/detect_testset.py``'s kind (a
``manifest.json`` naming each file's codec): ``build/detect-devcat`` is its development half;
``build/detect-test``, its held-out half, is for the one look at the end of a piece of work, never for
tuning.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from mojifix.convert import convert
from mojifix.whatwg import lookup

DEV = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "detect-dev" / "uchardet"

#: uchardet's file names -> CPython codec (None: no Python codec decodes it)
PYTHON_CODEC = {
    "ibm852": "cp852",
    "ibm855": "cp855",
    "ibm866": "cp866",
    "mac-centraleurope": "mac-latin2",
    "uhc": "cp949",
    "utf-16.be": "utf-16-be",
    "utf-16.le": "utf-16-le",
    "utf-32.be": "utf-32-be",
    "utf-32.le": "utf-32-le",
    "utf-16be": "utf-16-be",
    "utf-16le": "utf-16-le",
    "iso-8859-11": "iso8859_11",
    # mojifix.extra_codecs's VISCII and EUC-TW: their tables are glibc's character maps (the same text as
    # `iconv -f VISCII` / `iconv -f EUC-TW`)
    "viscii": "viscii",
    "euc-tw": "euc_tw",
}


def truth_label(path: Path) -> str:
    """uchardet's encoding name of a dev file: the file name without its text extension."""
    name = path.name
    for ext in (".txt", ".smi"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


def true_texts(data: bytes, label: str) -> set[str]:
    """Every strict decoding of ``data`` as ``label`` (Python codec, WHATWG decoder), BOM removed."""
    texts = set()
    py = PYTHON_CODEC.get(label, label)
    if py is not None:
        try:
            codecs.lookup(py)
            texts.add(data.decode(py))
        except (LookupError, UnicodeDecodeError):
            pass
    enc = lookup(label)
    if enc is not None and enc.name != "replacement":
        with contextlib.suppress(UnicodeDecodeError):
            texts.add(enc.decode(data, errors="strict", bom="ignore"))
    return {t.removeprefix("\ufeff") for t in texts}


def build_tree(root: Path, dev: Path = DEV) -> dict[str, tuple[str, Path]]:
    """Copy the dev files under neutral names; returns tree path -> (truth label, original path)."""
    truths: dict[str, tuple[str, Path]] = {}
    for i, path in enumerate(sorted(p for p in dev.glob("*/*") if p.is_file())):
        ext = path.suffix if path.suffix in (".txt", ".smi") else ".txt"
        rel = f"{path.parent.name}/f{i:03d}{ext}"
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, root / rel)
        truths[rel] = (truth_label(path), path)
    return truths


def build_catalog_tree(root: Path, catalogs: Path) -> dict[str, tuple[str, Path]]:
    """Like :func:`build_tree`, from a ``tools/detect_testset.py`` set: its manifest names each codec."""
    manifest = json.loads((catalogs / "manifest.json").read_text(encoding="utf-8"))
    truths: dict[str, tuple[str, Path]] = {}
    for i, entry in enumerate(manifest["files"]):
        path = catalogs / entry["path"]
        rel = f"{entry['language']}/f{i:04d}{path.suffix or '.txt'}"  # the name hides the codec
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, root / rel)
        truths[rel] = (entry["label"], path)
    return truths


def undo_declarations(text: str, record: dict) -> str:
    """The output text with every declaration the run rewrote put back as the source wrote it."""
    for span in sorted(record.get("declarations") or (), key=lambda s: -s["offset"]):
        raw = text.encode("utf-8")
        at, new, old = span["offset"], span["new_label"].encode(), span["old_label"].encode()
        assert raw[at : at + len(new)] == new
        text = (raw[:at] + old + raw[at + len(new) :]).decode("utf-8")
    return text


def run(dev: Path = DEV, catalogs: Path | None = None) -> dict:
    where = catalogs if catalogs is not None else dev
    if not where.is_dir():
        raise SystemExit(f"mojifix benchmark: error: the set is not at {where} (see --dev, --catalogs)")
    work = Path(tempfile.mkdtemp(prefix="mojifix-devtree-"))
    try:
        src, dst = work / "src", work / "dst"
        truths = build_tree(src, dev) if catalogs is None else build_catalog_tree(src, catalogs)
        t0 = time.perf_counter()
        report = convert(src, dst, fsync=False)
        wall = time.perf_counter() - t0
        rows = []
        counts = {"files": len(truths), "right": 0, "silently_wrong": 0, "no_codec_truth_written": 0}
        counts["text_files_skipped"] = 0
        for rec in report.records:
            d = rec.to_dict()
            label, original = truths[rec.path]
            expected = true_texts(original.read_bytes(), label)
            status = rec.outcome
            if rec.outcome in ("converted", "utf8"):
                out = (dst / rec.output).read_bytes().decode("utf-8").removeprefix("\ufeff")
                if undo_declarations(out, d) in expected:
                    counts["right"] += 1
                    status = "right"
                elif not expected and original.read_bytes().isascii():
                    counts["no_codec_truth_written"] += 1  # ASCII reads alike in any of these
                    status = "written, ASCII, no codec"
                else:
                    # also a file whose encoding no decoder knows written with non-ASCII bytes:
                    # whatever encoding was used, it was not the file's own
                    counts["silently_wrong"] += 1
                    status = "SILENTLY WRONG"
            counts[rec.outcome] = counts.get(rec.outcome, 0) + 1
            if rec.outcome in ("skipped", "copied"):
                counts["text_files_skipped"] += 1  # every file of the set is text
            if status != "right":
                rows.append((rec.path, label, status, rec.encoding, rec.confidence, rec.reason))
        counts["wall_s"] = round(wall, 3)
        return {"counts": counts, "not_right": rows, "exit_code": report.exit_code}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--dev", type=Path, default=DEV, help=f"the development set's uchardet folder ({DEV})")
    ap.add_argument("--catalogs", type=Path, help="a tools/detect_testset.py set instead (manifest.json)")
    args = ap.parse_args(argv)
    result = run(args.dev, args.catalogs)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
        return 0
    c = result["counts"]
    print(
        f"{'catalog' if args.catalogs else 'detect-dev'} tree: {c['files']} files; "
        f"written right {c['right']}, silently wrong "
        f"{c['silently_wrong']}, ASCII with no codec for the truth {c['no_codec_truth_written']}; "
        f"quarantined {c.get('quarantined', 0)} ({100 * c.get('quarantined', 0) / c['files']:.1f}%), "
        f"skipped {c.get('skipped', 0)}, copied as binary {c.get('copied', 0)} (text files skipped or "
        f"copied: {c['text_files_skipped']}), errors {c.get('error', 0)}; {c['wall_s']} s"
    )
    for path, label, status, enc, conf, reason in result["not_right"]:
        conf_s = f"{conf:.2f}" if conf is not None else "-"
        print(f"  {path:16} truth={label:18} {status:22} {enc or '-':14} {conf_s:>5} {reason[:80]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
