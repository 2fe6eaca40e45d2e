"""The ``"browsers"`` profile (docs/browsers.rst): the answer of Firefox and Chromium where their
models agree; where they do not, the standard's answer if one of them gives it, else Chromium's.

Each browser is a :class:`~.run.Model` of the standard's run (:func:`.run.run`): how it reads the
Content-Type (:func:`.content_type.chromium_mime_type`, :func:`.content_type.firefox_mime_type`)
and types a response, an untyped one by its sniffer (:mod:`.mime_sniff`), its ``<meta>`` scan
(:mod:`.browsers`: late metas included, so no parser step follows) and its detector (no 7-bit
ISO-2022-JP in HTML). The models run on
the standard run's :class:`~.body.Body`, whose memo keeps what the runs share (the detector's
answer, the likely encoding, the prescan), and only as far as the rule needs: Chromium's model
first, Firefox's only where Chromium's answer is not the standard's (where it is, the rule gives
the standard's answer whatever Firefox shows).
"""
from __future__ import annotations

import re
from functools import partial
from typing import cast

from ..encoding import ENCODINGS, Encoding
from ._html.tokenizer import TAG, tag_name
from .body import Body
from .browsers import FIRST_READ, Seen, chromium_meta, chromium_reading, firefox_meta, firefox_reading
from .content_type import DocumentKind, chromium_mime_type, essence_kind, firefox_mime_type, per_value
from .decision import Decision
from .detect import seven_bit_guess
from .meta_charset import meta_encoding
from .mime_sniff import (
    CHROMIUM_BINARY_BYTES,
    FIREFOX_BINARY_BYTES,
    chromium_typed_kind,
    chromium_unknown_type_kind,
    firefox_typed_kind,
    is_binary,
    is_untyped,
    unknown_mime_type,
    unknown_type_kind,
)
from .parser_scan import last_meta_start
from .prescan import charset_only
from .run import Model, Settings, Trace, charset_decision, first_meta_at, parser_findings, run
from .steps import CERTAIN_STEPS
from .xml_encoding import get_xml_encoding

