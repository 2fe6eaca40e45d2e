"""The middleware under concurrency (issue 6, item 3): a crawl with ``CONCURRENT_REQUESTS=64`` over a
local HTTP server on 127.0.0.1 serving every page of ``tests/data/corpus`` (without a charset, with the
manifest's charset, gzip-compressed) plus broken pages (malformed ``Content-Type`` headers, binary,
NUL-heavy and truncated bodies, labels mapping to ``replacement``, an image).

Checked: every text response is decided, and its decision equals ``sniff()`` run alone on the same
input (no state leaks between concurrent responses); ``response.text`` is the standard's decode;
``response.body`` is byte for byte what the server sent; the stats are consistent (per-source and
per-encoding counts each sum to the responses seen, no errors); a response line longer than the
HTTP client accepts fails in the downloader, not in the middleware.
"""
from __future__ import annotations

import gzip
import json
import logging
import pathlib
import random

import pytest
import pytest_twisted
import scrapy
from scrapy.crawler import CrawlerRunner
from twisted.web import resource, server

from scrapy_whatwg_encoding import decode, get_encoding, sniff, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
CORPUS = DATA / "corpus"

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000185d6f6a40000000049454e44ae426082")
_rng = random.Random(6)
_SJIS = "<p>日本語のテキスト</p>".encode("shift_jis")
# path → (list of raw Content-Type header values, body, expected (encoding, source) or None)
BROKEN = {
    "ct-latin1-bytes": ([b"text/html; charset=\xff\xfe"], b"<meta charset=koi8-r>\xc1", ("KOI8-R", "prescan")),
    "ct-utf8-bytes": ([b"text/html; charset=k\xc3\xb6i8-r"], b"<p>caf\xe9</p>", ("windows-1252", "detector")),
    "ct-empty-charset": ([b"text/html; charset="], b"<meta charset=gbk>\xc4\xe3", ("GBK", "prescan")),
    "ct-empty-quoted": ([b'text/html; charset=""'], b"<meta charset=gbk>\xc4\xe3", ("GBK", "prescan")),
    "ct-no-equals": ([b"text/html; charset"], b"<meta charset=euc-kr>\xb0\xa1", ("EUC-KR", "prescan")),
    "ct-unbalanced-open": ([b'text/html; charset="koi8-r'], b"<p>\xc1</p>", ("KOI8-R", "transport")),
    "ct-unbalanced-close": ([b'text/html; charset=koi8-r"'], b"<meta charset=gbk>", ("GBK", "prescan")),
    "ct-two-same": ([b"text/html; charset=koi8-r", b"text/html; charset=koi8-r"], b"\xc1", ("KOI8-R", "transport")),
    # Fetch "extract a MIME type" and Scrapy agree here: the last charset wins.
    "ct-two-differ": ([b"text/html; charset=gbk", b"text/html; charset=big5"], b"\xa4\xa4", ("Big5", "transport")),
    "ct-16k": ([b"text/html; " + b"x=y; " * 3200 + b"charset=euc-jp"], b"\xa4\xa2", ("EUC-JP", "transport")),
    "ct-garbage-type": ([b"\x00\xff/\x01; charset=koi8-r"], b"<meta charset=iso-8859-5>", ("ISO-8859-5", "prescan")),
    "replacement-label": ([b"text/html; charset=ISO-2022-KR"], b"\x1b$)C<p>\x0e!!\x0f</p>", ("replacement", "transport")),
    "replacement-meta": ([b"text/html"], b"<meta charset=hz-gb-2312><p>~{<:~}</p>", ("replacement", "prescan")),
    "sjis-truncated": ([b"text/html; charset=shift_jis"], _SJIS[:-5] + b"\x82", ("Shift_JIS", "transport")),
    # A late <meta> after NUL characters, which leave the head: neither the parser step nor Firefox reads it.
    "nul-heavy": ([b"text/html"], b"\x00" * 5000 + b"<meta charset=koi8-r>" + b"\x00" * 5000, ("windows-1252", "default")),
    "nul-heavy-comment": ([b"text/html"], b"<!--" + b"\x00" * 5000 + b"--><meta charset=koi8-r>" + b"\x00" * 5000,
                          ("KOI8-R", "parser")),
    "binary": ([b"text/html"], bytes(_rng.randrange(256) for _ in range(20000)), None),
    "empty": ([b"text/html"], b"", ("windows-1252", "default")),
    "utf16-no-bom": ([b"text/html"], "<meta charset=utf-16le>é".encode("utf-16le"), None),
    # Beyond the prescan's 1024 bytes, a <meta> inside <script> is script text for the parser step.
    "script-meta": ([b"text/html"], b"<!DOCTYPE html>" + b" " * 1100 +
                    b"<script>document.write('<meta charset=koi8-r>')</script><p>x</p>", ("windows-1252", "default")),
    "plain-text": ([b"text/plain"], b"<meta charset=koi8-r>\xc1\xc2\xd7\xc5\xd4", None),
    "xml": ([b"application/xml"], b"<?xml version='1.0' encoding='iso-8859-7'?><a>\xe1</a>", ("ISO-8859-7", "xml-declaration")),
    "image": ([b"image/png"], PNG, None),
}
#: A single response header line longer than the HTTP client's limit (16 KiB in Twisted).
HUGE_HEADER = "huge-header"


