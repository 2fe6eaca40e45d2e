"""Crawl logs and stats: one line per decision, counters under ``whatwg_encoding/``, a summary table
at spider close, and errors logged once per kind.

Stats keys: ``whatwg_encoding/responses``, ``whatwg_encoding/source/<source>``,
``whatwg_encoding/encoding/<WHATWG name>``, ``whatwg_encoding/changed_from_scrapy_default``,
``whatwg_encoding/scrapy_default_unknown`` (Scrapy would have guessed statistically; not replayed),
``whatwg_encoding/errors`` and ``whatwg_encoding/errors/<exception class>``. Decision counters
reach the stats collector in batches (every :data:`FLUSH_EVERY` decisions and at spider close):
Scrapy's stats calls cost more than the rest of the bookkeeping.
"""
from __future__ import annotations

import logging
from collections import Counter

logger = logging.getLogger("scrapy_whatwg_encoding")
PREFIX = "whatwg_encoding/"
FLUSH_EVERY = 256


class Report:
    """Counts decisions for one crawl. *stats* is the crawler's stats collector (or ``None``)."""

    def __init__(self, stats, log_level: int):
        self.stats = stats
        self.log_level = log_level
        self.sources: Counter[str] = Counter()
        self.encodings: Counter[str] = Counter()
        self.changed = 0
        self.unknown = 0
        self.errors: Counter[str] = Counter()
        # (source, encoding name, changed) → count, since the last flush
        self._pending: Counter[tuple[str, str, bool | None]] = Counter()
        self._unflushed = 0

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(PREFIX + key)

    def flush(self) -> None:
        """Add the decisions counted since the last flush to the totals and the stats collector."""
        pending, self._pending, self._unflushed = self._pending, Counter(), 0
        stats: Counter[str] = Counter()
        for (source, name, changed), count in pending.items():
            self.sources[source] += count
            self.encodings[name] += count
            stats["responses"] += count
            stats["source/" + source] += count
            stats["encoding/" + name] += count
            if changed:
                self.changed += count
                stats["changed_from_scrapy_default"] += count
            elif changed is None:
                self.unknown += count
                stats["scrapy_default_unknown"] += count
        if self.stats is not None:
            for key, count in stats.items():
                self.stats.inc_value(PREFIX + key, count)

    def decision(self, url: str, decision, changed: bool | None) -> None:
        """Log and count one decision (a ``Decision``); *changed*: see ``scrapy_default.changed``."""
        name, source = decision.encoding.name, decision.source
        self._pending[(source, name, changed)] += 1
        self._unflushed += 1
        if self._unflushed >= FLUSH_EVERY:
            self.flush()
        if logger.isEnabledFor(self.log_level):
            logger.log(self.log_level,
                       "Encoding %s (%s, source %s, label %r, offset %s) for <%s>",
                       name, decision.confidence, source, decision.label, decision.offset, url)

    def error(self, exc: BaseException, url: str) -> None:
        """Count an exception raised while handling *url*; log it (with traceback) once per kind."""
        kind = type(exc).__name__
        self.errors[kind] += 1
        self._inc("errors")
        self._inc("errors/" + kind)
        if self.errors[kind] == 1:
            logger.error("Encoding middleware failed on <%s>; the response is passed on as Scrapy "
                         "made it (further %s errors are only counted in whatwg_encoding/errors)",
                         url, kind, exc_info=(type(exc), exc, exc.__traceback__))

    def summary(self) -> str:
        """The spider-close table: counts per source and per encoding."""
        self.flush()
        total = sum(self.sources.values())
        lines = [(f"WHATWG encoding summary: {total} responses decided, {self.changed} decoded differently "
                  f"than Scrapy alone would have ({self.unknown} left to Scrapy's statistical guess, "
                  f"not compared), {sum(self.errors.values())} errors")]
        for title, counter in (("source", self.sources), ("encoding", self.encodings)):
            lines.append(f"  {title:<16} {'responses':>9}")
            lines += [f"  {key:<16} {count:>9}" for key, count in counter.most_common()]
        return "\n".join(lines)

    def log_summary(self) -> None:
        self.flush()
        logger.info("%s", self.summary())
