"""Timers and thread hand-offs on the loop Scrapy runs on, without ever installing a reactor.

Scrapy 2.14+ runs its components on an asyncio loop wherever asyncio is available
(``scrapy.utils.asyncio.is_asyncio_available()``): under the asyncio reactor, and in its
reactorless mode (``TWISTED_REACTOR_ENABLED = False``, Scrapy 2.15+), where importing
``twisted.internet.reactor`` would install one (``AsyncCrawlerProcess`` forbids the import, and
``AsyncCrawlerRunner`` then refuses a second crawl). There :func:`clock` is an
:class:`AsyncioClock`. Older Scrapy (2.11-2.13) always has a reactor, and a non-asyncio reactor
cannot run asyncio code: there it is a :class:`TwistedClock`. Both give the same four things:

- :meth:`~AsyncioClock.looping`: call a function every *seconds* (the first call after *seconds*),
  until ``stop()``;
- :meth:`~AsyncioClock.call_soon`: run a function in a later turn of the loop;
- :meth:`~AsyncioClock.call_from_thread`: run a function in the loop's thread, from any thread
  (nothing happens once the loop is closed: nobody waits any more);
- :meth:`~AsyncioClock.wait`: await a :class:`concurrent.futures.Future` done in another thread,
  at most *seconds*; the loop never blocks.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

logger = logging.getLogger(__name__)


class Looping(Protocol):
    """A started periodic call (Twisted's ``LoopingCall``, Scrapy's ``AsyncioLoopingCall``)."""

    @property
    def running(self) -> bool: ...

    def stop(self) -> None: ...


def asyncio_available() -> bool:
    """Whether Scrapy runs its components on an asyncio loop (Scrapy 2.14+'s
    ``is_asyncio_available()``); ``False`` on older Scrapy, whose reactor always exists. Call it
    in the loop's thread, once a crawler was made."""
    try:
        from scrapy.utils.asyncio import is_asyncio_available
    except ImportError:  # Scrapy < 2.14
        return False
    return is_asyncio_available()


def clock() -> AsyncioClock | TwistedClock:
    """The clock of the loop Scrapy runs on (see the module docstring); call it in that loop's
    thread (a signal handler, a middleware's method)."""
    if asyncio_available():
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the asyncio reactor's loop, not running yet
            loop = asyncio.get_event_loop()
        return AsyncioClock(loop)
    return TwistedClock()


class AsyncioClock:
    """The clock of the asyncio event loop *loop*."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop

    def looping(self, function: Callable[[], object], seconds: float) -> Looping:
        """Call *function* every *seconds* in the loop, the first time after *seconds*; an
        exception stops the calls (logged)."""
        return _AsyncioLooping(self.loop, function, seconds)

    def call_soon(self, function: Callable[[], object]) -> None:
        """Run *function* in a later turn of the loop (call it in the loop's thread)."""
        self.loop.call_soon(function)

    def call_from_thread(self, function: Callable[..., object], *args: Any) -> None:
        """Run ``function(*args)`` in the loop's thread, soon; nothing once the loop is closed."""
        try:
            self.loop.call_soon_threadsafe(function, *args)
        except RuntimeError:  # the loop is closed
            pass

    async def wait(self, future: Future, seconds: float) -> bool:
        """Wait until *future* is done or *seconds* have passed; whether it is done."""
        if not future.done():
            waiter = self.loop.create_future()

            def fire() -> None:
                if not waiter.done():
                    waiter.set_result(None)

            timer = self.loop.call_later(seconds, fire)
            future.add_done_callback(lambda _: self.call_from_thread(fire))
            try:
                await waiter
            finally:
                timer.cancel()
        return future.done()


class _AsyncioLooping:
    """A periodic call on an asyncio loop (what Scrapy 2.14+'s ``AsyncioLoopingCall`` does, without
    needing it); the next call is scheduled before the function runs."""

    def __init__(self, loop: asyncio.AbstractEventLoop, function: Callable[[], object], seconds: float):
        self._loop, self._function, self._seconds = loop, function, seconds
        self._handle: asyncio.TimerHandle | None = loop.call_later(seconds, self._call)

    @property
    def running(self) -> bool:
        return self._handle is not None

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _call(self) -> None:
        self._handle = self._loop.call_later(self._seconds, self._call)
        try:
            self._function()
        except Exception:
            logger.exception("%r failed; it is not called again", self._function)
            self.stop()


class TwistedClock:
    """The clock of the installed Twisted reactor (Scrapy 2.11-2.13, or a non-asyncio reactor)."""

    def __init__(self, reactor: Any = None):
        if reactor is None:
            from twisted.internet import reactor  # only made where a reactor is installed
        self.reactor = reactor

    def looping(self, function: Callable[[], object], seconds: float) -> Looping:
        """Call *function* every *seconds* in the reactor, the first time after *seconds*; an
        exception stops the calls (logged)."""
        from twisted.internet.task import LoopingCall

        call = LoopingCall(function)
        call.clock = self.reactor

        def failed(failure: Any) -> None:
            logger.error("%r failed; it is not called again", function,
                         exc_info=(failure.type, failure.value, failure.getTracebackObject()))

        call.start(seconds, now=False).addErrback(failed)
        return call

    def call_soon(self, function: Callable[[], object]) -> None:
        """Run *function* in a later turn of the reactor (call it in the reactor's thread)."""
        self.reactor.callLater(0, function)

    def call_from_thread(self, function: Callable[..., object], *args: Any) -> None:
        """Run ``function(*args)`` in the reactor's thread, soon."""
        self.reactor.callFromThread(function, *args)

    async def wait(self, future: Future, seconds: float) -> bool:
        """Wait until *future* is done or *seconds* have passed; whether it is done. Awaitable from
        a Scrapy coroutine on any reactor (a ``Deferred``, or its asyncio future under the asyncio
        reactor)."""
        from scrapy.utils.defer import maybe_deferred_to_future
        from twisted.internet.defer import Deferred

        if not future.done():
            fired: Deferred = Deferred()

            def fire() -> None:
                if timer.active():
                    timer.cancel()
                if not fired.called:
                    fired.callback(None)

            timer = self.reactor.callLater(seconds, fire)
            future.add_done_callback(lambda _: self.call_from_thread(fire))
            await maybe_deferred_to_future(fired)
        return future.done()
