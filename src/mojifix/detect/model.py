"""The detector's language model: the one owner of its file format (read and write).

File layout (``data/model.bin``)::

    MAGIC (8 bytes, b"MJFXDET2") | SHA-256 of the payload (32 bytes) | payload
    payload = header length (4 bytes, little-endian) | header (JSON) | zlib(arrays)

The header holds the metadata (``meta``) and each array's name, dtype, shape and offset in the
inflated buffer (8-byte aligned); loading is one read, one hash, one inflate, and a read-only typed
``memoryview`` per array (no archive format, no pickles, no copies, no NumPy: the compiled scorer reads
the views as buffers; the NumPy reference and the tools ask for arrays, :func:`as_array`). A file whose
magic or hash does not match is refused with an error that says how to rebuild it
(``tools/train_detect.py``).

What the model holds (built by ``tools/train_detect.py``, see docs/detection.md):

* ``lut``: uint16[65536], BMP code point -> *global id* (gid). Case is folded here (the training text,
  wordfreq's lists, is lower-case), and a few look-alike letters are merged (``ș``->``ş``, ``ț``->``ţ``:
  ISO-8859-16 and windows-1250 put them on the same bytes; Persian yeh -> Arabic yeh; at load, Arabic
  presentation forms -> their letter, :func:`_fold_presentation_forms`). The first
  :data:`N_CLASSES` gids are *classes*: separators (ASCII punctuation, digits, white space), controls,
  symbols, non-ASCII punctuation (curly quotes, dashes, guillemets, NBSP, CJK punctuation: learned from
  real sentences, because a letter misread as a quote must cost something), and one class per script
  for letters outside the vocabulary. The rest are individual characters.
* ``loc``: uint8[n_languages, n_gids], gid -> *local id* of that language: ids 0..6 are the classes
  :data:`L_SEP`, :data:`L_CTRL`, :data:`L_SYM`, :data:`L_NATIVE` (a letter of the language's own script
  outside its top-249 list), :data:`L_FOREIGN`, :data:`L_PUNCT` and :data:`L_RARE` (ASCII punctuation
  prose rarely uses: ``[]{}|^~\\```); ids 7..255 are its 249 most frequent letters.
* ``bigram``: uint8[n_languages, 256, 256], quantised ``-log P(next local id | local id)``.
* ``uni``: uint8[n_languages, 256], quantised ``-log P(local id)`` (for the cheap unigram shortlist).
* ``ext``: uint8[n_languages, n_gids], quantised ``-log P(character | its L_NATIVE class)``: refines the
  probability of letters outside the top-251 (this is where the 3,000+ Hanzi/Kanji/Hangul live).
* ``meta``: JSON (languages, their native scripts, encoding -> languages it can write, sources).

The scorer's derived tables (``data/scorer.bin``, written by ``tools/gen_detect_tables.py``) are the
second file this module owns, in the same layout (marker b"MJFXSCR1"): what
:class:`~mojifix.detect.scoring.Scorer` would otherwise compute from the model and Unicode's character
properties in every new process, stored as it uses them. Their header names the generator, the model
payload's SHA-256 and the Unicode version they were computed with; tables made for another model or
another Unicode version are not used (the scorer builds its own, with the same result).
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
import sys
import unicodedata
import zlib
from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mojifix.errors import DetectionError

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Model",
    "as_array",
    "load_model",
    "load_tables",
    "read_model",
    "read_tables",
    "write_model",
    "write_tables",
]

MAGIC = b"MJFXDET2"
TABLES_MAGIC = b"MJFXSCR1"
TABLES_GENERATOR = "tools/gen_detect_tables.py"
#: quantisation step of stored negative log-probabilities: value = byte / QUANT nats. 12 per nat keeps
#: the rounding error (< 0.05 nat per character) far below the differences that decide a detection,
#: and 255 / 12 = 21 nats covers the least likely transitions we ever need to express.
QUANT = 12.0

# Global class ids (first gids). Letters outside every vocabulary fall into their script's class.
G_SEP, G_CTRL, G_SYM, G_PUNCT = 0, 1, 2, 3
SCRIPTS: tuple[str, ...] = (
    "LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "GEORGIAN", "HEBREW", "ARABIC", "THAI",
    "INDIC", "HANGUL", "KANA", "HAN", "OTHER",
)  # fmt: skip
G_SCRIPT0 = 4  # gid of the first script's letter class
N_CLASSES = G_SCRIPT0 + len(SCRIPTS)

# Local class ids (same in every language).
L_SEP, L_CTRL, L_SYM, L_NATIVE, L_FOREIGN, L_PUNCT, L_RARE = 0, 1, 2, 3, 4, 5, 6
N_LOCAL_CLASSES = 7
N_LOCAL = 256


@dataclass(frozen=True, slots=True)
class Model:
    """The loaded model: its tables as stored, as read-only typed views (what the compiled scorer reads,
    without NumPy), and each as a NumPy array on request (what the reference scorer and the tools
    compute with), the small ones dequantised to float32.

    The bigram table is kept only as stored (one byte per entry, what scoring reads); its float form
    (:attr:`bigram`, 17 MB) is made when asked for, which no detection does.
    """

    #: name -> view: "lut" uint16[65536] (presentation forms folded, :func:`_fold_presentation_forms`),
    #: "loc" uint8[L, G], "bigram" uint8[L, 256, 256], "uni" uint8[L, 256], "ext" uint8[L, G],
    #: "gid_script" uint8[G] (script index into SCRIPTS of each gid, 255 for non-letters)
    tables: Mapping[str, memoryview]
    languages: tuple[str, ...]
    meta: dict[str, Any]
    payload_sha256: str  # hex SHA-256 of the model file's payload (what the scorer's tables are bound to)

    @property
    def n_gids(self) -> int:
        """The number of global ids (columns of ``loc``, ``ext``)."""
        return self.tables["gid_script"].shape[0]

    @property
    def lut(self) -> np.ndarray:
        """uint16[65536]: BMP code point -> gid."""
        return as_array(self.tables["lut"])

    @property
    def loc(self) -> np.ndarray:
        """uint8[L, G]: gid -> local id of each language."""
        return as_array(self.tables["loc"])

    @property
    def gid_script(self) -> np.ndarray:
        """uint8[G]: script index (into SCRIPTS) of each gid, 255 for non-letters."""
        return as_array(self.tables["gid_script"])

    @property
    def bigram_q(self) -> np.ndarray:
        """uint8[L, 256, 256]: ``bigram`` as stored (-log P x QUANT), for compact lookups."""
        return as_array(self.tables["bigram"])

    @property
    def ext_q(self) -> np.ndarray:
        """uint8[L, G]: ``ext`` as stored."""
        return as_array(self.tables["ext"])

    @property
    def uni(self) -> np.ndarray:
        """float32[L, 256] log-probabilities (<= 0): the stored unigram table dequantised."""
        return _dequantised(self.tables["uni"])

    @property
    def ext(self) -> np.ndarray:
        """float32[L, G] log-probabilities (<= 0): ``ext_q`` dequantised."""
        return _dequantised(self.tables["ext"])

    @property
    def bigram(self) -> np.ndarray:
        """float32[L, 256, 256] log-probabilities (<= 0): ``bigram_q`` dequantised."""
        return _dequantised(self.tables["bigram"])

    def language_index(self, code: str) -> int:
        return self.languages.index(code)


def as_array(table: memoryview | np.ndarray) -> np.ndarray:
    """A stored table (a typed view, or an array :func:`~mojifix.detect.scoring.build_tables` made) as a
    NumPy array over the same memory: the reference scorer's and the tools' form of it.

    NumPy is imported here, on first use, not by importing this module: a process whose detections all
    run on the compiled scorer never loads it (it costs a new process ~0.1 s)."""
    import numpy as np

    return np.asarray(table)


def _dequantised(stored: memoryview) -> np.ndarray:
    """A stored table of quantised costs as float32 log-probabilities (<= 0)."""
    import numpy as np

    return -(as_array(stored).astype(np.float32) / QUANT)


#: NumPy dtype strings of the stored arrays -> their ``struct`` format (what a memoryview is cast to);
#: the files are little-endian, as NumPy wrote them
_FORMATS = {"|u1": "B", "|b1": "?", "<i2": "h", "<u2": "H", "<i4": "i", "<u4": "I", "<i8": "q", "<f4": "f"}


def _view(buffer: bytes, dtype: str, shape: list[int], offset: int) -> memoryview:
    """The read-only view of one stored array: ``shape`` items of ``dtype`` at ``offset`` of ``buffer``
    (on a big-endian machine, a byte-swapped copy)."""
    fmt = _FORMATS[dtype]
    size = struct.calcsize(fmt) * math.prod(shape)
    raw = memoryview(buffer)[offset : offset + size]
    if sys.byteorder == "big" and dtype[0] == "<":
        swapped = array(fmt, raw.tobytes())
        swapped.byteswap()
        raw = memoryview(swapped).cast("B").toreadonly()
    return raw.cast(fmt, shape)


def _pack(magic: bytes, arrays: Mapping[str, np.ndarray], header: dict[str, Any]) -> bytes:
    """``magic | SHA-256(payload) | payload``: the arrays inflated one after another (each 8-byte
    aligned), compressed, behind a JSON header that says where each one is."""
    import numpy as np

    chunks: list[bytes] = []
    layout: list[list[Any]] = []
    offset = 0
    for name, table in arrays.items():
        data = np.ascontiguousarray(table).tobytes()
        layout.append([name, table.dtype.str, list(table.shape), offset])
        pad = -len(data) % 8
        chunks.append(data + bytes(pad))
        offset += len(data) + pad
    head = json.dumps({**header, "arrays": layout, "inflated": offset}, sort_keys=True, ensure_ascii=False)
    head = head.encode()
    payload = struct.pack("<I", len(head)) + head + zlib.compress(b"".join(chunks), 9)
    return magic + hashlib.sha256(payload).digest() + payload


def _unpack(
    raw: bytes, magic: bytes, what: str, rebuild: str
) -> tuple[dict[str, Any], dict[str, memoryview]]:
    """(header, arrays) of a file written by :func:`_pack`, after checking its marker and hash; the
    arrays are read-only typed views of one inflated buffer."""
    if raw[: len(magic)] != magic:
        raise DetectionError(f"{what} file has the wrong format marker; rebuild: {rebuild}")
    digest, payload = raw[len(magic) : len(magic) + 32], raw[len(magic) + 32 :]
    if hashlib.sha256(payload).digest() != digest:
        raise DetectionError(
            f"{what} file is corrupt (hash mismatch); reinstall mojifix or rebuild: {rebuild}"
        )
    (head_len,) = struct.unpack_from("<I", payload)
    header = json.loads(payload[4 : 4 + head_len])
    # (inflated into a buffer of its final size: growing one from zlib's default 16 KB took twice as long)
    buffer = zlib.decompress(payload[4 + head_len :], bufsize=header["inflated"])
    unknown = {dtype for _, dtype, _, _ in header["arrays"]} - _FORMATS.keys()
    if unknown:
        raise DetectionError(
            f"{what} file holds arrays of a type this version cannot read; rebuild: {rebuild}"
        )
    arrays = {name: _view(buffer, dtype, shape, offset) for name, dtype, shape, offset in header["arrays"]}
    return header, arrays


def write_model(path: Path, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> str:
    """Write a model file; return the payload's SHA-256 (hex). Used only by tools/train_detect.py."""
    raw = _pack(MAGIC, arrays, {"meta": meta})
    path.write_bytes(raw)
    return raw[len(MAGIC) : len(MAGIC) + 32].hex()


