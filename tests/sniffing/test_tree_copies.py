"""The parser step's shortcuts through floods that keep the tree builder on (issue 37 item 1):
copies of a unit of tokens skipped once the tree builder's state comes round again, and bogus
comments taken in the runs of comments and characters. Each against its plain twin (the token-by-token
steps) and html5lib's tree builder; and the work: no turn of the loop per copy."""
from __future__ import annotations

import pytest
from _html5lib_oracle import oracle_parser_meta
from _scan_calls import scan_calls
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding.sniffing._html.tree import TreeBuilder
from scrapy_whatwg_encoding.sniffing.parser_scan import (
    HEAD_MODES,
    PARSER_HEAD,
    Hints,
    find_parser_meta,
    meta_tag_encoding,
    scan_parser_meta,
    tree_builder_metas,
)

META = "<meta charset=koi8-r>"
# Tokens whose copies take the tree builder round a cycle (or not), in the contexts that keep it on.
_HEADS = ["", "<template>", "<svg>", "<math>", "<svg><foreignObject>", "<table>", "<template><select>", "<select>",
          "<b>", "<a>", "<p>", "<frameset>", "<head>", "<body>", "<table><tr>", "<math><mi>", "<template><table>",
          "<b><svg><g><desc>x", "<form><svg><foreignObject>x", "<svg><x><foreignObject>x", "<math><mo>x",
          "<table><svg><foreignObject>x<!---->", "<svg><foreignObject>x<!---->"]
_UNIT_TOKENS = ["<a>", "<b>", "<i>", "<p>", "<div>", "<table>", "<td>", "<tr>", "<option>", "<hr>", "<br>", "\x00",
                "x", " ", "<", "</", "</>", "<?x>", "<!x>", "<!--->", "</a>", "</b>", "</p>", "<a href=1>", "\xd8",
                "<meta charset=zz>", META, "<title>t</title>", "<svg>", "</svg>", "<template>", "</template>",
                "<li>", "<dd>", "<nobr>", "<font color=red>", "<select>", "</select>", "<caption>", "<col>",
                "<![CDATA[x]]>", "<!doctype html>", "</br>", "</td>", "<script></script>", "<math>", "<mi>",
                "<form>", "</form>"]
_TAILS = ["", META, "</template>" + META, "</svg>" + META, "<", "</", "a>", "</svg><title>" + META + "</title>",
          "</template><svg><title>" + META, "<title>" + META + "</title>"]


def _flood(head: str, unit: list[str], copies: int, tail: str) -> str:
    return head + "".join(unit) * copies + tail


_FLOODS = st.builds(_flood, st.sampled_from(_HEADS), st.lists(st.sampled_from(_UNIT_TOKENS), min_size=1, max_size=10),
                    st.integers(0, 80), st.sampled_from(_TAILS))


def _metas(text: str, skip_copies: bool, **kwargs) -> list:
    return list(tree_builder_metas(text, skip_copies=skip_copies, **kwargs))


@settings(max_examples=1500, deadline=None)
@given(_FLOODS, st.booleans(), st.booleans(), st.integers(0, 400))
@example(_flood("<template>", ["<a>"], 60, "</template>" + META), True, True, 400)
@example(_flood("<template>", ["<form>"], 60, "</template>" + META), True, True, 400)  # a block there: no pointer
@example(_flood("<form>", ["<form>"], 60, META), True, True, 400)  # ignored: the pointer is set
@example(_flood("<template>", ["<svg>", "<title>", "\x1b$B<1", "<form>", "<form>", "<form>", "</svg>"], 30,
                "</template>" + META), True, True, 400)  # hunted (stop 63), one number
@example(_flood("<svg>", ["\x00", "<"], 60, "</svg>" + META), True, False, 400)
@example(_flood("<svg>", ["<"], 60, "a>"), True, True, 400)
@example(_flood("\xa1\xa1", ["<svg>", "\x1b$B", "<"], 60, "</svg>" + META), True, False, 400)  # hunted: a "<" in a unit's text
@example(_flood("<svg><foreignObject>", ["<hr>", "\x00\xd8", "<?x>", "<!--->"], 40, META), False, True, 400)
@example(_flood("<template>", ["<meta charset=zz>"], 40, META), True, True, 400)
@example(_flood("", ["<table>", "</table>"], 40, META), True, False, 200)
@example(_flood("<!--->", ["<table>", "\x00", "<", "<svg/>", "\x00", "<\x00", "<", "<table>", "\x00", "<", "<table>"], 40,
                "</svg>" + META), False, True, 400)  # a unit of eleven turns
@example(_flood("<body>", ["<table>", "</table>"], 60, META), True, True, 100)  # a stop "in table", copies past it
@example(_flood("<body>", ["<table>", "</table>"], 60, META), True, True, 131)
@example(_flood("", ["<td>", "<td>", "<td>", "<hr>", "<meta charset=zz>"], 10, ""), True, False, 314)  # a cutoff just past a "<"
def test_copies_skipped_once_the_state_comes_round_leave_the_metas_of_the_token_by_token_steps(text, modes, scripting,
                                                                                                   cut):
    """The shortcut (:class:`parser_scan._Copies`) against its plain twin, every meta emitted and
    the insertion mode before it, with a cutoff and a stop (Firefox's model) or none."""
    kwargs = {"modes": modes, "scripting": scripting or not modes}
    assert _metas(text, True, **kwargs) == _metas(text, False, **kwargs)
    cutoff = {"cutoff": min(cut, len(text))}
    assert _metas(text, True, **kwargs, **cutoff) == _metas(text, False, **kwargs, **cutoff)
    if modes:  # (a stop inside a unit that leaves an alive mode and comes back to it)
        for alive in (("in head", "before head"), ("in body", "in template")):
            stop = {"stop_at": min(cut, len(text)), "alive": alive}
            assert _metas(text, True, **kwargs, **stop) == _metas(text, False, **kwargs, **stop)


