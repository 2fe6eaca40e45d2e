"""A response the middleware leaves as Scrapy made it carries no decision of another response, and
the skip is counted by reason (``whatwg_encoding/skipped/<reason>``): real crawls where each
request is built with ``meta=response.meta`` from a decided page (a common idiom)."""
from __future__ import annotations

import json
import logging

import pytest
import pytest_twisted
import scrapy
from whatwg_crawl_helpers import CollectSpider, Server, SiteMap, crawl, whatwg_stats

PAGES = {
    "page.html": ("text/html; charset=windows-1251", "<title>Новини</title>".encode("windows-1251")),
    "data.json": ("application/json", json.dumps({"q": "日本"}).encode()),
    "image.png": ("image/png", b"\x89PNG\r\n\x1a\n" + bytes(range(256))),
    "raw.html": ("text/html; charset=koi8-r", "<title>Новини</title>".encode("koi8-r")),
}


@pytest.fixture(scope="module")
def skip_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("skipped")
    for path, (_, body) in PAGES.items():
        (root / path).write_bytes(body)
    (root / "pages.json").write_text(json.dumps({p: {"content_type": ct} for p, (ct, _) in PAGES.items()}))
    server = Server(SiteMap.load(root))
    yield server
    server.port.stopListening()


class FollowWithMeta(CollectSpider):
    """Requests the HTML page, then every other page with ``meta=response.meta`` (plus
    ``dont_sniff_encoding`` for ``raw.html``)."""

    name = "follow_with_meta"

    def parse(self, response):
        self.responses.append(response)
        if response.url.endswith("/page.html"):
            for path in ("data.json", "image.png"):
                yield response.follow(f"/{path}", meta=response.meta, callback=self.parse)
            yield response.follow("/raw.html", meta={**response.meta, "dont_sniff_encoding": True},
                                  callback=self.parse)


@pytest_twisted.inlineCallbacks
def test_skipped_responses_carry_no_stale_decision(skip_server, caplog):
    caplog.set_level(logging.INFO)
    crawler, responses = yield crawl([skip_server.url("page.html")], spider_cls=FollowWithMeta)
    by_path = {r.url.rsplit("/", 1)[1]: r for r in responses}
    assert set(by_path) == set(PAGES)
    assert by_path["page.html"].meta["whatwg_encoding"]["encoding"] == "windows-1251"
    for path in ("data.json", "image.png", "raw.html"):
        assert "whatwg_encoding" not in by_path[path].meta, path
        assert by_path[path].body == PAGES[path][1]
    assert not isinstance(by_path["data.json"], scrapy.http.HtmlResponse)
    assert by_path["raw.html"].encoding == "koi8-r"  # as Scrapy made it
    stats = whatwg_stats(crawler)
    assert stats["whatwg_encoding/skipped/not_a_document"] == 2
    assert stats["whatwg_encoding/skipped/dont_sniff_encoding"] == 1
    assert stats["whatwg_encoding/responses"] == 1
    # The closing summary counts them too, by reason (issue 19).
    (summary,) = [r.getMessage() for r in caplog.records if "WHATWG encoding summary" in r.getMessage()]
    assert "\n  skipped (left as Scrapy made them): 3 (not_a_document ×2, dont_sniff_encoding ×1)\n" in summary
