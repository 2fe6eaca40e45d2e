"""The crawls of test_scrapy_reactorless.py, in a process of their own (``python reactorless_crawl.py
MODE BASE JOBDIR OUT``): Scrapy's reactorless mode (``TWISTED_REACTOR_ENABLED = False``) with the
add-on, ``WHATWG_ENCODING_REMEMBER`` and ``JOBDIR``, over every page of the demo site at BASE.

- ``process``: one crawl in an ``AsyncCrawlerProcess`` (which forbids importing the reactor);
- ``runner``: two crawls one after the other in one ``AsyncCrawlerRunner`` under ``asyncio.run``
  (the second is refused if anything installed a reactor during the first).

Writes to OUT (JSON): per crawl, its ``whatwg_encoding/`` stats, ``log_count/ERROR`` and the
declarations its pages made (encoding → pages); whether ``twisted.internet.reactor`` was imported.
"""
from __future__ import annotations

import asyncio
import json
import sys

import scrapy

from scrapy_whatwg_encoding import get_encoding
from scrapy_whatwg_encoding.sniffing.decision import DECLARED_SOURCES


class SiteSpider(scrapy.Spider):
    """Reads the demo site's index and every page it links."""

    name = "reactorless"

    def __init__(self, base: str = "", **kwargs):
        super().__init__(**kwargs)
        self.base = base
        self.declared: dict[str, int] = {}

    async def start(self):
        yield scrapy.Request(self.base, self.parse_index, dont_filter=True)

    def parse_index(self, response):
        self.parse_page(response)
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse_page, dont_filter=True)

    def parse_page(self, response):
        decision = response.meta.get("whatwg_encoding")
        if decision and decision["source"] in DECLARED_SOURCES:
            encoding = get_encoding(decision["encoding"])
            if encoding is not None and encoding.output_encoding is encoding:
                self.declared[encoding.name] = self.declared.get(encoding.name, 0) + 1


def settings(job_dir: str) -> dict:
    return {
        "TWISTED_REACTOR_ENABLED": False,
        "ADDONS": {"scrapy_whatwg_encoding.Addon": 0},
        "WHATWG_ENCODING_REMEMBER": True,
        "JOBDIR": job_dir,
        "LOG_LEVEL": "INFO",
        "ROBOTSTXT_OBEY": False,
    }


def result(crawler) -> dict:
    stats = crawler.stats.get_stats()
    return {"stats": {k: v for k, v in stats.items() if k.startswith("whatwg_encoding/")},
            "errors": stats.get("log_count/ERROR", 0), "declared": crawler.spider.declared,
            "finish_reason": stats.get("finish_reason")}


def run_process(base: str, job_dir: str) -> list[dict]:
    from scrapy.crawler import AsyncCrawlerProcess  # Scrapy 2.13+ (imported here: pytest's doctest
    # collection imports this module on every Scrapy)

    process = AsyncCrawlerProcess(settings(job_dir))
    crawler = process.create_crawler(SiteSpider)
    process.crawl(crawler, base=base)
    process.start()
    return [result(crawler)]


async def run_runner(base: str, job_dir: str) -> list[dict]:
    from scrapy.crawler import AsyncCrawlerRunner

    runner = AsyncCrawlerRunner(settings(job_dir))
    results = []
    for _ in range(2):
        crawler = runner.create_crawler(SiteSpider)
        await runner.crawl(crawler, base=base)
        results.append(result(crawler))
    return results


def main(mode: str, base: str, job_dir: str, out: str) -> None:
    if mode == "process":
        crawls = run_process(base, job_dir)
    else:
        from scrapy.utils.log import configure_logging

        configure_logging({"LOG_LEVEL": "INFO"})
        crawls = asyncio.run(run_runner(base, job_dir))
    with open(out, "w", encoding="utf-8") as file:
        json.dump({"crawls": crawls, "reactor": "twisted.internet.reactor" in sys.modules}, file)


if __name__ == "__main__":
    main(*sys.argv[1:5])
