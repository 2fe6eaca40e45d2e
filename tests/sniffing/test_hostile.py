"""Hostile markup (issue 37 item 1): the regexes that skip runs of tokens at C speed read what the
tokenizer reads token by token; the floods get the decisions a token-by-token reading gives (and
html5lib's, at a size it can afford); the work does not grow with the number of tokens (cProfile's
call counts, which load does not change); the parser step's byte bound applies on a flood."""
from __future__ import annotations

import cProfile
import pstats
import re

import pytest
from _html5lib_oracle import oracle_parser_meta
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.sniffing._html.tokenizer import (
    COMMENT_END,
    COMMENT_RUN,
    META_CANDIDATE,
    SKIP_UNINTERESTING,
    TAG,
    raw_text_end,
    script_data_end,
    text_element,
)
from scrapy_whatwg_encoding.sniffing.browsers import chromium_meta, firefox_meta
from scrapy_whatwg_encoding.sniffing.change import PARSER_LIMIT
from scrapy_whatwg_encoding.sniffing.parser_scan import (
    find_parser_meta,
    last_meta_start,
    meta_starts,
    meta_tag_encoding,
    tree_builder_metas,
)

KIB = 1024
META = b"<meta charset=koi8-r>"


def _whole(unit: bytes, size: int) -> bytes:
    return (unit * (size // len(unit))).ljust(size)


FLOODS = {
    "comments": lambda size: _whole(b"<!---->", size - len(META)) + META,
    "bad metas": lambda size: _whole(b'<meta http-equiv=content-type content="text/html;charset=zz">', size),
    "metas in scripts": lambda size: _whole(b"<script><meta charset=koi8-r></script>", size),
    "one script": lambda size: (b" " * 1024 + b"<script>" + _whole(META + b"\xe9", size))[:size],
}
# What each flood gives at 64 KiB (and at 1 MiB, where the comments' meta lies past the parser
# step's bound): (standard, browsers) as (encoding, source).
EXPECTED = {
    "comments": (("KOI8-R", "parser"), ("KOI8-R", "parser")),
    "bad metas": (("windows-1252", "default"), ("windows-1252", "default")),
    "metas in scripts": (("KOI8-R", "prescan"), ("windows-1252", "default")),
    "one script": (("windows-1252", "detector"), ("windows-1252", "detector")),
}


# -- the runs read what the tokenizer reads, token by token ----------------------------------------
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
                                    "</script", "</style", "</Script>", "<script>", "x=\">\""]), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["script", "style"]), st.sampled_from(["", " a=1", ' a=">"', "/"]), _BODIES)
def test_an_element_of_text_in_one_match_is_the_tokenizer_steps(name, attributes, rest):
    text = f"<{name}{attributes}>{rest}"
    match = re.compile(text_element(name, ""), re.ASCII).match(text)
    if match is not None:  # where it matches, it ends where the steps end (it may leave hard cases to them)
        assert match.end() == _element_by_steps(text, name)
    # Tokenizer-only skipping: past the element only where the steps close it, and on from there.
    steps = _element_by_steps(text, name)
    skipped = SKIP_UNINTERESTING.match(text)
    assert skipped is not None
    rest = SKIP_UNINTERESTING.match(text, max(steps, 0))
    assert skipped.end() in ((0,) if steps < 0 else (0, rest.end()))


def _reads(span: str):
    return meta_tag_encoding(span) if span else None


_TAGS = st.lists(st.sampled_from(['<meta charset=zz>', '<meta charset=utf-8>', '<meta a="<meta charset=koi8-r>">', "<!--",
                                  "-->", " ", "<meta charset=zz", ">", "x"]), max_size=20).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TAGS)
def test_metas_that_name_an_encoding_are_found_with_copies_skipped(text):
    """Copies of a tag that names nothing are skipped unread; the answer is every candidate's."""
    every = [match.start() for match in META_CANDIDATE.finditer(text)
             if (tag := TAG.match(text, match.start())) is not None and _reads(tag.group(3)) is not None]
    assert list(meta_starts(text, _reads)) == every
    assert last_meta_start(text, _reads) == (every[-1] if every else -1)


_DOCUMENTS = st.lists(st.sampled_from([
    "<script>", "</script>", "<SCRIPT a='>'>", "<style>", "</style >", "<title>", "</title>", "<textarea>", "</textarea>",
    "<noscript>", "</noscript>", "<meta charset=x>", "<!--", "-->", "--!>", "<!-->", "<p>", "</p>", "<b>", "<table>",
    "<td>", " ", "\n", "x", "<", "</", "<!doctype html>", "<head>", "<body>", "<plaintext>", "<xmp>", "</xmp>",
    "<iframe>", "</iframe>", "<?x>", "<svg>", "</svg>", "<template>", "</template>", "<select>", "<frameset>"]),
    max_size=25).map("".join)


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
    small, large = (_calls(FLOODS[flood](size), profile) for size in (64 * KIB, 1024 * KIB))
    tokens = FLOODS[flood](64 * KIB).count(b"<")
    # The metas that name nothing cost a few calls each (a regex match and a cached reading, per
    # reader that looks: the parser step's, Chromium's); nothing else costs a call per token, and
    # past the parser step's bound nothing grows at all.
    per_token = 12 if flood == "bad metas" else 0
    assert small < 1500 + per_token * tokens, (small, tokens)
    assert large <= small + 1500


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
