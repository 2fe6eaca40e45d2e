"""Site memory store latency: µs per store round trip and per decision in a crawl, for each store.

Usage: python tools/remember_store_latency.py [--redis URL] [--rounds N]

Without ``--redis`` a ``redis-server`` (from PATH) is started on a free port in a temporary
directory and stopped at the end; without one, only the JOBDIR (SQLite) store is measured.

1. Round trips, *N* times each, in the store's own terms (the memory makes them in its thread,
   never in the reactor's): ``learn`` (an exchange adding one declaration: ``HINCRBY`` / one
   upsert transaction), ``get`` (an exchange reading one host: ``HGETALL`` / a ``SELECT``), and
   ``likely`` (the whole rule on a KOI8-R corpus page with its declarations stripped, from the
   memory's view in RAM, which is what a page pays).
2. A real crawl of tests/data/corpus (212 pages from one local host, ``text/html`` without a
   charset) with ``WHATWG_ENCODING_REMEMBER`` on, per store: exchanges made and their time in the
   store's thread (stats ``store_calls``, ``store_us``), over the decisions made.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisURL(str):
    process: subprocess.Popen


@contextlib.contextmanager
def redis_server(directory: str | pathlib.Path, timeout: float = 20.0, *options: str, password: str | None = None):
    """A ``redis-server`` listening on 127.0.0.1 (a free port), with no persistence, in
    *directory*, with more command-line *options* and a *password* if given; yields its URL
    (``redis://127.0.0.1:PORT/0``, without the password); the process is ``url.process``. Raises ``FileNotFoundError`` if
    ``redis-server`` is not on PATH, ``RuntimeError`` if it does not answer within *timeout* s."""
    import redis

    executable = shutil.which("redis-server")
    if executable is None:
        raise FileNotFoundError("redis-server is not installed (apt-get install redis-server)")
    for _ in range(5):  # another process may take the free port first
        port = free_port()
        process = subprocess.Popen(
            [executable, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory),
             "--save", "", "--appendonly", "no", *options, *(["--requirepass", password] if password else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = RedisURL(f"redis://127.0.0.1:{port}/0")
        url.process = process
        client = redis.Redis.from_url(url, password=password)
        deadline = time.monotonic() + timeout
        try:
            while process.poll() is None and time.monotonic() < deadline:
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.05)
            else:
                if process.poll() is None:
                    raise RuntimeError(f"redis-server on port {port} did not answer in {timeout} s")
                continue  # it exited (port taken): try another port
            yield url
            return
        finally:
            client.close()
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
    raise RuntimeError("redis-server could not start")


def round_trips(store, rounds: int) -> dict[str, float]:
    """µs per ``learn`` and ``get`` exchange with *store* (a fresh host each run), and per
    ``likely`` from the memory's view."""
    from remember_accuracy import strip_declarations

    from scrapy_whatwg_encoding import sniff
    from scrapy_whatwg_encoding.scrapy.memory import MIN_DECLARATIONS, SiteMemory, host_of

    page = sorted((CORPUS / "files" / "KOI8-R").iterdir())[1]
    body = strip_declarations(page.read_bytes())
    url = f"http://latency-{time.monotonic_ns()}.example/page"
    host = host_of(url)
    times = {}
    start = time.perf_counter()
    for n in range(rounds):
        store.exchange([(f"{host}-{n}", {host: {"KOI8-R": 1}})], ())
    times["learn"] = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(rounds):
        store.exchange([], [host])
    times["get"] = time.perf_counter() - start
    memory = SiteMemory(None)
    memory.add(host, {"KOI8-R": MIN_DECLARATIONS})
    unlabeled = sniff(body, url=url)
    assert memory.likely(url, body, unlabeled) is not None
    start = time.perf_counter()
    for _ in range(rounds):
        memory.likely(url, body, unlabeled)
    times["likely"] = time.perf_counter() - start
    return {name: seconds / rounds * 1e6 for name, seconds in times.items()}


def crawl_costs(stores: dict[str, str | None], job_dir: str) -> dict[str, dict]:
    """A crawl of the corpus per store (``None``: JOBDIR file; a Redis URL): stats and wall time."""
    sys.path.insert(0, str(REPO / "example_project"))
    from demo.site_server import SiteMap, start_server
    from scrapy.crawler import CrawlerRunner
    from twisted.internet import defer, reactor

    sys.path.insert(0, str(REPO / "tests" / "scrapy"))
    from whatwg_crawl_helpers import BASE_SETTINGS, CollectSpider

    manifest = json.loads((CORPUS / "manifest.json").read_text("utf-8"))
    results: dict[str, dict] = {}

    @defer.inlineCallbacks
    def run():
        port, base = start_server(SiteMap.load(CORPUS, "none"))
        try:
            for name, store in stores.items():
                settings = {**BASE_SETTINGS, "LOG_LEVEL": "WARNING", "WHATWG_ENCODING_REMEMBER": name != "off",
                            "WHATWG_ENCODING_REMEMBER_STORE": store, "JOBDIR": f"{job_dir}/{name}"}
                runner = CrawlerRunner(settings)
                crawler = runner.create_crawler(CollectSpider)
                start = time.perf_counter()
                yield runner.crawl(crawler, requests=[base + e["path"] for e in manifest])
                stats = crawler.stats.get_stats()
                results[name] = {"seconds": time.perf_counter() - start,
                                 "decisions": stats.get("whatwg_encoding/responses", 0),
                                 "calls": stats.get("whatwg_encoding/memory/store_calls", 0),
                                 "us": stats.get("whatwg_encoding/memory/store_us", 0),
                                 "errors": stats.get("whatwg_encoding/memory/store_errors", 0)}
        finally:
            yield port.stopListening()
            reactor.stop()

    reactor.callWhenRunning(run)
    reactor.run()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", help="a Redis URL to use instead of starting redis-server")
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "tools"))
    from scrapy_whatwg_encoding.scrapy.memory.redis import RedisStore
    from scrapy_whatwg_encoding.scrapy.memory.sqlite import FILE_NAME, SQLiteStore

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        url = args.redis
        if url is None and shutil.which("redis-server"):
            url = stack.enter_context(redis_server(tmp))
        stores: dict = {"file": SQLiteStore(pathlib.Path(tmp) / FILE_NAME)}
        if url:
            stores["redis"] = RedisStore(url)
        else:
            print("no redis-server on PATH and no --redis: Redis not measured")
        print(f"round trips, µs per call ({args.rounds} calls each)")
        print(f"{'store':<8}{'learn':>10}{'get':>10}{'likely':>10}")
        for name, store in stores.items():
            times = round_trips(store, args.rounds)
            print(f"{name:<8}" + "".join(f"{times[key]:>10.1f}" for key in ("learn", "get", "likely")))
            store.close()
        crawls = {"off": None, "file": None, **({"redis": str(url)} if url else {})}
        print("crawl of tests/data/corpus (212 pages, one host), REMEMBER on: store time per decision "
              "(in the memory's thread)")
        print(f"{'store':<8}{'decisions':>10}{'calls':>8}{'mean µs/call':>14}"
              f"{'µs/decision':>13}{'crawl s':>9}{'errors':>8}")
        for name, result in crawl_costs(crawls, tmp).items():
            per_call = result["us"] / result["calls"] if result["calls"] else 0.0
            per_decision = result["us"] / result["decisions"] if result["decisions"] else 0.0
            print(f"{name:<8}{result['decisions']:>10}{result['calls']:>8}{per_call:>14.1f}"
                  f"{per_decision:>13.1f}{result['seconds']:>9.2f}{result['errors']:>8}")
        print("(µs/decision: all store time of the crawl over all decisions, spent in the memory's thread, "
              "not the reactor's: about one exchange a second)")


if __name__ == "__main__":
    main()
