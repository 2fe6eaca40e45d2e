"""Typing an untyped response as browsers do for a navigation: the MIME Sniffing Standard's "rules
for identifying an unknown MIME type" (https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type,
§7.1) with the sniff-scriptable flag set, through xtractmime (the Scrapy project's implementation
of that standard), and the kind of document the encoding sniffing algorithm then runs.
"""
from __future__ import annotations

from xtractmime import RESOURCE_HEADER_BUFFER_LENGTH, extract_mime, is_binary_data

from .content_type import _UNKNOWN

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
    return not essence or essence in _UNKNOWN


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


def unknown_type_kind(body: bytes) -> str | None:
    """The kind of document (``"html"``, ``"xml"`` or ``"text"``) that a browser navigating to an
    untyped response whose body is *body* shows, from :func:`unknown_mime_type`; ``None`` when the
    type is none of them (binary data, an image, PDF ...: a browser shows no document).

    >>> unknown_type_kind(b'<!DOCTYPE html><meta charset="koi8-r">'), unknown_type_kind(b"GIF89a")
    ('html', None)
    >>> unknown_type_kind(b'<!DOCTYPE><meta charset="koi8-r">')  # "<!DOCTYPE HTML" is the pattern
    'text'
    """
    essence = unknown_mime_type(body)
    if essence == "text/html":
        return "html"
    if essence == "text/plain":
        return "text"
    if essence.endswith(("/xml", "+xml")):
        return "xml"
    return None
