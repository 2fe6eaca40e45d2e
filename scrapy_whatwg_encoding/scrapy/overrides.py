"""``WHATWG_ENCODING_OVERRIDES``: the user override (HTML sniffing step 2) per site.

The setting is a dict of host → encoding label. A key applies to that host and to every host under
it (``"example.jp"`` covers ``example.jp`` and ``legacy.example.jp``); the longest matching key wins,
the port is ignored, and a request's ``meta["whatwg_encoding_override"]`` wins over the setting
(see :func:`request_override`). Keys are compared in ASCII (IDNA) lower case, as Scrapy's URLs
carry hosts.
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

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


def request_override(meta: Mapping, url: str, report) -> str | None:
    """The label of ``meta["whatwg_encoding_override"]``, or ``None`` when the key is missing or
    empty, or its value cannot work (no label, or a label of the replacement encoding, see
    ``settings.label_problem``): then the request has no override of its own (the setting still
    applies), and *report* (a ``report.Report``) counts it in ``whatwg_encoding/invalid_override``
    and logs a WARNING naming the value and *url* (once per value)."""
    value = meta.get("whatwg_encoding_override")
    if value is None or value == "":
        return None
    problem = label_problem(value)
    if problem is None:
        return value
    report.warning("invalid_override", f"meta['whatwg_encoding_override']: invalid value {value!r} "
                   f"({problem}); <{url}> is decoded without it", once=repr(value))
    return None
