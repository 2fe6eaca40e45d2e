"""A ``meta`` tag's charset, http-equiv and content values that cannot name an encoding, told by
one search instead of decoding their references (tokenizer.meta_value, charrefs.nonspace_floor
and charrefs.may_hold): every reader of ``meta`` tags (the standard's, Chromium's, Firefox's)
answers for "" what it answers for the decoded value, held against the decoded values
themselves (decode_attribute_value, held against html5lib in test_charrefs.py)."""
from __future__ import annotations

import sys
from html.entities import html5 as named_references
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_charrefs import references

from scrapy_whatwg_encoding.encoding import get_encoding
from scrapy_whatwg_encoding.encoding.tables.labels import LABELS
from scrapy_whatwg_encoding.sniffing._html import charrefs, tokenizer
from scrapy_whatwg_encoding.sniffing._html.charrefs import decode_attribute_value, may_hold, nonspace_floor
from scrapy_whatwg_encoding.sniffing._html.tokenizer import meta_value, tag_name, value_text
from scrapy_whatwg_encoding.sniffing.browsers import _extract_charset, firefox_extract_charset
from scrapy_whatwg_encoding.sniffing.meta_charset import extract_meta_charset

WHITESPACE = "\t\n\x0c\r "


def _reference_to(char: str, form: int, zeros: int) -> str:
    """A numeric reference to *char*: decimal or hexadecimal (either "x"), with or without ";"."""
    number = ord(char)
    return ["&#{z}{n};", "&#{z}{n}", "&#x{z}{n:x};", "&#X{z}{n:X}"][form].format(z="0" * zeros, n=number)


def _spelt(text: str) -> st.SearchStrategy[str]:
    """*text* with each character written or as a numeric reference to it."""
    return st.tuples(*(st.one_of(st.just(char), st.builds(_reference_to, st.just(char), st.integers(0, 3),
                                                           st.integers(0, 2))) for char in text)).map("".join)


spaces = st.lists(st.one_of(st.sampled_from([*WHITESPACE, "&Tab;", "&NewLine;"]),
                            st.builds(_reference_to, st.sampled_from(WHITESPACE), st.integers(0, 3), st.integers(0, 3))),
                  max_size=30).map("".join)
labels = st.sampled_from(sorted(LABELS)).flatmap(lambda label: _spelt(label.upper() if len(label) % 2 else label))
noise = st.lists(references, max_size=30).map("".join)
# Values past the searches' threshold (more "&"s than "content-type" has characters) that may or
# may not name an encoding: a label padded with whitespace, "charset=" and a label among
# references, "content-type" spelt with references, and references alone.
meta_values = st.one_of(
    st.tuples(spaces, labels, spaces).map("".join),
    st.tuples(noise, st.sampled_from(["charset", "CHARSET", "cHaRsEt"]).flatmap(_spelt), st.sampled_from(["", " ", "&#32;"]), st.sampled_from(["=", "&#61;", "&#x3D"]),
              spaces, labels, st.sampled_from(["", ";", "&#59;", " x"]), noise).map("".join),
    st.tuples(spaces, _spelt("Content-Type"), spaces).map("".join),
    noise,
)


def readers(name: str, value: str) -> tuple:
    """What every reader of a meta tag's *name* attribute makes of its *value* (decoded)."""
    if name == "charset":
        return get_encoding(value), get_encoding(value.strip(WHITESPACE))
    if name == "http-equiv":
        return tag_name(value) == "content-type", value.lower() == "content-type"
    return extract_meta_charset(value), get_encoding(_extract_charset(value).strip(WHITESPACE)), firefox_extract_charset(value)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["charset", "http-equiv", "content"]), meta_values)
@example("charset", "&#32;" * 20 + "utf-8" + "&Tab;" * 20)
@example("charset", "&#x20;" * 20 + "&#117;&#116;&#102;&#45;&#56;" + "&#13" * 20)
@example("charset", "&#32;" * 12 + "x-mac-cyrillic&#x0C;")
@example("charset", "".join(f"&#{ord(char)};" for char in "CSEUCPKDFMTJAPANESE") + "&#32;")  # (the longest label)
@example("content", "&#1;" * 20 + "&#99;&#x68;&#X61;r&#115;et=utf-8")
@example("http-equiv", "&#99;&#111;&#110;&#116;&#101;&#110;&#116;&#45;&#116;&#121;&#112;&#101;")
def test_readers_answer_for_the_value_what_they_answer_for_its_text(name, value):
    charrefs.forget()
    text = value_text(value)
    assert readers(name, meta_value(name, value)) == readers(name, text)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.one_of(meta_values, st.lists(st.one_of(references, st.sampled_from([*WHITESPACE, "x", "C", "H", "\u212a", "\u0130"])),
                                      max_size=40).map("".join)))
