"""Fixtures: HTTP servers on 127.0.0.1 for the bundled demo site and for ``tests/data/corpus`` (served as
``text/html`` without a charset, and with the manifest's charset)."""
from __future__ import annotations

import pytest
from whatwg_crawl_helpers import BUNDLED_SITE, CORPUS, Server, SiteMap, load_manifest


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
