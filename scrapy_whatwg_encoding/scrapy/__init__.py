"""Layer 3: the Scrapy integration — a downloader middleware and an add-on.

Enable with ``ADDONS = {"scrapy_whatwg_encoding.Addon": 0}`` (or list
:class:`WhatwgEncodingMiddleware` in ``DOWNLOADER_MIDDLEWARES``). Settings are in
:mod:`scrapy_whatwg_encoding.scrapy.settings`; :func:`whatwg_encoding` reads a response's decided
encoding.
"""
from .addon import Addon
from .middleware import WhatwgEncodingMiddleware
from .responses import whatwg_encoding

__all__ = ["Addon", "WhatwgEncodingMiddleware", "whatwg_encoding"]
