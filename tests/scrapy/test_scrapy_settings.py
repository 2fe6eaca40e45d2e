"""Settings: validation at start-up, ENABLED, add-on priorities, installing without the add-on,
middleware order (after HttpCompressionMiddleware)."""
from __future__ import annotations

import pytest
import pytest_twisted
from whatwg_crawl_helpers import CollectSpider, check_decision, crawl

from scrapy_whatwg_encoding import WhatwgEncodingMiddleware
from scrapy_whatwg_encoding.scrapy.settings import InvalidSetting

BAD = [
    ("WHATWG_ENCODING_DETECTOR", "chardet"),
    ("WHATWG_ENCODING_DEFAULT", "latin-9000"),
    ("WHATWG_ENCODING_DEFAULT", "iso-2022-kr"),  # the replacement encoding: every page one U+FFFD
    ("WHATWG_ENCODING_LOCALE", "not a locale"),
    ("WHATWG_ENCODING_PRESCAN_BYTES", 0),
    ("WHATWG_ENCODING_PRESCAN_BYTES", "many"),
    ("WHATWG_ENCODING_REMEMBER", "perhaps"),
    ("WHATWG_ENCODING_REMEMBER_STORE", "http://localhost:6379/"),
    ("WHATWG_ENCODING_REMEMBER_STORE", "redis://localhost:port/0"),
    ("WHATWG_ENCODING_REMEMBER_STORE", 6379),
    ("WHATWG_ENCODING_REMEMBER_STORE", "redis://localhost:6379/notadb"),  # redis-py alone: database 0
    ("WHATWG_ENCODING_REMEMBER_STORE", "redis://localhost:6379/1/2"),  # redis-py alone: database 12
    ("WHATWG_ENCODING_REMEMBER_MAX_HOSTS", 0),
    ("WHATWG_ENCODING_REMEMBER_MAX_HOSTS", "many"),
    ("WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS", 0),
    ("WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS", 2.5),
    ("WHATWG_ENCODING_REMEMBER_REDIS_PREFIX", ""),
    ("WHATWG_ENCODING_REMEMBER_REDIS_PREFIX", "a#b:"),  # "#" is the store's own keys' after the prefix
    ("WHATWG_ENCODING_REMEMBER_REDIS_PREFIX", 7),
    ("WHATWG_ENCODING_LOG_LEVEL", "LOUD"),
    ("WHATWG_ENCODING_ENABLED", "sometimes"),
    ("WHATWG_ENCODING_OVERRIDES", {"legacy.example.jp": "latin-9000"}),
    ("WHATWG_ENCODING_OVERRIDES", {"legacy.example.cn": "hz-gb-2312"}),
    ("WHATWG_ENCODING_OVERRIDES", {"http://legacy.example.jp/": "shift_jis"}),
    ("WHATWG_ENCODING_OVERRIDES", ["legacy.example.jp", "shift_jis"]),
]


@pytest.mark.parametrize(("name", "value"), BAD)
@pytest_twisted.inlineCallbacks
def test_invalid_setting_fails_at_start(demo_server, name, value):
    with pytest.raises(InvalidSetting) as info:
        yield crawl([demo_server.url("meta/shift_jis.html")], settings={name: value})
    assert name in str(info.value) and repr(value) in str(info.value)


class BadLocaleSpider(CollectSpider):
    name = "bad_locale"
    whatwg_encoding_locale = 42


@pytest_twisted.inlineCallbacks
def test_invalid_spider_attribute_fails_at_start(demo_server):
    with pytest.raises(InvalidSetting, match=r"BadLocaleSpider\.whatwg_encoding_locale: invalid value 42"):
        yield crawl([demo_server.url("meta/shift_jis.html")], spider_cls=BadLocaleSpider)


@pytest_twisted.inlineCallbacks
def test_without_addon(demo_server):
    """ENABLED=False: see test_scrapy_setting_messages.py."""
    url = demo_server.url("unlabeled/ru-windows-1251.html")
    # Listing the middleware works too; project settings beat the add-on's defaults.
    _, (listed,) = yield crawl([url], settings={
        "ADDONS": {}, "DOWNLOADER_MIDDLEWARES": {WhatwgEncodingMiddleware: 580},
        "WHATWG_ENCODING_DETECTOR": "off", "WHATWG_ENCODING_LOCALE": "uk"})
    check_decision(listed, detector="off", locale="uk")
    assert listed.meta["whatwg_encoding"]["source"] == "default"
    _, (project,) = yield crawl([url], settings={"WHATWG_ENCODING_DETECTOR": "off"})
    check_decision(project, detector="off")
    assert project.meta["whatwg_encoding"]["encoding"] == "windows-1252"


@pytest_twisted.inlineCallbacks
def test_sees_decompressed_body(demo_server):
    crawler, responses = yield crawl([demo_server.url("meta/shift_jis.html?gzip"),
                                      demo_server.url("unlabeled/zh-hant-big5.html?gzip")])
    for response in responses:
        assert b"Content-Encoding" not in response.headers  # HttpCompressionMiddleware ran first
        path = response.url[len(demo_server.base):].split("?")[0]
        assert response.body == (demo_server.site.root / path).read_bytes()
        check_decision(response)
        assert response.meta["whatwg_encoding"]["encoding"] == demo_server.site.pages[path].expect
    # process_response runs in reverse list order: decompression first, then this middleware, then
    # MetaRefreshMiddleware (same order 580, listed earlier), which thus reads the decided text.
    names = [type(m).__name__ for m in crawler.engine.downloader.middleware.middlewares]
    assert (names.index("MetaRefreshMiddleware") < names.index("WhatwgEncodingMiddleware")
            < names.index("HttpCompressionMiddleware"))
