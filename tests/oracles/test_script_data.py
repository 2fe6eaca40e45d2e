"""Script data's end (HTML §13.2.5.4, 13.2.5.15-32) against an oracle written from the states'
text, one character at a time: :func:`script_data_end` with its shortcuts and as plain steps, and
each of its runs that come back to a state, which must end where the oracle is in that state."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding.sniffing._html import tokenizer
from scrapy_whatwg_encoding.sniffing._html.tokenizer import TAG, script_data_end, text_element

_WS_SLASH_GT = "\t\n\x0c\r />"
DATA, ESCAPED, DOUBLE = "script data", "script data escaped", "script data double escaped"


def oracle(text: str, pos: int) -> tuple[int, list[str | None]]:
    """(offset of the "<" of the end tag that ends script data begun at *pos*, or -1; the state
    that consumes each character, None before *pos*), the appropriate end tag being "script"'s."""
    state, lt, buffer = DATA, -1, ""
    states: list[str | None] = [None] * pos
    i = pos
    while i < len(text):
        c = text[i]
        states.append(state)
        reconsume = False
        if state == DATA:
            if c == "<":
                state, lt = "less-than sign", i
        elif state == "less-than sign":
            if c == "/":
                state, buffer = "end tag open", ""
            elif c == "!":
                state = "escape start"
            else:
                state, reconsume = DATA, True
        elif state in ("end tag open", "escaped end tag open"):
            if c.isascii() and c.isalpha():
                state, reconsume = state.replace("open", "name"), True
            else:
                state, reconsume = (DATA if state == "end tag open" else ESCAPED), True
        elif state in ("end tag name", "escaped end tag name"):
            if c in _WS_SLASH_GT and buffer == "script":
                return lt, states  # an appropriate end tag: the element ends
            if c.isascii() and c.isalpha():
                buffer += c.lower()
            else:
                state, reconsume = (DATA if state == "end tag name" else ESCAPED), True
        elif state == "escape start":
            state, reconsume = ("escape start dash", False) if c == "-" else (DATA, True)
        elif state == "escape start dash":
            state, reconsume = ("escaped dash dash", False) if c == "-" else (DATA, True)
        elif state in (ESCAPED, "escaped dash", "escaped dash dash"):
            if c == "-":
                state = "escaped dash" if state == ESCAPED else "escaped dash dash"
            elif c == "<":
                state, lt = "escaped less-than sign", i
            elif c == ">" and state == "escaped dash dash":
                state = DATA
            else:
                state = ESCAPED
        elif state == "escaped less-than sign":
            if c == "/":
                state, buffer = "escaped end tag open", ""
            elif c.isascii() and c.isalpha():
                state, buffer, reconsume = "double escape start", "", True
            else:
                state, reconsume = ESCAPED, True
        elif state in ("double escape start", "double escape end"):
            if c in _WS_SLASH_GT:
                start = state == "double escape start"
                state = (DOUBLE if start else ESCAPED) if buffer == "script" else (ESCAPED if start else DOUBLE)
            elif c.isascii() and c.isalpha():
                buffer += c.lower()
            else:
                state, reconsume = (ESCAPED if state == "double escape start" else DOUBLE), True
        elif state in (DOUBLE, "double escaped dash", "double escaped dash dash"):
            if c == "-":
                state = "double escaped dash" if state == DOUBLE else "double escaped dash dash"
            elif c == "<":
                state = "double escaped less-than sign"
            elif c == ">" and state == "double escaped dash dash":
                state = DATA
            else:
                state = DOUBLE
        elif state == "double escaped less-than sign":
            if c == "/":
                state, buffer = "double escape end", ""
            else:
                state, reconsume = DOUBLE, True
        if reconsume:
            states.pop()
        else:
            i += 1
    return -1, states


_PIECES = st.sampled_from(["<", ">", "-", "--", "-->", "<!--", "<!-", "<!", "!", "/", " ", "a", "<!-->", "<!--->",
                           "<script>", "<script ", "<SCRIPT/", "<scripts>", "</script>", "</script ", "</SCRIPT/",
                           "</scrip>", "<script", "</script", "script", "<b>", "\n"])
