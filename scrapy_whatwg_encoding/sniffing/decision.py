"""The result of the encoding sniffing algorithm: an encoding with a confidence (HTML §13.2.3.1)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from ..encoding import Encoding

# The decision's vocabulary, defined here once; other modules import these names.
#: Where a decision came from (see :class:`Decision`).
Source = Literal["bom", "override", "transport", "prescan", "xml-declaration", "parser",
                 "container", "likely", "detector", "default", "content", "handler"]
#: The confidence of HTML §13.2.3.1.
Confidence = Literal["certain", "tentative"]
#: Autodetection (step 8) modes, see :mod:`scrapy_whatwg_encoding.sniffing.detect`.
DetectorMode = Literal["off", "browser", "full"]
#: ``"standard"``: the HTML standard's algorithm; ``"browsers"``: what Firefox and Chromium agree
#: on, where they leave it (see ``sniff`` and docs/browsers.rst).
Profile = Literal["standard", "browsers"]

#: Every :data:`Source`, in the order the algorithm tries them (see ``sniff``), then
#: ``"content"`` and ``"handler"``, which ``sniff`` never returns (see :class:`Decision`).
SOURCES: tuple[Source, ...] = get_args(Source)
#: Every :data:`DetectorMode` and :data:`Profile` (``sniff``, the settings and the CLI check against these).
DETECTOR_MODES: tuple[DetectorMode, ...] = get_args(DetectorMode)
PROFILES: tuple[Profile, ...] = get_args(Profile)
#: The detector mode of each profile when none is asked for (``sniff(detector=None)``, the CLI
#: and the ``WHATWG_ENCODING_DETECTOR`` setting left unset): the standard profile detects UTF-8
#: too, the browsers profile as Firefox does.
DEFAULT_DETECTORS: dict[Profile, DetectorMode] = {"standard": "full", "browsers": "browser"}
#: Sources that are declarations in the body or the transport (site memory counts them), and
#: those that mean "nothing was declared".
DECLARED_SOURCES: frozenset[Source] = frozenset({"bom", "transport", "prescan", "xml-declaration", "parser"})
UNDECLARED_SOURCES: frozenset[Source] = frozenset({"detector", "default"})


@dataclass(frozen=True, slots=True)
class Decision:
    """An encoding and how the encoding sniffing algorithm found it (HTML §13.2.3,
    https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm).

    :func:`scrapy_whatwg_encoding.sniff` returns one; the middleware stores :meth:`as_dict` in
    ``response.meta["whatwg_encoding"]``. Immutable (a frozen dataclass: setting an attribute
    raises :exc:`dataclasses.FrozenInstanceError`), hashable, compared by value.

    ``source`` is one of :data:`SOURCES`, in the order the algorithm tries them:

    - ``"bom"``: a byte order mark (step 1; certain, ``offset`` 0);
    - ``"override"``: the user override (step 2; certain);
    - ``"transport"``: the Content-Type ``charset`` parameter (step 4; certain);
    - ``"prescan"``: a ``<meta>`` in the first bytes (step 5; tentative, or certain once the
      parser step agrees with it);
    - ``"xml-declaration"``: an XML declaration (the prescan's UTF-16 ``<?x`` check and "get an
      XML encoding" for HTML, XML 1.0 Appendix F for XML; ``offset`` 0);
    - ``"parser"``: a later ``<meta>`` found by the tokenizer decided (§13.2.3.4; certain): it
      changed the encoding, or declared the one a tentative step without a declaration guessed
      (container, likely, detector, default);
    - ``"container"``: the parent document of a frame (step 6; tentative);
    - ``"likely"``: a likely encoding such as a host's remembered one (step 7; tentative);
    - ``"detector"``: autodetection (step 8; tentative);
    - ``"default"``: the user or locale default (step 9; tentative; UTF-8 for XML).

    Outside the standard, ``"content"``: a label the content contradicts was overruled with the
    content's encoding (``WHATWG_ENCODING_SUSPECT_LABELS = "content"``, see
    :func:`~scrapy_whatwg_encoding.sniffing.mislabel.content_decision`; tentative; ``label`` and
    ``offset`` are those of the overruled label); and ``"handler"``: the Scrapy download handler
    that built the response had decoded the page and gave its encoding (a browser's DOM
    re-encoded, :mod:`scrapy_whatwg_encoding.scrapy.handler`; certain; ``label`` is the name it
    gave). :func:`~scrapy_whatwg_encoding.sniff` returns neither.

    >>> from scrapy_whatwg_encoding import sniff
    >>> decision = sniff(b'<html><meta charset="shift_jis">')
    >>> decision.encoding, decision.confidence, decision.source, decision.label, decision.offset
    (<Encoding Shift_JIS>, 'certain', 'prescan', 'shift_jis', 6)
    """

    #: The :class:`~scrapy_whatwg_encoding.Encoding` to decode the body with, through the
    #: "decode" hook (:func:`scrapy_whatwg_encoding.decode`), so that a BOM still wins.
    encoding: Encoding
    #: ``"certain"`` or ``"tentative"`` (HTML §13.2.3.1, "confidence"; a :data:`Confidence`).
    confidence: Confidence
    #: Which step decided: one of :data:`SOURCES` (see above).
    source: Source
    #: The label text (:class:`str`) that "get an encoding" matched, as the step saw it with
    #: ASCII whitespace stripped (``"shift_jis"``, ``"x-sjis"``), or ``None`` (BOM, detector,
    #: locale default, or an :class:`~scrapy_whatwg_encoding.Encoding` passed in).
    label: str | None = None
    #: Offset in bytes, from the start of the body, of the declaration: the ``<`` of the
    #: ``<meta`` or of the ``<?xml``, 0 for a BOM; ``None`` when nothing in the body decided.
    offset: int | None = None

    def as_dict(self) -> dict[str, str | int | None]:
        """The decision as a JSON-ready :class:`dict` (for logs, ``response.meta`` and JSON)
        with exactly the keys ``encoding`` (the WHATWG name, :attr:`Encoding.name`),
        ``confidence``, ``source``, ``label`` and ``offset``.

        >>> from scrapy_whatwg_encoding import sniff
        >>> sniff(b"caf\\xe9", content_type="text/html; charset=latin1").as_dict()
        {'encoding': 'windows-1252', 'confidence': 'certain', 'source': 'transport', 'label': 'latin1', 'offset': None}
        """
        return {
            "encoding": self.encoding.name,
            "confidence": self.confidence,
            "source": self.source,
            "label": self.label,
            "offset": self.offset,
        }
