"""What Scrapy alone would have done with a response, for the ``changed_from_scrapy_default`` stat.

One meaning everywhere (stats, closing summary, crawl report, ``explain``, ``audit``): a page
*differs from Scrapy alone* when the text it gets (``response.text``) is not, character for
character, the text Scrapy alone gives it (Scrapy's encoding inference, then w3lib's decoding with
Python's codec, ``errors="replace"``); a binary response (no text) differs.

Scrapy's ``TextResponse`` picks, in order: a BOM (w3lib's, UTF-32 included), the ``Content-Type``
charset, a ``<meta>``/XML declaration found by w3lib's regular expressions, then bytes that decode
as ASCII (→ cp1252) or UTF-8, and only then a statistical guess (charset-normalizer).

A crawl compares without replaying Scrapy's inference where the facts the decision already found
tell Scrapy's codec (:func:`known_encoding`: a BOM, the ``Content-Type`` charset, a declaration read
off the decision) and its text follows without decoding (:func:`changed` with ``replay=False``);
:class:`Comparisons` replays the rest (:func:`replay`: w3lib's steps, and Scrapy itself where it
would guess) for a sample only, and counts the others as *not compared*.
"""
from __future__ import annotations

import codecs
import functools
import re
from collections import Counter

from scrapy.http import HtmlResponse
from w3lib.encoding import (
    html_body_declared_encoding,
    html_to_unicode,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)

from ..encoding import ENCODINGS, Encoding, decode, get_encoding
from ..encoding.codec import from_codec_name
from ..sniffing.body import Body
from ..sniffing.content_type import per_value
from ..sniffing.decision import Decision

# Python codec names that decode like one WHATWG encoding on the bytes they both define
# (w3lib translates several of these before decoding).
_FAMILY = {
    "ascii": "cp1252", "iso8859-1": "cp1252", "latin-1": "cp1252",
    "gb2312": "gb18030", "gbk": "gb18030",
    "big5hkscs": "big5", "cp950": "big5",
    "cp932": "shift_jis", "cp949": "euc_kr",
    "tis-620": "cp874", "iso8859-11": "cp874", "iso8859-9": "cp1254",
    "utf-8-sig": "utf-8",
}
# Encodings whose name w3lib does not resolve, but whose decoder a Python codec has.
_WHATWG_TO_PYTHON = {"ISO-8859-8-I": "iso8859-8", "x-mac-cyrillic": "mac-cyrillic", "windows-874": "cp874"}
# Python's names for codecs that lxml (libxml2) does not know under that name: an alias of the
# same Python codec that both read (tests/scrapy/test_drop_in.py checks every name in both).
_READABLE = {"euc_jp": "euc-jp", "iso2022_jp": "iso-2022-jp", "iso2022_kr": "iso-2022-kr",
             "utf-16-be": "utf-16be", "utf-16-le": "utf-16le", "mac-roman": "macintosh",
             "mac-cyrillic": "maccyrillic"}
#: Encodings no Python codec decodes: Scrapy alone reads ``x-user-defined`` as no label at all,
#: and decodes a label of ``replacement`` with Python's codec of the same name (``hz``,
#: ``iso2022_kr``) where it has one.
NO_PYTHON_CODEC = frozenset({"replacement", "x-user-defined"})
BINARY = "binary"  # Scrapy made a plain Response: no text at all
# The one BOM w3lib reads that the standard's BOM sniff does not see at all (UTF-32LE's starts
# with UTF-16LE's): a body that the BOM sniff finds none in has no w3lib BOM without it.
_UTF_32_BE_BOM = b"\x00\x00\xfe\xff"
# w3lib's html_body_declared_encoding reads the first 4096 bytes, and finds an encoding only in a
# <meta> spelling "charset" or an XML declaration's "encoding", each starting with "<", maybe
# whitespace (\s of a str pattern, the bytes read as ISO-8859-1), then "meta" or "?xml" (ASCII
# case-insensitively: no other character of ISO-8859-1 folds to those letters). This one
# search, rather than lowercasing the window, tells most pages apart (w3lib 1.x to 2.x); its
# lookahead fails most "<" at once.
_W3LIB_WINDOW = 4096
# Where w3lib's declaration scan (w3lib 2.1 to 2.x) may find a declaration or stop: a "<" then
# maybe whitespace and "meta" or "body", or "<?xml" and whitespace (each version's \s, ISO-8859-1
# read as text). Its other match, a comment ("<!--" to the next "-->", w3lib >= 2.2), is skipped.
_W3LIB_TAG = re.compile(rb"<(?:[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0]*(?:[Mm][Ee][Tt][Aa]|[Bb][Oo][Dd][Yy])"
                        rb"|\?[Xx][Mm][Ll][\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0])")
