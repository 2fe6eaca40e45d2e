"""The interop suite's site, served on 127.0.0.1 to the crawls with the add-on on and off alike.

    python interop_site.py        # prints the base URL, serves until terminated

Pages in several encodings (the issue's cases: a UTF-8 feed, windows-1251 and Shift_JIS pages, a
lying charset header, an unlabeled legacy page), feeds, sitemaps (plain and gzip), robots.txt,
forms, redirects and a meta refresh; and two local stand-ins of rendering services' HTTP APIs,
written from the plugins' request and response formats:

- Splash (scrapy-splash): ``POST /splash/render.html`` (the DOM, UTF-8), ``/splash/render.json``
  (``html``, ``png``, ``title``), ``/splash/execute`` (the table a Lua script returns: the DOM,
  the site's headers, status and URL, and a table of its own);
- Zyte API (scrapy-zyte-api): ``POST /zyte/extract`` with ``httpResponseBody`` (the page's bytes,
  base64) and ``browserHtml`` (the DOM), ``httpResponseHeaders`` on request.

A "DOM" is what a browser shows of a page: ``decode(body, expected)`` of the page's bytes with the
encoding a browser decides (``Page.expected``), the truth the suite compares the crawls against.
"""
from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass
from urllib.parse import unquote

from scrapy_whatwg_encoding import decode, get_encoding


@dataclass(frozen=True)
class Page:
    content_type: str | None
    body: bytes
    expected: str  # the WHATWG encoding a browser decides for these bytes (the truth's decoder)
    note: str

    def dom(self) -> str:
        """The browser's text of the page: the Encoding Standard's decode with ``expected``."""
        return decode(self.body, get_encoding(self.expected))[0]


def html(title: str, paragraphs: list[str], head: str = "", body: str = "") -> str:
    ps = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (f"<!DOCTYPE html><html><head>{head}<title>{title}</title></head>"
            f"<body><h1>{title}</h1>{ps}{body}</body></html>")


def form(ident: str, method: str, fields: dict[str, str]) -> str:
    inputs = "".join(f'<input type="hidden" name="{k}" value="{v}">' for k, v in fields.items())
    return f'<form id="{ident}" method="{method}" action="/echo">{inputs}<input type="submit"></form>'


RUSSIAN = ("Последние новости из Москвы и Санкт-Петербурга: погода, транспорт и культура. "
           "Сегодня в городе ожидается небольшой снег, температура около нуля градусов.")
SEARCH_LINK = '<a href="search.html?q=Привет">поиск</a>'

