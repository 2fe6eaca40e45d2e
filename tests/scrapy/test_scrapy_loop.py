"""The add-on's timers and thread hand-offs (scrapy_whatwg_encoding.scrapy.loop) on both loops, and
real crawls in Scrapy's reactorless mode (TWISTED_REACTOR_ENABLED = False): no reactor imported,
no ERROR line, the site memory saved in JOBDIR (issue 29, item 6)."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from contextlib import ExitStack
from pathlib import Path

import pytest
import pytest_twisted
from whatwg_crawl_helpers import BUNDLED_SITE, memory_rows, serve_in_process

from scrapy_whatwg_encoding.scrapy.loop import AsyncioClock, TwistedClock
from scrapy_whatwg_encoding.scrapy.memory.sqlite import FILE_NAME

HERE = Path(__file__).resolve().parent


def _later(future: Future, seconds: float, value=1) -> None:
    """Complete *future* from another thread after *seconds*."""
    threading.Timer(seconds, future.set_result, [value]).start()


async def _exercise(clock) -> dict:
    """What the memory and the stats flusher ask of a clock, measured."""
    calls: list[float] = []
    start = time.monotonic()
    looping = clock.looping(lambda: calls.append(time.monotonic() - start), 0.05)
    assert looping.running
    slow, quick, done = Future(), Future(), Future()
    done.set_result(None)
    _later(quick, 0.05)
    found = {"done": await clock.wait(done, 5), "quick": await clock.wait(quick, 5)}
    quick_at = time.monotonic() - start
    found["slow"] = await clock.wait(slow, 0.2)  # never completed: the timeout ends the wait
    slow_at = time.monotonic() - start
    looping.stop()
    assert not looping.running
    count = len(calls)
    handed: list[str] = []
    thread = threading.Thread(target=clock.call_from_thread, args=(handed.append, threading.current_thread().name))
    thread.start()
    thread.join()
    waited = Future()
    _later(waited, 0.01)
    await clock.wait(waited, 5)
    await clock.wait(Future(), 0.1)  # a turn or more: the hand-off ran, the stopped call did not
    found.update(quick_at=quick_at, slow_at=slow_at, calls=calls, after_stop=len(calls) - count,
                 handed=handed, thread=threading.current_thread().name)
    return found


def _check(found: dict) -> None:
    assert found["done"] and found["quick"] and not found["slow"]
    assert found["quick_at"] < 3 and 0.2 <= found["slow_at"] - found["quick_at"] < 3
    assert found["calls"] and found["calls"][0] >= 0.05 and found["after_stop"] == 0
    assert found["handed"] == [found["thread"]]


def test_asyncio_clock():
    """The clock of Scrapy 2.14+ (asyncio loop, with or without a reactor), under asyncio.run."""
    async def main():
        return await _exercise(AsyncioClock(asyncio.get_running_loop()))

    _check(asyncio.run(main()))


def test_asyncio_clock_after_the_loop_closed():
    """A store that answers after the crawl's loop closed: the hand-off does nothing (no error)."""
    loop = asyncio.new_event_loop()
    clock = AsyncioClock(loop)
    loop.close()
    clock.call_from_thread(print, "never")


@pytest_twisted.ensureDeferred
async def test_twisted_clock():
    """The clock of Scrapy 2.11-2.13 (and of a non-asyncio reactor): pytest-twisted's reactor."""
    _check(await _exercise(TwistedClock()))


def _failing_looping(clock) -> list[int]:
    calls: list[int] = []

    def fail():
        calls.append(1)
        raise ValueError("flush failed")

    return calls, clock.looping(fail, 0.01)


def test_asyncio_clock_stops_a_failing_call(caplog):
    async def main():
        calls, looping = _failing_looping(AsyncioClock(asyncio.get_running_loop()))
        await asyncio.sleep(0.2)
        return calls, looping.running

    assert asyncio.run(main()) == ([1], False)
    assert [r.levelname for r in caplog.records] == ["ERROR"] and "flush failed" in caplog.text


@pytest_twisted.ensureDeferred
async def test_twisted_clock_stops_a_failing_call(caplog):
    clock = TwistedClock()
    calls, looping = _failing_looping(clock)
    await clock.wait(Future(), 0.2)
    assert (calls, looping.running) == ([1], False)
    assert [r.levelname for r in caplog.records] == ["ERROR"] and "flush failed" in caplog.text


# Scrapy's reactorless mode (2.15+): deselected on an older Scrapy, the floor's (tests/conftest.py)
needs_reactorless = pytest.mark.scrapy_setting("TWISTED_REACTOR_ENABLED")


def _reactorless(mode: str, tmp_path) -> tuple[dict, dict, str]:
    pytest.importorskip("aiohttp", reason="Scrapy's reactorless mode downloads with aiohttp (pip install -e '.[test]')")
    job_dir, out = tmp_path / "job", tmp_path / "out.json"
    with ExitStack() as stack:
        base = serve_in_process(BUNDLED_SITE, stack)
        run = subprocess.run([sys.executable, str(HERE / "reactorless_crawl.py"), mode, base, str(job_dir), str(out)],
                             check=False, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    errors = [line for line in run.stderr.splitlines() if "ERROR" in line or "Traceback" in line]
    assert errors == [], run.stderr[-3000:]
    return json.loads(out.read_text("utf-8")), memory_rows(job_dir / FILE_NAME), base


def _declared(crawls: list[dict]) -> dict[str, int]:
    total: dict[str, int] = {}
    for crawl in crawls:
        assert crawl["finish_reason"] == "finished" and crawl["errors"] == 0
        assert crawl["stats"]["whatwg_encoding/responses"] > 20
        for name, count in crawl["declared"].items():
            total[name] = total.get(name, 0) + count
    return total


@needs_reactorless
def test_async_crawler_process_without_reactor(tmp_path):
    """AsyncCrawlerProcess (which forbids importing the reactor): the stats flusher and the memory's
    exchanges run on asyncio, every declaration is saved at close."""
    result, rows, base = _reactorless("process", tmp_path)
    assert result["reactor"] is False
    declared = _declared(result["crawls"])
    assert len(declared) >= 5
    assert rows == {base.split("/")[2]: declared}


@needs_reactorless
def test_async_crawler_runner_crawls_twice_without_reactor(tmp_path):
    """AsyncCrawlerRunner, two crawls in one process (the second is refused if the first installed
    a reactor): both finish, and the memory holds both crawls' declarations."""
    result, rows, base = _reactorless("runner", tmp_path)
    assert result["reactor"] is False and len(result["crawls"]) == 2
    declared = _declared(result["crawls"])
    assert result["crawls"][0]["declared"] == result["crawls"][1]["declared"]
    assert rows == {base.split("/")[2]: declared}
