"""sniff(): every acceptance example of issue 3, and the algorithm's steps in order."""
from __future__ import annotations

import pytest

from scrapy_whatwg_encoding import ENCODINGS, Decision, decode, sniff
from scrapy_whatwg_encoding.sniffing import Container, sniff_steps

P = b"<!DOCTYPE html><html><head>"
RUSSIAN = "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20


def check(decision, name, source=None, confidence=None):
    assert decision.encoding is ENCODINGS[name]
    if source is not None:
        assert decision.source == source
    if confidence is not None:
        assert decision.confidence == confidence


# --- Acceptance examples (issue 3) -----------------------------------------------------------

def test_bom_beats_transport():
    check(sniff(b"\xef\xbb\xbf" + P, content_type="text/html; charset=windows-1251"), "UTF-8", "bom", "certain")


@pytest.mark.parametrize("label, name", [
    ("iso-8859-1", "windows-1252"), ("us-ascii", "windows-1252"), ("tis-620", "windows-874"),
    ("iso-2022-kr", "replacement"), ("utf-16", "UTF-16LE"),
])
def test_transport_labels(label, name):
    check(sniff(P, content_type=f"text/html; charset={label}"), name, "transport", "certain")


def test_unknown_transport_label_is_ignored():
    d = sniff(P + b'<meta charset="koi8-r">', content_type="text/html; charset=bogus")
    check(d, "KOI8-R", "prescan", "certain")  # the parser step then finds the same meta


def test_first_charset_parameter_wins():
    check(sniff(P, content_type="text/html; charset=koi8-r; charset=windows-1251"), "KOI8-R", "transport")


def test_meta_utf16_and_x_user_defined():
    check(sniff(P + b'<meta charset="utf-16">', detector="off"), "UTF-8", "prescan")
    check(sniff(P + b'<meta charset="x-user-defined">', detector="off"), "windows-1252", "prescan")


def test_content_needs_http_equiv():
    content = b'content="text/html; charset=koi8-r"'
    check(sniff(P + b"<meta " + content + b">", detector="off"), "windows-1252", "default")
    check(sniff(P + b'<meta http-equiv="content-type" ' + content + b">"), "KOI8-R", "prescan")
    check(sniff(P + b"<meta " + content + b' http-equiv="content-type">'), "KOI8-R", "prescan")


def test_duplicated_attribute_first_wins():
    check(sniff(P + b'<meta charset="windows-1251" charset="koi8-r">'), "windows-1251", "prescan")


def test_meta_after_long_comment_found_by_parser():
    body = P + b"<!--" + b"x" * 1093 + b"-->" + b'<meta charset="koi8-r"></head><body>\xe0\xe1</body>'
    d = sniff(body, detector="off")
    check(d, "KOI8-R", "parser", "certain")
    assert d.label == "koi8-r"
    assert body[d.offset:d.offset + 5] == b"<meta"


def test_xml_declaration_in_html():
    d = sniff(b'<?xml version="1.0" encoding="windows-1251"?>' + P, detector="off")
    check(d, "windows-1251", "xml-declaration", "tentative")
    assert (d.label, d.offset) == ("windows-1251", 0)


def test_utf16le_xml_declaration_without_bom():
    check(sniff('<?xml version="1.0"?>'.encode("utf-16le")), "UTF-16LE", "xml-declaration")


def test_xml_document_defaults_to_utf8():
    body = '<?xml version="1.0"?><r>привет</r>'.encode("windows-1251")
    check(sniff(body, content_type="application/xml"), "UTF-8", "default")


def test_no_label_ascii_is_locale_default():
    check(sniff(P + b"<title>Hello</title>", locale="en"), "windows-1252", "default", "tentative")


def test_detector_utf8_and_windows_1251():
    check(sniff(P + RUSSIAN.encode("utf-8")), "UTF-8", "detector", "tentative")
    check(sniff(P + RUSSIAN.encode("windows-1251")), "windows-1251", "detector", "tentative")


# --- The steps in order ---------------------------------------------------------------------

