"""Never worse than Scrapy alone (issue 21, items 1-5): ``response.encoding`` is a name every
consumer reads, plugins' classes stay theirs, a deliberate encoding is the user override,
compressed bodies are never sniffed, and a download handler's encoding survives the HTTP cache.
Real crawls on 127.0.0.1, each compared with the same crawl without the add-on where it matters."""
from __future__ import annotations

import codecs
import copy
import gzip
import json
import pickle
import subprocess
import sys

import pytest
import pytest_twisted
import test_download_handlers as download_handlers
from scrapy import Spider
from scrapy.extensions.httpcache import DbmCacheStorage, FilesystemCacheStorage
from scrapy.http import HtmlResponse, Request, Response, TextResponse, XmlResponse
from scrapy.utils.test import get_crawler
from twisted.web import resource, server
from whatwg_crawl_helpers import REPO, Server, SiteMap, crawl, whatwg_stats

from scrapy_whatwg_encoding import ENCODINGS, WhatwgEncodingMiddleware, decode, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.handler import CACHE_HEADER, HandlerEncodingCacheStorage, handler_encoding, mark
from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name

WITHOUT_ADDON = {"ADDONS": {}}
# A label of each encoding for its Content-Type (replacement: a label of its own; the rest: the name).
LABEL = {name: ("iso-2022-kr" if name == "replacement" else name) for name in ENCODINGS}


def _decided(name: str, body: bytes = b"<p>\xe9\x81 x</p>") -> TextResponse:
    url = "http://example.com/page"
    request = Request(url)
    response = HtmlResponse(url, body=body, headers={"Content-Type": f"text/html; charset={LABEL[name]}"},
                            request=request)
    out = WhatwgEncodingMiddleware().process_response(request, response)
    assert request.meta["whatwg_encoding"]["encoding"] == name
    return out


