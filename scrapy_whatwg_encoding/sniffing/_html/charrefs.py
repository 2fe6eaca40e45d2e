"""Character references in attribute values (HTML §13.2.5.72-80, return state: an attribute value).

The named character references table is the standard's (Python ships it as
``html.entities.html5``, keys with and without the trailing ";").
"""
from __future__ import annotations

import re
import sys
from array import array
from collections.abc import Iterable
from functools import cache, lru_cache
from html.entities import html5 as _NAMED
from itertools import islice, repeat
from operator import add

from .compiled import compiled_tokens

_LONGEST = max(map(len, _NAMED))
# Numeric character reference end state: replacements for 0x80-0x9F (§13.2.5.80 table).
_C1 = {
    0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020,
    0x87: 0x2021, 0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152,
    0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022,
    0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
    0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
}
_REFERENCE = re.compile(r"&(?:#[xX]([0-9A-Fa-f]+);?|#([0-9]+);?|([A-Za-z0-9]+))")
_ALNUM_OR_EQUALS = re.compile(r"[A-Za-z0-9=]")


def _numeric(value: int) -> str:
    if value == 0 or value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
        return "\ufffd"
    return chr(_C1.get(value, value))


# The shortcut reads the pieces between "&"s (a reference never holds one), each distinct piece
# once, with one findall per kind over them all; each match: the piece, what decodes, the rest.
# Numeric: leading zeros dropped, at most 8 significant hex or 9 decimal digits kept (more is past
# U+10FFFF either way; kept, they fit 32 bits and int() stays cheap).
_HEXADECIMAL = re.compile(r"&(?=([^&]*))#[xX]0*([0-9A-Fa-f]{1,8})[0-9A-Fa-f]*;?([^&]*)")
_DECIMAL = re.compile(r"&(?=([^&]*))#0*([0-9]{1,9})[0-9]*;?([^&]*)")
# Named: in an attribute value a match decodes only if it is the whole run of ASCII alphanumerics
# after "&" (a shorter one is followed by an alphanumeric: historical rule), with its ";" if one
# follows (each legacy entry without ";" also has a ";" form), and not followed by "=". So the run
# with the ";" or "=" after it is a table key as written, or the reference stays literal.
_NAME = re.compile(r"&(?=([^&]*))([A-Za-z0-9]+[;=]?)([^&]*)")
_LITERAL = re.compile(r"&(?!#[xX][0-9A-Fa-f]|#[0-9]|[A-Za-z0-9])([^&]*)")  # the other pieces
# Code points as 32-bit units: 0 and the C1 table replaced (dict.get: no KeyError raised per
# number, as str.translate would), then UTF-32 decoding turns surrogates and those past U+10FFFF
# into U+FFFD (one each).
_ZERO_C1 = {0: 0xFFFD, **_C1}
_UNIT = next(code for code in "IL" if array(code).itemsize == 4)
_UTF_32 = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"


def _numbers(digits: tuple[str, ...], base: int) -> str:
    """The characters of numeric references with these significant *digits* (at most 9), one each."""
    numbers = list(map(int, digits, repeat(base)))
    return array(_UNIT, map(_ZERO_C1.get, numbers, numbers)).tobytes().decode(_UTF_32, "replace")


def decode_attribute_value(value: str, shortcut: bool = True) -> str:
    """*value* with its character references decoded the way the tokenizer does inside an
    attribute value (§13.2.5.72-80): numeric ones with or without ";", named ones by longest match,
    except that a named match without ";" followed by "=" or an ASCII alphanumeric stays literal
    text. With *shortcut* (the default), C loops over the pieces between "&"s, each distinct piece
    decoded once, and the last few values' texts are remembered (the browsers' models each read a
    tag: :func:`forget`); without, one Python step per reference (the plain twin, same text)."""
    return _in_bulk(value) if shortcut else _one_by_one(value)


@lru_cache(maxsize=8)
def _in_bulk(value: str) -> str:
    first, *pieces = value.split("&")
    distinct = set(pieces)
    joined = "&" + "&".join(distinct)
    literal = _LITERAL.findall(joined)  # a piece that starts with no reference: "&" and itself
    decoded = dict(zip(literal, map("&".__add__, literal)))
    for pattern, base in ((_HEXADECIMAL, 16), (_DECIMAL, 10), (_NAME, 0)):
        found = pattern.findall(joined)
        if found:
            written, referenced, rest = zip(*found)
            text = _numbers(referenced, base) if base else map(_NAMED.get, referenced, map("&".__add__, referenced))
            decoded.update(zip(written, map(add, text, rest)))
    return first + "".join(map(decoded.__getitem__, pieces))


def _numeric_to(code_points: Iterable[int]) -> str:
    """A pattern of the numeric references to *code_points* (none 0, a surrogate or in the C1
    table) as the tokenizer reads them: every digit (leading zeros too), then ";" if one follows."""
    points = sorted(set(code_points))
    assert not any(point in _ZERO_C1 or 0xD800 <= point <= 0xDFFF for point in points)
    decimal, hexadecimal = "|".join(map(str, points)), "|".join(f"{point:x}" for point in points)
    return rf"&#(?:0*(?:{decimal})(?![0-9])|[xX]0*(?i:{hexadecimal})(?![0-9A-Fa-f]));?"


_WHITESPACE = "\t\n\x0c\r "  # ASCII whitespace
# The references that decode to ASCII whitespace: numeric ones to its code points, and the table's
# names whose text is whitespace (&Tab; and &NewLine;), written as the table writes them.
_WHITESPACE_AFTER_AMPERSAND = "(?:" + _numeric_to(map(ord, _WHITESPACE))[1:] + "|" + "|".join(
    re.escape(name) for name, text in sorted(_NAMED.items()) if not text.strip(_WHITESPACE)) + ")"
