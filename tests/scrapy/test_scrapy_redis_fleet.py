"""Issue 12: two crawler processes, workers of one real scrapy-redis queue (its scheduler and
dupefilter on a redis-server started here), with the add-on and ``WHATWG_ENCODING_REMEMBER_STORE``
on the same server (the queue in database 1, the site memory in database 0).

The site: three hosts of consistent legacy sites (tools/remember_accuracy.py: KOI8-R, ISO-8859-7,
ISO-8859-2; half of their pages labeled, half stripped of every declaration), each on its own
server, and a fourth host of labeled hub pages in those encodings whose links carry a non-ASCII
query. Only the hubs are start URLs; every page is reached through ``response.follow`` on a decided
hub, a request that goes through Redis and that either worker may crawl. Round 1: two hubs per
encoding (the same links twice: the shared dupefilter keeps one) lead to the labeled pages; when
every one is crawled, round 2: two hubs per encoding lead to the stripped pages, which the detector
alone reads as KOI8-U, windows-1253 and (three of five) windows-1250.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

import pytest

pytest.importorskip("scrapy_redis", reason="scrapy-redis is missing (pip install -e '.[test]')")
from redis_fleet_worker import CRAWLED_KEY, DONE_KEY, READY_KEY, START_KEY
from whatwg_crawl_helpers import REPO, browser_query, load_manifest, serve_in_process

from scrapy_whatwg_encoding import get_encoding, sniff
from scrapy_whatwg_encoding.scrapy.memory import MIN_DECLARATIONS, host_of
from scrapy_whatwg_encoding.scrapy.memory.redis import REDIS_PREFIX
from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name

sys.path.insert(0, str(REPO / "tools"))
from remember_accuracy import consistent_sites, write_site

WORKER = Path(__file__).with_name("redis_fleet_worker.py")
WORKERS = ("A", "B")
#: WHATWG name -> (Python's codec, the links' query text: every character but ☃ is in the encoding,
#: a sentence for the hubs).
HOSTS = {
    "KOI8-R": ("koi8_r", "Москва ☃", "Список страниц этого сайта, который пишет по-русски."),
    "ISO-8859-7": ("iso8859_7", "Αθήνα ☃", "Κατάλογος των σελίδων αυτού του ιστότοπου στα ελληνικά."),
    "ISO-8859-2": ("iso8859_2", "Łódź ☃", "Spis stron tej witryny, która pisze po polsku: zażółć gęślą jaźń."),
}
WAIT_SECONDS = 240  # (a guard against a hung fleet, not a timing assertion)


def hub(name: str, urls: list[str]) -> bytes:
    codec, text, sentence = HOSTS[name]
    links = "".join(f'<li><a class=page href="{url}?q={text}">{url}</a>' for url in urls)
    html = f'<!DOCTYPE html><meta charset="{name}"><title>{sentence}</title><p>{sentence}</p><ul>{links}</ul>'
    return html.encode(codec, "xmlcharrefreplace")


def wait_for(done, what: str, workers: dict, logs: dict) -> None:
    """Poll *done* until it is true; fail if a worker exits or WAIT_SECONDS pass."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not done():
        for worker, process in workers.items():
            if process.poll() is not None:
                pytest.fail(f"worker {worker} exited ({process.returncode}) waiting for {what}:\n"
                            + logs[worker].read_text("utf-8")[-3000:])
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} after {WAIT_SECONDS} s")
        time.sleep(0.1)


