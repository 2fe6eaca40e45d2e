"""Issue 12, item 2 and issue 21, item 1: requests built from a decided response survive
``Request.to_dict()`` and pickling into a process that never imported the package (JOBDIR disk
queues, scrapy-redis): there ``request_from_dict`` must rebuild them with the same URL, method and
body.

Each request-building path runs on real decided responses (the middleware's ``process_response``)
in several encodings; the dicts are pickled and rebuilt by a fresh ``python`` that imports Scrapy
only. A decided response's ``encoding`` is the Python codec name Scrapy alone reports, so Scrapy's
own paths (``FormRequest.from_response``, ``Request(url, encoding=response.encoding)``) build what
Scrapy alone builds from the same page (or fail as it fails) and survive without the spider
middleware; the package's drop-ins keep the browser's bytes. A request that carries one of the
package's ``whatwg-…`` codec names is lost elsewhere until the add-on's spider middleware has
seen it.
"""
from __future__ import annotations

import codecs
import inspect
import json
import pickle
import subprocess
import sys
import warnings
from urllib.parse import quote_plus

import pytest
import pytest_twisted
import scrapy
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware as ScrapyMetaRefreshMiddleware
from scrapy.http import FormRequest, HtmlResponse, TextResponse
from scrapy.linkextractors import LinkExtractor as ScrapyLinkExtractor
from scrapy.utils.test import get_crawler
from twisted.internet import reactor
from twisted.web import resource, server
from whatwg_crawl_helpers import CollectSpider, crawl

from scrapy_whatwg_encoding import Encoding, WhatwgEncodingMiddleware, get_encoding, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.requests.forms import form_request
from scrapy_whatwg_encoding.scrapy.requests.links import (
    LinkExtractor,
    MetaRefreshMiddleware,
    follow,
    follow_all,
    urljoin,
)
from scrapy_whatwg_encoding.scrapy.requests.portable import PORTABLE_ENCODING, PortableRequestsMiddleware
from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name

#: Rebuilds pickled request dicts without this package: prints url, method, body (latin-1),
#: encoding and class of each, or the error; and whether a whatwg-* codec is registered.
REBUILD = """
import codecs, json, pickle, sys
from scrapy.utils.request import request_from_dict
out = []
for d in pickle.load(sys.stdin.buffer):
    try:
        r = request_from_dict(d)
        out.append([r.url, r.method, r.body.decode("latin-1"), r.encoding, type(r).__name__])
    except Exception as e:
        out.append([type(e).__name__, str(e)])
try:
    codecs.lookup("whatwg-windows-1251")
    registered = True
except LookupError:
    registered = False
print(json.dumps({"requests": out, "registered": registered,
                  "imported": [m for m in sys.modules if m.startswith("scrapy_whatwg_encoding")]}))
"""


def rebuild_elsewhere(requests: list, tmp_path) -> list:
    """*requests* through ``to_dict()``, pickle and ``request_from_dict`` in a new process."""
    data = pickle.dumps([r.to_dict() for r in requests], protocol=4)
    result = subprocess.run([sys.executable, "-c", REBUILD], input=data, capture_output=True,
                            cwd=tmp_path, timeout=120, check=True)
    answer = json.loads(result.stdout)
    assert answer["registered"] is False and answer["imported"] == []
    return answer["requests"]


# label (Content-Type charset, or "BOM" for a UTF-16LE BOM) -> text for queries and forms.
CASES = {
    "windows-1251": "Москва ☃",  # ☃ is not in windows-1251: &#9731;
    "Shift_JIS": "東京 ¥",
    "EUC-KR": "서울 똠",  # 똠 is outside KS X 1001's 2350 syllables: EUC-KR's UHC extension
    "ISO-2022-JP": "東京 ｱ",  # a half-width katakana: the encoder maps it to full width
    "gb18030": "北京 €\U00020000",
    "x-user-defined": "\uf7c0\uf7ff é",  # x-user-defined's encoder: U+F780-U+F7FF are bytes 80-FF
    "BOM": "Zürich ☃",  # UTF-16LE: the output encoding is UTF-8
}


def page(label: str, text: str) -> tuple[bytes, dict]:
    html = (f'<!DOCTYPE html><title>t</title><a href="/a?q={text}">one</a><a href="/b?q={text}&amp;r=2">two</a>'
            f'<form id=get action="/search"><input name=q value="{text}"></form>'
            f'<form id=post method=post action="/post"><input name=q value="{text}"></form>')
    if label == "BOM":
        return b"\xff\xfe" + html.encode("utf-16le"), {"Content-Type": "text/html"}
    return get_encoding(label).encode(html), {"Content-Type": f"text/html; charset={label}"}


