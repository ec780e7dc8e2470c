"""Issue 4, bad/large input: streaming detection keeps memory bounded however large the input.

A fresh subprocess streams 256 MiB of windows-1252 text through ``Detector`` in 1 MiB pieces and
reports its peak RSS growth; the detector keeps at most a fixed sample plus one block, so growth must
stay far below the input size (the issue's bound is < 200 MB RSS on 1 GB; benchmarks/detect_large.py
measures the full 1 GiB). Not timed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

CHILD = r"""
import json, resource, sys
sys.path.insert(0, sys.argv[1])
from mojifix.detect import Detector
line = "Le café du marché était fermé à cause de la grève générale.\n".encode("cp1252")
piece = (line * ((1 << 20) // len(line) + 1))[: 1 << 20]
det = Detector()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for _ in range(int(sys.argv[2])):
    det.feed(piece)
d = det.close()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"growth_kb": peak - base, "best": d.best().encoding, "examined": d.bytes_examined}))
"""


@pytest.mark.slow
def test_streaming_256_mib_keeps_memory_bounded() -> None:
    mib = 256
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(SRC), str(mib)], capture_output=True, text=True, check=True
    )
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["best"] == "windows-1252"
    assert r["examined"] == mib << 20  # every byte was examined, none skipped
    assert r["growth_kb"] < 100 * 1024, f"RSS grew by {r['growth_kb'] / 1024:.0f} MB on {mib} MiB of input"
