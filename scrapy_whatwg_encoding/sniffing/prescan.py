"""Prescan a byte stream to determine its encoding (HTML §13.2.3.2,
https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding).

The spec walks byte by byte; this implementation jumps between the ``<`` bytes that can start
one of the loop's cases with compiled regular expressions and runs "get an attribute" as one
regular expression per attribute, so it does the same steps with C-speed scanning. It returns
exactly what the spec's steps return (tests compare it with a literal transcription).
"""
from __future__ import annotations

import re
import sys

from ..encoding import ENCODINGS, Encoding, get_encoding
from ._html.tokenizer import attributes_pattern, copies_end, run_end
from .decision import Source
from .meta_charset import extract_meta_charset, meta_encoding
from .xml_encoding import get_xml_encoding

#: How many bytes of a body the prescan examines by default: 1024, as HTML §13.2.3.2 suggests
#: (``sniff``'s, ``Options``' and the ``WHATWG_ENCODING_PRESCAN_BYTES`` setting's default).
PRESCAN_BYTES = 1024

# The loop's cases (step "Loop"), in the spec's order: comment, "<meta" + space or slash,
# a tag ("<", optional "/", ASCII letter), then "<!", "</", "<?". Any other "<" is "any other byte".
_LOOP = re.compile(rb"<(?:(!--)|([Mm][Ee][Tt][Aa][\t\n\x0c\r /])|(/?[A-Za-z])|[!/?])")


def _quoted(quote: bytes, name: bytes) -> bytes:
    """A value in *quote*s, atomic: Python 3.11's possessive quantifier, else (3.10) a lookahead
    and a backreference (the same match, the value compared twice); group *name* holds the value."""
    value = rb"[^" + quote + rb"]*"
    if sys.version_info >= (3, 11):
        return quote + b"(?P<" + name + b">" + value + b"+)" + quote
    return quote + b"(?=(?P<" + name + b">" + value + b"))(?P=" + name + b")" + quote


# "Get an attribute": skip whitespace and "/", then either ">" (there isn't one) or a name and a
# value. Every branch needs the byte that ends it to be present, so a failed match means the
# algorithm ran out of bytes. Branches are disjoint, so failing matches do not backtrack wildly.
_ATTRIBUTE = (
    rb"[\t\n\x0c\r /]*(?:(?P<none>(?=>))|(?P<name>[^\t\n\x0c\r />][^\t\n\x0c\r /=>]*)"
    rb"(?:[\t\n\x0c\r ]*=[\t\n\x0c\r ]*"  # "=" (maybe after spaces), then the value step
    rb"(?:"
    # quoted values atomic (see _quoted): an unclosed quote fails at once rather than giving back
    # its value byte by byte (a shorter value is never followed by the quote)
    + _quoted(b'"', b"dq") + b"|" + _quoted(b"'", b"sq") + rb"|(?P<gt>(?=>))"
    rb"|(?P<uq>[^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*)(?=[\t\n\x0c\r >]))"
    rb"|(?=[/>])"  # the name ended at "/" or ">": empty value
    rb"|[\t\n\x0c\r ]+(?=[^\t\n\x0c\r =])))"  # spaces, then not "=": empty value
)
_GET_ATTRIBUTE = re.compile(_ATTRIBUTE)
# Any other tag: advance to the next whitespace or ">" (the lookahead keeps a failing match from
# ending the name earlier, "<html ==\">" is no tag "htm" with an attribute), then get attributes
# until there are none (where they end as the tokenizer's do, in a few steps per attribute).
# A tag with no quote before its first ">" ends there (most tags; a quote only matters where a
# value starts, and every other step stops at ">"): tried first, one cheap match.
_SKIP_TAG = re.compile(rb"(?:[^>\"']*>|[^\t\n\x0c\r >]*(?=[\t\n\x0c\r >])" + attributes_pattern("s").encode()
                       + rb"[\t\n\x0c\r /]*>)")

# Runs of what the loop only steps over, in one C-speed match: bytes other than "<", a "<" that
# starts none of the loop's cases, tags other than "<meta" read as the loop reads them, comments.
_RUN_ONE = re.compile(rb"(?:[^<]+"
                      # a comment: to the first "-->" from its "--" on ("<!-->" and "<!--->" end at once):
                      # one without "-" inside first (a greedy scan that cannot pass its end), else lazy;
                      # nothing after the starred group can fail and make it backtrack to a later one
                      rb"|<!--(?:-?>|[^-]*-->|[\s\S]*?-->)"
                      # stray "<"s, each "any other byte", in one item (the last before a tag left to it)
                      rb"|<+(?![!/?A-Za-z])"
                      # "<!", "</", "<?" (not a comment or a tag): to the first ">" after the "<"
                      rb"|<(?=[!/?])(?!!--|/[A-Za-z])[^>]*>"
                      rb"|<(?=/?[A-Za-z])(?![Mm][Ee][Tt][Aa][\t\n\x0c\r /])" + _SKIP_TAG.pattern + rb")")
