"""WHATWG_ENCODING_REMEMBER: a host's last declared encoding is the likely encoding (sniffing step 7)
of its unlabeled pages, persisted in JOBDIR so that a resumed crawl remembers; off by default."""
from __future__ import annotations

import json

import pytest_twisted
from whatwg_crawl_helpers import check_decision, crawl

from scrapy_whatwg_encoding.scrapy.memory import FILE_NAME, host_of


@pytest_twisted.inlineCallbacks
def test_remember_persists_in_jobdir(demo_server, tmp_path):
    settings = {"JOBDIR": str(tmp_path), "WHATWG_ENCODING_REMEMBER": True}
    _, (koi8,) = yield crawl([demo_server.url("header/koi8-r.html")], settings=settings)
    assert koi8.meta["whatwg_encoding"]["source"] == "transport"
    saved = json.loads((tmp_path / FILE_NAME).read_text("utf-8"))
    assert saved == {"hosts": {host_of(demo_server.base): "KOI8-R"}}

    # A new crawl (a resumed job): the unlabeled page gets the remembered encoding before detection.
    _, (page,) = yield crawl([demo_server.url("unlabeled/ru-windows-1251.html")], settings=settings)
    check_decision(page, likely="KOI8-R")
    assert page.meta["whatwg_encoding"] == {"encoding": "KOI8-R", "confidence": "tentative",
                                            "source": "likely", "label": page.meta["whatwg_encoding"]["label"],
                                            "offset": None}

    # Without REMEMBER (the default) the same job directory changes nothing: order-independent.
    _, (again,) = yield crawl([demo_server.url("unlabeled/ru-windows-1251.html")],
                              settings={"JOBDIR": str(tmp_path)})
    check_decision(again)
    assert again.meta["whatwg_encoding"]["source"] == "detector"
