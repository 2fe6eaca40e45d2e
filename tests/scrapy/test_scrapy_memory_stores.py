"""Issue 37, item 3: the site memory's stores, against real SQLite files and a real redis-server
(skipped where it is absent): bounded like the RAM view (least recently used hosts leave), what
leaves the RAM view kept by a healthy store, a Redis key prefix per project, invalid stored values
counted and never read as consistent, a preload bounded in hosts and time, and hosts named as
w3lib/Scrapy write them (``example.com.`` is ``example.com``).

The crawls reach many hosts through one local server used as their HTTP proxy (Scrapy's
``meta["proxy"]``): every host name is kept in the URL, and no name needs a DNS answer."""
from __future__ import annotations

import concurrent.futures
import sqlite3

import pytest
import pytest_twisted
import scrapy
from hypothesis import given
from hypothesis import strategies as st
from scrapy.utils.test import get_crawler
from twisted.internet import reactor
from twisted.web import resource, server
from whatwg_crawl_helpers import crawl, memory_rows, whatwg_stats

from scrapy_whatwg_encoding import ENCODINGS, sniff
from scrapy_whatwg_encoding.scrapy.memory import MIN_DECLARATIONS, SiteMemory, host_of, remembered
from scrapy_whatwg_encoding.scrapy.memory.redis import REDIS_PREFIX, USED_KEY, RedisStore
from scrapy_whatwg_encoding.scrapy.memory.sqlite import _CREATE, FILE_NAME, SQLiteStore
from scrapy_whatwg_encoding.scrapy.memory.store import INVALID, MAX_COUNT, MAX_FIELDS, StoreOptions

HOSTS = 600
RAM_HOSTS = 100
#: A Russian page declared KOI8-R by its Content-Type: one declaration of its host per page.
PAGE = "<!doctype html><title>Привет</title><p>Съешь же ещё этих мягких французских булок.".encode("koi8-r")


class _AnyHost(resource.Resource):
    """Answers every request (a proxy's absolute URI included) with :data:`PAGE`."""

    isLeaf = True

    def render_GET(self, request):
        request.setHeader(b"Content-Type", b"text/html; charset=koi8-r")
        return PAGE


@pytest.fixture(scope="module")
def proxy():
    port = reactor.listenTCP(0, server.Site(_AnyHost()), interface="127.0.0.1")
    yield f"http://127.0.0.1:{port.getHost().port}"
    port.stopListening()


def _hosts(proxy: str, names):
    return [(f"http://{name}/", {"proxy": proxy}) for name in names]


def _names(first: int, last: int) -> list[str]:
    return [f"h{n}.memory.test" for n in range(first, last)]


# --- 2: a healthy store keeps what leaves the RAM view -----------------------------------------


@pytest_twisted.inlineCallbacks
def test_jobdir_keeps_every_host_the_ram_view_evicts(proxy, tmp_path):
    """600 hosts, one labeled page each, a RAM view of 100: the JOBDIR store keeps all 600 hosts
    (it used to keep 300, 300 declarations counted as dropped, 600 evictions); 500 hosts left RAM,
    each once. A resumed crawl with a store bound of 250 keeps the 250 most recently used."""
    settings = {"JOBDIR": str(tmp_path), "WHATWG_ENCODING_REMEMBER": True, "LOG_LEVEL": "WARNING",
                "WHATWG_ENCODING_REMEMBER_MAX_HOSTS": RAM_HOSTS}
    crawler, pages = yield crawl(_hosts(proxy, _names(0, HOSTS)), settings=settings)
    assert len(pages) == HOSTS
    assert {(p.meta["whatwg_encoding"]["encoding"], p.meta["whatwg_encoding"]["source"]) for p in pages} == {
        ("KOI8-R", "transport")}
    stats = whatwg_stats(crawler)
    assert memory_rows(tmp_path / FILE_NAME) == {name: {"KOI8-R": 1} for name in _names(0, HOSTS)}
    assert stats["whatwg_encoding/memory/evicted"] == HOSTS - RAM_HOSTS
    assert "whatwg_encoding/memory/dropped" not in stats
    assert "whatwg_encoding/memory/store_evicted" not in stats

    crawler, pages = yield crawl(_hosts(proxy, _names(HOSTS, HOSTS + 10)), settings={
        **settings, "WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS": 250})
    stats = whatwg_stats(crawler)
    rows = memory_rows(tmp_path / FILE_NAME)
    assert len(rows) == 250 and set(_names(HOSTS, HOSTS + 10)) <= set(rows)
    assert stats["whatwg_encoding/memory/store_evicted"] == HOSTS + 10 - 250
    # The start read the 100 most recently used hosts (the RAM view's size), not the other 500.
    assert stats["whatwg_encoding/memory/preload_skipped"] == HOSTS - RAM_HOSTS


