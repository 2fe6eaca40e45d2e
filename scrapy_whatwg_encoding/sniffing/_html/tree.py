"""A DOM-less HTML tree builder (HTML §13.2.6), non-fragment case, scripting flag enabled unless
asked (the browser models in ..browsers run it disabled).

It keeps exactly the state that decides whether a later ``meta`` start tag reaches the "in head"
rules and which tokenizer state each start tag switches to: the stack of open elements (name,
namespace, integration point), the list of active formatting elements (with the adoption agency
algorithm and reconstruction, which reshape the stack), the insertion mode and the stack of
template insertion modes, the head and form element pointers, the frameset-ok flag and quirks
mode. Nodes are never built; where the standard inserts a node at a foster-parented or otherwise
adjusted location, only its place on the stack matters here.

Copies of a unit of start tags that each only push elements, pushed at once (``push_copies``),
are one entry of the stack, a run (``El.count`` elements; ``El.unit``, a copy's elements where
there are several): a pop takes its top element (or splits its top copy off), a lookup that
finds it splits its top copy off (the adoption agency's furthest block, its lowest), and the
depth (``outline``), ``shape`` and the walking twin count its elements one by one.

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

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection
from functools import lru_cache
from itertools import chain, cycle, islice, repeat
from itertools import count as numbers
from operator import attrgetter
from typing import get_args

from .doctype import doctype_is_quirky
from .elements import (
    HTML,
    HTML_IP,
    IMPLIED,
    MATHML,
    MATHML_TEXT_IP,
    MODE_ELEMENTS,
    SVG,
    TABLE_SECTIONS,
    El,
    InsertionMode,
)
from .foreign import ForeignContent, breaks_out, foreign_ip
from .formatting import FormattingElements
from .modes_body import END_TAG_RULES, BodyMode, body_copies
from .modes_head import HeadModes
from .modes_other import OtherModes
from .modes_table import TableModes
from .tokenizer import MARKUP_START, TAG, attributes, copies_end, tag_name

_TABLE_TEXT = frozenset(("table", "tbody", "template", "tfoot", "thead", "tr"))
# End tags that may change state (TreeBuilder.end_tags_ignored): "in template", template; "in
# body" at an integration point, those with in-body rules that insert an element (p, br), clear the
# form element pointer (form), run the adoption agency (its names, §13.2.6.4.7) or the "in head"
# rules (template), and the foreign elements' names an integration point is found under.
_KEPT_IN_TEMPLATE = frozenset(("template",))
_KEPT_AT_INTEGRATION_POINTS = frozenset((
    "p", "br", "form", "template", "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong",
    "tt", "u", "svg", "math", "g", "foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext", "annotation-xml"))
# Insertion modes whose character rules insert them (the table modes as "in table text" does or
# as "in body", foster-parented): reconstruct the active formatting elements, frameset-ok "not ok".
_INSERTING_MODES = frozenset(("in body", "in caption", "in cell", "in template", "in table", "in table body", "in row"))
_FRAMESET_MODES = frozenset(("in frameset", "after frameset", "after after frameset"))
_WHITESPACE = "\t\n\x0c\r "
_LI_THROUGH = frozenset(("address", "div", "p"))  # special, yet the "li" start tag's loop goes past them
_ORDER = attrgetter("order")


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
        # The index of the stack of open elements (_push): bottom to top, each list.
        self._by: dict[str, list[El]] = {}  # by name: HTML elements, foreign ones under "!" + name
        self._foreign: list[El] = []  # the foreign elements
        self._special: list[El] = []  # the special elements (§13.2.4.2)
        self._scoped: list[El] = []  # the elements "has an element in scope" stops at
        self._li_stops: list[El] = []  # the special elements but address, div and p
        # The list of active formatting elements' entries alike (Noah's Ark clause), by name and
        # attributes, after each marker: one dict before the first marker, one after each.
        self._ark: list[dict[tuple, list[El]]] = [{}]
        self._ark_names: list[dict[str, int]] = [{}]  # the entries by name after each marker, counted
        # A run of copies pushed at once is one entry of the stack (El.count elements alike): the
        # elements the runs stand for beyond their one entry each, so that the depth is len + this.
        self._extra = 0
        # shape()'s entries of the stack last time, per entry of it (a run's: one per element), the
        # place of each entry's first element (and one more: the depth), and the lowest entry
        # changed since (pushes aside).
        self._shape_stack: list[tuple] = []
        self._shape_at: list[int] = [0]
        self._low = 0

    # -- queries ------------------------------------------------------------------------------
    def in_foreign(self) -> bool:
        """The adjusted current node is not in the HTML namespace (CDATA sections allowed)."""
        return bool(self.stack) and self.stack[-1].ns != HTML

    def pushes_foreign(self) -> bool:
        """Whether a start tag that neither breaks out of foreign content nor names an integration
        point or ``annotation-xml`` would now only push a foreign element that leaves this so
        (§13.2.6, §13.2.6.5 "any other start tag"): the current node is foreign, no integration
        point and no ``annotation-xml`` (where a ``svg`` start tag takes the HTML rules)."""
        if not self.stack:
            return False
        node = self.stack[-1]
        return node.ns != HTML and not node.ip and node.name != "annotation-xml"

    # The stack of open elements is indexed (see _push): each element of a kind that the scope
    # checks look for or stop at is in a list of its kind, bottom to top, so "the topmost X" is
    # a list's last entry and "X is above Y" compares orders: every check below costs O(1) (or
    # O(log n)) however deep the stack, where walking it (PlainTreeBuilder, the tests' twin)
    # costs its depth per token.
    def _last(self, key: str) -> El | None:
        """The topmost element of the index's list *key* (a name): where that is a run of copies
        of several elements, its top copy split off first (a run of one element: its top one)."""
        found = self._by.get(key)
        if not found:
            return None
        el = found[-1]
        if el.unit is not None:
            self._split(el, True)
            el = found[-1]
        return el

    def _in_scope(self, name: str, extra: Collection[str] = ()) -> bool:
        """"Has an element in scope" (§13.2.4.2): the topmost HTML *name* is above every
        boundary (scope elements, HTML *extra*: button, list item scopes). (A boundary's list
        ending with a run that holds one: that one is above *name* if the run is.)"""
        node = self._last(name)
        if node is None:
            return False
        order = node.order
        scoped = self._scoped
        if scoped and scoped[-1].order > order:
            return False
        for other in extra:
            found = self._by.get(other)
            if found and found[-1].order > order:
                return False
        return True

    def _in_table_scope(self, names: Collection[str]) -> bool:
        by = self._by
        order = -1.0  # orders are >= 0
        for name in names:
            found = by.get(name)
            if found and found[-1].order > order:
                order = found[-1].order
        if order < 0:
            return False
        for name in ("html", "table", "template"):
            found = by.get(name)
            if found and found[-1].order > order:
                return False
        return True

    def _el_in_scope(self, el: El) -> bool:
        """*el* (on the stack) has no scope element above it."""
        scoped = self._scoped
        return not scoped or scoped[-1].order <= el.order

    def _li_target(self, targets: Collection[str]) -> El | None:
        """The "li"/"dd"/"dt" start tag's loop: the topmost HTML element named in *targets*
        unless a special element other than address, div and p is above it."""
        node = None
        for name in targets:
            found = self._by.get(name)
            if found and (node is None or found[-1].order > node.order):
                node = found[-1]
        stops = self._li_stops
        return None if node is None or (stops and stops[-1].order > node.order) else node

    def _other_end_target(self, name: str) -> El | None:
        """"Any other end tag" in body: the topmost HTML *name*, unless a special element is above."""
        node = self._last(name)
        if node is None:
            return None
        special = self._special
        return None if special and special[-1].order > node.order else node

    def _foreign_end_target(self, name: str) -> El | None:
        """The foreign content end tag loop: the topmost foreign element named *name* (lowercased)
        if only foreign elements are above it (else the loop reaches an HTML element first)."""
        node = self._last("!" + name)
        if node is None:
            return None
        above = len(self.stack) - 1 - self._position(node)
        foreign = self._foreign
        return node if len(foreign) - 1 - bisect_left(foreign, node.order, key=_ORDER) == above else None

    def _furthest_block(self, fe: El) -> El | None:
        """The adoption agency's furthest block: the lowest special element above *fe*."""
        special = self._special
        k = bisect_right(special, fe.order, key=_ORDER)
        if k == len(special):
            return None
        if special[k].count > 1:  # a run: its lowest copy split off (the lowest special one in it)
            self._split(special[k], False)
        return special[k]

    def _mode_node(self) -> El | None:
        """The topmost element "reset the insertion mode appropriately" stops at."""
        node = None
        by = self._by
        for name in MODE_ELEMENTS:
            found = by.get(name)
            if found and (node is None or found[-1].order > node.order):
                node = found[-1]
        return node

    def _current_is(self, name: str) -> bool:
        el = self.stack[-1]
        return el.ns == HTML and el.name == name

    # -- stack operations (every change goes through these, which keep the index) ------------------
    def _push(self, el: El) -> None:
        stack = self.stack
        el.order = stack[-1].order + 1.0 if stack else 0.0
        el.open = True
        stack.append(el)
        self._index(el)

    def _index(self, el: El) -> None:
        for one in el.unit or (el,):
            self._by.setdefault(one.name if one.ns == HTML else "!" + one.name, [])
        for kind in self._kinds(el):
            kind.append(el)

    def copies_push(self, tags: list[tuple[str, str, bool]]) -> list[tuple[str, int, str | None]] | None:
        """Whether copies of a unit of start tags (*tags*: name, attributes span, self-closing
        flag), coming right after the tokens just processed, would each only push one element
        per tag, with at most the Noah's Ark clause and frameset-ok's "not ok" besides: then the
        elements' (name, namespace, attributes kept) for :meth:`push_copies`; else None.

        Exact by induction on the copies: the conditions look only at what such pushes leave as
        they were: where the current node is foreign, foreign units: each tag that does not break
        out pushed in the current node's namespace (foreign content's "any other start tag"), but
        at an integration point (by its name: not ``annotation-xml``), where ``svg`` or ``math``
        takes the in-body rules and pushes a foreign element, ending on a node of the namespace
        and integration point the unit began on; in "in body" with the current node HTML and
        nothing to reconstruct (a formatting element pushed leaves the list's last entry open),
        "any other start tag", blocks but "p" with no "p" in button scope (no "p" or "button" is
        pushed; "form" too where a template is on the stack: no form element pointer is set or
        read), "pre", "listing" and the formatting elements (the Noah's Ark clause keeps the
        last three alike)."""
        stack = self.stack
        if not stack:
            return None
        top = stack[-1]
        specs: list[tuple[str, int, str | None]] = []
        if top.ns != HTML:
            ns, ip = top.ns, top.ip
            for name, span, self_closing in tags:
                if self_closing or name == "annotation-xml":
                    return None  # (its integration point is its attributes'; an svg after it takes the in-body rules)
                if ip == HTML_IP or (ip == MATHML_TEXT_IP and name not in ("mglyph", "malignmark")):
                    if name not in ("svg", "math") or self.mode != "in body":
                        return None  # (the insertion mode's rules: in body, svg and math are pushed)
                    ns, ip = SVG if name == "svg" else MATHML, 0
                elif breaks_out(name, span):
                    return None
                else:
                    ip = foreign_ip(name, ns)
                specs.append((name, ns, None))
            # (nothing to reconstruct: the first copy's svg or math did)
            return specs if (ns, ip) == (top.ns, top.ip) else None
        afe = self.afe
        if self.mode != "in body" or (afe and afe[-1] is not None and not afe[-1].open):
            return None
        blocks = False
        for name, span, _ in tags:
            kind = self._body_copies(name)
            if not kind:
                return None
            blocks = blocks or kind == 2
            specs.append((name, HTML, span if kind == 3 else None))
        return None if blocks and self._in_scope("p", ("button",)) else specs

    #: Copies of one start tag pushed at once from which on they are one entry of the stack (a run:
    #: El.count), but for the last three formatting elements (the list's); None: never.
    RUN_LEAST: int | None = 8

    def push_copies(self, specs: list[tuple[str, int, str | None]], count: int) -> None:
        """Push the elements of *count* copies of the unit for which :meth:`copies_push` gave
        *specs*, with the Noah's Ark clause and frameset-ok: what the copies' steps would do, at
        C speed but for creating the elements; copies of one tag (at least RUN_LEAST) as one entry
        of the stack, a run (:class:`El` ``count``), in O(1) but for the last three copies of a
        formatting element, which the list of active formatting elements keeps (the earlier ones
        the Noah's Ark clause drops: no entry of the list, no pointer is one of the run's)."""
        if count <= 0:
            return
        size = len(specs)
        stack = self.stack
        names, spaces, keys = zip(*specs)
        ips = tuple(0 if space == HTML else foreign_ip(name, space) for name, space in zip(names, spaces))
        least = self.RUN_LEAST
        if least is not None and count >= least and len(stack) > 1:
            kept = 3 if any(key is not None for key in keys) else 0
            run = El(names[-1], spaces[-1], keys[-1], ips[-1], stack[-1].order + 1.0, True)
            run.count = (count - kept) * size
            if size > 1:
                run.unit = tuple(map(El, names, spaces, keys, ips))
            stack.append(run)
            self._index(run)
            self._extra += run.count - 1
            if any(name in ("pre", "listing") for name in names):
                self.frameset_ok = False
            count = kept
            if not count:
                return
        total = size * count
        els = list(map(El, islice(cycle(names), total), islice(cycle(spaces), total), islice(cycle(keys), total),
                       islice(cycle(ips), total), numbers(stack[-1].order + 1.0), repeat(True, total)))
        stack.extend(els)
        # Each index list gets the copies' elements of the places in the unit that go in it.
        places: dict[int, tuple[list[El], list[int]]] = {}
        for j, el in enumerate(els[:size]):
            self._by.setdefault(el.name if el.ns == HTML else "!" + el.name, [])
            for kind in self._kinds(el):
                places.setdefault(id(kind), (kind, []))[1].append(j)
        for kind, where in places.values():
            if len(where) == size:
                kind.extend(els)
            elif len(where) == 1:
                kind.extend(els[where[0]::size])
            else:
                kind.extend(e for k, e in enumerate(els) if k % size in where)
        if specs[0][1] != HTML:
            return
        if any(name in ("pre", "listing") for name in names):
            self.frameset_ok = False
        if any(key is not None for key in keys):
            # Only the last three copies' formatting elements can stay in the list.
            self._push_formatting_copies([e for e in els[-3 * size:] if e.key is not None])

    def _kinds(self, el: El) -> list[list[El]]:
        """The index lists *el* is in (or goes in; a run of several elements: each one's, once)."""
        if el.unit is not None:
            kinds: list[list[El]] = []
            for proto in el.unit:
                kinds.extend(kind for kind in self._kinds(proto) if all(kind is not k for k in kinds))
            return kinds
        html = el.ns == HTML
        kinds = [self._by[el.name if html else "!" + el.name]]
        if not html:
            kinds.append(self._foreign)
        if el.special:
            kinds.append(self._special)
            if el.scope:
                kinds.append(self._scoped)
            if not html or el.name not in _LI_THROUGH:
                kinds.append(self._li_stops)
        return kinds

    def _pop(self) -> El:
        """Pop the current node (the topmost of a run: the run stands for one element fewer)."""
        el = self.stack[-1]
        if el.unit is not None:
            self._split(el, True)
        elif el.count > 1:
            el.count -= 1
            self._extra -= 1
            self._low = min(self._low, len(self.stack) - 1)
            return el
        return self._drop_top()

    def _drop_top(self) -> El:
        """Pop the top entry of the stack: the current node, or a run of them, whole."""
        stack = self.stack
        el = stack.pop()
        el.open = False
        self._extra -= el.count - 1
        self._low = min(self._low, len(stack))
        for kind in self._kinds(el):
            kind.pop()
        return el

    def _truncate(self, k: int) -> None:
        """Pop the elements from *k* up (many at once: each list of the index cut at C speed)."""
        stack = self.stack
        if len(stack) - k < 16:
            while len(stack) > k:
                self._drop_top()
            return
        cut = stack[k].order
        self._low = min(self._low, k)
        for el in stack[k:]:
            el.open = False
            self._extra -= el.count - 1
        del stack[k:]
        for kind in (self._foreign, self._special, self._scoped, self._li_stops, *self._by.values()):
            if kind and kind[-1].order >= cut:
                del kind[bisect_left(kind, cut, key=_ORDER):]

    def _truncate_through(self, node: El) -> None:
        """Pop elements until *node* (on the stack; the topmost of a run of one element) has been
        popped."""
        k = self._position(node)
        if node.count > 1:
            self._truncate(k + 1)
            self._pop()
        else:
            self._truncate(k)

    def _split(self, run: El, top: bool) -> None:
        """The *top* (else the lowest) copy of *run* (on the stack) as entries of their own,
        above (below) the others."""
        protos = run.unit or (run,)
        size = len(protos)
        k = self._position(run)
        at = k + 1 if top else k
        for i, proto in enumerate(protos):
            self._insert_at(at + i, El(proto.name, proto.ns, proto.key, proto.ip))
        if run.count == size:  # its last copy: gone
            self._remove_open(run)
            return
        run.count -= size
        self._extra -= size
        self._low = min(self._low, k)

    def _position(self, el: El) -> int:
        """The index of *el* (on the stack) in the stack: O(log n)."""
        return bisect_left(self.stack, el.order, key=_ORDER)

    def _remove_at(self, k: int) -> None:
        """Remove the entry at index *k* from the stack (the others keep their orders)."""
        el = self.stack.pop(k)
        el.open = False
        self._extra -= el.count - 1
        self._low = min(self._low, k)
        for kind in self._kinds(el):
            del kind[bisect_left(kind, el.order, key=_ORDER)]

    def _remove_open(self, el: El) -> None:
        self._remove_at(self._position(el))

    def _insert_at(self, k: int, el: El) -> None:
        """Insert *el* at index *k* (0 < k) of the stack, between two elements."""
        stack = self.stack
        stack.insert(k, el)
        self._low = min(self._low, k)
        low = stack[k - 1].order
        high = stack[k + 1].order if k + 1 < len(stack) else low + 2.0
        middle = (low + high) / 2
        if low < middle < high:
            el.order = middle
        else:  # no number left between them: number the elements from here up again (keeps their order)
            for j in range(k, len(stack)):
                stack[j].order = stack[j - 1].order + 1.0
        el.open = True
        self._by.setdefault(el.name if el.ns == HTML else "!" + el.name, [])
        for kind in self._kinds(el):
            kind.insert(bisect_left(kind, el.order, key=_ORDER), el)

    def _replace_at(self, k: int, new: El) -> None:
        """Put *new* (the same name and namespace) at index *k* in place of the element there."""
        stack = self.stack
        old = stack[k]
        new.order = old.order
        self._low = min(self._low, k)
        old.open, new.open = False, True
        stack[k] = new
        for kind in self._kinds(old):
            kind[bisect_left(kind, old.order, key=_ORDER)] = new

    def _insert(self, name: str, key: str | None = None) -> El:
        el = El(name, HTML, key)
        self._push(el)
        return el

    def _pop_until(self, names: Collection[str]) -> None:
        """Pop elements until an HTML element named in *names* has been popped (never the last)."""
        node = None
        for name in names:
            found = self._last(name)
            if found is not None and (node is None or found.order > node.order):
                node = found
        if node is None or node is self.stack[0]:
            self._truncate(1)
        else:
            self._truncate_through(node)

    def _implied(self, exclude: str | None = None, names: Collection[str] = IMPLIED) -> None:
        stack = self.stack
        while stack:
            el = stack[-1]
            if el.ns != HTML or el.name not in names or el.name == exclude:
                return
            self._pop()

    def _close_p(self) -> None:
        if self._in_scope("p", ("button",)):
            self._implied("p")
            self._pop_until(("p",))

    def _clear_to(self, names: Collection[str]) -> None:
        stack = self.stack
        while len(stack) > 1 and not (stack[-1].ns == HTML and stack[-1].name in names):
            self._drop_top()

    # -- reset the insertion mode appropriately (§13.2.4.1) ---------------------------------------
    def _reset_mode(self) -> None:
        # The loop's steps act only at the elements of MODE_ELEMENTS (the last node, the bottom of
        # the stack, is always the html element): it starts at the topmost of them.
        node = self._mode_node()
        if node is None:
            return
        self._set_mode(node, node is self.stack[0])

    def _set_mode(self, node: El, last: bool) -> bool:
        """The loop's step at *node* (*last*: the bottom of the stack): False, go on down."""
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
            return False
        return True

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

    def outline(self) -> tuple:
        """A cheap summary of the state (:meth:`shape` tells states apart; where outlines differ
        the shapes do)."""
        return (self.mode, len(self.stack) + self._extra, len(self.afe), len(self.template_modes), self.frameset_ok, self.quirks,
                self.head is None, self.form is None)

    def shape(self) -> tuple:
        """All the state, up to which element objects it holds: equal shapes mean equal states but
        for new objects in the same places, so the same later tokens have the same effects. Each
        element is its name, namespace, attributes and integration point, and a number (its first
        place on the stack, the list of active formatting elements, the head and form pointers)."""
        # Stack elements are numbered by their place; the entries of the stack's entries below the
        # lowest one changed since the last call (_low) are those computed then (deep stacks:
        # O(change)); a run's, one per element (at C speed).
        stack = self.stack
        kept = min(self._low, len(self._shape_stack))
        chunks = self._shape_stack[:kept]
        starts = self._shape_at[:kept + 1]
        size = starts[-1]
        for el in stack[kept:]:
            count = el.count
            if count == 1:
                chunks.append(((size, el.name, el.ns, el.key, el.ip),))
            else:
                protos = el.unit or (el,)
                chunks.append(tuple(zip(range(size, size + count), *(
                    cycle([getattr(proto, field) for proto in protos]) for field in ("name", "ns", "key", "ip")))))
            size += count
            starts.append(size)
        self._shape_stack, self._shape_at, self._low = chunks, starts, len(stack)
        others: dict[int, int] = {}

        def number(el: El | None) -> int:
            if el is None:
                return -1
            if el.open:  # (never one of a run)
                return starts[self._position(el)]
            return others.setdefault(id(el), size + len(others))

        afe = tuple(None if el is None else (number(el), el.name, el.ns, el.key, el.ip) for el in self.afe)
        return (self.mode, tuple(chain.from_iterable(chunks)), afe, tuple(self.template_modes), number(self.head), number(self.form),
                self.frameset_ok, self.quirks)

    def text_matters(self) -> bool:
        """Whether character tokens could change any state (else the scanner skips them): not in
        "in body" (or foreign content) with frameset-ok already "not ok" and nothing for
        "reconstruct the active formatting elements" to do."""
        if self.frameset_ok or self.mode != "in body":
            return True
        afe = self.afe
        return bool(afe) and afe[-1] is not None and not afe[-1].open

    def characters_inert(self) -> bool:
        """Whether character tokens, whatever they are, would change no state now (their rules in
        the insertion mode, §13.2.6.4, or in foreign content, §13.2.6.5): frameset-ok already "not
        ok" and nothing to reconstruct where they are inserted; ignored in the frameset modes and
        in a template's "in column group"."""
        stack = self.stack
        if stack and stack[-1].ns != HTML and not stack[-1].ip:
            return not self.frameset_ok
        mode = self.mode
        if mode in _INSERTING_MODES:
            afe = self.afe
            return not self.frameset_ok and not (afe and afe[-1] is not None and not afe[-1].open)
        return mode in _FRAMESET_MODES or (mode == "in column group" and not self._current_is("colgroup"))

    def end_tags_ignored(self) -> frozenset[str] | None:
        """The names of the end tags that may change state now, every other end tag changing
        none (None: any may). "In template", ``template`` (its rules for end tags, §13.2.6.4.23;
        the current node is then a template, never foreign: a start tag in it switches to another
        mode). "In body" where the current node is an HTML element, :meth:`_kept_in_body`; where
        it is an HTML or MathML text integration point, :data:`_KEPT_AT_INTEGRATION_POINTS`, where
        the foreign elements down to the first HTML one are named among them (at most eight):
        foreign content's "any other end tag" (§13.2.6.5) pops to one so named, else takes the
        in-body rules, where the integration point bounds every scope and, being special, ends
        "any other end tag"."""
        mode = self.mode
        if mode == "in template":
            return _KEPT_IN_TEMPLATE
        stack = self.stack
        if mode != "in body" or not stack:
            return None
        if stack[-1].ns == HTML:  # (the in-body rules) "any other end tag" stops at the topmost special element
            return self._kept_in_body()
        if not stack[-1].ip:
            return None
        for el in islice(reversed(stack), 8):
            if el.ns == HTML:
                return _KEPT_AT_INTEGRATION_POINTS
            if any(one.name.lower() not in _KEPT_AT_INTEGRATION_POINTS for one in el.unit or (el,)):  # (a run's too)
                return None
        return None

    def _kept_in_body(self) -> frozenset[str] | None:
        """:meth:`end_tags_ignored` "in body" where the current node is an HTML element: the end
        tags with rules of their own (:data:`.modes_body.END_TAG_RULES`), where those name every
        element from the current node down to the topmost special element ("any other end tag"
        pops only those: its loop ignores the token at a special element, §13.2.6.4.7); else
        None (also where they are more than eight entries, or a run of copies: one set, one
        pattern cached, whatever the names)."""
        top = self._special[-1] if self._special else None
        for el in islice(reversed(self.stack), 8):
            if el.count != 1 or el.name not in END_TAG_RULES:
                return None
            if el is top:
                return END_TAG_RULES
        return None

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
            self._pop()
            self.mode = mode = "after head"
        if mode == "after head":
            self._insert("body")
            self.mode = "in body"
            return self._chars(ws, nul, other)
        if mode == "in column group" and self._current_is("colgroup"):
            self._pop()
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


