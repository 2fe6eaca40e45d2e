"""Unit tests of single steps: locale defaults (BCP 47), container origins, the detector."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.sniffing import detect as detect_module
from scrapy_whatwg_encoding.sniffing.container import Container, container_encoding, origin_of
from scrapy_whatwg_encoding.sniffing.detect import detect, tld_of
from scrapy_whatwg_encoding.sniffing.locale import locale_encoding
from scrapy_whatwg_encoding.sniffing.sniff import STEPS, sniff_steps


@pytest.mark.parametrize("tag, name", [
    (None, "windows-1252"), ("", "windows-1252"), ("en", "windows-1252"), ("en-US", "windows-1252"),
    ("ja", "Shift_JIS"), ("ja-JP", "Shift_JIS"), ("JA_jp.UTF-8", "Shift_JIS"), ("ru", "windows-1251"),
    ("ru-RU", "windows-1251"), ("uk", "windows-1251"), ("az", "windows-1254"), ("sah", "windows-1251"),
    ("el", "ISO-8859-7"), ("th", "windows-874"), ("vi", "windows-1258"), ("ko-KR", "EUC-KR"),
    ("pl", "ISO-8859-2"), ("zh", "GBK"), ("zh-CN", "GBK"), ("zh-SG", "GBK"), ("zh-Hans", "GBK"),
    ("zh-Hans-HK", "GBK"), ("zh-Hant", "Big5"), ("zh-TW", "Big5"), ("zh-HK", "Big5"), ("zh-MO", "Big5"),
    ("zh-Hant-CN", "Big5"), ("zh-yue-HK", "Big5"), ("xx", "windows-1252"), ("-", "windows-1252"),
])
def test_locale_table(tag, name):
    assert locale_encoding(tag) is ENCODINGS[name]


def test_origins():
    assert origin_of("https://Example.com/a") == ("https", "example.com", 443)
    assert origin_of("http://example.com:8080") == ("http", "example.com", 8080)
    assert origin_of("data:text/html,x") is None
    assert origin_of("http://[::1") is None
    assert origin_of(None) is None


def test_container_encoding():
    same = "https://example.com/page"
    assert container_encoding(Container("koi8-r", "https://example.com"), same) == (ENCODINGS["KOI8-R"], "koi8-r")
    assert container_encoding(Container(ENCODINGS["GBK"], "https://example.com"), same) == (ENCODINGS["GBK"], None)
    assert container_encoding(Container("bogus", "https://example.com"), same) is None
    assert container_encoding(Container("utf-16be", "https://example.com"), same) is None
    assert container_encoding(("koi8-r", "https://example.com:444"), same) is None
    assert container_encoding(None, same) is None


def test_tld():
    assert tld_of("https://www.example.ru/x") == b"ru"
    assert tld_of("https://www.EXAMPLE.RU./x") == b"ru"
    assert tld_of("https://пример.рф/") == b"xn--p1ai"
    assert tld_of("http://127.0.0.1/") is None
    assert tld_of("http://[::1]/") is None
    assert tld_of(None) is None
    assert tld_of("https://user@www.example.ru:8080/x") == tld_of("HTTPS://www.example.ru:8080?q") == b"ru"
    assert tld_of("http://example.com.\t/") == b"com"  # urlsplit drops the tab


_HOST_PARTS = st.sampled_from(["www", "Example", "COM", "xn--p1ai", "127", "0", ".", "..", "-", "_", "пример",
                                "ＡＢ", "\u00e9", "%25", "@", "user:pw@", "[", "]", "[::1]", ":", "\t", "\n", " ", "\x00"])
_URLS = st.tuples(st.sampled_from(["", " ", "\x00", "\t"]),
                  st.sampled_from(["http", "HTTPS", "h2o+x-y.z", "1http", "ht\ttp", "", "é"]),
                  st.sampled_from(["://", ":/", "//", ":///", ":", ":\t//"]),
                  st.lists(_HOST_PARTS, max_size=6).map("".join),
                  st.sampled_from(["", ":80", ":", ":8o", ":80:90", "\t:80"]),
                  st.sampled_from(["", "/", "/x?y#z", "?q", "#f", "\t/", "/\n", " /", "@x/"]),
                  st.text(max_size=8)).map("".join)
_PLAIN_URLS = st.tuples(st.sampled_from(["http", "HTTPS", "h2o+x-y.z"]), st.just("://"),
                        st.lists(st.sampled_from(["www", "Example", "COM", "xn--p1ai", "127", "0", ".", "-", "\t", "[", "%"]),
                                 max_size=5).map("".join),
                        st.sampled_from(["", ":80", ":", ":8o", "]"]),
                        st.sampled_from(["", "/", "/x?y#z", "?q", "#f", "\t/", "@x/", "[/", "%"]),
                        st.text(max_size=8)).map("".join)


@pytest.mark.slow  # hypothesis
@settings(max_examples=2000, deadline=None)
@given(_PLAIN_URLS | _URLS | st.text(max_size=40))
def test_hostname_is_urlsplits(url):
    """detect._hostname reads a plain URL's host itself: the same as urlsplit's hostname, or the
    same ValueError, for any string."""
    try:
        expected = urlsplit(url).hostname
    except ValueError:
        with pytest.raises(ValueError):
            detect_module._hostname(url)
    else:
        assert detect_module._hostname(url) == expected


def test_detector_ascii_falls_through():
    assert detect(b"plain ascii " * 100, "full") is None
    assert detect(b"plain ascii " * 100, "browser") is None
    assert detect("é".encode(), "off") is None


def test_full_mode_utf8_and_cut_sequence():
    text = ("текст " * 1000).encode("utf-8")
    assert detect(text, "full") is ENCODINGS["UTF-8"]
    # Truncated at the real end: one invalid sequence in 5,000, UTF-8 with a stray byte (issue 21).
    assert detect(text + b"\xd1", "full") is ENCODINGS["UTF-8"]
    assert detect(text + b"\xd1", "browser") is not ENCODINGS["UTF-8"]
    assert detect(text, "browser") is not ENCODINGS["UTF-8"]


def test_full_mode_judges_utf8_over_the_whole_body(monkeypatch):
    # Issue 11: the UTF-8 check is cheap and covers the entire body, whatever the statistical cap
    # (the old detector stopped at DETECT_LIMIT and so missed a late invalid byte).
    monkeypatch.setattr(detect_module, "STAT_LIMIT", 1001)
    monkeypatch.setattr(detect_module, "DETECT_LIMIT", 1001)
    text = ("текст " * 1000).encode("utf-8")  # cut inside a sequence at byte 1001
    assert detect(text, "full") is ENCODINGS["UTF-8"]
    # Invalid bytes far beyond the caps: 500 in 5,000 sequences are still "a few" (issue 21), 501 not.
    assert detect(text + b"\xff" * 500, "full") is ENCODINGS["UTF-8"]
    assert detect(text + b"\xff" * 501, "full") is not ENCODINGS["UTF-8"]


def test_tld_hint_is_used():
    # Bytes that are plausible in several encodings: chardetng leans on the TLD.
    body = bytes(range(0xC0, 0x100)) * 3
    guesses = {detect(body, "full", f"https://example.{tld}/") for tld in ("ru", "gr", "tr", "com")}
    assert len(guesses) > 1


def test_browser_mode_reads_the_whole_body_as_firefox_ends_up_doing():
    """Firefox re-guesses over the whole body at the end of the load (and reloads if the guess
    changed): a short Cyrillic start does not decide when most of the body is Chinese."""
    body = "Привет, мир! Как дела? ".encode("windows-1251") * 50 + "שלום עולם, מה שלומך היום? ".encode(
        "windows-1255") * 2000
    assert detect(body[:1024], "browser") is ENCODINGS["windows-1251"]
    assert detect(body, "browser") is ENCODINGS["windows-1255"]
    ascii_start = b"x" * 2000 + "Привет, мир! ".encode("windows-1251") * 50
    assert detect(ascii_start, "browser") is ENCODINGS["windows-1251"]


def test_chardetng_answers_map_to_whatwg_encodings():
    thai = "ภาษาไทยเป็นภาษาที่มีระดับเสียงของคำแน่นอน ".encode("cp874") * 20
    assert detect(thai, "full", "https://example.th/") is ENCODINGS["windows-874"]
    chinese = "中文文本测试，这是一个简单的句子。".encode("gbk") * 20
    assert detect(chinese, "full") is ENCODINGS["GBK"]


def test_kind_is_the_standards_whatever_the_browsers_profile_reads():
    # text/css: "other" for the standard, read as plain text by both browsers (the decision's kind).
    found = sniff_steps(b"body { }", content_type="text/css", profile="browsers")
    assert found["kind"] == "other" and [name for name, _ in found["steps"]] == list(STEPS["other"])