def _corpus():
    return json.loads((CORPUS / "manifest.json").read_text("utf-8"))


class CrawlSite(resource.Resource):
    """``/c/<corpus path>`` (``?charset`` adds the manifest's charset, ``?gzip`` compresses),
    ``/b/<name>`` the broken pages, ``/b/huge-header`` a 64 KiB header line."""

    isLeaf = True

    def __init__(self, manifest):
        super().__init__()
        self.encodings = {e["path"]: e["encoding"] for e in manifest}

    def render(self, request):
        path = request.path.decode("latin-1")
        if path.startswith("/c/"):
            name = path[3:]
            content_type = "text/html"
            if b"charset" in request.args and self.encodings[name]:
                content_type += "; charset=" + self.encodings[name]
            request.setHeader(b"Content-Type", content_type.encode("ascii"))
            data = (CORPUS / name).read_bytes()
            if b"gzip" in request.args:
                request.setHeader(b"Content-Encoding", b"gzip")
                data = gzip.compress(data, mtime=0)
            return data
        name = path[3:]
        if name == HUGE_HEADER:
            request.setHeader(b"Content-Type", b"text/html; charset=" + b"k" * 65536)
            return b"<p>never seen</p>"
        headers, body, _ = BROKEN[name]
        request.responseHeaders.removeHeader(b"Content-Type")
        request.defaultContentType = None
        for value in headers:
            request.responseHeaders.addRawHeader(b"Content-Type", value)
        return body


class ConcurrentSpider(scrapy.Spider):
    name = "concurrent"

    def __init__(self, urls=(), **kwargs):
        super().__init__(**kwargs)
        self.urls, self.responses, self.failures = list(urls), [], []

    async def start(self):  # Scrapy 2.13+
        for request in self.start_requests():
            yield request

    def start_requests(self):  # Scrapy < 2.13
        for url in self.urls:
            yield scrapy.Request(url, callback=self.parse, errback=self.failed, dont_filter=True)

    def parse(self, response):
        self.responses.append(response)

    def failed(self, failure):
        self.failures.append(failure)


@pytest.fixture(scope="module")
def site():
    from twisted.internet import reactor

    manifest = _corpus()
    factory = server.Site(CrawlSite(manifest))
    factory.noisy = False
    port = reactor.listenTCP(0, factory, interface="127.0.0.1")
    yield f"http://127.0.0.1:{port.getHost().port}", manifest
    port.stopListening()


def _served(url: str, manifest_encodings: dict) -> tuple[bytes, list[bytes]]:
    """The body bytes (decompressed) and Content-Type values the server sent for *url*."""
    path, _, query = url.split("/", 3)[3].partition("?")
    if path.startswith("c/"):
        name = path[2:]
        content_type = "text/html"
        if "charset" in query and manifest_encodings[name]:
            content_type += "; charset=" + manifest_encodings[name]
        return (CORPUS / name).read_bytes(), [content_type.encode("ascii")]
    headers, body, _ = BROKEN[path[2:]]
    return body, headers


