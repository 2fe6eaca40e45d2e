"""``WHATWG_ENCODING_REMEMBER``: site memory, a per-host *likely encoding* (HTML sniffing step 7)
offered only where it cannot make a page worse than the detector alone.

The rule (also in docs/settings.rst):

1. *What is remembered.* A host is remembered once it has declared one encoding on at least
   :data:`MIN_DECLARATIONS` pages and never declared another; a host that declared two encodings
   (UTF-8 included) is never remembered. A declaration is a decision from a BOM, the transport
   layer, the prescan, an XML declaration or the parser step whose label the content does not
   contradict; UTF-16BE/LE and replacement say nothing about unlabeled pages and are not counted.
2. *When it applies.* Only to a page of that host that declares nothing (the decision came from
   the detector or the default), whose bytes are neither all ASCII nor valid UTF-8 (valid UTF-8 is
   virtually never meant as something else), that the remembered encoding decodes without error
   and to text with a non-ASCII letter (punctuation alone says nothing of a language), and — when
   the detector answered — whose text in the remembered encoding differs from the detector's in at
   most :data:`SIBLING_SHARE` of the non-ASCII characters of :data:`SIBLING_WINDOW` bytes:
   encodings that close (KOI8-R/KOI8-U, ISO-8859-7/windows-1253, ISO-8859-2/windows-1250,
   windows-1250/windows-1252 for Hungarian) are where a statistical detector cannot tell; where it
   reads another script, it wins.

Declarations are counts per host and encoding. :class:`SiteMemory` decides from a view of them in
RAM (at most :data:`MAX_HOSTS` hosts, least recently used first out; a host's declarations not yet
in the store wait apart from the view, so none is lost when it leaves) and never waits for a store
(which keeps at most its own number of hosts, least recently used first out too):
a store (:mod:`.sqlite` in ``JOBDIR``, :mod:`.redis` for a fleet) is called in the
memory's own thread (:mod:`.sync`), once every :data:`SYNC_SECONDS`, to add the
declarations learned since (adding counts commutes, so several processes merge without losing any)
and to read the hosts asked about, whose counts reach the view at the next exchange.
"""
from __future__ import annotations

import concurrent.futures
import logging
import operator
import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from concurrent.futures import Future

from ...encoding import Encoding, get_encoding
from ...sniffing.body import Body
from ...sniffing.decision import DECLARED_SOURCES, UNDECLARED_SOURCES
from .. import loop
from .store import Batch, Counts, Store, StoreOptions, add_counts, clean_counts, host_of
from .sync import Breaker, Worker

__all__ = ["Batch", "Counts", "SiteMemory", "Store", "StoreOptions", "add_counts", "clean_counts", "host_of",
           "open_store", "remembered", "siblings"]

logger = logging.getLogger(__name__)

#: Declarations of one encoding (and of no other) before a host is remembered.
MIN_DECLARATIONS = 3
#: Largest share of the non-ASCII characters in which the remembered encoding's text may differ
#: from the detector's (tools/remember_accuracy.py: the sibling pairs of the corpus differ in 0-0.46).
SIBLING_SHARE = 0.25
#: Bytes, from the first non-ASCII one, in which letters are looked for and siblings compared.
SIBLING_WINDOW = 16 * 1024
#: Hosts kept in RAM (``WHATWG_ENCODING_REMEMBER_MAX_HOSTS``): about 0.37 kB each
#: (tools/remember_faults_bench.py --part rss).
MAX_HOSTS = 20_000
#: Seconds between exchanges with the store; a host's counts are read again when asked about
#: REFRESH_SECONDS after the last read (another process may have added to them).
SYNC_SECONDS = 1.0
REFRESH_SECONDS = 5.0
#: Seconds the crawl's start waits for the store's first read, and its end for the last write.
START_SECONDS = 1.0
CLOSE_SECONDS = 5.0
#: Hosts an exchange reads per store call (see ``_exchange``).
READ_CHUNK = 2000
#: Seconds (wall clock) one loop turn spends at most taking a store's result into the view: a
#: slice; the rest waits for the next turn (tools/remember_reactor_gap.py measures the turns).
INTAKE_SECONDS = 0.005

_NON_ASCII_LETTER = re.compile(r"(?![\x00-\x7f])[^\W\d_]")


