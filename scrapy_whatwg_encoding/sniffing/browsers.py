"""What Chromium and Firefox do where they leave the HTML standard's sniffing algorithm: models
of each browser's ``<meta>`` scan, measured on generated documents (tools/differential).

Neither browser runs the standard's byte-level prescan (§13.2.3.2 step 5) nor hands every later
``<meta>`` to "change the encoding" (§13.2.3.4):

- Chromium (``HTMLMetaCharsetParser``) runs its tokenizer, with the tokenizer states that start
  tags switch to (``noscript`` content is markup), over the first 1024 bytes, and on past them as
  long as it has seen only tags that may stand in a ``head``. The first ``meta`` that names an
  encoding decides; nothing later does.
- Firefox runs its tree builder (scripting disabled) and honours the first ``meta`` that the "in
  head" rules process and that starts in the first 1024 bytes (so a ``meta`` in an SVG ``title``
  counts, one in an HTML ``title`` does not), or later, one processed in the "in head" or "in
  head noscript" insertion mode (none after any ``meta`` in template contents). It reads the
  first of duplicated attributes, a ``charset`` attribute alone when there is one, and stops
  reading ``content`` at a ``charset`` not followed by ``=``.

Firefox's model runs the parser step's loop (:func:`.parser_scan.tree_builder_metas`); Chromium's
has its own, simpler one (no tree builder). Both look no further than the last ``<meta>`` they
read as naming an encoding, and skip runs of what cannot hold one in one regex match.

These models serve the ``"browsers"`` profile (:mod:`.sniff`); each is tested against the
recorded answers of its browser (tests/data/browsers).
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from ..encoding import Encoding, get_encoding
from . import parser_scan
from ._html import charrefs
from ._html.tokenizer import (
    ATTRIBUTES,
    BOGUS_COMMENT,
    COMMENT,
    DIGITS,
    LONGEST_TAG,
    META_CANDIDATE,
    STRAY_LT,
    TEXT_WITH_STRAY_LT,
    attribute_value,
    attributes_pattern,
    comment_end,
    copies_end,
    first_attributes,
    last_meta_attributes,
    names_nothing_whatever_digits,
    numbered_copies_past,
    raw_text_end,
    register_text_elements,
    run_end,
    script_data_end,
    tag_name,
    tag_reader,
    text_element,
    without_unclosed,
)
from .parser_scan import (
    HEAD_MODES,
    Hints,
    collection_paused,
    last_hint,
    last_meta_start,
    tree_builder_metas,
)

_WS = "\t\n\x0c\r "
_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
#: Bytes scanned whatever the markup (both browsers).
UNCONDITIONAL = 1024
# Start tags that keep Chromium's scan "in the head section" (html and head only as start tags).
_CHROMIUM_HEAD = frozenset(("script", "noscript", "style", "link", "meta", "object", "title", "base"))
_RCDATA = frozenset(("title", "textarea"))
_TREE_STATES = frozenset(("svg", "math", "template", "frameset"))
_RAWTEXT = frozenset(("style", "xmp", "iframe", "noembed", "noframes"))


def attribute_list(span: str) -> list[tuple[str, str]]:
    """Every attribute of a tag (TAG group 3) in order, duplicates included: lowercased names,
    values with character references decoded."""
    found = []
    for match in ATTRIBUTES.finditer(span):
        name = match.group(1)
        if not name:
            continue
        found.append((tag_name(name), attribute_value(match)))
    return found


# Chromium's ExtractCharset: "charset" (ASCII case-insensitively; a "charset" without "=" after
# the spaces is passed over) and "=", spaces, then a quoted label or one up to a space or quote.
_CHARSET_IS = re.compile(r"charset[\x00-\x20]*=[\x00-\x20]*", re.ASCII | re.IGNORECASE)
_UNQUOTED_LABEL = re.compile(r"[^\x00-\x20\"';]*")


def _extract_charset(value: str) -> str:
    """Chromium's ``ExtractCharset``: the label after ``charset=`` in a ``content`` value, or "" (in
    C searches: a 64 KiB label was a Python step a character, 5 ms, issue 37)."""
    found = _CHARSET_IS.search(value)
    if found is None or found.end() >= len(value):
        return ""
    position, quote = found.end(), value[found.end()]
    if quote in "\"'":
        end = value.find(quote, position + 1)
        return "" if end < 0 else value[position + 1:end]
    return _UNQUOTED_LABEL.match(value, position).group()  # type: ignore[union-attr]  # (never None)


def chromium_meta_encoding(span: str) -> tuple[Encoding, str] | None:
    """Chromium's ``EncodingFromMetaAttributes`` as measured (tools/browser_check/variants.py,
    every duplicated-attribute variant): the last ``charset`` attribute, even empty or failing,
    decides alone; else the last ``content`` attribute's ``charset=`` value
    (:func:`_extract_charset`) when ANY ``http-equiv`` attribute is "content-type"."""
    charset, content, content_type = last_meta_attributes(span)  # the last of duplicated attributes
    if charset is not None:
        label = charset.strip(_WS)
    else:
        if content is None or not content_type:
            return None
        label = _extract_charset(content).strip(_WS)
    encoding = get_encoding(label)
    return None if encoding is None else (encoding, label)


_MORE = object()  # the scan reached the end of a prefix of the body: it needs more of it
_UNREAD = object()  # not read yet
#: How much of the body the Chromium scan tokenizes first (most pages decide in it).
FIRST_READ = 4096


class Seen:
    """What a Chromium scan that found nothing tokenized (:func:`chromium_meta`'s *seen*): the
    attribute spans of the ``meta`` start tags it read, in order (but those its head run took,
    which hold no hint: :class:`.parser_scan.Hints`, and numbered copies of one that names nothing
    whatever its digits: :func:`.tokenizer.names_nothing_whatever_digits`; none names an encoding
    in any reader); *reach*, an offset before which it read every start tag (0: it may have read none); *tree_states*, whether one of those was
    ``svg``, ``math``, ``template`` or ``frameset`` (after which a tree builder switches tokenizer
    states otherwise than by the tag name)."""

    __slots__ = ("reach", "spans", "tree_states")

    def __init__(self) -> None:
        self.spans: list[str] = []
        self.reach = 0
        self.tree_states = False


def chromium_meta(body: bytes, limit: int, head: int = UNCONDITIONAL,
                  seen: Seen | None = None, shortcut: bool = True) -> tuple[Encoding, str, int] | None:
    """Chromium's ``<meta>`` scan of *body* (at most *limit* bytes; *head* bytes whatever the
    markup): ``(encoding, label, byte offset of the "<")`` or ``None``. No UTF-16 or
    x-user-defined adjustment here. It decodes its bytes (to *limit*) once to look for a hint
    (:func:`.parser_scan.last_hint`; without one no ``<meta>`` names an encoding, and it returns
    ``None`` at once), then tokenizes the first max(:data:`FIRST_READ`, *head*) bytes, and all
    its bytes only where its scan runs to the end of those before it ends: still in the head
    section; in a tag, comment or raw text element cut there; or out of the head section before
    *head* bytes with no ``<`` after it in them. *seen*, if given, is filled with what the scan
    read (see :class:`Seen`). Shortcut (*shortcut* ``False``: its twin, the first bytes then the
    whole): the whole at once where no hint lies in the first bytes."""
    end = min(limit, len(body))
    whole = bytes(body[:end]).decode("latin-1")  # markup is ASCII: one character per byte
    if last_hint(whole) < 0:  # no meta names an encoding (Firefox's text too)
        return None
    size = min(max(FIRST_READ, head), end)
    hints = Hints(whole)  # (the whole read's too: its searches kept)
    if shortcut and hints.next_hint(0, size) >= size:
        # Shortcut: no meta in the first bytes names an encoding, so the first read gives no
        # answer the whole read does not (it leaves the head section at the same tag, or is cut):
        # the whole at once (its twin: the first bytes, then the whole).
        size = end
    while True:
        text = whole if size == end else whole[:size]
        found = _chromium_scan(text, head, size < end, seen, hints=hints if size == end else None)
        if found is not _MORE:
            return found  # type: ignore[return-value]
        size = end


#: :func:`chromium_meta_encoding`, kept per attribute span: a crawl sees the same few ``<meta>`` tags.
chromium_reading = lru_cache(maxsize=512)(chromium_meta_encoding)


def chromium_meta_tag(text: str, lt: int) -> tuple[int, str, tuple[Encoding, str] | None] | None:
    """The ``meta`` start tag at *lt* in *text* as Chromium's scan reads it: ``(end, span,
    reading)``, the offset past its ">", its attributes (:data:`.tokenizer.TAG` group 3) and
    :func:`chromium_reading` of them; ``None`` where the input ends inside it."""
    tag = tag_reader()(text, lt)
    return None if tag is None else (tag[0], tag[3], chromium_reading(tag[3]))


# What Chromium's scan steps over while in the head section, in one match: text, comments,
# whole script, style and title elements (head tags whose text it does not tokenize as markup),
# stray "<"s (each a character, the last before a tag, "<!", "<?", "</" or the end left to it),
# and bogus comments (BOGUS_COMMENT: to the first ">" after the "<" and the character after it,
# as the loop reads them).
# With them, the tags that only keep it in the head section (no meta, no tokenizer state): start
# tags of link, base, object, noscript (its content is markup), html and head, end tags of the
# head section's tags, attributes and all (as TAG reads them).
_HEAD_TAGS = (r"<(?:/(?i:script|noscript|style|link|meta|object|title|base)|(?i:link|base|object|noscript|html|head))"
              r"(?=[\t\n\x0c\r />])" + attributes_pattern("h") + r"[\t\n\x0c\r /]*>")


_HEAD_TEXTS = ("script", "style", "title")  # the elements of text Chromium's head run takes whole


def _chromium_head(texts: Iterable[str] = _HEAD_TEXTS) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The head section's item and run, with the elements of text named in *texts* (run_end drops
    those left open: :func:`.tokenizer.without_unclosed`)."""
    names = [name for name in _HEAD_TEXTS if name in texts]
    titles = "|".join(name for name in names if name != "script")
    elements = (f"|{text_element('script', '1')}" if "script" in names else "") + (
        f"|{text_element(titles, '2')}" if titles else "")
    one = re.compile(rf"(?:{TEXT_WITH_STRAY_LT}|{COMMENT}{elements}|{STRAY_LT}|{BOGUS_COMMENT}|{_HEAD_TAGS})", re.ASCII)
    run = re.compile(one.pattern + "*", re.ASCII)
    if names:
        register_text_elements(one, run, names, _chromium_head)
    return one, run


