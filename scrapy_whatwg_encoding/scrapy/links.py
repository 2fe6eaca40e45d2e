"""Links that Scrapy's machinery builds, with the URL a browser would request.

Why a subclass is needed: Scrapy's ``LinkExtractor`` (and so ``CrawlSpider``) resolves each
``href`` and passes it to ``w3lib.url.safe_url_string(url, encoding=response.encoding)``, which
encodes the query with ``str.encode(response.encoding)`` and percent-encodes the bytes with a safe
set that keeps ``&`` and ``;``. A decided response's ``encoding`` is Python's codec name, as with
Scrapy alone: Python's codec raises ``UnicodeEncodeError`` for a character the encoding lacks,
which LinkExtractor catches as a bad URL and drops the link (Scrapy alone does the same), and
disagrees with the standard's encoder on others. The URL Standard's ``%26%23N%3B`` cannot come out
of that call, and ``process_value`` (the one public per-link hook) sees the URL but not the
response. :class:`LinkExtractor` below is Scrapy's, with a ``process_value`` that knows the
response being read: it percent-encodes the query as the URL parser does with the page's output
encoding (:func:`.url.encode_query`), and w3lib then leaves the ASCII result as it is (for a
UTF-16 page, whose Python codec would re-encode even ASCII, it reads a copy whose ``encoding`` is
:func:`.url.query_codec_name`). Use it wherever you build a link extractor, e.g. in ``CrawlSpider`` rules::

    from scrapy_whatwg_encoding.scrapy.links import LinkExtractor

    rules = [Rule(LinkExtractor(allow=r"/item/"), callback="parse_item", follow=True)]

``response.follow()`` / ``response.follow_all()`` need nothing: they go through
``response.urljoin()``, which the middleware's responses already encode this way.

``SitemapSpider`` needs nothing for sitemaps in UTF-8, which the Sitemaps protocol requires: it
sends ``Request(loc)``, whose query Scrapy encodes as UTF-8, the sitemap's output encoding. (For
a sitemap in another encoding no public hook sees both the response and its entries:
``sitemap_filter`` gets the entries only, the parsing method is private.)

Meta refresh has the same cause as LinkExtractor: Scrapy's ``MetaRefreshMiddleware`` calls
``w3lib.html.get_meta_refresh(text, base, response.encoding)``, which ends in the same
``safe_url_string``. :class:`MetaRefreshMiddleware` below keeps every decision of Scrapy's
(intervals, ``METAREFRESH_*`` settings, schemes): it hands Scrapy's code a copy of the decided
response (same class and text) whose ``encoding`` is :func:`.url.query_codec_name`, whose encoder
percent-encodes the query as the URL parser does. Replace Scrapy's with it, below the encoding
middleware (580) so that it sees decided responses::

    DOWNLOADER_MIDDLEWARES = {
        "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
        "scrapy_whatwg_encoding.scrapy.links.MetaRefreshMiddleware": 579,
    }
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware as ScrapyMetaRefreshMiddleware
from scrapy.http import Request, TextResponse
from scrapy.linkextractors import LinkExtractor as ScrapyLinkExtractor
from scrapy.utils.response import get_base_url

from ..encoding import Encoding
from .portable import portable_request
from .url import encode_query, query_codec_name


class LinkExtractor(ScrapyLinkExtractor):
    """Scrapy's ``LinkExtractor`` (same arguments), whose links carry the browser's query for
    responses decided by :class:`~scrapy_whatwg_encoding.WhatwgEncodingMiddleware`; other
    responses get Scrapy's own behaviour. A user ``process_value`` runs first."""

    def __init__(self, *args: Any, process_value: Callable[[Any], Any] | None = None, **kwargs: Any):
        self._user_process_value = process_value
        self._encoding: Encoding | None = None
        self._base_url = ""
        kwargs["process_value"] = self._process_value
        super().__init__(*args, **kwargs)

    def _process_value(self, value: Any) -> Any:
        if self._user_process_value is not None:
            value = self._user_process_value(value)
        if value is None or self._encoding is None or not isinstance(value, str):
            return value
        return encode_query(urljoin(self._base_url, value), self._encoding)

    def extract_links(self, response):
        """Scrapy's ``extract_links(response)``; returns a list of ``scrapy.link.Link``."""
        previous = self._encoding, self._base_url
        self._encoding = getattr(response, "whatwg_encoding", None)
        self._base_url = get_base_url(response) if self._encoding is not None else ""
        if self._encoding is not None and not _keeps_ascii(response.encoding):
            response = query_reader(response, self._encoding)  # UTF-16: w3lib would encode the query in it
        try:
            return super().extract_links(response)
        finally:
            self._encoding, self._base_url = previous


@functools.lru_cache(maxsize=64)
def _keeps_ascii(codec_name: str) -> bool:
    """Whether Python's codec *codec_name* encodes ASCII as itself (not UTF-16's codecs), so that
    ``safe_url_string`` leaves an ASCII URL as it is."""
    return "?a=b".encode(codec_name) == b"?a=b"


class MetaRefreshMiddleware(ScrapyMetaRefreshMiddleware):
    """Scrapy's ``MetaRefreshMiddleware`` whose redirect URL carries the browser's query for
    responses decided by the encoding middleware (same settings); the redirect request's
    encoding is portable (:func:`.portable.portable_request`)."""

    def process_response(self, request, response, spider=None):
        """Scrapy's ``process_response``; a meta-refresh redirect gets the browser's URL."""
        # Scrapy < 2.14 requires (and passes) spider; newer Scrapy passes nothing.
        args = (spider,) if spider is not None else ()
        encoding = getattr(response, "whatwg_encoding", None)
        if encoding is None:
            return super().process_response(request, response, *args)
        reader = query_reader(response, encoding)
        result = super().process_response(request, reader, *args)
        if isinstance(result, Request):  # the redirect; otherwise Scrapy returns the response it got
            return portable_request(result)
        return response if result is reader else result


def query_reader(response: TextResponse, encoding: Encoding) -> TextResponse:
    """A copy of the decided *response* (same class, so the same exact ``text``) whose
    ``encoding`` is :func:`.url.query_codec_name`: Scrapy's code that reads a URL from the page
    with ``safe_url_string(url, response.encoding)`` then gets the URL parser's query."""
    # TextResponse.replace: Scrapy's own (the decided class's drops the decision on a new encoding).
    return TextResponse.replace(response, encoding=query_codec_name(encoding))
