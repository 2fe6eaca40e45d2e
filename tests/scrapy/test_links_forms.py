"""Links and forms that Scrapy's own machinery builds carry the browser's URL, checked in real
crawls on the bytes a local server receives, for Shift_JIS, windows-1251, EUC-KR, ISO-2022-JP and
gb18030 pages:

- ``CrawlSpider`` with :class:`scrapy_whatwg_encoding.scrapy.requests.links.LinkExtractor` (Scrapy's own
  ``LinkExtractor`` is shown to give what it gives with Scrapy alone: it drops a link whose query
  has a character Python's codec cannot encode);
- ``response.follow_all()``;
- ``<meta http-equiv=refresh>`` through :class:`scrapy_whatwg_encoding.scrapy.requests.links.MetaRefreshMiddleware`;
- :func:`scrapy_whatwg_encoding.scrapy.requests.forms.form_request` on ``<form accept-charset="utf-8">``
  (UTF-8) and on a form without it (the page's encoding) — HTML "picking an encoding for the form".

Expected bytes come from Python's own codecs (an independent encoder) for representable
characters and the URL Standard's ``%26%23N%3B`` for the others.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote, unquote_to_bytes

import pytest
import pytest_twisted
import scrapy
from scrapy.http import HtmlResponse
from scrapy.linkextractors import LinkExtractor as ScrapyLinkExtractor
from scrapy.spiders import CrawlSpider, Rule
from twisted.internet import reactor
from twisted.web import resource, server
from whatwg_crawl_helpers import SAFE, browser_query, crawl

from scrapy_whatwg_encoding import WhatwgEncodingMiddleware, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.requests.forms import form_encoding, form_request
from scrapy_whatwg_encoding.scrapy.requests.links import LinkExtractor, follow_all
from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name

# WHATWG name -> Python's codec for the same encoder (representable characters only).
ENCODINGS = {"Shift_JIS": "shift_jis", "windows-1251": "cp1251", "EUC-KR": "euc_kr",
             "ISO-2022-JP": "iso2022_jp", "gb18030": "gb18030"}
LINK_TEXT = "日本ж☃"  # ☃ is in none of them but gb18030; 日本 is not in windows-1251
FORM_TEXT = "東京"
def canonical(target: str) -> str:
    """w3lib's safe_url_string percent-encodes a few bytes a browser leaves raw in a query
    (``\\``, ``{``, ``|``, ...): the server gets the same bytes. Undo that for the comparison,
    keeping ``&``, ``;``, ``=``, ``+`` and ``%`` as they are (they change the meaning)."""
    return re.sub("%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)) if chr(int(m.group(1), 16)) in SAFE
                  and chr(int(m.group(1), 16)) not in "&;=+%" else m.group(), target)


def page(name: str) -> bytes:
    codec = ENCODINGS[name]
    html = (f'<!DOCTYPE html><meta charset="{name}"><title>{name}</title>'
            f'<a href="/echo?page={name}&q={LINK_TEXT}">link</a>'
            f'<form accept-charset="bogus utf-8" action="/echo" id="utf8"><input name=q value="{FORM_TEXT}"></form>'
            f'<form action="/echo?page={name}" id="page" method=post><input name=q value="{FORM_TEXT}"></form>')
    return html.encode(codec, "xmlcharrefreplace")


class Site(resource.Resource):
    isLeaf = True

    def render(self, request):
        if request.path == b"/echo":
            request.setHeader(b"Content-Type", b"text/plain; charset=us-ascii")
            return b"target: " + request.uri + b"\nbody: " + request.content.read()
        request.setHeader(b"Content-Type", b"text/html")  # the <meta> decides
        name = request.path.decode()[1:-5]
        if name.endswith("-refresh"):
            name = name[:-8]
            return (f'<meta charset="{name}"><meta http-equiv="refresh" content="0; URL=\'/echo?page={name}'
                    f'&refresh&q={LINK_TEXT}\'">').encode(ENCODINGS[name], "xmlcharrefreplace")
        return page(name)


class LinksAndForms(CrawlSpider):
    name = "links_and_forms"
    rules = (Rule(LinkExtractor(allow=r"/echo"), callback="echo", cb_kwargs={"how": "crawlspider"}),)

    def __init__(self, requests=(), received=None, **kwargs):
        super().__init__(**kwargs)
        self.to_request = list(requests)
        self.received = received
        self.responses: list = []  # (whatwg_crawl_helpers.crawl reads it)

    async def start(self):  # Scrapy 2.13+
        for request in self.start_requests():
            yield request

    def start_requests(self):  # Scrapy < 2.13
        for url in self.to_request:
            yield scrapy.Request(url)
            name = url.rsplit("/", 1)[1][:-5]
            yield scrapy.Request(url.replace(".html", "-refresh.html"), self.echo,
                                 cb_kwargs={"how": ("refresh", name)})

    def parse_start_url(self, response):
        name = response.meta["whatwg_encoding"]["encoding"]
        self.received[(name, "decided")] = name
        alone = HtmlResponse(response.url, body=response.body, headers=response.headers,
                             encoding=scrapy_codec_name(whatwg_encoding(response)))  # as Scrapy alone reads it
        stock = ScrapyLinkExtractor(allow=r"/echo").extract_links(response)
        self.received[(name, "stock links")] = (stock, ScrapyLinkExtractor(allow=r"/echo").extract_links(alone))
        for link in stock:
            yield scrapy.Request(link.url, self.echo, cb_kwargs={"how": ("stock", name)}, dont_filter=True)
        yield from follow_all(response, css="a", callback=self.echo, cb_kwargs={"how": ("follow_all", name)},
                                       dont_filter=True)
        yield form_request(response, formid="utf8", callback=self.echo, cb_kwargs={"how": ("utf8", name)},
                           dont_filter=True)
        yield form_request(response, formid="page", callback=self.echo, cb_kwargs={"how": ("page", name)},
                           dont_filter=True)

    def echo(self, response, how):
        if how == "crawlspider":
            how = (how, response.url.split("page=")[1].split("&")[0])
        target, body = response.text.split("\n", 1)
        self.received[how] = (target.removeprefix("target: "), body.removeprefix("body: "))


@pytest_twisted.inlineCallbacks
def test_links_and_forms_in_a_crawl():
    site = server.Site(Site())
    site.noisy = False
    port = reactor.listenTCP(0, site, interface="127.0.0.1")
    base = f"http://127.0.0.1:{port.getHost().port}/"
    received: dict = {}
    try:
        yield crawl([f"{base}{name}.html" for name in ENCODINGS], spider_cls=LinksAndForms, received=received,
                    settings={"DOWNLOADER_MIDDLEWARES": {
                        "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
                        "scrapy_whatwg_encoding.scrapy.requests.links.MetaRefreshMiddleware": 579}})
    finally:
        yield port.stopListening()
    results = {}
    for name, codec in ENCODINGS.items():
        assert received[(name, "decided")] == name
        link = f"/echo?page={name}&q={browser_query(LINK_TEXT, codec)}"
        sent = {how: canonical(received[(how, name)][0]) for how in ("crawlspider", "follow_all", "refresh")}
        refresh = link.replace("&q=", "&refresh&q=")  # (else the duplicate filter drops one)
        assert sent == {"crawlspider": link, "follow_all": link, "refresh": refresh}, name
        assert received[("utf8", name)][0] == "/echo?q=%E6%9D%B1%E4%BA%AC"
        # application/x-www-form-urlencoded: the same bytes (Python's quote_plus spells them).
        form = received[("page", name)][1]
        assert form.startswith("q=") and "&" not in form
        assert unquote_to_bytes(form[2:]) == unquote_to_bytes(browser_query(FORM_TEXT, codec)), name
        # Scrapy's own LinkExtractor: the links Scrapy alone extracts from the page.
        stock, alone = received[(name, "stock links")]
        assert stock == alone, name
        results[name] = [received[("stock", name)][0] == received[("crawlspider", name)][0]] if stock else []
    # Where every character is representable (gb18030) it sends the browser's URL; elsewhere
    # Python's codec raises on ☃ (and 日本 in windows-1251) and Scrapy drops the link.
    assert results == {"Shift_JIS": [], "windows-1251": [], "EUC-KR": [], "ISO-2022-JP": [], "gb18030": [True]}


def decided(body: bytes, url="http://example.com/a/"):
    request = scrapy.Request(url)
    return WhatwgEncodingMiddleware().process_response(request, HtmlResponse(url, body=body, request=request))


@pytest.mark.parametrize("accept_charset, expected", [
    ("utf-8", "UTF-8"), ("bogus utf-8 shift_jis", "UTF-8"), ("  KOI8-R\tutf-8", "KOI8-R"),
    ("bogus", "windows-1251"), ("", "windows-1251"), ("utf-16le", "UTF-8"),  # output encoding
    ("utf-8,koi8-r", "windows-1251"), ("utf-8\xa0koi8-r", "windows-1251"),  # split on ASCII whitespace only
])
def test_picking_an_encoding_for_the_form(accept_charset, expected):
    body = f'<meta charset=windows-1251><form accept-charset="{accept_charset}"></form>'.encode()
    response = decided(body)
    assert form_encoding(response, response.css("form")[0]).name == expected
    assert form_encoding(response).name == "windows-1251"


def test_wpt_iso2022jp_encode_form_errors_stateful():
    """encoding/legacy-mb-japanese/iso-2022-jp/iso2022jp-encode-form-errors-stateful.html: a UTF-8
    page's form with accept-charset=iso-2022-jp sends one encoder stream per value."""
    data = Path(__file__).resolve().parents[1] / "data" / "wpt-expectations" / "query-form.json"
    entry = next(p for p in json.loads(data.read_text("utf-8")) if p["kind"] == "form-bytes")
    (value, expected), = entry["cases"]
    body = (f'<meta charset=utf-8><form accept-charset="{entry["accept_charset"]}" action="/t">'
            f'<input name=utf16 value="{value}"></form>').encode()
    request = form_request(decided(body))
    query = request.url.split("utf16=", 1)[1]
    assert unquote_to_bytes(query.replace("+", " ")) == expected.encode("latin-1")


class SitemapEcho(scrapy.spiders.SitemapSpider):
    name = "sitemap_echo"
    sitemap_rules = (("/echo", "echo"),)

    def __init__(self, requests=(), received=None, **kwargs):
        super().__init__(**kwargs)
        self.sitemap_urls = list(requests)
        self.received = received
        self.responses: list = []

    def echo(self, response):
        self.received[response.url] = response.text.split("\n", 1)[0].removeprefix("target: ")


class SitemapSite(resource.Resource):
    isLeaf = True

    def render(self, request):
        if request.path == b"/echo":
            request.setHeader(b"Content-Type", b"text/plain; charset=us-ascii")
            return b"target: " + request.uri
        request.setHeader(b"Content-Type", b"application/xml")
        base = f"http://{request.getHost().host}:{request.getHost().port}"
        return ('<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                f"<url><loc>{base}/echo?q={LINK_TEXT}&amp;r=%41</loc></url></urlset>").encode()


@pytest_twisted.inlineCallbacks
def test_sitemap_spider_utf8_sitemap():
    """A sitemap is UTF-8 (Sitemaps protocol), so its output encoding is UTF-8: Scrapy's own
    ``Request(loc)`` already sends the browser's query (existing escapes kept)."""
    site = server.Site(SitemapSite())
    site.noisy = False
    port = reactor.listenTCP(0, site, interface="127.0.0.1")
    received: dict = {}
    try:
        yield crawl([f"http://127.0.0.1:{port.getHost().port}/sitemap.xml"], spider_cls=SitemapEcho,
                    received=received)
    finally:
        yield port.stopListening()
    assert list(received.values()) == ["/echo?q=" + quote(LINK_TEXT.encode("utf-8"), safe=SAFE) + "&r=%41"]


def test_old_paths_of_the_request_builders_still_work():
    # 0.4.0 moved them into scrapy_whatwg_encoding.scrapy.requests; spiders and settings naming
    # the old modules get the same objects.
    from scrapy.utils.misc import load_object

    from scrapy_whatwg_encoding.scrapy import forms, links, portable, url
    from scrapy_whatwg_encoding.scrapy.requests import forms as new_forms
    from scrapy_whatwg_encoding.scrapy.requests import links as new_links
    from scrapy_whatwg_encoding.scrapy.requests import portable as new_portable
    from scrapy_whatwg_encoding.scrapy.requests import url as new_url

    for old, new in [(links, new_links), (forms, new_forms), (portable, new_portable), (url, new_url)]:
        assert old.__all__ and all(getattr(old, name) is getattr(new, name) for name in old.__all__)
    assert load_object("scrapy_whatwg_encoding.scrapy.portable.PortableRequestsMiddleware") is \
        new_portable.PortableRequestsMiddleware
    assert load_object("scrapy_whatwg_encoding.scrapy.links.MetaRefreshMiddleware") is new_links.MetaRefreshMiddleware


def test_form_request_takes_from_responses_arguments_in_its_order():
    # formname, formid, formnumber, formdata, clickdata, dont_click, formxpath, formcss: the order of
    # FormRequest.from_response, positional calls included (0.3.0 had formxpath and formcss 5th and
    # 6th; the changelog's Upgrading says to pass them by keyword).
    import inspect

    from scrapy.http import FormRequest

    from scrapy_whatwg_encoding.scrapy.requests.forms import form_request

    ours = list(inspect.signature(form_request).parameters)[:9]
    assert ours == list(inspect.signature(FormRequest.from_response).parameters)[:9]
    page = HtmlResponse("http://example.com/", body=b'<form action="/s"><input name="q" value="a"></form>',
                        encoding="utf-8")
    request = form_request(page, None, None, 0, {"q": "b"})
    assert request.url == "http://example.com/s?q=b"
