"""An exception inside the middleware never fails a request: the response goes on as Scrapy made it,
the error is logged once per kind and counted under whatwg_encoding/errors."""
from __future__ import annotations

import logging

import pytest_twisted
from whatwg_crawl_helpers import check_decision, crawl, whatwg_stats

from scrapy_whatwg_encoding import whatwg_encoding
from scrapy_whatwg_encoding.sniffing.decide import Options


@pytest_twisted.inlineCallbacks
def test_injected_errors_leave_the_crawl_running(demo_server, monkeypatch, caplog):
    real_decide = Options.decide

    def failing_decide(options, body, content_type=None, url=None, *args):
        if "/unlabeled/" in url:
            raise RuntimeError("injected by the test")
        if "/meta/" in url:
            raise KeyError("injected by the test")
        return real_decide(options, body, content_type, url, *args)

    monkeypatch.setattr(Options, "decide", failing_decide)
    caplog.set_level(logging.INFO)
    paths = [p for p in demo_server.site.pages if p.startswith(("unlabeled/", "meta/", "header/"))]
    requests = [demo_server.url(p) for p in paths]
    requests.append((demo_server.url("bom/utf-8-bom.html"), {"whatwg_encoding_locale": "no such tag"}))
    crawler, responses = yield crawl(requests)
    assert len(responses) == len(paths) + 1
    failed = [r for r in responses if "/unlabeled/" in r.url or "/meta/" in r.url or "bom" in r.url]
    for response in failed:  # as Scrapy made them
        assert "whatwg_encoding" not in response.meta and whatwg_encoding(response) is None
        assert response.text  # Scrapy's own decoding still works
    for response in responses:
        if response not in failed:
            check_decision(response)
    stats = whatwg_stats(crawler)
    unlabeled = sum("/unlabeled/" in r.url for r in responses)
    assert stats["whatwg_encoding/errors"] == len(failed)
    assert stats["whatwg_encoding/errors/RuntimeError"] == unlabeled
    assert stats["whatwg_encoding/errors/InvalidSetting"] == 1
    logged = [r for r in caplog.records if r.name == "scrapy_whatwg_encoding" and r.levelno == logging.ERROR]
    assert len(logged) == 3  # once per kind: RuntimeError, KeyError, InvalidSetting
    assert any("no such tag" in str(r.exc_info[1]) for r in logged)
    assert crawler.stats.get_value("finish_reason") == "finished"