def read_model(raw: bytes) -> Model:
    """Parse and verify model bytes (magic + SHA-256)."""
    header, arrays = _unpack(raw, MAGIC, "detector model", "tools/train_detect.py train")
    meta = header["meta"]
    arrays["lut"] = _fold_presentation_forms(arrays["lut"])
    return Model(
        tables=arrays,
        languages=tuple(meta["languages"]),
        meta=meta,
        payload_sha256=raw[len(MAGIC) : len(MAGIC) + 32].hex(),
    )


#: the Arabic presentation-form blocks (Unicode's "Arabic Presentation Forms-A" and "-B"): each
#: character is one shape (isolated, initial, medial, final) of a letter
_PRESENTATION_FORMS = (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFF00))


def _fold_presentation_forms(lut: memoryview) -> memoryview:
    """``lut`` with each Arabic presentation form read as the letter it is a shape of (its NFKC form).

    Code pages of shaped text (IBM's cp1006 for Urdu, cp864 for Arabic) decode to presentation forms,
    which training text (in logical order, base letters) never has: without the fold every such letter
    was the Arabic script's "unseen letter" class, and no reading in them could read as Urdu or Arabic.
    Done at load (not stored by the trainer) because it follows from Unicode alone and leaves the
    trained tables as they are; ligatures of two letters (lam-alef) stay in the class."""
    out = array("H", lut.tobytes())
    for cp in _PRESENTATION_FORMS:
        base = unicodedata.normalize("NFKC", chr(cp)).strip()
        if len(base) == 1 and out[cp] < N_CLASSES:
            out[cp] = lut[ord(base)]
    return memoryview(out).toreadonly()