_RUN = re.compile(_RUN_ONE.pattern + b"*")

# The commonest <meta> that declares, whole: one "charset" attribute and nothing else (spaces and
# "/" around it), its value as "get an attribute" reads it (quoted, or unquoted to whitespace or
# ">"), then the ">" the next "get an attribute" stops at. Matched after "<meta".
_CHARSET_ONLY = re.compile(rb"[\t\n\x0c\r /]+[Cc][Hh][Aa][Rr][Ss][Ee][Tt][\t\n\x0c\r ]*=[\t\n\x0c\r ]*"
                           + b"(?:" + _quoted(b'"', b"v1") + b"|" + _quoted(b"'", b"v2")
                           + rb"|(?P<v3>[^\t\n\x0c\r >\"'][^\t\n\x0c\r >]*))[\t\n\x0c\r /]*>")

# Only the "<meta" case can return an encoding, and only where "charset" is written (ASCII
# case-insensitively: a charset attribute's name, or in a content value, "extract a character
# encoding from a meta element" step 2): without both the loop ends with nothing.
_ANY_META = re.compile(rb"<[Mm][Ee][Tt][Aa][\t\n\x0c\r /]")


def _may_declare(data: bytes) -> bool:
    return _ANY_META.search(data) is not None and b"charset" in data.lower()


def prescan_result(data: bytes, end: int = PRESCAN_BYTES, metas: list | None = None
                   ) -> tuple[Encoding, str | None, int, Source] | None:
    """Prescan ``data[:end]`` (bytes). Returns ``(encoding, label, byte offset, source)`` or
    ``None`` (with a list as *metas*, the ``<meta`` tags read, as :func:`prescan_metas` gives
    them): *source* is ``"prescan"`` for a ``<meta>`` (offset of its ``<``) and
    ``"xml-declaration"`` for the UTF-16 ``<?x`` check and "get an XML encoding" (offset 0).
    The loop's work is bounded by *end*; "get an XML encoding" reads a ``<?xml`` declaration
    that starts *data* to its first ``>`` wherever it lies (C-speed scans). Never raises."""
    stream = data
    data = bytes(stream[: max(end, 0)])
    # Prescan for UTF-16 XML declarations.
    if data.startswith(b"<\x00?\x00x\x00"):
        return ENCODINGS["UTF-16LE"], None, 0, "xml-declaration"
    if data.startswith(b"\x00<\x00?\x00x"):
        return ENCODINGS["UTF-16BE"], None, 0, "xml-declaration"
    found = _loop(data, metas) if _may_declare(data) else None
    if found is not None:
        return found
    # Ran out of bytes (or reached the end condition): "return the result of getting an XML
    # encoding given the byte stream" -- the whole stream, as browsers read it (see xml_encoding).
    xml = get_xml_encoding(stream)
    if xml is None:
        return None
    return xml[0], xml[1], 0, "xml-declaration"


def charset_only(data: bytes, start: int) -> bytes | None:
    """The value as written of the ``<meta`` tag at *start* (its ``<``) where its one attribute is
    ``charset``, as the loop reads it whole (quoted, or unquoted to whitespace or ">"; then "/" and
    whitespace at most before its ">"), or ``None``: any other tag."""
    match = _CHARSET_ONLY.match(data, start + 5)
    return None if match is None else match.group(match.lastindex or 0)


def tag_end(data: bytes, start: int, longest: int | None = None) -> int | None:
    """The offset just after the ``>`` of the tag whose ``<`` is at *start*, read as the prescan
    reads a tag other than ``<meta`` (its attributes skipped), or ``None``: out of bytes, or with
    *longest*, no ``>`` ends it within that many bytes (what it reads there it reads as on the whole
    of *data*: every step of the tag needs the byte after it, none past the ``>``)."""
    match = _SKIP_TAG.match(data, start + 1, len(data) if longest is None else start + longest)
    return None if match is None else match.end()


