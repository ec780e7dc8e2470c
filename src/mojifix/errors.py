"""mojifix's exception tree.

Every exception mojifix raises on purpose derives from :class:`MojifixError`, and also from the
built-in exception a Python user would expect in that spot, so existing ``except`` clauses keep
working::

    MojifixError
    ├── UnknownEncodingError (LookupError)    a label the WHATWG table (or Python) does not know
    ├── DecodeError (UnicodeDecodeError)       strict decoding hit invalid bytes (offset + bytes)
    ├── EncodeError (UnicodeEncodeError)       strict encoding hit an unencodable character
    ├── DetectionError (ValueError)            detection could not produce any candidate
    ├── ConversionError                        a conversion run cannot start or continue
    │   └── UnsafePathError (ValueError)       DST inside SRC, SRC inside DST, ...
    └── RepairError (ValueError)               repair or apply_plan cannot be carried out

Library code never prints; the CLI maps these to documented exit codes.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "ConversionError",
    "DecodeError",
    "DetectionError",
    "EncodeError",
    "MojifixError",
    "RepairError",
    "UnknownEncodingError",
    "UnsafePathError",
]


class MojifixError(Exception):
    """Base class of every exception mojifix raises on purpose."""


class UnknownEncodingError(MojifixError, LookupError):
    """A label that names no known encoding; says which labels come closest."""

    def __init__(self, label: str, suggestions: Iterable[str] = ()) -> None:
        self.label = label
        self.suggestions = tuple(suggestions)
        hint = f"; did you mean {', '.join(repr(s) for s in self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"unknown encoding label {label!r}{hint}")

    def __str__(self) -> str:  # LookupError would otherwise repr() the args tuple
        return self.args[0]


class DecodeError(MojifixError, UnicodeDecodeError):
    """Strict decoding met bytes the encoding's decoder reports as an error."""

    def __str__(self) -> str:
        bad = self.object[self.start : self.end]
        return f"{self.encoding}: cannot decode bytes {bad.hex(' ')} at offset {self.start}: {self.reason}"


class EncodeError(MojifixError, UnicodeEncodeError):
    """Strict encoding met a character the encoding cannot represent."""

    def __str__(self) -> str:
        ch = self.object[self.start : self.end]
        names = " ".join(f"U+{ord(c):04X}" for c in ch)
        return f"{self.encoding}: cannot encode {names} at index {self.start}: {self.reason}"


class DetectionError(MojifixError, ValueError):
    """Detection could not produce any candidate for the input."""


class ConversionError(MojifixError):
    """A conversion run cannot start or continue."""


class UnsafePathError(ConversionError, ValueError):
    """The requested source/destination layout could damage the source tree."""


class RepairError(MojifixError, ValueError):
    """A repair plan cannot be applied to the given text."""
