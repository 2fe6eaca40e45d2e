"""The parser step: the first ``<meta>`` the HTML tree builder acts on, and "change the
encoding" (HTML §13.2.3.4, https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing).

The tokenizer and tree builder scan lives in :mod:`.parser_scan` (``find_parser_meta``); this module
decodes the body with the tentative encoding, bounds the work, converts the character offset
of the ``<meta>`` to a byte offset, and applies the standard's steps.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from ..encoding import ENCODINGS, Encoding
from ._html.compiled import compiled_tokens
from ._html.tokenizer import LONGEST_TAG
from .decision import Decision
from .meta_charset import meta_encoding
from .prescan import PRESCAN_BYTES, prescan_metas, tag_end

#: Default bound of the parser step, in characters of decoded text: a ``<meta>`` whose ``<``
#: lies beyond it is not looked for (html5lib-tests put metas after up to 8 KiB of comments).
PARSER_LIMIT = 64 * 1024

# A meta that asks to change the encoding has a "charset" or "http-equiv" attribute name;
# attribute names never contain character references, so both are literal in the source.
# (?i) folds ASCII letters only in a bytes pattern; sre searches it ~20% faster than
# rb"<[Mm][Ee][Tt][Aa]" on tests/data/corpus, and both beat bytes.find of "<m".
_META_BYTES = re.compile(rb"(?i)<meta")
_META_TEXT = re.compile(r"<[Mm][Ee][Tt][Aa]")
# Tags after which the tokenizer or the tree builder reads markup otherwise than the prescan: group 1,
# a tag whose name as the prescan reads it (to whitespace or ">") holds a "/" and then a quote (the
# tokenizer's name ends at the "/", and a quoted value may follow, holding a ">"), or a "<" in it or
# after that "/" (taken as parting too: each "<" is read to the next one at most, so that a name of
# many "<a" costs one pass, not one per "<"); group 2, the start
# tags of RCDATA, RAWTEXT, script data, PLAINTEXT, foreign content, template contents, framesets
# (names grouped by first letter behind a lookahead: most "<" fail at once; a first lookahead for
# both groups makes a flood of "<!" cost a third).
_STATE_TAGS = re.compile(rb"<(?=/?[A-Za-z])(?:(/?[A-Za-z][^\t\n\x0c\r /><]*(?:<|/[^>\"'<]*[\"'<]))|(?=[TtSsXxIiNnPpMmFf])"
                         rb"(?i:(t(?:itle|extarea|emplate)|s(?:tyle|cript|vg)|xmp|iframe|no(?:embed|frames|script)"
                         rb"|plaintext|math|frameset))[\t\n\x0c\r />])")
_TEXT_ELEMENTS = frozenset((b"title", b"textarea", b"style", b"xmp", b"iframe", b"noembed", b"noframes",
                            b"noscript", b"script"))
_TAG_NAME_ENDS = (b"\t", b"\n", b"\x0c", b"\r", b" ", b"/", b">")
# Most text elements in one match: a start tag without a quote (it ends at its first ">", as the
# prescan reads it), text without a "<", and the appropriate end tag (group 2 its "</").
_PLAIN_ELEMENT = re.compile(rb"(?i)<(" + b"|".join(sorted(_TEXT_ELEMENTS)) + rb")[^>\"']*>[^<]*(</\1)[\t\n\x0c\r />]")
# From its end tag, where that is written "</" + name + ">": the end tag, text without a "<", then
# more of them whose end tag is written so, each with such text after it, in one match: each
# one's "<" starts a state tag (the name then whitespace, "/" or ">") that _PLAIN_ELEMENT reads
# whole, and no other does. (Empty at another end tag: the loop reads on from its "</".)
_PLAIN_NAMES = b"|".join(sorted(_TEXT_ELEMENTS))
_PLAIN_RUN = re.compile(rb"(?i)(?:</(?:" + _PLAIN_NAMES + rb")>[^<]*(?:<(" + _PLAIN_NAMES
                        + rb")(?=[\t\n\x0c\r />])[^>\"']*>[^<]*</\1>[^<]*)*)?")
# Text element name → an appropriate end tag (§13.2.5: RCDATA/RAWTEXT/script data end tag name
# states): "</" + the name, ASCII case-insensitively, then whitespace, "/" or ">".
_END_TAGS = {name: re.compile(rb"(?i)</" + re.escape(name) + rb"[\t\n\x0c\r />]") for name in _TEXT_ELEMENTS}
_TAG_START = re.compile(rb"</?[A-Za-z]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_FIRST_WINDOW = 8192  # bytes decoded first; doubled while no meta is found
_UTF_8 = ENCODINGS["UTF-8"]
_PLAIN_METAS = 16  # <meta> tags the prescan's loop reads for _plain_meta at most
_TAIL = 8  # characters at the end of a truncated decode that may differ from the full decode


def _scan_parser_meta(text: str, limit: int) -> tuple[Encoding, str, int, int] | None:
    """:func:`.parser_scan.scan_parser_meta` (the tokenizer and tree builder scan)."""
    from .parser_scan import scan_parser_meta  # imported on first use: most bodies never need it

    return scan_parser_meta(text, limit)


def _parser_head() -> int:
    """:data:`.parser_scan.PARSER_HEAD`: a ``<meta>`` whose "<" starts before that byte starts
    before that character too (a byte decodes to at most one character here)."""
    from .parser_scan import PARSER_HEAD

    return PARSER_HEAD


def parser_meta(body: bytes, encoding: Encoding, limit: int = PARSER_LIMIT, metas: list | None = None,
                meta: int | None = None) -> tuple[Encoding, str, int] | None:
    """The first ``<meta>`` that the tree builder (scripting enabled) hands to "change the
    encoding" when *body* (bytes) is decoded with *encoding* (no BOM handling: a BOM gives
    certainty before this step). Returns ``(encoding from get an encoding, label, byte offset of
    its "<")`` or ``None`` if no such tag lies wholly within the first *limit* characters. At most
    ``4 * limit + 16`` bytes are decoded (in windows doubling from 8 KiB); often none, where the
    bytes show the answer (:func:`_plain_meta`, which reuses *metas*, the ``<meta`` tags the
    prescan step read, see :func:`.prescan.prescan_metas`; *meta* is :func:`first_parser_meta_bytes`
    for *body* and *limit*, if the caller has it). Never raises."""
    found = parser_meta_span(body, encoding, limit, metas, True, meta)
    return None if found is None else found[:3]


def parser_meta_span(body: bytes, encoding: Encoding, limit: int = PARSER_LIMIT, metas: list | None = None,
                     shortcuts: bool = True, meta: int | None = None,
                     whole: Callable[[], str] | None = None, prescan_none: int = 0) -> tuple[Encoding, str, int, int] | None:
    """:func:`parser_meta` and where the tag ends: ``(encoding, label, byte offset of its "<",
    end)``, *end* the offset just after its ``>`` in bytes where every byte before it is ASCII
    (else at most that many characters past its start: no smaller than the offset of a non-ASCII
    byte before it). *shortcuts* ``False`` runs the plain twin: decode and tokenize, without
    reading the answer from the bytes first (:func:`_plain_meta`). *whole*: where the caller keeps
    the text of the whole *body* decoded with *encoding* (``encoding.decode(body)``), its getter,
    used where a window takes the whole body or an eighth of it at least (the page's text, decoded
    once for both: no window decoded before the whole). *prescan_none*: a count of bytes in which
    the prescan's loop read no ``<meta>`` that declares an encoding (:func:`.prescan.prescan_result`
    found nothing there), where the caller's prescan did: the bytes are not read again for it."""
    if limit <= 0 or encoding.name == "replacement":
        return None  # the replacement decoder yields at most one U+FFFD
    max_bytes = 4 * limit + 16
    window = _FIRST_WINDOW
    # In an ASCII-compatible encoding "<meta" in the text is exactly the bytes "<meta" ("<" is
    # never part of a multi-byte sequence and every other byte yields a character).
    literal = shortcuts and encoding.is_ascii_compatible
    if literal:  # the same check on the bytes, before decoding anything
        prescanned = metas and metas[-1][2] is not None  # the prescan's <meta>, where the tokenizer reads it too
        if not prescanned:
            if meta is None:
                meta = first_parser_meta_bytes(body, limit)
            if meta < 0:
                return None
        # (with the prescan's <meta>, the first "<meta" changes nothing: the same answer from 0;
        # without it, the shortcut only where that starts in the prescan's bytes: it reads the
        # bytes before it twice, slower than the tokenizer, which reads the page past them)
        found = None
        if prescanned or (meta or 0) < PRESCAN_BYTES:
            # (past the head bound the tree builder's mode decides: no reading there)
            head = _parser_head()
            plain_end = limit if prescanned else min(limit, head)
            # (where the prescan read those bytes and found nothing, _plain_meta's loop, the same steps
            # over them, stopping sooner at most, finds nothing either)
            found = None if not prescanned and plain_end <= prescan_none else _plain_meta(body, plain_end, metas, meta or 0)
            if found is not None and found[2] >= head:
                found = None
        if found is not None and (encoding.is_single_byte or encoding is _UTF_8 or metas_alike(body, found[3])):
            return found
        if meta is None:
            meta = first_parser_meta_bytes(body, limit)
        if meta < 0:
            return None
        # Most often the first meta that may name an encoding (the first "charset" after the first
        # "<meta", where there is one) is the one: tokenize just that far. (Found in the bytes
        # lowered, a memchr-led search: a case-insensitive regex reads each byte, 7 ns; the
        # first 1,024 bytes first, where it most often is.)
        charset = body[meta:min(meta + 1024, max_bytes)].lower().find(b"charset")
        if charset < 0 and meta + 1024 < max_bytes:
            rest = body[meta + 1018:max_bytes].lower().find(b"charset")  # (6 bytes again: one cut there)
            charset = rest if rest < 0 else 1018 + rest
        window = meta + max(charset, 0) + 1024
    gate = shortcuts and not literal and not encoding.is_utf16  # (ISO-2022-JP: _spells_meta)
    while True:
        window = min(window, max_bytes)
        if whole is not None and 8 * window >= len(body) <= max_bytes:
            window = len(body)  # (the page's text, decoded once for both: at most 8 times the window's decode)
        everything = window >= len(body)
        if gate and not (everything and whole is not None) and not _spells_meta(body, window):
            # (no "<meta" in this window's text: not decoded; a later one's first characters are its own)
            if everything or window >= max_bytes:
                return None
            window *= 8
            continue
        text = whole() if everything and whole is not None else encoding.decode(body[:window])
        safe = len(text) if everything else max(len(text) - _TAIL, 0)
        if literal or _has_meta_and_hint(text, min(safe, limit), safe):
            scanned = _scan_parser_meta(text[:safe], min(limit, safe))
            if scanned is not None:
                new, label, offset, end = scanned
                return new, label, byte_offset(body, encoding, text, offset), end
        if everything or window >= max_bytes or safe >= limit:
            return None
        # Each window is decoded and scanned from its start: after the first, one window to the
        # bound (at most 4 * limit + 16 bytes, decoded at C speed) rather than doubling (as many
        # scans); for UTF-16 and ISO-2022-JP, eight times the last (8 KiB, 64 KiB, 512 KiB: each
        # decode at most eight times the text before it, which was read for a "<meta").
        window = max_bytes if literal else 8 * window


