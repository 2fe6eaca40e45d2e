"""The crawl of test_portable_jobdir.py, one process per run (``python jobdir_pause_resume.py BASE
JOBDIR PHASE STATS [SETTINGS_JSON]``):

- ``pause``: with the add-on, reads the windows-1251 and Shift_JIS hubs, builds every kind of
  request from them (``follow``, ``follow_all``, ``form_request`` GET and POST,
  ``FormRequest.from_response``, the drop-in ``LinkExtractor`` + ``Request(url,
  encoding=response.encoding)`` and + ``Request(url, encoding=whatwg_encoding(response).codec_name)``),
  then pauses the engine, yields them all and closes the spider:
  they stay in JOBDIR's queue, none is downloaded;
- ``resume``: no add-on, never imports ``scrapy_whatwg_encoding``; crawls what JOBDIR holds.

Writes the crawl's stats and the package modules imported to STATS (JSON).
"""
from __future__ import annotations

import json
import sys
import warnings

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.exceptions import CloseSpider

HUBS = ("windows-1251", "Shift_JIS")


class PauseResume(scrapy.Spider):
    name = "pause_resume"

    def __init__(self, base: str = "", phase: str = "", **kwargs):
        super().__init__(**kwargs)
        self.base, self.phase = base, phase
        self.pending: list = []
        self.hubs_read = 0

    async def start(self):  # Scrapy 2.13+
        for request in self.start_requests():
            yield request

    def start_requests(self):  # Scrapy < 2.13; on resume, the queue is all there is to crawl
        if self.phase == "pause":
            for name in HUBS:
                yield scrapy.Request(f"{self.base}hub-{name}.html", self.parse_hub)

    def parse_hub(self, response):
        from scrapy.http import FormRequest

        from scrapy_whatwg_encoding import whatwg_encoding
        from scrapy_whatwg_encoding.scrapy.requests.forms import form_request
        from scrapy_whatwg_encoding.scrapy.requests.links import LinkExtractor, follow, follow_all
        from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name

        assert response.encoding == scrapy_codec_name(whatwg_encoding(response)), response.encoding
        leaf = {"callback": self.parse_leaf}
        self.pending.append(follow(response, response.css("a.follow")[0], **leaf))
        self.pending.extend(follow_all(response, css="a.all", **leaf))
        self.pending.append(form_request(response, formid="get", **leaf))
        self.pending.append(form_request(response, formid="post", **leaf))
        with warnings.catch_warnings():  # deprecated in Scrapy 2.19, still widely used
            warnings.simplefilter("ignore")
            self.pending.append(FormRequest.from_response(response, formid="scrapy", **leaf))
        for link in LinkExtractor(restrict_css="a.extract").extract_links(response):
            self.pending.append(scrapy.Request(link.url, encoding=response.encoding, **leaf))
        for link in LinkExtractor(restrict_css="a.codec").extract_links(response):
            self.pending.append(scrapy.Request(link.url, encoding=whatwg_encoding(response).codec_name, **leaf))
        self.hubs_read += 1
        if self.hubs_read == len(HUBS):
            self.crawler.engine.pause()  # from here on nothing leaves the scheduler
            yield from self.pending
            raise CloseSpider("paused")

    def parse_leaf(self, response):
        self.logger.info("leaf crawled: %s %s", response.request.method, response.url)


def main(base: str, jobdir: str, phase: str, stats_path: str, settings_json: str = "{}") -> None:
    settings = {
        "JOBDIR": jobdir, "LOG_LEVEL": "INFO", "TELNETCONSOLE_ENABLED": False, "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": 2, "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
        **json.loads(settings_json),
    }
    if phase == "pause":
        settings["ADDONS"] = {"scrapy_whatwg_encoding.Addon": 0}
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(PauseResume)
    process.crawl(crawler, base=base, phase=phase)
    process.start()
    imported = sorted(m for m in sys.modules if m.startswith("scrapy_whatwg_encoding"))
    with open(stats_path, "w", encoding="utf-8") as f:
        json.dump({"stats": crawler.stats.get_stats(), "imported": imported}, f, default=str)


if __name__ == "__main__":
    main(*sys.argv[1:])
