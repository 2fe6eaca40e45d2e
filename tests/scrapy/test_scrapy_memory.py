"""Site memory (WHATWG_ENCODING_REMEMBER): the rule of scrapy_whatwg_encoding.scrapy.memory on real
corpus pages, and the file store shared by several processes (the Redis store:
test_scrapy_memory_redis.py)."""
from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from remember_sqlite_race import race
from scrapy.utils.test import get_crawler
from sniff_accuracy import strip_declarations
from whatwg_crawl_helpers import CORPUS, memory_rows

from scrapy_whatwg_encoding import ENCODINGS, sniff
from scrapy_whatwg_encoding.scrapy.memory import MIN_DECLARATIONS, SiteMemory, host_of, remembered, siblings
from scrapy_whatwg_encoding.scrapy.memory.redis import RedisStore
from scrapy_whatwg_encoding.scrapy.memory.sqlite import FILE_NAME, JSON_NAME, SQLiteStore
from scrapy_whatwg_encoding.scrapy.memory.store import INVALID, StoreOptions

URL = "http://legacy.example/"
KOI8_R_PAGES = sorted((CORPUS / "files" / "KOI8-R").iterdir())
LEGACY = [e for e in ENCODINGS.values() if e.name not in ("UTF-8", "UTF-16BE", "UTF-16LE", "replacement")]


def _memory(counts: dict[str, int] | None = None, stats=None) -> SiteMemory:
    memory = SiteMemory(None, stats)
    if counts:
        memory.add(host_of(URL), counts)
    return memory


def _stripped(path) -> bytes:
    body = strip_declarations(path.read_bytes())
    assert sniff(body, url=URL).source == "detector"
    return body


def test_a_consistent_host_decides_its_unlabeled_siblings():
    """KOI8-R pages without their declarations: the detector says KOI8-U (a sibling it cannot
    tell apart); after MIN_DECLARATIONS KOI8-R pages of the host, memory says KOI8-R."""
    memory = _memory()
    body = _stripped(KOI8_R_PAGES[1])
    for n, path in enumerate(KOI8_R_PAGES[:MIN_DECLARATIONS]):
        assert memory.likely(URL + "x", body, sniff(body, url=URL + "x")) is None, n
        memory.learn(URL + path.name, sniff(path.read_bytes(), content_type="text/html; charset=koi8-r"))
    decision = sniff(body, url=URL + "x")
    assert decision.encoding.name == "KOI8-U"
    likely = memory.likely(URL + "x", body, decision)
    assert likely is ENCODINGS["KOI8-R"]
    assert sniff(body, url=URL + "x", likely=likely).source == "likely"
    # Another host of the same crawl knows nothing.
    assert memory.likely("http://other.example/x", body, decision) is None


def test_a_host_that_declared_two_encodings_is_not_remembered():
    assert remembered({"KOI8-R": 100, "UTF-8": 1}) is None
    assert remembered({"KOI8-R": MIN_DECLARATIONS - 1}) is None
    assert remembered({"KOI8-R": MIN_DECLARATIONS}) is ENCODINGS["KOI8-R"]
    body = _stripped(KOI8_R_PAGES[1])
    decision = sniff(body, url=URL)
    assert _memory({"KOI8-R": 100, "windows-1251": 1}).likely(URL, body, decision) is None


def test_another_script_is_left_to_the_detector():
    """windows-1251 bytes decode without error as KOI8-R, to other letters: not siblings."""
    path = CORPUS / "files" / "windows-1251-russian"
    body = _stripped(min(path.iterdir()))
    decision = sniff(body, url=URL)
    assert decision.encoding.name == "windows-1251"
    assert "\ufffd" not in ENCODINGS["KOI8-R"].decode(body)
    assert not siblings(ENCODINGS["KOI8-R"].decode(body), decision.encoding.decode(body))
    assert _memory({"KOI8-R": 10}).likely(URL, body, decision) is None


def test_an_encoding_that_errors_is_not_offered():
    body = _stripped(KOI8_R_PAGES[1])
    assert "\ufffd" in ENCODINGS["Big5"].decode(body)
    assert _memory({"Big5": 10}).likely(URL, body, sniff(body, url=URL, detector="off")) is None


