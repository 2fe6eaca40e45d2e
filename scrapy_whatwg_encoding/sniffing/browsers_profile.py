"""The ``"browsers"`` profile (docs/browsers.rst): the answer of Firefox and Chromium where their
models (:mod:`.browsers`) agree; where they do not, the standard's answer if one of them gives it,
else Chromium's. An untyped response is first typed as browsers type a navigation
(:mod:`.mime_sniff`).

It shares the standard run's work (the body's facts, the detector's answer) and reads only as far
as the answer can change: Chromium's model first, and Firefox's only where Chromium's answer is
not the standard's (where it is, the rule gives the standard's answer whatever Firefox says).
"""
from __future__ import annotations

import re
from typing import cast

from ._html.tokenizer import TAG, tag_name
from .browsers import FIRST_READ, chromium_meta, chromium_meta_encoding, firefox_meta
from .change import first_parser_meta_bytes
from .content_type import DocumentKind
from .decision import Decision
from .meta_charset import meta_encoding
from .mime_sniff import chromium_unknown_type_kind, is_untyped, unknown_mime_type, unknown_type_kind
from .sniff import _UTF_8_DEFAULT, LATER_STEPS, _Run  # sniff imports this module on first use, once it is loaded
from .xml_encoding import get_xml_encoding

# MIME types that neither kind of document covers but that both browsers show as plain text.
SHOWN_AS_TEXT = frozenset(("text/css",))
def browsers_decision(run: _Run, standard: Decision, parser_limit: int) -> Decision:
    """The browsers profile's decision for *run*, whose standard profile's decision is *standard*
    (its steps already ran on *run*; *parser_limit*: how far the models read, in bytes). Steps 1,
    2 and 4 found nothing (a BOM, the override or the transport layer decides for both browsers,
    see :func:`.sniff.run_sniffing`)."""
    kind = run.kind
    if kind == "html" and is_untyped(run.essence):
        return _untyped(run, standard, parser_limit)
    if kind == "other" and run.essence in SHOWN_AS_TEXT:
        kind = "text"
    shared: dict[object, Decision | None] = {}
    if kind in ("text", "xml"):
        run.kind = kind  # this run ends here
        both = _browser_decision(run, kind, None, parser_limit, shared)
        return standard if standard.encoding is both.encoding else both
    if kind != "html":
        return standard
    if standard.source == "prescan" and standard.offset is not None and _same_prescan_meta(run.body, standard.offset):
        return standard  # Chromium's answer is the standard's: Firefox's cannot change the rule's
    if standard.source == "xml-declaration" and _no_declaring_meta(run, parser_limit):
        return standard  # Chromium reads the same declaration (get an XML encoding), no <meta>
    if standard.source == "parser" and _late_meta_both_read(run, standard, parser_limit, shared):
        return standard
    chromium = None
    if standard.source == "prescan" and standard.offset is not None:
        chromium = chromium_at_prescan_meta(run.body, standard.offset)
    if chromium is None:
        chromium = _browser_decision(run, "html", chromium_meta, parser_limit, shared)
    if chromium.encoding is standard.encoding:
        return standard  # Firefox's answer cannot change it: agreeing or not, the standard's answer is given
    return _rule(standard, chromium, _browser_decision(run, "html", firefox_meta, parser_limit, shared))


def _rule(standard: Decision, chromium: Decision | None, firefox: Decision | None) -> Decision:
    """The profile's rule (docs/browsers.rst) over the browsers that show a document (``None``: one
    that does not): the standard's answer if one of them gives it, else Chromium's, else Firefox's
    (so where they agree, theirs), else the standard's."""
    shown = [decision for decision in (chromium, firefox) if decision is not None]
    if not shown or any(decision.encoding is standard.encoding for decision in shown):
        return standard
    return shown[0]


# Markup after which Chromium's tokenizer and the standard's prescan may part: raw text elements,
# a comment ended by "--!>", and an earlier <meta> (Chromium may read its attributes otherwise).
_PARTS = re.compile(rb"(?i)<(?:title|textarea|style|xmp|iframe|noembed|noframes|script|plaintext|meta)|--!>")