# ISO-2022-JP (§12.2.1): the bytes from an escape sequence to katakana or jis0208 to the next ESC,
# all read in that state (every ESC starts an escape: no state takes one as a byte), which gives no
# ASCII character; and "<meta" in the text: its five bytes read in the ASCII or Roman state, with
# at most one escape sequence to either between two (a second in a row is an error, U+FFFD).
_WIDE_RUNS = re.compile(rb"\x1b(?:\$[@B]|\(I)[^\x1b]*")
_ISO_META = re.compile(rb"<(?:\x1b\([BJ])?[Mm](?:\x1b\([BJ])?[Ee](?:\x1b\([BJ])?[Tt](?:\x1b\([BJ])?[Aa]")
# _ISO_META led by its "m", the "<" (and an escape sequence after it) in lookbehinds: a page of "<"
# is no attempt at each (hunted, issue 37: a MiB of jis0208 pairs of "<", 3.5 ms a search, now 0.05).
_ISO_META_AT_M = re.compile(rb"[Mm](?:(?<=<[Mm])|(?<=<\x1b\([BJ][Mm]))"
                            rb"(?:\x1b\([BJ])?[Ee](?:\x1b\([BJ])?[Tt](?:\x1b\([BJ])?[Aa]")


def _spells_meta(body: bytes, end: int) -> bool:
    """Whether ``body[:end]`` without its katakana and jis0208 runs spells ``<meta`` (ASCII
    case-insensitively, an ASCII or Roman escape sequence between two of its bytes at most), which
    the text of its prefixes decoded with ISO-2022-JP needs for a ``<meta``
    (:func:`_has_meta_and_hint`): each "<" and ASCII letter of that text is that byte, read in the
    ASCII or Roman state, and no escape sequence but one to either state between two characters
    leaves them next to each other. A search first, then one substitution where the bytes spell it
    (issue 37: a body of jis0208 pairs of "<", or of ``<meta>`` tags in jis0208, is decoded in no window)."""
    return _iso_meta_in(body, end) and _iso_meta_in(_WIDE_RUNS.sub(b"", body[:end]))


