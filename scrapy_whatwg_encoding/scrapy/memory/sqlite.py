"""Site memory in ``JOBDIR``: an SQLite database (Python's ``sqlite3``), table ``counts(host,
encoding, declarations)``, shared by every process that opens it (WAL journal; a writer waits
for another up to :data:`BUSY_SECONDS`). Adding a batch is one transaction of upserts, so its cost
does not grow with the file. Called only from the memory's own thread (:mod:`.sync`).

A file that is not such a database (garbage, a table of another shape) counts as empty: one
WARNING, and it is made anew. A JSON file of earlier versions (:data:`JSON_NAME`) is added to the
database once and removed. The database file is created with the mode the umask gives; SQLite's
``-wal`` and ``-shm`` files exist while a process has it open and are removed by the last to close.
"""
from __future__ import annotations

import itertools
import json
import logging
import os
import random
import sqlite3
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from ...encoding import ENCODINGS, get_encoding
from .store import (
    EVICT_CHUNK,
    INVALID,
    MAX_COUNT,
    MAX_FIELDS,
    Batch,
    Counts,
    StoreOptions,
    add_counts,
    clean_counts,
    host_of,
)

logger = logging.getLogger(__name__)

FILE_NAME = "whatwg_encoding_memory.sqlite3"
#: The file of versions before 0.2 (``{"hosts": {host: {encoding: declarations}}}``).
JSON_NAME = "whatwg_encoding_memory.json"
#: Seconds a write waits for another process's transaction to end.
BUSY_SECONDS = 5.0
_COLUMNS = ["host", "encoding", "declarations"]
_CREATE = ("CREATE TABLE IF NOT EXISTS counts (host TEXT NOT NULL, encoding TEXT NOT NULL, "
           "declarations INTEGER NOT NULL, PRIMARY KEY (host, encoding)) WITHOUT ROWID")
# When each host was last used (written, or read and found), in µs since the epoch: the store keeps
# the most recently used (see SQLiteStore.max_hosts). A database of an earlier version gets the
# table with every host at 0 (the least recently used).
_CREATE_USED = ("CREATE TABLE IF NOT EXISTS used (host TEXT NOT NULL PRIMARY KEY, at INTEGER NOT NULL) "
                "WITHOUT ROWID")
_CREATE_USED_AT = "CREATE INDEX IF NOT EXISTS used_at ON used (at, host)"
_ADD = ("INSERT INTO counts VALUES (?, ?, ?) ON CONFLICT (host, encoding) "
        "DO UPDATE SET declarations = declarations + excluded.declarations")
_TOUCH = "INSERT INTO used VALUES (?, ?) ON CONFLICT (host) DO UPDATE SET at = max(at, excluded.at)"
_CHUNK = 500  # hosts per SELECT … IN (…), below SQLite's limit on parameters (without JSON)
# With SQLite's JSON functions (built in since 3.38, JSON1 before), each statement takes or gives
# the hosts of a chunk as one JSON text: SQLite works on it without the GIL, in one step (the
# sqlite3 module releases the GIL around each step, and a thread that wants it back waits while
# the loop's thread runs Python: one step per row made a 20,000-host exchange take seconds beside a
# busy crawl), and Python encodes and decodes it in C, a chunk at a time (each holds the GIL ~1 ms).
_JSON_CHUNK = 2000
# Rows of our own shape: a text host, an encoding name (not a label: clean_counts is for the rest)
# and a whole number of declarations from 1 to MAX_COUNT.
_NAMES = json.dumps(sorted(e.name for e in ENCODINGS.values() if getattr(get_encoding(e.name), "name", None) == e.name))
_VALID = ("(typeof(host) = 'text' AND typeof(declarations) = 'integer' AND declarations > 0 "
          f"AND declarations <= {MAX_COUNT} AND encoding IN (SELECT value FROM json_each(:names)))")
_IN = "host IN (SELECT value FROM json_each(:hosts))"
_ADD_JSON = ("INSERT INTO counts (host, encoding, declarations) SELECT h.key, e.key, e.value "
             "FROM json_each(?) AS h, json_each(h.value) AS e WHERE true ON CONFLICT (host, encoding) "
             "DO UPDATE SET declarations = declarations + excluded.declarations")
