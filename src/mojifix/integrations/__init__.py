"""mojifix where scrapers already are: adapters for requests, httpx, Scrapy, and WARC/ARC archives.

Each adapter is its own module, imported explicitly (the clients are optional extras)::

    mojifix.integrations.requests   decode_response, install(session), hook, repair_text
    mojifix.integrations.httpx      decode_response, install(client), default_encoding
    mojifix.integrations.scrapy     MojifixMiddleware (DOWNLOADER_MIDDLEWARES)
    mojifix.integrations.warc       iter_http_records, decode_records, write_rows (``mojifix warc``)

Shared rules: ``_content`` (which decoding rule a MIME type follows; JSON, XML, CSS and plain text) and
``_codec`` (the Python codec name that makes a client's own ``.text`` exact). See docs/integrations.md.
"""
