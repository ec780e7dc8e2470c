"""Drop-in replacements for chardet and charset-normalizer, and a requests hook: switch with one import.

::

    import mojifix.compat.chardet as chardet                  # was: import chardet
    from mojifix.compat.charset_normalizer import from_bytes  # was: from charset_normalizer import ...
    mojifix.compat.requests.install()                         # Response.apparent_encoding uses mojifix

Each shim keeps the peer's result shape (keys, types, value ranges) and returns Python codec names that
``bytes.decode`` accepts and that give exactly mojifix's text for the input (docs/compat.md). Neither peer
is imported: the shims need nothing beyond mojifix itself.
"""
