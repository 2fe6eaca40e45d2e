"""``WhatwgEncodingMiddleware``: gives every HTML, XML and plain-text response the encoding the
HTML standard's encoding sniffing algorithm picks (DESIGN.md, Scrapy layer).

For each such response it runs :func:`scrapy_whatwg_encoding.sniff` on the decompressed body with
the ``Content-Type`` header, the URL and the settings, then gives the response (in place where
Scrapy allows, see :func:`.compat.with_encoding`) a class of :mod:`.responses` made for the decided
encoding and, as ``encoding``, the name Scrapy alone reports for it, so that
``response.text == decode(body, decision.encoding)[0]``; ``response.body`` is unchanged and
``response.meta["whatwg_encoding"] == decision.as_dict()``. A plugin's text class keeps its class
and gets the text; a plugin's binary class, and a body still compressed, are left alone. An
encoding a middleware or the spider gave the response on purpose is the user override; one its
download handler gave it (scrapy-playwright, see :mod:`.handler`) keeps the handler's text and is
never sniffed (source ``"handler"``). A label the content contradicts
(:func:`~scrapy_whatwg_encoding.sniffing.mislabel.suspect_label`) is counted and logged, and
overruled (source ``"content"``) with ``WHATWG_ENCODING_SUSPECT_LABELS = "content"``. Any
exception inside is logged once per kind, counted in ``whatwg_encoding/errors``, and the response
goes on as Scrapy made it.

Request meta: ``whatwg_encoding_override`` (a label: the user override, sniffing step 2; wins over
``WHATWG_ENCODING_OVERRIDES``, see :mod:`.overrides`),
``whatwg_encoding_locale`` (a language tag for this request), ``whatwg_encoding_profile``
(``"standard"`` or ``"browsers"`` for this request), ``dont_sniff_encoding`` (leave the response
alone).
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
import logging
from collections.abc import Callable

from scrapy import signals
from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse
from scrapy.utils.job import job_dir
from scrapy.utils.misc import load_object
from twisted.internet.task import LoopingCall

from ..encoding import ENCODINGS, Encoding, decode
from ..sniffing import Decision
from ..sniffing.decide import Options
from . import scrapy_default, startup
from .compat import explicit_encoding, header_values, with_encoding
from .handler import handler_whatwg_encoding, restore, settle
from .kind import document_kind, is_compressed, response_class
from .memory import SiteMemory, open_store
from .overrides import chosen_override, override_for, request_override
from .responses import SCRAPY_TEXT_CLASSES, UndecidedMixin, decided_class, scrapy_class, undecided_class
from .settings import Config, InvalidSetting, check_locale, locale_warning, read_config, request_profile
from .stats import FLUSH_SECONDS, Stats

logger = logging.getLogger("scrapy_whatwg_encoding")
# (response class, kind, encoding) → (the class a decided response gets, whether it is of Scrapy's
# own, the encoding name Scrapy alone reports if Python has a codec).
_TARGETS: dict[tuple[type, str, Encoding], tuple[type, bool, str | None]] = {}

#: Default order in ``DOWNLOADER_MIDDLEWARES``: below HttpCompressionMiddleware (590), so that
#: ``process_response`` sees decompressed bodies.
ORDER = 580
_OVERRIDE = "whatwg_encoding_override"
# Request meta keys that change how a response is decided.
_META_KEYS = frozenset({"dont_sniff_encoding", _OVERRIDE, "whatwg_encoding_locale", "whatwg_encoding_profile"})
_UNDECIDED_CLASSES = frozenset(map(undecided_class, SCRAPY_TEXT_CLASSES))
_UTF_8 = ENCODINGS["UTF-8"]


def compression_order_warning(settings, cls: type) -> str | None:
    """A warning (str) when *cls* (the middleware) sits above ``HttpCompressionMiddleware`` in
    ``DOWNLOADER_MIDDLEWARES`` (its ``process_response`` would see compressed bodies, which it
    then skips), else ``None``."""
    orders = {}
    for key, order in settings.getwithbase("DOWNLOADER_MIDDLEWARES").items():
        try:
            component = load_object(key) if isinstance(key, str) else key
        except Exception:  # noqa: BLE001, S112 — Scrapy reports a bad path itself
            continue
        if order is not None and isinstance(component, type):
            if issubclass(component, cls):
                orders["ours"] = order
            elif issubclass(component, HttpCompressionMiddleware):
                orders["compression"] = order
    if orders.get("ours", 0) > orders.get("compression", float("inf")):
        return (f"{cls.__name__} is at order {orders['ours']}, above HttpCompressionMiddleware "
                f"({orders['compression']}): it sees compressed bodies and leaves them undecided "
                f"(whatwg_encoding/skipped/compressed); give it an order below, e.g. {ORDER}")
    return None


class WhatwgEncodingMiddleware:
    """Downloader middleware; build it with :meth:`from_crawler` (Scrapy does)."""

    def __init__(self, config: Config | None = None, stats=None, memory: SiteMemory | None = None):
        self.config = config or Config()
        self.report = Stats(stats, self.config.log_level, self.config.report, self.config.report_examples)
        self.memory = memory
        self._flusher: LoopingCall | None = None  # made when the spider opens (it imports the reactor)
        self._options = self._request_options({})  # for requests without meta keys of their own

    @classmethod
    def from_crawler(cls, crawler):
        """Read and validate the settings. A bad value is logged as one ERROR line (setting, value,
        allowed values) and raised as ``InvalidSetting`` (a ``ValueError``), which stops the crawl
        before it starts; a language tag the locale table does not know is a WARNING;
        ``WHATWG_ENCODING_ENABLED = False`` logs an INFO line and raises ``NotConfigured``."""
        for warning in startup.unknown_settings(crawler.settings):
            logger.warning("%s", warning, extra={"crawler": crawler})
        spider = getattr(crawler, "spider", None)
        try:
            config = read_config(crawler.settings, spider)
        except InvalidSetting as exc:
            raise startup.stop(exc, crawler) from None
        if not config.enabled:
            logger.info("WHATWG encoding middleware disabled (WHATWG_ENCODING_ENABLED is False)",
                        extra={"crawler": crawler})
            raise NotConfigured  # without a message: Scrapy would log it as a WARNING
        for advice in (locale_warning(config.locale_setting, config.locale),
                       compression_order_warning(crawler.settings, cls)):
            if advice:
                logger.warning("%s", advice, extra={"crawler": crawler})
        memory = None
        if config.remember:  # no connection yet: the memory's own thread makes it (see .memory)
            memory = SiteMemory(open_store(config.remember_store, job_dir(crawler.settings)), crawler.stats,
                                max_hosts=config.remember_max_hosts)
            crawler.signals.connect(memory.spider_opened, signal=signals.spider_opened)
        middleware = cls(config, crawler.stats, memory)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def spider_opened(self, spider):
        # custom_settings are already in crawler.settings; the attribute shortcut is read here too
        # in case the middleware was built before the spider.
        if getattr(spider, "whatwg_encoding_locale", None) is not None:
            name = f"{type(spider).__name__}.whatwg_encoding_locale"
            locale = check_locale(name, spider.whatwg_encoding_locale)
            if locale != self.config.locale:
                warning = locale_warning(name, locale)
                if warning:
                    logger.warning("%s", warning, extra={"spider": spider})
            self.config = dataclasses.replace(self.config, locale=locale, locale_setting=name)
            self._options = self._request_options({})
        self._flusher = LoopingCall(self.report.flush)  # stats within FLUSH_SECONDS, see .report
        self._flusher.start(FLUSH_SECONDS, now=False)

    async def spider_closed(self, spider):
        """Stop the stats flusher, log the summary, write the HTML report, save the site memory:
        each step runs whatever an earlier one raised (logged, counted in
        ``whatwg_encoding/close_errors``). The crawl's end waits for the save; the reactor does not."""
        steps: list[tuple[str, Callable[[], object]]] = [
            ("the stats flusher", self._stop_flusher), ("the summary", self.report.log_summary),
            ("the report", lambda: self.report.write_html(spider.name))]
        memory = self.memory
        if memory is not None:
            steps.append(("the site memory", lambda: memory.spider_closed(spider)))
        for name, step in steps:
            try:
                result = step()
                if inspect.isawaitable(result):
                    await result
            except Exception:  # the next steps (the memory's save) still run
                logger.exception("Closing %s failed; the other steps go on", name, extra={"spider": spider})
                if self.report.stats is not None:
                    self.report.stats.inc_value("whatwg_encoding/close_errors")

    def _stop_flusher(self) -> None:
        if self._flusher is not None and self._flusher.running:
            self._flusher.stop()

    def process_response(self, request, response, spider=None):
        # spider: passed by Scrapy < 2.13 only (optional, so that newer Scrapy does not warn).
        try:
            if (type(response) in _UNDECIDED_CLASSES and explicit_encoding(response) is None
                    and _META_KEYS.isdisjoint(request.meta)):
                # Plain: undecided, with no handler's encoding (settle() gives None), no meta key of ours.
                values = header_values(response.headers, b"Content-Type")
                return self._decide(request, response, None, values)
            handler_name = settle(response)
            if request.meta.get("dont_sniff_encoding"):
                return self._skip(request, response, "dont_sniff_encoding")
            return self._decide(request, response, handler_name)
        except Exception as exc:  # noqa: BLE001 — never fail a crawl (issue 4, item 6)
            self.report.error(exc, response.url)
            request.meta.pop("whatwg_encoding", None)
            return restore(response)

    def _skip(self, request, response, reason: str):
        """*response* as Scrapy made it; its meta keeps no decision of another response (a request
        built with ``meta=response.meta`` copies the previous page's), and the skip is counted."""
        request.meta.pop("whatwg_encoding", None)
        self.report.skipped(reason)
        return restore(response)

    def _decide(self, request, response, handler_name: str | None, values: list[bytes] | None = None):
        """Decide *response*. *values* (its ``Content-Type`` values) are given for a plain response:
        of Scrapy's own class, undecided, with no encoding given and no request meta key of ours."""
        plain = values is not None
        if values is None:
            values = header_values(response.headers, b"Content-Type")
        # Several Content-Type headers: combined as HTTP does, for Fetch's "extract a MIME type".
        content_type = (values[0] if len(values) == 1 else b", ".join(values)).decode("latin-1") if values else None
        kind = document_kind(content_type, response)
        if kind is None:
            return self._skip(request, response, "not_a_document")
        if not plain and type(response) is not Response and not isinstance(response, TextResponse):
            return self._skip(request, response, "binary_response_class")  # a plugin's: its data stays
        meta, config, body = request.meta, self.config, response.body
        if is_compressed(response.headers, body):
            return self._skip(request, response, "compressed")
        # An undecided response's own encoding is its handler's, which settle() read (None if unknown).
        chosen = (explicit_encoding(response) if not plain and isinstance(response, TextResponse)
                  and not isinstance(response, UndecidedMixin) else None)
        if handler_name is None and chosen is not None and scrapy_class(response) is None:
            handler_name = chosen  # a plugin's class (scrapy-zyte-api's): its builder's encoding
        if handler_name is not None:
            return self._keep_handler_text(request, response, kind, handler_name)  # type: ignore[arg-type]
        url = response.url
        if chosen is not None:  # a middleware or the spider chose it (Scrapy's recipe): the user override
            override = chosen_override(chosen)
            if override is None:
                return self._skip(request, response, "chosen_encoding")  # Scrapy decodes with it
        else:
            override = request_override(meta, url, self.report) if not plain and _OVERRIDE in meta else None
            if override is None and config.overrides:
                override = override_for(config.overrides, url)
        options = self._options
        if not plain and (meta.get("whatwg_encoding_locale") is not None
                          or meta.get("whatwg_encoding_profile") is not None):
            options = self._request_options(meta)
        likely = None if self.memory is None else functools.partial(self.memory.likely, url)
        outcome = options.decide(body, content_type, url, override, likely)
        decision, suspect, facts = outcome.decision, outcome.suspect, outcome.body
        is_text = isinstance(response, TextResponse)
        scrapy_name = chosen or scrapy_default.scrapy_encoding(content_type, facts, is_text)
        changed = scrapy_default.changed(scrapy_name, decision.encoding, facts)
        as_dict = decision.as_dict()
        # Everything that may fail is done: from here on the response changes.
        new = self._apply(response, kind, decision.encoding, facts.decoded(decision.encoding))
        meta["whatwg_encoding"] = as_dict
        if self.memory is not None:
            self.memory.learn(url, decision, trusted=suspect is None)
        self.report.decision(url, decision, changed, body, scrapy_name, suspect)
        return new

    def _request_options(self, meta) -> Options:
        """How to decide a request's response: the settings, and its meta keys, if any."""
        config, locale = self.config, self.config.locale
        if meta.get("whatwg_encoding_locale") is not None:
            locale = check_locale("meta['whatwg_encoding_locale']", meta["whatwg_encoding_locale"])
        profile = request_profile(config, meta)
        return Options(locale, config.default, config.prescan_bytes, profile["profile"], profile["detector"],
                       config.suspect_labels)

    @staticmethod
    def _apply(response, kind: str, encoding: Encoding, text: str | None):
        """*response* with the decided *encoding*: a class of Scrapy's own becomes the decided
        class (see :mod:`.responses`); a plugin's text class keeps its class and gets the text.
        ``encoding`` is the name Scrapy alone reports (:func:`.scrapy_default.scrapy_codec_name`,
        else Scrapy's inference)."""
        key = (type(response), kind, encoding)
        target = _TARGETS.get(key)
        if target is None:
            scrapy_cls = scrapy_class(response) if isinstance(response, TextResponse) else Response
            cls = type(response) if scrapy_cls is None else decided_class(response_class(kind, scrapy_cls), encoding)
            target = _TARGETS[key] = (cls, scrapy_cls is not None, scrapy_default.scrapy_codec_name(encoding))
        cls, own, name = target
        if text is None and not own:
            text = decode(response.body, encoding)[0]  # the plugin's class decodes with Python's codec
        # With the text, response.text needs no second decode.
        return with_encoding(response, cls, name or scrapy_default.scrapy_inference(response), text)

    def _keep_handler_text(self, request, response: TextResponse, kind: str, name: str):
        """The download handler decoded the page and gave its encoding *name* (see :mod:`.handler`):
        its text stays. The response gets the WHATWG encoding that gives the same text (source
        ``"handler"``, certain), or is left as the handler made it when none does."""
        found = handler_whatwg_encoding(response, name)
        if found is None:
            return self._skip(request, response, "handler_encoding")
        encoding, text = found
        decision = Decision(encoding, "certain", "handler", name)
        new = self._apply(response, kind, encoding, text)
        request.meta["whatwg_encoding"] = decision.as_dict()
        self.report.decision(response.url, decision, False, response.body, name)
        return new