def test_the_floor_and_the_word_search_hold_for_the_decoded_text(value):
    """Never more characters that are not whitespace than the text has; "charset" in the text
    (ASCII case-insensitively, or as Chromium's model lowercases it) only where the search may
    find it; the search over the value's ASCII-lowercased bytes answers as its plain twin over
    the value (non-ASCII letters that lowercase to ASCII ones among them: U+212A, U+0130)."""
    assert may_hold(value, "charset") == (charrefs._word_pattern("charset").search(value) is not None)
    charrefs.forget()
    text = decode_attribute_value(value)
    floor = nonspace_floor(value)
    assert floor <= sum(char not in WHITESPACE for char in text)
    for cap in range(floor + 2):  # (the search that stops at the cap counts as the whole one)
        assert nonspace_floor(value, cap) == min(floor, cap)
    if "charset" in text.lower() or "charset" in text.translate({c: c + 32 for c in range(65, 91)}):
        assert may_hold(value, "charset")


@pytest.mark.slow
def test_the_floor_counts_each_reference_to_whitespace_and_no_other():
    """Every number up to past U+10FFFF (the ones that decode to whitespace, none else, leave the
    floor), decimal and hexadecimal, with and without ";", leading zeros; and the table's names."""
    numbers = range(0x110100)
    forms = ["&#{n};", "&#{n}", "&#x{n:x};", "&#X00{n:X}"]
    for form in forms:
        value = "".join(form.format(n=n) + "-" for n in numbers)  # ("-": no digit of either base)
        spaces = sum(decode_attribute_value(form.format(n=n)) in WHITESPACE for n in (9, 10, 12, 13, 32, 0, 0x85, 0xA0))
        assert spaces == 5
        assert nonspace_floor(value) == len(numbers) - 5, form
        assert nonspace_floor(value, len(numbers) - 5) == nonspace_floor(value, len(numbers)) == len(numbers) - 5, form
    names = "".join(f"&{name}x" for name in named_references)  # (x: no historical rule for legacy names)
    spaced = [name for name in named_references if decode_attribute_value(f"&{name}x").strip(WHITESPACE) == "x"]
    assert sorted(spaced) == ["NewLine;", "Tab;"]
    assert nonspace_floor(names) == nonspace_floor(names, len(named_references)) == len(named_references) - 2


@pytest.mark.parametrize("word", ["charset", "content", "fj", "é", "utf-8"])
def test_the_word_search_refuses_what_it_cannot_decide(word):
    """Letters a named reference gives ("fjlig;": "fj") or that are not ASCII letters."""
    if word in ("charset", "content"):
        assert may_hold("&#99;&#104;&#97;&#114;&#115;&#101;&#116;", "charset")
        assert not may_hold("&#99;&#104;&#97;&#114;&#115;&#101;&#116;", "content")
    else:
        with pytest.raises(ValueError):
            may_hold("x", word)


