"""Every web-platform-tests byte-stream page through the middleware in a real crawl: a local
HTTP server sends each page's bytes with the Content-Type WPT would send (``.headers`` files,
else ``text/html``), as recorded in ``tests/data/wpt-expectations/byte-stream.json``.

A crawl has no parent frame: the 24 xmldecl pages whose windows-1252 comes from their
windows-1252 parent (sniffing step 6, the container) are checked against ``sniff()`` without a
parent instead; every other page must give the page's own expectation."""
from __future__ import annotations

import json

import pytest_twisted
from twisted.internet import reactor
from twisted.web import resource, server
from whatwg_crawl_helpers import DATA, crawl

from scrapy_whatwg_encoding import sniff

PAGES = json.loads((DATA / "wpt-expectations" / "byte-stream.json").read_text("utf-8"))


def page_body(page: dict) -> bytes:
    if "body" in page:
        return page["body"].encode("latin-1")
    return (DATA / "wpt" / page["page"]).read_bytes()


class WptPages(resource.Resource):
    isLeaf = True

    def __init__(self):
        super().__init__()
        self.pages = {"/" + page["page"]: page for page in PAGES}

    def render(self, request):
        page = self.pages[request.path.decode("ascii")]
        request.setHeader(b"Content-Type", page["content_type"].encode("latin-1"))
        return page_body(page)


def needs_parent(page: dict) -> bool:
    """The page's expectation holds only with its parent frame's encoding (the container step)."""
    alone = sniff(page_body(page), content_type=page["content_type"], detector="browser")
    return bool(page.get("parent")) and alone.encoding.name != page["expected"]


@pytest_twisted.inlineCallbacks
def test_every_page_through_the_middleware():
    site = server.Site(WptPages())
    site.noisy = False
    port = reactor.listenTCP(0, site, interface="127.0.0.1")
    base = f"http://127.0.0.1:{port.getHost().port}/"
    try:
        _, responses = yield crawl([base + page["page"] for page in PAGES],
                                   settings={"WHATWG_ENCODING_DETECTOR": "browser"})
    finally:
        yield port.stopListening()
    by_url = {response.url: response for response in responses}
    assert len(by_url) == len(PAGES)
    alone = 0
    for page in PAGES:
        response = by_url[base + page["page"]]
        decided = response.meta["whatwg_encoding"]["encoding"]
        assert response.body == page_body(page)
        if needs_parent(page):
            alone += 1
            expected = sniff(response.body, content_type=page["content_type"], url=response.url,
                             detector="browser").encoding.name
        else:
            expected = page["expected"]
        assert decided == expected, page["page"]
        if "box_class" in page:
            assert f"id='box' class='{page['box_class']}'" in response.text
    assert alone == 24
