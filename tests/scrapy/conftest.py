"""Fixtures: HTTP servers on 127.0.0.1 for the bundled demo site and for ``tests/data/corpus`` (served as
``text/html`` without a charset, and with the manifest's charset); a real redis-server per module; an
HTML report whose rendering fails."""
from __future__ import annotations

import shutil

import pytest
from whatwg_crawl_helpers import BUNDLED_SITE, CORPUS, Server, SiteMap, load_manifest

from scrapy_whatwg_encoding import report as report_package

# A script the tests run as a process, not a test module (without scrapy-redis it cannot be imported).
collect_ignore = ["redis_fleet_worker.py"]


def _server(site):
    server = Server(site)
    yield server
    server.port.stopListening()


@pytest.fixture(scope="session")
def demo_server():
    yield from _server(SiteMap.load(BUNDLED_SITE))


@pytest.fixture(scope="session")
def corpus_manifest():
    if not (CORPUS / "manifest.json").exists():
        pytest.fail(f"the corpus is missing: {CORPUS}")
    return load_manifest()


@pytest.fixture(scope="session")
def corpus_server(corpus_manifest):
    yield from _server(SiteMap.load(CORPUS, "none"))


@pytest.fixture(scope="session")
def corpus_labeled_server(corpus_manifest):
    yield from _server(SiteMap.load(CORPUS, "manifest"))


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A ``redis-server`` of this module's own, started here (tools/remember_store_latency.py);
    its URL, database 0. Skips where the ``redis`` package or ``redis-server`` is missing."""
    pytest.importorskip("redis", reason="the redis package is missing (pip install -e '.[test]')")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    from remember_store_latency import redis_server  # tools/ is on the path (tests/conftest.py)

    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def failing_report(monkeypatch):
    """The HTML report's rendering raises a ``RuntimeError`` (the stats import it at close)."""
    def failing(*args, **kwargs):
        raise RuntimeError("injected by the test")

    monkeypatch.setattr(report_package, "render_html", failing)
