"""Per-spider and per-request configuration: custom_settings, the whatwg_encoding_locale attribute,
and the request meta keys whatwg_encoding_override, whatwg_encoding_locale, dont_sniff_encoding."""
from __future__ import annotations

import logging
from typing import ClassVar

import pytest_twisted
from scrapy.http import HtmlResponse
from whatwg_crawl_helpers import CollectSpider, check_decision, crawl, whatwg_stats

from scrapy_whatwg_encoding import whatwg_encoding

UNLABELED_FR = "unlabeled/fr-windows-1252.html"
UNLABELED_RU = "unlabeled/ru-windows-1251.html"


class RussianSpider(CollectSpider):
    name = "russian"
    whatwg_encoding_locale = "ru"
    custom_settings: ClassVar[dict] = {"WHATWG_ENCODING_DETECTOR": "off"}


class DefaultSpider(CollectSpider):
    name = "default"
    whatwg_encoding_locale = "ru"
    custom_settings: ClassVar[dict] = {"WHATWG_ENCODING_DETECTOR": "off", "WHATWG_ENCODING_DEFAULT": "ISO-8859-2"}


def _meta(response):
    return response.meta["whatwg_encoding"]


@pytest_twisted.inlineCallbacks
def test_request_meta(demo_server):
    url = demo_server.url
    _, responses = yield crawl([
        (url(UNLABELED_FR), {"whatwg_encoding_override": "koi8-r"}),
        (url("bom/utf-8-bom.html"), {"whatwg_encoding_override": "koi8-r"}),
        (url("header/koi8-r.html"), {"whatwg_encoding_override": "windows-1251"}),
        (url(UNLABELED_RU), {"dont_sniff_encoding": True}),
        (url("meta/shift_jis.html?locale"), {"whatwg_encoding_locale": "ja"}),
    ], settings={"WHATWG_ENCODING_DETECTOR": "off"})
    fr, bom, koi8, ru, ja = (next(r for r in responses if r.url.endswith(p)) for p in
                             (UNLABELED_FR, "bom.html", "koi8-r.html", UNLABELED_RU, "?locale"))
    # Step 2: the user override is certain and beats everything but a BOM (step 1).
    check_decision(fr, override="koi8-r", detector="off")
    assert (_meta(fr)["encoding"], _meta(fr)["source"], _meta(fr)["confidence"]) == ("KOI8-R", "override", "certain")
    check_decision(bom, override="koi8-r", detector="off")
    assert (_meta(bom)["encoding"], _meta(bom)["source"]) == ("UTF-8", "bom")
    check_decision(koi8, override="windows-1251", detector="off")
    assert (_meta(koi8)["encoding"], _meta(koi8)["source"]) == ("windows-1251", "override")
    # dont_sniff_encoding: the response is exactly what Scrapy made.
    assert type(ru) is HtmlResponse and "whatwg_encoding" not in ru.meta
    assert whatwg_encoding(ru) is None
    # The page's own <meta> (step 5) still comes before the locale default (step 9).
    check_decision(ja, locale="ja", detector="off")
    assert _meta(ja)["source"] == "prescan"


@pytest_twisted.inlineCallbacks
def test_request_locale_default(demo_server):
    _, responses = yield crawl([(demo_server.url(UNLABELED_FR), {"whatwg_encoding_locale": "ja"}),
                                demo_server.url(UNLABELED_RU)],
                               settings={"WHATWG_ENCODING_DETECTOR": "off"})
    ja, plain = sorted(responses, key=lambda r: "fr-" not in r.url)
    check_decision(ja, locale="ja", detector="off")
    assert (_meta(ja)["encoding"], _meta(ja)["source"]) == ("Shift_JIS", "default")
    check_decision(plain, detector="off")  # no locale: the "all other locales" row
    assert (_meta(plain)["encoding"], _meta(plain)["source"]) == ("windows-1252", "default")


@pytest_twisted.inlineCallbacks
def test_spider_locale_attribute_and_custom_settings(demo_server):
    _, responses = yield crawl([demo_server.url(UNLABELED_RU)], spider_cls=RussianSpider)
    (ru,) = responses
    check_decision(ru, locale="ru", detector="off")
    assert (_meta(ru)["encoding"], _meta(ru)["source"]) == ("windows-1251", "default")
    assert ru.css("h1::text").get() == "Без метки: windows-1251"

    _, responses = yield crawl([demo_server.url("unlabeled/pl-iso-8859-2.html")], spider_cls=DefaultSpider)
    (pl,) = responses
    check_decision(pl, locale="ru", default="ISO-8859-2", detector="off")
    assert (_meta(pl)["encoding"], _meta(pl)["source"]) == ("ISO-8859-2", "default")
    assert pl.css("h1::text").get() == "Bez etykiety: ISO-8859-2"


