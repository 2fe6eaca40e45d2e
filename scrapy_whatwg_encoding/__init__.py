"""scrapy-whatwg-encoding: Scrapy reads web pages the way browsers do.

Layers (each imports only the ones below it): ``encoding`` (the WHATWG Encoding Standard,
https://encoding.spec.whatwg.org/), ``sniffing`` (the HTML standard's encoding sniffing
algorithm), ``scrapy`` (:class:`WhatwgEncodingMiddleware` and :class:`Addon`). Importing the
package registers the exact codecs (``"whatwg-<name>"``) with :mod:`codecs`. The sniffing and
Scrapy names and ``__version__`` are resolved lazily, so that ``import scrapy_whatwg_encoding``
stays cheap and imports Scrapy only when the Scrapy layer is used.

>>> import scrapy_whatwg_encoding as swe
>>> decision = swe.sniff(b'<meta charset="windows-1251">\\xcf\\xf0\\xe8\\xe2\\xe5\\xf2')
>>> decision.encoding
<Encoding windows-1251>
>>> swe.decode(b'<meta charset="windows-1251">\\xcf\\xf0\\xe8\\xe2\\xe5\\xf2', decision.encoding)[0]
'<meta charset="windows-1251">Привет'
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .encoding import ENCODINGS, Encoding, decode, get_encoding
from .encoding import codec as _codec  # noqa: F401 — registers the exact codecs with Python's codec registry

if TYPE_CHECKING:  # what type checkers see of the lazily resolved names below
    from .scrapy import Addon, WhatwgEncodingMiddleware, whatwg_encoding
    from .sniffing import Decision, prescan, sniff

    #: The installed distribution's version (``pyproject.toml``), e.g. ``"0.2.0"``.
    __version__: str

_LAZY = {
    "sniff": "sniffing",
    "prescan": "sniffing",
    "Decision": "sniffing",
    "WhatwgEncodingMiddleware": "scrapy",
    "Addon": "scrapy",
    "whatwg_encoding": "scrapy",
}

__all__ = [
    "ENCODINGS", "Addon", "Decision", "Encoding", "WhatwgEncodingMiddleware", "__version__", "decode", "get_encoding",
    "prescan", "sniff", "whatwg_encoding",
]


def _version() -> str:
    """The installed distribution's version, read on first use: :mod:`importlib.metadata` costs
    ~3.5 MB and tens of ms to import where nothing else (Scrapy) has imported it."""
    import importlib.metadata

    try:
        return importlib.metadata.version("scrapy-whatwg-encoding")
    except importlib.metadata.PackageNotFoundError:  # imported from a source tree that is not installed
        return "0+unknown"


def __getattr__(name: str) -> object:
    if name == "__version__":
        value = globals()[name] = _version()
        return value
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
