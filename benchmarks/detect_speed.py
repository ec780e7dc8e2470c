"""Detection speed on real-world files: mojifix (compiled and pure Python) against chardet,
charset-normalizer and cchardet, in one run, with accuracy and thread scaling.

    python benchmarks/detect_speed.py [--doc-files N] [--site-files N] [--repeat R] [--json OUT]

Files, read at run time and never copied into the repository: uchardet's test files
(``../shared/data/detect-dev/uchardet``), the held-out test set ``build/detect-test`` when it has been
built (``tools/detect_testset.py``), and the first N text and HTML files installed under
``/usr/share/doc`` and in this Python's site-packages (licences, READMEs, change logs, documentation
pages: what a user's disk holds). Every detector sees the same bytes, in the same order, in this process
(files/s from its CPU time, best of R passes, the detectors' passes interleaved);
the pure-Python mojifix runs in a child process (``MOJIFIX_PURE_PYTHON=1`` is read at import) on the same
list. Reported per detector: files/s (all files), the median per-file time (each file's best of R, wall
clock), the ratio to chardet, and accuracy on the uchardet files and the test set (the metric of
``detect_eval``: decoding with the answer gives the true text). Then the thread scaling of mojifix's
``detect`` (the same files split over 1 and 2 threads, wall clock, with the load average: the compiled
calls release the GIL), the share of those calls in ``detect``'s time, and
whether compiled and pure-Python mojifix gave identical ``repr(detect())`` on every file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from detect_dev import DEV, truth_label
from detect_eval import ROOT, decodings, is_right, python_codec

TEST_SET = ROOT / "build" / "detect-test"
#: file names taken from /usr/share/doc and site-packages: text and markup, not archives or binaries
TEXT_SUFFIXES = frozenset({".txt", ".html", ".htm", ".md", ".rst", ".xml", ".css", ".json", ""})
#: files above this size are left out (whole-file detection of a 10 MB log measures reading, not detection)
MAX_FILE_BYTES = 256 * 1024

Detect = Callable[[bytes], str | None]


def installed_files(root: Path, limit: int) -> list[Path]:
    """The first ``limit`` text-like files under ``root`` (sorted walk, so the same list every run)."""
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if path.suffix.lower() not in TEXT_SUFFIXES or path.is_symlink():
                continue
            try:
                size = path.stat().st_size
            except OSError:
                continue
            if 0 < size <= MAX_FILE_BYTES:
                out.append(path)
                if len(out) >= limit:
                    return out
    return out


def corpus(doc_files: int, site_files: int) -> tuple[list[Path], dict[Path, str]]:
    """All files of the run, and the truth label of those that have one."""
    labels: dict[Path, str] = {}
    files = sorted(DEV.rglob("*.*")) if DEV.is_dir() else []
    labels.update({p: truth_label(p) for p in files})
    manifest = TEST_SET / "manifest.json"
    if manifest.is_file():
        entries = json.loads(manifest.read_text())["files"]
        test = {TEST_SET / e["path"]: e["label"] for e in entries}
        files += sorted(test)
        labels.update(test)
    files += installed_files(Path("/usr/share/doc"), doc_files)
    files += installed_files(Path(sysconfig.get_paths()["purelib"]), site_files)
    return files, labels


def detectors() -> dict[str, Detect | str]:
    """Each detector's one-call function (answer: an encoding name or None), or why it is skipped."""
    import mojifix

    def mojifix_detect(data: bytes) -> str | None:
        best = mojifix.detect(data).best()
        return best.encoding if best else None

    found: dict[str, Detect | str] = {"mojifix": mojifix_detect}
    try:
        import chardet

        found["chardet"] = lambda data: chardet.detect(data)["encoding"]
    except ImportError as e:
        found["chardet"] = f"not installed ({e})"
    try:
        import charset_normalizer

        def normalizer(data: bytes) -> str | None:
            best = charset_normalizer.from_bytes(data).best()
            return best.encoding if best else None

        found["charset-normalizer"] = normalizer
    except ImportError as e:
        found["charset-normalizer"] = f"not installed ({e})"
    try:
        import cchardet  # faust-cchardet on PyPI

        found["cchardet"] = lambda data: cchardet.detect(data)["encoding"]
    except ImportError as e:
        found["cchardet"] = f"not installed: pip install faust-cchardet ({e})"
    return found


