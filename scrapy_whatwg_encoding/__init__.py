"""scrapy-whatwg-encoding: Scrapy reads web pages the way browsers do.

Layers (each imports only the ones below it): ``encoding`` (the WHATWG Encoding Standard,
https://encoding.spec.whatwg.org/), ``sniffing`` (the HTML standard's encoding sniffing
algorithm), ``scrapy`` (:class:`WhatwgEncodingMiddleware` and :class:`Addon`). Importing the
package registers the exact codecs (``"whatwg-<name>"``) with :mod:`codecs`. The sniffing and
Scrapy names are resolved lazily, so that ``import scrapy_whatwg_encoding`` stays cheap and
imports Scrapy only when the Scrapy layer is used.

>>> import scrapy_whatwg_encoding as swe
>>> decision = swe.sniff(b'<meta charset="windows-1251">\\xcf\\xf0\\xe8\\xe2\\xe5\\xf2')
>>> decision.encoding
<Encoding windows-1251>
>>> swe.decode(b'<meta charset="windows-1251">\\xcf\\xf0\\xe8\\xe2\\xe5\\xf2', decision.encoding)[0]
'<meta charset="windows-1251">Привет'
"""
from __future__ import annotations

import importlib.metadata
from typing import TYPE_CHECKING

from .encoding import ENCODINGS, Encoding, decode, get_encoding
from .encoding import codec as _codec  # noqa: F401 — registers the exact codecs with Python's codec registry

try:
    #: The installed distribution's version (``pyproject.toml``), e.g. ``"0.2.0"``.
    __version__ = importlib.metadata.version("scrapy-whatwg-encoding")
except importlib.metadata.PackageNotFoundError:  # imported from a source tree that is not installed
    __version__ = "0+unknown"

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
    "ENCODINGS", "Addon", "Decision", "Encoding", "WhatwgEncodingMiddleware", "__version__", "decode", "get_encoding",
    "prescan", "sniff",
]


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