# Declarations that every w3lib version reads as the standard does, to a label of ASCII letters,
# digits, "_" and "-": a <meta> with one charset attribute, and an XML declaration with a version
# and an encoding, each quoted alike.
_SIMPLE_META = re.compile(rb"<[Mm][Ee][Tt][Aa][\t\n\x0c\r ]+[Cc][Hh][Aa][Rr][Ss][Ee][Tt]="
                          rb"(?:\"([\w-]+)\"|'([\w-]+)'|([\w-]+)(?=[\t\n\x0c\r >]))[\t\n\x0c\r ]*/?>")
_SIMPLE_XML = re.compile(rb"<\?xml[\t\n\r ]+version=([\"'])1\.[0-9]\1[\t\n\r ]+encoding=([\"'])([\w-]+)\2[\t\n\r ]*\?>")
_W3LIB_DECLARATION = re.compile(rb"<(?=[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0Mm?])[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0]*"
                                rb"(?:[Mm][Ee][Tt][Aa]|\?[Xx][Mm][Ll])")
# Pairs (a CPython codec that decoded every byte of a body, Scrapy's codec), other than a codec and
# itself, whose texts are then the same: GB18030 after GBK (its four-byte sequences have an ASCII
# digit as second byte, never a GBK trail byte, and it maps all 21,791 GBK two-byte sequences
# alike, tests/scrapy/test_differs_from_scrapy.py).
_SAME_WHERE_VALID = frozenset({("gbk", "gb18030")})


@functools.lru_cache(maxsize=512)
def _family(python_name: str) -> str:
    try:
        name = codecs.lookup(python_name).name
    except LookupError:
        return python_name.lower()
    return _FAMILY.get(name, name)


@functools.lru_cache(maxsize=64)
def _codec_name(name: str) -> str | None:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


@functools.lru_cache(maxsize=64)
def _ours(encoding: Encoding) -> str:
    """The Python codec family of *encoding*'s decoder (see ``changed``)."""
    return _family(_WHATWG_TO_PYTHON.get(encoding.name, encoding.name))


@per_value
def _header_encoding(content_type: str | None) -> str | None:
    return http_content_type_encoding(content_type or "")  # the same few headers recur all crawl


def _may_declare(data: bytes) -> bool:
    """Whether w3lib's ``html_body_declared_encoding`` may find a declaration in *data*: where it
    may start, then "charset" (as written, else in any case) or "encoding" after that."""
    start = _W3LIB_DECLARATION.search(data, 0, _W3LIB_WINDOW)
    if start is None:
        return False
    at = start.start()
    if data.find(b"charset", at, _W3LIB_WINDOW) >= 0:
        return True
    window = data[at:_W3LIB_WINDOW].lower()
    return b"charset" in window or b"encoding" in window


def scrapy_encoding(content_type: str | None, body: bytes | Body, is_text: bool,
                    decision: Decision | None = None) -> str | None:
    """The Python codec name Scrapy would decode *body* (bytes or their ``Body``) with,
    :data:`BINARY`, or ``None`` when Scrapy would fall back to its statistical guess. With
    *decision*, ours for the same body and *content_type*, the declaration it came from is read
    off it where w3lib's scan provably finds the same one first (:func:`w3lib_declared`), instead
    of running that scan."""
    if not is_text:
        return BINARY
    facts = body if isinstance(body, Body) else Body(body)
    data = facts.data
    bom = read_bom(data)[0] if facts.bom is not None or data.startswith(_UTF_32_BE_BOM) else None
    name = bom or _header_encoding(content_type)
    if not name:
        declared = _UNKNOWN if decision is None else w3lib_declared(data, decision)
        if declared is not _UNKNOWN:
            name = declared  # type: ignore[assignment]
        elif _may_declare(data):
            name = html_body_declared_encoding(data)
    if name:
        return name
    if facts.is_ascii:
        return "cp1252"
    return "utf-8" if facts.is_utf_8 else None


