"""The middleware's one path (issue 29; issue 26, item 2), over responses built to hit and to miss
each gate and input: the response keeps its class and body, and either carries the decision —
``response.text`` the standard's decode with the decided encoding, ``response.encoding`` the name
Scrapy alone reports for it (or the name a handler or a middleware gave), the decision the sniffing
algorithm's for the same inputs — or is left exactly as Scrapy made it (the same ``encoding`` and
text as Scrapy alone), with no decision in its meta. Nothing raises inside."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scrapy.http import HtmlResponse, Request, Response, TextResponse, XmlResponse
from scrapy.utils.test import get_crawler

from scrapy_whatwg_encoding import WhatwgEncodingMiddleware, decode, get_encoding, sniff, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.handler import HandlerEncodingMiddleware
from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name, scrapy_inference

TEXT = "Съешь же ещё этих мягких булок — 日本語"
BODIES = [b"", b"<p>ascii</p>", TEXT.encode(), b"\xef\xbb\xbf" + TEXT.encode(), b"\xff\xfe<\x00p\x00",
          b"\xfe\xff\x00<", TEXT.encode()[:-1], TEXT[:30].encode("koi8-r"), b"\x00\x00\xfe\xff" + TEXT.encode(),
          b"\x1f\x8b\x08\x00", b"<meta charset=koi8-r>" + TEXT.encode(), b"<p>\xed\xa0\x80</p>",
          b'{"name": "caf\xc3\xa9"}']
CONTENT_TYPES = [None, "text/html; charset=utf-8", "text/html;charset=UTF8", "text/html; charset=unicode-1-1-utf-8",
                 "text/plain; charset=utf-8", "application/xml; charset=utf-8", "text/xml;charset=utf-8",
                 "application/json; charset=utf-8", "text/html; charset=koi8-r", "text/html; charset=utf-16",
                 "text/html", "application/x-unknown; charset=utf-8", "*/*; charset=utf-8",
                 "text/html; charset=\"utf-8\"", "text/html; charset=utf-8; charset=koi8-r"]
METAS = [{}, {"depth": 1}, {"dont_sniff_encoding": True}, {"whatwg_encoding_override": "koi8-r"},
         {"whatwg_encoding": {"encoding": "stale"}}]
CRAWLER = get_crawler(settings_dict={"ADDONS": {"scrapy_whatwg_encoding.Addon": 0}})
HANDLER = HandlerEncodingMiddleware.from_crawler(CRAWLER)
MIDDLEWARE = WhatwgEncodingMiddleware.from_crawler(CRAWLER)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cls=st.sampled_from([HtmlResponse, TextResponse, XmlResponse, Response]),
       content_types=st.lists(st.sampled_from(CONTENT_TYPES), max_size=2),
       coding=st.sampled_from([None, "gzip", "identity"]), body=st.sampled_from(BODIES),
       meta=st.sampled_from(METAS), encoding=st.sampled_from([None, "utf-8", "cp1251"]),
       replaced=st.booleans())
def test_decided_or_as_scrapy_made_it(cls, content_types, coding, body, meta, encoding, replaced):
    _check(cls, content_types, coding, body, meta, encoding, replaced)


@pytest.mark.parametrize(("cls", "content_type", "coding", "body", "meta", "encoding", "source"), [
    (HtmlResponse, "text/html", None, b"<meta charset=koi8-r>" + TEXT.encode(), {}, None, "prescan"),
    (HtmlResponse, "text/html; charset=koi8-r", None, TEXT.encode(), {}, None, "transport"),
    (TextResponse, None, None, b"\xef\xbb\xbf" + TEXT.encode(), {}, None, "bom"),
    (HtmlResponse, "text/html", None, TEXT.encode(), {"whatwg_encoding_override": "koi8-r"}, None, "override"),
    (HtmlResponse, "text/html", None, TEXT.encode(), {}, "utf-8", "handler"),
    (XmlResponse, "application/xml", None, b'<?xml version="1.0" encoding="koi8-r"?><a/>', {}, None,
     "xml-declaration"),
    (HtmlResponse, "text/html", None, TEXT[:30].encode("koi8-r"), {}, None, "detector"),
    (HtmlResponse, "text/html", "gzip", b"\x1f\x8b\x08\x00", {}, None, None),  # still compressed: skipped
    (HtmlResponse, "text/html", None, TEXT.encode(), {"dont_sniff_encoding": True}, None, None),
    (Response, None, None, b"\xff\xfe<\x00p\x00", {}, None, None),  # a binary class stays binary
])
def test_each_branch_of_the_one_path(cls, content_type, coding, body, meta, encoding, source):
    # The branches the property test may or may not reach, each once for certain.
    assert _check(cls, [content_type], coding, body, meta, encoding, False) == source


def _check(cls, content_types, coding, body, meta, encoding, replaced) -> str | None:
    """*encoding*: the download handler's (or, *replaced*, a copy a middleware made with
    ``replace(url=...)``, which copies it, or Scrapy's inference where there was none). Returns
    the decision's source, ``None`` when the response was left as Scrapy made it."""
    headers: dict = {}
    values = [value for value in content_types if value is not None]
    if values:
        headers["Content-Type"] = values
    if coding:
        headers["Content-Encoding"] = coding
    kwargs = {} if encoding is None or cls is Response else {"encoding": encoding}
    url = "http://example.com/a"
    alone = cls(url, headers=headers, body=body, **kwargs)
    if replaced:
        alone = alone.replace(url=url)  # (Scrapy's own copy, as the middleware above made)
    request = Request(url, meta=dict(meta))
    response = HANDLER.process_response(request, cls(url, headers=headers, body=body, **kwargs))
    if replaced:
        response = response.replace(url=url)
    errors = sum(MIDDLEWARE.report.errors.values())
    out = MIDDLEWARE.process_response(request, response)
    assert sum(MIDDLEWARE.report.errors.values()) == errors  # nothing raised inside
    assert type(out) is cls and out.body == body and out.headers == alone.headers
    decision = request.meta.get("whatwg_encoding")
    if decision is None:
        assert whatwg_encoding(out, request) is None
        if isinstance(out, TextResponse):
            assert (out.encoding, out.text) == (alone.encoding, alone.text)
        return None
    decided = get_encoding(decision["encoding"])
    assert whatwg_encoding(out, request) is decided and out.text == decode(body, decided)[0]
    if encoding is not None:  # given to a text class by its handler (or copied from it): its text stays
        assert decision["source"] == "handler" and out.encoding == encoding and out.text == alone.text
        return "handler"
    # Python's codec name for the decided encoding; Scrapy's own inference where Python has none.
    assert out.encoding == (scrapy_codec_name(decided) or scrapy_inference(alone))
    content_type = ", ".join(values) if values else None
    expected = sniff(body, content_type=content_type, url=url, override=meta.get("whatwg_encoding_override"))
    assert decision == expected.as_dict()
    return decision["source"]
