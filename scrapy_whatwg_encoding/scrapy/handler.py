"""Responses whose builder already decoded the page (issue 12): keep the builder's text.

A download handler that renders pages (scrapy-playwright, Zyte API's ``browserHtml``) serializes
the browser's DOM to text and encodes it again, in the header's or the ``<meta>``'s charset when
every character fits, else UTF-8, and passes that ``encoding=`` to the response it builds. Its body
is no longer the document's bytes: sniffing them would read a UTF-8 body through a
``charset=iso-8859-1`` header. Scrapy's own HTTP handlers never pass ``encoding=`` (its ``data:``
handler passes the URL's ``charset`` parameter, the transport's label).

A response that reaches :class:`~.middleware.WhatwgEncodingMiddleware` may carry an ``encoding``
nobody chose, though: ``Response.replace()`` copies ``response.encoding``, so a middleware that
replaces a response on its way (``replace(url=...)``) bakes Scrapy's *inferred* encoding into
the new response's constructor argument. :class:`HandlerEncodingMiddleware`, which the add-on
installs at :data:`HANDLER_ORDER` above every other middleware, records the encoding the response
had when it entered the middleware chain (from its download handler, or from a ``process_request``
that returned it); :func:`handler_encoding` trusts an encoding only if it is that one, on the same
bytes.
"""
from __future__ import annotations

import codecs
from weakref import WeakKeyDictionary

from scrapy.http import Request, Response, TextResponse

from ..encoding import Encoding, decode
from .compat import explicit_encoding
from .scrapy_default import whatwg_for_codec

#: Order of :class:`HandlerEncodingMiddleware` in ``DOWNLOADER_MIDDLEWARES``: above every other
#: middleware (Scrapy's highest is 900), so that its ``process_response`` runs first.
HANDLER_ORDER = 1_000_000

# request → (encoding, body) of the response its builder gave an encoding; read once at 580.
_GIVEN: WeakKeyDictionary[Request, tuple[str, bytes]] = WeakKeyDictionary()


class HandlerEncodingMiddleware:
    """Downloader middleware that records the ``encoding`` a response was built with, before any
    other middleware can replace the response. Changes nothing."""

    def process_response(self, request: Request, response: Response, spider=None) -> Response:
        # spider: passed by Scrapy < 2.13 only.
        encoding = explicit_encoding(response) if isinstance(response, TextResponse) else None
        if encoding is None:
            if _GIVEN:  # (a plain crawl never records anything: skip the weak reference)
                _GIVEN.pop(request, None)  # a retried request may have had one
        else:
            _GIVEN[request] = (encoding, response.body)
        return response


def handler_encoding(request: Request, response: TextResponse) -> str | None:
    """The encoding name (str) the builder of *response* gave it, if it still describes
    *response*: recorded by :class:`HandlerEncodingMiddleware` for *request*, still the
    response's constructor argument, on the same body, and a codec Python knows (Scrapy ignores
    any other). ``None`` otherwise — then the encoding, if any, is Scrapy's inference. Consumes
    the record."""
    given = _GIVEN.pop(request, None) if _GIVEN else None
    if given is None or explicit_encoding(response) != given[0] or response.body != given[1]:
        return None
    try:
        codecs.lookup(given[0])
    except LookupError:
        return None
    return given[0]


def handler_whatwg_encoding(response: TextResponse, name: str) -> tuple[Encoding, str] | None:
    """``(encoding, text)``: the WHATWG encoding whose "decode" of the body gives exactly the
    text Scrapy gives *response* with the builder's encoding *name* (``response.text``), or
    ``None`` if the encoding *name* maps to (a label, or a Python codec of the same family) does
    not (``cp437``, ``utf-32``, a latin-1 body with byte 0x81, ...)."""
    encoding = whatwg_for_codec(name)
    if encoding is None:
        return None
    text = response.text
    return (encoding, text) if decode(response.body, encoding)[0] == text else None
