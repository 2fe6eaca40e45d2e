"""Regex-driven pieces of the HTML tokenizer (HTML §13.2.5) used by the parser step.

Each pattern stands for a run of tokenizer states, so the scanner jumps from one markup boundary
to the next instead of stepping one character at a time. All matching is ASCII case-insensitive
only (``re.ASCII``): the tokenizer lowercases ASCII letters and nothing else.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Any

from ...encoding.tables.labels import LABELS
from .charrefs import decode_attribute_value, may_hold, nonspace_floor
from .compiled import compiled_tokens

_WS = "\t\n\x0c\r "
_FLAGS = re.ASCII | re.IGNORECASE

#: Whether ``re`` has atomic groups and possessive quantifiers (Python 3.11+).
POSSESSIVE = sys.version_info >= (3, 11)


def with_possessives(pattern: str) -> str:
    """*pattern* as written (its "*+", "?+" and "}+" possessive) on Python 3.11+; on 3.10, which
    has no possessive quantifiers, greedy ones: the same match where the pattern reads one way (its
    first way is taken, nothing after it can fail and make it backtrack)."""
    return pattern if POSSESSIVE else pattern.replace("*+", "*").replace("?+", "?").replace("}+", "}")


def atomic(pattern: str, key: str) -> str:
    """*pattern* matched atomically (what it matched is never given back to retry it shorter) on
    Python 3.10, which has no possessive quantifiers: a lookahead and a backreference (group
    *key*)."""
    return f"(?=(?P<{key}>{pattern}))(?P={key})"


# A tag's attributes (§13.2.5.32-42) as a few states: "before attribute name" (B: whitespace and
# "/" stay, the "self-closing start tag" and "after attribute value (quoted)" states act alike),
# a name (N: "after attribute name" acts alike: whitespace stays, "/" goes to B, "=" to a value,
# anything else stays or starts a name), a value (before it whitespace stays; quoted, to its
# quote, then B; unquoted, to whitespace, then B). Only ">" at B, N or before a value ends the tag.
# A name runs to "/", "=" or ">" whatever it holds (several names, whitespace), so one step takes
# a name with its value: half the steps of an attribute at a time. "+" marks where a quantifier is
# possessive on Python 3.11+ (each step reads one way; 0.55 of the time on a 64 KiB tag).
_NAME_VALUE = (r"[\t\n\x0c\r /]*+[^\t\n\x0c\r />][^/=>]*+"
               r"(?:=[\t\n\x0c\r ]*+(?:\"[^\"]*+\"|'[^']*+'|[^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*+|(?=>))|(?=[/>]))")


def attributes_pattern(key: str, without: str = "", possessive: bool = POSSESSIVE) -> str:
    """A pattern: a tag's attributes up to the whitespace or "/" before its ">" (TAG group 3's
    text: each step from B to B, see above), atomic: the first way is the only way, one pass even
    where the tag never ends. With *without* (characters), only where none of them occurs; *key*
    names its group on Python 3.10. The prescan's "get an attribute" (§13.2.3.3) ends a tag at the
    same ">" (its steps differ from these only in what they keep)."""
    step = _NAME_VALUE.replace("[^", "[^" + without) if without else _NAME_VALUE
    if possessive:
        return f"(?:{step})*+"
    return atomic(f"(?:{step.replace('*+', '*')})*", f"a{key}")  # (its quantifiers greedy)


def tag_pattern(possessive: bool = POSSESSIVE) -> str:
    """:data:`TAG`'s pattern: possessive (Python 3.11+) or with :func:`atomic` (both read every
    tag alike)."""
    return (r"<(/?)([A-Za-z][^\t\n\x0c\r />]*)(?=[\t\n\x0c\r />])"
            r"(" + attributes_pattern("", "", possessive) + r")(?P<tail>[\t\n\x0c\r /]*)>")


# A whole start or end tag, from "<" to its ">" (tag open state .. data state): group 3 its
# attributes (whitespace may end it), "tail" the whitespace and "/" before the ">" (it ends with
# "/": the self-closing flag). No match means end of input inside the tag: the token is never
# emitted.
TAG = re.compile(tag_pattern())


def tag_groups(text: str, pos: int, end: int = sys.maxsize) -> tuple[int, str, str, str, str] | None:
    """:data:`TAG`'s match at *pos* in ``text[:end]`` as ``(end, group 1, group 2, group 3, tail)``
    (offsets and text in characters), or ``None`` where the input ends inside the tag. The plain
    twin of ``c_tokens.tag_groups`` (:func:`tag_reader`)."""
    match = TAG.match(text, pos, end)
    return None if match is None else (match.end(), match[1], match[2], match[3], match["tail"])


def tag_reader() -> Callable[..., tuple[int, str, str, str, str] | None]:
    """:func:`tag_groups`, compiled where the extension is built (:func:`compiled_tokens`)."""
    compiled = compiled_tokens()
    return tag_groups if compiled is None else compiled.tag_groups


# Attributes inside an already matched TAG group 3 (name, then one of the three value forms).
ATTRIBUTES = re.compile(
    r"[\t\n\x0c\r /]*([^\t\n\x0c\r />][^\t\n\x0c\r /=>]*)"
    r"(?:[\t\n\x0c\r ]*=[\t\n\x0c\r ]*(?:\"([^\"]*)\"|'([^']*)'|([^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*)|))?"
)
_LOWER = {c: c + 32 for c in range(0x41, 0x5B)}
_LOWER[0] = 0xFFFD  # U+0000 in a tag or attribute name becomes U+FFFD


_LONG_NAME = 64  # characters past which tag_name lowercases at C speed


def tag_name(raw: str) -> str:
    """A tag or attribute name as the tokenizer builds it (ASCII lowercase, NUL -> U+FFFD).
    A long one (a tag name that runs over a page) at C speed: ``str.lower`` where it is ASCII,
    else ``bytes.lower`` of its UTF-8 bytes (which changes no byte of a multi-byte sequence)."""
    if len(raw) > _LONG_NAME:
        lowered = raw.lower() if raw.isascii() else (
            raw.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass"))
        return lowered.replace("\x00", "\ufffd")
    return raw.translate(_LOWER)


def attributes(span: str) -> dict[str, str]:
    """Attributes of a tag (TAG group 3): lowercased names, the first of duplicates kept, values
    with character references decoded as in an attribute (HTML §13.2.5.72) and NUL -> U+FFFD."""
    found: dict[str, str] = {}
    for match in ATTRIBUTES.finditer(span):
        name = match.group(1)
        if not name:
            continue
        name = name.translate(_LOWER)
        if name in found:
            continue  # "duplicate-attribute" parse error: the later one is dropped
        found[name] = attribute_value(match)
    return found


def attribute_value(match: re.Match) -> str:
    """The value of an :data:`ATTRIBUTES` match (double-quoted, single-quoted or unquoted), as
    :func:`value_text` gives it."""
    return _value(match.group(2, 3, 4))


def _written(written: tuple[str | None, ...]) -> str:
    """The one of a value's forms (quoted, unquoted; None: not that form) that matched, as written."""
    return next((value for value in written if value is not None), "")


def _value(written: tuple[str | None, ...]) -> str:
    """The value of the one of its forms (quoted, unquoted; None: not that form) that matched."""
    return value_text(_written(written))


def value_text(value: str) -> str:
    """An attribute's value as written, with character references decoded as in an attribute
    (HTML §13.2.5.72) and NUL -> U+FFFD."""
    if "&" in value:
        value = decode_attribute_value(value)
    return value.replace("\x00", "\ufffd") if "\x00" in value else value


_META_NAMES = ("charset", "content", "http-equiv")  # the attributes meta_value reads
_LONGEST_LABEL = max(map(len, LABELS))
_CONTENT_TYPE = "content-type"


def meta_value(name: str, value: str) -> str:
    """:func:`value_text` of a ``meta`` tag's *name* attribute (``charset``, ``http-equiv`` or
    ``content``) as written, or "" where it holds too many references to name an encoding to any
    reader of ``meta`` tags (the standard's, Chromium's and Firefox's give none for "" either):

    - ``charset``: more characters that are not ASCII whitespace than the longest label has
      (get an encoding strips the whitespace around a label);
    - ``http-equiv``: more references than "content-type" has characters (each gives one or more);
    - ``content``: no "charset" in its text (every reader's extraction first looks for it).

    Those are decided by one C search over the value (:mod:`.charrefs`), not by decoding it: a
    64 KiB tag of distinct references costs a search, not a reference's decoding each."""
    if value.count("&") > len(_CONTENT_TYPE) and (
            name == "http-equiv" or (name == "charset" and nonspace_floor(value, _LONGEST_LABEL + 1) > _LONGEST_LABEL)
            or (name == "content" and not may_hold(value, "charset"))):
        return ""
    return value_text(value)