def test_override_beats_transport_but_not_bom():
    check(sniff(P, content_type="text/html; charset=utf-8", override="koi8-r"), "KOI8-R", "override", "certain")
    check(sniff(b"\xff\xfe" + P, override="koi8-r"), "UTF-16LE", "bom")
    check(sniff(P, override="nonsense", content_type="text/html;charset=koi8-r"), "KOI8-R", "transport")
    check(sniff(P, override=ENCODINGS["GBK"]), "GBK", "override")


def test_transport_is_certain_and_skips_the_parser_step():
    d = sniff(P + b'<meta charset="koi8-r">', content_type="text/html; charset=utf-8")
    check(d, "UTF-8", "transport", "certain")


def test_transport_header_as_bytes_is_isomorphic():
    check(sniff(P, content_type=b"text/html; charset=\xff"), "windows-1252", "default")
    check(sniff(P, content_type=b"text/html; charset=KOI8-R"), "KOI8-R", "transport")


def test_parser_step_corrects_a_prescan_result():
    # The prescan reads the meta inside <title> (RCDATA); the tree builder does not.
    body = P + b'<title><meta charset="koi8-r"></title><meta charset="windows-1251">'
    d = sniff(body, detector="off")
    check(d, "windows-1251", "parser", "certain")
    assert body[d.offset:].startswith(b'<meta charset="windows-1251">')


def test_parser_step_decodes_character_references():
    body = P + b"<!--" + b"x" * 1100 + b'--><meta charset="&#x6b;oi8-r">'
    check(sniff(body, detector="off"), "KOI8-R", "parser")


def test_parser_step_same_encoding_makes_it_certain():
    d = sniff(P + b'<meta charset="koi8-r">', detector="off")
    check(d, "KOI8-R", "prescan", "certain")
    assert d.offset == len(P)


def test_parser_step_utf16_current_stays():
    body = '<?xml version="1.0"?><meta charset="koi8-r">'.encode("utf-16le")
    check(sniff(body), "UTF-16LE", "xml-declaration", "certain")


def test_parser_step_new_utf16_is_utf8_and_x_user_defined_is_1252():
    body = P + b"<!--" + b"x" * 1100 + b"-->"
    check(sniff(body + b'<meta charset="utf-16be">', detector="off"), "UTF-8", "parser")
    check(sniff(body + b'<meta charset="x-user-defined">', detector="off", default="koi8-r"),
          "windows-1252", "parser")
    # x-user-defined becomes windows-1252, the same as the default: certain, and the <meta>
    # declared it (source "parser", its label and offset).
    decision = sniff(body + b'<meta charset="x-user-defined">', detector="off")
    check(decision, "windows-1252", "parser", "certain")
    assert (decision.label, decision.offset) == ("x-user-defined", len(body))


def test_parser_limit():
    body = P + b"<!--" + b"x" * 3000 + b'--><meta charset="koi8-r">'
    check(sniff(body, detector="off", parser_limit=2000), "windows-1252", "default", "tentative")
    check(sniff(body, detector="off", parser_limit=4000), "KOI8-R", "parser")
    check(sniff(body, detector="off", parser_limit=0), "windows-1252", "default")


def test_parser_offset_is_in_bytes_for_multibyte_text():
    for name, text in [("UTF-8", "é€😀\ud800"), ("Shift_JIS", "日本語"), ("gb18030", "中文€"), ("Big5", "中文")]:
        encoding = ENCODINGS[name]
        body = P + encoding.encode("<!--" + text * 400 + "-->")
        d = sniff(body + b'<meta charset="koi8-r">', likely=name, detector="off")
        check(d, "KOI8-R", "parser")
        assert d.offset == len(body)
        # The parser step ran with the encoding named (step 7's), as the standard orders it.
        assert sniff_steps(body + b'<meta charset="koi8-r">', likely=name, detector="off")["chosen"].encoding is encoding
    # Errors in the text: U+FFFD from several bytes, and a lead byte before "<" (in a title: the
    # tree builder still in the head).
    body = P + b"<!--" + b"\xff\xe3\x81" * 500 + b"--><title>\xe3</title>"
    d = sniff(body + b'<meta charset="koi8-r">', likely="utf-8", detector="off")
    assert (d.source, d.offset) == ("parser", len(body))


