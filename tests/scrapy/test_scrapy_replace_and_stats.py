"""``replace()`` of a decided response, and stats that Scrapy's periodic stats see during the crawl
(issue 12, item 4): real crawls against the demo site."""
from __future__ import annotations

import subprocess
import sys
from typing import ClassVar

import pytest_twisted
from scrapy.http import HtmlResponse, XmlResponse
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import reactor
from twisted.internet.task import deferLater
from whatwg_crawl_helpers import CollectSpider, check_decision, crawl

from scrapy_whatwg_encoding import whatwg_encoding
from scrapy_whatwg_encoding.scrapy.stats import FLUSH_SECONDS

KOI8 = "header/koi8-r.html"  # Content-Type: text/html; charset=koi8-r
UNLABELED_RU = "unlabeled/ru-windows-1251.html"


@pytest_twisted.inlineCallbacks
def test_replace_is_scrapys_own(demo_server):
    """A decided response is of Scrapy's class, so ``replace()`` is Scrapy's: the copy is of the same
    class (or the one passed), with ``encoding`` copied unless one is passed, decoded by Scrapy with
    Python's codec for it; it shares the request, whose meta keeps the decision."""
    _, (page,) = yield crawl([demo_server.url(KOI8)])
    check_decision(page)
    decision = page.meta["whatwg_encoding"]
    moved = page.replace(url=page.url + "?moved", flags=["x"])
    assert type(moved) is HtmlResponse and moved.encoding == page.encoding == "koi8-r" and moved.text == page.text
    assert moved.meta["whatwg_encoding"] == decision and whatwg_encoding(moved) is whatwg_encoding(page)
    other = "<title>Привет</title>".encode("koi8-r")
    replaced = page.replace(body=other)
    assert type(replaced) is HtmlResponse and replaced.encoding == "koi8-r"
    assert replaced.css("title::text").get() == "Привет"
    alone = HtmlResponse(page.url, body=page.body, headers=page.headers)
    for changes in ({"headers": {"Content-Type": "text/html; charset=windows-1251"}}, {"encoding": "utf-8"},
                    {"body": other, "cls": XmlResponse}):
        assert (type(page.replace(**changes)), page.replace(**changes).encoding) == (
            type(alone.replace(**changes)), alone.replace(**changes).encoding), changes


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