_TOUCH_JSON = ("INSERT INTO used SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT (host) "
               "DO UPDATE SET at = max(at, excluded.at)")
# A host with more than MAX_FIELDS rows is read as invalid, its rows unread (the key of a
# 200,000-row host would otherwise be read whole).
_BIG = (f"SELECT json_group_array(host) FROM (SELECT host FROM counts WHERE {_IN} GROUP BY host "
        f"HAVING count(*) > {MAX_FIELDS})")
_READ = ("SELECT json_group_object(host, json(counts)) FROM (SELECT host, json_group_object(encoding, "
         f"declarations) AS counts FROM counts WHERE {_IN} AND {_VALID} GROUP BY host)")
_READ_OTHERS = (f"SELECT * FROM counts WHERE {_IN} AND {_VALID} IS NOT 1 "
                "AND host NOT IN (SELECT value FROM json_each(:big))")
_TOUCH_FOUND = "UPDATE used SET at = max(at, ?) WHERE host IN (SELECT value FROM json_each(?))"
# The most recently used hosts after (at, host), a chunk of them as one JSON array of [host, at].
_RECENT = ("SELECT json_group_array(json_array(host, at)) FROM (SELECT host, at FROM used "
           "WHERE (at, host) < (?, ?) ORDER BY at DESC, host DESC LIMIT ?)")
# The least recently used hosts beyond the bound leave both tables.
_OLDEST = "SELECT host FROM used ORDER BY at, host LIMIT ?"


