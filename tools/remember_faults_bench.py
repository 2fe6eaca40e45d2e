"""Site memory under faults and at scale (issue 20): three measurements.

Usage: python tools/remember_faults_bench.py [--pages 3000] [--rounds 3] [--part crawl|store|rss]

1. *crawl*: pages/s of tools/bench_crawl.py's crawl (its server, in its own process) with the
   add-on and ``WHATWG_ENCODING_REMEMBER`` off, and on with a Redis store that is healthy (a
   ``redis-server`` started here), slow (behind a proxy here that holds every chunk 50 ms) and hung
   (a socket that accepts and never answers); rounds interleaved; median and spread per
   condition, and the ratio to REMEMBER off: over the whole crawl (from the request to crawl to
   the spider's close, so the start's wait for the store, at most 1 s, and the end's, at most
   5 s, count), and between the first and the last response (what pages pay while it runs).
2. *store*: the JOBDIR SQLite store with 1k, 100k and 1M hosts: file size, start-up (open and
   read up to MAX_HOSTS hosts) and one write (a batch of 100 hosts' declarations, and reading
   them back, as one exchange does), medians of 10.
3. *rss*: RSS of a process feeding 200,000 decisions over 100,000 hosts to a SiteMemory
   (a declaration and a look-up each), every 20,000, with the default cap and with none.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))


@contextlib.contextmanager
def silent_server():
    """A TCP server on 127.0.0.1 that accepts and never answers; yields its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held: list = []

    def accept():
        with contextlib.suppress(OSError):
            while True:
                held.append(listener.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()


@contextlib.contextmanager
def slow_proxy(port: int, delay: float = 0.05):
    """A TCP proxy on 127.0.0.1 to *port* that holds every chunk *delay* seconds; yields its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)

    def pipe(source, target):
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                time.sleep(delay)
                target.sendall(data)
        with contextlib.suppress(OSError):
            target.shutdown(socket.SHUT_WR)

    def accept():
        with contextlib.suppress(OSError):
            while True:
                client = listener.accept()[0]
                upstream = socket.create_connection(("127.0.0.1", port))
                threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
                threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()


def crawl(args) -> None:
    from bench_crawl import bench_spider, crawl_settings, start_server
    from remember_store_latency import redis_server
    from scrapy import signals
    from scrapy.crawler import CrawlerRunner
    from scrapy.utils.log import configure_logging
    from scrapy.utils.reactor import install_reactor

    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    from twisted.internet import defer, reactor

    proc, base = start_server()
    Bench = bench_spider(base, args.pages, True)
    configure_logging({"LOG_LEVEL": "ERROR"})
    runs: dict[str, list[float]] = {}
    spans: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        healthy = stack.enter_context(redis_server(tmp))
        port = int(healthy.rsplit(":", 1)[1].split("/")[0])
        slow = stack.enter_context(slow_proxy(port))
        hung = stack.enter_context(silent_server())
        stores = {"off": None, "healthy": str(healthy), "slow": f"redis://127.0.0.1:{slow}/0",
                  "hung": f"redis://127.0.0.1:{hung}/0"}

        @defer.inlineCallbacks
        def run_all():
            try:
                for _ in range(args.rounds):
                    for name, store in stores.items():
                        settings = {**crawl_settings(args.concurrency), "ADDONS": {"scrapy_whatwg_encoding.Addon": 0},
                                    "WHATWG_ENCODING_REMEMBER": store is not None,
                                    "WHATWG_ENCODING_REMEMBER_STORE": store}
                        runner = CrawlerRunner(settings)
                        crawler = runner.create_crawler(Bench)
                        received: list[float] = []
                        crawler.signals.connect(lambda received=received, **_: received.append(time.perf_counter()),
                                                signal=signals.response_received, weak=False)
                        start = time.perf_counter()
                        yield runner.crawl(crawler)
                        seconds = time.perf_counter() - start
                        spans.setdefault(name, []).append((args.pages - 1) / (received[-1] - received[0]))
                        stats = crawler.stats.get_stats()
                        assert stats.get("response_received_count") == args.pages, stats
                        runs.setdefault(name, []).append(args.pages / seconds)
                        errors = stats.get("whatwg_encoding/memory/store_errors", 0)
                        print(f"  {name:<8}{args.pages / seconds:>8.1f} pages/s (crawl){spans[name][-1]:>8.1f} "
                              f"(responses)  store errors {errors}", flush=True)
            finally:
                reactor.stop()

        reactor.callWhenRunning(run_all)
        reactor.run()
    proc.terminate()
    proc.wait()
    for title, table in (("whole crawl", runs), ("first to last response", spans)):
        off = statistics.median(table["off"])
        print(f"{title}: {'REMEMBER':<10}{'median pages/s':>16}{'min':>8}{'max':>8}{'vs off':>8}")
        for name, rates in table.items():
            median = statistics.median(rates)
            print(f"{'':<{len(title) + 2}}{name:<10}{median:>16.1f}{min(rates):>8.1f}{max(rates):>8.1f}"
                  f"{median / off:>8.2f}")


def store(args) -> None:
    from scrapy_whatwg_encoding.scrapy.memory import MAX_HOSTS
    from scrapy_whatwg_encoding.scrapy.memory.sqlite import _ADD, _CREATE, FILE_NAME, SQLiteStore

    print(f"{'hosts':>9}{'MiB':>8}{'start-up ms':>13}{'write ms':>10}   (JOBDIR SQLite store; write: 100 hosts)")
    for hosts in (1_000, 100_000, 1_000_000):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / FILE_NAME
            with sqlite3.connect(path) as db:
                db.execute(_CREATE)
                db.executemany(_ADD, ((f"host-{n}.example", "KOI8-R", 3) for n in range(hosts)))
            starts, writes = [], []
            for round_ in range(10):
                start = time.perf_counter()
                opened = SQLiteStore(path)
                opened.preload(MAX_HOSTS)
                starts.append(time.perf_counter() - start)
                batch = {f"host-{(round_ * 100 + n) * 997 % hosts}.example": {"KOI8-R": 1} for n in range(100)}
                start = time.perf_counter()
                opened.exchange([(str(round_), batch)], batch.keys())
                writes.append(time.perf_counter() - start)
                opened.close()
            size = path.stat().st_size / 2**20
            print(f"{hosts:>9}{size:>8.1f}{statistics.median(starts) * 1e3:>13.1f}"
                  f"{statistics.median(writes) * 1e3:>10.2f}")


def rss_curve(max_hosts: int) -> list[float]:
    """In this process: MB of RSS after every 20,000 of 200,000 decisions over 100,000 hosts."""
    from scrapy_whatwg_encoding import sniff
    from scrapy_whatwg_encoding.scrapy.memory import SiteMemory

    declared = sniff(b"<p>x", content_type="text/html; charset=koi8-r")
    memory = SiteMemory(None, max_hosts=max_hosts)
    page = os.sysconf("SC_PAGE_SIZE")
    curve = []
    for n in range(200_000):
        url = f"http://host-{n * 7919 % 100_000}.example/page"
        memory.learn(url, declared)
        memory.counts(url[7:].split("/")[0])
        if n % 20_000 == 19_999:
            with open("/proc/self/statm") as statm:
                curve.append(int(statm.read().split()[1]) * page / 1e6)
    return curve


def rss(args) -> None:
    from scrapy_whatwg_encoding.scrapy.memory import MAX_HOSTS

    for cap in (MAX_HOSTS, 10**9):
        out = subprocess.run([sys.executable, __file__, "--rss-child", str(cap)], capture_output=True, text=True,
                             check=True).stdout
        curve = [float(x) for x in out.split()]
        label = f"cap {cap}" if cap < 10**9 else "no cap"
        print(f"{label:<10} RSS MB every 20k decisions: " + " ".join(f"{x:.1f}" for x in curve)
              + f"  (last - 5th: {curve[-1] - curve[4]:+.1f} MB; per host over the first 100k: "
              f"{(curve[4] - curve[0]) * 1e6 / 80_000:.0f} B)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--part", choices=("crawl", "store", "rss"), action="append")
    parser.add_argument("--rss-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rss_child:
        print(" ".join(f"{x:.2f}" for x in rss_curve(args.rss_child)))
        return
    for part in args.part or ("store", "rss", "crawl"):
        print(f"== {part}", flush=True)
        {"crawl": crawl, "store": store, "rss": rss}[part](args)


if __name__ == "__main__":
    main()
