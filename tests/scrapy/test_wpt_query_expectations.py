"""Every URL-query and form expectation of the web-platform-tests (legacy-mb-* encode-href and
encode-form tests, encoding/iso-2022-jp-encoder.html, html/.../query-encoding/) through the public
paths of a response decided by the middleware: ``urljoin(response, )`` and the drop-in
:func:`~scrapy_whatwg_encoding.scrapy.requests.forms.form_request` on the test's form (the form's output
encoding, :func:`~scrapy_whatwg_encoding.scrapy.requests.forms.form_encoding`);
and a sample of every href page through ``response.follow()`` in a real crawl, checked on the
server's side. (Scrapy's own ``FormRequest(..., encoding=response.encoding)`` uses Python's codec,
as with Scrapy alone: tests/scrapy/test_scrapy_follow.py.)

The expectations were computed ONCE by the tests' own JavaScript (tools/wpt_query_expectations.mjs,
see tests/data/wpt-expectations/README.md). Each page's own comparison is kept: ``normalizeStr``
(percent-decode, re-encode every code unit, drop a final ``ESC ( B``) where the test defines it,
exact strings elsewhere.
"""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import quote, unquote_to_bytes

import pytest_twisted
import scrapy
from scrapy import Request
from scrapy.http import HtmlResponse
from twisted.internet import reactor
from twisted.web import resource, server
from whatwg_crawl_helpers import crawl

from scrapy_whatwg_encoding import WhatwgEncodingMiddleware, get_encoding, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.requests.forms import form_encoding, form_request
from scrapy_whatwg_encoding.scrapy.requests.links import follow, urljoin

DATA = Path(__file__).resolve().parents[1] / "data"
WPT_ORIGIN = "http://web-platform.test:8000/"
#: Expectations the current URL Standard and browsers do not share with this WPT snapshot:
#: "gopher" lost its special-scheme status (URL Standard, 2020), so its query is UTF-8 now.
DISAGREE = re.compile(r"^gopher:")


@cache
def pages() -> list[dict]:
    raw = json.loads((DATA / "wpt-expectations" / "query-form.json").read_text("utf-8"))
    for page in raw:
        if "cases_of" in page:
            page["cases"] = raw[page["cases_of"]]["cases"]
    return raw


def _normalize_str(source: str | None):
    """The page's normalizeStr, ported (the JSON keeps its JavaScript source and samples)."""
    if source is None or "return str;" in source:
        return lambda s: s
    iso = 'str.charAt(c + 1) != "%"' in source

    def normalize(s: str) -> str:
        out, c = [], 0
        while c < len(s):
            if s[c] == "%" and not (iso and "%" in (s[c + 1:c + 2], s[c + 2:c + 3])):
                out.append(chr(int(s[c + 1:c + 3], 16)))
                c += 3
            else:
                out.append(s[c])
                c += 1
        result = "".join(f"%{ord(ch):X}" for ch in out)
        return result.removesuffix("%1B%28%42")

    return normalize


def decided_response(page: dict):
    """The page's bytes, with its Content-Type, through the middleware's process_response."""
    test = page["test"]
    path, _, variant = test.partition("?")
    body = (DATA / "wpt" / path).read_bytes()
    if variant:  # .sub.html pages: WPT substitutes {{GET[encoding]}}
        body = body.replace(b"{{GET[encoding]}}", variant.split("=", 1)[1].encode())
    url = page.get("base") or WPT_ORIGIN + path
    request = Request(url)
    response = HtmlResponse(url, body=body, headers={"Content-Type": page["content_type"]}, request=request)
    decided = WhatwgEncodingMiddleware().process_response(request, response)
    assert decided.meta["whatwg_encoding"]["source"] in ("transport", "bom", "prescan")
    return decided


