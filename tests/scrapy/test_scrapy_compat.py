"""The compatibility layer (scrapy_whatwg_encoding/scrapy/compat.py) on the running Scrapy: the
internals the in-place change relies on are there (these tests fail when a Scrapy release changes
them), the in-place change resets every cache, the fallback copy keeps every public attribute and
never runs Scrapy's inference, and a whole crawl works on the fallback too."""
from __future__ import annotations

import ipaddress
import json
import warnings

import pytest
import pytest_twisted
from scrapy.http import Headers, HtmlResponse, Request, TextResponse, XmlResponse
from scrapy.settings import BaseSettings
from scrapy.utils.test import get_crawler
from whatwg_crawl_helpers import check_decision, crawl, whatwg_stats

from scrapy_whatwg_encoding import WhatwgEncodingMiddleware, get_encoding
from scrapy_whatwg_encoding.scrapy import compat

KOI8_R = get_encoding("koi8-r")
BODY = "<html><head><title>Привет</title></head><body><p>мир</p></body></html>".encode("koi8-r")


def test_scrapy_internals_are_the_known_ones():
    """Every supported Scrapy (2.11 to the newest) keeps ``encoding=`` in ``_encoding`` and its caches
    in ``_cached_*`` attributes; if a release changes that, the middleware falls back to copies
    (slower, still exact) and this test says so."""
    assert compat.IN_PLACE
    fresh = TextResponse("http://x/", body=b"", encoding="utf-8")
    assert {name for name in dir(fresh) if name.startswith("_cached_")} >= compat.REQUIRED_CACHES
    assert compat.explicit_encoding(fresh) == "utf-8"
    assert compat.explicit_encoding(HtmlResponse("http://x/", body=b"")) is None  # no inference run


def test_headers_are_read_as_scrapy_reads_them():
    """Scrapy's ``Headers`` keep title-cased names (every supported release): the layer reads them
    without normalizing, and asks a subclass that may normalize otherwise."""
    assert compat.RAW_HEADERS
    headers = Headers({"content-TYPE": ["text/html", "charset=x"], "X-Whatwg-Encoding-Handler": "utf-8"})
    assert compat.header_values(headers, b"Content-Type") == headers.getlist("content-type") == [b"text/html", b"charset=x"]
    assert compat.header_values(headers, b"Content-Encoding") == []
    compat.pop_header(headers, b"X-Whatwg-Encoding-Handler")
    assert b"x-whatwg-encoding-handler" not in headers

    class LowerHeaders(Headers):
        def normkey(self, key):
            return self._tobytes(key.lower())

    other = LowerHeaders({"Content-Type": "text/plain"})
    assert compat.header_values(other, b"Content-Type") == [b"text/plain"]
    compat.pop_header(other, b"Content-Type")
    assert not other


def test_in_place_change_resets_every_cache():
    """The response keeps its class; its encoding and every cache change as if it had been built
    with the new encoding, and a given text is the one Scrapy's ``text`` and selectors read."""
    response = HtmlResponse("http://x/", body=BODY, headers={"Content-Type": "text/html"})
    stale_text, stale_title = response.text, response.css("title::text").get()  # Scrapy guessed
    assert stale_title != "Привет"
    out = compat.with_encoding(response, "koi8-r")
    assert out is response and type(out) is HtmlResponse and out.encoding == "koi8-r"
    assert out.text != stale_text and out.css("title::text").get() == "Привет"
    assert out.xpath("//p/text()").get() == "мир"
    assert out.body == BODY
    exact = compat.with_encoding(response, "cp1252", "<title>exact</title>")
    assert exact is response and exact.encoding == "cp1252" and exact.css("title::text").get() == "exact"
    assert exact._cached_ubody == exact.text == "<title>exact</title>"  # where Scrapy caches its text

    data = json.dumps({"k": "ж"}, ensure_ascii=False).encode("koi8-r")
    text = TextResponse("http://x/", body=data, encoding="latin-1")
    assert text.text != '{"k": "ж"}'
    out = compat.with_encoding(text, "koi8-r")
    assert type(out) is TextResponse and json.loads(out.text) == {"k": "ж"}


def _full_response(cls):
    return cls("https://example.com/a?b=1", status=203, headers={"Content-Type": "text/html", "X-A": "1"},
               body=BODY, flags=["cached"], request=Request("https://example.com/a?b=1", meta={"m": 1}),
               certificate=object(), ip_address=ipaddress.ip_address("192.0.2.7"), protocol="HTTP/1.1")


