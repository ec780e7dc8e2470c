"""Issue 13's convert speed: ``mojifix convert`` vs the five-level pipeline vs the I/O floor, whole commands.

The tree: ten copies (``--copies``) of benchmarks/convert_corpus.py's 400-file tree (mojifix.convert.corpus,
seed 5, the project's texts: 8 encodings x 50 files, 15% short, 40 with a foreign tail), 4,000 files,
written to tmpfs (``--root``, default under /dev/shm) so the disk's speed is not what is measured. Three
commands, each a whole process started from nothing (interpreter start-up, imports and the model load
included), run in turn A B C, B C A, C A B ... on the same tree, each into a fresh destination:

  mojifix      ``python -m mojifix convert SRC DST``: default options (atomic writes, fsync, full
               verification, manifest); ``--workers N`` adds runs with N worker processes
  five-level   this script's ``--five-level SRC DST``: benchmarks/convert_corpus.py's five-level baseline
               (BOM; UTF-16 NUL parity; charset-normalizer with the GBK family mapped to gb18030; ordered
               fallback; quarantine on U+FFFD) over every file, plain writes, no fsync
  I/O floor    this script's ``--io-floor SRC DST``: read every file and write the same bytes to DST,
               fsync each file, then fsync each directory once: what a durable converter cannot avoid

Prints the best and median wall time of each and the ratios from the same run (five-level / mojifix:
above 1.0 mojifix is faster). ``--profile`` instead runs ``mojifix convert`` once in this process under
cProfile and prints where the time goes (detection, verification, declarations, I/O, fsync, manifest,
the rest). ``--compare A B`` compares two output trees byte for byte (every file, the manifest line by
line) and exits 1 when they differ: the check that a speed change wrote the same outputs.

    python benchmarks/convert_speed.py                 # 4,000 files, 3 rounds
    python benchmarks/convert_speed.py --workers 2     # also mojifix convert --workers 2
    python benchmarks/convert_speed.py --profile
    python benchmarks/convert_speed.py --keep OUT      # keep mojifix's output tree in OUT (for --compare)
    python benchmarks/convert_speed.py --compare OUT1 OUT2
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

DEFAULT_ROOT = Path("/dev/shm/mojifix-convert-speed") if os.path.isdir("/dev/shm") else None


# ---------------------------------------------------------------------------------------------- the tree


def build_tree(root: Path, copies: int, seed: int) -> tuple[Path, int, int]:
    """``copies`` copies of the 400-file tree under ``root/src``; returns (src, files, bytes)."""
    from mojifix.convert.corpus import generate

    one, src = root / "one", root / "src"
    shutil.rmtree(root, ignore_errors=True)
    truths = generate(one, seed=seed)
    for k in range(copies):
        for t in truths:
            dst = src / f"c{k:02d}" / t.path
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(one / t.path, dst)
    shutil.rmtree(one)
    return src, copies * len(truths), copies * sum(t.size for t in truths)


def _tree_files(src: Path) -> list[str]:
    """Every regular file under ``src``, relative, sorted (both baselines walk the same way)."""
    out = []
    for dirpath, dirs, files in os.walk(src):
        dirs.sort()
        rel_dir = os.path.relpath(dirpath, src)
        out.extend(os.path.normpath(os.path.join(rel_dir, f)) for f in sorted(files))
    return out


# ---------------------------------------------------------------------------------------------- baselines


def five_level_command(src: Path, dst: Path) -> int:
    """The five-level pipeline over a tree (the ``--five-level`` command)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from five_level import five_level  # charset-normalizer only: no mojifix import in this command

    made: set[Path] = set()
    for rel in _tree_files(src):
        status, text = five_level((src / rel).read_bytes())
        if status == "written" and text is not None:
            out = dst / rel
            if out.parent not in made:
                out.parent.mkdir(parents=True, exist_ok=True)
                made.add(out.parent)
            out.write_bytes(text.encode("utf-8"))
    return 0


