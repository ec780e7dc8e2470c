"""Stage 5: UTF-8, validated over the whole input (one invalid sequence rules it out).

Non-ASCII text in a legacy encoding is almost never valid UTF-8: a lead byte must be followed by the
right number of continuation bytes (0x80-0xBF), which legacy text (letters, then ASCII) rarely produces
even once, let alone every time. So valid UTF-8 with at least one multi-byte sequence is reported as
UTF-8 -- including text with a single accented letter, which older detectors famously call ISO-8859-1.
A sequence cut off by the end of the input is tolerated (truncated file or sample), nothing else; but
it is not evidence *for* UTF-8: at least one complete multi-byte sequence is required.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

__all__ = ["Utf8Validator"]


@dataclass(slots=True)
class Utf8Validator:
    """Streaming strict UTF-8 check; ``error_at`` is the absolute offset of the first invalid byte."""

    decoder: codecs.IncrementalDecoder = field(default_factory=codecs.getincrementaldecoder("utf-8"))
    error_at: int | None = None
    multibyte: int = 0  # number of non-ASCII characters seen

    def feed(self, block: bytes, offset: int) -> None:
        if self.error_at is not None:
            return
        try:
            text = self.decoder.decode(block, final=False)
        except UnicodeDecodeError as exc:
            self.error_at = offset + exc.start
            return
        if not block.isascii():
            self.multibyte += len(text) - len(text.encode("ascii", "ignore"))

    @property
    def valid(self) -> bool:
        return self.error_at is None

    @property
    def truncated_tail(self) -> int:
        """Bytes of an incomplete final sequence (tolerated)."""
        return len(self.decoder.getstate()[0])