def test_encoding_is_a_name_every_consumer_reads():
    """For every encoding: ``response.encoding`` is the name Scrapy alone reports for it, which a
    Python process that never imported the package resolves and lxml accepts; the exact decision
    is ``whatwg_encoding(response)``."""
    names = {}
    for name, encoding in ENCODINGS.items():
        response = _decided(name)
        assert whatwg_encoding(response) is encoding and response.text == decode(response.body, encoding)[0]
        alone = HtmlResponse(response.url, body=response.body, headers=response.headers).encoding
        expected = scrapy_codec_name(encoding)
        if expected is not None:
            assert response.encoding == expected, name
        if name not in ("ISO-8859-8-I", "x-mac-cyrillic"):  # labels w3lib does not know
            assert codecs.lookup(response.encoding).name == codecs.lookup(alone).name, name  # (lxml's spelling)
        names[name] = response.encoding
    script = (
        "import codecs, json, sys, lxml.etree, lxml.html\n"
        "names = json.loads(sys.argv[1])\n"
        "for name in names.values():\n"
        "    codecs.lookup(name); lxml.etree.XMLParser(encoding=name); lxml.html.HTMLParser(encoding=name)\n"
        "assert not any(m.startswith('scrapy_whatwg_encoding') for m in sys.modules)\n"
        "print(len(names))\n"
    )
    out = subprocess.run([sys.executable, "-c", script, json.dumps(names)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "40"


@pytest.mark.parametrize("name", ["windows-1252", "x-user-defined", "Shift_JIS", "ISO-8859-8-I", "UTF-8"])
def test_copies_are_scrapy_copies_and_pickle_keeps_the_text(name):
    """A decided response is of Scrapy's class: ``replace()`` and ``copy()`` are Scrapy's own (same
    class, ``encoding`` copied, the text Scrapy's decoding with Python's codec for that name, see
    docs/responses.rst); pickle and ``copy.deepcopy`` keep its state, the exact text included."""
    response = _decided(name)
    text, name_alone = response.text, response.encoding
    assert type(response) is HtmlResponse
    for copied in (response.replace(url=response.url + "?2"), response.replace(flags=["x"]), response.copy(),
                   response.replace(body=b"<p>ok</p>")):
        assert type(copied) is HtmlResponse and copied.encoding == name_alone
        assert copied.text == HtmlResponse(copied.url, body=copied.body, encoding=name_alone).text
    assert type(response.replace(cls=XmlResponse)) is XmlResponse
    for clone in (pickle.loads(pickle.dumps(response)), copy.deepcopy(response)):
        assert type(clone) is HtmlResponse and clone.text == text and clone.encoding == name_alone
        assert clone.meta["whatwg_encoding"] == response.meta["whatwg_encoding"]


# --- Plugins' classes -------------------------------------------------------------------------------

class PluginHtmlResponse(HtmlResponse):
    """A plugin's text class (as scrapy-splash's SplashHtmlResponse) with an attribute of its own."""

    def __init__(self, *args, **kwargs):
        self.plugin_data = kwargs.pop("plugin_data", None)
        super().__init__(*args, **kwargs)


class PluginJsonResponse(Response):
    """A plugin's binary class (as scrapy-splash's SplashJsonResponse) over the site's HTML headers."""

    def __init__(self, *args, **kwargs):
        self.data = kwargs.pop("data", None)
        super().__init__(*args, **kwargs)


class PluginMiddleware:
    """Makes each response a plugin's class, as a rendering plugin's middleware (order 725) does."""

    def process_response(self, request, response, spider=None):
        if request.meta.get("plugin") == "text":
            return response.replace(cls=PluginHtmlResponse, plugin_data={"png": "iVBOR"})
        if request.meta.get("plugin") == "json":
            return PluginJsonResponse(response.url, headers=response.headers, body=response.body,
                                      request=request, data={"png": "iVBOR", "html": "x"})
        return response


PAGES = {
    # A lying header: the bytes are windows-1251 (Scrapy's recipe corrects this on purpose below).
    "lying.html": ("text/html; charset=utf-8", "<title>Привет, мир</title>".encode("cp1251")),
    "sjis.html": ("text/html", '<meta charset="shift_jis"><title>日本語</title>'.encode("shift_jis")),
    "c1.html": ("text/html; charset=windows-1252", b"<title>\x81 caf\xe9</title>"),
}


def _site(root, pages) -> SiteMap:
    for path, (content_type, body) in pages.items():
        (root / path).write_bytes(body)
    (root / "pages.json").write_text(json.dumps({p: {"content_type": v[0]} for p, v in pages.items()}))
    return SiteMap.load(root)


@pytest.fixture(scope="module")
def pages_server(tmp_path_factory):
    site = Server(_site(tmp_path_factory.mktemp("drop-in"), PAGES))
    yield site
    site.port.stopListening()


@pytest_twisted.inlineCallbacks
def test_plugin_classes_are_kept(pages_server):
    """A plugin's text class keeps its class and attributes and gets the standard's text; a
    plugin's binary class is left alone (its data stays) and counted."""
    settings = {"DOWNLOADER_MIDDLEWARES": {PluginMiddleware: 725}}
    requests = [(pages_server.url("sjis.html"), {"plugin": "text"}), (pages_server.url("c1.html"), {"plugin": "json"})]
    crawler, (c1, sjis) = yield crawl(requests, settings=settings)
    assert type(sjis) is PluginHtmlResponse and sjis.plugin_data == {"png": "iVBOR"}
    assert sjis.meta["whatwg_encoding"]["source"] == "prescan" and whatwg_encoding(sjis) is ENCODINGS["Shift_JIS"]
    assert sjis.text == decode(sjis.body, ENCODINGS["Shift_JIS"])[0] and sjis.encoding == "cp932"
    assert sjis.css("title::text").get() == "日本語"
    assert type(c1) is PluginJsonResponse and c1.data["png"] == "iVBOR" and "whatwg_encoding" not in c1.meta
    assert whatwg_stats(crawler)["whatwg_encoding/skipped/binary_response_class"] == 1
    _, (c1_alone, _) = yield crawl(requests, settings={**settings, **WITHOUT_ADDON})
    assert (type(c1_alone), c1_alone.body, c1_alone.data) == (type(c1), c1.body, c1.data)


# --- A deliberate encoding ----------------------------------------------------------------------------

class RecipeMiddleware:
    """Scrapy's documented recipe for a lying header: a downloader middleware that forces the encoding
    (order 700: above the add-on's 580, so the add-on sees its response)."""

    def process_response(self, request, response, spider=None):
        forced = request.meta.get("force")
        return response.replace(encoding=forced) if forced else response


@pytest_twisted.inlineCallbacks
def test_a_deliberate_encoding_is_the_user_override(pages_server):
    """``replace(encoding=...)`` on purpose is the user override (step 2, recorded as such) and gives
    the text Scrapy alone gives with it; a name no encoding fits, or a label of the replacement
    encoding, leaves the response as Scrapy made it (counted)."""
    settings = {"DOWNLOADER_MIDDLEWARES": {RecipeMiddleware: 700}}
    requests = [(pages_server.url("lying.html"), {"force": "cp1251"}),
                (pages_server.url("sjis.html"), {"force": "cp437"}),
                (pages_server.url("c1.html"), {"force": "iso-2022-kr"})]
    crawler, (c1, lying, sjis) = yield crawl(requests, settings=settings)
    _, (c1_alone, lying_alone, sjis_alone) = yield crawl(requests, settings={**settings, **WITHOUT_ADDON})
    assert lying.meta["whatwg_encoding"] == {"encoding": "windows-1251", "confidence": "certain",
                                             "source": "override", "label": "cp1251", "offset": None}
    assert lying.css("title::text").get() == lying_alone.css("title::text").get() == "Привет, мир"
    assert lying.encoding == lying_alone.encoding == "cp1251"
    for mine, alone in ((sjis, sjis_alone), (c1, c1_alone)):
        assert "whatwg_encoding" not in mine.meta and whatwg_encoding(mine) is None
        assert (mine.encoding, mine.text) == (alone.encoding, alone.text)
    stats = whatwg_stats(crawler)
    assert stats["whatwg_encoding/source/override"] == 1 and stats["whatwg_encoding/skipped/chosen_encoding"] == 2


# --- Compressed bodies ----------------------------------------------------------------------------

class _Pages(resource.Resource):
    """:data:`PAGES` gzip-encoded (``Content-Encoding: gzip``), as many servers send them, or with
    extra response headers."""

    isLeaf = True

    def __init__(self, compress: bool = False, headers: dict | None = None):
        super().__init__()
        self.compress, self.headers = compress, headers or {}

    def render_GET(self, request):
        content_type, body = PAGES[request.path.decode().lstrip("/")]
        for name, value in {"Content-Type": content_type, **self.headers}.items():
            request.setHeader(name.encode(), value.encode())
        if self.compress:
            request.setHeader(b"Content-Encoding", b"gzip")
            return gzip.compress(body)
        return body


def _listen(site_resource) -> tuple:
    from twisted.internet import reactor

    port = reactor.listenTCP(0, server.Site(site_resource), interface="127.0.0.1")
    return port, f"http://127.0.0.1:{port.getHost().port}/"


@pytest.fixture(scope="module")
def gzip_server():
    port, base = _listen(_Pages(compress=True))
    yield base
    port.stopListening()


@pytest_twisted.inlineCallbacks
def test_compressed_bodies_are_never_sniffed(gzip_server, caplog):
    """Below HttpCompressionMiddleware (the default) the add-on sees decompressed bodies; a project
    that put it above gets one start-up WARNING naming both orders, and the compressed bodies are
    left as Scrapy made them, counted."""
    urls = [gzip_server + path for path in PAGES]
    crawler, decided = yield crawl(urls)
    assert [r.meta["whatwg_encoding"]["source"] for r in decided] == ["transport", "transport", "prescan"]
    caplog.clear()
    settings = {"DOWNLOADER_MIDDLEWARES": {WhatwgEncodingMiddleware: 700}}
    crawler, above = yield crawl(urls, settings=settings)
    warnings = [r.getMessage() for r in caplog.records if "HttpCompressionMiddleware" in r.getMessage()]
    assert len(warnings) == 1 and "order 700" in warnings[0] and "(590)" in warnings[0]
    assert whatwg_stats(crawler)["whatwg_encoding/skipped/compressed"] == 3
    _, alone = yield crawl(urls, settings={**settings, **WITHOUT_ADDON})
    for mine, scrapys in zip(above, alone):
        assert "whatwg_encoding" not in mine.meta and (mine.encoding, mine.text) == (scrapys.encoding, scrapys.text)


# --- A download handler's encoding through Scrapy's HTTP cache ------------------------------------------

RENDERED = {  # path → (Content-Type, body, the encoding the handler passes)
    "utf8-under-latin1": ("text/html; charset=iso-8859-1", "<title>Привет 東京</title>".encode(), "utf-8"),
    "sjis": ("text/html", '<meta charset="utf-8"><title>日本語</title>'.encode("shift_jis"), "shift_jis"),
    "plain": ("text/html; charset=koi8-r", "<title>Привет</title>".encode("koi8-r"), None),
    # A plugin's class from its handler, as scrapy-zyte-api's browserHtml responses.
    "plugin-utf8": ("text/html; charset=windows-1251", "<title>Привет 東京</title>".encode(), "utf-8"),
}


class RenderingHandler(download_handlers.RenderingHandler):
    """test_download_handlers' handler for ``rendered://site/<path>``, serving :data:`RENDERED`
    (a plugin's class for ``plugin-*`` paths)."""

    def _response(self, request):
        path = request.url.rsplit("/", 1)[1]
        content_type, body, encoding = RENDERED[path]
        cls = PluginHtmlResponse if path.startswith("plugin") else HtmlResponse
        return cls(request.url, headers={"Content-Type": content_type}, body=body, encoding=encoding, request=request)


@pytest.mark.parametrize("storage", ["filesystem", "dbm"])
@pytest_twisted.inlineCallbacks
def test_handler_decisions_survive_the_http_cache(storage, tmp_path):
    """A rendered page served from Scrapy's HTTP cache gets the same decision and text as live."""
    storages = {"filesystem": "scrapy.extensions.httpcache.FilesystemCacheStorage",
                "dbm": "scrapy.extensions.httpcache.DbmCacheStorage"}
    settings = {"DOWNLOAD_HANDLERS": {"rendered": RenderingHandler}, "HTTPCACHE_ENABLED": True,
                "HTTPCACHE_DIR": str(tmp_path / "cache"), "HTTPCACHE_STORAGE": storages[storage]}
    urls = [f"rendered://site/{path}" for path in RENDERED]
    _, live = yield crawl(urls, settings=settings)
    crawler, cached = yield crawl(urls, settings=settings)
    assert all("cached" in r.flags for r in cached) and not any("cached" in r.flags for r in live)
    for a, b in zip(live, cached):
        assert a.meta["whatwg_encoding"] == b.meta["whatwg_encoding"] and a.text == b.text, a.url
        assert b"X-Whatwg-Encoding-Handler" not in a.headers and b"X-Whatwg-Encoding-Handler" not in b.headers
        assert a.encoding == b.encoding, a.url
    by_path = {r.url.rsplit("/", 1)[1]: r for r in cached}
    assert by_path["utf8-under-latin1"].css("title::text").get() == "Привет 東京"
    assert by_path["sjis"].meta["whatwg_encoding"]["source"] == "handler"
    assert by_path["plain"].meta["whatwg_encoding"]["source"] == "transport"
    assert by_path["plugin-utf8"].css("title::text").get() == "Привет 東京"
    assert by_path["plugin-utf8"].meta["whatwg_encoding"]["source"] == "handler"
    assert whatwg_stats(crawler)["whatwg_encoding/source/handler"] == 3


# The encoding middleware listed by hand, without HandlerEncodingMiddleware: no handler encoding is
# recorded, and a site's header is not read either.
WITHOUT_HANDLER = {"ADDONS": {}, "DOWNLOADER_MIDDLEWARES": {WhatwgEncodingMiddleware: 580}}


@pytest.mark.parametrize("settings", [None, WITHOUT_HANDLER, "http-cache"], ids=["add-on", "middleware alone", "cache"])
@pytest_twisted.inlineCallbacks
def test_the_cache_header_from_a_site_is_not_trusted(settings, tmp_path):
    """The header sent by a site gives no encoding and reaches the spider as Scrapy alone shows it;
    through Scrapy's HTTP cache (stored, then replayed) the stored copy leaves it out, so that a
    replay cannot pass it for the add-on's own."""
    cache = settings == "http-cache"
    if cache:
        settings = {"HTTPCACHE_ENABLED": True, "HTTPCACHE_DIR": str(tmp_path / "cache")}
    port, base = _listen(_Pages(headers={"X-Whatwg-Encoding-Handler": "utf-8"}))
    try:
        _, (response,) = yield crawl([base + "lying.html"], settings=settings)
        if cache:
            _, (replay,) = yield crawl([base + "lying.html"], settings=settings)
    finally:
        port.stopListening()
    assert response.meta["whatwg_encoding"]["source"] == "transport"  # the site's (lying) header
    assert response.headers.getlist("X-Whatwg-Encoding-Handler") == [b"utf-8"]  # as Scrapy alone shows it
    if cache:
        assert "cached" in replay.flags and replay.meta["whatwg_encoding"]["source"] == "transport"
        assert b"X-Whatwg-Encoding-Handler" not in replay.headers


class CountingHtmlResponse(HtmlResponse):
    """An ``HtmlResponse`` that counts the reads of its ``encoding`` (Scrapy infers one there for a
    response built without ``encoding=``)."""

    def __init__(self, *args, **kwargs):
        self.encoding_reads = 0
        super().__init__(*args, **kwargs)

    @property
    def encoding(self) -> str:
        self.encoding_reads += 1
        return super().encoding


# path → (Content-Type, body, the handler's encoding, a site's own cache header)
STORED = {
    "handler": ("text/html; charset=iso-8859-1", "<title>Привет 東京</title>".encode(), "utf-8", None),
    "handler-over-site": ("text/html", "<title>日本語</title>".encode("shift_jis"), "shift_jis", "utf-8"),
    "site-inferred": ("text/html", "<title>Привет</title>".encode("cp1251"), None, "utf-8"),
    "site-declared": ("text/html; charset=koi8-r", "<title>Привет</title>".encode("koi8-r"), None, "utf-8"),
}


@pytest.mark.parametrize("path", list(STORED))
@pytest.mark.parametrize("storage", ["filesystem", "dbm"])
def test_the_stored_copy_is_made_without_scrapys_inference(storage, path, tmp_path):
    """``HandlerEncodingCacheStorage.store_response`` with Scrapy's own cache storage: what is
    stored is the response's URL, status and body, its headers with ours in place of a site's, and
    the encoding Scrapy gives the response; the handler's encoding comes back from the cache. The
    response itself is never asked its ``encoding`` (``replace()`` read it, running Scrapy's
    inference where none was given)."""
    crawler = get_crawler(Spider, {"HTTPCACHE_DIR": str(tmp_path / "cache")})
    spider = Spider.from_crawler(crawler, name="stored")
    inner = (FilesystemCacheStorage if storage == "filesystem" else DbmCacheStorage)(crawler.settings)
    inner.open_spider(spider)
    wrapped = HandlerEncodingCacheStorage(inner)
    content_type, body, given, site = STORED[path]
    headers = {"Content-Type": content_type, **({CACHE_HEADER.decode(): site} if site else {})}
    request = Request(f"http://stored.test/{path}")
    response = CountingHtmlResponse(request.url, status=203, headers=headers, body=body, encoding=given,
                                    request=request)
    if given is not None:
        mark(request, response, given)
    built = response.encoding_reads  # Scrapy < 2.13 reads it while building the response (its URL)
    wrapped.store_response(spider, request, response)
    assert response.encoding_reads == built
    assert response.headers.getlist(CACHE_HEADER) == ([site.encode()] if site else [])  # unchanged

    stored = inner.retrieve_response(spider, request)  # as the storage keeps it
    assert (stored.url, stored.status, stored.body) == (response.url, 203, body)
    assert stored.headers.getlist(CACHE_HEADER) == ([given.encode()] if given else [])
    assert stored.headers.getlist("Content-Type") == [content_type.encode()]
    # Scrapy 2.19+'s storages keep a response's encoding; older ones keep none (Scrapy infers it)
    probe = Request("http://stored.test/probe")
    inner.store_response(spider, probe, HtmlResponse(probe.url, body=b"<p>x</p>", encoding="koi8-r", request=probe))
    keeps = inner.retrieve_response(spider, probe).encoding == "koi8-r"
    inferred = HtmlResponse(stored.url, headers=stored.headers, body=stored.body).encoding
    assert stored.encoding == (response.encoding if keeps else inferred)
    replayed = wrapped.retrieve_response(spider, request)
    assert CACHE_HEADER not in replayed.headers
    assert handler_encoding(request, replayed) == given
    inner.close_spider(spider)


def test_docs_give_the_table_of_encoding_names():
    """docs/responses.rst carries the table ``tools/codec_name_table.py`` computes: each encoding's
    ``response.encoding`` and how Python's codec decodes compared with the standard's decoder."""
    sys.path.insert(0, str(REPO / "tools"))
    from codec_name_table import table

    assert table() in (REPO / "docs" / "responses.rst").read_text("utf-8")
