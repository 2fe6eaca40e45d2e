"""Issue 12, item 2: requests built from a decided response survive ``Request.to_dict()`` and
pickling into a process that never imported the package (JOBDIR disk queues, scrapy-redis): there
``request_from_dict`` must rebuild them with the same URL, method and body.

Each request-building path runs on real decided responses (the middleware's ``process_response``)
in several encodings; the dicts are pickled and rebuilt by a fresh ``python`` that imports Scrapy
only. Scrapy's own ``FormRequest.from_response`` and ``Request(url, encoding=response.encoding)``
are shown to fail there (``LookupError``) until the add-on's spider middleware has seen them.
"""
from __future__ import annotations

import inspect
import json
import pickle
import subprocess
import sys
import warnings

import pytest
import pytest_twisted
import scrapy
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware as ScrapyMetaRefreshMiddleware
from scrapy.http import FormRequest, HtmlResponse, TextResponse
from scrapy.utils.test import get_crawler
from twisted.internet import reactor
from twisted.web import resource, server
from whatwg_crawl_helpers import CollectSpider, crawl

from scrapy_whatwg_encoding import WhatwgEncodingMiddleware, get_encoding
from scrapy_whatwg_encoding.scrapy.forms import form_request
from scrapy_whatwg_encoding.scrapy.links import LinkExtractor, MetaRefreshMiddleware
from scrapy_whatwg_encoding.scrapy.portable import PortableRequestsMiddleware

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
    assert response.encoding.startswith("whatwg-")
    return response


def through_spider_middleware(response, requests: list) -> list:
    return list(PortableRequestsMiddleware().process_spider_output(response, requests))


@pytest.mark.parametrize("label", CASES)
def test_requests_survive_a_process_without_the_package(label, tmp_path):
    text = CASES[label]
    response = decided(*page(label, text))
    assert response.whatwg_encoding.name == ("UTF-16LE" if label == "BOM" else label)
    with warnings.catch_warnings():  # from_response: deprecated in Scrapy 2.19, still widely used
        warnings.simplefilter("ignore")
        scrapy_form = FormRequest.from_response(response, formid="post")
        scrapy_get = FormRequest.from_response(response, formid="get")
        scrapy_post = FormRequest.from_response(response, formid="post", formdata={"extra": text})
    links = LinkExtractor().extract_links(response)

    made = {
        "follow": response.follow(f"/f?q={text}"),
        "follow_all": list(response.follow_all(css="a")),
        "form_request get": form_request(response, formid="get"),
        "form_request post": form_request(response, formid="post", formdata={"extra": text}),
        "from_response, spider middleware": through_spider_middleware(response, [scrapy_form])[0],
        "LinkExtractor + Request(encoding=response.encoding), spider middleware": through_spider_middleware(
            response, [scrapy.Request(link.url, encoding=response.encoding) for link in links]),
        "LinkExtractor + Request": [scrapy.Request(link.url) for link in links],
    }
    requests = [r for value in made.values() for r in (value if isinstance(value, list) else [value])]
    assert len(requests) == 10
    rebuilt = rebuild_elsewhere(requests, tmp_path)
    for request, again in zip(requests, rebuilt):
        assert request.encoding == "utf-8"
        assert again == [request.url, request.method, request.body.decode("latin-1"), "utf-8",
                         type(request).__name__], request
    # The queries and bodies carry the page's bytes, exactly as Scrapy's own methods build them
    # with the decided encoding (the package's URLs and bodies before this change).
    scrapy_follow = TextResponse.follow(response, f"/f?q={text}")
    assert (made["follow"].url, made["follow"].body) == (scrapy_follow.url, scrapy_follow.body)
    assert "%" in made["follow"].url.split("?")[1]
    post = made["from_response, spider middleware"]
    assert (post.url, post.method, post.body) == (scrapy_form.url, "POST", scrapy_form.body)
    # (the forms have no accept-charset and an ASCII action: form_request encodes as Scrapy does)
    for mine, scrapys in ((made["form_request get"], scrapy_get), (made["form_request post"], scrapy_post)):
        assert (mine.url, mine.method, mine.body) == (scrapys.url, scrapys.method, scrapys.body)
    assert [r.url for r in made["follow_all"]] == [r.url for r in made["LinkExtractor + Request"]]

    # Before the spider middleware, Scrapy's own paths carry the whatwg-* name and are lost.
    lost = rebuild_elsewhere([scrapy_form], tmp_path)
    assert lost == [["LookupError", f"unknown encoding: {response.encoding}"]]


