"""Hostile markup (issue 37 item 1): the regexes that skip runs of tokens at C speed read what the
tokenizer reads token by token; the floods get the decisions a token-by-token reading gives (and
html5lib's, at a size it can afford); the work does not grow with the number of tokens (cProfile's
call counts, which load does not change); the parser step's byte bound applies on a flood."""
from __future__ import annotations

import cProfile
import importlib
import itertools
import pstats
import re
import string
import sys
from contextlib import contextmanager
from html.entities import html5

import pytest
from _html5lib_oracle import oracle_parser_meta
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding.tables.labels import LABELS
from scrapy_whatwg_encoding.sniffing._html.tokenizer import (
    ATTRIBUTES,
    COMMENT,
    COMMENT_END,
    COMMENT_ONE,
    COMMENT_RUN,
    LONGEST_TAG,
    META_CANDIDATE,
    POSSESSIVE,
    RUN_WINDOW,
    TAG,
    ascii_lowered,
    atomic_text,
    attribute_value,
    attribute_values,
    attributes,
    comment_end,
    copies_end,
    first_attribute,
    first_attributes,
    last_meta_attributes,
    raw_text_end,
    run_end,
    script_data_end,
    tag_name,
    tag_pattern,
    text_element,
)
from scrapy_whatwg_encoding.sniffing.browsers import (
    Seen,
    chromium_meta,
    chromium_meta_encoding,
    firefox_meta,
    firefox_meta_encoding,
)
from scrapy_whatwg_encoding.sniffing.change import PARSER_LIMIT, find_meta_bytes, parser_meta_span
from scrapy_whatwg_encoding.sniffing.parser_scan import (
    HINT_WINDOW,
    Hints,
    find_parser_meta,
    last_hint,
    last_meta_start,
    last_start,
    meta_starts,
    meta_tag_encoding,
    scan_parser_meta,
    tree_builder_metas,
)
from scrapy_whatwg_encoding.sniffing.prescan import prescan_metas

prescan_module = importlib.import_module("scrapy_whatwg_encoding.sniffing.prescan")  # the function prescan shadows it
tokenizer_module = importlib.import_module("scrapy_whatwg_encoding.sniffing._html.tokenizer")
parser_scan = importlib.import_module("scrapy_whatwg_encoding.sniffing.parser_scan")
browsers_module = importlib.import_module("scrapy_whatwg_encoding.sniffing.browsers")

KIB = 1024
META = b"<meta charset=koi8-r>"


def _whole(unit: bytes, size: int) -> bytes:
    return (unit * (size // len(unit))).ljust(size)


FLOODS = {
    "comments": lambda size: _whole(b"<!---->", size - len(META)) + META,
    "bad metas": lambda size: _whole(b'<meta http-equiv=content-type content="text/html;charset=zz">', size),
    "metas in scripts": lambda size: _whole(b"<script><meta charset=koi8-r></script>", size),
    "one script": lambda size: (b" " * 1024 + b"<script>" + _whole(META + b"\xe9", size))[:size],
    "distinct bad metas": lambda size: _distinct(b"<meta charset=koi8-%d>", size),
    "distinct bad http-equiv": lambda size: _distinct(b'<meta http-equiv=content-type content="charset=x%d">', size),
    "metas in comments": lambda size: _whole(b"<!--<meta charset=koi8-r>-->", size),
    # (hunted: each "<META" a tag with the next ones inside it, naming nothing; the units repeat)
    "metas in metas": lambda size: _whole(b"charset=koi8-r<br/>\xa1\xa1</<META <META <META ", size),
    # (hunted: copies of a tag that names nothing, numbered text between them)
    "copies, numbered between": lambda size: _distinct(b"<meta charset=koi8-r\x00>\x00%d&Tab;&Tab;&<h1>Title</h1>", size),
    # (hunted, stop 59: comments left open, of "-" and of "<!--", each read to the end at each step)
    "a comment of -": lambda size: b"<!--\xef\xbb\xbf&Tab;<svg><foreignObject>" + _whole(b"----", size - 85)
    + b'\x1b(B<meta charset=koi8-r><meta charset="shift_jis">',
    "<!-- in a comment": lambda size: b"<math><noscript>\xef\xbb\xbf" + _whole(b"<!--", size - 61) + META + b"\x1b(B" + META,
    # (hunted, stop 65: scripts that never leave their double-escaped state, read by the runs' pattern to
    # the end and then by the steps)
    "escaped scripts in a template": lambda size: b"<template>a < b<template>"
    + _whole(b"<b><b><script><!--<script><!--a < b<script><!--\xef\xbb\xbf</x", size - 62) + b'<meta charset="shift_jis">&</script>',
}


def _distinct(template: bytes, size: int) -> bytes:
    """*template* with 0, 1, 2 ... for its ``%d`` up to *size* bytes: no two tags alike."""
    parts, total = [], 0
    while total + len(part := template % len(parts)) <= size:
        parts.append(part)
        total += len(part)
    return b"".join(parts).ljust(size)
# What each flood gives at 64 KiB (and at 1 MiB, where the comments' meta lies past the parser
# step's bound): (standard, browsers) as (encoding, source).
EXPECTED = {
    "comments": (("KOI8-R", "parser"), ("KOI8-R", "parser")),
    "bad metas": (("windows-1252", "default"), ("windows-1252", "default")),
    "metas in scripts": (("KOI8-R", "prescan"), ("windows-1252", "default")),
    "one script": (("windows-1252", "detector"), ("windows-1252", "detector")),
    "distinct bad metas": (("windows-1252", "default"), ("windows-1252", "default")),
    "distinct bad http-equiv": (("windows-1252", "default"), ("windows-1252", "default")),
    "metas in comments": (("windows-1252", "default"), ("windows-1252", "default")),
    "metas in metas": (("ISO-8859-2", "detector"), ("ISO-8859-2", "detector")),
    "copies, numbered between": (("windows-1252", "default"), ("windows-1252", "default")),
    "a comment of -": (("UTF-8", "detector"), ("windows-1252", "detector")),
    "<!-- in a comment": (("UTF-8", "detector"), ("windows-1252", "detector")),
    "escaped scripts in a template": (("UTF-8", "detector"), ("windows-1252", "detector")),
}


# -- the runs read what the tokenizer reads, token by token ----------------------------------------
@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["-", "!", ">", "-->", "--!>", "--!", "<!--", "a", "--->"]), max_size=12).map("".join),
       st.integers(0, 12))
@example("-" * 5000 + "!>", 0)  # a flood of "-" (hunted, issue 37), then "!>": no end
def test_comment_end_equals_the_search(text, at):
    """comment_end (two C searches) ends where COMMENT_END's search does, from anywhere."""
    match = COMMENT_END.search(text, at)
    assert comment_end(text, at) == (-1 if match is None else match.end())


def _comment_items():
    """Every item pattern here that holds COMMENT (run_end's *one*), with whether it reads a text's
    ascii_lowered bytes: the module-level ones, the head runs' (with their elements of text, and
    without), Chromium's head run with its meta tags."""
    items = [(COMMENT_ONE, False), (parser_scan._QUIET_INITIAL[0], False), (parser_scan._quiet_end_tags(None)[0], False),
             (parser_scan._quiet_end_tags(frozenset(("head", "br")))[0], False), (parser_scan._FOREIGN_PUSH, True),
             (browsers_module._CHROMIUM_HEAD_ONE, False), (browsers_module._CHROMIUM_BODY_ONE, False),
             (browsers_module._chromium_head(())[0], False),
             (browsers_module._with_item(browsers_module._CHROMIUM_HEAD_ONE, browsers_module._HEAD_METAS)[0], False)]
    items += [(runs[0], False) for pair in parser_scan._VOID_HEAD_RUNS.values() for runs in pair]
    assert all(tokenizer_module._holds_comments(one.pattern) for one, _ in items)
    return items


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["<!--", "-", "--", "-->", "--!>", "--!", ">", "!>", "a", "<p>", "<!", "<", "x-",
                                 "<meta charset=koi8-r>", "<script>", "</script>"]), max_size=24).map("".join),
       st.integers(0, 200))
@example("----" * 40 + "<meta charset=koi8-r>", 200)  # hunted (stop 59): a comment of "-" left open
@example("<!--" * 40 + "<meta charset=koi8-r>", 200)
def test_an_item_at_a_comment_left_open_is_none(rest, cut):
    """At a "<!--" that no "-->" nor "--!>" ends, no item of a pattern that holds COMMENT matches (each
    other item fails there): _item_end answers ``None`` at once, equal to its plain twin (the pattern)
    at every "<!--" and wherever the text is cut, closed comments too; a "<!--" in a text's
    ascii_lowered bytes alike."""
    text = "<!--" + rest
    end = min(len(text), cut + 4)
    for one, lowered in _comment_items():
        subject = ascii_lowered(text) if lowered else text
        for at in [m.start() for m in re.finditer("<!--", text)]:
            item = one.match(subject, at, end)
            assert tokenizer_module._item_end(one, subject, at, end, False) == (None if item is None else item.end())


def _stray_text_items():
    """Every item pattern here that holds TEXT_WITH_STRAY_LT (run_end's *one*): Chromium's head run
    (with its elements of text, some, none) and with its meta tags."""
    head = browsers_module._CHROMIUM_HEAD_ONE
    items = [head, browsers_module._chromium_head(())[0], browsers_module._chromium_head(("title",))[0],
             browsers_module._with_item(head, browsers_module._HEAD_METAS)[0]]
    assert all(tokenizer_module._holds_stray_text(one.pattern) for one in items)
    assert not tokenizer_module._holds_stray_text(browsers_module._CHROMIUM_BODY_ONE.pattern)
    return items


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["<", "<<", "a", "Z", "!", "/", "?", " ", "\x82", "\x1b$B", "<a", "<Z", "<1", "<!--",
                                 "-->", ">", "<?", "</", "é", "<meta charset=koi8-r>", "<script>", "</script>",
                                 "<title>", "</title>"]), max_size=24).map("".join),
       st.integers(0, 200))
@example("\xa1\xa1" + "\x1b$B<\x82<\x82<" * 30 + "?></title>\x1b(B<meta charset=koi8-r>", 200)  # hunted (stop 60)
@example("a<<", 3)  # a run of "<" that ends the text: the last given back
@example("a<<b", 4)
def test_an_item_at_another_character_is_its_text_with_stray_lts(text, cut):
    """At a character other than "<", the only item of a pattern that holds TEXT_WITH_STRAY_LT that
    matches is that text: _item_end finds its end by one search, equal to its plain twin (the
    pattern) at every position and wherever the text is cut (at a "<", the pattern as before)."""
    end = min(len(text), cut)
    for one in _stray_text_items():
        for at in range(end + 1):
            item = one.match(text, at, end)
            assert tokenizer_module._item_end(one, text, at, end, False) == (None if item is None else item.end())


_HINT_PIECES = st.lists(st.sampled_from([b"<meta charset=", b"<meta ", b"charset=", b"=", b" ", b"'", b">", b"&", b"&#x20;",
                                          b"&#32;", b"&quot;", b"&#x6b;", b"koi8-r", b"xx", b"?", b"\xc3\xa9", b"\xe9",
                                          b"\xe3\x81\x82", b"\xff"]), max_size=20).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(_HINT_PIECES, _HINT_PIECES, st.booleans())
@example(b"<meta charset=<template>\xc3\xa9" + b"xx&#x20;&#x20;" * 20 + b"<!-->", b"", True)  # hunted (stop 60)
@example(b"<meta charset=\xc3\xa9 koi8-r ", b"", True)  # a hint in UTF-8's text only? (no: the same in both)
def test_texts_alike_but_for_their_other_characters_share_no_hint(body, other, same):
    """The parser step's texts of the same bytes as windows-1252 and as UTF-8 (or of another body):
    the hints of the second, where the first's are known, equal its hints found alone (the search)."""
    first = ENCODINGS["windows-1252"].decode(body)
    second = ENCODINGS["UTF-8"].decode(body if same else other)
    parser_scan.forget()
    assert parser_scan._first_and_lasts(first) == _hints_searched(first)
    assert parser_scan._first_and_lasts(second) == _hints_searched(second)


