"""What the crawl checks when it starts, before the first request (docs/design.rst, "The Scrapy layer"):

- every ``WHATWG_ENCODING_*`` name in the settings that the package does not know, and every name
  whose start is a near miss of that prefix (``WHATWG_ENCODNG_LOCALE``, ``WHATWG_ENCODING``), is a
  WARNING naming the closest known one (:func:`unknown_settings`; the known names are the keys of
  :data:`.settings.DEFAULTS`, so a new setting is known as soon as it has a default);
- an invalid value (:class:`.settings.InvalidSetting`, a report path that cannot be written included) stops the
  crawl with one ERROR line (:func:`stop`).
"""
from __future__ import annotations

import difflib
import logging

from .settings import DEFAULTS, InvalidSetting

logger = logging.getLogger("scrapy_whatwg_encoding")
PREFIX = "WHATWG_ENCODING_"


# How close a name's start must be to PREFIX (difflib's ratio) to be taken for a misspelled prefix:
# WHATWG_ENCODNG_ is 0.97, WHATWG_ENCOIDNG_ 0.94, WHATWG_ENCODE_ 0.87; the closest of Scrapy's own
# settings, HTML_ENCODING_DEFAULT (a plugin's) and LOG_ENCODING, 0.80 and 0.71.
PREFIX_CUTOFF = 0.85


def prefix_end(name: str) -> int | None:
    """Where the package's prefix ends in *name* (a setting name): ``len(PREFIX)`` if it starts with
    ``WHATWG_ENCODING_`` in any case, the end of a near miss of it (``WHATWG_ENCODNG_``,
    ``WHATWG_ENCODING`` without the underscore, ``WHATWG-ENCODING-``: a start of 13 to 18
    characters whose :class:`difflib.SequenceMatcher` ratio to the prefix is at least
    :data:`PREFIX_CUTOFF`, the closest start winning), else ``None``.

    >>> [prefix_end(n) for n in ("WHATWG_ENCODING_LOCALE", "WHATWG_ENCODNG_LOCALE", "WHATWG_ENCODING", "LOG_ENCODING")]
    [16, 15, 15, None]
    """
    upper = name.upper()
    if upper.startswith(PREFIX):
        return len(PREFIX)
    matcher = difflib.SequenceMatcher(None, "", PREFIX, autojunk=False)
    best, end = PREFIX_CUTOFF, None
    for k in range(len(PREFIX) - 3, len(PREFIX) + 3):
        matcher.set_seq1(upper[:k])
        # quick_ratio() bounds ratio() from above at a fraction of its cost: most names stop there.
        if matcher.quick_ratio() >= best and (ratio := matcher.ratio()) >= best and (end is None or ratio > best):
            best, end = ratio, k
    return end


def unknown_settings(names) -> list[str]:
    """A warning for each name of *names* (setting names) that starts with ``WHATWG_ENCODING_``, or a
    near miss of it (see :func:`prefix_end`), but is not a setting of the package, with the closest
    known name (:func:`difflib.get_close_matches` on the names without the prefix).

    >>> unknown_settings(["WHATWG_ENCODING_LOCAL", "WHATWG_ENCODING_LOCALE", "DOWNLOAD_DELAY"])
    ['WHATWG_ENCODING_LOCAL is not a setting of scrapy-whatwg-encoding (ignored); did you mean WHATWG_ENCODING_LOCALE?']
    >>> unknown_settings(["WHATWG_ENCODNG_LOCALE", "HTTPCACHE_ENCODING"])
    ['WHATWG_ENCODNG_LOCALE is not a setting of scrapy-whatwg-encoding (ignored); did you mean WHATWG_ENCODING_LOCALE?']
    """
    warnings = []
    for name in sorted(n for n in names if isinstance(n, str)):
        if name in DEFAULTS:
            continue
        end = prefix_end(name)
        if end is None:
            continue
        # Compared without the common prefix, which would make every name look close.
        known = {known[len(PREFIX):]: known for known in DEFAULTS}
        rest = name[end:].upper().lstrip("_- .")
        close = difflib.get_close_matches(rest, known, n=1, cutoff=0.6) if rest else []
        if close:
            hint = f"did you mean {known[close[0]]}?"
        elif not name.upper().startswith(PREFIX):
            hint = f"the package's settings start with {PREFIX}"
        else:
            hint = "no setting has a close name"
        warnings.append(f"{name} is not a setting of scrapy-whatwg-encoding (ignored); {hint}")
    return warnings


class _AlreadyReported(logging.Filter):
    """Drops the records that would repeat *exc* with its traceback after its ERROR line."""

    def __init__(self, exc: BaseException):
        super().__init__()
        self.exc = exc

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and record.exc_info[1] is self.exc)


def stop(exc: InvalidSetting, crawler) -> InvalidSetting:
    """Log *exc* as the one ERROR line of an invalid setting and return it, to be raised from the
    component's ``from_crawler``: Scrapy then does not start the crawl (``scrapy crawl`` exits
    with status 1). Scrapy then logs the exception again with its traceback, through asyncio
    ("Task exception was never retrieved", Scrapy ≥ 2.14) or Twisted ("Unhandled error in
    Deferred", older releases): the records that carry this exception are dropped, the ERROR line
    has said it. (Twisted's own "Unhandled error in Deferred:" heading, without the traceback,
    remains on Scrapy < 2.14.)"""
    logger.error("%s; the crawl stops", exc, extra={"crawler": crawler})
    repeat = _AlreadyReported(exc)
    for name in ("asyncio", "twisted"):
        logging.getLogger(name).addFilter(repeat)
    return exc
