"""The ``meta`` that the HTML parser would hand to "change the encoding" (HTML §13.2.3.4).

A tree builder acting on a ``meta`` start tag in the "in head" insertion mode (also reached from
"in body", "after head", the table modes and "in template", and from foreign content, which a
``meta`` start tag always breaks out of) asks to change the encoding while the confidence is
tentative (§13.2.6.4.4). Which start tags are ``meta`` elements depends on the tokenizer state,
which the tree builder switches: comments, RCDATA (``title``, ``textarea``), RAWTEXT (``style``,
``xmp``, ``iframe``, ``noembed``, ``noframes``, ``noscript`` with scripting enabled), script data
(with its escaped states), PLAINTEXT, CDATA sections in foreign content. This module scans with
regexes from one markup boundary to the next and feeds a DOM-less tree builder.

``meta`` inside ``template`` contents counts: "in template" processes ``meta`` with the "in head"
rules, whose step for ``meta`` changes the encoding with no exception for template contents.
``meta`` inside ``select`` counts too: the current standard has no "in select" insertion modes.

One loop, :func:`tree_builder_metas`, serves the parser step and both browser models
(:mod:`.browsers`: scripting disabled, insertion modes reported). Work is bounded per byte with a
small constant (docs/algorithm.rst): a ``<meta>`` is read only where its attributes hold a hint
(:class:`Hints`: a character reference, or ``charset=`` and a label), runs of those that hold
none are one match, and nothing after the last ``<meta`` whose attributes name an encoding is
looked at (found from the end; readings cached per attribute text); a run of comments is one
match; a run of elements of text that change no tree state is one match; copies of one comment
or element are skipped in O(log n) comparisons first (``copies_end``), and so are copies of a
unit of tokens once the tree builder's state has come round to where it was one or two copies
before (:class:`_Copies`: ``<a>`` or ``<p>`` in a template, ``<`` in SVG); runs of head elements
"in head" are one match; copies of start tags that only push elements are pushed at once (``<b>`` in a
template: ``push_unit_copies``), and the tree builder's scope checks cost O(1) or O(log n)
however deep the nesting; a candidate tag is read within LONGEST_TAG characters (a longer one is
a candidate unread, with the "<meta" inside it: :func:`meta_starts`), and a tag's attributes are
read by name in one match. Past the first :data:`PARSER_HEAD` characters the parser step reads
on only while the tree builder is in the head, where browsers stop too; no bound on how many
``<meta>`` are examined: browsers have none (docs/algorithm.rst).
"""
from __future__ import annotations

import gc
import os
import re
import string
from collections.abc import Callable, Collection, Generator, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from html.entities import html5 as NAMED_REFERENCES  # the standard's named character references
from typing import AnyStr

from ..encoding import Encoding, get_encoding
from ..encoding.compiled import PURE_PYTHON
from ..encoding.tables.labels import LABELS
from ._html.charrefs import word_start
from ._html.elements import MATHML_TEXT_IP_NAMES, META, RAWTEXT, RCDATA, SCRIPT, SVG_IP_NAMES
from ._html.foreign import BREAKOUT_NAMES
from ._html.tokenizer import (
    BOGUS_COMMENT,
    COMMENT,
    COMMENT_ONE,
    COMMENT_RUN,
    DIGITS,
    LONGEST_TAG,
    META_CANDIDATE,
    META_RUN,
    NUMBERED_LONGEST,
    POSSESSIVE,
    TAG,
    attributes_pattern,
    classify_text,
    copies_end,
    first_attributes,
    kept_lowered,
    markup_start,
    names_nothing_whatever_digits,
    numbered_copies_past,
    numbered_copy,
    numbered_literals,
    numbered_run,
    numbered_run_end,
    numbered_skeleton,
    numbered_unit,
    raw_text_end,
    register_text_elements,
    run_end,
    same_before_digits,
    script_data_end,
    skeleton,
    tag_name,
    tag_reader,
    text_element,
    tree_names_nothing_whatever_digits,
    with_possessives,
)
from ._html.tokenizer import forget as forget_end_tags
from ._html.tree import TreeBuilder, push_unit_copies
from .meta_charset import extract_meta_charset

_WS = "\t\n\x0c\r "
_META_NAMES = ("charset", "http-equiv", "content")  # the attributes a meta tag's readers read
_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
#: Characters of the decoded text in which the parser step looks at every ``<meta>`` the tree
#: builder acts on (both browsers read their first 1024 bytes whatever the markup, no more
#: characters than these); past them, only while the tree builder is in the head
#: (:data:`HEAD_MODES`): where it leaves the head there, both browsers have stopped looking
#: (docs/algorithm.rst), and the standard lets the step stop anywhere.
PARSER_HEAD = 1024
#: The insertion modes in which the tree builder has not yet left the head: Firefox honours a
#: late ``meta`` in these only; Chromium's scan stops at a later tag that may not stand in a head.
HEAD_MODES = frozenset(("initial", "before html", "before head", "in head", "in head noscript"))


def meta_tag_encoding(span: str) -> tuple[Encoding, str] | None:
    """The "in head" rule for ``meta`` (§13.2.6.4.4): a ``charset`` attribute whose value gets an
    encoding; otherwise ``http-equiv`` = "Content-Type" (ASCII case-insensitive) with a ``content``
    from which the meta algorithm extracts one. The first of duplicated attributes counts (read
    at C speed, once, however many attributes the tag has)."""
    attrs = {}
    for name, value in first_attributes(span, _META_NAMES, meta=True):
        if name == "charset":
            encoding = get_encoding(value)
            if encoding is not None:
                return encoding, value.strip(_WS)
        attrs[name] = value
    http_equiv = attrs.get("http-equiv")
    if http_equiv is not None and tag_name(http_equiv) == "content-type" and "content" in attrs:
        return extract_meta_charset(attrs["content"])
    return None


# Characters end at a "<" that starts markup (MARKUP_START): text and stray "<"s before it (a run of
# "<" ends at its last, the one a markup character follows), in one search (about 3 ns a character,
# 8 a stray "<"; the search tries each "<" of a run: one at the start is skipped first).
_LT_RUN = re.compile("<+")


def _characters_end(text: str, pos: int, end: int) -> int:
    """The end of the characters from *pos* in *text* up to *end*: the next "<" that starts markup, or *end*."""
    if text.startswith("<", pos, end):
        pos = _LT_RUN.match(text, pos, end).end() - 1  # type: ignore[union-attr]  # (its last "<")
    found = markup_start(text, pos, end)
    return end if found < 0 else found


# Characters, comments and bogus comments (a DOCTYPE too: it ends at its first ">" and changes no
# state past "initial"; not a CDATA section, text to "]]>" in foreign content); and with them,
# end tags but "template" (read as TAG reads them).
_QUIET_ITEMS = rf"[^<]+|<+(?![!/?A-Za-z])|{COMMENT}|(?!<!\[CDATA\[){BOGUS_COMMENT}"


# Before the body, where characters but whitespace change the mode: whitespace, comments, bogus
# comments (DOCTYPEs: ignored) and end tags but those the mode's rules name, which it ignores
# (§13.2.6.4.2-6; "in head noscript" takes whitespace and comments by "in head"'s rules).
_QUIET_HEAD_ITEMS = rf"[\t\n\x0c\r ]+|{COMMENT}|(?!<!\[CDATA\[){BOGUS_COMMENT}"
_HEAD_END_TAGS_KEPT = {
    "before html": frozenset(("head", "body", "html", "br")),
    "before head": frozenset(("head", "body", "html", "br")),
    "in head": frozenset(("head", "body", "html", "br", "template")),
    "in head noscript": frozenset(("noscript", "br")),
    "after head": frozenset(("template", "body", "html", "br")),
}


@cache  # (for the few sets TreeBuilder.end_tags_ignored and _HEAD_END_TAGS_KEPT give)
def _quiet_end_tags(kept: frozenset[str] | None, items: str = _QUIET_ITEMS) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """An item of *items* (:data:`_QUIET_ITEMS`'s by default) or an end tag but one named one of
    *kept* (ASCII lowercase; read as TAG reads them; ``None``: no end tag), and its run, for
    :func:`run_end` (copies of a unit in O(log n): ``</>`` repeated). The end tags first: the other
    items fail on them later."""
    end_tag = "" if kept is None else (
        "</(?!" + _trie(sorted(kept), "[\t\n\x0c\r />]", fold=True) + r")[A-Za-z][^\t\n\x0c\r />]*+(?=[\t\n\x0c\r />])"
        + attributes_pattern("q") + r"[\t\n\x0c\r /]*+>|")
    item = f"(?:{end_tag}{items})"
    return re.compile(with_possessives(item), re.ASCII), re.compile(with_possessives(item + "*+"), re.ASCII)


# In "initial" (§13.2.6.4.1), the same but DOCTYPEs (which set the mode) and end tags (which
# leave it): whitespace is ignored, comments inserted.
_QUIET_INITIAL = _quiet_end_tags(None, _QUIET_HEAD_ITEMS.replace(r"(?!<!\[CDATA\[)", r"(?!<!\[CDATA\[|<!(?i:doctype))"))