@pytest.mark.parametrize("cls", [TextResponse, HtmlResponse, XmlResponse])
def test_fallback_copy_keeps_every_attribute_without_inference(cls, monkeypatch):
    """The copy (used where the in-place change cannot be: a Scrapy whose internals changed) is
    of the same class, has every attribute of Scrapy's ``attributes`` but ``encoding``, and never
    reads ``response.encoding`` (which would run charset detection)."""
    monkeypatch.setattr(compat, "_FRESH", None)  # as on a Scrapy whose internals are unknown
    response = _full_response(cls)
    monkeypatch.setattr(cls, "_body_inferred_encoding", lambda self: pytest.fail("inference ran"))
    out = compat.with_encoding(response, "koi8-r")
    assert out is not response and type(out) is cls
    names = [name for name in type(response).attributes if name != "encoding"]
    assert {"url", "status", "headers", "body", "flags", "request", "certificate", "ip_address"} <= set(names)
    for name in names:
        assert getattr(out, name) == getattr(response, name), name
    assert out.encoding == "koi8-r" and out.css("title::text").get() == "Привет"


def test_a_copy_keeps_what_a_plugins_response_adds():
    """scrapy-zyte-api's responses add ``raw_api_response`` to their ``attributes`` on the instance:
    a copy (the HTTP cache storage's, the fallback's) keeps it, as their ``replace()`` does."""
    from scrapy_zyte_api.responses import ZyteAPITextResponse

    raw = {"url": "https://example.com/", "statusCode": 200, "browserHtml": "<p>Привет</p>"}
    response = ZyteAPITextResponse.from_api_response(raw, request=Request("https://example.com/"))
    copy = compat.copy_response(response, type(response), headers=Headers({"X-A": "1"}))
    assert type(copy) is ZyteAPITextResponse and copy.raw_api_response == raw
    assert copy.raw_api_response == response.replace().raw_api_response and copy.body == response.body


def test_component_helper_matches_scrapy(monkeypatch):
    """``setdefault_component`` (the add-on's ``DOWNLOADER_MIDDLEWARES`` entry) behaves as Scrapy
    2.13+'s ``setdefault_in_component_priority_dict``, also where that method is missing (< 2.13)."""
    path = "scrapy_whatwg_encoding.scrapy.middleware.WhatwgEncodingMiddleware"
    cases = [{}, {path: 123}, {WhatwgEncodingMiddleware: 7}, {"scrapy.downloadermiddlewares.stats.DownloaderStats": 850}]

    def run(start, hide_method):
        settings = BaseSettings({"DOWNLOADER_MIDDLEWARES": start}, priority="project")
        if hide_method:
            monkeypatch.setattr(BaseSettings, "setdefault_in_component_priority_dict", None, raising=False)
        compat.setdefault_component(settings, "DOWNLOADER_MIDDLEWARES", WhatwgEncodingMiddleware, 580)
        monkeypatch.undo()
        return settings.getdict("DOWNLOADER_MIDDLEWARES"), settings.getpriority("DOWNLOADER_MIDDLEWARES")

    for start in cases:
        ours = run(dict(start), hide_method=True)
        assert ours[1] == 20  # "project": the setting's priority is kept
        expected = {**start} if any(k in (path, WhatwgEncodingMiddleware) for k in start) else \
            {**start, WhatwgEncodingMiddleware: 580}
        assert ours[0] == expected
        if hasattr(BaseSettings, "setdefault_in_component_priority_dict"):
            assert run(dict(start), hide_method=False) == ours


def test_process_response_takes_the_optional_spider_argument():
    """Scrapy < 2.13 passes ``spider=``; newer Scrapy passes nothing (and would warn if required)."""
    middleware = WhatwgEncodingMiddleware()
    for kwargs in ({}, {"spider": None}):
        request = Request("http://x/")
        out = middleware.process_response(request, HtmlResponse("http://x/", body=BODY), **kwargs)
        assert request.meta["whatwg_encoding"]["source"] == "detector" and type(out) is HtmlResponse


