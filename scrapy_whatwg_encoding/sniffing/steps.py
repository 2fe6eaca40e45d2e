"""The vocabulary of the encoding sniffing algorithm (HTML §13.2.3.2) and of its parser step
(§13.2.3.4): each step's name, heading and section, once, and the steps each kind of document goes
through, in the standard's order. :func:`.run.run` asks them in this order; the explanations, the
CLI and the report read their names and headings from here (docs/design.rst, "One run")."""
from __future__ import annotations

import enum

from .content_type import DocumentKind

_SNIFFING = "https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm"


class Step(str, enum.Enum):
    """A step of the algorithm. Its value is the :attr:`.Decision.source` of a decision the step
    makes (``Step.PRESCAN == "prescan"``), its :attr:`heading` is for people and its
    :attr:`section` links the standard.

    >>> Step.TRANSPORT.heading, Step.TRANSPORT == "transport"
    ('transport layer (Content-Type)', True)
    """

    BOM = "bom"
    OVERRIDE = "override"
    TRANSPORT = "transport"
    PRESCAN = "prescan"
    XML_DECLARATION = "xml-declaration"
    CONTAINER = "container"
    LIKELY = "likely"
    DETECTOR = "detector"
    DEFAULT = "default"
    PARSER = "parser"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __hash__(self) -> int:  # as its value's: a step and its name are one dictionary key
        return hash(self.value)

    @property
    def heading(self) -> str:
        """The step's name for people (:class:`str`)."""
        return _HEADINGS[self]

    @property
    def section(self) -> str:
        """The URL of the step's text in its standard."""
        return _SECTIONS.get(self, _SNIFFING)


_HEADINGS = {
    Step.BOM: "BOM sniff", Step.OVERRIDE: "user override", Step.TRANSPORT: "transport layer (Content-Type)",
    Step.PRESCAN: "prescan (<meta>)", Step.XML_DECLARATION: "XML declaration", Step.CONTAINER: "container document",
    Step.LIKELY: "likely encoding", Step.DETECTOR: "autodetection", Step.DEFAULT: "default",
    Step.PARSER: "parser change",
}
_SECTIONS = {
    Step.BOM: "https://encoding.spec.whatwg.org/#bom-sniff",
    Step.PRESCAN: "https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding",
    Step.XML_DECLARATION: "https://www.w3.org/TR/xml/#sec-guessing",
    Step.PARSER: "https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing",
}

#: The steps each kind of document goes through, in order (the parser step follows a tentative
#: HTML decision). Plain text has no prescan; XML has its declaration (XML 1.0 Appendix F) and no
#: steps 6-8; other kinds only the certain steps and the default.
STEPS: dict[DocumentKind, tuple[Step, ...]] = {
    "html": (Step.BOM, Step.OVERRIDE, Step.TRANSPORT, Step.PRESCAN, Step.CONTAINER, Step.LIKELY, Step.DETECTOR,
             Step.DEFAULT),
    "text": (Step.BOM, Step.OVERRIDE, Step.TRANSPORT, Step.CONTAINER, Step.LIKELY, Step.DETECTOR, Step.DEFAULT),
    "xml": (Step.BOM, Step.OVERRIDE, Step.TRANSPORT, Step.XML_DECLARATION, Step.DEFAULT),
    "other": (Step.BOM, Step.OVERRIDE, Step.TRANSPORT, Step.DEFAULT),
}
#: Every step in the order an explanation shows them (the parser step after the declarations).
ORDER: tuple[Step, ...] = (Step.BOM, Step.OVERRIDE, Step.TRANSPORT, Step.PRESCAN, Step.XML_DECLARATION,
                           Step.PARSER, Step.CONTAINER, Step.LIKELY, Step.DETECTOR, Step.DEFAULT)
#: The steps whose decision is certain and ends the run in every profile (steps 1, 2 and 4).
CERTAIN_STEPS: frozenset[Step] = frozenset((Step.BOM, Step.OVERRIDE, Step.TRANSPORT))
