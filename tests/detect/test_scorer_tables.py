"""The scorer's stored tables (``data/scorer.bin``): fresh, bound to their model, and the same arrays
the scorer computes without them."""

import dataclasses
import hashlib
import subprocess
import sys
import unicodedata
from pathlib import Path

import numpy as np
import pytest

from mojifix.detect import model as M
from mojifix.detect import scoring as S
from mojifix.errors import DetectionError

ROOT = Path(__file__).resolve().parents[2]


def _arrays(scorer: S.Scorer) -> dict[str, np.ndarray]:
    """The scorer's tables and its reference arrays, by name."""
    tables = {name: M.as_array(table) for name, table in scorer.tables.items()}
    reference = {f.name: getattr(scorer.reference, f.name) for f in dataclasses.fields(scorer.reference)}
    assert len(tables) > 10 and len(reference) > 10
    return tables | {f"reference.{name}": array for name, array in reference.items()}


def test_packaged_tables_are_not_stale():
    """Fails when the model, the code pages, Unicode's data or build_tables changed without a rerun
    of the generator."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_detect_tables.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_stored_tables_give_the_scorer_it_would_build():
    model = M.load_model()
    tables = M.load_tables(model)
    assert tables is not None, "data/scorer.bin missing or not this model's: run tools/gen_detect_tables.py"
    stored, built = _arrays(S.Scorer(model, tables)), _arrays(S.Scorer(model))
    assert stored.keys() == built.keys()
    for name, array in built.items():
        assert stored[name].dtype == array.dtype, name
        assert stored[name].shape == array.shape, name
        assert np.array_equal(stored[name], array), name


def test_get_scorer_uses_the_stored_tables():
    model = M.load_model()
    tables = M.load_tables(model)
    assert tables is not None
    used = S.get_scorer().tables["unigram_cost_t"]
    assert np.array_equal(M.as_array(used), M.as_array(tables["unigram_cost_t"]))
    assert isinstance(used, memoryview) and used.readonly  # a view of the file's buffer, not built here


def test_tables_of_another_model_or_unicode_version_are_not_used(monkeypatch):
    model = M.load_model()
    raw = M.tables_bytes()
    assert raw is not None
    assert M.read_tables(raw, model) is not None
    assert (
        M.read_tables(raw, dataclasses.replace(model, payload_sha256=hashlib.sha256(b"x").hexdigest()))
        is None
    )
    monkeypatch.setattr(unicodedata, "unidata_version", unicodedata.unidata_version + ".9")
    assert M.read_tables(raw, model) is None
    S.get_scorer.cache_clear()
    try:  # the scorer then builds its own tables: writable arrays, the same values
        assert M.as_array(S.get_scorer().tables["unigram_cost_t"]).flags.writeable
    finally:
        S.get_scorer.cache_clear()


def test_damaged_tables_are_refused():
    model = M.load_model()
    raw = M.tables_bytes()
    assert raw is not None
    with pytest.raises(DetectionError, match="format marker"):
        M.read_tables(b"XXXXXXXX" + raw[8:], model)
    damaged = bytearray(raw)
    damaged[-1] ^= 0xFF
    with pytest.raises(DetectionError, match="hash"):
        M.read_tables(bytes(damaged), model)


def test_round_trip_keeps_dtype_shape_and_alignment(tmp_path):
    model = M.load_model()
    arrays = {
        "a": np.arange(3, dtype=np.uint8),
        "b": np.arange(6, dtype=np.float32).reshape(2, 3),
        "c": np.array([-1, 2**40], np.int64),
    }
    M.write_tables(tmp_path / "t.bin", arrays, model)
    back = M.read_tables((tmp_path / "t.bin").read_bytes(), model)
    assert back is not None and back.keys() == arrays.keys()
    for name, array in arrays.items():
        view = M.as_array(back[name])
        assert view.dtype == array.dtype and np.array_equal(view, array)
        assert view.ctypes.data % array.dtype.itemsize == 0


def test_views_are_byte_swapped_on_a_big_endian_machine(monkeypatch):
    """The files are little-endian; a big-endian machine reads a swapped copy (simulated here: the swapped
    bytes then read back natively, little-endian, as the byte-reversed number)."""
    stored = np.array([1, 0x0203], "<u2").tobytes() + np.array([-2], "<i8").tobytes()
    assert M._view(stored, "<u2", [2], 0).tolist() == [1, 0x0203]
    monkeypatch.setattr(sys, "byteorder", "big")
    assert M._view(stored, "<u2", [2], 0).tolist() == [0x0100, 0x0302]
    assert M._view(stored, "<i8", [1], 4).tolist() == [
        int.from_bytes((-2).to_bytes(8, "little", signed=True), "big", signed=True)
    ]
    assert M._view(b"\x05\x06", "|u1", [2], 0).tolist() == [5, 6]  # (single bytes: nothing to swap)


def test_an_unknown_array_type_is_refused():
    model = M.load_model()
    raw = M._pack(M.TABLES_MAGIC, {"a": np.arange(3, dtype=np.float16)}, {})
    with pytest.raises(DetectionError, match="cannot read"):
        M.read_tables(raw, model)
