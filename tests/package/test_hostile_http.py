"""Malformed HTTP (issue 6, item 2): broken ``Content-Type`` headers give a clear decision, and where
the header is ignored a debug log line says why.

The transport layer encoding is the ``charset`` parameter of the header parsed with MIME Sniffing's
"parse a MIME type" (https://mimesniff.spec.whatwg.org/#parse-a-mime-type), then "get an encoding"
(Encoding Standard §4.2); a failure in either is ignored and the algorithm goes on (HTML
§13.2.3.2 step 4). The middleware is called directly on responses built here (a crawl cannot carry a
64 KiB header line: Twisted's HTTP client drops it, see test_concurrency.py).
"""
from __future__ import annotations

import importlib
import logging

import pytest
from scrapy.http import HtmlResponse, Request, Response, TextResponse
from scrapy.http.headers import Headers

from scrapy_whatwg_encoding import WhatwgEncodingMiddleware, decode, get_encoding, sniff

BODY = b"<html><head><meta charset=koi8-r></head><body>\xc1\xc2\xd7</body></html>"
SNIFF_LOGGER = "scrapy_whatwg_encoding.sniffing.run"

# (Content-Type value as bytes on the wire, expected (encoding, source), why it is ignored or None)
CASES = [
    (b"text/html; charset=\xff\xfe", ("KOI8-R", "prescan"), "not a label"),
    (b"text/html; charset=k\xc3\xb6i8-r", ("KOI8-R", "prescan"), "not a label"),   # UTF-8 "ö"
    (b"text/html; charset=\xe2\x80\x8bgbk", ("KOI8-R", "prescan"), "not a label"),  # ZWSP is not ASCII whitespace
    (b"text/html; charset=", ("KOI8-R", "prescan"), "empty or malformed"),
    (b'text/html; charset=""', ("KOI8-R", "prescan"), "not a label"),
    (b"text/html; charset", ("KOI8-R", "prescan"), "empty or malformed"),
    (b"text/html; charset gbk", ("KOI8-R", "prescan"), "empty or malformed"),
    (b'text/html; charset="gbk', ("GBK", "transport"), None),   # quoted string runs to the end
    (b"text/html; charset=gbk\"", ("KOI8-R", "prescan"), "not a label"),
    (b"text/html; charset='gbk'", ("KOI8-R", "prescan"), "not a label"),   # single quotes are not quotes
    (b'text/html; charset="g\\bk"', ("GBK", "transport"), None),   # backslash escapes the next character
    (b"text/html; charset=gbk; charset=big5", ("GBK", "transport"), None),  # the first one wins
    (b"text/html; CHARSET=\t big5 \t", ("Big5", "transport"), None),
    (b"text/html;;;charset=big5", ("Big5", "transport"), None),
    (b"text/html; charset=big5, text/html", ("Big5", "transport"), None),  # Fetch splits at the comma
    (b"text/html; charset=" + b"x" * 65536, ("KOI8-R", "prescan"), "not a label"),
    (b"text/html; " + b"a=b; " * 13100 + b"charset=big5", ("Big5", "transport"), None),   # 64 KiB header
    (b"text/html; charset=utf-16", ("UTF-16LE", "transport"), None),
    (b"text/html; charset=ISO-2022-KR", ("replacement", "transport"), None),
]


def _response(content_type, body=BODY, cls=HtmlResponse, headers=None):
    headers = Headers(headers or {b"Content-Type": content_type})
    return cls("https://example.com/page", body=body, headers=headers)


def _process(response, **meta):
    request = Request(response.url, meta=meta)
    out = WhatwgEncodingMiddleware().process_response(request, response)
    return out, request.meta.get("whatwg_encoding")


@pytest.mark.parametrize(("raw", "expected", "why"), CASES, ids=lambda v: repr(v)[:40] if isinstance(v, bytes) else None)
def test_malformed_content_type(raw, expected, why, caplog):
    caplog.set_level(logging.DEBUG, logger="scrapy_whatwg_encoding")
    out, decision = _process(_response(raw))
    assert (decision["encoding"], decision["source"]) == expected
    ignored = [r.getMessage() for r in caplog.records if r.name == SNIFF_LOGGER and r.levelno == logging.DEBUG]
    if why is None:
        assert ignored == []
    else:
        assert len(ignored) == 1 and why in ignored[0], ignored
        assert len(ignored[0]) < 400  # a 64 KiB header is not copied into the log
    # The same decision from sniff() alone, given the header as str (isomorphic decode) or bytes.
    assert sniff(BODY, content_type=raw).as_dict() == decision
    assert sniff(BODY, content_type=raw.decode("latin-1")).as_dict() == decision
    encoding = get_encoding(decision["encoding"])
    assert out.text == decode(BODY, encoding)[0] and out.body == BODY


