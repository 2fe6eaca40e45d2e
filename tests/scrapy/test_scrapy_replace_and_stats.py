"""``replace()`` of a decided response, and stats that Scrapy's periodic stats see during the crawl
(issue 12, item 4): real crawls against the demo site."""
from __future__ import annotations

import subprocess
import sys
from typing import ClassVar

import pytest_twisted
from scrapy.http import HtmlResponse
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import reactor
from twisted.internet.task import deferLater
from whatwg_crawl_helpers import CollectSpider, check_decision, crawl

from scrapy_whatwg_encoding import whatwg_encoding
from scrapy_whatwg_encoding.scrapy.stats import FLUSH_SECONDS

KOI8 = "header/koi8-r.html"  # Content-Type: text/html; charset=koi8-r
UNLABELED_RU = "unlabeled/ru-windows-1251.html"


@pytest_twisted.inlineCallbacks
def test_replace_keeps_the_decision_only_for_the_same_document(demo_server):
    _, (page,) = yield crawl([demo_server.url(KOI8)])
    check_decision(page)
    decision = page.meta["whatwg_encoding"]
    # Same document (URL, flags, status): same class, encoding, text and decision.
    moved = page.replace(url=page.url + "?moved", flags=["x"])
    assert type(moved) is type(page) and moved.encoding == page.encoding and moved.text == page.text
    assert moved.meta["whatwg_encoding"] == decision
    # Another body: Scrapy's own class and inference (the header's koi8-r), and no decision.
    other = "<title>Привет</title>".encode("koi8-r")
    replaced = page.replace(body=other)
    assert type(replaced) is HtmlResponse and whatwg_encoding(replaced) is None
    assert replaced.encoding == "koi8-r" and replaced.css("title::text").get() == "Привет"
    assert "whatwg_encoding" not in replaced.meta and "whatwg_encoding" not in page.meta
    assert page.text == moved.text  # the decided response itself is unchanged
    # New headers or an explicit encoding: the same; Scrapy's replace() copies ``encoding`` (the
    # name Scrapy alone reports for the decided encoding) unless one is passed, as without the add-on.
    cp1251 = page.replace(headers={"Content-Type": "text/html; charset=windows-1251"})
    assert type(cp1251) is HtmlResponse and cp1251.encoding == "koi8-r"
    assert HtmlResponse(page.url, body=page.body, headers=page.headers).replace(
        headers={"Content-Type": "text/html; charset=windows-1251"}).encoding == "koi8-r"
    assert page.replace(encoding="utf-8").encoding == "utf-8"
    # An explicit class wins (the caller asked for it).
    assert type(page.replace(body=other, cls=type(page))) is type(page)


class SlowSecondPage(CollectSpider):
    """Reads ``whatwg_encoding/responses`` from the stats after waiting in its second callback (the
    reactor runs meanwhile, as during any slow download)."""

    name = "slow_second_page"
    seen_in_stats: ClassVar[list] = []

    async def parse(self, response):
        self.responses.append(response)
        if len(self.responses) == 2:
            await maybe_deferred_to_future(deferLater(reactor, FLUSH_SECONDS * 2.5, lambda: None))
            self.seen_in_stats.append(self.crawler.stats.get_value("whatwg_encoding/responses"))
            self.seen_in_stats.append(self.crawler.stats.get_value("whatwg_encoding/source/transport"))


@pytest_twisted.inlineCallbacks
def test_decision_counters_reach_the_stats_during_the_crawl(demo_server):
    SlowSecondPage.seen_in_stats = []
    crawler, responses = yield crawl([demo_server.url(KOI8), demo_server.url(UNLABELED_RU)],
                                     settings={"CONCURRENT_REQUESTS": 1}, spider_cls=SlowSecondPage)
    assert len(responses) == 2
    # Both responses were decided before the second callback; one by its header.
    assert SlowSecondPage.seen_in_stats == [2, 1]
    assert crawler.stats.get_value("whatwg_encoding/responses") == 2


def test_building_the_middleware_installs_no_reactor():
    """The stats timer is made when the spider opens: a middleware built before a crawl (a script,
    a benchmark) must not install Twisted's default reactor, which would refuse Scrapy's asyncio one."""
    code = ("import sys; from scrapy_whatwg_encoding import WhatwgEncodingMiddleware; "
            "WhatwgEncodingMiddleware(); print('twisted.internet.reactor' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
