"""Reactor-gap probe: how long does the loop Scrapy runs on wait for the site memory, under load?

Usage: python tools/remember_reactor_gap.py [--hosts 100000] [--busy 2] [--pages 20000]
           [--rate 5000] [--package-dir DIR ...] [--rounds 1]

A JOBDIR SQLite memory of ``--hosts`` hosts (``WHATWG_ENCODING_REMEMBER_MAX_HOSTS`` as large, so
that the start reads them all, within its time budget where the package has one) drives a simulated crawl on an asyncio loop of ``--pages`` pages,
``--rate`` per second at most, each a ``learn`` and a look-up of a host drawn from twice as many
hosts as the file holds, and 0.2 ms of CPU on the loop's thread (the crawl's own work: a busy
loop that competes with the store's thread for the GIL, as a real crawl does). ``--busy`` processes
spin on the other cores meanwhile. The memory is driven as Scrapy's signals drive it: ``open``, a
wait of at most ``START_SECONDS``, ``sync`` every ``SYNC_SECONDS``, and at the end the save, waited
for at most ``CLOSE_SECONDS``.

Printed per package (``--package-dir``: another copy of the package, e.g. an older commit's
``git archive COMMIT scrapy_whatwg_encoding | tar -x -C DIR``; default this checkout), rounds
interleaved:

A first row, *off*, is the same crawl without the memory: the gaps the machine's load makes alone.

- *memory ms max / p99*: the longest and the 99th percentile of the loop's turns spent in the
  memory's own calls (``sync`` and any slice it schedules), the simulated pages' ``learn`` and
  look-ups left out (each is µs), wall clock; *cpu max*: the most CPU time of the loop's thread
  in one of them (the wall clock adds the time the thread waited: for the GIL, or for a core,
  which the *off* row shows the machine's load takes alone);
- *turns >50 ms*: how many loop turns took longer than 50 ms (the probe: a callback that
  re-schedules itself, measuring the time between its runs; the crawl's own work is 2 ms a turn);
  *gap max*: the longest;
- *crawl s*: how long the crawl took (the loop's thread is busy: the memory's work slows it);
- *exchanges* and their mean time in the store's thread (``store_us``), the preload included;
- *saved*: whether the save at close ended within ``CLOSE_SECONDS``, and the declarations dropped.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGE_CPU = 0.0002  # seconds of the loop thread's CPU per simulated page
PAGES_PER_TURN = 10


def build(path: Path, hosts: int) -> None:
    """A site memory database of *hosts* hosts (one encoding each, one in ten with two)."""
    try:
        from scrapy_whatwg_encoding.scrapy.memory.sqlite import _ADD, _CREATE
    except ImportError:  # a package of 0.3 or before (--package-dir)
        from scrapy_whatwg_encoding.scrapy.memory_sqlite import _ADD, _CREATE  # type: ignore[no-redef]

    with sqlite3.connect(path) as db:
        db.execute(_CREATE)
        db.executemany(_ADD, ((f"host-{n}.example", "KOI8-R", 3) for n in range(hosts)))
        db.executemany(_ADD, ((f"host-{n}.example", "windows-1251", 1) for n in range(0, hosts, 10)))
    db.close()


class _Stats:
    def __init__(self):
        self.values: dict[str, int] = {}

    def inc_value(self, key, count=1, start=0):
        self.values[key] = self.values.get(key, start) + count


async def _child(db: str, hosts: int, pages: int, rate: float, off: bool = False) -> dict:
    from scrapy_whatwg_encoding import sniff
    from scrapy_whatwg_encoding.scrapy import memory as memory_module
    try:
        from scrapy_whatwg_encoding.scrapy.memory.sqlite import SQLiteStore
    except ImportError:  # a package of 0.3 or before (--package-dir)
        from scrapy_whatwg_encoding.scrapy.memory_sqlite import SQLiteStore  # type: ignore[no-redef]

    stats = _Stats()
    memory = memory_module.SiteMemory(SQLiteStore(db), stats, max_hosts=hosts)
    spent: list[float] = []  # seconds of each call of the memory's own on the loop's thread
    cpu: list[float] = []  # and the CPU seconds of that thread in it

    def timed(function):
        def call(*args, **kwargs):
            start, start_cpu = time.perf_counter(), time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent.append(time.perf_counter() - start)
                cpu.append(time.thread_time() - start_cpu)
        return call

    if off:  # the baseline: the same crawl without the memory
        memory = memory_module.SiteMemory(None, stats, max_hosts=hosts)
        memory.learn = memory.counts = lambda *args, **kwargs: None  # type: ignore[method-assign]
    for name in ("sync", "_intake"):  # _intake: the slices of a result (where the package has them)
        if hasattr(memory, name):
            setattr(memory, name, timed(getattr(memory, name)))
    if hasattr(memory, "_clock"):  # as spider_opened sets it (the exchanges are driven below)
        from scrapy_whatwg_encoding.scrapy.loop import clock

        memory._clock = clock()
    loop = asyncio.get_running_loop()
    gaps: list[float] = []
    running = True
    last = time.perf_counter()

    def probe():
        nonlocal last
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
        if running:
            loop.call_soon(probe)

    declared = sniff(b"<p>x", content_type="text/html; charset=koi8-r")
    rng = random.Random(1)

    async def crawl():
        start = time.perf_counter()
        done = 0
        while done < pages and time.perf_counter() - start < 600:
            due = min(int((time.perf_counter() - start) * rate) - done, PAGES_PER_TURN, pages - done)
            for _ in range(max(due, 0)):
                host = f"host-{rng.randrange(2 * hosts)}.example"
                memory.learn(f"http://{host}/page", declared)
                memory.counts(host)
                until = time.perf_counter() + PAGE_CPU
                while time.perf_counter() < until:
                    pass
            done += max(due, 0)
            await asyncio.sleep(0 if due > 0 else 0.001)
        return done

    async def syncing():
        while running:
            await asyncio.sleep(memory_module.SYNC_SECONDS)
            if running:
                memory.sync()

    loop.call_soon(probe)
    opened_at = time.perf_counter()
    future = timed(memory.open)()
    while future is not None and not future.done() and time.perf_counter() - opened_at < memory_module.START_SECONDS:
        await asyncio.sleep(0.01)
    memory.sync()
    syncer = asyncio.ensure_future(syncing())
    crawl_start = time.perf_counter()
    await crawl()
    crawl_seconds = time.perf_counter() - crawl_start
    running = False
    syncer.cancel()
    closed_at = time.perf_counter()
    final = timed(memory._close)()
    while final is not None and not final.done() and time.perf_counter() - closed_at < memory_module.CLOSE_SECONDS:
        await asyncio.sleep(0.01)
    saved = memory._closed(final)
    close_seconds = time.perf_counter() - closed_at
    await asyncio.sleep(0)
    gaps.sort()
    spent.sort()
    cpu.sort()
    values = stats.values
    calls = values.get("whatwg_encoding/memory/store_calls", 0)
    return {
        "seconds": crawl_seconds, "memory_max_ms": spent[-1] * 1e3 if spent else 0.0,
        "memory_p99_ms": spent[int(len(spent) * 0.99)] * 1e3 if spent else 0.0,
        "memory_calls": len(spent), "memory_cpu_max_ms": cpu[-1] * 1e3 if cpu else 0.0,
        "gap_max_ms": gaps[-1] * 1e3, "gaps_over_50ms": sum(g > 0.05 for g in gaps),
        "exchanges": calls, "store_ms_mean": values.get("whatwg_encoding/memory/store_us", 0) / 1e3 / max(calls, 1),
        "saved": saved, "close_s": close_seconds, "dropped": values.get("whatwg_encoding/memory/dropped", 0),
        "hosts_in_ram": len(memory.hosts),
    }


def child(args) -> None:
    result = asyncio.run(_child(args.child, args.hosts, args.pages, args.rate, args.off))
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=100_000)
    parser.add_argument("--busy", type=int, default=2, help="processes spinning beside the crawl")
    parser.add_argument("--pages", type=int, default=20_000, help="simulated pages per crawl")
    parser.add_argument("--rate", type=float, default=5000.0, help="simulated pages per second")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--package-dir", nargs="*", default=[], help="other copies of the package")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--off", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    packages = ["off", str(REPO)] + args.package_dir  # off: the crawl alone, this checkout's package
    results: dict[str, list[dict]] = {p: [] for p in packages}
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            template = Path(tmp, "template.sqlite3")
            build(template, args.hosts)
            for round_ in range(args.rounds):
                for package in packages:
                    db = Path(tmp, f"{round_}-{len(results[package])}-{Path(package).name}.sqlite3")
                    db.write_bytes(template.read_bytes())
                    env = {**os.environ, "PYTHONPATH": str(REPO) if package == "off" else package}
                    out = subprocess.run([sys.executable, __file__, "--child", str(db), "--hosts", str(args.hosts),
                                          "--pages", str(args.pages), "--rate", str(args.rate)]
                                         + (["--off"] if package == "off" else []),
                                         env=env, capture_output=True, text=True, check=True).stdout
                    results[package].append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for process in busy:
            process.kill()
            process.wait()
    print(f"{args.hosts} hosts, {args.busy} busy processes, {args.pages} pages at {args.rate:g} pages/s at most; "
          f"median of {args.rounds} (max across rounds in brackets)")
    print(f"{'package':<28}{'crawl s':>8}{'mem max ms':>12}{'p99':>6}{'cpu max':>8}{'>50ms':>7}{'gap max':>9}"
          f"{'exch':>6}{'store ms':>10}{'saved':>7}{'close s':>8}{'dropped':>9}")
    for package, rows in results.items():
        def med(key, rows=rows):
            return statistics.median(row[key] for row in rows)

        def most(key, rows=rows):
            return max(row[key] for row in rows)

        print(f"{Path(package).name[:27]:<28}{med('seconds'):>8.1f}{med('memory_max_ms'):>7.1f} [{most('memory_max_ms'):>4.0f}]"
              f"{med('memory_p99_ms'):>6.1f}{med('memory_cpu_max_ms'):>8.1f}{med('gaps_over_50ms'):>7.0f}"
              f"{med('gap_max_ms'):>9.0f}"
              f"{med('exchanges'):>6.0f}{med('store_ms_mean'):>10.0f}"
              f"{sum(r['saved'] for r in rows):>4}/{len(rows)}{med('close_s'):>8.2f}{med('dropped'):>9.0f}")


if __name__ == "__main__":
    main()
