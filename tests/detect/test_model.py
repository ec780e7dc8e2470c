"""The model file: format marker, hash check, metadata."""

import hashlib
import json
from importlib import resources

import pytest

from mojifix.detect import model as M
from mojifix.errors import DetectionError


def test_packaged_model_loads():
    m = M.load_model()
    assert len(m.languages) >= 40
    assert m.lut.shape == (0x10000,)
    assert m.bigram.shape[1:] == (256, 256)
    assert (m.bigram <= 0).all()


def test_format_marker_checked():
    raw = M.model_bytes()
    with pytest.raises(DetectionError, match="format marker"):
        M.read_model(b"XXXXXXXX" + raw[8:])


def test_hash_checked():
    raw = bytearray(M.model_bytes())
    raw[-1] ^= 0xFF
    with pytest.raises(DetectionError, match="hash"):
        M.read_model(bytes(raw))


def test_metadata_sidecar_matches_model():
    meta = json.loads(resources.files("mojifix.detect").joinpath("data/model.json").read_text("utf-8"))
    raw = M.model_bytes()
    assert meta["sha256"] == hashlib.sha256(raw[len(M.MAGIC) + 32 :]).hexdigest()
    assert meta["size_bytes"] == len(raw)
    assert meta["trained_at"]
    names = {src["name"] for src in meta["sources"]}
    assert {"wordfreq", "Django"} <= names
    assert all(src["license"] and src["version"] for src in meta["sources"])


def test_model_is_small():
    assert len(M.model_bytes()) < 4_000_000


def test_every_encoding_has_languages():
    m = M.load_model()
    from mojifix.detect.encodings import REGISTRY
    from mojifix.detect.scoring import get_scorer

    scorer = get_scorer()
    for info in REGISTRY:
        if info.kind not in ("utf8", "utf16", "utf32", "escape"):
            # the trained coverage list, or (encodings added after training) the languages served
            assert len(scorer.enc_langs.get(info.name, ())), info.name
    assert m.meta["encoding_languages"]
