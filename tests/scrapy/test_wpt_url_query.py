"""URL-query encoding as ONE "percent-encode after encoding" over the whole query (URL Standard,
query state; Encoding Standard "encode or fail"): the cases the issue found, by hand. The WPT
expectations (test_wpt_query_expectations.py) check every other case."""
from __future__ import annotations

import pytest

from scrapy_whatwg_encoding import get_encoding
from scrapy_whatwg_encoding.scrapy.requests.url import encode_query

JP = get_encoding("iso-2022-jp")


@pytest.mark.parametrize("query, expected", [
    # The encoder stays in Roman across "s" and "\" needs ASCII again (WPT iso-2022-jp-encoder).
    ("¥‾s\\ﾐ佩", "%1B(J\\~s%1B(B\\%1B$B%_PP%1B(B"),
    # SO, SI, ESC: "error with U+FFFD" even in an all-ASCII query.
    ("\x0e\x0f\x1b", "%26%2365533%3B" * 3),
    ("a=\x1b(B", "a=%26%2365533%3B(B"),
    # The error is written in Roman: Roman ends after it.
    ("‾\ufffd", "%1B(J~%26%2365533%3B%1B(B"),
    # Literal "&" (and a literal noncharacter) keep their meaning.
    ("a&b=佩&c=\ufdd0", "a&b=%1B$BPP%1B(B&c=%26%2364976%3B"),
    ("&#65533;=\x0e", None),  # (# starts the fragment)
    ("q=日本 x", "q=%1B$BF|K\\%1B(B%20x"),  # "\\" is in no percent-encode set
])
def test_iso_2022_jp_queries(query, expected):
    url = encode_query("http://x/p?" + query, JP)
    if expected is None:
        assert url == "http://x/p?&#65533;=\x0e"
    else:
        assert url == "http://x/p?" + expected


def test_every_noncharacter_in_the_query():
    query = "".join(chr(c) for c in range(0xFDD0, 0xFDF0)) + "&佩"
    assert encode_query("http://x/?" + query, JP) == (
        "http://x/?" + "".join(f"%26%23{c}%3B" for c in range(0xFDD0, 0xFDF0)) + "&%1B$BPP%1B(B")


def test_ascii_queries_unchanged_and_special_query_set():
    for name in ("windows-1251", "Shift_JIS", "UTF-8", "gb18030", "ISO-2022-JP"):
        url = "http://x/?a=b c&d='\"<>"
        assert encode_query(url, get_encoding(name)) is url
    # Non-special schemes: UTF-8 and the query percent-encode set ("'" kept); ws/wss: UTF-8.
    assert encode_query("foo:x?'é", get_encoding("windows-1252")) == "foo:x?'%C3%A9"
    assert encode_query("wss://x/?'é", get_encoding("windows-1252")) == "wss://x/?%27%C3%A9"
    assert encode_query("FTP://x/?'é", get_encoding("windows-1252")) == "FTP://x/?%27%E9"
    assert encode_query("http://x/?'é", get_encoding("windows-1252")) == "http://x/?%27%E9"
    assert encode_query("http://x/?q=日本", get_encoding("windows-1251")) == (
        "http://x/?q=%26%2326085%3B%26%2326412%3B")


def test_fragment_is_utf8():
    # URL Standard, fragment state: UTF-8 and the fragment percent-encode set, whatever the page.
    for name in ("windows-1251", "Shift_JIS", "ISO-2022-JP"):
        assert encode_query("http://x/p?q=ж#日 `\ud800", get_encoding(name)).endswith("#%E6%97%A5%20%60%EF%BF%BD")
    assert encode_query("http://x/p#ж", get_encoding("windows-1251")) == "http://x/p#%D0%B6"