def io_floor_command(src: Path, dst: Path) -> int:
    """Read every file, write the same bytes, fsync each file, then each directory (``--io-floor``)."""
    made: set[str] = set()
    for rel in _tree_files(src):
        with open(src / rel, "rb") as f:
            data = f.read()
        out = os.path.join(dst, rel)
        parent = os.path.dirname(out)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    for parent in sorted(made):
        fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return 0


# ---------------------------------------------------------------------------------------------- timing


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(cmd: list[str], dst: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one whole command."""
    shutil.rmtree(dst, ignore_errors=True)
    cpu0 = _cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):  # 1: mojifix quarantined the tree's 40 x copies corrupted files
        raise SystemExit(f"{cmd[:4]} failed with exit code {proc.returncode}: {proc.stderr.decode()[-400:]}")
    return wall, _cpu() - cpu0


#: writes the bytecode of the mojifix that a Python imports, as ``pip install`` does for the peers'
#: packages: an editable checkout has none, and with PYTHONDONTWRITEBYTECODE=1 every ``mojifix`` process
#: would compile its modules from source again (benchmarks/warc.py's compile_mojifix_bytecode, per Python)
COMPILE_MOJIFIX = (
    "import compileall, pathlib, mojifix; "
    "compileall.compile_dir(pathlib.Path(mojifix.__file__).parent, quiet=1)"
)


def measure(
    src: Path, root: Path, rounds: int, workers: tuple[int, ...], against: str | None = None
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall and CPU times of every command, in turn, ``rounds`` times (after one untimed warm-up round)."""
    for python in dict.fromkeys((sys.executable, against or sys.executable)):
        subprocess.run([python, "-c", COMPILE_MOJIFIX], check=True)
    me = [sys.executable, str(Path(__file__).resolve())]
    commands: dict[str, list[str]] = {}
    for w in workers:
        extra = [] if w == 1 else ["--workers", str(w)]
        mojifix = ["-m", "mojifix", "convert", str(src), str(root / "out"), *extra]
        commands[f"mojifix convert{' --workers ' + str(w) if w != 1 else ''}"] = [sys.executable, *mojifix]
        if against:
            commands[f"  the same, {against}"] = [against, *mojifix]
    commands["five-level pipeline"] = [*me, "--five-level", str(src), str(root / "out")]
    commands["I/O floor"] = [*me, "--io-floor", str(src), str(root / "out")]
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    names = list(commands)
    for r in range(rounds + 1):
        # each round starts one command later, so that no command always runs first, after the I/O
        # floor's writes (in 4 of 4 runs the first slot took more CPU seconds, whichever mojifix held it)
        for name in names[r % len(names) :] + names[: r % len(names)]:
            wall, cpu = _timed(commands[name], root / "out")
            if r:  # round 0 warms the page cache
                walls[name].append(wall)
                cpus[name].append(cpu)
    shutil.rmtree(root / "out", ignore_errors=True)
    return walls, cpus


# ---------------------------------------------------------------------------------------------- profile

#: the parts of the profile split: (module, attribute) of the functions whose time makes up each part,
#: patched where their callers look them up (module attributes at call time)
PARTS: dict[str, tuple[tuple[str, str], ...]] = {
    "detect (whole files)": (("mojifix.detect", "detect"),),
    "mixed-file probes (without detect and scoring)": (
        ("mojifix.convert.mixed", "find_split"),
        ("mojifix.convert.mixed", "split_binary"),
    ),
    "text scoring in the probes (the detector's scorer)": (("mojifix.convert.mixed", "_scores"),),
    "lossless proof (strict decode, re-encode)": (
        ("mojifix.convert.verify", "decode_strict"),
        ("mojifix.convert.verify", "reencodes_to"),
    ),
    "declarations (read, gate, relabel, warnings)": (
        ("mojifix.convert.declared", "declarations_of"),
        ("mojifix.convert.declared", "conflicting_declaration"),
        ("mojifix.convert.declared", "stale_declarations"),
        ("mojifix.convert.gate", "refusal"),
        ("mojifix.convert.verify", "relabel"),
        ("mojifix.convert.verify", "_relabel_utf8"),
    ),
    "I/O: read": (("mojifix.convert.fsio", "read_source"),),
    "I/O: write (temporary files)": (("mojifix.convert.fsio", "atomic_write"),),
    "fsync": (("os", "fsync"),),
    "syncfs (one per batch)": (("mojifix.convert.fsio", "syncfs"),),
    "I/O: rename": (("os", "rename"),),
    "manifest lines (JSON)": (("mojifix.convert.records", "FileRecord.to_json"),),
}


WHOLE_DETECT = "detect (whole files)"
PROBES = "mixed-file probes (without detect and scoring)"
PROBE_DETECT = "detect (parts of files, in the mixed-file probes)"


def _patch_parts(totals: dict[tuple[str, str], float]) -> list[tuple[object, str, object]]:
    """Wrap every function of :data:`PARTS` to add its *exclusive* time (minus the parts it calls) to
    ``totals[(thread name, part)]``; returns what to restore. A detector call made inside a mixed-file
    probe counts as :data:`PROBE_DETECT`, not as a whole-file detection."""
    import importlib
    import threading

    local = threading.local()
    restore: list[tuple[object, str, object]] = []

    def wrapped(part: str, fn: Callable[..., object]) -> Callable[..., object]:
        def timed(*args: object, **kwargs: object) -> object:
            stack = getattr(local, "stack", None)
            if stack is None:
                stack = local.stack = []
                local.names = []
            mine = PROBE_DETECT if part == WHOLE_DETECT and PROBES in local.names else part
            stack.append(0.0)  # time spent in nested parts
            local.names.append(mine)
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - t0
                nested = stack.pop()
                local.names.pop()
                key = (threading.current_thread().name, mine)
                totals[key] = totals.get(key, 0.0) + elapsed - nested
                if stack:
                    stack[-1] += elapsed

        return timed

    for part, funcs in PARTS.items():
        for module, name in funcs:
            owner: object = importlib.import_module(module)
            attr = name
            if "." in name:
                cls, attr = name.split(".")
                owner = getattr(owner, cls)
            original = getattr(owner, attr)
            restore.append((owner, attr, original))
            setattr(owner, attr, wrapped(part, original))
    return restore


def profile(src: Path, root: Path) -> None:
    """One in-process ``convert`` timed by part (exclusive wall time per thread), then one under
    cProfile (functions by own time)."""
    from mojifix.convert import convert

    dst = root / "out-profile"
    shutil.rmtree(dst, ignore_errors=True)
    convert(src, dst)  # first-use costs (model, decoder tables) outside both measurements
    shutil.rmtree(dst, ignore_errors=True)
    totals: dict[tuple[str, str], float] = {}
    restore = _patch_parts(totals)
    t0 = time.perf_counter()
    try:
        report = convert(src, dst)
    finally:
        for owner, attr, original in restore:
            setattr(owner, attr, original)
    wall = time.perf_counter() - t0
    shutil.rmtree(dst, ignore_errors=True)
    print(f"split of one in-process convert ({len(report.records)} files, {wall:.2f}s wall, warm):")
    for thread in sorted({t for t, _ in totals}, key=lambda t: t != "MainThread"):
        mine = {part: v for (t, part), v in totals.items() if t == thread}
        print(f"  thread {thread}:")
        for part, v in sorted(mine.items(), key=lambda kv: -kv[1]):
            print(f"    {part:50} {v:6.2f}s {100 * v / wall:5.1f}%")
        if thread == "MainThread":
            rest = wall - sum(mine.values())
            label = "the rest (per-file Python: engine, records, walk)"
            print(f"    {label:50} {rest:6.2f}s {100 * rest / wall:5.1f}%")
    prof = cProfile.Profile()
    prof.enable()
    convert(src, dst)
    prof.disable()
    shutil.rmtree(dst, ignore_errors=True)
    pstats.Stats(prof).sort_stats("tottime").print_stats(12)


# ---------------------------------------------------------------------------------------------- compare


def compare(a: Path, b: Path) -> int:
    """0 when trees ``a`` and ``b`` hold the same files with the same bytes (the manifest compared line
    by line, with the recorded manifest path ignored), else 1 with the differences listed."""
    fa, fb = set(_tree_files(a)), set(_tree_files(b))
    diffs = [f"only in {a}: {p}" for p in sorted(fa - fb)] + [f"only in {b}: {p}" for p in sorted(fb - fa)]
    for rel in sorted(fa & fb):
        da, db = (a / rel).read_bytes(), (b / rel).read_bytes()
        if da == db:
            continue
        if rel.endswith(".jsonl"):
            la, lb = da.splitlines(), db.splitlines()
            bad = [i for i, (x, y) in enumerate(zip(la, lb, strict=False)) if x != y]
            diffs.append(f"{rel}: {len(la)} vs {len(lb)} lines, {len(bad)} differ (first: line {bad[:1]})")
        else:
            diffs.append(f"{rel}: bytes differ")
    for line in diffs[:40]:
        print(line)
    print(f"compared {len(fa | fb)} files: {'identical' if not diffs else f'{len(diffs)} differences'}")
    return 1 if diffs else 0


# ---------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--five-level", nargs=2, metavar=("SRC", "DST"), help=argparse.SUPPRESS)
    ap.add_argument("--io-floor", nargs=2, metavar=("SRC", "DST"), help=argparse.SUPPRESS)
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two output trees and exit")
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT, help="scratch directory, on tmpfs")
    ap.add_argument("--copies", type=int, default=10, help="copies of the 400-file tree (default 10)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3, help="timed rounds (default 3)")
    ap.add_argument("--workers", type=int, action="append", default=[], help="also time --workers N")
    ap.add_argument("--profile", action="store_true", help="profile one in-process convert instead")
    ap.add_argument("--keep", type=Path, help="write one more mojifix convert output here and keep it")
    ap.add_argument(
        "--against", metavar="PYTHON", help="also time mojifix convert run by this Python (another checkout)"
    )
    args = ap.parse_args(argv)
    if args.five_level:
        return five_level_command(*map(Path, args.five_level))
    if args.io_floor:
        return io_floor_command(*map(Path, args.io_floor))
    if args.compare:
        return compare(*map(Path, args.compare))
    if args.root is None:
        ap.error("no /dev/shm here: give --root DIR on a tmpfs")
    src, files, size = build_tree(args.root, args.copies, args.seed)
    print(f"tree: {files} files, {size / 1e6:.1f} MB under {src} ({args.copies} copies, seed {args.seed})")
    if args.keep:
        _timed([sys.executable, "-m", "mojifix", "convert", str(src), str(args.keep)], args.keep)
        print(f"mojifix convert output kept in {args.keep}")
    if args.profile:
        profile(src, args.root)
        return 0
    load = os.getloadavg()[0]
    walls, cpus = measure(src, args.root, args.rounds, (1, *args.workers), args.against)
    print(
        f"whole commands, {args.rounds} rounds in turn "
        f"(load average before: {load:.2f}, after: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores)"
    )
    print(f"{'command':28}{'best s':>9}{'median s':>10}{'files/s':>9}{'CPU s':>8}")
    for name, w in walls.items():
        cpu = statistics.median(cpus[name])
        print(f"{name:28}{min(w):9.3f}{statistics.median(w):10.3f}{files / min(w):9.0f}{cpu:8.2f}")
    five, floor = walls["five-level pipeline"], walls["I/O floor"]
    for name, w in walls.items():
        if name.startswith(("mojifix", "  the same")):
            # ratio of each round's pair (the machine's load drifts between rounds), median over rounds
            speed = statistics.median(f / m for f, m in zip(five, w, strict=True))
            to_floor = statistics.median(f / m for f, m in zip(floor, w, strict=True))
            five_cpu = cpus["five-level pipeline"]
            cpu = statistics.median(f / m for f, m in zip(five_cpu, cpus[name], strict=True))
            print(
                f"{name}: {speed:.2f}x the five-level pipeline's speed (target 3x), {to_floor:.3f}x the "
                f"I/O floor's (median of the {args.rounds} rounds' ratios); CPU seconds: {cpu:.2f}x"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
