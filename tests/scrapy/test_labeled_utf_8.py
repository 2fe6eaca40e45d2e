"""The middleware's one step for the most common page (``_labeled_utf_8``: a UTF-8 label Scrapy
reads alike, a valid UTF-8 body) and its shortcut for plain responses (of Scrapy's own class, with
no encoding given and no request meta key of ours) give exactly what its general path gives: the
same class, ``encoding``, text, ``meta["whatwg_encoding"]`` and counters, on responses built to hit
and to miss each of their conditions; and the one step is taken on the pages it is for."""
from __future__ import annotations

from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scrapy.http import HtmlResponse, Request, Response, TextResponse, XmlResponse
from scrapy.utils.test import get_crawler

from scrapy_whatwg_encoding import WhatwgEncodingMiddleware
from scrapy_whatwg_encoding.scrapy import middleware as middleware_module
from scrapy_whatwg_encoding.scrapy.handler import HandlerEncodingMiddleware

TEXT = "Съешь же ещё этих мягких булок — 日本語"
BODIES = [b"", b"<p>ascii</p>", TEXT.encode(), b"\xef\xbb\xbf" + TEXT.encode(), b"\xff\xfe<\x00p\x00",
          b"\xfe\xff\x00<", TEXT.encode()[:-1], TEXT[:30].encode("koi8-r"), b"\x00\x00\xfe\xff" + TEXT.encode(),
          b"\x1f\x8b\x08\x00", b"<meta charset=koi8-r>" + TEXT.encode(), b"<p>\xed\xa0\x80</p>"]
CONTENT_TYPES = [None, "text/html; charset=utf-8", "text/html;charset=UTF8", "text/html; charset=unicode-1-1-utf-8",
                 "text/plain; charset=utf-8", "application/xml; charset=utf-8", "text/xml;charset=utf-8",
                 "application/json; charset=utf-8", "text/html; charset=koi8-r", "text/html; charset=utf-16",
                 "text/html", "application/x-unknown; charset=utf-8", "*/*; charset=utf-8",
                 "text/html; charset=\"utf-8\"", "text/html; charset=utf-8; charset=koi8-r"]
METAS = [{}, {"depth": 1}, {"dont_sniff_encoding": True}, {"whatwg_encoding_override": "koi8-r"},
         {"whatwg_encoding_locale": "ja"}, {"whatwg_encoding_profile": "browsers"},
         {"whatwg_encoding": {"encoding": "stale"}}]


def _middlewares(lane: bool):
    crawler = get_crawler(settings_dict={"ADDONS": {"scrapy_whatwg_encoding.Addon": 0}})
    middleware = WhatwgEncodingMiddleware.from_crawler(crawler)
    middleware._lane = lane and middleware._lane
    return crawler, HandlerEncodingMiddleware.from_crawler(crawler), middleware


ON, OFF = _middlewares(True), _middlewares(False)


def _run(middlewares, cls, headers, body, meta, encoding):
    crawler, handler, middleware = middlewares
    kwargs = {} if encoding is None or cls is Response else {"encoding": encoding}
    response = cls("http://example.com/a", headers=headers, body=body, **kwargs)
    request = Request("http://example.com/a", meta=dict(meta))
    response = handler.process_response(request, response)
    if middlewares is OFF:  # the general path for every response: none is taken for plain
        with mock.patch.object(middleware_module, "_UNDECIDED_CLASSES", frozenset()):
            out = middleware.process_response(request, response)
    else:
        out = middleware.process_response(request, response)
    text = out.text if isinstance(out, TextResponse) else None
    middleware.report.flush()
    return (type(out), getattr(out, "encoding", None), text, request.meta.get("whatwg_encoding"),
            out.body, {k: v for k, v in crawler.stats.get_stats().items() if k.startswith("whatwg_encoding/")})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cls=st.sampled_from([HtmlResponse, TextResponse, XmlResponse, Response]),
       content_types=st.lists(st.sampled_from(CONTENT_TYPES), max_size=2),
       coding=st.sampled_from([None, "gzip", "identity"]), body=st.sampled_from(BODIES),
       meta=st.sampled_from(METAS), encoding=st.sampled_from([None, "utf-8", "cp1251"]))
def test_one_step_is_the_general_path(cls, content_types, coding, body, meta, encoding):
    headers = {}
    values = [value for value in content_types if value is not None]
    if values:
        headers["Content-Type"] = values
    if coding:
        headers["Content-Encoding"] = coding
    for middlewares in (ON, OFF):  # the stats are cumulative: start both from the same totals (the log
        # counts are left out: each crawler's log counter counts both middlewares' lines)
        middlewares[0].stats.clear_stats()
    assert _run(ON, cls, headers, body, meta, encoding) == _run(OFF, cls, headers, body, meta, encoding)


def test_taken_on_the_pages_it_is_for():
    _, handler, middleware = ON
    response = handler.process_response(Request("http://example.com/"), HtmlResponse(
        "http://example.com/", headers={"Content-Type": "text/html; charset=utf-8"}, body=TEXT.encode()))
    request = Request("http://example.com/")
    out = middleware._labeled_utf_8(request, response, response.headers.getlist("Content-Type"))
    assert out is response and out.text == TEXT and out.encoding == "utf-8"
    assert request.meta["whatwg_encoding"]["source"] == "transport"
    for body, content_type in [(TEXT[:30].encode("koi8-r"), "text/html; charset=utf-8"),  # not valid UTF-8
                               (b"\xef\xbb\xbf" + TEXT.encode(), "text/html; charset=utf-8"),  # a BOM decides
                               (TEXT.encode(), "text/html; charset=koi8-r"),  # another label
                               (TEXT.encode(), "application/x-unknown; charset=utf-8")]:  # kind from the response
        response = handler.process_response(Request("http://example.com/"), HtmlResponse(
            "http://example.com/", headers={"Content-Type": content_type}, body=body))
        values = response.headers.getlist("Content-Type")
        assert middleware._labeled_utf_8(Request("http://example.com/"), response, values) is None, (body[:4], content_type)