# One attribute as ATTRIBUTES reads it, without groups; and the "=" and value after a name, its
# double-quoted, single-quoted and unquoted forms in groups (ATTRIBUTES' groups 2-4).
_ONE_ATTRIBUTE = with_possessives(r"[^\t\n\x0c\r />][^\t\n\x0c\r /=>]*+"
                                   r"(?:[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+(?:\"[^\"]*+\"|'[^']*+'|[^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*+|))?+")
_VALUE = r"(?:[\t\n\x0c\r ]*=[\t\n\x0c\r ]*(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)'|(?P<uq>[^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*)|))?"
_FIRST: dict[tuple[str, ...], re.Pattern] = {}


def _first_head_of(names: tuple[str, ...]) -> re.Pattern:
    """:func:`_first_of` up to where the named attribute's value starts (group "eq": the "=" and
    whitespace around it, where there is one): its value read by :func:`_value_at`."""
    pattern = _FIRST_HEAD.get(names)
    if pattern is None:
        whole = _first_of(names).pattern
        assert whole.endswith(_VALUE)
        pattern = _FIRST_HEAD[names] = re.compile(whole[:-len(_VALUE)] + r"(?P<eq>[\t\n\x0c\r ]*=[\t\n\x0c\r ]*)?", _FLAGS)
    return pattern


_FIRST_HEAD: dict[tuple[str, ...], re.Pattern] = {}
_VALUE_WINDOW = 256  # characters _value_at searches an unquoted value's end in first (then twice as many)
_UNQUOTED_ENDS = "\t\n\x0c\r >"  # what ends an unquoted value (its first character is none of these nor a quote)


def _value_at(span: str, at: int) -> tuple[tuple[str | None, str | None, str | None], int]:
    """_VALUE's value alternatives at *at* (after "=" and whitespace): ``((dq, sq, uq), end)`` as the
    pattern gives them (its empty alternative, ``((None, None, None), at)``, where a quote is not closed or
    nothing starts a value), found by C-speed finds: a value of thousands of characters is read at
    about 0.1 ns a character, not 5; an unquoted one's end in windows from :data:`_VALUE_WINDOW`
    characters, doubling (many short values in a long span: each read within its own length)."""
    first = span[at:at + 1]
    if first == '"' or first == "'":
        close = span.find(first, at + 1)
        if close < 0:
            return (None, None, None), at
        value = span[at + 1:close]
        return ((value, None, None) if first == '"' else (None, value, None)), close + 1
    if not first or first in _UNQUOTED_ENDS:
        return (None, None, None), at
    # (in windows doubling from 256 characters: each search reads at most twice the value, never to the
    # span's end at each of many short values)
    stop = at + _VALUE_WINDOW
    while True:
        end = min((found for found in (span.find(char, at, stop) for char in _UNQUOTED_ENDS) if found >= 0), default=-1)
        if end >= 0 or stop >= len(span):
            break
        stop = at + 2 * (stop - at)
    end = len(span) if end < 0 else end
    return (None, None, span[at:end]), end


#: Characters of a tag's attributes from which on :func:`_next_named` reads a value by finds.
_LONG_ATTRIBUTES = 256


def _next_named(names: tuple[str, ...], span: str, position: int, finds: bool = True
                ) -> tuple[int, int, tuple[str | None, str | None, str | None], int] | None:
    """The next attribute named one of *names* from *position* in *span*, as :func:`_first_of`'s
    match gives it: ``(where its name starts, ends, (dq, sq, uq), where it ends)``, or ``None``.
    Shortcut (*finds*, where more than :data:`_LONG_ATTRIBUTES` characters are left): the pattern up
    to its value, the value by :func:`_value_at` (its twin, the whole pattern)."""
    if finds and len(span) - position > _LONG_ATTRIBUTES:
        head = _first_head_of(names).match(span, position)
        if head is None:
            return None
        if head.group("eq") is None:
            return head.start("name"), head.end("name"), (None, None, None), head.end()
        written, end = _value_at(span, head.end())
        return head.start("name"), head.end("name"), written, end
    match = _first_of(names).match(span, position)
    if match is None:
        return None
    return match.start("name"), match.end("name"), match.group("dq", "sq", "uq"), match.end()  # type: ignore[return-value]


def _first_of(names: tuple[str, ...]) -> re.Pattern:
    """From a place between attributes: those named none of *names* skipped, then the next named
    one of them (its name, ASCII lowercase, in group "name"; its value in "dq", "sq", "uq")."""
    pattern = _FIRST.get(names)
    if pattern is None:
        named = "(?:" + "|".join(map(re.escape, names)) + r")(?![^\t\n\x0c\r /=>])"  # whole, ASCII case-insensitively
        skipped = r"(?:[\t\n\x0c\r /]*(?!" + named + ")" + _ONE_ATTRIBUTE + ")"
        skipped = skipped + "*+" if POSSESSIVE else atomic(skipped + "*", "s")
        pattern = _FIRST[names] = re.compile(rf"{skipped}[\t\n\x0c\r /]*(?P<name>{named}){_VALUE}", _FLAGS)
    return pattern


#: Characters of a tag's attributes past which :func:`first_attributes` looks for the names as text
#: first (C-speed: a name not in the lowercased text names no attribute, and is not asked for).
_LOOK_FIRST = 256


def ascii_lowered(text: str) -> bytes:
    """*text* with ASCII letters lowercased and every other character but ASCII a "?", a byte per
    character (the same offsets): where an ASCII case-insensitive search without IGNORECASE (sre
    then skips a branch by its first literal) finds names, labels or tags."""
    return text.encode("ascii", "replace").lower()


def kept_lowered(text: str) -> bytes:
    """:func:`ascii_lowered` of *text*, kept for the four texts asked last (the same object, or an
    equal text): the scans, the browsers' models and their runs ask for the same texts' (issue 37:
    about 80 µs at 64 KiB each time)."""
    for k, (seen, lowered) in enumerate(_LOWERED):
        if seen is text or len(seen) == len(text) and seen == text:
            break
    else:
        k, lowered = 4, ascii_lowered(text)
    _LOWERED[:] = [(text, lowered), *_LOWERED[:k], *_LOWERED[k + 1:4]]  # (the last asked first)
    return lowered


_LOWERED: list[tuple[str, bytes]] = []  # (text, its ascii_lowered bytes), the last first


def _lowered(span: str) -> bytes | None:
    """*span*'s :func:`ascii_lowered` where it is long enough to look names up in it first
    (:data:`_LOOK_FIRST`; else None): a name's attribute starts where it holds the name."""
    return ascii_lowered(span) if len(span) > _LOOK_FIRST else None


def _still_named(names: tuple[str, ...], lowered: bytes | None, position: int) -> tuple[str, ...]:
    """Those of *names* that may name an attribute starting at *position* or later in the span
    *lowered* is of: each whose text occurs there or later (all where the span is short)."""
    if lowered is None:
        return names
    return tuple(name for name in names if lowered.find(name.encode("ascii"), position) >= 0)


def first_attributes(span: str, names: tuple[str, ...], meta: bool = False) -> Iterator[tuple[str, str]]:
    """``(name, value)`` of the first attribute of each of *names* (ASCII lowercase, no NUL) in
    *span* (TAG group 3), in the order they come, values as :func:`attributes` gives them (with
    *meta*, those of a ``meta`` tag's ``charset``, ``http-equiv`` and ``content`` as
    :func:`meta_value` gives them): the others skipped at C speed, each attribute read once
    however many of *names* are asked, and none after the last place where one of the names left
    occurs as text."""
    for start, stop, written, _ in _first_matches(span, names):
        name = span[start:stop].lower()
        yield name, (meta_value(name, _written(written)) if meta and name in _META_NAMES else _value(written))


def _first_matches(span: str, names: tuple[str, ...]
                   ) -> Iterator[tuple[int, int, tuple[str | None, str | None, str | None], int]]:
    """:func:`first_attributes`' attributes (:func:`_next_named`: where the name starts and ends, the
    value as written, where the attribute ends), in the order they come."""
    lowered = _lowered(span)
    position, left = 0, _still_named(names, lowered, 0)
    while left:
        found = _next_named(left, span, position)
        if found is None:
            return
        yield found
        name = span[found[0]:found[1]].lower()
        position = found[3]
        left = _still_named(tuple(other for other in left if other != name), lowered, position)