def _hints_searched(text: str) -> tuple[int, tuple[int, int]]:
    """_first_and_lasts' plain twin: the first "<meta", then each pattern's last hint, searched."""
    lowered, length = ascii_lowered(text), parser_scan._HINT_LENGTH
    first = parser_scan._first_meta(lowered)
    if first >= len(text):
        return first, (-1, -1)
    label = parser_scan.last_start(parser_scan._LABEL_HINTS, lowered, len(text), length, first)
    reference = parser_scan.last_start(parser_scan._REFERENCE_HINTS, lowered, len(text), length, max(first, label))
    return first, (max(reference, label), label)


def test_the_second_text_of_a_page_without_hints_is_not_searched(monkeypatch):
    """The hunted page's UTF-8 text, after its windows-1252 text: no search of its hints."""
    body = b"<meta charset=<template>\xc3\xa9" + b"xx&#x20;&#x20;" * 4000 + b"<!-->"
    parser_scan.forget()
    assert parser_scan._first_and_lasts(ENCODINGS["windows-1252"].decode(body)) == (0, (-1, -1))
    searched = []
    monkeypatch.setattr(parser_scan, "last_start", lambda *args: searched.append(args) or -1)
    assert parser_scan._first_and_lasts(ENCODINGS["UTF-8"].decode(body)) == (0, (-1, -1))
    assert searched == []


def _comments_one_by_one(text: str) -> int:
    """End of the comments that start *text*, one COMMENT_END search each (§13.2.5.43-52)."""
    pos = 0
    while text.startswith("<!--", pos):
        after = pos + 4
        if text.startswith(">", after):
            pos = after + 1
        elif text.startswith("->", after):
            pos = after + 2
        else:
            match = COMMENT_END.search(text, after)
            if match is None:
                break
            pos = match.end()
    return pos


_PIECES = st.lists(st.sampled_from(["<!--", "-->", "--!>", "-", "->", ">", "!", "a", "<", " ", "<!-->", "<!--->"]),
                   max_size=14).map("".join)


@settings(max_examples=400, deadline=None)
@given(_PIECES)
def test_a_comment_run_ends_where_comment_by_comment_does(text):
    match = COMMENT_RUN.match(text)
    assert (0 if match is None else match.end()) == _comments_one_by_one(text)


def _alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern "<!--(?:A|B|...)" (COMMENT)."""
    assert pattern.startswith("<!--(?:") and pattern.endswith(")")
    parts, depth, start, body = [], 0, 0, pattern[len("<!--(?:"):-1]
    for k, c in enumerate(body):
        if c == "\\" or (k and body[k - 1] == "\\"):
            continue
        depth += c in "([" and not (k and body[k - 1] == "\\")
        depth -= c in ")]"
        if c == "|" and depth == 0:
            parts.append(body[start:k])
            start = k + 1
    return [*parts, body[start:]]


@settings(max_examples=400, deadline=None)
@given(_PIECES)
@example("<!-- a -->")  # the commonest form: one way only (was two, 2^n tries on Python 3.10)
@example("<!---->")
@example("<!-- a-b --!>")
def test_a_comment_matches_one_way(text):
    """Each comment matches COMMENT one way: one alternative, one end (so a pattern that backtracks
    over a run of comments, a noscript element left open on Python 3.10, tries each once)."""
    alternatives = _alternatives(COMMENT)
    assert len(alternatives) == 2
    ways = [(alternative, end) for alternative in alternatives for end in range(len(text) + 1)
            if re.fullmatch("<!--" + alternative, text[:end])]
    assert len(ways) <= 1, ways


# The comment pattern's plain twin: a lazy repeat to the first end ("<!-->" and "<!--->" at once).
_LAZY_COMMENT = re.compile(r"<!--(?:-?>|[\s\S]*?--!?>)")


@settings(max_examples=1000, deadline=None)
@given(_PIECES, st.lists(st.sampled_from(["<!--", "-", "->", "-->", "--!>", "--!", ">", "a"]), max_size=10).map("".join))
def test_a_comment_ends_where_the_lazy_repeat_ends(before, text):
    """COMMENT (its commonest form first, then one that never passes an end) matches where a lazy
    repeat to the first end does, after anything and wherever the text is cut."""
    text = "<!--" + text + before
    for end in range(4, len(text) + 1):
        ours, lazy = COMMENT_ONE.match(text, 0, end), _LAZY_COMMENT.match(text, 0, end)
        assert (ours and ours.end()) == (lazy and lazy.end())


def test_characters_end_at_the_first_lt_that_starts_markup():
    """The parser step's characters (text and stray "<"s) end at the first "<" followed by a
    letter, "!", "/" or "?" before *end*, else at *end*: every text of up to five characters
    (runs of "<" among them, taken at C speed), from every start to every end."""
    for size in range(6):
        for text in map("".join, itertools.product('<zA! ?/\x82', repeat=size)):
            for end in range(size + 1):
                for pos in range(end + 1):
                    markup = next((i for i in range(pos, end - 1) if text[i] == "<" and text[i + 1] in "!/?zA"), end)
                    assert parser_scan._characters_end(text, pos, end) == markup, (text, pos, end)


_UNITS = st.sampled_from(["<!---->", "<!-- x -->", "<p>", "<a b='>'>", "<script>x</script>", "<title>a<b</title>",
                          "<!--<meta charset=utf-8>-->", "<", "x", "</p>", "<script><!--</script>", "-->", "<p ",
                          "<meta charset=utf-8>", "<b>", "<a><b>", "x<p>", "<!-- x --><p>", "</p><", "<b><"])


@settings(max_examples=1000, deadline=None)
@given(st.lists(_UNITS, min_size=1, max_size=10).map("".join), st.integers(min_value=0, max_value=70),
       st.lists(_UNITS, max_size=4).map("".join), st.integers(min_value=0, max_value=400),
       st.lists(_UNITS, max_size=10).map("".join))
@example("<!---->-->x<!---->", 40, "<p", 400, "")  # a unit of three items
@example("<p>" * 9, 40, "", 400, "")  # nine items: copies of a shorter unit
@example("<p></p><", 40, "", 400, "x<b>")  # copies past a prefix of other items
def test_a_run_with_copies_skipped_ends_where_the_run_ends(unit, copies, tail, cut, prefix):
    """Copies of a unit of up to UNIT_ITEMS items (past up to UNIT_ITEMS others) skipped in O(log n)
    steps, then the run: where the run alone ends, whatever follows the last copy and wherever the
    text is cut."""
    text = prefix + unit * copies + tail
    end = min(cut, len(text))
    alone = COMMENT_RUN.match(text, 0, end)
    for window in (RUN_WINDOW, 1, 7, 20, 64):  # the run within a window first, wherever it ends
        assert run_end(COMMENT_ONE, COMMENT_RUN, text, 0, end, window) == (0 if alone is None else alone.end())
    data = text.encode()  # the prescan's runs, over bytes; the parser step's foreign pushes
    for one, run in ((prescan_module._RUN_ONE, prescan_module._RUN), (parser_scan._FOREIGN_PUSH, parser_scan._FOREIGN_PUSHES)):
        alone = run.match(data, 0, end)
        for window in (RUN_WINDOW, 1, 7, 20, 64):
            assert run_end(one, run, data, 0, end, window) == alone.end()
    whole = 0  # copies of the unit, one by one
    while len(prefix) + (whole + 1) * len(unit) <= end and text.startswith(unit, len(prefix) + whole * len(unit)):
        whole += 1
    assert copies_end(text, len(prefix), unit, end) == len(prefix) + whole * len(unit)


_NUMBERED_UNITS = st.sampled_from(["%d", "</>", "<!---->", "<!-- %d -->", "<p>", "</p>", "<h%d>", "</h%d>", "&#%d;",
                                   "<a b=%d>", "<", "<%d", "x", " ", "<?x%d>", "<!x>", "</x>", "<script>%d</script>",
                                   "<head>", "</head>", "<title>%d</title>", "\x80"])


def _numbered(unit: str, copies: int) -> str:
    return "".join(unit.replace("%d", str(k)) for k in range(copies))


@settings(max_examples=500, deadline=None)
@given(st.lists(_NUMBERED_UNITS, min_size=1, max_size=6).map("".join), st.integers(min_value=0, max_value=400),
       st.lists(_NUMBERED_UNITS, max_size=4).map("".join), st.integers(min_value=0, max_value=6000),
       st.lists(_NUMBERED_UNITS, max_size=6).map("".join))
@example("%d</></>", 400, "", 6000, "--\xfe\xff<<")  # hunted (issue 37): Chromium's head run
@example("%d</h%d></>", 400, "<meta charset=koi8-r>", 6000, "")  # a number in a name: no numbered copies
@example("&#%d;</>", 400, "", 6000, "<head>")  # in a reference
def test_a_run_with_copies_but_for_their_numbers_skipped_ends_where_the_run_ends(unit, copies, tail, cut, prefix):
    """Copies of a unit but for its runs of digits where each is character data (numbered_copy),
    skipped in one match where they reach further than exact copies: where the run alone ends,
    for the parser step's and Chromium's runs, whatever follows and wherever the text is cut."""
    from scrapy_whatwg_encoding.sniffing import browsers

    text = prefix + _numbered(unit, copies) + tail
    end = min(cut, len(text))
    runs = [(COMMENT_ONE, COMMENT_RUN), (browsers._CHROMIUM_HEAD_ONE, browsers._CHROMIUM_HEAD_RUN),
            (browsers._CHROMIUM_BODY_ONE, browsers._CHROMIUM_BODY_RUN), parser_scan._QUIET_INITIAL,
            parser_scan._quiet_end_tags(None), parser_scan._quiet_end_tags(frozenset(("head", "h1", "h2")))]
    for one, run in runs:
        alone = run.match(text, 0, end)
        for window in (RUN_WINDOW, 1, 7, 64):
            assert run_end(one, run, text, 0, end, window) == (0 if alone is None else alone.end()), (one.pattern[:40], window)


_LONG_ITEMS = st.sampled_from(["", " " * 70, "x" * 3000, "<!--" + "y" * 80 + "-->", "<a " + "b " * 50 + ">", "<?" + "z" * 90 + ">"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_LONG_ITEMS, st.lists(_NUMBERED_UNITS, min_size=1, max_size=4).map("".join),
                          st.integers(min_value=0, max_value=300)), min_size=1, max_size=3),
       st.integers(min_value=0, max_value=20000), st.sampled_from([RUN_WINDOW, 7, 64]))
@example([("<html>" + " " * 2200, "</></>", 3000)], 20000, RUN_WINDOW)  # hunted (issue 37): 3.0 / 11.0 ms at 64 KiB
@example([("", "<p>", 300), ("", "</>", 300), (" " * 70, "<!---->", 300)], 20000, 64)  # floods one after another
def test_a_run_of_floods_after_long_items_ends_where_the_run_ends(parts, cut, window):
    """Long items (text, comments, tags, bogus comments longer than the window) each followed by a
    flood of a unit, exact or numbered, one after another: run_end goes on from the end of a long
    item, or of far-reaching copies, as from the start; it ends where the run alone does, for the
    parser step's and Chromium's runs, wherever the text is cut."""
    from scrapy_whatwg_encoding.sniffing import browsers

    text = "".join(long + _numbered(unit, copies) for long, unit, copies in parts)
    end = min(cut, len(text))
    runs = [(COMMENT_ONE, COMMENT_RUN), (browsers._CHROMIUM_HEAD_ONE, browsers._CHROMIUM_HEAD_RUN),
            (browsers._CHROMIUM_BODY_ONE, browsers._CHROMIUM_BODY_RUN), parser_scan._QUIET_INITIAL,
            parser_scan._quiet_end_tags(None), parser_scan._quiet_end_tags(frozenset(("head", "h1", "h2")))]
    for one, run in runs:
        alone = run.match(text, 0, end)
        assert run_end(one, run, text, 0, end, window) == (0 if alone is None else alone.end()), (one.pattern[:40], window)


def test_a_flood_after_a_long_item_is_run_past_its_copies():
    """A 64 KiB flood of "</>" after 2 KiB of text (hunted, issue 37, after "<html>"): the run is
    matched in windows, and whole only past the copies, not from the end of the text."""
    text = " " * 2200 + "</>" * 21000
    for one, pattern in ((browsers_module._CHROMIUM_HEAD_ONE, browsers_module._CHROMIUM_HEAD_RUN),
                         parser_scan._quiet_end_tags(None)):
        counted = _Counted(pattern)
        assert run_end(one, counted, text, 0, len(text)) == pattern.match(text).end() == len(text)
        assert all(end_ <= start + RUN_WINDOW or start >= len(text) - 6 for start, end_ in counted.spans), counted.spans


class _Counted:
    """A pattern whose ``match`` calls are recorded (their start positions)."""

    def __init__(self, pattern):
        self.pattern, self.starts, self.spans = pattern, [], []

    def match(self, text, pos, end):
        self.starts.append(pos)
        self.spans.append((pos, end))
        return self.pattern.match(text, pos, end)


@pytest.mark.parametrize(("run", "prefix", "unit"), [
    ("HEAD", "", "</ ><</ >"), ("HEAD", '"', "</ ><</ >"), ("HEAD", "x<link>" * 7, "<!---->x<link></ >"),
    ("HEAD", '"', "<!---->" + "<link>" * 7), ("BODY", "x<b>" * 7, "<!---->x<p><b>"), ("BODY", '"', "<!---->" + "<p>" * 7),
    ("HEAD", "<link>", "\x1b$B<\x82<<1")])
def test_a_flood_of_a_unit_of_items_is_run_past_its_copies(run, prefix, unit):
    """A 64 KiB flood of a unit of up to UNIT_ITEMS items (a hunted body: "</ ><</ >" after a quote,
    in Chromium's head scan) after a prefix of up to UNIT_ITEMS items: the run is matched whole only
    past the copies (a few items before the end), and ends where the run alone does. (Text with
    stray "<"s, a hunted body too, is one item: the run is matched after it.)"""
    text = prefix + unit * (64 * 1024 // len(unit))
    one, pattern = (getattr(browsers_module, f"_CHROMIUM_{run}_{kind}") for kind in ("ONE", "RUN"))
    assert pattern.match(text).end() == len(text)
    counted = _Counted(pattern)
    assert run_end(one, counted, text, 0, len(text)) == len(text)
    assert counted.starts[-1] >= len(text) - 2 * len(unit), counted.starts


def _element_by_steps(text: str, name: str) -> int:
    """End of the element of text *name* that starts *text* (start tag, text, end tag), -1 if
    the text is not closed or the end tag is cut: the scanner's steps."""
    start = TAG.match(text)
    if start is None or start.group(2).lower() != name or start.group(1):
        return -1
    close = script_data_end(text, start.end()) if name == "script" else raw_text_end(text, start.end(), name)
    end = None if close < 0 else TAG.match(text, close)
    return -1 if end is None else end.end()


_BODIES = st.lists(st.sampled_from(["<", "/", "script", "SCRIPT", "style", "<!--", "-->", ">", " ", "a", '"', "=",
                                    "</script", "</style", "</Script>", "<script>", "x=\">\"", "<<<", "</title",
                                    "</TITLE>", "title"]), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["script", "style", "title"]), st.sampled_from(["", " a=1", ' a=">"', "/"]), _BODIES)
