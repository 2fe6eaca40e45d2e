"""The prescan (HTML §13.2.3.2): unit tests per case of the loop, and a hypothesis comparison
of the fast implementation with a literal, byte-by-byte transcription of the spec's steps."""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS, get_encoding, prescan
from scrapy_whatwg_encoding.sniffing.meta_charset import extract_meta_charset
from scrapy_whatwg_encoding.sniffing.prescan import prescan_metas, prescan_result
from scrapy_whatwg_encoding.sniffing.xml_encoding import get_xml_encoding

# --- A literal transcription of the spec's prescan, kept slow on purpose -------------------

class _OutOfBytes(Exception):
    pass


class SpecPrescan:
    """"Prescan a byte stream to determine its encoding", step by step, over ``data[:end]``."""

    WS = b"\t\n\x0c\r "

    def __init__(self, data: bytes, end: int = 1024):
        self.stream = data  # "get an XML encoding" is given the byte stream, not data[:end]
        self.data = data[:end]
        self.position = 0

    def byte(self) -> int:
        if self.position >= len(self.data):
            raise _OutOfBytes
        return self.data[self.position]

    def starts(self, *alternatives: bytes) -> bool:
        """The bytes at position are the given sequence, each entry a set of allowed bytes."""
        if self.position + len(alternatives) > len(self.data):
            return False
        return all(self.data[self.position + i] in allowed for i, allowed in enumerate(alternatives))

    def run(self):
        data = self.data
        if data[:6] == b"<\x00?\x00x\x00":
            return ENCODINGS["UTF-16LE"]
        if data[:6] == b"\x00<\x00?\x00x":
            return ENCODINGS["UTF-16BE"]
        try:
            return self.loop()
        except _OutOfBytes:
            found = get_xml_encoding(self.stream)
            return None if found is None else found[0]

    def loop(self):
        letters = bytes(range(0x41, 0x5B)) + bytes(range(0x61, 0x7B))
        while True:
            if self.starts(b"<", b"!", b"-", b"-"):
                # the first ">" preceded by two "-" that comes after the "<"
                p = self.position + 2
                while not (p < len(self.data) and self.data[p] == 0x3E and p >= 2
                           and self.data[p - 1] == 0x2D and self.data[p - 2] == 0x2D and p > self.position + 3):
                    p += 1
                    if p >= len(self.data):
                        raise _OutOfBytes
                self.position = p
            elif self.starts(b"<", b"Mm", b"Ee", b"Tt", b"Aa", self.WS + b"/"):
                self.position += 5
                result = self.meta()
                if result is not None:
                    return result
            elif self.starts(b"<", letters) or self.starts(b"<", b"/", letters):
                while self.byte() not in self.WS + b">":
                    self.position += 1
                while self.get_attribute() is not None:
                    pass
            elif self.starts(b"<", b"!") or self.starts(b"<", b"/") or self.starts(b"<", b"?"):
                while self.byte() != 0x3E:
                    self.position += 1
            # next byte
            self.position += 1
            self.byte()  # runs out of bytes at the end

    def meta(self):
        attribute_list = []
        got_pragma = False
        need_pragma = None
        charset = None
        while True:
            attribute = self.get_attribute()
            if attribute is None:
                break
            name, value = attribute
            if name in attribute_list:
                continue
            attribute_list.append(name)
            if name == "http-equiv":
                if value == "content-type":
                    got_pragma = True
            elif name == "content":
                extracted = extract_meta_charset(value)
                if extracted is not None and charset is None:
                    charset = extracted[0]
                    need_pragma = True
            elif name == "charset":
                charset = get_encoding(value) or "failure"
                need_pragma = False
        if need_pragma is None or (need_pragma and not got_pragma) or charset == "failure":
            return None
        if charset.name in ("UTF-16BE", "UTF-16LE"):
            return ENCODINGS["UTF-8"]
        if charset.name == "x-user-defined":
            return ENCODINGS["windows-1252"]
        return charset

    def get_attribute(self):
        ws = self.WS
        while self.byte() in ws + b"/":
            self.position += 1
        if self.byte() == 0x3E:
            return None
        name, value = [], []
        while True:  # attribute name
            b = self.byte()
            if b == 0x3D and name:
                self.position += 1
                break  # to "value"
            if b in ws:
                while self.byte() in ws:  # "spaces"
                    self.position += 1
                if self.byte() != 0x3D:
                    return "".join(name), ""
                self.position += 1
                break
            if b in b"/>":
                return "".join(name), ""
            name.append(chr(b + 0x20) if 0x41 <= b <= 0x5A else chr(b))
            self.position += 1
        while self.byte() in ws:  # "value"
            self.position += 1
        b = self.byte()
        if b in b"\"'":
            quote = b
            while True:
                self.position += 1
                c = self.byte()
                if c == quote:
                    self.position += 1
                    return "".join(name), "".join(value)
                value.append(chr(c + 0x20) if 0x41 <= c <= 0x5A else chr(c))
        if b == 0x3E:
            return "".join(name), ""
        value.append(chr(b + 0x20) if 0x41 <= b <= 0x5A else chr(b))
        self.position += 1
        while True:
            c = self.byte()
            if c in ws + b">":
                return "".join(name), "".join(value)
            value.append(chr(c + 0x20) if 0x41 <= c <= 0x5A else chr(c))
            self.position += 1


