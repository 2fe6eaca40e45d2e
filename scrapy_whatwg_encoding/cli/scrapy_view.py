"""What Scrapy alone makes of a body: the response class ``scrapy.responsetypes`` picks and, for a
``TextResponse``, its inferred ``encoding`` and ``text`` (w3lib's BOM / header / ``<meta>`` rules,
then ASCII → cp1252, UTF-8, charset-normalizer)."""
from __future__ import annotations

from scrapy.http import Headers, TextResponse
from scrapy.responsetypes import responsetypes

from ..report.model import common_prefix
from ..scrapy.kind import skip_reason
from ..sniffing.content_type import content_type_facts


def crawl_skips(body: bytes, content_type: str | None, url: str) -> str | None:
    """Why a crawl would leave this response as Scrapy made it, or ``None`` when it would decide
    it: the middleware's own gate (:func:`scrapy_whatwg_encoding.scrapy.kind.skip_reason`) on the
    response Scrapy makes of *body* (bytes) with *content_type* from *url* (str). Not HTML, XML or
    plain text: the MIME type decides (``application/pdf``, ``application/json``,
    ``image/png``...), and without one Scrapy's own reading of the *url* (its file name extension,
    ``.pdf``, ``.json``, ``.png``) and of the *body* (binary content, such as images and most PDF
    files); or a body still compressed (gzip's or zstd's magic bytes).

    >>> crawl_skips(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR", None, "file:///tmp/picture")
    'not HTML, XML or text: Scrapy reads the body as binary (Response)'
    >>> crawl_skips(b'{"a": 1}', "application/json", "file:///tmp/a.json")
    'not HTML, XML or text: the MIME type is application/json'
    >>> crawl_skips(b"\\x1f\\x8b\\x08\\x00", "text/html", "file:///tmp/page.html.gz")
    'compressed: the body starts with gzip or zstd magic bytes'
    >>> crawl_skips(b"<p>caf\\xe9", None, "file:///tmp/page") is None
    True
    """
    headers = Headers({"Content-Type": content_type}) if content_type is not None else Headers()
    cls = responsetypes.from_args(headers=headers, url=url, body=body)
    reason = skip_reason(cls(url, body=body, headers=headers), content_type)
    if reason is None:
        return None
    if reason == "compressed":
        return "compressed: the body starts with gzip or zstd magic bytes"
    essence, kind, _ = content_type_facts(content_type)
    if kind == "other":
        return f"not HTML, XML or text: the MIME type is {essence}"
    return f"not HTML, XML or text: Scrapy reads the body as binary ({cls.__name__})"


def scrapy_inference(body: bytes, content_type: str | None, url: str) -> dict:
    """``{"response_class": class name, "encoding": Python codec name or None (binary),
    "text": decoded str or None (binary)}`` for *body* (bytes) served from *url* (str, its
    file name extension counts when there is no *content_type*)."""
    headers = Headers({"Content-Type": content_type}) if content_type is not None else Headers()
    cls = responsetypes.from_args(headers=headers, url=url, body=body)
    if not issubclass(cls, TextResponse):
        return {"response_class": cls.__name__, "encoding": None, "text": None}
    response = cls(url, body=body, headers=headers)
    return {"response_class": cls.__name__, "encoding": response.encoding, "text": response.text}


def first_difference(a: str, b: str) -> int | None:
    """Index (characters) of the first difference between *a* and *b*, ``None`` if equal (found at
    C speed, :func:`~scrapy_whatwg_encoding.report.model.common_prefix`)."""
    return None if a == b else common_prefix(a, b)
