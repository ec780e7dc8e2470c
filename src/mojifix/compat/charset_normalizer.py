"""charset-normalizer's basic API on mojifix's detector: ``from_bytes``/``from_path``/``from_fp``, ``best()``.

``from_bytes(data)`` returns :class:`CharsetMatches`, ranked best first (empty for binary data, so
``.best()`` is None, as in charset-normalizer); each :class:`CharsetMatch` has ``.encoding`` (a Python codec
name in charset-normalizer's spelling, ``cp1252``, ``utf_8``, ``shift_jis``... or mojifix's registered
``whatwg-*`` codec where CPython's differs on this input), ``str(match)`` (mojifix's text), ``.raw``,
``.bom``/``.byte_order_mark``, ``.output(encoding)`` and ``.could_be_from_charset``. ``detect`` is the
chardet-compatible function, as in charset-normalizer. Measures of charset-normalizer's own method
(``chaos``, ``coherence``, ``languages``) are not offered: mojifix does not compute them (docs/compat.md).
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator
from typing import IO

from mojifix.compat._names import Named, named_candidates
from mojifix.compat.chardet import detect
from mojifix.detect import detect as _detect
from mojifix.detect.result import Candidate

__all__ = ["CharsetMatch", "CharsetMatches", "detect", "from_bytes", "from_fp", "from_path"]


def _spelling(name: str) -> str:
    """charset-normalizer's spelling of a codec: CPython's canonical name with underscores (``utf_8``)."""
    canonical = codecs.lookup(name).name
    return canonical if canonical.startswith("whatwg-") else canonical.replace("-", "_")


class CharsetMatch:
    """One way to read the bytes: the codec, and the text it gives (``str(match)``)."""

    def __init__(self, payload: bytes, named: Named, bom: bool) -> None:
        self._payload = payload
        self._text = named.text
        self.encoding: str = _spelling(named.name)
        self.bom: bool = bom
        self.confidence: float = float(named.candidate.confidence)

    @property
    def byte_order_mark(self) -> bool:
        return self.bom

    @property
    def raw(self) -> bytes:
        """The original bytes."""
        return self._payload

    @property
    def could_be_from_charset(self) -> list[str]:
        """Codec names that read the bytes the same way (here: this match's codec)."""
        return [self.encoding]

    def output(self, encoding: str = "utf_8") -> bytes:
        """The text encoded with ``encoding`` (strictly: an unencodable character raises, never ``?``)."""
        return self._text.encode(encoding)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<CharsetMatch '{self.encoding}' bytes({len(self._payload)})>"


class CharsetMatches:
    """Matches ranked best first: iterable, indexable by position or encoding name, ``best()``."""

    def __init__(self, results: list[CharsetMatch] | None = None) -> None:
        self._results = list(results or [])

    def best(self) -> CharsetMatch | None:
        """The most likely match, or None (binary data)."""
        return self._results[0] if self._results else None

    def first(self) -> CharsetMatch | None:
        return self.best()

    def __iter__(self) -> Iterator[CharsetMatch]:
        return iter(self._results)

    def __len__(self) -> int:
        return len(self._results)

    def __bool__(self) -> bool:
        return bool(self._results)

    def __getitem__(self, item: int | str) -> CharsetMatch:
        if isinstance(item, int):
            return self._results[item]
        wanted = _spelling(item)
        for match in self._results:
            if match.encoding == wanted:
                return match
        raise KeyError(item)


def from_bytes(sequences: bytes | bytearray) -> CharsetMatches:
    """Rank the ways to read ``sequences`` (charset_normalizer.from_bytes' basic form)."""
    if not isinstance(sequences, bytes | bytearray):
        raise TypeError(f"Expected object of type bytes or bytearray, got: {type(sequences)}")
    data = bytes(sequences)
    detection = _detect(data)
    if detection.verdict == "binary":
        return CharsetMatches()
    if detection.verdict == "empty":
        empty = Named("utf_8", "", Candidate("UTF-8", 0.0))
        return CharsetMatches([CharsetMatch(data, empty, False)])
    has_bom = detection.bom is not None
    return CharsetMatches([CharsetMatch(data, n, has_bom) for n in named_candidates(data, detection)])


def from_fp(fp: IO[bytes]) -> CharsetMatches:
    """:func:`from_bytes` of everything ``fp`` (opened in binary mode) has left to read."""
    return from_bytes(fp.read())


def from_path(path: str | bytes | os.PathLike[str]) -> CharsetMatches:
    """:func:`from_bytes` of the file at ``path``."""
    with open(path, "rb") as fp:
        return from_fp(fp)
