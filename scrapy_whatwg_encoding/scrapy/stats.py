"""Crawl logs and stats: one line per decision, counters under ``whatwg_encoding/``, a summary table
at spider close, and errors logged once per kind.

Stats keys: ``whatwg_encoding/responses``, ``whatwg_encoding/source/<source>``,
``whatwg_encoding/encoding/<WHATWG name>``, ``whatwg_encoding/changed_from_scrapy_default``,
``whatwg_encoding/scrapy_default_unknown`` (not compared with Scrapy alone: outside the sample of
:class:`.scrapy_default.Comparisons`),
``whatwg_encoding/errors`` and ``whatwg_encoding/errors/<exception class>``,
``whatwg_encoding/invalid_override`` (a request's ``whatwg_encoding_override`` that cannot work),
``whatwg_encoding/suspect_label`` and ``whatwg_encoding/suspect_label/<kind>`` (a label the content
contradicts, see :mod:`scrapy_whatwg_encoding.sniffing.mislabel`; the first :data:`SUSPECT_LOGGED`
URLs of each kind are logged at WARNING, or INFO when the page was decoded with the content's
encoding), ``whatwg_encoding/skipped/<reason>`` (responses left as Scrapy made them:
``not_a_document``, ``dont_sniff_encoding``, ``handler_encoding``, ``chosen_encoding``,
``binary_response_class``, ``compressed``), ``whatwg_encoding/close_errors`` (a step of the spider's close that failed, such
as writing the report: see :meth:`Stats.close_error`). Decision counters reach the stats collector in one batch per
:data:`FLUSH_SECONDS` (the middleware calls :meth:`Stats.flush` on a timer, and at spider close):
a Scrapy stats call costs about 2.3 µs (Scrapy 2.19), five of them per response would be a tenth of
the middleware's cost on a labeled page.

With ``WHATWG_ENCODING_REPORT`` set, the same decisions also feed a bounded
:class:`~scrapy_whatwg_encoding.report.ReportData`, written as HTML at spider close
(:meth:`Stats.write_html`).
"""
from __future__ import annotations

import logging
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from ..encoding import decode
from ..sniffing.body import Body
from .scrapy_default import BINARY, Comparisons, scrapy_text_from

if TYPE_CHECKING:
    from ..report import ReportData

logger = logging.getLogger("scrapy_whatwg_encoding")
PREFIX = "whatwg_encoding/"
FLUSH_SECONDS = 1.0
SUSPECT_LOGGED = 5  # URLs logged per kind of suspect label; the others are only counted


URL_SHOWN = 60  # characters of a URL in a log line (lines stay under ~200 characters)


def short_url(url: str) -> str:
    """*url* as log lines show it: at most :data:`URL_SHOWN` characters, the middle elided."""
    if len(url) <= URL_SHOWN:
        return url
    half = (URL_SHOWN - 1) // 2
    return f"{url[:half]}…{url[-half:]}"


class _DecisionLine:
    """The per-decision log message's argument, formatted only if a handler emits the record
    (``Encoding Shift_JIS (certain, source prescan, label 'shift_jis', offset 40) for <URL>``);
    fields without a value (a label, an offset) are left out."""

    __slots__ = ("decision", "url")

    def __init__(self, decision, url: str):
        self.decision, self.url = decision, url

    def __str__(self) -> str:
        d = self.decision
        fields = [d.confidence, f"source {d.source}"]
        if d.label is not None:
            fields.append(f"label {d.label!r}")
        if d.offset is not None:
            fields.append(f"offset {d.offset}")
        return f"{d.encoding.name} ({', '.join(fields)}) for <{short_url(self.url)}>"


def _counter_listening(stats) -> bool:
    """Whether a Scrapy ``LogCounterHandler`` counting into *stats* is on the root logger."""
    from scrapy.utils.log import LogCounterHandler

    return any(isinstance(handler, LogCounterHandler) and getattr(handler.crawler, "stats", None) is stats
               for handler in logging.root.handlers)


def _counted_errors(stats) -> bool:
    """Whether *stats* show that Scrapy's log counter counted ERROR lines during the crawl: it
    counted a line of a level at or below ERROR (its own level is ``LOG_LEVEL``)."""
    for key in stats.get_stats():
        if key.startswith("log_count/"):
            level = logging.getLevelName(key[len("log_count/"):])
            if isinstance(level, int) and level <= logging.ERROR:
                return True
    return False