def test_two_workers_of_one_scrapy_redis_queue(redis_url, tmp_path):
    """Every page is crawled exactly once across the two workers, both crawl pages, with the
    browser's URL (the query percent-encoded in the hub's encoding), no error; every page is
    decided with its host's encoding, the stripped ones that the detector alone gets wrong with
    the remembered one (source "likely") — but for those decided before the counts reached the
    worker's view (it never waits for Redis: fewer than the likely ones) — some of them by a worker on a host whose declarations
    the other worker counted too; the store holds every declaration of both."""
    import redis

    sites = consistent_sites(load_manifest())
    truth, bodies = {}, {}  # URL -> its host's encoding, its body
    start: tuple[list[str], list[str]] = ([], [])  # round -> the hubs' URLs (the start URLs)
    expected: tuple[set[str], set[str]] = (set(), set())  # round -> every URL crawled in it
    links: dict[tuple[str, int], list[str]] = {}  # (host's encoding, round) -> its pages' URLs
    with ExitStack() as stack:
        for name, (codec, text, _) in HOSTS.items():
            write_site(sites[name], tmp_path / name)
            base = serve_in_process(tmp_path / name, stack)
            for path, body, content_type, _ in sites[name]:
                n = 0 if "charset" in content_type else 1  # round 1: the labeled pages
                links.setdefault((name, n), []).append(base + path)
                url = f"{base}{path}?q={browser_query(text, codec)}"
                truth[url], bodies[url] = name, body
                expected[n].add(url)
        labeled = set(expected[0])
        hubs = {(n, f"{name}-{n + 1}{copy}.html"): (name, hub(name, urls))
                for (name, n), urls in links.items() for copy in "ab"}
        write_site([(path, body, f"text/html; charset={name}", name) for (_, path), (name, body) in hubs.items()],
                   tmp_path / "hubs")
        hub_base = serve_in_process(tmp_path / "hubs", stack)
        for (n, path), (name, body) in hubs.items():
            start[n].append(hub_base + path)
            truth[hub_base + path], bodies[hub_base + path] = name, body
            expected[n].add(hub_base + path)

        started = time.monotonic()
        queue_url = redis_url.rsplit("/", 1)[0] + "/1"
        queue = redis.Redis.from_url(queue_url)
        stack.callback(queue.close)
        logs = {worker: tmp_path / f"worker-{worker}.log" for worker in WORKERS}
        workers = {}
        for worker in WORKERS:
            log = stack.enter_context(logs[worker].open("w", encoding="utf-8"))
            workers[worker] = subprocess.Popen(
                [sys.executable, str(WORKER), worker, queue_url, redis_url, str(tmp_path / f"worker-{worker}.json")],
                cwd=WORKER.parent, stdout=log, stderr=subprocess.STDOUT)
            stack.callback(lambda process=workers[worker]: process.poll() is None and process.kill())
        wait_for(lambda: all(queue.exists(READY_KEY % w) for w in WORKERS), "workers polling", workers, logs)
        for n in (0, 1):  # round 2 starts when every page of round 1 is crawled (its declaration counted)
            queue.rpush(START_KEY, *[json.dumps({"url": url}) for url in start[n]])
            paths = {url.partition("?")[0] for url in expected[n]}  # (the URLs themselves are checked below)
            wait_for(lambda paths=paths: paths <= {url.decode().partition("?")[0]
                                                   for url in queue.lrange(CRAWLED_KEY, 0, -1)},
                     f"round {n + 1} crawled", workers, logs)
        queue.set(DONE_KEY, 1)
        for worker, process in workers.items():
            assert process.wait(timeout=WAIT_SECONDS) == 0, logs[worker].read_text("utf-8")[-3000:]
        seconds = time.monotonic() - started

    for worker in WORKERS:
        log = logs[worker].read_text("utf-8")
        for bad in (" ERROR: ", "LookupError", "Traceback"):
            assert bad not in log, f"{bad!r} in worker {worker}'s log:\n{log[-3000:]}"
    outputs = {worker: json.loads((tmp_path / f"worker-{worker}.json").read_text("utf-8")) for worker in WORKERS}
    crawled = [(worker, response) for worker in WORKERS for response in outputs[worker]["responses"]]
    assert not [url for url, count in Counter(r["url"] for _, r in crawled).items() if count > 1]
    assert sum(outputs[worker]["requests"] for worker in WORKERS) == len(truth)  # (no retry either)
    assert sorted(r["url"] for _, r in crawled) == sorted(truth)  # the browser's URLs, and only those
    assert all(outputs[worker]["responses"] for worker in WORKERS), "one worker crawled nothing"

    declarations = Counter((host_of(r["url"]), worker) for worker, r in crawled if r["url"] in labeled)
    across, needed = [], []  # likely decisions on a host the other worker declared for; without it, none
    late = []  # decided before the worker's view of the host had the counts (it never waits for Redis)
    for worker, response in crawled:
        url, decision = response["url"], response["decision"]
        # What went through Redis: a start URL's default, or the hub's Python codec name (follow()
        # gives its request response.encoding, the name Scrapy alone reports: koi8-r, not whatwg-koi8-r).
        hub_encoding = "utf-8" if url.startswith(hub_base) else scrapy_codec_name(get_encoding(truth[url]))
        assert response["request_encoding"] == hub_encoding, url
        if url in labeled or url.startswith(hub_base):
            assert decision["source"] == "transport", url
            assert decision["encoding"] == truth[url], url
            continue
        alone = sniff(bodies[url], content_type="text/html", url=url)
        if decision["source"] == "detector" and alone.encoding.name != truth[url]:
            assert decision["encoding"] == alone.encoding.name, url
            late.append(url)
            continue
        assert decision["encoding"] == truth[url], url
        if alone.encoding.name != truth[url]:
            assert decision["source"] == "likely", url
        other = next(w for w in WORKERS if w != worker)
        if decision["source"] == "likely" and declarations[host_of(url), other]:
            across.append(url)
            if declarations[host_of(url), worker] < MIN_DECLARATIONS:
                needed.append(url)
    assert across, "no page was decided with declarations the other worker counted"
    assert len(late) < len(across), late

    # The memory holds every declaration of both workers (the hub host's three encodings too).
    memory = redis.Redis.from_url(redis_url)
    hosts: dict[str, Counter] = {}
    for url in labeled | {hub_base + path for _, path in hubs}:
        hosts.setdefault(host_of(url), Counter())[truth[url].encode()] += 1
    for host, counts in hosts.items():
        assert memory.hgetall(REDIS_PREFIX + host) == {name: str(count).encode() for name, count in counts.items()}
    memory.close()

    sources = {worker: dict(Counter(r["decision"]["source"] for r in outputs[worker]["responses"]))
               for worker in WORKERS}
    per_round = {worker: [sum(r["url"] in urls for r in outputs[worker]["responses"]) for urls in expected]
                 for worker in WORKERS}
    print(f"\nfleet: {len(truth)} pages in {seconds:.1f} s; pages per worker and round {per_round}; decisions by "
          f"source {sources}; likely on a host the other worker declared for: {len(across)}, "
          f"of which the worker alone had too few declarations: {len(needed)}; decided before the counts "
          f"reached the worker: {len(late)}")
