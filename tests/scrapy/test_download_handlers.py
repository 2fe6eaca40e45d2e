"""Responses whose download handler already decoded the page (issue 12, item 1): real crawls.

- scrapy-playwright driving Debian's ``chromium`` (a subprocess: it needs the asyncio reactor) on
  pages whose DOM does not fit the declared charset: the response keeps the browser's text
  (source ``"handler"``), where sniffing the re-encoded bytes would give mojibake;
- the trap: a middleware that ``replace()``\\ s a plain HTTP response bakes Scrapy's inferred
  encoding into ``encoding=``; the add-on still sniffs (where Scrapy's inference and the
  standard differ);
- a custom download handler (and Scrapy's own ``data:`` handler, and a middleware's
  ``process_request``) that passes ``encoding=``;
- nothing of the add-on's shows (issue 37, item 4): with the add-on on and off, a middleware at
  700 sees the same headers and ``downloader/response_bytes`` is the same, live, through
  scrapy-playwright and from Scrapy's HTTP cache.
"""
from __future__ import annotations

import gc
import json
import shutil
import subprocess
import sys
import weakref
from pathlib import Path

import pytest
import pytest_twisted
import scrapy
from scrapy.http import HtmlResponse, Request, TextResponse
from twisted.internet import defer
from w3lib.encoding import http_content_type_encoding
from whatwg_crawl_helpers import Server, SiteMap, check_decision, crawl, whatwg_stats

from scrapy_whatwg_encoding import ENCODINGS, decode, get_encoding, sniff, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.handler import handler_encoding, mark, take_handler_encoding
from scrapy_whatwg_encoding.scrapy.scrapy_default import changed, scrapy_text, whatwg_for_codec

HERE = Path(__file__).resolve().parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCRIPT = ('<script>document.getElementById("dom").textContent = "Caf\\u00e9 \\u041f\\u0440\\u0438\\u0432\\u0435\\u0442'
          ' \\u6771\\u4eac"; document.title += " \\u2014 \\u041c\\u043e\\u0441\\u043a\\u0432\\u0430";</script>')
# path → (Content-Type, body, the browser's title and #dom text, (Python codec name scrapy-playwright
# encodes the DOM with, its WHATWG encoding))
BROWSER_PAGES = {
    # Header iso-8859-1, script writes Cyrillic and CJK: the DOM no longer fits, so UTF-8.
    "latin1-header-script.html": (
        "text/html; charset=iso-8859-1",
        f'<!DOCTYPE html><html><head><title>Caf\xe9</title></head><body><p id="dom"></p>{SCRIPT}</body></html>'
        .encode("latin-1"),
        "Café — Москва", "Café Привет 東京", ("utf-8", "UTF-8")),
    # <meta> windows-1251, character references to CJK: the DOM no longer fits, so UTF-8.
    "cp1251-meta-references.html": (
        "text/html",
        '<!DOCTYPE html><html><head><meta charset="windows-1251"><title>Новости</title></head>'
        '<body><p id="dom">Привет, &#x6771;&#x4EAC;</p></body></html>'.encode("windows-1251"),
        "Новости", "Привет, 東京", ("utf-8", "UTF-8")),
    # The DOM fits: re-encoded in the <meta>'s and the header's charsets.
    "cp1251-meta-fits.html": (
        "text/html",
        '<!DOCTYPE html><html><head><meta charset="windows-1251"><title>Погода</title></head>'
        '<body><p id="dom">Ясно</p></body></html>'.encode("windows-1251"),
        "Погода", "Ясно", ("cp1251", "windows-1251")),
    "latin1-header-fits.html": (
        "text/html; charset=iso-8859-1",
        b'<!DOCTYPE html><html><head><title>R\xe9sum\xe9</title></head><body><p id="dom">na\xefve &euro;5</p></body></html>',
        "Résumé", "naïve €5", ("cp1252", "windows-1252")),
}


def _site(root: Path, pages: dict) -> SiteMap:
    for path, (content_type, body, *_) in pages.items():
        (root / path).write_bytes(body)
    (root / "pages.json").write_text(json.dumps({p: {"content_type": v[0]} for p, v in pages.items()}))
    return SiteMap.load(root)


# --- scrapy-playwright and Chromium ----------------------------------------------------------------

