"""Character references in attribute values (HTML §13.2.5.72-80, return state: an attribute value).

The named character references table is the standard's (Python ships it as
``html.entities.html5``, keys with and without the trailing ";").
"""
from __future__ import annotations

import re
from html.entities import html5 as _NAMED

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


def decode_attribute_value(value: str) -> str:
    """*value* with its character references decoded the way the tokenizer does inside an
    attribute value: numeric ones with or without ";", named ones by longest match, except that a
    named match without ";" followed by "=" or an ASCII alphanumeric stays literal text."""
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
