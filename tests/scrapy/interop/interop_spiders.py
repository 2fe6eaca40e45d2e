"""The interop suite's spiders and features: what each feature crawls and the items it yields.

An item is a dict with ``page`` (the site path of the document its text came from) and ``key``
(which item of that document), plus the text fields the spider extracted. The same extraction
applied to the browser's text of the page (:func:`truth`) gives what an item must hold where the
add-on's text differs from Scrapy's alone.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import unquote, urlparse

import scrapy
from interop_site import HTML_PAGES, PAGES, RENDERED_PAGES
from itemloaders.processors import Join, MapCompose, TakeFirst
from scrapy.http import FormRequest
from scrapy.linkextractors import LinkExtractor
from scrapy.loader import ItemLoader
from scrapy.selector import Selector
from scrapy.spiders import CrawlSpider, CSVFeedSpider, Rule, SitemapSpider, XMLFeedSpider


def page_of(url: str) -> str:
    return unquote(urlparse(url).path).lstrip("/")


def page_fields(sel) -> dict[str, Any]:
    return {"title": sel.css("title::text").get(), "text": " | ".join(sel.css("p::text").getall())}


def page_item(response, key: str | None = None, **extra) -> dict[str, Any]:
    """A page's title and paragraphs; *key* defaults to the URL's query."""
    key = urlparse(response.url).query if key is None else key
    return {"page": page_of(response.url), "key": key, **page_fields(response), **extra}


def class_name(response) -> str:
    """The response's class (the add-on never changes it: issue 29)."""
    return f"{type(response).__module__}.{type(response).__qualname__}"


def node_item(page: str, key: int, node) -> dict[str, Any]:
    return {"page": page, "key": key, **{name: node.xpath(f"{name}/text()").get()
                                         for name in ("title", "link", "description")}}


class StartMixin:
    """``start_requests`` for every Scrapy; ``start`` (Scrapy 2.13+) yields the same."""

    async def start(self):
        for request in self.start_requests():
            yield request


class PagesSpider(StartMixin, scrapy.Spider):
    """Requests ``urls`` (with ``meta``) and yields one page item per response."""

    name = "pages"
    urls: ClassVar[list[str]] = []
    meta: ClassVar[dict] = {}

    def start_requests(self):
        for url in self.urls:
            yield scrapy.Request(url, meta=dict(self.meta), dont_filter=True)

    def parse(self, response):
        yield page_item(response, cached="cached" in response.flags)


class FeedSpider(XMLFeedSpider):
    name = "xmlfeed"
    itertag = "item"

    def parse_node(self, response, node):
        self.counts = getattr(self, "counts", {})
        page = page_of(response.url)
        self.counts[page] = self.counts.get(page, 0) + 1
        return node_item(page, self.counts[page] - 1, node)


class CsvSpider(CSVFeedSpider):
    name = "csvfeed"

    def parse_row(self, response, row):
        self.count = getattr(self, "count", -1) + 1
        return {"page": page_of(response.url), "key": self.count, **row}


class Sitemaps(SitemapSpider):
    name = "sitemap"

    def parse(self, response):
        yield page_item(response, url=response.url)


class Crawl(CrawlSpider):
    name = "crawl"
    rules = (Rule(LinkExtractor(), callback="parse_page", follow=True),)

    def parse_page(self, response):
        yield page_item(response, url=response.url)


class Forms(PagesSpider):
    name = "forms"
    formdata: ClassVar[dict] = {"utf8.html": {"extra": "€ ü"}, "cp1251.html": {"extra": "Ёж"}, "sjis.html": {"extra": "日本語"}}

    def parse(self, response):
        page = page_of(response.url)
        for ident in response.css("form::attr(id)").getall():
            yield FormRequest.from_response(response, formid=ident, formdata=self.formdata.get(page),
                                            callback=self.echo, cb_kwargs={"page": page, "key": ident})

    def echo(self, response, page, key):
        yield {"page": page, "key": key, "echo": response.text}


class Redirects(PagesSpider):
    name = "redirects"

    def parse(self, response):
        yield page_item(response, key=page_of(response.meta["redirect_urls"][0]), url=response.url,
                        redirect_urls=[page_of(u) for u in response.meta["redirect_urls"]])


