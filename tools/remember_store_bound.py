"""Benchmark: the site memory's stores when they grow (issue 37, item 3).

Usage: python tools/remember_store_bound.py [--hosts 100000] [--max-hosts N] [--fields 200000]
                                            [--redis URL] [--package-dir DIR]

--package-dir DIR measures the package found in DIR instead (e.g. an older commit unpacked with
``git archive <commit> scrapy_whatwg_encoding | tar -x -C DIR``), for a before/after table.

Printed:

- *sqlite*: ``--hosts`` hosts (one declaration each) written into a JOBDIR database in the
  memory's batches (2,000 hosts each, as one exchange writes them): the hosts and rows it keeps
  and the file's size (after the last connection closed, so without ``-wal``), and the mean time
  of a batch's write (CPU-bound: compare runs of one machine), with the store's
  default bound (``WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS``) where the package has one, or
  ``--max-hosts``.
- *redis*: the preload (the read at the crawl's start) of a store holding one host whose hash has
  ``--fields`` fields, against the preload of a store holding one ordinary host (the ratio is the
  cost of the large hash). Needs ``redis-server`` (one is started here) or ``--redis URL``.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

BATCH = 2000


def _stores():
    """The package's SQLite and Redis store classes, in its layout (0.3: ``memory_sqlite``)."""
    try:
        from scrapy_whatwg_encoding.scrapy.memory.redis import RedisStore
        from scrapy_whatwg_encoding.scrapy.memory.sqlite import FILE_NAME, SQLiteStore
    except ImportError:
        from scrapy_whatwg_encoding.scrapy.memory_redis import RedisStore
        from scrapy_whatwg_encoding.scrapy.memory_sqlite import FILE_NAME, SQLiteStore
    return SQLiteStore, RedisStore, FILE_NAME


def sqlite_growth(hosts: int, max_hosts: int | None) -> dict:
    SQLiteStore, _, file_name = _stores()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / file_name
        if max_hosts is None:
            store = SQLiteStore(path)
        else:
            from scrapy_whatwg_encoding.scrapy.memory.store import StoreOptions

            store = SQLiteStore(path, StoreOptions(max_hosts=max_hosts))
        seconds = 0.0
        for start in range(0, hosts, BATCH):
            batch = {f"h{n}.example": {"KOI8-R": 1} for n in range(start, min(start + BATCH, hosts))}
            began = time.perf_counter()
            store.exchange([(str(start), batch)], ())
            seconds += time.perf_counter() - began
        store.close()
        db = sqlite3.connect(path)
        (rows, kept), = db.execute("SELECT count(*), count(DISTINCT host) FROM counts").fetchall()
        db.close()
        return {"written": hosts, "hosts kept": kept, "rows": rows, "MB": round(os.path.getsize(path) / 1e6, 2),
                "ms per batch": round(seconds * 1000 / -(-hosts // BATCH), 1)}


def redis_preload(url: str, fields: int) -> dict:
    import redis

    _, RedisStore, _ = _stores()
    client = redis.Redis.from_url(url)
    seconds = {}
    for name, size in (("one host", 1), ("large hash", fields)):
        client.flushdb()
        with client.pipeline(transaction=False) as pipe:
            for start in range(0, size, 10_000):
                pipe.hset("whatwg_encoding:memory:big.example",
                          mapping={f"f{n}": 1 for n in range(start, min(start + 10_000, size))})
            pipe.execute()
        if size == 1:
            client.delete("whatwg_encoding:memory:big.example")
            client.hset("whatwg_encoding:memory:big.example", "KOI8-R", 3)
        store = RedisStore(url)
        start = time.perf_counter()
        store.preload(20_000)
        seconds[name] = time.perf_counter() - start
        store.close()
    client.flushdb()
    client.close()
    return {"one host s": round(seconds["one host"], 4), f"{fields}-field hash s": round(seconds["large hash"], 4),
            "ratio": round(seconds["large hash"] / seconds["one host"], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hosts", type=int, default=100_000)
    parser.add_argument("--max-hosts", type=int, help="the SQLite store's bound (default: the package's)")
    parser.add_argument("--fields", type=int, default=200_000)
    parser.add_argument("--redis", help="a Redis URL (its database is emptied); default: a redis-server started here")
    parser.add_argument("--package-dir", help="measure the package in this directory")
    args = parser.parse_args()
    if args.package_dir:
        sys.path.insert(0, args.package_dir)
    import scrapy_whatwg_encoding

    print(f"package: {Path(scrapy_whatwg_encoding.__file__).parent}")
    print("sqlite:", sqlite_growth(args.hosts, args.max_hosts))
    with contextlib.ExitStack() as stack:
        url = args.redis
        if url is None:
            from remember_store_latency import redis_server

            url = stack.enter_context(redis_server(stack.enter_context(tempfile.TemporaryDirectory())))
        print("redis:", redis_preload(str(url), args.fields))


if __name__ == "__main__":
    main()
