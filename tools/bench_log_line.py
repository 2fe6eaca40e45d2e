"""Benchmark: the per-decision log line's cost (``Stats.decision`` with and without its line).

Usage: python tools/bench_log_line.py [--runs 5] [--calls 20000]

Times ``Stats.decision`` (the counters, and the log line at DEBUG) three ways, interleaved:
the ``scrapy_whatwg_encoding`` logger's level above DEBUG (line disabled), at DEBUG with a handler
that formats each record into memory (as Scrapy's log handler does), and the counters alone (the
line's call removed). Prints µs per call, median and min–max over --runs runs, and the line's own
cost (disabled minus counters alone, enabled minus counters alone). CPU time, best of 3 per run.
"""
from __future__ import annotations

import argparse
import io
import logging
import statistics
import time

from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.scrapy import report as report_module
from scrapy_whatwg_encoding.scrapy.stats import Stats

URL = "https://www.example.com/some/path/page.html?id=12345"


def per_call(report, decision, calls):
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(calls):
            report.decision(URL, decision, False)
        best = min(best, time.process_time() - start)
    return best / calls * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    logger = logging.getLogger("scrapy_whatwg_encoding")
    logger.propagate = False
    handler = logging.StreamHandler(io.StringIO())
    handler.setFormatter(logging.Formatter("%(asctime)s [%(name)s] %(levelname)s: %(message)s"))
    logger.addHandler(handler)
    decision = sniff(b"<meta charset=shift_jis>", content_type="text/html")
    report = Stats(None, logging.DEBUG)
    results = {"disabled": [], "enabled": [], "counters only": []}
    real_logger = report_module.logger
    for _ in range(args.runs):
        logger.setLevel(logging.INFO)
        results["disabled"].append(per_call(report, decision, args.calls))
        logger.setLevel(logging.DEBUG)
        results["enabled"].append(per_call(report, decision, args.calls))
        report_module.logger = logging.getLogger("bench-off")  # no line: a logger that is never enabled
        report_module.logger.disabled = True
        results["counters only"].append(per_call(report, decision, args.calls))
        report_module.logger = real_logger
        handler.stream.seek(0)
        handler.stream.truncate()
    print(f"Stats.decision, µs per call: median (min–max) of {args.runs} interleaved runs")
    base = statistics.median(results["counters only"])
    for label, values in results.items():
        extra = "" if label == "counters only" else f"   the line: {statistics.median(values) - base:+.2f} µs"
        print(f"{label:14} {statistics.median(values):6.2f} ({min(values):.2f}–{max(values):.2f}){extra}")


if __name__ == "__main__":
    main()
