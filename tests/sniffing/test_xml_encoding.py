"""XML documents: BOM, transport, the XML declaration (ASCII-compatible or UTF-16 form), UTF-8
(XML 1.0 Appendix F, RFC 7303)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS, get_encoding, prescan, sniff
from scrapy_whatwg_encoding.sniffing.xml_encoding import get_xml_encoding, xml_declared_encoding

XML = "application/xml"


def test_declaration():
    d = sniff(b'<?xml version="1.0" encoding="windows-1251"?><r/>', content_type=XML)
    assert (d.encoding.name, d.source, d.confidence, d.label, d.offset) == (
        "windows-1251", "xml-declaration", "certain", "windows-1251", 0)


def test_utf16_forms_without_bom():
    for codec, name in (("utf-16le", "UTF-16LE"), ("utf-16be", "UTF-16BE")):
        body = '<?xml version="1.0" encoding="UTF-16"?><r/>'.encode(codec)
        d = sniff(body, content_type="text/xml")
        assert (d.encoding.name, d.source, d.label) == (name, "xml-declaration", "UTF-16")
        assert xml_declared_encoding('<?xml version="1.0"?>'.encode(codec)) == (ENCODINGS[name], None)


def test_order_bom_transport_declaration_default():
    body = b'<?xml version="1.0" encoding="koi8-r"?><r/>'
    assert sniff(b"\xef\xbb\xbf" + body, content_type=XML + "; charset=gbk").source == "bom"
    assert sniff(body, content_type=XML + "; charset=gbk").encoding.name == "GBK"
    assert sniff(body, content_type=XML + "; charset=bogus").encoding.name == "KOI8-R"
    d = sniff(b"<r>\xe9</r>", content_type="application/atom+xml")
    assert (d.encoding.name, d.source) == ("UTF-8", "default")


def test_no_prescan_or_detector_for_xml():
    body = b'<?xml version="1.0"?><meta charset="koi8-r"/>' + "привет".encode("windows-1251") * 50
    assert sniff(body, content_type=XML).encoding.name == "UTF-8"


def test_utf16_label_in_ascii_declaration_is_utf8_and_unknown_is_ignored():
    assert sniff(b'<?xml version="1.0" encoding="utf-16"?><r/>', content_type=XML).encoding.name == "UTF-8"
    d = sniff(b'<?xml version="1.0" encoding="bogus"?><r/>', content_type=XML)
    assert (d.encoding.name, d.source) == ("UTF-8", "default")


def test_get_an_xml_encoding_steps():
    assert get_xml_encoding(b"<?xml encoding='koi8-r'?>") == (ENCODINGS["KOI8-R"], "koi8-r")
    assert get_xml_encoding(b"<?xml encoding=\t\n'koi8-r'?>") == (ENCODINGS["KOI8-R"], "koi8-r")
    assert get_xml_encoding(b"<?xml encoding='koi8-r\"?>") is None  # no matching quote
    assert get_xml_encoding(b"<?xml encoding=koi8-r?>") is None  # no quote
    assert get_xml_encoding(b"<?xml encoding='koi8-r'") is None  # no ">"
    assert get_xml_encoding(b"<?xm") is None


# --- "Get an XML encoding" reads the declaration to its first ">", however far -------------

XMLDECL = Path(__file__).resolve().parents[1] / "data" / "wpt" / "html" / "syntax" / "xmldecl" / "support"


def spec_get_xml_encoding(data: bytes):
    """HTML §13.2.3.2 "get an XML encoding", step by step over the whole byte stream."""
    if not data.startswith(b"<?xml"):
        return None
    end = data.find(b">")
    if end < 0:
        return None
    position = data.find(b"encoding", 0, end)
    if position < 0:
        return None
    position += len(b"encoding")
    while position < len(data) and data[position] <= 0x20:
        position += 1
    if position >= len(data) or data[position] != ord("="):
        return None
    position += 1
    while position < len(data) and data[position] <= 0x20:
        position += 1
    if position >= len(data) or data[position] not in (0x22, 0x27):
        return None
    quote = data[position]
    position += 1
    close = data.find(bytes([quote]), position)
    if close < 0:
        return None
    potential = data[position:close]
    if any(byte <= 0x20 for byte in potential):
        return None
    encoding = get_encoding(potential.decode("latin-1"))
    if encoding is not None and encoding.name in ("UTF-16BE", "UTF-16LE"):
        encoding = ENCODINGS["UTF-8"]
    return encoding


_XML_PIECES = [b"<?xml", b" ", b"\n", b"\x00", b"=", b"'", b'"', b">", b"<", b"?", b"encoding",
               b"ENCODING", b"encodin", b"koi8-r", b"utf-16", b"windows-1251", b"bogus", b"x", b"\xff"]


@pytest.mark.slow  # hypothesis against the spec's steps
@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_XML_PIECES), max_size=30).map(b"".join), st.integers(0, 2000))
def test_get_xml_encoding_equals_spec_steps(data, pad):
    data = b"<?xml" + b" " * pad + data if pad % 2 else data
    found = get_xml_encoding(data)
    assert (found[0] if found else None) is spec_get_xml_encoding(data)


def test_wpt_kilobyte_plus_one_pages():
    # WPT html/syntax/xmldecl/support/kilobyte-plus-one-{before,after}[-trail].htm: the ">" is
    # byte 1025 and the page is windows-1251 in Firefox and Chromium (xmldecl-1.html/-2.html).
    pages = sorted(XMLDECL.glob("kilobyte-plus-one-*.htm"))
    assert len(pages) == 4
    for page in pages:
        body = page.read_bytes()
        assert body.find(b">") >= 1024, page.name
        assert prescan(body).name == "windows-1251", page.name
        d = sniff(body, content_type="text/html", detector="browser")
        assert (d.encoding.name, d.source, d.offset) == ("windows-1251", "xml-declaration", 0), page.name


def test_far_declarations_html_and_xml():
    for gap in (1025, 200_000, 5_000_000):
        body = b'<?xml version="1.0"' + b" " * gap + b'encoding="koi8-r"?><p>\xc1'
        assert sniff(body, detector="browser").encoding.name == "KOI8-R"
        assert sniff(body, content_type=XML).encoding.name == "KOI8-R"
        # <?xml must start the body; a <meta> inside the first 1024 bytes still wins.
        assert sniff(b" " + body, detector="off").source == "default"
        meta = b'<?xml encoding="koi8-r"?><meta charset="gbk">' + b" " * gap
        assert sniff(meta, detector="off").encoding.name == "GBK"
    # UTF-16 forms: the encoding is the form's; the label is read to the first ">".
    body = ('<?xml version="1.0"' + " " * 70_000 + 'encoding="UTF-16"?><r/>').encode("utf-16le")
    assert xml_declared_encoding(body) == (ENCODINGS["UTF-16LE"], "UTF-16")
    assert xml_declared_encoding(body[:-20]) == (ENCODINGS["UTF-16LE"], None)
