"""Links that Scrapy's machinery builds, with the URL a browser would request.

Why a subclass is needed: Scrapy's ``LinkExtractor`` (and so ``CrawlSpider``) resolves each
``href`` and passes it to ``w3lib.url.safe_url_string(url, encoding=response.encoding)``, which
encodes the query with ``str.encode(response.encoding)`` and percent-encodes the bytes with a safe
set that keeps ``&`` and ``;``. ``response.encoding`` must stay the codec that decodes the page
exactly (``response.text``, selectors), and a codec can only answer an unrepresentable character
with bytes (the Encoding Standard's "html" error mode, ``&#N;``) or an exception — which
LinkExtractor catches as a bad URL and drops the link. So the URL Standard's ``%26%23N%3B`` can
not come out of that call whatever codec is registered, and ``process_value`` (the one public
per-link hook) sees the URL but not the response. :class:`LinkExtractor` below is Scrapy's, with
a ``process_value`` that knows the response being read: it percent-encodes the query as the URL
parser does with the page's output encoding (:func:`.url.encode_query`), and w3lib then leaves the
ASCII result as it is. Use it wherever you build a link extractor, e.g. in ``CrawlSpider`` rules::

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
(intervals, ``METAREFRESH_*`` settings, schemes) and re-reads the URL with
:func:`.url.query_codec_name`'s codec. Replace Scrapy's with it, below the encoding middleware
(580) so that it sees decided responses::

    DOWNLOADER_MIDDLEWARES = {
        "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
        "scrapy_whatwg_encoding.scrapy.links.MetaRefreshMiddleware": 579,
    }
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

from scrapy import Request
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware as ScrapyMetaRefreshMiddleware
from scrapy.linkextractors import LinkExtractor as ScrapyLinkExtractor
from scrapy.utils.response import get_base_url
from w3lib.html import get_meta_refresh

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
        try:
            return super().extract_links(response)
        finally:
            self._encoding, self._base_url = previous


class MetaRefreshMiddleware(ScrapyMetaRefreshMiddleware):
    """Scrapy's ``MetaRefreshMiddleware`` whose redirect URL carries the browser's query for
    responses decided by the encoding middleware (same settings); the redirect request's
    encoding is portable (:func:`.portable.portable_request`)."""

    def __init__(self, settings):
        super().__init__(settings)
        self.ignore_tags = tuple(settings.getlist("METAREFRESH_IGNORE_TAGS"))

    def process_response(self, request, response, spider=None):
        """Scrapy's ``process_response``; a meta-refresh redirect gets the browser's URL."""
        # Scrapy < 2.14 requires (and passes) spider; newer Scrapy passes nothing.
        args = (spider,) if spider is not None else ()
        result = super().process_response(request, response, *args)
        encoding = getattr(response, "whatwg_encoding", None)
        if encoding is None or not isinstance(result, Request) or result is request:
            return result
        _, url = get_meta_refresh(response.text[:4096], get_base_url(response), query_codec_name(encoding),
                                  ignore_tags=self.ignore_tags)
        return portable_request(result if url is None else result.replace(url=url))
