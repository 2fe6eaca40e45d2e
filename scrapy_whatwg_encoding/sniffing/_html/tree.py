"""A DOM-less HTML tree builder (HTML §13.2.6), non-fragment case, scripting flag enabled unless
asked (the browser models in ..browsers run it disabled).

It keeps exactly the state that decides whether a later ``meta`` start tag reaches the "in head"
rules and which tokenizer state each start tag switches to: the stack of open elements (name,
namespace, integration point), the list of active formatting elements (with the adoption agency
algorithm and reconstruction, which reshape the stack), the insertion mode and the stack of
template insertion modes, the head and form element pointers, the frameset-ok flag and quirks
mode. Nodes are never built; where the standard inserts a node at a foster-parented or otherwise
adjusted location, only its place on the stack matters here.

``select`` follows the current standard, which has no "in select" insertion modes any more (the
customizable ``select`` change, whatwg/html commit 172cccf, July 2025): its content goes through
"in body", so a ``meta`` inside it is processed by the "in head" rules.

``start_tag`` returns None, or one of the action codes of elements.py for the scanner. This module
holds the state, the stack of open elements with its scopes (§13.2.4.2), "reset the insertion
mode appropriately" (§13.2.4.1), the token dispatcher (§13.2.6) and character tokens in every
insertion mode; the rules for tags are mixins: modes_head.py, modes_body.py, modes_table.py,
modes_other.py, foreign.py, formatting.py.
"""
from __future__ import annotations

from collections.abc import Callable, Collection
from typing import get_args

from .doctype import doctype_is_quirky
from .elements import HTML, HTML_IP, IMPLIED, MATHML, MATHML_TEXT_IP, TABLE_SECTIONS, El, InsertionMode
from .foreign import ForeignContent
from .formatting import FormattingElements
from .modes_body import BodyMode
from .modes_head import HeadModes
from .modes_other import OtherModes
from .modes_table import TableModes

_TABLE_TEXT = frozenset(("table", "tbody", "template", "tfoot", "thead", "tr"))


