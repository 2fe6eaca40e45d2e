"""Security regressions (issue 6, item 4), from the Encoding Standard's "Security background" and the
replacement encoding (§14.1), checked at every layer: the decoders, ``sniff`` and the middleware.

- Labels of ISO-2022-KR, ISO-2022-CN, HZ-GB-2312 (and their aliases) map to ``replacement``: a
  non-empty body decodes to exactly one U+FFFD, never through Python's codec of the same name
  (those codecs decode the escape sequences and can turn ASCII bytes into other characters).
- An ASCII byte is never masked: Shift_JIS ``82 22`` decodes to U+FFFD U+0022 (the 2011 JSON
  attack), and in general, a lead byte followed by a byte below 0x40 never takes that byte.
- A ``<meta>`` inside ``<script>`` (or another raw-text / RCDATA element, or a comment) is not a
  ``<meta>`` for the tree builder, so the parser step (HTML §13.2.3.4) never acts on it.
"""
from __future__ import annotations

import codecs

import html5lib
import pytest
from quick_sample import quick_sample
from reference import index_code_point
from scrapy.http import HtmlResponse, Request, TextResponse

from scrapy_whatwg_encoding import ENCODINGS, WhatwgEncodingMiddleware, decode, get_encoding, sniff, whatwg_encoding
from scrapy_whatwg_encoding.sniffing.change import parser_meta

# Every label the standard maps to replacement (Encoding Standard §4.2 table), and payloads that
# Python's ISO-2022-KR / ISO-2022-CN / HZ codecs would decode to text.
REPLACEMENT_LABELS = ["csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr", "replacement"]
PAYLOADS = {
    "iso2022_kr": b"\x1b$)C\x0e\x21\x21\x0f<script>alert(1)</script>",
    "hz": b"~{<:Ky2;S{#,NpJ)l6HK!#~}<script>alert(1)</script>",
    "iso2022_jp_2": b"\x1b$A\x3c\x3a\x1b(B<b>",
}
SHIFT_JIS_JSON = b'{"name":"\x82", "admin":true, "x":"\x82"}'


def test_replacement_labels_are_exactly_these():
    from scrapy_whatwg_encoding.encoding.tables.labels import LABELS

    assert sorted(label for label, name in LABELS.items() if name == "replacement") == REPLACEMENT_LABELS


@pytest.mark.parametrize("label", REPLACEMENT_LABELS + ["ISO-2022-KR", " HZ-GB-2312\t", "CSISO2022KR", "ISO-2022-CN"])
def test_replacement_labels_decode_to_one_replacement_character(label):
    encoding = get_encoding(label)
    assert encoding is ENCODINGS["replacement"]
    for payload in PAYLOADS.values():
        for data in (payload, payload * 100, b"\x00", b"plain ASCII"):
            assert encoding.decode(data) == "\ufffd"
            assert data.decode(encoding.codec_name) == "\ufffd"  # what Scrapy's TextResponse will call
            assert decode(data, encoding) == ("\ufffd", encoding)
    assert encoding.decode(b"") == ""
    assert encoding.output_encoding is ENCODINGS["UTF-8"]  # forms and URLs encode as UTF-8 (§4.3)
    # Python's codec of that name is never what the label resolves to.
    codec = codecs.lookup(encoding.codec_name)
    for python_name in ("iso2022_kr", "hz", "iso2022_jp_2", "euc_kr", "gb2312"):
        assert codec is not codecs.lookup(python_name)


def test_python_codecs_of_those_names_would_decode_the_payloads():
    """Why the test above matters: Python's codecs turn these bytes into text (guards the payloads)."""
    for python_name, payload in PAYLOADS.items():
        text = payload.decode(python_name, "replace")
        assert text != "\ufffd" and "<" in text