def _iso_meta_in(data: bytes, end: int | None = None) -> bool:
    """Whether _ISO_META matches in ``data[:end]``: :data:`_ISO_META_AT_M` searched from the first
    "m" or "M" (two finds at C speed) on."""
    end = len(data) if end is None else end
    first = min((at for at in (data.find(b"m", 0, end), data.find(b"M", 0, end)) if at >= 0), default=-1)
    return first >= 0 and _ISO_META_AT_M.search(data, first, end) is not None


# An ASCII byte that a multi-byte decoder may take as the trail byte of the byte before it.
_TAKEN_AS_TRAIL = re.compile(rb"[\x80-\xff][\x30-\x7f]")


def metas_alike(body: bytes, end: int) -> bool:
    """Whether every ``<meta`` tag that starts in ``body[:end]`` reads alike in every
    ASCII-compatible encoding: no ASCII byte in it follows a byte ≥ 0x80 that a multi-byte decoder
    (Shift_JIS, Big5, GBK, gb18030, EUC-KR) may take it with as a trail byte (``"\\x81charset"``
    is a kanji and ``"harset"`` in Shift_JIS). Elsewhere such a pair changes nothing the tree
    builder acts on: no decoder turns another byte into an ASCII character, a name or a character
    reference with a non-ASCII character in it matches none in either reading, and the tokenizer
    reads no other character as markup; inside a ``<meta>`` it may hide or reveal a ``charset``.
    False where a tag has no end the prescan can read, and past :data:`_PLAIN_METAS` tags (a
    flood: the tokenizer decides)."""
    for count, match in enumerate(_META_BYTES.finditer(body, 0, end)):
        close = tag_end(body, match.start(), LONGEST_TAG) if count < _PLAIN_METAS else None
        if close is None or _TAKEN_AS_TRAIL.search(body, match.start(), close) is not None:
            return False
    return True


