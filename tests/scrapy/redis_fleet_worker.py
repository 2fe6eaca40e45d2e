"""One worker of a scrapy-redis fleet, for test_scrapy_redis_fleet.py:
``python redis_fleet_worker.py NAME QUEUE_URL STORE_URL OUTPUT`` runs a ``RedisSpider`` on
scrapy-redis's scheduler and dupefilter at *QUEUE_URL* (start URLs from :data:`START_KEY`, requests
in one shared queue) with the add-on, ``WHATWG_ENCODING_REMEMBER`` on and
``WHATWG_ENCODING_REMEMBER_STORE = STORE_URL``, then writes ``{"responses": [{"url", "decision",
"request_encoding"}], "stats": {whatwg_encoding/...}, "requests": N}`` to *OUTPUT* (JSON;
*N*: the requests it sent).

A hub page (links ``a.page``) is followed with ``response.follow``: those requests go through
Redis, and either worker may crawl them. The worker says it is polling by setting
``READY_KEY % NAME`` and adds every URL it crawled to :data:`CRAWLED_KEY`. It closes when it is
idle and :data:`DONE_KEY` is set (the test has seen every page crawled): scrapy-redis's
``MAX_IDLE_TIME_BEFORE_CLOSE`` counts from the last time the start URLs were seen, so a worker
would close between two rounds of start URLs.
"""
from __future__ import annotations

import json
import sys

from scrapy_redis.spiders import RedisSpider

from scrapy_whatwg_encoding.scrapy.requests.links import follow

START_KEY = "fleet:start_urls"
READY_KEY = "fleet:ready:%s"
CRAWLED_KEY = "fleet:crawled"
DONE_KEY = "fleet:done"


class FleetSpider(RedisSpider):
    name = "fleet"
    redis_key = START_KEY

    def __init__(self, worker: str = "", **kwargs):
        super().__init__(**kwargs)
        self.worker = worker
        self.crawled: list[dict] = []

    def parse(self, response):
        self.crawled.append({"url": response.url, "decision": response.meta["whatwg_encoding"],
                             "request_encoding": response.request.encoding})
        self.server.rpush(CRAWLED_KEY, response.url)
        for link in response.css("a.page"):
            yield follow(response, link, callback=self.parse)  # the browser's query

    def spider_idle(self):
        self.server.set(READY_KEY % self.worker, 1)
        if self.server.exists(DONE_KEY):
            return  # let the spider close
        super().spider_idle()  # pulls start URLs; never closes (MAX_IDLE_TIME_BEFORE_CLOSE = 0)


def main(worker: str, queue_url: str, store_url: str, output: str) -> None:
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import default_settings
    from whatwg_crawl_helpers import BASE_SETTINGS, whatwg_stats

    settings = {
        **BASE_SETTINGS,
        "WHATWG_ENCODING_REMEMBER": True,
        "WHATWG_ENCODING_REMEMBER_STORE": store_url,
        "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_PERSIST": True,
        "REDIS_URL": queue_url,
        "MAX_IDLE_TIME_BEFORE_CLOSE": 0,
        # One request at a time, one every half second: a round takes one worker alone some 10 s, and
        # an idle worker looks at the queue on every heartbeat of Scrapy's engine (5 s): both take part.
        "CONCURRENT_REQUESTS": 1,
        "DOWNLOAD_DELAY": 0.5,
        # (Scrapy 2.19 replaced RANDOMIZE_DOWNLOAD_DELAY with DOWNLOAD_DELAY_JITTER.)
        **({"DOWNLOAD_DELAY_JITTER": 0} if hasattr(default_settings, "DOWNLOAD_DELAY_JITTER")
           else {"RANDOMIZE_DOWNLOAD_DELAY": False}),
        "CLOSESPIDER_TIMEOUT": 300,  # (a safety net only: the test sets DONE_KEY)
    }
    del settings["TWISTED_REACTOR"]  # this process installs Scrapy's default
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(FleetSpider)
    process.crawl(crawler, worker=worker)
    process.start()
    with open(output, "w", encoding="utf-8") as file:
        json.dump({"responses": crawler.spider.crawled, "stats": whatwg_stats(crawler),
                   "requests": crawler.stats.get_value("downloader/request_count", 0)}, file, default=str)


if __name__ == "__main__":
    main(*sys.argv[1:5])