@pytest.fixture(scope="module")
def browser_crawl(tmp_path_factory):
    if CHROMIUM is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium)")
    root = tmp_path_factory.mktemp("browser-pages")
    _site(root, BROWSER_PAGES)
    out = root / "out.json"
    result = subprocess.run([sys.executable, str(HERE / "playwright_crawl.py"), str(root), CHROMIUM, str(out)],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0 and out.exists(), result.stderr[-4000:]
    assert "ERROR" not in result.stderr, result.stderr[-4000:]
    return json.loads(out.read_text("utf-8"))


def _by_page(crawl_result, via):
    return {r["url"].rsplit("/", 1)[1]: r for r in crawl_result["responses"] if r["via"] == via}


def test_playwright_pages_keep_the_browsers_text(browser_crawl):
    responses = _by_page(browser_crawl, "playwright")
    assert set(responses) == set(BROWSER_PAGES)
    for path, (_, _, title, dom, (label, name)) in BROWSER_PAGES.items():
        response = responses[path]
        assert "playwright" in response["flags"], path
        assert (response["title"], response["dom"]) == (title, dom), path  # the browser's DOM
        assert response["decision"] == {"encoding": name, "confidence": "certain", "source": "handler",
                                        "label": label, "offset": None}, path
        encoding = get_encoding(name)
        # The class scrapy-playwright built; ``encoding``: the handler's name, as with Scrapy alone.
        assert (response["class"], response["encoding"]) == ("HtmlResponse", label), path
        body = response["body"].encode("latin-1")
        # The text Scrapy alone gives with the handler's encoding, and the standard's decode.
        scrapy_alone = TextResponse(response["url"], body=body, encoding=label).text
        assert response["text"] == scrapy_alone == decode(body, encoding)[0], path
    stats = browser_crawl["stats"]
    assert stats["whatwg_encoding/source/handler"] == len(BROWSER_PAGES)
    assert stats["whatwg_encoding/responses"] == 2 * len(BROWSER_PAGES)


def test_sniffing_the_rendered_bytes_would_garble_them(browser_crawl):
    """Where the DOM did not fit, the re-encoded body still carries the old label: the sniffing
    algorithm (which the add-on applied before issue 12) reads it wrongly."""
    responses = _by_page(browser_crawl, "playwright")
    for path in ("latin1-header-script.html", "cp1251-meta-references.html"):
        content_type, _, title, *_ = BROWSER_PAGES[path]
        body = responses[path]["body"].encode("latin-1")
        sniffed = sniff(body, content_type=content_type)
        assert sniffed.source in ("transport", "prescan") and sniffed.encoding.name != "UTF-8", path
        assert title not in decode(body, sniffed.encoding)[0], path


def test_same_pages_over_http_are_sniffed(browser_crawl):
    """Requests without ``playwright`` meta go through Scrapy's HTTP handler: the page's own bytes,
    sniffed as usual (no script runs, character references resolved by the parser)."""
    responses = _by_page(browser_crawl, "http")
    assert set(responses) == set(BROWSER_PAGES)
    for path, (content_type, body, *_) in BROWSER_PAGES.items():
        response = responses[path]
        assert response["body"].encode("latin-1") == body
        assert response["decision"] == sniff(body, content_type=content_type, url=response["url"]).as_dict()
    assert responses["latin1-header-script.html"]["title"] == "Café"
    assert responses["cp1251-meta-references.html"]["dom"] == "Привет, 東京"


def test_playwright_pages_show_other_middlewares_what_scrapy_alone_shows(browser_crawl):
    """The same pages crawled at the same time without the add-on: a middleware at 700 sees the
    same headers on every response, browser's and HTTP's, and ``downloader/response_bytes`` is the
    same (issue 37, item 4: the handler's encoding travelled in a header before)."""
    alone = browser_crawl["alone"]
    assert alone["stats"] == {} and browser_crawl["stats"]
    seen = [{(r["url"], r["via"]): r["headers_at_700"] for r in crawl["responses"]} for crawl in (browser_crawl, alone)]
    assert seen[0] == seen[1] and len(seen[0]) == 2 * len(BROWSER_PAGES)
    assert browser_crawl["response_bytes"] == alone["response_bytes"]
    assert all(r["decision"] is None for r in alone["responses"])


# --- The trap: an encoding baked in by a middleware's replace() ------------------------------------

class ReplacingMiddleware:
    """A third-party-like downloader middleware (order 700, above the add-on's 580) that replaces
    every response, as ``Response.replace()`` does: ``encoding`` is copied through the property,
    so Scrapy's own inference becomes a constructor argument. What it baked in is kept in meta."""

    def process_response(self, request, response, spider=None):
        changes = {"url": response.url + "#replaced"} if request.meta.get("replace_url") else {}
        new = response.replace(flags=[*response.flags, "replaced"], **changes)
        if isinstance(new, TextResponse):
            request.meta["baked_encoding"] = new.encoding
        return new


# path → (Content-Type, body, the text the standard gives, what Scrapy infers and replace() bakes in)
TRAP_PAGES = {
    # The prescan turns a UTF-16 label into UTF-8; Scrapy decodes as UTF-16.
    "utf16-meta.html": ("text/html", '<meta charset="utf-16"><title>café</title>'.encode(), "café", "utf-16"),
    # windows-1252 maps 0x81 and 0x8D to C1 controls; Scrapy's cp1252 makes U+FFFD of them.
    "latin1-c1.html": ("text/html; charset=iso-8859-1", b"<title>\x81\x8d caf\xe9</title>", "\x81\x8d café", "cp1252"),
}


@pytest.fixture(scope="module")
def trap_server(tmp_path_factory):
    server = Server(_site(tmp_path_factory.mktemp("trap-pages"), TRAP_PAGES))
    yield server
    server.port.stopListening()


@pytest.mark.parametrize("replace_url", [False, True], ids=["replace-flags", "replace-url"])
@pytest_twisted.inlineCallbacks
def test_encoding_baked_in_by_replace_is_sniffed(trap_server, replace_url):
    requests = [(trap_server.url(path), {"replace_url": replace_url}) for path in TRAP_PAGES]
    crawler, responses = yield crawl(requests, settings={"DOWNLOADER_MIDDLEWARES": {ReplacingMiddleware: 700}})
    assert len(responses) == len(TRAP_PAGES)
    for response in responses:
        path = response.url.split("#")[0].rsplit("/", 1)[1]
        _, body, text, baked = TRAP_PAGES[path]
        assert "replaced" in response.flags and response.url.endswith("#replaced") == replace_url
        assert response.meta["baked_encoding"] == baked, path  # the replace() baked Scrapy's inference
        assert TextResponse(response.url, body=body, encoding=baked).css("title::text").get() != text
        check_decision(response)  # ... yet the add-on sniffed
        assert response.meta["whatwg_encoding"]["source"] != "handler"
        assert response.css("title::text").get() == text, path
    assert "whatwg_encoding/source/handler" not in whatwg_stats(crawler)


# --- A custom download handler, and Scrapy's data: handler ---------------------------------------

# path → (Content-Type, body, encoding= the handler passes)
RENDERED = {
    "utf8-under-latin1": ("text/html; charset=iso-8859-1", "<title>Привет 東京</title>".encode(), "utf-8"),
    "shift_jis": ("text/html", '<meta charset="utf-8"><title>日本語</title>'.encode("shift_jis"), "shift_jis"),
    "latin1-c1": ("text/html; charset=iso-8859-1", b"<title>\x81 caf\xe9</title>", "latin-1"),
    "unknown-codec": ("text/html; charset=koi8-r", "<title>Привет</title>".encode("koi8-r"), "bogus"),
}


class RenderingHandler:
    """A download handler for ``rendered://site/<path>`` that, like a browser-based one, builds
    an ``HtmlResponse`` with the given headers and an explicit ``encoding=``."""

    lazy = False

    @classmethod
    def from_crawler(cls, crawler):
        return cls()

    def _response(self, request):
        content_type, body, encoding = RENDERED[request.url.rsplit("/", 1)[1]]
        return HtmlResponse(request.url, headers={"Content-Type": content_type}, body=body, encoding=encoding,
                            request=request, flags=["rendered"])

    if scrapy.version_info >= (2, 14):
        async def download_request(self, request):
            return self._response(request)

        async def close(self):
            pass
    else:  # Deferred-based handlers (Scrapy < 2.14)
        def download_request(self, request, spider):
            return defer.succeed(self._response(request))


class CannedMiddleware:
    """Answers ``canned`` requests from ``process_request``, as a rendering service's middleware
    would, with an explicit ``encoding=``: the decision of the response's builder too."""

    def process_request(self, request, spider=None):
        if not request.meta.get("canned"):
            return None
        return HtmlResponse(request.url, headers={"Content-Type": "text/html; charset=iso-8859-1"},
                            body="<title>Ελληνικά</title>".encode(), encoding="utf-8", request=request)


@pytest.mark.parametrize("replaced", [False, True], ids=["as-built", "replaced-on-the-way"])
@pytest_twisted.inlineCallbacks
def test_custom_handler_encoding_is_kept(replaced):
    settings = {"DOWNLOAD_HANDLERS": {"rendered": RenderingHandler}, "DOWNLOADER_MIDDLEWARES": {CannedMiddleware: 650}}
    if replaced:  # a replace() that keeps body and encoding keeps the handler's decision
        settings["DOWNLOADER_MIDDLEWARES"][ReplacingMiddleware] = 700
    data_url = "data:text/html;charset=windows-1251,<title>%CF%F0%E8%E2%E5%F2</title>"
    canned = ("http://canned.invalid/", {"canned": True})
    crawler, responses = yield crawl([f"rendered://site/{path}" for path in RENDERED] + [data_url, canned],
                                     settings=settings)
    by_path = {r.url.rsplit("/", 1)[1]: r for r in responses if r.url.startswith("rendered:")}
    assert set(by_path) == set(RENDERED)

    utf8 = by_path["utf8-under-latin1"]
    assert utf8.meta["whatwg_encoding"] == {"encoding": "UTF-8", "confidence": "certain", "source": "handler",
                                            "label": "utf-8", "offset": None}
    assert type(utf8) is HtmlResponse and whatwg_encoding(utf8).name == "UTF-8" and utf8.encoding == "utf-8"
    assert utf8.css("title::text").get() == "Привет 東京"
    assert ("replaced" in utf8.flags) == replaced

    # A <meta> (or header) the handler's encoding contradicts does not matter: its text is kept.
    sjis = by_path["shift_jis"]
    assert (sjis.meta["whatwg_encoding"]["source"], whatwg_encoding(sjis).name) == ("handler", "Shift_JIS")
    assert sjis.css("title::text").get() == "日本語"

    # latin-1 (Scrapy decodes it as cp1252: U+FFFD for 0x81) gives another text than windows-1252:
    # the response stays exactly as the handler made it, counted as a skip.
    latin1 = by_path["latin1-c1"]
    assert type(latin1) is HtmlResponse and whatwg_encoding(latin1) is None
    assert "whatwg_encoding" not in latin1.meta and latin1.encoding == "latin-1"
    assert latin1.text == TextResponse(latin1.url, body=RENDERED["latin1-c1"][1], encoding="latin-1").text
    assert "\ufffd caf\xe9" in latin1.text

    # A name Python does not know is no decision (Scrapy ignores it too): sniffed.
    unknown = by_path["unknown-codec"]
    check_decision(unknown)
    assert (unknown.meta["whatwg_encoding"]["source"], unknown.css("title::text").get()) == ("transport", "Привет")

    # Scrapy's own data: handler passes the URL's charset parameter.
    data = next(r for r in responses if r.url.startswith("data:"))
    assert data.meta["whatwg_encoding"] == {"encoding": "windows-1251", "confidence": "certain",
                                            "source": "handler", "label": "windows-1251", "offset": None}
    assert data.css("title::text").get() == "Привет"

    # A response a middleware's process_request built with encoding=.
    canned = next(r for r in responses if r.url.startswith("http://canned"))
    assert (canned.meta["whatwg_encoding"]["source"], whatwg_encoding(canned).name) == ("handler", "UTF-8")
    assert canned.css("title::text").get() == "Ελληνικά"

    stats = whatwg_stats(crawler)
    assert stats["whatwg_encoding/source/handler"] == 4
    assert stats["whatwg_encoding/skipped/handler_encoding"] == 1
    assert stats["whatwg_encoding/responses"] == 5


@pytest.mark.parametrize("encoding", ENCODINGS.values(), ids=lambda encoding: encoding.name)
def test_codec_names_map_back(encoding):
    """The Python codec name Scrapy (w3lib) makes of each encoding's label, and the encoding's own
    codec name, map back to it (GBK and gb18030 share a decoder); Scrapy's decoding with that name
    counts as the same family (not ``changed_from_scrapy_default``)."""
    assert whatwg_for_codec(encoding.codec_name) is encoding
    python_name = http_content_type_encoding(f"text/html; charset={encoding.name}")
    if python_name is None:  # w3lib knows no such codec (ISO-8859-8-I, x-mac-cyrillic, ...)
        return
    found = whatwg_for_codec(python_name)
    assert found is encoding or {found.name, encoding.name} == {"GBK", "gb18030"}, python_name
    # "Differs from Scrapy alone" is exact (issue 19): Python's codec of the same family may still
    # decode some bytes otherwise (koi8_u and the standard's KOI8-U on A4, A6, A7, AD, AE...).
    body = bytes(range(0xA0, 0xB0))
    assert changed(python_name, encoding, body) == (scrapy_text(python_name, body) != decode(body, encoding)[0])


# --- Nothing of the add-on's own reaches other middlewares or stats (issue 37, item 4) -------------

class HeadersAt700:
    """A downloader middleware at order 700 (between the add-on's two) that keeps the headers each
    response shows it in ``meta["headers_at_700"]`` (name → values, the ``Date`` value blanked:
    it is the second the server answered)."""

    def process_response(self, request, response, spider=None):
        request.meta["headers_at_700"] = {
            name.decode("latin-1"): [b"<date>" if name == b"Date" else v for v in values]
            for name, values in response.headers.items()}
        return response


INVISIBLE_SETTINGS = {"DOWNLOAD_HANDLERS": {"rendered": RenderingHandler},
                      "DOWNLOADER_MIDDLEWARES": {CannedMiddleware: 650, HeadersAt700: 700}}


def _seen_at_700(crawler, responses) -> tuple[int, dict]:
    return (crawler.stats.get_value("downloader/response_bytes"),
            {r.url: r.meta["headers_at_700"] for r in responses})


@pytest_twisted.inlineCallbacks
def test_other_middlewares_and_stats_see_what_scrapy_alone_shows(trap_server):
    """A ``data:`` URI with a charset, a custom handler's and a ``process_request``'s responses
    with ``encoding=``, and ordinary HTTP pages: with the add-on on and off, a middleware at 700
    sees the same headers, and Scrapy's ``downloader/response_bytes`` is the same."""
    data_url = "data:text/html;charset=windows-1251,<title>%CF%F0%E8%E2%E5%F2</title>"
    requests = ([data_url, ("http://canned.invalid/", {"canned": True})]
                + [f"rendered://site/{path}" for path in RENDERED] + [trap_server.url(path) for path in TRAP_PAGES])
    seen = {}
    for addon in (True, False):
        settings = INVISIBLE_SETTINGS if addon else {**INVISIBLE_SETTINGS, "ADDONS": {}}
        crawler, responses = yield crawl(requests, settings=settings)
        assert len(responses) == len(requests)
        assert bool(whatwg_stats(crawler)) == addon
        seen[addon] = _seen_at_700(crawler, responses)
    assert seen[True] == seen[False]
    data_bytes, _ = seen[True]
    assert data_bytes > 0


@pytest.mark.parametrize("storage", ["filesystem", "dbm"])
@pytest_twisted.inlineCallbacks
def test_cached_replays_show_what_scrapy_alone_shows(storage, tmp_path):
    """The same through Scrapy's HTTP cache: the first crawl stores, the second replays; with the
    add-on on and off (each its own cache), the replays show a middleware at 700 the same headers
    and count the same ``downloader/response_bytes``, and the add-on's replays keep the handler's
    decisions."""
    storages = {"filesystem": "scrapy.extensions.httpcache.FilesystemCacheStorage",
                "dbm": "scrapy.extensions.httpcache.DbmCacheStorage"}
    requests = [f"rendered://site/{path}" for path in RENDERED]
    seen = {}
    for addon in (True, False):
        settings = {**INVISIBLE_SETTINGS, "HTTPCACHE_ENABLED": True, "HTTPCACHE_STORAGE": storages[storage],
                    "HTTPCACHE_DIR": str(tmp_path / f"cache-{addon}")}
        if not addon:
            settings["ADDONS"] = {}
        _, live = yield crawl(requests, settings=settings)
        crawler, cached = yield crawl(requests, settings=settings)
        assert all("cached" in r.flags for r in cached) and not any("cached" in r.flags for r in live)
        seen[addon] = _seen_at_700(crawler, cached)
        if addon:
            for a, b in zip(live, cached):
                assert a.meta.get("whatwg_encoding") == b.meta.get("whatwg_encoding"), a.url
            assert whatwg_stats(crawler)["whatwg_encoding/source/handler"] == 2
    assert seen[True] == seen[False]


def test_records_tell_copies_and_keep_nothing_alive():
    """A record of the handler's encoding holds for the response and a ``replace()`` copy of it
    (which copies ``encoding=``), not for a copy with another encoding chosen, nor for another
    request; it keeps neither the request nor the response alive, and the encoding middleware
    takes it once."""
    url = "http://example.com/"
    request, response = Request(url), HtmlResponse(url, body="é".encode(), encoding="utf-8")
    mark(request, response, "utf-8")
    copy = response.replace(url=url + "#copy")
    assert handler_encoding(request, response) == handler_encoding(request, copy) == "utf-8"
    assert handler_encoding(request, response.replace(encoding="cp1251")) is None
    assert handler_encoding(Request(url), response) is None
    refs = weakref.ref(request), weakref.ref(response)
    assert take_handler_encoding(request, copy) == "utf-8" and take_handler_encoding(request, copy) is None
    mark(request, response, "utf-8")
    del request, response, copy
    gc.collect()
    assert refs[0]() is None and refs[1]() is None
