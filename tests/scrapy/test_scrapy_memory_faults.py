"""Issue 20: site memory in Redis under faults, in real crawls against a real redis-server started
here (skipped where it is not installed): killed, paused (``CLIENT PAUSE``, ``DEBUG SLEEP``), a
socket that accepts and never answers, a wrong password, a database that does not exist. Each
crawl finishes with every request crawled and decided; each failure is counted and the circuit
breaker logged once; where the server comes back, the memory is saved."""
from __future__ import annotations

import contextlib
import shutil
import socket
import sys
import threading

import pytest
import pytest_twisted
from twisted.internet import reactor, threads
from whatwg_crawl_helpers import REPO, crawl, whatwg_stats

from scrapy_whatwg_encoding.scrapy.memory import host_of
from scrapy_whatwg_encoding.scrapy.memory.redis import REDIS_PREFIX

redis = pytest.importorskip("redis", reason="the redis package is missing (pip install -e '.[test]')")
if shutil.which("redis-server") is None:
    pytest.skip("redis-server is not installed (apt-get install redis-server)", allow_module_level=True)
sys.path.insert(0, str(REPO / "tools"))
from remember_store_latency import redis_server

PAGES = 40
PAGE = "header/koi8-r.html"  # Content-Type: text/html; charset=koi8-r: one declaration per page


@contextlib.contextmanager
def silent_server():
    """A TCP server on 127.0.0.1 that accepts connections and never answers; yields its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    accepted: list[socket.socket] = []

    def accept():
        with contextlib.suppress(OSError):
            while True:
                accepted.append(listener.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()
        for connection in accepted:
            connection.close()


def _crawl(demo_server, store: str):
    settings = {"WHATWG_ENCODING_REMEMBER": True, "WHATWG_ENCODING_REMEMBER_STORE": str(store),
                "LOG_LEVEL": "WARNING"}
    urls = [demo_server.url(PAGE) + f"?n={n}" for n in range(PAGES)]
    return crawl(urls, settings=settings)


def _check_crawled(crawler, pages) -> dict:
    assert len(pages) == PAGES  # every request crawled, and decided
    assert {(p.meta["whatwg_encoding"]["encoding"], p.meta["whatwg_encoding"]["source"]) for p in pages} == {
        ("KOI8-R", "transport")}
    assert crawler.stats.get_value("finish_reason") == "finished"
    return whatwg_stats(crawler)


def _saved(url: str, host: str, password: str | None = None) -> dict:
    client = redis.Redis.from_url(url, password=password)
    try:
        return client.hgetall(REDIS_PREFIX + host)
    finally:
        client.close()


def _breaker_logged_once(caplog) -> None:
    assert len([r for r in caplog.records if "left alone" in r.getMessage()]) <= 1
    assert not [r for r in caplog.records if r.levelname == "ERROR" and "not saved" not in r.getMessage()]


@pytest_twisted.inlineCallbacks
def test_socket_that_never_answers(demo_server, caplog):
    with silent_server() as port:
        crawler, pages = yield _crawl(demo_server, f"redis://127.0.0.1:{port}/0")
    stats = _check_crawled(crawler, pages)
    assert stats["whatwg_encoding/memory/store_errors"] >= 1
    assert stats["whatwg_encoding/memory/dropped"] == PAGES  # never saved, and said so
    assert "were not saved" in caplog.text
    _breaker_logged_once(caplog)


@pytest_twisted.inlineCallbacks
def test_killed_server(demo_server, tmp_path, caplog):
    with redis_server(tmp_path) as url:
        url.process.kill()
        url.process.wait()
        crawler, pages = yield _crawl(demo_server, url)
    stats = _check_crawled(crawler, pages)
    assert stats["whatwg_encoding/memory/store_errors"] >= 1
    assert "ConnectionError" in caplog.text
    _breaker_logged_once(caplog)


@pytest.mark.parametrize("command", [("CLIENT", "PAUSE", "3000", "ALL"), ("DEBUG", "SLEEP", "3")])
@pytest_twisted.inlineCallbacks
def test_paused_server_gets_every_declaration(demo_server, tmp_path, command):
    with redis_server(tmp_path, 20.0, "--enable-debug-command", "yes") as url:
        client = redis.Redis.from_url(url)
        # Paused from another client while the crawl starts (DEBUG SLEEP blocks its caller).
        pause = threads.deferToThread(client.execute_command, *command)
        crawler, pages = yield _crawl(demo_server, url)
        yield pause
        client.close()
        stats = _check_crawled(crawler, pages)
        assert _saved(url, host_of(demo_server.base)) == {b"KOI8-R": str(PAGES).encode()}
    assert "whatwg_encoding/memory/dropped" not in stats


@pytest.mark.parametrize("wrong", ["password", "database"])
@pytest_twisted.inlineCallbacks
def test_wrong_password_or_database(demo_server, tmp_path, caplog, wrong):
    with redis_server(tmp_path, 20.0, password="right") as url:
        store = url.replace("redis://", "redis://:wrong@") if wrong == "password" else \
            url.replace("redis://", "redis://:right@").replace("/0", "/99")
        crawler, pages = yield _crawl(demo_server, store)
        stats = _check_crawled(crawler, pages)
        assert _saved(url, host_of(demo_server.base), password="right") == {}
    assert stats["whatwg_encoding/memory/store_errors"] >= 1
    assert ("AuthenticationError" if wrong == "password" else "ResponseError") in caplog.text
    assert "wrong" not in caplog.text.replace("WRONGPASS", "")  # the password is never logged
    _breaker_logged_once(caplog)


@pytest_twisted.inlineCallbacks
def test_server_restarted_mid_crawl_gets_the_rest(demo_server, tmp_path):
    """Killed before the crawl, started again on the same port while it runs: what was learned
    meanwhile is saved (tried again at each exchange, and at the end)."""
    with redis_server(tmp_path) as url:
        port = url.rsplit(":", 1)[1].split("/")[0]
        url.process.kill()
        url.process.wait()
        restarted: list = []

        def restart():
            import subprocess

            restarted.append(subprocess.Popen(
                ["redis-server", "--port", port, "--bind", "127.0.0.1", "--dir", str(tmp_path), "--save", "",
                 "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

        reactor.callLater(0.2, restart)
        try:
            crawler, pages = yield _crawl(demo_server, url)
            _check_crawled(crawler, pages)
            assert _saved(url, host_of(demo_server.base)) == {b"KOI8-R": str(PAGES).encode()}
        finally:
            for process in restarted:
                process.terminate()
                process.wait(timeout=10)
