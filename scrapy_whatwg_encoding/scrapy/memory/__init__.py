"""``WHATWG_ENCODING_REMEMBER``: the site memory, a per-host *likely encoding* (HTML sniffing
step 7). :mod:`.site` holds the rule and the RAM view (:class:`SiteMemory`), :mod:`.store` what the
memory and its stores share, :mod:`.sqlite` and :mod:`.redis` the stores, :mod:`.sync` the
memory's own thread. The names below are those of ``scrapy_whatwg_encoding.scrapy.memory`` before
it became a package."""
from __future__ import annotations

from .site import (
    CLOSE_SECONDS,
    MAX_HOSTS,
    MIN_DECLARATIONS,
    SIBLING_SHARE,
    SIBLING_WINDOW,
    START_SECONDS,
    SYNC_SECONDS,
    SiteMemory,
    open_store,
    remembered,
    siblings,
)
from .store import Batch, Counts, Store, add_counts, clean_counts, host_of

__all__ = ["CLOSE_SECONDS", "MAX_HOSTS", "MIN_DECLARATIONS", "SIBLING_SHARE", "SIBLING_WINDOW", "START_SECONDS",
           "SYNC_SECONDS", "Batch", "Counts", "SiteMemory", "Store", "add_counts", "clean_counts", "host_of",
           "open_store", "remembered", "siblings"]