PAGES: dict[str, Page] = {
    "utf8.html": Page(
        "text/html; charset=utf-8",
        html("Café — Zürich", ["naïve résumé", "Привет, 東京"],
             body=form("post", "post", {"q": "café"}) + form("get", "get", {"q": "東京"})).encode(),
        "UTF-8", "UTF-8 in the header: the same text with and without the add-on"),
    "cp1251.html": Page(
        "text/html; charset=windows-1251",
        html("Новости", ["Привет, мир", RUSSIAN],
             body=SEARCH_LINK + form("post", "post", {"q": "Привет"}) + form("get", "get", {"q": "мир"}))
        .encode("cp1251"),
        "windows-1251", "windows-1251 in the header"),
    "sjis.html": Page(
        "text/html",
        html("日本語のページ", ["東京〜大阪 − 新幹線", "こんにちは"], head='<meta charset="Shift_JIS">',
             body=form("post", "post", {"q": "日本"}) + form("get", "get", {"q": "大阪"})).encode("shift_jis"),
        "Shift_JIS", "Shift_JIS in a <meta> (Scrapy decodes cp932, which agrees with the standard's decoder "
                     "on every two-byte sequence)"),
    "gbk.html": Page(
        "text/html",
        html("中文网页", ["欢迎访问我们的网站"], head='<meta http-equiv="Content-Type" content="text/html; charset=gb2312">')
        .encode("gbk"),
        "GBK", "gb2312 in a <meta> (GBK in the standard, gb18030 in Scrapy)"),
    "lying-header.html": Page(
        "text/html; charset=iso-8859-1",
        html("Ángel Ísland", ["Ðóra Ýmir"], head='<meta charset="utf-8">').encode(),
        "windows-1252", "UTF-8 bytes under a lying iso-8859-1 header: browsers decode windows-1252 (the "
                        "header wins over the <meta>) and keep 0x81, 0x8D, 0x90, 0x9D as C1 controls; "
                        "Scrapy's cp1252 makes U+FFFD of them"),
    "x-cp1251.html": Page(
        "text/html; charset=x-cp1251",
        html("Погода", ["Ясно, без осадков", RUSSIAN]).encode("cp1251"),
        "windows-1251", "a header label only the standard knows (x-cp1251): Scrapy falls back to cp1252"),
    "unlabeled.html": Page(
        "text/html",
        html("Главная страница", [RUSSIAN, "Добро пожаловать на наш сайт."],
             body=SEARCH_LINK + form("post", "post", {"q": "Привет"})).encode("cp1251"),
        "windows-1251", "an unlabeled legacy page: the add-on's detector says windows-1251, as browsers do; "
                        "Scrapy alone decodes cp1252"),
    "search.html": Page("text/html; charset=utf-8", html("Search", ["results"]).encode(), "UTF-8",
                        "the target of the pages' search links"),
    "refresh.html": Page(
        "text/html",
        html("リダイレクト", ["移動します"], head='<meta charset="shift_jis">'
             '<meta http-equiv="refresh" content="0; url=utf8.html?from=refresh">').encode("shift_jis"),
        "Shift_JIS", "a meta refresh in a Shift_JIS page"),
    "private/secret.html": Page("text/html; charset=utf-8", html("Secret", ["hidden"]).encode(), "UTF-8",
                                "disallowed by robots.txt"),
    "feed-utf8.rss": Page(
        "application/rss+xml",
        ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Лента</title>'
         '<item><title>Café crème</title><link>{base}utf8.html</link><description>naïve</description></item>'
         '<item><title>Привет, мир</title><link>{base}cp1251.html</link><description>Новости</description></item>'
         '<item><title>東京〜大阪</title><link>{base}sjis.html</link><description>日本語</description></item>'
         '</channel></rss>').encode(),
        "UTF-8", "a UTF-8 RSS feed"),
    "feed-cp1251.xml": Page(
        "application/xml",
        ('<?xml version="1.0" encoding="windows-1251"?>\n<feed><item><title>Погода</title>'
         '<link>{base}x-cp1251.html</link><description>Ясно</description></item>'
         '<item><title>Главная</title><link>{base}unlabeled.html</link><description>Добро пожаловать'
         '</description></item></feed>').encode("cp1251"),
        "windows-1251", "an XML feed whose declaration says windows-1251"),
    "feed.csv": Page(
        "text/csv; charset=windows-1251",
        "name,city\r\nИван,Москва\r\nПётр,Санкт-Петербург\r\nAnna,Kyiv №5\r\n".encode("cp1251"),
        "windows-1251", "a windows-1251 CSV"),
    "untyped.json": Page(
        None, '{"name": "café", "city": "Zürich"}'.encode(), "UTF-8",
        "JSON with no Content-Type: Scrapy makes a TextResponse of it (selector type json), so must the add-on"),
}
HTML_PAGES = [p for p, page in PAGES.items() if p.endswith(".html") and "/" not in p and p != "search.html"]
# The pages a rendering service shows (their DOMs): one of each case.
RENDERED_PAGES = ["utf8.html", "cp1251.html", "sjis.html", "lying-header.html", "unlabeled.html"]
SITEMAP_PAGES = {"sitemap.xml": ["utf8.html", "cp1251.html", "sjis.html"],
                 "sitemap2.xml.gz": ["lying-header.html", "x-cp1251.html", "unlabeled.html"]}
# A 1x1 PNG (what render.json's ``png`` carries, base64).
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==")


def robots_txt(base: str) -> str:
    return ("User-agent: *\nDisallow: /private/\n"
            f"Sitemap: {base}sitemap.xml\nSitemap: {base}sitemap2.xml.gz\n")


def sitemap(base: str, paths: list[str]) -> bytes:
    urls = "".join(f"<url><loc>{base}{p}</loc></url>" for p in paths)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>').encode()


