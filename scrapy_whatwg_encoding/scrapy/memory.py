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

Declarations are counts per host and encoding in a store (:class:`Store`): adding counts commutes,
so several processes (a scrapy-redis fleet, or two crawls on one JOBDIR) merge without losing any.
Stores: :class:`LocalStore` (this process only), :class:`FileStore` (``JOBDIR/``:data:`FILE_NAME`:
merged with the file's counts and written atomically every :data:`WRITE_EVERY` declarations or
:data:`WRITE_SECONDS` seconds, and at close) and :class:`RedisStore` (``WHATWG_ENCODING_REMEMBER_STORE
= "redis://…"``; one Redis hash per host, ``HINCRBY``). The store is asked only for pages that
could use the memory (rule 2 before the store) and written only for declarations.
"""
from __future__ import annotations

import contextlib
import json
import logging
import operator
import os
import re
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from ..encoding import Encoding, get_encoding
from ..sniffing.decision import DECLARED_SOURCES, UNDECLARED_SOURCES
from ..sniffing.detect import first_non_ascii, is_utf_8

try:
    import fcntl
except ImportError:  # pragma: no cover — not POSIX: the file store writes without a lock
    fcntl = None  # type: ignore[assignment]

logger = logging.getLogger(__name__)

#: Declarations of one encoding (and of no other) before a host is remembered.
MIN_DECLARATIONS = 3
#: Largest share of the non-ASCII characters in which the remembered encoding's text may differ
#: from the detector's (tools/remember_accuracy.py: the sibling pairs of the corpus differ in 0-0.46).
SIBLING_SHARE = 0.25
#: Bytes, from the first non-ASCII one, in which letters are looked for and siblings compared.
SIBLING_WINDOW = 16 * 1024
FILE_NAME = "whatwg_encoding_memory.json"
#: The file store writes after this many declarations, or this many seconds after the last write.
WRITE_EVERY = 100
WRITE_SECONDS = 60.0
#: Redis key of a host's hash (encoding name → declarations).
REDIS_PREFIX = "whatwg_encoding:memory:"

Counts = dict[str, int]
_NON_ASCII_LETTER = re.compile(r"(?![\x00-\x7f])[^\W\d_]")


def host_of(url: str) -> str:
    """The URL's host (lower-case; port included so that two local servers stay apart)."""
    return urlsplit(url).netloc.lower()


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


class Store(Protocol):
    """Where declaration counts live: ``get`` a host's counts, ``merge`` (add) counts into it."""

    def get(self, host: str) -> Counts: ...

    def merge(self, host: str, counts: Mapping[str, int]) -> None: ...

    def close(self) -> None: ...


def _add(table: dict[str, Counts], host: str, counts: Mapping[str, int]) -> None:
    row = table.setdefault(host, {})
    for name, count in counts.items():
        row[name] = row.get(name, 0) + count


class LocalStore:
    """Counts in this process only (no JOBDIR, no Redis)."""

    def __init__(self) -> None:
        self.hosts: dict[str, Counts] = {}

    def get(self, host: str) -> Counts:
        return self.hosts.get(host, {})

    def merge(self, host: str, counts: Mapping[str, int]) -> None:
        _add(self.hosts, host, counts)

    def close(self) -> None:
        pass


