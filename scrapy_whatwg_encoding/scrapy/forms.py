"""Form submission with the encoding the HTML standard picks for the form.

HTML §4.10.21.8 "picking an encoding for the form" (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#picking-an-encoding-for-the-form):
the ``accept-charset`` attribute is split on ASCII whitespace, the first token that "get an
encoding" recognises gives the encoding; without one (no attribute, or no token recognised) the
document's encoding is used; then "get an output encoding" (UTF-16BE/LE and replacement → UTF-8).

``FormRequest.from_response`` cannot reach this by itself: it ignores ``accept-charset`` and
encodes with ``kwargs.setdefault("encoding", response.encoding)``, which on a decided response is
Python's codec name, as with Scrapy alone (``cp932`` for Shift_JIS): it raises
``UnicodeEncodeError`` for a character the encoding lacks, where a browser sends ``&#N;``, and
differs from the standard's encoder on others. Its ``encoding`` argument is public, so
:func:`form_request` finds the same ``<form>`` as Scrapy (same arguments), picks its encoding and
passes on its ``codec_name`` (the Encoding Standard's encoder)::

    from scrapy_whatwg_encoding.scrapy.forms import form_request

    yield form_request(response, formdata={"q": "東京"}, callback=self.parse_results)
"""
from __future__ import annotations

import re
import warnings
from typing import Any
from urllib.parse import urljoin

from parsel import Selector
from scrapy.exceptions import ScrapyDeprecationWarning
from scrapy.http import FormRequest
from scrapy.utils.response import get_base_url

from ..encoding import Encoding, get_encoding
from .portable import portable_request
from .responses import whatwg_encoding
from .url import encode_query

_ASCII_WHITESPACE = "\t\n\x0c\r "
_ASCII_WHITESPACE_RUN = re.compile("[\t\n\x0c\r ]+")


def form_encoding(response, form: Selector | None = None) -> Encoding | None:
    """Picking an encoding for the form (HTML §4.10.21.8): *form* is the ``<form>`` element's
    selector (``None``: no form, the document's encoding). Returns the output
    :class:`Encoding`, or ``None`` when *response* was not decided by the middleware and the
    form names no known encoding."""
    encoding = whatwg_encoding(response)
    if form is not None:
        accept_charset = form.attrib.get("accept-charset")
        if accept_charset is not None:
            for token in _ASCII_WHITESPACE_RUN.split(accept_charset):
                candidate = get_encoding(token) if token else None
                if candidate is not None:
                    encoding = candidate
                    break
    return None if encoding is None else encoding.output_encoding


def find_form(response, formname: str | None = None, formid: str | None = None, formnumber: int = 0,
              formxpath: str | None = None, formcss: str | None = None) -> Selector:
    """The ``<form>`` that ``FormRequest.from_response`` picks for the same arguments (name, then
    id, then the form around the first node of *formxpath* / *formcss*, then number *formnumber*).
    Raises ``ValueError`` as Scrapy does when there is none."""
    forms = response.xpath("//form")
    if not forms:
        raise ValueError(f"No <form> element found in {response}")
    for attribute, value in (("name", formname), ("id", formid)):
        if value is not None:
            found = [form for form in forms if form.attrib.get(attribute) == value]
            if found:
                return found[0]
    nodes = response.css(formcss) if formcss is not None else (
        response.xpath(formxpath) if formxpath is not None else None)
    if nodes is not None:
        if nodes:
            around = nodes[0].xpath("ancestor-or-self::form")
            if around:
                return around[-1]
        raise ValueError(f"No <form> element found with {formcss or formxpath}")
    try:
        return forms[formnumber]
    except IndexError:
        raise ValueError(f"Form number {formnumber} not found in {response}") from None


def form_request(response, formname: str | None = None, formid: str | None = None, formnumber: int = 0,
                 formxpath: str | None = None, formcss: str | None = None, **kwargs: Any) -> FormRequest:
    """``FormRequest.from_response(response, ...)`` (same arguments and result type) with the
    form's encoding picked as the HTML standard says; an explicit ``encoding=`` wins. The
    action URL's query is encoded with the document's encoding, as the URL parser does. The
    request's own ``encoding`` is portable (:func:`.portable.portable_request`): URL and body
    keep the form encoding's bytes. Raises ``ValueError`` like ``from_response``."""
    form = find_form(response, formname, formid, formnumber, formxpath, formcss)
    encoding = form_encoding(response, form)
    if encoding is not None:
        kwargs.setdefault("encoding", encoding.codec_name)
    document = whatwg_encoding(response)
    if "url" not in kwargs and document is not None:
        action = (form.attrib.get("action") or "").strip(_ASCII_WHITESPACE)
        kwargs["url"] = encode_query(urljoin(get_base_url(response), action), document)
    with warnings.catch_warnings():  # deprecated in Scrapy 2.19 in favour of form2request
        warnings.simplefilter("ignore", ScrapyDeprecationWarning)
        request = FormRequest.from_response(response, formname=formname, formid=formid, formnumber=formnumber,
                                            formxpath=formxpath, formcss=formcss, **kwargs)
    return portable_request(request)
