"""Links and forms encode their queries with the page's output encoding, as browsers do: checked on
the bytes the server receives. Unrepresentable characters become ``&#N;`` before percent-encoding
(URL Standard "percent-encode after encoding": ``%26%23N%3B``). That holds for ``urljoin()``,
``follow()`` and the drop-in ``form_request``; Scrapy's own form paths encode with
``response.encoding`` (Python's codec name) and give exactly what Scrapy alone gives."""
from __future__ import annotations

import warnings

import pytest_twisted
import scrapy
from scrapy.http import FormRequest, HtmlResponse
from whatwg_crawl_helpers import CollectSpider, crawl

from scrapy_whatwg_encoding import whatwg_encoding
from scrapy_whatwg_encoding.scrapy.requests.forms import form_request
from scrapy_whatwg_encoding.scrapy.requests.links import follow, urljoin
from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name

# 東京 in Shift_JIS is 93 8C 8B 9E, in UTF-8 E6 9D B1 E4 BA AC; ☃ (U+2603 = 9731) is not in Shift_JIS.
SJIS_TOKYO = "%93%8C%8B%9E"
UTF8_TOKYO = "%E6%9D%B1%E4%BA%AC"
SNOWMAN_REF = "%26%239731%3B"

#: Scrapy's own form paths, built with the response's encoding.
SCRAPY_FORMS = {
    "formdata": lambda r: FormRequest(r.urljoin("/echo"), method="GET", formdata={"q": "東京"}, encoding=r.encoding),
    "formdata ☃": lambda r: FormRequest(r.urljoin("/echo"), method="GET", formdata={"q": "東京 ☃"},
                                        encoding=r.encoding),
    "from_response": lambda r: FormRequest.from_response(r),
    "post": lambda r: FormRequest.from_response(r, formdata={"q": "東京"}, method="POST"),
}


def built(build, response):
    """(request, (url, method, body, encoding)) or (None, the exception's type)."""
    try:
        with warnings.catch_warnings():  # from_response: deprecated in Scrapy 2.19, still widely used
            warnings.simplefilter("ignore")
            request = build(response)
    except Exception as exc:  # noqa: BLE001 — compared with Scrapy alone's
        return None, type(exc).__name__
    return request, (request.url, request.method, request.body, request.encoding)


class EchoSpider(CollectSpider):
    """For each page, sends a query the browser's way (follow, urljoin, form_request) to /echo and
    records what the server got; builds Scrapy's own form requests on the page and on the same
    page as Scrapy alone reads it, and sends those that build."""

    name = "echo"

    def __init__(self, built=None, **kwargs):
        super().__init__(**kwargs)
        self.built = built

    def parse(self, response):
        self.responses.append(response)
        page = response.url
        query = "/echo?q=東京&snow=☃"
        yield follow(response, query, self.echo, cb_kwargs={"how": ("follow", page)}, dont_filter=True)
        yield scrapy.Request(urljoin(response, query), self.echo, cb_kwargs={"how": ("urljoin", page)}, dont_filter=True)
        if not response.css("form"):
            return
        yield form_request(response, formdata={"q": "東京 ☃"}, callback=self.echo,
                           cb_kwargs={"how": ("form_request", page)}, dont_filter=True)
        yield form_request(response, formdata={"q": "東京 ☃"}, method="POST", callback=self.echo,
                           cb_kwargs={"how": ("form_request post", page)}, dont_filter=True)
        alone = HtmlResponse(page, body=response.body, headers=response.headers,
                             encoding=scrapy_codec_name(whatwg_encoding(response)))
        for how, build in SCRAPY_FORMS.items():
            request, outcome = built(build, response)
            self.built[(how, page)] = (outcome, built(build, alone)[1])
            if request is not None:
                yield request.replace(callback=self.echo, cb_kwargs={"how": (how, page)}, dont_filter=True)

    def echo(self, response, how):
        target, body = response.text.split("\n", 1)
        self.received[how] = (target.removeprefix("target: "), body.removeprefix("body: "))


@pytest_twisted.inlineCallbacks
def test_queries_and_forms_use_the_output_encoding(demo_server):
    received: dict = {}
    built: dict = {}
    pages = ["form/shift_jis-form.html", "bom/utf-16le-bom.html", "unlabeled/fr-windows-1252.html"]
    _, responses = yield crawl([demo_server.url(p) for p in pages], spider_cls=EchoSpider, received=received,
                               built=built)
    sjis, utf16, cp1252 = (demo_server.url(p) for p in pages)
    link = f"/echo?q={SJIS_TOKYO}&snow={SNOWMAN_REF}"
    assert received[("follow", sjis)][0] == link
    assert received[("urljoin", sjis)][0] == link
    assert received[("form_request", sjis)][0] == f"/echo?q={SJIS_TOKYO}+{SNOWMAN_REF}"
    assert received[("form_request post", sjis)][1] == f"q={SJIS_TOKYO}+{SNOWMAN_REF}"
    # UTF-16 pages: the output encoding is UTF-8.
    assert received[("follow", utf16)][0] == f"/echo?q={UTF8_TOKYO}&snow=%E2%98%83"
    assert received[("urljoin", utf16)][0] == f"/echo?q={UTF8_TOKYO}&snow=%E2%98%83"
    # windows-1252 has neither character: both become character references.
    assert received[("follow", cp1252)][0] == "/echo?q=%26%2326481%3B%26%2320140%3B&snow=" + SNOWMAN_REF
    assert received[("urljoin", cp1252)][0] == "/echo?q=%26%2326481%3B%26%2320140%3B&snow=" + SNOWMAN_REF
    assert {r.meta["whatwg_encoding"]["encoding"] for r in responses} == {"Shift_JIS", "UTF-16LE", "windows-1252"}

    # Scrapy's own form paths (the Shift_JIS form page): what Scrapy alone builds from the page
    # (cp932), and a UnicodeEncodeError for ☃ as with Scrapy alone; the server gets their bytes.
    assert set(built) == {(how, sjis) for how in SCRAPY_FORMS}
    assert all(mine == alone for mine, alone in built.values()), built
    assert built[("formdata ☃", sjis)][0] == "UnicodeEncodeError"
    assert received[("formdata", sjis)][0] == f"/echo?q={SJIS_TOKYO}"
    assert received[("from_response", sjis)][0] == f"/echo?q={SJIS_TOKYO}"
    assert received[("post", sjis)][1] == f"q={SJIS_TOKYO}"
    assert built[("post", sjis)][0][3] == "cp932"


def test_query_stretches_are_encoded_whole():
    """The URL parser runs the encoder over the whole query: in ISO-2022-JP, characters between two
    unrepresentable ones share one escape sequence (ESC $ B ... ESC ( B), and the error itself is
    "&#N;" percent-encoded as %26%23N%3B."""
    from scrapy_whatwg_encoding import get_encoding
    from scrapy_whatwg_encoding.scrapy.requests.url import encode_query

    url = encode_query("http://x/?q=日本€a#f", get_encoding("iso-2022-jp"))
    assert url == "http://x/?q=%1B$BF|K\\%1B(B%26%238364%3Ba#f"
    assert encode_query("http://x/?q=é€", get_encoding("iso-8859-1")) == "http://x/?q=%E9%80"
    assert encode_query("http://x/?q=€", get_encoding("utf-16le")) == "http://x/?q=%E2%82%AC"
