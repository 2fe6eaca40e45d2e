"""What a response carried when it entered the downloader middleware chain (issues 12 and 21).

A download handler that renders pages (scrapy-playwright, Zyte API's ``browserHtml``) serializes
the browser's DOM to text and encodes it again, in the header's or the ``<meta>``'s charset when
every character fits, else UTF-8, and passes that ``encoding=`` to the response it builds. Its body
is no longer the document's bytes: sniffing them would read a UTF-8 body through a
``charset=iso-8859-1`` header. Scrapy's own HTTP handlers never pass ``encoding=`` (its ``data:``
handler passes the URL's ``charset`` parameter, the transport's label).

On the way to :class:`~.middleware.WhatwgEncodingMiddleware`, other middlewares may replace the
response. Scrapy's ``replace()`` copies ``response.encoding`` into the copy's constructor: the
handler's encoding where it gave one, else Scrapy's *inference*; Scrapy's documentation also
recommends ``replace(encoding=...)`` to correct a lying header, a *deliberate* choice. No class is
changed to tell them apart (docs/design.rst, "Layers": a response keeps its type), and nothing is added that
another middleware, a stat or the spider could see (issue 37, item 4):
:class:`HandlerEncodingMiddleware`, which the add-on installs at :data:`HANDLER_ORDER` above every
other middleware, keeps the encoding the handler gave a text response in a registry of this module,
by request (weakly: an entry goes with its request). At the encoding middleware
(:func:`take_handler_encoding`), a response has its handler's encoding when it is the very response
marked, or a copy built with the same ``encoding=`` (``replace()``); :func:`given_encoding` then
tells Scrapy's inference that ``replace()`` copied (what Scrapy infers from the headers and body)
from an encoding chosen on purpose (the user override).

Scrapy's HTTP cache stores a response's headers and body, and (Scrapy 2.19+) the ``encoding`` of
every page, the inference too. The handler wraps the cache middleware's storage
(:class:`HandlerEncodingCacheStorage`): a marked response is stored with the header
:data:`CACHE_HEADER`, which the storage's copy alone carries, and a response read back loses it
and is marked again, before any middleware sees it; a site's own header of that name is not
stored (it would pass for ours).
"""
from __future__ import annotations

import codecs
import logging
import weakref
from typing import Literal

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import Headers, Request, Response, TextResponse

from ..encoding import Encoding, decode
from .compat import copy_response, explicit_encoding, http_cache_middlewares, pop_header
from .scrapy_default import inferred_encoding, scrapy_text, whatwg_for_codec

logger = logging.getLogger(__name__)

#: Order of :class:`HandlerEncodingMiddleware` in ``DOWNLOADER_MIDDLEWARES``: above every other
#: middleware (Scrapy's highest is 900), so that its ``process_response`` runs first.
HANDLER_ORDER = 1_000_000
#: Response header carrying a download handler's encoding in Scrapy's HTTP cache storage (never on
#: a response a middleware or the spider sees).
CACHE_HEADER = b"X-Whatwg-Encoding-Handler"

# weakref.ref(request) → [(weakref.ref(response), encoding name)]: the responses downloaded for a
# request that their builder gave an encoding. A plain dict (no call to test it empty); an entry is
# removed when its request dies, or taken by the encoding middleware.
_MARKS: dict[weakref.ref, list[tuple[weakref.ref, str]]] = {}


def _forget(key: weakref.ref) -> None:
    _MARKS.pop(key, None)


def mark(request: Request, response: Response, name: str) -> None:
    """Record that *response*, downloaded for *request*, was built with ``encoding=name`` by its
    download handler (or a middleware's ``process_request``)."""
    _MARKS.setdefault(weakref.ref(request, _forget), []).append((weakref.ref(response), name))


def _marked(marks: list[tuple[weakref.ref, str]], response: Response) -> str | None:
    for ref, name in marks:
        if ref() is response:
            return name
    given = explicit_encoding(response)
    for _, name in marks:  # a copy built with the handler's encoding= (replace() copies it)
        if name == given:
            return name
    return None


def handler_encoding(request: Request, response: Response) -> str | None:
    """The encoding name the download handler gave *response* (downloaded for *request*), or the
    response it is a copy of with the same ``encoding=``; ``None`` if none."""
    marks = _MARKS.get(weakref.ref(request)) if _MARKS else None
    return None if marks is None else _marked(marks, response)


def take_handler_encoding(request: Request, response: Response) -> str | None:
    """:func:`handler_encoding`, and the request's record is dropped (the encoding middleware
    takes it once)."""
    marks = _MARKS.pop(weakref.ref(request), None) if _MARKS else None
    return None if marks is None else _marked(marks, response)


