"""The decision for one fetched response, in one place: the encoding sniffing algorithm
(:func:`.sniff.sniff`, HTML §13.2.3.2 and the parser step) with a site's memory as the likely
encoding of step 7, then the suspect-label check (:mod:`.mislabel`) as a named step after it. Every
step reads the same :class:`~.body.Body`, so the first non-ASCII byte, UTF-8 validity and each
decoded text are found once per response."""
from __future__ import annotations

from dataclasses import dataclass

from .body import Body
from .decision import Decision
from .mislabel import content_decision, suspect_label
from .sniff import Likely, sniff


@dataclass(frozen=True, slots=True)
class Outcome:
    """``decision``: the :class:`Decision` to decode with; ``suspect``: the kind of suspect label
    (:data:`.mislabel.KINDS`) or ``None``; ``body``: the :class:`~.body.Body` with the facts and
    texts found on the way (``body.decoded(decision.encoding)`` is the text, if it was decoded)."""

    decision: Decision
    suspect: str | None
    body: Body


def decide(body: bytes | Body, *, likely: Likely | None = None, suspect_labels: str = "label",
           url: str | None = None, **options) -> Outcome:
    """Decide *body*'s encoding (bytes, decompressed): :func:`~.sniff.sniff` with *url* and
    *options* (its keyword arguments), *likely* (a :data:`~.sniff.Likely`) as its step 7, then the suspect-label check.

    *suspect_labels*: ``"label"`` keeps a label the content contradicts (the standard's answer),
    ``"content"`` overrules it with the content's encoding (:func:`~.mislabel.content_decision`). Raises what :func:`~.sniff.sniff` raises.

    >>> outcome = decide("<p>café</p>".encode(), content_type="text/html; charset=iso-8859-1")
    >>> outcome.decision.encoding.name, outcome.suspect
    ('windows-1252', 'utf-8')
    """
    facts = body if isinstance(body, Body) else Body(body)
    decision = sniff(facts, url=url, likely=likely, **options)
    suspect = suspect_label(facts, decision, url=url)
    if suspect is not None and suspect_labels == "content":
        decision = content_decision(facts, decision, suspect, url=url)
    return Outcome(decision, suspect, facts)
