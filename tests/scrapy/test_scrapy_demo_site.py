"""The bundled demo site crawled through the add-on: every source of the sniffing algorithm."""
from __future__ import annotations

import logging

import pytest_twisted
from scrapy.http import Response, TextResponse
from whatwg_crawl_helpers import check_decision, crawl, whatwg_stats

from scrapy_whatwg_encoding import whatwg_encoding

# Where each page's decision must come from (DESIGN: Decision.source), by folder or by page.
# late/: the "full" detector (uchardet) already finds the page's KOI8-R, which the late <meta> then
# confirms (change the encoding: same encoding → certain, no change), so the source may be "detector".
SOURCES = {"bom": {"bom"}, "header": {"transport"}, "meta": {"prescan"}, "late": {"parser", "detector"},
           "unlabeled": {"detector"}, "form": {"prescan"},
           "xml/feed-iso-8859-7.xml": {"xml-declaration"}, "xml/utf-16le-no-bom.xml": {"xml-declaration"},
           # served as text/html: the prescan's "get an XML encoding" fallback finds it
           "xml/feed-served-as-html.xml": {"prescan", "xml-declaration"}}


@pytest_twisted.inlineCallbacks
def test_demo_site_every_source(demo_server, caplog):
    caplog.set_level(logging.DEBUG, logger="scrapy_whatwg_encoding")
    pages = demo_server.site.pages
    crawler, responses = yield crawl([demo_server.url(path) for path in pages])
    by_path = {r.url[len(demo_server.base):]: r for r in responses}
    assert set(by_path) == set(pages)
    decided = 0
    for path, page in pages.items():
        response = by_path[path]
        assert response.body == (demo_server.site.root / path).read_bytes(), path  # body untouched
        if page.expect is None:  # the PNG, and UTF-16 Scrapy took for binary: not documents it decodes
            assert type(response) is Response and "whatwg_encoding" not in response.meta
            continue
        decided += 1
        encoding = check_decision(response)
        assert encoding.name == page.expect, (path, response.meta["whatwg_encoding"])
        source = response.meta["whatwg_encoding"]["source"]
        assert source in SOURCES.get(path, SOURCES.get(path.split("/")[0], set())), (path, source)
        assert isinstance(response, TextResponse)
    # UTF-16 without Content-Type: Scrapy's binary check made a Response, and it keeps its type.
    utf16 = by_path["bom/no-content-type-utf-16le"]
    assert type(utf16) is Response and whatwg_encoding(utf16) is None
    # FF FE 00 00 is the UTF-16LE BOM then U+0000 (w3lib alone would decode UTF-32LE).
    lookalike = by_path["bom/utf-32le-lookalike.html"]
    assert lookalike.text.startswith("\x00<!DOCTYPE html>")
    assert lookalike.xpath("//h1/text()").get() == "FF FE 00 00"
    # Selectors see the decided text.
    assert by_path["late/late-meta.html"].css("h1::text").get() == "Поздний meta"
    assert by_path["unlabeled/zh-hans-gbk.html"].css("title::text").get() == "无标签的 GBK 页面"
    assert by_path["header/koi8-r.html"].css("title::text").get() == "KOI8-R из заголовка"

    stats = whatwg_stats(crawler)
    assert stats["whatwg_encoding/responses"] == decided
    assert sum(v for k, v in stats.items() if k.startswith("whatwg_encoding/source/")) == decided
    assert sum(v for k, v in stats.items() if k.startswith("whatwg_encoding/encoding/")) == decided
    assert stats["whatwg_encoding/encoding/UTF-16LE"] == 3
    assert stats["whatwg_encoding/skipped/not_a_document"] == 2  # the PNG, the binary UTF-16 page
    # At least the FF FE 00 00 page decodes differently (w3lib reads UTF-32LE there).
    assert 1 <= stats["whatwg_encoding/changed_from_scrapy_default"] <= decided
    assert "whatwg_encoding/errors" not in stats
    lines = [r for r in caplog.records if r.name == "scrapy_whatwg_encoding" and r.msg.startswith("Encoding ")]
    assert len(lines) == decided and all(r.levelno == logging.DEBUG for r in lines)
    summary = [r.getMessage() for r in caplog.records if "WHATWG encoding summary" in r.getMessage()]
    assert len(summary) == 1 and f"{decided} responses decided" in summary[0]
    assert "UTF-16LE" in summary[0] and "detector" in summary[0]
