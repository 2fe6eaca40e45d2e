"""The result of the encoding sniffing algorithm: an encoding with a confidence (HTML §13.2.3.1)."""
from __future__ import annotations

from dataclasses import dataclass

from ..encoding import Encoding

#: Where a decision came from, in the order the algorithm tries them (see ``sniff``).
SOURCES = (
    "bom", "override", "transport", "prescan", "xml-declaration", "parser",
    "container", "likely", "detector", "default",
)


@dataclass(frozen=True, slots=True)
class Decision:
    """An encoding and how it was found (immutable).

    - ``encoding`` (:class:`Encoding`): the encoding to decode the body with (through the
      "decode" hook, so a BOM still wins).
    - ``confidence`` (str): ``"certain"`` or ``"tentative"`` (HTML §13.2.3.1).
    - ``source`` (str): one of :data:`SOURCES`.
    - ``label`` (str | None): the label text that "get an encoding" matched (as the step saw it,
      ASCII whitespace stripped), or ``None``.
    - ``offset`` (int | None): byte offset in the body of the declaration (the ``<`` of a
      ``<meta>`` or of ``<?xml``; 0 for a BOM), or ``None``.
    """

    encoding: Encoding
    confidence: str
    source: str
    label: str | None = None
    offset: int | None = None

    def as_dict(self) -> dict:
        """``{"encoding": WHATWG name, "confidence", "source", "label", "offset"}`` for logs/JSON."""
        return {
            "encoding": self.encoding.name,
            "confidence": self.confidence,
            "source": self.source,
            "label": self.label,
            "offset": self.offset,
        }