@example("title", "", "<<<</title>")  # runs of "<" a step each, the last before the end tag its start
def test_an_element_of_text_in_one_match_is_the_tokenizer_steps(name, attributes, rest):
    """Where it matches, it ends where the steps end (a script may leave hard cases to them); an
    RCDATA or RAWTEXT element matches wherever the steps close it."""
    text = f"<{name}{attributes}>{rest}"
    match = re.compile(text_element(name, ""), re.ASCII).match(text)
    if match is not None:
        assert match.end() == _element_by_steps(text, name)
    elif name != "script":
        assert _element_by_steps(text, name) == -1


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["script", "title"]), _BODIES, st.integers(0, 40))
def test_atomic_text_matches_alike_in_both_forms(name, rest, cut):
    """The possessive form (Python 3.11+) and the lookahead form (3.10) of an element's text."""
    stop = rf"<(?!!--|/(?i:{name})[\t\n\x0c\r />])"
    text = f"<{name}>{rest}</{name}>" + rest
    possessives = (True, False) if sys.version_info >= (3, 11) else (False,)  # 3.10 compiles no "*+"
    forms = [re.compile(f"<{name}>" + atomic_text(stop, "", possessive) + f"</(?i:{name})>") for possessive in possessives]
    ends = {(match and match.end()) for match in (form.match(text, 0, cut) for form in forms)}
    assert len(ends) == 1


def _spec_tag(text: str):
    """The tokenizer's steps for the tag at the start of *text* ("<", maybe "/", an ASCII letter),
    transcribed from HTML §13.2.5.6-8 and §13.2.5.32-40 a character at a time: (offset after its
    ">", its attributes as written, name and value, in order, duplicates kept; the self-closing
    flag), or None where the input ends inside it."""
    ws, n = "\t\n\x0c\r ", len(text)
    i = 2 if text[1] == "/" else 1
    while i < n and text[i] not in ws + "/>":  # tag name state
        i += 1
    attrs: list[list[str]] = []
    state = "before attribute name"
    while i < n:
        c = text[i]
        if state == "before attribute name":
            if c in ws:
                i += 1
            elif c in "/>":
                state = "after attribute name"
            else:  # "=" starts a name; anything else is reconsumed in the attribute name state
                attrs.append([c if c == "=" else "", ""])
                i, state = i + (c == "="), "attribute name"
        elif state == "attribute name":
            if c in ws + "/>":
                state = "after attribute name"
            elif c == "=":
                i, state = i + 1, "before attribute value"
            else:
                attrs[-1][0] += c
                i += 1
        elif state == "after attribute name":
            if c in ws:
                i += 1
            elif c == "/":
                i, state = i + 1, "self-closing start tag"
            elif c == "=":
                i, state = i + 1, "before attribute value"
            elif c == ">":
                return i + 1, attrs, False
            else:
                attrs.append(["", ""])
                state = "attribute name"
        elif state == "before attribute value":
            if c in ws:
                i += 1
            elif c in "\"'":
                i, state = i + 1, c
            elif c == ">":
                return i + 1, attrs, False
            else:
                state = "unquoted"
        elif state in "\"'":  # attribute value (double- or single-quoted) state
            if c == state:
                i, state = i + 1, "after attribute value (quoted)"
            else:
                attrs[-1][1] += c
                i += 1
        elif state == "unquoted":
            if c in ws:
                i, state = i + 1, "before attribute name"
            elif c == ">":
                return i + 1, attrs, False
            else:
                attrs[-1][1] += c
                i += 1
        elif state == "after attribute value (quoted)":
            if c in ws:
                i, state = i + 1, "before attribute name"
            elif c == "/":
                i, state = i + 1, "self-closing start tag"
            elif c == ">":
                return i + 1, attrs, False
            else:
                state = "before attribute name"
        else:  # self-closing start tag state
            if c == ">":
                return i + 1, attrs, True
            state = "before attribute name"
    return None  # EOF in a tag: no token


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(["<a", "</a", "<meta", "<A"]),
       st.lists(st.sampled_from([" ", "\t", "/", "=", '"', "'", ">", "a", "B", "<", "\x00", "&amp;", "x=y", "/>"]),
                max_size=16).map("".join))
def test_tag_reads_a_tag_as_the_tokenizer_steps(start, rest):
    """TAG (both forms) against a transcription of the tokenizer's states: where the tag ends,
    its attributes as ATTRIBUTES reads group 3, and the self-closing flag as the tail gives it."""
    text = start + rest
    expected = _spec_tag(text)
    for pattern in {TAG, re.compile(tag_pattern(False))}:
        match = pattern.match(text)
        if expected is None:
            assert match is None
            continue
        assert match is not None
        attrs = [[m.group(1), next((v for v in m.group(2, 3, 4) if v is not None), "")]
                 for m in ATTRIBUTES.finditer(match.group(3)) if m.group(1)]
        assert (match.end(), attrs, match.group("tail").endswith("/")) == expected


@settings(max_examples=1000, deadline=None)
@given(st.one_of(
    st.lists(st.sampled_from([" ", "\t", "/", "=", '"', "'", "a", "<", "\x00", "&amp;", "&#99;", "charset", "CharSet",
                              "content", "http-equiv", "type", "=x", "charsetx", "content-TYPE", "'content-type'"]),
             max_size=20).map("".join),
    st.lists(st.tuples(st.sampled_from([" ", "/", "\t", ""]),
                       st.sampled_from(["charset", "CharSet", "content", "http-equiv", "HTTP-EQUIV", "type", "a", "charsetx", "=x",
                                        'x"y']),
                       st.sampled_from(["", "=v", '="content-type"', "='Content-Type'", "=content-type", "=content&#45;type",
                                        '="koi8&#45;r"', "=\x00", '=""', " = 'x y'", "=content-type\x00", "=&#99;ontent-type"])),
             max_size=8).map(lambda parts: "".join(map("".join, parts)))),
       st.lists(st.sampled_from(["charset", "content", "http-equiv", "type", "a"]), min_size=1, max_size=3, unique=True))
def test_named_attributes_are_those_every_attribute_gives(rest, names):
    """first_attributes, attribute_values and last_meta_attributes (C-speed matches over the
    attributes they skip) against every attribute read one by one (ATTRIBUTES, as
    :func:`attributes` and the browsers' models read them)."""
    tag = TAG.match(f"<meta {rest}>")
    if tag is None:
        return  # no tag: nothing is read
    span = tag.group(3)
    # Past _LOOK_FIRST the names are looked for as text first: filler before and after the tag's
    # attributes, and more named ones than are read one by one after them or in them.
    for text in (span, " z=1" * 80 + span, span + " z=1" * 80, span + " content=a http-equiv=b" * 5 + " z=1" * 80,
                 (span + " ") * 10 + " z=1" * 30):
        every = [(tag_name(match.group(1)), attribute_value(match)) for match in ATTRIBUTES.finditer(text) if match.group(1)]
        firsts: dict[str, str] = {}
        for named, value in every:
            if named in names:
                firsts.setdefault(named, value)
        assert list(first_attributes(text, tuple(names))) == list(firsts.items())  # in the order they come
        assert first_attribute(text, names[0]) == attributes(text).get(names[0])
        assert attribute_values(text, names[0]) == [value for named, value in every if named == names[0]]
        last = dict(every)
        content_type = any(named == "http-equiv" and value.lower() == "content-type" for named, value in every)
        assert last_meta_attributes(text) == (last.get("charset"), last.get("content"), content_type)


# Pieces of a long meta tag's attributes (no ">"): duplicated charset, content and http-equiv,
# quotes left open, character references, NULs; and what may end it (">" inside quoted values,
# more tags).
_LONG_TAG_PIECES = st.lists(st.sampled_from([
    " ", "\t", "/", "=", " = ", '"', "'", "a", "<", "\x00", "&amp;", "&#45;", "charset", "CharSet", "content",
    "http-equiv", "HTTP-EQUIV", "charsetx", "=x", "=koi8-r", '="utf-8', "='koi8-r'", '="content-type"',
    "=content-type", "=content&#45;type", "='Content-Type'", '="text/html; charset=koi8-r"', "=\x00", "<meta ",
    "charset=", '"charset', "&quot;", " http-equiv=content&#45;type", " http-equiv='Content&#45;Type'"]),
    min_size=1, max_size=12).map("".join)
