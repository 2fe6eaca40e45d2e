"""Content-Type: MIME Sniffing "parse a MIME type", the transport charset, the document kind."""
from __future__ import annotations

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.sniffing.content_type import document_kind, parse_mime_type, transport_charset


def test_parse_basic():
    assert parse_mime_type("Text/HTML; Charset=UTF-8") == ("text/html", {"charset": "UTF-8"})
    assert parse_mime_type("  text/html  ") == ("text/html", {})
    assert parse_mime_type("text/html ;charset=utf-8") == ("text/html", {"charset": "utf-8"})


def test_parse_failures():
    for value in ["", "text", "text/", "/html", "te xt/html", "text/ht ml", "text/html\x00"]:
        assert parse_mime_type(value) is None, value


def test_quoted_strings():
    assert transport_charset('text/html; charset="koi8-r"') == "koi8-r"
    assert transport_charset('text/html; charset="koi\\8-r"') == "koi8-r"
    assert transport_charset('text/html; charset="koi8-r";x=y') == "koi8-r"
    assert transport_charset('text/html; charset="koi8-r"junk; a=b') == "koi8-r"
    assert transport_charset('text/html; charset="koi8-r') == "koi8-r"  # unterminated: to the end
    assert transport_charset('text/html; charset="a;b"') == "a;b"
    assert transport_charset('text/html; charset=\\"x') == '\\"x'


def test_first_charset_parameter_wins():
    assert transport_charset("text/html; charset=koi8-r; charset=windows-1251") == "koi8-r"
    assert transport_charset("text/html; CHARSET=koi8-r; charset=windows-1251") == "koi8-r"


def test_empty_and_invalid_parameters_are_skipped():
    assert transport_charset("text/html; charset=; charset=koi8-r") == "koi8-r"
    assert transport_charset("text/html; charset; charset=koi8-r") == "koi8-r"
    assert transport_charset("text/html; char set=x; charset=koi8-r") == "koi8-r"
    assert transport_charset('text/html; charset=""; charset=koi8-r') == ""  # quoted empty is kept
    assert transport_charset("text/html; charset=koi8-r\u0100; charset=utf-8") == "utf-8"
    assert transport_charset("text/html; charset=  koi8-r  ") == "  koi8-r"  # "get an encoding" strips it
    assert transport_charset("text/html;charset=koi8-r  ") == "koi8-r"


def test_bytes_are_isomorphic_decoded():
    assert transport_charset(b"text/html; charset=koi8-r") == "koi8-r"
    assert transport_charset(b"text/html; charset=\xe9") == "\xe9"
    assert transport_charset(None) is None
    assert transport_charset(b"garbage") is None


def test_document_kind():
    assert document_kind(None) == "html"
    assert document_kind("text/html; charset=utf-8") == "html"
    assert document_kind("nonsense") == "html"
    assert document_kind("application/unknown; charset=koi8-r") == "html"
    assert document_kind("*/*") == "html"
    assert document_kind("application/xml") == "xml"
    assert document_kind("text/xml") == "xml"
    assert document_kind("application/rss+xml") == "xml"
    assert document_kind("image/svg+xml; charset=utf-8") == "xml"
    assert document_kind("text/plain") == "text"
    assert document_kind("application/json") == "other"


@pytest.mark.slow  # hypothesis
@given(st.one_of(st.text(), st.binary()))
def test_never_raises(value):
    parsed = parse_mime_type(value)
    assert parsed is None or "/" in parsed[0]
    transport_charset(value)
    assert document_kind(value) in ("html", "xml", "text", "other")


def test_split_header_value_fetch():
    """Fetch "get, decode, and split": commas inside quoted strings do not split."""
    from scrapy_whatwg_encoding.sniffing.content_type import split_header_value

    assert split_header_value("") == [""]
    assert split_header_value("a, b ,c") == ["a", "b", "c"]
    assert split_header_value('text/html;charset="a,b", x/y') == ['text/html;charset="a,b"', "x/y"]
    assert split_header_value('a="\\",", b') == ['a="\\","', "b"]
    assert split_header_value('a="unterminated, b') == ['a="unterminated, b']


def test_extract_a_mime_type_fetch_examples():
    """The examples of Fetch's "extract a MIME type" (combined header values)."""
    from scrapy_whatwg_encoding.sniffing.content_type import extract_mime_type

    assert extract_mime_type("text/plain;charset=gbk, text/html") == ("text/html", {})
    assert extract_mime_type("text/html;charset=gbk;a=b, text/html;x=y") == (
        "text/html", {"x": "y", "charset": "gbk"})
    assert extract_mime_type("text/html;charset=gbk;a=b, x/x, text/html;x=y") == ("text/html", {"x": "y"})
    assert extract_mime_type("text/html, */*") == ("text/html", {})
    assert extract_mime_type("text/html, ") == ("text/html", {})
    assert extract_mime_type("*/*") is None
    assert extract_mime_type("") is None
    assert transport_charset("text/html;charset=gbk, text/html") == "gbk"
    assert document_kind("text/html;charset=gbk, application/json") == "other"


@pytest.mark.parametrize(("content_type", "why"), [
    ("text/html; charset=bogus", "its charset 'bogus' is not a label of the Encoding Standard"),
    ("nonsense; charset=utf-8", "it does not parse as a MIME type"),
    ("*/*; charset=utf-8", "*/* is no MIME type (Fetch's extract a MIME type skips it)"),
    ("text/html; charset=", "its charset parameter is empty or malformed"),
    ("text/html", None),  # no charset: nothing ignored, nothing logged
    ("text/html; charset=utf-8", None),  # taken
])
def test_an_ignored_charset_is_logged_at_debug_with_why(caplog, content_type, why):
    caplog.set_level(logging.DEBUG, logger="scrapy_whatwg_encoding")
    sniff(b"<p>x</p>", content_type=content_type)
    lines = [r.getMessage() for r in caplog.records if "ignored for the encoding" in r.getMessage()]
    assert lines == ([] if why is None else [f"Content-Type {content_type!r} ignored for the encoding: {why}"])