@pytest.mark.parametrize("where", ["transport", "prescan", "xml"])
def test_replacement_through_sniff_and_the_middleware(where):
    """A page's label of the replacement encoding (header, <meta>, XML declaration) makes it one
    U+FFFD. (A request's override naming it cannot work: the middleware ignores it, see below.)"""
    payload = PAYLOADS["hz"]
    content_type, body = "text/html", payload
    if where == "transport":
        content_type = "text/html; charset=HZ-GB-2312"
    elif where == "prescan":
        body = b"<meta charset=iso-2022-kr>" + PAYLOADS["iso2022_kr"]
    else:
        content_type, body = "application/xml", b'<?xml version="1.0" encoding="iso-2022-cn"?>' + payload
    response = HtmlResponse("https://example.com/", body=body, headers={"Content-Type": content_type})
    request = Request(response.url)
    out = WhatwgEncodingMiddleware().process_response(request, response)
    assert request.meta["whatwg_encoding"]["encoding"] == "replacement"
    assert out.text == "\ufffd"
    assert whatwg_encoding(out, request) is ENCODINGS["replacement"]
    # No Python codec decodes as replacement: ``encoding`` is what Scrapy alone infers (for code
    # that decodes the body itself, as without the add-on); the text and selectors are the standard's.
    alone = HtmlResponse(response.url, body=body, headers={"Content-Type": content_type}).encoding
    assert codecs.lookup(out.encoding).name == codecs.lookup(alone).name  # (spelled as lxml reads it)
    assert out.body == body
    assert out.css("script").getall() == []  # nothing of the payload reaches the selectors
    # Scrapy alone, told the same label, would have used Python's codec and seen the markup.
    if where == "transport":
        alone = TextResponse(response.url, body=body, headers={"Content-Type": content_type})
        assert "<script>" in alone.text


@pytest.mark.parametrize("label", REPLACEMENT_LABELS)
def test_request_override_naming_the_replacement_encoding_is_ignored(label, caplog):
    """Issue 21, item 7: sniff() takes any label as the user override, as the standard's step 2
    does; the middleware ignores a request's override naming the replacement encoding, with a
    WARNING (no browser offers it as a user override: it would only blank the page)."""
    body = b"<p>caf\xe9</p>"
    assert sniff(body, override=label).encoding.name == "replacement"
    response = HtmlResponse("https://example.com/", body=body, headers={"Content-Type": "text/html"})
    request = Request(response.url, meta={"whatwg_encoding_override": label})
    out = WhatwgEncodingMiddleware().process_response(request, response)
    assert request.meta["whatwg_encoding"] == sniff(body, url=response.url).as_dict()
    assert out.text == "<p>café</p>"
    assert [r.levelname for r in caplog.records] == ["WARNING"] and label in caplog.records[0].getMessage()


def test_shift_jis_82_22_keeps_the_quote():
    shift_jis = get_encoding("shift_jis")
    assert shift_jis.decode(b"\x82\x22") == "\ufffd\x22"
    assert shift_jis.decode(SHIFT_JIS_JSON) == '{"name":"\ufffd", "admin":true, "x":"\ufffd"}'
    # The same through the middleware: the JSON structure survives.
    response = TextResponse("https://example.com/api", body=SHIFT_JIS_JSON,
                            headers={"Content-Type": "text/plain; charset=Shift_JIS"})
    request = Request(response.url)
    out = WhatwgEncodingMiddleware().process_response(request, response)
    assert request.meta["whatwg_encoding"]["encoding"] == "Shift_JIS"
    assert out.text.count('"') == SHIFT_JIS_JSON.count(b'"')
    assert out.text == '{"name":"\ufffd", "admin":true, "x":"\ufffd"}'


# Encodings with multi-byte sequences where an ASCII byte can follow a lead byte.
ASCII_SAFE = [name for name in ENCODINGS if name not in ("UTF-16BE", "UTF-16LE", "replacement", "ISO-2022-JP")]
# Prefixes a decoder can be left in the middle of: every single byte, and gb18030's 2- and 3-byte
# four-byte-sequence beginnings.
PREFIXES = [bytes([b]) for b in range(0x80, 0x100)] + [b"\x81\x30", b"\x81\x30\x81", b"\xfe\x39\xfe"]


