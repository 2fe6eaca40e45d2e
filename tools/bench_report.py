"""Benchmark: the HTML crawl report (``WHATWG_ENCODING_REPORT``) on a large crawl, or on large pages.

Usage: python tools/bench_report.py [--pages 5000] [--examples 20] [--rounds 2] [--concurrency 32] [--out FILE]
       python tools/bench_report.py --large [--megabytes 4] [--repeat 5]

``--large``: the cost of one page of ``--megabytes`` MiB whose text differs from Scrapy's only
near its end, to the add-on's two middlewares and ``.text`` (as ``tools/bench_classes.py`` times
them), with the report on (its data fresh for every call: the page is one of the first examples
of its source, the costly case) and off; prints both (best of ``--repeat``) and the ratio on / off
per page: a windows-1252 page (``é`` throughout) with one 0x81 near the end (U+0081 to the
standard, U+FFFD to Python's cp1252), an ASCII page served as UTF-8 under ``charset=iso-8859-1``
whose only non-ASCII character ("Á", C3 81) is near the end, and a Shift_JIS page (Japanese
throughout) with one byte A0 near the end (U+FFFD to the standard, U+F8F0 to Python's cp932),
whose Scrapy text is decoded whole.

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


def large_pages(megabytes: float) -> dict[str, tuple[str, bytes]]:
    """name → (Content-Type, body) of :func:`main`'s ``--large`` pages (see the module's doc)."""
    size = int(megabytes * 1024 * 1024)
    latin = ("<p>Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e, na\u00efve fa\u00e7ade.</p>\n".encode("cp1252") * (size // 40))[:size]
    ascii_ = (b"<p>The quick brown fox jumps over the lazy dog.</p>\n" * (size // 50))[:size]
    japanese = ("<p>\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3067\u3059\u3002</p>\n"
                .encode("shift_jis") * (size // 30))[:size - 2]
    near_end = size - 1000
    line = japanese.rindex(b"\n", 0, near_end) + 1  # a character's start
    return {
        "windows-1252, 0x81": ("text/html; charset=windows-1252", latin[:near_end] + b"\x81" + latin[near_end:]),
        "UTF-8 as iso-8859-1": ("text/html; charset=iso-8859-1", ascii_[:near_end] + "\u00c1".encode() + ascii_[near_end:]),
        "Shift_JIS, 0xA0": ("text/html; charset=shift_jis", japanese[:line] + b"\xa0" + japanese[line:]),
    }


def large(megabytes: float, repeat: int) -> None:
    """Print the report's cost on :func:`large_pages` (see the module's doc)."""
    import time

    from bench_classes import Ours, Page

    from scrapy_whatwg_encoding.report import ReportData
    from scrapy_whatwg_encoding.scrapy.scrapy_default import Comparisons

    out = str(Path(tempfile.mkdtemp()) / "report.html")
    logging.getLogger("scrapy_whatwg_encoding").setLevel(logging.ERROR)  # the suspect label's WARNING lines
    sides = {"off": Ours(), "on": Ours({"WHATWG_ENCODING_REPORT": out})}
    print(f"One {megabytes:g} MiB page whose text differs from Scrapy's near its end: the add-on's middlewares + "
          f".text, report off and on (best of {repeat})")
    print(f"  {'page':<24} {'off ms':>8} {'on ms':>8} {'on / off':>8}  example")
    for name, (content_type, body) in large_pages(megabytes).items():
        page = Page("large", name, "http://127.0.0.1/large", content_type, body, None)
        best = dict.fromkeys(sides, float("inf"))
        for i in range(repeat):  # the two sides alternate, each first in turn
            for label in (("off", "on") if i % 2 == 0 else ("on", "off")):
                report = sides[label].middleware.report
                if report.data is not None:
                    report.data = ReportData(report.data.max_examples)  # the page still wants an example
                if hasattr(report, "comparisons"):
                    report.comparisons = Comparisons()  # and is one of the first compared
                call = sides[label].side(page)
                started = time.perf_counter()
                call()
                best[label] = min(best[label], time.perf_counter() - started)
        data = sides["on"].middleware.report.data
        examples = [e for kept in data.examples.values() for e in kept]
        shown = f"offset {examples[0].passage.offset}" if examples else "none"
        print(f"  {name:<24} {1000 * best['off']:>8.1f} {1000 * best['on']:>8.1f} {best['on'] / best['off']:>8.2f}  "
              f"{shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--large", action="store_true", help="time the report on large pages instead (see above)")
    parser.add_argument("--megabytes", type=float, default=4.0, help="with --large: MiB per page (default 4)")
    parser.add_argument("--repeat", type=int, default=5, help="with --large: calls per page, the best counts")
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--examples", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--out", help="where to write the report (default: a temporary file)")
    args = parser.parse_args()
    if args.large:
        large(args.megabytes, args.repeat)
        return

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
