"""``WhatwgEncodingMiddleware``: gives every HTML, XML and plain-text response the encoding the
HTML standard's encoding sniffing algorithm picks (docs/design.rst, "The Scrapy layer").

:meth:`~WhatwgEncodingMiddleware.process_response` reads top to bottom, as Scrapy's own
middlewares do: **gate** (:func:`.kind.skip_reason`, which the command line asks too: responses
left as Scrapy made them: ``dont_sniff_encoding``, not a document, a binary class, a body still
compressed; each counted under ``whatwg_encoding/skipped/``) → **inputs** (an encoding the download handler or a middleware gave
the response, see :mod:`.handler`; the request's and the settings' overrides, locale and profile;
the site memory) → :meth:`Options.decide() <..sniffing.decide.Options.decide>` (the sniffing
algorithm on the decompressed body with the ``Content-Type`` header and the URL, then the
suspect-label check) → **finish**, once: the response's state changes in place where Scrapy
allows (:func:`.compat.with_encoding`; its class never changes), so that ``response.text ==
decode(body, decision.encoding)[0]`` and ``response.encoding`` is the name Scrapy alone reports
for the decided encoding; ``response.body`` is unchanged; ``response.meta["whatwg_encoding"] ==
decision.as_dict()`` (:func:`.responses.whatwg_encoding` reads it back); the memory learns; the
decision is compared with Scrapy alone (:class:`.scrapy_default.Comparisons`: from the facts the
decision found, else for a sample), counted and logged.

An encoding a middleware or the spider gave the response on purpose is the user override; one its
download handler gave it (scrapy-playwright, see :mod:`.handler`) keeps the handler's text and is
never sniffed (source ``"handler"``). A label the content contradicts
(:func:`~scrapy_whatwg_encoding.sniffing.mislabel.suspect_label`) is counted and logged, and
overruled (source ``"content"``) with ``WHATWG_ENCODING_SUSPECT_LABELS = "content"``. Any
exception inside is logged once per kind, counted in ``whatwg_encoding/errors``, and the response
goes on as Scrapy made it (its state changes only in the finish, after everything that may fail).

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
from scrapy.utils.job import job_dir
from scrapy.utils.misc import load_object

from ..encoding import Encoding
from ..sniffing import Decision
from ..sniffing.body import Body
from . import loop, scrapy_default, startup
from .compat import with_encoding
from .handler import given_encoding, handler_whatwg_encoding, take_handler_encoding
from .kind import SkipReason, content_type_of, skip_reason
from .memory import SiteMemory, open_store
from .overrides import chosen_override, override_for, request_override
from .responses import LOCALE_KEY, META_KEY, OVERRIDE_KEY, PROFILE_KEY
from .settings import Config, InvalidSetting, check_locale, locale_warning, read_config, request_options
from .stats import FLUSH_SECONDS, Stats

logger = logging.getLogger("scrapy_whatwg_encoding")
#: Default order in ``DOWNLOADER_MIDDLEWARES``: below HttpCompressionMiddleware (590), so that
#: ``process_response`` sees decompressed bodies.
ORDER = 580


def _downloader_middlewares(settings) -> dict[type, int]:
    """The enabled classes of ``DOWNLOADER_MIDDLEWARES`` (with Scrapy's base) and their orders."""
    found = {}
    for key, order in settings.getwithbase("DOWNLOADER_MIDDLEWARES").items():
        try:
            component = load_object(key) if isinstance(key, str) else key
        except Exception:  # noqa: BLE001, S112 — Scrapy reports a bad path itself
            continue
        if order is not None and isinstance(component, type):
            found[component] = order
    return found


def compression_order_warning(settings, cls: type) -> str | None:
    """A warning (str) when *cls* (the middleware) sits above ``HttpCompressionMiddleware`` in
    ``DOWNLOADER_MIDDLEWARES`` (its ``process_response`` would see compressed bodies, which it
    then skips), else ``None``."""
    orders = {}
    for component, order in _downloader_middlewares(settings).items():
        if issubclass(component, cls):
            orders["ours"] = order
        elif issubclass(component, HttpCompressionMiddleware):
            orders["compression"] = order
    if orders.get("ours", 0) > orders.get("compression", float("inf")):
        return (f"{cls.__name__} is at order {orders['ours']}, above HttpCompressionMiddleware "
                f"({orders['compression']}): it sees compressed bodies and leaves them undecided "
                f"(whatwg_encoding/skipped/compressed); give it an order below, e.g. {ORDER}")
    return None


#: A decided response: ``(decision, text, suspect, facts, chosen)`` — the decision, its text, the
#: suspect label's kind (or ``None``), the body's facts (``None`` for the handler's text: not
#: sniffed) and the chosen encoding's name (or ``None``). A plain tuple: one per response.
_Outcome = tuple[Decision, str, "str | None", "Body | None", "str | None"]


class WhatwgEncodingMiddleware:
    """Downloader middleware; build it with :meth:`from_crawler` (Scrapy does)."""

    def __init__(self, config: Config | None = None, stats=None, memory: SiteMemory | None = None):
        self.config = config or Config()
        self.report = Stats(stats, self.config.log_level, self.config.report, self.config.report_examples)
        self.memory = memory
        self._flusher: loop.Looping | None = None  # started when the spider opens, on Scrapy's loop

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
        for advice in (locale_warning(config.locale_setting, config.options.locale),
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
            config = self.config
            if locale != config.options.locale:
                warning = locale_warning(name, locale)
                if warning:
                    logger.warning("%s", warning, extra={"spider": spider})
            self.config = dataclasses.replace(config, options=dataclasses.replace(config.options, locale=locale),
                                              locale_setting=name)
        self._flusher = loop.clock().looping(self.report.flush, FLUSH_SECONDS)  # stats within FLUSH_SECONDS

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
            except Exception:  # noqa: BLE001 — the next steps (the memory's save) still run
                self.report.close_error("Closing %s failed; the other steps go on", name, exc_info=True,
                                        extra={"spider": spider})

    def _stop_flusher(self) -> None:
        if self._flusher is not None and self._flusher.running:
            self._flusher.stop()

    def process_response(self, request, response, spider=None):
        # spider: passed by Scrapy < 2.13 only (optional, so that newer Scrapy does not warn).
        try:
            meta = request.meta
            handler = take_handler_encoding(request, response)  # HandlerEncodingMiddleware's record
            # Gate: responses left as Scrapy made them (the command line asks the same gate).
            content_type = content_type_of(response.headers)
            skip = skip_reason(response, content_type, meta)
            if skip is not None:
                return self._skip(request, response, skip)
            # Inputs: an encoding given to the response (see .handler); then overrides, options and
            # memory, and Decide.
            given = given_encoding(response, handler)
            if given is not None and given[0] == "handler":
                outcome = self._handler_outcome(response, given[1])
            else:
                outcome = self._sniff(meta, response, content_type, None if given is None else given[1])
            if isinstance(outcome, str):
                return self._skip(request, response, outcome)
            return self._finish(meta, response, content_type, outcome)
        except Exception as exc:  # noqa: BLE001 — never fail a crawl (issue 4, item 6)
            self.report.error(exc, response.url)
            request.meta.pop(META_KEY, None)
            return response  # as Scrapy made it: its state changes only in the finish

    @staticmethod
    def _handler_outcome(response, chosen: str) -> _Outcome | SkipReason:
        """The download handler decoded the page: its text stays, with the WHATWG encoding that
        gives the same text (source ``"handler"``, certain), where one does; else the skip reason."""
        found = handler_whatwg_encoding(response, chosen)
        if found is None:
            return "handler_encoding"
        return Decision(found[0], "certain", "handler", chosen), found[1], None, None, chosen

    def _sniff(self, meta: dict, response, content_type: str | None, chosen: str | None) -> _Outcome | SkipReason:
        """Inputs (the override, the request's options, the memory), then the decision; the skip
        reason where a *chosen* encoding fits no WHATWG encoding (Scrapy decodes with it)."""
        url, config, memory = response.url, self.config, self.memory
        override = self._override(meta, url, chosen)
        if override is None and chosen is not None:
            return "chosen_encoding"
        options = config.options
        if LOCALE_KEY in meta or PROFILE_KEY in meta:
            options = request_options(config, meta)
        likely = None if memory is None else functools.partial(memory.likely, url)
        decision, suspect, facts = options.decide(response.body, content_type, url, override, likely)
        if memory is not None:
            memory.learn(url, decision, trusted=suspect is None)
        return decision, facts.text(decision.encoding), suspect, facts, chosen

    def _override(self, meta: dict, url: str, chosen: str | None) -> str | Encoding | None:
        """The user override (sniffing step 2): a *chosen* encoding (a middleware or the spider
        chose it, Scrapy's recipe), else the request's ``whatwg_encoding_override``, else
        ``WHATWG_ENCODING_OVERRIDES``' for *url*."""
        if chosen is not None:
            return chosen_override(chosen)
        override = request_override(meta, url, self.report) if OVERRIDE_KEY in meta else None
        if override is None and self.config.overrides:
            override = override_for(self.config.overrides, url)
        return override

    def _finish(self, meta: dict, response, content_type: str | None, outcome: _Outcome):
        """Finish, once: the comparison with Scrapy alone (:class:`.scrapy_default.Comparisons`),
        then the response's state (its class stays), its request's *meta*, the report."""
        decision, text, suspect, facts, chosen = outcome
        changed, scrapy_name, theirs = ((False, chosen, None) if facts is None  # the handler's text: Scrapy's
                                        else self.report.comparisons.judge(response, content_type, facts, decision, chosen))
        # response.encoding is the handler's or the chosen name (as with Scrapy alone), else the
        # name Scrapy alone reports for the decided encoding (Scrapy's inference where Python has
        # no codec).
        name = chosen or scrapy_default.scrapy_codec_name(decision.encoding) or scrapy_default.scrapy_inference(response)
        decided = with_encoding(response, name, text)
        meta[META_KEY] = decision.as_dict()
        self.report.decision(response.url, decision, changed, response.body, scrapy_name, suspect,
                             text=text, scrapy_text=theirs)
        return decided

    def _skip(self, request, response, reason: SkipReason):
        """*response* as Scrapy made it; its meta keeps no decision of another response (a request
        built with ``meta=response.meta`` copies the previous page's), and the skip is counted."""
        request.meta.pop(META_KEY, None)
        self.report.skipped(reason)
        return response