def test_hosts_learned_faster_than_the_store_exchanges_are_all_saved(tmp_path):
    """600 hosts learned before any exchange's turn (the timer's), with a RAM view of 100: while
    the store answers (here before the next 100 hosts come), none is dropped (more than 100
    waiting used to drop the rest: 500 here); each time 100 wait, an exchange starts at once."""
    stats = get_crawler().stats
    memory = SiteMemory(SQLiteStore(tmp_path / FILE_NAME), stats, max_hosts=RAM_HOSTS)
    declared = sniff(PAGE, content_type="text/html; charset=koi8-r")
    names = _names(0, HOSTS)
    for start in range(0, HOSTS, RAM_HOSTS):
        for name in names[start:start + RAM_HOSTS]:
            memory.learn(f"http://{name}/", declared)
        if memory._job is not None:
            concurrent.futures.wait([memory._job[0]], 10)  # the store answers
    assert memory.close()
    assert memory_rows(tmp_path / FILE_NAME) == {name: {"KOI8-R": 1} for name in _names(0, HOSTS)}
    assert stats.get_value("whatwg_encoding/memory/dropped") is None
    assert stats.get_value("whatwg_encoding/memory/evicted") == HOSTS - RAM_HOSTS


def test_hosts_learned_while_the_store_is_held_stay_bounded(tmp_path):
    """A store whose exchange is held (its SQLite file write-locked by another connection): at most
    ``max_hosts`` hosts wait for it, the declarations of further hosts are dropped and counted
    (they used to wait without a bound: 90 hosts here); once the lock goes, the rest is saved."""
    path = tmp_path / FILE_NAME
    maker = SQLiteStore(path)
    maker.exchange([], [])  # the database and its tables
    maker.close()
    locker = sqlite3.connect(path, isolation_level=None)
    stats = get_crawler().stats
    memory = SiteMemory(SQLiteStore(path), stats, max_hosts=10)
    declared = sniff(PAGE, content_type="text/html; charset=koi8-r")
    try:
        locker.execute("BEGIN IMMEDIATE")  # the store's write waits for it (up to BUSY_SECONDS)
        for name in _names(0, 100):
            memory.learn(f"http://{name}/", declared)
            assert len(memory.pending) <= 10
        # The first ten went in the exchange the eleventh started (held); ten more wait.
        assert memory._job is not None and not memory._job[0].done()
    finally:
        locker.rollback()
        locker.close()
    assert memory.close()
    assert memory_rows(path) == {name: {"KOI8-R": 1} for name in _names(0, 20)}
    assert stats.get_value("whatwg_encoding/memory/dropped") == 80


# --- 1: the SQLite store is bounded, least recently used first out ------------------------------