class TreeBuilder(HeadModes, BodyMode, TableModes, OtherModes, ForeignContent, FormattingElements):
    """Tree construction state; feed it tokens in document order."""

    def __init__(self, scripting: bool = True) -> None:
        self.scripting = scripting  # the scripting flag (§13.2.3.5)
        self.stack: list[El] = []
        self.afe: list[El | None] = []  # None is a marker
        self.mode: InsertionMode = "initial"
        self.template_modes: list[InsertionMode] = []
        self.head: El | None = None
        self.form: El | None = None
        self.frameset_ok = True
        self.quirks = False
        self._foreign_seen: tuple[int, El] | None = None

    # -- queries ------------------------------------------------------------------------------
    def in_foreign(self) -> bool:
        """The adjusted current node is not in the HTML namespace (CDATA sections allowed)."""
        return bool(self.stack) and self.stack[-1].ns != HTML

    def _in_scope(self, name: str, extra: Collection[str] = ()) -> bool:
        for el in reversed(self.stack):
            if el.ns == HTML:
                if el.name == name:
                    return True
                if el.scope or el.name in extra:
                    return False
            elif el.scope:
                return False
        return False

    def _in_table_scope(self, names: Collection[str]) -> bool:
        for el in reversed(self.stack):
            if el.ns == HTML:
                if el.name in names:
                    return True
                if el.name in ("html", "table", "template"):
                    return False
        return False

    def _current_is(self, name: str) -> bool:
        el = self.stack[-1]
        return el.ns == HTML and el.name == name

    # -- stack operations ----------------------------------------------------------------------
    def _insert(self, name: str, key: str | None = None) -> El:
        el = El(name, HTML, key)
        self.stack.append(el)
        return el

    def _pop_until(self, names: Collection[str]) -> None:
        stack = self.stack
        while len(stack) > 1:
            el = stack.pop()
            if el.ns == HTML and el.name in names:
                return

    def _implied(self, exclude: str | None = None, names: Collection[str] = IMPLIED) -> None:
        stack = self.stack
        while stack:
            el = stack[-1]
            if el.ns != HTML or el.name not in names or el.name == exclude:
                return
            stack.pop()

    def _close_p(self) -> None:
        if self._in_scope("p", ("button",)):
            self._implied("p")
            self._pop_until(("p",))

    def _clear_to(self, names: Collection[str]) -> None:
        stack = self.stack
        while len(stack) > 1 and not (stack[-1].ns == HTML and stack[-1].name in names):
            stack.pop()

    # -- reset the insertion mode appropriately (§13.2.4.1) ---------------------------------------
    def _reset_mode(self) -> None:
        stack = self.stack
        for k in range(len(stack) - 1, -1, -1):
            node = stack[k]
            last = k == 0
            name = node.name if node.ns == HTML else ""
            if name in ("td", "th") and not last:
                self.mode = "in cell"
            elif name == "tr":
                self.mode = "in row"
            elif name in TABLE_SECTIONS:
                self.mode = "in table body"
            elif name == "caption":
                self.mode = "in caption"
            elif name == "colgroup":
                self.mode = "in column group"
            elif name == "table":
                self.mode = "in table"
            elif name == "template":
                self.mode = self.template_modes[-1]
            elif name == "head" and not last:
                self.mode = "in head"
            elif name == "body":
                self.mode = "in body"
            # (the "frameset" step never applies: no frameset element is inserted, the scanner stops)
            elif name == "html":
                self.mode = "before head" if self.head is None else "after head"
            elif last:
                self.mode = "in body"
            else:
                continue
            return

    # -- dispatcher (§13.2.6) ---------------------------------------------------------------------
    def start_tag(self, name: str, span: str, self_closing: bool) -> int | None:
        stack = self.stack
        if stack:
            node = stack[-1]
            if node.ns != HTML and not (
                node.ip == HTML_IP
                or (node.ip == MATHML_TEXT_IP and name not in ("mglyph", "malignmark"))
                or (node.ns == MATHML and node.name == "annotation-xml" and name == "svg")
            ):
                return self._foreign_start(name, span, self_closing)
        if self.mode == "in body":
            return self._body_start(name, span, self_closing)
        return _START_RULES[self.mode](self, name, span, self_closing)

    def end_tag(self, name: str) -> None:
        if self.stack and self.stack[-1].ns != HTML:
            return self._foreign_end(name)
        if self.mode == "in body":
            return self._body_end(name)
        return _END_RULES[self.mode](self, name)

    def tokenizer_only(self) -> bool:
        """No template and no foreign element is open (with no such start tag ahead, the tree
        builder can then no longer change which start tags are metas)."""
        if self.template_modes:
            return False
        stack = self.stack
        known = self._foreign_seen  # the lowest foreign element found last time, if still open
        if known is not None and known[0] < len(stack) and stack[known[0]] is known[1]:
            return False
        for i, el in enumerate(stack):
            if el.ns != HTML:
                self._foreign_seen = (i, el)
                return False
        self._foreign_seen = None
        return True

    def outline(self) -> tuple:
        """A cheap summary of the state (:meth:`shape` tells states apart; where outlines differ
        the shapes do)."""
        return (self.mode, len(self.stack), len(self.afe), len(self.template_modes), self.frameset_ok, self.quirks,
                self.head is None, self.form is None)

    def shape(self) -> tuple:
        """All the state, up to which element objects it holds: equal shapes mean equal states but
        for new objects in the same places, so the same later tokens have the same effects. Each
        element is its name, namespace, attributes and integration point, and a number (its first
        place on the stack, the list of active formatting elements, the head and form pointers)."""
        numbers: dict[int, int] = {}

        def number(el: El | None) -> int:
            if el is None:
                return -1
            return numbers.setdefault(id(el), len(numbers))

        stack = tuple((number(el), el.name, el.ns, el.key, el.ip) for el in self.stack)
        afe = tuple(None if el is None else (number(el), el.name, el.ns, el.key, el.ip) for el in self.afe)
        return (self.mode, stack, afe, tuple(self.template_modes), number(self.head), number(self.form),
                self.frameset_ok, self.quirks)

    def text_matters(self) -> bool:
        """Whether character tokens could change any state (else the scanner skips them): not in
        "in body" (or foreign content) with frameset-ok already "not ok" and nothing for
        "reconstruct the active formatting elements" to do."""
        if self.frameset_ok or self.mode != "in body":
            return True
        afe = self.afe
        return bool(afe) and afe[-1] is not None and afe[-1] not in self.stack

    def characters(self, ws: bool, nul: bool, other: bool) -> None:
        stack = self.stack
        if stack:
            node = stack[-1]
            if node.ns != HTML and not node.ip:
                if other:  # "any other character token" in foreign content
                    self.frameset_ok = False
                return
        self._chars(ws, nul, other)

    def doctype(self, inner: str | None) -> None:
        if self.mode == "initial":
            self.quirks = doctype_is_quirky(inner)
            self.mode = "before html"

    # -- reprocess a token in the current insertion mode (the rules are in the mixins) ---------------
    def _start(self, name: str, span: str, sc: bool) -> int | None:
        mode = self.mode
        if mode == "in body":
            return self._body_start(name, span, sc)
        return _START_RULES[mode](self, name, span, sc)

    def _end(self, name: str) -> None:
        mode = self.mode
        if mode == "in body":
            return self._body_end(name)
        return _END_RULES[mode](self, name)

    # -- insertion modes: character tokens ----------------------------------------------------------
    def _chars(self, ws: bool, nul: bool, other: bool) -> None:
        mode = self.mode
        if mode in ("in body", "in caption", "in cell", "in template"):
            if ws or other:
                self._reconstruct()
                if other:
                    self.frameset_ok = False
            return
        if mode in ("in table", "in table body", "in row"):
            node = self.stack[-1]
            if node.ns == HTML and node.name in _TABLE_TEXT:
                if other:  # "in table text" with non-whitespace: foster-parented "in body" rules
                    self._reconstruct()
                    self.frameset_ok = False
                return
            self.mode, saved = "in body", mode
            self._chars(ws, nul, other)
            self.mode = saved
            return
        if mode in ("after body", "after after body"):
            if nul or other:
                self.mode = "in body"
            if ws or other:
                self._reconstruct()
                if other:
                    self.frameset_ok = False
            return
        if not (nul or other):
            return  # whitespace: ignored or inserted, no state change
        if mode == "initial":
            self.quirks = True
            self.mode = "before html"
            mode = "before html"
        if mode == "before html":
            self._insert("html")
            self.mode = mode = "before head"
        if mode == "before head":
            self.head = self._insert("head")
            self.mode = mode = "in head"
        if mode == "in head noscript":  # "anything else": pop the noscript, reprocess "in head"
            self._leave_noscript()
            mode = "in head"
        if mode == "in head":
            self.stack.pop()
            self.mode = mode = "after head"
        if mode == "after head":
            self._insert("body")
            self.mode = "in body"
            return self._chars(ws, nul, other)
        if mode == "in column group" and self._current_is("colgroup"):
            self.stack.pop()
            self.mode = "in table"
            return self._chars(ws, nul, other)
        return None


_MODES: tuple[InsertionMode, ...] = get_args(InsertionMode)
_START_RULES: dict[InsertionMode, Callable[[TreeBuilder, str, str, bool], int | None]] = {
    m: getattr(TreeBuilder, "_start_" + m.replace(" ", "_"), TreeBuilder._body_start) for m in _MODES
}
_END_RULES: dict[InsertionMode, Callable[[TreeBuilder, str], None]] = {
    m: getattr(TreeBuilder, "_end_" + m.replace(" ", "_"), TreeBuilder._body_end) for m in _MODES
}