_UNKNOWN = object()  # w3lib_declared cannot tell


def w3lib_declared(data: bytes, decision: Decision) -> str | None | object:
    """What w3lib's ``html_body_declared_encoding(data)`` returns, read off the declaration at
    *decision*'s offset (ours for *data*: the ``<meta>`` the prescan or the parser step found, an
    XML declaration at byte 0) where that is certain: the declaration is written as every w3lib
    version reads it (:data:`_SIMPLE_META`, :data:`_SIMPLE_XML`) within w3lib's 4096 bytes, with
    nothing before it where w3lib's scan may match (:func:`_w3lib_reaches`: no other ``<meta``,
    ``<body`` or ``<?xml``, comments closed), so that w3lib's first match is that declaration. Returns
    w3lib's codec name for its label (``None`` if w3lib knows none), or :data:`_UNKNOWN`."""
    offset = decision.offset
    if offset is None:
        return _UNKNOWN
    if offset == 0 and data.startswith(b"<?"):
        found = _SIMPLE_XML.match(data)
        label = None if found is None else found[3]
    else:
        found = _SIMPLE_META.match(data, offset)
        if found is None or found.end() > _W3LIB_WINDOW or not _w3lib_reaches(data, offset):
            return _UNKNOWN
        label = found[1] or found[2] or found[3]
    return _UNKNOWN if label is None else _resolve(label.decode("ascii"))


def _w3lib_reaches(data: bytes, offset: int) -> bool:
    """Whether w3lib's scan gets to *offset* having found nothing: no :data:`_W3LIB_TAG` before
    it (in comments or not: w3lib 2.1 reads no comments), and every comment before it closed
    before it, as w3lib reads comments ("-->" after the "<!--")."""
    if _W3LIB_TAG.search(data, 0, offset) is not None:
        return False
    start = data.find(b"<!--", 0, offset)
    while start >= 0:
        close = data.find(b"-->", start + 4)
        if close < 0 or close + 3 > offset:
            return False
        start = data.find(b"<!--", close + 3, offset)
    return True


@functools.lru_cache(maxsize=256)
def _resolve(label: str) -> str | None:
    return resolve_encoding(label)


@functools.cache  # one name per encoding
def scrapy_codec_name(encoding: Encoding) -> str | None:
    """The name Scrapy alone reports as ``response.encoding`` for a page in *encoding*: the
    Python codec name w3lib's ``resolve_encoding`` gives for the encoding's name (``"cp1251"``,
    ``"utf-8"``, ``"cp932"`` for Shift_JIS, ``"gb18030"`` for GBK), the codec of the same decoder
    where w3lib knows no such name (``"iso8859-8"`` for ISO-8859-8-I), spelled as lxml reads it
    where Python's spelling is not (``"euc-jp"``, ``"macintosh"``, ``"maccyrillic"``), and
    ``None`` for :data:`NO_PYTHON_CODEC` (then ``response.encoding`` is Scrapy's own inference,
    see :func:`scrapy_inference`).
    docs/responses.rst tabulates it, with where Python's codec decodes otherwise than the standard.

    >>> from scrapy_whatwg_encoding import ENCODINGS
    >>> [scrapy_codec_name(ENCODINGS[name]) for name in ("windows-1251", "Shift_JIS", "x-user-defined")]
    ['cp1251', 'cp932', None]
    """
    name = resolve_encoding(encoding.name) or _WHATWG_TO_PYTHON.get(encoding.name)
    return None if name is None or encoding.name in NO_PYTHON_CODEC else _READABLE.get(name, name)


def inferred_encoding(response) -> str:
    """The ``encoding`` Scrapy alone infers for *response* (a ``TextResponse``), as Scrapy spells
    it (what ``replace()`` copies), from a plain copy of Scrapy's ``HtmlResponse`` with the same
    URL, headers and body (so *response*'s own caches stay untouched; every text class of Scrapy's
    infers alike). It may run Scrapy's statistical guess."""
    return HtmlResponse(response.url, headers=response.headers, body=response.body).encoding


def scrapy_inference(response) -> str:
    """:func:`inferred_encoding`, spelled as lxml reads it; the middleware's ``encoding`` for
    :data:`NO_PYTHON_CODEC` only."""
    name = inferred_encoding(response)
    return _READABLE.get(name, name)