_LONG_TAG_ENDS = st.lists(st.sampled_from([
    ">", '">', "'>", "/>", ' a=">"', " charset=koi8-r>", ' content="a>b" http-equiv=content-type>', "<meta charset=utf-8>",
    " x", '"', "'", " charset='", "=", "&#62;"]), max_size=5).map("".join)


_AFTER_OPENING = st.lists(st.sampled_from([
    "<meta charset=koi8-r>", "<meta charset=zz>", "<meta a=b>", "<p>", "<title>", "</title>", "<svg>", "<!--", "-->", " ",
    "x", "<", ">", '"', "charset=utf-8", "<meta charset=utf-8", "<head>", "<script>", "</script>", "&#45;"]),
    max_size=8).map("".join)


@settings(max_examples=300, deadline=None)
@given(_LONG_TAG_PIECES, st.integers(0, 2), _LONG_TAG_ENDS, _AFTER_OPENING, st.sampled_from(["<meta ", "<META\t", "<meta/"]))
@example('charset="utf-8<meta ', 2, ">", "", "<meta ")  # the hostile row's shape (no ">" but the last)
@example('charset="utf-8<meta ', 2, '">', "<p><meta charset=koi8-r>", "<meta ")
@example("a", 0, ' charset="utf-8" charset=zz>', " <p>", "<meta ")  # short, naming nothing, past the last hint
def test_chromiums_scan_of_a_text_opening_with_a_long_meta_is_its_twins(unit, times, end, after, start):
    """Chromium's scan (answer and Seen) with its shortcut for a text that opens with a long meta
    tag (no cutoff where the tag names an encoding or holds the last hint) and with its twin (the
    loop after last_meta_start), on texts that open with a meta tag, long or not, ended or not."""
    text = start + unit * (times * (LONGEST_TAG // len(unit) + 1)) + end + after
    body = text.encode("latin-1", "replace")
    both = []
    for shortcut in (True, False):
        seen = Seen()
        with pytest.MonkeyPatch.context() as patch:
            if not shortcut:
                patch.setattr(browsers_module, "_opening_long_meta", lambda text, hints, spans: (None, browsers_module._UNREAD))
            browsers_module.forget()
            found = chromium_meta(body, len(body), 1024, seen)
        both.append((found, seen.reach, seen.spans, seen.tree_states))
    assert both[0] == both[1]


_TAG_SOUP = st.lists(st.sampled_from(["<meta", "<a", " ", "\t", "/", "=", "==", '"', "'", ">", "a", "b", "<", "x=", "-->"]),
                     max_size=24).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TAG_SOUP, st.integers(0, 60))
def test_a_tag_read_within_a_window_is_the_tag_or_none(text, cut):
    """What meta_starts and the prescan's shortcuts rely on (LONGEST_TAG): a match that ends
    within the window is the whole text's; and both forms of TAG (atomic groups on Python 3.11+,
    lookaheads and backreferences on 3.10) read every tag alike."""
    whole = TAG.match(text)
    within = TAG.match(text, 0, cut)
    assert within is None or (whole is not None and within.group(0, 1, 2, 3, "tail") == whole.group(0, 1, 2, 3, "tail"))
    if whole is not None and whole.end() <= cut:
        assert within is not None
    if POSSESSIVE:  # Python 3.10 compiles no "(?>"
        other = re.compile(tag_pattern(False)).match(text)
        assert (other and other.group(0, 3)) == (whole and whole.group(0, 3))


def _reads(span: str):
    return meta_tag_encoding(span) if span else None


@contextmanager
def _hint_window(window: int):
    """:class:`Hints` searching *window* characters at first (:data:`.parser_scan.HINT_WINDOW`)."""
    saved = parser_scan.HINT_WINDOW
    parser_scan.HINT_WINDOW = window
    try:
        yield
    finally:
        parser_scan.HINT_WINDOW = saved


def _both_ways(text: str, reads, **kwargs):
    """:func:`meta_starts` and :func:`last_meta_start` with their shortcuts and as the plain steps,
    with hints that are hints (a window past the text: a bound of :meth:`Hints.after` leaves
    tags that name nothing to be read, or yielded unread where long, wherever asked, and the
    shortcuts ask at fewer places; test_hints_that_answer_with_bounds_change_no_answer holds the
    bounds)."""
    with _hint_window(len(text) + 1):
        return [(list(meta_starts(text, reads, shortcut=shortcut, **kwargs)),
                 last_meta_start(text, reads, shortcut=shortcut, **kwargs)) for shortcut in (True, False)]


_TAGS = st.lists(st.sampled_from(['<meta charset=zz>', '<meta charset=utf-8>', '<meta a="<meta charset=koi8-r>">', "<!--",
                                  "-->", " ", "<meta charset=zz", ">", "x", "<meta charset=koi8-5>", "&", "charset=utf-8",
                                  '<meta http-equiv=content-type content="charset=koi8-r">', '<meta content="charset=utf8">',
                                  '<meta charset="koi&#56;-r">', '<p title="<meta charset=utf-8>">', "<meta a='",
                                  "<meta charset=koi8-r charset=zz>", "<meta charset=\x01koi8-r>"]),
                 max_size=20).map("".join)


def _chromium_reads(span: str):
    return chromium_meta_encoding(span)


@settings(max_examples=500, deadline=None)
@given(_TAGS, st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]), st.sampled_from([LONGEST_TAG, 30]))
def test_metas_that_name_an_encoding_are_found_with_copies_and_runs_skipped(text, reads, longest):
    """Copies of a tag that names nothing, and runs of tags without a hint, are skipped unread;
    every candidate that a reader (the standard's, each model's) names something in is found, and
    no other but long tags (not read within *longest* characters, a ">" past them) and the
    "<meta" in their first *longest* characters: exactly those where no tag is long."""
    candidates = [match.start() for match in META_CANDIDATE.finditer(text)]
    every = [at for at in candidates if (tag := TAG.match(text, at)) is not None and reads(tag.group(3)) is not None]
    long = [at for at in candidates if TAG.match(text, at, at + longest) is None and text.rfind(">") >= at + longest]
    found = list(meta_starts(text, reads, longest=longest))
    assert found == sorted(set(found))  # in order, each once
    assert set(every) <= set(found)
    for at in set(found) - set(every):
        assert any(start <= at < start + longest for start in long if start in found)
    last = last_meta_start(text, reads, longest=longest)
    assert last == -1 or last in set(found) | set(long)
    assert last >= (every[-1] if every else -1)
    if not long:
        assert found == every
        assert last == (every[-1] if every else -1)


_LONG_TAGS = st.lists(st.sampled_from(['<meta a="', "<meta charset=utf-8", '<meta charset="utf-8', "<meta charset=koi8-r>",
                                       "y" * 25, " ", '"', "'", ">", "&", "&#45;", "charset=koi8-r", '<p title="', "<meta ",
                                       '<meta content="charset=koi8-r" http-equiv=content-type', "<!--", "-->"]),
                      max_size=30).map("".join)


@settings(max_examples=500, deadline=None)
@given(_LONG_TAGS, st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]), st.sampled_from([20, 30, 60]),
       st.integers(0, 3))
@example('<meta a="' + "y" * 25 + " charset=koi8-r " + ("<meta a=" + "y" * 25) * 4 + '">', _reads, 20, 0)  # past the last hint
@example('<meta a="' + "y" * 25 + ("<meta b=" + "y" * 25) * 3 + "> charset=koi8-r>", _reads, 20, 0)  # the hint past the ">"
def test_long_tags_after_a_long_tag_are_found_as_the_plain_steps_find_them(text, reads, longest, copies):
    """meta_starts and last_meta_start with the shortcut that yields the long tags after a long
    tag (up to the next ">") without the plain steps, against those steps (shortcut=False); on
    texts of long tags, quotes left open, "<meta" inside them, and a few copies of each."""
    text = text * (copies + 1)
    both = _both_ways(text, reads, longest=longest)
    assert both[0] == both[1]


# Tags with a hint inside that name nothing (in the standard's reading), so that each is read.
_NAMING_NOTHING = st.sampled_from(["<meta charset=koi8-r\x00>", '<meta content="charset=koi8-r">', "<meta charset=koi8-r&>",
                                    '<meta http-equiv=x content="charset=utf-8">', "<meta charset=zz>",
                                    # "<meta" inside: a quote that runs into the next copy, a tag in a value
                                    '<meta charset="--><a><', '<meta a="<meta charset=zz>">', "<meta a='<meta b='"])
_BETWEEN = st.lists(st.sampled_from(["<!-- x -->", "<?x", "x", "<me", "ta ", "<meta", "<p>", ">", '"', "charset=koi8-r",
                                     "<meta charset=koi8-r>", " ", "&#X63;harset", "=koi8-r"]), max_size=4).map("".join)


@settings(max_examples=500, deadline=None)
@given(_NAMING_NOTHING, _BETWEEN, st.integers(0, 40), _BETWEEN, _LONG_TAGS,
       st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]))
@example("<meta charset=koi8-r&>", "<me", 30, "", "ta charset=koi8-r>", _reads)  # the last copy's text and the tail
@example("<meta charset=koi8-r&>", "x", 30, "<meta charset=koi8-r>", "", _reads)
@example('<meta charset="-->\x1b(B<html><a>\x00<', "", 40, "<svg>", "<meta charset=koi8-r>]]>", _reads)  # a hunted body
@example('<meta charset="--><a><', "", 40, "", '<meta charset="koi8-r">', _chromium_reads)  # the last copy's quote
@example('<meta charset="-->' + "y" * 600 + "<", "", 5, "", "y" * 1100 + " charset=koi8-r>", _reads)  # the last copy: long
@example("<meta charset=zz>", " <?xml&#X63;harset", 60, "", "", _reads)  # hunted: a hint before each, runs to it
@example("<meta charset=zz>", " <?xml&#X63;harset", 60, "", "<meta charset=koi8-r>", _chromium_reads)
@example("<meta charset=zz>", " <?xml&#X63;harset", 60, "x", " <?xml&#X63;harset=koi8-r>", _reads)  # the last hint names
def test_copies_of_a_tag_that_names_nothing_with_the_text_after_it_are_read_as_the_plain_steps_read_them(
        tag, between, copies, head, tail, reads):
    """meta_starts and last_meta_start with the shortcuts that skip copies of a tag that names
    nothing with the text up to the next "<meta" (also where "<meta" is inside the tag), against
    the plain steps (shortcut=False)."""
    text = head + (tag + between) * copies + tail
    both = _both_ways(text, reads)
    assert both[0] == both[1]


# Tags that name nothing with a number in them: whatever it is (a NUL or "<" in the value), or not
# (a label for some: "koi8-%d" names KOI8-R at 4 or 6 only once a "r"... "cp125%d" at 0-8, "%d" IBM866 at 866).
_NUMBERED_TAGS = st.sampled_from(["<meta charset=zz>", "<meta charset=zz%d>", "<meta charset=<%d>", "<meta charset=%d\x00>",
                                  "<meta charset=cp125%d>", "<meta charset=%d>", "<meta a=%d charset=zz>",
                                  '<meta charset="<%d' + "y" * 400 + '">', "<meta charset=zz a=" + "y" * 1010 + "%d>"])
_NUMBERED_BETWEEN = st.lists(st.sampled_from(["<!-- x -->", "<?x", "<?xml ", "x", "\x0f\x0f%d", "%d", "&#%d;", "&#X63;harset",
                                              " ", "<p>", "=koi8-r", "<!--%d-->", "&#9", "charset=", "<me"]), max_size=4).map("".join)


@settings(max_examples=500, deadline=None)
@given(_NUMBERED_TAGS, _NUMBERED_BETWEEN, st.integers(0, 10 ** 6), st.integers(0, 200), _BETWEEN, _LONG_TAGS,
       st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]), st.sampled_from([LONGEST_TAG, 200, 60]))