def first_attribute(span: str, name: str) -> str | None:
    """``attributes(span).get(name)`` for an ASCII lowercase *name* (no NUL): the value of the
    first attribute so named, or None; the attributes before it skipped at C speed."""
    return next((value for _, value in first_attributes(span, (name,))), None)


def attribute_values(span: str, name: str, meta: bool = False) -> list[str]:
    """The value of every attribute named *name* (ASCII lowercase, no NUL) in *span*, in order, as
    :func:`attribute_value` gives them (with *meta*, as :func:`meta_value` gives them): found at C
    speed, each distinct one decoded once."""
    found, position, match = [], 0, _first_of((name,)).match
    while (next_one := match(span, position)) is not None:  # (a search would retry at each character)
        found.append(next_one.group("dq", "sq", "uq"))
        position = next_one.end()
    texts = {written: meta_value(name, _written(written)) if meta else _value(written) for written in set(found)}
    return [texts[written] for written in found]


def _whole(name: str) -> str:
    """An attribute name, whole (ASCII case-insensitively with the patterns' flags)."""
    return re.escape(name) + r"(?![^\t\n\x0c\r /=>])"


def _kept(delimiter: str) -> str:
    """A character of a meta tag's ``charset`` or ``http-equiv`` value (up to *delimiter*) that
    decoding keeps (no character reference holds it) and that no label, "content-type" or ASCII
    whitespace (which "get an encoding" strips) has."""
    return r"[^A-Za-z0-9&#;\-_:.\t\n\x0c\r " + delimiter + "]"


def _free(delimiters: str) -> str:
    """Characters of a ``content`` value (up to one of *delimiters*) that hold no "charset" (ASCII
    case-insensitively with the patterns' flags) and no "&" (no reference spells a letter)."""
    return r"(?:(?!charset)[^&" + delimiters + "])*+"


_EQUALS = r"[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+"
# A value that holds a _kept character; one without "charset" or "&", or none at all (as TAG reads
# them: an unquoted one ends at whitespace or ">", an empty one before ">").
_KEPT_VALUE = (rf"{_EQUALS}(?:\"[^\"]*?{_kept(chr(34))}[^\"]*+\"|'[^']*?{_kept(chr(39))}[^']*+'"
               rf"|(?=[^\t\n\x0c\r >]*?{_kept('>')})[^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*+)")
_FREE_VALUE = (rf"(?:{_EQUALS}(?:\"{_free(chr(34))}\"|'{_free(chr(39))}'|(?!charset)[^\t\n\x0c\r >\"'&]"
               rf"{_free(chr(9) + chr(10) + chr(12) + chr(13) + ' >')}(?![^\t\n\x0c\r >])|(?![^>]))"
               r"|(?![\t\n\x0c\r ]*=))")


def _whole_span(items: str, key: str) -> re.Pattern[str]:
    """A span of attributes, each one of *items* (an alternation), taken whole where it matches to the end."""
    item = rf"[\t\n\x0c\r /]*+(?:{items})"
    return re.compile(with_possessives(f"(?:{item})*+" if POSSESSIVE else atomic(f"(?:{item})*", key))
                      + r"[\t\n\x0c\r /]*", _FLAGS)


# Spans whose readers name no encoding whatever their runs of digits: every charset and
# http-equiv value holds a _kept character (none is a label nor "content-type"); or every charset
# value does, any http-equiv, and no content value holds "charset" or "&" (no reader extracts an
# encoding from it; hunted, issue 37: a second content attribute numbered).
_NAMED = rf"(?:{_whole('charset')}|{_whole('http-equiv')})"
_NAMES_NOTHING = _whole_span(rf"(?!{_NAMED}){_ONE_ATTRIBUTE}|{_NAMED}{_KEPT_VALUE}", "k")
_NAMES_NOTHING_BY_CONTENT = _whole_span(
    rf"(?!{_whole('charset')}|{_whole('content')}){_ONE_ATTRIBUTE}|{_whole('charset')}{_KEPT_VALUE}"
    rf"|{_whole('content')}{_FREE_VALUE}", "c")


@lru_cache(maxsize=512)  # (a flood's tags, asked again by each scan)
def names_nothing_whatever_digits(span: str) -> bool:
    """Whether the ``meta`` tag whose attributes are *span* (TAG group 3) names no encoding in any
    reader here (the standard's, Chromium's, Firefox's), however its runs of ASCII digits are
    written: each of its ``charset`` and ``http-equiv`` values (every one: Chromium reads the last)
    holds a character that decoding keeps and that no label, "content-type" or ASCII whitespace
    has, so none is a label nor "content-type" (and no ``content`` is read); or each ``charset``
    value does and no ``content`` value holds "charset" (ASCII case-insensitively) or "&", so
    none gives an encoding whatever ``http-equiv`` says. Digits are no markup: they change no
    attribute's name or extent (a name with one is none of those). One or two C matches;
    ``False`` unread for a span longer than :data:`LONGEST_TAG` (few such tags fit in a page: no
    copies worth skipping)."""
    return len(span) <= LONGEST_TAG and (_NAMES_NOTHING.match(span).end() == len(span)  # type: ignore[union-attr]
                                         or _NAMES_NOTHING_BY_CONTENT.match(span).end() == len(span))  # type: ignore[union-attr]


@lru_cache(maxsize=512)
def tree_names_nothing_whatever_digits(span: str) -> bool:
    """:func:`names_nothing_whatever_digits` of the ``meta`` tag whose attributes are *span* as
    the tree builder reads it: its first ``charset``, ``http-equiv`` and ``content`` attributes (a
    later duplicate is removed from the token, HTML §13.2.5.33), which digits never change. The
    standard's reader and Firefox's read those alone; not Chromium's scan, which reads the last
    (hunted, issue 37: a numbered first ``content`` before a labeled second one)."""
    if len(span) > LONGEST_TAG or names_nothing_whatever_digits(span):
        return len(span) <= LONGEST_TAG  # (nothing to every reader: nothing to the tree builder's)
    firsts = []
    for start, _, written, end in _first_matches(span, _META_NAMES):
        first = span[start:end]
        if "=" in first and written == (None, None, None):
            first += '""'  # (an "=" and no value, the span's end or a quote no other closes after it: empty)
        firsts.append(first)
    return names_nothing_whatever_digits(" ".join(firsts))


_EQUALS_VALUE = _ONE_ATTRIBUTE[_ONE_ATTRIBUTE.index("(?:"):]  # the "=" and value after a name, if any
# The last charset and content attributes' (a repeated group keeps its last capture), and whether
# an http-equiv attribute is written "content-type" (group ct_type) or may spell it otherwise, with
# a character reference (group he_other; a NUL becomes U+FFFD, no letter of "content-type").
_META_LAST = re.compile(with_possessives(
    rf"(?:[\t\n\x0c\r /]*+(?:{_whole('charset')}(?P<cs>{_EQUALS_VALUE})|{_whole('content')}(?P<ct>{_EQUALS_VALUE})"
    rf"|{_whole('http-equiv')}(?:[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+"
    r"(?P<ct_type>\"content-type\"|'content-type'|content-type(?![^\t\n\x0c\r >]))"
    r"|(?P<he_other>[\t\n\x0c\r ]*+=[\t\n\x0c\r ]*+(?:\"[^\"&]*+&[^\"]*+\"|'[^'&]*+&[^']*+'"
    r"|[^\t\n\x0c\r >\"'&]*+&[^\t\n\x0c\r >]*+))|" + _EQUALS_VALUE + ")"
    rf"|{_ONE_ATTRIBUTE}))*"), _FLAGS)  # (not "*+": CPython 3.11's captures in a possessive repeat can fail)
_READ_VALUE = re.compile(_VALUE)


def _read(name: str, written: str | None) -> str | None:
    """The value of a meta's *name* attribute from its "=" and value as written, as
    :func:`meta_value` gives it (None: no such attribute)."""
    return None if written is None else meta_value(name, _written(_READ_VALUE.match(written).group("dq", "sq", "uq")))  # type: ignore[union-attr]


#: Named attributes :func:`last_meta_attributes` reads one by one before it reads the rest of a
#: long tag in one match.
_ONE_BY_ONE = 8
_META_TEXTS = tuple(name.encode("ascii") for name in _META_NAMES)