def test_punctuation_alone_says_nothing():
    body = "<p>“quoted” – dashed</p>".encode("windows-1252")
    decision = sniff(body, url=URL)
    assert _memory({"windows-1255": 10}).likely(URL, body, decision) is None


@settings(deadline=None)  # three sniffs per example: speed is for tools/, not for a deadline here
@given(st.text(min_size=1).filter(lambda text: not text.isascii()), st.sampled_from(LEGACY))
def test_valid_utf_8_is_never_overridden(text, encoding):
    body = text.encode("utf-8")
    for detector in ("full", "browser", "off"):
        decision = sniff(body, url=URL, detector=detector)
        assert _memory({encoding.name: 10}).likely(URL, body, decision) is None


@given(st.binary().filter(bytes.isascii), st.sampled_from(LEGACY))
def test_ascii_is_left_alone(body, encoding):
    assert _memory({encoding.name: 10}).likely(URL, body, sniff(body, url=URL)) is None


def test_only_trusted_declarations_are_counted():
    memory = _memory()
    page = KOI8_R_PAGES[0].read_bytes()
    declared = sniff(page, content_type="text/html; charset=koi8-r")
    memory.learn(URL, declared, trusted=False)  # a label the content contradicts
    memory.learn(URL, sniff(strip_declarations(page), url=URL))  # detected, not declared
    memory.learn(URL, sniff(b"\xff\xfea\x00", content_type="text/html"))  # UTF-16LE BOM
    assert memory.counts(host_of(URL)) == {}
    memory.learn(URL, declared)
    assert memory.counts(host_of(URL)) == {"KOI8-R": 1}



def test_sqlite_store_adds_across_stores(tmp_path):
    path = tmp_path / "job" / FILE_NAME
    first, second = SQLiteStore(path), SQLiteStore(path)
    assert first.exchange([("1", {"a": {"KOI8-R": 2}})], ["a", "b"]) == {"a": {"KOI8-R": 2}}
    assert second.exchange([("2", {"a": {"UTF-8": 1}, "b": {"GBK": 1}})], ["a"]) == {"a": {"KOI8-R": 2, "UTF-8": 1}}
    assert first.preload(10) == {"a": {"KOI8-R": 2, "UTF-8": 1}, "b": {"GBK": 1}}
    assert first.preload(1) == {"a": {"KOI8-R": 2, "UTF-8": 1}}  # at most 1 host
    first.close()
    second.close()
    assert sorted(p.name for p in path.parent.iterdir()) == [FILE_NAME]  # no -wal, -shm, .tmp left


def test_two_processes_share_one_database(tmp_path):
    """Two processes add a declaration at a time to one database, at once: none is lost."""
    script = textwrap.dedent(f"""
        import sys
        from scrapy_whatwg_encoding.scrapy.memory.sqlite import SQLiteStore
        store = SQLiteStore({str(tmp_path / FILE_NAME)!r})
        for n in range(150):
            store.exchange([(f"{{n}}", {{"shared": {{sys.argv[1]: 1}}}})], ["shared"])
        store.close()
    """)
    processes = [subprocess.Popen([sys.executable, "-c", script, name]) for name in ("KOI8-R", "GBK")]
    assert [p.wait(timeout=120) for p in processes] == [0, 0]
    assert memory_rows(tmp_path / FILE_NAME) == {"shared": {"KOI8-R": 150, "GBK": 150}}


@pytest.mark.parametrize("processes", [2, 4])
def test_processes_open_one_new_database_together(tmp_path, processes):
    """2 or 4 processes open one new database at the same instant (a barrier), 20 rounds: the WAL
    switch and the table's creation, refused as busy without waiting when they collide, are tried
    again; no process fails, no batch is lost (tools/remember_sqlite_race.py)."""
    assert race(processes, 20, tmp_path) == []


@pytest.mark.parametrize("content", [b"{not a database", b"SQLite format 3\x00" + b"\xff" * 200,
                                     "table"])