def _plain_meta(body: bytes, limit: int, metas: list | None, first: int = 0) -> tuple[Encoding, str, int, int] | None:
    """The ``<meta>`` the tree builder acts on first, read from the bytes where they show that the
    tokenizer sees what the prescan's loop sees; ``None`` when they do not (the tokenizer decides).
    *metas*: what the prescan step read (:func:`.prescan.prescan_metas`), if it found a ``<meta>``;
    *first*: an offset before which *body* has no ``<meta`` (the first one's, if known).

    For an ASCII-compatible encoding the two read a tag alike (same attribute rules; a byte
    below 0x40 is never part of a multi-byte sequence); the tokenizer's comments end no later
    than the prescan's, and other ``<!``, ``</``, ``<?`` constructs end at the same ``>``. They
    differ only in element content (RCDATA, RAWTEXT, script data, PLAINTEXT, CDATA in foreign
    content), after ``frameset`` (where ``meta`` is ignored), in character references, in
    what a comment the tokenizer ends early hides and in a tag name holding ``/`` (the
    tokenizer's ends there, ``<a/b=">">``). So if no tag before the prescan's ``<meta>``
    switches those (:func:`_plain_text_elements`), every ``<meta`` before it was read by the
    prescan, none of those names ``charset`` and none holds a ``&``, the tree builder acts on
    that one first, and reads its label as written."""
    if not metas or metas[-1][2] is None:
        # A tag within *limit* bytes is within *limit* characters. Past _PLAIN_METAS tags that
        # declare nothing the tokenizer decides (fewer steps than checking each tag here).
        # It takes the first "<meta" (at *first*, if known) or none (below): the loop reads no
        # further once past it without having read a tag there.
        metas = prescan_metas(body, limit, _PLAIN_METAS, first or None, LONGEST_TAG)
        if not metas or metas[-1][2] is None:
            return None
    start, end, _ = metas[-1]
    if end > limit or not _plain_text_elements(body, start):
        return None
    if len(metas) == 1:  # most pages: the one "<meta" before it is none, and no "&" in it
        if _META_BYTES.search(body, first, start) is not None or b"&" in body[start:end]:
            return None
    else:
        read = {tag_start for tag_start, _, _ in metas}
        if any(match.start() not in read for match in _META_BYTES.finditer(body, first, start)):
            return None  # a "<meta" the prescan skipped (in a comment it reads as longer, say)
        for tag_start, after, _ in metas:
            tag = body[tag_start:after]
            if b"&" in tag or tag_start != start and b"charset" in tag.lower():
                return None
    encoding, label = metas[-1][2]
    return encoding, label, start, end