def remembered(counts: Mapping[str, int], least: int = MIN_DECLARATIONS) -> Encoding | None:
    """The encoding a host with these declaration *counts* is remembered with (rule 1), or ``None``.

    >>> remembered({"KOI8-R": 3}).name, remembered({"KOI8-R": 9, "UTF-8": 1}), remembered({"KOI8-R": 2})
    ('KOI8-R', None, None)
    """
    declared = [name for name, count in counts.items() if count > 0]
    if len(declared) != 1 or counts[declared[0]] < least:
        return None
    return get_encoding(declared[0])


def siblings(text: str, other: str, share: float = SIBLING_SHARE) -> bool:
    """Whether two decodings of the same bytes differ in at most *share* of *other*'s non-ASCII
    characters (position by position; texts of different lengths are not siblings)."""
    if len(text) != len(other):
        return False
    if text == other:
        return True
    non_ascii = len(other) - len(other.encode("ascii", "ignore"))
    return sum(map(operator.ne, text, other)) <= share * non_ascii



def open_store(store: str | StoreOptions | None, job_dir: str | None) -> Store | None:
    """The store for the setting ``WHATWG_ENCODING_REMEMBER_STORE`` and those of the store
    (*store*: their :class:`StoreOptions`, or only the URL: a Redis URL or ``None``) and ``JOBDIR``
    (*job_dir*): Redis, else the JOBDIR database, else ``None`` (the memory lasts for this
    process). Makes no connection (the memory's thread does)."""
    options = store if isinstance(store, StoreOptions) else StoreOptions(url=store)
    if options.url:
        from .redis import RedisStore

        return RedisStore(options.url, options=options)
    if job_dir:
        from .sqlite import FILE_NAME, SQLiteStore

        return SQLiteStore(f"{job_dir}/{FILE_NAME}", options)
    return None


def _events(store: Store) -> dict[str, int]:
    """In the memory's thread: what *store* counted since the last call (see :class:`Store`)."""
    events = getattr(store, "events", None)
    if not events:
        return {}
    taken = dict(events)
    events.clear()
    return taken


def _exchange(store: Store, batches: list[Batch], wanted: set[str], closing: threading.Event
              ) -> tuple[dict[str, Counts], float, list[str], dict[str, int]]:
    """In the memory's thread: *store*'s exchange of *batches*, and a read of the hosts *wanted*
    and written, :data:`READ_CHUNK` hosts per call, the first with the batches; once *closing* is
    set, the rest is not read (the save at close waits behind this exchange). The counts read, the
    seconds it took, the hosts read, the store's events."""
    start = time.perf_counter()
    hosts = list(wanted.union(*(batch for _, batch in batches)))
    found = store.exchange(batches, hosts[:READ_CHUNK])
    for at in range(READ_CHUNK, len(hosts), READ_CHUNK):
        if closing.is_set():
            del hosts[at:]
            break
        found.update(store.exchange([], hosts[at:at + READ_CHUNK]))
    return found, time.perf_counter() - start, hosts, _events(store)


def _preload(store: Store, limit: int) -> tuple[dict[str, Counts], float, None, dict[str, int]]:
    """In the memory's thread: *store*'s preload of at most *limit* hosts (it stops after the
    store's time budget), the seconds it took, and the store's events."""
    start = time.perf_counter()
    return store.preload(limit), time.perf_counter() - start, None, _events(store)


