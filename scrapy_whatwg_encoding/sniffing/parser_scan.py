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

Work is bounded: nothing after the last ``<meta`` that could name an encoding is looked at;
after the last ``<svg``/``<math``/``<template``/``<frameset``, with none of those elements open,
one regex skips everything but the start tags that switch tokenizer states; see MAX_DEPTH.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from ..encoding import Encoding, get_encoding
from ._html.elements import META, PLAINTEXT, RAWTEXT, RCDATA, SCRIPT
from ._html.tokenizer import (
    COMMENT_END,
    SKIP_UNINTERESTING,
    TAG,
    attributes,
    classify_text,
    meta_candidates,
    raw_text_end,
    script_data_end,
    tag_name,
)
from ._html.tree import TreeBuilder
from .meta_charset import extract_meta_charset

_WS = "\t\n\x0c\r "
_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _meta_encoding(span: str) -> tuple[Encoding, str] | None:
    """The "in head" rule for ``meta`` (§13.2.6.4.4): a ``charset`` attribute whose value gets an
    encoding; otherwise ``http-equiv`` = "Content-Type" (ASCII case-insensitive) with a ``content``
    from which the meta algorithm extracts one."""
    attrs = attributes(span)
    charset = attrs.get("charset")
    if charset is not None:
        encoding = get_encoding(charset)
        if encoding is not None:
            return encoding, charset.strip(_WS)
    http_equiv = attrs.get("http-equiv")
    if http_equiv is not None and tag_name(http_equiv) == "content-type" and "content" in attrs:
        return extract_meta_charset(attrs["content"])
    return None


# Start tags through which the tree builder can still change what is a meta: foreign content
# (no raw text elements, CDATA sections), template contents ("in column group" ignores meta),
# frameset (no meta is processed after it).
_TREE_NEEDED = re.compile(r"<(?:svg|math|template|frameset)[\t\n\x0c\r />]", re.ASCII | re.IGNORECASE)
# Bound on the stack of open elements and the list of active formatting elements: the standard's
# scope checks walk them, so adversarial nesting (thousands of unclosed elements) would cost time
# quadratic in the input. Past this depth the scan goes on with tokenizer states only, which is
# still exact when no foreign or template element is open and none of _TREE_NEEDED lies ahead.
MAX_DEPTH = 256
_TOKENIZER_ACTION = {"meta": META, "title": RCDATA, "textarea": RCDATA, "script": SCRIPT, "plaintext": PLAINTEXT}


def _markup_declaration(text: str, lt: int, foreign: bool, tree: TreeBuilder | None) -> int:
    """End of the comment, DOCTYPE, CDATA section or bogus comment that starts with "<!" at *lt*
    (§13.2.5.42 and on), or -1 at end of input."""
    if text.startswith("--", lt + 2):
        after = lt + 4
        if text.startswith(">", after):  # "<!-->"
            return after + 1
        if text.startswith("->", after):  # "<!--->"
            return after + 2
        match = COMMENT_END.search(text, after)
        return -1 if match is None else match.end()
    if tag_name(text[lt + 2:lt + 9]) == "doctype":
        gt = text.find(">", lt + 9)
        if tree is not None:
            tree.doctype(None if gt < 0 else text[lt + 9:gt])
        return -1 if gt < 0 else gt + 1
    if foreign and text.startswith("[CDATA[", lt + 2):
        end = text.find("]]>", lt + 9)
        if end < 0:
            return -1
        if end > lt + 9 and tree is not None:
            segment = text[lt + 9:end].replace("&", "x")  # no references in CDATA sections
            tree.characters(*classify_text(segment, 0, len(segment)))
        return end + 3
    gt = text.find(">", lt + 2)  # bogus comment
    return -1 if gt < 0 else gt + 1


def scan_parser_meta(text: str, limit: int) -> tuple[Encoding, str, int, int] | None:
    """Like :func:`find_parser_meta`, plus the offset just past the ``meta`` tag's ">"."""
    if limit < len(text):
        text = text[:max(limit, 0)]
    candidates = meta_candidates(text)
    first = next(candidates, -1)
    if first < 0:
        return None
    # Most pages: the first candidate is the meta. Scanning only up to it reads what a scan up to
    # the last candidate would read before it, so a meta found there is the answer.
    found = _scan(text, first)
    if found is not None:
        return found
    last = first
    for last in candidates:
        pass
    return None if last == first else _scan(text, last)


