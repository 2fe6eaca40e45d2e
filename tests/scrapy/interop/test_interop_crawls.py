"""Issue 21, item 8: real crawls of Scrapy's features and plugins with the add-on on and off, on
the same local server (interop_site.py): the items are identical, except where the add-on's text
is better, and there it is the browser's text (``decode(body, expected)``, interop_spiders.truth).
"""
from __future__ import annotations

import importlib
import shutil

import pytest
from interop_site import PAGES
from interop_spiders import COUNTS, FEATURES, compare_items, page_fields
from scrapy.selector import Selector

from scrapy_whatwg_encoding import get_encoding, sniff

# What Scrapy alone yields for each feature (a comparison of empty crawls proves nothing).
EXPECTED_ITEMS = {
    "xmlfeed_iternodes": 5, "xmlfeed_xml": 5, "xmlfeed_html": 5, "csvfeed": 3, "sitemap": 6, "sitemap_robots": 6,
    "crawlspider": 9, "forms": 7, "redirects": 3, "robotstxt": 3, "httpcache_fs": 8, "httpcache_dbm": 8,
    "feeds": 8, "feed_jsonl": 8, "feed_csv": 8, "feed_xml": 8, "itemloader": 8, "playwright": 5, "splash": 15,
    "zyte_api": 10, "zyte_api_httpcache": 10, "impersonate": 8, "drop_in": 12,
}
KINDS = {f.name: f.truth_kind for f in FEATURES}
# Only scrapy-impersonate may be missing (curl_cffi's binary wheels; on Scrapy < 2.13.4 pip picks
# scrapy-impersonate 1.4, which works); scrapy-splash 0.11 does not import on Scrapy 2.19.
MAY_BE_ABSENT = {"impersonate"}


def _result(results, mode, feature):
    result = results[mode][feature]
    if "skipped" in result:
        pytest.skip(result["skipped"])
    assert not result["errors"], f"add-on {mode}: {result['errors'][:3]}"
    return result


#: scrapy-splash 0.11 imports ``scrapy.utils.url.canonicalize_url``, which Scrapy 2.16+ no longer has:
#: there the plugin cannot run with the add-on or without it (CI's floor run crawls it).
SPLASH_CANNOT_IMPORT = not hasattr(importlib.import_module("scrapy.utils.url"), "canonicalize_url")


@pytest.mark.parametrize("feature", EXPECTED_ITEMS)
def test_items_identical_or_the_browsers_text(interop_results, interop_base, feature):
    if feature == "splash" and SPLASH_CANNOT_IMPORT:  # the same with and without the add-on
        for mode in ("on", "off"):
            assert "canonicalize_url" in interop_results[mode]["splash"].get("skipped", ""), mode
        return
    off = _result(interop_results, "off", feature)
    on = _result(interop_results, "on", feature)
    assert len(off["items"]) == EXPECTED_ITEMS[feature]
    counts = compare_items(KINDS.get(feature, "html"), on["items"], off["items"], interop_base)
    COUNTS[feature] = counts
    assert counts["compared"] == EXPECTED_ITEMS[feature]


def test_every_response_keeps_the_class_scrapy_or_the_plugin_built(interop_results):
    """Across the whole suite, the responses the engine hands to callbacks are of the same classes
    with the add-on as without it (issue 29: the add-on changes state, never classes)."""
    compared = 0
    for feature, off in interop_results["off"].items():
        if "skipped" in off or "classes" not in off:
            continue  # (the feed exports: files, no crawl of their own)
        on = _result(interop_results, "on", feature)
        assert on["classes"] == off["classes"], feature
        assert not any(c.startswith("scrapy_whatwg_encoding") for c in on["classes"]), feature
        compared += bool(off["classes"])
    assert compared >= 15  # most features crawl (the feed exports do not)


def test_drop_in_cases_behave_as_with_scrapy_alone(interop_results):
    """Issue 29's cases, in both crawls (``test_items_identical_or_the_browsers_text`` compares them):
    the class in a middleware at 700 and in the callback, pickle, ``urljoin()``, ``follow()``,
    untyped JSON with ``jmespath()``, and a middleware at 700 returning a ``str`` body."""
    off_items = _result(interop_results, "off", "drop_in")["items"]
    alone = {(i["page"], i["key"]): i["cls"] for i in off_items}
    alone_json = next(i for i in off_items if i["page"] == "untyped.json")
    # Scrapy 2.19 reads it as JSON; older Scrapy makes an HTML selector of a TextResponse's text.
    assert (alone_json["selector"], alone_json["name"]) in (("json", "café"), ("html", None))
    assert alone["utf8.html", ""] == "scrapy.http.response.html.HtmlResponse"
    assert alone["untyped.json", ""].endswith(("TextResponse", "JsonResponse"))  # (Scrapy 2.19: JsonResponse)
    for mode in ("on", "off"):
        items = {(i["page"], i["key"]): i for i in _result(interop_results, mode, "drop_in")["items"]}
        for (page, key), item in items.items():
            expected = alone[page, key]  # the class Scrapy alone builds
            assert item["cls"] == item["middleware_class"] == expected, (mode, page)
            assert item["pickled"] == [expected, True, True], (mode, page)
        untyped = items["untyped.json", ""]
        assert (untyped["selector"], untyped["name"]) == (alone_json["selector"], alone_json["name"]), mode
        cp1251 = items["cp1251.html", ""]
        assert cp1251["q"] == "Ёж" and cp1251["joined"].endswith("/search.html?q=Ёж"), mode
        assert cp1251["follow"].endswith("/search.html?q=%A8%E6"), mode  # Python's cp1251, as Scrapy alone
        for page in ("utf8.html", "cp1251.html", "sjis.html"):
            assert items[page, "edit"]["title"].endswith(" [edited]"), (mode, page)