@pytest.mark.parametrize("text", [_flood("<body>", ["<table>", "</table>"], 40, META),
                                  _flood("<template>", ["</b>", "<"], 60, "</template>" + META)])
def test_a_stop_anywhere_in_copies_leaves_the_metas_of_the_token_by_token_steps(text):
    """Copies skipped past the stop (Firefox's model) only where those watched lie past it, the
    loop having met each of their "<"s in its mode: every stop, against the plain twin."""
    for stop_at in range(len(text) + 1):
        stop = {"modes": True, "scripting": False, "stop_at": stop_at, "alive": ("in body", "in template")}
        assert _metas(text, True, **stop) == _metas(text, False, **stop), stop_at


# Units whose copies differ (a number in each): no copies to skip, but runs of characters (stray
# "<" included) and comments taken whole once characters change nothing.
_NUMBERED_TOKENS = ["%d", "<", "<%d", "=", "'", "<!-- x -->", "<!-- %d -->", "<?x>", "</ x>", "<!x>", "<![CDATA[<meta charset=koi8-r>]]>",
                    "<!doctype html>", "\x00", " ", "&#65;", "&#x20;", "<b>", "</b>", "<p>", "</p>", "<table>", "<td>", "<svg>",
                    "</svg>", "<foreignObject>", "</style>", "</head>", "<template>", "</template>", "<mi>", "<math>", "<frameset>",
                    "<select>", "<option>", "<caption>", "<colgroup>", "<col>", "</table>", "<noscript>", "</noscript>", META,
                    "</body>", "</html>", "<head>", "<body>", "<html>", "\n", "</br>", "</foreignObject>", "</FORM>", "<form>",
                    "</a>", "</nobr>", "</mi>", "</title>", "</desc>", "</li>", "</h2>", "</x>", "<desc>", "</g>", "<g>", "<a>",
                    # numbers that are no character data: in a name, a reference (&#9; is whitespace), an attribute
                    "<h%d>", "</h%d>", "&#%d;", "&#x%d;", "<a href=%d>", "<b x%d>", "<!-- %d -->", "x%d", "\ufeff",
                    "&frac1%d;", "&sup%d;", "&amp%d", "&%d", "<meta charset=%d>", "<meta charset=koi8-r\x00 a=%d>",
                    "<meta/&notin;</%d", "<input type=%d>", "</%d>", "<?%d>"]


def _numbered(head: str, unit: list[str], copies: int, tail: str) -> str:
    return head + "".join("".join(unit).replace("%d", str(k)) for k in range(copies)) + tail


@settings(max_examples=1500, deadline=None)
@given(st.builds(_numbered, st.sampled_from(_HEADS + ["<!doctype html>", "<html><head>", "<body><table>"]),
                 st.lists(st.sampled_from(_NUMBERED_TOKENS), min_size=1, max_size=6), st.integers(0, 30), st.sampled_from(_TAILS)),
       st.booleans(), st.booleans(), st.integers(0, 400))
