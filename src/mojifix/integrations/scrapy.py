"""Scrapy adapter: a downloader middleware that makes ``response.text`` browser-exact (``mojifix[scrapy]``).

Scrapy decodes with w3lib: BOM (including UTF-32 BOMs browsers ignore), header, a regex over the first
4 KB for ``<meta>``, then detection, with Python codecs for the labels. Enable mojifix in
``settings.py``::

    DOWNLOADER_MIDDLEWARES = {"mojifix.integrations.scrapy.MojifixMiddleware": 580}

580 places it after HttpCompressionMiddleware (590) has decompressed the body (``process_response``
runs from high to low order numbers). Every text response then carries ``response.encoding`` = a Python
codec that reproduces mojifix's text exactly, ``response.text`` = that text (so selectors, ``.css()`` and
``.xpath()`` see it), and ``response.meta["mojifix"]`` = the decision as a dict (``DecodedHTML.to_dict()``
without the text). Settings: ``MOJIFIX_FALLBACK`` (``"detect"`` or ``"browser"``), ``MOJIFIX_META_KEY``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import mojifix.whatwg  # noqa: F401 - registers the whatwg-* Python codecs the middleware may name
from mojifix.integrations._codec import python_codec_name
from mojifix.integrations._content import decode_body, is_textual

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["DEFAULT_META_KEY", "MojifixMiddleware"]

#: ``response.meta`` key holding the decision, unless the MOJIFIX_META_KEY setting says otherwise.
DEFAULT_META_KEY = "mojifix"


class MojifixMiddleware:
    """Re-decode every text response with mojifix and keep the decision in ``response.meta``."""

    def __init__(
        self, fallback: str = "detect", meta_key: str = DEFAULT_META_KEY, trust: str = "browser"
    ) -> None:
        self.fallback = fallback
        self.meta_key = meta_key
        self.trust = trust

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MojifixMiddleware:
        settings = crawler.settings
        return cls(
            fallback=settings.get("MOJIFIX_FALLBACK", "detect"),
            meta_key=settings.get("MOJIFIX_META_KEY", DEFAULT_META_KEY),
            trust=settings.get("MOJIFIX_TRUST", "browser"),
        )

    def process_response(self, request: Request, response: Response, spider: Spider | None = None) -> Any:
        from scrapy.http import TextResponse

        if not isinstance(response, TextResponse):
            return response  # Scrapy decided this is not text (images, archives...)
        values = [v.decode("latin-1") for v in response.headers.getlist(b"Content-Type")]
        if values and not is_textual(values):
            return response
        decoded = decode_body(
            response.body, values or None, url=response.url, fallback=self.fallback, trust=self.trust
        )
        new = response.replace(encoding=python_codec_name(decoded.encoding, response.body))
        # The codec alone reproduces the text, except that w3lib's own BOM step knows UTF-32 BOMs;
        # priming Scrapy's text cache (a declared slot of TextResponse) makes .text exact either way.
        if hasattr(type(new), "_cached_ubody"):
            new._cached_ubody = decoded.text
        decision = decoded.to_dict()
        decision.pop("text", None)
        request.meta[self.meta_key] = decision
        return new