@example("<meta charset=zz>", "\x0f\x0f%d<?xml &#X63;harset", 0, 80, "", "", _reads, LONGEST_TAG)  # hunted (issue 37, 3.0 / 5.8 ms)
@example("<meta charset=zz>", "\x0f\x0f%d<?xml &#X63;harset", 0, 80, "", "<meta charset=koi8-r>", _chromium_reads, LONGEST_TAG)
@example("<meta charset=%d>", " <?xml&#X63;harset", 800, 300, "", "", _reads, LONGEST_TAG)  # the 67th copy names IBM866
@example("<meta charset=zz>", "%d&#X63;harset<me", 0, 200, "", "ta charset=koi8-r>", _reads, LONGEST_TAG)  # the last copy and the tail
@example("<meta a=&#%d; " + "y" * 46 + ">", "&#X63;harset", 0, 200, "", "", _reads, 60)  # hints in tags from "&#48;", too long from "&#100;"
@example("<meta charset=zz>", " <?xml&#X63;harset&#%d;", 0, 80, "", "", _reads, LONGEST_TAG)  # "&#99;": a hint, in text only
@example("<meta charset=zz>", "\x0f%d<?xml &#X63;harset", 9990, 60, "", "", _reads, LONGEST_TAG)  # numbers grow by a digit
def test_numbered_copies_of_a_tag_that_names_nothing_with_the_text_after_it_are_read_as_the_plain_steps_read_them(
        tag, between, first, copies, head, tail, reads, longest):
    """meta_starts and last_meta_start with the shortcut that skips copies but for their numbers of
    the text from a tag whose run reached the hint to the next "<meta" (:func:`_numbered_hinted_end`),
    against the plain steps: numbers in the tag (some that may make it name an encoding), in text,
    comments and references after it, growing by a digit among the copies; long tags."""
    unit = tag + between
    text = head + "".join(unit.replace("%d", str(first + k)) for k in range(copies)) + tail
    both = _both_ways(text, reads, longest=longest)
    assert both[0] == both[1]


# Units of a tag with a number that names nothing whatever it is, and tags without digits, some that
# name an encoding (each copy reads them alike: the same text), between copies of the first.
_DIGIT_FREE = st.sampled_from(['<meta charset="zz">', "<meta charset=zz>", "<meta charset=koi8-r>", '<meta charset="koi8-r">',
                               "<meta content=x>", "<meta charset=koi8-r\x00>", "\U0001f600", "x", "<p>"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_DIGIT_FREE, min_size=1, max_size=3).map("".join), st.sampled_from(["<meta charset=koi8-r\x00>%d",
                                                                                    "<meta charset=<%d>", "%d<meta charset=zz%d>"]),
       st.integers(0, 300), st.sampled_from(["", " a=b\x00\xd8"]), _LONG_TAGS,
       st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]))
@example('\U0001f600<meta charset="zz">', "<meta charset=koi8-r\x00>%d", 300, " a=b\x00\xd8", "</svg><meta charset=koi8-r>",
         _reads)  # hunted (issue 37): 15.6 ms at 64 KiB, a turn a candidate
@example("<meta charset=koi8-r>", "<meta charset=koi8-r\x00>%d", 40, "", "", _reads)  # a digit-free tag that names KOI8-R
@example('\U0001f600<meta charset="zz"><meta charset="zz">', "%d<meta charset=koi8-r\x00><meta charset=koi8-r\x00><!", 300,
         " a=b\x00\xd8", "</svg><meta charset=koi8-r>", _reads)  # hunted: copies of the same tag twice, 6.7 ms
def test_numbered_copies_of_units_with_tags_without_digits_are_read_as_the_plain_steps_read_them(
        free, numbered, copies, head, tail, reads):
    """meta_starts and last_meta_start with the shortcut that skips copies but for their numbers after
    copies of the last tag read as naming nothing (a tag between them: _numbered_end, where a tag
    without digits that reads as naming nothing names nothing in each copy), against the plain steps."""
    unit = free + numbered
    text = head + "".join(unit.replace("%d", str(k)) for k in range(copies)) + tail
    both = _both_ways(text, reads)
    assert both[0] == both[1]


@settings(max_examples=500, deadline=None)
@given(st.lists(_NAMING_NOTHING | _BETWEEN | st.just("&#9;"), min_size=1, max_size=5).map("".join), st.integers(0, 40),
       _BETWEEN, _LONG_TAGS, st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]))
@example("&#9;&#9;<meta charset=koi8-r\x00><meta charset=koi8-r\x00>", 40, " ", '\x1b$B$"<meta charset=koi8-r>', _reads)  # hunted
@example("<meta charset=koi8-r\x00></ ></ ><meta charset=koi8-r\x00>", 40, " ", "<meta charset=koi8-r>", _reads)
@example("<meta charset=zz><meta charset=koi8-r&>x", 40, "", "<me", _reads)  # the last copy's text and the tail
@example("<meta charset=zz><meta charset=koi8-r&>", 40, "", "ta charset=koi8-r>", _chromium_reads)
@example("<meta charset=zz><meta charset=koi8-r&>", 40, "", "<meta charset=zz>" + "y" * 1100 + "<meta charset=koi8-r>",
         _reads)  # copies from the second tag on end where the tail starts: to the last copy, not past it
@example("<meta charset=koi8-r&><meta a=" + "y" * 1100 + ">", 4, "", "", _reads)  # a long tag in the unit: each yielded
@example("<meta charset=koi8-r&><meta a='<meta charset=zz>'>", 40, "", "", _reads)  # a tag with "<meta" inside
@example("charset=koi8-r<br/>\xa1\xa1</<META <META <META ", 60, "<svg><template>", '<meta charset="shift_jis">',
         _reads)  # hunted: tags with the next ones inside, each ending in the next copy
def test_copies_of_units_of_tags_that_name_nothing_are_read_as_the_plain_steps_read_them(unit, copies, head, tail, reads):
    """meta_starts and last_meta_start with the shortcut that skips copies of the text since one of
    the last tags read as naming nothing (units of several tags), against the plain steps."""
    text = head + unit * copies + tail
    both = _both_ways(text, reads)
    assert both[0] == both[1]


# Units whose meta tag runs into the next copies (a quote that the next copy closes), or ends in its
# own, with a number; and tails that name an encoding right after the copies, or cut the last one.
_RUNNING_UNITS = st.sampled_from(['<meta charset="<p>\x0f\u3042%d\x1b(J', "<meta charset='%d<p>", '<meta a="%d<meta b="',
                                  "<meta charset=%d\x1b(J<meta charset='<p>", '<meta charset=zz>%d<p a="', "<meta charset=<%d>"])
_RUNNING_TAILS = st.sampled_from(["", "<meta charset=koi8-r>", '"><meta charset=koi8-r>', "'<meta charset=koi8-r>",
                                  '" charset=koi8-r>', "ta charset=koi8-r>", "<meta", '"' + "y" * 1100 + "<meta charset=koi8-r>"])


@settings(max_examples=300, deadline=None)
@given(_RUNNING_UNITS, st.integers(0, 10 ** 6), st.integers(0, 120), _BETWEEN, _RUNNING_TAILS,
       st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]), st.sampled_from([LONGEST_TAG, 200, 60]))
@example('<meta charset="<p>\x0f\u3042%d\x1b(J', 0, 120, "?>\xa1<meta charset=", "?></title>\x1b(B<meta charset=koi8-r>",
         _reads, LONGEST_TAG)  # the bench's '<meta charset="<p> %d x N' (issue 37)
@example("<meta charset='%d<p>", 9990, 100, "", "'<meta charset=koi8-r>", _chromium_reads, LONGEST_TAG)  # numbers grow
def test_numbered_copies_whose_tags_end_in_later_copies_are_read_as_the_plain_steps_read_them(
        unit, first, copies, head, tail, reads, longest):
    """meta_starts and last_meta_start with the shortcut that skips copies but for their numbers up to
    the last whose tags end within the copies (_numbered_end: their reach, each run up to 7 digits
    longer, not a whole window), against the plain steps: tags closed by the next copy's quote, tails
    that name an encoding right after the copies or cut the last one."""
    text = head + "".join(unit.replace("%d", str(first + k)) for k in range(copies)) + tail
    both = _both_ways(text, reads, longest=longest)
    assert both[0] == both[1]


@settings(max_examples=300, deadline=None)
@given(_NAMING_NOTHING, st.lists(_BETWEEN, max_size=40), _BETWEEN, _LONG_TAGS,
       st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]))
@example("<meta charset=koi8-r\x00>", ["\x00&Tab;&Tab;&<h1>"] * 40, "<textarea></div><?xml <!doctype html>", "?>",
         _reads)  # hunted
@example("<meta charset=koi8-r&>", ["x"] * 30, "", "<meta charset=koi8-r&><meta charset=koi8-r>", _reads)
def test_copies_of_a_tag_with_distinct_text_between_them_are_read_as_the_plain_steps_read_them(
        tag, betweens, head, tail, reads):
    """meta_starts and last_meta_start with the shortcut that skips copies of a tag that names
    nothing, each after text in which no "<meta" starts (numbered: no two units alike), against the
    plain steps."""
    text = head + "".join(f"{tag}{n}{between}" for n, between in enumerate(betweens)) + tail
    both = _both_ways(text, reads)
    assert both[0] == both[1]


# Units with a "<meta" tag that holds the next one (a quote into the next unit, a tag in a value), "%d" for a number.
_NUMBERED_UNITS = st.sampled_from(['<font color=red><meta charset="%d', '\xe3\x81\x82%d\x1b(J<meta charset="<p>\x0f',
                                   "<meta a='%d<meta b='", '<meta a="<meta charset=zz%d>">', '<meta charset="%d-->',
                                   "<meta a='<meta charset=koi8-%d>'>", '<meta a="%d-%d' + "y" * 300 + '<p>'])


@settings(max_examples=300, deadline=None)
@given(_NUMBERED_UNITS, st.lists(st.integers(0, 10 ** 12), max_size=60), _BETWEEN, _LONG_TAGS,
       st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]), st.sampled_from([LONGEST_TAG, 200, 60]))
@example('<font color=red><meta charset="%d', list(range(60)), "a < b", '<meta charset=koi8-r>"', _reads, LONGEST_TAG)  # hunted
@example('<font color=red><meta charset="%d', list(range(60)), "", ' http-equiv=content-type content="charset=koi8-r">',
         _reads, LONGEST_TAG)  # the last copy's tag names an encoding with the tail
# (tags of 630 characters, 658 where the numbers have 8 digits, 678 where 13: long past the window)
@example('<meta a="%d-%d' + "y" * 300 + "<p>", [1] * 10 + [10 ** 7] * 10, "", "<meta charset=koi8-r>", _reads, 645)
@example('<meta a="%d-%d' + "y" * 300 + "<p>", [1] * 10 + [10 ** 12] * 10, "", "<meta charset=koi8-r>", _reads, 660)
@example("<meta a='<meta charset=koi8-%d>'>", list(range(60)), "", "", _reads, LONGEST_TAG)  # numbered labels
@example('<meta charset=cp125%d a=">', [*range(100, 155), 1, *range(100, 170)], "", "", _reads, LONGEST_TAG)  # one a label
def test_numbered_copies_of_a_tag_with_meta_inside_are_read_as_the_plain_steps_read_them(
        unit, numbers, head, tail, reads, longest):
    """meta_starts and last_meta_start with the shortcut that skips copies of a unit but for its
    numbers (a tag with "<meta" inside that names nothing, each copy's window within the copies and
    before the next hint), against the plain steps; numbers of 1 to 13 digits, so that a later
    copy's tag may be longer than the first's."""
    text = head + "".join(unit.replace("%d", str(n)) for n in numbers) + tail
    both = _both_ways(text, reads, longest=longest)
    assert both[0] == both[1]