@example(_numbered("<svg>", ["<='='", "<!-- x -->", "%d"], 30, META), False, True, 400)
@example(_numbered("<svg>", ["%d", "<![CDATA[<meta charset=koi8-r>]]>"], 5, ""), True, True, 400)  # no run past a CDATA section
@example(_numbered("<table>", ["%d", "<!-- x -->", "<td>", "x"], 10, META), True, False, 400)
@example(_numbered("", ["x", "</body>", "%d", META], 3, ""), True, True, 400)  # "after body": characters change the mode
@example(_numbered("", [" ", "<!-- x -->", "%d", META], 3, ""), True, True, 400)  # whitespace first: "before head"
@example(_numbered("<svg>", ["x", "<?x>", "<![CDATA[ > <meta charset=koi8-r> ]]>"], 3, ""), True, True, 400)  # a CDATA section
@example(_numbered("", [" ", "<?x>", "%d", META], 3, ""), True, True, 400)  # whitespace, then no tag: "initial" still
@example(_numbered("<svg>", ["x%d"], 2, "</svg><frameset>" + META), True, True, 400)  # frameset-ok "not ok" in SVG
@example(_numbered("<template>", ["%d", "</svg>", "</b a='>'>", "<!-- x -->"], 20, "</TEMPLATE><col>" + META), True, True, 400)
@example(_numbered("<template>", ["x%d", "</template>"], 3, "<col>" + META), True, True, 400)  # "</template>" is no other
@example(_numbered("<head><template><svg>x<!-- c -->", ["y%d", "</svg>"], 3, "<col>" + META), True, True, 400)
# at an integration point "in body", end tags taken with characters but those that may change state
# (a comment after the characters: a turn starts where they made the end tags change nothing)
@example(_numbered("<svg><foreignObject>x<!---->", ["</style>", "</head>", "<!x>", "%d", "<!---->"], 20, "</foreignObject></svg>" + META), True, True, 400)
@example(_numbered("<svg><foreignObject>x<!---->", ["</p>", "%d", "<!---->"], 3, META), True, True, 400)  # "</p>" inserts a p
@example(_numbered("<svg><foreignObject>x<!---->", ["</br>", "%d", "<!---->"], 3, META), True, True, 400)
@example(_numbered("<b><svg><foreignObject>x<!---->", ["</b>", "%d", "<!---->"], 3, "</svg>" + META), True, True, 400)
@example(_numbered("<svg><g><foreignObject>x<!---->", ["</g>", "%d", "<!---->"], 3, "<title>" + META + "</title>"), True, True, 400)
@example(_numbered("<svg><foreignObject>x<!---->", ["</foreignObject>", "%d", "<!---->"], 3, "<title>" + META + "</title>"), True, True, 400)
@example(_numbered("<svg><x><foreignObject>x<!---->", ["</x>", "%d", "<!---->"], 3, "<title>" + META + "</title>"), True, True, 400)
@example(_numbered("<table><svg><foreignObject>x<!---->", ["</table>", "%d", "<!---->"], 3, "<svg><title>" + META), True, True, 400)
@example(_numbered("<form><svg><foreignObject>x<!---->", ["</form>", "%d", "<!---->"], 3, "</svg><form>" + META), True, True, 400)
# "in body" at an HTML current node, end tags taken with characters but those with rules of their
# own and the names down to the topmost special element (a hunted body: stray end tags between numbers)
@example(_numbered("", ["  </svg>%d\x80&Tab;"], 30, META), True, True, 400)
@example(_numbered("<div>", ["</span>%d", "</div>"], 3, META), True, True, 400)  # "</div>" pops the div
@example(_numbered("<p><span>", ["</x>%d"], 5, "</span>" + META), True, True, 400)  # a span above the p: the loop
@example(_numbered("<b>", ["</i>%d", "</b>"], 3, META), True, False, 400)  # the adoption agency
@example(_numbered("<div>", ["x%d", "</p>", "</svg>"], 3, META), True, True, 400)  # "</p>" inserts a p
@example(_numbered("", ["x%d", "</svg>", "</body>"], 3, "<p>" + META), True, True, 400)  # "</body>": "after body"
@example(_numbered("<table><td>", ["</svg>%d", "</td>"], 3, META), True, True, 400)  # "in cell"
# copies but for numbers in character data, skipped once the state comes round (hunted: the adoption agency at each <a>)
@example(_numbered("\x1b(B</table>\x00", ["\ufeff<a><a>%d<a><a>"], 60, META), True, True, 400)
@example(_numbered("<p>", ["<b>%d</b><i>"], 60, META), True, False, 400)
@example(_numbered("", ["<h%d>", "<a>"], 40, META), True, True, 400)  # a number in a name: no copies
@example(_numbered("<b>", ["&#%d;", "<i>", "x"], 40, META), True, True, 400)  # in a reference: no copies
@example(_numbered("<b>", ["&frac1%d;", "<i>", "x"], 40, META), True, True, 400)
@example(_numbered("\xff\xd7", [" g%d<a><a>"], 60, META), True, True, 400)  # after a letter in text: character data
@example(_numbered("\xff\xd7", ["<a>&#65;%d<a><a>"], 60, META), True, True, 400)  # a reference's digits the same in each copy
@example(_numbered("<html>", ["<meta charset=koi8-r\x00></foreignObject><!----><meta/&notin;</%d"], 60, META), True, True, 400)
@example(_numbered("<body>", ["<input type=%d>", "<table>", "</table>"], 60, META), True, True, 400)  # in attributes
@example(_numbered("<body>", ["<!-- %d -->", "</%d>", "<p>"], 60, META), True, True, 400)  # in comments
@example(_numbered("<body>", ["</body>", "&#3%d;", "<!---->"], 33, META), True, True, 400)  # &#32; (a space) among others
@example(_numbered("<p>", ["<a href=%d>", "%d"], 40, META), True, True, 400)  # in an attribute: no copies
@example(_numbered("<body>", ["</body>", "&#%d;", "<!---->"], 33, META), True, True, 400)  # &#32; (the last) keeps "after body"
def test_runs_of_characters_and_comments_leave_the_metas_of_the_token_by_token_steps(text, modes, scripting, cut):
    """Runs taken in one match (after a stray "<"; characters and comments once characters change
    nothing) against the plain twin, with a cutoff and a stop (Firefox's model) or none."""
    kwargs = {"modes": modes, "scripting": scripting or not modes}
    assert _metas(text, True, **kwargs) == _metas(text, False, **kwargs)
    cutoff = {"cutoff": min(cut, len(text))}
    assert _metas(text, True, **kwargs, **cutoff) == _metas(text, False, **kwargs, **cutoff)
    if modes:
        for alive in (("in head", "before head"), ("in body", "in template")):
            stop = {"stop_at": min(cut, len(text)), "alive": alive}
            assert _metas(text, True, **kwargs, **stop) == _metas(text, False, **kwargs, **stop)


