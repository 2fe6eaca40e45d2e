"""The parser step's byte offsets: exact for every encoding, checked against brute force."""
from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.sniffing import change, run
from scrapy_whatwg_encoding.sniffing.body import Body
from scrapy_whatwg_encoding.sniffing.change import byte_offset, parser_meta_span

_NAMES = ["UTF-8", "Shift_JIS", "gb18030", "Big5", "EUC-KR", "EUC-JP", "ISO-2022-JP", "UTF-16LE",
          "UTF-16BE", "windows-1252", "x-user-defined", "KOI8-R"]
_PIECES = [b"<", b"a", b"\x00", b"\x1b(B", b"\x1b$B", b"\x1b(J", b"\x1b(I", b"\x1b", b"\x80", b"\x81",
           b"\x8e", b"\x8f", b"\xa1", b"\xe3", b"\xf0", b"\xfe", b"\xff", b"\xd8", b"\xdc", b"<\x00", b"\x00<",
           b"\x3c\x3c", b"\x81\x30", b"\x81\x30\x81\x30"]


def brute_force(body: bytes, encoding, text: str, index: int) -> int:
    """The byte where the '<' at text[index] starts: the one '<' (or UTF-16 code unit) whose
    replacement by '>' changes text[index], and only it, into '>'. Both bytes are ASCII and never
    a trail byte, so the replacement changes no other character."""
    be, le = encoding.name == "UTF-16BE", encoding.name == "UTF-16LE"
    lt, gt = (b"\x00<", b"\x00>") if be else (b"<\x00", b">\x00") if le else (b"<", b">")
    wanted = text[:index] + ">" + text[index + 1:]
    found = [b for b in range(len(body)) if body.startswith(lt, b)
             and encoding.decode(body[:b] + gt + body[b + len(lt):]) == wanted]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.slow  # hypothesis against brute force
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_NAMES), st.lists(st.sampled_from(_PIECES), max_size=16).map(b"".join))
def test_byte_offset_matches_brute_force(name, body):
    encoding = ENCODINGS[name]
    text = encoding.decode(body)
    for index, char in enumerate(text):
        if char == "<":
            assert byte_offset(body, encoding, text, index) == brute_force(body, encoding, text, index)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["UTF-8", "Shift_JIS", "gb18030", "ISO-2022-JP", "windows-1252"]),
       st.lists(st.sampled_from(_PIECES + [b"<" * 70, b"\x1b$B<<", b"\x1b(B<"]), min_size=30, max_size=200).map(b"".join),
       st.randoms())
def test_byte_offset_in_long_bodies_is_the_nth_lt(name, body, rnd):
    """Past 64 bytes the "<" is found by halving the body with counts: it is the "<" byte the
    characters before it count to (every "<" is one, in every encoding here but ISO-2022-JP's
    other states), checked against the decoded prefix."""
    encoding = ENCODINGS[name]
    text = encoding.decode(body)
    indexes = [index for index, char in enumerate(text) if char == "<"]
    for index in rnd.sample(indexes, min(len(indexes), 5)):
        found = byte_offset(body, encoding, text, index)
        assert body[found] == 0x3C and encoding.decode(body[:found]) == text[:index]


# ISO-2022-JP bodies: escapes valid and not (a lone ESC, "ESC $", "ESC (": the bytes after them are
# read in the output state), and 0x3C bytes in every state: ASCII and Roman ("<"), katakana,
# jis0208 lead and trail bytes ("#<" is an unmapped pair: one U+FFFD, as its lead alone at the end).
_JP_PIECES = [b"<", b"#<", b"<<", b"a", b"$", b"\x0e", b"\x80", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@",
              b"\x1b$B", b"\x1b", b"\x1b$", b"\x1b(", b"\x1b$B#<", b"\x1b(B<"]
_JP_BODIES = st.lists(st.sampled_from(_JP_PIECES), max_size=16).map(b"".join)


def decoded_prefix_offset(body: bytes, encoding, text: str, index: int) -> int:
    """The plain definition: the first 0x3C byte whose prefix decodes to ``text[:index]`` and,
    with it, to ``text[:index + 1]`` (the byte itself gives the "<": the decoder reads each byte
    once, in a state the bytes before it set)."""
    return next(p for p in range(len(body)) if body[p] == 0x3C and encoding.decode(body[:p]) == text[:index]
                and encoding.decode(body[:p + 1]) == text[:index + 1])