_BODIES = st.lists(_PIECES, max_size=40).map("".join)


@settings(max_examples=1000, deadline=None)
@given(_BODIES, st.integers(0, 3))
def test_script_data_ends_where_the_states_end(body, pos):
    pos = min(pos, len(body))
    expected, _ = oracle(body, pos)
    assert script_data_end(body, pos, shortcut=False) == expected
    assert script_data_end(body, pos) == expected


# Where a run may end: before a character consumed in its state, or one of its dash states (where
# "-->" closes too).
_AT_END = {DATA: {DATA}, ESCAPED: {ESCAPED, "escaped dash", "escaped dash dash"},
           DOUBLE: {DOUBLE, "double escaped dash", "double escaped dash dash"}}


@settings(max_examples=1000, deadline=None)
@given(_BODIES, st.sampled_from([DATA, ESCAPED, DOUBLE]))
def test_each_run_ends_in_the_state_it_began_in(body, state):
    """A run that comes back to its state, from the first few characters the oracle consumes in
    that state (where the steps begin a run): the oracle is in that state where it ends."""
    end, states = oracle(body, 0)
    pattern = {DATA: tokenizer._SCRIPT_DATA, ESCAPED: tokenizer._SCRIPT_ESCAPED, DOUBLE: tokenizer._SCRIPT_DOUBLE}[state]
    for start in [i for i, seen in enumerate(states) if seen == state][:3]:
        stop = tokenizer._SCRIPT_SKIP[pattern].match(body, start).end()
        if end >= 0:
            assert stop <= end  # never past the end tag
        assert stop == len(body) or states[stop] in _AT_END[state]


def test_floods_of_escaped_and_double_escaped_sections_are_one_match():
    """The runs skip floods of every kind of section in one match each, to their end tag."""
    for unit in ("<!--->", "<!-->x", "<!--<script>a</script>-->", "<!--<script>--><script>", "<!--a<script >b-->"):
        text = unit * 500 + "</script>"
        expected, _ = oracle(text, 0)
        assert tokenizer._SCRIPT_SKIP[tokenizer._SCRIPT_DATA].match(text).end() == len(unit) * 500 == expected
        assert script_data_end(text, 0) == script_data_end(text, 0, shortcut=False) == expected
    text = "<!--" + "<script>a</script>b" * 500 + "</script>"  # escaped, through double-escaped sections
    assert tokenizer._SCRIPT_SKIP[tokenizer._SCRIPT_ESCAPED].match(text, 2).end() == len(text) - 9 == oracle(text, 0)[0]


def test_no_end_tag_and_no_double_escape_are_two_searches():
    assert script_data_end("<!--" * 1000, 0) == -1 == oracle("<!--" * 1000, 0)[0]
    text = "<!--x" * 1000 + "</script>"
    assert script_data_end(text, 0) == oracle(text, 0)[0] == len(text) - 9


_ELEMENT = re.compile(text_element("script", ""), re.ASCII)


@settings(max_examples=1000, deadline=None)
@given(_BODIES)
def test_a_script_element_in_one_match_ends_where_the_states_end(body):
    """The head runs' whole script element (start tag, text, end tag): where the oracle's
    script data ends at an end tag that is read whole, there; else no match."""
    end, _ = oracle(body, 0)
    tag = None if end < 0 else TAG.match(body, end)
    match = _ELEMENT.match("<script>" + body)
    assert (None if match is None else match.end()) == (None if tag is None else 8 + tag.end())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_BODIES, st.integers(0, 3), st.booleans()), min_size=1, max_size=8))
def test_script_data_ends_kept_answer_as_asked_anew(asks):
    """script_data_end keeps its last answers (the parser step and the browsers' models ask alike):
    asked again, of the same text or an equal one, at the same place or another, it answers as its
    plain twin and the oracle."""
    tokenizer.forget()
    for body, pos, again in asks:
        text = (body + "x")[:-1] if again else body  # (an equal text, another object)
        pos = min(pos, len(text))
        assert script_data_end(text, pos) == script_data_end(text, pos, shortcut=False) == oracle(text, pos)[0]