def test_a_shape_tells_apart_what_the_outline_does_not():
    """Two states whose stacks hold the same names but whose list of active formatting elements
    points at different places (one at an element open, the other at a copy no longer open:
    reconstruction differs) have different shapes; two built alike, equal ones."""
    def built(tokens: list[str]) -> TreeBuilder:
        tree = TreeBuilder()
        for token in tokens:
            if token.startswith("</"):
                tree.end_tag(token[2:-1])
            else:
                tree.start_tag(token[1:-1], "", False)
        return tree

    open_b, closed_b = built(["<body>", "<b>", "<p>"]), built(["<body>", "<b>", "<p>", "</b>", "<i>", "</i>"])
    assert open_b.outline() == built(["<body>", "<b>", "<p>"]).outline()
    assert open_b.shape() == built(["<body>", "<b>", "<p>"]).shape()
    assert open_b.shape() != closed_b.shape()
    # The same names on the stack, one "a" open and listed, the other an "a" listed but closed.
    listed, reopened = built(["<body>", "<a>", "<div>"]), built(["<body>", "<a>", "<div>", "</a>"])
    assert [el.name for el in listed.stack] != [el.name for el in reopened.stack] or listed.shape() != reopened.shape()


@pytest.mark.parametrize("head", [["<template>"], ["<template>", "<svg>", "<title>"], ["<body>"], ["<body>", "<form>"],
                                  ["<template>", "<p>"], ["<template>", "<template>"], ["<body>", "<p>"]])
@pytest.mark.parametrize("name", ["form", "div", "b"])
def test_start_tags_pushed_at_once_leave_the_state_of_one_by_one(head, name):
    """copies_push and push_copies (a unit of one start tag: "form" a block where a template is on
    the stack, the form element pointer neither set nor read; "div", "b") against the tag read forty
    times one by one: the same state (shape), or no push at once where the copies would do more."""
    def built(copies: int, at_once: bool) -> TreeBuilder:
        tree = TreeBuilder()
        for tag in head + [f"<{name}>"]:
            tree.start_tag(tag[1:-1], "", False)
        specs = tree.copies_push([(name, "", False)]) if at_once else None
        if specs is not None:
            tree.push_copies(specs, copies)
        else:
            for _ in range(copies):
                tree.start_tag(name, "", False)
        return tree

    assert built(40, True).shape() == built(40, False).shape()
    if name == "form" and head == ["<body>", "<form>"]:
        assert built(40, True).copies_push([("form", "", False)]) is None  # ignored one by one: no push


# Bogus comments ("<?", "</" + non-letter, "<!" but a comment) holding what looks like markup.
_BOGUS = st.lists(st.sampled_from([
    "</", "<?", "<!", "<!-", "</>", "<?x>", "<!x>", "</ x>", "</1>", "<!doctype html>", "<![CDATA[", "]]>", ">", "<",
    "<meta charset=koi8-r>", "<meta charset= -->", "-->", "<!--", "<p>", "x", " ", "<script>", "</script>", "<title>",
    "</title>", "<svg>", "</svg>", "<template>", "</template>", "<plaintext>"]), max_size=25).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_BOGUS)
@example("</<meta charset= -->" * 30 + META)
@example("<?<meta charset=koi8-r>")
@example("<!<meta charset=koi8-r>")
@example("</")
def test_tokenizer_states_alone_skip_bogus_comments_as_the_tree_builder_reads_them(text):
    """Bogus comments in the runs of comments and characters: the loop (and the parser step's,
    with hints) against its plain twin."""
    shortcut = [(lt, end) for lt, end, _, _ in tree_builder_metas(text, modes=False)]
    assert shortcut == [(lt, end) for lt, end, _, _ in tree_builder_metas(text, modes=True, skip_copies=False)]
    named = next((lt for lt, _, span, _ in tree_builder_metas(text, modes=True, skip_copies=False)
                  if meta_tag_encoding(span) is not None), None)
    found = find_parser_meta(text, len(text))
    assert (None if found is None else found[2]) == named


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["<body>", "<svg><foreignObject>", "<p>", "<template>", "<head>", ""]), st.integers(0, 40),
       _BOGUS.filter(bool))
@example("<body>", 2, "<?x>x<")
@example("<body>", 0, "</>x<p>")
def test_runs_of_comments_and_characters_end_at_the_head_bound_as_the_plain_twin_ends(start, shift, unit):
    """Runs of comments and characters past the head bound (PARSER_HEAD): the parser step's
    scan, out of the head's modes, stops at the first "<" there, as its plain twin does."""
    html = start + "x" * shift + unit * (1 + 1100 // len(unit)) + META
    kwargs = {"stop_at": PARSER_HEAD, "alive": HEAD_MODES, "modes": False}
    assert list(tree_builder_metas(html, **kwargs)) == list(tree_builder_metas(html, skip_copies=False, **kwargs))


@pytest.mark.parametrize("start, scripting", [("<!doctype html>", True), ("<html>", True), ("<head>", True),
                                               ("<head><noscript>", False), ("<head></head>", True),
                                               ("<head><template>", True)])
@pytest.mark.parametrize("name", ["head", "body", "html", "br", "template", "noscript", "xmp", "p", "title"])
def test_each_end_tag_before_the_body_is_read_as_the_plain_twin_reads_it(start, scripting, name):
    """Each mode before the body (then "in template"), each end tag its rules name and others:
    the metas after it, each in its insertion mode, as the plain twin finds them."""
    html = f"{start}<!-- x --></{name}> {META}"
    assert (list(tree_builder_metas(html, scripting=scripting))
            == list(tree_builder_metas(html, scripting=scripting, skip_copies=False)))


_BEFORE_BODY = st.lists(st.sampled_from([
    "</head>", "</body>", "</html>", "</br>", "</BR >", "</noscript>", "</template>", "</xmp>", "</x a='>'>", "</p/>",
    "<?x>", "<!x>", "</>", "<!-- x -->", "<!doctype html>", " ", "\n", "x", "<", "<head>", "<noscript>", "<template>",
    "<link>", "<body>", META]), max_size=30).map("".join)


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(["", "<html>", "<head>", "<head><noscript>", "<head></head>", "<!doctype html>"]), _BEFORE_BODY,
       st.booleans())
