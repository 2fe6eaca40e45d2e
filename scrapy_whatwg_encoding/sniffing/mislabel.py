"""A label that contradicts the content (issue 11): the standard's answer is the label, and the
package follows it; this module only says when the bytes disagree, for a stat, a log line or a
caller that values clean text over browser fidelity.

Kinds (:data:`KINDS`), checked in this order:

- ``"replacement"``: the label names the replacement encoding (``iso-2022-kr``, ``hz-gb-2312``, ...):
  the whole body decodes to one U+FFFD.
- ``"x-user-defined"``: the label is x-user-defined and the body has non-ASCII bytes (they become
  private-use characters).
- ``"utf-8"``: the body has non-ASCII bytes and is valid UTF-8 from end to end, under a label of
  another encoding (for a UTF-16 label: valid UTF-8 without a single 0x00 byte, which UTF-16
  markup always has).
- ``"undecodable"``: decoding with the label's encoding gives U+FFFD where the detector's encoding
  (``detect(body, "full", url)``, once per body, kept in its ``memo``) decodes the same bytes
  without error.
"""
from __future__ import annotations

import dataclasses
from typing import Literal, get_args

from ..encoding import ENCODINGS, Encoding
from .body import Body
from .decision import Decision, Source
from .detect import DECODES_EVERY_BYTE, answers_a_total_encoding
from .run import detected

#: Decision sources that are labels: the transport layer (Content-Type), a ``<meta>`` found by
#: the prescan or by the parser, an XML declaration.
LABEL_SOURCES: frozenset[Source] = frozenset({"transport", "prescan", "xml-declaration", "parser"})
#: A kind of suspect label (see the module docstring).
SuspectKind = Literal["utf-8", "replacement", "x-user-defined", "undecodable"]
KINDS: tuple[SuspectKind, ...] = get_args(SuspectKind)
#: Bodies up to this size (bytes) are decoded whole for the "undecodable" check (the text a
#: :class:`~.body.Body` keeps); of a longer one, :data:`SUSPECT_LIMIT` bytes from
#: just before the first non-ASCII byte.
WHOLE_LIMIT = 1024 * 1024
SUSPECT_LIMIT = 64 * 1024
_FIRST_PIECE = 4096  # bytes of the "undecodable" check's first piece (see _decodes_cleanly)
_CONTEXT = 16  # bytes kept before the first non-ASCII byte (a multi-byte sequence may start there)
_UTF_8, _REPLACEMENT, _X_USER_DEFINED = ENCODINGS["UTF-8"], ENCODINGS["replacement"], ENCODINGS["x-user-defined"]


def _decodes_cleanly(encoding: Encoding, data: bytes, cut: bool, shortcut: bool = True) -> bool:
    """Whether *encoding* decodes *data* without U+FFFD (but for a last one where *cut*): a second
    pass over the body for the statistic only. With *shortcut*, an encoding of
    :data:`.detect.DECODES_EVERY_BYTE` (the
    detector's windows-1252 on random bytes) without the decode, and an ASCII-compatible one in
    pieces that double from _FIRST_PIECE bytes, each cut before a ``<`` (a token of its own in every
    such decoder, §10-§13: no trail byte is 0x3C, so the pieces' texts are the whole text's), up to
    the first that holds U+FFFD (a page full of errors: one small decode). Plain twin:
    ``shortcut=False``."""
    if shortcut and encoding in DECODES_EVERY_BYTE:
        return True
    if shortcut and encoding.is_ascii_compatible:
        start, size = 0, _FIRST_PIECE
        while len(data) - start > size:
            end = data.rfind(b"<", start + 1, start + size)
            if end < 0:
                end = data.find(b"<", start + size)
                if end < 0:
                    break
            if "\ufffd" in encoding.decode(data[start:end]):
                return False
            start, size = end, 2 * size
        data = data[start:]
    text = encoding.decode(data)
    return "\ufffd" not in (text[:-1] if cut else text)  # a sequence cut by the window is no error