def last_meta_attributes(span: str) -> tuple[str | None, str | None, bool]:
    """The last ``charset`` and ``content`` attributes' values in *span* (None: absent; as
    :func:`meta_value` gives them), and whether any ``http-equiv`` attribute is "content-type"
    (ASCII case-insensitively), at C speed:
    in a long tag, the named attributes one by one while a later one may come (the names as text
    after them), then the rest in one pass; in a short one, or after :data:`_ONE_BY_ONE` of them,
    in one pass (those whose value holds a character reference read one by one after); and in
    one where the names occur more than :data:`_ONE_BY_ONE` times as text in its first
    2 × :data:`_LOOK_FIRST` characters (one by one, all of those would be read before the pass)."""
    lowered = _lowered(span)
    if lowered is not None and sum(lowered.count(name, 0, 2 * _LOOK_FIRST) for name in _META_TEXTS) > _ONE_BY_ONE:
        lowered = None  # the names dense: one pass
    left = _still_named(_META_NAMES, lowered, 0)
    charset = content = None
    content_type = False
    position = 0
    if lowered is not None:
        for _ in range(_ONE_BY_ONE):
            if not left:
                return charset, content, content_type
            found = _next_named(left, span, position)
            if found is None:
                return charset, content, content_type
            name, position = span[found[0]:found[1]].lower(), found[3]
            value = meta_value(name, _written(found[2]))
            if name == "charset":
                charset = value
            elif name == "content":
                content = value
            elif value.lower() == "content-type":
                content_type = True  # (then no other http-equiv matters)
                left = tuple(other for other in left if other != "http-equiv")
            left = _still_named(left, lowered, position)
        if not left:
            return charset, content, content_type
    match = _META_LAST.match(span, position)
    content_type = content_type or match.group("ct_type") is not None or (  # type: ignore[union-attr]
        match.group("he_other") is not None  # type: ignore[union-attr]
        and any(value.lower() == "content-type" for value in attribute_values(span[position:], "http-equiv", True)))
    last_charset, last_content = _read("charset", match.group("cs")), _read("content", match.group("ct"))  # type: ignore[union-attr]
    return (charset if last_charset is None else last_charset, content if last_content is None else last_content,
            content_type)


# Comments (§13.2.5.43-52): "<!-->" and "<!--->" end at once, otherwise at the first "-->" or
# "--!>" (the comment end and comment end bang states; "<!--" nested inside changes nothing).
COMMENT_END = re.compile(r"--!?>")


def comment_end(text: str | bytes, at: int) -> int:
    """Where COMMENT_END's first match at or after *at* in *text* (``str``, or ``bytes`` as a text's
    ascii_lowered) ends, or -1: at C speed, its first _GT_STEPS ">" read one by one (memchr: every end
    holds one, and the ends come in the order of theirs), then two searches past the last, for "-->"
    and "--!>" (its plain twin, the search, steps at each "-": 0.9 ms in a 64 KiB comment of them,
    hunted, issue 37; the searches alone, 0.3 ms)."""
    needles: Any = _NEEDLES if type(text) is str else _BYTE_NEEDLES
    gt_, close_, bang_ = needles
    gt = at + 1
    for _ in range(_GT_STEPS):
        gt = text.find(gt_, gt + 1)
        if gt < 0:
            return -1
        if gt - 2 >= at and text.startswith(close_, gt - 2) or gt - 3 >= at and text.startswith(bang_, gt - 3):
            return gt + 1
    start = gt + 1  # (an end past this ">" starts past it: none of its characters is one)
    close = text.find(close_ + gt_, start)
    bang = text.find(bang_ + gt_, start, len(text) if close < 0 else close + 3)  # (one that starts before it)
    return bang + 4 if bang >= 0 else -1 if close < 0 else close + 3


_GT_STEPS = 8  # ">" that comment_end reads one by one before it searches for an end
_NEEDLES, _BYTE_NEEDLES = (">", "--", "--!"), (b">", b"--", b"--!")

# Text between tags: anything but whitespace, NUL or "&" is a non-whitespace character token.
TEXT_OTHER = re.compile(r"[^\t\n\x0c\r \x00&]")
# Character references in text that decode to ASCII whitespace (TAB, LF, FF, CR, SPACE); a missing
# ";" is only a parse error outside attributes.
_WS_REFERENCE = re.compile(
    r"&(?:#[xX]0*(?:9|[aAcCdD]|20)(?![0-9a-fA-F])|#0*(?:9|10|12|13|32)(?![0-9]));?|&Tab;|&NewLine;"
)


# A run of whitespace, NUL and references that decode to whitespace: where it ends before the text
# does, another character (an "&" that starts no such reference is one).
_WS_OR_NUL_RUN = re.compile(r"(?:[\t\n\x0c\r \x00]|" + _WS_REFERENCE.pattern + ")*")


def classify_text(text: str, start: int, end: int) -> tuple[bool, bool, bool]:
    """(has whitespace, has U+0000, has other characters) for character tokens text[start:end]
    emitted in the data state, with character references decoded; one match up to the first other
    character (the references before it as whitespace), not a decoding of them all."""
    segment = text[start:end]
    if "&" in segment:
        if _WS_OR_NUL_RUN.match(segment).end() < len(segment):  # type: ignore[union-attr]
            return True, "\x00" in segment, True
        other = None  # (whitespace, NUL and references to whitespace: each reference one or more, no NUL)
    else:
        other = TEXT_OTHER.search(segment)
    if other:
        return True, "\x00" in segment, True
    nul = segment.count("\x00")
    return len(segment) > nul, nul > 0, False


_END_TAGS: dict[str, re.Pattern[str]] = {}


def raw_text_end(text: str, pos: int, name: str) -> int:
    """Offset of the "<" of the appropriate end tag that closes RCDATA / RAWTEXT content begun at
    *pos* for element *name* (§13.2.5.9-17), or -1 at end of input."""
    pattern = _END_TAGS.get(name)
    if pattern is None:
        pattern = _END_TAGS[name] = re.compile("</" + re.escape(name) + r"[\t\n\x0c\r />]", _FLAGS)
    match = pattern.search(text, pos)
    return -1 if match is None else match.start()


def _attributes(key: str, without: str = "") -> str:
    """A tag's attributes and the whitespace or "/" before its ">" (TAG groups 3 and tail, each
    attribute atomic), with group names suffixed by *key* so that one pattern can hold several;
    with *without* (characters), only where none of them occurs (it fails there, never reads
    the tag otherwise: each attribute is read one way)."""
    # A tag without attributes first (most elements of text, most end tags): ">", one step where
    # the general form takes several; both end there (no attribute name starts with ">").
    return rf"(?:>|{attributes_pattern(key, without)}[\t\n\x0c\r /]*>)"


# A comment (§13.2.5.43-52), from "<!--" to its end as COMMENT_END finds it ("<!-->" and "<!--->"
# end at once): else its text is runs, each taken whole, of characters but "-", of one "-", and of
# two "-" or more that no ">" nor "!>" follows; the first run of two or more that one follows ends
# it, with that ">" or "!>", so a match never extends past its first end to a later one. Each run is
# one step (a comment left open fails in one pass over its runs: issue 37, hunted, a 64 KiB comment
# of "-" took 3 ms at a step a "-"); read one way, possessive on Python 3.11+, each run whole (a
# lookahead) and the second form excluding the first, so that each comment matches one way on Python
# 3.10 too (a pattern that backtracks over a run of comments, a noscript element left open, tries
# each once: else twice, 2^n tries for n comments).
COMMENT = with_possessives(r"<!--(?:-?>|(?!-?>)(?:[^-]{1,}+(?![^-])|-(?!-)|-{2,}+(?!-|!?>))*+-{2,}+!?>)")
# Runs of comments: comment tokens change no tree builder state, so a run is skipped in one match.
COMMENT_RUN = re.compile(rf"(?:{COMMENT})+")
COMMENT_ONE = re.compile(COMMENT)


def copies_end(text, pos: int, unit, end: int) -> int:
    """The end of the run of copies of *unit* that starts at *pos* in *text* (``str`` or
    ``bytes`` alike), not past *end*: blocks of copies doubling, then halving, each compared at C
    speed (O(log n) steps for n copies). Where *unit* is a whole token or element that ends with
    ">" (no pattern looks past that), a scan reads each copy as it read *unit*."""
    size = len(unit)
    if not size:
        return pos
    block, length = unit, size
    while pos + length <= end and text.startswith(block, pos):
        pos += length
        block += block
        length += length
    while length > size:
        length //= 2
        block = block[:length]
        if pos + length <= end and text.startswith(block, pos):
            pos += length
    return pos