@pytest_twisted.inlineCallbacks
def test_crawl_without_warnings_and_on_the_fallback(demo_server, monkeypatch):
    """A crawl on the running Scrapy raises no deprecation warning about the middleware; the same
    crawl with the in-place change disabled (the fallback: copies of the same class, which Scrapy
    decodes with Python's codec for ``response.encoding``) gives the same decisions and classes."""
    pages = ["meta/shift_jis.html", "bom/no-content-type-utf-16le", "unlabeled/zh-hans-gbk.html",
             "bom/utf-16be-bom.txt", "xml/feed-iso-8859-7.xml"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, in_place = yield crawl([demo_server.url(p) for p in pages])
    ours = [str(w.message) for w in caught if "Whatwg" in str(w.message) or "spider" in str(w.message)]
    assert ours == []
    monkeypatch.setattr(compat, "_FRESH", None)
    monkeypatch.setattr(compat, "IN_PLACE", False)
    crawler, copied = yield crawl([demo_server.url(p) for p in pages])
    assert len(copied) == len(pages) and "whatwg_encoding/errors" not in whatwg_stats(crawler)
    for a, b in zip(in_place, copied):
        if "whatwg_encoding" in a.meta:
            check_decision(a)
            assert b.encoding == a.encoding and b.text == HtmlResponse(b.url, body=b.body, encoding=a.encoding).text
        assert (type(a), a.url, a.body, a.meta.get("whatwg_encoding")) == (type(b), b.url, b.body, b.meta.get("whatwg_encoding"))
    assert type(next(r for r in copied if r.url.endswith(".txt"))) is TextResponse


class CacheProbe:
    """A downloader middleware at 700 that keeps, in meta, what :func:`compat.http_cache_middlewares`
    finds in the running crawl: each middleware's class, its storage's and the wrapped storage's;
    and the class of each middleware :func:`compat.downloader_middlewares` finds."""

    @classmethod
    def from_crawler(cls, crawler):
        probe = cls()
        probe.crawler = crawler
        return probe

    def process_response(self, request, response, spider=None):
        request.meta["caches"] = [(type(m).__name__, type(m.storage).__name__,
                                   type(getattr(m.storage, "storage", None)).__name__)
                                  for m in compat.http_cache_middlewares(self.crawler)]
        request.meta["middlewares"] = [type(m) for m in compat.downloader_middlewares(self.crawler)]
        return response


@pytest.mark.parametrize("cache", [True, False], ids=["cache", "no-cache"])
@pytest_twisted.inlineCallbacks
def test_http_cache_middlewares_are_found_in_the_running_crawl(demo_server, tmp_path, cache):
    """``crawler.engine.downloader.middleware.middlewares`` holds the running downloader middlewares
    in Scrapy's order (every supported Scrapy): the add-on's two, the probe, and the
    HttpCacheMiddleware, whose storage the handler middleware wrapped when the spider opened; a
    crawler without an engine has none, a crawl without the cache no HttpCacheMiddleware."""
    from scrapy.downloadermiddlewares.httpcache import HttpCacheMiddleware
    from scrapy.utils.conf import build_component_list
    from scrapy.utils.misc import load_object

    from scrapy_whatwg_encoding.scrapy.handler import HandlerEncodingMiddleware

    settings = {"DOWNLOADER_MIDDLEWARES": {CacheProbe: 700}, "HTTPCACHE_ENABLED": cache,
                "HTTPCACHE_DIR": str(tmp_path / "cache")}
    crawler, (response,) = yield crawl([demo_server.url("meta/shift_jis.html")], settings=settings)
    expected = [("HttpCacheMiddleware", "HandlerEncodingCacheStorage", "FilesystemCacheStorage")] if cache else []
    assert response.meta["caches"] == expected
    running = response.meta["middlewares"]
    assert {WhatwgEncodingMiddleware, HandlerEncodingMiddleware, CacheProbe} <= set(running)
    assert (HttpCacheMiddleware in running) is cache
    enabled = build_component_list(crawler.settings.getwithbase("DOWNLOADER_MIDDLEWARES"))
    assert running == [cls for cls in map(load_object, enabled) if cls in running]  # Scrapy's order
    assert compat.downloader_middlewares(get_crawler()) == compat.http_cache_middlewares(get_crawler()) == []


@pytest_twisted.inlineCallbacks
def test_a_scrapy_that_hides_its_middlewares_gets_a_warning(demo_server, tmp_path, monkeypatch, caplog):
    """Where ``http_cache_middlewares`` finds none (a Scrapy that keeps them elsewhere) while the
    cache is on, the crawl goes on and says once that cached pages lose their handler's encoding."""
    from scrapy_whatwg_encoding.scrapy import handler

    monkeypatch.setattr(handler, "http_cache_middlewares", lambda crawler: [])
    settings = {"HTTPCACHE_ENABLED": True, "HTTPCACHE_DIR": str(tmp_path / "cache")}
    _, (response,) = yield crawl([demo_server.url("meta/shift_jis.html")], settings=settings)
    check_decision(response)
    warnings = [r for r in caplog.records if "No HttpCacheMiddleware found" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelname == "WARNING"
