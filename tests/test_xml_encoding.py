"""XML documents: BOM, transport, the XML declaration (ASCII-compatible or UTF-16 form), UTF-8
(XML 1.0 Appendix F, RFC 7303)."""
from __future__ import annotations

from scrapy_whatwg_encoding import ENCODINGS, sniff
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