_WHITESPACE_REFERENCE = re.compile("&" + _WHITESPACE_AFTER_AMPERSAND)
_OTHER_AMPERSAND = re.compile("&(?!" + _WHITESPACE_AFTER_AMPERSAND + ")")  # an "&" that starts none of them


@lru_cache(maxsize=8)  # (the readers of one tag ask each once: forget())
def nonspace_floor(value: str, cap: int | None = None) -> int:
    """At least how many characters of ``decode_attribute_value(value)`` are not ASCII whitespace:
    each "&" starts one reference or stays itself (no reference holds an "&"), each decodes to one
    character or more, and only those :data:`_WHITESPACE_REFERENCE` finds decode to whitespace.
    One C search over the value, whatever its references (no decoding); with *cap*, ``min(floor,
    cap)``, the search stopping at the cap-th "&" that starts no such reference (a 64 KiB value of
    references: the first few, not all of them)."""
    if cap is None:
        return value.count("&") - len(_WHITESPACE_REFERENCE.findall(value))
    return sum(1 for _ in islice(_OTHER_AMPERSAND.finditer(value), cap))


def _word_source(word: str, written: str) -> str:
    """:func:`may_hold`'s pattern for *word*: each letter, written (*written* formats it) or a
    numeric reference to it."""
    letters = {*word.lower(), *word.upper()}
    if not word.isascii() or not word.isalpha() or any(letters.intersection(text) for text in _NAMED.values()):
        raise ValueError(f"{word!r}: ASCII letters that no named reference gives")
    return "".join(f"(?:{written.format(lower=letter.lower(), upper=letter.upper())}"
                   f"|{_numeric_to(map(ord, {letter.lower(), letter.upper()}))})" for letter in word)


@cache
def _word_pattern(word: str) -> re.Pattern[str]:
    """:func:`may_hold`'s pattern for *word*, compiled."""
    return re.compile(_word_source(word, "[{lower}{upper}]"))


@cache
def lowered_word(word: str) -> re.Pattern[bytes]:
    """:func:`may_hold`'s pattern for *word* over a text's ASCII-lowercased bytes (the tokenizer's
    ``ascii_lowered``: the same offsets, each letter written in lowercase, a literal that sre finds
    its candidates by): where a value there holds it, a match lies inside the value. Raises
    ValueError as :func:`may_hold` does."""
    return re.compile(_word_source(word, "{lower}").encode("ascii"))


def word_start(word: str, lowered: bytes, start: int = 0, end: int = sys.maxsize) -> int:
    """Where :func:`lowered_word`'s pattern for *word* first matches in ``lowered[start:end]`` (a
    text's ASCII-lowercased bytes; an offset), or -1: compiled where the extension is built
    (``c_tokens.word_start``: each byte read once, where the pattern takes about 80 ns at each "&"
    of a value of references: hunted, issue 37, 0.9 ms at 64 KiB), else its plain twin, the
    pattern's search. Raises ValueError as :func:`may_hold` does."""
    pattern = lowered_word(word)
    compiled = compiled_tokens()
    if compiled is not None:
        return compiled.word_start(lowered, start, end, word.lower().encode("ascii"))
    found = pattern.search(lowered, start, end)
    return -1 if found is None else found.start()


@lru_cache(maxsize=8)  # (the readers of one tag ask each once: forget())
def may_hold(value: str, word: str) -> bool:
    """Whether ``decode_attribute_value(value)`` may hold *word* (ASCII letters that no named
    reference's text holds, e.g. "charset"), ASCII case-insensitively: ``False`` only where it
    cannot. Each decoded character is one written or a reference's (one each, "&" starting each),
    so the word's letters come one after another, each written or a numeric reference to it.
    One C search over the value's ASCII-lowercased bytes (:func:`word_start`), whatever its
    references (no decoding); its plain twin is the search over the value (:func:`_word_pattern`). Raises ValueError for a word it cannot decide."""
    return word_start(word, value.encode("ascii", "replace").lower()) >= 0


def forget() -> None:
    """Forget the values :func:`decode_attribute_value`, :func:`nonspace_floor` and
    :func:`may_hold` remember (for benchmarks)."""
    for remembering in (_in_bulk, nonspace_floor, may_hold):
        remembering.cache_clear()


def _one_by_one(value: str) -> str:
    """:func:`decode_attribute_value`'s plain twin: one Python step per reference."""
    out: list[str] = []
    pos = 0
    for match in _REFERENCE.finditer(value):
        start = match.start()
        if start < pos:
            continue
        hexdigits, digits, name = match.groups()
        if name is None:
            out.append(value[pos:start])
            digits = (hexdigits if hexdigits is not None else digits).lstrip("0") or "0"
            if len(digits) > 8:  # far beyond U+10FFFF
                number = 0x110000
            else:
                number = int(digits, 16 if hexdigits is not None else 10)
            out.append(_numeric(number))
            pos = match.end()
            continue
        # Named character reference state: the longest table entry that prefixes the text.
        text = value[start + 1:start + 1 + _LONGEST]
        for length in range(len(text), 0, -1):
            candidate = text[:length]
            if candidate in _NAMED:
                break
        else:
            continue  # no match: the ambiguous ampersand state keeps it all as text
        end = start + 1 + length
        if not candidate.endswith(";") and _ALNUM_OR_EQUALS.match(value, end):
            continue  # historical: "&amp=" / "&notit" in an attribute stay as written
        out.append(value[pos:start])
        out.append(_NAMED[candidate])
        pos = end
    out.append(value[pos:])
    return "".join(out)
