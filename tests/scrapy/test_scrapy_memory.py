"""Site memory (WHATWG_ENCODING_REMEMBER): the rule of scrapy_whatwg_encoding.scrapy.memory on real
corpus pages, and the file store shared by several processes (the Redis store:
test_scrapy_memory_redis.py)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scrapy.utils.test import get_crawler
from whatwg_crawl_helpers import CORPUS, REPO

from scrapy_whatwg_encoding import ENCODINGS, sniff
from scrapy_whatwg_encoding.scrapy.memory import (
    FILE_NAME,
    MIN_DECLARATIONS,
    FileStore,
    LocalStore,
    RedisStore,
    SiteMemory,
    host_of,
    remembered,
    siblings,
)

sys.path.insert(0, str(REPO / "tools"))
from remember_accuracy import strip_declarations

URL = "http://legacy.example/"
KOI8_R_PAGES = sorted((CORPUS / "files" / "KOI8-R").iterdir())
LEGACY = [e for e in ENCODINGS.values() if e.name not in ("UTF-8", "UTF-16BE", "UTF-16LE", "replacement")]


def _memory(counts: dict[str, int] | None = None, stats=None) -> SiteMemory:
    store = LocalStore()
    if counts:
        store.merge(host_of(URL), counts)
    return SiteMemory(store, stats)


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
    assert memory.store.get(host_of(URL)) == {}
    memory.learn(URL, declared)
    assert memory.store.get(host_of(URL)) == {"KOI8-R": 1}


def test_file_store_merges_with_the_file_and_writes_periodically(tmp_path):
    path = tmp_path / FILE_NAME
    first, second = FileStore(path, every=2), FileStore(path, every=2)
    first.merge("a:80", {"KOI8-R": 1})
    assert not path.exists()
    first.merge("a:80", {"KOI8-R": 1})  # the second declaration: written
    assert json.loads(path.read_text("utf-8")) == {"hosts": {"a:80": {"KOI8-R": 2}}}
    second.merge("a:80", {"UTF-8": 1})
    second.merge("b:80", {"GBK": 1})  # merged with what the first one wrote
    first.merge("b:80", {"GBK": 1})
    first.close()
    assert FileStore(path).hosts == {"a:80": {"KOI8-R": 2, "UTF-8": 1}, "b:80": {"GBK": 2}}
    assert first.get("a:80") == {"KOI8-R": 2, "UTF-8": 1}
    third = FileStore(path)
    third.merge("c:80", {"KOI8-R": 1})  # pending, not written
    second.close()  # nothing pending: nothing written
    first.merge("d:80", {"KOI8-R": 1})
    first.close()
    assert third.get("d:80") == {"KOI8-R": 1}  # the file changed: read again
    assert third.get("c:80") == {"KOI8-R": 1}  # its own pending declarations kept
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME, FILE_NAME + ".lock"]


def test_file_store_writes_after_seconds(tmp_path):
    store = FileStore(tmp_path / FILE_NAME, every=1000, seconds=0)
    store.merge("a:80", {"KOI8-R": 1})
    assert (tmp_path / FILE_NAME).exists()


def test_file_store_reads_old_and_broken_files(tmp_path, caplog):
    path = tmp_path / FILE_NAME
    path.write_text('{"hosts": {"a:80": "koi8-r", "b:80": "no such label", "c:80": {"gbk": 2, "x": 1}}}')
    assert FileStore(path).hosts == {"a:80": {"KOI8-R": 1}, "c:80": {"GBK": 2}}
    path.write_text("{not json")
    assert FileStore(path).hosts == {}
    assert "Could not read" in caplog.text


def test_two_processes_share_one_file(tmp_path):
    """Two processes add declarations to one file at the same time (a write after every one):
    none is lost (the lock and the merge), and the file is always whole JSON (os.replace)."""
    script = textwrap.dedent(f"""
        import json, sys
        from scrapy_whatwg_encoding.scrapy.memory import FileStore
        store = FileStore({str(tmp_path / FILE_NAME)!r}, every=1)
        for n in range(150):
            store.merge("shared:80", {{sys.argv[1]: 1}})
            json.loads(store.path.read_text("utf-8"))
        store.close()
    """)
    processes = [subprocess.Popen([sys.executable, "-c", script, name]) for name in ("KOI8-R", "GBK")]
    assert [p.wait(timeout=120) for p in processes] == [0, 0]
    assert FileStore(tmp_path / FILE_NAME).get("shared:80") == {"KOI8-R": 150, "GBK": 150}


def test_store_errors_never_reach_the_crawl(tmp_path):
    stats = get_crawler().stats
    (tmp_path / "file").write_text("")
    memory = SiteMemory(FileStore(tmp_path / "file" / FILE_NAME, every=1), stats)
    memory.learn(URL, sniff(b"", content_type="text/html; charset=koi8-r"))  # cannot write: a file is in the way
    memory.close()
    nobody = SiteMemory(RedisStore("redis://127.0.0.1:9/0?socket_connect_timeout=1"), stats)
    body = _stripped(KOI8_R_PAGES[1])
    assert nobody.likely(URL, body, sniff(body, url=URL)) is None
    assert stats.get_value("whatwg_encoding/memory/store_errors") == 3


@pytest.mark.parametrize("value", ["redis://localhost:6379/0", "rediss://h:6380", "unix:///tmp/redis.sock", None, ""])
def test_store_setting_accepts(value):
    from scrapy_whatwg_encoding.scrapy.settings import check_store

    assert check_store("WHATWG_ENCODING_REMEMBER_STORE", value) == (value or None)