def run_page(page: dict) -> tuple[int, set]:
    """Checks every case of *page*; returns (assertions, distinct keys)."""
    response = decided_response(page)
    encoding = whatwg_encoding(response)
    expected_encoding = get_encoding(page["charset"])
    assert encoding is not None
    if expected_encoding is not None:
        assert encoding.output_encoding is expected_encoding.output_encoding, page["test"]
    normalize = _normalize_str(page.get("normalize"))
    for raw, normalized in page.get("normalize_samples", []):
        assert normalize(raw) == normalized  # the port equals the test's own function
    kind, cases, distinct = page["kind"], page["cases"], set()
    name = encoding.output_encoding.name
    if kind == "href":
        for cp, expected in cases:
            query = urljoin(response, f"https://example.com/?{chr(cp)}").split("?", 1)[1]
            assert query == expected or normalize(query) == normalize(expected), (page["test"], hex(cp), query)
            distinct.add((name, "href", chr(cp), expected))
    elif kind == "href-string":
        for text, expected in cases:
            url = urljoin(response, f"https://example.com/?{text}")
            assert url.split("?", 1)[1] == expected, (page["test"], text)
            # What Scrapy sends: the same bytes (w3lib's safe_url_string writes "\\" as %5C).
            sent = Request(url).url.split("?", 1)[1]
            assert unquote_to_bytes(sent) == unquote_to_bytes(expected)
            distinct.add((name, "href", text, expected))
    elif kind == "form":
        separator = page["separator"]
        # The test's form (its script builds it), appended to the page's bytes (ASCII).
        with_form = response.replace(body=response.body + f'<form action="{WPT_ORIGIN}common/blank.html">'
                                     '<input name="input-0"></form>'.encode("ascii"))
        assert whatwg_encoding(with_form) is encoding and form_encoding(with_form) is encoding.output_encoding
        for start in range(0, len(cases), 400):  # the test's chunks of 400 code points
            chunk = cases[start:start + 400]
            value = separator.join(chr(cp) for cp, _ in chunk)
            request = form_request(with_form, formdata={"input-0": value})
            query = request.url.split("?", 1)[1]
            results = query[query.index("=") + 1:].split(quote(separator, safe=""))  # encodeURIComponent
            assert len(results) == len(chunk)
            for (cp, expected), got in zip(chunk, results):
                assert got == expected or normalize(got) == normalize(expected), (page["test"], hex(cp), got)
                distinct.add((name, "form", chr(cp), expected))
    elif kind == "resolve":
        for url, expected in cases:
            got = urljoin(response, url)
            if DISAGREE.match(url):  # the current URL Standard: a non-special scheme's query is UTF-8
                expected = quote(url.partition("?")[2], safe="=")
            assert expected in got, (page["test"], url, got, expected)
            distinct.add((name, "resolve", url, expected))
    else:
        assert kind == "form-bytes"  # checked in test_links_forms (accept-charset)
        return 0, set()
    return len(cases), distinct


def test_every_query_and_form_expectation():
    total, distinct = 0, set()
    for page in pages():
        count, keys = run_page(page)
        total += count
        distinct |= keys
    by_input = {key[:3] for key in distinct}
    print(f"\nWPT query/form expectations: {total} assertions; distinct (encoding, path, input, expected): "
          f"{len(distinct)}, (encoding, path, input): {len(by_input)}")
    assert total == 766_710  # all 766,711 but the accept-charset one (tests/scrapy/test_links_forms.py)


class _Pages(resource.Resource):
    """The WPT href pages with their Content-Type, and /echo (the raw request target)."""

    isLeaf = True

    def __init__(self, by_path: dict):
        super().__init__()
        self.by_path = by_path

    def render(self, request):
        if request.path == b"/echo":
            request.setHeader(b"Content-Type", b"text/plain; charset=us-ascii")
            return request.uri
        page = self.by_path[request.path.decode()[1:]]
        request.setHeader(b"Content-Type", page["content_type"].encode("latin-1"))
        return (DATA / "wpt" / page["test"]).read_bytes()


class _FollowSample(scrapy.Spider):
    name = "wpt_follow_sample"

    def __init__(self, requests=(), samples=None, received=None, **kwargs):
        super().__init__(**kwargs)
        self.to_request, self.samples, self.received = list(requests), samples, received
        self.responses: list = []

    async def start(self):  # Scrapy 2.13+
        for request in self.start_requests():
            yield request

    def start_requests(self):  # Scrapy < 2.13
        for url in self.to_request:
            yield scrapy.Request(url)

    def parse(self, response):
        for cp, _ in self.samples[response.url.split("/", 3)[3]]:
            yield follow(response, f"/echo?{chr(cp)}", self.echo, cb_kwargs={"key": (response.url, cp)},
                                  dont_filter=True)

    def echo(self, response, key):
        self.received[key] = response.text.split("?", 1)[1]


@pytest_twisted.inlineCallbacks
def test_sample_through_follow_in_a_crawl():
    """A sample of every href page's expectations, requested with ``response.follow()`` from
    the page crawled over HTTP (the middleware decides it): the server gets the browser's query
    (w3lib may spell a kept byte such as "\\\\" as %5C: compared with the page's normalizeStr)."""
    hrefs = [page for page in pages() if page["kind"] == "href"]
    by_path = {page["test"]: page for page in hrefs}
    samples = {page["test"]: page["cases"][:: max(len(page["cases"]) // 25, 1)] for page in hrefs}
    site = server.Site(_Pages(by_path))
    site.noisy = False
    port = reactor.listenTCP(0, site, interface="127.0.0.1")
    base = f"http://127.0.0.1:{port.getHost().port}/"
    received: dict = {}
    try:
        yield crawl([base + path for path in by_path], spider_cls=_FollowSample, samples=samples,
                    received=received)
    finally:
        yield port.stopListening()
    count = 0
    for path, cases in samples.items():
        normalize = _normalize_str(by_path[path].get("normalize"))
        for cp, expected in cases:
            got = received[(base + path, cp)]
            assert normalize(got) == normalize(expected), (path, hex(cp), got, expected)
            count += 1
    assert count == sum(len(cases) for cases in samples.values()) > 400
