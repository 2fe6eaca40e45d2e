"""The kind of document a page is explained or audited as (HTML, XML, plain text, other), and
where that kind comes from.

The sniffing layer takes the kind from the MIME type (:func:`..sniffing.content_type.document_kind`).
A file has no Content-Type, so its name stands in for one, as a web server would type it: a MIME type
without a ``charset`` parameter (no transport layer encoding, only the kind) is what ``sniff`` gets.
"""
from __future__ import annotations

import mimetypes
from dataclasses import dataclass
from pathlib import PurePath

from ..sniffing.content_type import document_kind

#: File name suffixes (case-insensitive) read as XML, and as plain text; any other name is HTML.
XML_SUFFIXES = (".xml", ".rss", ".atom", ".svg", ".xhtml")
TEXT_SUFFIXES = (".txt",)
#: The MIME type standing in for a Content-Type when the kind comes from the file name.
MIME_TYPES = {"xml": "application/xml", "text": "text/plain", "html": "text/html"}
#: Names of the kinds for people.
NAMES = {"html": "HTML", "xml": "XML", "text": "plain text", "other": "not HTML, XML or text"}


@dataclass(frozen=True)
class DocumentKind:
    """``kind`` (``"html"``, ``"xml"``, ``"text"``, ``"other"``), ``content_type`` (the value to give
    ``sniff``: the Content-Type when there is one, else a MIME type without charset for a file's kind,
    ``None`` for neither) and
    ``origin`` (why this kind, for people, e.g. ``"from the file name .xml; --content-type overrides"``)."""

    kind: str
    content_type: str | None
    origin: str

    def describe(self) -> str:
        """``"XML (from the file name .xml; --content-type overrides)"``."""
        return f"{NAMES[self.kind]} ({self.origin})"


def choose_kind(content_type: str | None, *, path: str | None = None,
                given_by: str = "--content-type") -> DocumentKind:
    """The kind of a page whose Content-Type is *content_type* (``None``: none), named *given_by* in
    the explanation (the option, or ``"the server's Content-Type"``). Without one, a file *path*
    chooses by its suffix (:data:`XML_SUFFIXES`, :data:`TEXT_SUFFIXES`; a suffix a web server
    types as neither HTML, XML nor text, such as ``.pdf`` or ``.json``, gives its MIME type and the
    kind ``"other"``, which a crawl skips; else HTML); a page without either is HTML, the sniffing
    algorithm's kind for a missing Content-Type.

    >>> choose_kind(None, path="feeds/News.RSS").describe()
    'XML (from the file name .rss; --content-type overrides)'
    >>> choose_kind("application/xml; charset=koi8-r", path="page.html").describe()
    'XML (from --content-type)'
    >>> choose_kind(None, path="notes.txt").content_type
    'text/plain'
    >>> choose_kind(None, path="doc.pdf").describe()
    'not HTML, XML or text (from the file name .pdf, application/pdf; --content-type overrides)'
    """
    if content_type is not None:
        return DocumentKind(document_kind(content_type), content_type, f"from {given_by}")
    if path is None:
        return DocumentKind("html", None, "by default: no Content-Type")
    suffix = PurePath(path).suffix.lower()
    kind = "xml" if suffix in XML_SUFFIXES else "text" if suffix in TEXT_SUFFIXES else "html"
    typed = mimetypes.guess_type(f"file{suffix}", strict=False)[0] if kind == "html" and suffix else None
    if typed is not None and document_kind(typed) == "other":
        return DocumentKind("other", typed, f"from the file name {suffix}, {typed}; {given_by} overrides")
    if kind == "html":
        suffixes = ", ".join(XML_SUFFIXES + TEXT_SUFFIXES)
        origin = f"by default: the file name does not end in {suffixes}"
    else:
        origin = f"from the file name {suffix}"
    return DocumentKind(kind, MIME_TYPES[kind], f"{origin}; {given_by} overrides")
