"""What the encoding middleware leaves on a response, read back: :func:`whatwg_encoding`.

The middleware never changes a response's class (DESIGN.md, "a response keeps its type"): it
changes the response's state, in place where Scrapy allows (:func:`.compat.with_encoding`) — the
exact text in Scrapy's own text cache, ``response.encoding`` the name Scrapy alone reports — and
writes the decision to ``response.meta["whatwg_encoding"]``. Scrapy's slotted responses (2.19)
cannot hold an attribute of ours, so the decided :class:`~scrapy_whatwg_encoding.Encoding` is read
from that meta key.
"""
from __future__ import annotations

from scrapy.http import Request, Response

from ..encoding import ENCODINGS, Encoding

#: The ``Request.meta`` key holding ``Decision.as_dict()`` of the response the middleware decided.
META_KEY = "whatwg_encoding"


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
