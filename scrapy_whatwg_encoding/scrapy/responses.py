"""The response classes of the Scrapy layer: decided responses, and responses not decided yet.

**Decided.** Scrapy's ``TextResponse.text`` goes through w3lib's ``html_to_unicode``, which reads
its own BOMs first — including UTF-32 ones, which the standard does not have (``FF FE 00 00`` is a
UTF-16LE BOM followed by U+0000) — and decodes them with Python's codecs. A decided response is of
a subclass of Scrapy's class made for its decided encoding (:func:`decided_class`): its ``.text``
is ``scrapy_whatwg_encoding.decode(body, encoding)[0]`` (BOM sniff, else the decided encoding), so
``.text``, ``.css()`` and ``.xpath()`` see exactly the text a browser sees, and ``urljoin()`` (and
so ``follow()``) encodes the query with the document's output encoding like a browser's URL parser.
Its ``encoding`` attribute is the name Scrapy alone reports for that encoding
(:func:`.scrapy_default.scrapy_codec_name`: ``"cp1251"``, ``"utf-8"``; Scrapy's own inference for
encodings Python has no codec for), so lxml, other processes and ``== "utf-8"`` read it as they
read Scrapy's. ``replace()`` keeps the class and the decision unless the body, the headers or the
encoding change: then the result is Scrapy's own class, built as Scrapy's ``replace()`` builds it,
and ``meta["whatwg_encoding"]`` goes.

**Undecided.** Scrapy's ``Response.replace()`` copies ``response.encoding`` into the copy's
constructor, which runs Scrapy's inference and bakes its answer in as if someone had chosen it.
Between the download handler and :class:`~.middleware.WhatwgEncodingMiddleware`,
:class:`~.handler.HandlerEncodingMiddleware` gives responses of Scrapy's own classes an
:func:`undecided_class`, whose ``replace()`` copies the constructor's encoding instead (``None``,
or the one the download handler gave): an encoding such a copy carries was passed on purpose.

Each class is ``<Name>(ScrapyClass, Marker)`` with ``__slots__ = ()``: the marker comes *after* the
Scrapy class and adds no state, so that a response of the Scrapy class can change class in place on
every Scrapy (with ``__dict__``-based responses, 2.11-2.14, CPython refuses ``__class__`` assignment
when a base with another layout comes first). Only Scrapy's own classes are ever given one of these
classes; a plugin's response class stays the plugin's.
"""
from __future__ import annotations

from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse

from ..encoding import Encoding, decode
from .compat import cache_text, cached_text, explicit_encoding
from .url import encode_query

#: Scrapy's own text classes: the only ones this layer changes the class of.
SCRAPY_TEXT_CLASSES = (TextResponse, HtmlResponse, XmlResponse)
# Index of ``encoding`` among ``TextResponse.follow()``'s positional arguments after ``url``.
_FOLLOW_ENCODING = 6
#: ``replace()`` arguments that make another document, whose encoding this decision does not know.
DOCUMENT_ATTRIBUTES = frozenset({"body", "headers", "encoding"})


class WhatwgResponseMixin:
    """Marks decided responses: ``isinstance(response, WhatwgResponseMixin)``. Adds no state."""

    __slots__ = ()
    #: The decided :class:`Encoding` (set on each class :func:`decided_class` makes).
    whatwg_encoding: Encoding


class UndecidedMixin:
    """Marks responses :class:`~.handler.HandlerEncodingMiddleware` saw and the encoding middleware
    has not decided yet. Adds no state."""

    __slots__ = ()


def _as_scrapy_class(base: type[TextResponse]) -> dict:
    """A ``to_dict()`` (Scrapy 2.19+; what its HTTP cache stores) that names *base*, Scrapy's
    class, so that the dict is read back without this package (by another process, or a crawl
    without the add-on)."""
    if not hasattr(base, "to_dict"):
        return {}

    def to_dict(self) -> dict:
        return {**base.to_dict(self), "_class": f"{base.__module__}.{base.__name__}"}

    return {"to_dict": to_dict}


