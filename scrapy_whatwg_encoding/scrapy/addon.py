"""``Addon``: ``ADDONS = {"scrapy_whatwg_encoding.Addon": 0}`` installs the middleware."""
from __future__ import annotations

from .compat import setdefault_component
from .handler import HANDLER_ORDER, HandlerEncodingMiddleware
from .middleware import ORDER, WhatwgEncodingMiddleware
from .requests.portable import ORDER as PORTABLE_ORDER
from .requests.portable import PortableRequestsMiddleware
from .settings import DEFAULTS


class Addon:
    """Scrapy add-on: adds :class:`WhatwgEncodingMiddleware` to ``DOWNLOADER_MIDDLEWARES`` at order
    580 unless the project already lists it (then the project's order stands), likewise
    :class:`~.handler.HandlerEncodingMiddleware` at :data:`~.handler.HANDLER_ORDER`, above every
    other (it tells the encoding a download handler gave a response, or a middleware chose, from
    Scrapy's inference that ``replace()`` copies), and :class:`.portable.PortableRequestsMiddleware` to
    ``SPIDER_MIDDLEWARES`` at 10, and sets the
    ``WHATWG_ENCODING_*`` defaults with the ``"addon"`` priority so that project, spider
    (``custom_settings``) and command-line settings override them."""

    def update_settings(self, settings) -> None:
        setdefault_component(settings, "DOWNLOADER_MIDDLEWARES", WhatwgEncodingMiddleware, ORDER)
        setdefault_component(settings, "DOWNLOADER_MIDDLEWARES", HandlerEncodingMiddleware, HANDLER_ORDER)
        setdefault_component(settings, "SPIDER_MIDDLEWARES", PortableRequestsMiddleware, PORTABLE_ORDER)
        for name, value in DEFAULTS.items():
            settings.set(name, value, priority="addon")