def markup_declaration(text: str, lt: int, tree: TreeBuilder, end: int | None = None) -> int:
    """End of the comment (with the comments right after it: comment tokens change no tree
    state), DOCTYPE, CDATA section (in foreign content) or bogus comment that starts with "<!" at
    *lt* (§13.2.5.42 and on), or -1 at end of input. A DOCTYPE and a CDATA section's characters go
    to *tree*. With
    *end*, comments that end after it are not read (-1 if the first does: the caller wants
    nothing past it)."""
    if text.startswith("--", lt + 2):
        stop = run_end(COMMENT_ONE, COMMENT_RUN, text, lt, len(text) if end is None else end)
        return -1 if stop == lt else stop
    if tag_name(text[lt + 2:lt + 9]) == "doctype":
        gt = text.find(">", lt + 9)
        tree.doctype(None if gt < 0 else text[lt + 9:gt])
        return -1 if gt < 0 else gt + 1
    if text.startswith("[CDATA[", lt + 2) and tree.in_foreign():
        end = text.find("]]>", lt + 9)
        if end < 0:
            return -1
        if end > lt + 9:
            segment = text[lt + 9:end].replace("&", "x")  # no references in CDATA sections
            tree.characters(*classify_text(segment, 0, len(segment)))
        return end + 3
    gt = text.find(">", lt + 2)  # bogus comment
    return -1 if gt < 0 else gt + 1


@lru_cache(maxsize=512)
def _meta_reading(span: str) -> tuple[Encoding, str] | None:
    return meta_tag_encoding(span) if span else None


def _reads_nothing(span: str) -> bool:
    return _meta_reading(span) is None


# What a meta tag's attributes hold wherever a reader here (the standard's, Chromium's, Firefox's)
# reads them as naming an encoding (a "hint"): a character reference that gives a character some
# reading reads (_READ_CHARACTERS; the others, "&amp;" or "&lt;", only make a value no label) —
# one that gives a character of a label, "charset" or "content-type" (_LABEL_READ) wherever it is,
# one that gives only others (whitespace, quotes, "=", ";") where up to 15 items, then a whole label,
# follow it (an item: whitespace, a quote or "=", what the readers skip before a label, or a
# reference to one of those others; the label is in the text: a reference in it is a hint of its
# own), or 16 items —, or
# "charset" (ASCII case-insensitively), "=" and a label of the Encoding Standard as a whole
# value: before and after "=" characters up to U+0020 (Chromium skips those), then a quote and
# ASCII whitespace (which "get an encoding" strips); after the label no character a label has
# (the value ends there: quote, whitespace, ";", ">"). The hint is the "=": a literal the search
# finds at C speed, then the label (a trie) and "charset" behind it are checked only there. A run
# of 16 or more of the in-between characters counts as a hint whatever is around it, so that the
# check never looks more than _HINT_LENGTH past the "=": a window of the text is searched without
# reading far past it. Both are searched in the text's ascii_lowered bytes (no hint holds a
# character but ASCII).


def _trie(words: list[str], stop: str = "", fold: bool = False) -> str:
    """A pattern matching any of *words* (none empty, no two alike; each then *stop*, a pattern)
    without IGNORECASE: one branch per first character at each level, which sre skips at once
    where its literal (or, with *fold*, the class of an ASCII lowercase letter and its uppercase)
    is not there; a word that is also a longer one's start ends with *stop* as the last branch."""
    heads: dict[str, list[str]] = {}
    for word in words:
        heads.setdefault(word[:1], []).append(word[1:])
    branches = []
    for head, tails in sorted(heads.items()):
        rest = [tail for tail in tails if tail]
        tail = stop if not rest else _trie(rest, stop, fold) if len(rest) == len(tails) else f"(?:{_trie(rest, stop, fold)}|{stop})"
        branches.append((f"[{head}{head.upper()}]" if fold and "a" <= head <= "z" else re.escape(head)) + tail)
    return "(?:" + "|".join(branches) + ")"


# Foreign content (§13.2.6.5), where the current node is foreign and no integration point: a
# start tag that neither breaks out nor names an integration point or annotation-xml only pushes a
# foreign element that leaves this so; characters change at most frameset-ok; comments, bogus
# comments and a DOCTYPE change nothing. A run of them that ends at a start tag that breaks out
# (or "</br>", "</p>") changes nothing either: the breakout pops what it pushed with the foreign
# elements under it, and nothing else looks at those. So the run is skipped (frameset-ok set where
# its characters set it). _FOREIGN_PUSHES_WS takes whitespace and U+0000 only as text (where
# frameset-ok is still "ok"), _FOREIGN_PUSHES every character. Searched in the text's
# ascii_lowered bytes (the names as literals: sre skips a branch by its first one), where some
# tokens look alike and end the run: a CDATA section (characters) and a bogus comment
# "<![cdata["; a bogus comment "<?" and "<" before a non-ASCII character.
_TAG_END = "[\t\n\x0c\r />]"


def _lowered_tag(key: str) -> str:
    """A tag from its name on, in ascii_lowered text, as TAG reads it (*key* names its atomic
    group on Python 3.10): one without attributes first."""
    return r"[a-z][^\t\n\x0c\r />]*+(?:>|(?=[\t\n\x0c\r />])" + attributes_pattern(key) + r"[\t\n\x0c\r /]*+>)"


_FOREIGN_START = ("<(?!" + _trie(sorted(BREAKOUT_NAMES | SVG_IP_NAMES | MATHML_TEXT_IP_NAMES | {"font", "annotation-xml"}),
                                 _TAG_END) + ")" + _lowered_tag("f"))
_FOREIGN_MARKUP = rf"{COMMENT}|<(?:/(?![a-z])|!(?!--|\[cdata\[))[^>]*>"  # (bogus comments but "<?": "<" and non-ASCII)
_FOREIGN_PUSHES_WS = re.compile(with_possessives(rf"(?:{_FOREIGN_START}|[\t\n\x0c\r \x00]+|{_FOREIGN_MARKUP})*+").encode())
_FOREIGN_TEXT = r"[^<]*+(?:<+(?![!/?a-z])[^<]*+){1,}+|[^<]+"  # (text with its stray "<"s: one item, not one each)
_FOREIGN_ITEM = rf"(?:{_FOREIGN_START}|{_FOREIGN_TEXT}|{_FOREIGN_MARKUP})"
_FOREIGN_PUSH = re.compile(with_possessives(_FOREIGN_ITEM).encode())
_FOREIGN_PUSHES = re.compile(with_possessives(_FOREIGN_ITEM + "*+").encode())
_BREAKS_OUT = re.compile(("<(?:" + _trie(sorted(BREAKOUT_NAMES), _TAG_END) + "|/(?:br|p)" + _TAG_END + ")").encode())


def _foreign_run(tree: TreeBuilder, text: str, lowered: bytes, lt: int, end: int) -> tuple[int, int]:
    """Where the loop goes on from a start tag at *lt* in foreign content (the tree builder's
    :meth:`~.TreeBuilder.pushes_foreign`; *lowered*: the text's :func:`.ascii_lowered`), and
    where the run of what only pushes foreign elements from it stops (see
    :data:`_FOREIGN_PUSHES`): past the run where a tag that breaks out ends it (the tree builder
    then as it leaves the run), else *lt* (nothing skipped)."""
    other = False
    stop = lt
    if tree.frameset_ok:
        stop = _FOREIGN_PUSHES_WS.match(lowered, lt, end).end()  # type: ignore[union-attr]
        after = _characters_end(text, stop, end)
        other = after > stop and classify_text(text, stop, after)[2]  # (on only where they set frameset-ok)
    if not tree.frameset_ok or other:
        stop = run_end(_FOREIGN_PUSH, _FOREIGN_PUSHES, lowered, stop, end)  # (copies of a unit skipped)
    if not _BREAKS_OUT.match(lowered, stop):
        return lt, stop
    if other:
        tree.characters(False, False, True)
    return stop, stop


_SEPARATOR, _WHITESPACE = "[\\x00- ]", "[\\t\\n\\x0c\\r ]"
# Characters a character reference must give to matter to a reading: those of labels, "charset",
# "content-type", "=", quotes, ";" and the separators (U+0001-U+0020; "&#0;" gives U+FFFD).
_READ_CHARACTERS = frozenset(map(chr, range(1, 0x21))) | set("\"'-.:;=_") | set(string.ascii_letters + string.digits)
# A character reference that gives one: numeric (sixteen or more zeros count whatever follows, so
# that the check reads a bounded length), or named, by any name that gives one (every name the
# longest match can take is tried; ASCII case-insensitively: more, never fewer).
_LABEL_READ = frozenset(string.ascii_letters + string.digits + "-.:_")
_BETWEEN = _READ_CHARACTERS - _LABEL_READ
# Names (ascii_lowered) of the references that give a character of _LABEL_READ, and of those that
# give one of _BETWEEN and none of those.
_LABEL_NAMES = sorted({name.lower() for name, value in NAMED_REFERENCES.items() if _LABEL_READ.intersection(value)})
_BETWEEN_NAMES = sorted({name.lower() for name, value in NAMED_REFERENCES.items()
                         if _BETWEEN.intersection(value) and not _LABEL_READ.intersection(value)})


def _codes(characters: frozenset[str], hexadecimal: bool) -> str:
    """A pattern (ascii_lowered text): a numeric reference's digits after its zeros, whole, that give
    one of *characters*."""
    if hexadecimal:
        return _trie(sorted(f"{ord(c):x}" for c in characters), "(?![0-9a-f])")
    return _trie(sorted(str(ord(c)) for c in characters), "(?![0-9])")


# (An item between a reference to whitespace and a label: a character a reader skips there
# (whitespace, a quote, "="), or a reference to one of _BETWEEN, its ";" with it. It reads one way
# whatever the regex engine retries (Python 3.10 has no possessive quantifier): a shorter reading of
# a reference leaves a ";", which no item and no label starts with; so the ";" after the reference
# is possessive where there are (a fifth of the time on a page of such references).)
_BETWEEN_ITEM = ("(?:[\\x00- \"'=]|&(?:#(?:0{0,15}" + _codes(_BETWEEN, False) + "|x0{0,15}" + _codes(_BETWEEN, True) + ");?|"
                 + _trie(_BETWEEN_NAMES) + "))")
