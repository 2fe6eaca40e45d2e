"""Character references in attribute values: the shortcut (C loops) against its plain twin (one
Python step per reference) and against html5lib's tokenizer (an oracle for HTML §13.2.5.72-80)."""
from __future__ import annotations

import gc
import importlib
import sys
from html.entities import html5 as named_references

import html5lib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding.sniffing._html.charrefs import decode_attribute_value, forget

browsers = importlib.import_module("scrapy_whatwg_encoding.sniffing.browsers")
charrefs = importlib.import_module("scrapy_whatwg_encoding.sniffing._html.charrefs")

# Numbers at the edges of the numeric character reference end state's rules (0, the C1 table and
# its holes, surrogates, noncharacters, U+10FFFF and past it, past 32 bits).
EDGES = [0, 1, 9, 0x0D, 0x1F, 0x7F, *range(0x80, 0xA0), 0xA0, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF,
         0xE000, 0xFDD0, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF, 0x110000, 0xFFFFFFFF, 0x100000000, 10**30]
NEAR_NAMES = ["amp", "AMP", "ampx", "am", "not", "notit", "noti", "notin", "lt", "ltx", "Tab", "quot",
              "frac12", "frac1", "nbsp", "nbs", "image", "imagx", "zwnj", "xx", "1", "a"]
_FRAGMENTS = [
    "&", ";", "#", "x", "X", "=", "0", "1", "9", "a", "F", "g", "n", " ", "\u00e9", "<", "'", "&#", "&#x", "&#X",
    *(f"&{name}" for name in NEAR_NAMES), *(f"&{name};" for name in NEAR_NAMES), "&amp=", "&not=",
    *(f"&#x{number:X};" for number in EDGES), *(f"&#{number}" for number in EDGES),
    "&#0000000000000065;", "&#x000000000000041", "&#99999999999999999999;", "&#x1234567890abcdef",
]


def _reference(number: int, x: str, zeros: int, semicolon: bool) -> str:
    """A numeric reference: hexadecimal after "x" or "X" (digits in either case), else decimal."""
    digits = f"{number:x}" if x == "x" else f"{number:X}" if x == "X" else str(number)
    return "&#" + x + "0" * zeros + digits + ";" * semicolon


references = st.one_of(
    st.builds(_reference, st.one_of(st.sampled_from(EDGES), st.integers(0, 0x120000)), st.sampled_from(["x", "X", ""]),
              st.integers(0, 12), st.booleans()),
    st.builds(lambda name, after: "&" + name + after, st.sampled_from(sorted(named_references)),
              st.sampled_from(["", ";", "=", "a", "1", " ", "&"])),
    st.sampled_from(_FRAGMENTS),
)
# What html5lib reads as written inside a double-quoted value (no '"'; no NUL, CR, surrogate:
# input stream preprocessing and the tokenizer's NUL rule, not character references).
values = st.lists(st.one_of(references, st.text(st.characters(blacklist_categories=("Cs",),
                                                               blacklist_characters='"\x00\r'), max_size=3)),
                  max_size=40).map("".join)


def html5lib_value(value: str) -> str:
    """The value of ``a`` in ``<div a="value">`` as html5lib's tokenizer decodes it."""
    fragment = html5lib.parseFragment(f'<div a="{value}"></div>', namespaceHTMLElements=False)
    return fragment[0].get("a")


def decoded(value: str) -> str:
    forget()  # each value decoded afresh, not remembered from an earlier example
    return decode_attribute_value(value)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(values)
def test_shortcut_is_the_plain_twin_and_the_tokenizer(value):
    assert decoded(value) == decode_attribute_value(value, shortcut=False) == html5lib_value(value)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(references, st.text(max_size=4)), max_size=60).map("".join))
def test_shortcut_is_the_plain_twin_on_any_text(value):
    # Any character written (quotes, NUL, CR, lone surrogates), and the references' pieces repeated.
    twice = value + "&" + value
    assert decoded(twice) == decode_attribute_value(twice, shortcut=False)


@pytest.mark.slow
@pytest.mark.parametrize("after", ["", ";", "=", "a", "Z", "0", ";=", " ", "&", "&amp;"])
def test_every_named_reference(after):
    """Each table entry (with and without its ";"), then each kind of character."""
    for name in named_references:
        value = f"x&{name}{after}"
        assert decoded(value) == decode_attribute_value(value, shortcut=False) == html5lib_value(value), value


