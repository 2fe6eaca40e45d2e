"""scrapy-whatwg-encoding: Scrapy reads web pages the way browsers do.

Layers (each imports only the ones below it): ``encoding`` (the WHATWG Encoding Standard),
``sniffing`` (the HTML encoding sniffing algorithm), ``scrapy`` (middleware and add-on).
Names are resolved lazily so that ``import scrapy_whatwg_encoding`` stays cheap and imports
Scrapy only when the Scrapy layer is used.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .encoding import ENCODINGS, Encoding, decode, get_encoding
from .encoding import codec as _codec  # noqa: F401 — registers the exact codecs with Python's codec registry

if TYPE_CHECKING:  # what type checkers see of the lazily resolved names below
    from .scrapy import Addon, WhatwgEncodingMiddleware
    from .sniffing import Decision, prescan, sniff

_LAZY = {
    "sniff": "sniffing",
    "prescan": "sniffing",
    "Decision": "sniffing",
    "WhatwgEncodingMiddleware": "scrapy",
    "Addon": "scrapy",
}

__all__ = [
    "ENCODINGS", "Addon", "Decision", "Encoding", "WhatwgEncodingMiddleware", "decode", "get_encoding", "prescan",
    "sniff",
]


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
