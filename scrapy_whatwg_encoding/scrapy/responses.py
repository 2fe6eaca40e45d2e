"""Text responses whose ``.text`` is the Encoding Standard's "decode" of the body.

Scrapy's ``TextResponse.text`` goes through w3lib's ``html_to_unicode``, which reads its own BOMs
first — including UTF-32 ones, which the standard does not have (``FF FE 00 00`` is a UTF-16LE BOM
followed by U+0000) — and decodes them with Python's codecs. These subclasses decode with
``scrapy_whatwg_encoding.decode(body, encoding)`` instead (BOM sniff, else the decided encoding), so
``.text``, ``.css()`` and ``.xpath()`` see exactly the text a browser sees. ``urljoin()`` (and so
``follow()``) encodes the query with the document's output encoding like a browser's URL parser.
The ``encoding`` attribute is the decided encoding's ``codec_name``. ``replace()`` keeps the class
and the decision unless the body, the headers or the encoding change: then the decision is dropped
(the result is Scrapy's own class, decoded as Scrapy would, and ``meta["whatwg_encoding"]`` goes).
``follow()`` (and so ``follow_all()``) returns its request with a portable encoding (see
:mod:`.portable`): same URL and body, no ``whatwg-…`` name.

Each class is ``Whatwg<Base>(Base, WhatwgResponseMixin)`` with the overrides in its own body: the
mixin comes *after* the Scrapy class and only marks the class (``isinstance``), so that a response
of the Scrapy class can become one in place on every Scrapy (with ``__dict__``-based responses,
2.11-2.14, CPython refuses ``__class__`` assignment when a mixin comes first).
"""
from __future__ import annotations

from scrapy.http import HtmlResponse, TextResponse, XmlResponse

from ..encoding import Encoding, decode
from ..encoding.codec import from_codec_name
from .compat import cache_text, cached_text
from .portable import portable_request
from .url import encode_query

#: ``replace()`` arguments that make another document, whose encoding this decision does not know.
DOCUMENT_ATTRIBUTES = frozenset({"body", "headers", "encoding"})


class WhatwgResponseMixin:
    """Marks the classes below: ``isinstance(response, WhatwgResponseMixin)``. Adds nothing."""

    __slots__ = ()


def _make(base: type[TextResponse]) -> type[TextResponse]:
    """``Whatwg<base>``: *base* with ``whatwg_encoding``, ``text``, ``urljoin``, ``replace`` and ``follow``
    overridden."""

    def whatwg_encoding(self) -> Encoding | None:
        """The decided :class:`Encoding`, or ``None`` if ``encoding`` is not one of its codec names."""
        return from_codec_name(self.encoding)  # encoding was given: no inference runs

    def text(self) -> str:
        """Body as str: ``decode(body, encoding)[0]`` (Encoding Standard §6 "decode"), cached."""
        text = cached_text(self)
        if text is None:
            encoding = whatwg_encoding(self)
            if encoding is None:
                return super(sub, self).text
            text = decode(self.body, encoding)[0]
            cache_text(self, text)
        return text

    def urljoin(self, url: str) -> str:
        """Like Scrapy's, and the query is percent-encoded in the output encoding (see ``url``)."""
        joined = super(sub, self).urljoin(url)
        encoding = whatwg_encoding(self)
        return joined if encoding is None else encode_query(joined, encoding)

    def replace(self, *args, **kwargs):
        """Like Scrapy's. A new ``body``, ``headers`` or ``encoding`` makes another document: unless
        ``cls`` is given, the result is a plain *base* with Scrapy's own encoding (the one passed,
        else Scrapy's inference), and the request's ``meta["whatwg_encoding"]`` is dropped."""
        if len(args) > 1 or not DOCUMENT_ATTRIBUTES.isdisjoint(kwargs):
            kwargs.setdefault("cls", base)
            kwargs.setdefault("encoding", None)  # not this decision's codec name
            if self.request is not None:
                self.request.meta.pop("whatwg_encoding", None)
        return super(sub, self).replace(*args, **kwargs)

    def follow(self, *args, **kwargs):
        """Scrapy's ``follow()`` (same arguments); the request's encoding is portable."""
        return portable_request(super(sub, self).follow(*args, **kwargs))

    name = f"Whatwg{base.__name__}"
    namespace = {"__slots__": (), "__module__": __name__, "__doc__": f"{base.__name__} decoded as the standard says.",
                 "whatwg_encoding": property(whatwg_encoding), "text": property(text), "urljoin": urljoin,
                 "replace": replace, "follow": follow}
    sub: type[TextResponse] = type(name, (base, WhatwgResponseMixin), namespace)
    return sub


WhatwgTextResponse = _make(TextResponse)
WhatwgHtmlResponse = _make(HtmlResponse)
WhatwgXmlResponse = _make(XmlResponse)

_SUBCLASS: dict[type, type[TextResponse]] = {
    TextResponse: WhatwgTextResponse,
    HtmlResponse: WhatwgHtmlResponse,
    XmlResponse: WhatwgXmlResponse,
}


def whatwg_class(cls: type[TextResponse]) -> type[TextResponse]:
    """The subclass of *cls* (a ``TextResponse`` class) with the overrides; made once per class."""
    if issubclass(cls, WhatwgResponseMixin):
        return cls
    sub = _SUBCLASS.get(cls)
    if sub is None:
        # Another TextResponse subclass (from a download handler or a plugin): keep its type.
        sub = _SUBCLASS[cls] = _make(cls)
        globals().setdefault(sub.__name__, sub)
    return sub