#: Bytes or characters within which a shortcut, or a search for candidates, reads one tag: a longer
#: one (an open quote up to a later ">", say) is left to the plain steps, read once, so that a flood
#: of such tags is not read once per "<" in it.
LONGEST_TAG = 1024

#: Bytes or characters a run is matched over in one call before its copies are looked for (see
#: :func:`run_end`): a page's runs are shorter, floods longer.
RUN_WINDOW = 2048

#: Items of the longest unit whose copies :func:`run_end` looks for (each try: one item's match and
#: O(log n) comparisons).
UNIT_ITEMS = 8


DIGITS = re.compile("[0-9]+")
_RUN = "[0-9]{1,8}"  # a free run of digits in a numbered unit's pattern
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)  # a character re.escape escaped
#: A "<" that starts markup (§13.2.5.6 tag open state: a tag, "</", "<!", "<?"); any other is a character.
MARKUP_START = re.compile("<[!/?A-Za-z]")


def markup_start(text: str, pos: int, end: int) -> int:
    """Where :data:`MARKUP_START` first matches in ``text[pos:end]`` (an offset in characters), or
    -1; compiled where the extension is built (:func:`compiled_tokens`: a search stops at each "<",
    about 8 ns a stray one; hunted, issue 37: "<" then 0x82 and ESC $ B, 64 KiB), else its plain twin, the search."""
    compiled = compiled_tokens()
    if compiled is not None:
        return compiled.markup_start(text, pos, end)
    found = MARKUP_START.search(text, pos, end)
    return -1 if found is None else found.start()


#: Characters and runs of digits of the longest unit whose copies but for their numbers are looked
#: for (:func:`numbered_copy`): each distinct unit compiles its patterns (about 1.2 µs a character
#: for the three) and reads the unit once for its free runs (:func:`_free_number`); a page meets many
#: (hunted, issue 37: units of 30 KiB and 1,261 runs in Chromium's head section cost 180 ms a page).
#: A flood's unit is shorter; copies of a longer one are read one by one, a few to a page.
NUMBERED_LONGEST, NUMBERED_RUNS = 256, 32


@lru_cache(maxsize=64)
def numbered_unit(parts: tuple[str, ...], kept: tuple[str | None, ...],
                  names_nothing: Callable[[str], bool] = names_nothing_whatever_digits) -> re.Pattern[str] | None:
    """One copy of a unit of *parts* (its text between its runs of digits) with, between them,
    *kept*'s digits (a run that is the same in the copies seen) or a number (``None``: any run of
    1 to 8 digits), where the unit ends with ">" and each number is free (:func:`_free_number`,
    a ``meta`` tag's digits where *names_nothing* holds for its attributes); else ``None``."""
    if not parts[-1].endswith(">"):
        return None
    form = "".join(part + (digits or "0") for part, digits in zip(parts, kept + ("",)))
    at, read, pattern = 0, 0, []
    for part, digits in zip(parts, kept + ("",)):
        at += len(part)
        pattern.append(re.escape(part))
        if digits is None:
            free, read = _free_number(form, at, read, names_nothing)
            if not free:
                return None
            pattern.append(_RUN)
            digits = "0"
        else:
            pattern.append(digits)
        at += len(digits)
    return re.compile("".join(pattern))


def _free_number(form: str, at: int, i: int = 0,
                 names_nothing: Callable[[str], bool] = names_nothing_whatever_digits) -> tuple[bool, int]:
    """Whether the run of digits at *at* in *form* (a unit that starts in the data state, between
    tokens) may be any, and where the reading that told stood (*i*, the start of the item it was
    in or of the text after the last item before *at*: a later run is read on from there, so a
    unit is read once whatever its runs). Read from its start as the tokenizer reads it: in character data but in a
    character reference (after "&" then letters, digits or "#", §13.2.5.72-80: ``&#9;`` is
    whitespace, ``&frac12;`` a fraction), in a comment or bogus comment, or in a tag's attributes
    but those of a ``meta`` start tag that may name an encoding with some digits (*names_nothing*
    false of them: :func:`names_nothing_whatever_digits`, for every reader); not in a tag's name (``h1``). Such numbers are
    character tokens of one class (:func:`classify_text`) whatever their digits and length, or no
    markup where the tree builder reads no value with a digit (an ``input`` is hidden, an
    ``annotation-xml`` encoding is HTML, by values without one), and text to every pattern here."""
    while True:
        markup = MARKUP_START.search(form, i, at)
        if markup is None:
            return _REFERENCE_OPEN.search(form, i, at) is None, i
        lt = markup.start()
        item = COMMENT_ONE.match(form, lt) if form.startswith("<!--", lt) else TAG.match(form, lt)
        if item is None:  # a bogus comment ("<!", "</" then no letter, "<?"), or a cut tag
            gt = form.find(">", lt)
            if gt < 0:
                return False, i
            if gt >= at:
                return form[lt + 1] in "!/?", i
            i = gt + 1
            continue
        if item.end() <= at:
            i = item.end()
            continue
        if item.re is COMMENT_ONE:
            return True, i
        if at < item.start(3):
            return False, i
        return (bool(item.group(1)) or tag_name(item.group(2)) != "meta" or names_nothing(item.group(3))), i


_REFERENCE_OPEN = re.compile(r"&[#A-Za-z0-9]*\Z")  # (searched up to a number: it is in a reference)


def skeleton(parts: tuple[str, ...]) -> str:
    """The pattern of one copy of a unit of *parts* (its text between its runs of digits) with any
    run of 1 to 8 digits for each of those (whatever they mean: the callers say why they may be any)."""
    return _RUN.join(map(re.escape, parts))


@lru_cache(maxsize=64)
def numbered_skeleton(parts: tuple[str, ...]) -> re.Pattern[str]:
    """:func:`skeleton`, compiled."""
    return re.compile(skeleton(parts))


@lru_cache(maxsize=16)
def numbered_run(one: str, period: int = 1) -> re.Pattern[str]:
    """Copies, *period* at a time, of the numbered unit whose one copy is the pattern *one*."""
    return re.compile(f"(?:{one * period})*")


@lru_cache(maxsize=16)
def numbered_literals(one: str, period: int = 1) -> tuple[str, ...] | None:
    """The text between the free runs of digits of :func:`numbered_run`'s copies of *one* (a
    numbered unit's pattern: :func:`numbered_unit`, :func:`numbered_skeleton`), *period* copies at a
    time, where each run is followed by a character other than a digit (the next literal's first,
    or the next copy's): each run is then its longest (8 at most) and each copy reads one way, as
    the pattern's backtracking finds it. Else ``None``."""
    parts = [_ESCAPED.sub(r"\1", part) for part in one.split(_RUN)]
    literals = list(parts)
    for _ in range(period - 1):
        literals[-1] += parts[0]
        literals.extend(parts[1:])
    followers = [*literals[1:-1], literals[-1] or literals[0]]
    if len(literals) < 2 or not all(follower[:1] and not follower[0].isdigit() for follower in followers):
        return None
    return tuple(literals)


def numbered_run_end(one: str, text: str, pos: int, end: int, period: int = 1) -> int:
    """Where ``numbered_run(one, period).match(text, pos, end)`` ends (its plain twin), compiled
    where the extension is built (:func:`compiled_tokens`) and :func:`numbered_literals` gives
    literals: each character read once (the pattern takes about 2.5 ns a character, 160 µs over 64
    KiB of copies; hunted, issue 37)."""
    compiled = compiled_tokens()
    literals = None if compiled is None else numbered_literals(one, period)
    if literals is None:
        return numbered_run(one, period).match(text, pos, end).end()  # type: ignore[union-attr]  # starred: never None
    return compiled.numbered_end(text, pos, end, literals)  # type: ignore[union-attr]


def same_before_digits(text: str, unit: str, pos: int) -> bool:
    """Whether *unit* holds a run of digits and *text* at *pos* starts with what comes before it."""
    digit = DIGITS.search(unit)
    return digit is not None and text.startswith(unit[:digit.start()], pos)


def numbered_copy(text: str, unit: str, pos: int,
                  names_nothing: Callable[[str], bool] = names_nothing_whatever_digits) -> re.Match[str] | None:
    """The copy of *unit* but for its numbers that starts at *pos* in *text* (:func:`numbered_unit`
    with *names_nothing*: its runs of digits that differ from the unit's numbers, the others kept),
    or ``None`` (also for a unit longer than :data:`NUMBERED_LONGEST` or with more runs than
    :data:`NUMBERED_RUNS`)."""
    if len(unit) > NUMBERED_LONGEST:
        return None
    parts = tuple(DIGITS.split(unit))
    if len(parts) > NUMBERED_RUNS + 1:
        return None
    copy = numbered_skeleton(parts).match(text, pos)
    if copy is None:
        return None
    kept = tuple(digits if digits == again else None
                 for digits, again in zip(DIGITS.findall(unit), DIGITS.findall(copy.group())))
    one = numbered_unit(parts, kept, names_nothing)
    return None if one is None else one.match(text, pos)