def page_body(path: str, base: str) -> bytes:
    body = PAGES[path].body
    return body.replace(b"{base}", base.encode()) if b"{base}" in body else body


def _headers(page: Page) -> list[dict[str, str]]:
    return [{"name": "Content-Type", "value": page.content_type or "text/html"}, {"name": "Server", "value": "interop"}]


def _target(url: str, base: str) -> str:
    return unquote(url[len(base):]) if url.startswith(base) else ""


def splash(endpoint: str, args: dict, base: str) -> tuple[str, bytes]:
    """(Content-Type, body) as Splash answers *endpoint* with *args* (the page's DOM as rendered)."""
    url = args["url"]
    page = PAGES[_target(url, base)]
    dom = page.dom().replace("{base}", base)
    if endpoint == "render.html":
        return "text/html; charset=utf-8", dom.encode()
    title = dom.split("<title>", 1)[1].split("</title>", 1)[0]
    if endpoint == "render.json":
        data = {"url": url, "requestedUrl": url, "title": title, "geometry": [0, 0, 1024, 768]}
        if int(args.get("html", 0)):
            data["html"] = dom
        if int(args.get("png", 0)):
            data["png"] = base64.b64encode(PNG).decode()
    else:  # execute: the table the usual script returns (html, the site's headers, status, URL) and its own
        data = {"html": dom, "headers": _headers(page), "http_status": 200, "url": url,
                "table": {"title": title, "length": len(dom)}}
    return "application/json", json.dumps(data).encode()


def zyte_extract(query: dict, base: str) -> dict:
    url = query["url"]
    page = PAGES[_target(url, base)]
    answer: dict = {"url": url, "statusCode": 200}
    if query.get("httpResponseBody"):
        answer["httpResponseBody"] = base64.b64encode(page_body(_target(url, base), base)).decode()
    if query.get("browserHtml"):
        answer["browserHtml"] = page.dom().replace("{base}", base)
    if query.get("httpResponseHeaders"):
        answer["httpResponseHeaders"] = _headers(page)
    return answer


def make_resource():
    from twisted.web import resource

    class Site(resource.Resource):
        isLeaf = True

        def render(self, request):
            host = request.getHeader(b"host").decode()
            base = f"http://{host}/"
            path = unquote(request.path.decode("latin-1")).lstrip("/")
            body = request.content.read()
            content_type, data = self.answer(request, path, base, body)
            if content_type:
                request.setHeader(b"Content-Type", content_type.encode("latin-1"))
            else:
                request.defaultContentType = None  # else Twisted adds text/html
            return data

        def answer(self, request, path, base, body):
            if path == "robots.txt":
                return "text/plain", robots_txt(base).encode()
            if path in SITEMAP_PAGES:
                xml = sitemap(base, SITEMAP_PAGES[path])
                return ("application/xml", xml) if path.endswith(".xml") else ("application/octet-stream",
                                                                              gzip.compress(xml))
            if path == "index.html":
                links = "".join(f'<a href="{p}">{p}</a> ' for p in HTML_PAGES)
                return "text/html; charset=utf-8", html("Index", ["links"], body=links).encode()
            if path.startswith("redirect/"):  # redirect/<status>/<target path>
                _, status, target = path.split("/", 2)
                request.setResponseCode(int(status))
                request.setHeader(b"Location", (base + target).encode())
                return "text/html", b""
            if path == "echo":
                return "text/plain; charset=us-ascii", b"target: " + request.uri + b"\nbody: " + body
            if path.startswith("splash/"):
                return splash(path.split("/", 1)[1], json.loads(body), base)
            if path == "zyte/extract":
                return "application/json", json.dumps(zyte_extract(json.loads(body), base)).encode()
            if path not in PAGES:
                request.setResponseCode(404)
                return "text/plain", b"not found"
            return PAGES[path].content_type, page_body(path, base)

    return Site()


def main() -> None:
    from twisted.internet import reactor
    from twisted.web import server

    factory = server.Site(make_resource())
    factory.noisy = False
    port = reactor.listenTCP(0, factory, interface="127.0.0.1")
    print(f"http://127.0.0.1:{port.getHost().port}/", flush=True)
    reactor.run()


if __name__ == "__main__":
    main()
