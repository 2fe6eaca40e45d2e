"""Site memory in Redis (``WHATWG_ENCODING_REMEMBER_STORE = "redis://…"``): one hash per host,
key prefix (``WHATWG_ENCODING_REMEMBER_REDIS_PREFIX``, :data:`REDIS_PREFIX`) + host, field encoding
name, value declarations (``HINCRBY``, atomic, so every process of a fleet adds to the same counts),
and a sorted set, key prefix + :data:`USED_KEY`, of when each host was last used (written, or read
and found; the store keeps the ``max_hosts`` most recently used). Called only from the memory's own
thread (:mod:`.sync`), never from the reactor's; every call has a connect and a read timeout and
is not retried (the memory retries at its next exchange, or leaves the store alone for a while).
A host's key written by an earlier version enters the sorted set when it is read (by an exchange,
or the preload, as the least recently used)."""
from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable
from urllib.parse import parse_qs, unquote, urlsplit

from .store import EVICT_CHUNK, INVALID, MAX_FIELDS, Batch, Counts, StoreOptions, clean_counts

#: The default prefix of the Redis keys (a host's hash: prefix + host).
REDIS_PREFIX = StoreOptions.redis_prefix
#: After the prefix, the key of the sorted set host → last use (µs since the epoch), and of the
#: marks of batches added (see :meth:`RedisStore.exchange`); no host has a ``#``.
USED_KEY = "#used"
BATCH_KEY = "#batch:"
# KEYS[1]: the batch's mark, KEYS[2]: the sorted set; ARGV: now, the most hosts, the prefix, the
# most hosts to remove, then host, field, count, host, field, count, ... Returns the hosts that
# left (-1: added before).
_ADD_ONCE = """
if not redis.call('SET', KEYS[1], 1, 'NX', 'EX', 86400) then return -1 end
for i = 5, #ARGV, 3 do
  -- A field that holds no integer (or a key of another type) refuses it: left as it is (invalid
  -- when read), the rest of the batch added.
  redis.pcall('HINCRBY', ARGV[3] .. ARGV[i], ARGV[i + 1], ARGV[i + 2])
  redis.call('ZADD', KEYS[2], ARGV[1], ARGV[i])
end
local over = math.min(redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[2]), tonumber(ARGV[4]))
if over <= 0 then return 0 end
for _, host in ipairs(redis.call('ZRANGE', KEYS[2], 0, over - 1)) do
  redis.call('DEL', ARGV[3] .. host)
end
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
return over
"""
# KEYS[1]: the sorted set, then the hosts' keys; ARGV: the most fields, the prefix's length, and
# the time of use (empty: not a use). For each host: 0 (absent), -1 (not a hash), its number of
# fields if more than the most (not read), or its fields and values.
_READ = """
local out = {}
for i = 2, #KEYS do
  local kind = redis.call('TYPE', KEYS[i])['ok']
  if kind == 'none' then out[i - 1] = 0
  elseif kind ~= 'hash' then out[i - 1] = -1
  else
    local n = redis.call('HLEN', KEYS[i])
    if n > tonumber(ARGV[1]) then out[i - 1] = n else out[i - 1] = redis.call('HGETALL', KEYS[i]) end
    if ARGV[3] ~= '' then
      redis.call('ZADD', KEYS[1], ARGV[3], string.sub(KEYS[i], tonumber(ARGV[2]) + 1))
    end
  end
end
return out
"""
#: Hosts per read script.
_CHUNK = 500
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
    """Counts in Redis at *url* (checked with :func:`check_url`) under ``options.redis_prefix``,
    of at most ``options.max_hosts`` hosts (the least recently used leave: ``events["store_evicted"]``);
    ``redis`` must be installed."""

    def __init__(self, url: str, prefix: str | None = None, timeout: float = TIMEOUT_SECONDS,
                 options: StoreOptions | None = None):
        options = options or StoreOptions()
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # Options in the URL's query win over these (redis-py adds them last).
        self.client = redis.Redis.from_url(
            check_url(url), socket_connect_timeout=timeout, socket_timeout=timeout,
            retry=Retry(NoBackoff(), 0), retry_on_timeout=False)
        self.prefix = options.redis_prefix if prefix is None else prefix
        self.used = self.prefix + USED_KEY
        self.max_hosts, self.preload_seconds = options.max_hosts, options.preload_seconds
        self.events: Counter[str] = Counter()
        self.where = f"Redis {redis.connection.parse_url(url).get('host', url)}"

    def exchange(self, batches: list[Batch], hosts: Iterable[str]) -> dict[str, Counts]:
        """Add *batches* (ids, host → encoding name → declarations) and read *hosts*' counts, in
        one pipelined round trip. Each batch is one Lua script (atomic) that adds it only if its
        id is new (a key prefix + :data:`BATCH_KEY` + id, kept a day) — a batch whose answer timed
        out after Redis had added it is not added twice when sent again — and removes the least
        recently used hosts beyond ``max_hosts``. A key that is not a hash, or a hash of more than
        :data:`.store.MAX_FIELDS` fields, reads as invalid."""
        hosts = list(hosts)
        now = time.time_ns() // 1000
        with self.client.pipeline(transaction=False) as pipe:
            for batch_id, batch in batches:
                triples = [part for host, counts in batch.items() for name, count in counts.items()
                           for part in (host, name, count)]
                pipe.eval(_ADD_ONCE, 2, self.prefix + BATCH_KEY + batch_id, self.used, now, self.max_hosts,
                          self.prefix, EVICT_CHUNK, *triples)
            for start in range(0, len(hosts), _CHUNK):
                self._read(pipe, hosts[start:start + _CHUNK], now)
            results = pipe.execute(raise_on_error=False)
        for result in results[:len(batches)]:
            if isinstance(result, Exception):
                raise result
            self.events["store_evicted"] += max(0, result)
        return self._found(hosts, results[len(batches):])

    def preload(self, limit: int) -> dict[str, Counts]:
        """Counts of at most *limit* hosts, the most recently used first, then (while fewer) keys
        of an earlier version's, read when the crawl starts until ``preload_seconds`` have passed;
        the hosts left out are counted in ``events["preload_skipped"]`` (of those in the sorted set)."""
        deadline = time.monotonic() + self.preload_seconds
        found: dict[str, Counts] = {}
        start = 0
        while len(found) < limit and time.monotonic() < deadline:
            recent = self.client.zrevrange(self.used, start, start + min(_CHUNK, limit - len(found)) - 1)
            if not recent:
                break
            start += len(recent)
            found.update(self._read_now([_text(host) for host in recent], ""))
        known = self.client.zcard(self.used)
        if len(found) < limit and start >= known:  # all of the set read: keys not in it yet
            older: list[str] = []
            pattern = _glob_escape(self.prefix) + "*"
            for key in self.client.scan_iter(match=pattern, count=1000):
                host = _text(key)[len(self.prefix):]
                if "#" not in host and host not in found:
                    older.append(host)
                if len(older) >= min(_CHUNK, limit - len(found)):
                    found.update(self._read_now(older, 0))
                    older = []
                if len(found) >= limit or time.monotonic() >= deadline:
                    break
            found.update(self._read_now(older[:limit - len(found)], 0))
        self.events["preload_skipped"] += max(0, known - start)
        return found

    def close(self) -> None:
        self.client.close()

    def _read(self, pipe, hosts: list[str], now: int | str) -> None:
        pipe.eval(_READ, 1 + len(hosts), self.used, *(self.prefix + host for host in hosts),
                  MAX_FIELDS, len(self.prefix), now)

    def _read_now(self, hosts: list[str], now: int | str) -> dict[str, Counts]:
        if not hosts:
            return {}
        with self.client.pipeline(transaction=False) as pipe:
            self._read(pipe, hosts, now)
            results = pipe.execute(raise_on_error=False)
        return self._found(hosts, results)

    def _found(self, hosts: list[str], results: list) -> dict[str, Counts]:
        """The counts of *hosts* from the read scripts' *results*; raises a script's error."""
        found: dict[str, Counts] = {}
        for start, result in zip(range(0, len(hosts), _CHUNK), results):
            if isinstance(result, Exception):
                raise result
            for host, value in zip(hosts[start:start + _CHUNK], result):
                counts = _counts(value)
                if counts is not None:
                    found[host] = counts
                    self.events["store_invalid"] += counts.get(INVALID, 0)
        return found


def _counts(value) -> Counts | None:
    """A host's counts from the read script's answer (``None``: absent)."""
    if value == 0:
        return None
    if isinstance(value, int):  # not a hash, or too many fields to read
        return {INVALID: 1}
    return clean_counts((value[i].decode("utf-8", "replace"), value[i + 1]) for i in range(0, len(value), 2))


def _text(value) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _glob_escape(text: str) -> str:
    """*text* as a pattern of Redis's ``SCAN MATCH`` that matches only itself."""
    return re.sub(r"([*?\[\]\\])", r"\\\1", text)
