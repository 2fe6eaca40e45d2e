"""Four of the tokenizer's patterns compiled (scrapy_whatwg_encoding/sniffing/_html/c_tokens.c) equal their
plain twins, which define them: ``markup_start`` equals MARKUP_START's search from every position of texts of
"<" and what may follow it, cut anywhere; ``word_start`` equals charrefs.lowered_word's search from every
position of texts of letters and numeric references, cut anywhere; ``tag_groups`` equals TAG's match (tokenizer.tag_groups) from every position of
texts built from the pieces each step of TAG reads, in text of each of str's three kinds, with the text cut
anywhere; ``numbered_end`` equals numbered_run's match (tokenizer.numbered_run_end's twin) over copies of units
but for their numbers, where tokenizer.numbered_literals gives literals; ``script_data_end`` equals
tokenizer.script_data_end's steps (its plain twin, each transition a search) from every position of texts of what
they read; ``meta_start`` equals change._META_BYTES's search from every position of byte texts of what it
reads, cut anywhere; and all on the hostile bench's bodies."""
from __future__ import annotations

import os
import re
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding.encoding.compiled import PURE_PYTHON
from scrapy_whatwg_encoding.sniffing import change
from scrapy_whatwg_encoding.sniffing._html import charrefs, compiled, tokenizer
from scrapy_whatwg_encoding.sniffing._html.tokenizer import (
    DIGITS,
    MARKUP_START,
    numbered_literals,
    numbered_run,
    numbered_run_end,
    numbered_unit,
    skeleton,
    tag_groups,
)

COMPILED = compiled.compiled_tokens(pure=False)
if COMPILED is None:  # (.ci/run builds it: CI runs no test skipped)
    pytest.skip("the package was built without its C extensions (no C compiler when pip installed it)",
                allow_module_level=True)

# What TAG's steps read: "<", "</", names, whitespace, "/", "=", quotes, ">", other characters (of each
# kind of str: one, two and four bytes a character).
TAG_PIECES = ["<", "</", "a", "Meta", "x1", " ", "\t", "\n", "\x0c", "\r", "/", "=", '"', "'", ">", "b", "é",
              "😀", "ſ", "\x00", "-", "<meta", " charset=", "koi8-r", ' a="b>c"', " a='>'", " a=b/", " / ", "=>"]


def test_the_scans_use_the_compiled_tokens():
    """Where the extension is built the scans use it; with SCRAPY_WHATWG_ENCODING_PURE_PYTHON=1, the patterns."""
    pure = os.environ.get(PURE_PYTHON) == "1"
    assert (compiled.compiled_tokens() is None) is pure
    assert (tokenizer.tag_reader() is tag_groups) is pure
    assert tokenizer.markup_start("a<b", 0, 3) == 1
    assert charrefs.word_start("charset", b"&#x63;harset") == 0
    assert compiled.compiled_tokens(pure=True) is None


def test_without_the_extension_the_patterns(monkeypatch):
    """Where the extension cannot be imported (a package built without a C compiler), no compiled twin is
    given: the scans read with the patterns."""
    import scrapy_whatwg_encoding.sniffing._html as package

    monkeypatch.delattr(package, "c_tokens", raising=False)
    monkeypatch.setitem(sys.modules, "scrapy_whatwg_encoding.sniffing._html.c_tokens", None)
    assert compiled.compiled_tokens.__wrapped__(pure=False) is None


@pytest.mark.slow  # 2,000 texts, each from every position
@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(TAG_PIECES), max_size=24), st.integers(0, 1 << 16))
@example(["<", "a", " ", "b", "=", '"', "c", ">", '"', " ", "d", "/", ">"], 0)  # a quoted ">"; a tail
@example(["<", "a", " ", "=", '"', ">"], 0)  # "=" starts a name: the quote is in it, ">" ends the tag
@example(["<", "a", " ", "b", "=", '"', "c"], 0)  # a quote left open: no tag
@example(["<", "a", " ", "b", "=", " ", ">"], 0)  # "=", then none before ">"
@example(["<", "a", " ", "b", "=", "c", "/", ">"], 0)  # "/" in an unquoted value
def test_tags_equal_the_pattern(pieces, cut):
    text = "".join(pieces)
    end = len(text) - cut % (len(text) + 1) if cut % 3 == 0 else len(text)  # (a third of them cut)
    for pos in range(len(text) + 1):
        assert COMPILED.tag_groups(text, pos, end) == tag_groups(text, pos, end), (text, pos, end)
    assert COMPILED.tag_groups(text, 0) == tag_groups(text, 0)