_CHROMIUM_HEAD_ONE, _CHROMIUM_HEAD_RUN = _chromium_head()
# Meta start tags: taken with the head run up to the next hint (parser_scan.Hints), they name no
# encoding in any reader.
_HEAD_METAS = r"<(?i:meta)(?=[\t\n\x0c\r />])" + attributes_pattern("m") + r"[\t\n\x0c\r /]*>"
# Out of the head section, before *head*: what the loop only steps over, in one match (its twin,
# the loop item by item): text before a "<" (text that runs past *head* ends the scan at the next
# "<": the loop's), comments, stray "<"s, bogus comments, every end tag, and start tags but meta
# (META_CANDIDATE) and those after which the loop does more: a tokenizer state (_RCDATA,
# _RAWTEXT, script, plaintext) or seen.tree_states (_TREE_STATES).
_LOOP_START_TAGS = "|".join(sorted(_RCDATA | _RAWTEXT | _TREE_STATES | {"script", "plaintext", "meta"}))
_BODY_TAGS = (r"<(?:/|(?!(?i:" + _LOOP_START_TAGS + r")[\t\n\x0c\r />]))[A-Za-z][^\t\n\x0c\r />]*(?=[\t\n\x0c\r />])"
              + attributes_pattern("o") + r"[\t\n\x0c\r /]*>")