@example("", "<?x></xmp>" * 40 + META, True)
@example("<head><noscript>", "</xmp><!-- x --></br>" + META, False)
@example("<head>", "<script><!--<a>x</script>" * 200 + "<script><!--<script></script>" + META, True)  # copies, then no end
@example("<head>", "<link>" * 150 + "<script><!--<a>x</script>" * 150 + META + "<title>" + META, True)
def test_runs_before_the_body_are_read_as_the_plain_twin_reads_them(start, rest, scripting):
    """Whitespace, comments, DOCTYPEs and the end tags each mode before the body ignores: one
    match in the scan, the metas its plain twin finds, each in the same insertion mode."""
    html = start + rest
    assert (list(tree_builder_metas(html, scripting=scripting))
            == list(tree_builder_metas(html, scripting=scripting, skip_copies=False)))


# The floods of issue 37 item 1 that kept the tree builder on, one turn of the loop per token.
FLOODS = {
    "template <a>": ("<template>", "<a>", "</template>" + META),
    "template <p>": ("<template>", "<p>", "</template>" + META),
    "template <table>": ("<template>", "<table>", "</template>" + META),
    "template <td>": ("<template>", "<td>", "</template>" + META),
    "template <nobr>": ("<template>", "<nobr>", "</template>" + META),
    "template select <option>": ("<template><select>", "<option>", "</select></template>" + META),
    "svg NUL <": ("<svg>", "\x00<", "</svg>" + META),
    "svg <": ("<svg>", "<", "</svg>" + META),
    "svg x<": ("<svg>", "x<", "</svg>" + META),
    "svg foreignObject hr": ("<svg><foreignObject>", "<hr>\x00\xd8<?<!--->", META),
    "bogus comments": ("", "</<meta charset= -->", META),
    "</>": ("", "</>", META),
    "<?x>": ("", "<?x>", META),
    "<!x>": ("", "<!x>", META),
    "template </>": ("<template>", "</>", "</template>" + META),
    "template </b><": ("<template>", "</b><", "</template>" + META),
    "template stray < and text": ("<template>", "1<&#65;", "</template>" + META),
    "tables, svg, NUL, <": ("<!--->", "<table>\x00<<svg/>\x00<\x00<<table>\x00<<table>", "</svg>" + META),  # eleven turns
    "svg text and comments": ("<svg>", "<='='<!-- x -->x", "</svg>" + META),
}
# Floods that open one more element per copy: no cycle. Copies of one start tag that each push an
# element alike are pushed at once (TreeBuilder.copies_push); units of more tags, token by token.
GROWING = {
    "template <b>": ("<template>", "<b>", "</template>" + META),
    "template <i>": ("<template>", "<i>", "</template>" + META),
    "template <div>": ("<template>", "<div>", "</template>" + META),
    "svg <g>": ("<svg>", "<g>", "</svg>" + META),
    "<span>, svg": ("", "<span>", "<svg><title>" + META),
    "template <font color=red>": ("<template>", "<font color=red>", "</template>" + META),
    # (hunted, stop 65: each "<b>" after whitespace taken as a copy of the "<b>" before, the unit with
    # the whitespace then never tried: a turn per copy)
    "template <b><b> and whitespace": ("<template>", "<b><b>\r\n", "</template>" + META),
}
GROWING_UNITS = {
    "template <a><b>": ("<template>", "<a><b>", "</template>" + META),
    "template <b><i>": ("<template>", "<b><i>", "</template>" + META),
    "math <mi><b>": ("<math>", "<mi><b>", "</math>" + META),
}


def _body(name: str, size: int) -> str:
    head, unit, tail = {**FLOODS, **GROWING, **GROWING_UNITS}[name]
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


@pytest.mark.parametrize("name", sorted(FLOODS))
def test_floods_that_keep_the_tree_builder_on_take_no_turn_per_copy(name):
    """Python calls (cProfile's count, which load does not change): a 64 KiB flood (thousands
    of tokens) costs no more than a few hundred, in the parser step's scan and the browser
    models' (insertion modes kept, scripting disabled); the same metas as the steps."""
    text = _body(name, 64 * 1024)
    for kwargs in ({"modes": False}, {"modes": True, "scripting": False}):
        assert scan_calls(text, **kwargs) < 1500, (name, kwargs, text.count("<"))
        if kwargs["modes"]:
            assert _metas(text, True, **kwargs) == _metas(text, False, **kwargs)


@pytest.mark.parametrize("head", ["", "<div>", "<b>", "<p>"])
def test_numbered_stray_end_tags_in_body_take_no_turn_each(head):
    """A 64 KiB body of stray end tags between numbers (a hunted body; no copies: each unit differs)
    "in body" costs a few hundred Python calls, not a turn of the loop per end tag; the same metas."""
    text = _numbered(head, ["  </svg>%d\x80&Tab;"], 3000, META)
    for kwargs in ({"modes": False}, {"modes": True, "scripting": False}):
        assert scan_calls(text, **kwargs) < 1500, (head, kwargs)
        assert _metas(text, True, **kwargs) == _metas(text, False, **kwargs)


