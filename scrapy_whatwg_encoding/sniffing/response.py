"""The decision for one fetched response, in one place: the encoding sniffing algorithm
(:func:`.sniff.sniff`, HTML §13.2.3.2 and the parser step) with a site's memory as the likely
encoding of step 7, then the suspect-label check (:mod:`.mislabel`) as a named step after it. Every
step reads the same :class:`~.body.Body`, so the first non-ASCII byte, UTF-8 validity and each
decoded text are found once per response."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..encoding import ENCODINGS, Encoding
from .body import Body
from .change import PARSER_LIMIT
from .content_type import per_value
from .decision import Decision
from .mislabel import content_decision, suspect_label
from .sniff import Likely, detector_for, sniff_checked, transport_decision

#: What to do with a label the content contradicts: keep it (the standard's answer, ``"label"``)
#: or decode with the content's encoding (``"content"``, source ``"content"``).
SUSPECT_LABELS = ("label", "content")
_UTF_8 = ENCODINGS["UTF-8"]
_BOMS = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")  # BOM sniff's three (Encoding Standard §6)


class Outcome(NamedTuple):
    """``decision``: the :class:`Decision` to decode with; ``suspect``: the kind of suspect label
    (:data:`.mislabel.KINDS`) or ``None``; ``body``: the :class:`~.body.Body` with the facts and
    texts found on the way (``body.decoded(decision.encoding)`` is the text, if it was decoded)."""

    decision: Decision
    suspect: str | None
    body: Body


@dataclass(frozen=True, slots=True)
class Options:
    """How a crawl decides: :func:`~.sniff.sniff`'s arguments that are the same for every response
    (see there), checked once, and *suspect_labels* (one of :data:`SUSPECT_LABELS`). Raises
    ``ValueError`` for a bad *detector*, *profile* or *suspect_labels*.

    >>> from scrapy_whatwg_encoding.sniffing.response import Options
    >>> options = Options()
    >>> options.decide(b"<p>plain</p>", "text/html; charset=koi8-r").decision.source
    'transport'
    """

    locale: str | None = None
    default: str | Encoding | None = None
    prescan_bytes: int = 1024
    profile: str = "standard"
    detector: str | None = None
    suspect_labels: str = "label"
    parser_limit: int = PARSER_LIMIT
    #: The detector mode in effect (*detector*, else the profile's own).
    mode: str = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "mode", detector_for(self.detector, self.profile))
        if self.suspect_labels not in SUSPECT_LABELS:
            raise ValueError(f"suspect_labels must be one of {SUSPECT_LABELS}, not {self.suspect_labels!r}")

    def decide(self, body: bytes | Body, content_type: str | bytes | None = None, url: str | None = None,
               override: str | Encoding | None = None, likely: Likely | None = None) -> Outcome:
        """Decide *body*'s encoding (bytes, decompressed): :func:`~.sniff.sniff` with these options,
        *content_type*, *url*, *override* and *likely* (a :data:`~.sniff.Likely`: step 7), then
        the suspect-label check; with ``suspect_labels="content"`` a suspect label is overruled
        (:func:`~.mislabel.content_decision`). Never raises for bytes input."""
        facts = body if isinstance(body, Body) else Body(body)
        if override is None and type(content_type) is str:
            found = labeled_utf_8(facts, content_type)  # a failed strict decode is kept as a fact
            if found is not None:
                return Outcome(found[0], None, facts)
        decision = sniff_checked(facts, content_type, url, self.locale, self.default, override, None, likely,
                                 self.mode, self.prescan_bytes, self.parser_limit, self.profile)
        suspect = suspect_label(facts, decision, url=url)
        if suspect is not None and self.suspect_labels == "content":
            decision = content_decision(facts, decision, suspect, url=url)
        return Outcome(decision, suspect, facts)


def labeled_utf_8(body: bytes | Body, content_type: str) -> tuple[Decision, str] | None:
    """The most common page at the cost of one strict decode: where *content_type* (a
    ``Content-Type`` value) has a ``charset`` that is a label of UTF-8, and *body* (bytes, or their
    :class:`~.body.Body`, which keeps what the decode found) starts with no BOM and is valid UTF-8,
    ``(decision, text)``: what :meth:`Options.decide` gives it
    with any options and no override (step 1 finds no BOM, steps 2-3 need an override or a
    parent, step 4 decides, and valid UTF-8 under a UTF-8 label is never suspect), and the text
    (str); else ``None``.

    >>> from scrapy_whatwg_encoding.sniffing.response import labeled_utf_8
    >>> labeled_utf_8("café".encode(), "text/html; charset=utf8")[1]
    'café'
    >>> labeled_utf_8("café".encode("latin-1"), "text/html; charset=utf8") is None
    True
    """
    decision = _utf_8_label(content_type)
    if decision is None:
        return None
    if isinstance(body, Body):
        return (decision, body.text(_UTF_8)) if body.bom is None and body.is_utf_8 else None
    if body.startswith(_BOMS):
        return None
    try:
        return decision, body.decode("utf-8")
    except UnicodeDecodeError:
        return None


@per_value
def _utf_8_label(content_type: str) -> Decision | None:
    """Step 4's decision for *content_type* if it is UTF-8 (as :func:`.sniff.sniff_checked` finds it)."""
    decision = transport_decision(content_type)
    return decision if decision is not None and decision.encoding is _UTF_8 else None


def decide(body: bytes | Body, *, content_type: str | bytes | None = None, url: str | None = None,
           override: str | Encoding | None = None, likely: Likely | None = None, **options) -> Outcome:
    """``Options(**options).decide(body, content_type, url, override, likely)`` (see
    :class:`Options`); raises ``ValueError`` for bad options.

    >>> from scrapy_whatwg_encoding.sniffing.response import decide
    >>> outcome = decide("<p>café</p>".encode(), content_type="text/html; charset=iso-8859-1")
    >>> outcome.decision.encoding.name, outcome.suspect
    ('windows-1252', 'utf-8')
    """
    return Options(**options).decide(body, content_type, url, override, likely)