def _scan(text: str, cutoff: int) -> tuple[Encoding, str, int, int] | None:
    """The scan itself, given that no meta start tag that could name an encoding starts after
    *cutoff*: it returns None on reaching a "<" past it."""
    # Past the last of those start tags, once no foreign or template element is open, tokenizer
    # states alone decide: every meta start tag then reaches the "in head" rules.
    tree_until = -1
    for needed in _TREE_NEEDED.finditer(text, 0, cutoff):
        tree_until = needed.start()
    tree: TreeBuilder | None = TreeBuilder()
    find = text.find
    # A starred pattern: it matches (maybe empty) at every position, never None.
    skip = cast("Callable[[str, int], re.Match[str]]", SKIP_UNINTERESTING.match)  # (a string: not built per call)
    n = len(text)
    pos = 0
    while True:
        if tree is None:
            lt = skip(text, pos).end()
            if lt >= n or lt > cutoff:
                return None
        else:
            if pos > tree_until and tree.tokenizer_only():
                tree = None
                continue
            lt = find("<", pos)
            if lt < 0 or lt > cutoff:
                return None  # no meta that could name an encoding is left
            if lt > pos and (tree.frameset_ok or tree.afe or tree.mode != "in body") and tree.text_matters():
                tree.characters(*classify_text(text, pos, lt))
        c = text[lt + 1:lt + 2]
        if c in _ALPHA or (c == "/" and text[lt + 2:lt + 3] in _ALPHA):
            match = TAG.match(text, lt)
            if match is None:
                return None  # end of input inside a tag: never emitted
            pos = match.end()
            slash, name, span, tail = match.group(1, 2, 3, "tail")
            name = name.lower() if name.isascii() else tag_name(name)
            if tree is None:
                if slash:
                    continue
                action: int | None = _TOKENIZER_ACTION.get(name, RAWTEXT)
            elif slash:
                tree.end_tag(name)
                continue
            else:
                action = tree.start_tag(name, span, tail.endswith("/"))
                if action is None:
                    if len(tree.stack) > MAX_DEPTH or len(tree.afe) > MAX_DEPTH:
                        tree = None
                    continue
            if action == META:
                if span:
                    found = _meta_encoding(span)
                    if found is not None:
                        return found[0], found[1], lt, pos
                continue
            if action == RCDATA or action == RAWTEXT:
                end = raw_text_end(text, pos, name)
            elif action == SCRIPT:
                end = script_data_end(text, pos)
            else:  # PLAINTEXT, STOP (a frameset: no later meta is processed)
                return None
            if end < 0:
                return None
            match = TAG.match(text, end)  # the end tag, attributes and all; it closes "text"
            if match is None:
                return None
            pos = match.end()
        elif c == "!":
            pos = _markup_declaration(text, lt, tree is not None and tree.in_foreign(), tree)
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
        else:  # "<" as a character token
            if tree is not None and tree.text_matters():
                tree.characters(False, False, True)
            pos = lt + 1


def find_parser_meta(text: str, limit: int) -> tuple[Encoding, str, int] | None:
    """The first ``meta`` start tag that the HTML tree builder (scripting flag enabled) would hand
    to "change the encoding" (HTML §13.2.3.4, §13.2.6.4.4), reading no more than the first *limit*
    characters of *text* (the document decoded with the tentative encoding; end of input there).

    Returns ``(encoding, label, offset)``: the encoding from "get an encoding" (before the UTF-16
    and x-user-defined adjustments, which the caller applies), the label text (the ``charset``
    value or the label inside ``content``, after character references are decoded, without
    surrounding ASCII whitespace) and the character offset in *text* of the "<" that starts the
    tag; ``None`` if there is none. Never raises for ``str`` input."""
    found = scan_parser_meta(text, limit)
    return None if found is None else found[:3]