def prescan_metas(data: bytes, end: int, most: int | None = None, reach: int | None = None,
                  longest: int | None = None) -> list[tuple[int, int, tuple[Encoding, str] | None]]:
    """The ``<meta`` tags the prescan's loop reads in ``data[:end]`` up to the first that gives an
    encoding: ``(byte offset of "<", offset after ">", what it declares or None)`` each, what it
    declares as ``(encoding from get an encoding, no UTF-16 mapping; the label as written, ASCII
    whitespace stripped)``; the loop skips what it skips (comments, other tags with their
    attributes, ``<!``/``</``/``<?``). With *most*, it stops after that many tags; with *reach*,
    as soon as it is past that offset without having read a tag that starts there (for a caller
    that wants nothing else: the work stays near it); with *longest*, at a tag that it does not read
    within that many bytes (as if out of bytes: see :func:`tag_end`)."""
    metas: list[tuple[int, int, tuple[Encoding, str] | None]] = []
    _loop(bytes(data[:max(end, 0)]), metas, most, reach, longest)
    return metas


def prescan(data: bytes, end: int = PRESCAN_BYTES) -> Encoding | None:
    """Prescan a byte stream to determine its encoding (HTML §13.2.3.2,
    https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding)
    over ``data[:end]``: the ``<meta charset>`` / ``<meta http-equiv=content-type>`` search,
    including the prescan's check for UTF-16 XML declarations (``<?x`` in UTF-16) and "get an
    XML encoding" when no ``<meta>`` decides (which reads a ``<?xml`` declaration that starts
    *data* up to its first ``>``, even past *end*, as browsers do).

    :param data: the start of the document (:class:`bytes` or another bytes-like object).
    :param end: how many bytes (not characters) to examine; 1024 as the standard suggests.
    :returns: the :class:`Encoding` found, or ``None`` (the algorithm's failure: nothing found,
        or a label the standard does not have). As the standard says, a ``<meta>`` naming
        UTF-16BE/LE gives UTF-8 and one naming x-user-defined gives windows-1252.

    Never raises for bytes-like *data*.

    >>> from scrapy_whatwg_encoding import prescan
    >>> prescan(b'<html><head><meta charset="koi8-r">')
    <Encoding KOI8-R>
    >>> prescan(b'<meta http-equiv="Content-Type" content="text/html; charset=utf-16">')
    <Encoding UTF-8>
    >>> prescan(b"<p>no declaration</p>") is None
    True
    >>> prescan(b'<!-- -->' + b' ' * 2000 + b'<meta charset="koi8-r">') is None  # beyond 1024 bytes
    True
    """
    found = prescan_result(data, end)
    return None if found is None else found[0]


def _loop(data: bytes, metas: list | None = None, most: int | None = None, reach: int | None = None,
          longest: int | None = None):
    """The prescan's loop over *data*: the first ``<meta>`` result, or ``None``. With a list as
    *metas*, each ``<meta`` tag it reads is appended as ``(start, end after ">", what it declares
    or None)`` (see :func:`prescan_metas`), up to *most* of them (then it returns ``None``), and
    with *reach*, until it is past that offset without having read a ``<meta`` there; with
    *longest*, a tag is read within that many bytes from its "<" (else ``None``)."""
    size = len(data) if longest is None else longest
    search = _LOOP.search
    position = 0
    # The runs stop short of "<meta" and the byte after it at *reach* (then the loop steps on case
    # by case): a run cut there reads what it reads whole as in all of *data* (what it cannot
    # finish it leaves to the steps). It could part from them only at a "<" just before the cut,
    # which it cannot reach: that is the byte after "<meta", inside the token that holds it.
    bound = len(data) if reach is None else min(reach + 6, len(data))
    while True:
        if longest is None:
            position = run_end(_RUN_ONE, _RUN, data, position, bound)
        else:  # window after window, while the run goes on (a search would try each "<" of a flood)
            while (stop := _run_within(data, position, bound, longest)) > position:
                position = stop
        match = search(data, position)
        if match is None:
            return None  # only "any other byte" cases left: runs out of bytes
        start = match.start()
        if reach is not None and start > reach:
            if not metas or metas[0][0] != reach:
                return None  # past it, and no tag read there
            reach, bound = None, len(data)
        comment, meta, tag = match.group(1, 2, 3)
        if comment:
            # The ">" preceded by "--" after the "<"; the dashes may be those of "<!--".
            gt = data.find(b"-->", start + 2)
            if gt < 0:
                return None
            position = gt + 3
        elif meta:
            declared, position = _meta(data, start, min(start + size, len(data)))
            if metas is not None and position >= 0:
                metas.append((start, position, declared))
                if most is not None and len(metas) >= most and declared is None:
                    return None
            if declared is not None:  # the label as the result gives it: ASCII (get an encoding), lowercased
                return meta_encoding(declared[0]), declared[1].lower(), start, "prescan"
            if position < 0:
                return None  # ran out of bytes inside the tag
        elif tag:
            skipped = _SKIP_TAG.match(data, start + 1, start + size)
            if skipped is None:
                return None
            position = skipped.end()
        else:  # "<!", "</", "<?": to the first ">" after the "<"
            gt = data.find(b">", start + 1)
            if gt < 0:
                return None
            position = gt + 1


