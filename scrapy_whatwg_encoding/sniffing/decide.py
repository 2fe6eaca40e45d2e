"""The decision for one fetched response, in one place and in the standard's order: the encoding
sniffing algorithm (HTML §13.2.3.2 and the parser step, :mod:`.sniff`) with a site's memory as the
likely encoding of step 7, then the suspect-label check (:mod:`.mislabel`) as a named step after
it. Every step reads the same :class:`~.body.Body`, so the first non-ASCII byte, UTF-8 validity
and each decoded text are found once per response.

The most common page (a ``charset`` that is a label of UTF-8, no BOM, valid UTF-8) is no special
path: step 4 decides it with certainty, which ends the run, and the suspect-label check's strict
UTF-8 decode is the text the response needs anyway."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple, get_args

from ..encoding import Encoding
from .body import Body
from .decision import Decision
from .mislabel import SuspectKind, content_decision, suspect_label
from .run import Likely, Settings
from .sniff import decide_encoding

#: What to do with a label the content contradicts: keep it (the standard's answer, ``"label"``)
#: or decode with the content's encoding (``"content"``, source ``"content"``).
SuspectLabels = Literal["label", "content"]
SUSPECT_LABELS: tuple[SuspectLabels, ...] = get_args(SuspectLabels)


class Outcome(NamedTuple):
    """``decision``: the :class:`Decision` to decode with; ``suspect``: the kind of suspect label
    (a :data:`.mislabel.SuspectKind`) or ``None``; ``body``: the :class:`~.body.Body` with the
    facts and texts found on the way (``body.decoded(decision.encoding)`` is the text, if it was
    decoded)."""

    decision: Decision
    suspect: SuspectKind | None
    body: Body


@dataclass(frozen=True, slots=True)
class Options(Settings):
    """How a crawl decides: :func:`~.sniff.sniff`'s arguments that are the same for every response
    (:class:`~.run.Settings`, see there), checked once, and *suspect_labels* (one of
    :data:`SUSPECT_LABELS`). Raises ``ValueError`` for a bad *detector*, *profile* or
    *suspect_labels*; a negative *prescan_bytes* counts as 0.

    >>> from scrapy_whatwg_encoding.sniffing.decide import Options
    >>> options = Options()
    >>> options.decide(b"<p>plain</p>", "text/html; charset=koi8-r").decision.source
    'transport'
    """

    suspect_labels: SuspectLabels = "label"

    def __post_init__(self):
        Settings.__post_init__(self)
        if self.suspect_labels not in SUSPECT_LABELS:
            raise ValueError(f"suspect_labels must be one of {SUSPECT_LABELS}, not {self.suspect_labels!r}")

    def decide(self, body: bytes | Body, content_type: str | bytes | None = None, url: str | None = None,
               override: str | Encoding | None = None, likely: Likely | None = None) -> Outcome:
        """Decide *body*'s encoding (bytes, decompressed, or their :class:`~.body.Body`):
        :func:`~.sniff.sniff` with these options, *content_type* (a ``Content-Type`` value),
        *url*, *override* (step 2) and *likely* (a :data:`~.sniff.Likely`: step 7), then the
        suspect-label check; with ``suspect_labels="content"`` a suspect label is overruled
        (:func:`~.mislabel.content_decision`). Never raises for bytes input.

        >>> outcome = Options().decide("café".encode(), "text/html; charset=utf-8")
        >>> outcome.decision.source, outcome.suspect, outcome.body.decoded(outcome.decision.encoding)
        ('transport', None, 'café')
        """
        facts = body if isinstance(body, Body) else Body(body)
        # HTML §13.2.3.2 steps 1-9 in order, then the parser step: a certain step (BOM, override,
        # transport layer) ends the run.
        decision = decide_encoding(facts, content_type, url, self, override, None, likely)
        # Then the label against the content: for valid UTF-8 under a UTF-8 label, one strict
        # decode, whose text is the response's.
        suspect = suspect_label(facts, decision, url=url)
        if suspect is not None and self.suspect_labels == "content":
            decision = content_decision(facts, decision, suspect, url=url)
        return Outcome(decision, suspect, facts)


def decide(body: bytes | Body, *, content_type: str | bytes | None = None, url: str | None = None,
           override: str | Encoding | None = None, likely: Likely | None = None, **options) -> Outcome:
    """``Options(**options).decide(body, content_type, url, override, likely)`` (see
    :class:`Options`); raises ``ValueError`` for bad options.

    >>> from scrapy_whatwg_encoding.sniffing.decide import decide
    >>> outcome = decide("<p>café</p>".encode(), content_type="text/html; charset=iso-8859-1")
    >>> outcome.decision.encoding.name, outcome.suspect
    ('windows-1252', 'utf-8')
    """
    return Options(**options).decide(body, content_type, url, override, likely)