def test_sqlite_store_keeps_the_most_recently_used(tmp_path):
    store = SQLiteStore(tmp_path / FILE_NAME, StoreOptions(max_hosts=10))
    for n in range(10):
        store.exchange([(f"b{n}", {f"h{n}": {"GBK": n + 1}})], ())
    assert store.exchange([], ["h0", "h1", "nobody"]) == {"h0": {"GBK": 1}, "h1": {"GBK": 2}}  # read: used
    store.exchange([("b10", {"h10": {"GBK": 1}, "h11": {"GBK": 1}, "h12": {"GBK": 1}})], ())
    assert set(memory_rows(tmp_path / FILE_NAME)) == {"h0", "h1", *(f"h{n}" for n in range(5, 13))}
    assert store.events["store_evicted"] == 3
    assert store.preload(3) == {"h10": {"GBK": 1}, "h11": {"GBK": 1}, "h12": {"GBK": 1}}
    assert store.events["preload_skipped"] == 7
    store.close()


def test_sqlite_database_of_an_earlier_version_loads_and_is_bounded(tmp_path):
    """A database without the table of uses (written before the bound): its hosts load, and are
    the first to leave."""
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    db.execute(_CREATE)
    db.executemany("INSERT INTO counts VALUES (?, 'KOI8-R', 3)", [(f"old{n}",) for n in range(5)])
    db.commit()
    db.close()
    store = SQLiteStore(path, StoreOptions(max_hosts=6))
    assert store.preload(100) == {f"old{n}": {"KOI8-R": 3} for n in range(5)}
    store.exchange([("1", {"new0": {"GBK": 1}, "new1": {"GBK": 1}, "new2": {"GBK": 1}})], ())
    assert set(memory_rows(path)) == {"old2", "old3", "old4", "new0", "new1", "new2"}
    store.close()


def test_sqlite_rows_after_many_hosts_stay_within_the_bound(tmp_path):
    """5,000 hosts written through the memory's batches into a store of 1,000."""
    path = tmp_path / FILE_NAME
    store = SQLiteStore(path, StoreOptions(max_hosts=1000))
    for start in range(0, 5000, 500):
        store.exchange([(str(start), {f"h{n}": {"KOI8-R": 1} for n in range(start, start + 500)})], ())
    store.close()
    rows = memory_rows(path)
    assert set(rows) == {f"h{n}" for n in range(4000, 5000)}
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM used").fetchone() == (1000,)
    db.close()


def test_a_lowered_bound_empties_the_store_a_chunk_per_write(tmp_path, monkeypatch):
    """A store of 30 hosts reopened with a bound of 5 sheds EVICT_CHUNK hosts per write (here 10),
    the least recently used first, so that no write blocks the store for long."""
    from scrapy_whatwg_encoding.scrapy.memory import sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "EVICT_CHUNK", 10)
    path = tmp_path / FILE_NAME
    store = SQLiteStore(path)
    for n in range(30):
        store.exchange([(f"b{n}", {f"h{n}": {"GBK": 1}})], ())
    store.close()
    store = SQLiteStore(path, StoreOptions(max_hosts=5))
    kept = []
    for n in range(30, 33):
        store.exchange([(f"b{n}", {f"h{n}": {"GBK": 1}})], ())
        kept.append(len(memory_rows(path)))
    assert kept == [21, 12, 5] and store.events["store_evicted"] == 33 - 5
    assert set(memory_rows(path)) == {"h28", "h29", "h30", "h31", "h32"}
    store.close()


# --- 4: invalid stored values are counted, never read as consistent -----------------------------


@pytest.mark.parametrize("bad", [-1, 0, MAX_COUNT + 1, 2.5, "x"])
def test_sqlite_invalid_value_makes_the_host_unremembered(tmp_path, bad):
    path = tmp_path / FILE_NAME
    store = SQLiteStore(path)
    store.exchange([("1", {"two.example": {"KOI8-R": 5}})], ())
    db = sqlite3.connect(path)
    db.execute("INSERT INTO counts VALUES ('two.example', 'windows-1251', ?)", (bad,))
    db.commit()
    db.close()
    found = store.exchange([], ["two.example"])
    assert found == {"two.example": {"KOI8-R": 5, INVALID: 1}} and remembered(found["two.example"]) is None
    assert store.events["store_invalid"] == 1
    store.close()


