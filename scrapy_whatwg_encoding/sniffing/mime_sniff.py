"""Typing an untyped response as browsers do for a navigation: the MIME Sniffing Standard's "rules
for identifying an unknown MIME type" (https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type,
§7.1) with the sniff-scriptable flag set, through xtractmime (the Scrapy project's implementation
of that standard), and the kind of document the encoding sniffing algorithm then runs.
"""
from __future__ import annotations

import re

from xtractmime import RESOURCE_HEADER_BUFFER_LENGTH, extract_mime, is_binary_data

from .content_type import UNKNOWN_TYPES

_WS = b"\t\n\x0c\r "
_LEADING_WS = re.compile(rb"[\t\n\x0c\r ]*")

# The longest pattern that skips leading whitespace ("<!DOCTYPE HTML" and a tag-terminating byte).
_LONGEST_TEXT_PATTERN = 15


def _start(body: bytes, window: int) -> bytes:
    """The first 16 bytes after the leading whitespace of the first *window* bytes of *body*."""
    head = bytes(body[:window])
    at = _LEADING_WS.match(head).end()  # type: ignore[union-attr]  # it always matches
    return head[at:at + 16]


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


def _browser_kind(body: bytes, binary_bytes: int, essence: str | None) -> str | None:
    """:func:`kind_of` the standard's type for *body* (*essence*, else worked out), where a browser
    that looks for binary bytes in the first *binary_bytes* only finds none there: text (the
    standard calls it binary)."""
    if essence is None:
        essence = unknown_mime_type(body)
    if essence == "application/octet-stream" and not is_binary_data(bytes(body[:binary_bytes])):
        return "text"
    return kind_of(essence)


def unknown_type_kind(body: bytes, essence: str | None = None) -> str | None:
    """The kind of document (see :func:`kind_of`) that the MIME Sniffing Standard's rules give an
    untyped response whose body is *body* (:func:`unknown_mime_type`; *essence*, if the caller has
    it already), as Firefox applies them:
    ``<!--`` needs no tag-terminating byte after it (both browsers), and binary bytes count in the
    first :data:`FIREFOX_BINARY_BYTES` only (measured by tools/browser_check/variants.py).

    >>> unknown_type_kind(b'<!DOCTYPE html><meta charset="koi8-r">'), unknown_type_kind(b"\\x00\\x01")
    ('html', None)
    >>> unknown_type_kind(b'<!DOCTYPE><meta charset="koi8-r">')  # "<!DOCTYPE HTML" is the pattern
    'text'
    >>> unknown_type_kind(b"x" * 511 + b"\\x01"), unknown_type_kind(b"x" * 512 + b"\\x01")
    (None, 'text')
    """
    if _start(body, RESOURCE_HEADER_BUFFER_LENGTH).startswith(b"<!--"):
        return "html"
    return _browser_kind(body, FIREFOX_BINARY_BYTES, essence)


# Chromium's HTML sniffer (net/base/mime_sniffer.cc, SniffForHTML): after leading whitespace, one
# of these prefixes, with no tag-terminating byte needed after it (measured: "<bx", "<p/", "<html5").
_CHROMIUM_HTML = (b"<!doctype html", b"<script", b"<html", b"<!--", b"<head", b"<iframe", b"<h1", b"<div",
                  b"<font", b"<table", b"<a", b"<style", b"<title", b"<b", b"<body", b"<br", b"<p")


def chromium_unknown_type_kind(body: bytes, essence: str | None = None) -> str | None:
    """The kind of document (see :func:`kind_of`) Chromium shows for an untyped response whose body
    is *body*: HTML for any of its HTML prefixes after leading whitespace (a looser test than the
    standard's), XML for ``<?xml``, else the standard's rules (a PDF shows in Chromium's viewer),
    with binary bytes counted in the first :data:`CHROMIUM_BINARY_BYTES` only (*essence*: the
    standard's type, :func:`unknown_mime_type`, if the caller has it already).

    >>> chromium_unknown_type_kind(b"<bx>"), unknown_type_kind(b"<bx>")
    ('html', 'text')
    >>> chromium_unknown_type_kind(b"x" * 1023 + b"\\x01"), chromium_unknown_type_kind(b"x" * 1024 + b"\\x01")
    (None, 'text')
    """
    start = _start(body, CHROMIUM_BINARY_BYTES).lower()  # whitespace past it: text
    if start.startswith(_CHROMIUM_HTML):
        return "html"
    if start.startswith(b"<?xml"):
        return "xml"
    if essence is None:
        essence = unknown_mime_type(body)
    return "pdf" if essence == "application/pdf" else _browser_kind(body, CHROMIUM_BINARY_BYTES, essence)
