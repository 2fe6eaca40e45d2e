"""Site memory in Redis (``WHATWG_ENCODING_REMEMBER_STORE = "redis://…"``): one hash per host,
key :data:`REDIS_PREFIX` + host, field encoding name, value declarations (``HINCRBY``, atomic, so
every process of a fleet adds to the same counts). Called only from the memory's own thread
(:mod:`.sync`), never from the reactor's; every call has a connect and a read timeout and
is not retried (the memory retries at its next exchange, or leaves the store alone for a while)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qs, unquote, urlsplit

from .store import Batch, Counts, clean_counts

#: Redis key of a host's hash (encoding name → declarations).
REDIS_PREFIX = "whatwg_encoding:memory:"
#: Redis key that marks a batch of declarations as added (see :meth:`RedisStore.exchange`).
BATCH_PREFIX = "whatwg_encoding:batch:"
# KEYS[1]: the batch's mark; ARGV: key, field, count, key, field, count, ...
_ADD_ONCE = """
if not redis.call('SET', KEYS[1], 1, 'NX', 'EX', 86400) then return 0 end
for i = 1, #ARGV, 3 do redis.call('HINCRBY', ARGV[i], ARGV[i + 1], ARGV[i + 2]) end
return 1
"""
#: Seconds to connect and to wait for each answer, unless the URL says otherwise
#: (``?socket_connect_timeout=…&socket_timeout=…``).
TIMEOUT_SECONDS = 2.0
SCHEMES = ("redis", "rediss", "unix")
_DB = re.compile(r"[0-9]+")


def check_url(url: str) -> str:
    """*url* if it is a Redis URL ``redis-py`` reads as written: scheme ``redis``, ``rediss`` or
    ``unix``; a whole-number port; a database (path ``/N`` or ``?db=N``) that is a whole number.
    Raises ``ValueError`` saying what is wrong (``redis-py`` itself reads ``/notadb`` as database 0
    and ``/1/2`` as 12)."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in SCHEMES:
        raise ValueError(f"the scheme must be one of {', '.join(SCHEMES)}")
    databases = parse_qs(parts.query, keep_blank_values=True).get("db", [])
    if parts.scheme.lower() != "unix":
        parts.port  # noqa: B018 — raises ValueError for a port that is not a number
        path = unquote(parts.path)
        if path not in ("", "/"):
            databases.append(path[1:])
    for database in databases:
        if not _DB.fullmatch(database):
            raise ValueError(f"the database must be a whole number, not {database!r}")
    from redis.connection import parse_url

    parse_url(url)  # its own checks (options in the query)
    return url


class RedisStore:
    """Counts in Redis at *url* (checked with :func:`check_url`); ``redis`` must be installed."""

    def __init__(self, url: str, prefix: str = REDIS_PREFIX, timeout: float = TIMEOUT_SECONDS):
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # Options in the URL's query win over these (redis-py adds them last).
        self.client = redis.Redis.from_url(
            check_url(url), socket_connect_timeout=timeout, socket_timeout=timeout,
            retry=Retry(NoBackoff(), 0), retry_on_timeout=False)
        self.prefix = prefix
        self.where = f"Redis {redis.connection.parse_url(url).get('host', url)}"

    def exchange(self, batches: list[Batch], hosts: Iterable[str]) -> dict[str, Counts]:
        """Add *batches* (ids, host → encoding name → declarations) and read *hosts*' counts, in
        one pipelined round trip. Each batch is one Lua script (atomic) that adds it only if its
        id is new (a key :data:`BATCH_PREFIX` + id, kept a day): a batch whose answer timed out
        after Redis had added it is not added twice when sent again. A key that is not a hash of
        counts reads as empty."""
        hosts = list(hosts)
        with self.client.pipeline(transaction=False) as pipe:
            for batch_id, batch in batches:
                triples = [part for host, counts in batch.items() for name, count in counts.items()
                           for part in (self.prefix + host, name, count)]
                pipe.eval(_ADD_ONCE, 1, BATCH_PREFIX + batch_id, *triples)
            for host in hosts:
                pipe.hgetall(self.prefix + host)
            results = pipe.execute(raise_on_error=False)
        for result in results[:len(batches)]:
            if isinstance(result, Exception):
                raise result
        return {host: _counts(found) for host, found in zip(hosts, results[len(batches):])}

    def preload(self, limit: int) -> dict[str, Counts]:
        """Counts of at most *limit* hosts (in no particular order), read when the crawl starts."""
        keys = []
        for key in self.client.scan_iter(match=self.prefix + "*", count=1000):
            keys.append(key)
            if len(keys) >= limit:
                break
        with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hgetall(key)
            results = pipe.execute(raise_on_error=False)
        start = len(self.prefix)
        return {key.decode("utf-8", "replace")[start:]: _counts(found) for key, found in zip(keys, results)}

    def close(self) -> None:
        self.client.close()


def _counts(found) -> Counts:
    if not isinstance(found, dict):  # an error (a key of another type): counts as empty
        return {}
    return clean_counts((name.decode("utf-8", "replace"), value) for name, value in found.items())