def time_detectors(detects: dict[str, Detect], datas: list[bytes], repeat: int) -> dict[str, dict]:
    """Per detector: the best total seconds over ``repeat`` passes, each file's best seconds, and the
    answers of the last pass.

    The passes are interleaved (pass r of every detector before pass r + 1 of any), so that a change in
    the machine's load during the run falls on every detector alike and the ratios stay fair. The total
    is this process's CPU time (the machine is shared: waiting for a core is not the detector's cost);
    each file's time is wall-clock (a CPU-time clock costs a system call, as much as a fast detector's
    call), best of the passes.
    """
    rows = {name: {"total": float("inf"), "per_file": [float("inf")] * len(datas)} for name in detects}
    clock = time.perf_counter
    for _ in range(repeat):
        for name, detect in detects.items():
            row, answers = rows[name], []
            per_file = row["per_file"]
            start = time.process_time()
            for i, data in enumerate(datas):
                t0 = clock()
                answers.append(detect(data))
                per_file[i] = min(per_file[i], clock() - t0)
            row["total"] = min(row["total"], time.process_time() - start)
            row["answers"] = answers
    return rows


def thread_scaling(datas: list[bytes], repeat: int) -> tuple[float, float]:
    """files/s of mojifix.detect over ``datas`` with 1 thread, and with 2 threads each taking every other
    file (best of ``repeat``)."""
    import mojifix

    def work(part: list[bytes]) -> None:
        for data in part:
            mojifix.detect(data)

    def run(n_threads: int) -> float:
        best = float("inf")
        for _ in range(repeat):
            threads = [threading.Thread(target=work, args=(datas[i::n_threads],)) for i in range(n_threads)]
            start = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            best = min(best, time.perf_counter() - start)
        return len(datas) / best

    return run(1), run(2)