@functools.lru_cache(maxsize=64)
def whatwg_for_codec(name: str) -> Encoding | None:
    """The WHATWG encoding for a Python codec name given to Scrapy (``"utf-8"``, ``"cp1251"``,
    ``"euc_jp"``, ``"mac-cyrillic"``, ``"whatwg-shift_jis"``): the encoding *name* is a label of,
    else the one whose Python codec is of the same family (see ``changed``) or whose
    ``codec_name`` it is, else ``None``. Their decoders may still differ on some bytes (Python's
    ``latin-1`` and windows-1252 on 0x80-0x9F).

    >>> whatwg_for_codec("cp1251"), whatwg_for_codec("euc_jp"), whatwg_for_codec("cp437")
    (<Encoding windows-1251>, <Encoding EUC-JP>, None)
    """
    return get_encoding(name) or from_codec_name(name) or _by_family().get(_family(name))


def changed(scrapy_name: str | None, encoding: Encoding, body: bytes | Body, replay: bool = True) -> bool | None:
    """Whether Scrapy's text (decoded with ``scrapy_name``, from :func:`scrapy_encoding`) differs
    from *body* (bytes or their ``Body``) decoded with *encoding*; ``None`` if not compared
    (Scrapy would guess, or the answer needs Scrapy's text and *replay* is false). Exact, and
    cheap where it can be: other families differ on any
    non-ASCII byte; within a family, where the decode of *body* (kept by the ``Body``: the caller's
    text) found that CPython's codec gives the same text (:meth:`.Body.same_as_codec`), Scrapy's
    codec gives it too; otherwise, for a single-byte pair, only the bytes the two decoders map
    differently can differ (:func:`_differing_bytes`); other pairs (multi-byte, UTF-16) are
    decoded both ways and compared (with *replay* only)."""
    if scrapy_name is None:
        return None
    if scrapy_name == BINARY:
        return True
    facts = body if isinstance(body, Body) else Body(body)
    encoding = facts.bom or encoding  # the "decode" hook: a BOM wins over the decision
    if same_decoder(scrapy_name, encoding):  # one cached look-up: most labeled pages
        return False
    data = facts.data
    ours = _ours(encoding)
    if _family(scrapy_name) != ours:
        # ASCII bytes decode alike in every ASCII-compatible encoding, and in ISO-2022-JP without
        # an escape; not in UTF-16 or replacement.
        return not (facts.is_ascii and (encoding.is_ascii_compatible
                                        or encoding.name == "ISO-2022-JP" and b"\x1b" not in data))
    if ours == "utf-8" or facts.is_ascii and encoding.is_ascii_compatible:
        return False  # the same decoder (w3lib and the standard both replace maximal subparts)
    text = facts.text(encoding)
    codec = facts.same_as_codec(encoding)
    if codec is not None:
        pair = (_codec_name(codec), _codec_name(scrapy_name))
        if pair[0] == pair[1] or pair in _SAME_WHERE_VALID:
            return False  # that codec decodes every byte as the standard does: Scrapy's text is ours
    differing = _differing_bytes(scrapy_name, encoding)
    if differing is not None:
        few, others = differing
        if len(few) <= 8:  # most pairs: none or a few bytes, each looked for at memchr speed
            return any(byte in data for byte in few)
        return bool(data.translate(None, others))  # is any of those bytes in the body?
    return scrapy_text(scrapy_name, data) != text if replay else None


def scrapy_text(scrapy_name: str, body: bytes) -> str:
    """The text Scrapy alone gives *body* decoded with *scrapy_name* (a Python codec name from
    :func:`scrapy_encoding`, not :data:`BINARY`): w3lib's ``html_to_unicode``, as ``TextResponse``
    does (a BOM is removed, ``errors="replace"``)."""
    return html_to_unicode(f"charset={scrapy_name}", body)[1]