def _plain_text_elements(body: bytes, end: int) -> bool:
    """Whether no tag in ``body[:end]`` makes the tokenizer read what follows otherwise than the
    prescan: none of :data:`_STATE_TAGS` but elements of text (RCDATA, RAWTEXT, script data)
    that end, before *end*, at their appropriate end tag, where the prescan's loop reads that
    end tag as a tag too (:func:`_prescan_reaches`)."""
    position = 0
    while (match := _STATE_TAGS.search(body, position, end)) is not None:
        plain = _PLAIN_ELEMENT.match(body, match.start(), end)
        if plain is not None:
            # the end tag (its name may hold a "/" too), or past the elements after it that end alike
            position = _PLAIN_RUN.match(body, plain.start(2), end).end()  # type: ignore[union-attr]
            continue
        name = match.group(2)
        if name is None or name.lower() not in _TEXT_ELEMENTS:
            return False  # "/" in a tag name; PLAINTEXT, foreign content, template contents, frameset
        name = name.lower()
        text = tag_end(body, match.start(), LONGEST_TAG)
        if text is None:
            return False
        close = body.find(b"<", text, end)
        after = close + 2 + len(name)
        if close < 0:
            return False
        if body[close:after].lower() != b"</" + name or body[after:after + 1] not in _TAG_NAME_ENDS:
            # Markup in the text (RSS titles' "<![CDATA[", scripts' "a < b"): the tokenizer's
            # end tag, if the prescan's loop gets there too.
            found = _END_TAGS[name].search(body, close, end)
            if found is None or not _prescan_reaches(body, close, found.start()):
                return False
            close = found.start()
        position = close  # the end tag: its name may hold a "/" too
    return True


def _prescan_reaches(body: bytes, start: int, close: int) -> bool:
    """Whether the prescan's loop, at a ``<`` at *start* in an element's text, reads the end tag at
    *close* as a tag, as the tokenizer does (which reads ``body[start:close]`` as text). True when
    every step it takes in there ends at the first ``>`` after its ``<``, or one byte on, and such
    a ``>`` follows the last ``<``: no ``<!--`` (a comment to ``-->``; script data's escape
    states), and no quote or no tag (``<`` or ``</`` then an ASCII letter, whose attribute values
    may be quoted past a ``>``). Nor any of :data:`_STATE_TAGS`: where the element's start tag was
    none (``<x<title>`` is one tag), the tokenizer reads that text as markup, as the prescan does."""
    text = body[start:close]
    if b"<!--" in text or text.find(b">", text.rfind(b"<")) < 0 or _STATE_TAGS.search(text) is not None:
        return False
    return (b'"' not in text and b"'" not in text) or _TAG_START.search(text) is None


