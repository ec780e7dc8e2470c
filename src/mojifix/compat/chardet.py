"""chardet's API on mojifix's detector: ``import mojifix.compat.chardet as chardet`` and nothing else changes.

``detect(data)`` and each ``detect_all(data)`` item is chardet's result dict: ``encoding`` (a Python codec
name, or None for binary data), ``confidence`` (a float in [0, 1]), ``language`` (an ISO 639 code or None)
and ``mime_type`` (chardet 7's fourth key: ``text/plain``, or ``application/octet-stream`` for binary).
The name decodes the input with ``bytes.decode`` to exactly mojifix's text (see ``_names``); familiar
names (``Windows-1252``, ``CP932``, ``ISO-8859-2``, ``UTF-8-SIG``...) whenever CPython's codec agrees on
this input, else mojifix's registered ``whatwg-*`` codec. ``UniversalDetector`` keeps chardet's
``feed``/``done``/``close``/``result``/``reset`` semantics on mojifix's streaming :class:`~mojifix.Detector`.

Differences (docs/compat.md): superset names are always given (chardet's ``prefer_superset=True``); no
``encoding_era``/``include_encodings`` options; ``language`` is None where mojifix does not name one
(ASCII, UTF-8, UTF-16); empty input is ``utf-8`` with confidence 0.0 (nothing to go on).
"""

from __future__ import annotations

from typing import Any

from mojifix.compat._names import named_candidates
from mojifix.detect import Detector
from mojifix.detect.bom import sniff_bom
from mojifix.detect.result import Detection

__all__ = ["MINIMUM_THRESHOLD", "UniversalDetector", "detect", "detect_all"]

#: chardet's documented cut: ``detect_all`` leaves out results at or below this confidence unless
#: ``ignore_threshold=True`` (and gives them all when nothing is above it). chardet's number, not tuned here.
MINIMUM_THRESHOLD = 0.20
#: chardet 7's default for ``UniversalDetector(max_bytes=...)``: bytes kept before ``done`` turns True
#: (the shim keeps them to check the returned name against them). chardet's number, not tuned here.
DEFAULT_MAX_BYTES = 200_000
#: bytes after which a byte order mark (or its absence) is certain: the UTF-32LE BOM is 4 bytes
_BOM_BYTES = 4

_TEXT = "text/plain"
_BINARY = "application/octet-stream"


def _none_result() -> dict[str, Any]:
    return {"encoding": None, "confidence": 0.0, "language": None, "mime_type": None}


def _results(data: bytes, detection: Detection, limit: int | None = None) -> list[dict[str, Any]]:
    """chardet-shaped dicts for every candidate (or the first ``limit``), best first."""
    if detection.verdict == "binary":
        return [{"encoding": None, "confidence": 0.0, "language": None, "mime_type": _BINARY}]
    if detection.verdict == "empty":
        return [{"encoding": "utf-8", "confidence": 0.0, "language": None, "mime_type": _TEXT}]
    return [
        {
            "encoding": n.name,
            "confidence": float(n.candidate.confidence),
            "language": n.candidate.language,
            "mime_type": _TEXT,
        }
        for n in named_candidates(data, detection, limit)
    ]


def _as_bytes(byte_str: Any) -> bytes:
    if not isinstance(byte_str, bytes | bytearray | memoryview):
        raise TypeError(f"Expected object of type bytes or bytearray, got: {type(byte_str)}")
    return bytes(byte_str)


def detect(
    byte_str: bytes | bytearray, should_rename_legacy: bool = False, *, max_bytes: int | None = None
) -> dict[str, Any]:
    """chardet.detect: the best guess as ``{"encoding", "confidence", "language", "mime_type"}``.

    ``should_rename_legacy`` is accepted for compatibility (superset names are always given).
    ``max_bytes`` bounds how much is examined (default: all of it).
    """
    data = _as_bytes(byte_str)
    return _results(data, Detector(max_bytes=max_bytes).feed(data).close(), 1)[0]


def detect_all(
    byte_str: bytes | bytearray,
    ignore_threshold: bool = False,
    should_rename_legacy: bool = False,
    *,
    max_bytes: int | None = None,
) -> list[dict[str, Any]]:
    """chardet.detect_all: every candidate, best first, one per encoding name.

    Results with confidence at or below :data:`MINIMUM_THRESHOLD` are left out unless
    ``ignore_threshold``; when none is above it, all are given (there is always at least one).
    """
    data = _as_bytes(byte_str)
    results = _results(data, Detector(max_bytes=max_bytes).feed(data).close())
    if not ignore_threshold:
        above = [r for r in results if r["confidence"] > MINIMUM_THRESHOLD]
        results = above or results
    return results


class UniversalDetector:
    """chardet.UniversalDetector: ``feed`` chunks, stop when ``done``, ``close()``, read ``result``.

    ``done`` turns True as soon as the answer cannot change (a byte order mark at the start) or
    ``max_bytes`` bytes were fed; later ``feed`` calls are then ignored. ``close`` returns the result and
    may be called again; ``feed`` after ``close`` raises ValueError until ``reset``.
    """

    MINIMUM_THRESHOLD = MINIMUM_THRESHOLD

    def __init__(self, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if max_bytes < 1:
            raise ValueError(f"max_bytes must be a positive integer, not {max_bytes!r}")
        self._max_bytes = max_bytes
        self.reset()

    def reset(self) -> None:
        """Forget everything fed so far, to examine another input."""
        self._buffer = bytearray()
        self._detector = Detector()
        self._done = False
        self._closed = False
        self._result: dict[str, Any] | None = None

    @property
    def done(self) -> bool:
        """True when more input cannot change the answer (or max_bytes were fed, or after close)."""
        return self._done

    @property
    def result(self) -> dict[str, Any]:
        """The answer after ``close()``; before it, chardet's empty result (encoding None)."""
        return dict(self._result) if self._result is not None else _none_result()

    def feed(self, byte_str: bytes | bytearray) -> None:
        """Add the next chunk (ignored once ``done``)."""
        if self._closed:
            raise ValueError("feed() called after close() without reset()")
        if self._done:
            return
        chunk = _as_bytes(byte_str)[: self._max_bytes - len(self._buffer)]
        self._buffer += chunk
        self._detector.feed(chunk)
        fed = len(self._buffer)
        bom_known = fed >= _BOM_BYTES and sniff_bom(bytes(self._buffer[:_BOM_BYTES]), "file") is not None
        self._done = fed >= self._max_bytes or bom_known

    def close(self) -> dict[str, Any]:
        """Finish and return the result (the same one on every further call, until ``reset``)."""
        if not self._closed:
            self._closed = True
            self._done = True
            self._result = _results(bytes(self._buffer), self._detector.close(), 1)[0]
        return self.result