class Stats:
    """Counts decisions for one crawl. *stats* is the crawler's stats collector (or ``None``)."""

    def __init__(self, stats, log_level: int, html_path: str | None = None, examples: int = 20):
        self.stats = stats
        self.log_level = log_level
        self.html_path = html_path
        self.data: ReportData | None = None
        if html_path:  # the report's modules load only for a crawl that writes one
            from ..report import ReportData

            self.data = ReportData(examples)
        #: The "differs from Scrapy alone" comparison's sample (the middleware asks it per response).
        self.comparisons = Comparisons()
        self.sources: Counter[str] = Counter()
        self.encodings: Counter[str] = Counter()
        self.changed = 0
        self.unknown = 0
        self.errors: Counter[str] = Counter()
        self.suspects: Counter[str] = Counter()
        self.skips: Counter[str] = Counter()  # responses left as Scrapy made them, by reason
        self.warned: set[tuple[str, str]] = set()  # (key, value) of the warnings logged
        # (source, encoding name, changed, suspect kind) → count, since the last flush
        self._pending: Counter[tuple[str, str, bool | None, str | None]] = Counter()

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(PREFIX + key)

    def flush(self) -> None:
        """Add the decisions counted since the last flush to the totals and the stats collector."""
        pending, self._pending = self._pending, Counter()
        stats: Counter[str] = Counter()
        for (source, name, changed, suspect), count in pending.items():
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
            if suspect is not None:
                stats["suspect_label"] += count
                stats["suspect_label/" + suspect] += count
        if self.stats is not None:
            for key, count in stats.items():
                self.stats.inc_value(PREFIX + key, count)

    def decision(self, url: str, decision, changed: bool | None, body: bytes = b"",
                 scrapy_name: str | None = None, suspect: str | None = None, *,
                 text: str | None = None, scrapy_text: str | None = None) -> None:
        """Log and count one decision (a ``Decision``); *changed*: see ``scrapy_default.Verdict``
        (``None``: not compared); *body* and *scrapy_name* (Scrapy's codec name) give the HTML
        report's examples, with *text* (the decision's text) and *scrapy_text* (Scrapy's) where the
        caller has them, so that they are not decoded again; *suspect*: the kind of suspect label
        (``sniffing.mislabel.KINDS``) or ``None``."""
        name, source = decision.encoding.name, decision.source
        if self.data is not None:
            self._add_to_report(url, decision, changed, body, scrapy_name, suspect is not None, text, scrapy_text)
        if suspect is not None:
            self._suspect(url, decision, suspect)
        self._pending[(source, name, changed, suspect)] += 1
        if logger.isEnabledFor(self.log_level):  # nothing is formatted when the level is off
            logger.log(self.log_level, "Encoding %s", _DecisionLine(decision, url))

    def _suspect(self, url: str, decision, kind: str) -> None:
        """Log one of the first :data:`SUSPECT_LOGGED` suspect labels of *kind*: at WARNING when
        the page keeps the label's encoding (its text is likely garbled), else at INFO."""
        self.suspects[kind] += 1
        if self.suspects[kind] > SUSPECT_LOGGED:
            return
        overruled = decision.source == "content"
        logger.log(logging.INFO if overruled else logging.WARNING,
                   "Suspect label %r (%s) on <%s>: decoded as %s, the %s encoding [%d/%d logged; counted in %ssuspect_label]",
                   decision.label, kind, short_url(url), decision.encoding.name,
                   "content's" if overruled else "label's", self.suspects[kind], SUSPECT_LOGGED, PREFIX)

    def _add_to_report(self, url: str, decision, changed: bool | None, body: bytes, scrapy_name: str | None,
                       suspect: bool = False, text: str | None = None, theirs: str | None = None) -> None:
        """Count the decision in the HTML report's data; while the decision's source still wants
        an example of a page that differs, find its first difference, decoding only the text not
        given (*text*: ours, *theirs*: Scrapy's). A page not compared is counted as such, never
        shown as differing."""
        from ..report import first_difference
        from ..report.model import CONTEXT

        assert self.data is not None
        passage, source, binary = None, decision.source, scrapy_name == BINARY
        try:
            if changed and self.data.wants_example(source):
                skip = 0
                if theirs is None and not binary and scrapy_name is not None:
                    skip, theirs = scrapy_text_from(scrapy_name, decision.encoding, Body(body), 3 * CONTEXT)
                passage = first_difference(decode(body, decision.encoding)[0] if text is None else text, theirs,
                                           skip=skip)
        except Exception:  # noqa: BLE001 — an example is optional; the page is still counted
            passage = None
        self.data.add(url, decision.as_dict(), None if binary else scrapy_name, changed, passage,
                      suspect=suspect)

    def write_html(self, title: str = "crawl") -> None:
        """Write the HTML report (if ``WHATWG_ENCODING_REPORT`` is set). Nothing is raised: a path
        that cannot be written at close (its directory removed, the disk full) or a report that
        cannot be rendered is a :meth:`close_error` (one ERROR line, counted in
        ``whatwg_encoding/close_errors`` and ``log_count/ERROR``); the crawl's other closing steps
        go on."""
        if self.data is None or self.html_path is None:
            return
        started = time.perf_counter()
        if self.data.unknown:
            self.data.compared = self.comparisons.describe()
        try:
            from ..report import render_html

            now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            document = render_html(self.data, title=title, details=[("written", now)])
        except Exception:  # noqa: BLE001 — a bug in the report never fails the crawl's close
            self.close_error("Cannot render the encoding report %s", self.html_path, exc_info=True)
            return
        try:
            Path(self.html_path).write_text(document, "utf-8")
        except OSError as exc:
            self.close_error("Cannot write the encoding report %s: %s", self.html_path, exc)
            return
        logger.info("Encoding report written to %s (%d bytes, %.3f s)", self.html_path,
                    len(document.encode("utf-8")), time.perf_counter() - started)

    def close_error(self, message: str, *args, exc_info=None, extra: dict | None = None) -> None:
        """Log *message* (``%``-formatted with *args*; *exc_info* and *extra* as :meth:`logging.Logger.error`
        takes them) as an ERROR of the spider's close and count it in ``whatwg_encoding/close_errors``
        and in Scrapy's ``log_count/ERROR``.

        Scrapy ≥ 2.14 stops counting log lines in its own ``spider_closed`` receiver (the
        ``LogCount`` extension's), which runs before the package's: an ERROR logged at close would
        reach the log but not ``log_count/ERROR``. When Scrapy's counter for these stats is no
        longer on the root logger, the line is counted here, if that counter counted errors during
        the crawl (the stats hold a ``log_count/<level>`` at or below ERROR); when it is still there
        (Scrapy < 2.14, or before ``spider_closed``), it counts the line itself."""
        logger.error(message, *args, exc_info=exc_info, extra=extra)
        self._inc("close_errors")
        if self.stats is not None and not _counter_listening(self.stats) and _counted_errors(self.stats):
            self.stats.inc_value("log_count/ERROR")

    def skipped(self, reason: str) -> None:
        """Count a response left as Scrapy made it, by *reason* (``not_a_document``,
        ``dont_sniff_encoding``, ``handler_encoding``, ``chosen_encoding``, ``binary_response_class``,
        ``compressed``), in ``whatwg_encoding/skipped/<reason>`` (at once, not batched) and in the
        closing summary."""
        self.skips[reason] += 1
        self._inc("skipped/" + reason)

    def warning(self, key: str, message: str, once: str) -> None:
        """Count a request option that cannot work in ``whatwg_encoding/<key>`` (at once) and log
        *message* as a WARNING the first time for each *once* (e.g. the option's value)."""
        self._inc(key)
        if (key, once) not in self.warned:
            self.warned.add((key, once))
            logger.warning("%s", message)

    def error(self, exc: BaseException, url: str) -> None:
        """Count an exception raised while handling *url*; log it (with traceback) once per kind."""
        kind = type(exc).__name__
        if self.data is not None:
            self.data.add_error(url, kind)
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
        lines = [(f"WHATWG encoding summary: {total} responses decided, {self.changed} differ from Scrapy alone, "
                  f"{self.unknown} not compared, {sum(self.errors.values())} errors")]
        if self.unknown:
            lines.append(f"  compared with Scrapy alone: {self.comparisons.describe()}")
        if self.skips:
            reasons = ", ".join(f"{reason} ×{count}" for reason, count in self.skips.most_common())
            lines.append(f"  skipped (left as Scrapy made them): {self.skips.total()} ({reasons})")
        if self.suspects:
            kinds = ", ".join(f"{kind} ×{count}" for kind, count in self.suspects.most_common())
            lines.append(f"  suspect labels (the content contradicts the label): {self.suspects.total()} ({kinds})")
        for title, counter in (("source", self.sources), ("encoding", self.encodings)):
            lines.append(f"  {title:<16} {'responses':>9}")
            lines += [f"  {key:<16} {count:>9}" for key, count in counter.most_common()]
        return "\n".join(lines)

    def log_summary(self) -> None:
        self.flush()
        logger.info("%s", self.summary())