def utf_8_finds_none_alike(body: bytes, limit: int = PARSER_LIMIT, text: str | None = None) -> bool:
    """Whether the parser step finds no ``<meta>`` in *body* with UTF-8 where it found none with a
    single-byte encoding (the same *limit*, no BOM). Shortcut of the step with UTF-8 (its twin:
    the step). The two texts read alike: each ASCII byte is the same character in both, and each
    run of other bytes a run of other characters, which no tokenizer state, insertion mode or
    label tells apart. They part only at the bounds counted in characters, UTF-8's text having
    fewer: where *body* fits in *limit* bytes, neither is cut; the head bound
    (:data:`.parser_scan.PARSER_HEAD` characters, a byte each in the single-byte text, up to four
    in UTF-8's) lets UTF-8's scan read on, out of the head, to its first ``<`` past that many
    characters: tokens starting before ``4 * PARSER_HEAD`` bytes, where no ``<template``
    (after which the tree builder may return to the head) has been written, and where each
    ``<meta`` from ``PARSER_HEAD`` on ends before the first hint after it (:class:`.parser_scan.Hints`:
    none names an encoding), each read within :data:`.tokenizer.LONGEST_TAG` characters, as many
    as :data:`_PLAIN_METAS` such tags in all at most (else ``False``: the scan decides; a page of
    quotes left open is not read to its end at each ``<meta``). *text*: *body* decoded with a
    single-byte encoding, where the caller has it (the parser step's own text: its hints and
    lowered bytes kept), else the latin-1 text is read."""
    from ._html.tokenizer import META_CANDIDATE, tag_reader  # imported on first use, as the scan
    from .parser_scan import Hints

    head = _parser_head()
    reach = 4 * head  # bytes of UTF-8's first *head* characters at most
    if len(body) > limit or bytes(body[:reach]).lower().find(b"<template") >= 0:
        return False
    if text is None or len(text) != len(body):
        text = bytes(body).decode("latin-1")  # (a single-byte text: the same tokens and hints)
    hint = Hints(text).next_hint(head)
    if hint < 0:
        return True
    tag_at, budget = tag_reader(), _PLAIN_METAS * LONGEST_TAG
    for meta in META_CANDIDATE.finditer(text, head, reach):
        start = meta.start()
        tag = tag_at(text, start, min(hint, start + LONGEST_TAG))
        if tag is None:
            return False  # (it may run past the hint)
        budget -= tag[0] - start
        if budget < 0:
            return False
    return True


def first_parser_meta_bytes(body: bytes, limit: int = PARSER_LIMIT) -> int:
    """Where :func:`parser_meta` may find a ``<meta>`` in *body* decoded with an ASCII-compatible
    encoding: the offset of the first ``<meta`` if a hint (:func:`has_hint_bytes`) follows it in
    the bytes it decodes, else -1 (it finds none with any of them)."""
    max_bytes = 4 * limit + 16
    meta = find_meta_bytes(body, 0, max_bytes)
    return meta if meta >= 0 and has_hint_bytes(body, meta, max_bytes) else -1


def find_meta_bytes(body: bytes, start: int, end: int) -> int:
    """Index of the first ``<meta`` (ASCII case-insensitive) in ``body[start:end]``, or -1:
    compiled where the extension is built (:func:`._html.compiled.compiled_tokens`: from one "<"
    to the next, no copy of the body; 64 KiB of stray "<" took the pattern 140-400 µs, now
    35-90), else its plain twin, the search of :data:`_META_BYTES`."""
    compiled = compiled_tokens()
    if compiled is not None:
        return compiled.meta_start(body, start, end)
    match = _META_BYTES.search(body, start, end)
    return -1 if match is None else match.start()


def has_hint_bytes(body: bytes, start: int, end: int) -> bool:
    """Whether ``body[start:end]`` may hold a ``<meta>`` that declares an encoding: ``charset``
    occurs in it (ASCII case-insensitive; an attribute name, or in a ``content`` value), or
    ``http-equiv`` and a ``&`` (a character reference may spell ``charset`` in a value)."""
    for window in (body[start:min(start + 512, end)], body[start:end]):  # near the meta first
        window = window.lower()  # then "in": several times faster than a case-insensitive regex
        if b"charset" in window or b"http-equiv" in window and b"&" in window:
            return True
    return False