def test_the_last_window_of_numbered_copies_skipped_is_read_without_looking_for_more(monkeypatch):
    """Where copies of a tag with "<meta" inside but for their numbers were skipped, the copies
    within the last window (each read, as its tag may end past them) are not asked again whether
    copies follow them (hunted, issue 37: 36 such asks at 8 µs each): _numbered_end runs once per
    run of copies, not once per copy of its last window."""
    calls = []
    real = parser_scan._numbered_end
    monkeypatch.setattr(parser_scan, "_numbered_end", lambda *args: calls.append(args[1]) or real(*args))
    text = "<meta charset=" + "".join(f'\u3042{n}\x1b(J<meta charset="<p>\x0f' for n in range(3000)) + "<meta charset=koi8-r>"
    assert list(meta_starts(text, _reads)) == list(meta_starts(text, _reads, shortcut=False))
    assert 0 < len(calls) <= 3, calls


def test_numbered_copies_between_candidates_are_looked_for_in_units_of_any_runs_but_short():
    """The candidates' scan builds the pattern of copies but for their numbers of the text between
    candidates (compiled for each page that has it) only where it is NUMBERED_LONGEST characters at
    most, whatever its runs of digits (hunted, issue 37: nine runs, a number in a meta tag's value
    and in XML declarations, read one candidate at a time: 6.2 ms at 64 KiB)."""
    unit = '<meta charset=\xfe\xff4<?xml version="1.0" encoding="koi8-r"?>iso-2022-jp5<?xml version="1.0" encoding="koi8-r"?><link rel=x>'
    assert len(parser_scan.DIGITS.findall(unit)) == 9 and parser_scan._numbered_copies(unit) is not None
    assert parser_scan._numbered_copies("<p>" + "x" * parser_scan.NUMBERED_LONGEST + "1") is None
    text = "".join(unit.replace("4", str(n), 1).replace("5", str(n + 1), 1) for n in range(0, 1000, 2)) + "<meta charset=koi8-r>"
    calls = []
    real = parser_scan._numbered_end
    try:
        parser_scan._numbered_end = lambda *args: calls.append(args[1]) or real(*args)
        assert list(meta_starts(text, _reads)) == list(meta_starts(text, _reads, shortcut=False))
    finally:
        parser_scan._numbered_end = real
    assert 0 < len(calls) <= 3, len(calls)


class _SubLengths:
    """DIGITS, recording the length of each text it substitutes in."""

    def __init__(self, pattern):
        self.pattern, self.lengths = pattern, []

    def __getattr__(self, name):
        return getattr(self.pattern, name)

    def sub(self, replacement, text):
        self.lengths.append(len(text))
        return self.pattern.sub(replacement, text)


def test_copies_but_for_their_numbers_of_candidates_far_apart_are_not_looked_for(monkeypatch):
    """Where the next candidates lie more than NUMBERED_LONGEST characters on, the text between
    them is not written with its numbers as "0" to be compared (hunted, issue 37: three meta
    tags, then 64 KiB of UTF-16 meta tags, which are no candidates, with numbers, then three more:
    7.8 ms a page in 20 substitutions over the whole text); the candidates are the plain steps'."""
    unit = ('\x1b$B$"%d' + "<meta charset=koi8-r>".encode("utf-16-le").decode("latin-1")
            + '\U0001f600<desc>=><?xml version="1.0" encoding="koi8-r"?></noembed>')
    text = ('<meta charset=<?xml version="1.0" encoding="koi8-r"?><meta charset=<meta charset='
            + "".join(unit.replace("%d", str(n)) for n in range(500))
            + '\x1b(B<meta charset=koi8-r><meta charset="shift_jis"><meta charset="shift_jis">')
    digits = _SubLengths(parser_scan.DIGITS)
    monkeypatch.setattr(parser_scan, "DIGITS", digits)
    assert list(meta_starts(text, _reads)) == list(meta_starts(text, _reads, shortcut=False))
    assert max(digits.lengths, default=0) <= parser_scan.NUMBERED_LONGEST


# Units whose meta tags hold hints (references to letters, labels after "=") and name nothing; and
# places where "charset" may be written (each letter written or a numeric reference to it): in a
# tag that names an encoding, one that does not, text.
_HINTED_UNITS = st.sampled_from(["<meta http-equiv=content-type content=%d&#65;<head>", "<meta content=%d&#97;>",
                                 ("=utf-8<meta http-equiv=content-type content=<iframe><meta http-equiv=content-type"
                                  " content=%d&#65;<head><!-"),  # hunted
                                 '<meta content="&#99;h%d" http-equiv=content-type>', "<meta charset=&#%d;>",
                                 "<meta a=&#x63;%d=koi8-r>",
                                 # hunted: "charset" in each, so each read, naming nothing whatever its
                                 # numbers (one, two or three "<meta" to a unit), or a label for some
                                 "<meta charset=%d&#65;\x80<script x='>'>=>", "<meta charset=<meta charset=%d&#65;\x80<script x='>'>=>",
                                 "&#x20;%d<meta charset=%d&#65;&#65;<script x='>'>", "<meta charset=\x1b$(D\x80%d&#65;<!\x1b$B<svg>",
                                 "<meta charset=%d&#65;\x80>", "<meta a='<meta b=<meta charset=<%d&#65;>'>", "<meta a=&#65; charset=cp125%d>",
                                 "<meta a=&#65; charset=cp125%d <p>>"])
_CHARSET_WRITTEN = st.sampled_from(["", "<meta charset=koi8-r>", '<meta content="&#99;harset=koi8-r" http-equiv=content-type>',
                                    "<meta http-equiv=content-type content='ch&#x41;rset=koi8-r'>", "CHARSET",
                                    '<meta content="chars&#101;t=koi8-r" http-equiv=Content-Type>', "<p charset=koi8-r>",
                                    "&#67;&#72;&#65;&#82;&#83;&#69;&#84;=koi8-r", '<meta content="charset=koi8-r">'])


@settings(max_examples=300, deadline=None)
@given(_HINTED_UNITS, st.lists(st.integers(0, 10 ** 6), max_size=60), st.integers(0, 60), _CHARSET_WRITTEN,
       _CHARSET_WRITTEN, st.sampled_from([_reads, _chromium_reads, firefox_meta_encoding]))
@example("=utf-8<meta http-equiv=content-type content=<iframe><meta http-equiv=content-type content=%d&#65;<head><!-",
         list(range(60)), 60, "", "", _reads)  # hunted: no "charset" anywhere
@example("<meta content=%d&#97;>", list(range(60)), 30, '<meta content="&#99;harset=koi8-r" http-equiv=content-type>', "",
         _reads)  # written with a reference, among the copies
@example("<meta a=&#65; charset=cp125%d <p>>", [*range(100, 130), 1, *range(100, 130)], 0, "", "", _reads)  # cp1251 among them
@example("<meta a=&#65; charset=cp125%d>", [*range(100, 130), 1, *range(100, 130)], 0, "", "", _chromium_reads)
def test_tags_that_hold_hints_and_name_nothing_are_read_as_the_plain_steps_read_them(
        unit, numbers, split, written, tail, reads):
    """meta_starts and last_meta_start with the shortcut that bounds where tags that hold hints
    name nothing by where "charset" may next be written (none: no tag from there on names an
    encoding), against the plain steps: tags of copies of a unit but for its numbers, "charset"
    written among them and after them, or nowhere."""
    copies = [unit.replace("%d", str(n)) for n in numbers]
    text = "".join(copies[:split]) + written + "".join(copies[split:]) + tail
    both = _both_ways(text, reads)
    assert both[0] == both[1]


@pytest.mark.parametrize("before", range(8, 20))
@pytest.mark.parametrize("reads", [_reads, _chromium_reads, firefox_meta_encoding])
def test_numbered_copies_that_hold_hints_are_skipped_no_further_than_where_charset_is_next_written(before, reads):
    """Numbered copies of a tag with "<" inside that holds a hint ("&#65;") and "charset" (so each
    is read), one of which names an encoding (cp1251) after *before* others: every reader finds it
    (the copies skipped after eight readings end where "charset" is next written, in the next tag)."""
    unit = '<meta charset=cp125%d a="&#65;<p>">'
    text = "".join(unit.replace("%d", str(n)) for n in [*range(100, 100 + before), 1, *range(100, 170)])
    at = text.index("<meta charset=cp1251 ")
    both = _both_ways(text, reads, longest=60)
    assert both == [([at], at)] * 2


def test_the_copies_patterns_are_compiled_only_where_a_copy_follows():
    """A page of units that differ in more than their numbers (and of tags that differ) compiles no
    pattern per unit: each is built only where the next unit or tag is a copy."""
    words = ["".join(letters) for letters in itertools.product(string.ascii_lowercase, repeat=3)][:2000]
    for text in ("".join(f'<font color=red><meta charset="{word}1' for word in words) + '<meta charset=koi8-r>"',
                 "".join(f"<meta charset=koi8-r\x00 {word}>x<meta charset=koi8-r\x00 {word}>" for word in words)
                 + "<meta charset=koi8-r>"):
        for patterns in (parser_scan.numbered_run, parser_scan.numbered_literals, parser_scan._copies_between):
            patterns.cache_clear()
        list(meta_starts(text, _reads))
        assert parser_scan.numbered_run.cache_info().misses == 0
        assert parser_scan.numbered_literals.cache_info().misses == 0
        assert parser_scan._copies_between.cache_info().misses <= 10


def _straddled(where: str, shift: int) -> str:
    """A naming "<meta charset=koi8-r>" and, after it, more candidates that name nothing than
    last_meta_start reads from the end, then a hint: the meta starts *shift* characters before a
    window's bound ("window": the second window from the end, at 1,024 characters before the last
    hint; "long tag": the first LONGEST_TAG characters of a long tag that holds it)."""
    metas = "".join(f"<meta a{n:02d}>" for n in range(32))
    if where == "window":
        head = "<meta charset=koi8-r>" + metas
        return head + "x" * (1024 - shift - len(head) - len("<p charset")) + "<p charset=koi8-r>"
    return '<meta a="' + "y" * (LONGEST_TAG - shift - 9) + '<meta charset=koi8-r>">' + metas + "<p charset=koi8-r>"


@pytest.mark.parametrize("where", ["window", "long tag"])
@pytest.mark.parametrize("shift", range(-2, 9))
def test_a_naming_meta_astride_a_bound_of_the_search_from_the_end_is_found(where, shift):
    """Where the candidates read from the end run out at a "<meta" that starts within five
    characters of a window's bound, or of a long tag's first LONGEST_TAG characters, that meta is
    still a candidate for every reader (the search to those bounds missed it); where it is a tag
    (not inside the long one), both models' scans take it (they found no encoding)."""
    text = _straddled(where, shift)
    at = text.index("<meta charset=koi8-r>")
    for reads in (_reads, _chromium_reads, firefox_meta_encoding):
        assert last_meta_start(text, reads) >= at
        assert at in list(meta_starts(text, reads))
    body = text.encode()
    for scan in (chromium_meta, firefox_meta):
        assert scan(body, len(body)) == ((ENCODINGS["KOI8-R"], "koi8-r", 0) if where == "window" else None)


def test_the_last_meta_inside_a_long_tag_is_found_from_the_start():
    """Read from the start (more candidates from the end than it reads there, each naming
    nothing), the last is a "<meta" inside a long tag's first characters, not the long tag."""
    inner = '<meta charset=koi8-r>'
    text = '<meta a="' + inner + "y" * 60 + '">' + "".join(f'<meta name=x{n} content="charset=utf-8">' for n in range(40))
    assert last_meta_start(text, _reads, longest=50) == text.index(inner) == list(meta_starts(text, _reads, longest=50))[1]
    assert last_meta_start(text, _reads) == text.index(inner)  # read whole, where no tag is long