def suspect_label(body: bytes | Body, decision: Decision, *, url: str | None = None) -> SuspectKind | None:
    """Whether *body* (the raw bytes, or their :class:`~.body.Body`) contradicts the label
    *decision* came from.

    Returns one of :data:`KINDS` (see the module docstring) or ``None``: the decision did not come
    from a label (its ``source`` is not in :data:`LABEL_SOURCES`), the body starts with a BOM (the
    BOM, not the label, decides the decoding), or nothing contradicts the label. *url* is the
    document's URL (its TLD hints the detector of the ``"undecodable"`` check). Never raises for
    bytes input.

    Cost: the first non-ASCII byte and UTF-8 validity, at C speed (facts a :class:`~.body.Body`
    keeps). Nothing is decoded for the single-byte encodings that map every byte; otherwise a
    body of at most :data:`WHOLE_LIMIT` bytes is decoded (the text the :class:`~.body.Body` keeps,
    which a caller decoding the page anyway reuses), of a longer one :data:`SUSPECT_LIMIT` bytes.

    >>> from scrapy_whatwg_encoding import sniff
    >>> body = "<p>naïve café</p>".encode("utf-8")
    >>> suspect_label(body, sniff(body, content_type="text/html; charset=iso-8859-1"))
    'utf-8'
    >>> suspect_label(body, sniff(body, content_type="text/html; charset=utf-8")) is None
    True
    """
    facts = body if isinstance(body, Body) else Body(body)
    data = facts.data
    if decision.source not in LABEL_SOURCES or facts.bom is not None:
        return None
    encoding = decision.encoding
    if encoding is _UTF_8 and len(data) <= WHOLE_LIMIT:
        facts.text(encoding)  # the text is needed anyway, and its decode says whether it is valid
        if facts.is_utf_8:
            return None  # the common case, valid UTF-8 under its own label
    if encoding is _REPLACEMENT:
        return "replacement" if data else None
    if encoding.is_utf16:
        return "utf-8" if b"\x00" not in data and facts.is_utf_8 else None
    if facts.is_ascii:
        return None  # every ASCII-compatible encoding gives the same text
    if encoding is _X_USER_DEFINED:
        return "x-user-defined"
    if encoding is not _UTF_8 and facts.is_utf_8:
        return "utf-8"
    if encoding in DECODES_EVERY_BYTE:
        return None  # no byte is an error: nothing to decode
    if len(data) <= WHOLE_LIMIT:  # decode it all: the caller may keep the text
        window, cut = data, False
        clean = "\ufffd" not in facts.text(encoding)
    else:
        start = max(facts.first_non_ascii - _CONTEXT, 0)  # type: ignore[operator]
        window, cut = data[start:start + SUSPECT_LIMIT], start + SUSPECT_LIMIT < len(data)
        clean = _decodes_cleanly(encoding, window, cut)
    if clean or encoding is _UTF_8 and facts.is_utf_8:  # U+FFFD itself is valid UTF-8
        return None
    return "undecodable" if _detector_decodes_cleanly(facts, encoding, window, cut, url) else None


def _detector_decodes_cleanly(facts: Body, encoding: Encoding, window: bytes, cut: bool, url: str | None,
                              shortcut: bool = True) -> bool:
    """Whether the detector's encoding (``detect(facts, "full", url)``, kept in ``facts.memo``) is
    not *encoding* (which decodes *window* with U+FFFD) and decodes *window* cleanly. With
    *shortcut*, ``True`` where it is surely an encoding in which nothing decodes with an error
    (:func:`.detect.answers_a_total_encoding`: random bytes, without uchardet's run). Plain twin:
    ``shortcut=False``."""
    if shortcut and answers_a_total_encoding(facts, url):
        return True
    found = detected(facts, "full", url)
    return found is not None and found is not encoding and _decodes_cleanly(found, window, cut)


def content_decision(body: bytes | Body, decision: Decision, kind: SuspectKind, *, url: str | None = None) -> Decision:
    """The decision that overrules a suspect label (*kind*, from :func:`suspect_label` for the
    same *body* and *decision*) with the content's encoding, for crawls that value clean text over
    browser fidelity: UTF-8 for kind ``"utf-8"``, else ``detect(body, "full", url)`` (UTF-8 for a
    body with nothing to detect, such as an all-ASCII ``iso-2022-kr`` page).

    The result has ``source`` ``"content"`` and confidence ``"tentative"`` (like the detector's,
    HTML §13.2.3.2 step 8: the content is evidence, not a declaration), and keeps the ``label`` and
    ``offset`` of the overruled label. Never raises for bytes input.

    >>> from scrapy_whatwg_encoding import sniff
    >>> body = "<p>naïve café</p>".encode("utf-8")
    >>> content_decision(body, sniff(body, content_type="text/html; charset=latin1"), "utf-8").as_dict()
    {'encoding': 'UTF-8', 'confidence': 'tentative', 'source': 'content', 'label': 'latin1', 'offset': None}
    """
    facts = body if isinstance(body, Body) else Body(body)
    encoding = _UTF_8 if kind == "utf-8" else detected(facts, "full", url) or _UTF_8
    return dataclasses.replace(decision, encoding=encoding, confidence="tentative", source="content")