def test_parser_offset_utf16():
    from scrapy_whatwg_encoding.sniffing.change import parser_meta

    head = ("<!--" + "é😀" * 400 + "-->").encode("utf-16le")
    body = '<?xml version="1.0"?>'.encode("utf-16le") + head
    meta = '<meta charset="koi8-r">'.encode("utf-16le")
    assert parser_meta(body + meta, ENCODINGS["UTF-16LE"]) == (ENCODINGS["KOI8-R"], "koi8-r", len(body))
    # Step 1: with UTF-16 current, the meta only makes the encoding certain.
    check(sniff(body + meta), "UTF-16LE", "xml-declaration", "certain")
    check(sniff(body), "UTF-16LE", "xml-declaration", "tentative")


def test_parser_offset_iso_2022_jp():
    jis = ENCODINGS["ISO-2022-JP"]
    body = P + b"<!--" + jis.encode("日本語" * 600) + b"--><meta charset=koi8-r>"
    d = sniff(body, likely="iso-2022-jp", detector="off")
    check(d, "KOI8-R", "parser")
    assert body[d.offset:].startswith(b"<meta")
    assert sniff_steps(body, likely="iso-2022-jp", detector="off")["chosen"].encoding is jis


def test_steps_7_to_9_in_the_standards_order():
    """Step 7's likely encoding is the one the parser step runs with: a late ``<meta>`` inside an
    ISO-2022-JP run is no ``<meta>`` there, and read as UTF-16 the bytes hold no ``<meta>``. (Past
    the prescan's 1024 bytes, within the parser step's first 1024 characters in UTF-8, where the
    ESC before it leaves the head.)"""
    jis = ENCODINGS["ISO-2022-JP"]
    inside = P + b"<!--" + "€".encode() * 400 + b"-->\x1b$B" + b'<meta charset="koi8-r">' + b"\x1b(B"
    assert jis.decode(inside).find("<meta") < 0  # the bytes of the tag are kanji in ISO-2022-JP
    check(sniff(inside, likely="iso-2022-jp"), "ISO-2022-JP", "likely", "tentative")
    check(sniff(inside), "KOI8-R", "parser", "certain")  # step 8-9's encoding reads the <meta>
    late = P + b"<p>" + b"x" * 1100 + b'</p><meta charset="koi8-r">'
    check(sniff(late, likely="utf-16le"), "UTF-16LE", "likely", "tentative")  # no "<meta" in that text


def test_container_same_origin():
    parent = Container("koi8-r", "https://example.com")
    check(sniff(P, url="https://example.com/frame", parent=parent), "KOI8-R", "container", "tentative")
    check(sniff(P, url="https://example.com:443/f", parent=("koi8-r", "https://example.com/")), "KOI8-R", "container")
    check(sniff(P, url="https://other.example/f", parent=parent, detector="off"), "windows-1252", "default")
    check(sniff(P, url="http://example.com/f", parent=parent, detector="off"), "windows-1252", "default")
    check(sniff(P, parent=parent, detector="off"), "windows-1252", "default")  # no URL: no origin
    utf16 = Container(ENCODINGS["UTF-16LE"], "https://example.com")
    check(sniff(P, url="https://example.com/", parent=utf16, detector="off"), "windows-1252", "default")


def test_prescan_beats_container_and_container_beats_likely():
    parent = Container("koi8-r", "https://example.com")
    check(sniff(P + b"<meta charset=gbk>", url="https://example.com/", parent=parent), "GBK", "prescan")
    check(sniff(P, url="https://example.com/", parent=parent, likely="gbk"), "KOI8-R", "container")


def test_likely_beats_detector():
    check(sniff(P + RUSSIAN.encode("windows-1251"), likely="koi8-r"), "KOI8-R", "likely", "tentative")


def test_detector_modes():
    body = P + RUSSIAN.encode("utf-8")
    check(sniff(body, detector="off"), "windows-1252", "default")
    assert sniff(body, detector="browser").encoding.name != "UTF-8"  # browsers never guess UTF-8
    check(sniff(P + RUSSIAN.encode("koi8-r"), detector="browser"), "KOI8-U", "detector")  # chardetng knows KOI8-U
    with pytest.raises(ValueError):
        sniff(body, detector="magic")


