"""The user override (HTML sniffing step 2): per site (``WHATWG_ENCODING_OVERRIDES``), and the
encoding a middleware or the spider gave a response on purpose (:func:`chosen_override`).

The setting is a dict of host → encoding label. A key applies to that host and to every host under
it (``"example.jp"`` covers ``example.jp`` and ``legacy.example.jp``); the longest matching key wins,
the port is ignored, and a request's ``meta["whatwg_encoding_override"]`` wins over the setting
(see :func:`request_override`). Keys are compared in ASCII (IDNA) lower case, as Scrapy's URLs
carry hosts.
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from ..encoding import Encoding, get_encoding
from .responses import OVERRIDE_KEY
from .scrapy_default import whatwg_for_codec
from .settings import label_problem


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


def request_override(meta: Mapping, url: str, report) -> str | None:
    """The label of ``meta["whatwg_encoding_override"]``, or ``None`` when the key is missing or
    empty, or its value cannot work (no label, or a label of the replacement encoding, see
    ``settings.label_problem``): then the request has no override of its own (the setting still
    applies), and *report* (a ``stats.Stats``) counts it in ``whatwg_encoding/invalid_override``
    and logs a WARNING naming the value and *url* (once per value)."""
    value = meta.get(OVERRIDE_KEY)
    if value is None or value == "":
        return None
    problem = label_problem(value)
    if problem is None:
        return value
    report.warning("invalid_override", f"meta['whatwg_encoding_override']: invalid value {value!r} "
                   f"({problem}); <{url}> is decoded without it", once=repr(value))
    return None