def spec_prescan(data: bytes, end: int = 1024):
    return SpecPrescan(data, end).run()


# --- Hypothesis: the fast prescan returns exactly what the spec's steps return --------------

_PIECES = [
    b"<", b">", b"/", b"=", b'"', b"'", b" ", b"\t", b"\n", b"\x0c", b"\r", b"-", b"!", b"?", b"a",
    b"<!--", b"-->", b"--", b"<meta", b"<META", b"<meta ", b"<meta/", b"<metax", b"</", b"<?", b"<!",
    b"<a", b"<br ", b"</p", b"charset", b"CHARSET", b"http-equiv", b"content", b"content-type",
    b"Content-Type", b"text/html;", b"charset=", b"koi8-r", b"utf-16", b"x-user-defined",
    b"windows-1251", b"bogus", b"\x80", b"\xff", b"\x00", b"<?xml", b"encoding", b"encoding=",
    b"<?xml version='1.0' encoding='koi8-r'?>", b"<\x00?\x00x\x00", b"\x00<\x00?\x00x",
]
_markup = st.lists(st.sampled_from(_PIECES), max_size=40).map(b"".join)


@pytest.mark.slow  # 3,000 examples against the spec's steps
@settings(max_examples=3000, deadline=None)
@given(st.one_of(_markup, st.binary(max_size=200)), st.integers(min_value=0, max_value=300))
@example(b'<meta charset="koi8-r">', 1024)
@example(b"<!-->--><meta charset=koi8-r>", 1024)
@example(b'<html =="><meta charset=big5>', 1024)
@example(b"<<<meta charset=koi8-r>", 1024)  # stray "<"s in one item, the last before a tag left to it
@example(b"</><?x><!x></3?><!-x><<?<meta charset=koi8-r>", 1024)  # "<!", "</", "<?": each an item of a run
@example(b"</<meta charset=big5>x><!<meta charset=gbk><meta charset=koi8-r>", 1024)  # to the first ">"
@example(b'</p a="><meta charset=big5>"><meta charset=koi8-r>', 1024)  # "</" and a letter: a tag, quotes and all
@example(b"<!--a-><meta charset=koi8-r>", 1024)  # comments: none closed, one without "-", one with
@example(b"<!--a--><meta charset=koi8-r>", 1024)
@example(b"<!-- - -x--!><meta charset=big5>--><meta charset=koi8-r>", 1024)
@example(b"<<<!--<meta charset=big5>--><<</p <meta charset=gbk>><<meta charset=koi8-r>", 1024)
def test_fast_prescan_equals_spec_steps(data, end):
    assert prescan(data, end) is spec_prescan(data, end)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES + [b"</>", b"<?x>", b"<!x>", b"<a b='<'>", b"<p>" * 3]), max_size=60).map(b"".join),
       st.integers(min_value=6, max_value=40))
@example(b"</></></></></></></></><<a title='<meta charset=big5>'><meta charset=koi8-r>", 12)
@example(b"<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<a><meta charset=koi8-r>", 16)
def test_the_loop_read_within_a_bound_is_the_loop(data, longest):
    """The parser step's shortcut reads the loop's tags within *longest* bytes (runs cut before a
    "<", copies skipped): what it reads is what the whole loop reads, up to where it gives way;
    exactly that where no tag is longer."""
    full = prescan_metas(data, len(data))
    bounded = prescan_metas(data, len(data), None, None, longest)
    assert bounded == full[:len(bounded)]
    assert prescan_metas(data, len(data), None, None, len(data) + 1) == full