class _Clock:
    """Seconds spent in the calls of the compiled detector that release the GIL, summed."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def timed(self, call: Callable) -> Callable:
        def run(*args: object) -> object:
            start = time.perf_counter()
            try:
                return call(*args)
            finally:
                self.seconds += time.perf_counter() - start

        return run


class _TimedMethods:
    """A compiled object whose ``names`` methods are timed by ``clock`` (the others pass through)."""

    def __init__(self, target: object, names: tuple[str, ...], clock: _Clock) -> None:
        self.target = target
        for name in names:
            setattr(self, name, clock.timed(getattr(target, name)))

    def __getattr__(self, name: str) -> object:
        return getattr(self.target, name)


def kernel_share(datas: list[bytes]) -> float | None:
    """Share of one pass of mojifix.detect over ``datas`` spent in the compiled calls that release the GIL
    (the scoring kernel, the shortlist, the cut of the sample; None without them)."""
    import mojifix
    from mojifix.detect.scoring import get_scorer

    scorer = get_scorer()
    if scorer.kernel is None:
        return None
    saved = scorer.kernel, scorer.pages, scorer.segments
    clock = _Clock()
    scorer.kernel = _TimedMethods(scorer.kernel, ("score",), clock)
    scorer.pages = _TimedMethods(scorer.pages, ("shortlist",), clock)
    scorer.segments = clock.timed(scorer.segments)
    try:
        start = time.perf_counter()
        for data in datas:
            mojifix.detect(data)
        return clock.seconds / (time.perf_counter() - start)
    finally:
        scorer.kernel, scorer.pages, scorer.segments = saved


def fingerprints(datas: list[bytes]) -> list[str]:
    """SHA-1 of ``repr(mojifix.detect(data))`` per file (encoding, confidences, candidates, evidence)."""
    import mojifix

    return [hashlib.sha1(repr(mojifix.detect(d)).encode()).hexdigest() for d in datas]


def accuracy(answers: list, datas: list[bytes], truths: list[set[str] | None], which: list[int]) -> str:
    judged = [i for i in which if truths[i]]
    if not judged:
        return "-"
    right = sum(is_right(datas[i], answers[i], truths[i]) for i in judged)
    return f"{100 * right / len(judged):.1f}%"


def child(paths_file: Path, repeat: int) -> int:
    """The pure-Python run (MOJIFIX_PURE_PYTHON=1 set by the parent): timings, answers, fingerprints."""
    from mojifix import _native

    assert _native.kernels() is None and _native.detect_kernel() is None, "the reference must be forced"
    datas = [Path(p).read_bytes() for p in json.loads(paths_file.read_text())]
    fn = detectors()["mojifix"]
    assert callable(fn)
    fn(datas[0])  # model loaded and tables built before timing, as in the parent
    row = time_detectors({"mojifix": fn}, datas, repeat)["mojifix"]
    json.dump({**row, "repr": fingerprints(datas)}, sys.stdout)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--doc-files", type=int, default=400, help="files from /usr/share/doc (default 400)")
    ap.add_argument("--site-files", type=int, default=400, help="files from site-packages (default 400)")
    ap.add_argument("--repeat", type=int, default=3, help="passes per detector; the best counts (default 3)")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.child, args.repeat)

    from mojifix import _native

    files, labels = corpus(args.doc_files, args.site_files)
    datas = [p.read_bytes() for p in files]
    dev_idx = [i for i, p in enumerate(files) if p.is_relative_to(DEV)]
    test_idx = [i for i, p in enumerate(files) if p.is_relative_to(TEST_SET)]
    truths: list[set[str] | None] = [
        decodings(d, labels[p]) if p in labels and python_codec(labels[p]) else None
        for p, d in zip(files, datas, strict=True)
    ]
    print(
        f"{len(files)} files, {sum(map(len, datas)) / len(files):,.0f} bytes on average: "
        f"uchardet {len(dev_idx)}, "
        f"test set {len(test_idx) or 'not built (tools/detect_testset.py)'}, installed "
        f"{len(files) - len(dev_idx) - len(test_idx)}; mojifix {_native.status()}"
    )
    if _native.detect_kernel() is None:
        print("(the detector's kernel is not active: 'mojifix' below is the pure-Python path)")
    runnable: dict[str, Detect] = {}
    for name, fn in detectors().items():
        if isinstance(fn, str):
            print(f"  {name}: skipped, {fn}")
            continue
        fn(datas[0])  # imports, model, tables: start-up is not what this measures
        runnable[name] = fn
    timed = time_detectors(runnable, datas, args.repeat)
    rows: dict[str, dict] = {}
    for name, row in timed.items():
        rows[name] = row
        if name == "mojifix":
            row["repr"] = fingerprints(datas)
            with_ref = dict(os.environ, **{_native.PURE_PYTHON_ENV: "1"})
            paths_file = ROOT / "build" / "detect_speed_files.json"
            paths_file.parent.mkdir(exist_ok=True)
            paths_file.write_text(json.dumps([str(p) for p in files]))
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(paths_file), "--repeat", str(args.repeat)],
                env=with_ref,
                capture_output=True,
                text=True,
                check=True,
            )
            # (its own process, after the others: its ratio is the least comparable of the table)
            rows["mojifix (pure Python)"] = json.loads(out.stdout)
    base = rows.get("chardet")
    head = ("files/s", "median ms", "x chardet", "uchardet", "test set")
    print(f"\n{'detector':24} " + " ".join(f"{h:>{max(len(h), 9)}}" for h in head))
    report = {}
    for name, r in rows.items():
        rate = len(datas) / r["total"]
        median_ms = 1000 * statistics.median(r["per_file"])
        ratio = f"{rate / (len(datas) / base['total']):.2f}x" if base else "-"
        dev_acc = accuracy(r["answers"], datas, truths, dev_idx)
        test_acc = accuracy(r["answers"], datas, truths, test_idx)
        print(f"{name:24} {rate:9,.0f} {median_ms:9.3f} {ratio:>9} {dev_acc:>9} {test_acc:>9}")
        report[name] = {
            "files_per_s": rate,
            "median_ms": median_ms,
            "uchardet": dev_acc,
            "test_set": test_acc,
        }
    if "mojifix" in rows and "mojifix (pure Python)" in rows:
        same = sum(
            a == b
            for a, b in zip(rows["mojifix"]["repr"], rows["mojifix (pure Python)"]["repr"], strict=True)
        )
        print(f"\ncompiled vs pure-Python mojifix: identical repr(detect()) on {same} of {len(datas)} files")
        report["identical_repr"] = [same, len(datas)]
    load = os.getloadavg()[0]
    one, two = thread_scaling(datas, args.repeat)
    scaling = f"1 thread {one:,.0f} files/s, 2 threads {two:,.0f} files/s: {two / one:.2f}x"
    print(f"thread scaling of mojifix.detect: {scaling}")
    # (wall-clock figures: two threads need two idle cores, which a loaded machine does not have)
    print(f"  (load average {load:.1f} on {os.cpu_count()} cores when it started)")
    report["threads"] = {"1": one, "2": two, "scaling": two / one, "load_average": load}
    share = kernel_share(datas)
    if share is not None:
        # (Amdahl: only the GIL-free share can run on the second core while the other thread holds the GIL)
        bound = 1 / (1 - share / 2)
        print(f"the compiled calls that release the GIL are {share:.0%} of detect's time: ", end="")
        print(f"at most {bound:.2f}x on 2 threads")
        report["kernel_share"] = share
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