def run_end(one: re.Pattern, run: re.Pattern, text, pos: int, end: int, window: int = RUN_WINDOW,
            read_scripts: bool = True) -> int:
    """Where ``run.match(text, pos, end)`` ends (*pos* where it does not match), *run* being
    *one* (an alternation of items, at most one of which matches at any place) repeated. A run
    that ends within *window* is that one match (no item matches where it stops, in all of the
    text); one that stops before or within an item longer than *window*, or meets one among the
    items it tries as units below, goes on after that item as from the start (the item read once,
    not three times; what follows it in windows too: hunted, issue 37, 2 KiB of text then ``</>``
    repeated, the run after it in one match, 3-5 ms at 64 KiB); a longer
    one has copies of a unit of up to :data:`UNIT_ITEMS` items that ends with ">" and starts at
    one of the first :data:`UNIT_ITEMS` items from the item the window cut (else, where the window
    ends between items, from the first) skipped first (:func:`copies_end`; the unit whose copies
    reach furthest): the same end, in O(log n) steps for a flood of such a unit, whatever comes
    before it; in a ``str``, the first whose next copy is one but for its free numbers
    (:func:`numbered_copy`) too, its copies in one match, where they reach further; from the end
    of copies that reach a window or more, as from the start again. Past the
    window, elements of text left open are dropped (:func:`without_unclosed`), and with
    *read_scripts*, a script element is read as the tokenizer reads it (:func:`script_element_end`),
    not by *one* (its plain twin: ``read_scripts=False``)."""
    while True:  # (a long item or far-reaching copies passed: on from their end, as from the start)
        cut = min(end, pos + window)
        match = run.match(text, pos, cut)
        stop = pos if match is None else match.end()
        if cut == end:
            return stop
        scripts = False  # (whether a script element is read as the tokenizer reads it: see _item_end)
        if id(one) in _TEXT_ELEMENTS:
            one, run = without_unclosed(one, run, text, pos)
            entry = _registered(one)
            scripts = read_scripts and type(text) is str and entry is not None and "script" in entry[2]
        # (an item that ends at the cut may be one only there, a lookahead having met the cut: from *pos* again)
        item_end = _item_end(one, text, stop if stop < cut else pos, end, scripts)
        if stop < cut:  # every item before *stop* read whole within the window
            if item_end is None:
                return stop  # and none starts there
            pos = stop
        elif item_end is None:
            return pos  # no item here: the run is empty (and its attempt would cost as much again)
        if item_end - pos > window:  # one long item (a tag of thousands of attributes, text): read once
            pos = item_end
            continue
        # Copies of a unit of up to UNIT_ITEMS items that starts at one of the first UNIT_ITEMS items
        # from *pos* (the item the window cut, else the first: past a prefix of other items), each
        # tried over 16 copies at most: the first that has them all, else the one that reaches
        # furthest, is skipped to its end. (Items matched as the tries need them: a flood's unit from
        # *pos* costs its own items only.)
        bounds = [pos, item_end]
        best = (pos, None, 0)
        long_end = -1  # (the end of a long item among them, as above: the run goes on after it)
        for first in range(UNIT_ITEMS):
            for k in range(first + 1, first + 1 + UNIT_ITEMS):
                if k == len(bounds):
                    after = _item_end(one, text, bounds[-1], end, scripts)
                    after = bounds[-1] if after is None else after
                    if after == bounds[-1]:
                        break
                    if after - bounds[-1] > window:
                        long_end = after
                        break
                    bounds.append(after)
                start, unit_end = bounds[first], bounds[k]
                if unit_end - start > 2 and text[unit_end - 1:unit_end] in (">", b">") \
                        and text.startswith(unit := text[start:unit_end], unit_end):
                    far = unit_end + 16 * len(unit)
                    reach = copies_end(text, unit_end, unit, min(end, far))
                    if reach > best[0]:
                        best = (reach, unit, unit_end)
                    if reach >= far:
                        break
            if long_end >= 0 or (best[1] is not None and best[0] >= best[2] + 16 * len(best[1])) \
                    or first + 1 >= len(bounds) - 1:
                break
        if long_end >= 0:
            pos = long_end
            continue
        if best[1] is not None:
            pos = copies_end(text, best[2], best[1], end)
        if type(text) is str and (best[1] is None or best[0] < best[2] + 16 * len(best[1])):
            units = ((bounds[first], bounds[k]) for first in range(len(bounds) - 1)
                     for k in range(first + 1, min(len(bounds), first + 1 + UNIT_ITEMS)))
            pos = max(pos, numbered_copies_past(text, units, end, _NUMBERED_TRIES))  # (each copy's items the unit's)
        if pos - bounds[0] >= window:
            continue  # (copies that reach far: what follows them may be a flood of another unit)
        match = run.match(text, pos, end)
        return pos if match is None else match.end()


Variant = Callable[[frozenset[str]], "tuple[re.Pattern, re.Pattern]"]
# Run patterns that hold elements of text (text_element), by their item's id (a pattern's hash reads
# its code: microseconds for these): the item, its run, the elements' names, and the pair of patterns
# without the elements of the names not given (see without_unclosed).
_TEXT_ELEMENTS: dict[int, tuple[re.Pattern, re.Pattern, tuple[str, ...], Variant]] = {}
# The last texts asked about (four), each with what was found in it ("text": the one found first, of which
# it is a prefix): per length (a prefix's), where the last "</" is and each name's last end tag; and the
# ascii_lowered bytes (None) of the first.
_LAST_END_TAGS: list[tuple[str | bytes, dict]] = []


def register_text_elements(one: re.Pattern, run: re.Pattern, names: Iterable[str], variant: Variant) -> None:
    """Say that the run_end item *one* (and its *run*) holds whole elements of text named *names*
    (:func:`text_element`: each ends with its end tag), and that ``variant(closed)`` is the pair
    ``(one, run)`` without those not named in *closed*, made the same way (each compiled once; a
    pattern said again, as a variant made again is, keeps what it was said with)."""
    if _registered(one) is None:
        _TEXT_ELEMENTS[id(one)] = (one, run, tuple(names), lru_cache(maxsize=None)(variant))


def _registered(one: re.Pattern) -> tuple[re.Pattern, re.Pattern, tuple[str, ...], Variant] | None:
    """*one*'s entry of :data:`_TEXT_ELEMENTS`, or ``None`` (an id a collected pattern had is none)."""
    entry = _TEXT_ELEMENTS.get(id(one))
    return entry if entry is not None and entry[0] is one else None


def without_unclosed(one: re.Pattern, run: re.Pattern, text, pos: int) -> tuple[re.Pattern, re.Pattern]:
    """*one* and *run*, or where elements of text of theirs (:func:`register_text_elements`) have no
    end tag at or after *pos* in *text*, the pair without those elements: the same matches from
    *pos* on (such an element's match holds its end tag, ASCII case-insensitively), where an
    element left open would read the text to its end at each attempt (issue 37: ``<head><script>``
    then ``<!-<!-</p>`` repeated, each attempt 1-2 ms at 64 KiB, a few a page). The text's last
    few "</" read one by one, else one rfind per name in its ascii_lowered bytes, kept for the last
    four texts (and their prefixes: the browsers' models read a page's first kilobytes first)."""
    entry = _registered(one)
    if entry is None or entry[1] is not run:
        return one, run
    names, variant = entry[2:]
    if not names:
        return one, run
    n = len(text)
    for seen, lasts in _LAST_END_TAGS:
        if seen is text:
            break
    else:  # (an equal text or a prefix of one, another object: its places shared, then found by identity)
        for seen, lasts in _LAST_END_TAGS:
            if type(seen) is type(text) and len(seen) >= n and seen.startswith(text):  # type: ignore[arg-type]
                break
        else:
            lasts = {"text": text}
        _LAST_END_TAGS[:] = [(text, lasts), *_LAST_END_TAGS[:3]]
    # The last _END_TAGS_READ "</" from the end, each with the next eight characters lowered, and the
    # place from which every one is among them (0: all are).
    read = lasts.get(n)
    if read is None:
        tails: list[tuple[int, str]] = []
        at = n
        while len(tails) < _END_TAGS_READ and (at := text.rfind("</" if type(text) is str else b"</", 0, at)) >= 0:
            tail = text[at + 2:at + 10].lower()
            tails.append((at, tail if type(tail) is str else tail.decode("latin-1")))
        read = lasts[n] = (tails, max(at, 0))
    tails, read_from = read
    if not tails or tails[0][0] < pos:  # (no "</" from *pos* on)
        return variant(frozenset())
    if pos >= read_from:  # (every "</" from *pos* on read: no lowered text)
        found = {name for at, tail in tails if at >= pos for name in names if tail.startswith(name)}
        return (one, run) if len(found) == len(names) else variant(frozenset(found))
    lowered = lasts.get(None)
    if lowered is None:  # (of the text the places were first found in: this one, or one it is a prefix of)
        whole = lasts["text"]
        lowered = lasts[None] = kept_lowered(whole) if type(whole) is str else whole.lower()
    closed = []
    for name in names:
        last = lasts.get((name, n))
        if last is None:
            last = lasts[name, n] = lowered.rfind(b"</" + name.encode("ascii"), 0, n)
        if last >= pos:
            closed.append(name)
    return (one, run) if len(closed) == len(names) else variant(frozenset(closed))