def test_sqlite_host_of_too_many_rows_is_invalid_unread(tmp_path):
    path = tmp_path / FILE_NAME
    store = SQLiteStore(path)
    store.exchange([("1", {"big.example": {"KOI8-R": 5}})], ())
    db = sqlite3.connect(path)
    db.executemany("INSERT INTO counts VALUES ('big.example', ?, 1)", [(f"junk{n}",) for n in range(MAX_FIELDS)])
    db.commit()
    db.close()
    assert store.exchange([], ["big.example"]) == {"big.example": {INVALID: 1}}
    assert store.preload(10) == {"big.example": {INVALID: 1}}
    store.close()


# --- 6: hosts named as URLs do -----------------------------------------------------------------


def test_trailing_dot_case_and_idna_are_one_host():
    assert host_of("http://Example.COM./a") == host_of("http://example.com/b") == "example.com"
    assert host_of("https://BÜCHER.example.:8443/") == "xn--bcher-kva.example:8443"
    assert host_of("http://example.com.:80/") == "example.com"


_LABEL = st.from_regex(r"[a-zA-Z0-9]([a-zA-Z0-9-]{0,10}[a-zA-Z0-9])?", fullmatch=True) | st.sampled_from(
    ["bücher", "пример", "例え", "ÉCOLE", "straße"])


@given(st.lists(_LABEL, min_size=1, max_size=4), st.booleans(), st.sampled_from(["", ":8080", ":80"]))
def test_a_host_is_the_one_scrapy_requests(labels, dot, port):
    """Whatever spelling a link has, its host is the one of the URL Scrapy requests (w3lib's
    ``safe_url_string``, lower-case, without a trailing dot)."""
    name = ".".join(labels)
    url = f"http://{name}{'.' if dot else ''}{port}/page"
    try:
        requested = scrapy.Request(url).url
    except ValueError:
        return  # a name IDNA refuses: Scrapy has no request for it either
    assert host_of(url) == host_of(requested) == host_of(f"http://{name}{port}/other")
    assert host_of(url) == host_of(url).lower() and not host_of(url).split(":")[0].endswith(".")


def test_a_trailing_dot_page_counts_for_its_host():
    memory = SiteMemory(None)
    declared = sniff(PAGE, content_type="text/html; charset=koi8-r")
    for url in ("http://legacy.example./1", "http://LEGACY.example/2", "http://legacy.example/3"):
        memory.learn(url, declared)
    assert memory.counts("legacy.example") == {"KOI8-R": MIN_DECLARATIONS}


# --- Redis: 1, 3, 4, 5 -------------------------------------------------------------------------


@pytest.fixture
def client(redis_url):
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.close()


def test_redis_store_keeps_the_most_recently_used(redis_url, client):
    store = RedisStore(redis_url, options=StoreOptions(max_hosts=10))
    for n in range(10):
        store.exchange([(f"b{n}", {f"h{n}": {"GBK": n + 1}})], ())
    assert store.exchange([], ["h0", "h1", "nobody"]) == {"h0": {"GBK": 1}, "h1": {"GBK": 2}}  # read: used
    store.exchange([("b10", {"h10": {"GBK": 1}, "h11": {"GBK": 1}, "h12": {"GBK": 1}})], ())
    kept = {"h0", "h1", *(f"h{n}" for n in range(5, 13))}
    assert {key.decode() for key in client.scan_iter(REDIS_PREFIX + "h*")} == {REDIS_PREFIX + h for h in kept}
    assert {m.decode() for m in client.zrange(REDIS_PREFIX + USED_KEY, 0, -1)} == kept
    assert store.events["store_evicted"] == 3
    assert store.preload(3) == {"h10": {"GBK": 1}, "h11": {"GBK": 1}, "h12": {"GBK": 1}}
    assert store.events["preload_skipped"] == 7
    store.close()