_RUN_PIECES = _PIECES + [b"</>", b"<?x>", b"<!x>", b"</b>", b"<b>", b"<!---->", b"x", b"<<"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_RUN_PIECES), max_size=6).map(b"".join),
       st.lists(st.sampled_from(_RUN_PIECES), min_size=1, max_size=3).map(b"".join),
       st.integers(min_value=2, max_value=60),
       st.lists(st.sampled_from(_RUN_PIECES + [b"meta charset=koi8-r>", b"<meta charset=koi8-r>"]), max_size=6).map(b"".join),
       st.integers(min_value=6, max_value=40))
@example(b"", b"</b><", 30, b"meta charset=koi8-r>", 16)  # the last copy's "<" opens the tail's tag
@example(b"", b"</b>x", 30, b"<meta charset=koi8-r>", 16)
@example(b"<svg>", b"\x00<", 30, b"/svg><meta charset=koi8-r>", 16)  # a unit of two bytes; its last "<" opens a tag
@example(b"<", b"!x>", 30, b"<meta charset=koi8-r>", 16)
def test_the_loop_read_within_a_bound_is_the_loop_on_copies(head, unit, copies, tail, longest):
    """The same, where copies of a unit of one or two of the run's items (or of more, or of
    parts of one) are skipped: each copy is read as the whole loop reads it, the last one's
    last item (which may read on into the tail) read by the match."""
    data = head + unit * copies + tail
    full = prescan_metas(data, len(data))
    bounded = prescan_metas(data, len(data), None, None, longest)
    assert bounded == full[:len(bounded)]
    assert prescan_metas(data, len(data), None, None, len(data) + 1) == full


@pytest.mark.slow  # hypothesis against the spec's steps
@settings(max_examples=500, deadline=None)
@given(_markup, _markup)
def test_fast_prescan_equals_spec_steps_with_attributes(head, meta):
    data = head + b"<meta " + meta + b" charset=koi8-r>"
    assert prescan(data) is spec_prescan(data)


# A <meta> with one charset attribute, which the prescan reads in one match (issue 26), and near
# misses around it: what the spec's steps read, label as written included.
_CHARSET_ONLY = st.tuples(
    st.sampled_from([b"<meta", b"<META", b"<Meta"]), st.sampled_from([b" ", b"/", b"\t", b" /", b"\n "]),
    st.sampled_from([b"charset", b"CharSet", b"charsetx", b"chars"]), st.sampled_from([b"", b" ", b"\x0c"]),
    st.sampled_from([b"=", b"", b"=="]), st.sampled_from([b"", b" "]),
    st.sampled_from([b'"koi8-r"', b"'KOI8-R'", b"koi8-r", b'" koi8-r "', b'""', b"koi8-r/", b"'koi8-r", b"bogus",
                     b'"x-user-defined"', b"utf-16le", b"koi8-r\"x"]),
    st.sampled_from([b">", b" >", b"/>", b" / >", b" x=y>", b"", b"\" >"]),
).map(b"".join)


@pytest.mark.slow  # hypothesis against the spec's steps
@settings(max_examples=1500, deadline=None)
@given(_CHARSET_ONLY, _CHARSET_ONLY)
@example(b'<meta charset="KOI8-R" />', b"")
@example(b"<meta/charset = ' koi8-r'>", b"")
@example(b"<meta charset=koi8-r/>", b"<meta charset=koi8-r>")
def test_charset_only_meta_in_one_match_is_the_spec_steps(first, second):
    data = first + second
    assert prescan(data) is spec_prescan(data)
    found = prescan_result(data)
    tag = None if found is None or found[3] != "prescan" else data[found[2]:data.find(b">", found[2]) + 1]
    if tag is not None and tag.count(b"=") == 1 and tag.count(b"<") == 1:  # one attribute: its label
        value = tag.split(b"=")[1].lstrip(b" \x0c")
        value = value[1:].split(value[:1])[0] if value[:1] in (b'"', b"'") else value.split(b" ")[0].rstrip(b">")
        assert found[1] == value.decode("latin-1").strip("\t\n\x0c\r ").lower()