def test_unreadable_database_counts_as_empty_and_is_repaired(tmp_path, caplog, content):
    path = tmp_path / FILE_NAME
    if content == "table":  # a database, with a table of another shape
        import sqlite3

        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE counts (hosts TEXT)")
            db.execute("INSERT INTO counts VALUES ('example.com')")
    else:
        path.write_bytes(content)
    store = SQLiteStore(path)
    assert store.exchange([("1", {"a": {"KOI8-R": 1}})], ["a", "example.com"]) == {"a": {"KOI8-R": 1}}
    store.close()
    assert memory_rows(path) == {"a": {"KOI8-R": 1}}
    assert len([r for r in caplog.records if r.levelname == "WARNING"]) == 1
    # Replaced by something else while open: made anew at the next write, nothing later lost.
    store = SQLiteStore(path)
    store.exchange([("1", {"a": {"KOI8-R": 1}})], ())
    (tmp_path / "garbage").write_bytes(b"garbage" * 100)
    (tmp_path / "garbage").replace(path)
    store.exchange([("1", {"a": {"KOI8-R": 1}})], ())
    store.close()
    assert memory_rows(path) == {"a": {"KOI8-R": 1}}


@pytest.mark.parametrize(("text", "expected"), [
    ('{"hosts": {"user:pw@a:80": "koi8-r", "b:80": "no such label", "c:8080": {"gbk": 2, "x": 1}}}',
     {"a": {"KOI8-R": 1}, "b": {INVALID: 1}, "c:8080": {"GBK": 2, INVALID: 1}}),  # b and c never remembered
    ('{"hosts": ["example.com"]}', {}),
    ("[" * 100_000, {}),
    ("{not json", {}),
])
def test_json_file_of_earlier_versions_is_migrated(tmp_path, caplog, text, expected):
    (tmp_path / JSON_NAME).write_text(text)
    (tmp_path / (JSON_NAME + ".lock")).write_text("")
    store = SQLiteStore(tmp_path / FILE_NAME)
    assert store.preload(10) == expected
    store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]
    assert len([r for r in caplog.records if r.levelname == "WARNING"]) == (0 if expected else 1)


def test_database_gets_the_umask_mode(tmp_path):
    old = os.umask(0o002)
    try:
        SQLiteStore(tmp_path / FILE_NAME).exchange([("1", {"a": {"GBK": 1}})], ())
    finally:
        os.umask(old)
    assert (tmp_path / FILE_NAME).stat().st_mode & 0o777 == 0o664


def test_memory_saves_and_resumes_through_its_store(tmp_path):
    """Declarations reach the store in the memory's thread (sync) and at close; a new memory on
    the same store starts with them (preload), and a page of the host is decided with them."""
    stats = get_crawler().stats
    memory = SiteMemory(SQLiteStore(tmp_path / FILE_NAME), stats)
    page = KOI8_R_PAGES[0].read_bytes()
    declared = sniff(page, content_type="text/html; charset=koi8-r")
    memory.learn(URL, declared)
    memory.sync().result(timeout=10)  # type: ignore[union-attr]
    assert memory_rows(tmp_path / FILE_NAME) == {host_of(URL): {"KOI8-R": 1}}
    for _ in range(MIN_DECLARATIONS - 1):
        memory.learn(URL, declared)
    assert memory.close() is True
    assert memory_rows(tmp_path / FILE_NAME) == {host_of(URL): {"KOI8-R": MIN_DECLARATIONS}}
    resumed = SiteMemory(SQLiteStore(tmp_path / FILE_NAME), stats)
    resumed.open().result(timeout=10)  # type: ignore[union-attr]
    resumed.sync()
    body = _stripped(KOI8_R_PAGES[1])
    assert resumed.likely(URL + "x", body, sniff(body, url=URL + "x")) is ENCODINGS["KOI8-R"]
    assert resumed.close() is True
    assert stats.get_value("whatwg_encoding/memory/store_calls") == 2  # the exchange and the preload


def test_hosts_in_ram_are_capped(tmp_path):
    stats = get_crawler().stats
    memory = SiteMemory(None, stats, max_hosts=3)
    declared = sniff(b"", content_type="text/html; charset=koi8-r")
    for n in range(5):
        memory.learn(f"http://h{n}.example/", declared)
    memory.counts("h2.example")  # used: kept
    memory.learn("http://h5.example/", declared)
    assert list(memory.hosts) == ["h4.example", "h2.example", "h5.example"]
    assert stats.get_value("whatwg_encoding/memory/evicted") == 3


