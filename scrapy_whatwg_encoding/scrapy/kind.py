"""Which responses the middleware handles: the kind of document, from the MIME type, and the
gate (:func:`skip_reason`) that the middleware and the command line (``explain``, ``audit``,
``scrapy sniff``) both ask.

DESIGN: HTML (``text/html``, or a missing / unknown type), XML (``*/xml``, ``*+xml``), plain text
(``text/plain``); everything else (images, JSON, CSS, ...) passes untouched.
"""
from __future__ import annotations

from typing import Literal, get_args

from scrapy.http import Response, TextResponse

from ..sniffing.content_type import content_type_facts, per_value
from .compat import header_values
from .responses import DONT_SNIFF_KEY


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


def content_type_of(headers) -> str | None:
    """The ``Content-Type`` of Scrapy's *headers* (str, read as ISO-8859-1; ``None``: none); several
    headers are combined as HTTP does, for Fetch's "extract a MIME type"."""
    values = header_values(headers, b"Content-Type")
    if not values:
        return None
    return (values[0] if len(values) == 1 else b", ".join(values)).decode("latin-1")


#: Why the middleware leaves a response as Scrapy made it (counted under
#: ``whatwg_encoding/skipped/<reason>``): the gate's four, then the two the inputs may give (an
#: encoding the download handler gave that no WHATWG encoding reproduces; one a middleware chose
#: that is no label, which Scrapy decodes with).
SkipReason = Literal["dont_sniff_encoding", "not_a_document", "binary_response_class", "compressed",
                     "handler_encoding", "chosen_encoding"]
SKIP_REASONS: tuple[SkipReason, ...] = get_args(SkipReason)


def skip_reason(response: Response, content_type: str | None, meta=None) -> SkipReason | None:
    """Why the middleware leaves *response* (with *content_type*, see :func:`content_type_of`; its
    request's *meta*, a dict or ``None``) as Scrapy made it, or ``None`` when it decides it:
    ``"dont_sniff_encoding"`` (the request asked), ``"not_a_document"`` (:func:`document_kind`),
    ``"binary_response_class"`` (a document Scrapy, or a plugin, made a binary response of: its
    data stays) or ``"compressed"`` (:func:`is_compressed`); counted under
    ``whatwg_encoding/skipped/<reason>``."""
    if meta and meta.get(DONT_SNIFF_KEY):
        return "dont_sniff_encoding"
    if document_kind(content_type, response) is None:
        return "not_a_document"
    if not isinstance(response, TextResponse):
        return "binary_response_class"
    return "compressed" if is_compressed(response.headers, response.body) else None