_END_TAGS_READ = 8  # the last "</" of a text read one by one before its lowered text is searched


def forget() -> None:
    """Forget the last texts' end tags, script elements' ends, comments' ends and lowered bytes (see
    :func:`without_unclosed`, :func:`script_data_end`, :func:`_item_end`, :func:`kept_lowered`): for a
    benchmark."""
    _LAST_END_TAGS.clear()
    _LOWERED.clear()
    _SCRIPT_ENDS.clear()
    _COMMENT_CLOSES.clear()


def _item_end(one: re.Pattern, text, at: int, end: int, scripts: bool) -> int | None:
    """Where the item of *one* at *at* ends (not past *end*), or ``None``: with *scripts* (*one*
    holds script elements: :func:`register_text_elements`; *text* a ``str``), where a script start
    tag is there, its element as :func:`script_element_end` reads it (the patterns' only item there:
    tests/sniffing/test_head_floods.py), not by the pattern (an escaped script's states cost it
    about 150 ns a character: issue 37, ``<script><!--`` repeated, 3 ms at 64 KiB); where a comment
    left open is there (no "-->" nor "--!>" ends one), ``None`` at once; where *one* holds
    :data:`TEXT_WITH_STRAY_LT` and another character than "<" is there, that text's end by one search."""
    if scripts and _SCRIPT_START.match(text, at, end) is not None:
        return script_element_end(text, at, end)
    if text[at:at + 4] == ("<!--" if type(text) is str else b"<!--") and _holds_comments(one.pattern):
        close = _close_after(text, at)  # (the comment's end is there or later: none, none at all)
        if close < 0 or close > end:
            return None  # shortcut: a comment left open, the only item of *one* there, is none (plain twin:
            # the pattern, which reads it to the end a run at a time: hunted, issue 37, "<!--" repeated)
    elif at < end and text[at:at + 1] not in ("<", b"<") and _holds_stray_text(one.pattern):
        # shortcut: at another character, text with its stray "<"s, the only item of *one* there, ends at the
        # first "<" before "!", "/", "?" or a letter, or at a "<" that ends the text (its run of "<"s gives
        # the last back); plain twin: the pattern, ~25 ns a stray "<" (hunted, issue 37: "<" then 0x82, ESC $ B)
        lt = markup_start(text, at, end)  # (a str: _holds_stray_text)
        return lt if lt >= 0 else end - 1 if text[end - 1] == "<" else end
    item = one.match(text, at, end)
    return None if item is None else item.end()


# The comments _item_end asked about in the last texts: (text, offset of "<!--", comment_end from 2 past it).
_COMMENT_CLOSES: list[tuple[str | bytes, int, int]] = []


def _close_after(text: str | bytes, at: int) -> int:
    """comment_end(text, at + 2), kept for the last four comments asked about (each scan of a page
    asks about its comments again, from two or three places: one search each)."""
    for seen, seen_at, close in _COMMENT_CLOSES:
        if seen is text and seen_at == at:
            return close
    close = comment_end(text, at + 2)
    _COMMENT_CLOSES[:] = [(text, at, close), *_COMMENT_CLOSES[:3]]
    return close


@lru_cache(maxsize=64)
def _holds_comments(pattern: str | bytes) -> bool:
    """Whether a run pattern holds COMMENT (over a ``str``, or ``bytes``: a text's ascii_lowered): the
    only item that matches at a "<!--" in each run pattern here (tests/sniffing/test_hostile.py holds
    each), so none matches there where no comment ends."""
    return (COMMENT if type(pattern) is str else COMMENT.encode()) in pattern  # type: ignore[operator]


@lru_cache(maxsize=64)
def _holds_stray_text(pattern: str | bytes) -> bool:
    """Whether a run pattern holds TEXT_WITH_STRAY_LT (over a ``str``): the only item that matches at
    a character other than "<" in each run pattern that holds it (tests/sniffing/test_hostile.py
    holds each), so where it matches there it is that item."""
    return type(pattern) is str and TEXT_WITH_STRAY_LT in pattern


def script_element_end(text: str, lt: int, end: int) -> int | None:
    """The end of the script element whose start tag's "<" is at *lt* (start tag, script data,
    end tag, as :data:`TAG` and :func:`script_data_end` read them), or ``None`` where it does not
    end by *end*: where :func:`text_element`'s script element ends (the same states and tags)."""
    tag = TAG.match(text, lt, end)
    close = -1 if tag is None else script_data_end(text, tag.end())
    end_tag = None if close < 0 else TAG.match(text, close, end)
    return None if end_tag is None else end_tag.end()


_NUMBERED_TRIES = 4  # units whose next copy's text before its first number is theirs, tried at most


def numbered_copies_past(text: str, units: Iterable[tuple[int, int]], end: int, tries: int,
                         names_nothing: Callable[[str], bool] = names_nothing_whatever_digits) -> int:
    """The end of the copies (up to *end*) of the first of *units* (``(start, end)`` in *text*,
    each from the data state) that ends with ">" and comes again right after itself but for its
    free numbers (:func:`numbered_copy` with *names_nothing*), in one match; *tries* units tried at
    most (those of :data:`NUMBERED_LONGEST` characters at most whose next copy starts as they do);
    else 0."""
    for start, unit_end in units:
        if text[unit_end - 1] == ">" and unit_end - start <= NUMBERED_LONGEST \
                and same_before_digits(text, unit := text[start:unit_end], unit_end):
            copy = numbered_copy(text, unit, unit_end, names_nothing)
            if copy is not None:
                return numbered_run_end(copy.re.pattern, text, unit_end, end)
            tries -= 1
            if not tries:
                break
    return 0


def text_element(names: str, key: str) -> str:
    """A whole element of text whose start tag name is one of *names* ("|"-separated): start tag,
    text, and the appropriate end tag that closes it, attributes and all (§13.2.5.3-32). For
    ``script``, script data (:func:`script_text`: escaped sections too, where the end tag ends
    it); other names are RCDATA or RAWTEXT. One alternative per name, its name written in the end
    tag (a named group and a backreference cost a third of a flood's time). The text is atomic
    (possessive on Python 3.11+, else a lookahead and a backreference): where no end tag follows,
    the match fails without backtracking through it."""
    return "(?:" + "|".join(_text_element(name, f"{key}{index}") for index, name in enumerate(names.split("|"))) + ")"


def _text_element(name: str, key: str) -> str:
    """:func:`text_element` for one *name*."""
    name = f"(?i:{name})"
    # (a run of "<" at a time, but a last one that starts the end tag: one step for "<" x N, not one each)
    text = script_text(key) if name == _S else atomic_text(rf"<+(?!/{name}[\t\n\x0c\r />])", key)
    return (rf"<{name}(?=[\t\n\x0c\r />]){_attributes(key + 's')}"
            rf"{text}</{name}(?=[\t\n\x0c\r />]){_attributes(key + 'e')}")


def atomic_text(stop: str, key: str, possessive: bool = POSSESSIVE, special: str = "<") -> str:
    """Text without "<" (nor any other of the *special* characters) but where *stop* (a pattern)
    matches one, atomic: *possessive* quantifiers (Python 3.11+), else a lookahead and a
    backreference (group ``x{key}``)."""
    if possessive:
        return rf"[^{special}]*+(?:{stop}[^{special}]*+)*+"
    return rf"(?=(?P<x{key}>[^{special}]*(?:{stop}[^{special}]*)*))(?P=x{key})"