class SiteMemory:
    """The rule (module docstring) over a view of the declaration counts in RAM, kept in step with
    a :class:`Store` (or none: this process only) without ever waiting for it.

    Store errors never reach the crawl: each failed exchange is counted in the stat
    ``whatwg_encoding/memory/store_errors`` (the first of a kind logged as a WARNING) and its
    declarations are tried again at the next; after :data:`.sync.BREAKER_FAILURES` failures
    in a row the store is left alone for a while (``store_off``, logged once) and pages are decided
    with what this process knows. Stats: ``store_calls`` (exchanges), ``store_us`` (their time in
    the store's thread, µs), ``applied`` (pages decided with memory), ``evicted`` (hosts that left
    the RAM view; their declarations not yet in the store wait apart and are written),
    ``dropped`` (declarations never saved: more than ``max_hosts`` hosts waiting while the store
    fails or an exchange is under way, or the store failed at the end), ``store_evicted`` (hosts that left the store: it keeps
    its own number), ``store_invalid`` (invalid values read from the store: the host is not
    remembered), ``preload_skipped`` (hosts of the store the start's read left out)."""

    def __init__(self, store: Store | None = None, stats=None, least: int = MIN_DECLARATIONS,
                 share: float = SIBLING_SHARE, max_hosts: int = MAX_HOSTS):
        self.store, self.stats, self.least, self.share, self.max_hosts = store, stats, least, share, max_hosts
        self.hosts: OrderedDict[str, Counts] = OrderedDict()  # the view, least recently used first
        self._read_at: dict[str, float] = {}  # host → when its counts were last read from the store
        self.pending: dict[str, Counts] = {}  # declarations not yet sent to the store
        self.unsent: list[Batch] = []  # batches of failed exchanges, sent again as they are
        self.wanted: set[str] = set()  # hosts to read from the store
        self._worker = Worker() if store is not None else None
        # The exchange under way: (future, batches, a preload, the hosts asked about).
        self._job: tuple[Future, list[Batch], bool, set[str]] | None = None
        # The result being taken into the view: (hosts, counts read, a preload, when read, asked).
        self._taking: tuple[Iterator[str], dict[str, Counts], bool, float, set[str]] | None = None
        self._clock: loop.AsyncioClock | loop.TwistedClock | None = None  # once the spider opened
        self._closing = threading.Event()  # set at the close: an exchange under way stops reading
        self._breaker = Breaker()
        self._logged: set[str] = set()
        self._loop: loop.Looping | None = None  # the exchanges' timer, once the spider opened

    # --- the rule -------------------------------------------------------------------------

    def likely(self, url: str, body: bytes | Body, decision) -> Encoding | None:
        """The encoding to decide *body* (bytes or their ``Body``, from *url*) with as its likely
        encoding (sniffing step 7), given the *decision* (a ``Decision``) made without memory;
        ``None`` where rule 2 says no."""
        if decision.source not in UNDECLARED_SOURCES:
            return None
        facts = body if isinstance(body, Body) else Body(body)
        first = facts.first_non_ascii
        if first is None or facts.is_utf_8:
            return None
        counts = self.counts(host_of(url))
        encoding = remembered(counts, self.least) if counts else None
        if encoding is None or encoding is decision.encoding or encoding.output_encoding is not encoding:
            return None
        if "\ufffd" in facts.text(encoding):
            return None
        window = facts.data[first:first + SIBLING_WINDOW]
        text = encoding.decode(window)
        if not _NON_ASCII_LETTER.search(text):
            return None  # no letter (only punctuation): nothing says the host's language
        if decision.source == "detector" and not siblings(text, decision.encoding.decode(window), self.share):
            return None
        self._inc("applied")
        return encoding

    def learn(self, url: str, decision, trusted: bool = True) -> None:
        """Count *decision* (a ``Decision``) for *url*'s host if it is a declaration (rule 1);
        *trusted* is false for a label the content contradicts (not counted)."""
        if trusted and decision.source in DECLARED_SOURCES and decision.encoding.output_encoding is decision.encoding:
            host, counts = host_of(url), {decision.encoding.name: 1}
            self.add(host, counts)
            if self.store is not None:
                self._pend(host, counts)

    # --- the view -------------------------------------------------------------------------

    def counts(self, host: str) -> Counts:
        """*host*'s counts as this process knows them now; asks the store for them at the next
        exchange if they were not read in the last :data:`REFRESH_SECONDS`."""
        counts = self.hosts.get(host)
        if counts is not None:
            self.hosts.move_to_end(host)
        if (self.store is not None and len(self.wanted) < self.max_hosts
                and time.monotonic() - self._read_at.get(host, -REFRESH_SECONDS) >= REFRESH_SECONDS):
            self.wanted.add(host)
        return counts or {}

    def add(self, host: str, counts: Mapping[str, int]) -> None:
        """Add *counts* to *host*'s row of the view (not to the store)."""
        row = self._row(host)
        for name, count in counts.items():
            row[name] = row.get(name, 0) + count

    def _row(self, host: str) -> Counts:
        row = self.hosts.get(host)
        if row is not None:
            self.hosts.move_to_end(host)
            return row
        row = self.hosts[host] = {}
        while len(self.hosts) > self.max_hosts:
            old, _ = self.hosts.popitem(last=False)
            self._read_at.pop(old, None)
            self._inc("evicted")
        return row

    def _pend(self, host: str, counts: Mapping[str, int]) -> None:
        """Keep *counts* for the store; at most ``max_hosts`` hosts wait. At that many, an exchange
        starts at once if the store is free (see :meth:`sync`); while an exchange is still under
        way (a slow or stuck store) or its result being taken in, or while the store fails, the
        declarations of further hosts are dropped (counted)."""
        if host not in self.pending and len(self.pending) >= self.max_hosts:
            if not (self._breaker.in_a_row or self.unsent):
                self.sync()
            if len(self.pending) >= self.max_hosts:
                self._inc("dropped", sum(counts.values()))
                self._once("dropped", "Site memory: %d hosts wait for a slow or failing store; further "
                                      "declarations are not saved (counted in whatwg_encoding/memory/dropped)",
                           self.max_hosts)
                return
        add_counts(self.pending, host, counts)

    # --- the store ------------------------------------------------------------------------

    def sync(self) -> Future | None:
        """Take in the result of the last exchange with the store if it is done, and start the
        next if none is under way (and the store is not left alone): the declarations learned
        since, and a read of the hosts asked about (and written). Returns its future, or ``None``.

        On the loop (after :meth:`spider_opened`), a result is taken in slices of at most
        :data:`INTAKE_SECONDS` of the loop's thread, one per loop turn, and the next exchange
        starts once all of it is in; without a loop (tools, tests) at once."""
        if self._taking is not None:
            return None  # the last result is being taken in, a slice per turn
        if self._job is not None:
            if not self._job[0].done():
                return None
            job, self._job = self._job, None
            self._take(*job)
            if self._taking is not None:
                return None
        if self._worker is None or not (self.pending or self.wanted or self.unsent):
            return None
        if not self._breaker.allows():
            self.wanted.clear()  # asked again later; declarations wait in pending
            return None
        batches, wanted = self._batches(), self.wanted
        self.wanted = set()  # the store's thread reads them and the batches' hosts
        future = self._worker.submit(_exchange, self.store, batches, wanted, self._closing)
        self._job = (future, batches, False, wanted)
        return future

    def _batches(self) -> list[Batch]:
        """The batches to send: those that failed, and the pending declarations as a new one."""
        batches, self.unsent = self.unsent, []
        if self.pending:
            batches.append((uuid.uuid4().hex, self.pending))
            self.pending = {}
        return batches

    def _take(self, future: Future, batches: list[Batch], preload: bool, asked: set[str],
              into_view: bool = True) -> None:
        """The result of an exchange (or of the preload): a failure queues its batches again; a
        success starts its intake into the view (unless *into_view* is false: the close)."""
        try:
            found, seconds, hosts, events = future.result()
        except Exception as exc:  # noqa: BLE001 — a store error never fails the crawl
            self._failed(exc)
            self.unsent = batches + self.unsent  # sent again as they are at the next exchange
            while sum(len(batch) for _, batch in self.unsent) > self.max_hosts:
                _, lost = self.unsent.pop(0)
                self._inc("dropped", sum(sum(counts.values()) for counts in lost.values()))
            return
        self._breaker.succeeded()
        self._inc("store_calls")
        self._inc("store_us", round(seconds * 1e6))
        for name, count in events.items():
            self._inc(name, count)
        if into_view:
            self._taking = (iter(list(found) if preload else hosts), found, preload, time.monotonic(), asked)
            self._intake(None if self._clock is None else INTAKE_SECONDS)

    def _intake(self, seconds: float | None = INTAKE_SECONDS) -> None:
        """Take the hosts of the last result into the view (the store's counts plus the
        declarations not in the store yet) for at most *seconds* (``None``: all of them); the rest
        at the next loop turn."""
        if self._taking is None:
            return
        hosts, found, preload, now, asked = self._taking
        deadline = time.perf_counter() + seconds if seconds is not None else None
        waiting = [self.pending] + [batch for _, batch in self.unsent]  # not in the store yet
        view = self.hosts
        for n, host in enumerate(hosts, 1):
            # A preload never replaces what this process read; a host only written is read back
            # for the view, not put back in it once it has left.
            if (host not in view) if preload else (host in view or host in asked):
                row = self._row(host)
                row.clear()
                row.update(found.get(host, ()))
                for batch in waiting:
                    for name, count in batch.get(host, {}).items():
                        row[name] = row.get(name, 0) + count
                self._read_at[host] = now
            if deadline is not None and n % 32 == 0 and time.perf_counter() >= deadline and self._clock:
                self._clock.call_soon(self._intake)
                return
        self._taking = None

    def _failed(self, exc: BaseException | None) -> None:
        self._inc("store_errors")
        where = getattr(self.store, "where", type(self.store).__name__)
        self._once(type(exc).__name__, "Site memory store %s failed (%s: %s); pages are decided with "
                                       "what this process knows", where, type(exc).__name__, exc)
        if self._breaker.failed():
            self._inc("store_off")
            self._once("off", "Site memory store %s failed %d times in a row; it is left alone for "
                              "%d s or more at a time (counted in whatwg_encoding/memory/store_off)",
                       where, self._breaker.in_a_row, self._breaker.seconds)

    def open(self) -> Future | None:
        """Start reading up to ``max_hosts`` hosts' counts from the store (in its thread)."""
        if self._worker is None or self._job is not None:
            return None
        future = self._worker.submit(_preload, self.store, self.max_hosts)
        self._job = (future, [], True, set())
        return future

    def close(self, timeout: float | None = CLOSE_SECONDS) -> bool:
        """Write the declarations not yet in the store and close it, waiting at most *timeout*
        seconds (outside the reactor: tools, tests); ``True`` if saved. See :meth:`spider_closed`."""
        future = self._close()
        if future is not None:
            concurrent.futures.wait([future], timeout)
        return self._closed(future)

    async def spider_opened(self, spider=None) -> None:
        """Signal handler: start the exchanges; the crawl waits for the first read at most
        :data:`START_SECONDS` (the loop does not wait). Runs on the loop Scrapy runs on (asyncio
        without a reactor too, see :mod:`..loop`)."""
        future = self.open()
        if future is None:
            return
        clock = self._clock = loop.clock()
        self._loop = clock.looping(self.sync, SYNC_SECONDS)
        await clock.wait(future, START_SECONDS)
        self.sync()

    async def spider_closed(self, spider=None) -> bool:
        """:meth:`close` for the crawl's end, which waits for it at most :data:`CLOSE_SECONDS`
        (the loop does not wait); ``True`` if saved."""
        future = self._close()
        if future is not None:
            await (self._clock or loop.clock()).wait(future, CLOSE_SECONDS)
        return self._closed(future)

    def _close(self) -> Future | None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        if self._worker is None:
            return None
        self._closing.set()
        job, self._job = self._job, None
        self._taking = None  # the view is not needed any more
        if job is not None and job[0].done():
            self._take(*job, into_view=False)
            job = None
        batches = self._batches()
        # Tried again until CLOSE_SECONDS (a paused server), or once if the store is left alone.
        deadline = time.monotonic() + (CLOSE_SECONDS if self._breaker.allows() else 0.0)
        future = self._worker.submit(_final, self.store, batches, job, deadline)
        self._worker.stop()
        self._worker = None
        self._final = (future, batches, job)
        return future

    def _closed(self, future: Future | None) -> bool:
        if future is None:
            return True
        job = self._final[2]
        if job is not None and job[0].done() and job[0].exception() is None:
            for name, count in job[0].result()[3].items():  # the exchange under way at the close
                self._inc(name, count)
        if job is not None and job[0].done() and job[0].exception() is not None:
            self._failed(job[0].exception())  # the exchange under way at the close failed too
        if future.done() and future.exception() is None:
            for name, count in future.result()[1].items():
                self._inc(name, count)
            return True
        _, batches, job = self._final
        if job is not None and not (job[0].done() and job[0].exception() is None):
            batches = job[1] + batches
        lost: set[str] = set()
        declarations = 0
        for _, batch in batches:
            lost.update(batch)
            declarations += sum(sum(counts.values()) for counts in batch.values())
        reason = f"it did not answer within {CLOSE_SECONDS:g} s" if not future.done() else repr(future.exception())
        self._inc("dropped", declarations)
        if declarations:
            logger.error("Site memory store %s: %d declarations of %d hosts were not saved (%s)",
                         getattr(self.store, "where", "?"), declarations, len(lost), reason)
        return False

    def _once(self, kind: str, message: str, *args) -> None:
        if kind not in self._logged:
            self._logged.add(kind)
            logger.warning(message, *args)

    def _inc(self, name: str, count: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"whatwg_encoding/memory/{name}", count)


def _final(store: Store, batches: list[Batch], job, deadline: float) -> tuple[int, dict[str, int]]:
    """In the memory's thread, at the end: send *batches* (after those of the exchange *job* that
    was under way, had it failed), tried again every half second until *deadline* (a
    ``time.monotonic()``), then close *store*; the declarations written, and the store's events."""
    if job is not None and job[0].exception() is not None:
        batches = job[1] + batches
    try:
        while batches:
            try:
                store.exchange(batches, ())
                break
            except Exception:
                if time.monotonic() + 0.5 >= deadline:
                    raise
                time.sleep(0.5)
    finally:
        store.close()
    return sum(sum(sum(counts.values()) for counts in batch.values()) for _, batch in batches), _events(store)
