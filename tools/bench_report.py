"""Benchmark: the HTML crawl report (``WHATWG_ENCODING_REPORT``) on a large crawl.

Usage: python tools/bench_report.py [--pages 5000] [--examples 20] [--rounds 2] [--concurrency 32] [--out FILE]

The server of ``tools/bench_crawl.py`` (a separate process) serves ``--pages`` URLs cycling through
the public corpus and the demo site, labeled and bare. The same crawl runs with the add-on, without
and with the report, alternating, ``--rounds`` times each; prints the report's size (bytes) and
build time at spider close (from the add-on's log line), and the best pages/s of each (with /
without: the cost of gathering the report; other load on the machine disturbs these).
"""
from __future__ import annotations

import argparse
import logging
import re
import sys
import tempfile
import time
from pathlib import Path

WRITTEN = re.compile(r"Encoding report written to .* \((\d+) bytes, ([\d.]+) s\)")


class _Written(logging.Handler):
    def __init__(self):
        super().__init__()
        self.match = None

    def emit(self, record):
        self.match = WRITTEN.search(record.getMessage()) or self.match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--examples", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--out", help="where to write the report (default: a temporary file)")
    args = parser.parse_args()

    from bench_crawl import bench_spider, crawl_settings, start_server
    from scrapy.crawler import CrawlerRunner
    from scrapy.utils.reactor import install_reactor

    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    from twisted.internet import defer, reactor

    server, base = start_server()
    out = args.out or str(Path(tempfile.mkdtemp()) / "report.html")
    handler = _Written()
    logging.getLogger("scrapy_whatwg_encoding").addHandler(handler)

    Bench = bench_spider(base, args.pages, read_title=False)
    common = {**crawl_settings(args.concurrency), "ADDONS": {"scrapy_whatwg_encoding.Addon": 0},
              "WHATWG_ENCODING_LOG_LEVEL": "DEBUG"}
    rates: dict[str, float] = {}

    @defer.inlineCallbacks
    def run_all():
        try:
            for label, extra in (("without report", {}), ("with report", {
                    "WHATWG_ENCODING_REPORT": out, "WHATWG_ENCODING_REPORT_EXAMPLES": args.examples})) * args.rounds:
                runner = CrawlerRunner({**common, **extra})
                crawler = runner.create_crawler(Bench)
                logging.getLogger("scrapy_whatwg_encoding").setLevel(logging.INFO)
                started = time.perf_counter()
                yield runner.crawl(crawler)
                seconds = time.perf_counter() - started
                assert crawler.stats.get_value("whatwg_encoding/responses") == args.pages
                rates[label] = max(rates.get(label, 0.0), args.pages / seconds)
        finally:
            reactor.stop()

    reactor.callWhenRunning(run_all)
    reactor.run()
    server.terminate()
    server.wait()
    if handler.match is None:
        sys.exit("no report was written")
    size, build = int(handler.match.group(1)), float(handler.match.group(2))
    print(f"{args.pages} pages, {args.examples} examples per source: report {out}")
    print(f"  size {size} bytes ({size / 1024:.1f} KiB), built in {build * 1000:.1f} ms at spider close")
    for label, rate in rates.items():
        print(f"  crawl {label:<15} {rate:8.1f} pages/s")
    print(f"  ratio with / without report: {rates['with report'] / rates['without report']:.2f}")


if __name__ == "__main__":
    main()
