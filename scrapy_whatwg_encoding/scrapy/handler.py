"""What a response carried when it entered the downloader middleware chain (issues 12 and 21).

A download handler that renders pages (scrapy-playwright, Zyte API's ``browserHtml``) serializes
the browser's DOM to text and encodes it again, in the header's or the ``<meta>``'s charset when
every character fits, else UTF-8, and passes that ``encoding=`` to the response it builds. Its body
is no longer the document's bytes: sniffing them would read a UTF-8 body through a
``charset=iso-8859-1`` header. Scrapy's own HTTP handlers never pass ``encoding=`` (its ``data:``
handler passes the URL's ``charset`` parameter, the transport's label).

On the way to :class:`~.middleware.WhatwgEncodingMiddleware`, other middlewares may replace the
response. Scrapy's ``replace()`` copies ``response.encoding``, Scrapy's *inference*, into the
copy's constructor; Scrapy's documentation also recommends ``replace(encoding=...)`` to correct a
lying header, a *deliberate* choice. :class:`HandlerEncodingMiddleware`, which the add-on installs
at :data:`HANDLER_ORDER` above every other middleware, tells them apart: it gives each response of
Scrapy's own classes an undecided class (:func:`.responses.undecided_class`) whose copies keep the
constructor's encoding unless one is passed. So at the encoding middleware, an undecided response
with an encoding carries its download handler's (:func:`handler_encoding`), and any other response
with an encoding was given it on purpose (the user override).

Scrapy's HTTP cache stores a response's headers and body, not its encoding: the middleware writes
the handler's encoding in the header :data:`CACHE_HEADER`, which the cache stores (it runs below, at
900), reads it back from responses the cache serves (flag ``"cached"``), and the encoding middleware
removes it. The same header on a response from the network is not trusted, and is removed.
"""
from __future__ import annotations

import codecs

from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response, TextResponse

from ..encoding import Encoding, decode
from . import compat
from .compat import explicit_encoding, pop_header, with_encoding
from .responses import SCRAPY_TEXT_CLASSES, UndecidedMixin, scrapy_base, undecided_class
from .scrapy_default import whatwg_for_codec

#: Order of :class:`HandlerEncodingMiddleware` in ``DOWNLOADER_MIDDLEWARES``: above every other
#: middleware (Scrapy's highest is 900), so that its ``process_response`` runs first.
HANDLER_ORDER = 1_000_000
# Scrapy's own text classes → their undecided classes, where a response can change in place.
_UNDECIDED: dict[type, type] = {cls: undecided_class(cls) for cls in SCRAPY_TEXT_CLASSES
                                if compat.in_place(cls, undecided_class(cls))}
#: Response header carrying a download handler's encoding through Scrapy's HTTP cache.
CACHE_HEADER = b"X-Whatwg-Encoding-Handler"


class HandlerEncodingMiddleware:
    """Downloader middleware: marks responses of Scrapy's own classes undecided (a class change in
    place, see :mod:`.responses`) and carries a handler's encoding through the HTTP cache (for a
    plugin's class too). Body, URL, status and flags are unchanged."""

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("WHATWG_ENCODING_ENABLED", True):
            raise NotConfigured  # the encoding middleware is off: nothing may stay undecided
        return cls()

    def process_response(self, request: Request, response: Response, spider=None) -> Response:
        # spider: passed by Scrapy < 2.13 only.
        if "cached" in response.flags:
            if not isinstance(response, TextResponse) or not compat.IN_PLACE:
                return response
            _from_cache(response)
        else:
            pop_header(response.headers, CACHE_HEADER)  # sent by the site: not ours
            if not isinstance(response, TextResponse) or not compat.IN_PLACE:
                return response
            given = explicit_encoding(response)  # a plugin's class too (scrapy-zyte-api's)
            if given is not None:
                response.headers[CACHE_HEADER] = given  # for the HTTP cache, below
        undecided = _UNDECIDED.get(type(response))
        if undecided is not None:
            response.__class__ = undecided  # in place (see _UNDECIDED), the same text: no cache to reset
        return response


def _from_cache(response: Response) -> None:
    """A response Scrapy's HTTP cache served (of Scrapy's class, or from Scrapy 2.19 on of the
    class it was stored with) carries the encoding Scrapy 2.19+ stored with it (Scrapy's
    inference, which nobody chose) or none: it gets its download handler's, from the header
    (then removed: the cache does not store a response it served), or none."""
    header = response.headers.get(CACHE_HEADER)
    name = header.decode("latin-1") if header else None
    if header is not None:
        pop_header(response.headers, CACHE_HEADER)
    if explicit_encoding(response) != name:
        with_encoding(response, type(response), name)  # type: ignore[arg-type]


def settle(response: Response) -> str | None:
    """The encoding name (str) *response*'s download handler gave it: its constructor encoding if
    it is still undecided (so no middleware chose another since) and Python knows the codec (an
    unknown name is dropped: Scrapy ignores it too); ``None`` otherwise. Removes
    :data:`CACHE_HEADER`. The response stays undecided: the encoding middleware gives it its
    decided class, or its Scrapy class again (:func:`restore`)."""
    if not isinstance(response, UndecidedMixin):
        pop_header(response.headers, CACHE_HEADER)
        return None
    name = explicit_encoding(response)
    if name is not None:  # the header is there only with a handler's encoding (see above)
        pop_header(response.headers, CACHE_HEADER)
    return _known(name)


def restore(response: Response) -> Response:
    """*response*, in place, of its Scrapy class again if :class:`HandlerEncodingMiddleware` made
    it undecided, with the encoding :func:`settle` returns (or none)."""
    if isinstance(response, UndecidedMixin):
        with_encoding(response, scrapy_base(type(response)), _known(explicit_encoding(response)))
    return response


def _known(name: str | None) -> str | None:
    if name is not None:
        try:
            codecs.lookup(name)
        except LookupError:
            return None  # no decision (Scrapy ignores such a name too): the page is sniffed
    return name


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