class HandlerEncodingMiddleware:
    """Downloader middleware: records the encoding a download handler gave a text response (a
    plugin's class too) for the encoding middleware, and wraps the storage of Scrapy's HTTP cache
    middleware when the spider opens (``HandlerEncodingCacheStorage``), so that a cached page keeps
    it. Responses are returned unchanged: no header, flag or meta key is added."""

    def __init__(self, crawler=None):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("WHATWG_ENCODING_ENABLED", True):
            raise NotConfigured  # the encoding middleware is off: nobody would read the records
        middleware = cls(crawler)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        return middleware

    def spider_opened(self, spider):
        caches = http_cache_middlewares(self.crawler)
        for cache in caches:
            if not isinstance(cache.storage, HandlerEncodingCacheStorage):
                cache.storage = HandlerEncodingCacheStorage(cache.storage)
        if not caches and self.crawler.settings.getbool("HTTPCACHE_ENABLED"):
            logger.warning("No HttpCacheMiddleware found in the running crawl: pages served from the HTTP "
                           "cache are sniffed, not given their download handler's encoding",
                           extra={"spider": spider})

    def process_response(self, request: Request, response: Response, spider=None) -> Response:
        # spider: passed by Scrapy < 2.13 only. A cached response was marked when read back (its
        # constructor encoding may be the inference Scrapy 2.19's cache stores).
        given = explicit_encoding(response)  # None for most responses: nothing else is read
        if given is not None and "cached" not in response.flags and isinstance(response, TextResponse):
            mark(request, response, given)
        return response


class HandlerEncodingCacheStorage:
    """An HTTP cache storage (``HTTPCACHE_STORAGE``'s interface) around *storage*: a response marked
    with a handler's encoding (:func:`mark`) is stored as a copy with :data:`CACHE_HEADER`; a
    response read back with that header loses it and is marked again. Everything else is
    *storage*'s."""

    def __init__(self, storage):
        self.storage = storage

    def __getattr__(self, name):
        return getattr(self.storage, name)

    def retrieve_response(self, spider, request: Request) -> Response | None:
        response = self.storage.retrieve_response(spider, request)
        if response is not None:
            values = pop_header(response.headers, CACHE_HEADER)
            if values:
                mark(request, response, values[0].decode("latin-1"))
        return response

    def store_response(self, spider, request: Request, response: Response) -> None:
        name = handler_encoding(request, response)
        if name is not None or CACHE_HEADER in response.headers:
            headers = Headers(response.headers)
            pop_header(headers, CACHE_HEADER)  # a site's: it would pass for ours when read back
            if name is not None:
                headers[CACHE_HEADER] = name
            # The copy stored (the response is unchanged), built with the same constructor encoding,
            # never reading response.encoding: replace() would run Scrapy's inference on it.
            changes: dict = {"headers": headers}
            if isinstance(response, TextResponse):
                changes["encoding"] = name if name is not None else explicit_encoding(response)
            response = copy_response(response, type(response), **changes)
        self.storage.store_response(spider, request, response)


def given_encoding(response: TextResponse, handler: str | None) -> tuple[Literal["handler", "chosen"], str] | None:
    """Who gave *response* its constructor encoding (see above), and its name: ``("handler",
    name)`` when it is *handler* (from :func:`take_handler_encoding`), or *handler* is given and the
    response has none (read back from a cache older than Scrapy 2.19; a name Python has no codec
    for is dropped: Scrapy ignores it too);
    ``("chosen", name)`` (a middleware or the spider, on purpose); or ``None`` (none, or Scrapy's
    inference that ``replace()`` copied)."""
    name = explicit_encoding(response)
    if handler is not None and name in (None, handler):
        return ("handler", handler) if _known(handler) else None
    if name is None or name == inferred_encoding(response):
        return None  # Scrapy's own inference, copied
    return "chosen", name


def _known(name: str) -> bool:
    try:
        codecs.lookup(name)
    except LookupError:
        return False  # no decision (Scrapy ignores such a name too): the page is sniffed
    return True


def handler_whatwg_encoding(response: TextResponse, name: str) -> tuple[Encoding, str] | None:
    """``(encoding, text)``: the WHATWG encoding whose "decode" of the body gives exactly the
    text Scrapy gives *response* with the builder's encoding *name* (``response.text``), or
    ``None`` if the encoding *name* maps to (a label, or a Python codec of the same family) does
    not (``cp437``, ``utf-32``, a latin-1 body with byte 0x81, ...)."""
    encoding = whatwg_for_codec(name)
    if encoding is None:
        return None
    # The response's own text where it was built with *name*; else (an HTTP cache older than
    # Scrapy 2.19 keeps no encoding) the text Scrapy gives it with *name*.
    text = response.text if explicit_encoding(response) == name else scrapy_text(name, response.body)
    return (encoding, text) if decode(response.body, encoding)[0] == text else None