@lru_cache(maxsize=64)
def _unit_tags(unit: str) -> tuple[tuple[tuple[str, str, bool], ...], bool] | None:
    """The start tags (name, attributes span, self-closing flag) that *unit* consists of, with
    text between them (True if any of it is not whitespace; a "<" that starts no markup is a
    character), if each tag could only push an element in some context (in "in body": not one
    with a rule of its own but the blocks and formatting elements; in foreign content: not a
    breakout); else None."""
    tags = []
    text = False
    at = 0
    while at < len(unit):
        markup = MARKUP_START.search(unit, at)
        if markup is None:
            return None  # (a unit ends with a tag)
        lt = markup.start()
        text = text or bool(unit[at:lt].strip(_WHITESPACE))
        match = TAG.match(unit, lt)
        if match is None or match.group(1):
            return None
        tags.append((tag_name(match.group(2)), match.group(3), match.group("tail").endswith("/")))
        at = match.end()
    html = all(body_copies(name) for name, _, _ in tags)
    if not html and not all(not sc and not breaks_out(name, span) for name, span, sc in tags):
        return None
    return tuple(tags), text


def push_unit_copies(tree: TreeBuilder, text: str, pos: int, starts: tuple[int, ...], bound: int) -> int:
    """After a start tag that ends at *pos* in *text*: if the text of the last one to four turns
    of a scan (from one of *starts*, where they began; the first: this tag's "<") is a unit of
    start tags, with text between them (character tokens that change nothing: frameset-ok is
    already "not ok", nothing to reconstruct), coming again right after it, whose copies would
    each only push elements (:meth:`TreeBuilder.copies_push`), push those of all its copies
    ending by *bound* at once (``copies_end``: O(log n) comparisons) and return the offset after
    them; else *pos*. Where a unit's copies end there, the units from the same *starts* are tried
    again from their end, twice at most (``<b>`` after ``<b>``, then whitespace and ``<b><b>`` repeated: each
    copy a turn of the scan otherwise, its first ``<b>`` always taken as a copy of the one before)."""
    for _ in range(3):
        end = _push_unit_copies(tree, text, pos, starts, bound)
        if end == pos:
            break
        pos = end
    return pos