def test_follow_helper_is_the_browsers(interop_base):
    """``links.follow()`` builds the browser's request where Scrapy's ``follow()`` raises: the URL
    Standard's query state with the page's encoding (``&#N;`` for a character it lacks)."""
    from scrapy.http import HtmlResponse, Request

    from scrapy_whatwg_encoding import WhatwgEncodingMiddleware
    from scrapy_whatwg_encoding.scrapy.requests.links import follow

    page = PAGES["cp1251.html"]
    request = Request(interop_base + "cp1251.html")
    response = WhatwgEncodingMiddleware().process_response(request, HtmlResponse(
        request.url, body=page.body, headers={"Content-Type": page.content_type}, request=request))
    with pytest.raises(UnicodeEncodeError):
        response.follow("/search.html?q=日本")  # Scrapy's own, as without the add-on
    assert follow(response, "/search.html?q=日本").url == interop_base + "search.html?q=%26%2326085%3B%26%2326412%3B"
    assert follow(response, "/search.html?q=Ёж").url == response.follow("/search.html?q=Ёж").url


def test_pages_are_the_issues_cases():
    """The truth is the standard's decode with the encoding browsers decide; the add-on's sniffing
    agrees on every page but the unlabeled one (there the detector, as browsers do, guesses)."""
    for path, page in PAGES.items():
        content_type = page.content_type if page.content_type and "html" in page.content_type else None
        if path.endswith(".html") and path != "unlabeled.html":
            assert sniff(page.body, content_type=content_type).encoding is get_encoding(page.expected), path
    lying = page_fields(Selector(text=PAGES["lying-header.html"].dom()))
    assert lying["title"] == "Ã\x81ngel Ã\x8dsland"  # windows-1252 keeps C1 controls (cp1252: U+FFFD)
    assert page_fields(Selector(text=PAGES["unlabeled.html"].dom()))["title"] == "Главная страница"


def test_http_cache_second_run_is_served_from_the_cache(interop_results):
    """The second run is served from the cache and, with the add-on, gives the items of the live run.
    Scrapy alone loses a rendered page's decision in the cache (issue 21, item 5): the cache rebuilds
    scrapy-zyte-api's browserHtml response without its ``encoding="utf-8"``, and the site's header
    decodes the DOM's UTF-8 (``test_items_identical_or_the_browsers_text`` compares those items)."""
    def without_cached(items):  # (Scrapy < 2.13's cache rebuilds scrapy-zyte-api's class as HtmlResponse)
        return sorted(sorted((k, str(v)) for k, v in i.items() if k not in ("cached", "cls", "raw_api_response"))
                      for i in items)

    for feature in ("httpcache_fs", "httpcache_dbm", "zyte_api_httpcache"):
        for mode in ("on", "off"):
            result = _result(interop_results, mode, feature)
            first, second = result["runs"]
            assert "httpcache/retrieve_error" not in second["stats"], f"{feature}, add-on {mode}: the cache's " \
                "entries could not be read (Scrapy logs why at WARNING)"
            assert not any(i["cached"] for i in first["items"]) and all(i["cached"] for i in second["items"])
            assert second["stats"]["httpcache/hit"] == first["stats"]["httpcache/miss"] > 0, (feature, mode)
            assert "httpcache/miss" not in second["stats"], (feature, mode)
            if mode == "on" or feature != "zyte_api_httpcache":
                assert without_cached(first["items"]) == without_cached(second["items"]), (feature, mode)


def test_robots_txt_is_obeyed(interop_results):
    for mode in ("on", "off"):
        result = _result(interop_results, mode, "robotstxt")
        assert result["stats"]["robotstxt/forbidden"] == 1
        assert {i["page"] for i in result["items"]} == {"utf8.html", "cp1251.html", "unlabeled.html"}


def test_plugins_response_classes_and_attributes(interop_results):
    for mode in ("on", "off"):
        splash = interop_results[mode]["splash"]
        if "skipped" not in splash:
            classes = {i["key"]: i["cls"].rsplit(".", 1)[1] for i in _result(interop_results, mode, "splash")["items"]}
            assert classes == {"render.html": "SplashTextResponse", "render.json": "SplashJsonResponse",
                               "execute": "SplashJsonResponse"}, mode
            for item in splash["items"]:
                assert (item["png"] > 0) == (item["key"] == "render.json"), (mode, item)
                assert (item["table"] is not None) == (item["key"] == "execute"), (mode, item)
        zyte = _result(interop_results, mode, "zyte_api")
        assert {i["cls"].rsplit(".", 1)[1] for i in zyte["items"]} == {"ZyteAPITextResponse"}, mode
    # A plugin is skipped only where its environment explains it: the plugins that may be absent, and
    # scrapy-playwright where headless Chromium is not installed (then this test says so, as a skip).
    no_chromium = not (shutil.which("chromium") or shutil.which("chromium-browser"))
    missing = []
    for feature, result in interop_results["on"].items():
        if "skipped" in result and feature not in MAY_BE_ABSENT and feature != "splash":
            assert feature == "playwright" and no_chromium, result["skipped"]
            missing.append(f"{feature}: {result['skipped']}")
    if missing:
        pytest.skip("; ".join(missing))