@settings(max_examples=500, deadline=None)
@given(_JP_BODIES)
def test_iso_2022_jp_byte_offset_is_the_decoded_prefixs(body):
    encoding = ENCODINGS["ISO-2022-JP"]
    text = encoding.decode(body)
    for index, char in enumerate(text):
        if char == "<":
            found = byte_offset(body, encoding, text, index)
            assert found == decoded_prefix_offset(body, encoding, text, index)
            assert found == brute_force(body, encoding, text, index)
            # text may be a prefix of the decode (the parser step decodes a window)
            assert byte_offset(body, encoding, text[:index + 1], index) == found


@pytest.mark.parametrize(("body", "offset"), [
    (b"\x1b$B#<\x1b(B<", 8),  # the pair "#<" is one U+FFFD: the prefix up to its "<" decodes to it too
    (b"\x1b$B<<\x1b(I<\x1b(J<", 12),  # a jis0208 pair, a katakana, then Roman's "<"
    (b"\x1b$<", 2),  # an invalid escape: "$" and "<" read in the output state (ASCII)
    (b"\x1b$B\x1b$<<\x1b(B<", 10),  # ... in jis0208: "$<" a pair, the next "<" a lead byte
])
def test_iso_2022_jp_byte_offset_examples(body, offset):
    encoding = ENCODINGS["ISO-2022-JP"]
    text = encoding.decode(body)
    index = text.index("<")
    assert byte_offset(body, encoding, text, index) == offset == brute_force(body, encoding, text, index)


# ISO-2022-JP bodies that may hold a <meta> in the text: its bytes in every state, cut by escapes.
_META_PIECES = [b"<meta charset=euc-jp>", b"<", b"<me", b"ta", b"m", b"e", b"t", b"a", b"M", b"ETA", b" charset=",
                b"shift_jis>", b"<meta http-equiv=content-type content='charset=big5'>", b"\x1b(B", b"\x1b(J",
                b"\x1b(I", b"\x1b$B", b"\x1b$@", b"\x1b", b"\x1b(", b"\x80", b"0!", b"\n"]


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(_META_PIECES), max_size=24).map(b"".join), st.integers(1, 40))
@example(b"<me\x1b(Bta charset=euc-jp>", 40)  # an escape between the bytes of "<meta"
@example(b"\x1b$B<meta charset=euc-jp>\x1b(B<meta charset=big5>", 40)  # jis0208 pairs first
@example(b"\x1b(I<meta charset=euc-jp>", 40)  # katakana: no "<meta" in the text
@example(b'\x1b(I\x1b$B<meta charset="iso-2022-jp">\x1b(B' * 3, 40)  # jis0208 "<meta>"s (issue 37): none either
@example(b"<\x1b(Jm\x1b(Be\x1b(Jt\x1b(Ba charset=euc-jp>", 40)  # an ASCII or Roman escape between each two
@example(b"<\x1b(J\x1b(Bmeta charset=euc-jp>", 40)  # two in a row: U+FFFD between "<" and "meta"
@example(b"\x1b$B<m\x1b$<meta charset=euc-jp>", 40)  # a lone ESC in jis0208: the bytes after it still jis0208
@example(b"\x1b$B0!" * 18 + b"\x1b(B<meta charset=euc-jp>", 40)  # 40 characters, past half of 4 * limit + 16 bytes
def test_iso_2022_jp_parser_meta_gate_is_its_twin(body, limit):
    """The parser step with ISO-2022-JP decodes no window whose bytes cannot spell "<meta" in its text
    (_spells_meta): it finds what its twin (no shortcut: every window decoded) finds; and where the
    text of a prefix holds a "<meta", _spells_meta says its bytes may spell it."""
    encoding = ENCODINGS["ISO-2022-JP"]
    assert parser_meta_span(body, encoding, limit, None, True) == parser_meta_span(body, encoding, limit, None, False)
    for end in range(len(body) + 1):
        if re.search("(?i)<meta", encoding.decode(body[:end])):
            assert change._spells_meta(body, end), body[:end]


class _DecodeSpy:
    """An encoding whose decodes are logged (their inputs' lengths, in order) in *log*."""

    def __init__(self, encoding, log):
        self.encoding, self.log = encoding, log

    def __getattr__(self, name):
        return getattr(self.encoding, name)

    def decode(self, data):
        self.log.append(len(data))
        return self.encoding.decode(data)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(_META_PIECES), max_size=24).map(b"".join), st.integers(1, 40),
       st.integers(0, 20_000), st.sampled_from(["ISO-2022-JP", "UTF-16LE", "UTF-16BE"]))
