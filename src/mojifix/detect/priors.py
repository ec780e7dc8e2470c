"""Stage 9: prior odds of each encoding, and of each encoding given the page's top-level domain.

The model's log-likelihoods decide long inputs on their own; priors matter for short ones, where two
decodings can be equally plausible text. Values are log prior odds in nats, in tiers that follow how
common each encoding is among *non-UTF-8* text (W3Techs' character-encoding survey for the web,
https://w3techs.com/technologies/overview/character_encoding, and the order in which legacy code pages
appear in real file collections). One tier step (0.5-1 nat) is smaller than the evidence of a single
letter, so priors only break near-ties.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

__all__ = ["base_prior", "caller_prior", "customary", "tld_prior"]

_TIERS: tuple[tuple[float, tuple[str, ...]], ...] = (
    (0.0, ("UTF-8", "windows-1252")),
    (-0.5, ("windows-1251", "GBK", "Shift_JIS", "EUC-KR", "windows-1250", "Big5", "EUC-JP")),
    (-1.0, ("windows-1253", "windows-1254", "windows-1255", "windows-1256", "windows-1257",
            "windows-1258", "windows-874", "KOI8-R", "ISO-8859-2", "UTF-16LE", "UTF-16BE",
            "ISO-2022-JP")),
    (-2.0, ("ISO-8859-15", "ISO-8859-5", "ISO-8859-7", "ISO-8859-6", "ISO-8859-8", "ISO-8859-4",
            "ISO-8859-13", "ISO-8859-3", "ISO-8859-10", "ISO-8859-14", "ISO-8859-16", "KOI8-U",
            "IBM866", "macintosh", "x-mac-cyrillic", "utf-32-le", "utf-32-be")),
)  # fmt: skip
#: everything not listed above: DOS and Mac code pages, EBCDIC, Johab, KZ-1048, PTCP154, KOI8-T,
#: TIS-620, ISO-2022-KR, HZ. Rare today; they win on evidence, not on odds.
OTHER_PRIOR = -3.0
_PRIOR = {name: value for value, names in _TIERS for name in names}

#: bonus (nats) for the encodings customary under a country-code TLD: about the weight chardetng gives
#: its TLD hint (enough to settle a near-tie on a short page, never to override clear text evidence).
TLD_BOOST = 2.0
_TLD: dict[str, tuple[str, ...]] = {}
for _tlds, _encs in (
    ("ru su by kz kg tj", ("windows-1251", "KOI8-R", "IBM866")),
    ("ua", ("windows-1251", "KOI8-U")),
    ("bg mk rs", ("windows-1251", "ISO-8859-5")),
    ("cz sk pl hu si hr ro ba", ("windows-1250", "ISO-8859-2")),
    ("gr cy", ("windows-1253", "ISO-8859-7")),
    ("tr az", ("windows-1254",)),
    ("il", ("windows-1255", "ISO-8859-8")),
    ("sa ae eg iq ir ma dz tn jo sy lb kw qa om ye ly sd ps bh", ("windows-1256", "ISO-8859-6")),
    ("ee lt lv", ("windows-1257", "ISO-8859-13", "ISO-8859-4")),
    ("vn", ("windows-1258",)),
    ("th", ("windows-874",)),
    ("jp", ("Shift_JIS", "EUC-JP", "ISO-2022-JP")),
    ("cn", ("GBK",)),
    ("tw hk mo", ("Big5",)),
    ("kr", ("EUC-KR",)),
):
    for _tld in _tlds.split():
        _TLD[_tld] = _encs


def base_prior(encoding: str) -> float:
    """Log prior odds (nats, <= 0) of ``encoding`` among legacy text."""
    return _PRIOR.get(encoding, OTHER_PRIOR)


def customary(tld: str | None) -> tuple[str, ...]:
    """The encodings customary under ``tld`` (those :func:`tld_prior` boosts), for callers that price
    many encodings under one TLD."""
    if not tld:
        return ()
    return _TLD.get(tld.strip().lower().rstrip(".").rsplit(".", 1)[-1], ())


def tld_prior(encoding: str, tld: str | None) -> float:
    """:data:`TLD_BOOST` when ``encoding`` is customary under ``tld`` (e.g. "ru", ".jp", "co.kr")."""
    if not tld:
        return 0.0
    key = tld.strip().lower().rstrip(".").rsplit(".", 1)[-1]
    return TLD_BOOST if encoding in _TLD.get(key, ()) else 0.0


def caller_prior(prior: Mapping[str, float], canonical: Callable[[str], str]) -> dict[str, float]:
    """A caller's prior (``detect(prior=...)``) by registry name: labels resolved with ``canonical``
    (which raises for an unknown one), every value a finite number of nats.

    Two labels of one encoding ("latin1", "cp1252") must agree: a prior is one number per encoding.
    """
    out: dict[str, float] = {}
    for label, value in prior.items():
        logp = float(value)
        if not math.isfinite(logp):
            raise ValueError(f"prior for {label!r} must be a finite number of nats, not {value!r}")
        name = canonical(label)
        if out.get(name, logp) != logp:
            raise ValueError(f"prior names {name} twice with different values ({out[name]} and {logp})")
        out[name] = logp
    return out