MARKUP_PIECES = ["<", "<<", "!", "/", "?", "a", "Z", "@", "[", "`", "{", " ", "é", "😀", "\x82", "ſ", "K"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(MARKUP_PIECES), max_size=24), st.integers(0, 1 << 16))
@example(["<", "a"], 1)  # the letter cut off: none
@example(["<", "<", "!"], 0)
def test_markup_starts_equal_the_pattern(pieces, cut):
    text = "".join(pieces)
    end = len(text) - cut % (len(text) + 1) if cut % 3 == 0 else len(text)  # (a third of them cut)
    for pos in range(len(text) + 1):
        found = MARKUP_START.search(text, pos, end)
        assert COMPILED.markup_start(text, pos, end) == (-1 if found is None else found.start()), (text, pos, end)


WORD_PIECES = ["c", "h", "a", "r", "s", "e", "t", "x", ";", "&", "&#", "&#x", "0", "00", "67", "99", "63", "43", "672",
               "104", "72", "&#99;", "&#x63", "&#0099", "&#x068;", "&#x6", "&#1", "&#116;", "&#x74", "1", "f", "?"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(WORD_PIECES), max_size=24), st.integers(0, 1 << 16), st.sampled_from(["charset", "ab"]))
@example(["&#x63;", "h", "&#97", "r", "s", "&#0101;", "t"], 0, "charset")  # references, with and without ";", zeros
@example(["&#99", "0", "harset"], 0, "charset")  # "&#990": a longer number, none
@example(["&#x63", "f", "harset"], 0, "charset")  # "&#x63f": none
def test_words_equal_the_pattern(pieces, cut, word):
    text = "".join(pieces).encode("ascii")
    end = len(text) - cut % (len(text) + 1) if cut % 3 == 0 else len(text)  # (a third of them cut)
    pattern = charrefs.lowered_word(word)
    for pos in range(len(text) + 1):
        found = pattern.search(text, pos, end)
        assert COMPILED.word_start(text, pos, end, word.encode()) == (-1 if found is None else found.start()), \
            (text, pos, end)


NUMBERED_PIECES = ["<meta", " charset=", '"<p>', "\x0f", "あ", "😀", "a", "<", ">", "-->", "&#", ";", " ", "1", "23",
                   "0", "123456789", "x"]


@pytest.mark.slow  # 2,000 units, their copies from several positions
@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(NUMBERED_PIECES), min_size=1, max_size=8),
       st.lists(st.integers(0, 10 ** 9), min_size=1, max_size=40), st.integers(1, 2), st.integers(0, 1 << 16),
       st.booleans())
@example(["<p>", "1"], [5], 1, 0, False)  # a unit that ends with a run, then its next copy
@example(["1", "a", "2"], [5, 7], 1, 0, False)  # runs at both ends: no literals (the pattern's backtracking)
@example(["<a>", "123456789", "<b>"], [1], 1, 0, False)  # a run longer than 8: no copy
def test_numbered_copies_equal_the_pattern(pieces, numbers, period, cut, kept):
    """Copies of a unit (its runs free, or some kept: numbered_unit's pattern where kept) with other numbers,
    and a copy cut or spoilt at the end: where numbered_literals gives literals, the compiled end is the
    pattern's."""
    unit = "".join(pieces)
    parts = tuple(DIGITS.split(unit))
    if len(parts) == 1:
        return
    if kept:
        runs = DIGITS.findall(unit)
        one = numbered_unit.__wrapped__(parts, tuple(run if k % 2 else None for k, run in enumerate(runs)), lambda _: True)
        if one is None:
            return
        pattern = one.pattern
    else:
        pattern = skeleton(parts)
    copies = []
    for k, number in enumerate(numbers):
        copies.append("".join(part + (str(number + j * k) if j < len(parts) - 1 else "") for j, part in enumerate(parts)))
    text = "".join(copies) + unit[: cut % (len(unit) + 1)]
    end = len(text) - cut % (len(text) + 1) if cut % 2 else len(text)
    literals = numbered_literals(pattern, period)
    for pos in {0, len(copies[0]), cut % (len(text) + 1)}:
        plain = numbered_run(pattern, period).match(text, pos, end).end()
        if literals is not None:
            assert COMPILED.numbered_end(text, pos, end, literals) == plain, (pattern, text, pos, end)
        assert numbered_run_end(pattern, text, pos, end, period) == plain


def test_literals_only_where_each_run_reads_one_way():
    """numbered_literals gives none where a run may be followed by a digit (the pattern may then give
    digits back): a unit with runs at both ends, or a kept run after a free one."""
    assert numbered_literals(skeleton(("<p>", ""))) == ("<p>", "")
    assert numbered_literals(skeleton(("<p>", "", "")), 2) is None  # (two runs side by side: not from DIGITS)
    assert numbered_literals(skeleton(("", "a", ""))) is None
    assert numbered_literals("12" + skeleton(("<p>", ""))) is None  # a kept run first, a free one last
    assert numbered_literals(skeleton(("<a b='", "'>"))) == ("<a b='", "'>")
    assert numbered_literals(skeleton(("<a>", "<b>")), 2) == ("<a>", "<b><a>", "<b>")