def scrapy_text_from(scrapy_name: str, encoding: Encoding, facts: Body, after: int) -> tuple[int, str]:
    """``(skip, text)``: Scrapy's text of ``facts.data`` decoded with *scrapy_name* (see
    :func:`scrapy_text`) from character *skip* on, where the first *skip* characters are known to be
    those of ``facts.text(encoding)`` without decoding them, so that only the rest is decoded: for a
    single-byte pair, up to the first byte the two decoders map differently (:func:`_differing_bytes`),
    then *after* characters of text; for two ASCII-compatible decoders, from the first non-ASCII
    byte on (ASCII bytes decode alike, and leave each decoder in its initial state); else from
    character 0, the whole text. A part that starts with what w3lib reads as a BOM is never cut."""
    data, start, end = facts.data, 0, None
    if facts.bom is None and _ascii_alike(encoding) and _ascii_alike(whatwg_for_codec(scrapy_name)):
        start = facts.first_non_ascii or 0
        differing = _single_byte_differing(scrapy_name, encoding)
        found = -1 if differing is None else _first_of(data, differing, start)
        if found >= 0:
            start, end = found, found + after
    if start:
        part = data[start:end]
        if read_bom(part)[0] is None:
            return start, scrapy_text(scrapy_name, part)
    return 0, scrapy_text(scrapy_name, data)


def _ascii_alike(encoding: Encoding | None) -> bool:
    """Whether *encoding*'s decoder (and a Python codec of its family) decodes each ASCII byte to
    itself, statelessly (not ISO-2022-JP: its escapes are ASCII bytes)."""
    return encoding is not None and encoding.is_ascii_compatible and encoding.name != "ISO-2022-JP"


@functools.lru_cache(maxsize=128)
def _single_byte_differing(scrapy_name: str, encoding: Encoding) -> tuple[tuple[bytes, ...], bytes] | None:
    """:func:`_differing_bytes` where *scrapy_name*'s codec is single-byte too (one character per
    byte each side), with the second item a ``bytes.translate`` table (differing bytes → 1, others
    → 0); ``None`` where either decoder is not single-byte or none differs."""
    theirs = whatwg_for_codec(scrapy_name)
    differing = _differing_bytes(scrapy_name, encoding)
    if differing is None or not differing[0] or theirs is None or not theirs.is_single_byte:
        return None
    return differing[0], bytes(int(bytes([b]) in differing[0]) for b in range(256))


def _first_of(data: bytes, differing: tuple[tuple[bytes, ...], bytes], start: int) -> int:
    """The offset of the first of the *differing* bytes (from :func:`_single_byte_differing`) in
    *data* from *start* on, or -1: a bounded ``find`` (memchr) per byte for a few, else one
    ``translate`` of the rest and a ``find``, all at C speed."""
    few, table = differing
    if len(few) > 8:
        at = data[start:].translate(table).find(1)
        return at + start if at >= 0 else -1
    best = len(data)
    for byte in few:
        at = data.find(byte, start, best)
        if at >= 0:
            best = at
    return best if best < len(data) else -1


@functools.lru_cache(maxsize=128)
def _differing_bytes(scrapy_name: str, encoding: Encoding) -> tuple[tuple[bytes, ...], bytes] | None:
    """For a single-byte *encoding*: ``(bytes on which Scrapy's decoding of scrapy_name and the
    standard's decoder differ, each alone; every other byte)``, the second a ``bytes.translate``
    deletion table; ``None`` for other encodings (their decoders keep state across bytes)."""
    if not encoding.is_single_byte:
        return None
    differ = bytes(b for b in range(256) if scrapy_text(scrapy_name, bytes([b])) != decode(bytes([b]), encoding)[0])
    return tuple(bytes([b]) for b in differ), bytes(b for b in range(256) if b not in differ)


@functools.cache  # on first use: it looks up every codec
def _by_family() -> dict[str, Encoding]:
    """Python codec family → WHATWG encoding (the first listed wins: ISO-8859-8 over ISO-8859-8-I,
    GBK over gb18030, whose decoders are the same)."""
    found: dict[str, Encoding] = {}
    for encoding in ENCODINGS.values():
        found.setdefault(_family(_WHATWG_TO_PYTHON.get(encoding.name, encoding.name)), encoding)
    return found


def known_encoding(content_type: str | None, facts: Body, decision: Decision) -> str | None:
    """The Python codec name Scrapy alone decodes *facts* with where the facts the decision found
    tell it without running w3lib's declaration scan: w3lib's BOM, else the ``Content-Type``
    charset w3lib reads (a per-value cache), else the declaration read off *decision*
    (:func:`w3lib_declared`); ``None`` when they do not tell."""
    data = facts.data
    if facts.bom is not None or data.startswith(_UTF_32_BE_BOM):
        return read_bom(data)[0]
    name = _header_encoding(content_type)
    if name is None and decision.offset is not None:
        declared = w3lib_declared(data, decision)
        name = declared if isinstance(declared, str) else None
    return name