@example(b"<meta charset=iso-2022-jp>" + b"\x1b$B<\x1b(B<" * 8188, change.PARSER_LIMIT, 0, "ISO-2022-JP")  # issue 37
@example(b"<meta charset=koi8-r>", change.PARSER_LIMIT, 70_000, "ISO-2022-JP")  # past 8 windows
def test_parser_step_takes_the_page_text_where_a_window_is_an_eighth_of_the_body(body, limit, padding, name):
    """Where the caller keeps the page's text (*whole*) and a window is an eighth of the body or more,
    the parser step decodes no window: the page's text is its first decode, and it finds what it
    finds with windows (issue 37: an ISO-2022-JP page of 64 KiB decoded twice, a fifth over)."""
    body = b"\x1b(B " * (padding // 4) + body
    encoding, log = ENCODINGS[name], []
    found = parser_meta_span(body, _DecodeSpy(encoding, log), limit, None, True,
                             whole=lambda: log.append("page") or encoding.decode(body))
    assert found == parser_meta_span(body, encoding, limit, None, True)
    window = min(change._FIRST_WINDOW, 4 * limit + 16)
    first = "page" if len(body) <= min(8 * window, 4 * limit + 16) else window
    # (ISO-2022-JP's first window is not decoded where its bytes spell no "<meta": the next, or the page)
    skipped = name == "ISO-2022-JP" and not change._spells_meta(body, window)
    assert log[:1] in ([], [first]) or skipped and log[:1] in (["page"], [8 * window]), log


_SINGLE_BYTE = [encoding for encoding in ENCODINGS.values() if encoding.is_single_byte]
_MARKUP = [b"<meta charset=koi8-r>", b"<meta charset=\xe9>", b"<meta charset=koi8-\xdd>", b"<\xe9>", b"<a\xe9>", b"<p>",
           b"<!--", b"-->", b"<head>", b"<body>", b"x", b" ", b"\x00", b"<svg>", b"<script>", b"</script>", b"<title>",
           b"</title>", b"<!DOCTYPE html>", b"<meta content='charset=windows-1251' http-equiv=content-type>",
           b"<meta http-equiv=content-type content='charset=koi8-u\xff'>", b"<!--" + b"x" * 1030 + b"-->"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_MARKUP), st.binary(max_size=3)), max_size=40).map(b"".join),
       st.sampled_from(_SINGLE_BYTE + [ENCODINGS[name] for name in _NAMES]), st.sampled_from(_SINGLE_BYTE),
       st.sampled_from([change.PARSER_LIMIT, 40]), st.sampled_from([change.PARSER_LIMIT, 40]))
@example(b"<meta charset=koi8-r>", ENCODINGS["UTF-16LE"], ENCODINGS["windows-1252"], change.PARSER_LIMIT,
         change.PARSER_LIMIT)  # (UTF-16LE finds none)
@example(b"<!--" + b"x" * 40 + b"--><meta charset=koi8-r>", ENCODINGS["KOI8-R"], ENCODINGS["windows-1252"], 40,
         change.PARSER_LIMIT)  # (none within 40)
def test_one_single_byte_encodings_finding_serves_every_other(data, first, second, first_limit, limit):
    """The run's parser step with a single-byte encoding after another encoding's (the body's
    finding kept, with that limit or another): what the step finds with it alone, read by the
    plain steps."""
    body = Body(data)
    run._parser_meta(body, first, first_limit, True)
    assert run._parser_meta(body, second, limit, True) == parser_meta_span(data, second, limit, shortcuts=False)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_MARKUP + [b"<meta name=x>", b'<meta a="', b"<a b='>", b"\xe3\x81\x82" * 100]),
                          st.binary(max_size=3)), max_size=40).map(b"".join),
       st.sampled_from([0, 20, 300, 1024, 2000]), st.sampled_from([ENCODINGS["windows-1252"], ENCODINGS["UTF-8"], ENCODINGS["Shift_JIS"]]),
       st.sampled_from([change.PARSER_LIMIT, 40]))
