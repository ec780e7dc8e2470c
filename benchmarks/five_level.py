"""The five-level pipeline of the reference study, alone: BOM; UTF-16 NUL parity; charset-normalizer with
the GBK family mapped to gb18030; ordered fallback (utf-8, gb18030, big5, cp1252); quarantine when U+FFFD
appears.

Its own module, importing only charset-normalizer, so that ``benchmarks/convert_speed.py --five-level``
(a whole command timed against ``mojifix convert``) does not also pay for importing mojifix, which
benchmarks/convert_corpus.py needs for everything else.
"""

from __future__ import annotations

import charset_normalizer

__all__ = ["GBK_FAMILY", "five_level"]

GBK_FAMILY = {"gbk", "gb2312", "gb18030", "hz", "cp936"}


def five_level(data: bytes) -> tuple[str, str | None]:
    """(status, text): "written" with the decoded text, or "quarantined" with None."""
    # 1. BOM
    enc = None
    if data.startswith(b"\xef\xbb\xbf"):
        enc = "utf-8-sig"
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        enc = "utf-16"
    # 2. UTF-16 NUL parity
    elif b"\x00" in data:
        even, odd = data[0::2].count(0), data[1::2].count(0)
        enc = "utf-16-le" if odd > even else "utf-16-be"
    # 3. charset-normalizer, GBK family -> gb18030
    if enc is None:
        best = charset_normalizer.from_bytes(data).best()
        if best is not None:
            enc = "gb18030" if best.encoding.lower() in GBK_FAMILY else best.encoding
    # 4. ordered fallback
    if enc is None:
        for cand in ("utf-8", "gb18030", "big5", "cp1252"):
            try:
                data.decode(cand)
                enc = cand
                break
            except UnicodeDecodeError:
                continue
    if enc is None:
        return "quarantined", None
    text = data.decode(enc, errors="replace")
    # 5. quarantine on U+FFFD
    if "\ufffd" in text:
        return "quarantined", None
    return "written", text