def _make_decided(base: type[TextResponse]) -> type[TextResponse]:
    """``Whatwg<base>``: *base* with ``text``, ``urljoin`` and ``replace`` overridden; the decided
    encoding is the ``whatwg_encoding`` class attribute of its subclasses."""

    def text(self) -> str:
        """Body as str: ``decode(body, whatwg_encoding)[0]`` (Encoding Standard §6 "decode"), cached."""
        text = cached_text(self)
        if text is None:
            text = decode(self.body, self.whatwg_encoding)[0]
            cache_text(self, text)
        return text

    def urljoin(self, url: str) -> str:
        """Like Scrapy's, and the query is percent-encoded in the output encoding (see ``url``)."""
        return encode_query(super(cls, self).urljoin(url), self.whatwg_encoding)

    def replace(self, *args, **kwargs):
        """Like Scrapy's. A new ``body``, ``headers`` or ``encoding`` makes another document: unless
        ``cls`` is given, the result is a plain *base* (its encoding: the one passed, else this
        response's ``encoding``, as Scrapy copies it), and the request's ``meta["whatwg_encoding"]``
        is dropped. Otherwise a ``cls`` of Scrapy's own keeps the decision."""
        if not DOCUMENT_ATTRIBUTES.isdisjoint(kwargs):
            kwargs.setdefault("cls", base)
            if self.request is not None:
                self.request.meta.pop("whatwg_encoding", None)
        elif kwargs.get("cls") in SCRAPY_TEXT_CLASSES:
            kwargs["cls"] = decided_class(kwargs["cls"], self.whatwg_encoding)
        return super(cls, self).replace(*args, **kwargs)

    def follow(self, url, *args, **kwargs):
        """Like Scrapy's (``follow_all()`` calls it too). On a page whose output encoding is not
        its encoding (UTF-16, replacement), whose Python codec would re-encode the URL's ASCII,
        the request's encoding is UTF-8, the output encoding."""
        if (len(args) <= _FOLLOW_ENCODING and kwargs.get("encoding") is None
                and self.whatwg_encoding.output_encoding is not self.whatwg_encoding):
            kwargs["encoding"] = "utf-8"
        return super(cls, self).follow(url, *args, **kwargs)

    namespace = {"__slots__": (), "__module__": __name__, "__doc__": f"{base.__name__} decoded as the standard says.",
                 "text": property(text), "urljoin": urljoin, "replace": replace, "follow": follow,
                 **_as_scrapy_class(base)}
    cls: type[TextResponse] = type(f"Whatwg{base.__name__}", (base, WhatwgResponseMixin), namespace)
    return cls


WhatwgTextResponse = _make_decided(TextResponse)
WhatwgHtmlResponse = _make_decided(HtmlResponse)
WhatwgXmlResponse = _make_decided(XmlResponse)
_DECIDED_BASE = {TextResponse: WhatwgTextResponse, HtmlResponse: WhatwgHtmlResponse, XmlResponse: WhatwgXmlResponse}
_DECIDED: dict[tuple[type, Encoding], type[TextResponse]] = {}


def decided_class(cls: type[TextResponse], encoding: Encoding) -> type[TextResponse]:
    """The class of a decided response: a subclass of ``Whatwg<cls>`` whose ``whatwg_encoding`` is
    *encoding*; *cls* is one of :data:`SCRAPY_TEXT_CLASSES` (or a class this function made). One
    class per (class, encoding), made on first use."""
    base = _DECIDED_BASE[scrapy_base(cls)]
    key = (base, encoding)
    found = _DECIDED.get(key)
    if found is None:
        namespace = {"__slots__": (), "__module__": __name__, "__qualname__": f"{base.__name__}[{encoding.name}]",
                     "whatwg_encoding": encoding}
        found = _DECIDED[key] = type(base.__name__, (base,), namespace)
    return found


def _make_undecided(base: type[TextResponse]) -> type[TextResponse]:
    def replace(self, *args, **kwargs):
        """Like Scrapy's, but a copy's encoding is this response's constructor argument (not
        Scrapy's inference) unless one is passed; a copy to a class of Scrapy's own stays
        undecided unless an encoding is passed (then it was chosen: a plain Scrapy class)."""
        chosen = kwargs.get("encoding") is not None
        kwargs.setdefault("encoding", explicit_encoding(self))
        target = kwargs.get("cls", base)
        if target in SCRAPY_TEXT_CLASSES or issubclass(target, UndecidedMixin):
            plain = scrapy_base(target)
            kwargs["cls"] = plain if chosen else undecided_class(plain)
        return super(cls, self).replace(*args, **kwargs)

    namespace = {"__slots__": (), "__module__": __name__, "replace": replace, **_as_scrapy_class(base),
                 "__doc__": f"A {base.__name__} the encoding middleware has not decided yet."}
    cls: type[TextResponse] = type(f"Undecided{base.__name__}", (base, UndecidedMixin), namespace)
    return cls


_UNDECIDED = {base: _make_undecided(base) for base in SCRAPY_TEXT_CLASSES}


def undecided_class(cls: type[TextResponse]) -> type[TextResponse]:
    """``Undecided<cls>`` for *cls* in :data:`SCRAPY_TEXT_CLASSES`."""
    return _UNDECIDED[cls]


def scrapy_base(cls: type) -> type[TextResponse]:
    """The class of :data:`SCRAPY_TEXT_CLASSES` that *cls* is, or is made from."""
    for base in cls.__mro__:
        if base in SCRAPY_TEXT_CLASSES:
            return base
    raise TypeError(f"{cls!r} is not a text response class")


def scrapy_class(response: Response) -> type[TextResponse] | None:
    """The class of Scrapy's own that *response* belongs to as this layer sees it: its class, or
    the Scrapy class behind an undecided or decided class; ``None`` for another class (a plugin's)."""
    cls = type(response)
    if cls in SCRAPY_TEXT_CLASSES:
        return cls
    if isinstance(response, (UndecidedMixin, WhatwgResponseMixin)):
        return scrapy_base(cls)
    return None