def _decodings(value: str) -> int:
    """How many times reading a meta's three attributes of *value* decodes references."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        calls += event == "call" and frame.f_code is charrefs.decode_attribute_value.__code__

    sys.setprofile(count)
    try:
        for name in ("charset", "http-equiv", "content"):
            meta_value(name, value)
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.parametrize("unit", ["&#{n};", "&#x{n:x}", "&{name}", "&#000{n};&#32;"])
def test_many_distinct_references_are_searched_not_decoded(unit):
    """A value of 13,000 distinct references (a 64 KiB tag) is not decoded for any of the three;
    a short one is, and one padded to a label is (it may name an encoding)."""
    names = sorted(named_references)
    value = "".join(unit.format(n=n, name=names[n % len(names)]) for n in range(13000))
    charrefs.forget()
    assert _decodings(value) == 0
    assert _decodings("&#117;tf-8") == 3
    assert _decodings("&#32;" * 100 + "utf-8") == 1  # (charset; not http-equiv; not content)
    assert tokenizer.meta_value("charset", "&#32;" * 100 + "utf-8") == " " * 100 + "utf-8"


# Meta tags' attributes with runs of digits ("%d"): values that a number may turn into a label
# ("cp125%d", "%d" alone: 866 is one), a reference ("&#%d;", "&#10%d;oi8-r"), or not; characters
# that decoding keeps and no label has ("<", U+0080, ESC, "$"), and those a label or its
# whitespace has.
_NUMBERED_VALUES = st.lists(st.sampled_from(["%d", "cp125%d", "koi8-%d", "iso-8859-%d", "&#%d;", "&#x%d;", "&#10%d;oi8-r",
                                             "&#%d", "oi8-r", "<", "\x80", "\x1b", "$", "=", " ", "\t", "&#65;", "charset=",
                                             "content-type", "utf-8", "-", "&", ";", "#", "&amp;", "x", "'", '"']),
                            max_size=5).map("".join)
_NUMBERED_ATTRIBUTES = st.lists(st.tuples(st.sampled_from(["charset", "http-equiv", "content", "a%d", "CHARSET", "charset%d"]),
                                          _NUMBERED_VALUES, st.sampled_from(['"', "'", ""])), max_size=4)
_NUMBERS = [1, 2, 5, 7, 8, 65, 99, 107, 866, 1251, 8859, 12345678]


@settings(max_examples=1000, deadline=None)
@given(_NUMBERED_ATTRIBUTES)
@example([("charset", "cp125%d<", "")])  # "<" decoded too: never a label
@example([("charset", "cp125%d", "'")])  # cp1251: a label
@example([("charset", "&#10%d;oi8-r", "")])  # &#107; is "k": koi8-r
@example([("http-equiv", "content-type", '"'), ("content", "charset=%d", "")])  # charset=866
@example([("charset", "<", ""), ("charset", " %d", "")])  # Chromium reads the last charset
@example([("charset", " %d\t", '"')])  # " 866\t": whitespace stripped
@example([("charset", "&#%d;oi8-r", "")])  # &#107;: "k"
@example([("http-equiv", "content-type", ""), ("content", "<meta", ""), ("content", "content%d\x0ea", "")])  # hunted
@example([("http-equiv", "content-type", ""), ("content", "x&#%d;harset=koi8-r", "")])  # &#99;: "c"
@example([("http-equiv", "content-type", ""), ("content", "CHARSET=%d", "'")])  # charset=866
@example([("http-equiv", "content-type", ""), ("content", "x", ""), ("content", "charset=%d", '"')])  # Chromium's last
def test_a_tag_that_names_nothing_whatever_its_digits_names_nothing_for_every_number(attributes):
    """tokenizer.names_nothing_whatever_digits: where it holds for a tag's attributes, every
    reader (the standard's, Chromium's, Firefox's) names nothing in them whatever number each
    "%d" is written as; and it holds for one such writing exactly where it holds for every other
    (either way: charset and http-equiv values that hold a kept character, or charset values that
    do and content values without "charset" or "&")."""
    from scrapy_whatwg_encoding.sniffing.browsers import chromium_meta_encoding, firefox_meta_encoding
    from scrapy_whatwg_encoding.sniffing.parser_scan import meta_tag_encoding

    span = " ".join(f"{name}={quote}{value}{quote}" for name, value, quote in attributes)
    holds = tokenizer.names_nothing_whatever_digits(span.replace("%d", "0"))
    for number in _NUMBERS:
        written = span.replace("%d", str(number))
        assert tokenizer.names_nothing_whatever_digits(written) == holds
        if holds:
            assert (meta_tag_encoding(written), chromium_meta_encoding(written), firefox_meta_encoding(written)) == (None,) * 3


@settings(max_examples=1000, deadline=None)
@given(_NUMBERED_ATTRIBUTES)
@example([("content", "\x1b%d<!DOCTYPE\x1b<meta", ""), ("http-equiv", "content-type", ""),
          ("content", "text/html; charset=gb18030", "'")])  # hunted (issue 37): Chromium reads the second
@example([("charset", "<", ""), ("charset", "cp125%d", "")])  # the second: Chromium's
@example([("charset", "cp125%d", ""), ("charset", "<", "")])
@example([("http-equiv", "content-type", ""), ("content", "charset=%d", ""), ("content", "x", "")])
@example([("http-equiv", "'", ""), ("charset", "%d", '"')])  # an "=" and no value (a quote no other closes)
def test_a_tag_whose_first_attributes_name_nothing_whatever_its_digits_names_nothing_to_the_tree_builder(attributes):
    """tokenizer.tree_names_nothing_whatever_digits: where it holds for a tag's attributes, the
    readers of the tree builder's token (the first of duplicated attributes: the standard's,
    Firefox's) name nothing in them whatever number each "%d" is written as; it holds for one such
    writing exactly where it holds for every other; and wherever names_nothing_whatever_digits does."""
    from scrapy_whatwg_encoding.sniffing.browsers import firefox_meta_encoding
    from scrapy_whatwg_encoding.sniffing.parser_scan import meta_tag_encoding

    span = " ".join(f"{name}={quote}{value}{quote}" for name, value, quote in attributes)
    holds = tokenizer.tree_names_nothing_whatever_digits(span.replace("%d", "0"))
    for number in _NUMBERS:
        written = span.replace("%d", str(number))
        assert tokenizer.tree_names_nothing_whatever_digits(written) == holds
        assert holds or not tokenizer.names_nothing_whatever_digits(written)
        if holds:
            assert (meta_tag_encoding(written), firefox_meta_encoding(written)) == (None, None)


def _chromium_extract_charset(value: str) -> str:
    """Chromium's ExtractCharset (third_party/blink/.../html_meta_element / text_encoding), step by
    step: FindIgnoringASCIICase("charset"), spaces (<= 0x20), "=", spaces, a quoted value or one up
    to a space, quote or ";"."""
    lower = value.encode("ascii", "replace").lower()  # (ASCII case only: one byte per character)
    n, position = len(value), 0
    while True:
        position = lower.find(b"charset", position)
        if position < 0:
            return ""
        position += 7
        while position < n and value[position] <= " ":
            position += 1
        if position >= n or value[position] != "=":
            continue
        position += 1
        while position < n and value[position] <= " ":
            position += 1
        quote = value[position] if position < n and value[position] in "\"'" else ""
        if quote:
            position += 1
        if position >= n:
            return ""
        end = position
        while end < n and (value[end] != quote if quote else (value[end] > " " and value[end] not in "\"';")):
            end += 1
        if quote and end >= n:
            return ""
        return value[position:end]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(["charset", "CharSet", "charse", "=", " ", "\x00", "\x1f", "\t", "'", '"', ";", "koi8-r",
                                 "x", "\u0130", "\u212a", "\u017f", "&amp;", "<head>"]), max_size=16).map("".join))
@example("\u0130 charset=koi8-r")  # (a lowercase two characters long before it: ASCII case only)
@example("text/html; charset=" + "&a0<head>&amp;" * 4000)  # hunted (issue 37): a 64 KiB label, 5 ms a step each
def test_chromium_extract_charset_in_c_searches_is_its_steps(value):
    assert _extract_charset(value) == _chromium_extract_charset(value)


def _spec_extract(s: str) -> str | None:
    """HTML's "algorithm for extracting a character encoding from a meta element", step by step:
    its label, or None for "nothing"."""
    position, n = 0, len(s)
    lower = s.encode("ascii", "replace").lower()  # (ASCII case-insensitively: one byte per character)
    while True:
        position = lower.find(b"charset", position)  # step 2
        if position < 0:
            return None
        position += 7
        while position < n and s[position] in "\t\n\x0c\r ":  # step 3
            position += 1
        if position >= n or s[position] != "=":  # step 4: loop from just before that character
            continue
        position += 1
        while position < n and s[position] in "\t\n\x0c\r ":  # step 5
            position += 1
        if position >= n:  # step 6
            return None
        if s[position] in "\"'":  # steps 7-8
            end = s.find(s[position], position + 1)
            return None if end < 0 else s[position + 1:end]
        end = position
        while end < n and s[end] not in "\t\n\x0c\r ;":  # step 9
            end += 1
        return s[position:end]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(["charset", "CharSet", "charse", "=", " ", "\t", "\x0c", "\x00", "'", '"', ";", "koi8-r",
                                 "x", "\u0130", "\u212a"]), max_size=16).map("".join))
@example("charset " * 8000 + "= koi8-r")  # hunted (issue 37): a Python step a "charset", 2.4 ms at 64 KiB
@example("charset" + " " * 60000 + "=koi8-r")  # a Python step a space, 2.7 ms
def test_extract_meta_charset_in_one_search_is_the_specs_steps(value):
    label = _spec_extract(value)
    encoding = None if label is None else get_encoding(label)
    assert extract_meta_charset(value) == (None if encoding is None else (encoding, label.strip(WHITESPACE)))


_ATTRIBUTE_PIECES = ["charset", "CharSet", "content", "http-equiv", "x", " ", "\t", "/", "=", " = ", '"', "'", ">", "&#9;",
                     "koi8-r", "a=b", "charset=", "content='", 'charset="', "\x00", "é", "y" * 300]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_ATTRIBUTE_PIECES), max_size=16).map("".join), st.integers(0, 40),
       st.sampled_from([("charset",), ("content", "charset"), ("http-equiv", "content", "charset")]))
@example(" charset=" + "&#1;" * 100, 0, ("charset",))  # the bench's one tag of references, short
@example(' charset="' + "y" * 300, 0, ("charset",))  # a quote no other closes: the empty value
@example(" a='" + "y" * 300 + "' charset=x", 0, ("charset",))
@example(" charset =  " + "y" * 300 + ">z", 0, ("charset",))
@example(" charset=" + "y" * 1000 + "\tz", 0, ("charset",))  # an unquoted value past two windows
@example(" " + " ".join(f"a=x{k}" for k in range(100)) + " charset=yy>", 0, ("charset",))  # many short values first
def test_a_named_attributes_value_read_by_finds_is_the_patterns(span, position, names):
    """_next_named's shortcut (the pattern up to the value, the value by C-speed finds, where the span is
    long: here always) against its twin, the whole pattern: the same name, value and end from anywhere."""
    position = min(position, len(span))
    with mock.patch.object(tokenizer, "_LONG_ATTRIBUTES", -1):
        assert tokenizer._next_named(names, span, position) == tokenizer._next_named(names, span, position, finds=False)
