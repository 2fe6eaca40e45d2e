"""Links and forms encode their queries with the page's output encoding, as browsers do: checked on
the bytes the server receives. Unrepresentable characters become ``&#N;`` before percent-encoding
(URL Standard "percent-encode after encoding": ``%26%23N%3B``)."""
from __future__ import annotations

import warnings

import pytest_twisted
import scrapy
from scrapy.http import FormRequest
from whatwg_crawl_helpers import CollectSpider, crawl

# 東京 in Shift_JIS is 93 8C 8B 9E, in UTF-8 E6 9D B1 E4 BA AC; ☃ (U+2603 = 9731) is not in Shift_JIS.
SJIS_TOKYO = "%93%8C%8B%9E"
UTF8_TOKYO = "%E6%9D%B1%E4%BA%AC"
SNOWMAN_REF = "%26%239731%3B"


class EchoSpider(CollectSpider):
    """For each page, sends the same query five ways to /echo and records what the server got."""

    name = "echo"

    def parse(self, response):
        self.responses.append(response)
        page = response.url
        query = "/echo?q=東京&snow=☃"
        yield response.follow(query, self.echo, cb_kwargs={"how": ("follow", page)}, dont_filter=True)
        yield scrapy.Request(response.urljoin(query), self.echo, cb_kwargs={"how": ("urljoin", page)}, dont_filter=True)
        yield FormRequest(response.urljoin("/echo"), method="GET", formdata={"q": "東京 ☃"},
                          encoding=response.encoding, callback=self.echo, cb_kwargs={"how": ("formdata", page)}, dont_filter=True)
        if response.css("form"):
            with warnings.catch_warnings():  # deprecated in Scrapy 2.19, still widely used
                warnings.simplefilter("ignore")
                yield FormRequest.from_response(response, callback=self.echo,
                                                cb_kwargs={"how": ("from_response", page)}, dont_filter=True)
                yield FormRequest.from_response(response, formdata={"q": "東京 ☃"}, method="POST",
                                                callback=self.echo, cb_kwargs={"how": ("post", page)},
                                                dont_filter=True)

    def echo(self, response, how):
        target, body = response.text.split("\n", 1)
        self.received[how] = (target.removeprefix("target: "), body.removeprefix("body: "))


@pytest_twisted.inlineCallbacks
def test_queries_and_forms_use_the_output_encoding(demo_server):
    received: dict = {}
    pages = ["form/shift_jis-form.html", "bom/utf-16le-bom.html", "unlabeled/fr-windows-1252.html"]
    _, responses = yield crawl([demo_server.url(p) for p in pages], spider_cls=EchoSpider, received=received)
    sjis, utf16, cp1252 = (demo_server.url(p) for p in pages)
    link = f"/echo?q={SJIS_TOKYO}&snow={SNOWMAN_REF}"
    assert received[("follow", sjis)][0] == link
    assert received[("urljoin", sjis)][0] == link
    assert received[("formdata", sjis)][0] == f"/echo?q={SJIS_TOKYO}+{SNOWMAN_REF}"
    assert received[("from_response", sjis)][0] == f"/echo?q={SJIS_TOKYO}"
    assert received[("post", sjis)][1] == f"q={SJIS_TOKYO}+{SNOWMAN_REF}"
    # UTF-16 pages: the output encoding is UTF-8.
    assert received[("follow", utf16)][0] == f"/echo?q={UTF8_TOKYO}&snow=%E2%98%83"
    assert received[("urljoin", utf16)][0] == f"/echo?q={UTF8_TOKYO}&snow=%E2%98%83"
    assert received[("formdata", utf16)][0] == f"/echo?q={UTF8_TOKYO}+%E2%98%83"
    # windows-1252 has neither character: both become character references.
    assert received[("follow", cp1252)][0] == "/echo?q=%26%2326481%3B%26%2320140%3B&snow=" + SNOWMAN_REF
    assert received[("formdata", cp1252)][0] == "/echo?q=%26%2326481%3B%26%2320140%3B+" + SNOWMAN_REF
    assert {r.meta["whatwg_encoding"]["encoding"] for r in responses} == {"Shift_JIS", "UTF-16LE", "windows-1252"}


def test_query_stretches_are_encoded_whole():
    """The URL parser runs the encoder over the whole query: in ISO-2022-JP, characters between two
    unrepresentable ones share one escape sequence (ESC $ B ... ESC ( B), and the error itself is
    "&#N;" percent-encoded as %26%23N%3B."""
    from scrapy_whatwg_encoding import get_encoding
    from scrapy_whatwg_encoding.scrapy.url import encode_query

    url = encode_query("http://x/?q=日本€a#f", get_encoding("iso-2022-jp"))
    assert url == "http://x/?q=%1B$BF|K\\%1B(B%26%238364%3Ba#f"
    assert encode_query("http://x/?q=é€", get_encoding("iso-8859-1")) == "http://x/?q=%E9%80"
    assert encode_query("http://x/?q=€", get_encoding("utf-16le")) == "http://x/?q=%E2%82%AC"