# (A label is whole where the end of the text or a character that may end a label's value in some
# reader follows it: U+0000-U+0020 (Chromium stops at any of them), a quote, ";", ">" (the tag's
# end) or "&" (a reference to one of those). "charset=koi8-r<br/>" names nothing to any reader.)
_LABEL_END = "(?![^\\x00- \"';>&])"
_LABEL = _trie(sorted(LABELS), _LABEL_END)
# (Python 3.11+: up to 15 items, possessive, then a 16th or a label, so that each item is read once
# per "&": no item starts as a label does, and each reads one way, its longest. Python 3.10, which
# has no possessive repeats: 16 items, or up to 15 and a label, as a greedy repeat gives items back.
# First a check of what an item or a label starts with (one step: a reference to another code point
# after a reference to whitespace, "&quot;&#0;" repeated, hunted, fails there, not in the items'
# alternatives: 275 -> 135 ns a reference).)
_FOLLOWS_FIRST = ("(?=[\\x00- \"'=" + re.escape("".join(sorted({label[0] for label in LABELS})))
                  + "]|&(?:#x?0*+[1-9a-f]|[a-z]))")
_LABEL_FOLLOWS = ("(?=;?+" + _FOLLOWS_FIRST + _BETWEEN_ITEM + "{0,15}+(?:" + _BETWEEN_ITEM + "|" + _LABEL + "))"
                  if POSSESSIVE else
                  "(?=;?" + _FOLLOWS_FIRST + "(?:" + _BETWEEN_ITEM + "{16}|" + _BETWEEN_ITEM + "{0,15}" + _LABEL + "))")
# (One "&", then a first check: sixteen zeros, or the digits of a number no longer than the
# largest code's, or a name's first letter, before the alternatives: a page of "&" that starts no
# reference, or of references to other code points, fails each at once. Sixteen zeros or more are
# a hint first, so the others read fifteen at most.)
_LARGEST = max(map(ord, _READ_CHARACTERS))
_REFERENCE_HINTS = re.compile(with_possessives(
    f"&(?=#(?:x?0{{16}}|0*+[0-9]{{1,{len(str(_LARGEST))}}}+(?![0-9])|x0*+[0-9a-f]{{1,{len(f'{_LARGEST:x}')}}}+(?![0-9a-f]))|[a-z])"
    "(?:#(?:x?0{16}|0{0,15}+(?:" + _codes(_LABEL_READ, False) + "|" + _codes(_BETWEEN, False) + _LABEL_FOLLOWS
    + ")|x0{0,15}+(?:" + _codes(_LABEL_READ, True) + "|" + _codes(_BETWEEN, True) + _LABEL_FOLLOWS + "))"
    + "|(?=[a-z])(?:" + _trie(_LABEL_NAMES) + "|" + _trie(_BETWEEN_NAMES) + _LABEL_FOLLOWS + "))"
).encode("ascii"))
# (A first check behind the "=" fails at once on most attributes: name=value. The runs before the
# label are possessive: giving back a separator leaves one where no quote or label starts.)
_LABEL_HINTS = re.compile(with_possessives(
    "=(?<=[t\\x00- ]=)(?=" + _SEPARATOR + "{16}|" + _SEPARATOR + "{0,15}+[\"']?+(?:" + _WHITESPACE + "{16}|" + _WHITESPACE + "{0,15}+"
    + _LABEL + "))"
    + "(?:(?<=" + _SEPARATOR + "{16}=)|" + "|".join(f"(?<=charset{_SEPARATOR}{{{k}}}=)" for k in range(16)) + ")").encode("ascii"))
_HINTS = (_REFERENCE_HINTS, _LABEL_HINTS)
_HINT_LENGTH = max(1 + 16 + 1 + 16 + max(map(len, LABELS)) + 1, 1 + max(map(len, NAMED_REFERENCES)),
                   # (a reference to whitespace and 16 items, or 15 and a label: each "&#x", 15 zeros, 2 digits, a lookahead)
                   17 * max(3 + 15 + 2 + 1, 1 + max(map(len, _BETWEEN_NAMES))) + max(map(len, LABELS)) + 1)


@cache
def compiled_hints(pure: bool | None = None) -> tuple[Callable[[bytes, int, int, bool], int], ...] | None:
    """``(reference_hint, label_hint)``, each ``(lowered, start, end, last) -> offset``: where
    _REFERENCE_HINTS, and _LABEL_HINTS, first (or, *last*, last) match from *start* in
    ``lowered[:end]`` (-1: nowhere), compiled (``c_hints.c``: each "&", each "=", read once, in C,
    about 15 ns a reference, where the patterns take 100-500 on references dense with ones to a
    character read between, and about 17 ns an "=" after "charset": hunted, issue 37); ``None``
    where the extension is not built, or where *pure* (by default, where
    :data:`.compiled.PURE_PYTHON` is ``1``). Their plain twins are the patterns' searches."""
    if os.environ.get(PURE_PYTHON) == "1" if pure is None else pure:
        return None
    try:
        from .c_hints import label_hint, reference_hint, set_tables
    except ImportError:
        return None
    kinds = bytes(1 if chr(c) in _LABEL_READ else 2 if chr(c) in _BETWEEN else 0 for c in range(128))
    names = [(name.encode("ascii"), 1) for name in _LABEL_NAMES] + [(name.encode("ascii"), 2) for name in _BETWEEN_NAMES]
    set_tables(kinds, names, sorted((label.encode("ascii"), 0) for label in LABELS))
    return reference_hint, label_hint


def _hint_search(k: int, lowered: bytes, start: int, end: int) -> int:
    """Where _HINTS[k] first matches from *start* in ``lowered[:end]``, or -1."""
    compiled = compiled_hints()
    if compiled is not None:
        return compiled[k](lowered, start, end, False)
    match = _HINTS[k].search(lowered, start, end)
    return -1 if match is None else match.start()


#: Characters :meth:`Hints.after` searches from a position at first: past them it answers that no
#: hint lies before their end (a page of references and two meta tags, one at each end, is
#: searched near the tags only), and searches twice as many the next time (a flood of tags that
#: hold no hint is asked about in O(log n) steps).
HINT_WINDOW = 1024


class Hints:
    """The hints in *text* from its first "<meta" (:data:`.tokenizer.META_CANDIDATE`) on, where
    a meta tag may hold one (a page of references with its meta tags at the end is searched
    there): :attr:`last`, and :meth:`after`, asked at any positions, which searches *window*
    (default :data:`HINT_WINDOW`) characters, then answers with a bound, not a hint (twice as many
    after each such answer, *window* again after a hint); a search is reused for every position
    between where it started (or the search it went on from, where it started at that one's bound)
    and what it found, so callers that ask in increasing order (or again from any position a chain
    of such searches covers) search each part of the text once (C-speed: the references and the
    labels' "=" each by a search led by its literal, "&" or "=")."""

    __slots__ = ("_found", "_lasts", "_sizes", "_word", "first", "last", "lowered", "window")

    def __init__(self, text: str, window: int | None = None):
        #: *text*'s :func:`.tokenizer.ascii_lowered`.
        self.lowered = kept_lowered(text)  # (the scans and the browsers' models each make Hints of the same text)
        self.window = HINT_WINDOW if window is None else window
        #: The offset of the first "<meta" (the text's length: none), and of the last hint, or -1:
        #: no meta tag that starts after it names an encoding.
        self.first, self._lasts = _first_and_lasts(text, self.lowered)  # (for each of _HINTS: none past it)
        self.last = max(self._lasts)
        # For each of _HINTS: where the last search started, what it found (-1: none) and whether
        # that is a hint (else the end of the window searched, before which there is none).
        self._found = [(len(text) + 1, -1, True)] * len(_HINTS)
        self._sizes = [self.window] * len(_HINTS)  # for each, the characters its next search reads at most
        self._word = (len(text) + 1, -1)  # where word_after's last search started, what it found

    def after(self, position: int) -> int:
        """An offset at or after *position* (and the first "<meta") before which no hint lies, and
        at or before the first hint there: that hint where it lies within :attr:`window`
        characters of where the search started (or more, after bounds); or -1: no meta tag whose
        attributes start there or later names an encoding, nor any that ends before it. Never
        *position* itself but where a hint starts there (a caller that goes on from the answer
        moves on)."""
        position = max(position, self.first)
        if position > self.last:
            return -1
        first = -1
        for k in range(len(_HINTS)):
            last = self._lasts[k]
            start, found, hint = self._found[k]
            if position > last:
                found = -1
            elif not start <= position <= (last if found < 0 else found) or position == found and not hint:
                # (from the bound the last search reached, none lies before it since that search's start either)
                since = start if position == found and not hint else position
                size = self._sizes[k]
                bound = min(last, position + size)
                match = _hint_search(k, self.lowered, position, bound + _HINT_LENGTH)
                hint = match >= 0 or bound == last
                found = match if match >= 0 else -1 if hint else self._past_meta(bound)
                self._found[k] = (since, found, hint)
                self._sizes[k] = self.window if hint else 2 * size
            if found >= 0 and (first < 0 or found < first):
                first = found
        return first

    def next_hint(self, position: int, until: int | None = None) -> int:
        """The first hint at or after *position* (and the first "<meta"), or -1: :meth:`after`
        asked again from each bound it answers with (each search twice as long: O(log n) of them);
        with *until*, an offset at or past it where no hint lies before it, where it finds none
        before *until* (the search goes no further than the bound that passes it)."""
        found = self.after(position)
        while found >= 0 and (until is None or found < until) and (further := self.after(found)) != found:
            found = further
        return found

    def word_after(self, position: int) -> int:
        """The offset of the first place at or after *position* where "charset" may be written
        (:func:`.charrefs.lowered_word`: each letter written, ASCII case-insensitively, or a
        numeric reference to it), or -1: none. Each reader of meta tags here names an encoding
        only from a tag that holds it (a ``charset`` attribute's name, a ``content`` value's
        text), so a tag that starts at or after *position* and ends before that offset names
        nothing, hint or not. One C search per answer, reused for positions up to it."""
        start, found = self._word
        if not (start <= position <= found or found < 0 <= position - start):
            found = word_start("charset", self.lowered, position)
            self._word = (position, found)
        return found

    def _past_meta(self, bound: int) -> int:
        """*bound*, or where it cuts a "<meta" and the character after it (a hint, "&" or "=",
        never does; a run to it would read the cut "<m" as text), just past them: no hint starts
        inside them."""
        lt = self.lowered.rfind(b"<", max(bound - 5, 0), bound)
        return lt + 6 if lt >= 0 and _META_LOWERED.match(self.lowered, lt) else bound


