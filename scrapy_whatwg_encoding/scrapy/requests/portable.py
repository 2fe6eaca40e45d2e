"""Requests that stay usable in a process that never imported this package.

A decided response's ``encoding`` is Python's codec name (``cp1251``, ``utf-8``), so the requests
Scrapy builds from it (``TextResponse.follow()``, ``FormRequest.from_response()``,
``Request(url, encoding=response.encoding)``) resolve in any process. The package's own codec
names (``whatwg-…``: :attr:`Encoding.codec_name`, the Encoding Standard's encoder, and the query
codecs of :mod:`.url`) are registered only where the package is imported. A request that carries
one (those :func:`.forms.form_request` builds, or a user's
``Request(url, encoding=whatwg_encoding(response).codec_name)``), serialized with
``Request.to_dict()`` (JOBDIR disk queues, scrapy-redis) and rebuilt elsewhere, fails in
``__init__``: ``safe_url_string(url, encoding)`` raises ``LookupError`` and the scheduler drops it.

:func:`portable_request` keeps the URL and body as they were built (the WHATWG encoder's bytes)
and gives the request the encoding ``utf-8``. Scrapy uses ``Request.encoding`` only for text given
*later*: a non-ASCII URL in ``replace(url=...)``, a str body, str header values (its
``CookiesMiddleware`` decodes ``Set-Cookie`` as UTF-8 and writes ``Cookie`` with it). UTF-8 is
every codec registry's and encodes every string; it gives cookies back as the server sent them,
and it is what the URL Standard uses for a URL not parsed against a document and what Scrapy's
``Request`` defaults to. CPython's codec of the page's encoding would raise
``UnicodeEncodeError`` for every character the encoding lacks (the WHATWG encoder writes
``&#N;``), and many disagree with the WHATWG encoder on others (``shift_jis`` raises on 454
characters Shift_JIS encodes, ``cp1251`` on U+0098: ``tools/stdlib_encoder_agreement.py``).
URLs encoded as the page's links are come from :func:`.links.urljoin` and :func:`.links.follow`
(``response.urljoin()`` and ``response.follow()`` are Scrapy's own).
"""
from __future__ import annotations

import codecs
from collections.abc import AsyncIterator, Iterable
from typing import Any, TypeVar

from scrapy import Request

#: The encoding :func:`portable_request` gives requests (a name every Python resolves).
PORTABLE_ENCODING = "utf-8"
#: Spider middleware order of :class:`PortableRequestsMiddleware`: near the engine, so that it
#: sees the requests of every other spider middleware.
ORDER = 10

#: The prefix of every codec name this package registers (``Encoding.codec_name`` and the
#: query codecs of :mod:`.url`); no other codec registry uses it.
_PACKAGE_PREFIX = "whatwg-"

_R = TypeVar("_R", bound=Request)


def portable_request(request: _R) -> _R:
    """*request* itself, or when its ``encoding`` is a codec name of this package, a copy
    (``request.replace``, same class) with ``encoding="utf-8"`` and the same URL, method, body,
    headers, callbacks and meta. The one helper every request-building path of the package uses."""
    try:
        name = codecs.lookup(request.encoding).name
    except LookupError:  # (the request could not have been built; leave it to Scrapy)
        return request
    return request.replace(encoding=PORTABLE_ENCODING) if name.startswith(_PACKAGE_PREFIX) else request


def _portable(output: Any) -> Any:
    return portable_request(output) if isinstance(output, Request) else output


class PortableRequestsMiddleware:
    """Spider middleware (installed by the add-on at order 10): every request a callback yields
    goes through :func:`portable_request`, so that one given a ``whatwg-…`` codec name (e.g.
    ``Request(url, encoding=whatwg_encoding(response).codec_name)``) gets ``utf-8``. Requests with
    Python's codec names (Scrapy's own, built with ``response.encoding``) and items pass unchanged."""

    def process_spider_output(self, response, result: Iterable[Any], spider=None) -> Iterable[Any]:
        """Scrapy's hook; older Scrapy passes *spider*, newer does not."""
        for output in result:
            yield _portable(output)

    async def process_spider_output_async(self, response, result: AsyncIterator[Any],
                                          spider=None) -> AsyncIterator[Any]:
        """The asynchronous form of :meth:`process_spider_output`."""
        async for output in result:
            yield _portable(output)
