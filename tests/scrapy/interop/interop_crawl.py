"""Run the interop features as real crawls, with the add-on on or off, in one process.

    python interop_crawl.py on|off BASE_URL OUT_DIR [FEATURE ...]

Every feature (``interop_spiders.FEATURES``) is one crawl (two for HTTP cache features: the second
is served from the cache) with its own settings, one after the other in Twisted's asyncio reactor
(scrapy-playwright and scrapy-zyte-api need it). Writes ``OUT_DIR/<on|off>.json``: per feature its
items, its errors (logged errors and spider errors), a few stats, or why it was skipped.
"""
from __future__ import annotations

import csv
import importlib
import json
import logging
import shutil
import sys
import time
from pathlib import Path

from interop_spiders import ASYNCIO_REACTOR, FEATURES, FEATURES_BY_NAME, FEEDS, class_name
from scrapy.utils.reactor import install_reactor

STATS = ("robotstxt/forbidden", "httpcache/hit", "httpcache/miss", "httpcache/store", "httpcache/retrieve_error",
         "item_scraped_count")


class Errors(logging.Handler):
    """Keeps the crawl's ERROR records (and Scrapy's tracebacks of spider errors)."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record):
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
        self.messages.append(text[:2000])


def skip_reason(feature) -> str | None:
    import scrapy
    if feature.plugin is None:
        return None
    try:
        importlib.import_module(feature.plugin)
    except ImportError as exc:  # a plugin that needs another Scrapy
        return f"{feature.plugin} does not import on Scrapy {scrapy.__version__}: {type(exc).__name__}: {exc}"
    if feature.plugin == "scrapy_playwright" and not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "headless Chromium is not installed (Debian: apt-get install chromium)"
    return None


def fill(value, base: str):
    """``{base}`` and ``{chromium}`` in setting values."""
    if isinstance(value, str):
        chromium = shutil.which("chromium") or shutil.which("chromium-browser") or ""
        return value.replace("{base}", base).replace("{chromium}", chromium)
    if isinstance(value, dict):
        return {k: fill(v, base) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, base) for v in value]
    return value


def read_feeds(out: Path) -> dict[str, list[dict]]:
    from lxml import etree
    items = {"feed_jsonl": [json.loads(line) for line in (out / "items.jsonl").read_text("utf-8").splitlines()]}
    with open(out / "items.csv", encoding="utf-8", newline="") as file:
        items["feed_csv"] = list(csv.DictReader(file))
    root = etree.parse(str(out / "items.xml")).getroot()
    items["feed_xml"] = [{child.tag: child.text or "" for child in item} for item in root]
    return items


def main(mode: str, base: str, out_dir: str, *names: str) -> None:
    install_reactor(ASYNCIO_REACTOR)
    from scrapy import signals
    from scrapy.crawler import CrawlerRunner
    from twisted.internet import defer, reactor

    out = Path(out_dir) / mode
    out.mkdir(parents=True, exist_ok=True)
    features = [FEATURES_BY_NAME[n] for n in names] if names else FEATURES
    results: dict[str, dict] = {}
    errors = Errors()
    logging.getLogger().addHandler(errors)

    @defer.inlineCallbacks
    def crawl(feature, settings):
        runner = CrawlerRunner(settings)
        crawler = runner.create_crawler(feature.spider)
        items: list[dict] = []
        classes: list[str] = []  # the class of every response the engine hands on (to callbacks)
        crawler.signals.connect(lambda item, **_: items.append(dict(item)), signal=signals.item_scraped, weak=False)
        crawler.signals.connect(lambda response, **_: classes.append(class_name(response)),
                                signal=signals.response_received, weak=False)
        crawler.signals.connect(lambda failure, response, **_: errors.messages.append(
            f"spider error on {response.url}: {failure.getErrorMessage()}"), signal=signals.spider_error, weak=False)
        try:
            yield runner.crawl(crawler, **feature.attrs(base))
        except Exception as exc:  # noqa: BLE001 — a crawl that could not start is recorded; the others still run
            errors.messages.append(f"crawl failed: {type(exc).__name__}: {exc}")
        stats = crawler.stats.get_stats() if crawler.stats else {}
        return {"items": items, "classes": sorted(classes), "errors": list(errors.messages),
                "stats": {k: stats[k] for k in STATS if k in stats},
                "whatwg_stats": {k: v for k, v in stats.items() if k.startswith("whatwg_encoding/")}}

    @defer.inlineCallbacks
    def run_all():
        for feature in features:
            reason = skip_reason(feature)
            if reason:
                results[feature.name] = {"skipped": reason}
                continue
            settings = {"TWISTED_REACTOR": ASYNCIO_REACTOR, "LOG_LEVEL": "INFO", "TELNETCONSOLE_ENABLED": False,
                        "ROBOTSTXT_OBEY": False, "HTTPCACHE_DIR": str(out / f"cache-{feature.name}"),
                        **fill(feature.settings, base)}
            if feature.name == "feeds":
                settings["FEEDS"] = {str(out / f"items.{fmt}"): {"format": {"jsonl": "jsonlines"}.get(fmt, fmt)}
                                     for fmt in FEEDS}
                settings["FEEDS"][str(out / "items.xml")]["encoding"] = "windows-1251"
            if mode == "on":
                settings["ADDONS"] = {**settings.get("ADDONS", {}), "scrapy_whatwg_encoding.Addon": 0}
            runs = []
            started = time.monotonic()
            for _ in range(feature.runs):
                del errors.messages[:]
                runs.append((yield crawl(feature, settings)))
            results[feature.name] = {**runs[-1], "runs": runs, "seconds": round(time.monotonic() - started, 2)}
            if feature.name == "feeds" and not runs[-1]["errors"]:
                for name, items in read_feeds(out).items():
                    results[name] = {"items": items, "errors": []}
        reactor.stop()

    reactor.callWhenRunning(run_all)
    reactor.run()
    (Path(out_dir) / f"{mode}.json").write_text(json.dumps(results, ensure_ascii=False, indent=1, default=str),
                                                "utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
