"""WHATWG_ENCODING_REMEMBER never hurts (issue 12, item 3), in real crawls of tests/data/corpus:

- the corpus served from one host (about 15 declared encodings): REMEMBER on decides at least as
  many pages right as REMEMBER off, and two runs agree;
- consistent legacy hosts (one per encoding the detector confuses with a sibling: KOI8-R/KOI8-U,
  ISO-8859-7/windows-1253, ISO-8859-2/windows-1250), half of their pages labeled in the header,
  half with their declarations stripped: a crawl of the labeled pages, then (the job resumed) of the
  stripped ones, decides more right with REMEMBER on than off.

tools/remember_accuracy.py gives the same figures for every crawl order.
"""
from __future__ import annotations

import sys

import pytest_twisted
from whatwg_crawl_helpers import REPO, Server, SiteMap, check_decision, crawl, whatwg_stats

from scrapy_whatwg_encoding import get_encoding

sys.path.insert(0, str(REPO / "tools"))
from remember_accuracy import consistent_sites, write_site

CONSISTENT = ("KOI8-R", "ISO-8859-7", "ISO-8859-2")


def _right(responses, truth: dict[str, str | None]) -> int:
    return sum(r.meta["whatwg_encoding"]["encoding"] == truth[r.url] for r in responses if truth[r.url])


def _check(response) -> None:
    decision = response.meta["whatwg_encoding"]
    check_decision(response, likely=get_encoding(decision["encoding"]) if decision["source"] == "likely" else None)


@pytest_twisted.inlineCallbacks
def test_mixed_host_never_worse(corpus_server, corpus_manifest):
    urls = [corpus_server.url(e["path"]) for e in corpus_manifest]
    truth = {corpus_server.url(e["path"]): e["encoding"] for e in corpus_manifest}
    _, off = yield crawl(urls)
    runs = []
    for _ in range(2):
        crawler, on = yield crawl(urls, settings={"WHATWG_ENCODING_REMEMBER": True})
        assert len(on) == len(urls) and "whatwg_encoding/errors" not in whatwg_stats(crawler)
        for response in on:
            _check(response)
        runs.append({r.url: r.meta["whatwg_encoding"] for r in on})
    print(f"\nmixed host: {_right(off, truth)} right with REMEMBER off, {_right(on, truth)} with it "
          f"(of {sum(1 for t in truth.values() if t)})")
    assert _right(on, truth) >= _right(off, truth)
    assert runs[0] == runs[1]


def _consistent_servers(root, manifest):
    """A server (a host) per encoding in CONSISTENT: even pages labeled, odd pages stripped."""
    servers, labeled, stripped, truth = [], [], [], {}
    sites = consistent_sites(manifest)
    for name in CONSISTENT:
        write_site(sites[name], root / name)
        server = Server(SiteMap.load(root / name))
        servers.append(server)
        for path, _, content_type, _ in sites[name]:
            url = server.url(path)
            (labeled if "charset" in content_type else stripped).append(url)
            truth[url] = name
    return servers, labeled, stripped, truth


@pytest_twisted.inlineCallbacks
def test_consistent_hosts_better(tmp_path, corpus_manifest):
    servers, labeled, stripped, truth = _consistent_servers(tmp_path / "sites", corpus_manifest)
    try:
        settings = {"WHATWG_ENCODING_REMEMBER": True, "JOBDIR": str(tmp_path / "job")}
        _, first = yield crawl(labeled, settings=settings)
        assert _right(first, truth) == len(labeled)
        crawler, on = yield crawl(stripped, settings=settings)  # the job resumed: memory from the file
        _, off = yield crawl(stripped)
    finally:
        for server in servers:
            server.port.stopListening()
    for response in on:
        _check(response)
    right_on, right_off = _right(on, truth), _right(off, truth)
    print(f"\nconsistent hosts {', '.join(CONSISTENT)}: {len(stripped)} unlabeled pages, {right_off} right "
          f"with REMEMBER off, {right_on} with it")
    assert right_on > right_off
    assert whatwg_stats(crawler)["whatwg_encoding/memory/applied"] == right_on - right_off
