"""The site memory's store calls, away from the loop Scrapy runs on: one daemon thread per memory
runs them in order (a thread, so that it works on every Twisted reactor, without one, and with the
blocking ``redis`` and ``sqlite3`` clients; a daemon, so that a store that never answers cannot keep
the process alive), and a circuit breaker leaves a failing store alone for a while. The loop learns
of a result through :mod:`..loop` (``wait``) or by looking at the future (``SiteMemory.sync``)."""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future

#: Failures in a row after which the store is left alone, for this many seconds (doubled at each
#: further failure, up to BREAKER_MOST_SECONDS).
BREAKER_FAILURES = 3
BREAKER_SECONDS = 30.0
BREAKER_MOST_SECONDS = 300.0


class Worker:
    """A daemon thread that runs the calls given to :meth:`submit` one after the other."""

    def __init__(self, name: str = "whatwg-encoding-memory"):
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._run, name=name, daemon=True).start()

    def submit(self, function: Callable, *args) -> Future:
        """Run ``function(*args)`` in the thread, after the calls submitted before; its future."""
        future: Future = Future()
        self._calls.put((future, function, args))
        return future

    def stop(self) -> None:
        """End the thread once the calls submitted so far are done."""
        self._calls.put(None)

    def _run(self) -> None:
        while (call := self._calls.get()) is not None:
            future, function, args = call
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(function(*args))
                except BaseException as exc:  # noqa: BLE001 — handed to whoever waits
                    future.set_exception(exc)


class Breaker:
    """Counts failures in a row; after *failures* of them, :meth:`allows` is false for *seconds*
    (doubled after each failure while open, up to *most*); a success closes it."""

    def __init__(self, failures: int = BREAKER_FAILURES, seconds: float = BREAKER_SECONDS,
                 most: float = BREAKER_MOST_SECONDS):
        self.failures, self.seconds, self.most = failures, seconds, most
        self.in_a_row = 0
        self.until = 0.0
        self._pause = seconds

    def allows(self) -> bool:
        return time.monotonic() >= self.until

    def failed(self) -> bool:
        """Count a failure; ``True`` if the store is now left alone."""
        self.in_a_row += 1
        if self.in_a_row < self.failures:
            return False
        self.until = time.monotonic() + self._pause
        self._pause = min(self._pause * 2, self.most)
        return True

    def succeeded(self) -> None:
        self.in_a_row, self.until, self._pause = 0, 0.0, self.seconds