# A <meta> that spells no "charset" is skipped as other tags are (its end as "get an attribute"
# reads it): quoted values holding ">" or "charset", a "/" right after "<meta", and what follows.
_ATTRIBUTES = st.lists(st.sampled_from([
    b' name="viewport"', b' content="width=device-width, initial-scale=1"', b" a='b>c'", b' x="a>b"', b"/x=\"a>b\"",
    b' content="text/html; charset=koi8-r"', b" http-equiv=Content-Type", b' b"c', b" =x", b" ", b"/", b" CHARSET=big5",
    b" d=e", b' f="g', b"'", b'"', b">"]), max_size=6).map(b"".join)


@pytest.mark.slow  # hypothesis against the spec's steps
@settings(max_examples=1500, deadline=None)
@given(_ATTRIBUTES, st.sampled_from([b"<meta", b"<META", b"<meta "]), _ATTRIBUTES,
       st.sampled_from([b">", b"", b"<meta charset=gbk>", b'><meta charset="big5">', b" charset=koi8-r>"]))
@example(b"", b"<meta", b'/x="a>b" charset=koi8-r', b">")
@example(b"", b"<meta", b' x="a>b" charset=koi8-r', b">")
@example(b"", b"<meta", b' name="viewport" content="a>b"', b'><meta charset="big5">')
def test_meta_without_charset_is_skipped_as_the_spec_steps_read_it(head, meta, attributes, tail):
    data = head + meta + attributes + tail
    assert prescan(data) is spec_prescan(data)


# --- Unit tests per case ----------------------------------------------------------------------

def enc(name):
    return ENCODINGS[name]


def test_meta_charset():
    assert prescan(b'<meta charset="koi8-r">') is enc("KOI8-R")
    assert prescan_result(b'<p><meta charset="koi8-r">') == (enc("KOI8-R"), "koi8-r", 3, "prescan")


def test_meta_needs_space_or_slash():
    assert prescan(b"<metacharset=koi8-r>") is None
    assert prescan(b"<meta/charset=koi8-r>") is enc("KOI8-R")


def test_pragma():
    content = b'content="text/html; charset=koi8-r"'
    assert prescan(b"<meta " + content + b">") is None
    assert prescan(b'<meta http-equiv="content-type" ' + content + b">") is enc("KOI8-R")
    assert prescan(b"<meta " + content + b' http-equiv="Content-Type">') is enc("KOI8-R")
    assert prescan(b'<meta http-equiv="refresh" ' + content + b">") is None


def test_first_of_duplicated_attribute_wins():
    assert prescan(b'<meta charset="windows-1251" charset="koi8-r">') is enc("windows-1251")
    assert prescan(b'<meta charset="bogus" charset="koi8-r">') is None


def test_charset_attribute_beats_content():
    data = b'<meta http-equiv="content-type" content="text/html; charset=koi8-r" charset="windows-1251">'
    assert prescan(data) is enc("windows-1251")


def test_utf16_and_x_user_defined_meta():
    assert prescan(b'<meta charset="utf-16">') is enc("UTF-8")
    assert prescan(b'<meta charset="UTF-16BE">') is enc("UTF-8")
    assert prescan(b'<meta charset="x-user-defined">') is enc("windows-1252")


def test_comments_and_skipped_markup():
    assert prescan(b'<!-- <meta charset="koi8-r"> --><meta charset="windows-1251">') is enc("windows-1251")
    assert prescan(b'<!--><meta charset="koi8-r">') is enc("KOI8-R")  # "<!-->" ends the comment
    assert prescan(b'<!---><meta charset="koi8-r">') is enc("KOI8-R")
    assert prescan(b'<?php x ?><meta charset="koi8-r">') is enc("KOI8-R")
    assert prescan(b'<? <meta charset="koi8-r"> ?>') is None  # "<?" ends at the first ">"
    assert prescan(b'<!x <meta charset="koi8-r">') is None
    assert prescan(b'</ <meta charset="koi8-r">') is None


