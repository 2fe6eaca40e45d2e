"""One real crawl with scrapy-playwright driving a Chromium, in its own process: scrapy-playwright
needs Twisted's asyncio reactor, and the test process runs pytest-twisted's default one.

    python playwright_crawl.py SITE_DIR CHROMIUM OUT.json

Serves SITE_DIR (a directory with ``pages.json``, see ``demo.site_server``) on 127.0.0.1 in the
crawl's reactor, requests every page twice — through the browser (``meta={"playwright": True}``)
and through Scrapy's own HTTP handler — with the add-on enabled, and, at the same time, in a
second crawl without it; writes one JSON object: the responses (URL, via, class, flags, encoding,
decision, title, ``#dom`` text, whole text, body as latin-1, the headers a downloader middleware at
700 saw), the crawl's stats under ``whatwg_encoding/`` and its ``downloader/response_bytes``, and
under ``"alone"`` the same of the crawl without the add-on.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import scrapy

ASYNCIO_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

# Flags for a headless Chromium on a CI machine without a GPU or a user session; Playwright adds
# --headless and (unless chromiumSandbox) --no-sandbox itself.
CHROMIUM_ARGS = ["--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


class HeadersAt700:
    """Keeps the headers a downloader middleware at order 700 sees, in ``meta["headers_at_700"]``
    (the ``Date`` value blanked: the second the server answered)."""

    def process_response(self, request, response, spider=None):
        request.meta["headers_at_700"] = {
            name.decode("latin-1"): ["<date>" if name == b"Date" else v.decode("latin-1") for v in values]
            for name, values in response.headers.items()}
        return response


class PagesSpider(scrapy.Spider):
    name = "pages"

    def __init__(self, urls=(), **kwargs):
        super().__init__(**kwargs)
        self.urls = list(urls)
        self.results: list[dict] = []

    async def start(self):  # Scrapy 2.13+
        for request in self.start_requests():
            yield request

    def start_requests(self):  # Scrapy < 2.13
        for url in self.urls:
            yield scrapy.Request(url, meta={"playwright": True, "via": "playwright"}, dont_filter=True)
            yield scrapy.Request(url, meta={"via": "http"}, dont_filter=True)

    def parse(self, response):
        self.results.append({
            "url": response.url, "via": response.meta["via"], "class": type(response).__name__,
            "flags": response.flags, "encoding": response.encoding,
            "decision": response.meta.get("whatwg_encoding"),
            "title": response.css("title::text").get(), "dom": response.css("#dom::text").get(),
            "text": response.text, "body": response.body.decode("latin-1"),
            "headers_at_700": response.meta["headers_at_700"],
        })


def main(site_dir: str, chromium: str, out: str) -> None:
    # Imported here, so that importing this module (pytest's doctest collection) installs nothing.
    from scrapy.utils.reactor import install_reactor
    install_reactor(ASYNCIO_REACTOR)  # before anything imports twisted.internet.reactor
    from scrapy.crawler import Crawler, CrawlerProcess
    from scrapy.settings import Settings
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "example_project"))
    from demo.site_server import SiteMap, start_server

    site = SiteMap.load(site_dir)
    port, base = start_server(site)
    settings = lambda addons: {  # a fresh dict each call: an add-on edits its settings' dicts
        "ADDONS": addons,
        "TWISTED_REACTOR": ASYNCIO_REACTOR,
        "DOWNLOAD_HANDLERS": {scheme: "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler"
                              for scheme in ("http", "https")},
        "DOWNLOADER_MIDDLEWARES": {HeadersAt700: 700},
        "PLAYWRIGHT_BROWSER_TYPE": "chromium",
        "PLAYWRIGHT_LAUNCH_OPTIONS": {"executable_path": chromium, "headless": True, "args": CHROMIUM_ARGS},
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
    }
    process = CrawlerProcess(settings({}))
    urls = [base + path for path in site.pages]
    crawlers = []
    for addons in ({"scrapy_whatwg_encoding.Addon": 0}, {}):  # with the add-on, and at the same time without
        # Scrapy 2.19 sets the process's settings on a crawler given to it, unless the crawler's own
        # are of a higher priority.
        own = Settings()
        own.setdict(settings(addons), priority="cmdline")
        crawlers.append(Crawler(PagesSpider, own))
        process.crawl(crawlers[-1], urls=urls)
    crawler, alone = crawlers
    process.start()
    port.stopListening()
    Path(out).write_text(json.dumps({**_result(crawler), "alone": _result(alone)}), "utf-8")


def _result(crawler) -> dict:
    stats = crawler.stats.get_stats()
    return {"responses": crawler.spider.results, "response_bytes": stats.get("downloader/response_bytes"),
            "stats": {k: v for k, v in stats.items() if k.startswith("whatwg_encoding/")}}

if __name__ == "__main__":
    main(*sys.argv[1:])
