"""WHATWG_ENCODING_PROFILE (issue 18) in real crawls: per crawl, per spider (custom_settings), per
request (meta["whatwg_encoding_profile"]), validated at start-up, and combined with
WHATWG_ENCODING_DETECTOR (unset: the profile's own mode)."""
from __future__ import annotations

from typing import ClassVar

import pytest
import pytest_twisted
from whatwg_crawl_helpers import CollectSpider, check_decision, crawl

from scrapy_whatwg_encoding.scrapy.settings import InvalidSetting

UTF8 = "unlabeled/hi-utf-8.html"  # unlabeled UTF-8: "full" detects it, browsers never do


class BrowsersSpider(CollectSpider):
    name = "browsers"
    custom_settings: ClassVar[dict] = {"WHATWG_ENCODING_PROFILE": "browsers"}


@pytest_twisted.inlineCallbacks
def test_profile_per_spider_and_per_request(demo_server):
    url = demo_server.url
    _, standard = yield crawl([url(UTF8), (url(UTF8) + "?browsers", {"whatwg_encoding_profile": "browsers"})])
    plain, asked = sorted(standard, key=lambda r: r.url)
    assert check_decision(plain).name == "UTF-8"  # the standard profile, detector "full"
    assert check_decision(asked, profile="browsers").name != "UTF-8"  # this request: "browser"
    _, browsers = yield crawl([url(UTF8)], spider_cls=BrowsersSpider)
    assert check_decision(browsers[0], profile="browsers").name == asked.meta["whatwg_encoding"]["encoding"]


@pytest.mark.parametrize("settings", [
    {"WHATWG_ENCODING_PROFILE": "chrome"},
    {"WHATWG_ENCODING_PROFILE": "browsers", "WHATWG_ENCODING_DETECTOR": "full"},
])
@pytest_twisted.inlineCallbacks
def test_invalid_profile_fails_at_start(demo_server, settings):
    with pytest.raises(InvalidSetting, match="WHATWG_ENCODING_(PROFILE|DETECTOR)"):
        yield crawl([demo_server.url(UTF8)], settings=settings)


@pytest_twisted.inlineCallbacks
def test_an_explicit_detector_holds_in_every_profile(demo_server):
    url = demo_server.url
    _, responses = yield crawl([url(UTF8), (url(UTF8) + "?b", {"whatwg_encoding_profile": "browsers"})],
                               settings={"WHATWG_ENCODING_DETECTOR": "off"})
    for response in responses:
        assert response.meta["whatwg_encoding"]["source"] == "default"


@pytest_twisted.inlineCallbacks
def test_an_invalid_request_profile_is_logged_and_loses_nothing(demo_server):
    crawler, responses = yield crawl([(demo_server.url(UTF8), {"whatwg_encoding_profile": "firefox"})])
    assert len(responses) == 1 and "whatwg_encoding" not in responses[0].meta
    assert crawler.stats.get_value("whatwg_encoding/errors") == 1