@pytest.mark.parametrize("name", sorted(GROWING))
def test_floods_that_push_an_element_per_copy_take_no_turn_per_copy(name):
    """Copies of one start tag that each push one more element alike are pushed at once: for a
    64 KiB flood, one Python call per copy (creating its element, ``El.__init__``) and a few
    hundred more, not a turn of the loop (dozens of calls) per copy; the same metas as the
    token-by-token steps."""
    text = _body(name, 64 * 1024)
    for kwargs in ({"modes": False}, {"modes": True, "scripting": False}):
        assert scan_calls(text, **kwargs) < text.count("<") + 1500, (name, kwargs, text.count("<"))
        assert _metas(text, True, **kwargs) == _metas(text, False, **kwargs)


@pytest.mark.parametrize("name", sorted(GROWING_UNITS))
def test_floods_that_open_elements_per_unit_cost_calls_linear_in_the_input(name):
    small, large = (scan_calls(_body(name, size), modes=False) for size in (16 * 1024, 64 * 1024))
    assert large < 4.5 * small


@pytest.mark.parametrize("name", sorted(FLOODS) + sorted(GROWING) + sorted(GROWING_UNITS))
def test_floods_that_keep_the_tree_builder_on_get_html5libs_meta(name):
    """On a flood html5lib can afford (4 KiB): the parser step's meta is html5lib's (its
    encoding and the offset past its ">")."""
    text = _body(name, 4 * 1024)
    ours = scan_parser_meta(text, len(text))
    oracle = oracle_parser_meta(text)
    assert (None if ours is None else (ours[0].name, ours[3])) == (None if oracle is None else (oracle[0].name, oracle[2]))


# Foreign content: runs of start tags that only push foreign elements (numbered: no copies), with
# characters and comments, skipped where a tag that breaks out ends them (it pops them all).
_FOREIGN_HEADS = ["<svg>", "<math>", "<svg><g>", "<math><annotation-xml>", "<template><svg>", "<svg><foreignObject><svg>",
                  "<math><mi><svg>", "<table><svg>", "<svg><desc><math>", "<math><annotation-xml encoding=text/html><svg>",
                  "<svg>x", "<b><svg>"]
_FOREIGN_TOKENS = ["<x%d>", "<g>", "<b%d>", "<path d='>'/>", "<x%d a=%d b='>'>", "<desc>", "<title>", "<mi>", "<mtext>",
                   "<foreignobject>", "<FOREIGNOBJECT>", "<desc\x00>", "<annotation-xml encoding=text/html>",
                   "<annotation-xml>", "<svg>", "<math>", "<font>", "<font color=red>", "<mglyph>", "x", "%d", " ", "\n",
                   "\x00", "&#32;", "&#x41;", "&", "<", "<!-- c -->", "<?x>", "<!x>", "<![CDATA[y]]>", "<![CDATA[ ]]>",
                   "</x1>", "</g>", "</svg>", "<b>", "<B>", "<meta charset=zz>", "</p>", "</br>", "<p>", "<table>", "<h1>",
                   "<\xe9", "</\xe9>", "\xd8", "<x\xe9>", "<![cdata[", "<?"]
_FOREIGN_TAILS = [META, "<b>" + META, "</p>" + META, "</BR>" + META, "<p><frameset>" + META, "<FONT size=1>" + META,
                  "</svg>" + META, "<title>" + META, "<desc><frameset>" + META, "<META charset=koi8-r>", "<b",
                  "<mtext><frameset>" + META]


@settings(max_examples=1500, deadline=None)
@given(st.builds(_numbered, st.sampled_from(_FOREIGN_HEADS), st.lists(st.sampled_from(_FOREIGN_TOKENS), min_size=1, max_size=6),
                 st.integers(0, 30), st.sampled_from(_FOREIGN_TAILS)),
       st.booleans(), st.booleans(), st.integers(0, 400))
@example(_numbered("<svg>", ["<x%d>"], 30, META), False, True, 400)
@example(_numbered("<svg>", ["<x%d>", "y"], 3, "<p><frameset>" + META), False, True, 400)  # frameset-ok "not ok"
@example(_numbered("<svg>", ["<x%d>", "&#32;"], 3, "<p><frameset>" + META), False, True, 400)  # still "ok"
@example(_numbered("<math><annotation-xml>", ["<x%d>"], 3, "<svg><title>" + META), False, True, 400)  # svg at annotation-xml
@example(_numbered("<math>", ["<mi>"], 3, "<svg><title>" + META), False, True, 400)
@example(_numbered("<svg>", ["<FOREIGNOBJECT>"], 3, "<title>" + META), False, True, 400)
@example(_numbered("<svg>", ["<x%d>"], 3, "</x1><frameset>" + META), False, True, 400)  # an end tag ends the run
@example(_numbered("<svg>", ["<x%d>"], 3, "<font>" + META), False, True, 400)
@example(_numbered("<svg>", ["<x%d>", "x"], 3, "<font color=red><frameset>" + META), False, True, 400)
@example(_numbered("<svg><g>", ["<![CDATA[y]]>"], 1, "<p><frameset>" + META), False, True, 400)  # characters
@example(_numbered("<svg>", ["<x%d>"], 3, "<desc></x0><frameset>" + META), False, True, 400)  # no breakout: pushed
@example(_numbered("<svg>", ["<x%d>", "<\xe9"], 2, META + "<frameset>" + META), False, True, 400)  # "<" then "é": no "<?"
def test_runs_that_push_foreign_elements_leave_the_metas_of_the_token_by_token_steps(text, modes, scripting, cut):
    """Runs of start tags that only push foreign elements, skipped where a tag that breaks out
    ends them, against the plain twin, with a cutoff and a stop (Firefox's model) or none."""
    kwargs = {"modes": modes, "scripting": scripting or not modes}
    assert _metas(text, True, **kwargs) == _metas(text, False, **kwargs)
    cutoff = {"cutoff": min(cut, len(text))}
    assert _metas(text, True, **kwargs, **cutoff) == _metas(text, False, **kwargs, **cutoff)
    if modes:
        stop = {"stop_at": min(cut, len(text)), "alive": ("in body", "in template")}
        assert _metas(text, True, **kwargs, **stop) == _metas(text, False, **kwargs, **stop)


