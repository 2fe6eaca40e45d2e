"""What the site memory (:mod:`.site`) and its stores (:mod:`.sqlite`,
:mod:`.redis`) share: the shapes of declaration counts and batches, the :class:`Store`
protocol, a page's host key and the cleaning of counts read from a store. Imports none of them, so
that the memory and its stores do not import each other."""
from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any, Protocol
from urllib.parse import urlsplit

from ...encoding import get_encoding

#: Declarations per encoding name (``{"KOI8-R": 3}``).
Counts = dict[str, int]
#: A batch of declarations: an id (the same when it is sent again) and host → counts.
Batch = tuple[str, dict[str, Counts]]


_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}


def host_of(url: str) -> str:
    """The key a page of *url* is remembered under: the URL's host, lower-case and IDNA-encoded,
    with the port when it is not the scheme's default (two servers on one machine stay apart),
    as the URL Standard's ``host`` getter gives it. Never the user name or password.

    >>> host_of("http://user:secret@Bücher.Example:8080/a"), host_of("https://[::1]:443/")
    ('xn--bcher-kva.example:8080', '[::1]')
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        pass  # not a valid IDNA name: kept as it is (lower-case)
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host += f":{port}"
    return host


def clean_counts(pairs: Iterable[tuple[Any, Any]]) -> Counts:
    """Declaration counts from a store's (label, count) pairs: labels become encoding names;
    pairs that are not a label and a positive whole number (bytes or text allowed) are left out."""
    counts: Counts = {}
    for label, count in pairs:
        name = _name_of(label.decode("utf-8", "replace") if isinstance(label, bytes) else label)
        try:
            count = int(count) if isinstance(count, (int, bytes, str)) and not isinstance(count, bool) else 0
        except ValueError:
            count = 0
        if name is not None and count > 0:
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
    from the memory's thread; any exception is a failure of the store. ``where``: for messages."""

    where: str

    def exchange(self, batches: list[Batch], hosts: Iterable[str]) -> dict[str, Counts]:
        """Add each of *batches* (an id, and host → encoding name → declarations) once — a batch
        sent again after a failure is not added twice, whatever the failure — and read the counts
        of *hosts* (absent: none)."""

    def preload(self, limit: int) -> dict[str, Counts]:
        """The counts of at most *limit* hosts, to start with."""

    def close(self) -> None: ...
