"""Issue 21, item 6, through real crawls on 127.0.0.1: an unlabeled UTF-8 page with one stray byte
(37 KB, served as ``text/html`` without a charset) with Scrapy alone and with the add-on."""
from __future__ import annotations

import pytest_twisted
from cases import stray_byte_page
from scrapy.http import HtmlResponse
from whatwg_crawl_helpers import Server, SiteMap, check_decision, crawl, whatwg_stats


@pytest_twisted.inlineCallbacks
def test_one_stray_byte_against_scrapy_alone(tmp_path):
    body, expected = stray_byte_page()
    (tmp_path / "carnet.html").write_bytes(body)
    server = Server(SiteMap.load(tmp_path))
    try:
        url = server.url("carnet.html")
        _, (alone,) = yield crawl([url], settings={"ADDONS": {}})
        crawler, (page,) = yield crawl([url])
    finally:
        yield server.port.stopListening()
    assert alone.headers[b"Content-Type"] == page.headers[b"Content-Type"] == b"text/html"
    # Scrapy alone: neither UTF-8 nor cp1252 decodes it (cp1252 lacks 0x9D), so ASCII.
    assert type(alone) is HtmlResponse and alone.encoding == "ascii"
    assert alone.text.count("\ufffd") == 10_801
    # The add-on: the text the author wrote, one U+FFFD where the stray byte is.
    check_decision(page)
    assert page.meta["whatwg_encoding"]["encoding"] == "UTF-8"
    assert page.meta["whatwg_encoding"]["source"] == "detector"
    assert page.text == expected and page.text.count("\ufffd") == 1
    assert page.body == alone.body == body
    assert page.css("p::text").getall()[:2] == ["Thé à Noël ? Oui”"] * 2
    assert whatwg_stats(crawler)["whatwg_encoding/encoding/UTF-8"] == 1