def _run_within(data: bytes, position: int, bound: int, longest: int) -> int:
    """Where a run from *position* ends, read within *longest* bytes (no long tag read in it):
    copies of its first item, or of its first two, skipped (each read as it is; where the unit
    ends otherwise than with ">", its last item may read on into what follows the copies: the
    last copy is left to the match), then one match cut just before a "<" (an item that holds
    that "<" is left to the steps; none can end at it, and a stray "<" before it is one as in all
    of *data*), else after *longest* bytes of text."""
    cut = min(bound, position + longest)
    first = _RUN_ONE.match(data, position, cut)
    if first is not None:
        end = first.end()
        if not data.startswith(data[position:end], end):  # ("</b>" "<" in turn, say)
            second = _RUN_ONE.match(data, end, cut)
            end = end if second is None else second.end()
        unit = data[position:end]
        if len(unit) > 1 and data.startswith(unit, end):
            stop = copies_end(data, end, unit, bound)
            position = stop if unit[-1] == 0x3E else stop - len(unit)
            cut = min(bound, position + longest)
    lt = data.rfind(b"<", position + 1, cut)
    match = _RUN.match(data, position, lt if lt > 0 and cut < bound else cut)
    return position if match is None else match.end()


def _meta(data: bytes, start: int, stop: int):
    """The ``<meta`` case for the tag at *start*, read in ``data[:stop]``. Returns ``((encoding from
    get an encoding, label as written) or None, the position after its ">")`` (the loop goes on
    there when there is no result), or ``(None, -1)`` when out of bytes (before *stop*)."""
    position = start + 5
    simple = _CHARSET_ONLY.match(data, position, stop)
    if simple is not None:  # the attribute loop's steps, as one match: charset, need pragma false
        label = simple.group(simple.lastindex or 0).decode("latin-1")  # the one value group that matched
        encoding = get_encoding(label)
        return None if encoding is None else (encoding, label.strip("\t\n\x0c\r ")), simple.end()
    if data[position] != 0x2F:  # after whitespace, "get an attribute" reads the tag as for other tags
        tag = _SKIP_TAG.match(data, position, stop)
        if tag is None:
            return None, -1  # the attributes run out of bytes (a failed match does only there)
        if b"charset" not in data[position:tag.end()].lower():
            return None, tag.end()  # no charset attribute, none in a content value: nothing declared
    seen = set()  # attribute list
    got_pragma = False
    need_pragma = None
    charset: tuple[Encoding, str] | str | None = None  # null, (encoding, label), or "failure"
    get_attribute = _GET_ATTRIBUTE.match
    while True:
        attribute = get_attribute(data, position, stop)
        if attribute is None:
            return None, -1
        position = attribute.end()
        name = attribute.group("name")
        if name is None:  # no attribute: position is at ">"
            break
        name = name.lower()
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv":
            if _value(attribute) == b"content-type":
                got_pragma = True
        elif name == b"content":
            if charset is None:
                extracted = extract_meta_charset(_value(attribute, True).decode("latin-1"))
                if extracted is not None:
                    charset = extracted
                    need_pragma = True
        elif name == b"charset":
            label = _value(attribute, True).decode("latin-1")
            encoding = get_encoding(label)
            charset = "failure" if encoding is None else (encoding, label.strip("\t\n\x0c\r "))
            need_pragma = False
    # Processing.
    if need_pragma is None or (need_pragma and not got_pragma) or not isinstance(charset, tuple):
        return None, position + 1  # next byte after the ">" (charset is "failure")
    return charset, position + 1


def _value(attribute, keep_case: bool = False) -> bytes:
    value = attribute.group("dq")
    if value is None:
        value = attribute.group("sq")
        if value is None:
            value = attribute.group("uq") or b""
    return value if keep_case else value.lower()