#: the package's data directory: read as a plain path (the package is installed as files, never run
#: from a zip), which spares every process importlib.resources and what it imports (tempfile, shutil,
#: zipfile: ~10 ms of start-up, measured with ``python -X importtime``)
DATA = Path(__file__).resolve().parent / "data"


def model_bytes() -> bytes:
    """The packaged model file's bytes."""
    return (DATA / "model.bin").read_bytes()


@cache
def load_model() -> Model:
    """Load the packaged model once (lazily: importing mojifix.detect does not read it)."""
    return read_model(model_bytes())


def write_tables(path: Path, arrays: Mapping[str, np.ndarray], model: Model) -> None:
    """Write the scorer's derived tables for ``model``. Used only by tools/gen_detect_tables.py."""
    header = {
        "generated": f"GENERATED by {TABLES_GENERATOR}, DO NOT EDIT",
        "model_sha256": model.payload_sha256,
        "unidata_version": unicodedata.unidata_version,
    }
    path.write_bytes(_pack(TABLES_MAGIC, arrays, header))


def read_tables(raw: bytes, model: Model) -> dict[str, memoryview] | None:
    """The scorer's tables from ``raw`` (read-only typed views of one inflated buffer), or None when they
    were made for another model or another Unicode version than this Python's.

    Why None rather than an error: such tables are not wrong, only not ours; the scorer then computes
    them (the same arrays, tested), which costs start-up time and nothing else."""
    header, arrays = _unpack(raw, TABLES_MAGIC, "detector tables", f"python {TABLES_GENERATOR}")
    made_for = (header["model_sha256"], header["unidata_version"])
    return arrays if made_for == (model.payload_sha256, unicodedata.unidata_version) else None


def tables_bytes() -> bytes | None:
    """The packaged scorer tables file's bytes, or None when the package carries none."""
    path = DATA / "scorer.bin"
    return path.read_bytes() if path.is_file() else None


def load_tables(model: Model) -> dict[str, memoryview] | None:
    """The packaged scorer tables for ``model`` (:func:`read_tables`), or None when absent or not its."""
    raw = tables_bytes()
    return None if raw is None else read_tables(raw, model)
