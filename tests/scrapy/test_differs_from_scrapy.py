"""One meaning of "differs from Scrapy alone" (issue 19): the crawl's cheap judgement
(``scrapy_default.changed``, behind the stats, the summary and the report) is exactly "Scrapy's
``response.text`` is not our text", checked against Scrapy's own ``TextResponse`` on every single
byte of every encoding and on the real pages of the corpus, each served with its true charset and
with charset labels Scrapy reads differently; and ``explain`` says the same of a mislabeled page."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.http import HtmlResponse
from w3lib.encoding import html_body_declared_encoding

from scrapy_whatwg_encoding import ENCODINGS, decode, sniff
from scrapy_whatwg_encoding.scrapy.scrapy_default import (
    _SAME_WHERE_VALID,
    _UNKNOWN,
    _may_declare,
    changed,
    scrapy_encoding,
    w3lib_declared,
)
from scrapy_whatwg_encoding.sniffing.decision import Decision

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "corpus"
# Labels whose Python codec is not the standard's decoder for the same encoding.
LABELS = {"windows-1252": ["iso-8859-1", "windows-1252", "us-ascii"], "Shift_JIS": ["shift_jis", "cp932"],
          "gb18030": ["gb2312", "gbk", "gb18030"], "Big5": ["big5", "big5hkscs"], "EUC-KR": ["euc-kr"],
          "EUC-JP": ["euc-jp"], "ISO-8859-8-I": ["iso-8859-8-i", "iso-8859-8"], "windows-874": ["tis-620"]}


def scrapys_text(body: bytes, content_type: str) -> str:
    return HtmlResponse("http://example.com/", body=body, headers={"Content-Type": content_type}).text


def judged(body: bytes, content_type: str, encoding) -> bool | None:
    return changed(scrapy_encoding(content_type, body, True), encoding, body)


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_every_single_byte_and_label(name):
    encoding = ENCODINGS[name]
    for label in [name, *LABELS.get(name, [])]:
        content_type = f"text/html; charset={label}"
        for byte in range(256):
            body = b"<p>" + bytes([byte]) + b"</p>"
            verdict = judged(body, content_type, encoding)
            if verdict is not None:  # None: Scrapy alone would guess (a label Python lacks), not compared
                assert verdict == (scrapys_text(body, content_type) != decode(body, encoding)[0]), (label, byte)


def test_corpus_pages_under_their_labels():
    manifest = json.loads((CORPUS / "manifest.json").read_text("utf-8"))
    compared = differ = 0
    for entry in manifest:
        if entry.get("encoding") is None:
            continue
        body = (CORPUS / entry["path"]).read_bytes()
        for label in [entry["encoding"], *LABELS.get(entry["encoding"], [])]:
            content_type = f"text/html; charset={label}"
            encoding = sniff(body, content_type=content_type).encoding  # as the crawl decides (a BOM wins)
            verdict = judged(body, content_type, encoding)
            if verdict is None:  # Scrapy alone would guess: not compared
                continue
            assert verdict == (scrapys_text(body, content_type) != decode(body, encoding)[0]), (entry["path"], label)
            compared += 1
            differ += verdict
    assert compared > 250 and 0 < differ < compared


def test_mislabeled_page_differs_in_the_crawl_judgement_and_in_explain(tmp_path):
    """A UTF-8 page under charset=iso-8859-1 whose "Á" is C3 81: both decode it as windows-1252, but
    Python's cp1252 has no 0x81 (U+FFFD) where the standard's has U+0081: the texts differ."""
    body = "<p>Árvíztűrő tükörfúrógép</p>".encode()
    content_type = "text/html; charset=iso-8859-1"
    assert judged(body, content_type, ENCODINGS["windows-1252"]) is True
    page = tmp_path / "page.html"
    page.write_bytes(body)
    done = subprocess.run([sys.executable, "-m", "scrapy_whatwg_encoding", "explain", str(page), "--json",
                           "--content-type", content_type], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["scrapy"]["same_text"] is False


_MULTI_BYTE = ["Shift_JIS", "gb18030", "Big5", "EUC-KR", "EUC-JP"]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_MULTI_BYTE), st.lists(st.one_of(st.binary(min_size=1, max_size=3),
                                                          st.sampled_from([b"\xa1\xa4", b"\xa2\x41", b"\x8f\xa2\xb7",
                                                                           b"\x81\x40", b"\xfe\xfe", b"<p>"])),
                                                max_size=30).map(b"".join))
def test_multi_byte_bodies_under_their_labels(name, body):
    # The multi-byte path that trusts a clean C-codec decode (no second decode) still says exactly
    # whether Scrapy's text differs, on bodies with and without errors and tokens the codecs disagree on.
    encoding = ENCODINGS[name]
    for label in [name, *LABELS.get(name, [])]:
        content_type = f"text/html; charset={label}"
        verdict = judged(body, content_type, encoding)
        if verdict is not None:
            assert verdict == (scrapys_text(body, content_type) != decode(body, encoding)[0]), label


# Pieces of declarations w3lib reads (any case, Unicode whitespace of ISO-8859-1 after "<"), and
# near misses, placed around its 4096-byte window.
_DECLARATION_PIECES = st.sampled_from([
    "<meta", "<META", "<MeTa", "< meta", "<\x85meta", "<\xa0Meta", "<\x1cmeta", "<\x0bmeta", "<\x0cmeta", "<me", "<",
    " charset=koi8-r", " CharSet='utf-8'", " CHARSET = big5", ' content="text/html; charset=shift_jis"',
    " http-equiv=content-type", "<?xml", "< ?xml", "<?XML ", "<\n?xml", ' encoding="koi8-r"', " Encoding=euc-jp",
    "?>", ">", "/", " ", "<!--", "-->", "<body>", "\xe9", "charset", "encoding", "x",
])


@settings(max_examples=1500, deadline=None)
@given(st.integers(0, 4100), st.lists(_DECLARATION_PIECES, max_size=12).map("".join))
def test_declaration_shortcut_is_w3libs_answer(padding, markup):
    # scrapy_encoding asks w3lib only where a declaration may start; there it finds none elsewhere.
    body = b"x" + b" " * padding + markup.encode("latin-1")
    declared = html_body_declared_encoding(body)
    assert _may_declare(body) or declared is None
    inferred = "cp1252" if body.isascii() else "utf-8" if _is_utf_8(body) else None
    assert scrapy_encoding("text/html", body, True) == (declared or inferred)


# Declarations whole, the ones w3lib_declared reads and near misses, and what may come before them.
_WHOLE_PIECES = st.sampled_from([
    '<meta charset="utf-8">', "<meta charset='koi8-r'/>", "<META CHARSET=big5 >", "<meta charset=utf-8/>",
    '<meta\ncharset="x-bogus">', '<meta charset="windows-1251" />', "<meta charset=shift_jis>", "<meta charset=>",
    '<?xml version="1.0" encoding="shift_jis"?>', "<?xml version='1.1' encoding='euc-jp'?>",
    '<?XML version="1.0" encoding="x-unknown"?>', '<?xml version="1.0" encoding="koi8-r" standalone="yes"?>',
    "<body>", "<BODY x>", "<!--", "-->", "<!-->", "<!--x-->", "<?xml-stylesheet href='a'?>", "<?xml\x85",
    "<!-- <meta charset=big5> -->", "<meta name=x>", "< meta", "<\x85meta", "<\x1cbody", "<html>", "<head>",
    " ", "\n", "x", "<", ">", "/", '"', "'", "\xe9", " charset=gbk", " encoding='big5'",
])


@settings(max_examples=1500, deadline=None)
@given(st.one_of(st.just(0), st.integers(0, 4100)), st.lists(_WHOLE_PIECES, max_size=10).map("".join))
def test_declaration_read_off_a_decision_is_w3libs(padding, markup):
    # Item 3 of issue 26: w3lib's answer read off the declaration our prescan, parser step or XML
    # declaration step found, without w3lib's scan, is w3lib's own, wherever the decision says it lies.
    body = b" " * padding + markup.encode("latin-1")
    declared = html_body_declared_encoding(body)
    for at in [i for i in range(len(body)) if body[i] == 0x3C]:
        for source in ("prescan", "xml-declaration", "parser"):
            found = w3lib_declared(body, Decision(ENCODINGS["UTF-8"], "tentative", source, None, at))
            assert found is _UNKNOWN or found == declared, (at, source)
    decision = sniff(body, content_type="text/html")
    assert scrapy_encoding("text/html", body, True, decision) == scrapy_encoding("text/html", body, True)


@pytest.mark.parametrize(("body", "source", "expected"), [
    (b'<html><head><meta charset="windows-1251"><title>\xc0</title>', "prescan", "cp1251"),
    (b"<!DOCTYPE html><html lang=ru><head><meta charset=koi8-r />", "prescan", "koi8-r"),
    (b'<?xml version="1.0" encoding="Shift_JIS"?>\n<html>\x93\xfa', "xml-declaration", "cp932"),
    (b'<head><meta charset="x-no-such-label">\xe9', None, None),
    (b"<head><title>" + b"t" * 1100 + b"</title><meta charset=koi8-r>\xe9", "parser", "koi8-r"),
    (b"<?xml-stylesheet href='a.css'?><!--\nSource: x\n--><meta charset=gbk>\xc4\xe3", "prescan", "gb18030"),
])
def test_declaration_read_off_the_decision_on_typical_pages(body, source, expected):
    decision = sniff(body, content_type="text/html")
    if source is None:  # our prescan found nothing: w3lib's "nothing" is read off where it would be
        decision = Decision(ENCODINGS["UTF-8"], "tentative", "prescan", None, body.index(b"<meta"))
    assert decision.source == (source or "prescan")
    found = w3lib_declared(body, decision)
    assert found is not _UNKNOWN and found == expected == html_body_declared_encoding(body)


def _is_utf_8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def test_gb18030_reads_every_gbk_sequence_as_gbk():
    # Why changed() trusts a strict GBK decode for Scrapy's gb18030 (_SAME_WHERE_VALID): exhaustively,
    # every byte pair GBK decodes is decoded alike, and none has the digit that starts a four-byte one.
    assert ("gbk", "gb18030") in _SAME_WHERE_VALID
    valid = 0
    for lead in range(0x80, 0x100):
        assert bytes([lead]).decode("gbk", "replace") == "\ufffd"  # no single byte above ASCII
        for trail in range(0x100):
            pair = bytes([lead, trail])
            try:
                text = pair.decode("gbk")
            except UnicodeDecodeError:
                continue
            valid += 1
            assert trail > 0x39 and pair.decode("gb18030", "replace") == text, pair
    assert valid == 21791


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["中文", "·", "〃", "x", "<p>", "\u2014", "\u4e00"]).map(lambda t: t.encode("gbk")),
                          st.binary(min_size=1, max_size=2), st.just(b"\x81\x30\x81\x30")), max_size=20).map(b"".join))
def test_gbk_page_under_scrapys_gb18030(body):
    for label in ("gbk", "gb2312", "gb18030"):
        content_type = f"text/html; charset={label}"
        assert judged(body, content_type, ENCODINGS["GBK"]) is (scrapys_text(body, content_type) != decode(body, ENCODINGS["GBK"])[0])