def test_other_tags_attributes_are_skipped():
    assert prescan(b'<a title="<meta charset=koi8-r>"><meta charset="windows-1251">') is enc("windows-1251")
    assert prescan(b"<a title='x>'><meta charset=koi8-r>") is enc("KOI8-R")
    assert prescan(b'<a title="<meta charset=koi8-r>') is None  # runs out inside the value
    # The tag name goes to whitespace: "==" is an attribute "=" whose value's quote never closes.
    assert prescan(b'<html =="><meta charset=big5>') is None
    assert prescan(b'<html ="><meta charset=big5>') is enc("Big5")  # attribute '="', no value


def test_runs_out_of_bytes():
    assert prescan(b'<meta charset="koi8-r') is None
    assert prescan(b"<meta charset=koi8-r") is None
    assert prescan(b'<meta charset="koi8-r">', end=22) is None
    assert prescan(b'<meta charset="koi8-r">', end=23) is enc("KOI8-R")
    assert prescan(b" " * 1024 + b'<meta charset="koi8-r">') is None


def test_utf16_xml_declarations():
    assert prescan('<?xml version="1.0"?>'.encode("utf-16le")) is enc("UTF-16LE")
    assert prescan('<?xml version="1.0"?>'.encode("utf-16be")) is enc("UTF-16BE")
    assert prescan(b"<\x00?\x00y\x00") is None


def test_get_an_xml_encoding():
    assert prescan_result(b'<?xml version="1.0" encoding="windows-1251"?><p>') == (
        enc("windows-1251"), "windows-1251", 0, "xml-declaration")
    assert prescan(b"<?xml version='1.0' encoding = 'koi8-r'?>") is enc("KOI8-R")
    assert prescan(b'<?xml version="1.0" encoding="utf-16"?>') is enc("UTF-8")
    assert prescan(b'<?xml version="1.0" xencodingx="koi8-r"?>') is None  # "=" must follow
    assert prescan(b'<?xml version="1.0" myencoding="koi8-r"?>') is enc("KOI8-R")  # inside a word
    assert prescan(b'<?xml version="1.0" Encoding="koi8-r"?>') is None  # case-sensitive
    assert prescan(b'<?xml version="1.0"?><x encoding="koi8-r">') is None  # after the ">"
    assert prescan(b' <?xml version="1.0" encoding="koi8-r"?>') is None  # must start the stream
    assert prescan(b'<?xml encoding="koi8-r "?>') is None  # a byte <= 0x20 in the value
    # A meta wins over the declaration; the declaration is used when the loop finds nothing.
    assert prescan(b'<?xml version="1.0" encoding="koi8-r"?><meta charset="windows-1251">') is enc("windows-1251")


def test_meta_content_extraction():
    assert extract_meta_charset("text/html; charset=koi8-r") == (enc("KOI8-R"), "koi8-r")
    assert extract_meta_charset("text/html; CHARSET = 'koi8-r'") == (enc("KOI8-R"), "koi8-r")
    assert extract_meta_charset('charset="koi8-r') is None  # unmatched quote
    assert extract_meta_charset("charset=") is None
    assert extract_meta_charset("charsetcharset=koi8-r") == (enc("KOI8-R"), "koi8-r")
    assert extract_meta_charset("charset x; charset=koi8-r;foo") == (enc("KOI8-R"), "koi8-r")
    assert extract_meta_charset("charset=bogus; charset=koi8-r") is None  # the first one decides


# Floods of one token (issue 37): the prescan's runs skip copies of their first item in O(log n)
# steps; each copy must read as the first did, whatever follows the last.
_UNITS = st.sampled_from([b"<!---->", b"<!-- x -->", b"<p>", b"<a b='>'>", b"<meta name=x>", b"<!x>", b"</p>",
                          b"<!--<meta charset=utf-8>-->", b"<p title='<meta charset=utf-8>'>", b"<", b"x<", b"<p "])
_TAILS = st.lists(st.sampled_from([b"<meta charset=koi8-r>", b"<", b"-->", b">", b"'", b"<!--", b"x", b"<meta ",
                                   b"charset=big5>", b"<p"]), max_size=5).map(b"".join)


@settings(max_examples=500, deadline=None)
@given(_UNITS, st.integers(min_value=0, max_value=40), _TAILS)
def test_a_flood_of_one_token_is_read_as_the_spec_steps_read_it(unit, copies, tail):
    data = unit * copies + tail
    assert prescan(data, len(data)) is spec_prescan(data, len(data))