class Loader(ItemLoader):
    default_output_processor = TakeFirst()
    text_in = MapCompose(str.strip)
    text_out = Join(" | ")


class LoaderSpider(PagesSpider):
    name = "itemloader"

    def parse(self, response):
        loader = Loader(item={}, response=response)
        loader.add_value("page", page_of(response.url))
        loader.add_value("key", "loader?" + urlparse(response.url).query)
        loader.add_css("title", "title::text")
        loader.add_css("text", "p::text")
        yield loader.load_item()


class EditingMiddleware:
    """A user's downloader middleware at 700 (above the add-on's 580): records the class it sees and,
    for ``?edit`` URLs, edits the text and returns a ``str`` body (docs/responses.rst's place for it)."""

    def process_response(self, request, response, spider=None):
        request.meta["middleware_class"] = class_name(response)
        if urlparse(response.url).query == "edit":
            return response.replace(body=response.text.replace("</title>", " [edited]</title>"))
        return response


#: Pages whose encoding Python can encode "Ёж" in with and without the add-on (follow() raises
#: UnicodeEncodeError elsewhere, with Scrapy alone as with the add-on).
FOLLOW_PAGES = ("utf8.html", "cp1251.html", "sjis.html")
QUERY = "/search.html?q=Ёж"


class DropInSpider(PagesSpider):
    """Issue 29's cases: the class in the callback and in a middleware at 700, a pickle round trip,
    ``urljoin()`` read back with ``url_query_parameter``, ``follow()``, untyped JSON read with
    ``jmespath()``, and a ``str`` body from a middleware at 700."""

    name = "drop_in"

    def parse(self, response):
        import pickle

        from w3lib.url import url_query_parameter

        page = page_of(response.url)
        plain = response.replace(request=None)  # (a request's callback pickles its spider)
        clone = pickle.loads(pickle.dumps(plain))
        common = {"cls": class_name(response), "middleware_class": response.meta.get("middleware_class"),
                  "pickled": [class_name(clone), clone.text == plain.text, clone.encoding == plain.encoding]}
        if page.endswith(".json"):
            yield {"page": page, "key": "", "selector": response.selector.type, "name": response.jmespath("name").get(),
                   **common}
            return
        joined = response.urljoin(QUERY)
        extra = {"joined": joined, "q": url_query_parameter(joined, "q")}
        if page in FOLLOW_PAGES:
            extra["follow"] = response.follow(QUERY).url
        yield page_item(response, **common, **extra)


class SplashSpider(PagesSpider):
    name = "splash"
    # The usual script (the stand-in answers with the table it returns).
    LUA = """function main(splash, args)
  assert(splash:go(args.url))
  local entries = splash:history()
  local last = entries[#entries].response
  return {html=splash:html(), headers=last.headers, http_status=last.status, url=splash:url(),
          table={title=splash:evaljs("document.title"), length=#splash:html()}}
end"""

    def start_requests(self):
        from scrapy_splash import SplashRequest
        for url in self.urls:
            yield SplashRequest(url, endpoint="render.html", dont_filter=True, cb_kwargs={"key": "render.html"})
            yield SplashRequest(url, endpoint="render.json", args={"html": 1, "png": 1}, dont_filter=True,
                                cb_kwargs={"key": "render.json"})
            yield SplashRequest(url, endpoint="execute", args={"lua_source": self.LUA}, dont_filter=True,
                                cb_kwargs={"key": "execute"})

    def parse(self, response, key):
        data = getattr(response, "data", {})
        yield page_item(response, key=key, cls=class_name(response), url=response.url,
                        real_url=page_of(response.real_url), png=len(data.get("png", "")),
                        table=data.get("table"), cookiejar=hasattr(response, "cookiejar"))


class ZyteSpider(PagesSpider):
    name = "zyte"
    queries = ({"httpResponseBody": True, "httpResponseHeaders": True},
               {"browserHtml": True, "httpResponseHeaders": True})

    def start_requests(self):
        for url in self.urls:
            for query in self.queries:
                yield scrapy.Request(url, meta={"zyte_api": dict(query)}, dont_filter=True,
                                     cb_kwargs={"key": next(iter(query))})

    def parse(self, response, key):
        yield page_item(response, key=key, cls=class_name(response), cached="cached" in response.flags,
                        # Scrapy < 2.13's cache rebuilds a plain HtmlResponse (no raw_api_response)
                        raw_api_response=sorted(getattr(response, "raw_api_response", None) or ()))


