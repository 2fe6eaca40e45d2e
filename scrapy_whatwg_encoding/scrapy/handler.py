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
changed to tell them apart (DESIGN.md, "a response keeps its type"):
:class:`HandlerEncodingMiddleware`, which the add-on installs at :data:`HANDLER_ORDER` above every
other middleware, writes the encoding the handler gave a text response in the header
:data:`CACHE_HEADER`, which ``replace()`` copies with the other headers and which Scrapy's HTTP
cache stores (it runs below, at 900). At the encoding middleware (:func:`given_encoding`), a
response's constructor encoding is its handler's when it is the header's (or the header is there
and a cache older than Scrapy 2.19 stored no encoding), Scrapy's inference that ``replace()``
copied when it is what Scrapy infers from the headers and body, and otherwise chosen on purpose
(the user override). The header is removed there; the same header on a response from the network
is not trusted, and is removed at once (where a project lists the encoding middleware without this
one, the encoding middleware removes it unread).
"""
from __future__ import annotations

import codecs
from typing import Literal

from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response, TextResponse

from ..encoding import Encoding, decode
from .compat import explicit_encoding, pop_header
from .scrapy_default import inferred_encoding, scrapy_text, whatwg_for_codec

#: Order of :class:`HandlerEncodingMiddleware` in ``DOWNLOADER_MIDDLEWARES``: above every other
#: middleware (Scrapy's highest is 900), so that its ``process_response`` runs first.
HANDLER_ORDER = 1_000_000
#: Response header carrying a download handler's encoding to the encoding middleware, through
#: other middlewares' ``replace()`` and Scrapy's HTTP cache.
CACHE_HEADER = b"X-Whatwg-Encoding-Handler"


class HandlerEncodingMiddleware:
    """Downloader middleware: writes the encoding a download handler gave a text response (a
    plugin's class too) in :data:`CACHE_HEADER`, and removes that header from responses off the
    network. Class, body, URL, status and flags are unchanged."""

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("WHATWG_ENCODING_ENABLED", True):
            raise NotConfigured  # the encoding middleware is off: nobody would remove the header
        return cls()

    def process_response(self, request: Request, response: Response, spider=None) -> Response:
        # spider: passed by Scrapy < 2.13 only.
        if "cached" not in response.flags:  # a cached response's header is the one we stored
            pop_header(response.headers, CACHE_HEADER)  # sent by the site: not ours
            given = explicit_encoding(response) if isinstance(response, TextResponse) else None
            if given is not None:
                response.headers[CACHE_HEADER] = given
        return response


def take_handler_encoding(headers) -> str | None:
    """The encoding name :class:`HandlerEncodingMiddleware` wrote in :data:`CACHE_HEADER` of a
    response's *headers* (the download handler's), or ``None``; removes the header."""
    values = pop_header(headers, CACHE_HEADER)
    return values[0].decode("latin-1") if values else None


def given_encoding(response: TextResponse, handler: str | None) -> tuple[Literal["handler", "chosen"], str] | None:
    """Who gave *response* its constructor encoding (see above), and its name: ``("handler",
    name)`` when it is *handler* (from :func:`take_handler_encoding`), or *handler* is given and the
    response has none (a name Python has no codec for is dropped: Scrapy ignores it too);
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