@example(b'<meta a="' + b"x" * 1100 + b'"><meta charset=koi8-r>', 1024, ENCODINGS["windows-1252"], change.PARSER_LIMIT)
@example(b"<meta name=x>" * 20 + b"<meta charset=koi8-r>", 300, ENCODINGS["windows-1252"], change.PARSER_LIMIT)
def test_the_prescans_none_spares_the_parser_steps_reading_of_the_bytes(data, prescan_bytes, encoding, limit):
    """The run's parser step after a prescan that found nothing in its bytes (the bytes' own reading,
    _plain_meta, skipped where those cover what it reads: the same steps over them, which stop sooner at
    most, find nothing either): what the step finds alone, read by the plain steps; and that reading finds
    nothing in as many bytes or fewer."""
    body = Body(data)
    prescanned = run._prescan(body, run.Settings(prescan_bytes))
    if prescanned is None:
        assert change._plain_meta(data, min(prescan_bytes, change._parser_head()), None) is None
    found, plain = run._parser_meta(body, encoding, limit, True), parser_meta_span(data, encoding, limit, shortcuts=False)
    assert (found and found[:3]) == (plain and plain[:3])  # (the tag's end: exact where ASCII precedes it only)


_UTF_8 = ENCODINGS["UTF-8"]
# Markup and text around the head bound: characters of three UTF-8 bytes (fewer characters than bytes), bytes
# UTF-8 reads as errors, padding, tags that take the tree builder out of the head, templates, metas that name
# an encoding or nothing (with a hint, and long ones).
_AROUND_THE_HEAD = [b"\xe3\x81\x82" * 150, b"\xff\xfe" * 200, b"x" * 300, b"<p>", b"<body>", b"<svg>", b"<template>",
                    b"</template>", b"<head>", b"<noscript>", b"</noscript>", b"<meta charset=koi8-r>",
                    b"<meta charset=zz>", b"<meta charset=\xe9>", b'<meta a="' + b"y" * 1500 + b' charset=koi8-r">',
                    b"<meta content='charset=windows-1251' http-equiv=content-type>", b"<!--", b"-->", b"\xe9", b" "]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_AROUND_THE_HEAD), max_size=40).map(b"".join), st.sampled_from([change.PARSER_LIMIT, 3000]))
@example(b"<p>" + b"\xe3\x81\x82" * 400 + b"<meta charset=koi8-r>", change.PARSER_LIMIT)  # past 1024 bytes, not characters
@example(b"<p>" + b"x" * 1100 + b"<meta charset=koi8-r>", change.PARSER_LIMIT)  # past both: none
@example(b"<head><template>" + b"\xe3\x81\x82" * 400 + b"<p></template><!--" + b"x" * 3000 + b"--><meta charset=koi8-r>",
         change.PARSER_LIMIT)  # windows-1252's scan stops in the template; UTF-8's returns to the head, reads on
@example(b"<p>" + b"\xe3\x81\x82" * 400 + b'<meta a="' + b"y" * 4000 + b' charset=koi8-r">', change.PARSER_LIMIT)
def test_a_single_byte_encodings_none_serves_utf_8_where_it_is_utf_8s(data, limit):
    """The run's parser step with UTF-8 after windows-1252's found no <meta> (utf_8_finds_none_alike):
    what the step finds with UTF-8 alone, read by the plain steps."""
    body = Body(data)
    run._parser_meta(body, ENCODINGS["windows-1252"], limit, True)
    found, plain = run._parser_meta(body, _UTF_8, limit, True), parser_meta_span(data, _UTF_8, limit, shortcuts=False)
    assert (found and found[:3]) == (plain and plain[:3])  # (the tag's end: exact where ASCII precedes it only)
    # (read in any single-byte text of the body, the run's own: the same answer as in its latin-1 text)
    assert all(change.utf_8_finds_none_alike(data, limit, encoding.decode(data)) is change.utf_8_finds_none_alike(data, limit)
               for encoding in (ENCODINGS["windows-1252"], ENCODINGS["KOI8-R"], ENCODINGS["windows-874"]))


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from([b"<", b"m", b"M", b"e", b"E", b"t", b"T", b"a", b"A", b"\x1b(B", b"\x1b(J", b"\x1b$B",
                                 b"\x1b(I", b"\x1b", b"(", b"B", b"x", b"<meta", b"<\x1b(Bm\x1b(Je"]), max_size=30).map(b"".join),
       st.integers(0, 40))
@example(b"<" * 50 + b"<meta", 0)  # a page of "<", then one
@example(b"<\x1b(BMeta", 0)  # an escape sequence between "<" and "m": the lookbehind's second form
def test_the_iso_meta_search_led_by_its_m_is_the_patterns(data, cut):
    """_iso_meta_in (led by the "m", the "<" in lookbehinds, from the first "m" on) against its plain
    twin, _ISO_META's search, in data cut anywhere."""
    end = max(len(data) - cut, 0)
    assert change._iso_meta_in(data, end) is (change._ISO_META.search(data, 0, end) is not None)