class SQLiteStore:
    """Counts in the database at *path* (created with its directory when first used), of at most
    ``options.max_hosts`` hosts: when a write makes more, the least recently used leave (counted in
    ``events["store_evicted"]``). The preload stops after ``options.preload_seconds``."""

    #: Whether to use SQLite's JSON functions where it has them (false: one row per step).
    use_json = True

    def __init__(self, path: str | os.PathLike, options: StoreOptions | None = None):
        options = options or StoreOptions()
        self.path = Path(path)
        self.where = str(self.path)
        self.max_hosts, self.preload_seconds = options.max_hosts, options.preload_seconds
        self.events: Counter[str] = Counter()
        self.db: sqlite3.Connection | None = None
        self._inode: int | None = None
        self._json = self.use_json  # and SQLite has its JSON functions (checked when connecting)

    def exchange(self, batches: list[Batch], hosts: Iterable[str]) -> dict[str, Counts]:
        """Add *batches* (ids, host → encoding name → declarations) in one transaction (which
        commits all or nothing, so a batch sent again is never added twice), the least recently
        used hosts beyond ``max_hosts`` leaving in it; read *hosts*' counts, those found counting
        as used."""
        try:
            self._add(self._open(), batches)
        except sqlite3.OperationalError:
            raise  # locked, disk full, read-only: the memory tries again later
        except sqlite3.DatabaseError as exc:  # the file became something else: made anew
            self._repair(exc)
            self._add(self._open(), batches)
        db = self._open()
        found = self._read(db, list(hosts))
        if found:
            with db:
                db.execute("BEGIN IMMEDIATE")
                if self._json:
                    db.execute(_TOUCH_FOUND, (_now(), json.dumps(list(found))))
                else:
                    db.executemany("UPDATE used SET at = max(at, ?) WHERE host = ?",
                                   [(_now(), host) for host in found])
        return found

    def preload(self, limit: int) -> dict[str, Counts]:
        """Counts of at most *limit* hosts, the most recently used first, read when the crawl
        starts until ``preload_seconds`` have passed; the hosts left out are counted in
        ``events["preload_skipped"]``."""
        db = self._open()
        deadline = time.monotonic() + self.preload_seconds
        found: dict[str, Counts] = {}
        after: tuple[int, str] = (2**63 - 1, "")
        while len(found) < limit and time.monotonic() < deadline:
            size = min(_JSON_CHUNK if self._json else _CHUNK, limit - len(found))
            if self._json:
                (rows,) = db.execute(_RECENT, (*after, size)).fetchone()
                recent = [(at, host) for host, at in json.loads(rows)]
            else:
                recent = db.execute("SELECT at, host FROM used WHERE (at, host) < (?, ?) "
                                    "ORDER BY at DESC, host DESC LIMIT ?", (*after, size)).fetchall()
            if not recent:
                break
            after = min(recent)
            found.update(self._read(db, [host for _, host in recent]))
        (total,) = db.execute("SELECT count(*) FROM used").fetchone()
        self.events["preload_skipped"] += max(0, total - len(found))
        return found

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    def _add(self, db: sqlite3.Connection, batches: list[Batch]) -> None:
        if not any(batch for _, batch in batches):
            return
        now = _now()
        with db:  # one transaction (commit, or rollback on an error)
            db.execute("BEGIN IMMEDIATE")
            for _, batch in batches:
                if not self._json:
                    db.executemany(_ADD, [(host, name, count) for host, counts in batch.items()
                                          for name, count in counts.items()])
                    db.executemany(_TOUCH, [(host, now) for host in batch])
                    continue
                items = iter(batch.items())
                while chunk := dict(itertools.islice(items, _JSON_CHUNK)):
                    db.execute(_ADD_JSON, (json.dumps(chunk),))
                    db.execute(_TOUCH_JSON, (now, json.dumps(list(chunk))))
            (total,) = db.execute("SELECT count(*) FROM used").fetchone()
            over = min(total - self.max_hosts, EVICT_CHUNK)
            if over > 0:
                oldest = "SELECT value FROM json_each(?)"
                (hosts,) = db.execute(f"SELECT json_group_array(host) FROM ({_OLDEST})", (over,)).fetchone()
                db.execute(f"DELETE FROM counts WHERE host IN ({oldest})", (hosts,))
                db.execute(f"DELETE FROM used WHERE host IN ({oldest})", (hosts,))
                self.events["store_evicted"] += over

    def _read(self, db: sqlite3.Connection, hosts: list[str]) -> dict[str, Counts]:
        """The counts of *hosts* (those in the store), invalid values counted under INVALID and
        in ``events["store_invalid"]``."""
        found: dict[str, Counts] = {}
        if not self._json:
            for start in range(0, len(hosts), _CHUNK):
                chunk = hosts[start:start + _CHUNK]
                marks = ", ".join("?" * len(chunk))
                big = {host for host, in db.execute(f"SELECT host FROM counts WHERE host IN ({marks}) GROUP BY host "
                                                    f"HAVING count(*) > {MAX_FIELDS}", chunk)}
                self._collect(found, ((h, n, c) for h, n, c in db.execute(
                    f"SELECT * FROM counts WHERE host IN ({marks})", chunk) if h not in big))
                found.update((host, {INVALID: 1}) for host in big)
        else:
            for start in range(0, len(hosts), _JSON_CHUNK):
                params = {"hosts": json.dumps(hosts[start:start + _JSON_CHUNK]), "names": _NAMES}
                (big,) = db.execute(_BIG, params).fetchone()
                params["big"] = big
                (counts,) = db.execute(_READ, params).fetchone()
                if counts:
                    found.update(json.loads(counts))
                self._collect(found, db.execute(_READ_OTHERS, params))
                found.update((host, {INVALID: 1}) for host in json.loads(big))
        self.events["store_invalid"] += sum(counts.get(INVALID, 0) for counts in found.values())
        return found

    @staticmethod
    def _collect(found: dict[str, Counts], rows) -> None:
        for host, name, count in rows:
            if isinstance(host, str):
                add_counts(found, host, clean_counts([(name, count)]))

    def _open(self) -> sqlite3.Connection:
        """The connection, opened (again, if another process replaced the file) and checked."""
        try:
            inode = self.path.stat().st_ino
        except OSError:
            inode = None
        if self.db is not None and inode == self._inode:
            return self.db
        self.close()
        try:
            self.db = self._connect()
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as exc:  # not a database
            self._repair(exc)
            self.db = self._connect()
        return self.db

    def _connect(self) -> sqlite3.Connection:
        """A new connection, set up (WAL, the table, an earlier version's file migrated). Its busy
        timeout is set before any statement; a step that is refused as busy or locked without
        waiting (SQLite does so when several connections switch a new file to WAL at once, or
        recover it) is tried again, the whole set-up anew, until :data:`BUSY_SECONDS` have passed."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Created here so that it gets the umask's mode (SQLite would make it 0644).
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666))
        self._inode = self.path.stat().st_ino
        deadline = time.monotonic() + BUSY_SECONDS
        pause = 0.005
        while True:
            # timeout: sqlite3_busy_timeout, set when the connection is opened, before any statement.
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            try:
                self._set_up(db)
                return db
            except sqlite3.OperationalError as exc:
                db.close()
                if not _busy(exc) or time.monotonic() + pause >= deadline:
                    raise
            except BaseException:
                db.close()
                raise
            time.sleep(pause * random.uniform(0.5, 1.5))  # apart, so that one of them goes first
            pause = min(pause * 2, 0.2)

    def _set_up(self, db: sqlite3.Connection) -> None:
        try:
            self._json = self.use_json and db.execute("SELECT json_valid('[]')").fetchone() == (1,)
        except sqlite3.OperationalError:  # no JSON functions (SQLite before 3.38 without JSON1)
            self._json = False
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # with WAL: never corrupt; a power loss may undo the last batches
        columns = [row[1] for row in db.execute("PRAGMA table_info(counts)")]
        if columns not in ([], _COLUMNS):
            logger.warning("%s: the table 'counts' has columns %s, not %s; it counts as empty and "
                           "is made anew", self.path, columns, _COLUMNS)
            db.execute("DROP TABLE counts")
            db.execute("DROP TABLE IF EXISTS used")
        db.execute(_CREATE)
        with db:
            db.execute("BEGIN IMMEDIATE")
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'used'").fetchone() is None:
                db.execute(_CREATE_USED)  # an earlier version's hosts: the least recently used
                db.execute("INSERT INTO used SELECT DISTINCT host, 0 FROM counts WHERE typeof(host) = 'text'")
            db.execute(_CREATE_USED_AT)
        self._migrate(db)

    def _repair(self, exc: Exception) -> None:
        logger.warning("%s is not a site memory database (%s); it counts as empty and is made anew",
                       self.path, exc)
        self.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Add the counts of an earlier version's JSON file, then remove it (in one transaction)."""
        path = self.path.with_name(JSON_NAME)
        if not path.exists():
            return
        hosts = read_json(path)
        with db:
            db.execute("BEGIN IMMEDIATE")
            if path.exists():  # not migrated by another process meanwhile
                db.executemany(_ADD, [(host, name, count) for host, counts in hosts.items()
                                      for name, count in counts.items()])
                db.executemany(_TOUCH, [(host, 0) for host in hosts])
                path.unlink()
                Path(f"{path}.lock").unlink(missing_ok=True)


def _now() -> int:
    """The time a host is used at: µs since the epoch (shared by the processes of one machine)."""
    return time.time_ns() // 1000


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether *exc* is SQLite's SQLITE_BUSY or SQLITE_LOCKED (another connection holds a lock)."""
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED (primary codes)
    return str(exc).startswith(("database is locked", "database table is locked", "database is busy"))


def read_json(path: Path) -> dict[str, Counts]:
    """The counts of an earlier version's JSON file; what is unreadable or of another shape counts
    as empty (one WARNING). Keys (``user:password@host:port`` then) become hosts (:func:`host_of`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        logger.warning("Could not read %s (%s): it counts as empty", path, exc)
        return {}
    hosts: dict[str, Counts] = {}
    table = data.get("hosts") if isinstance(data, dict) else None
    if not isinstance(table, dict):
        logger.warning("%s is not a site memory file (no \"hosts\" object): it counts as empty", path)
        return {}
    for key, counts in table.items():
        if isinstance(counts, str):  # the earliest format: host → last declared label
            counts = {counts: 1}
        if isinstance(counts, dict):
            add_counts(hosts, host_of(f"http://{key}/"), clean_counts(counts.items()))
    return hosts