# What the script data states read (§13.2.5.4, 15-32): "<!--", "-->", "<!-->", "</script" and "<script" with and
# without what ends a tag name, in either case, dashes, "<", other characters of each kind of str.
SCRIPT_PIECES = ["<!--", "-->", "<!-->", "--", "-", ">", "<", "!", "/", "<script", "</script", "<SCRIPT", "</ScRiPt",
                 "script", " ", "\t", "\x0c", "/", ">", "a", "é", "😀", "ſ", "K", "<scripts>", "<script>", "</script>"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(SCRIPT_PIECES), max_size=24))
@example(["<!--", "<script", ">", "-->", "</script", ">"])  # escaped, double-escaped, back to script data: ends
@example(["<!--", "<script", " ", "</script", ">", "</script", "/"])  # double-escaped, escaped, then the end
@example(["<!-->", "</script", "\t"])  # "<!-->" closes at once
@example(["</script"])  # no character after the name: no end
def test_script_data_ends_equal_the_steps(pieces):
    text = "".join(pieces)
    for pos in range(len(text) + 1):
        assert COMPILED.script_data_end(text, pos) == tokenizer.script_data_end(text, pos, shortcut=False), (text, pos)


META_PIECES = [b"<", b"<<", b"m", b"M", b"e", b"E", b"t", b"T", b"a", b"A", b"<meta", b"<META", b"<mEtA", b"<m", b"<Me",
               b"<met", b"<MET", b"\xcd", b"\xed", b"\xc5", b"\xd4", b"\xc1", b"@", b"x", b" ", b"<\x82"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(META_PIECES), max_size=40), st.integers(0, 1 << 16))
@example([b"<", b"\xcd", b"\xc5", b"\xd4", b"\xc1"], 0)  # the letters with 0x80: no "<meta"
@example([b"<met", b"\xc1"], 0)
@example([b"<Me", b"\xd4", b"a"], 0)
@example([b"<", b"M", b"e", b"T", b"a"], 1)  # the "a" cut off: none
def test_meta_starts_equal_the_pattern(pieces, cut):
    data = b"".join(pieces)
    end = len(data) - cut % (len(data) + 1) if cut % 3 == 0 else len(data)  # (a third of them cut)
    for start in range(len(data) + 1):
        found = change._META_BYTES.search(data, start, end)
        assert COMPILED.meta_start(data, start, end) == (-1 if found is None else found.start()), (data, start, end)


@pytest.mark.slow  # a hundred bodies of 64 KiB
def test_hostile_bodies_equal_the_patterns():
    """Each hostile body of tools/bench_hostile.py (64 KiB, as latin-1 and as UTF-8 text): its tags and the
    next markup within 4 KiB from each "<" of its first and last 4 KiB, and from every 64th character; the next
    "charset" within 8 KiB, from every 1024th; the copies of its first unit but for
    its numbers, where it has one; the end of a script element after each of the first 16 script start tags of its
    first 4 KiB and from every 4096th character (each a walk of the steps to the body's end)."""
    import bench_hostile

    for name, body in bench_hostile.bodies(1 << 16).items():
        for text in (body.decode("latin-1"), body.decode("utf-8", "replace")):
            places = {*range(0, len(text), 64), *(k for k, c in enumerate(text[:4096]) if c == "<"),
                      *(len(text) - 4096 + k for k, c in enumerate(text[-4096:]) if c == "<")}
            for pos in sorted(places):
                assert COMPILED.tag_groups(text, pos) == tag_groups(text, pos), (name, pos)
                found = MARKUP_START.search(text, pos, pos + 4096)
                assert COMPILED.markup_start(text, pos, pos + 4096) == (-1 if found is None else found.start()), name
            scripts = [m.end() for m in re.finditer("(?i)<script[^>]*>", text[:4096])][:16]
            for pos in sorted({*range(0, len(text), 4096), *scripts}):
                assert COMPILED.script_data_end(text, pos) == tokenizer.script_data_end(text, pos, shortcut=False), name
            for pos in range(0, len(body), 1024):
                found = change._META_BYTES.search(body, pos)
                assert COMPILED.meta_start(body, pos, len(body)) == (-1 if found is None else found.start()), name
            lowered = text.encode("ascii", "replace").lower()
            for pos in range(0, len(lowered), 1024):
                found = charrefs.lowered_word("charset").search(lowered, pos, pos + 8192)
                assert COMPILED.word_start(lowered, pos, pos + 8192, b"charset") == (-1 if found is None else found.start())
            lt = text.find("<", 1)
            second = text.find("<", lt + 1)
            if lt > 0 and second > 0 and (parts := tuple(DIGITS.split(text[lt:second]))) and len(parts) > 1:
                pattern = skeleton(parts)
                literals = numbered_literals(pattern)
                if literals is not None:
                    assert COMPILED.numbered_end(text, lt, len(text), literals) == \
                        numbered_run(pattern).match(text, lt).end(), name