# -- hints: what a meta that names an encoding holds, found at C speed ---------------------------------
# Characters that may end a label's value in some reader (or a reference to one: "&"): a label
# followed by another character names nothing (U+0000-U+0020: Chromium ends a label at any).
_LABEL_ENDS = frozenset(map(chr, range(0x21))) | frozenset("\"';>&")
_SPANS = st.lists(st.sampled_from([
    "charset", "CharSet", "=", " ", "\t", "\x00", "\x01", "\x0b", '"', "'", "koi8-r", "KOI8-R", "koi8", "koi8-5",
    "utf-8", "utf8x", "&", "&#45;", "&quot;", "&#x3c;", "&amp;", "&#x6B", "&#0000107;", "&#0;", "&#x", "&QUOT",
    "&equals;", "&notin;", "&Tab", "\u0130", ";", "http-equiv", "content-type", "content", "text/html",
    "x", "/", "-", "_", ":", " " * 16, "\x00" * 16, " " * 15, "\x01" * 8, "\t" * 7, "l1", "latin1", "iso-8859-1", "x-user-defined", "\u212aoi8-r",
    "csISO2022JP", "&#32;", "&#X20", "&#x0000000000000020;", "&#9", "&NewLine;", "&semi;", "&apos;", "&bne;", "&#61;",
    "&#0000000000000000032;", "&#95;", "&lowbar;", "<", ",", "\u00a0"]), max_size=16).map("".join)


def _ascii_lower(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)


# What a character reference must give to matter to a reading (labels, "charset", "content-type",
# "=", quotes, ";", the characters up to U+0020 that Chromium skips).
_READ = set(map(chr, range(1, 0x21))) | set("\"'-.:;=_") | set(string.ascii_letters + string.digits)


_LABEL_READ = set(string.ascii_letters + string.digits) | set("-.:_")  # what a label, "charset", "content-type" hold
_BETWEEN = _READ - _LABEL_READ  # whitespace, quotes, "=", ";"


def _numeric_at(text: str, at: int) -> tuple[str | None, int, int] | None:
    """A numeric reference at *at*: (the character it gives, or None past U+007E; its zeros; the
    end of its digits), its digits whole; None where *at* starts none."""
    numeric = re.match(r"&#([xX]?)(0*)([0-9a-fA-F]*)", text[at:])
    if numeric is None:
        return None
    hexadecimal, zeros, digits = numeric.groups()
    if not hexadecimal:
        digits = re.match("[0-9]*", digits).group()
    end = at + 2 + len(hexadecimal) + len(zeros) + len(digits)
    value = int(digits, 16 if hexadecimal else 10) if digits and len(digits) < 8 else None
    return (chr(value) if value is not None and value < 0x7F else None), len(zeros), end


def _names_at(text: str, at: int, wanted) -> list[int]:
    """The ends of the named references at *at* (any name in the table the text starts with, ASCII
    case-insensitively) whose text *wanted* accepts, the longest first."""
    lowered = _ascii_lower(text[at + 1:at + 40])
    return sorted((at + 1 + len(name) for name, value in html5.items()
                   if lowered.startswith(_ascii_lower(name)) and wanted(set(value))), reverse=True)


def _between_item_end(text: str, at: int) -> int | None:
    """The end of an item between a reference to whitespace and a label at *at*: a character of
    _BETWEEN but ";" (or U+0000), or a reference to one of _BETWEEN (numeric: up to 15 zeros, its
    ";" with it; named: the longest name whose text has one of those and no character of
    _LABEL_READ); None where there is none."""
    if at < len(text) and (text[at] in _BETWEEN - {";"} or text[at] == "\x00"):
        return at + 1
    numeric = _numeric_at(text, at)
    if numeric is not None:
        character, zeros, end = numeric
        return end + (text[end:end + 1] == ";") if zeros <= 15 and character in _BETWEEN else None
    ends = _names_at(text, at, lambda value: value & _BETWEEN and not value & _LABEL_READ) if text[at:at + 1] == "&" else []
    return ends[0] if ends else None


def _label_follows(text: str, at: int) -> bool:
    """After the reference's ";" if any, up to 15 items (_between_item_end, read as they come) then a
    whole label, or 16 items."""
    at += text[at:at + 1] == ";"
    for _ in range(16):
        end = _between_item_end(text, at)
        if end is None:
            return any(_ascii_lower(text[at:at + len(label)]) == label
                       and (at + len(label) == len(text) or text[at + len(label)] in _LABEL_ENDS)
                       for label in LABELS)
        at = end
    return True


def _reference_hint_at(text: str, at: int) -> bool:
    """A character reference at *at*, step by step: numeric (its digits whole) with sixteen zeros or
    more, whatever follows, or one that gives a character of _LABEL_READ, or one of _BETWEEN where
    (up to 15 zeros) a label follows it (_label_follows); named, any name in the table that the text
    starts with (ASCII case-insensitively) whose text has a character of _LABEL_READ, or of _BETWEEN
    (and none of those) where a label follows it."""
    numeric = _numeric_at(text, at)
    if numeric is not None:
        character, zeros, end = numeric
        if zeros >= 16 or character in _LABEL_READ:
            return True
        return character in _BETWEEN and _label_follows(text, end)
    if text[at:at + 1] != "&":
        return False
    if _names_at(text, at, lambda value: value & _LABEL_READ):
        return True
    return any(_label_follows(text, end) for end in _names_at(text, at, lambda value: value & _BETWEEN and not value & _LABEL_READ))


_META_STARTS = {"<meta" + c for c in "\t\n\x0c\r />"}  # a meta start tag's first six characters (§13.2.5.6-8)


def _hint_at(text: str, at: int) -> bool:
    """The hint's definition, step by step: "&"; or "=" with "charset" (ASCII case-insensitively)
    and up to 15 characters up to U+0020 before it, or 16 of those; and after it up to 15 of
    those, a quote, up to 15 ASCII whitespace and a whole label (then the end or one of
    _LABEL_ENDS), or a run of 16 in between."""
    if text[at] == "&":
        return _reference_hint_at(text, at)
    if text[at] != "=":
        return False

    def separators(start: int, count: int, whitespace: bool = False) -> bool:
        piece = text[start:start + count]
        return len(piece) == count and start >= 0 and all(
            c in "\t\n\x0c\r " if whitespace else c <= " " for c in piece)

    behind = separators(at - 16, 16) or any(
        separators(at - k, k) and at - k - 7 >= 0 and _ascii_lower(text[at - k - 7:at - k]) == "charset"
        for k in range(16))
    if not behind:
        return False
    if separators(at + 1, 16):
        return True
    for skipped in range(16):
        if not separators(at + 1, skipped):
            break
        for quote in (0, 1):
            start = at + 1 + skipped
            if quote and text[start:start + 1] not in ("'", '"'):
                continue
            start += quote
            if separators(start, 16, True):
                return True
            for spaces in range(16):
                if not separators(start, spaces, True):
                    break
                value = start + spaces
                for label in LABELS:
                    after = value + len(label)
                    if _ascii_lower(text[value:after]) == label and (after == len(text) or text[after] in _LABEL_ENDS):
                        return True
    return False


@settings(max_examples=1000, deadline=None)
@given(_SPANS, _SPANS)
@example("", "charset" + " " * 15 + "=koi8-r")  # the bounds of each run between "charset" and the label
@example("", "charset" + "\x01" * 16 + "=zz")
@example("", "charset=" + "\x00" * 15 + "koi8-r")
@example("", "charset=" + "\x00" * 16 + "zz")
@example("", "charset='" + " " * 15 + "koi8-r'")
@example("", "charset='" + "\t" * 16 + "zz'")
@example("", "CHARSET=KOI8-R")
@example("", "charset=\u212aoi8-r")
@example("", "charset=&#x6B;oi8-r")  # references that spell a label: the "&" is the hint
@example("", "charset=&#107oi8-r")
@example("", "charset=koi8&#45;r")
@example("", "charset=koi8&hyphen;r")  # (U+2010: no label)
@example("", "charset&equals;koi8-r&#x3c;")
@example("", "charset=&quot;koi8-r&quot;")
@example("", "charset=&#32;koi8-r")  # a reference to whitespace is a hint where a label follows it
@example("", "charset&#x20;=&#9;'koi8-r'")
@example("", "content='charset=&#x20;&quot;koi8-r&quot;'")
@example("", "charset=&#32;" + "&#9;" * 14 + "koi8-r")  # 15 items, then the label
@example("", "charset=&#32;" + "&#9;" * 15 + "koi8-r")  # 16: a hint whatever follows
@example("", "charset=&#32;" + "&#9;" * 14 + "zz")
@example("", "charset=&#32;" + " " * 15 + "zz")
@example("", "a=&#32;zz &#32;866")
@example("", "a=&#95;zz")  # "_" is a label's: a hint wherever it is
@example("", "charset=koi8-r<br/")  # a label then "<": no reader's value ends there, no hint
@example("", "http-equiv=content-type content='charset=koi8-r\x01'")  # U+0001 ends it for Chromium: a hint
@example("", "a=&#95;zz charset=koi8-r")  # a reference before the last label's "=" (the references searched from it on)
@example("", "charset=&#" + "0" * 15 + "32;koi8-r")  # 15 zeros: read; 16: a hint whatever follows
@example("", "a=&#x" + "0" * 16 + "20;zz")
@example("", "charset=&#32;&Tab;&NewLine;&semi;koi8-r")
@example("", "a=&#0122;&#x07A;&#" + "0" * 15 + "122;&#X7a;")  # the first check's bounds: a hint each
@example("", "a=&#1122;&#1000;&#x17a;&#x100;&#9999;&#x;&#;")  # more digits than 122's, or none: no hint
@example("", "a=&#" + "0" * 16 + "9999;")  # sixteen zeros: a hint whatever follows
@example("", "a=&#x" + "0" * 20 + ";")
@example("", "a=" + "&quot;&#0;" * 20)  # hunted (stop 59): what follows each reference to a quote starts no item
@example("", "charset=&quot;&#0;koi8-r &quot;&#x0a;koi8-r &quot;&#00032;koi8-r &quot;&Tab;866 &quot;&amp;utf-8")
def test_hints_are_where_the_definition_puts_them_and_every_naming_meta_holds_one(before, span):
    text = before + "<meta " + span + ">"
    first = next(at for at in range(len(text)) if _ascii_lower(text[at:at + 6]) in _META_STARTS)  # (hints from there)
    every = [at for at in range(first, len(text)) if _hint_at(text, at)]
    assert last_hint(text) == (every[-1] if every else -1)
    assert last_hint(text.replace("<", "(")) == -1  # no "<meta": no hint
    # Asked in increasing order, then again from each end (what it found is reused only where it
    # holds), with the window searched at a time as it is and tiny (answers that are bounds): -1
    # where no hint lies at or after the position, else the first hint or a bound before it (never
    # the position asked but at a hint); the first hint where a first ask finds it in its window;
    # next_hint, the first hint (with a bound, that hint where it lies before the bound, else an offset
    # from the bound up to it).
    order = [*range(len(text) + 1), *reversed(range(len(text) + 1)), *range(0, len(text) + 1, 3)]
    for window in (HINT_WINDOW, 1, 5):
        hints = Hints(text, window)
        for position in order:
            found, hint = hints.after(position), next((at for at in every if at >= position), -1)
            if hint < 0 or found == hint:
                assert found == hint, (window, position, found)
            else:
                assert max(position, first) <= found < hint and found != position, (window, position, found)
            if hint <= max(position, first) + window:
                assert Hints(text, window).after(position) == hint, (window, position)
            assert hints.next_hint(position) == hint, (window, position)  # (past every bound)
            for until in (position, position + 2, position + 7):  # (a bound at or past it, where none lies before it)
                bounded = hints.next_hint(position, until)
                assert bounded == hint if 0 <= hint < until or hint < 0 and bounded < 0 else until <= bounded <= hint, \
                    (window, position, until)
    tag = TAG.match(text, len(before))
    if tag is not None and any(read(tag.group(3)) is not None
                               for read in (_reads, chromium_meta_encoding, firefox_meta_encoding)):
        assert any(len(before) < at < tag.end() for at in every), (tag.group(3), every)


