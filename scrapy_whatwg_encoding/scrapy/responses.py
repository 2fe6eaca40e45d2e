"""What the encoding middleware leaves on a response, read back: :func:`whatwg_encoding`.

The middleware never changes a response's class (docs/design.rst, "Layers": a response keeps its type): it
changes the response's state, in place where Scrapy allows (:func:`.compat.with_encoding`) — the
exact text in Scrapy's own text cache, ``response.encoding`` the name Scrapy alone reports — and
writes the decision to ``response.meta["whatwg_encoding"]``. Scrapy's slotted responses (2.19)
cannot hold an attribute of ours, so the decided :class:`~scrapy_whatwg_encoding.Encoding` is read
from that meta key.

0.2.0 gave decided responses classes of its own; their names stay here so that its pickles load
(:class:`WhatwgHtmlResponse`), as Scrapy's classes.
"""
from __future__ import annotations

from typing import ClassVar

from scrapy.http import HtmlResponse, Request, Response, TextResponse, XmlResponse

from ..encoding import ENCODINGS, Encoding

#: The ``Request.meta`` key holding ``Decision.as_dict()`` of the response the middleware decided.
META_KEY = "whatwg_encoding"
# The request meta keys the middleware reads (docs/responses.rst).
#: A label: the user override for this request (sniffing step 2).
OVERRIDE_KEY = "whatwg_encoding_override"
#: A language tag choosing this request's default encoding.
LOCALE_KEY = "whatwg_encoding_locale"
#: ``"standard"`` or ``"browsers"`` for this request.
PROFILE_KEY = "whatwg_encoding_profile"
#: True: leave the response as Scrapy made it.
DONT_SNIFF_KEY = "dont_sniff_encoding"


def whatwg_encoding(response: Response, request: Request | None = None) -> Encoding | None:
    """The :class:`~scrapy_whatwg_encoding.Encoding` the encoding middleware decided for
    *response* (from ``response.meta["whatwg_encoding"]``), or ``None``: not decided (skipped, not
    a document, the middleware off) or not tied to a request. In a downloader middleware, where
    Scrapy has not set ``response.request`` yet, pass the *request* ``process_response`` got. A
    copy made with ``replace()`` shares the request, so it reads the same decision, which describes
    the response the middleware saw.

    >>> from scrapy.http import HtmlResponse, Request
    >>> response = HtmlResponse("http://x/", body=b"", request=Request("http://x/"))
    >>> whatwg_encoding(response) is None
    True
    >>> response.meta["whatwg_encoding"] = {"encoding": "Shift_JIS"}
    >>> whatwg_encoding(response)
    <Encoding Shift_JIS>
    """
    request = response.request or request
    decision = None if request is None else request.meta.get(META_KEY)
    return None if not decision else ENCODINGS.get(decision.get("encoding"))


class _Since020:
    """0.2.0's ``Whatwg<Class>`` under its old name, so that a response pickled by 0.2.0 loads
    (issue 37, item 5). 0.2.0 made a subclass of it per encoding at run time, which the standard
    ``pickle`` could not pickle and which cloudpickle (joblib, Dask, Ray) carries by value, with
    this base by reference. Unpickling builds an instance of Scrapy's own class (``__new__``), which
    the pickle's state fills: body, headers, ``encoding``, the exact text 0.2.0 cached, the request
    with its ``meta["whatwg_encoding"]``. Not a class to build responses with."""

    __slots__ = ()
    scrapy_class: ClassVar[type[TextResponse]]

    def __new__(cls, *args, **kwargs):
        return cls.scrapy_class.__new__(cls.scrapy_class)


class WhatwgTextResponse(_Since020):
    """A ``TextResponse`` pickled by 0.2.0 loads as one (see ``_Since020``)."""

    __slots__ = ()
    scrapy_class = TextResponse


class WhatwgHtmlResponse(_Since020):
    """An ``HtmlResponse`` pickled by 0.2.0 loads as one (see ``_Since020``)."""

    __slots__ = ()
    scrapy_class = HtmlResponse


class WhatwgXmlResponse(_Since020):
    """An ``XmlResponse`` pickled by 0.2.0 loads as one (see ``_Since020``)."""

    __slots__ = ()
    scrapy_class = XmlResponse
