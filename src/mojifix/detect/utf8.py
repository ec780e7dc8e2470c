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

from mojifix.detect.validity import decode_resuming

__all__ = ["Utf8Validator"]


@dataclass(slots=True)
class Utf8Validator:
    """Streaming strict UTF-8 check; ``error_at`` is the absolute offset of the first invalid byte."""

    decoder: codecs.IncrementalDecoder = field(default_factory=codecs.getincrementaldecoder("utf-8"))
    error_at: int | None = None
    multibyte: int = 0  # number of non-ASCII characters seen
    #: offsets of invalid sequences, up to validity.MAX_ERRORS (then ``broken``): UTF-8 with a few
    #: invalid bytes is still named UTF-8, with the errors as evidence
    errors: list[int] = field(default_factory=list)
    broken: bool = False

    def feed(self, block: bytes, offset: int) -> None:
        if self.broken:
            return
        had_errors = bool(self.errors)
        text, data, _, self.broken = decode_resuming(
            self.decoder, block, offset, self.errors, True, self._count_skipped
        )
        if not had_errors and self.errors:
            self.error_at = self.errors[0]
        if not self.broken and not data.isascii():
            self.multibyte += _non_ascii(text)

    def _count_skipped(self, good: bytes) -> None:
        """Count the non-ASCII characters of the bytes decoded before an invalid sequence."""
        self.multibyte += _non_ascii(good.decode("utf-8", "ignore"))

    @property
    def valid(self) -> bool:
        return self.error_at is None

    @property
    def truncated_tail(self) -> int:
        """Bytes of an incomplete final sequence (tolerated)."""
        return len(self.decoder.getstate()[0])


def _non_ascii(text: str) -> int:
    """Characters of ``text`` outside ASCII."""
    return len(text) - len(text.encode("ascii", "ignore"))