def test_hosts_learned_while_redis_is_paused_stay_bounded(redis_url, client):
    """A real redis-server paused for writes (``CLIENT PAUSE … WRITE``, from another client) holds
    the store's exchange: at most ``max_hosts`` hosts wait, the rest are dropped and counted (they
    used to wait without a bound); unpaused, the exchange and the close save the others."""
    stats = get_crawler().stats
    memory = SiteMemory(RedisStore(redis_url + "?socket_timeout=60"), stats, max_hosts=10)
    declared = sniff(PAGE, content_type="text/html; charset=koi8-r")
    client.execute_command("CLIENT", "PAUSE", "60000", "WRITE")
    try:
        for name in _names(0, 100):
            memory.learn(f"http://{name}/", declared)
            assert len(memory.pending) <= 10
        assert memory._job is not None and not memory._job[0].done()  # held by the pause
    finally:
        client.execute_command("CLIENT", "UNPAUSE")
    assert memory.close()
    reader = RedisStore(redis_url)
    assert reader.exchange([], _names(0, 100)) == {name: {"KOI8-R": 1} for name in _names(0, 20)}
    reader.close()
    assert stats.get_value("whatwg_encoding/memory/dropped") == 80


def test_redis_prefix_keeps_two_projects_apart_and_the_default_reads_earlier_keys(redis_url, client):
    """Two prefixes on one server are two memories; keys an earlier version wrote (no set of
    uses) load under the default prefix, as the least recently used."""
    client.hset(REDIS_PREFIX + "earlier.example", mapping={"KOI8-R": 7})
    first = RedisStore(redis_url, options=StoreOptions(redis_prefix="project-a:"))
    second = RedisStore(redis_url, options=StoreOptions(redis_prefix="project-b:"))
    default = RedisStore(redis_url, options=StoreOptions(max_hosts=2))
    first.exchange([("a", {"shared.example": {"KOI8-R": 3}})], ())
    assert second.exchange([("b", {"shared.example": {"GBK": 1}})], ["shared.example"]) == {
        "shared.example": {"GBK": 1}}
    assert first.preload(10) == {"shared.example": {"KOI8-R": 3}}
    assert default.preload(10) == {"earlier.example": {"KOI8-R": 7}}
    default.exchange([("c", {"new1.example": {"GBK": 1}, "new2.example": {"GBK": 1}})], ())
    assert client.exists(REDIS_PREFIX + "earlier.example") == 0  # the least recently used left
    for store in (first, second, default):
        store.close()


@pytest.mark.parametrize("bad", [b"-1", b"0", str(MAX_COUNT + 1).encode(), b"2.5", b"x"])
def test_redis_invalid_value_makes_the_host_unremembered(redis_url, client, bad):
    """Issue 37: a negative count beside a positive one used to be dropped, and the host read as
    consistent; it is counted, and the host is not remembered."""
    client.hset(REDIS_PREFIX + "two.example", mapping={"KOI8-R": 5, "windows-1251": bad})
    store = RedisStore(redis_url)
    stats = get_crawler().stats
    memory = SiteMemory(store, stats)
    memory.open().result(timeout=30)  # type: ignore[union-attr]
    memory.sync()
    assert memory.counts("two.example") == {"KOI8-R": 5, INVALID: 1}
    body = "Съешь же ещё этих мягких французских булок".encode("koi8-r")
    decision = sniff(body, url="http://two.example/", detector="off")
    assert memory.likely("http://two.example/", body, decision) is None
    assert memory.close()
    assert stats.get_value("whatwg_encoding/memory/store_invalid") == 1
    client.hset(REDIS_PREFIX + "two.example", "windows-1251", 0)
    client.hdel(REDIS_PREFIX + "two.example", "windows-1251")
    assert RedisStore(redis_url).preload(10) == {"two.example": {"KOI8-R": 5}}  # valid again: remembered
    assert remembered({"KOI8-R": 5}) is ENCODINGS["KOI8-R"]


