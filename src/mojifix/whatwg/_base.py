"""The contract every WHATWG encoding implementation in this package follows.

Each family module (``single_byte``, ``utf8``, ``utf16``, ``gb18030``, ``big5``, ``euc_jp``,
``iso_2022_jp``, ``shift_jis``, ``euc_kr``, ...) exports ``CODECS: dict[str, WhatwgCodec]`` keyed by
the standard's encoding name (e.g. ``{"gb18030": ..., "GBK": ...}``). ``mojifix.whatwg`` collects them.
"""

from __future__ import annotations

import codecs
from abc import ABC, abstractmethod


class WhatwgCodec(ABC):
    """One encoding of the Encoding Standard: its decoder and encoder, without BOM handling.

    BOM handling ("decode", "UTF-8 decode", "UTF-8 decode without BOM") is done once, in
    ``mojifix.whatwg.Encoding``, on top of these.
    """

    #: the standard's name, e.g. "Shift_JIS"
    name: str

    @abstractmethod
    def decode(self, data: bytes, errors: str = "replace") -> str:
        """Run the standard's decoder over all of ``data`` (end-of-queue included).

        ``errors="replace"``: each decoder error yields one U+FFFD, exactly where the standard emits it.
        ``errors="strict"``: raise :class:`mojifix.errors.DecodeError` at the first decoder error, with
        ``start``/``end`` spanning the bytes the standard's decoder consumed for that error.
        """

    @abstractmethod
    def encode(self, text: str, errors: str = "strict") -> bytes:
        """Run the standard's encoder. ``errors="strict"`` raises :class:`mojifix.errors.EncodeError`;
        ``errors="html"`` writes ``&#N;`` for unencodable code points (the standard's "html" mode)."""

    @abstractmethod
    def incremental_decoder(self, errors: str = "replace") -> codecs.IncrementalDecoder:
        """A decoder for streams: any split of the input, fed in order with ``final=True`` on the last
        piece, gives exactly ``decode(whole)``."""
