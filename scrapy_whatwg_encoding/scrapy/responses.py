"""Text responses whose ``.text`` is the Encoding Standard's "decode" of the body.

Scrapy's ``TextResponse.text`` goes through w3lib's ``html_to_unicode``, which reads its own BOMs
first — including UTF-32 ones, which the standard does not have (``FF FE 00 00`` is a UTF-16LE BOM
followed by U+0000) — and decodes them with Python's codecs. These subclasses decode with
``scrapy_whatwg_encoding.decode(body, encoding)`` instead (BOM sniff, else the decided encoding), so
``.text``, ``.css()`` and ``.xpath()`` see exactly the text a browser sees. ``urljoin()`` (and so
``follow()``) encodes the query with the document's output encoding like a browser's URL parser.
The ``encoding`` attribute is the decided encoding's ``codec_name``; if it is replaced by another
codec name, Scrapy's own behaviour applies.
"""
from __future__ import annotations

from scrapy.http import HtmlResponse, TextResponse, XmlResponse

from ..encoding import ENCODINGS, Encoding, decode
from .compat import cache_text, cached_text
from .url import encode_query

_BY_CODEC_NAME = {encoding.codec_name: encoding for encoding in ENCODINGS.values()}


class WhatwgResponseMixin:
    """Mixed into a ``TextResponse`` subclass; needs ``encoding=<Encoding.codec_name>``."""

    __slots__ = ()

    @property
    def whatwg_encoding(self) -> Encoding | None:
        """The decided :class:`Encoding`, or ``None`` if ``encoding`` is not one of its codec names."""
        return _BY_CODEC_NAME.get(self.encoding)  # type: ignore[attr-defined]

    @property
    def text(self) -> str:
        """Body as str: ``decode(body, encoding)[0]`` (Encoding Standard §6 "decode"), cached."""
        text = cached_text(self)  # type: ignore[arg-type]
        if text is None:
            encoding = self.whatwg_encoding
            if encoding is None:
                return super().text  # type: ignore[misc]
            text = decode(self.body, encoding)[0]  # type: ignore[attr-defined]
            cache_text(self, text)  # type: ignore[arg-type]
        return text

    def urljoin(self, url: str) -> str:
        """Like Scrapy's, and the query is percent-encoded in the output encoding (see ``url``)."""
        joined = super().urljoin(url)  # type: ignore[misc]
        encoding = self.whatwg_encoding
        return joined if encoding is None else encode_query(joined, encoding)


class WhatwgTextResponse(WhatwgResponseMixin, TextResponse):
    __slots__ = ()


class WhatwgHtmlResponse(WhatwgResponseMixin, HtmlResponse):
    __slots__ = ()


class WhatwgXmlResponse(WhatwgResponseMixin, XmlResponse):
    __slots__ = ()


_SUBCLASS: dict[type, type] = {
    TextResponse: WhatwgTextResponse,
    HtmlResponse: WhatwgHtmlResponse,
    XmlResponse: WhatwgXmlResponse,
}


def whatwg_class(cls: type[TextResponse]) -> type[TextResponse]:
    """The subclass of *cls* (a ``TextResponse`` class) with the mixin; made once per class."""
    if issubclass(cls, WhatwgResponseMixin):
        return cls
    sub = _SUBCLASS.get(cls)
    if sub is None:
        # Another TextResponse subclass (from a download handler or a plugin): keep its type.
        name = f"Whatwg{cls.__name__}"
        sub = _SUBCLASS[cls] = type(name, (WhatwgResponseMixin, cls), {"__slots__": (), "__module__": __name__})
        globals().setdefault(name, sub)
    return sub