def test_host_keys_carry_no_secret():
    assert host_of("http://user:secret@EXAMPLE.com/") == "example.com"
    assert host_of("https://user@example.com:443/a?b") == "example.com"
    assert host_of("http://example.com:8080/") == "example.com:8080"
    assert host_of("http://пример.рф/") == "xn--e1afmkfd.xn--p1ai"


def test_store_errors_never_reach_the_crawl(tmp_path, caplog):
    """A store that fails: each failed exchange counted, logged once per kind; after three in a
    row the store is left alone (store_off, logged once); at close the loss is counted and logged."""
    stats = get_crawler().stats
    (tmp_path / "file").write_text("")
    memory = SiteMemory(SQLiteStore(tmp_path / "file" / FILE_NAME), stats)  # a file is in the way
    declared = sniff(b"", content_type="text/html; charset=koi8-r")
    for _ in range(4):
        memory.learn(URL, declared)
        future = memory.sync()
        if future is not None:
            concurrent.futures.wait([future], 10)
    memory.sync()
    assert memory.counts(host_of(URL)) == {"KOI8-R": 4}  # this process still knows
    assert stats.get_value("whatwg_encoding/memory/store_errors") == 3
    assert stats.get_value("whatwg_encoding/memory/store_off") == 1
    assert memory.close() is False
    assert stats.get_value("whatwg_encoding/memory/dropped") == 4
    nobody = SiteMemory(RedisStore("redis://127.0.0.1:9/0?socket_connect_timeout=1"), stats)
    nobody.learn(URL, declared)
    concurrent.futures.wait([nobody.sync()], 10)  # type: ignore[list-item]
    nobody.sync()
    assert stats.get_value("whatwg_encoding/memory/store_errors") == 4
    assert nobody.close() is False
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 3, warnings  # NotADirectoryError / FileExistsError, left alone, ConnectionError
    assert any("left alone" in w for w in warnings)


@pytest.mark.parametrize("value", ["redis://localhost:6379/notadb", "redis://localhost:6379/1/2",
                                   "redis://localhost:6379/0?db=x", "redis://localhost:port/0",
                                   "unix:///tmp/redis.sock?db=one"])
def test_store_setting_rejects(value):
    from scrapy_whatwg_encoding.scrapy.settings import InvalidSetting, check_store

    with pytest.raises(InvalidSetting, match="WHATWG_ENCODING_REMEMBER_STORE"):
        check_store("WHATWG_ENCODING_REMEMBER_STORE", value)

@pytest.mark.parametrize("value", ["redis://localhost:6379/0", "rediss://h:6380", "unix:///tmp/redis.sock", None, ""])
def test_store_setting_accepts(value):
    from scrapy_whatwg_encoding.scrapy.settings import check_store

    assert check_store("WHATWG_ENCODING_REMEMBER_STORE", value) == (value or None)


def _package_imports() -> dict[str, set[str]]:
    """Module → the modules of scrapy_whatwg_encoding it imports (at the top or in a function)."""
    import ast
    import pathlib

    import scrapy_whatwg_encoding

    root = pathlib.Path(scrapy_whatwg_encoding.__file__).resolve().parent
    graph: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
                graph[name].update([origin, *(f"{origin}.{alias.name}" for alias in node.names)])
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                graph[name].update(n for n in names if n.startswith("scrapy_whatwg_encoding"))
    return {name: {m for m in found if m in graph and m != name} for name, found in graph.items()}


def test_memory_and_its_stores_do_not_import_each_other():
    """The stores' shared types live in memory.store: memory.site imports the stores (in
    open_store), they never import it nor the package, directly or through another module (no cycle)."""
    graph = _package_imports()
    prefix = "scrapy_whatwg_encoding.scrapy."
    memory = prefix + "memory.site"
    assert {prefix + "memory.sqlite", prefix + "memory.redis"} <= graph[memory]

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            name = todo.pop()
            if name == goal:
                return True
            if name not in seen:
                seen.add(name)
                todo.extend(graph.get(name, ()))
        return False

    modules = [prefix + m for m in ("memory.sqlite", "memory.redis", "memory.store", "memory.sync", "loop")]
    assert [m for m in modules if reaches(m, memory) or reaches(m, prefix + "memory")] == []