_CHROMIUM_BODY_ONE = re.compile(rf"(?:[^<]+(?=<)|{COMMENT}|{STRAY_LT}|{BOGUS_COMMENT}|{_BODY_TAGS})", re.ASCII)
_CHROMIUM_BODY_RUN = re.compile(_CHROMIUM_BODY_ONE.pattern + "*", re.ASCII)


@lru_cache(maxsize=16)
def _with_item(one: re.Pattern[str], item: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """*one* (an alternation of items) and its run, with *item* too."""
    both = re.compile(one.pattern[:-1] + "|" + item + ")", re.ASCII)
    return both, re.compile(both.pattern + "*", re.ASCII)


def _chromium_scan(text: str, head: int, partial: bool, seen: Seen | None = None, skip_copies: bool = True,
                   hints: Hints | None = None):
    """:func:`chromium_meta` over *text*; :data:`_MORE` where a *partial* text ends too soon.
    *seen*: see :class:`Seen` (its *reach* set where the answer is ``None``). *skip_copies* ``False``:
    the plain twin of the loop's copies (see :func:`_chromium_tokens`). *hints*: *text*'s
    :class:`.parser_scan.Hints`, where the caller has them (a whole text's)."""
    if seen is None:
        seen = Seen()
    seen.spans.clear()
    seen.tree_states = False
    found = _chromium_tokens(text, head, partial, seen, skip_copies, hints)
    seen.reach = found if type(found) is int else 0
    return None if type(found) is int else found


def _opening_long_meta(text: str, hints: Hints, spans: list[str]):
    """Shortcut of :func:`_chromium_tokens` on a whole *text* (its twin, the loop after the cutoff):
    where it opens with a long ``meta`` start tag (no ">" in its first :data:`.tokenizer.LONGEST_TAG`
    characters, one past them) that names an encoding, or ends past the last hint, what the loop
    gives without the cutoff (:func:`.parser_scan.last_meta_start`, which is at or after such a
    tag: 0 or more): the tag's reading, else (its span added to *spans*) the offset of the first
    "<" after it, or the text's end (every tag after it is past the cutoff). ``(answer, tag)``:
    *answer* ``None`` where the text is not such a one; *tag*, what :func:`chromium_meta_tag`
    gave for the tag at 0 (for the loop), or :data:`_UNREAD`."""
    if META_CANDIDATE.match(text) is None or text.find(">", 0, LONGEST_TAG) >= 0 or text.rfind(">") < LONGEST_TAG:
        return None, _UNREAD
    tag = chromium_meta_tag(text, 0)
    if tag is None:
        return None, tag
    end, span, found = tag
    if found is not None:
        return (found[0], found[1], 0), tag
    if end <= hints.last:
        return None, tag  # a hint after it: a later meta may name an encoding
    spans.append(span)
    lt = text.find("<", end)
    return len(text) if lt < 0 else lt, tag


_UNIT_TURNS = 8  # turns of _chromium_tokens' loop a unit of copies spans at most


def _chromium_tokens(text: str, head: int, partial: bool, seen: Seen, skip_copies: bool = True,
                     hints: Hints | None = None):
    """:func:`_chromium_scan`'s loop; where it finds nothing, the offset before which it read every
    start tag (an ``int``) for ``None``, what it read in *seen*. In the head section, after a turn
    that ends with a meta tag naming nothing, copies of the text from the start of that turn or of
    one of the _UNIT_TURNS such turns before are skipped at once (``copies_end``; *skip_copies*
    ``False``, its plain twin, reads each): the scan reads each alike, from the text alone (the
    head section is left only forward, and in it nothing depends on an offset but the cutoff, which
    no copy skipped passes), and each leaves it in the head section, its record as it was (but
    the repeated spans); so are copies but for their free numbers of the last such turns whose
    tags name nothing whatever their digits (or hold none). Its head run that takes meta tags up
    to the next hint (:class:`.parser_scan.Hints`, which answers a window at a time) goes on to
    the next hint at once where it read half a window, meta tags in it (*skip_copies* ``False``: a
    window a turn)."""
    spans = seen.spans
    more = _MORE if partial else len(text)
    n = len(text)
    # On the whole text, no meta it reads as naming an encoding starts after *cutoff*: past it
    # the answer is None.
    hints = None if partial else Hints(text) if hints is None else hints
    opening = _UNREAD  # the opening meta tag as the shortcut read it
    if hints is not None and hints.last >= 0:
        answer, opening = _opening_long_meta(text, hints, spans)
        if answer is not None:
            return answer
    cutoff = n if partial else last_meta_start(text, chromium_reading, hints=hints)
    if cutoff < 0:
        return 0
    in_head = True
    pos = 0
    tag_at = tag_reader()
    # (the elements of text left open from here on dropped once: see .tokenizer.without_unclosed)
    head_one, head_run = without_unclosed(_CHROMIUM_HEAD_ONE, _CHROMIUM_HEAD_RUN, text, 0)
    with_metas = _with_item(head_one, _HEAD_METAS)
    # where the last turns that ended with a meta tag naming nothing in the head section began, and whether
    # that tag names nothing whatever its digits (or has none)
    turns: list[tuple[int, bool]] = []
    while True:
        turn = pos  # (where this turn of the loop began)
        if not in_head:
            if pos < head:  # (the items that end before *head* and the cutoff)
                pos = run_end(_CHROMIUM_BODY_ONE, _CHROMIUM_BODY_RUN, text, pos, min(head, cutoff))
            if pos >= head:
                return pos
        if in_head:
            # starred: never None; up to the cutoff, where the meta is not skipped; where it
            # stops at a meta tag, meta tags too up to the next hint
            pos = max(pos, run_end(head_one, head_run, text, pos, cutoff))
            if META_CANDIDATE.match(text, pos) is not None:
                hints = Hints(text) if hints is None else hints
                hint = hints.after(pos)
                if hint != pos:
                    start = pos
                    pos = max(pos, run_end(*with_metas, text, pos, cutoff if hint < 0 else min(cutoff, hint)))
                    if skip_copies and 0 <= hint < cutoff and hint - pos <= (hint - start) // 2 \
                            and hints.lowered.find(b"<meta", start + 1, pos) >= 0:
                        # Shortcut: a run that read half a window with no hint in it and meta tags in
                        # it (a flood of meta tags that name nothing, say) goes on to the next hint in one
                        # run, not a window at a time (each run finds its copies again: hunted, issue 37,
                        # 0.3 ms at 64 KiB); its twin (skip_copies False), a window a turn.
                        hint = hints.next_hint(pos)
                        if hint != pos:
                            pos = max(pos, run_end(*with_metas, text, pos, cutoff if hint < 0 else min(cutoff, hint)))
        lt = text.find("<", pos)
        if lt < 0:
            return more
        if lt > cutoff:
            return _MORE if partial else lt
        if lt > pos and not in_head and lt >= head:
            return lt  # the character token before this "<" ended the scan
        c = text[lt + 1:lt + 2]
        if c in _ALPHA or (c == "/" and text[lt + 2:lt + 3] in _ALPHA):
            if META_CANDIDATE.match(text, lt) is not None:  # a meta start tag (TAG's name "meta")
                tag: tuple[int, str, tuple[Encoding, str] | None] | None
                tag = opening if lt == 0 and opening is not _UNREAD else chromium_meta_tag(text, lt)  # type: ignore[assignment]
                if tag is None:
                    return more  # end of input inside a tag
                pos, span, found = tag
                if found is not None:
                    return found[0], found[1], lt
                spans.append(span)
                if in_head and skip_copies:  # copies of the text since one of them, read alike
                    turns.append((turn, names_nothing_whatever_digits(span) or DIGITS.search(span) is None))
                    del turns[:-_UNIT_TURNS]
                    for start, _ in reversed(turns):  # (the shortest unit first)
                        unit = text[start:pos]
                        if text.startswith(unit, pos):
                            pos = copies_end(text, pos, unit, cutoff)
                            break
                    else:  # copies but for their free numbers, too: of turns whose tags name nothing whatever
                        # their digits (or hold none: the same tag in each copy), two units tried at most
                        units = list(itertools.takewhile(lambda each: each[1], reversed(turns)))
                        if units:
                            pos = max(pos, numbered_copies_past(text, ((start, pos) for start, _ in units), cutoff, 2))
                continue  # a head tag: the scan stays where it was; no tokenizer state
            read = tag_at(text, lt)
            if read is None:
                return more  # end of input inside a tag
            pos, end_tag, name = read[0], read[1], tag_name(read[2])
            if name in _TREE_STATES and not end_tag:
                seen.tree_states = True
            if name not in _CHROMIUM_HEAD and (end_tag or name not in ("html", "head")):
                in_head = False
            if end_tag:
                continue
            if name in _RCDATA or name in _RAWTEXT:
                close = raw_text_end(text, pos, name)
            elif name == "script":
                close = script_data_end(text, pos)
            elif name == "plaintext":
                return n  # no tag after it
            else:
                continue
            if close < 0:
                return more
            if close > pos and not in_head and close >= head:
                return close
            pos = close
        elif text.startswith("<!--", lt):
            if text.startswith(">", lt + 4):
                pos = lt + 5
            elif text.startswith("->", lt + 4):
                pos = lt + 6
            else:
                pos = comment_end(text, lt + 4)
                if pos < 0:
                    return more
        elif c in ("!", "?") or (c == "/" and lt + 2 < n):
            if text.startswith("</>", lt):
                pos = lt + 3
                continue
            gt = text.find(">", lt + 2)
            if gt < 0:
                return more
            pos = gt + 1
        elif partial and lt + 3 > n:
            return _MORE  # "<", "<!" or "</" at the very end: the next bytes decide what it is
        else:
            pos = lt + 1


def firefox_extract_charset(value: str) -> tuple[Encoding, str] | None:
    """Firefox's reading of a ``content`` value: like the standard's algorithm for extracting a
    character encoding from a meta element, except that a ``charset`` not followed (after
    whitespace) by ``=`` ends the search instead of looking for the next one."""
    match = _FIREFOX_CONTENT.search(value)
    if match is None or match.group(1) is None:
        return None
    raw = match.group(1)
    if raw[:1] in ("\"", "'"):
        end = raw.find(raw[0], 1)
        if end < 0:
            return None
        label = raw[1:end]
    else:
        label = re.split(r"[\t\n\x0c\r ;]", raw, maxsplit=1)[0]
    encoding = get_encoding(label)
    return None if encoding is None else (encoding, label.strip(_WS))


_FIREFOX_CONTENT = re.compile(r"charset[\t\n\x0c\r ]*(?:=[\t\n\x0c\r ]*(.*))?", re.IGNORECASE | re.ASCII | re.DOTALL)


def firefox_meta_encoding(span: str) -> tuple[Encoding, str] | None:
    """Firefox's reading of a ``meta`` tag's attributes: the first of duplicated attributes; a
    ``charset`` attribute decides alone (a failing one leaves ``http-equiv`` unread); else
    ``http-equiv`` = "content-type" with a ``content`` (see :func:`firefox_extract_charset`)."""
    attrs = {}
    for name, value in first_attributes(span, ("charset", "http-equiv", "content"), meta=True):
        if name == "charset":
            label = value.strip(_WS)
            encoding = get_encoding(label)
            return None if encoding is None else (encoding, label)
        attrs[name] = value
    if attrs.get("http-equiv", "").lower() == "content-type" and "content" in attrs:
        return firefox_extract_charset(attrs["content"])
    return None


def tree_metas(text: str, stop_at: int | None = None, cutoff: int | None = None, hints: Hints | None = None,
               unread: Callable[[str], bool] | None = None) -> Iterator[tuple[int, int, str, str | None]]:
    """Each ``meta`` start tag that the tree builder, scripting disabled, processes with the "in
    head" rules: ``(offset of "<", offset after ">", attribute span, insertion mode before)``
    (:func:`.parser_scan.tree_builder_metas`). With *stop_at*, it stops at the first ``<`` from
    that offset on met in an insertion mode from which no late ``meta`` counts for Firefox any
    more (see :func:`firefox_meta`); with *cutoff*, at the first past that offset; with *hints*
    (:class:`.parser_scan.Hints` of *text*), some that hold no hint, "in head" or "in head
    noscript" (so name no encoding, and are in no template), are left out; with *unread*, those
    it says true of, but in template contents (:func:`.parser_scan.tree_builder_metas`)."""
    return tree_builder_metas(text, cutoff, scripting=False, stop_at=stop_at, alive=_FIREFOX_ALIVE_MODES, hints=hints,
                              unread=unread)


def firefox_meta(body: bytes, limit: int, head: int = UNCONDITIONAL) -> tuple[Encoding, str, int] | None:
    """Firefox's ``<meta>`` scan of *body* (at most *limit* bytes; *head* bytes whatever the
    insertion mode): ``(encoding, label, byte offset of the "<")`` or ``None``. Meta tags that it
    reads as naming nothing are not yielded to the loop, but in template contents (so copies of
    them are skipped): such a tag does nothing there, and where a late one would end the loop
    (after a meta in template contents), so does the next late one, or the end (its plain twin:
    every meta yielded, ``tree_builder_metas(unread=None)``)."""
    text = bytes(body[:limit]).decode("latin-1")
    # Recorded (tools/differential, issue 35): after any meta in template contents (one that
    # declares an encoding, a failing one, http-equiv="refresh"), no late meta counts; an empty
    # template leaves them be.
    hints = Hints(text)
    cutoff = last_meta_start(text, firefox_reading, hints=hints)
    if cutoff < 0:
        return None  # no meta that Firefox reads as naming an encoding
    stopped = False
    with collection_paused():
        for lt, _, span, mode in tree_metas(text, head, cutoff, hints, _firefox_reads_nothing):
            late = lt >= head
            if late and stopped:
                return None
            if not late or (not stopped and mode in _FIREFOX_LATE_MODES):
                found = firefox_reading(span)
                if found is not None:
                    return found[0], found[1], lt
            stopped = stopped or mode == "in template"
    return None


#: :func:`firefox_meta_encoding`, kept per attribute span (as :data:`chromium_reading`).
firefox_reading = lru_cache(maxsize=512)(firefox_meta_encoding)


def _firefox_reads_nothing(span: str) -> bool:
    return firefox_reading(span) is None


def forget() -> None:
    """Forget what earlier texts left cached by the scans (the standard's, :func:`.parser_scan.forget`,
    both models' readings of meta tags, decoded attribute values): for a benchmark timing the same
    body again as a crawl meets it, once."""
    parser_scan.forget()
    charrefs.forget()
    chromium_reading.cache_clear()
    firefox_reading.cache_clear()


# Insertion modes in which Firefox honours a meta that starts after the first 1024 bytes.
_FIREFOX_LATE_MODES = HEAD_MODES
# Insertion modes from which the tree builder may still come back to one of those: template
# contents in the head return to "in head" at the end tag. From any other ("after head", "in
# body", "in frameset" ...) it never does, so a scan past the first 1024 bytes stops there.
_FIREFOX_ALIVE_MODES = _FIREFOX_LATE_MODES | {"in template", "text"}