def decided(body: bytes, headers: dict, url: str = "http://example.com/dir/page.html") -> TextResponse:
    request = scrapy.Request(url)
    response = WhatwgEncodingMiddleware().process_response(
        request, HtmlResponse(url, body=body, headers=headers, request=request))
    assert isinstance(whatwg_encoding(response), Encoding)
    # The name Scrapy alone reports (test_replacement_encoding: the same spelling, too).
    assert codecs.lookup(response.encoding).name == codecs.lookup(scrapy_alone(response).encoding).name
    return response


def scrapy_alone(response: TextResponse) -> HtmlResponse:
    """The same page as Scrapy alone reads it: a plain ``HtmlResponse`` with the Python codec
    name of the decided encoding (none for encodings without one: Scrapy's own inference)."""
    return HtmlResponse(response.url, body=response.body, headers=response.headers,
                        encoding=scrapy_codec_name(whatwg_encoding(response)))


def build_with(build, response) -> list | Exception:
    """The requests *build(response)* makes, or the exception it raises."""
    try:
        with warnings.catch_warnings():  # from_response: deprecated in Scrapy 2.19, still widely used
            warnings.simplefilter("ignore")
            return build(response)
    except Exception as exc:  # noqa: BLE001 — compared with Scrapy alone's
        return exc


def outcome(built: list | Exception) -> list | str:
    """[(url, method, body, encoding, class)] of each request, or the exception's type."""
    if isinstance(built, Exception):
        return type(built).__name__
    return [(r.url, r.method, r.body, r.encoding, type(r).__name__) for r in built]


def through_spider_middleware(response, requests: list) -> list:
    return list(PortableRequestsMiddleware().process_spider_output(response, requests))


#: Scrapy's own request-building paths, which encode with ``response.encoding``.
SCRAPY_PATHS = {
    "from_response post": lambda r: [FormRequest.from_response(r, formid="post")],
    "from_response get": lambda r: [FormRequest.from_response(r, formid="get")],
    # (formdata: the page's first word, which the Python codecs of most pages can encode)
    "from_response formdata": lambda r: [FormRequest.from_response(r, formid="get", formdata={
        "q": r.css("input::attr(value)").get().split()[0]})],
    "Scrapy's LinkExtractor + Request(encoding=response.encoding)": lambda r: [
        scrapy.Request(link.url, encoding=r.encoding) for link in ScrapyLinkExtractor().extract_links(r)],
    "Request(non-ASCII url, encoding=response.encoding)": lambda r: [scrapy.Request(
        "http://example.com/q?q=" + r.css("input::attr(value)").get(), encoding=r.encoding)],
}


#: Scrapy's own paths that encode an x-user-defined page's text with ``response.encoding``.
X_USER_DEFINED_LIMIT = {"from_response post", "from_response get", "from_response formdata",
                        "Scrapy's LinkExtractor + Request(encoding=response.encoding)",
                        "Request(non-ASCII url, encoding=response.encoding)"}


