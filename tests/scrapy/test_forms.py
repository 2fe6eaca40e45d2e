"""``form_request`` (scrapy_whatwg_encoding/scrapy/forms.py) on pages the middleware decided,
without a crawl (tests/scrapy/test_links_forms.py sends such forms in one): the entry list HTML
builds ("constructing the entry list", the submitter, "convert to a list of name-value pairs"),
encoded with the form's encoding ("picking an encoding for the form") and checked byte by byte
against Python's codecs where they agree with the Encoding Standard (``&#N;`` for a character the
encoding lacks, URL Standard "percent-encode after encoding"); the same request as form2request
builds on a UTF-8 page; ``from_response``'s arguments; and no warning (Scrapy 2.19 deprecates
``FormRequest.from_response``, which ``form_request`` no longer calls)."""
from __future__ import annotations

import functools
from urllib.parse import unquote_to_bytes, urlsplit

import pytest
import scrapy
from form2request import form2request
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.http import FormRequest, HtmlResponse

from scrapy_whatwg_encoding import WhatwgEncodingMiddleware, get_encoding, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.requests.forms import find_form, form_request
from scrapy_whatwg_encoding.scrapy.requests.portable import PORTABLE_ENCODING

pytestmark = pytest.mark.filterwarnings("error")  # a deprecation warning fails the test

# WHATWG name -> Python's codec, which encodes every character used here as the standard does.
ENCODINGS = {"UTF-8": "utf-8", "Shift_JIS": "shift_jis", "windows-1251": "cp1251", "EUC-KR": "euc_kr",
             "ISO-2022-JP": "iso2022_jp", "gb18030": "gb18030"}
URL = "http://example.com/dir/page.html"
FORM = ('<form id=f action="/act?a=東京" method={method}>'
        '<input name=text value="日本ж☃"><input type=checkbox name=off value=1>'
        '<input type=checkbox name=on value="ж" checked><input type=radio name=r value=1 checked>'
        '<select name=sel><option>x<option selected>東京</select><select name=empty></select>'
        '<textarea name=area>東京\r\n☃\r</textarea><input type=reset name=reset value=r>'
        '<input type=submit name=go value="送信"><button name=valueless formaction="/other" formmethod=post>b</button>'
        '<button type=button name=plain value=p>p</button></form>')
#: HTML's entry list for FORM without its submitter (line breaks become CRLF).
ENTRIES = [("text", "日本ж☃"), ("on", "ж"), ("r", "1"), ("sel", "東京"), ("area", "東京\r\n☃\r\n")]


def decided(html: str, label: str) -> scrapy.http.TextResponse:
    """*html* encoded with *label*'s encoder (a character it lacks becomes ``&#N;``, which the
    parser reads back), decided by the middleware from its ``<meta charset>``."""
    body = get_encoding(label).encode(f'<!DOCTYPE html><meta charset="{label}">{html}')
    request = scrapy.Request(URL)
    return WhatwgEncodingMiddleware().process_response(
        request, HtmlResponse(URL, body=body, headers={"Content-Type": "text/html"}, request=request))


def urlencoded(pairs, codec: str) -> list[tuple[bytes, bytes]]:
    """The bytes of each (name, value): Python's codec, ``&#N;`` for what it cannot encode."""
    return [(name.encode(codec, "xmlcharrefreplace"), value.encode(codec, "xmlcharrefreplace"))
            for name, value in pairs]


def decoded(query: str | bytes) -> list[tuple[bytes, bytes]]:
    """An application/x-www-form-urlencoded string's pairs, as bytes."""
    text = query.decode("ascii") if isinstance(query, bytes) else query
    return [tuple(unquote_to_bytes(part.replace("+", " ")) for part in pair.split("=", 1))  # type: ignore[misc]
            for pair in text.split("&") if pair]


