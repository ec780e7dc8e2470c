"""HTML encoding sniffing with provenance: ``decode_html`` (see docs/sniffing.md).

Browser-exact: BOM, caller's override, Content-Type as Fetch parses it, the HTML Standard's
1024-byte prescan, Chromium's late ``<meta>`` rule, the XML declaration; then, for undeclared
pages, UTF-8 when the body is valid UTF-8 or the detector, where browsers fall back to a legacy
default. Every result says which rule decided and what looked wrong.
"""

from __future__ import annotations

from mojifix.sniff.api import decode_html
from mojifix.sniff.result import DecodedHTML, Finding

__all__ = ["DecodedHTML", "Finding", "decode_html"]