@pytest_twisted.inlineCallbacks
def test_crawl_64_concurrent_requests(site, caplog):
    base, manifest = site
    encodings = {e["path"]: e["encoding"] for e in manifest}
    urls = [f"{base}/c/{e['path']}{query}" for e in manifest for query in ("", "?charset=1", "?gzip=1")]
    urls += [f"{base}/b/{name}" for name in BROKEN]
    urls.append(f"{base}/b/{HUGE_HEADER}")
    runner = CrawlerRunner({
        "ADDONS": {"scrapy_whatwg_encoding.Addon": 0},
        "TWISTED_REACTOR": None, "LOG_LEVEL": "INFO", "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False, "RETRY_ENABLED": False, "COOKIES_ENABLED": False,
        "CONCURRENT_REQUESTS": 64, "CONCURRENT_REQUESTS_PER_DOMAIN": 64, "DOWNLOAD_DELAY": 0,
    })
    crawler = runner.create_crawler(ConcurrentSpider)
    caplog.set_level(logging.INFO)
    yield runner.crawl(crawler, urls=urls)
    spider = crawler.spider
    stats = crawler.stats.get_stats()

    # The 64 KiB header line: the HTTP client drops the connection; the middleware never sees it.
    assert len(spider.failures) == 1
    assert HUGE_HEADER in spider.failures[0].request.url
    assert len(spider.responses) == len(urls) - 1
    assert stats["finish_reason"] == "finished"
    assert stats["response_received_count"] == len(urls) - 1

    decided = untouched = 0
    sources: dict[str, int] = {}
    for response in spider.responses:
        body, headers = _served(response.url, encodings)
        assert response.body == body, response.url  # no body changed (gzip: the decompressed bytes)
        if "whatwg_encoding" not in response.meta:
            untouched += 1
            assert response.url.endswith("/b/image") and whatwg_encoding(response) is None
            continue
        decided += 1
        decision = response.meta["whatwg_encoding"]
        content_type = response.headers.get(b"Content-Type")  # what the middleware reads: the last value
        assert content_type == headers[-1], response.url
        kind_type = content_type.decode("latin-1")
        if not kind_type.split(";")[0].strip().lower() in ("text/html", "text/plain", "application/xml"):
            kind_type = None  # an unknown type is sniffed as HTML
        alone = sniff(body, content_type=kind_type, url=response.url)
        assert decision == alone.as_dict(), response.url  # no state shared between responses
        encoding = get_encoding(decision["encoding"])
        assert whatwg_encoding(response) is encoding and response.text == decode(body, encoding)[0], response.url
        assert scrapy_codec_name(encoding) in (None, response.encoding), response.url
        sources[decision["source"]] = sources.get(decision["source"], 0) + 1
        name = response.url.rsplit("/", 1)[1]
        if "/b/" in response.url and BROKEN[name][2] is not None:
            assert (decision["encoding"], decision["source"]) == BROKEN[name][2], name

    assert decided == len(spider.responses) - 1 and untouched == 1
    assert stats["whatwg_encoding/responses"] == decided
    by_source = {k.rsplit("/", 1)[1]: v for k, v in stats.items() if k.startswith("whatwg_encoding/source/")}
    by_encoding = {k: v for k, v in stats.items() if k.startswith("whatwg_encoding/encoding/")}
    assert by_source == sources
    assert sum(by_source.values()) == decided
    assert sum(by_encoding.values()) == decided
    assert "whatwg_encoding/errors" not in stats
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("scrapy_whatwg")]
    print(f"\nconcurrency crawl: {len(urls)} requests, {len(spider.responses)} responses, {decided} decided, "
          f"{untouched} untouched (image), {len(spider.failures)} download failure (64 KiB header); "
          f"sources {dict(sorted(by_source.items()))}")
