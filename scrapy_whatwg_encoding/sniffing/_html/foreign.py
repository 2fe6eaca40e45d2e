"""Rules for parsing tokens in foreign content (HTML §13.2.6.5): breaking out on HTML start tags
and ``</br>``/``</p>``, SVG/MathML elements and their integration points (§13.2.6)."""
from __future__ import annotations

from .elements import HTML, HTML_IP, MATHML, MATHML_TEXT_IP, MATHML_TEXT_IP_NAMES, SVG, SVG_IP_NAMES, El
from .state import TreeState
from .tokenizer import first_attribute, first_attributes

#: Start tags that break out of foreign content whatever their attributes (§13.2.6.5).
BREAKOUT_NAMES = frozenset(
    "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img "
    "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul "
    "var".split()
)
_FONT_BREAKOUT = ("color", "face", "size")


def foreign_ip(name: str, ns: int) -> int:
    """The integration point (0: none) that a foreign element *name* of namespace *ns* is by its
    name (§13.2.6): all but MathML ``annotation-xml``, whose attributes tell (see ``_foreign``)."""
    if ns == SVG:
        return HTML_IP if name in SVG_IP_NAMES else 0
    return MATHML_TEXT_IP if name in MATHML_TEXT_IP_NAMES else 0


def _foreign(name: str, ns: int, span: str) -> El:
    if ns == MATHML and name == "annotation-xml":
        encoding = (first_attribute(span, "encoding") or "").lower()
        if encoding in ("text/html", "application/xhtml+xml") and encoding.isascii():
            return El(name, MATHML, ip=HTML_IP)
    return El(name, ns, ip=foreign_ip(name, ns))


def breaks_out(name: str, span: str) -> bool:
    """A start tag *name* (attributes *span*) that breaks out of foreign content (§13.2.6.5)."""
    return name in BREAKOUT_NAMES or (name == "font" and bool(span)
                                 and next(first_attributes(span, _FONT_BREAKOUT), None) is not None)


class ForeignContent(TreeState):
    """TreeBuilder mixin: start and end tags when the adjusted current node is foreign."""

    def _foreign_start(self, name: str, span: str, self_closing: bool) -> int | None:
        stack = self.stack
        if breaks_out(name, span):
            while len(stack) > 1 and stack[-1].ns != HTML and not stack[-1].ip:
                self._drop_top()  # (a run of copies: whole)
            return self._start(name, span, self_closing)
        el = _foreign(name, stack[-1].ns, span)
        if not self_closing:
            self._push(el)
        return None

    def _foreign_end(self, name: str) -> None:
        stack = self.stack
        if name in ("br", "p"):
            while len(stack) > 1 and stack[-1].ns != HTML and not stack[-1].ip:
                self._drop_top()  # (a run of copies: whole)
            return self._end(name)
        # The loop from the current node down: a foreign element named *name* before any HTML
        # element is popped with those above it; else the HTML element's insertion mode acts.
        node = self._foreign_end_target(name)
        if node is None:
            return self._end(name)
        self._truncate_through(node)
        return None
