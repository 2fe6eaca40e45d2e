"""Which responses the middleware handles: the kind of document, from the MIME type.

DESIGN: HTML (``text/html``, or a missing / unknown type), XML (``*/xml``, ``*+xml``), plain text
(``text/plain``); everything else (images, JSON, CSS, ...) passes untouched.
"""
from __future__ import annotations

from scrapy.http import Response, TextResponse

from ..sniffing.content_type import content_type_facts, per_value
from .compat import header_values


def document_kind(content_type: str | None, response: Response) -> str | None:
    """``"html"``, ``"xml"``, ``"text"`` or ``None`` (not a document this layer decodes), from the
    MIME type as the sniffing layer parses it.

    A missing, unparsable or unknown type counts as HTML when Scrapy made a text response of it
    (a body its binary check calls binary, e.g. UTF-16 Cyrillic text without a ``Content-Type``, whose
    bytes include 0x04, stays binary).
    """
    kind, known = content_kind(content_type)
    if not known and not isinstance(response, TextResponse):
        return None
    return kind


@per_value
def content_kind(content_type: str | None) -> tuple[str | None, bool]:
    """``(kind, known)`` for a ``Content-Type`` value: the kind :func:`document_kind` gives where
    *known*; where not (a missing or unknown type), ``"html"`` if the response is text (see there)."""
    essence, kind, _ = content_type_facts(content_type)
    if kind == "html" and essence != "text/html":
        return "html", False
    return (None if kind == "other" else kind), True


# Content codings Scrapy's HttpCompressionMiddleware may leave (it removes those it decoded).
_IDENTITY = frozenset({b"", b"identity"})
# Magic bytes of compressed data: gzip (RFC 1952 §2.3.1), zstd (RFC 8878 §3.1.1); neither starts
# a text document. (Brotli has none; zlib's and bzip2's are plausible starts of text.)
_COMPRESSED_STARTS = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd")


def is_compressed(headers, body: bytes) -> bool:
    """Whether *body* is still compressed: a ``Content-Encoding`` other than ``identity`` is left
    in *headers* (Scrapy's ``Headers``), or the body starts with gzip's or zstd's magic bytes."""
    codings = header_values(headers, b"Content-Encoding")
    if codings and any(c.strip().lower() not in _IDENTITY for v in codings for c in v.split(b",")):
        return True
    return body.startswith(_COMPRESSED_STARTS)
