"""Form submission with the encoding the HTML standard picks for the form.

HTML §4.10.21.8 "picking an encoding for the form" (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#picking-an-encoding-for-the-form):
the ``accept-charset`` attribute is split on ASCII whitespace, the first token that "get an
encoding" recognises gives the encoding; without one (no attribute, or no token recognised) the
document's encoding is used; then "get an output encoding" (UTF-16BE/LE and replacement → UTF-8).

The form itself (submitter, method, action URL, entry list) is read by the form2request library,
which Scrapy 2.19 recommends over its deprecated ``FormRequest.from_response``. form2request
always encodes as UTF-8 and has no encoding argument, so :func:`form_request` takes the entry
list back from its UTF-8 ``application/x-www-form-urlencoded`` serialization (lossless) and
serializes it again with the picked encoding's codec: the Encoding Standard's encoder in "html"
error mode (``&#N;`` for a character the encoding lacks, which the serializer percent-encodes,
URL Standard "percent-encode after encoding")::

    from scrapy_whatwg_encoding.scrapy.requests.forms import form_request

    yield form_request(response, formdata={"q": "東京"}, callback=self.parse_results)
"""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from form2request import form2request
from parsel import Selector
from scrapy.http import FormRequest
from scrapy.utils.response import get_base_url

from ...encoding import Encoding, get_encoding
from ..responses import whatwg_encoding
from .portable import portable_request
from .url import encode_query

_ASCII_WHITESPACE_RUN = re.compile("[\t\n\x0c\r ]+")
#: The submit buttons form2request (and Scrapy) consider, in tree order.
_SUBMITTERS = ('descendant::input[re:test(@type, "^(submit|image)$", "i")]'
               '|descendant::button[not(@type) or re:test(@type, "^submit$", "i")]')
_URLENCODED = "application/x-www-form-urlencoded"
_LINE_BREAK = re.compile("\r\n|\r|\n")


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


def find_submitter(form: Selector, clickdata: dict[str, str | int]) -> Selector:
    """The submit button of *form* that ``from_response``'s *clickdata* names: ``{"nr": n}`` the
    n-th submit button (0-based), other keys attribute values that one element of the form has.
    Raises ``ValueError`` when no element, or more than one, matches."""
    number = clickdata.get("nr")
    if number is not None:
        submitters = form.xpath(_SUBMITTERS)
        if not isinstance(number, int) or not 0 <= number < len(submitters):
            raise ValueError(f"No submit button number {number!r} in the form")
        return submitters[number]
    names = list(clickdata)
    found = form.xpath(".//*" + "".join(f"[@{name}=$v{i}]" for i, name in enumerate(names)), None,
                       **{f"v{i}": str(clickdata[name]) for i, name in enumerate(names)})
    if len(found) != 1:
        raise ValueError(f"{len(found) or 'No'} elements match clickdata {clickdata!r}")
    return found[0]


def form_request(response, formname: str | None = None, formid: str | None = None, formnumber: int = 0,
                 formdata: Any = None, clickdata: dict[str, str | int] | None = None, dont_click: bool = False,
                 formxpath: str | None = None, formcss: str | None = None, **kwargs: Any) -> FormRequest:
    """The ``scrapy.FormRequest`` a browser sends for a form of *response* (a
    ``TextResponse``), with ``FormRequest.from_response``'s arguments: the form (``formname``,
    ``formid``, ``formxpath``, ``formcss``, ``formnumber``: ``find_form()``), ``formdata`` (a
    dict or (name, value) pairs; ``None`` drops a field), ``clickdata`` (``find_submitter()``) or
    ``dont_click``; the other keyword arguments go to ``FormRequest``, ``method`` (``GET`` or
    ``POST``; any other value: ``GET``) and ``url`` (joined to the base URL) replacing the form's.

    form2request reads the form (its first submit button unless told, the button's
    ``formaction``/``formmethod`` too); GET puts the data in the action URL's query, POST in an
    ``application/x-www-form-urlencoded`` body (whatever the form's ``enctype``, as Scrapy). The
    data is encoded with the form's encoding (``form_encoding()``: the Encoding Standard's
    encoder, "html" error mode); an explicit ``encoding=`` (a Python codec name) wins, as does
    ``response.encoding`` where neither the middleware nor ``accept-charset`` gives one (both
    raise ``UnicodeEncodeError`` for a character the codec lacks, as Scrapy does). The action
    URL's own query is encoded with the document's encoding, as the URL parser does. The request's
    ``encoding`` is portable (:func:`.portable.portable_request`): URL and body keep the form
    encoding's bytes. Raises ``ValueError`` for a form or submitter not found, and form2request's
    ``NotImplementedError`` for a ``method="dialog"`` form."""
    form = find_form(response, formname, formid, formnumber, formxpath, formcss)
    picked = form_encoding(response, form)
    encoding = kwargs.pop("encoding", None) or (response.encoding if picked is None else picked.codec_name)
    method = kwargs.pop("method", None)
    if method is not None:
        method = method.upper() if method.upper() in ("GET", "POST") else "GET"
    submitters = [] if dont_click else form.xpath(_SUBMITTERS)[:1] if clickdata is None else [
        find_submitter(form, clickdata)]
    # form2request reads the action URL and method (the submitter's formaction/formmethod too) and
    # the entry list without the submitter, serialized as UTF-8 (in a body: every form has one).
    built = form2request(form, formdata, click=submitters[0] if submitters else False, method=method,
                         enctype=_URLENCODED)
    entries = form2request(form, formdata, click=False, method="POST", enctype=_URLENCODED).body
    pairs = parse_qsl(entries.decode("ascii"), keep_blank_values=True, encoding="utf-8", errors="strict")
    submitter = submitters[0].attrib.get("name") if submitters else None
    if submitter and submitter not in dict(formdata or ()):  # (as from_response: formdata's value wins)
        pairs.append((submitter, submitters[0].attrib.get("value", "")))
    # "Convert to a list of name-value pairs" (line breaks to CRLF), then the
    # application/x-www-form-urlencoded serializer with the form's encoding (Python's quote_plus
    # spells a few bytes otherwise, "*" as %2A and "~" raw: the same bytes once decoded).
    query = urlencode([(_LINE_BREAK.sub("\r\n", name).encode(encoding),
                        _LINE_BREAK.sub("\r\n", value).encode(encoding)) for name, value in pairs])
    url = kwargs.pop("url", None)
    document = whatwg_encoding(response)
    if url is not None:
        url = urljoin(get_base_url(response), url)
    elif document is not None:  # the action URL as the document's URL parser reads it
        url = encode_query(built.url, document)
    else:
        url = built.url
    if built.method == "GET":
        url = urlunsplit(urlsplit(url)._replace(query=query))
        request = FormRequest(url, method="GET", encoding=encoding, **kwargs)
    else:
        request = FormRequest(url, method="POST", body=query.encode("ascii"), encoding=encoding, **kwargs)
        request.headers.setdefault("Content-Type", _URLENCODED)
    return portable_request(request)
