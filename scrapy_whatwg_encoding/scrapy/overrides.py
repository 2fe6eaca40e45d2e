"""``WHATWG_ENCODING_OVERRIDES``: the user override (HTML sniffing step 2) per site.

The setting is a dict of host → encoding label. A key applies to that host and to every host under
it (``"example.jp"`` covers ``example.jp`` and ``legacy.example.jp``); the longest matching key wins,
the port is ignored, and a request's ``meta["whatwg_encoding_override"]`` wins over the setting.
Keys are compared in ASCII (IDNA) lower case, as Scrapy's URLs carry hosts.
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit


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
