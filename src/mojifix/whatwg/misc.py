"""replacement and x-user-defined (https://encoding.spec.whatwg.org/#legacy-miscellaneous-encodings).

* replacement: labels such as ``iso-2022-kr`` and ``hz-gb-2312`` map here so that content in encodings
  the web dropped (and that can smuggle script past filters) decodes to nothing readable. Its decoder
  emits one error for a non-empty input and then finishes: ``b"anything"`` -> ``"\\ufffd"``,
  ``b""`` -> ``""``. The standard gives it no encoder; ``encode`` raises and points to
  ``Encoding.output_encoding`` (UTF-8), which is what forms and URLs use.
* x-user-defined: ASCII bytes are themselves, byte ``b`` >= 0x80 is U+F780 + ``b`` - 0x80. It is a
  256-entry table, so it reuses the C charmap codec of the single-byte encodings.
"""

from __future__ import annotations

import codecs

from mojifix.errors import DecodeError, EncodeError
from mojifix.whatwg._base import WhatwgCodec
from mojifix.whatwg._common import as_bytes, as_text, check_decode_errors, check_encode_errors
from mojifix.whatwg.single_byte import CharmapCodec

__all__ = ["CODECS", "ReplacementCodec", "ReplacementIncrementalDecoder"]

#: x-user-defined decoder step 3: byte 0x80 + n decodes to U+F780 + n.
_X_USER_DEFINED_BASE = 0xF780


class ReplacementCodec(WhatwgCodec):
    """The replacement decoder: a single U+FFFD for any non-empty input."""

    name = "replacement"

    def decode(self, data: bytes, errors: str = "replace") -> str:
        """Step 2 returns one error on the first byte; step 3 "finished" ignores everything after it.

        In strict mode the error spans the first byte, the one the decoder returned the error for.
        """
        data = as_bytes(data)
        check_decode_errors(errors)
        if not data:
            return ""
        if errors == "strict":
            raise DecodeError(
                self.name, data, 0, 1, "the replacement encoding decodes any content to one U+FFFD"
            )
        return "\ufffd"

    def encode(self, text: str, errors: str = "strict") -> bytes:
        """The standard has no replacement encoder; raise and say what to use instead."""
        text = as_text(text)
        check_encode_errors(errors)
        raise EncodeError(
            self.name,
            text,
            0,
            len(text),
            "the replacement encoding has no encoder; use Encoding.output_encoding (UTF-8) as browsers do",
        )

    def incremental_decoder(self, errors: str = "replace") -> codecs.IncrementalDecoder:
        """Remembers whether the one error was already returned ("replacement error returned")."""
        return ReplacementIncrementalDecoder(self, errors)


class ReplacementIncrementalDecoder(codecs.IncrementalDecoder):
    """Streams the replacement decoder: U+FFFD for the first non-empty piece, nothing after."""

    def __init__(self, codec: ReplacementCodec, errors: str = "replace") -> None:
        super().__init__(check_decode_errors(errors))
        self._codec = codec
        self._error_returned = False

    def decode(self, input: bytes, final: bool = False) -> str:
        data = as_bytes(input)
        if self._error_returned or not data:
            return ""
        self._error_returned = True
        return self._codec.decode(data, self.errors)

    def reset(self) -> None:
        self._error_returned = False

    def getstate(self) -> tuple[bytes, int]:
        return (b"", int(self._error_returned))

    def setstate(self, state: tuple[bytes, int]) -> None:
        self._error_returned = bool(state[1])


def _x_user_defined_table() -> str:
    """x-user-defined decoder steps 2-3 as a 256-entry table."""
    return "".join(chr(b) for b in range(0x80)) + "".join(chr(_X_USER_DEFINED_BASE + n) for n in range(0x80))


#: the standard's name -> codec
CODECS: dict[str, WhatwgCodec] = {
    "replacement": ReplacementCodec(),
    "x-user-defined": CharmapCodec("x-user-defined", _x_user_defined_table()),
}