def test_default_label_and_locale():
    check(sniff(P, default="koi8-r"), "KOI8-R", "default")
    check(sniff(P, default="nonsense", locale="ru"), "windows-1251", "default")
    check(sniff(P, locale="ja-JP"), "Shift_JIS", "default")
    check(sniff(P, locale="zh-TW"), "Big5", "default")


def test_plain_text_has_no_prescan():
    d = sniff(b'<meta charset="koi8-r">' + RUSSIAN.encode("windows-1251"), content_type="text/plain")
    check(d, "windows-1251", "detector")
    check(sniff(b'<meta charset="koi8-r">', content_type="text/plain"), "windows-1252", "default")
    check(sniff(b"abc", content_type="text/plain; charset=koi8-r"), "KOI8-R", "transport")


def test_other_kinds():
    check(sniff(RUSSIAN.encode("windows-1251"), content_type="application/json"), "UTF-8", "default")
    check(sniff(b"{}", content_type="application/json; charset=koi8-r"), "KOI8-R", "transport")
    check(sniff(b"\xff\xfe{}", content_type="text/css"), "UTF-16LE", "bom")


def test_decision_shape():
    d = sniff(P + b'<meta charset="koi8-r">', detector="off")
    assert isinstance(d, Decision)
    assert d.as_dict() == {"encoding": "KOI8-R", "confidence": "certain", "source": "prescan",
                           "label": "koi8-r", "offset": len(P)}
    with pytest.raises(AttributeError):
        d.encoding = ENCODINGS["UTF-8"]
    assert decode(P, d.encoding) == (P.decode(), ENCODINGS["KOI8-R"])


def test_sniff_steps_reports_every_step():
    body = b'<?xml version="1.0" encoding="koi8-r"?>' + P + RUSSIAN.encode("windows-1251")
    report = sniff_steps(body, content_type="text/html; charset=bogus", locale="ru")
    names = [name for name, _ in report["steps"]]
    assert names == ["bom", "override", "transport", "prescan", "container", "likely", "detector", "default"]
    found = dict(report["steps"])
    assert found["bom"] is None and found["transport"] is None
    assert found["prescan"].encoding.name == "KOI8-R"
    assert found["detector"].encoding.name == "windows-1251"
    assert found["default"].encoding.name == "windows-1251"
    assert report["chosen"] == found["prescan"]
    assert report["decision"] == sniff(body, content_type="text/html; charset=bogus", locale="ru")


def test_meta_prefilter():
    from scrapy_whatwg_encoding.sniffing.change import find_meta_bytes, has_hint_bytes

    assert find_meta_bytes(b"<math><mEtA charset=x>", 0, 100) == 6
    assert find_meta_bytes(b"<Meta", 0, 5) == 0
    assert find_meta_bytes(b"<Meta", 0, 4) == -1
    assert find_meta_bytes(b"<m<M<me<MET a", 0, 100) == -1
    assert find_meta_bytes(b"<m<M<me<META", 1, 100) == 7
    assert has_hint_bytes(b"<meta Http-Equiv=x content='&#99;harset=koi8-r'>", 0, 48) and has_hint_bytes(b"CharSet", 0, 7)
    assert not has_hint_bytes(b"<meta http-equiv=X-UA-Compatible content=IE=edge>", 0, 49)
    assert not has_hint_bytes(b"<meta name=x charset", 0, 19)


def test_the_likely_callable_is_asked_once_in_either_profile():
    # A site's memory counts what it applies: the browsers profile's models reuse step 7's answer.
    calls = []

    def likely(body, decision):
        calls.append(decision.source)
        return "koi8-r"

    cyrillic = "<p>Привет, мир! Как дела?</p>".encode("windows-1251") * 4
    for profile in ("standard", "browsers"):
        calls.clear()
        assert sniff(cyrillic, content_type="text/html", likely=likely, profile=profile).source == "likely"
        assert calls == ["detector"], profile