# Script data states (§13.2.5.4, 15-32). Unescaped: only "<!--" (enter escaped) or the end tag.
# Escaped: "-->" leaves, "</script" ends the element, "<script" enters double-escaped.
# Double-escaped: "-->" goes back to unescaped, "</script" back to escaped.
_T = r"[\t\n\x0c\r />]"  # what ends a tag name
_SCRIPT_END = re.compile(rf"</script{_T}", _FLAGS)
_SCRIPT_START = re.compile(rf"<script{_T}", _FLAGS)
_SCRIPT_DATA = re.compile(rf"<!--|</script{_T}", _FLAGS)
_SCRIPT_ESCAPED = re.compile(rf"-->|</script{_T}|<script{_T}", _FLAGS)
_SCRIPT_DOUBLE = re.compile(rf"-->|</script{_T}", _FLAGS)


# Shortcut: the runs of states that come back to the state they began in, each in one match, the
# text between transitions atomic (see atomic_text): script data through escaped sections (with
# double-escaped ones inside) back to script data; escaped through double-escaped back to escaped;
# double-escaped through escaped back to double-escaped. Left to the steps: transitions that never
# come back, a few per element, whatever its text. ("+": possessive, see with_possessives.)
_S = "(?i:script)"


def _data(key: str) -> str:  # up to "<!--" or "</script"
    return atomic_text(rf"<(?!!--|/{_S}{_T})", key)


def _escaped(key: str) -> str:  # up to "-->", "</script" or "<script"
    return atomic_text(rf"(?:-(?!->)|<(?!/?{_S}{_T}))", key, special="<-")


def _double(key: str) -> str:  # up to "-->" or "</script"
    return atomic_text(rf"(?:-(?!->)|<(?!/{_S}{_T}))", key, special="<-")


def _escaped_cycles(key: str) -> str:
    return rf"(?:<{_S}{_T}{_double(key + 'a')}</{_S}{_T}{_escaped(key + 'b')})*+"


def _script_runs(key: str) -> tuple[str, str, str]:
    """The runs back to script data, to escaped, to double-escaped (group names led by *key*)."""
    # (After "<!" the escaped text begins at "--", the escaped dash dash state: "<!-->" closes.)
    to_data = rf"<!{_escaped(key + 'd')}{_escaped_cycles(key + 'e')}(?:<{_S}{_T}{_double(key + 'f')})?+-->"
    return (rf"{_data(key + 'c')}(?:{to_data}{_data(key + 'g')})*+",
            rf"{_escaped(key + 'h')}{_escaped_cycles(key + 'i')}",
            rf"{_double(key + 'j')}(?:</{_S}{_T}{_escaped(key + 'k')}<{_S}{_T}{_double(key + 'l')})*+")


_SCRIPT_SKIP = {state: re.compile(with_possessives(run), _FLAGS)
                for state, run in zip((_SCRIPT_DATA, _SCRIPT_ESCAPED, _SCRIPT_DOUBLE), _script_runs(""))}


def script_text(key: str) -> str:
    """Script data up to an end tag that ends it (in script data or escaped, §13.2.5.4, 15-32),
    atomic (possessive on Python 3.11+, else a lookahead and a backreference: group names led
    by ``x{key}``). Possessive: the runs of states alone, one pass whatever the text (an escaped
    script was read three times: issue 37, ``<script><!--`` repeated); else most scripts have no
    "<!--": their text up to the end tag first, one pass, and where no "</script" follows, it fails
    at the speed of a search for one."""
    text = with_possessives(_script_runs(key)[0] + rf"(?:<!{_escaped(key + 'm')}{_escaped_cycles(key + 'n')})?+")
    if POSSESSIVE:
        return text
    plain = rf"{_data(key + 'q')}(?=</{_S}{_T})"
    ahead = rf"(?={atomic_text(rf'<(?!/{_S}{_T})', key + 'p')}</{_S}{_T})"
    return rf"(?:{plain}|{ahead}{atomic(text, f'x{key}o')})"


# The last script elements' ends asked for: (text, where its script data begins, the answer).
_SCRIPT_ENDS: list[tuple[str, int, int]] = []


def script_data_end(text: str, pos: int, shortcut: bool = True) -> int:
    """Offset of the "<" of the "</script" end tag that closes script data begun at *pos*, or -1.
    *shortcut* ``False``: each transition a step (else two searches where no "<script" comes
    before the first "</script", and the runs that come back to a state are one match each; the
    last four answers kept: the parser step and the browsers' models ask alike, issue 37:
    ``<script><!--`` repeated, 1.6 ms an ask at 64 KiB). Compiled where the extension is built
    (:func:`compiled_tokens`: the steps, a character at a time; the runs' pattern took 1.2 ms over
    64 KiB of escapes that never come back, read twice: hunted, issue 37)."""
    if not shortcut:
        return _script_data_end(text, pos, False)
    for seen, start, end in _SCRIPT_ENDS:
        if start == pos and (seen is text or len(seen) == len(text) and seen == text):
            return end
    compiled = compiled_tokens()
    end = _script_data_end(text, pos, True) if compiled is None else compiled.script_data_end(text, pos)
    _SCRIPT_ENDS[:] = [(text, pos, end), *_SCRIPT_ENDS[:3]]
    return end


def _script_data_end(text: str, pos: int, shortcut: bool) -> int:
    if shortcut:
        # Only "</script" ends the element; only after "<script" (double-escaped) can one not.
        end = _SCRIPT_END.search(text, pos)
        if end is None or _SCRIPT_START.search(text, pos, end.start()) is None:
            return -1 if end is None else end.start()
    state = _SCRIPT_DATA
    while True:
        if shortcut:
            pos = _SCRIPT_SKIP[state].match(text, pos).end()  # type: ignore[union-attr]  # (never None)
        match = state.search(text, pos)
        if match is None:
            return -1
        token = match.group()
        if state is _SCRIPT_DATA:
            if token[1] == "/":
                return match.start()
            # "<!--" ends in the escaped dash dash state: its "--" may close at once ("<!-->").
            state, pos = _SCRIPT_ESCAPED, match.start() + 2
        elif token[0] == "-":
            state, pos = _SCRIPT_DATA, match.end()
        elif state is _SCRIPT_ESCAPED:
            if token[1] == "/":
                return match.start()
            state, pos = _SCRIPT_DOUBLE, match.end()
        else:
            state, pos = _SCRIPT_ESCAPED, match.end()


#: A bogus comment ("<?", "</" + non-letter, "<!" but "<!--"), to the first ">" (§13.2.5.41).
BOGUS_COMMENT = r"<(?:\?|/(?![A-Za-z])|!(?!--))[^>]*>"
#: Stray "<"s (a "<" before none of "!", "/", "?" and an ASCII letter: §13.2.5.6, emitted as a
#: character), and text with them: one item, not one per "<" (Chromium's head section, browsers.py).
STRAY_LT = r"<+(?=[^!/?A-Za-z])"
TEXT_WITH_STRAY_LT = with_possessives(rf"[^<][^<]*+(?:{STRAY_LT}[^<]*+)*+")
META_CANDIDATE = re.compile(r"<meta[\t\n\x0c\r />]", _FLAGS)
#: A run of text, "<" that starts no :data:`META_CANDIDATE` and whole meta tags (as :data:`TAG`
#: reads them) without "<" inside (so that no other candidate starts within them), or without a
#: quote before their first ">" (a "<" inside, too: every tag that starts in one, a "<meta" in it
#: say, ends at that ">", where no value is quoted), in one match.
#: Each "<" with the text after it is one item (possessive: the first way is the only way).
META_RUN = re.compile(with_possessives(r"[^<]*+(?:(?:<(?!(?i:meta)[\t\n\x0c\r />])|<(?i:meta)(?=[\t\n\x0c\r />])(?:[^\"'>]*+>|"
                                       + _attributes("", "<") + r"))[^<]*+)*+"), re.ASCII)
_CHARSET = re.compile(r"charset", _FLAGS)


def meta_candidates(text: str) -> Iterator[int]:
    """Offsets of each "<meta" whose tag could name an encoding (its text has "charset" or a
    character reference), in order. Nothing after the last one can matter to the parser step."""
    for match in META_CANDIDATE.finditer(text):
        tag = TAG.match(text, match.start())
        if tag is None:
            continue  # end of input inside this tag if it is one: it is never emitted
        span = tag.group(3)
        if "&" in span or _CHARSET.search(span):
            yield match.start()
