"""What the site memory (:mod:`.site`) and its stores (:mod:`.sqlite`,
:mod:`.redis`) share: the shapes of declaration counts and batches, the :class:`Store`
protocol and its :class:`StoreOptions`, a page's host key, and the bounds on and cleaning of what
is read from a store. Imports none of them, so that the memory and its stores do not import each
other."""
from __future__ import annotations

import collections
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

from w3lib.url import safe_url_string

from ...encoding import get_encoding

#: Declarations per encoding name (``{"KOI8-R": 3}``).
Counts = dict[str, int]
#: A batch of declarations: an id (the same when it is sent again) and host → counts.
Batch = tuple[str, dict[str, Counts]]


_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}
#: Largest number of declarations a store may hold for one host and encoding; a count above it (or
#: not a positive whole number) is invalid (see :func:`clean_counts`).
MAX_COUNT = 2**32
#: Largest number of encodings a store may hold for one host (the Encoding Standard names fewer
#: than 40); a host with more is read as invalid without reading them (see :data:`INVALID`).
MAX_FIELDS = 64
#: Hosts one write removes from a store at most (the rest at the next write): a bound lowered
#: under a large store does not block it for long.
EVICT_CHUNK = 10_000
#: The key that marks, in counts read from a store, values that were invalid (how many): a host
#: with it is never remembered (it is not an encoding name, so rule 1 never holds for it).
INVALID = "(invalid)"


@dataclass(frozen=True)
class StoreOptions:
    """Where the site memory's counts live and how much of them: *url* (``None``: the ``JOBDIR``
    database, if any; else a Redis URL), *max_hosts* (hosts the store keeps, least recently used
    first out), *redis_prefix* (the Redis keys' prefix) and *preload_seconds* (the start's read, of
    at most the RAM view's hosts, stops after this long: the crawl's start waits for it at most
    ``site.START_SECONDS``, and the store's other calls wait behind it)."""

    url: str | None = None
    max_hosts: int = 100_000
    redis_prefix: str = "whatwg_encoding:memory:"
    preload_seconds: float = 1.0


def host_of(url: str) -> str:
    """The key a page of *url* is remembered under: the URL's host as w3lib's
    ``safe_url_string`` (which Scrapy gives every request's URL) writes it (IDNA-encoded),
    lower-case and without a trailing dot (``example.com.`` is ``example.com``), with the port when
    it is not the scheme's default (two servers on one machine stay apart). Never the user name or
    password.

    >>> host_of("http://user:secret@Bücher.Example.:8080/a"), host_of("https://[::1]:443/")
    ('xn--bcher-kva.example:8080', '[::1]')
    """
    parts = urlsplit(url)
    return _host_key(parts.scheme.lower(), parts.netloc)


@functools.lru_cache(maxsize=4096)
def _host_key(scheme: str, netloc: str) -> str:
    try:
        parts = urlsplit(safe_url_string(f"{scheme}://{netloc}/"))
    except ValueError:  # a port that is not a number: w3lib refuses it
        parts = urlsplit(f"{scheme}://{netloc}/")
    host = (parts.hostname or "").rstrip(".")
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        host += f":{port}"
    return host


def clean_counts(pairs: Iterable[tuple[Any, Any]]) -> Counts:
    """Declaration counts from a store's (label, count) pairs: labels become encoding names. A pair
    that is not a label and a whole number from 1 to :data:`MAX_COUNT` (bytes or text allowed) is
    invalid: not left out (a negative count beside another encoding's could make a host that
    declared two encodings look consistent) but counted under :data:`INVALID`, so that the host is
    never remembered.

    >>> clean_counts([("koi8-r", b"3"), ("windows-1251", "-1")])
    {'KOI8-R': 3, '(invalid)': 1}
    """
    counts: Counts = {}
    for label, count in pairs:
        name = _name_of(label.decode("utf-8", "replace") if isinstance(label, bytes) else label)
        try:
            count = int(count) if isinstance(count, (int, bytes, str)) and not isinstance(count, bool) else 0
        except ValueError:
            count = 0
        if name is None or not 0 < count <= MAX_COUNT:
            name, count = INVALID, 1
        counts[name] = counts.get(name, 0) + count
    return counts


@functools.lru_cache(maxsize=512)
def _name_of(label: Any) -> str | None:
    encoding = get_encoding(label) if isinstance(label, str) else None
    return encoding.name if encoding is not None else None


def add_counts(table: dict[str, Counts], host: str, counts: Mapping[str, int]) -> None:
    """Add *counts* to *table*'s row of *host*."""
    row = table.setdefault(host, {})
    for name, count in counts.items():
        row[name] = row.get(name, 0) + count


class Store(Protocol):
    """Where declaration counts live (:mod:`.sqlite`, :mod:`.redis`). Called only
    from the memory's thread; any exception is a failure of the store. ``where``: for messages.
    ``events``: what happened in the store since the memory last took them (it clears them), by
    stat name: ``store_evicted`` (hosts that left the store), ``store_invalid`` (invalid values
    read, see :func:`clean_counts`), ``preload_skipped`` (hosts the preload left out)."""

    where: str
    events: collections.Counter[str]

    def exchange(self, batches: list[Batch], hosts: Iterable[str]) -> dict[str, Counts]:
        """Add each of *batches* (an id, and host → encoding name → declarations) once — a batch
        sent again after a failure is not added twice, whatever the failure — and read the counts
        of *hosts* (absent: none); the hosts written or found count as used (the store keeps the
        most recently used)."""

    def preload(self, limit: int) -> dict[str, Counts]:
        """The counts of at most *limit* hosts, the most recently used first, to start with; it
        stops after the store's time budget."""

    def close(self) -> None: ...