@pytest.mark.parametrize("name", quick_sample(ASCII_SAFE, {"UTF-8", "windows-1252", "Shift_JIS", "gb18030"}))
def test_no_delimiter_is_ever_masked(name):
    """For every byte d below 0x40 (``"``, ``'``, ``<``, ``>``, ``&``, ``/``, NUL, newlines, ...) and
    every unfinished prefix p: decode(p + d) is the same text for every d, followed by d itself (the
    error for p never takes d); for a one-byte p that text is decode(p)."""
    encoding = ENCODINGS[name]
    for prefix in PREFIXES:
        stem = encoding.decode(prefix + b"\x00")[:-1]
        if len(prefix) == 1:
            assert stem == encoding.decode(prefix), (name, prefix)
        for d in range(0x40):
            if 0x30 <= d <= 0x39 and name in ("gb18030", "GBK"):
                continue  # ASCII digits are legitimate bytes of gb18030 four-byte sequences
            assert encoding.decode(prefix + bytes([d])) == stem + chr(d), (name, prefix, d)


def test_iso_2022_jp_escape_recovery():
    """ISO-2022-JP is stateful, which is why it is left out above: in its two-byte state ASCII bytes
    are lead and trail bytes, and the trailing byte state's "otherwise" consumes the byte (spec
    §12.2.1). Still, an invalid escape sequence never takes the bytes after ESC (they are restored)."""
    iso = ENCODINGS["ISO-2022-JP"]
    assert iso.decode(b'\x1b"<') == '\ufffd"<'
    assert iso.decode(b'\x1b$"') == '\ufffd$"'
    assert iso.decode(b'\x1b(J\x1b"<') == '\ufffd"<'
    assert iso.decode(b"\x1b$B\x30\n") == "\ufffd"  # trailing byte state, "otherwise": consumed
    # '"' is a trail byte in JIS X 0208 state: pointer (0x30 - 0x21) * 94 + 0x22 - 0x21 of index jis0208.
    assert iso.decode(b'\x1b$B\x30"') == chr(index_code_point("index-jis0208.txt", 15 * 94 + 1))


RAW_TEXT_META = [
    "<script>document.write('<meta charset=koi8-r>')</script>",
    "<script><!--<script></script><meta charset=koi8-r></script>--></script>",  # double-escaped
    "<script>var s = '</scr' + 'ipt><meta charset=koi8-r>';</script>",
    "<style>/* <meta charset=koi8-r> */</style>",
    "<title><meta charset=koi8-r></title>",
    "<textarea><meta charset=koi8-r></textarea>",
    "<noscript><meta charset=koi8-r></noscript>",  # scripting enabled: raw text
    "<xmp><meta charset=koi8-r></xmp>",
    "<iframe><meta charset=koi8-r></iframe>",
    "<noembed><meta charset=koi8-r></noembed>",
    "<noframes><meta charset=koi8-r></noframes>",
    "<!-- <meta charset=koi8-r> -->",
    "<plaintext><meta charset=koi8-r>",
]
PADDING = "<!DOCTYPE html><html><head>" + " " * 1100  # past the prescan's 1024 bytes


def _html5lib_meta_count(html: str) -> int:
    document = html5lib.HTMLParser(namespaceHTMLElements=False).parse(html, scripting=True)
    return len(document.findall(".//meta"))


@pytest.mark.parametrize("snippet", RAW_TEXT_META)
def test_meta_in_raw_text_never_changes_the_encoding(snippet):
    body = (PADDING + snippet + "<p>x</p>").encode("ascii")
    assert _html5lib_meta_count(body.decode("ascii")) == 0  # html5lib agrees: no meta element
    assert parser_meta(body, ENCODINGS["windows-1252"]) is None
    for detector in ("off", "full"):
        decision = sniff(body, content_type="text/html", detector=detector)
        assert decision.source != "parser" and decision.encoding.name != "KOI8-R"
    response = HtmlResponse("https://example.com/", body=body, headers={"Content-Type": "text/html"})
    request = Request(response.url)
    WhatwgEncodingMiddleware().process_response(request, response)
    assert request.meta["whatwg_encoding"]["encoding"] == "windows-1252"


def test_control_the_same_meta_outside_raw_text_does_change_it():
    """The control for the test above: the same bytes with the meta outside are acted on."""
    body = (PADDING + "<meta charset=koi8-r><p>x</p>").encode("ascii")
    assert _html5lib_meta_count(body.decode("ascii")) == 1
    decision = sniff(body, content_type="text/html", detector="off")
    assert (decision.encoding.name, decision.source, decision.confidence) == ("KOI8-R", "parser", "certain")
