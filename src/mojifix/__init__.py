"""mojifix: bytes of unknown or mislabeled encoding in, the right Unicode text out, with provenance.

Public API only. Heavy modules (the detector's model, numpy) load on first use, so
``import mojifix`` stays cheap.
"""

from __future__ import annotations

from mojifix._lazy import attribute_loader
from mojifix.errors import (
    ConversionError,
    DecodeError,
    DetectionError,
    EncodeError,
    MojifixError,
    RepairError,
    UnknownEncodingError,
    UnsafePathError,
)

__version__ = "0.1.0"

# public name -> module that defines it (imported lazily on first attribute access)
_LAZY: dict[str, str] = {
    "lookup": "mojifix.whatwg",
    "Encoding": "mojifix.whatwg",
    "decode": "mojifix.whatwg",
    "encode": "mojifix.whatwg",
    "decode_html": "mojifix.sniff",
    "DecodedHTML": "mojifix.sniff",
    "convert": "mojifix.convert",
    "scan": "mojifix.convert",
    "repair": "mojifix.repair",
    "apply_plan": "mojifix.repair",
    "Repaired": "mojifix.repair",
    "detect": "mojifix.detect",
    "Detector": "mojifix.detect",
    "Detection": "mojifix.detect",
}

__all__ = [
    "ConversionError",
    "DecodeError",
    "DetectionError",
    "EncodeError",
    "MojifixError",
    "RepairError",
    "UnknownEncodingError",
    "UnsafePathError",
    "__version__",
    *_LAZY,
]


__getattr__ = attribute_loader(__name__, _LAZY, globals())


def __dir__() -> list[str]:
    return sorted(__all__)