def test_unparsable_or_unknown_type_is_sniffed_as_html_and_logged(caplog):
    """A value that is not a MIME type, or ``*/*`` (which Fetch's "extract a MIME type" skips), gives
    no transport encoding; the body is sniffed as HTML (DESIGN: missing / unknown type)."""
    caplog.set_level(logging.DEBUG, logger="scrapy_whatwg_encoding")
    cases = [(b"\xff\xfe/html; charset=gbk", "does not parse"), (b"text; charset=gbk", "does not parse"),
             (b"/; charset=gbk", "does not parse"), (b"*/*; charset=gbk", "*/*")]
    for raw, why in cases:
        caplog.clear()
        _, decision = _process(_response(raw, cls=TextResponse))
        assert (decision["encoding"], decision["source"]) == ("KOI8-R", "prescan"), raw
        logged = [r.getMessage() for r in caplog.records if r.name == SNIFF_LOGGER]
        assert len(logged) == 1 and why in logged[0], (raw, logged)
        assert sniff(BODY, content_type=raw).as_dict() == decision
    # unknown/unknown and application/unknown are MIME types: their charset is the transport encoding.
    _, decision = _process(_response(b"unknown/unknown; charset=gbk", cls=TextResponse))
    assert (decision["encoding"], decision["source"]) == ("GBK", "transport")


def test_sniff_logs_why_a_header_is_ignored(caplog):
    caplog.set_level(logging.DEBUG, logger="scrapy_whatwg_encoding")
    sniff(b"x", content_type="no slash; charset=gbk")
    sniff(b"x", content_type="text/html")  # no charset: nothing ignored, nothing logged
    messages = [r.getMessage() for r in caplog.records if r.name == SNIFF_LOGGER]
    assert len(messages) == 1 and "does not parse as a MIME type" in messages[0]


def test_several_content_type_headers_as_fetch_extracts_them():
    """Several headers are combined and go through Fetch's "extract a MIME type": the last MIME type
    wins, but one without a charset keeps the charset of an earlier one of the same essence."""
    cases = [
        ([b"text/html; charset=gbk", b"text/html; charset=big5"], ("Big5", "transport")),
        ([b"text/html; charset=\xff", b"text/html; charset=euc-kr"], ("EUC-KR", "transport")),
        ([b"text/html; charset=gbk", b"text/html"], ("GBK", "transport")),
        ([b"text/html; charset=gbk, text/html"], ("GBK", "transport")),
        ([b"text/plain; charset=gbk", b"text/html"], ("KOI8-R", "prescan")),  # new essence: no charset
        ([b"text/html; charset=gbk", b"*/*"], ("GBK", "transport")),  # */* is skipped
        ([b'text/html; charset="gbk, x"', b"text/html"], ("KOI8-R", "prescan")),  # quoted comma
    ]
    for values, expected in cases:
        _, decision = _process(_response(None, body=b"<meta charset=koi8-r>", headers={b"Content-Type": values}))
        assert (decision["encoding"], decision["source"]) == expected, values
        assert sniff(b"<meta charset=koi8-r>", content_type=b", ".join(values)).encoding.name == expected[0]


def test_hostile_bodies_through_the_middleware():
    """Empty, NUL-only, binary and huge-declaration bodies: a decision and the exact text, never an error."""
    bodies = [b"", b"\x00" * 70000, bytes(range(256)) * 64, b"<meta charset=" + b"a" * 70000 + b">",
              b"<!--" * 20000, b"\xef\xbb\xbf", b"\xff\xfe\x00", b"<?xml encoding='" + b"\x80" * 5000]
    for body in bodies:
        for cls, content_type in ((HtmlResponse, b"text/html"), (TextResponse, b"text/plain"),
                                  (Response, b"application/octet-stream"), (Response, None)):
            response = cls("https://example.com/", body=body,
                           headers={b"Content-Type": content_type} if content_type else {})
            out, decision = _process(response)
            assert out.body == body
            if decision is None:  # not a document this layer decodes: untouched
                assert out is response
                continue
            assert out.text == decode(body, get_encoding(decision["encoding"]))[0]


def test_long_content_type_values_are_not_cached():
    """A hostile 64 KiB header is worked out again each time rather than kept: every cache keyed by
    a Content-Type value, or by its charset label, keeps short values only."""
    from scrapy_whatwg_encoding.scrapy import kind, scrapy_default
    from scrapy_whatwg_encoding.sniffing import content_type

    sniffing = importlib.import_module("scrapy_whatwg_encoding.sniffing.run")
    by_value = [content_type.content_type_facts, sniffing.transport_decision, kind.content_kind,
                scrapy_default._header_encoding]
    for long, caches in [(b"text/html; charset=utf-8; " + b"a=b; " * 13100, by_value),
                         (b"text/html; charset=" + b"x" * 65536, [sniffing._get_label])]:
        for cache in [*by_value, sniffing._get_label]:
            cache.cache_clear()
        _process(_response(long))
        assert [cache.cache_info().currsize for cache in caches] == [0] * len(caches)
        _process(_response(b"text/html; charset=utf-8"))  # a short one is kept
        assert all(cache.cache_info().currsize > 0 for cache in caches)
