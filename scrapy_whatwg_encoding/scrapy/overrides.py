"""The user override (HTML sniffing step 2): per site (``WHATWG_ENCODING_OVERRIDES``), and the
encoding a middleware or the spider gave a response on purpose (:func:`chosen_override`).

The setting is a dict of host → encoding label. A key applies to that host and to every host under
it (``"example.jp"`` covers ``example.jp`` and ``legacy.example.jp``); the longest matching key wins,
the port is ignored, and a request's ``meta["whatwg_encoding_override"]`` wins over the setting.
Keys are compared in ASCII (IDNA) lower case, as Scrapy's URLs carry hosts.
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from ..encoding import Encoding, get_encoding
from .scrapy_default import whatwg_for_codec


def override_for(overrides: Mapping[str, str], url: str) -> str | None:
    """The label *overrides* (ASCII lower-case host → label, as ``settings.check_overrides``
    returns them) give *url*'s host, or ``None``.

    >>> override_for({"example.jp": "shift_jis"}, "http://legacy.example.jp:8080/a")
    'shift_jis'
    >>> override_for({"example.jp": "shift_jis"}, "http://notexample.jp/") is None
    True
    """
    if not overrides:
        return None
    host = urlsplit(url).hostname or ""
    while True:
        label = overrides.get(host)
        if label is not None:
            return label
        _, dot, host = host.partition(".")
        if not dot:
            return None


def chosen_override(name: str) -> str | Encoding | None:
    """The user override for an encoding *name* (str) a middleware or the spider passed to a
    response (``response.replace(encoding="cp1252")``, Scrapy's recipe for a lying header): *name*
    itself when it is a label, else the encoding whose Python codec family it names
    (``"latin-1"`` → windows-1252, as w3lib reads it). ``None`` when no encoding fits, or *name*
    is a label of the replacement encoding (Python's ``iso2022_kr`` or ``hz`` decodes such a page
    into text; the standard's decoder into one U+FFFD): then Scrapy's decoding stands.

    >>> chosen_override("cp1252"), chosen_override("latin-1"), chosen_override("cp437")
    ('cp1252', <Encoding windows-1252>, None)
    """
    encoding = get_encoding(name)
    if encoding is None:
        encoding = whatwg_for_codec(name)
        if encoding is None or encoding.name == "replacement":
            return None
        return encoding
    return None if encoding.name == "replacement" else name
