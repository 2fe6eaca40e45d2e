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

    from scrapy_whatwg_encoding.scrapy.requests.links import LinkExtractor

    rules = [Rule(LinkExtractor(allow=r"/item/"), callback="parse_item", follow=True)]

``response.urljoin()``, ``response.follow()`` and ``response.follow_all()`` are Scrapy's own, with
Scrapy's strings and requests (a decided response keeps Scrapy's class): ``follow()`` encodes the
query with Python's codec for ``response.encoding`` and raises ``UnicodeEncodeError`` for a
character the encoding lacks, as with Scrapy alone. :func:`follow` and :func:`follow_all` below take
the same arguments and build the browser's request instead::

    from scrapy_whatwg_encoding.scrapy.requests.links import follow, follow_all

    yield follow(response, "/search?q=Ёж", callback=self.parse_results)
    yield from follow_all(response, css="a.next", callback=self.parse)

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
        "scrapy_whatwg_encoding.scrapy.requests.links.MetaRefreshMiddleware": 579,
    }
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from urllib import parse

from parsel import Selector
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware as ScrapyMetaRefreshMiddleware
from scrapy.http import Request, TextResponse
from scrapy.link import Link
from scrapy.linkextractors import LinkExtractor as ScrapyLinkExtractor
from scrapy.utils.response import get_base_url
from w3lib.html import strip_html5_whitespace

from ...encoding import Encoding
from ..compat import cache_text
from ..responses import whatwg_encoding
from .portable import portable_request
from .url import encode_query, query_codec_name

# Index of ``encoding`` among ``TextResponse.follow()``'s positional arguments after ``url``.
_FOLLOW_ENCODING = 6


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
        return encode_query(parse.urljoin(self._base_url, value), self._encoding)

    def extract_links(self, response):
        """Scrapy's ``extract_links(response)``; returns a list of ``scrapy.link.Link``."""
        previous = self._encoding, self._base_url
        self._encoding = whatwg_encoding(response)
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
        encoding = whatwg_encoding(response, request)
        if encoding is None:
            return super().process_response(request, response, *args)
        reader = query_reader(response, encoding)
        result = super().process_response(request, reader, *args)
        if isinstance(result, Request):  # the redirect; otherwise Scrapy returns the response it got
            return portable_request(result)
        return response if result is reader else result


def query_reader(response: TextResponse, encoding: Encoding) -> TextResponse:
    """A copy of the decided *response* (same class, same exact ``text``) whose ``encoding`` is
    :func:`.url.query_codec_name`: Scrapy's code that reads a URL from the page with
    ``safe_url_string(url, response.encoding)`` then gets the URL parser's query."""
    reader = response.replace(encoding=query_codec_name(encoding))
    cache_text(reader, response.text)
    return reader


def follow(response: TextResponse, url: str | Link | Selector, *args: Any, **kwargs: Any) -> Request:
    """``response.follow(url, *args, **kwargs)`` (same arguments, a ``Request``), with the URL a browser
    requests for a response the encoding middleware decided: the query percent-encoded in the
    page's output encoding, ``&#N;`` for characters it lacks (:func:`.url.encode_query`), and
    ``encoding="utf-8"`` for a page whose output encoding is not its encoding (UTF-16,
    replacement). Any other response: ``response.follow()`` itself. Raises ``ValueError`` for a
    selector that is not an ``<a>``/``<link>`` with ``href`` or an attribute (as Scrapy does)."""
    encoding = whatwg_encoding(response)
    if encoding is None:
        return response.follow(url, *args, **kwargs)
    if isinstance(url, Link):
        url = url.url
    elif isinstance(url, Selector):
        url = _selector_url(url)
    if len(args) <= _FOLLOW_ENCODING and kwargs.get("encoding") is None and encoding.output_encoding is not encoding:
        kwargs["encoding"] = "utf-8"
    return portable_request(response.follow(encode_query(response.urljoin(url), encoding), *args, **kwargs))


def urljoin(response: TextResponse, url: str) -> str:
    """``response.urljoin(url)`` (a str), with the query a browser's URL parser writes for a
    response the encoding middleware decided (:func:`.url.encode_query`: percent-encoded in the
    page's output encoding, ``%26%23N%3B`` for a character it lacks); Scrapy's for any other.

    >>> from scrapy.http import HtmlResponse, Request
    >>> from scrapy_whatwg_encoding import WhatwgEncodingMiddleware
    >>> request = Request("http://x/")
    >>> response = WhatwgEncodingMiddleware().process_response(request, HtmlResponse(
    ...     "http://x/", body=b"<meta charset=windows-1251>", request=request))
    >>> response.urljoin("/s?q=Ёж"), urljoin(response, "/s?q=Ёж")
    ('http://x/s?q=Ёж', 'http://x/s?q=%A8%E6')
    """
    joined = response.urljoin(url)
    encoding = whatwg_encoding(response)
    return joined if encoding is None else encode_query(joined, encoding)


def follow_all(response: TextResponse, urls: Iterable[str | Link | Selector] | None = None, *args: Any,
               css: str | None = None, xpath: str | None = None, **kwargs: Any) -> Iterator[Request]:
    """``response.follow_all(urls, *args, css=..., xpath=..., **kwargs)`` through :func:`follow`: exactly
    one of *urls*, *css* and *xpath* (else ``ValueError``); selectors that are no link are left
    out, as Scrapy leaves them."""
    if sum(arg is not None for arg in (urls, css, xpath)) != 1:
        raise ValueError("Please supply exactly one of the following arguments: urls, css, xpath")
    if urls is None:
        urls = response.css(css) if css is not None else response.xpath(xpath)  # type: ignore[arg-type]
    for url in urls:
        try:
            request = follow(response, url, *args, **kwargs)
        except ValueError:
            if isinstance(url, Selector):
                continue
            raise
        yield request


def _selector_url(selector: Selector) -> str:
    """The URL a selector stands for, as Scrapy's ``follow()`` reads it: an attribute's value, or
    the ``href`` of an ``<a>`` or ``<link>``, without HTML's leading and trailing whitespace."""
    root = selector.root
    if isinstance(root, str):
        return strip_html5_whitespace(root)
    href = root.get("href") if getattr(root, "tag", None) in ("a", "link") else None
    if href is None:
        raise ValueError(f"Unsupported selector: {selector}")
    return strip_html5_whitespace(href)
