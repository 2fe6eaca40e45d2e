"""What Scrapy alone makes of a body: the response class ``scrapy.responsetypes`` picks and, for a
``TextResponse``, its inferred ``encoding`` and ``text`` (w3lib's BOM / header / ``<meta>`` rules,
then ASCII → cp1252, UTF-8, charset-normalizer)."""
from __future__ import annotations

from scrapy.http import Headers, TextResponse
from scrapy.responsetypes import responsetypes


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
    """Index (characters) of the first difference between *a* and *b*, ``None`` if equal."""
    if a == b:
        return None
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return index
    return min(len(a), len(b))