def _has_meta_and_hint(text: str, meta_end: int, end: int) -> bool:
    meta = _META_TEXT.search(text, 0, meta_end)
    if meta is None:
        return False
    rest = text[meta.end():end].lower()
    return rest.find("charset") >= 0 or rest.find("http-equiv") >= 0


# ISO-2022-JP's escape sequences (Encoding Standard §12.2.1, escape start and escape states): a
# valid one, or a lone ESC (invalid: the bytes after it are decoded in the output state).
_ISO_2022_JP_ESCAPE = re.compile(rb"\x1b(?:\([BJI]|\$[@B])?")


def byte_offset(body: bytes, encoding: Encoding, text: str, index: int) -> int:
    """The byte offset in *body* of the ``"<"`` at character *index* of *text*, where *text* is
    (a prefix of) ``encoding.decode(body)`` and ``text[index] == "<"``. Exact for every encoding,
    in time linear in the offset: UTF-16 by counting code units; others by counting ``<``, since
    there a 0x3C byte always decodes to "<" and nothing else does (the Encoding Standard never
    masks an ASCII byte) — in ISO-2022-JP, only the 0x3C bytes the decoder reads in the ASCII or
    Roman state (§12.2.1: in the katakana state one is a katakana, in jis0208's lead and trail
    byte states part of a pair)."""
    if encoding.is_utf16:
        return 2 * index + 2 * len(_ASTRAL.findall(text, 0, index))
    if encoding.is_single_byte:
        return index  # each byte one character
    before = text.count("<", 0, index)
    if encoding.is_ascii_compatible:
        return _nth_lt(body, before + 1)
    # ISO-2022-JP: the runs between escape sequences, each read in one state (a lone ESC leaves
    # it: its bytes after are read in the output state); "<" is a 0x3C byte of an ASCII or Roman run.
    start, ascii_like = 0, True
    for escape in _ISO_2022_JP_ESCAPE.finditer(body):
        if ascii_like:
            count = body.count(b"<", start, escape.start())
            if count > before:
                break
            before -= count
        if escape.end() - escape.start() == 3:
            ascii_like = body[escape.start() + 1:escape.end()] in (b"(B", b"(J")
        start = escape.end()
    else:
        if not ascii_like:
            return -1
    return _nth_lt(body, before + 1, start)


def _nth_lt(body: bytes, count: int, start: int = 0) -> int:
    """The offset of the *count*-th byte 0x3C (from 1) at or after *start* in *body*: halving
    the span by C-speed counts, then one ``find`` per "<" in at most 64 bytes."""
    low, high = start, len(body)  # fewer than *count* before low, at least *count* before high
    while high - low > 64:
        middle = (low + high) // 2
        if body.count(b"<", start, middle) < count:
            low = middle
        else:
            high = middle
    position = low - 1
    for _ in range(count - body.count(b"<", start, low)):
        position = body.find(b"<", position + 1)
    return position


def _certain(decision: Decision) -> Decision:
    return Decision(decision.encoding, "certain", decision.source, decision.label, decision.offset)


def change_the_encoding(current: Decision, new: Encoding, label: str | None, offset: int | None) -> Decision:
    """Changing the encoding while parsing (HTML §13.2.3.4), steps 1–6, for a tentative
    *current* decision and the *new* encoding a ``<meta>`` at byte *offset* asked for.

    Where step 4 keeps the encoding, the decision keeps its source if that was a declaration in
    the body (the prescan's ``<meta>`` or XML declaration); an encoding the page did not declare
    (container, likely, detector, default) becomes the ``<meta>``'s: source ``"parser"``, with its
    label and offset, as where it changes (what declared the encoding is the ``<meta>``)."""
    if current.encoding.is_utf16:  # step 1
        return _certain(current)
    new = meta_encoding(new)  # steps 2-3
    if new is current.encoding and current.source in ("prescan", "xml-declaration"):  # step 4
        return _certain(current)
    # Steps 5-6: navigate/reparse with the new encoding, which is then certain.
    return Decision(new, "certain", "parser", label, offset)
