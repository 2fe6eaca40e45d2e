"""Helpers for the Scrapy layer's tests: real crawls with ``CrawlerRunner`` against the demo
project's HTTP server on 127.0.0.1 (no mocked responses)."""
from __future__ import annotations

import codecs
import json
import sqlite3
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import quote

import scrapy
from scrapy.crawler import CrawlerRunner

from scrapy_whatwg_encoding import decode, get_encoding, sniff, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
CORPUS = DATA / "corpus"
sys.path.insert(0, str(REPO / "example_project"))

from demo.site_server import BUNDLED_SITE, SiteMap, start_server  # noqa: F401 — BUNDLED_SITE re-exported

BASE_SETTINGS = {
    "ADDONS": {"scrapy_whatwg_encoding.Addon": 0},
    "TWISTED_REACTOR": None,  # whatever reactor pytest-twisted installed
    "LOG_LEVEL": "INFO",
    "TELNETCONSOLE_ENABLED": False,
    "REMOTE_CONTROL_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "CONCURRENT_REQUESTS": 16,
}


# Special-query percent-encode set: C0 controls, space, " # ' < > and bytes above 0x7E.
SAFE = "".join(chr(b) for b in range(0x21, 0x7F) if chr(b) not in "\"#'<>")


class Server:
    def __init__(self, site: SiteMap):
        self.site = site
        self.port, self.base = start_server(site)

    def url(self, path: str) -> str:
        return self.base + path


class CollectSpider(scrapy.Spider):
    """Requests ``requests`` (URLs or (URL, meta) pairs) and keeps every response it gets."""

    name = "collect"

    def __init__(self, requests=(), **kwargs):
        super().__init__(**kwargs)
        self.to_request = list(requests)
        self.responses = []

    async def start(self):  # Scrapy 2.13+
        for request in self.start_requests():
            yield request

    def start_requests(self):  # Scrapy < 2.13
        for entry in self.to_request:
            url, meta = (entry, {}) if isinstance(entry, str) else entry
            yield scrapy.Request(url, meta=dict(meta), callback=self.parse, dont_filter=True)

    def parse(self, response):
        self.responses.append(response)


def crawl(requests, settings=None, spider_cls=CollectSpider, **spider_kwargs):
    """Run one crawl; a Deferred that fires with ``(crawler, responses)`` (responses by URL order)."""
    runner = CrawlerRunner({**BASE_SETTINGS, **(settings or {})})
    crawler = runner.create_crawler(spider_cls)
    deferred = runner.crawl(crawler, requests=requests, **spider_kwargs)
    return deferred.addCallback(lambda _: (crawler, sorted(crawler.spider.responses, key=lambda r: r.url)))


def whatwg_stats(crawler) -> dict:
    """The crawl's stats under ``whatwg_encoding/``."""
    return {k: v for k, v in crawler.stats.get_stats().items() if k.startswith("whatwg_encoding/")}


def load_manifest() -> list[dict]:
    return json.loads((CORPUS / "manifest.json").read_text("utf-8"))


def check_decision(response, **sniff_kwargs):
    """The response carries sniff()'s decision on the same input, and the exact text."""
    decision = response.meta["whatwg_encoding"]
    raw = response.headers.get(b"Content-Type")
    expected = sniff(response.body, content_type=raw.decode("latin-1") if raw else None,
                     url=response.url, **sniff_kwargs)
    assert decision == expected.as_dict(), response.url
    encoding = get_encoding(decision["encoding"])
    check_decided(response, encoding)
    return encoding


def check_decided(response, encoding):
    """*response* is decided as *encoding*: the exact text, and as ``encoding`` the name Scrapy
    alone reports for it, which Python resolves without the package."""
    assert whatwg_encoding(response) is encoding, response.url
    assert response.text == decode(response.body, encoding)[0], response.url
    name = scrapy_codec_name(encoding)
    if name is not None:
        assert response.encoding == name and not codecs.lookup(name).name.startswith("whatwg-")


def serve_in_process(root, stack: ExitStack) -> str:
    """The demo site server over the directory *root* in its own process (stopped when *stack*
    closes); its base URL."""
    server = subprocess.Popen([sys.executable, "-m", "demo.site_server", str(root), "0"],
                              cwd=REPO / "example_project", stdout=subprocess.PIPE, text=True)
    stack.callback(server.wait, 10)
    stack.callback(server.terminate)
    return server.stdout.readline().strip()


def browser_query(text: str, python_codec: str) -> str:
    """Percent-encode after encoding, with Python's codec as the encoder: runs of representable
    characters go through one encoder (ISO-2022-JP's escapes), errors become %26%23N%3B."""
    out, run = [], ""
    for char in text + "\0":
        try:
            char.encode(python_codec)
            ok = char != "\0"
        except UnicodeEncodeError:
            ok = False
        if ok:
            run += char
            continue
        if run:
            out.append(quote(run.encode(python_codec), safe=SAFE))
            run = ""
        if char != "\0":
            out.append(f"%26%23{ord(char)}%3B")
    return "".join(out)


def memory_rows(path) -> dict:
    """host → encoding → declarations in the site memory's SQLite file at *path*, read with
    sqlite3 itself."""
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT host, encoding, declarations FROM counts").fetchall()
    finally:
        db.close()
    found: dict = {}
    for host, name, count in rows:
        found.setdefault(host, {})[name] = count
    return found
