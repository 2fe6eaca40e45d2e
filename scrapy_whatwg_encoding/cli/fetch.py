"""Fetch one URL with Scrapy's own machinery (downloader, middlewares, the project's settings),
the way ``scrapy fetch`` does: a one-request crawl of the project spider that handles the URL
(or Scrapy's ``DefaultSpider``), redirects followed, the body decompressed.

The request carries ``dont_sniff_encoding`` so that the add-on, when the project enables it,
leaves the response as Scrapy made it; the explanation recomputes the decision itself with the
crawl's ``WHATWG_ENCODING_*`` settings (and the spider's ``whatwg_encoding_locale``).
"""
from __future__ import annotations

from dataclasses import dataclass

from scrapy import Request
from scrapy.utils.datatypes import SequenceExclude
from scrapy.utils.spider import DefaultSpider, spidercls_for_request

from ..scrapy.compat import downloader_middlewares
from ..scrapy.kind import document_kind
from ..scrapy.middleware import WhatwgEncodingMiddleware
from ..scrapy.settings import Config, InvalidSetting, read_config
from . import CliError


@dataclass(frozen=True)
class Fetched:
    """A downloaded response: final ``url``, HTTP ``status``, ``content_type`` (the header value
    decoded as ISO-8859-1, or ``None``), ``body`` (bytes, decompressed), the crawl's validated
    ``config``, the ``spider`` name used, ``kind``: what the add-on's middleware would do with
    the response (``"html"``, ``"xml"``, ``"text"``, or ``None``: left untouched), and
    ``middleware``: whether the crawl ran with that middleware (the add-on enabled)."""

    url: str
    status: int
    content_type: str | None
    body: bytes
    config: Config
    spider: str
    kind: str | None
    middleware: bool


def quiet_settings(settings):
    """*settings* (a Scrapy ``Settings``) with logging and the telnet console off, unless the
    command line (``-L``, ``--logfile``) asked for a log."""
    if settings.getpriority("LOG_ENABLED") is None or settings.getpriority("LOG_ENABLED") < 40:
        settings.set("LOG_ENABLED", False, priority="cmdline")
    settings.set("TELNETCONSOLE_ENABLED", False, priority="cmdline")
    return settings


def fetch(url: str, process, spider_name: str | None = None) -> Fetched:
    """Download *url* (str) with *process* (a Scrapy ``CrawlerProcess`` or ``AsyncCrawlerProcess``
    not started yet; it is started and runs until the request is done).

    Raises :class:`CliError` (code 1) when the download fails (connection, DNS, timeout, robots.txt,
    HTTP status 400 or more, ...) and (code 2) when a ``WHATWG_ENCODING_*`` setting is invalid,
    whether the add-on's middleware finds it when the crawl starts or the command does."""
    found: dict = {}

    def got(response):
        found["response"] = response

    def failed(failure):
        found["failure"] = failure

    request = Request(url, callback=got, errback=failed, dont_filter=True,
                      meta={"dont_sniff_encoding": True,
                            "handle_httpstatus_list": SequenceExclude(range(300, 400))})
    if spider_name:
        base = process.spider_loader.load(spider_name)
    else:
        base = spidercls_for_request(process.spider_loader, request, DefaultSpider)

    def start_requests(self):  # Scrapy before 2.13; since 2.13, start() below
        middlewares = downloader_middlewares(self.crawler)
        found["middleware"] = any(isinstance(m, WhatwgEncodingMiddleware) for m in middlewares)
        try:
            found["config"] = read_config(self.crawler.settings, self)
        except InvalidSetting as exc:
            found["invalid"] = exc
            return
        yield request

    async def start(self):
        for each in start_requests(self):
            yield each

    def bootstrap_failed(error: BaseException) -> bool:  # the middleware's from_crawler raised?
        if isinstance(error, InvalidSetting):
            found["invalid"] = error
        return "invalid" in found

    spidercls = type(f"Sniff{base.__name__}", (base,), {"start": start, "start_requests": start_requests,
                                                         "__module__": base.__module__})
    _on_error(process.crawl(spidercls), bootstrap_failed)
    process.start()
    if "invalid" in found:
        raise CliError(f"invalid setting: {found['invalid']}", 2)
    if "response" in found:
        response = found["response"]
        if response.status >= 400:
            raise CliError(f"cannot fetch {url}: HTTP status {response.status}")
        values = response.headers.getlist(b"Content-Type")  # combined, as the middleware reads them
        content_type = b", ".join(values).decode("latin-1") if values else None
        return Fetched(response.url, response.status, content_type, response.body, found["config"],
                       base.name, document_kind(content_type, response), found["middleware"])
    if "failure" in found:
        failure = found["failure"]
        reason = failure.getErrorMessage() or failure.type.__name__
        raise CliError(f"cannot fetch {url}: {failure.type.__name__}: {reason}")
    if getattr(process, "bootstrap_failed", False):
        raise CliError(f"cannot fetch {url}: the crawl could not start (run with -L INFO for details)")
    raise CliError(f"cannot fetch {url}: the request was dropped (offsite or duplicate filter?)")


def _on_error(started, callback) -> None:
    """Call *callback* with the exception a crawl ends with: *started* is what ``process.crawl``
    returned, a Twisted ``Deferred`` (``CrawlerProcess``) or an asyncio task (``AsyncCrawlerProcess``).
    An error the callback handled (it returns true) is not reported again on stderr."""
    if hasattr(started, "addErrback"):
        started.addErrback(lambda failure: None if callback(failure.value) else failure)
    elif hasattr(started, "add_done_callback"):
        started.add_done_callback(lambda task: task.cancelled() or task.exception() is None
                                  or callback(task.exception()))