@functools.lru_cache(maxsize=256)
def same_decoder(scrapy_name: str, encoding: Encoding) -> bool:
    """Whether Scrapy's codec *scrapy_name* (w3lib's decoding) gives every body the text
    *encoding*'s decoder gives it: UTF-8 and Python's ``utf-8`` (both replace maximal subparts),
    and single-byte pairs that map every byte alike (:func:`_differing_bytes`)."""
    ours = _ours(encoding)
    if _family(scrapy_name) != ours:
        return False
    if ours == "utf-8":
        return True
    differing = _differing_bytes(scrapy_name, encoding)
    return differing is not None and not differing[0]


#: A page compared with Scrapy alone, or not: ``(changed, scrapy_encoding, scrapy_text)`` —
#: ``changed`` (``None``: not compared), Scrapy's Python codec name (``None``: not known) and
#: Scrapy's text where the comparison decoded it (else ``None``). A plain tuple: one is made per
#: response, and a named tuple's constructor costs several times more.
Verdict = tuple[bool | None, str | None, str | None]


def replay(response, content_type: str | None, facts: Body, decision: Decision, chosen: str | None = None) -> Verdict:
    """Compare *response* (a ``TextResponse``; ours: *decision*, its text ``facts.text(decision.encoding)``)
    with Scrapy alone, whatever it costs: Scrapy's codec is *chosen* (an encoding a middleware
    gave the response) or :func:`scrapy_encoding`'s (w3lib's steps); where Scrapy would guess, Scrapy
    itself infers on a copy (:func:`inferred_encoding`'s, charset-normalizer included), as the
    command line's ``audit`` does."""
    name = chosen or scrapy_encoding(content_type, facts, True, decision)
    if name is None:
        copy = HtmlResponse(response.url, headers=response.headers, body=response.body)
        theirs = copy.text
        return theirs != facts.text(decision.encoding), copy.encoding, theirs
    verdict = changed(name, decision.encoding, facts, replay=False)
    if verdict is not None:
        return verdict, name, None
    theirs = scrapy_text(name, facts.data)  # kept for the report: not decoded again
    return theirs != facts.text(facts.bom or decision.encoding), name, theirs


#: Pages compared by a replay (see :class:`Comparisons`): the first ``COMPARE_FIRST`` of each
#: decision source, then one in ``COMPARE_EVERY``.
COMPARE_FIRST = 20
COMPARE_EVERY = 64


class Comparisons:
    """The "differs from Scrapy alone" comparison of one crawl. A page is compared at no replay
    where :func:`known_encoding` (or an encoding *chosen* for it) tells Scrapy's codec and
    :func:`changed` tells the answer without decoding (a header charset both read, a ``<meta>``
    read off the decision, with a codec that decodes as the decided encoding does or not on the
    body's bytes); the others are :func:`replay`-ed for a deterministic sample: the first *first*
    of each decision source, then every *every*-th (counted per source, in the order pages arrive),
    and are *not compared* otherwise."""

    def __init__(self, first: int = COMPARE_FIRST, every: int = COMPARE_EVERY):
        self.first, self.every = first, every
        self.replays: Counter[str] = Counter()  # per source: pages that a comparison needed a replay for
        self.replayed = 0  # pages compared by a replay

    def describe(self) -> str:
        """What is compared, for people (the closing summary, the report)."""
        return (f"every page whose Scrapy encoding the decision's own facts tell (its BOM, Content-Type charset or "
                f"declaration) and whose text needs no second decode; of the others ({self.replays.total()}), "
                f"the first {self.first} per decision source, then 1 in {self.every}, by replaying Scrapy's "
                f"inference ({self.replayed} pages)")

    def judge(self, response, content_type: str | None, facts: Body, decision: Decision,
              chosen: str | None = None) -> Verdict:
        """The :data:`Verdict` for *response* (see :func:`replay` for the arguments)."""
        name = chosen or known_encoding(content_type, facts, decision)
        if name is not None:
            verdict = changed(name, decision.encoding, facts, replay=False)
            if verdict is not None:
                return verdict, name, None
        seen = self.replays[decision.source]
        self.replays[decision.source] = seen + 1
        if seen < self.first or (seen - self.first + 1) % self.every == 0:
            self.replayed += 1
            return replay(response, content_type, facts, decision, chosen)
        return None, name, None
