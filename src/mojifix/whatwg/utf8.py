"""UTF-8 (https://encoding.spec.whatwg.org/#utf-8).

CPython's UTF-8 codec already implements the standard's decoder: both follow Unicode's "Best Practices
for Using U+FFFD" (maximal subparts: ``ED A0 80`` is three errors because 0xA0 is outside ED's second-byte
range, a truncated ``F0 9F 98`` at the end is one error), reject overlongs and surrogates the same way,
and report errors over exactly the bytes the standard's decoder consumed. That equivalence is not
assumed: tests/whatwg/test_exhaustive.py checks every 1- and 2-byte input and a grid of 3- and 4-byte
inputs against a straight-from-the-spec decoder, and the property tests check byte soups.

The encoder differs only for ``str`` values that hold surrogates, which are not scalar values: "strict"
raises EncodeError at the first one; "html" first replaces each by U+FFFD, as browsers do when a string
becomes a USVString, and UTF-8 encodes it (EF BF BD), so no ``&#...;`` is ever written.
"""

from __future__ import annotations

import codecs

from mojifix.whatwg._base import WhatwgCodec
from mojifix.whatwg._common import (
    SURROGATE,
    as_bytes,
    as_text,
    check_decode_errors,
    check_encode_errors,
    decode_error,
    encode_error,
)

__all__ = ["CODECS", "Utf8Codec", "Utf8IncrementalDecoder"]

NAME = "UTF-8"


class Utf8IncrementalDecoder(codecs.BufferedIncrementalDecoder):
    """CPython's incremental UTF-8 decoder, raising mojifix's DecodeError (offsets into the piece)."""

    def __init__(self, errors: str = "replace") -> None:
        super().__init__(check_decode_errors(errors))

    def _buffer_decode(self, input: bytes, errors: str, final: bool) -> tuple[str, int]:
        data = as_bytes(input)
        try:
            return codecs.utf_8_decode(data, errors, final)
        except UnicodeDecodeError as exc:
            raise decode_error(NAME, exc, data) from None


class Utf8Codec(WhatwgCodec):
    """The standard's UTF-8 decoder and encoder, at CPython's C speed."""

    name = NAME

    def decode(self, data: bytes, errors: str = "replace") -> str:
        """The UTF-8 decoder over all of ``data``; no BOM handling (that is ``Encoding.decode``'s job)."""
        data = as_bytes(data)
        check_decode_errors(errors)
        try:
            return data.decode("utf-8", errors)
        except UnicodeDecodeError as exc:
            raise decode_error(NAME, exc, data) from None

    def encode(self, text: str, errors: str = "strict") -> bytes:
        """The UTF-8 encoder: every scalar value is encodable, so only surrogates can fail (module doc)."""
        text = as_text(text)
        check_encode_errors(errors)
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError as exc:
            if errors == "strict":
                raise encode_error(NAME, text, exc.start) from None
        return SURROGATE.sub("\ufffd", text).encode("utf-8")

    def incremental_decoder(self, errors: str = "replace") -> codecs.IncrementalDecoder:
        """An incomplete sequence at the end of a piece waits for the next piece (or ``final``)."""
        return Utf8IncrementalDecoder(errors)


#: the standard's name -> codec
CODECS: dict[str, WhatwgCodec] = {NAME: Utf8Codec()}