# --- Features -----------------------------------------------------------------------------------

ASYNCIO_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
CHROMIUM_ARGS = ["--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
FEEDS = ("jsonl", "csv", "xml")


@dataclass
class Feature:
    name: str
    spider: type
    settings: dict = field(default_factory=dict)
    attrs: Callable[[str], dict] = lambda base: {}  # spider attributes, given the site's base URL
    runs: int = 1  # HTTP cache features: the second run is served from the cache
    plugin: str | None = None  # the module that must import
    truth_kind: str = "html"


def _urls(*paths):
    return lambda base: {"urls": [base + p for p in paths]}


def _settings_splash():
    return {"SPLASH_URL": "{base}splash/",
            "DOWNLOADER_MIDDLEWARES": {"scrapy_splash.SplashCookiesMiddleware": 723,
                                       "scrapy_splash.SplashMiddleware": 725,
                                       "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware": 810},
            "SPIDER_MIDDLEWARES": {"scrapy_splash.SplashDeduplicateArgsMiddleware": 100},
            "DUPEFILTER_CLASS": "scrapy_splash.SplashAwareDupeFilter",
            "REQUEST_FINGERPRINTER_CLASS": "scrapy_splash.SplashRequestFingerprinter"}


ZYTE = {"ADDONS": {"scrapy_zyte_api.Addon": 500}, "ZYTE_API_URL": "{base}zyte/", "ZYTE_API_KEY": "interop",
        "ZYTE_API_TRANSPARENT_MODE": False}

FEATURES = [
    *[Feature(f"xmlfeed_{it}", type(f"Feed_{it}", (FeedSpider,), {"iterator": it}),
              attrs=lambda base: {"start_urls": [base + "feed-utf8.rss", base + "feed-cp1251.xml"]},
              truth_kind=f"xml_{it}") for it in ("iternodes", "xml", "html")],
    Feature("csvfeed", CsvSpider, attrs=lambda base: {"start_urls": [base + "feed.csv"]}, truth_kind="csv"),
    Feature("sitemap", Sitemaps, attrs=lambda base: {"sitemap_urls": [base + "sitemap.xml", base + "sitemap2.xml.gz"]}),
    Feature("sitemap_robots", Sitemaps, attrs=lambda base: {"sitemap_urls": [base + "robots.txt"]}),
    Feature("crawlspider", Crawl, attrs=lambda base: {"start_urls": [base + "index.html"]}),
    Feature("forms", Forms, attrs=_urls("utf8.html", "cp1251.html", "sjis.html", "unlabeled.html")),
    Feature("redirects", Redirects, attrs=_urls("redirect/301/cp1251.html", "redirect/302/redirect/307/sjis.html",
                                                "refresh.html")),
    Feature("robotstxt", PagesSpider, {"ROBOTSTXT_OBEY": True},
            attrs=_urls("utf8.html", "private/secret.html", "cp1251.html", "unlabeled.html")),
    Feature("httpcache_fs", PagesSpider, {"HTTPCACHE_ENABLED": True,
                                          "HTTPCACHE_STORAGE": "scrapy.extensions.httpcache.FilesystemCacheStorage"},
            attrs=_urls(*HTML_PAGES), runs=2),
    Feature("httpcache_dbm", PagesSpider, {"HTTPCACHE_ENABLED": True,
                                           "HTTPCACHE_STORAGE": "scrapy.extensions.httpcache.DbmCacheStorage"},
            attrs=_urls(*HTML_PAGES), runs=2),
    Feature("feeds", PagesSpider, {"FEED_EXPORT_ENCODING": "utf-8"}, attrs=_urls(*HTML_PAGES)),
    Feature("itemloader", LoaderSpider, attrs=_urls(*HTML_PAGES)),
    Feature("playwright", PagesSpider,
            {"DOWNLOAD_HANDLERS": {s: "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler" for s in ("http", "https")},
             "PLAYWRIGHT_BROWSER_TYPE": "chromium",
             "PLAYWRIGHT_LAUNCH_OPTIONS": {"executable_path": "{chromium}", "headless": True, "args": CHROMIUM_ARGS}},
            attrs=lambda base: {"urls": [base + p for p in RENDERED_PAGES], "meta": {"playwright": True}},
            plugin="scrapy_playwright"),
    Feature("splash", SplashSpider, _settings_splash(), attrs=_urls(*RENDERED_PAGES), plugin="scrapy_splash"),
    Feature("zyte_api", ZyteSpider, ZYTE, attrs=_urls(*RENDERED_PAGES), plugin="scrapy_zyte_api"),
    Feature("zyte_api_httpcache", ZyteSpider, {**ZYTE, "HTTPCACHE_ENABLED": True},
            attrs=_urls(*RENDERED_PAGES), runs=2, plugin="scrapy_zyte_api"),
    Feature("drop_in", DropInSpider, {"DOWNLOADER_MIDDLEWARES": {EditingMiddleware: 700}},
            attrs=_urls(*HTML_PAGES, "untyped.json", *(f"{p}?edit" for p in FOLLOW_PAGES))),
    Feature("impersonate", PagesSpider,
            {"DOWNLOAD_HANDLERS": {s: "scrapy_impersonate.ImpersonateDownloadHandler" for s in ("http", "https")}},
            attrs=lambda base: {"urls": [base + p for p in HTML_PAGES], "meta": {"impersonate": "chrome"}},
            plugin="scrapy_impersonate"),
]
FEATURES_BY_NAME = {f.name: f for f in FEATURES}


# --- The browser's text: the same extraction over decode(body, expected) -------------------------

def truth(kind: str, page: str, base: str) -> dict[Any, dict]:
    """The items (by ``key``) a spider extracts from the browser's text of *page*."""
    dom = PAGES[page].dom().replace("{base}", base)
    if kind == "csv":
        rows = csv.DictReader(io.StringIO(dom))
        return {i: {"page": page, "key": i, **row} for i, row in enumerate(rows)}
    if kind.startswith("xml_"):
        nodes = Selector(text=dom, type="html" if kind == "xml_html" else "xml").xpath("//item")
        return {i: node_item(page, i, node) for i, node in enumerate(nodes)}
    return {None: {"page": page, **page_fields(Selector(text=dom, type="html"))}}


# --- Comparing the crawls ---------------------------------------------------------------------------

COUNTS: dict[str, dict] = {}  # feature → compare_items' counts, for the terminal summary (conftest.py)
HERE = Path(__file__).resolve().parent

def truth_item(kind: str, item: dict, base: str) -> dict:
    """The fields the browser's text gives for *item* (its page, its key)."""
    found = truth(kind, item["page"], base)
    return found[None] if None in found else found[item["key"]]


def compare_items(kind: str, on: list[dict], off: list[dict], base: str) -> dict:
    """Items of the crawls with the add-on *on* and *off*, by ``(page, key)``: each pair is identical,
    or every field that differs holds the browser's text with the add-on and another text without.
    An item only the add-on yields holds the browser's text. Returns counts and the differences."""
    by_key = []
    for items in (on, off):
        keyed = {(i["page"], i["key"]): i for i in items}
        assert len(keyed) == len(items), f"two items share a (page, key): {items}"
        by_key.append(keyed)
    on_items, off_items = by_key
    lost = sorted(set(off_items) - set(on_items), key=str)
    assert not lost, f"items Scrapy alone yields and the add-on does not: {lost}"
    identical, better = 0, []
    for key, item in sorted(on_items.items(), key=lambda kv: str(kv[0])):
        other = off_items.get(key)
        if item == other:
            identical += 1
            continue
        expected = truth_item(kind, item, base)
        fields = sorted(item) if other is None else sorted(f for f in item if item[f] != other.get(f))
        for name in fields:
            assert name in expected, f"{key}: {name!r} differs ({item[name]!r} vs {other and other.get(name)!r}) " \
                                     "and no browser text is known for it"
            assert item[name] == expected[name], f"{key}: {name!r} is not the browser's text"
            assert other is None or other[name] != expected[name]
        better.append({"item": key, "fields": fields, "on": {f: item[f] for f in fields},
                       "off": None if other is None else {f: other[f] for f in fields}})
    return {"compared": len(on_items), "identical": identical, "better": better}
