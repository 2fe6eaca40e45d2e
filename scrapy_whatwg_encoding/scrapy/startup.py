"""What the crawl checks when it starts, before the first request (DESIGN.md, Scrapy layer):

- every ``WHATWG_ENCODING_*`` name in the settings that the package does not know is a WARNING
  naming the closest known one (:func:`unknown_settings`; the known names are the keys of
  :data:`.settings.DEFAULTS`, so a new setting is known as soon as it has a default);
- an invalid value (:class:`.settings.InvalidSetting`, the report's directory included) stops the
  crawl with one ERROR line (:func:`stop`).
"""
from __future__ import annotations

import logging

from .settings import DEFAULTS, InvalidSetting

logger = logging.getLogger("scrapy_whatwg_encoding")
PREFIX = "WHATWG_ENCODING_"


def unknown_settings(names) -> list[str]:
    """A warning for each name of *names* (setting names) that starts with ``WHATWG_ENCODING_`` but
    is not a setting of the package, with the closest known name (:func:`difflib.get_close_matches`
    on the names without the prefix).

    >>> unknown_settings(["WHATWG_ENCODING_LOCAL", "WHATWG_ENCODING_LOCALE", "DOWNLOAD_DELAY"])
    ['WHATWG_ENCODING_LOCAL is not a setting of scrapy-whatwg-encoding (ignored); did you mean WHATWG_ENCODING_LOCALE?']
    """
    warnings = []
    for name in sorted(n for n in names if isinstance(n, str) and n.upper().startswith(PREFIX)):
        if name in DEFAULTS:
            continue
        # Compared without the common prefix, which would make every name look close.
        known = {known[len(PREFIX):]: known for known in DEFAULTS}
        import difflib  # on first use: most crawls have no unknown setting

        close = difflib.get_close_matches(name[len(PREFIX):].upper(), known, n=1, cutoff=0.6)
        hint = f"did you mean {known[close[0]]}?" if close else "no setting has a close name"
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
