"""One crawler process of a fleet, for test_scrapy_memory_redis.py:
``python fleet_crawl.py STORE URL...`` crawls the URLs with ``WHATWG_ENCODING_REMEMBER`` on and
``WHATWG_ENCODING_REMEMBER_STORE = STORE``, then prints ``{"decisions": {url: decision}, "stats":
{whatwg_encoding/...}}`` as JSON on its last line of output."""
from __future__ import annotations

import json
import sys


def main(store: str, urls: list[str]) -> None:
    from scrapy.crawler import CrawlerProcess
    from whatwg_crawl_helpers import BASE_SETTINGS, CollectSpider, whatwg_stats

    settings = {**BASE_SETTINGS, "LOG_LEVEL": "WARNING", "WHATWG_ENCODING_REMEMBER": True,
                "WHATWG_ENCODING_REMEMBER_STORE": store}
    del settings["TWISTED_REACTOR"]  # this process installs Scrapy's default
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(CollectSpider)
    process.crawl(crawler, requests=urls)
    process.start()
    decisions = {r.url: r.meta["whatwg_encoding"] for r in crawler.spider.responses}
    print(json.dumps({"decisions": decisions, "stats": whatwg_stats(crawler)}, default=str))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