_UTF_16_XML = (b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")
_UTF_16 = (ENCODINGS["UTF-16LE"], ENCODINGS["UTF-16BE"])
_UNSEEN = object()  # no such memo entry


def browsers_decision(body: Body, content_type, url, settings: Settings, override, parent, likely,
                      standard: Trace, shortcuts: bool = True) -> Decision:
    """The browsers profile's decision for *body* (:func:`.sniff.sniff`'s arguments), whose
    standard run is *standard*: a certain decision of steps 1, 2 or 4 is every browser's; else
    the rule (``rule()``) over what the models give, Firefox's asked only where it can matter."""
    decision: Decision = standard.decision  # type: ignore[assignment]  # the standard's run always decides
    chosen = standard.chosen
    if chosen is not None and chosen.source in CERTAIN_STEPS and (
            chosen.source != "transport" or _browsers_charset(content_type) is decision.encoding):
        return decision
    as_model = partial(run, body, content_type, url, settings, override, parent, likely, shortcuts=shortcuts)
    chromium = as_model(model=CHROMIUM).decision
    if chromium is not None and chromium.encoding is decision.encoding:
        return decision  # the rule's answer whatever Firefox shows
    return rule(decision, chromium, as_model(model=FIREFOX).decision)


@per_value  # one lookup per page: a crawl sees the same few values
def _browsers_charset(content_type) -> Encoding | None:
    """The encoding both browsers read from *content_type*'s charset, or ``None`` where either
    reads none or they differ (Fetch's reading and theirs part on malformed and repeated values:
    the standard's step 4 is then not every browser's)."""
    found = [charset_decision(charset) if charset else None
             for charset in (_chromium_facts(content_type)[2], _firefox_facts(content_type)[2])]
    if found[0] is None or found[1] is None or found[0].encoding is not found[1].encoding:
        return None
    return found[0].encoding


def rule(standard: Decision, chromium: Decision | None, firefox: Decision | None) -> Decision:
    """The profile's rule (docs/browsers.rst) over the browsers that show a document (``None``: one
    that does not): the standard's answer if one of them gives it, else Chromium's, else Firefox's
    (so where they agree, theirs), else the standard's."""
    shown = [decision for decision in (chromium, firefox) if decision is not None]
    if not shown or any(decision.encoding is standard.encoding for decision in shown):
        return standard
    return shown[0]



def _chromium_type(essence: str, kind: DocumentKind, body: Body) -> str | None:
    """How Chromium types a response (:mod:`.mime_sniff`): an untyped one by its sniffer."""
    if essence == "text/html":
        return "html"  # chromium_typed_kind's answer, without its tests (most pages)
    if is_untyped(essence):
        return chromium_unknown_type_kind(body.data, lambda: _sniffed(body))
    if essence == "text/plain" and is_binary(body.data, CHROMIUM_BINARY_BYTES):
        return None  # MIME Sniffing §7.2: binary bytes make it a download
    return chromium_typed_kind(essence)


def _firefox_type(essence: str, kind: DocumentKind, body: Body) -> str | None:
    """How Firefox types a response: it downloads ``unknown/unknown`` and ``application/unknown``
    (no document) and types other untyped ones by the standard's rules."""
    if essence == "text/html":
        return "html"  # firefox_typed_kind's answer, without its tests (most pages)
    if is_untyped(essence):
        if essence in ("unknown/unknown", "application/unknown"):
            return None
        return unknown_type_kind(body.data, lambda: _sniffed(body))
    if essence == "text/plain" and is_binary(body.data, FIREFOX_BINARY_BYTES):
        return None
    return firefox_typed_kind(essence)


def _browser_facts(content_type, mime_type, typed_kind) -> tuple[str, DocumentKind, str | None]:
    """``(essence, kind, charset)`` of *content_type* as a browser reads it (*mime_type*:
    :func:`.content_type.chromium_mime_type` or :func:`.content_type.firefox_mime_type`), its
    charset dropped where the browser shows no document or ignores it (*typed_kind* gives
    ``None`` or ``"media"``)."""
    if content_type is None:
        return "", "html", None
    essence, charset = mime_type(content_type)
    if is_untyped(essence):
        return essence, "html", charset
    if typed_kind(essence) in (None, "media"):
        charset = None
    return essence, essence_kind(essence), charset


_chromium_facts = per_value(lambda content_type: _browser_facts(content_type, chromium_mime_type, chromium_typed_kind))
_firefox_facts = per_value(lambda content_type: _browser_facts(content_type, firefox_mime_type, firefox_typed_kind))


def _sniffed(body: Body) -> str:
    """The standard's type for an untyped *body* (MIME Sniffing §7.1), read once for both models."""
    memo = body.memo
    if "mime type" not in memo:
        memo["mime type"] = unknown_mime_type(body.data)
    return memo["mime type"]


def _chromium_scan(body: Body, settings: Settings, shortcuts: bool) -> Decision | None:
    """Chromium's step 5. Shortcuts: where the standard's prescan took a ``<meta>`` and nothing
    before it parts the two readers, the prescan's decision where Chromium reads that tag alike
    (:func:`chromium_prescan_label`), else Chromium's reading of it (:func:`chromium_at_prescan_meta`);
    where the standard's parser step took one with no tag before it, Chromium's reading of that
    one (:func:`chromium_at_parser_meta`). Their twin is the scan."""
    if shortcuts:
        prescanned = body.memo.get(("prescan", settings.prescan_bytes))
        if prescanned is not None and prescanned.source == "prescan" and prescanned.offset is not None:
            label = chromium_prescan_label(body.data, prescanned.offset)
            if label is not None:  # the prescan's encoding (its label is lowercased)
                return prescanned if label == prescanned.label else Decision(
                    prescanned.encoding, "tentative", "prescan", label, prescanned.offset)
            found = chromium_at_prescan_meta(body.data, prescanned.offset)
            if found is not None:
                return found
        found = chromium_at_parser_meta(body, settings)
        if found is not None:
            return found
        seen = body.memo[("chromium seen", settings.parser_limit, settings.prescan_bytes)] = Seen()
        return _scan(body, settings, shortcuts, partial(chromium_meta, seen=seen))
    return _scan(body, settings, shortcuts, partial(chromium_meta, shortcut=False))


def _firefox_scan(body: Body, settings: Settings, shortcuts: bool) -> Decision | None:
    """Firefox's step 5. Shortcut: no scan where Chromium's found nothing and read every ``<meta>``
    that Firefox's could (:func:`firefox_reads_none_after_chromium`); its twin is the scan."""
    if shortcuts and firefox_reads_none_after_chromium(body, settings):
        return _scan(body, settings, shortcuts, _no_meta)
    return _scan(body, settings, shortcuts, firefox_meta)


def _no_meta(data: bytes, limit: int, head: int) -> None:
    return None


def firefox_reads_none_after_chromium(body: Body, settings: Settings) -> bool:
    """Whether Firefox's ``<meta>`` scan finds nothing, known from Chromium's (kept in
    ``body.memo``, :class:`.browsers.Seen`) where that found nothing either and read no ``svg``,
    ``math``, ``template`` or ``frameset`` start tag: up to the first of those, both tokenizers
    switch states by the tag name alone (scripting disabled in both) and the tree builder processes
    every ``meta`` start tag its tokenizer emits with the "in head" rules, so Firefox's ``<meta>``
    tags before Chromium's *reach* are among those Chromium read; and where the last ``<meta`` that
    Firefox's reader names an encoding in starts before that reach, and it names none in those.
    tests/oracles/test_browsers_shortcuts.py checks it against the scan."""
    prescan_bytes = settings.prescan_bytes
    seen = body.memo.get(("chromium seen", settings.parser_limit, prescan_bytes))
    if seen is None or not seen.reach or seen.tree_states:
        return False
    if any(firefox_reading(span) is not None for span in seen.spans):
        return False
    text = bytes(body.data[:max(settings.parser_limit, prescan_bytes)]).decode("latin-1")
    return last_meta_start(text, firefox_reading) < seen.reach


def _scan(body: Body, settings: Settings, shortcuts: bool, scan) -> Decision | None:
    """A model's step 5: its ``<meta>`` scan over the first max(parser limit, prescan bytes) bytes
    (a ``<meta>`` past the prescan's bytes is certain, source ``"parser"``), else "get an XML
    encoding"; the UTF-16 XML declarations as the standard's prescan reads them. Shortcut: no scan
    where neither model can read a ``<meta>`` that declares an encoding (:func:`_no_declaring_meta`)."""
    data = body.data
    prescan_bytes = settings.prescan_bytes
    if data.startswith(_UTF_16_XML):  # the prescan's first check, in both browsers
        return Decision(_UTF_16[data[0] == 0], "tentative", "xml-declaration", None, 0)
    extent = max(settings.parser_limit, prescan_bytes)
    found = None
    if not (shortcuts and _no_declaring_meta(body, extent, prescan_bytes)):
        found = scan(data, extent, prescan_bytes)
    if found is not None:
        encoding, label, offset = found
        if offset < prescan_bytes:
            return Decision(meta_encoding(encoding), "tentative", "prescan", label, offset)
        return Decision(meta_encoding(encoding), "certain", "parser", label, offset)
    if shortcuts:
        # Shortcut: where the standard's prescan (same bytes, same limit) found no <meta> either,
        # it ended with the same "get an XML encoding": its finding is this one.
        prescanned = body.memo.get(("prescan", prescan_bytes), _UNSEEN)
        if prescanned is None or (prescanned is not _UNSEEN and prescanned.source == "xml-declaration"):
            return prescanned
    xml = get_xml_encoding(data)
    return None if xml is None else Decision(xml[0], "tentative", "xml-declaration", xml[1], 0)


# Both browsers show a 7-bit plain text body as ISO-2022-JP where chardetng guesses it, JIS text or
# not (tests/data/browsers, seed 35: a lone "ESC ( B" in plain text), where in HTML they never do.
CHROMIUM = Model("chromium", _chromium_type, _chromium_scan, seven_bit_jis=False, facts=_chromium_facts,
                 text_detector=seven_bit_guess)
FIREFOX = Model("firefox", _firefox_type, _firefox_scan, seven_bit_jis=False, facts=_firefox_facts,
                text_detector=seven_bit_guess)


# Markup after which Chromium's tokenizer and the standard's prescan may part: raw text elements,
# a comment ended by "--!>", and an earlier <meta> (Chromium may read its attributes otherwise).
_PARTS = re.compile(rb"(?i)<(?:title|textarea|style|xmp|iframe|noembed|noframes|script|plaintext|meta)|--!>")
_TAG_WINDOW = 256


def chromium_prescan_label(body: bytes, offset: int) -> str | None:
    """The label Chromium reads in the ``<meta>`` that the standard's prescan took at byte
    *offset* where it reads that tag as the prescan did (the same encoding, at the same offset;
    the label as written, where the prescan lowercases it), else ``None``: a tag with one
    ``charset`` attribute, no character reference or NUL in its value, and nothing before it
    that parts the two readers (:data:`_PARTS`). tests/oracles/test_browsers_shortcuts.py checks
    it against :func:`chromium_at_prescan_meta` and the scan."""
    # A <meta> whose one attribute is charset, as the prescan's loop and the tokenizer both read
    # it (the prescan took its label: no label holds "&" or NUL, which only the tokenizer decodes).
    value = charset_only(body, offset)
    if value is None or _PARTS.search(body, 0, offset):
        return None
    return value.decode("latin-1").strip("\t\n\x0c\r ")


def chromium_at_prescan_meta(body: bytes, offset: int) -> Decision | None:
    """Chromium's decision when the standard's prescan took the ``<meta>`` at byte *offset* (in
    the first 1024 bytes) and nothing before it makes Chromium's tokenizer read otherwise (no raw
    text element, no ``--!>``, no other ``<meta>``): its reading of that tag, or ``None`` where
    its scan must run (it reads the tag as no encoding, or the bytes before it may differ).
    tests/oracles/test_browsers_shortcuts.py checks it against the scan."""
    if body.startswith((b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")) or _PARTS.search(body, 0, offset):
        return None
    found = _meta_reading(body, offset, len(body))
    if found is None:
        return None
    return Decision(meta_encoding(found[0]), "tentative", "prescan", found[1], offset)


def _meta_reading(data: bytes, offset: int, end: int) -> tuple[Encoding, str] | None:
    """Chromium's reading (:data:`.browsers.chromium_reading`) of the tag at byte *offset* of
    ``data[:end]`` where it is a ``meta`` start tag that ends within FIRST_READ bytes, else ``None``."""
    # TAG matches each attribute whole, so a match in a window is the match in any longer text:
    # a short window first (most tags end in it), then FIRST_READ bytes.
    for size in (_TAG_WINDOW, FIRST_READ):
        match = TAG.match(bytes(data[offset:min(offset + size, end)]).decode("latin-1"))
        if match is not None:
            break
    # (ASCII lowercase, as tag_name(): no other Latin-1 character lowercases to ASCII)
    if match is None or match.group(1) or match.group(2).lower() != "meta":
        return None
    return chromium_reading(match.group(3))


def chromium_at_parser_meta(body: Body, settings: Settings) -> Decision | None:
    """Chromium's decision where the standard's parser step (any run over *body*: its finding is
    kept in ``body.memo``) took the ``<meta>`` at byte X with an ASCII-compatible encoding and no
    start or end tag (``<`` or ``</`` then a letter) before it in the bytes: its reading of that
    tag, or ``None`` where its scan must run. Before X both tokenizers then read the same
    comments, DOCTYPEs, bogus comments and text: what opens, ends or switches them (``<``, ``!``,
    ``-``, ``>``, ``?``, ``/``, whitespace) is bytes below 0x40 but digits, which no
    ASCII-compatible decoder takes into another character. With no tag, Chromium's scan is
    still in the head section at X, however far (a flood of comments is read once, by the
    parser step). tests/oracles/test_browsers_shortcuts.py checks it against the scan."""
    data = body.data
    extent = max(settings.parser_limit, settings.prescan_bytes)
    for encoding, found in parser_findings(body, settings.parser_limit):
        offset = found[2]
        if not encoding.is_ascii_compatible:  # ISO-2022-JP: ESC sequences switch what bytes mean
            continue
        if data.startswith(_UTF_16_XML) or _has_tag(data, offset):
            return None
        end = found[3]
        if encoding.is_single_byte or data[:end].isascii():
            # The tag ends at byte *end* (a character a byte before it), within the scan's bytes,
            # however long: its attributes, then what whitespace or "/" comes before its ">" (read
            # as no attribute), as Chromium's scan reads them (at once: not tokenized again).
            reading = chromium_reading(data[offset + len("<meta"):end - 1].decode("latin-1"))
        else:
            reading = _meta_reading(data, offset, extent)  # within the scan's bytes
        if reading is None:
            return None
        if offset < settings.prescan_bytes:
            return Decision(meta_encoding(reading[0]), "tentative", "prescan", reading[1], offset)
        return Decision(meta_encoding(reading[0]), "certain", "parser", reading[1], offset)
    return None


# A start or end tag as the tokenizer opens one ("<" or "</" then an ASCII letter).
# ASCII letters as "a", to find "<" or "</" then a letter by two C-speed finds (a regex search
# stops at every "<": a flood of "</>" costs it a step each).
_LETTERS_AS_A = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", b"a" * 52)


def _has_tag(data: bytes, end: int) -> bool:
    """Whether a start or end tag (``<`` or ``</`` then an ASCII letter) starts in ``data[:end]``:
    its first KiB, then eight times the bytes before, each with the two before it (a tag most often
    comes early: a page of tags before a late ``<meta>`` is not translated whole)."""
    start, stop = 0, min(end, 1024)
    while start < end:
        head = data[max(start - 2, 0):stop].translate(_LETTERS_AS_A)
        if b"<a" in head or b"</a" in head:
            return True
        start, stop = stop, min(end, 8 * stop)
    return False
# Bytes in which _no_declaring_meta reads the prolog before the first start tag (a page's: a
# DOCTYPE and a comment or two); a prolog that runs past them gives False (the scans decide).
# They bound the shortcut's work on a flood of comments, whatever the body's size.
_PROLOG_WINDOW = 2048


def _no_declaring_meta(body: Body, extent: int, prescan_bytes: int, window: int = _PROLOG_WINDOW) -> bool:
    """Whether neither model can read a ``<meta>`` that declares an encoding in its first *extent*
    bytes: none has a hint after it (``charset``, or ``http-equiv`` and a ``&``); or none starts in
    the first *prescan_bytes* and the document's first start tag takes both models out of the
    head (not one of :data:`_HEAD_TAGS`): neither reads past *prescan_bytes* then. The prolog
    before that start tag is read in the first *window* bytes only: False where it runs on."""
    meta_at = first_meta_at(body, extent)
    if meta_at < 0:
        return True
    if meta_at < prescan_bytes:
        return False
    data = body.data
    # The prolog read within *window* bytes (a starred pattern: never None; a page's is a DOCTYPE
    # and a comment or two): where the window cuts an item, it stops at that item, where no start
    # tag is, and the answer is False (the scans decide: a flood of comments is read once, by
    # them); a start tag where it stops is where the whole text's prolog stops (no item begins
    # with "<" and a letter).
    end = cast("re.Match[bytes]", _PROLOG.match(data, 0, min(extent, window))).end()
    first = _START_TAG.match(data, end, extent)
    return first is not None and tag_name(first.group(1).decode("latin-1")) not in _HEAD_TAGS


# What may come before the first start tag and leaves the insertion mode "initial" or "before
# html" (§13.2.6.4.1-2) and Chromium's scan in the head section: whitespace, comments (without
# "--" inside, so that the first "-->" ends them), DOCTYPEs and bogus comments ("<!", "<?" to the
# first ">"). It always matches (greedy, no backtracking over the body); the start tag follows.
_PROLOG = re.compile(rb"(?:[\t\n\x0c\r ]+|<!--(?![->])[^-]*(?:-(?!-)[^-]*)*-->|<!(?!--)[^>]*>|<\?[^>]*>)*")
# (A name's first 16 bytes: none of _HEAD_TAGS is longer, so a longer name, read no further, is none.)
_START_TAG = re.compile(rb"<([A-Za-z][^\t\n\x0c\r />]{0,15})")
# Start tags after which a model may still read a late <meta>: Chromium's head section
# (HTMLMetaCharsetParser) and Firefox's "before head" and "in head" rules. Any other start tag
# first ends Chromium's scan at byte prescan_bytes and puts Firefox's tree builder "in body" (or
# "in frameset"), from which it never returns to a mode where a late <meta> counts.
_HEAD_TAGS = frozenset(("html", "head", "base", "basefont", "bgsound", "link", "meta", "noframes", "noscript",
                        "object", "script", "style", "template", "title"))