# Runs of foreign start tags, numbered, 64 KiB: a few regex matches, not a turn of the loop each
# (with run_end's look for copies of a unit of up to 8 items: about 170 C calls, found none).
FOREIGN_RUNS = {
    "svg <x%d>": ("<svg>", "<x%d>", META),
    "svg <b%d> text": ("<svg>", "<b%d>x", "<p>" + META),
    "template svg <x%d a=%d>": ("<template><svg>", "<x%d a=%d>", META),
    "math <x%d> comments": ("<math>", "<x%d><!-- %d -->", "</br>" + META),
}


@pytest.mark.parametrize("name", sorted(FOREIGN_RUNS))
def test_runs_that_push_foreign_elements_take_no_turn_per_tag(name):
    head, unit, tail = FOREIGN_RUNS[name]
    copies = (64 * 1024 - len(head) - len(tail)) // (len(unit) + 4)
    text = _numbered(head, [unit], copies, tail)
    for kwargs in ({"modes": False}, {"modes": True, "scripting": False}):
        assert scan_calls(text, **kwargs) < 400, (name, kwargs, text.count("<"))
        assert _metas(text, True, **kwargs) == _metas(text, False, **kwargs) != []


# "In body": a run of start tags that change neither the insertion mode nor the tokenizer state,
# up to a meta, which is then given at once (the run read token by token only if asked for more).
_BODY_HEADS = ["", "<body>", "<math><mtext>", "<mi>", "<svg>", "<template>", "<table>", "<select>", "<frameset>",
               "<svg><foreignObject>", "<head>", "<template><div>", "<p><b>x</p>", "<math><annotation-xml>", "<table><td>",
               "<template><col><template><div>", "<template><col>", "<table><colgroup>", "<head><template>", "</html>",
               "<svg></html>", "<template><table>", "<template><tr>"]
_BODY_TOKENS = ["<x%d>", "<b%d>", "<div%d a='%d'>", "<p>", "<a>", "<b>", "<font>", "<font color=red>", "<svg>", "<math>",
                "<mtext>", "<desc>", "<table>", "<td>", "<select>", "<option>", "<template>", "<col>", "<frameset>",
                "<textarea>", "<title>", "<plaintext>", "<noscript>", "<noframes>", "<xmp>", "<iframe>", "<noembed>",
                "<style>", "<script>", "<body>", "<html>", "<head>", "</body>", "</p>", "</x1>", "x", " ", "\x00",
                "<!-- c -->", "<?x>", "<!x>", "<![CDATA[<meta charset=koi8-r>]]>", "<\xe9", "<meta charset=zz>",
                "<image>", "<li>", "<button>", "<form>", "<frame>", "<caption>", "<colgroup>", "<br/>", "<TABLE>",
                "</template>", "</table>", "</html>", "</x%d>", "</b>", "<col>", "</colgroup>", "<tr>", "</td>", "</caption>",
                "</select>", "</TEMPLATE>", "</tr>", "</tbody>", "</head>", "<head>", "</frameset>", "<input type=hidden>"]
_BODY_TAILS = [META, "<meta charset=zz>" + META, "</table>" + META, "<select>" + META, "<title>" + META + "</title>",
               "<table>" + META, "</template><col>" + META, "<frameset>" + META]


@settings(max_examples=2000, deadline=None)
@given(st.builds(_numbered, st.sampled_from(_BODY_HEADS), st.lists(st.sampled_from(_BODY_TOKENS), min_size=1, max_size=6),
                 st.integers(0, 20), st.sampled_from(_BODY_TAILS)),
       st.booleans(), st.booleans(), st.integers(0, 400))