class FileStore(LocalStore):
    """Counts in a JSON file (``{"hosts": {host: {encoding: declarations}}}``) shared by every
    process that uses it: read when opened; every *every* declarations or *seconds* seconds, and at
    close, the declarations not yet written are added to what the file holds *then* (another
    process may have written), under a lock file on POSIX, and the sum replaces the file
    atomically (a temporary file, then ``os.replace``). ``get`` reads the file again when it has
    changed since (another process wrote it). A file it cannot read counts as empty."""

    def __init__(self, path: str | os.PathLike, every: int = WRITE_EVERY, seconds: float = WRITE_SECONDS):
        super().__init__()
        self.path, self.every, self.seconds = Path(path), every, seconds
        self.pending: dict[str, Counts] = {}
        self.unwritten = 0
        self.written_at = time.monotonic()
        self.seen: tuple | None = None  # the file's identity when last read (each write is a new file)
        self.hosts = self._read()

    def get(self, host: str) -> Counts:
        try:
            changed = _identity(self.path) != self.seen
        except OSError:
            changed = False
        if changed:
            self.hosts = self._read()
            for name, counts in self.pending.items():
                _add(self.hosts, name, counts)
        return super().get(host)

    def merge(self, host: str, counts: Mapping[str, int]) -> None:
        super().merge(host, counts)
        _add(self.pending, host, counts)
        self.unwritten += 1
        if self.unwritten >= self.every or time.monotonic() - self.written_at >= self.seconds:
            self.write()

    def write(self) -> None:
        """Add the pending declarations to the file's counts and replace the file atomically."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock():
            hosts = self._read()
            for host, counts in self.pending.items():
                _add(hosts, host, counts)
            fd, tmp = tempfile.mkstemp(prefix=self.path.name, suffix=".tmp", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as file:
                    json.dump({"hosts": hosts}, file, indent=1, sort_keys=True)
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        self.hosts, self.pending, self.unwritten = hosts, {}, 0
        self.written_at = time.monotonic()

    def close(self) -> None:
        if self.pending:
            self.write()

    @contextlib.contextmanager
    def _lock(self):
        if fcntl is None:  # pragma: no cover
            yield
            return
        with open(self.path.with_name(self.path.name + ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _read(self) -> dict[str, Counts]:
        try:
            self.seen = _identity(self.path)
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            logger.warning("Could not read %s (%s): starting from no site memory", self.path, exc)
            return {}
        hosts: dict[str, Counts] = {}
        for host, counts in (data.get("hosts") or {}).items() if isinstance(data, dict) else ():
            if isinstance(counts, str):  # the earlier format: host → last declared label
                counts = {counts: 1}
            for label, count in counts.items() if isinstance(counts, dict) else ():
                encoding = get_encoding(label) if isinstance(label, str) else None
                if encoding is not None and isinstance(count, int) and count > 0:
                    _add(hosts, str(host), {encoding.name: count})
        return hosts


def _identity(path: Path) -> tuple[int, int, int]:
    status = path.stat()
    return status.st_ino, status.st_mtime_ns, status.st_size


class RedisStore:
    """Counts in Redis, shared by every process that uses the same server and database: one hash
    per host (key :data:`REDIS_PREFIX` + host, field encoding name, value declarations), read with
    ``HGETALL`` and added to with ``HINCRBY`` (atomic). Needs the ``redis`` package (the
    ``redis`` extra); *url* is what ``redis.Redis.from_url`` accepts."""

    def __init__(self, url: str, prefix: str = REDIS_PREFIX):
        import redis

        self.client = redis.Redis.from_url(url)
        self.prefix = prefix

    def get(self, host: str) -> Counts:
        found = self.client.hgetall(self.prefix + host)
        return {name.decode() if isinstance(name, bytes) else name: int(count) for name, count in found.items()}

    def merge(self, host: str, counts: Mapping[str, int]) -> None:
        with self.client.pipeline(transaction=False) as pipe:
            for name, count in counts.items():
                pipe.hincrby(self.prefix + host, name, count)
            pipe.execute()

    def close(self) -> None:
        self.client.close()


def open_store(store: str | None, job_dir: str | None) -> Store:
    """The store for the setting ``WHATWG_ENCODING_REMEMBER_STORE`` (*store*: a Redis URL or
    ``None``) and ``JOBDIR`` (*job_dir*): Redis, else the JOBDIR file, else this process only."""
    if store:
        return RedisStore(store)
    if job_dir:
        return FileStore(Path(job_dir) / FILE_NAME)
    return LocalStore()


class SiteMemory:
    """The rule (module docstring) over a :class:`Store`. Store errors never reach the crawl: each
    is counted in the stat ``whatwg_encoding/memory/store_errors`` (the first of a kind is logged
    as a WARNING) and the page is decided as without memory. Stats: ``whatwg_encoding/memory/
    store_calls`` and ``store_us`` (time in the store, µs), ``applied`` (pages decided with it)."""

    def __init__(self, store: Store | None = None, stats=None, least: int = MIN_DECLARATIONS,
                 share: float = SIBLING_SHARE):
        self.store: Store = store if store is not None else LocalStore()
        self.stats, self.least, self.share = stats, least, share
        self._logged: set[str] = set()

    def likely(self, url: str, body: bytes, decision) -> Encoding | None:
        """The encoding to decide *body* (bytes, from *url*) with as its likely encoding, given
        the *decision* (a ``Decision``) made without memory; ``None`` where rule 2 says no."""
        if decision.source not in UNDECLARED_SOURCES:
            return None
        first = first_non_ascii(body)
        if first is None or is_utf_8(body, first):
            return None
        counts = self._call("get", host_of(url))
        encoding = remembered(counts, self.least) if counts else None
        if encoding is None or encoding is decision.encoding or encoding.output_encoding is not encoding:
            return None
        if "\ufffd" in encoding.decode(body):
            return None
        window = body[first:first + SIBLING_WINDOW]
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
            self._call("merge", host_of(url), {decision.encoding.name: 1})

    def close(self) -> None:
        self._call("close")

    def _call(self, method: str, *args):
        start = time.perf_counter()
        try:
            return getattr(self.store, method)(*args)
        except Exception as exc:  # noqa: BLE001 — a store error never fails the crawl
            self._inc("store_errors")
            kind = f"{method}:{type(exc).__name__}"
            if kind not in self._logged:
                self._logged.add(kind)
                logger.warning("Site memory store %s failed (%s: %s); pages are decided without it",
                               method, type(exc).__name__, exc)
            return None
        finally:
            self._inc("store_calls")
            self._inc("store_us", round((time.perf_counter() - start) * 1e6))

    def _inc(self, name: str, count: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"whatwg_encoding/memory/{name}", count)