# A <meta> whose only attribute is charset, without a character reference: every reader (the
# standard's prescan, Chromium's, Firefox's) takes the same label from it.
_SIMPLE_META = re.compile(rb"(?i)<meta[\t\n\x0c\r ]+charset=(?:\"[^\"&]*\"|'[^'&]*'|[^\t\n\x0c\r >\"'&]+)[\t\n\x0c\r ]*/?>")


def _same_prescan_meta(body: bytes, offset: int) -> bool:
    """Whether Chromium's scan surely takes the label the standard's prescan took from the
    ``<meta>`` at *offset*: nothing before it parts the two (see :data:`_PARTS`) and the tag has a
    ``charset`` attribute alone (no character reference). Cheaper than
    :func:`chromium_at_prescan_meta`, which reads any tag."""
    return (_SIMPLE_META.match(body, offset) is not None and not _PARTS.search(body, 0, offset)
            and not body.startswith((b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")))


def chromium_at_prescan_meta(body: bytes, offset: int) -> Decision | None:
    """Chromium's decision when the standard's prescan took the ``<meta>`` at byte *offset* (in
    the first 1024 bytes) and nothing before it makes Chromium's tokenizer read otherwise (no raw
    text element, no ``--!>``, no other ``<meta>``): its reading of that tag, or ``None`` where
    its scan must run (it reads the tag as no encoding, or the bytes before it may differ).
    tests/oracles/test_browsers_shortcuts.py checks it against the scan."""
    if body.startswith((b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")) or _PARTS.search(body, 0, offset):
        return None
    text = bytes(body[offset:offset + FIRST_READ]).decode("latin-1")
    match = TAG.match(text)
    if match is None or match.group(1) or tag_name(match.group(2)) != "meta":
        return None
    found = chromium_meta_encoding(match.group(3))
    if found is None:
        return None
    return Decision(meta_encoding(found[0]), "tentative", "prescan", found[1], offset)


def _late_meta_both_read(run: _Run, standard: Decision, limit: int, shared: dict) -> bool:
    """Whether a model that scans first takes the standard's late ``<meta>`` (its encoding), so
    that the rule gives the standard's answer without the detector: Chromium's, else Firefox's
    where Chromium's finds none (a browser's answer equal to the standard's decides the rule)."""
    for scan in (chromium_meta, firefox_meta):
        found = _scan_decision(run, scan, limit, shared)
        if found is not None:
            return found.encoding is standard.encoding
    return False


def _untyped(run: _Run, standard: Decision, parser_limit: int) -> Decision:
    """An untyped response: each browser types it (:mod:`.mime_sniff`), then decides as for that
    type. Firefox downloads ``unknown/unknown`` and ``application/unknown`` (no document); where
    one browser shows no document, the other's answer is given."""
    body, kind = run.body, run.kind
    shared: dict[object, Decision | None] = {}
    unknown = run.essence in ("unknown/unknown", "application/unknown")
    essence = unknown_mime_type(body)  # the standard's rules, read once for both browsers
    firefox_kind = None if unknown else unknown_type_kind(body, essence)
    chromium_kind = chromium_unknown_type_kind(body, essence)
    try:
        chromium = _typed(run, chromium_kind, chromium_meta, parser_limit, shared)
        if chromium is not None and chromium.encoding is standard.encoding:
            return standard  # the rule's answer whatever Firefox shows
        firefox = _typed(run, firefox_kind, firefox_meta, parser_limit, shared)
    finally:
        run.kind = kind
    return _rule(standard, chromium, firefox)


def _typed(run: _Run, kind: str | None, scan, limit: int, shared: dict) -> Decision | None:
    """One browser's decision for a document of *kind* (``None``: no document)."""
    if kind is None:
        return None
    if kind == "media":
        return _UTF_8_DEFAULT  # an image, media or PDF document: UTF-8
    if kind == "pdf":
        run.kind = "html"
        return run.default()
    run.kind = cast(DocumentKind, kind)  # "html", "xml" or "text" from here on
    return _browser_decision(run, kind, scan if kind == "html" else None, limit, shared)


def _browser_decision(run: _Run, kind: str, scan, limit: int, shared: dict) -> Decision:
    """The algorithm as one browser runs it (*scan*: its ``<meta>`` scan, late metas included, so
    no parser step follows): no 7-bit ISO-2022-JP detection either (tools/differential). The
    steps that do not depend on the browser are run once per profile decision (*shared*), the
    detector once per run (the standard's steps 8-9)."""
    for name, step in LATER_STEPS[kind]:
        if name == "prescan":
            decision = _scan_decision(run, scan, limit, shared)
        elif name == "detector":
            found = run.fallback()  # steps 8-9, run once for the standard profile and both models
            decision = found if found.source == "detector" else None
            if decision is not None and decision.encoding.name == "ISO-2022-JP" and run.facts.is_ascii:
                decision = None
        elif name == "default":
            decision = run.default()  # it depends on the kind, which the type may have changed
        else:
            if name not in shared:
                shared[name] = step(run)
            decision = shared[name]
        if decision is not None:
            return decision
    raise AssertionError("the default step always decides")  # pragma: no cover


def _scan_decision(run: _Run, scan, limit: int, shared: dict) -> Decision | None:
    """:func:`_browser_prescan`, once per scan and profile decision (*shared*)."""
    if scan not in shared:
        shared[scan] = _browser_prescan(run, scan, limit)
    return shared[scan]


def _no_declaring_meta(run: _Run, limit: int) -> bool:
    """Whether neither model can read a ``<meta>`` that declares an encoding in the bytes they
    read (the first max(*limit*, ``prescan_bytes``) bytes): none has a hint after it (``charset``, or
    ``http-equiv`` and a ``&``), which the standard's parser step already looked for (the run's
    ``meta_at``); or none starts in the first ``prescan_bytes`` and the document's first start
    tag takes both models out of the head (not one of :data:`_HEAD_TAGS`): neither reads past
    ``prescan_bytes`` then."""
    extent = max(limit, run.options.prescan_bytes)
    if extent == limit:  # the parser step's own search (the run's meta_at), made once per run
        if run.meta_at is None:
            run.meta_at = first_parser_meta_bytes(run.body, limit)
        meta_at = run.meta_at
    else:  # a parser limit below prescan_bytes: the models read further than the parser step
        meta_at = first_parser_meta_bytes(run.body, extent)
    if meta_at < 0:
        return True
    if meta_at < run.options.prescan_bytes:
        return False
    body = run.body
    prolog = cast("re.Match[bytes]", _PROLOG.match(body, 0, extent))  # a starred pattern: never None
    first = _START_TAG.match(body, prolog.end(), extent)
    return first is not None and tag_name(first.group(1).decode("latin-1")) not in _HEAD_TAGS


# What may come before the first start tag and leaves the insertion mode "initial" or "before
# html" (§13.2.6.4.1-2) and Chromium's scan in the head section: whitespace, comments (without
# "--" inside, so that the first "-->" ends them), DOCTYPEs and bogus comments ("<!", "<?" to the
# first ">"). It always matches (greedy, no backtracking over the body); the start tag follows.
_PROLOG = re.compile(rb"(?:[\t\n\x0c\r ]+|<!--(?![->])[^-]*(?:-(?!-)[^-]*)*-->|<!(?!--)[^>]*>|<\?[^>]*>)*")
_START_TAG = re.compile(rb"<([A-Za-z][^\t\n\x0c\r />]*)")
# Start tags after which a model may still read a late <meta>: Chromium's head section
# (HTMLMetaCharsetParser) and Firefox's "before head" and "in head" rules. Any other start tag
# first ends Chromium's scan at byte prescan_bytes and puts Firefox's tree builder "in body" (or
# "in frameset"), from which it never returns to a mode where a late <meta> counts.
_HEAD_TAGS = frozenset(("html", "head", "base", "basefont", "bgsound", "link", "meta", "noframes", "noscript",
                        "object", "script", "style", "template", "title"))


def _browser_prescan(run: _Run, scan, limit: int) -> Decision | None:
    body = run.body
    if body.startswith((b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")):  # UTF-16 XML declarations
        return run.prescan()
    found = None if _no_declaring_meta(run, limit) else scan(body, max(limit, run.options.prescan_bytes), run.options.prescan_bytes)
    if found is not None:
        encoding, label, offset = found
        if offset < run.options.prescan_bytes:
            return Decision(meta_encoding(encoding), "tentative", "prescan", label, offset)
        return Decision(meta_encoding(encoding), "certain", "parser", label, offset)
    xml = get_xml_encoding(body)
    return None if xml is None else Decision(xml[0], "tentative", "xml-declaration", xml[1], 0)