@example(_numbered("<math><mtext>", ["<b%d>"], 30, META), True, True, 400)
@example(_numbered("<mi>", ["<math>", "<mtext>", "<desc>", "<math>", "<mtext>", "<font>"], 5, META), True, True, 400)
@example(_numbered("<body>", ["<x%d>"], 3, "<select>" + META), True, True, 400)  # a select keeps "in body"
@example(_numbered("<body>", ["<x%d>"], 3, "<table>" + META), True, True, 400)  # "in table": the mode given
@example(_numbered("<body>", ["<x%d>"], 3, "</body>" + META), True, True, 400)  # "after body"
@example(_numbered("<body>", ["<x%d>", "<textarea>"], 1, META + "</textarea>" + META), True, True, 400)
@example(_numbered("<body>", ["<x%d>"], 3, "<meta charset=zz>" + META), True, True, 400)  # each meta once
@example(_numbered("<body>", ["<x%d>", "<template>", "<col>"], 1, META), True, True, 400)  # template's column group
@example(_numbered("<svg>", ["<x%d>"], 1, "<![CDATA[ > " + META + " ]]>" + META), True, True, 400)  # a CDATA section
@example(_numbered("<body>", ["<x%d>"], 1, "<iframe>" + META + "</iframe>" + META), True, True, 400)
@example(_numbered("<body>", ["<x%d>"], 1, "<noembed>" + META + "</noembed>" + META), True, True, 400)
@example(_numbered("<body>", ["<x%d>"], 1, "<noframes>" + META + "</noframes>" + META), True, True, 400)
@example(_numbered("<body>", ["<x%d>"], 1, "<noscript>" + META + "</noscript>" + META), True, True, 400)
@example(_numbered("<template><col><template><div>", ["<x%d>"], 2, "</template>" + META), False, True, 400)
@example(_numbered("<template>", ["<x%d>"], 2, "</template><col>" + META), False, True, 400)
@example(_numbered("<svg>", ["%d</html>", "='/<\x00!\x00-\x00-\x00/&"], 20, META), False, True, 400)
@example(_numbered("<body>", ["<meta charset=zz>", "<x%d>"], 3, META), False, True, 400)  # metas without a hint
@example(_numbered("<math><mtext><textarea>" + META + "</textarea>", ["<x%d>", META], 1, "<x9><meta charset=windows-1251>"),
         False, True, 400)  # with hints, a run stops at the next one
def test_metas_after_runs_that_keep_the_mode_are_given_as_the_token_by_token_steps_give_them(text, modes, scripting, cut):
    """Runs of tags that keep the insertion mode (foreign runs, copies, head runs) then metas: the
    same metas, in the same order, with the same insertion modes, as the plain twin (with a
    cutoff too)."""
    kwargs = {"modes": modes, "scripting": scripting or not modes}
    assert _metas(text, True, **kwargs) == _metas(text, False, **kwargs)
    cutoff = {"cutoff": min(cut, len(text))}
    assert _metas(text, True, **kwargs, **cutoff) == _metas(text, False, **kwargs, **cutoff)
    # With hints, meta tags before the next hint are items of the run: those that name an encoding
    # alike, in order.
    naming = [meta for meta in _metas(text, False, modes=False) if meta_tag_encoding(meta[2]) is not None]
    hinted = _metas(text, True, modes=False, hints=Hints(text))
    assert [meta for meta in hinted if meta_tag_encoding(meta[2]) is not None] == naming
    found = find_parser_meta(text, len(text), None)
    assert (None if found is None else found[2]) == (naming[0][0] if naming else None)


def test_metas_after_runs_stop_at_the_cutoff():
    """A cutoff at the last of the metas after runs: each once, none past it."""
    text = _numbered("<math><mtext>", ["<x%d>", META], 3, "")
    for cutoff in (text.rindex("<meta"), text.rindex("<meta") - 1, len(text)):
        kwargs = {"modes": False, "cutoff": cutoff}
        assert _metas(text, True, **kwargs) == _metas(text, False, **kwargs) != []



_END_NAMES = ["svg", "span", "x", "div", "p", "b", "a", "body", "html", "td", "table", "li", "h1", "br", "form",
              "template", "select", "object", "foreignObject", "title", "mi", "g", "math", "nobr", "dd", "option"]
_TOKENS = st.lists(st.tuples(st.booleans(), st.sampled_from(_END_NAMES + ["ul", "button", "caption", "tr"])), max_size=12)


@settings(max_examples=600, deadline=None)
@given(_TOKENS, st.sampled_from(["", "x"]))
@example([(True, "div"), (True, "span")], "x")  # a non-special element above the topmost special one
@example([(True, "p"), (True, "span")], "x")
@example([(True, "table"), (True, "td"), (True, "div")], "x")
def test_end_tags_ignored_change_no_state(tokens, characters):
    """Every end tag that TreeBuilder.end_tags_ignored leaves out changes no state (its shape)
    after start and end tags (and characters, which make them inert) in any mode."""
    import copy

    tree = TreeBuilder()
    for start, name in tokens:
        if start:
            tree.start_tag(name, "", False)
        else:
            tree.end_tag(name)
        if characters:
            tree.characters(False, False, True)
    kept = tree.end_tags_ignored()
    if kept is None:
        return
    shape = tree.shape()
    for name in _END_NAMES:
        if name.lower() not in kept:
            other = copy.deepcopy(tree)
            other.end_tag(name)
            assert other.shape() == shape, (tokens, name)


def test_a_number_in_a_tag_is_no_character_data_it_may_name_an_encoding():
    """Copies but for their numbers are skipped only where each number is character data: in a
    tag it may change what the tag says (``<meta charset=866>`` names IBM866, label "866", after
    865 copies that name nothing and are not yielded)."""
    from scrapy_whatwg_encoding.sniffing.parser_scan import _reads_nothing

    text = "<body>" + "".join(f"<meta charset={k}>" for k in range(900))
    found = _metas(text, True, unread=_reads_nothing)
    assert found == _metas(text, False, unread=_reads_nothing)
    assert [span for _, _, span, _ in found] == [" charset=866"]
