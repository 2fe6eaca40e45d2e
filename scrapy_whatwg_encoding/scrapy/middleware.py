"""``WhatwgEncodingMiddleware``: gives every HTML, XML and plain-text response the encoding the
HTML standard's encoding sniffing algorithm picks (DESIGN.md, Scrapy layer).

For each such response it runs :func:`scrapy_whatwg_encoding.sniff` on the decompressed body with
the ``Content-Type`` header, the URL and the settings, then returns the response with
``encoding=decision.encoding.codec_name`` and a class from :mod:`.responses` (as
``response.replace(cls=..., encoding=...)`` would, see :func:`_with_encoding`), so that
``response.text == decode(body, decision.encoding)[0]``; ``response.body`` is unchanged and
``response.meta["whatwg_encoding"] == decision.as_dict()``. Any exception inside is logged once per
kind, counted in ``whatwg_encoding/errors``, and the response goes on as Scrapy made it.

Request meta: ``whatwg_encoding_override`` (a label: the user override, sniffing step 2),
``whatwg_encoding_locale`` (a language tag for this request), ``dont_sniff_encoding`` (leave the
response alone).
"""
from __future__ import annotations

import dataclasses

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse
from scrapy.utils.job import job_dir

from ..sniffing import sniff
from . import scrapy_default
from .kind import document_kind, response_class
from .memory import SiteMemory
from .report import Report
from .responses import whatwg_class
from .settings import Config, check_label, check_locale, read_config

# The caches TextResponse keeps (Scrapy 2.13+); the in-place change below needs to reset them.
_CACHES = ("_cached_benc", "_cached_ubody", "_cached_selector")
_IN_PLACE = all(name in TextResponse.__slots__ for name in (*_CACHES, "_encoding"))
try:
    from scrapy.http.response.text import _NONE as _NO_JSON  # "not decoded yet" marker of .json()
except ImportError:  # pragma: no cover — another Scrapy version
    _IN_PLACE = False

#: Default order in ``DOWNLOADER_MIDDLEWARES``: below HttpCompressionMiddleware (590), so that
#: ``process_response`` sees decompressed bodies.
ORDER = 580


class WhatwgEncodingMiddleware:
    """Downloader middleware; build it with :meth:`from_crawler` (Scrapy does)."""

    def __init__(self, config: Config | None = None, stats=None, memory: SiteMemory | None = None):
        self.config = config or Config()
        self.report = Report(stats, self.config.log_level, self.config.report, self.config.report_examples)
        self.memory = memory

    @classmethod
    def from_crawler(cls, crawler):
        """Read and validate the settings (raises ``InvalidSetting``, a ``ValueError``, on a bad
        value; ``NotConfigured`` when ``WHATWG_ENCODING_ENABLED`` is false)."""
        config = read_config(crawler.settings, getattr(crawler, "spider", None))
        if not config.enabled:
            raise NotConfigured("WHATWG_ENCODING_ENABLED is false")
        memory = SiteMemory.in_job_dir(job_dir(crawler.settings)) if config.remember else None
        middleware = cls(config, crawler.stats, memory)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def spider_opened(self, spider):
        # custom_settings are already in crawler.settings; the attribute shortcut is read here too
        # in case the middleware was built before the spider.
        if getattr(spider, "whatwg_encoding_locale", None) is not None:
            locale = check_locale(f"{type(spider).__name__}.whatwg_encoding_locale",
                                  spider.whatwg_encoding_locale)
            self.config = dataclasses.replace(self.config, locale=locale)
        if self.memory is not None:
            self.memory.load()

    def spider_closed(self, spider):
        self.report.log_summary()
        self.report.write_html(spider.name)
        if self.memory is not None:
            self.memory.save()

    def process_response(self, request, response):
        if request.meta.get("dont_sniff_encoding"):
            return response
        try:
            return self._decide(request, response)
        except Exception as exc:  # noqa: BLE001 — never fail a crawl (issue 4, item 6)
            self.report.error(exc, response.url)
            return response

    def _decide(self, request, response):
        # Several Content-Type headers: combined as HTTP does, for Fetch's "extract a MIME type".
        values = response.headers.getlist(b"Content-Type")
        content_type = b", ".join(values).decode("latin-1") if values else None
        kind = document_kind(content_type, response)
        if kind is None:
            return response
        meta, config, body = request.meta, self.config, response.body
        override = check_label("meta['whatwg_encoding_override']", meta.get("whatwg_encoding_override"))
        locale = config.locale
        if meta.get("whatwg_encoding_locale") is not None:
            locale = check_locale("meta['whatwg_encoding_locale']", meta["whatwg_encoding_locale"])
        url = response.url
        decision = sniff(
            body, content_type=content_type, url=url, locale=locale, default=config.default,
            override=override, likely=self.memory.likely(url) if self.memory is not None else None,
            detector=config.detector, prescan_bytes=config.prescan_bytes,
        )
        is_text = isinstance(response, TextResponse)
        scrapy_name = (response._encoding if is_text and response._encoding else
                       scrapy_default.scrapy_encoding(content_type, body, is_text))
        changed = scrapy_default.changed(scrapy_name, decision.encoding, body)
        cls, as_dict = whatwg_class(response_class(kind, response)), decision.as_dict()
        # Everything that may fail is done: from here on the response changes.
        new = _with_encoding(response, cls, decision.encoding)
        meta["whatwg_encoding"] = as_dict
        if self.memory is not None:
            self.memory.learn(url, decision)
        self.report.decision(url, decision, changed, body, scrapy_name)
        return new


def _with_encoding(response, cls, encoding):
    """*response* as a *cls* (a :mod:`.responses` class) with ``encoding=encoding.codec_name``.

    Like ``response.replace(cls=cls, encoding=...)``, but a ``TextResponse`` is changed in place
    (same slots layout: only the class, the encoding and the caches change), which saves building
    a new object and its headers on every response; ``replace()`` would also read the old
    ``response.encoding`` first, running Scrapy's whole inference (charset-normalizer included)."""
    # cls subclasses the TextResponse class and only adds methods: same slots layout.
    if _IN_PLACE and isinstance(response, TextResponse) and issubclass(cls, type(response)):
        response.__class__ = cls
        response._encoding = encoding.codec_name
        response._cached_benc = response._cached_ubody = response._cached_selector = None
        response._cached_decoded_json = _NO_JSON
        return response
    kwargs = {name: getattr(response, name) for name in type(response).attributes}
    return cls(**kwargs, encoding=encoding.codec_name)