@pytest.mark.parametrize("label", CASES)
def test_requests_survive_a_process_without_the_package(label, tmp_path):
    text = CASES[label]
    response = decided(*page(label, text))
    assert whatwg_encoding(response).name == ("UTF-16LE" if label == "BOM" else label)
    name = scrapy_codec_name(whatwg_encoding(response))
    if name is not None:
        assert response.encoding == name and not codecs.lookup(name).name.startswith("whatwg-")

    # Scrapy's own paths: what Scrapy alone builds from the same page, exception included (a
    # character the Python codec cannot encode); what they build needs no spider middleware.
    alone = scrapy_alone(response)
    scrapy_built, alone_built, differ = [], [], []
    for path, build in SCRAPY_PATHS.items():
        built, by_scrapy = build_with(build, response), build_with(build, alone)
        if outcome(built) != outcome(by_scrapy):
            differ.append((path, outcome(built), outcome(by_scrapy)))
        scrapy_built += [] if isinstance(built, Exception) else built
        alone_built += [] if isinstance(by_scrapy, Exception) else by_scrapy
    rebuilt = rebuild_elsewhere(scrapy_built, tmp_path)
    assert all(len(entry) == 5 for entry in rebuilt), rebuilt  # no LookupError
    if len(alone_built) == len(scrapy_built):
        assert rebuilt == rebuild_elsewhere(alone_built, tmp_path)
    if "a=b".encode(response.encoding) == b"a=b":  # (not UTF-16, whose codec Request applies to ASCII too)
        assert rebuilt == [[r.url, r.method, r.body.decode("latin-1"), r.encoding, type(r).__name__]
                           for r in scrapy_built]

    # The drop-ins: the browser's query (response.urljoin: the output encoding, checked against
    # the WPT expectations elsewhere) and portable requests.
    links = LinkExtractor().extract_links(response)
    made = {
        "follow": follow(response, f"/f?q={text}"),
        "follow_all": list(follow_all(response, css="a")),
        "form_request get": form_request(response, formid="get"),
        "form_request post": form_request(response, formid="post", formdata={"extra": text}),
        "LinkExtractor + Request": [scrapy.Request(link.url) for link in links],
    }
    # (Request's w3lib spells a few bytes the URL parser keeps, such as "\\", as %5C: the same bytes)
    hrefs = [scrapy.Request(urljoin(response, href)).url for href in response.css("a::attr(href)").getall()]
    assert [link.url for link in links] == [r.url for r in made["LinkExtractor + Request"]] == hrefs
    # Request(link.url, encoding=response.encoding) is Scrapy's own: as with Scrapy alone's name
    # (the same URL but on UTF-16 pages, whose Python codec w3lib applies to the ASCII query too).
    assert [scrapy.Request(link.url, encoding=response.encoding).url for link in links] == [
        scrapy.Request(url, encoding=alone.encoding).url for url in hrefs]
    output = whatwg_encoding(response).output_encoding
    get, post = made["form_request get"], made["form_request post"]
    assert get.url == "http://example.com/search?q=" + quote_plus(output.encode(text)), get.url
    assert (post.method, post.body) == ("POST", f"q={quote_plus(output.encode(text))}&extra="
                                        f"{quote_plus(output.encode(text))}".encode("ascii"))
    assert get.encoding == post.encoding == PORTABLE_ENCODING  # (they carried whatwg-… names)
    assert [r.url for r in made["follow_all"]] == hrefs
    assert made["follow"].url == scrapy.Request(urljoin(response, f"/f?q={text}")).url
    ascii_compatible = whatwg_encoding(response).output_encoding is whatwg_encoding(response)
    assert "%" in made["follow"].url.split("?")[1]
    assert made["follow"].encoding == (response.encoding if ascii_compatible else "utf-8")  # (UTF-16: see follow)
    requests = [r for value in made.values() for r in (value if isinstance(value, list) else [value])]
    assert len(requests) == 7
    rebuilt = rebuild_elsewhere(through_spider_middleware(response, requests), tmp_path)
    assert rebuilt == [[r.url, r.method, r.body.decode("latin-1"), r.encoding, type(r).__name__] for r in requests]

    # A request that carries the package's codec name is lost elsewhere, and made portable (same
    # URL, UTF-8) by the spider middleware.
    whatwg_named = scrapy.Request(hrefs[0], encoding=whatwg_encoding(response).codec_name)
    assert rebuild_elsewhere([whatwg_named], tmp_path) == [["LookupError", f"unknown encoding: {whatwg_named.encoding}"]]
    portable, = through_spider_middleware(response, [whatwg_named])
    assert (portable.url, portable.encoding) == (whatwg_named.url, PORTABLE_ENCODING)
    assert rebuild_elsewhere([portable], tmp_path) == [[portable.url, "GET", "", PORTABLE_ENCODING, "Request"]]
    # Scrapy's own paths: what Scrapy alone gives, on every page but x-user-defined, the one
    # encoding whose text (U+F780-U+F7FF for bytes 0x80-0xFF) no Python codec encodes: Scrapy's
    # own builders that encode the page's text with ``response.encoding`` raise there, and Scrapy's
    # LinkExtractor drops the link (documented).
    if label == "x-user-defined":
        assert {path for path, _, _ in differ} == X_USER_DEFINED_LIMIT
        assert all(mine in ("UnicodeEncodeError", []) for _, mine, _ in differ), differ
    else:
        assert differ == []


@pytest.mark.parametrize("original", ["utf-8", "whatwg"])
@pytest.mark.parametrize("label", CASES)
def test_meta_refresh_request_survives(label, original, tmp_path):
    """The drop-in MetaRefreshMiddleware: the browser's query, a portable request (the original
    request's encoding, or UTF-8 where it was a ``whatwg-…`` name)."""
    text = CASES[label]
    body, headers = page(label, text)
    marker = "<title>t</title>".encode("utf-16le" if label == "BOM" else "ascii")
    refresh = f'<meta http-equiv=refresh content="0; url=/r?q={text}">'
    body = body.replace(marker, refresh.encode("utf-16le") if label == "BOM" else get_encoding(label).encode(refresh))
    url = "http://example.com/dir/page.html"
    whatwg = whatwg_encoding(decided(body, headers))
    request = scrapy.Request(url, encoding=whatwg.codec_name if original == "whatwg" else original)
    response = WhatwgEncodingMiddleware().process_response(
        request, HtmlResponse(url, body=body, headers=headers, request=request))
    spider = inspect.signature(ScrapyMetaRefreshMiddleware.process_response).parameters.get("spider")
    spider_args = (scrapy.Spider("s"),) if spider and spider.default is inspect.Parameter.empty else ()  # older Scrapy
    redirect = MetaRefreshMiddleware.from_crawler(get_crawler()).process_response(request, response, *spider_args)
    assert isinstance(redirect, scrapy.Request)
    assert redirect.url == scrapy.Request(urljoin(response, f"/r?q={text}")).url and "%" in redirect.url
    assert redirect.encoding == PORTABLE_ENCODING
    assert rebuild_elsewhere([redirect], tmp_path) == [[redirect.url, "GET", "", PORTABLE_ENCODING, "Request"]]


