"""Typing an untyped response as browsers do for a navigation: the MIME Sniffing Standard's "rules
for identifying an unknown MIME type" (https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type,
§7.1) with the sniff-scriptable flag set, through xtractmime (the Scrapy project's implementation
of that standard), and the kind of document the encoding sniffing algorithm then runs.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from xtractmime import RESOURCE_HEADER_BUFFER_LENGTH, extract_mime, is_binary_data

from .content_type import UNKNOWN_TYPES

_WS = b"\t\n\x0c\r "

# The longest pattern that skips leading whitespace ("<!DOCTYPE HTML" and a tag-terminating byte).
_LONGEST_TEXT_PATTERN = 15


def is_untyped(essence: str) -> bool:
    """Whether a response whose MIME type essence is *essence* (``""`` for a missing, empty or
    unparsable Content-Type, see :func:`.content_type.content_type_facts`) has an unknown type
    (MIME Sniffing §7: ``unknown/unknown``, ``application/unknown``, ``*/*`` or none).

    >>> is_untyped(""), is_untyped("unknown/unknown"), is_untyped("text/html")
    (True, True, False)
    """
    return not essence or essence in UNKNOWN_TYPES


def unknown_mime_type(body: bytes) -> str:
    """The MIME type essence the rules for identifying an unknown MIME type (MIME Sniffing §7.1,
    sniff-scriptable flag set, as for a navigation) give *body*, a bytes-like object: they read
    its first 1,445 bytes (the resource header). ``"text/html"``, ``"text/xml"``,
    ``"text/plain"``, ``"application/octet-stream"`` (binary bytes), or an image, media, archive,
    PDF or PostScript type. Never raises.

    >>> unknown_mime_type(b"  <HTML><p>x"), unknown_mime_type(b'<?xml version="1.0"?><a/>')
    ('text/html', 'text/xml')
    >>> unknown_mime_type(b"<!DOCTYPE><p>x"), unknown_mime_type(b"\\x00\\x01"), unknown_mime_type(b" \\n")
    ('text/plain', 'application/octet-stream', 'text/plain')
    """
    header = bytes(body[:RESOURCE_HEADER_BUFFER_LENGTH])
    stripped = header.lstrip(_WS)
    if len(stripped) < len(header) and len(stripped) < _LONGEST_TEXT_PATTERN:
        # xtractmime 0.2.1 reads past the end of a header whose whitespace leaves fewer bytes than
        # a pattern (IndexError). No pattern but the scriptable ones may follow whitespace, so the
        # header without it gives the same scriptable answer; otherwise it is text or binary.
        typed = extract_mime(stripped)
        if typed not in (b"text/html", b"text/xml"):
            typed = b"application/octet-stream" if is_binary_data(header) else b"text/plain"
    else:
        typed = extract_mime(header)
    return (typed or b"text/plain").decode("latin-1")


def kind_of(essence: str) -> str | None:
    """The kind of document a browser shows for a sniffed type *essence*: ``"html"``, ``"xml"``,
    ``"text"``, ``"media"`` (an image, audio, video or PDF document, whose ``characterSet`` is
    UTF-8 in Firefox) or ``None`` (a download: binary data, archives, fonts, PostScript)."""
    if essence == "text/html":
        return "html"
    if essence == "text/plain":
        return "text"
    if essence.endswith(("/xml", "+xml")):
        return "xml"
    if essence.startswith(("image/", "audio/", "video/")) or essence == "application/pdf":
        return "media"
    return None


#: Bytes in which each browser looks for a binary byte (MIME Sniffing §7.1 reads the 1,445 of the
#: resource header): a body of text with one past them is shown as text (tools/browser_check/variants.py,
#: set "binary": 0x00 or 0x01 at byte 511 is a download in both, at 512 text in Firefox, at 1024 in
#: Chromium; ESC is text everywhere, as the standard says).
FIREFOX_BINARY_BYTES = 512
CHROMIUM_BINARY_BYTES = 1024  # Chromium's kMaxBytesToSniff, which also bounds its leading whitespace


#: Bytes in which both browsers look for an HTML or XML signature, leading whitespace included:
#: the signature must lie within them (a longer run of whitespace: text or binary; measured with
#: the signature at bytes 500 to 1450, tools/browser_check/variants.py set "untyped35").
SIGNATURE_BYTES = 512
# Leading whitespace each browser skips: Chromium's includes VT (0x0B), Firefox's not even FF
# (0x0C), and Firefox shows a body that starts with VT as text (no binary byte for it).
_CHROMIUM_LEADING = re.compile(rb"[\t\n\x0b\x0c\r ]*")
_FIREFOX_LEADING = re.compile(rb"[\t\n\r ]*")
# The standard's HTML patterns (MIME Sniffing §7.1, case-insensitive), each but "<!--" followed by
# a tag-terminating byte (space or ">") in Firefox; Chromium needs no terminator.
_HTML_PATTERNS = (b"<!doctype html", b"<html", b"<head", b"<script", b"<iframe", b"<h1", b"<div", b"<font",
                  b"<table", b"<a", b"<style", b"<title", b"<b", b"<body", b"<br", b"<p")
_TERMINATORS = frozenset(b" >")

Sniffed = Callable[[], str]


def _standard_kind(body: bytes, binary_bytes: int, leading: int, essence: str | Sniffed | None) -> str | None:
    """:func:`kind_of` the standard's type for *body* past the scriptable signatures, where a browser
    that looks for binary bytes in the first *binary_bytes* only finds none there: text (the
    standard calls it binary). After *leading* whitespace bytes no other signature matches (MIME
    Sniffing §7.1: only the scriptable patterns skip it): text or binary, and the standard's rules
    (*essence*, a callable giving it, or worked out) are not asked."""
    if leading or no_signature(body):
        return None if is_binary(body, binary_bytes) else "text"
    if essence is None:
        essence = unknown_mime_type(body)
    elif callable(essence):
        essence = essence()
    if essence in ("text/html", "text/xml"):  # the standard's looser whitespace: not the browser's signature
        essence = "application/octet-stream"
    if essence == "application/octet-stream" and not is_binary(body, binary_bytes):
        return "text"
    return kind_of(essence)


# Where the MIME Sniffing Standard's signatures other than the scriptable ones may start (§6.1-6.3:
# images, audio and video, archives; §7.1: PDF, PostScript, BOMs): these printable ASCII
# prefixes, or a first byte among _SIGNATURE_LEADS (an ICO or an MP4 box size 0x00, WebM 0x1A,
# gzip 0x1F, PNG 0x89, a BOM 0xEF/0xFE/0xFF, JPEG and MP3 frames 0xFF).
_ASCII_SIGNATURES = (b"GIF8", b"RIFF", b"OggS", b"ID3", b"%PDF-", b"%!PS-Adobe-", b"PK\x03\x04", b"Rar ",
                     b"FORM", b"MThd", b"BM", b".snd", b"OTTO", b"ttcf", b"wOF")
_SIGNATURE_LEADS = frozenset(b"\x00\x1a\x1f\x89\xef\xfe\xff")


def no_signature(body: bytes) -> bool:
    """Whether no signature of the standard's rules but the scriptable ones can match *body*: its
    first byte starts none (:data:`_ASCII_SIGNATURES`, :data:`_SIGNATURE_LEADS`). Then they call
    it text or binary by its bytes alone, and xtractmime (1,445 bytes read in Python) need not
    run. tests/oracles/test_browsers_types.py holds it against :func:`unknown_mime_type`."""
    return bool(body) and body[0] not in _SIGNATURE_LEADS and not bytes(body[:11]).startswith(_ASCII_SIGNATURES)


def is_binary(body: bytes, binary_bytes: int) -> bool:
    """Whether a browser that looks at the first *binary_bytes* of *body* (:data:`FIREFOX_BINARY_BYTES`
    or :data:`CHROMIUM_BINARY_BYTES`) finds a binary byte there (MIME Sniffing §7.2; Firefox does
    not count VT, 0x0B)."""
    pattern = _FIREFOX_BINARY if binary_bytes == FIREFOX_BINARY_BYTES else _BINARY
    return pattern.search(body, 0, binary_bytes) is not None


# A binary data byte (MIME Sniffing §7.2: 0x00-0x08, 0x0B, 0x0E-0x1A, 0x1C-0x1F) as a character
# class: xtractmime's is_binary_data reads a byte at a time in Python (1.5 ms for 1,024 bytes).
_BINARY = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]")
_FIREFOX_BINARY = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")  # no VT


def unknown_type_kind(body: bytes, essence: str | Sniffed | None = None) -> str | None:
    """The kind of document (see :func:`kind_of`) Firefox shows for an untyped response whose body
    is *body*: the standard's HTML patterns and ``<?xml`` (case-sensitive) after leading
    whitespace, within the first :data:`SIGNATURE_BYTES`; ``<!--`` needs no tag-terminating byte
    after it (both browsers); else the standard's rules (:func:`unknown_mime_type`; *essence*, or
    a callable giving it, if the caller has it), binary bytes counted in the first
    :data:`FIREFOX_BINARY_BYTES` only (measured by tools/browser_check/variants.py).

    >>> unknown_type_kind(b'<!DOCTYPE html><meta charset="koi8-r">'), unknown_type_kind(b"\\x00\\x01")
    ('html', None)
    >>> unknown_type_kind(b'<!DOCTYPE><meta charset="koi8-r">')  # "<!DOCTYPE HTML" is the pattern
    'text'
    >>> unknown_type_kind(b"x" * 511 + b"\\x01"), unknown_type_kind(b"x" * 512 + b"\\x01")
    (None, 'text')
    >>> unknown_type_kind(b" " * 506 + b"<html>"), unknown_type_kind(b" " * 508 + b"<html>")
    ('html', 'text')
    """
    head = bytes(body[:SIGNATURE_BYTES])
    leading = _FIREFOX_LEADING.match(head).end()  # type: ignore[union-attr]  # it always matches
    start = head[leading:leading + 16]
    if start.startswith(b"<!--"):
        return "html"
    if start.startswith(b"<?xml"):
        return "xml"
    lowered = start.lower()
    for pattern in _HTML_PATTERNS:
        if lowered.startswith(pattern) and lowered[len(pattern):len(pattern) + 1] in (b" ", b">"):
            return "html"
    return _standard_kind(body, FIREFOX_BINARY_BYTES, leading, essence)


# Chromium's HTML sniffer (net/base/mime_sniffer.cc, SniffForHTML): after leading whitespace, one
# of these prefixes, with no tag-terminating byte needed after it (measured: "<bx", "<p/", "<html5").
_CHROMIUM_HTML = _HTML_PATTERNS + (b"<!--",)


def chromium_unknown_type_kind(body: bytes, essence: str | Sniffed | None = None) -> str | None:
    """The kind of document (see :func:`kind_of`) Chromium shows for an untyped response whose body
    is *body*: HTML for any of its HTML prefixes after leading whitespace (a looser test than the
    standard's; VT counts as whitespace), XML for ``<?xml`` (case-sensitive), each within the
    first :data:`SIGNATURE_BYTES`; else the standard's rules (a PDF shows in Chromium's viewer),
    with binary bytes counted in the first :data:`CHROMIUM_BINARY_BYTES` only (*essence*: the
    standard's type, :func:`unknown_mime_type`, or a callable giving it, if the caller has it).

    >>> chromium_unknown_type_kind(b"<bx>"), unknown_type_kind(b"<bx>")
    ('html', 'text')
    >>> chromium_unknown_type_kind(b"x" * 1023 + b"\\x01"), chromium_unknown_type_kind(b"x" * 1024 + b"\\x01")
    (None, 'text')
    >>> chromium_unknown_type_kind(b"<?XML version='1.0'?><a/>"), chromium_unknown_type_kind(b" " * 508 + b"<html>")
    ('text', 'text')
    """
    head = bytes(body[:SIGNATURE_BYTES])
    leading = _CHROMIUM_LEADING.match(head).end()  # type: ignore[union-attr]  # it always matches
    start = head[leading:leading + 16]
    if start.lower().startswith(_CHROMIUM_HTML):
        return "html"
    if start.startswith(b"<?xml"):
        return "xml"
    if not leading and head.startswith(b"%PDF-"):  # the standard's PDF signature (§7.1)
        return "pdf"
    return _standard_kind(body, CHROMIUM_BINARY_BYTES, leading, essence)


# How each browser shows a typed response (a navigation), by its MIME type essence as it reads
# the Content-Type (:func:`.content_type.chromium_mime_type`): recorded by
# tools/browser_check/variants.py (set "types", tests/data/browsers/variants-35.json.gz).
#: text/* types both browsers download (Chromium's net/base/mime_util.cc kUnsupportedTextTypes;
#: text/csv, text/calendar, text/rtf, text/tab-separated-values and text/directory measured).
DOWNLOADED_TEXT = frozenset((
    "text/calendar", "text/x-calendar", "text/x-vcalendar", "text/vcalendar", "text/vcard", "text/x-vcard",
    "text/directory", "text/ldif", "text/qif", "text/x-qif", "text/x-csv", "text/x-vcf", "text/rtf",
    "text/comma-separated-values", "text/csv", "text/tab-separated-values", "text/tsv", "text/ofx",
    "text/vnd.sun.j2me.app-descriptor", "text/x-ms-iqy", "text/x-ms-odc", "text/x-ms-rqy", "text/x-ms-contact"))
#: Script types outside text/* that both browsers show as plain text.
SCRIPT_TYPES = frozenset(("application/javascript", "application/x-javascript", "application/ecmascript",
                          "application/x-ecmascript"))
# Firefox: text/xsl and application/rss+xml are downloads; these show as UTF-8 whatever their
# charset (its JSON and WebVTT handling); other +json types are downloads.
_FIREFOX_DOWNLOADED = frozenset(("text/xsl", "application/rss+xml"))
_FIREFOX_UTF_8 = frozenset(("application/json", "text/json", "text/vtt", "text/cache-manifest"))


def _common_typed_kind(essence: str) -> str | None:
    if essence == "text/html":
        return "html"
    if essence.endswith(("/xml", "+xml")):
        return "xml"
    if essence.startswith("text/"):
        return None if essence in DOWNLOADED_TEXT else "text"
    if essence in SCRIPT_TYPES:
        return "text"
    if essence.startswith(("image/", "audio/", "video/")):
        return "media"
    return None


def chromium_typed_kind(essence: str) -> str | None:
    """The kind of document (see :func:`kind_of`; ``"other"``: the charset, else UTF-8) Chromium
    shows for a response typed *essence*: text/* but :data:`DOWNLOADED_TEXT` and the
    :data:`SCRIPT_TYPES` as plain text (``text/h``, ``text/``, ``text/html/x`` too), JSON with
    its charset else UTF-8, ``application/rss+xml`` as text, a PDF in its viewer; ``None``: a
    download.

    >>> [chromium_typed_kind(t) for t in ("text/x-foo", "text/csv", "application/json", "x/y")]
    ['text', None, 'other', None]
    """
    if essence == "application/rss+xml":
        return "text"
    if essence in ("application/json", "text/json") or essence.endswith("+json"):
        return "other"
    if essence == "application/pdf":
        return "pdf"
    return _common_typed_kind(essence)


def firefox_typed_kind(essence: str) -> str | None:
    """The kind of document Firefox shows for a response typed *essence*: as Chromium but
    ``text/xsl`` and ``application/rss+xml`` are downloads, other ``+json`` types too, JSON,
    ``text/vtt`` and ``text/cache-manifest`` are UTF-8 whatever their charset (``"media"``), a
    PDF shows in its viewer (UTF-8).

    >>> [firefox_typed_kind(t) for t in ("text/x-foo", "text/xsl", "application/json", "application/ld+json")]
    ['text', None, 'media', None]
    """
    if essence in _FIREFOX_DOWNLOADED:
        return None
    if essence in _FIREFOX_UTF_8 or essence == "application/pdf":
        return "media"
    if essence.endswith("+json"):
        return None
    return _common_typed_kind(essence)