@pytest.mark.parametrize("label", CASES)
def test_meta_refresh_request_survives(label, tmp_path):
    text = CASES[label]
    body, headers = page(label, text)
    marker = "<title>t</title>".encode("utf-16le" if label == "BOM" else "ascii")
    refresh = f'<meta http-equiv=refresh content="0; url=/r?q={text}">'
    body = body.replace(marker, refresh.encode("utf-16le") if label == "BOM" else get_encoding(label).encode(refresh))
    url = "http://example.com/dir/page.html"
    original = scrapy.Request(url, encoding=decided(body, headers).encoding)  # e.g. built by a callback
    response = WhatwgEncodingMiddleware().process_response(
        original, HtmlResponse(url, body=body, headers=headers, request=original))
    spider = inspect.signature(ScrapyMetaRefreshMiddleware.process_response).parameters.get("spider")
    spider_args = (scrapy.Spider("s"),) if spider and spider.default is inspect.Parameter.empty else ()  # older Scrapy
    redirect = MetaRefreshMiddleware.from_crawler(get_crawler()).process_response(original, response, *spider_args)
    assert isinstance(redirect, scrapy.Request) and redirect.url.startswith("http://example.com/r?q=")
    assert "%" in redirect.url
    assert redirect.encoding == "utf-8"
    assert rebuild_elsewhere([redirect], tmp_path) == [[redirect.url, "GET", "", "utf-8", "Request"]]


def test_replacement_encoding(tmp_path):
    """The replacement encoding (label iso-2022-kr): the body is one U+FFFD, the output encoding
    UTF-8; a followed URL is UTF-8 and the request portable."""
    response = decided(b"<a href='/x'>x</a>", {"Content-Type": "text/html; charset=iso-2022-kr"})
    assert response.whatwg_encoding.name == "replacement" and response.text == "\ufffd"
    request = response.follow("/f?q=é☃")
    assert request.url == "http://example.com/f?q=%C3%A9%E2%98%83"
    assert rebuild_elsewhere([request], tmp_path) == [[request.url, "GET", "", "utf-8", "Request"]]


def test_other_encodings_are_left_alone():
    """An explicit, portable encoding given by the caller stays; only the package's names change."""
    response = decided(*page("windows-1251", "Москва"))
    assert response.follow("/f", encoding="cp1251").encoding == "cp1251"
    assert form_request(response, formid="post", encoding="koi8-r").encoding == "koi8-r"
    plain = scrapy.Request("http://example.com/", encoding="latin-1")
    assert through_spider_middleware(response, [plain, {"item": 1}]) == [plain, {"item": 1}]


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
        yield response.follow("/echo", self.echo)

    def echo(self, response):
        self.responses.append(response)


@pytest_twisted.inlineCallbacks
def test_cookies_go_back_as_the_server_sent_them():
    """Why UTF-8: Scrapy's CookiesMiddleware decodes ``Set-Cookie`` as UTF-8 and writes the
    ``Cookie`` header with the request's encoding. A followed request sends the server's bytes
    back, as browsers do (the ``whatwg-windows-1251`` encoding sent ``city=\\xcc\\xee...``, and
    CPython's ``cp1251`` raises ``UnicodeEncodeError`` on a cookie with a ☃: the request is lost)."""
    site = server.Site(CookieSite())
    site.noisy = False
    port = reactor.listenTCP(0, site, interface="127.0.0.1")
    try:
        _, (echo, page) = yield crawl([f"http://127.0.0.1:{port.getHost().port}/page"], spider_cls=CookieEcho)
    finally:
        yield port.stopListening()
    assert page.whatwg_encoding.name == "windows-1251"
    assert echo.request.encoding == "utf-8"
    assert echo.body == "city=Москва".encode()