def test_replacement_encoding(tmp_path):
    """The replacement encoding (label iso-2022-kr): the body is one U+FFFD, the output encoding
    UTF-8, ``encoding`` Scrapy's own inference (spelled as lxml reads it); a followed URL is UTF-8
    and so is its request, which survives elsewhere."""
    response = decided(b"<a href='/x'>x</a>", {"Content-Type": "text/html; charset=iso-2022-kr"})
    assert whatwg_encoding(response).name == "replacement" and response.text == "\ufffd"
    assert scrapy_codec_name(whatwg_encoding(response)) is None
    alone = HtmlResponse(response.url, body=response.body, headers=response.headers).encoding
    assert (alone, response.encoding) == ("iso2022_kr", "iso-2022-kr")
    assert codecs.lookup(response.encoding).name == codecs.lookup(alone).name
    request = follow(response, "/f?q=é☃")
    assert request.url == "http://example.com/f?q=%C3%A9%E2%98%83"
    assert rebuild_elsewhere([request], tmp_path) == [[request.url, "GET", "", "utf-8", "Request"]]


def test_other_encodings_are_left_alone():
    """Python's codec names (the response's own, or one the caller gives) stay; only the package's
    names change."""
    response = decided(*page("windows-1251", "Москва"))
    assert response.follow("/f").encoding == "cp1251"
    assert response.follow("/f", encoding="koi8-r").encoding == "koi8-r"
    assert form_request(response, formid="post", encoding="koi8-r").encoding == "koi8-r"
    plain = scrapy.Request("http://example.com/", encoding="latin-1")
    own = scrapy.Request("http://example.com/", encoding=response.encoding)
    assert through_spider_middleware(response, [plain, own, {"item": 1}]) == [plain, own, {"item": 1}]


class CookieSite(resource.Resource):
    """``/page``: a windows-1251 page that sets a cookie whose value is raw UTF-8 (as servers do);
    ``/echo``: answers with the ``Cookie`` header it received, byte for byte."""

    isLeaf = True

    def render(self, request):
        if request.path == b"/echo":
            request.setHeader(b"Content-Type", b"application/octet-stream")
            return request.getHeader(b"cookie") or b""
        request.setHeader(b"Content-Type", b"text/html; charset=windows-1251")
        request.setHeader(b"Set-Cookie", "city=Москва".encode())
        return "<title>Москва</title>".encode("cp1251")


class CookieEcho(CollectSpider):
    name = "cookie_echo"

    def parse(self, response):
        self.responses.append(response)
        yield response.follow("/echo?via=follow", self.echo)
        if whatwg_encoding(response) is not None:  # (with the add-on)
            yield scrapy.Request(response.urljoin("/echo?via=whatwg"), self.echo,
                                 encoding=whatwg_encoding(response).codec_name)

    def echo(self, response):
        self.responses.append(response)


@pytest_twisted.inlineCallbacks
def test_cookies_go_back_as_scrapy_alone_sends_them():
    """Scrapy's CookiesMiddleware decodes ``Set-Cookie`` as UTF-8 and writes the ``Cookie``
    header with the request's encoding. ``response.follow()`` carries ``cp1251``, as with Scrapy
    alone: the same header bytes. A request the spider middleware made portable (it carried
    ``whatwg-windows-1251``) is UTF-8: it sends the server's bytes back, as browsers do."""
    site = server.Site(CookieSite())
    site.noisy = False
    port = reactor.listenTCP(0, site, interface="127.0.0.1")
    url = f"http://127.0.0.1:{port.getHost().port}/page"
    try:
        _, (on_follow, on_whatwg, on_page) = yield crawl([url], spider_cls=CookieEcho)
        _, (off_follow, off_page) = yield crawl([url], spider_cls=CookieEcho, settings={"ADDONS": {}})
    finally:
        yield port.stopListening()
    assert whatwg_encoding(on_page).name == "windows-1251" and whatwg_encoding(off_page) is None
    assert on_follow.request.encoding == off_follow.request.encoding == "cp1251"
    assert on_follow.body == off_follow.body == "city=Москва".encode("cp1251")
    assert on_whatwg.request.encoding == PORTABLE_ENCODING
    assert on_whatwg.body == "city=Москва".encode()
