"""Elements on the stack of open elements and the element categories the tree builder shares
(HTML §13.2.4.2 stack of open elements and its "special" category and scopes, §13.2.6.3 implied
end tags), plus the action codes ``TreeBuilder.start_tag`` returns to the scanner."""
from __future__ import annotations

from typing import Literal

RCDATA, RAWTEXT, SCRIPT, PLAINTEXT, META, STOP = 1, 2, 3, 4, 5, 6
HTML, SVG, MATHML = 0, 1, 2
HTML_IP, MATHML_TEXT_IP = 1, 2

# §13.2.4.2 "special" category, HTML namespace part.
SPECIAL = frozenset(
    "address applet area article aside base basefont bgsound blockquote body br button caption "
    "center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form "
    "frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link "
    "listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre "
    "script search section select source style summary table tbody td template textarea tfoot th "
    "thead title tr track ul wbr xmp".split()
)
# "has an element in scope": the HTML boundary elements (foreign ones are flagged per element).
SCOPE = frozenset("applet caption html table td th marquee object template".split())
# The elements that "reset the insertion mode appropriately" (§13.2.4.1) stops at.
MODE_ELEMENTS = frozenset("td th tr tbody tfoot thead caption colgroup table template head body html".split())
# Integration points (§13.2.6): SVG HTML ones, MathML text ones (annotation-xml depends on "encoding").
SVG_IP_NAMES = frozenset(("foreignobject", "desc", "title"))
MATHML_TEXT_IP_NAMES = frozenset(("mi", "mo", "mn", "ms", "mtext"))
# "generate implied end tags" and "... thoroughly" (§13.2.6.3).
IMPLIED = frozenset("dd dt li optgroup option p rb rp rt rtc".split())
THOROUGH = IMPLIED | frozenset("caption colgroup tbody td tfoot th thead tr".split())
# Start tags that "in body", "after head" and "in template" process using the "in head" rules.
HEAD_RULES = frozenset("base basefont bgsound link meta noframes script style template title".split())
TABLE_SECTIONS = frozenset(("tbody", "tfoot", "thead"))
# The insertion modes the tree builder enters (§13.2.4.1): not "text" (the scanner skips raw text),
# "in table text" (the table modes' character rules), "in select" (gone from the standard) and the
# frameset modes (the scanner stops).
InsertionMode = Literal[
    "initial", "before html", "before head", "in head", "in head noscript", "after head", "in body", "in table",
    "in caption", "in column group", "in table body", "in row", "in cell", "in template",
    "after body", "after after body",
]


class El:
    """An element on the stack of open elements (or in the list of active formatting elements).

    The tree builder keeps, besides what the standard says: ``order``, increasing from the bottom
    of the stack to the top (compared, never counted: a number between two neighbours for an
    element inserted between them); ``open``, whether it is on the stack; ``fmt``, the entries of
    the list of active formatting elements alike for the Noah's Ark clause that it is one of
    (None: not in the list); ``count``, how many elements it stands for on the stack: 1 but for a
    run of copies pushed at once (none of them in the list nor a pointer's), of one element (its
    name and the rest are theirs) or, ``unit``, of several (elements off the stack, bottom to top;
    its name and the rest are the top one's)."""

    __slots__ = ("count", "fmt", "ip", "key", "name", "ns", "open", "order", "scope", "special", "unit")

    def __init__(self, name: str, ns: int = HTML, key: str | None = None, ip: int = 0, order: float = 0.0,
                 opened: bool = False) -> None:
        self.name = name
        self.ns = ns
        self.ip = ip
        self.key = key  # attribute span, for the Noah's Ark clause and reconstruction
        self.order = order
        self.open = opened
        self.fmt: list[El] | None = None
        self.count = 1
        self.unit: tuple[El, ...] | None = None
        if ns == HTML:
            self.special = name in SPECIAL
            self.scope = name in SCOPE
        elif ns == SVG:
            self.special = self.scope = name in SVG_IP_NAMES
        else:
            self.special = self.scope = name in MATHML_TEXT_IP_NAMES or name == "annotation-xml"