@pytest.mark.slow
def test_every_code_point_in_one_value():
    """Every number up to past U+10FFFF, in one value (each piece between "&"s distinct), even
    ones hexadecimal with ";", odd ones decimal without: the shortcut's text is the plain twin's;
    html5lib's (both forms) on the numbers that its rules single out and on a sample of the rest."""
    value = "".join(f"&#x{number:X};&#{number + 1}-" for number in range(0, 0x110000 + 0x100, 2))
    assert decoded(value) == decode_attribute_value(value, shortcut=False)
    checked = [*range(0x3000), *range(0xD700, 0xE100), *range(0xFD00, 0x10100, 7),
               *range(0x10000, 0x110100, 997), *range(0x10FF00, 0x110100)]
    value = "".join(f"&#x{number:X};&#{number}-" for number in checked)
    assert decoded(value) == html5lib_value(value)


@pytest.mark.parametrize(("value", "text"), [
    ("&notit;", "&notit;"), ("&notit", "&notit"), ("&not=", "&not="), ("&amp=x", "&amp=x"), ("&ampx", "&ampx"),
    ("&amp", "&"), ("&AMP;x", "&x"), ("&amp;=", "&="), ("&not;it", "\u00acit"), ("&not it", "\u00ac it"),
    ("&notin;", "\u2209"), ("&notin", "&notin"), ("&#x80;", "\u20ac"), ("&#x81;", "\x81"), ("&#159", "\u0178"),
    ("&#0;", "\ufffd"), ("&#xD800;", "\ufffd"), ("&#xdfff", "\ufffd"), ("&#x10FFFF;", "\U0010ffff"),
    ("&#x110000;", "\ufffd"), ("&#1114111", "\U0010ffff"), ("&#1114112", "\ufffd"),
    ("&#000000000000000000065;", "A"), ("&#x0000000000000000041x", "Ax"), ("&#99999999999999999999999;", "\ufffd"),
    ("&#X41;&#xaB", "A\u00ab"), ("&#x;", "&#x;"), ("&#;", "&#;"), ("&#", "&#"), ("&", "&"), ("&&#65;&", "&A&"), ("&#65&#x42C", "A\u042c"),
    ("&#x20;" * 3, "   "), ("a&lt;b&gt c&gtc", "a<b> c&gtc"), ("&frac12=", "&frac12="), ("&frac12;3", "\u00bd3"),
])
def test_the_standard(value, text):
    """The standard's examples and edges, written out (the historical rule: §13.2.5.73)."""
    assert decoded(value) == text
    assert decode_attribute_value(value, shortcut=False) == text


def _python_steps(value: str, shortcut: bool = True) -> int:
    """The calls of the module's Python functions, and of builtins from them, that decoding takes
    (the garbage collector off: no finalizer of another module's objects runs meanwhile)."""
    steps = 0

    def count(frame, event, arg):
        nonlocal steps
        steps += event in ("call", "c_call") and frame.f_code.co_filename == charrefs.__file__

    gc.disable()
    sys.setprofile(count)
    try:
        decode_attribute_value(value, shortcut)
    finally:
        sys.setprofile(None)
        gc.enable()
    return steps


@pytest.mark.parametrize("unit", [
    "&#x20;", "&#x20;<?xml\u00ed", "&#{n};", "&#x{n:x}", "&#{n}a", "&{name};", "&{name}", "&{name}=", "x&{n}&",
    "&#00000000000{n};&#x{n}0000000000;",
])
def test_shortcut_steps_do_not_grow_with_the_references(unit):
    """The shortcut takes as many Python steps for 2,000 references as for 1,000 (its loops are C
    loops), where its plain twin takes one or more per reference; numbered ones all distinct."""
    names = sorted(named_references)

    def flood(count: int) -> str:
        return "a" + "".join(unit.format(n=n, name=names[n % len(names)]) for n in range(count))

    steps = []
    for count in (1000, 2000):
        value = flood(count)
        forget()
        steps.append(_python_steps(value))
    plain = [_python_steps(flood(count), shortcut=False) for count in (10, 20)]
    assert steps[0] == steps[1] < 30
    assert plain[1] - plain[0] >= 10


def test_values_are_remembered_until_forgotten():
    """The browsers' models each read one tag: its values are decoded once, until forget()."""
    value = "&#x20;" * 1000 + "&amp;"
    forget()
    first = _python_steps(value)
    again = _python_steps(value)
    browsers.forget()
    after = _python_steps(value)
    assert again < first == after