def test_redis_value_that_refuses_an_increment_does_not_fail_the_batch(redis_url, client):
    """HINCRBY refuses a field that holds no integer, or one past 2**63: the batch's other
    declarations are added all the same, and the host stays unremembered."""
    client.hset(REDIS_PREFIX + "bad.example", mapping={"KOI8-R": 5, "windows-1251": "2.5", "GBK": 2**63 - 1})
    store = RedisStore(redis_url)
    store.exchange([("1", {"bad.example": {"windows-1251": 1, "GBK": 1, "KOI8-R": 1}, "good.example": {"GBK": 1}})], ())
    assert store.exchange([], ["bad.example", "good.example"]) == {
        "bad.example": {"KOI8-R": 6, INVALID: 2}, "good.example": {"GBK": 1}}
    store.close()


def test_redis_key_of_another_type_is_invalid(redis_url, client):
    client.set(REDIS_PREFIX + "string.example", "KOI8-R")
    client.rpush(REDIS_PREFIX + "list.example", "KOI8-R")
    store = RedisStore(redis_url)
    assert store.exchange([], ["string.example", "list.example"]) == {
        "string.example": {INVALID: 1}, "list.example": {INVALID: 1}}
    assert store.events["store_invalid"] == 2
    store.close()


def test_redis_preload_is_bounded_in_size_and_time(redis_url, client):
    """A 200,000-field hash is not read (it used to take 9.5 s to preload); a preload with no time
    left reads nothing, and counts what it left out."""
    big = REDIS_PREFIX + "big.example"
    with client.pipeline(transaction=False) as pipe:
        for start in range(0, 200_000, 10_000):
            pipe.hset(big, mapping={f"f{n}": 1 for n in range(start, start + 10_000)})
        pipe.execute()
    store = RedisStore(redis_url)
    assert store.exchange([], ["big.example"]) == {"big.example": {INVALID: 1}}  # read: used
    assert store.events["store_invalid"] == 1
    for start in range(0, 30, 10):
        store.exchange([(str(start), {f"h{n}.example": {"KOI8-R": 3} for n in range(start, start + 10)})], ())
    assert store.preload(10) == {f"h{n}.example": {"KOI8-R": 3} for n in range(20, 30)}  # the most recent
    found = store.preload(1000)
    assert found["big.example"] == {INVALID: 1} and len(found) == 31
    hurried = RedisStore(redis_url, options=StoreOptions(preload_seconds=0))
    assert hurried.preload(1000) == {}
    assert hurried.events["preload_skipped"] == 31
    store.close()
    hurried.close()


@pytest_twisted.inlineCallbacks
def test_redis_crawl_with_a_prefix_and_a_bound(proxy, redis_url, client):
    """A crawl of 600 hosts with a RAM view of 100 and a store of 250, under its own prefix: 250
    hashes and uses under that prefix, none under the default, 350 counted as evicted from the
    store, no declaration dropped."""
    settings = {"WHATWG_ENCODING_REMEMBER": True, "WHATWG_ENCODING_REMEMBER_STORE": str(redis_url),
                "WHATWG_ENCODING_REMEMBER_MAX_HOSTS": RAM_HOSTS, "WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS": 250,
                "WHATWG_ENCODING_REMEMBER_REDIS_PREFIX": "myproject:memory:", "LOG_LEVEL": "WARNING"}
    crawler, pages = yield crawl(_hosts(proxy, _names(0, HOSTS)), settings=settings)
    assert len(pages) == HOSTS
    stats = whatwg_stats(crawler)
    hashes = [key for key in client.scan_iter("myproject:memory:*") if b"#" not in key]
    assert len(hashes) == 250 and client.zcard("myproject:memory:" + USED_KEY) == 250
    assert all(client.hgetall(key) == {b"KOI8-R": b"1"} for key in hashes)
    assert list(client.scan_iter(REDIS_PREFIX + "*")) == []
    assert stats["whatwg_encoding/memory/store_evicted"] == HOSTS - 250
    assert stats["whatwg_encoding/memory/evicted"] == HOSTS - RAM_HOSTS
    assert "whatwg_encoding/memory/dropped" not in stats