def test_sqlite_json_statements_read_and_write_as_rows_do(tmp_path):
    """The store's JSON statements (a chunk of hosts per statement) and its row-per-step fallback
    (an SQLite without JSON functions) give the same counts, chunk boundaries and rows that are
    not of the store's own shape (a label, a bad count, a blob host) included."""
    import shutil
    import sqlite3

    from scrapy_whatwg_encoding.scrapy.memory.sqlite import _CREATE, _JSON_CHUNK

    path = tmp_path / "template.sqlite3"
    db = sqlite3.connect(path)
    db.execute(_CREATE)
    hosts = _JSON_CHUNK * 2 + 7
    db.executemany("INSERT INTO counts VALUES (?, ?, ?)",
                   [(f"h{n}", "KOI8-R", n % 5 + 1) for n in range(hosts)]
                   + [("h1", "koi8-r", 2), ("h2", "bogus", 3), ("h3", "GBK", 0), ("h4", "GBK", "x"),
                      ("h5", "replacement", 2), ("h6", "GBK", -1), ("h7", "GBK", 2.5),
                      ("label", "windows-1251", 1), ("label", "cp1251", 1)])
    db.execute("INSERT INTO counts VALUES (x'6869', 'GBK', 1)")
    db.commit()
    db.close()
    results = {}
    for use_json in (True, False):
        copy = tmp_path / f"{use_json}.sqlite3"
        shutil.copy(path, copy)
        store = SQLiteStore(copy)
        store.use_json = use_json
        results[use_json] = [
            store.preload(10**6), store.preload(3), store.preload(_JSON_CHUNK + 1),
            store.exchange([("a", {"h1": {"KOI8-R": 1}, "new": {"GBK": 2}}), ("b", {"new": {"GBK": 1}})],
                           ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "new", "absent", "label"]
                           + [f"h{n}" for n in range(100, _JSON_CHUNK + 500)]),
            store.preload(10**6)]
        assert store._json is use_json
        store.close()
    assert results[True] == results[False]
    first, three, chunk, exchanged, after = results[True]
    assert len(first) == hosts + 1 and len(three) == 3 and len(chunk) == _JSON_CHUNK + 1
    assert first["h1"] == {"KOI8-R": 4} and first["label"] == {"windows-1251": 2}
    # A value that is not a label and a whole number from 1 to MAX_COUNT is counted as invalid.
    assert [first[f"h{n}"] for n in range(2, 8)] == [{"KOI8-R": 3, INVALID: 1}, {"KOI8-R": 4, INVALID: 1},
                                                     {"KOI8-R": 5, INVALID: 1}, {"KOI8-R": 1, "replacement": 2},
                                                     {"KOI8-R": 2, INVALID: 1}, {"KOI8-R": 3, INVALID: 1}]
    assert exchanged["h1"] == {"KOI8-R": 5} and exchanged["new"] == {"GBK": 3} and "absent" not in exchanged
    assert len(after) == hosts + 2


def test_a_large_result_is_taken_in_slices(tmp_path):
    """A 40,000-host memory read at the start reaches the view in many slices, one per loop turn,
    none spending more than 50 ms of the loop thread's CPU (the wall-clock budget is
    INTAKE_SECONDS; tools/remember_reactor_gap.py measures the turns under load)."""
    import asyncio
    import time

    from remember_reactor_gap import build

    from scrapy_whatwg_encoding.scrapy.loop import AsyncioClock

    build(tmp_path / FILE_NAME, 40_000)
    store = SQLiteStore(tmp_path / FILE_NAME, StoreOptions(preload_seconds=600))  # all of it, however slow
    memory = SiteMemory(store, get_crawler().stats, max_hosts=40_000)
    slices: list[float] = []
    intake = memory._intake

    def timed(*args):
        start = time.thread_time()
        intake(*args)
        slices.append(time.thread_time() - start)

    memory._intake = timed  # type: ignore[method-assign]

    async def main():
        memory._clock = AsyncioClock(asyncio.get_running_loop())  # as spider_opened sets it
        memory.open().result(timeout=60)  # type: ignore[union-attr]
        memory.sync()
        while memory._taking is not None:
            await asyncio.sleep(0)

    asyncio.run(main())
    assert len(memory.hosts) == 40_000 and memory.counts("host-10.example") == {"KOI8-R": 3, "windows-1251": 1}
    assert len(slices) > 5 and max(slices) < 0.05, (len(slices), max(slices))
    assert memory.close() is True