# The last texts asked for their last hints, with their ascii_lowered bytes and the hints: the
# browsers' models read the same text, and a page's texts in two single-byte encodings (the
# latin-1 text of the bytes, the decoded one) differ in their non-ASCII characters only, which no
# hint reads.
_LAST_HINTS: list[tuple[str, bytes, int, tuple[int, ...]]] = []


def forget() -> None:
    """Forget what earlier texts left cached here (meta tags' readings, the last texts' last
    hints, the patterns of their units' copies): for a benchmark timing the same body again as a
    crawl meets it, once (a page's units are its own: their patterns are compiled for it)."""
    _meta_reading.cache_clear()
    names_nothing_whatever_digits.cache_clear()
    tree_names_nothing_whatever_digits.cache_clear()
    _LAST_HINTS.clear()
    forget_end_tags()
    for patterns in (numbered_unit, numbered_skeleton, numbered_run, numbered_literals, _copies_between):
        patterns.cache_clear()


_META_LOWERED = re.compile(rb"<meta[\t\n\x0c\r />]")  # META_CANDIDATE in an ascii_lowered text (no IGNORECASE)


def _first_meta(lowered: bytes) -> int:
    """The offset of the first "<meta" (:data:`.tokenizer.META_CANDIDATE`) in a text whose
    :func:`.tokenizer.ascii_lowered` is *lowered*, or its length."""
    match = _META_LOWERED.search(lowered)
    return len(lowered) if match is None else match.start()


def last_start(pattern: re.Pattern[AnyStr], text: AnyStr, end: int, reach: int, start: int = 0) -> int:
    """The start of the last match of *pattern* in ``text[:end]`` at or after *start* (each at most
    *reach* characters long, lookaheads included), or -1: searched in windows from the end,
    doubling, then bisected, so that each character is searched O(1) times (no Python step per match)."""
    high, size = end, 1024  # no match starts at or after high
    while high > start:
        low = max(high - size, start)
        # (a match at or past *high* is none: cut by the window, it read less than a match does)
        match = pattern.search(text, low, min(end, high + reach))
        if match is None or match.start() >= high:
            high, size = low, 2 * size
            continue
        last = match.start()
        while high - last > 1:
            middle = (last + high) // 2
            match = pattern.search(text, middle, min(end, high + reach))
            if match is None or match.start() >= high:
                high = middle
            else:
                last = match.start()
        return last
    return -1


def last_hint(text: str, lowered: bytes | None = None) -> int:
    """The offset of the last hint in *text* from its first "<meta" on (see :class:`Hints`;
    *lowered*: its :func:`.tokenizer.ascii_lowered`, if the caller has it), or -1."""
    return max(_first_and_lasts(text, lowered)[1])


def _first_and_lasts(text: str, lowered: bytes | None = None) -> tuple[int, tuple[int, ...]]:
    """The offset of the first "<meta" in *text* (its length: none) and, for each of _HINTS, an
    offset past which it matches nowhere (its last match from there, or the last hint's; -1:
    none)."""
    for seen, _, first, lasts in _LAST_HINTS:
        if seen is text or seen == text:
            return first, lasts
    lowered = kept_lowered(text) if lowered is None else lowered
    for _, seen_lowered, first, lasts in _LAST_HINTS:
        if seen_lowered == lowered:
            break
    else:
        first, lasts = _first_meta(lowered), (-1,) * len(_HINTS)
        if first < len(text) and not _no_hints_alike(lowered):
            # The labels' "=" first (one search led by "=", failing at once on most), then the
            # references from the last of those on only: past it, the last of all (a page of
            # references and one meta tag at its end reads a few characters of them); before it,
            # none known, so that one counts as their last (no search of theirs goes past it).
            compiled = compiled_hints()
            label = (last_start(_LABEL_HINTS, lowered, len(text), _HINT_LENGTH, first)
                     if compiled is None else compiled[1](lowered, first, len(text), True))
            reference = (last_start(_REFERENCE_HINTS, lowered, len(text), _HINT_LENGTH, max(first, label))
                         if compiled is None else compiled[0](lowered, max(first, label), len(text), True))
            lasts = (max(reference, label), label)
    _LAST_HINTS[:] = [(text, lowered, first, lasts), *_LAST_HINTS[:1]]
    return first, lasts


def _no_hints_alike(lowered: bytes) -> bool:
    """Whether one of the last texts has no hint (from a first "<meta" on) and its ascii_lowered
    bytes are *lowered* but for the lengths of their runs of "?" (a character other than ASCII, or
    "?"): no hint pattern reads a "?" but as a character none of its parts is, whatever the run's
    length, so neither has one. The same bytes decoded as UTF-8 and as windows-1252 (the parser
    step's two texts of an unlabeled page) are so: one search of the hints, not two (hunted, issue
    37: "<meta charset=<template>é" then "xx&#x20;&#x20;" repeated, 4.4 ms a search at 64 KiB). Its
    plain twin is the search."""
    collapsed = None
    for _, seen, first, lasts in _LAST_HINTS:
        if first < len(seen) and max(lasts) < 0 and seen.count(b"&") == lowered.count(b"&") \
                and seen.count(b"=") == lowered.count(b"="):  # (hints start at these: a check that fails at C speed)
            collapsed = _runs_of_others_one(lowered) if collapsed is None else collapsed
            if _runs_of_others_one(seen) == collapsed:
                return True
    return False


def _runs_of_others_one(lowered: bytes) -> bytes:
    """*lowered* with each run of "?" one "?" (a pass per halving of the longest run)."""
    while b"??" in lowered:
        lowered = lowered.replace(b"??", b"?")
    return lowered


def meta_starts(text: str, reads: Callable[[str], object], start: int = 0, end: int | None = None,
                hints: Hints | None = None, longest: int = LONGEST_TAG, shortcut: bool = True) -> Iterator[int]:
    """Offsets of each "<meta" start tag in ``text[start:end]`` whose attributes (TAG group 3)
    *reads* maps to something other than None, in order (a tag cut by the end of *text* is never
    emitted), and of more, unread: each whose tag does not end within *longest* characters while a
    ">" lies past them, and every "<meta" in those characters (so each character is read as part
    of a tag O(1) times, whatever the tags' lengths). Nothing after the last one can matter to a
    scan that only wants a tag *reads* names something in. Tags without a hint inside
    (:class:`Hints` of *text*, if the caller has them) are not read, and runs of them are skipped in
    one match. *shortcut* ``False``: the plain steps (see :func:`_meta_spans`)."""
    stop = len(text) if end is None else end
    for at, unread in _meta_spans(text, reads, start, stop, hints, longest, shortcut):
        yield at
        for match in META_CANDIDATE.finditer(text, at + 5, stop):
            if match.start() >= unread:
                break
            yield match.start()