@pytest_twisted.inlineCallbacks
def test_site_overrides_setting(demo_server):
    """WHATWG_ENCODING_OVERRIDES: the user override (step 2) by host, the port ignored; a request's
    own override wins; another host is untouched."""
    url = demo_server.url
    localhost = url(UNLABELED_RU).replace("127.0.0.1", "localhost")
    overrides = {"127.0.0.1": "koi8-r", "LOCALHOST.": "windows-1251"}
    _, responses = yield crawl([
        url(UNLABELED_FR),
        (url("header/koi8-r.html"), {"whatwg_encoding_override": "windows-1252"}),
        localhost,
    ], settings={"WHATWG_ENCODING_DETECTOR": "off", "WHATWG_ENCODING_OVERRIDES": overrides})
    fr, koi8, ru = (next(r for r in responses if r.url.endswith(p)) for p in
                    (UNLABELED_FR, "koi8-r.html", UNLABELED_RU))
    check_decision(fr, override="koi8-r", detector="off")
    assert (_meta(fr)["encoding"], _meta(fr)["source"], _meta(fr)["label"]) == ("KOI8-R", "override", "koi8-r")
    check_decision(koi8, override="windows-1252", detector="off")
    assert (_meta(koi8)["encoding"], _meta(koi8)["source"]) == ("windows-1252", "override")
    assert ru.url.startswith("http://localhost:")
    check_decision(ru, override="windows-1251", detector="off")
    assert (_meta(ru)["encoding"], _meta(ru)["source"]) == ("windows-1251", "override")
    assert ru.css("h1::text").get() == "Без метки: windows-1251"


@pytest_twisted.inlineCallbacks
def test_request_override_that_cannot_work(demo_server, caplog):
    """Issue 21, item 7: a request's override that is a label of the replacement encoding (every
    page one U+FFFD) or no label at all is ignored: the page is decided as without the key (the
    site override still applies), counted in whatwg_encoding/invalid_override, and logged as a
    WARNING once per value."""
    caplog.set_level(logging.INFO)
    url = demo_server.url
    bad = ["iso-2022-kr", "iso-2022-kr", "HZ-GB-2312", "bogus"]
    requests = [(url(f"{UNLABELED_RU}?{i}"), {"whatwg_encoding_override": value}) for i, value in enumerate(bad)]
    requests.append((url("header/koi8-r.html"), {"whatwg_encoding_override": "windows-1252"}))  # a good one
    crawler, responses = yield crawl(requests, settings={"WHATWG_ENCODING_DETECTOR": "off",
                                                         "WHATWG_ENCODING_OVERRIDES": {"127.0.0.1": "koi8-r"}})
    assert len(responses) == 5
    for response in responses:
        if UNLABELED_RU in response.url:  # the site's override, not the request's
            check_decision(response, override="koi8-r", detector="off")
            assert (_meta(response)["encoding"], _meta(response)["source"]) == ("KOI8-R", "override")
            assert "\ufffd" not in response.text
        else:
            check_decision(response, override="windows-1252", detector="off")
            assert _meta(response)["source"] == "override"
    stats = whatwg_stats(crawler)
    assert stats["whatwg_encoding/invalid_override"] == 4
    assert "whatwg_encoding/errors" not in stats
    warned = sorted(r.getMessage() for r in caplog.records if r.name == "scrapy_whatwg_encoding"
                    and r.levelno == logging.WARNING)
    assert len(warned) == 3, warned  # once per value
    replacement = ("(a label of the replacement encoding, which decodes every document to a single U+FFFD; "
                   "expected a label of an encoding that decodes text, such as \"utf-8\")")
    assert warned[0].startswith("meta['whatwg_encoding_override']: invalid value 'HZ-GB-2312' " + replacement)
    assert warned[1].startswith("meta['whatwg_encoding_override']: invalid value 'bogus' (expected a label of "
                                "the WHATWG Encoding Standard); <http://127.0.0.1:")
    assert warned[2].startswith("meta['whatwg_encoding_override']: invalid value 'iso-2022-kr' " + replacement)
    assert all(line.endswith("is decoded without it") for line in warned)
