"""Python codec registry entries for the standard's 40 encodings: ``whatwg-<name>``.

Naming scheme: ``"whatwg-"`` followed by the standard's *name* (not any label), compared the way Python
compares codec names: case-insensitively, with ``-``, ``_`` and spaces interchangeable. So
``"whatwg-shift_jis"``, ``"WHATWG-Shift-JIS"``, ``"whatwg_windows_1252"`` and ``"whatwg-x-user-defined"``
work; ``"whatwg-sjis"`` (a label, not a name) does not: turn labels into codec names with
``mojifix.whatwg.lookup(label).codec_name``. The prefix keeps these from shadowing CPython's own codecs
(``"shift_jis"`` stays CPython's).

What the registered codecs do:

* decoding is the encoding's plain decoder, no BOM processing (like CPython's ``utf-16-le``; the
  standard's BOM-sniffing *decode* is ``mojifix.whatwg.decode``). Error handlers: ``strict`` and
  ``replace`` (the standard's two decoder modes);
* encoding is the standard's encoder; handlers ``strict`` and ``xmlcharrefreplace`` (= the standard's
  "html" mode; ``html`` is accepted too);
* ``codecs.getincrementaldecoder`` / ``getincrementalencoder`` and ``open(..., encoding=...)`` work
  (``open`` uses the incremental codecs). An incremental ISO-2022-JP encoder returns to ASCII at the end
  of each piece (the output decodes to the same text, but is not byte-identical to one-shot encoding).
* ``codecs.open``/``getreader``/``getwriter`` (the legacy stream classes) are not provided: use ``open``.

Registration happens when ``mojifix.whatwg`` is imported and is idempotent.
"""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mojifix.whatwg import Encoding

__all__ = ["PREFIX", "codec_info", "register", "search"]

#: Every registered codec name starts with this (after Python's normalization: lowercase, ``-`` -> ``_``).
PREFIX = "whatwg-"
_NORMALIZED_PREFIX = "whatwg_"

#: Python error-handler names -> the standard's error modes.
_DECODE_HANDLERS = {"strict": "strict", "replace": "replace"}
_ENCODE_HANDLERS = {"strict": "strict", "xmlcharrefreplace": "html", "html": "html"}


def _normalize(name: str) -> str:
    """Python's codec-name normalization: lowercase, spaces and hyphens become underscores."""
    return name.lower().replace(" ", "_").replace("-", "_")


def _decode_mode(errors: str) -> str:
    mode = _DECODE_HANDLERS.get(errors)
    if mode is None:
        raise ValueError(f"whatwg-* codecs decode with errors='strict' or 'replace', not {errors!r}")
    return mode


def _encode_mode(errors: str) -> str:
    mode = _ENCODE_HANDLERS.get(errors)
    if mode is None:
        raise ValueError(
            f"whatwg-* codecs encode with errors='strict' or 'xmlcharrefreplace', not {errors!r}"
        )
    return mode


def codec_info(encoding: Encoding) -> codecs.CodecInfo:
    """The CodecInfo for one encoding (plain decoder, standard encoder, incremental classes)."""

    def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
        data = bytes(data)
        return encoding.decode(data, errors=_decode_mode(errors), bom="ignore"), len(data)

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return encoding.encode(text, errors=_encode_mode(errors)), len(text)

    class IncrementalDecoder(codecs.IncrementalDecoder):
        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._inner = encoding.incremental_decoder(errors=_decode_mode(errors), bom="ignore")

        def decode(self, input: bytes, final: bool = False) -> str:
            return self._inner.decode(input, final)

        def reset(self) -> None:
            self._inner.reset()

        def getstate(self) -> tuple[bytes, int]:
            return self._inner.getstate()

        def setstate(self, state: tuple[bytes, int]) -> None:
            self._inner.setstate(state)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, input: str, final: bool = False) -> bytes:
            return encoding.encode(input, errors=_encode_mode(self.errors))

    IncrementalDecoder.__name__ = IncrementalDecoder.__qualname__ = "WhatwgIncrementalDecoder"
    IncrementalEncoder.__name__ = IncrementalEncoder.__qualname__ = "WhatwgIncrementalEncoder"
    return codecs.CodecInfo(
        name=encoding.codec_name,
        encode=encode,
        decode=decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
    )


def search(name: str) -> codecs.CodecInfo | None:
    """Codec search function: ``whatwg-<encoding name>`` -> CodecInfo, anything else -> None."""
    normalized = _normalize(name)
    if not normalized.startswith(_NORMALIZED_PREFIX):
        return None
    from mojifix.whatwg import _BY_NAME  # the package is fully imported by the time Python searches

    wanted = normalized[len(_NORMALIZED_PREFIX) :]
    for encoding_name, encoding in _BY_NAME.items():
        if _normalize(encoding_name) == wanted:
            return codec_info(encoding)
    return None


def register() -> None:
    """Add :func:`search` to Python's codec registry (once; calling again changes nothing)."""
    codecs.unregister(search)
    codecs.register(search)
