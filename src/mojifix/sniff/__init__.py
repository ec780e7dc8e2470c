"""HTML encoding sniffing with provenance: ``decode_html`` (see docs/sniffing.md).

Browser-exact: BOM, caller's override, Content-Type as Fetch parses it, the HTML Standard's
1024-byte prescan, Chromium's late ``<meta>`` rule, the XML declaration; then, for undeclared
pages, UTF-8 when the body is valid UTF-8 or the detector, where browsers fall back to a legacy
default. Every result says which rule decided and what looked wrong.

The names are imported at first use (PEP 562): the detector reads in-band declarations with
:mod:`mojifix.sniff.prescan`, and importing that submodule must not import ``decode_html`` and all it
needs (about 10-15 ms of every process that detects and never sniffs a page).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mojifix._lazy import attribute_loader

if TYPE_CHECKING:
    from mojifix.sniff.api import decode_html
    from mojifix.sniff.result import DecodedHTML, Finding

__all__ = ["DecodedHTML", "Finding", "decode_html"]

#: public name -> the submodule that defines it (loaded on first use, as in ``mojifix`` and ``mojifix.spark``)
_LAZY = {
    "decode_html": "mojifix.sniff.api",
    "DecodedHTML": "mojifix.sniff.result",
    "Finding": "mojifix.sniff.result",
}


__getattr__ = attribute_loader(__name__, _LAZY, globals())


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
