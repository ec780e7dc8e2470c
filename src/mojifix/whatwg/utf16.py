"""UTF-16BE and UTF-16LE (https://encoding.spec.whatwg.org/#shared-utf-16-decoder).

Valid input (the common case) decodes with CPython's strict UTF-16 codec at C speed: when it succeeds
its output is the standard's. Only when it fails does the slow path run, which still does the work in C:

1. the even-length part is decoded with ``surrogatepass``, so each unpaired surrogate code unit comes out
   as that surrogate and valid pairs come out combined (shared UTF-16 decoder steps 6-9);
2. each surrogate left in the text is one decoder error -> one U+FFFD. A leading surrogate followed by a
   non-trailing unit is an error and that unit is decoded afresh (step 6.7, "restore"), which is exactly
   what (1) produced;
3. an odd trailing byte is one error at end-of-queue (step 1), *shared* with a leading surrogate that
   directly precedes it: ``3D D8 41`` is one U+FFFD, not two.

The standard has no UTF-16 encoder (its "get an output encoding" turns UTF-16BE/LE into UTF-8 for forms
and URLs; see ``Encoding.output_encoding``). ``encode`` here is the plain inverse of the decoder, which is
what a caller writing a UTF-16 file wants; surrogates in ``str`` are handled as in UTF-8.
"""

from __future__ import annotations

import codecs

from mojifix.errors import DecodeError
from mojifix.whatwg._base import WhatwgCodec
from mojifix.whatwg._common import (
    SURROGATE,
    as_bytes,
    as_text,
    check_decode_errors,
    check_encode_errors,
    encode_error,
)

__all__ = ["CODECS", "Utf16Codec", "Utf16IncrementalDecoder"]

_LEAD_SURROGATES = range(0xD800, 0xDC00)
_LEAD_SURROGATE_BYTES = range(0xD8, 0xDC)  # high byte of a leading surrogate code unit


class Utf16Codec(WhatwgCodec):
    """The shared UTF-16 decoder with its "is UTF-16BE decoder" flag fixed."""

    def __init__(self, name: str, big_endian: bool) -> None:
        self.name = name
        self.big_endian = big_endian
        self._python_codec = "utf-16-be" if big_endian else "utf-16-le"

    def decode(self, data: bytes, errors: str = "replace") -> str:
        """The UTF-16 decoder over all of ``data``; no BOM handling (that is ``Encoding.decode``'s job)."""
        data = as_bytes(data)
        check_decode_errors(errors)
        try:
            return data.decode(self._python_codec)
        except UnicodeDecodeError:
            pass  # invalid input: take the slow path below
        even = len(data) & ~1
        units = data[:even].decode(self._python_codec, "surrogatepass")
        ends_in_lead = bool(units) and ord(units[-1]) in _LEAD_SURROGATES
        odd = len(data) != even
        if errors == "strict":
            raise self._first_error(data, units, even, ends_in_lead)
        text = SURROGATE.sub("\ufffd", units)
        if odd and not ends_in_lead:
            text += "\ufffd"  # step 1: end-of-queue with a leading byte pending
        return text

    def _first_error(self, data: bytes, units: str, even: int, ends_in_lead: bool) -> DecodeError:
        """The DecodeError for the first decoder error, spanning the bytes the decoder consumed for it."""
        match = SURROGATE.search(units)
        if match is None:
            return DecodeError(
                self.name, data, even, len(data), "odd number of bytes: a code unit is cut off"
            )
        start = len(units[: match.start()].encode(self._python_codec, "surrogatepass"))
        end = start + 2
        unit = ord(units[match.start()])
        reason = "unpaired leading surrogate" if unit in _LEAD_SURROGATES else "unpaired trailing surrogate"
        if end == even and ends_in_lead and even != len(data):
            # the leading surrogate and an odd last byte make one end-of-queue error (step 1)
            end = len(data)
            reason = "leading surrogate and a lone byte at the end of the data"
        return DecodeError(self.name, data, start, end, reason)

    def encode(self, text: str, errors: str = "strict") -> bytes:
        """UTF-16 in this byte order, no BOM (not in the standard; see module doc)."""
        text = as_text(text)
        check_encode_errors(errors)
        try:
            return text.encode(self._python_codec)
        except UnicodeEncodeError as exc:
            if errors == "strict":
                raise encode_error(self.name, text, exc.start) from None
        return SURROGATE.sub("\ufffd", text).encode(self._python_codec)

    def incremental_decoder(self, errors: str = "replace") -> codecs.IncrementalDecoder:
        """Holds back an odd byte and a trailing leading surrogate until the next piece."""
        return Utf16IncrementalDecoder(self, errors)


class Utf16IncrementalDecoder(codecs.IncrementalDecoder):
    """Feeds the one-shot decoder only up to a point where the standard's decoder is in its initial state.

    That point is before a pending leading byte or a pending leading surrogate; what comes before it
    decodes the same whatever follows, so concatenating the pieces' output gives the one-shot result.
    """

    def __init__(self, codec: Utf16Codec, errors: str = "replace") -> None:
        super().__init__(check_decode_errors(errors))
        self._codec = codec
        self._pending = b""

    def decode(self, input: bytes, final: bool = False) -> str:
        data = self._pending + as_bytes(input)
        if final:
            self._pending = b""
            return self._codec.decode(data, self.errors)
        cut = len(data) & ~1
        if cut >= 2:
            high = data[cut - 2] if self._codec.big_endian else data[cut - 1]
            if high in _LEAD_SURROGATE_BYTES:
                cut -= 2
        self._pending = data[cut:]
        return self._codec.decode(data[:cut], self.errors)

    def reset(self) -> None:
        self._pending = b""

    def getstate(self) -> tuple[bytes, int]:
        return (self._pending, 0)

    def setstate(self, state: tuple[bytes, int]) -> None:
        self._pending = state[0]


#: the standard's name -> codec
CODECS: dict[str, WhatwgCodec] = {
    "UTF-16BE": Utf16Codec("UTF-16BE", big_endian=True),
    "UTF-16LE": Utf16Codec("UTF-16LE", big_endian=False),
}