_BOUNDED = st.lists(st.sampled_from([
    "<meta charset=koi8-r>", "<meta charset=zz>", '<meta content="charset=koi8-r">', "<meta http-equiv=content-type ",
    "content='charset=koi8-r'>", "&#9;", "&#107;", "&", "=", "<meta name=x>", "<meta a='", "'>", "<!--", "-->",
    "<script>", "</script>", "<template>", "</template>", "<svg>", "</svg>", "<p>", "<", ">", " ", "x" * 7,
    "<meta charset=koi8-r ", "<meta", "<meta x" + "y" * 40 + ">"]), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(_BOUNDED, st.sampled_from([0, browsers_module.UNCONDITIONAL]))
@example(('<meta content="charset=koi8-r">' + "><meta charset=koi8-r>  ") * 21, 0)  # a bound inside a "<meta"
# Numbered copies of a tag with the next "<meta" inside, skipped up to the next hint past the
# bounds: one copy's label, 1,600 characters in, with 2,000 characters of copies after it.
@example("".join(f'<meta charset=cp125{n} a=">' for n in [*range(100, 155), 1, *range(100, 170)]), 0)
def test_hints_that_answer_with_bounds_change_no_answer(text, head):
    """:meth:`Hints.after` answering with bounds (windows of 1, 2, 5 and 13 characters) changes no
    answer of the scans that ask it, against hints that are hints (a window past the text): the
    tags of :func:`meta_starts` that name an encoding, the parser step, Chromium's and Firefox's
    models (*head*: bytes read whatever the markup)."""
    body = text.encode("utf-8")
    limit = len(body) + 1

    def answers():
        parser_scan.forget()
        browsers_module.forget()
        starts = meta_starts(text, _reads)
        named = [at for at in starts if (tag := TAG.match(text, at)) is not None and _reads(tag.group(3)) is not None]
        return (named, find_parser_meta(text, len(text)), chromium_meta(body, limit, head),
                firefox_meta(body, limit, head))

    with _hint_window(len(text) + 1):
        exact = answers()
    for window in (1, 2, 5, 13):
        with _hint_window(window):
            assert answers() == exact, window


_DOCUMENTS = st.lists(st.sampled_from([
    "<script>", "</script>", "<SCRIPT a='>'>", "<style>", "</style >", "<title>", "</title>", "<textarea>", "</textarea>",
    "<noscript>", "</noscript>", "<meta charset=x>", "<!--", "-->", "--!>", "<!-->", "<p>", "</p>", "<b>", "<table>",
    "<td>", " ", "\n", "x", "<", "</", "<!doctype html>", "<head>", "<body>", "<plaintext>", "<xmp>", "</xmp>",
    "<iframe>", "</iframe>", "<?x>", "<svg>", "</svg>", "<template>", "</template>", "<select>", "<frameset>"]),
    max_size=25).map("".join)


_HINTED = st.lists(st.sampled_from([
    "<meta charset=koi8-r>", "<meta charset=zz>", "<meta charset=koi8-5>", "&", "charset=utf-8", "<p>", " ", "<",
    "<!--<meta charset=koi8-r>-->", "<!--", "-->", "<script>", "</script>", "<title>", "</title>", "<svg>", "</svg>",
    "<template>", "</template>", '<meta content="charset=utf-8" http-equiv=content-type>', "<meta a='", "'>", "x",
    '<charset=utf-8 a="', '<&a b="', '">']),
    max_size=25).map("".join)


def _first_naming(text: str):
    return next(((found[0].name, lt) for lt, _, span, _ in tree_builder_metas(text)
                 if span and (found := meta_tag_encoding(span)) is not None), None)


@settings(max_examples=1000, deadline=None)
@given(_HINTED)
def test_the_parser_steps_scan_with_hints_finds_what_reading_every_meta_finds(text):
    """The parser step's scan (metas without a hint skipped in one match, comments not read
    past its cutoff, the scan ended where no hint is left) against the tree builder reading
    every meta, all the way."""
    found = scan_parser_meta(text, len(text))
    assert (None if found is None else (found[0].name, found[2])) == _first_naming(text)


_BYTES = st.lists(st.sampled_from([
    b"<!--", b"-->", b"<meta charset=koi8-r>", b"<meta charset=zz>", b"<script>", b"</script>", b"<p>", b" ", b"<",
    b"x", b"<meta ", b">", b'"', b"<!-- <meta charset=utf-8> -->", b"<title>", b"</title>", b"&", b"<meta&"]),
    max_size=20).map(b"".join)


@settings(max_examples=1000, deadline=None)
@given(_BYTES)
def test_the_prescan_stops_past_the_first_meta_unread_and_the_parser_step_shortcut_agrees_with_its_twin(body):
    full = prescan_metas(body, len(body), 16)
    first = find_meta_bytes(body, 0, len(body))
    reached = prescan_metas(body, len(body), 16, first if first >= 0 else None)
    assert full[:len(reached)] == reached
    if full and full[0][0] == first:
        assert reached == full
    windows_1252 = ENCODINGS["windows-1252"]
    shortcut = parser_meta_span(body, windows_1252, len(body), None, True)
    twin = parser_meta_span(body, windows_1252, len(body), None, False)
    assert (None if shortcut is None else shortcut[:3]) == (None if twin is None else twin[:3])


@settings(max_examples=500, deadline=None)
@given(_DOCUMENTS)
def test_tokenizer_states_alone_with_runs_skipped_find_the_metas_the_tree_builder_finds(text):
    """The parser step's shortcut (tokenizer states once the tree builder can no longer change
    which start tags are metas, one regex per run) against the tree builder all the way."""
    shortcut = [(lt, end) for lt, end, _, _ in tree_builder_metas(text, modes=False)]
    assert shortcut == [(lt, end) for lt, end, _, _ in tree_builder_metas(text, modes=True)]


# -- the floods: same decisions as the steps, as html5lib --------------------------------------------
@pytest.mark.parametrize("flood", sorted(FLOODS))
def test_floods_get_the_decisions_of_a_token_by_token_reading(flood):
    body = FLOODS[flood](64 * KIB)
    standard, browsers = EXPECTED[flood]
    for profile, expected in (("standard", standard), ("browsers", browsers)):
        decision = sniff(body, content_type="text/html", profile=profile)
        assert (decision.encoding.name, decision.source) == expected
    # The parser step's scan, with and without the runs skipped in one match, and html5lib's
    # tree builder, on a flood it can afford (4 KiB).
    small = FLOODS[flood](4 * KIB).decode("windows-1252")
    ours = find_parser_meta(small, PARSER_LIMIT)
    tree_only = next((lt for lt, _, span, mode in tree_builder_metas(small) if span and _names(span)), None)
    oracle = oracle_parser_meta(small)
    assert (None if ours is None else ours[0].name) == (None if oracle is None else oracle[0].name)
    assert (None if ours is None else ours[2]) == tree_only


def _names(span: str) -> bool:
    return meta_tag_encoding(span) is not None


# -- the work: no Python call per token --------------------------------------------------------------
def _calls(body: bytes, profile: str) -> int:
    sniff(body, content_type="text/html", profile=profile)  # first-use imports and caches
    profiler = cProfile.Profile()
    profiler.enable()
    sniff(body, content_type="text/html", profile=profile)
    profiler.disable()
    return pstats.Stats(profiler).total_calls  # type: ignore[attr-defined]


@pytest.mark.parametrize("profile", ["standard", "browsers"])
@pytest.mark.parametrize("flood", sorted(FLOODS))
def test_work_does_not_grow_with_the_tokens(flood, profile):
    tiny, small, large = (_calls(FLOODS[flood](size), profile) for size in (4 * KIB, 64 * KIB, 1024 * KIB))
    tokens = FLOODS[flood](64 * KIB).count(b"<")
    # No call per token: metas without a hint are skipped in runs, the others are copies (read
    # once); past the parser step's bound nothing grows at all. From 4 KiB to 64 KiB the floods
    # gain 15 times their tokens (1,000 to 15,000 of them); the calls gain under 1,000.
    assert small - tiny < 1000, (tiny, small, tokens)
    assert large - small < 1500, (small, large)
    # What does not grow: the prescan's steps over its 1024 bytes, a call or a few per attribute
    # (up to 1,000), and in the browsers profile Chromium's scan of the head's tags (up to 600).
    assert small < 2500, (small, tokens)


# -- the bound: where the parser step stops, and what a browser does there -------------------------
def test_the_parser_steps_bound_applies_on_a_flood_of_comments():
    """The standard lets the parser step stop anywhere; ours stops at PARSER_LIMIT characters
    (a meta whose tag ends past it is not looked for). Chromium's scan has no such bound while
    it stays in the head section (HTMLMetaCharsetParser::CheckForMetaCharset stops only at a tag
    not allowed in head, after 1024 bytes), so its model, given the same bytes, finds the meta."""
    at_bound = _whole(b"<!---->", PARSER_LIMIT - len(META)) + META
    past_bound = b" " + at_bound
    assert sniff(at_bound, content_type="text/html").source == "parser"
    assert sniff(past_bound, content_type="text/html").source == "default"
    assert chromium_meta(past_bound, len(past_bound))[2] == PARSER_LIMIT + 1 - len(META)
    assert firefox_meta(past_bound, len(past_bound))[2] == PARSER_LIMIT + 1 - len(META)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["<svg>", "<svg", "<math ", "<template/", "<frameset>", "<FRAMESET\t", "<sv", "<", "x",
                                 "x" * 700, "<templat", "e>", "=", "charset=koi8-r", "&#107;"]), max_size=40).map("".join),
       st.integers(0, 6000))
@example("x" * 1020 + "<svg>" + "x" * 3000, 1026)  # a match across the first window's edge
@example("<svg>" + "x" * 5000, 6000)
@example("x" * 3974 + "<svg>" + "x" * 1021, 6000)  # across the edge of the first window from the end
def test_the_last_match_searched_from_the_end_is_the_last_of_all(text, end):
    """last_start (windows from the end, doubling, bisected) against every match in turn, with an
    end anywhere (a match must end by it): the parser step's last tree-builder tag and last hint."""
    end = min(end, len(text))
    for pattern, searched, reach in ((re.compile(rb"<(?:svg|math|template|frameset)[\t\n\x0c\r />]"), ascii_lowered(text),
                                      len("<template>") + 1),
                                     *((hints, ascii_lowered(text), parser_scan._HINT_LENGTH) for hints in parser_scan._HINTS)):
        starts = [match.start() for match in pattern.finditer(searched, 0, end)]
        assert last_start(pattern, searched, end, reach) == (starts[-1] if starts else -1)


class _Searches:
    """A pattern, counting its searches."""

    def __init__(self, pattern):
        self.pattern, self.count = pattern, 0

    def search(self, *args):
        self.count += 1
        return self.pattern.search(*args)


def test_a_units_free_numbers_are_told_in_one_reading_of_it(monkeypatch):
    """numbered_unit tells whether each run of digits of a unit is free reading the unit once, each
    run on from where the last one's reading stood (a unit of 32 runs, each after a tag: 32 reads of
    its start were 0.9 ms a unit, compiled on each page that has it); its answers are each run's
    own reading from the start (free in text, not in a tag's name)."""
    from scrapy_whatwg_encoding.sniffing._html import tokenizer

    searches = _Searches(tokenizer.MARKUP_START)
    monkeypatch.setattr(tokenizer, "MARKUP_START", searches)
    tokenizer.numbered_unit.cache_clear()
    parts = tuple(tokenizer.DIGITS.split("<b>1" * 32 + "<b>"))
    assert tokenizer.numbered_unit(parts, (None,) * 32) is not None
    assert searches.count <= 2 * 32 + 2, searches.count
    tokenizer.numbered_unit.cache_clear()
    assert tokenizer.numbered_unit(tuple(tokenizer.DIGITS.split("<b>1<h2>")), (None, None)) is None
