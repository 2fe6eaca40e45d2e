"""``scrapy crawl demo``: crawl pages in many encodings and show what the add-on decided.

Arguments (``-a name=value``):

- ``site=DIR`` — serve DIR instead of the bundled site (a relative path is also tried from the
  repository root, so ``-a site=tests/data/corpus`` works from this directory); with a
  ``manifest.json`` the spider reports how many pages it decoded with the true encoding;
- ``charset=manifest`` — with a manifest, send each file's true encoding as the
  ``Content-Type`` charset (default ``none``: plain ``text/html``);
- ``start_urls=URL[,URL...]`` — crawl these real pages instead of a local site.

Each page gives an item: url, title, encoding, confidence, source (and expected/correct when known).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import scrapy
from scrapy import signals
from scrapy.http import TextResponse

from scrapy_whatwg_encoding.scrapy.requests.forms import form_request
from scrapy_whatwg_encoding.scrapy.requests.links import follow

from ..site_server import BUNDLED_SITE, SiteMap, start_server

REPO_ROOT = Path(__file__).resolve().parents[3]


def _site_dir(value: str | None) -> Path:
    if not value:
        return BUNDLED_SITE
    for candidate in (Path(value), REPO_ROOT / value):
        if candidate.is_dir():
            return candidate.resolve()
    raise ValueError(f"site: no directory {value!r} (tried the current directory and {REPO_ROOT})")


class DemoSpider(scrapy.Spider):
    name = "demo"

    def __init__(self, site: str | None = None, charset: str = "none", start_urls: str | None = None, **kwargs):
        super().__init__(**kwargs)
        if charset not in ("none", "manifest"):
            raise ValueError(f"charset: {charset!r} is not 'none' or 'manifest'")
        self.urls = [u.strip() for u in start_urls.split(",") if u.strip()] if start_urls else []
        self.site = None if self.urls else SiteMap.load(_site_dir(site), charset)
        self.port = None
        self.results: list[dict] = []

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.closed_report, signal=signals.spider_closed)
        return spider

    async def start(self):  # Scrapy 2.13+
        for request in self.start_requests():
            yield request

    def start_requests(self):  # Scrapy < 2.13
        if self.urls:
            for url in self.urls:
                yield scrapy.Request(url, callback=self.parse_page)
            return
        self.port, base = start_server(self.site)
        self.logger.info("Serving %s (%d pages) at %s", self.site.root, len(self.site.pages), base)
        yield scrapy.Request(base, callback=self.parse_index)

    def parse_index(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, callback=self.parse_page, cb_kwargs={"path": href.lstrip("/")})

    def parse_page(self, response, path: str | None = None):
        if not isinstance(response, TextResponse) or "whatwg_encoding" not in response.meta:
            self.logger.info("Not a text document, left untouched: <%s> (%s)", response.url,
                             type(response).__name__)
            return
        decision = response.meta["whatwg_encoding"]
        item = {"url": response.url, "title": self._title(response), **decision}
        page = self.site.pages.get(path) if self.site and path else None
        if page is not None and self.site.has_expectations:
            item["expected"] = page.expect
            if page.expect is not None:
                item["correct"] = page.expect == decision["encoding"]
        self.results.append(item)
        yield item
        if "form/" in response.url:  # forms and links encode queries in the page's output encoding
            # (form_request: the form read by form2request, encoded as HTML picks the form's encoding;
            # Scrapy's own, with Python's cp932, would raise UnicodeEncodeError on ☃)
            value = response.css("form input[name=q]").attrib["value"]
            yield form_request(response, formdata={"q": value + " ☃"}, callback=self.parse_echo,
                               cb_kwargs={"what": "form"})
            # (follow: response.follow() with the browser's query; Scrapy's own would raise on ☃ too)
            yield follow(response, response.css("a#query::attr(href)").get(), callback=self.parse_echo,
                         cb_kwargs={"what": "link"})

    def parse_echo(self, response, what: str):
        self.logger.info("The server received this %s request: %s", what, response.text.splitlines()[0])

    @staticmethod
    def _title(response) -> str:
        title = response.xpath("normalize-space((//title)[1])").get() if "html" in type(response).__name__.lower() \
            or "xml" in type(response).__name__.lower() else None
        if not title:
            title = response.text.lstrip("\ufeff\x00").strip().split("\n", 1)[0]
        return title[:60]

    def closed_report(self, spider):
        if self.port is not None:
            self.port.stopListening()
        if not self.results:
            return
        lines = [f"{'encoding':<14} {'source':<15} {'conf.':<9} {'ok':<3} title"]
        for item in sorted(self.results, key=lambda i: i["url"]):
            ok = {True: "yes", False: "NO"}.get(item.get("correct"), "")
            lines.append(f"{item['encoding']:<14} {item['source']:<15} {item['confidence']:<9} {ok:<3} {item['title']}")
        self.logger.info("Decisions:\n%s", "\n".join(lines))
        judged = [i for i in self.results if i.get("expected") is not None]
        if judged:
            right = sum(i["correct"] for i in judged)
            wrong = Counter(f"{i['expected']}→{i['encoding']}" for i in judged if not i["correct"])
            unknown = sum(1 for i in self.results if "expected" in i and i["expected"] is None)
            self.logger.info("Accuracy: %d of %d pages decoded with their true encoding (%.1f %%); "
                             "%d more pages are in encodings the Web does not have. Misses: %s",
                             right, len(judged), 100 * right / len(judged), unknown,
                             ", ".join(f"{k} ×{v}" for k, v in wrong.most_common()) or "none")
            self.crawler.stats.set_value("demo/accuracy_right", right)
            self.crawler.stats.set_value("demo/accuracy_total", len(judged))