@pytest.mark.parametrize("label", ENCODINGS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_entry_list_in_the_forms_encoding(label, method):
    codec = ENCODINGS[label]
    response = decided(FORM.format(method=method), label)
    action_query = b"a=" + "東京".encode(codec, "xmlcharrefreplace")  # the URL parser's: the document's encoding
    submit = [("go", "送信")]
    cases = {  # keyword arguments -> (method, URL without query, pairs)
        "first submitter": ({}, method.upper(), "/act", ENTRIES + submit),
        "dont_click": ({"dont_click": True}, method.upper(), "/act", ENTRIES),
        "clickdata nr": ({"clickdata": {"nr": 1}}, "POST", "/other", [*ENTRIES, ("valueless", "")]),
        "clickdata attribute": ({"clickdata": {"value": "送信"}}, method.upper(), "/act", ENTRIES + submit),
        "formdata": ({"formdata": {"text": "☃ & = + %", "on": None, "go": "x", "new": "ж"}}, method.upper(),
                     "/act", [("r", "1"), ("sel", "東京"), ("area", "東京\r\n☃\r\n"), ("text", "☃ & = + %"),
                              ("go", "x"), ("new", "ж")]),
        "method": ({"method": "PUT"}, "GET", "/act", ENTRIES + submit),  # (as from_response: GET)
    }
    for name, (kwargs, expected_method, path, pairs) in cases.items():
        request = form_request(response, formid="f", **kwargs)
        assert type(request) is FormRequest and request.method == expected_method, name
        assert request.encoding == (PORTABLE_ENCODING if label != "UTF-8" else "utf-8"), name
        url = urlsplit(request.url)
        assert url.scheme + "://" + url.netloc + url.path == "http://example.com" + path, name
        if expected_method == "GET":
            assert decoded(url.query) == urlencoded(pairs, codec) and request.body == b"", name
        else:
            assert request.headers["Content-Type"] == b"application/x-www-form-urlencoded", name
            assert decoded(request.body) == urlencoded(pairs, codec), name
            assert unquote_to_bytes(url.query) == (action_query if path == "/act" else b""), name


def test_same_request_as_form2request_on_a_utf8_page():
    """Where the form's encoding is UTF-8 (form2request's only one) and no line break, no
    value-less submitter: form2request's own request."""
    for method in ("get", "post"):
        html = FORM.format(method=method).replace("東京\r\n☃\r", "東京")
        response = decided(html, "UTF-8")
        for kwargs, click in (({}, None), ({"dont_click": True}, False)):
            mine = form_request(response, formid="f", **kwargs)
            theirs = form2request(response.css("form"), click=click).to_scrapy(callback=None)
            assert (mine.method, mine.url, mine.body) == (theirs.method, theirs.url, theirs.body)


def test_accept_charset():
    """The first label "get an encoding" recognises, else the document's; then the output encoding."""
    html = ('<form id=a accept-charset="bogus windows-1251 utf-8" action=/a><input name=q value="Мир☃"></form>'
            '<form id=b accept-charset="bogus" action=/b><input name=q value="Мир☃"></form>'
            '<form id=c accept-charset="UTF-16LE" action=/c><input name=q value="Мир☃"></form>')
    response = decided(html, "Shift_JIS")
    for form, codec in (("a", "cp1251"), ("b", "shift_jis"), ("c", "utf-8")):
        request = form_request(response, formid=form)
        assert decoded(urlsplit(request.url).query) == urlencoded([("q", "Мир☃")], codec), form
    # An explicit encoding (a Python codec) wins, and raises as Scrapy does for what it lacks.
    assert decoded(urlsplit(form_request(response, formid="a", encoding="koi8-r",
                                         formdata={"q": "Мир"}).url).query) == urlencoded([("q", "Мир")], "koi8-r")
    with pytest.raises(UnicodeEncodeError):
        form_request(response, formid="a", encoding="koi8-r")


def test_from_response_arguments():
    html = ('<form name=one action=/1><input name=q value=1></form>'
            '<form id=two action=/2><input name=q value=2><input type=submit name=s value=a>'
            '<input type=submit name=s value=b></form>')
    response = decided(html, "windows-1251")
    assert form_request(response).url == "http://example.com/1?q=1"
    assert form_request(response, formname="one").url == "http://example.com/1?q=1"
    assert form_request(response, formnumber=1).url == "http://example.com/2?q=2&s=a"
    assert form_request(response, formxpath="//input[@value='b']").url == "http://example.com/2?q=2&s=a"
    assert form_request(response, None, None, 0, None, None, False, None, "#two").url == "http://example.com/2?q=2&s=a"  # (from_response's positions)
    assert form_request(response, formcss="#two", clickdata={"value": "b"}).url == "http://example.com/2?q=2&s=b"
    assert form_request(response, formid="two", url="/x?y=ж").url == "http://example.com/x?q=2&s=a"
    post = form_request(response, formid="two", method="post", url="/x?y=ж", callback=print,
                        headers={"Content-Type": "text/x-mine"}, meta={"m": 1})
    assert (post.url, post.body, post.callback, post.meta, post.headers["Content-Type"]) == (
        "http://example.com/x?y=%E6", b"q=2&s=a", print, {"m": 1}, b"text/x-mine")
    assert find_form(response, formid="two").attrib == {"id": "two", "action": "/2"}
    for bad in ({"formnumber": 2}, {"formxpath": "//p"}, {"formid": "two", "clickdata": {"nr": 2}},
                {"formid": "two", "clickdata": {"name": "s"}}, {"formid": "two", "clickdata": {"name": "t"}}):
        with pytest.raises(ValueError):
            form_request(response, **bad)
    with pytest.raises(ValueError):
        form_request(decided("<p>no form</p>", "UTF-8"))


@functools.cache
def empty_form(label: str) -> scrapy.http.TextResponse:
    return decided('<form action="/a" method=post></form>', label)


@pytest.mark.slow  # 100 examples
@settings(deadline=None)  # (the first example of an encoding parses its page)
@given(st.lists(st.tuples(st.text(), st.text()), max_size=4),
       st.sampled_from(["UTF-8", "Shift_JIS", "windows-1251", "ISO-2022-JP", "gb18030", "Big5", "x-user-defined"]))
def test_any_formdata_is_encoded_with_the_standard_encoder(formdata, label):
    """Whatever the names and values (``&``, ``=``, ``+``, ``%``, line breaks, any code point),
    each one comes out as the Encoding Standard's encoder writes it (CRLF line breaks), in order."""
    response = empty_form(label)
    request = form_request(response, formdata=formdata)
    encoding = whatwg_encoding(response).output_encoding  # (a <meta> x-user-defined: windows-1252)

    def expected(text: str) -> bytes:
        return encoding.encode(text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n"))

    assert decoded(request.body) == [(expected(name), expected(value)) for name, value in formdata]
