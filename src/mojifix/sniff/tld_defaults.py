"""The browser's fallback encoding for an undeclared page, by the URL's top-level domain.

The table is Chromium's: ``kEncodings`` in Blink's
``third_party/blink/renderer/core/html/parser/text_resource_decoder_builder.cc`` (BSD-3-Clause;
the TLD -> label facts retyped here, each label resolved with the WHATWG label table). Chromium
uses it as the default encoding when its detector (CED) finds nothing or answers UTF-8 (which it
never trusts for http(s) pages); without an entry the default is the UI locale's, windows-1252 for
en-US. H4's measurements (docs/browser-measurements.md, section 3) confirm it entry by entry
(.jp Shift_JIS, .il windows-1255, .tr windows-1254, .kr EUC-KR, ...).

The table has a few entries that look swapped (``ee`` windows-1256, ``eg`` windows-1257, ``ir``
windows-1257, ``lt``/``lv`` windows-1256); they are what Chromium does, so they are kept.
Firefox has a different table (``dom/encoding/domainsfallbacks.properties``); see docs/sniffing.md.
"""

from __future__ import annotations

import re

__all__ = ["DEFAULT_FALLBACK", "TLD_FALLBACKS", "fallback_for_url", "tld_of"]

#: The fallback when the TLD has no entry: Chromium's en-US default; the HTML Standard's
#: suggestion for "all other locales" (13.2.3.2 step 9).
DEFAULT_FALLBACK = "windows-1252"

#: Chromium's kEncodings, labels as written there (resolved to WHATWG names by fallback_for_url).
_CHROMIUM_LABELS: dict[str, str] = {
    "au": "windows-1252", "az": "ISO-8859-9", "bd": "windows-1252", "bg": "windows-1251",
    "br": "windows-1252", "ca": "windows-1252", "ch": "windows-1252", "cn": "GBK",
    "cz": "windows-1250", "de": "windows-1252", "dk": "windows-1252", "ee": "windows-1256",
    "eg": "windows-1257", "et": "windows-1252", "fi": "windows-1252", "fr": "windows-1252",
    "gb": "windows-1252", "gr": "ISO-8859-7", "hk": "Big5", "hr": "windows-1250",
    "hu": "ISO-8859-2", "il": "windows-1255", "ir": "windows-1257", "is": "windows-1252",
    "it": "windows-1252", "jp": "Shift_JIS", "kr": "windows-949", "lt": "windows-1256",
    "lv": "windows-1256", "mk": "windows-1251", "nl": "windows-1252", "no": "windows-1252",
    "pl": "ISO-8859-2", "pt": "windows-1252", "ro": "ISO-8859-2", "rs": "windows-1251",
    "ru": "windows-1251", "se": "windows-1252", "si": "ISO-8859-2", "sk": "windows-1250",
    "th": "windows-874", "tr": "ISO-8859-9", "tw": "Big5", "tz": "windows-1252",
    "ua": "windows-1251", "us": "windows-1252", "vn": "windows-1258", "xa": "windows-1252",
    "xb": "windows-1257",
}  # fmt: skip


def _resolve(labels: dict[str, str]) -> dict[str, str]:
    from mojifix.whatwg import lookup

    out: dict[str, str] = {}
    for tld, label in labels.items():
        enc = lookup(label)
        if enc is None:  # pragma: no cover - every label above is in the WHATWG table
            raise LookupError(label)
        out[tld] = enc.name
    return out


#: TLD (lowercase) -> WHATWG encoding name.
TLD_FALLBACKS: dict[str, str] = _resolve(_CHROMIUM_LABELS)


#: The everyday URL: scheme "://" a dotted host name (letters, digits, "-"), maybe a port, then the
#: path, query, fragment or the end. For it, the general code below returns the last label; the
#: fast path (group 1: the host) skips the splitting.
_PLAIN_URL = re.compile(
    r"[A-Za-z][A-Za-z0-9+.\-]*://([A-Za-z0-9\-]++(?:\.[A-Za-z0-9\-]++)++)(?::[0-9]*+)?+(?=[/?#\\]|\Z)"
)


def tld_of(url: str | None) -> str | None:
    """The URL host's last label, lowercase; ``None`` without a dotted host name (or for an IP address).

    Chromium compares the last label of the host as is (``url.Host().Split(".")``), so does this.
    """
    if not url:
        return None
    plain = _PLAIN_URL.match(url)
    if plain is not None:
        host = plain.group(1)
        return None if host.replace(".", "").isdigit() else host.rpartition(".")[2].lower()
    return _tld_of_any(url)


def _tld_of_any(url: str) -> str | None:
    """``tld_of`` for any non-empty string, step by step (the reference for the fast path)."""
    # The authority: after "scheme://" (or from the start), up to the path, query or fragment.
    rest = url.split("://", 1)[1] if "://" in url else url.removeprefix("//")
    for stop in "/?#\\":
        rest = rest.split(stop, 1)[0]
    host = rest.rpartition("@")[2]
    if host.startswith("["):
        return None  # an IPv6 literal
    host = host.split(":", 1)[0].rstrip(".")
    labels = host.split(".")
    if len(labels) < 2 or all(part.isdigit() for part in labels) or not labels[-1]:
        return None
    return labels[-1].lower()


def fallback_for_url(url: str | None) -> tuple[str, str | None]:
    """(WHATWG encoding name, TLD that chose it or ``None`` for the default) for an undeclared page."""
    tld = tld_of(url)
    if tld is not None and tld in TLD_FALLBACKS:
        return TLD_FALLBACKS[tld], tld
    return DEFAULT_FALLBACK, None
