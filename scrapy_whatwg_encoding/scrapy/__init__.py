"""Layer 3: the Scrapy integration — a downloader middleware and an add-on.

Enable with ``ADDONS = {"scrapy_whatwg_encoding.Addon": 0}`` (or list
:class:`WhatwgEncodingMiddleware` in ``DOWNLOADER_MIDDLEWARES``). Settings are in
:mod:`scrapy_whatwg_encoding.scrapy.settings`.
"""
from .addon import Addon
from .middleware import WhatwgEncodingMiddleware

__all__ = ["Addon", "WhatwgEncodingMiddleware"]