def _meta_spans(text: str, reads: Callable[[str], object], start: int, stop: int, hints: Hints | None,
                longest: int, shortcut: bool = True) -> Iterator[tuple[int, int]]:
    """:func:`meta_starts` as ``(offset, unread)``: the candidates are *offset* and, where a long
    tag starts there, every "<meta" after it that starts before *unread* (else *unread* is 0).
    Shortcuts (their twin: *shortcut* ``False``): the long tags after one, up to the next ">", each
    yielded in a search (and a hint, where the last lies past that ">"): one 64 KiB tag, half the
    time; copies of a tag that names nothing with the text up to the next "<meta" skipped at once."""
    last_gt = text.rfind(">")  # a tag ends at a ">": none starting after the last one does
    if hints is None:
        hints = Hints(text)
    # META_CANDIDATE's search, in the hints' ascii_lowered bytes (the same offsets): led by its literal
    # "<meta" there, where IGNORECASE stops at each "<" (a page of stray "<": 130 µs at 64 KiB, 15 here).
    lowered_search, lowered, run = _META_LOWERED.search, hints.lowered, META_RUN.match

    def search(_: str, begin: int, end: int) -> re.Match[bytes] | None:
        return lowered_search(lowered, begin, end)
    same = ""  # the last tag read as naming nothing, without "<" inside: copies of it are skipped
    # Places here (below) that were tags read as naming nothing, since any other reading, each with
    # how far past it the reading looked (a tag with "<meta" inside may end past the next "<meta").
    read: list[tuple[int, int]] = []
    position = start
    readings = 0  # tags read that hold a hint and name nothing
    word = -1
    hinted = -1  # the candidate from which the last turn's run reached the hint (-1: it did not)
    # Where the last copies but for their numbers skipped end, less their last window at most (the
    # copies in it are read one by one: _numbered_end would find no more there, nor is it asked).
    numbered = -1
    tries = _NUMBERED_TRIES  # copies of *same* after which copies but for their numbers are looked for, at most
    while (match := search(text, position, stop)) is not None:
        previous, hinted = hinted, -1
        hint = found = hints.after(match.start())
        if hint < 0:
            return  # no tag from here on names an encoding
        if shortcut and readings >= _READINGS_BEFORE_WORDS:
            # Shortcut: where tags hold hints but name nothing, tags that end before the next place
            # "charset" may be written name nothing either (Hints.word_after): a bound like a hint.
            word = hints.word_after(match.start())
            if word < 0:
                return
            hint = max(hint, word)
        # Text and meta tags that end before the hint (so name nothing), in one match; it stops
        # at the hint or at a "<meta" it does not read whole before it. Copies of what it reads up
        # to the next "<meta" first, where it reads that whole: each is read alike, O(log n) steps.
        at = match.start()
        after = search(text, at + 5, hint)
        if after is not None:
            unit = text[at:after.start()]
            if text.startswith(unit, after.start()) and run(text, at, after.start()).end() == after.start():  # type: ignore[union-attr]
                at = copies_end(text, at, unit, hint)
        at = run(text, at, hint).end()  # type: ignore[union-attr]  # starred: never None
        if at == hint:
            position, at = at, match.start()
            if shortcut and -1 < previous < at and text.startswith(unit := text[previous:at], at):
                # Shortcut: copies of the text from the last candidate to this one, whose tag held
                # no hint (it ended before the hint): nor does its copy in each copy but the last
                # few (a hint is its text's, _HINT_LENGTH characters at most), each a candidate
                # that names nothing; to the first of those.
                size = len(unit)
                copies = (copies_end(text, at, unit, stop) - at) // size - _HINT_LENGTH // size - 2
                if copies > 0:
                    position = at + copies * size
                    continue
            elif shortcut and -1 < previous < at and (skip := _numbered_hinted_end(text, previous, at, stop, longest)) > at:
                position = skip  # (the same, copies but for their numbers)
                continue
            hinted = at
            continue
        if at >= stop or at > last_gt:
            return
        if shortcut:
            # Shortcut: copies of the text since one of the last _UNIT_TAGS places here that were
            # tags read as naming nothing, each read alike (the steps between read the text and
            # the hints alone, whose places repeat with it, but in the last copy and those whose
            # readings look past the copies): to the first of those.
            for index in range(len(read) - 1, -1, -1):
                begun = read[index][0]
                unit = text[begun:at]
                if text.startswith(unit, at):
                    reach = max(place + ahead for place, ahead in read[index:]) - begun  # (from the unit's start)
                    last = copies_end(text, at, unit, stop) - max(len(unit), reach)
                    at = max(at, at + (last - at) // len(unit) * len(unit))
                    break
            del read[:-_UNIT_TAGS]
        if same and text.startswith(same, at):
            position = copies_end(text, at, same, len(text))  # a run of copies: no regex, no reading
            advanced = False
            if shortcut and (after := search(text, position, stop)) is not None and text.startswith(same, after.start()):
                # Shortcut: more copies of it, each after text that holds no "<meta" (numbered text
                # between them, say: no copies of a unit), in one match; each is read alike. (Its
                # pattern only where the next candidate is one: no compile per distinct tag.)
                between = _copies_between(same).match(text, position)
                if between.end() > position:  # type: ignore[union-attr]  # starred: never None
                    at, position, advanced = between.end() - len(same), between.end(), True  # type: ignore[union-attr]
            last = position - len(same)  # (the last copy)
            if shortcut and not advanced and after is not None and last >= numbered and tries:
                # Shortcut: copies but for their numbers of the text from its last copy up to a later
                # candidate (other tags between copies of it), as after a tag read first
                # (_numbered_end); a few tries a scan where there are none.
                skip = _numbered_end(text, last, TAG.match(text, last, last + longest), after.start(), stop, hints,  # type: ignore[arg-type]
                                     found, word, longest, reads)
                if skip > after.start():
                    read.clear()
                    position, numbered = skip, skip + longest
                    continue
                tries -= 1
            read.append((at, len(same)))
            continue
        # Read where it ends within the window, as on the whole text (no ">" there: it does not).
        tag = None if text.find(">", at, at + longest) < 0 else TAG.match(text, at, at + longest)
        position = at + 5
        if tag is None:
            read.clear()
            if last_gt >= at + longest:  # a long tag (or none, a quote left open): unread
                yield at, at + longest
                position = at + longest
                # Shortcut: a "<meta" with no ">" from it to the first past this window, nor in its
                # own, whose hint lies before that ">", is one too (the run reads no tag before its
                # hint, no copy of *same* starts there): yielded without those steps.
                gt, last = text.find(">", position), hints.last
                while shortcut and (match := search(text, position, stop)) is not None:
                    after_long = match.start()
                    if after_long + longest > gt:
                        break
                    if after_long > last:
                        return  # no hint after it
                    if last > gt and hints.after(after_long) > gt:
                        break
                    yield after_long, after_long + longest
                    position = after_long + longest
        elif tag.end() > hint and (readings := readings + 1) and reads(tag.group(3)) is not None:
            read.clear()
            yield at, 0
        elif "<" not in tag.group(3):  # no "<meta" inside it: nothing to look at before its end
            same = tag.group()
            position = tag.end()
            # Shortcut: copies of the tag with what follows it up to the next "<meta", each read
            # alike, in O(log n) steps; the text after the last copy's tag is searched again.
            if shortcut and (after := search(text, position, stop)) is not None:
                unit = text[at:after.start()]
                position = copies_end(text, at, unit, len(text)) - len(unit) + len(same)
                if position == tag.end() and at >= numbered:  # (no copy: copies but for their numbers, as below)
                    skip = _numbered_end(text, at, tag, after.start(), stop, hints, found, word, longest, reads)
                    if skip > after.start():
                        read.clear()
                        position, numbered = skip, skip + longest
                        continue
            read.append((at, len(same)))
        elif shortcut and (after := search(text, at + 5, stop)) is not None:
            read.append((at, tag.end() - at))
            # Shortcut: a tag with "<meta" inside that names nothing (no hint inside, or read so),
            # where the text from it up to the next "<meta" repeats: each copy whose window
            # (*longest* characters) lies within the copies is read alike, in O(log n) steps.
            unit = text[at:after.start()]
            alike = (copies_end(text, at, unit, len(text)) - at - longest) // len(unit)  # (after the first)
            position = at + (alike + 1) * len(unit) if alike > 0 else at + 5
            skip = at if alike > 0 or at < numbered else _numbered_end(text, at, tag, after.start(), stop, hints, found,
                                                                         word, longest, reads)
            if skip > after.start():
                read.clear()
                position, numbered = skip, skip + longest


def _numbered_end(text: str, at: int, tag: re.Match[str], after: int, stop: int, hints: Hints, found: int, word: int,
                  longest: int, reads: Callable[[str], object]) -> int:
    """:func:`_meta_spans`' shortcut for the tag *tag* at *at* read as naming nothing, the next
    candidate at *after* (*found*: :meth:`Hints.after` there; *word*: :meth:`Hints.word_after`,
    or -1): where copies of the text from *at* up to a later candidate (the next one, or up to
    :data:`_NUMBERED_TAGS` on: the first whose text comes again, NUMBERED_LONGEST characters at
    most, as the next copy's) but for its numbers end (runs of
    digits, which are no markup: each copy's tags read alike, to the same places, and no longer
    than the window where each run may be 7 digits longer), each copy's tags within the
    copies; and before the next hint (a tag that ends before it names nothing), or anywhere
    where no digits can make its tags name anything (:func:`.tokenizer.names_nothing_whatever_digits`,
    or a tag without digits that *reads* as naming nothing: the same in each copy). Else *at*:
    none. (Its pattern only where the next unit is one of them: no compile per distinct unit.)"""
    starts = [at, after]  # candidates from *at* on
    for size in range(1, _NUMBERED_TAGS + 1):
        if starts[size] - at > NUMBERED_LONGEST:
            return at  # (no pattern of so long a unit, nor of the longer ones: see there)
        while len(starts) <= 2 * size:
            candidate = META_CANDIDATE.search(text, starts[-1] + 5, stop)
            if candidate is None:
                return at
            starts.append(candidate.start())
        if starts[2 * size] - starts[size] <= NUMBERED_LONGEST and (
                form := DIGITS.sub("0", text[at:starts[size]])) == DIGITS.sub("0", text[starts[size]:starts[2 * size]]):
            break
    else:
        return at
    numbered = _numbered_copies(form)
    tags = [tag, *(None if text.find(">", start, start + longest) < 0 else TAG.match(text, start, start + longest)
                   for start in starts[1:size])]
    if numbered is None or any(each is None or each.end() - start + 7 * len(DIGITS.findall(each.group())) >= longest
                               for each, start in zip(tags, starts)):
        return at
    if all(names_nothing_whatever_digits(each.group(3)) or DIGITS.search(each.group()) is None  # type: ignore[union-attr]
           and reads(each.group(3)) is None for each in tags):  # type: ignore[union-attr]
        reach = len(text)
    else:
        reach = hints.next_hint(found)  # (where *found* is a bound: no hint before the next one)
        reach = max(len(text) if reach < 0 else reach, word)
    # Each copy's tags end within the copies: where a copy's tags end at most (each run up to 7 digits
    # longer), not a whole window (a tag that ends within its window is read alike in any longer one).
    ends = max(each.end() for each in tags)  # type: ignore[union-attr]
    bound = numbered_run_end(numbered, text, at, reach) - (ends - at + 7 * len(DIGITS.findall(text, at, ends)))
    return numbered_run_end(numbered, text, at, bound) if bound > at else at


def _numbered_hinted_end(text: str, previous: int, at: int, stop: int, longest: int) -> int:
    """:func:`_meta_spans`' shortcut for copies but for their numbers of the text from candidate
    *previous*, whose run reached the hint (its tag named nothing), to the next candidate *at*:
    the start of the last few copies (so many that a hint, _HINT_LENGTH characters at most, and
    copies 8 digits longer a run fit past it), where that tag holds no digits or names nothing
    whatever its digits (:func:`.tokenizer.names_nothing_whatever_digits`) and stays within the
    window with 7 more a run: each copy's tag is then read alike, a candidate that names nothing
    (the numbers elsewhere, text or comments, are no tag's); units of NUMBERED_LONGEST characters
    at most. Else *at*."""
    if at - previous > NUMBERED_LONGEST:
        return at
    unit = text[previous:at]
    if not same_before_digits(text, unit, at):
        return at
    tag = TAG.match(text, previous, at)
    if tag is None:
        return at
    runs = len(DIGITS.findall(tag.group()))
    if runs and (tag.end() - previous + 7 * runs >= longest or not names_nothing_whatever_digits(tag.group(3))):
        return at
    numbered = _numbered_copies(DIGITS.sub("0", unit))
    if numbered is None:
        return at
    bound = numbered_run_end(numbered, text, at, stop) - _HINT_LENGTH - 2 * (len(unit) + 8 * len(DIGITS.findall(unit)))
    return numbered_run_end(numbered, text, at, bound) if bound > at else at


#: Candidates a unit of :func:`_numbered_end`'s copies holds at most.
_NUMBERED_TAGS = 4
#: Copies of the last tag read as naming nothing after which :func:`_meta_spans` looks for copies but
#: for their numbers and finds none, at most (each look about 20 µs).
_NUMBERED_TRIES = 8
#: Tags holding a hint that :func:`_meta_spans` reads as naming nothing before it looks where
#: "charset" may be written (a page's few such tags: no search to its end).
_READINGS_BEFORE_WORDS = 8
#: Tags read as naming nothing that a unit of copies in :func:`_meta_spans` spans at most.
_UNIT_TAGS = 8
_NO_META = r"[^<]*+(?:<(?!(?i:meta)[\t\n\x0c\r />])[^<]*+)*+"  # text in which no META_CANDIDATE starts


@lru_cache(maxsize=8)
def _copies_between(tag: str) -> re.Pattern[str]:
    """Copies of *tag*, each after text in which no "<meta" starts (:func:`_meta_spans`)."""
    return re.compile(with_possessives(f"(?:{_NO_META}{re.escape(tag)})*+"), re.ASCII)


def _numbered_copies(unit: str) -> str | None:
    """The pattern of one copy of *unit* (its runs of digits written "0") with runs of 1 to 8
    digits for those, whose copies :func:`.tokenizer.numbered_run_end` reads (:func:`_meta_spans`),
    or ``None``: it has none, or is longer than NUMBERED_LONGEST."""
    parts = tuple(DIGITS.split(unit))
    if len(parts) == 1 or len(unit) > NUMBERED_LONGEST:
        return None
    return skeleton(parts)


#: Candidates :func:`last_meta_start` reads from the end before it reads from the start instead
#: (a tag read costs one more per 128 characters).
_FROM_THE_END = 32


def last_meta_start(text: str, reads: Callable[[str], object], end: int | None = None,
                    hints: Hints | None = None, longest: int = LONGEST_TAG, shortcut: bool = True) -> int:
    """An offset of a "<meta" after which no tag that *reads* names something starts before *end*
    (-1: none does): the last of :func:`meta_starts`' candidates where every tag is read within
    *longest* characters, else maybe a later long tag's. Searched from the end, from the last
    hint (see :class:`Hints`) back; after :data:`_FROM_THE_END` candidates that name nothing, with
    :func:`meta_starts`' reading (runs skipped in one match) from the start (*shortcut*: see
    :func:`_meta_spans`)."""
    last_gt = text.rfind(">")
    if hints is None:
        hints = Hints(text)
    high = min(len(text) if end is None else end, hints.last)
    size = 1024  # characters searched at a time, doubling
    budget = _FROM_THE_END
    while high > 0:
        low = max(0, high - size)
        starts = [match.start() for match in META_CANDIDATE.finditer(text, low, min(len(text), high + 5))]
        for at in reversed(starts):
            if at >= high:
                continue
            budget -= 1
            if budget < 0:
                # Every candidate that starts before high (a search needs its six characters: one
                # that starts within five of high, the one here say, was missed).
                last, unread = -1, 0
                for last, unread in _meta_spans(text, reads, 0, min(len(text), high + 5), hints, longest, shortcut):
                    pass
                bound = min(unread, high)
                inside = [match.start() for match in META_CANDIDATE.finditer(text, last + 5, min(len(text), bound + 5))
                          if match.start() < bound]
                return inside[-1] if inside else last
            tag = None if text.find(">", at, at + longest) < 0 else TAG.match(text, at, at + longest)
            if tag is None:
                if last_gt >= at + longest:
                    return at  # a long tag: unread, as meta_starts emits it
                continue
            if reads(tag.group(3)) is not None:
                return at
            budget -= (tag.end() - at) // 128  # long tags read from the end cost more of it
            same = tag.group()
            size_same = len(same)
            if "<" not in tag.group(3) and at >= size_same and text.startswith(same, at - size_same):
                # Copies of a tag that names nothing, without "<meta" inside: skip them all
                # (never a negative start: startswith would count it from the end).
                while at >= size_same and text.startswith(same, at - size_same):
                    at -= size_same
                high = at
                break
        else:
            high = low
            size *= 2
    return -1


@contextmanager
def collection_paused() -> Iterator[None]:
    """CPython's cyclic garbage collector paused (where it runs) for a scan with the tree builder:
    a flood of open elements keeps tens of thousands of objects alive, and the collector's passes
    over them cost up to a tenth of the scan (64 KiB of ``<math><mtext><desc><math><mtext><font>``
    units, Firefox's model: 76-84 ms, 69-72 ms paused; more in a process holding more objects).
    Objects are still freed by their counts; cycles wait for the collector's next pass."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def scan_parser_meta(text: str, limit: int, head: int | None = PARSER_HEAD) -> tuple[Encoding, str, int, int] | None:
    """Like :func:`find_parser_meta`, plus the offset just past the ``meta`` tag's ">"."""
    with collection_paused():
        return _scan_parser_meta(text, limit, head)


def _scan_parser_meta(text: str, limit: int, head: int | None) -> tuple[Encoding, str, int, int] | None:
    """:func:`scan_parser_meta`'s steps."""
    if limit < len(text):
        text = text[:max(limit, 0)]
    hints = Hints(text)  # (one for the three scans: each searches the text once)
    first, unread = next(_meta_spans(text, _meta_reading, 0, len(text), hints, LONGEST_TAG), (-1, 0))
    if first < 0:
        return None
    if not unread:
        # Most pages: the first candidate is the meta. Scanning only up to it reads what a scan up
        # to the last candidate would read before it, so a meta found there is the answer. (A
        # long tag, unread, is seldom one: the scan to the last reads it.)
        # Shortcut: where that scan ended as the tree builder left the head (before the first
        # candidate), a scan up to the last ends there too.
        found, left = _scan(text, first, hints, head)
        if found is not None or left:
            return found
    last = last_meta_start(text, _meta_reading, hints=hints)
    return None if last == first and not unread else _scan(text, last, hints, head)[0]


def _scan(text: str, cutoff: int, hints: Hints, head: int | None) -> tuple[tuple[Encoding, str, int, int] | None, bool]:
    """The scan itself, given that no meta start tag that could name an encoding starts after
    *cutoff*; past *head*, it ends where the tree builder leaves the head. (Meta tags that name
    nothing are not yielded: copies of them are skipped.) With what it found, whether it ended
    as the tree builder left the head (see :func:`tree_builder_metas`)."""
    metas = tree_builder_metas(text, cutoff, stop_at=head, alive=HEAD_MODES, modes=False, hints=hints,
                               unread=_reads_nothing)
    while True:
        try:
            lt, end, span, _ = next(metas)
        except StopIteration as ended:
            return None, ended.value is True
        found = _meta_reading(span)
        if found is not None:
            return (found[0], found[1], lt, end), False


def _state(tree: TreeBuilder) -> tuple:
    """All the tree builder's state that a start tag of an element of text can change (its
    outline too: a pop from a run of copies leaves the same objects on the stack, one fewer deep)."""
    return (tree.outline(), tuple(tree.stack), tuple(tree.afe), tuple(tree.template_modes), tree.head, tree.form)


class _Copies:
    """Copies of a unit of tokens that leave the tree builder as they found it, skipped whole.

    Every few turns of the loop (more after a try that skipped nothing: see :data:`_GAPS`) it
    looks whether the text of the last one to sixteen turns (_UNIT_TURNS) comes again right after them (the
    unit: it starts and ends in the data state, between tokens), or comes again but for its runs of
    digits where each is free (:func:`.tokenizer.numbered_unit`: character data but a reference,
    whatever its digits and length, or no markup that matters); if so, it watches the next copies as the loop
    processes them, and once the state after a copy has the shape (:meth:`.TreeBuilder.shape`) it
    had one or two copies before, with no meta emitted in between, the copies left (pairs of them
    for a cycle of two) are skipped in O(log n) steps (``copies_end``), or in one match where
    numbered: each would take the state round the same cycle. A unit that ends with a "<" (a
    character token only because of what follows it) keeps its last copy for the loop."""

    __slots__ = ("boundary", "emitted", "gap", "history", "one", "text", "unit")

    def __init__(self, text: str) -> None:
        self.text = text
        self.unit = ""  # the unit watched ("" none), whose next copy ends at boundary
        self.one: re.Pattern[str] | None = None  # one copy of a numbered unit (None: the unit's text)
        self.boundary = -1
        self.emitted = 0
        self.gap = _GAPS[0]
        self.history: list[tuple[tuple, tuple | None, int]] = []  # (outline, shape, offset) after each copy watched

    def visit(self, tree: TreeBuilder, pos: int, starts: Collection[int], emitted: int, end: int,
              stop_at: int | None = None) -> tuple[int, int]:
        """At the end of a turn of the loop (*pos*; *starts*: where the last turns began, the
        latest first): the offset to go on from (at most *end*), and the turns to wait before the
        next visit. With *stop_at* (the scan's, see :func:`tree_builder_metas`), copies are skipped
        past it only where the copies watched lie past it: the loop met each of their "<"s in the
        insertion mode the copies skipped would meet it in."""
        text, unit = self.text, self.unit
        if not unit:
            tried = False  # (one numbered unit a visit, the shortest)
            for start in starts:
                if not -1 < start < pos:
                    continue
                unit, one = text[start:pos], None
                if text.startswith(unit, pos):
                    boundary = 2 * pos - start
                else:
                    if tried or len(unit) > NUMBERED_LONGEST or not same_before_digits(text, unit, pos):
                        continue
                    tried, copy = True, numbered_copy(text, unit, pos, tree_names_nothing_whatever_digits)
                    if copy is None:
                        continue
                    one, boundary = copy.re, copy.end()
                self.unit, self.one, self.boundary, self.emitted = unit, one, boundary, emitted
                self.history = [(tree.outline(), None, pos)]
                return pos, 1
            return pos, self.gap
        if pos < self.boundary:
            return pos, 1
        history, one = self.history, self.one
        if pos == self.boundary and emitted == self.emitted and len(history) < _WATCHED:
            outline = tree.outline()
            shape = None
            for period in (1, 2):
                if len(history) >= period and history[-period][0] == outline:
                    shape = tree.shape() if shape is None else shape
                    if history[-period][1] == shape:
                        wait = _GAPS[0]
                        if stop_at is not None and history[-period][2] < stop_at:
                            end = min(end, stop_at)
                            wait = 2  # (past it, the copies may go on: looked for again two turns on)
                        if one is None:
                            block = unit * period
                            stop = copies_end(text, pos, block, end)
                            if stop > pos and not unit.endswith(">"):
                                stop -= len(block)  # its last "<" may open a tag: the loop reads it
                        else:  # (a numbered unit ends with ">")
                            stop = numbered_run_end(one.pattern, text, pos, end, period)  # type: ignore[union-attr]
                        self.unit, self.gap = "", _GAPS[0]
                        return stop, wait
            history.append((outline, shape, pos))
            if one is None and text.startswith(unit, pos):
                self.boundary = pos + len(unit)
                return pos, 1
            copy = None if one is None else one.match(text, pos)
            if copy is not None:
                self.boundary = copy.end()
                return pos, 1
        self.unit, self.gap = "", min(2 * self.gap, _GAPS[1])  # nothing skipped: wait longer
        return pos, self.gap


#: Turns of the loop between looks for copies: at first, and at most after tries that skipped none.
_GAPS = (8, 256)
#: Turns a unit of copies spans at most (the last ones are looked at, the shortest unit first).
_UNIT_TURNS = 16
#: Copies watched at most before the watch is given up.
_WATCHED = 8


# Runs of elements of text of one name, without and with whitespace between them (one match each).
_TEXT_RUNS = {name: (re.compile(f"(?:{text_element(name, '')})*", re.ASCII),
                     re.compile(f"(?:[\\t\\n\\x0c\\r ]*{text_element(name, '')})*", re.ASCII))
              for name in ("script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript")}
# Insertion modes in which whitespace character tokens change no state (inserted or ignored).
_WHITESPACE_INERT = frozenset(("initial", "before html", "before head", "in head", "in head noscript", "after head"))


def _void_head_run(names: str, noscript: str = "", texts: str = "") -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A run of whitespace, comments (bogus ones and DOCTYPEs too: :data:`_QUIET_HEAD_ITEMS`) and
    start tags named one of *names* ("|"-separated), as
    TAG reads them (attributes and all, self-closing or not), of whole elements of text named
    one of *texts* (:func:`.tokenizer.text_element`), and with *noscript*, of noscript
    elements holding such a run of start tags named one of *noscript*: one match. ``(one item,
    the run)``, for :func:`.tokenizer.run_end`."""
    def tag(names: str, key: str, end: bool = False) -> str:
        return rf"<{'/' if end else ''}(?i:{names})(?=[\t\n\x0c\r />])" + attributes_pattern(key) + r"[\t\n\x0c\r /]*+>"
    items = rf"{_QUIET_HEAD_ITEMS}|{tag(names, 'v')}" + (f"|{text_element(texts, 't')}" if texts else "")
    if noscript:
        # (whitespace a character at a time: each place read one way, where Python 3.10 has no
        # possessive repeat and an element left open backtracks)
        items += rf"|{tag('noscript', 'w')}(?:[\t\n\x0c\r ]|{COMMENT}|{tag(noscript, 'x')})*+{tag('noscript', 'y', True)}"
    one, run = re.compile(with_possessives(rf"(?:{items})"), re.ASCII), re.compile(with_possessives(rf"(?:{items})*+"), re.ASCII)
    if texts:  # (run_end drops the elements of text left open: see without_unclosed)
        register_text_elements(one, run, texts.split("|"), lambda closed: _void_head_run(
            names, noscript, "|".join(name for name in texts.split("|") if name in closed)))
    return one, run


# Void head elements in the insertion modes where each is inserted and popped at once ("in
# head", §13.2.6.4.4: base, basefont, bgsound, link, meta; "in head noscript", §13.2.6.4.5, the
# same but base, which ends the noscript), where whitespace and comments are inserted (DOCTYPEs
# ignored): a run of them changes no state (in these modes the current node is an HTML element:
# head, noscript).
# So do the elements of text these modes insert with the "in head" rules (title: RCDATA; style,
# noframes and, with the scripting flag enabled, noscript: RAWTEXT; script: script data): each
# start tag pushes one and enters "text", its end tag pops it and returns. With the scripting
# flag disabled, "in head", noscript elements that hold such a run of void elements too (the
# start tag pushes one and enters "in head noscript", the end tag pops it and leaves). Each
# (mode, scripting flag)'s run without meta tags, and with them (where none holds a hint: see
# _head_run_end).
_HEAD_VOIDS, _NOSCRIPT_VOIDS = "basefont|base|bgsound|link", "basefont|bgsound|link"
_HEAD_TEXTS, _NOSCRIPT_TEXTS = "title|style|noframes|script", "style|noframes"
_VOID_HEAD_RUNS = {
    ("in head", True): (_void_head_run(_HEAD_VOIDS, texts=_HEAD_TEXTS + "|noscript"),
                        _void_head_run(_HEAD_VOIDS + "|meta", texts=_HEAD_TEXTS + "|noscript")),
    ("in head", False): (_void_head_run(_HEAD_VOIDS, _NOSCRIPT_VOIDS, _HEAD_TEXTS),
                         _void_head_run(_HEAD_VOIDS + "|meta", _NOSCRIPT_VOIDS + "|meta", _HEAD_TEXTS)),
    ("in head noscript", False): (_void_head_run(_NOSCRIPT_VOIDS, texts=_NOSCRIPT_TEXTS),
                                  _void_head_run(_NOSCRIPT_VOIDS + "|meta", texts=_NOSCRIPT_TEXTS)),
}


# The characters an item of the void head runs starts with (whitespace, "<"): elsewhere none matches.
_VOID_RUN_STARTS = frozenset("\t\n\x0c\r <")


def _head_run_end(text: str, pos: int, runs: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...], end: int,
                  hints: Hints | None) -> int:
    """The end of the run of void head elements at *pos* (*runs*: :data:`_VOID_HEAD_RUNS`' for
    the insertion mode and scripting flag), not past *end*: with *hints*, meta tags before the
    next hint too (they name no encoding in any reader), each else left to the loop (it yields it).
    Copies of an element are skipped at once (:func:`.tokenizer.run_end`)."""
    if text[pos:pos + 1] not in _VOID_RUN_STARTS:
        return pos  # shortcut: no item starts there (its twin, the runs, which try each)
    if hints is not None:
        hint = hints.after(pos)
        pos = run_end(*runs[1], text, pos, end if hint < 0 else min(end, hint))
        if text.startswith(("<m", "<M"), pos):
            return pos  # shortcut: a meta tag with a hint, which the runs without meta tags do not start with
    return run_end(*runs[0], text, pos, end)


def tree_builder_metas(text: str, cutoff: int | None = None, scripting: bool = True, stop_at: int | None = None,
                       alive: Collection[str] = (), modes: bool = True,
                       hints: Hints | None = None, skip_copies: bool = True,
                       unread: Callable[[str], bool] | None = None) -> Generator[tuple[int, int, str, str | None], None, bool | None]:
    """Each ``meta`` start tag that the tree builder (scripting flag *scripting*) processes with
    the "in head" rules, in order: ``(offset of "<", offset after ">", attribute span, insertion
    mode before it)``. The tokenizer states follow the tree builder: comments, RCDATA, RAWTEXT,
    script data, PLAINTEXT and CDATA sections hide what looks like a tag.

    *cutoff*: the caller wants nothing starting after that offset (the scan ends at a "<" past
    it). *stop_at*: it also ends at the first "<" from that offset on met (after the characters
    before it) in an insertion mode not in *alive*. *modes* ``False``: the caller needs no
    insertion mode (``None`` is given). With *hints* (:class:`Hints` of *text*), meta tags that
    hold no hint within a run of void head elements "in head" or "in head noscript" are not
    yielded (so name no encoding, in any mode). With *unread*, meta tags whose attribute span it
    says true of (a reader for which they name nothing) are not yielded but in template contents:
    a unit of tokens with them leaves no meta emitted, so its copies are skipped too.
    *skip_copies* ``False``: no copies of a unit of
    tokens are skipped (:class:`_Copies`, ``push_unit_copies``), no run of head elements
    (whitespace, comments; in "initial", bogus comments too), of foreign elements
    (:data:`_FOREIGN_PUSHES`), or of characters and
    comments (after a stray "<", or where the tree builder's state is one characters leave as it
    is, :meth:`.TreeBuilder.characters_inert`) is taken in one match: the plain twin that the
    tests hold those against. Its return value (StopIteration's) is ``True`` where it ended at
    *stop_at* or past it, out of the modes in *alive* (a scan with a later *cutoff* ends there
    too), else ``None``."""
    end_at = len(text) if cutoff is None else cutoff
    # Runs of void head elements end at the cutoff; "in head", scripting disabled, they hold
    # whole noscript elements, inside which the mode is "in head noscript": where that mode is
    # not alive, they end at the stop too (the loop stops at a "<" past it there).
    runs_end = end_at if stop_at is None or "in head noscript" in alive else min(end_at, stop_at)
    lowered = None if hints is None else hints.lowered  # (else made where a foreign run needs it)
    tree = TreeBuilder(scripting=scripting)
    find, tag_at = text.find, tag_reader()
    n = len(text)
    pos = 0
    copies = _Copies(text)
    emitted = turns = 0
    next_visit = _GAPS[0] if skip_copies else n + 1  # (each turn moves on: never reached)
    begun: list[int] = []  # where the turns of the loop began
    foreign_from = 0  # (no run of foreign content is tried again before it)
    while True:
        turns += 1
        if turns >= next_visit:
            pos, wait = copies.visit(tree, pos, begun[:-_UNIT_TURNS - 1:-1], emitted, end_at, stop_at)
            next_visit = turns + wait
        begun.append(pos)
        # (Runs up to where the scan ends at the next "<": the cutoff, or *stop_at* out of the
        # modes it stops in.)
        limit = end_at if stop_at is None or tree.mode in alive else max(pos, min(end_at, stop_at))
        if skip_copies and tree.characters_inert():  # nor do comments ever: a run of them in one match
            # (with the end tags that change no state either, where all but a few do)
            kept = tree.end_tags_ignored()
            stop = run_end(*_quiet_end_tags(kept), text, pos, limit)
            # (a "<" just before the limit may open a tag, which the loop reads)
            pos = stop - 1 if stop == limit and stop > pos and text[stop - 1] == "<" else stop
        elif skip_copies and tree.mode in _HEAD_END_TAGS_KEPT:  # (no "<" taken alone: no cut tag)
            pos = run_end(*_quiet_end_tags(_HEAD_END_TAGS_KEPT[tree.mode], _QUIET_HEAD_ITEMS), text, pos, limit)
        elif skip_copies and tree.mode == "initial":
            pos = run_end(*_QUIET_INITIAL, text, pos, limit)
        lt = find("<", pos)
        if lt < 0 or lt > end_at:
            return None  # no meta that could name an encoding is left
        if lt > pos and (tree.frameset_ok or tree.afe or tree.mode != "in body") and tree.text_matters():
            tree.characters(*classify_text(text, pos, lt))
        if stop_at is not None and lt >= stop_at and tree.mode not in alive:
            return True  # (the characters before it taken: the mode its token meets)
        c = text[lt + 1:lt + 2]
        if c in _ALPHA or (c == "/" and text[lt + 2:lt + 3] in _ALPHA):
            tag = tag_at(text, lt)
            if tag is None:
                return None  # end of input inside a tag: never emitted
            pos, slash, name, span, tail = tag
            name = name.lower() if name.isascii() and "\x00" not in name else tag_name(name)  # NUL: U+FFFD
            before = None
            if slash:
                tree.end_tag(name)
                if skip_copies and (tree.mode, scripting) in _VOID_HEAD_RUNS:  # ("</noscript>", say)
                    pos = _head_run_end(text, pos, _VOID_HEAD_RUNS[tree.mode, scripting], max(pos, runs_end), hints)
                continue
            else:
                if skip_copies and lt >= foreign_from and tree.pushes_foreign():
                    if lowered is None:
                        lowered = kept_lowered(text)
                    jump, foreign_from = _foreign_run(tree, text, lowered, lt, end_at)
                    if jump > lt:
                        pos = jump
                        continue
                mode = tree.mode
                if name in _TEXT_RUNS and not tree.pushes_foreign():  # (else an element of no text)
                    before = _state(tree)
                action = tree.start_tag(name, span, tail.endswith("/"))
                if action is None and skip_copies and (tree.mode, scripting) in _VOID_HEAD_RUNS:
                    # The void head elements (whitespace, comments) right after it: one match, up
                    # to runs_end (the mode is the same all along the run but inside noscript
                    # elements: past a stop, the loop stops at the "<" after it as at the first).
                    pos = _head_run_end(text, pos, _VOID_HEAD_RUNS[tree.mode, scripting], max(pos, runs_end), hints)
                    continue
                if action is None:
                    # Copies of start tags that only push elements: at once (one entry of the
                    # stack, a run: cheaper than the tokenizer states' scan past them too).
                    if skip_copies:
                        pos = push_unit_copies(tree, text, pos, (lt, *begun[-1:-5:-1]),
                                               end_at if stop_at is None else min(end_at, stop_at))
                    continue
            if action == META:
                if unread is None or mode == "in template" or not unread(span):
                    emitted += 1
                    yield lt, pos, span, (mode if modes else None)
                if skip_copies and (tree.mode, scripting) in _VOID_HEAD_RUNS:  # (as after a link)
                    pos = _head_run_end(text, pos, _VOID_HEAD_RUNS[tree.mode, scripting], max(pos, runs_end), hints)
                    if unread is not None and tree_names_nothing_whatever_digits(span):
                        # Shortcut: copies of the run but for their numbers (void elements, and a
                        # meta tag that names nothing in them): no state changes, no meta to yield.
                        pos = max(pos, numbered_copies_past(text, ((lt, pos),), max(pos, runs_end), 1,
                                                            tree_names_nothing_whatever_digits))
                continue
            if action == RCDATA or action == RAWTEXT:
                end = raw_text_end(text, pos, name)
            elif action == SCRIPT:
                end = script_data_end(text, pos)
            else:  # PLAINTEXT, STOP (a frameset: no later meta is processed)
                return None
            if end < 0:
                return None
            tag = tag_at(text, end)  # the end tag, attributes and all; it closes "text"
            if tag is None:
                return None
            pos = tag[0]
            if skip_copies and (tree.mode, scripting) in _VOID_HEAD_RUNS:  # (as after a link)
                pos = _head_run_end(text, pos, _VOID_HEAD_RUNS[tree.mode, scripting], max(pos, runs_end), hints)
                continue
            if before is not None and before == _state(tree):
                # The element changed no state, so the same elements right after it change none
                # either (whitespace between them too where it is inert): one regex skips them.
                gaps = tree.mode in _WHITESPACE_INERT or not tree.text_matters()
                pos = copies_end(text, pos, text[lt:pos], end_at)  # copies first: O(log n) steps
                pos = max(pos, _TEXT_RUNS[name][gaps].match(text, pos, end_at).end())  # type: ignore[union-attr]
        elif c == "!":
            pos = markup_declaration(text, lt, tree, end_at)
            if pos < 0:
                return None
        elif c == "/" or c == "?":
            if text.startswith("/>", lt + 1):  # "</>": ignored
                pos = lt + 3
                continue
            if c == "/" and lt + 2 >= n:
                return None
            gt = find(">", lt + 2 if c == "/" else lt + 1)  # bogus comment
            if gt < 0:
                return None
            pos = gt + 1
        else:  # "<" as a character token, and the characters up to the next "<" that starts markup
            if skip_copies:
                # Copies of this "<" with the text after it first (in each, "<" is then followed
                # by what follows this one): O(log n) steps.
                after = find("<", lt + 1)
                pos = copies_end(text, lt, text[lt:after], n) if after > lt + 1 else lt + 1
                pos = _characters_end(text, pos, n)
            else:
                pos = lt + 1
            if tree.text_matters():
                # One run of character tokens (the tree builder takes a run whole); after its first
                # non-whitespace one, no insertion mode changes: the "<"s in it would meet that mode.
                tree.characters(*classify_text(text, lt, pos))


def find_parser_meta(text: str, limit: int, head: int | None = PARSER_HEAD) -> tuple[Encoding, str, int] | None:
    """The first ``meta`` start tag that the HTML tree builder (scripting flag enabled) would hand
    to "change the encoding" (HTML §13.2.3.4, §13.2.6.4.4), reading no more than the first *limit*
    characters of *text* (the document decoded with the tentative encoding; end of input there),
    and past the first *head* characters only while the tree builder is in the head: the scan
    ends at the first "<" from there on met in an insertion mode not in :data:`HEAD_MODES`
    (*head* ``None``: no such bound, for tests of the scan on long bodies).

    Returns ``(encoding, label, offset)``: the encoding from "get an encoding" (before the UTF-16
    and x-user-defined adjustments, which the caller applies), the label text (the ``charset``
    value or the label inside ``content``, after character references are decoded, without
    surrounding ASCII whitespace) and the character offset in *text* of the "<" that starts the
    tag; ``None`` if there is none. Never raises for ``str`` input."""
    found = scan_parser_meta(text, limit, head)
    return None if found is None else found[:3]
