"""Several processes open one new JOBDIR site memory database at the same instant, round after round.

Usage: python tools/remember_sqlite_race.py [--processes 2 4] [--rounds 20]

For each number of processes, that many worker processes are started once (``spawn``); in each
round they wait at a barrier, then each opens a fresh database file shared by all of them (a new
``SQLiteStore``: the first statements, the WAL switch, the table's creation, all at once), adds one
batch of declarations, reads them back, and closes it. A round fails if any process raised or the
file does not hold every batch. Prints the failures and the time per round; exit status: the
number of failed rounds. tests/scrapy/test_scrapy_memory.py runs it with 20 rounds of 2 and 4.
"""
from __future__ import annotations

import argparse
import multiprocessing
import sqlite3
import sys
import tempfile
import time
import traceback
from pathlib import Path


def _worker(name: str, directory: str, rounds: int, barrier, results) -> None:
    from scrapy_whatwg_encoding.scrapy.memory.sqlite import FILE_NAME, SQLiteStore

    for round_ in range(rounds):
        barrier.wait()
        try:
            store = SQLiteStore(Path(directory, str(round_), FILE_NAME))
            try:
                found = store.exchange([(f"{name}-{round_}", {"shared": {"KOI8-R": 1}, name: {"GBK": 2}})],
                                       ["shared", name])
            finally:
                store.close()
            assert found[name] == {"GBK": 2} and found["shared"]["KOI8-R"] >= 1, found
            results.put((round_, name, None))
        except Exception:  # noqa: BLE001 — reported by the parent
            results.put((round_, name, traceback.format_exc()))


def race(processes: int, rounds: int, directory: str | Path) -> list[str]:
    """Run *rounds* rounds of *processes* processes opening one database together, under
    *directory*; the failures (one message each)."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(processes), context.Queue()
    names = [f"p{n}" for n in range(processes)]
    workers = [context.Process(target=_worker, args=(name, str(directory), rounds, barrier, results))
               for name in names]
    for worker in workers:
        worker.start()
    failures = []
    outcomes = [results.get(timeout=120) for _ in range(processes * rounds)]
    for worker in workers:
        worker.join(30)
    failures = [f"round {round_}, {name}:\n{error}" for round_, name, error in outcomes if error]
    for round_ in range(rounds):
        db = sqlite3.connect(Path(directory, str(round_), "whatwg_encoding_memory.sqlite3"))
        try:
            rows = sorted(db.execute("SELECT host, encoding, declarations FROM counts"))
        finally:
            db.close()
        expected = sorted([("shared", "KOI8-R", processes)] + [(name, "GBK", 2) for name in names])
        if rows != expected:
            failures.append(f"round {round_}: the database holds {rows}, not {expected}")
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args(argv)
    failed = 0
    for processes in args.processes:
        with tempfile.TemporaryDirectory() as directory:
            start = time.perf_counter()
            failures = race(processes, args.rounds, directory)
            seconds = time.perf_counter() - start
        print(f"{processes} processes × {args.rounds} rounds: {len(failures)} failures, "
              f"{seconds:.1f} s ({seconds / args.rounds * 1000:.0f} ms per round, start-up included)")
        for failure in failures:
            print("   ", failure.replace("\n", "\n    "))
        failed += len(failures)
    return failed


if __name__ == "__main__":
    sys.exit(main())