def _push_unit_copies(tree: TreeBuilder, text: str, pos: int, starts: tuple[int, ...], bound: int) -> int:
    following = text[pos:pos + 1]
    for start in starts:
        if not -1 < start < pos or text[start] != following:
            continue
        unit = text[start:pos]
        if not text.startswith(unit, pos):
            continue
        found = _unit_tags(unit)
        # (text that is not whitespace only sets frameset-ok to "not ok": the first copy did)
        specs = None if found is None or (found[1] and tree.frameset_ok) else tree.copies_push(list(found[0]))
        if specs is not None:
            end = copies_end(text, pos, unit, bound)
            tree.push_copies(specs, (end - pos) // len(unit))
            return end
    return pos


class PlainTreeBuilder(TreeBuilder):
    """The tree builder with the standard's scope checks walking the stack of open elements and
    the list of active formatting elements, as written (O(depth) per token): the twin that the
    tests hold :class:`TreeBuilder`'s indexed checks against. Not for use on untrusted input."""

    RUN_LEAST = None  # (its walks read the stack element by element: no runs)

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

    def _el_in_scope(self, el: El) -> bool:
        for node in reversed(self.stack):
            if node is el:
                return True
            if node.scope:
                return False
        return False

    def _li_target(self, targets: Collection[str]) -> El | None:
        for node in reversed(self.stack):
            if node.ns == HTML and node.name in targets:
                return node
            if node.special and not (node.ns == HTML and node.name in _LI_THROUGH):
                return None
        return None

    def _other_end_target(self, name: str) -> El | None:
        for node in reversed(self.stack):
            if node.ns == HTML and node.name == name:
                return node
            if node.special:
                return None
        return None

    def _foreign_end_target(self, name: str) -> El | None:
        stack = self.stack
        k = len(stack) - 1
        while k > 0:
            node = stack[k]
            if node.name == name and node.ns != HTML:
                return node
            k -= 1
            if stack[k].ns == HTML:
                return None
        return None

    def _furthest_block(self, fe: El) -> El | None:
        stack = self.stack
        for k in range(stack.index(fe) + 1, len(stack)):
            if stack[k].special:
                return stack[k]
        return None

    def _reset_mode(self) -> None:
        stack = self.stack
        for k in range(len(stack) - 1, -1, -1):
            if self._set_mode(stack[k], k == 0):
                return

    def _position(self, el: El) -> int:
        return self.stack.index(el)

    def _pop_until(self, names: Collection[str]) -> None:
        stack = self.stack
        while len(stack) > 1:
            el = self._pop()
            if el.ns == HTML and el.name in names:
                return

    def shape(self) -> tuple:
        numbers: dict[int, int] = {}

        def number(el: El | None) -> int:
            if el is None:
                return -1
            return numbers.setdefault(id(el), len(numbers))

        stack = tuple((number(el), el.name, el.ns, el.key, el.ip) for el in self.stack)
        afe = tuple(None if el is None else (number(el), el.name, el.ns, el.key, el.ip) for el in self.afe)
        return (self.mode, stack, afe, tuple(self.template_modes), number(self.head), number(self.form),
                self.frameset_ok, self.quirks)

    def _push_afe(self, el: El) -> None:
        afe = self.afe
        start = 0
        for i in range(len(afe) - 1, -1, -1):
            if afe[i] is None:
                start = i + 1
                break
        same = [e for e in reversed(afe[start:])
                if e is not None and e.name == el.name and attributes(e.key or "") == attributes(el.key or "")]
        if len(same) >= 3:  # Noah's Ark clause: the earliest goes
            self._afe_remove(same[-1])
        self._afe_append(el)
