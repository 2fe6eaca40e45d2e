"""The "in body" insertion mode (HTML §13.2.6.4.7), start and end tags; the adoption agency
algorithm it runs is in formatting.py."""
from __future__ import annotations

from .elements import HEAD_RULES, HTML, MATHML, PLAINTEXT, RAWTEXT, RCDATA, STOP, SVG, El
from .state import TreeState
from .tokenizer import first_attribute

_BLOCK = frozenset(
    "address article aside blockquote center details dialog dir div dl fieldset figcaption figure "
    "footer header hgroup main menu nav ol p search section summary ul".split()
)
_END_BLOCK = (_BLOCK - {"p"}) | frozenset(("button", "listing", "pre"))
_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
_FORMATTING = frozenset("b big code em font i s small strike strong tt u".split())
_END_FORMATTING = _FORMATTING | frozenset(("a", "nobr"))
_VOID = frozenset("area br embed img keygen wbr".split())
_BODY_IGNORED = frozenset("caption col colgroup frame head tbody td tfoot th thead tr".split())
#: The end tags with a rule of their own in "in body" (BodyMode._body_end; all others: "any other end tag").
END_TAG_RULES = _END_BLOCK | _END_FORMATTING | _HEADINGS | frozenset(
    "p li dd dt template body html form applet marquee object select br".split())


# Start tags with a rule of their own in "in body" (all others: reconstruct, insert).
_BODY_SPECIAL_START = (
    HEAD_RULES | _BLOCK | _FORMATTING | _VOID | _HEADINGS | _BODY_IGNORED
    | frozenset(
        "image a html body frameset pre listing form li dd dt plaintext button nobr applet marquee "
        "object table input param source track hr textarea xmp iframe noembed noscript select "
        "option optgroup rb rtc rp rt math svg".split()
    )
)


def body_copies(name: str) -> int:
    """What a start tag *name* does in "in body" when it only pushes an element (the
    conditions: ``TreeBuilder.copies_push``): 1 "any other start tag"; 2 a block but "p",
    "pre", "listing" (close a "p" first: none in button scope); 3 a formatting element
    (reconstruct first, then the Noah's Ark clause); 0 anything else."""
    if name not in _BODY_SPECIAL_START:
        return 1
    if (name in _BLOCK and name != "p") or name in ("pre", "listing"):
        return 2
    return 3 if name in _FORMATTING else 0


class BodyMode(TreeState):
    """TreeBuilder mixin: start and end tag rules of "in body"."""

    def _body_start(self, name: str, span: str, sc: bool) -> int | None:
        stack = self.stack
        if name not in _BODY_SPECIAL_START:  # "any other start tag"
            afe = self.afe
            if afe and afe[-1] is not None and not afe[-1].open:
                self._reconstruct()
            self._push(El(name))
            return None
        if name in HEAD_RULES:
            return self._start_in_head(name, span, sc)
        if name in _BLOCK:
            self._close_p()
            self._insert(name)
        elif name in _FORMATTING:
            self._reconstruct()
            self._push_afe(self._insert(name, span))
        elif name in _VOID or name == "image":
            self._reconstruct()
            self.frameset_ok = False
        elif name in _HEADINGS:
            self._close_p()
            if stack[-1].ns == HTML and stack[-1].name in _HEADINGS:
                self._pop()
            self._insert(name)
        elif name == "a":
            e = self._afe_last("a")
            if e is not None:
                self._adoption("a")
                if e.fmt is not None:
                    self._afe_remove(e)
                if e.open:
                    self._remove_open(e)
            self._reconstruct()
            self._push_afe(self._insert("a", span))
        elif name in _BODY_IGNORED or name == "html":
            pass
        elif name == "body":
            if len(stack) > 1 and stack[1].name == "body" and not self.template_modes:
                self.frameset_ok = False
        elif name == "frameset":
            if len(stack) > 1 and stack[1].name == "body" and self.frameset_ok:
                return STOP
        elif name in ("pre", "listing"):
            self._close_p()
            self._insert(name)
            self.frameset_ok = False
        elif name == "form":
            if self.form is not None and not self.template_modes:
                return None
            self._close_p()
            el = self._insert("form")
            if not self.template_modes:
                self.form = el
        elif name in ("li", "dd", "dt"):
            self.frameset_ok = False
            node = self._li_target(("li",) if name == "li" else ("dd", "dt"))
            if node is not None:
                self._implied(node.name)
                self._pop_until((node.name,))
            self._close_p()
            self._insert(name)
        elif name == "plaintext":
            self._close_p()
            return PLAINTEXT
        elif name == "button":
            if self._in_scope("button"):
                self._implied()
                self._pop_until(("button",))
            self._reconstruct()
            self._insert("button")
            self.frameset_ok = False
        elif name == "nobr":
            self._reconstruct()
            if self._in_scope("nobr"):
                self._adoption("nobr")
                self._reconstruct()
            self._push_afe(self._insert("nobr", span))
        elif name in ("applet", "marquee", "object"):
            self._reconstruct()
            self._insert(name)
            self._afe_marker()
            self.frameset_ok = False
        elif name == "table":
            if not self.quirks:
                self._close_p()
            self._insert("table")
            self.frameset_ok = False
            self.mode = "in table"
        elif name == "input":
            if self._in_scope("select"):
                self._pop_until(("select",))
            self._reconstruct()
            if (first_attribute(span, "type") or "").lower() != "hidden":
                self.frameset_ok = False
        elif name in ("param", "source", "track"):
            pass
        elif name == "hr":
            self._close_p()
            if self._in_scope("select"):
                self._implied()
            self.frameset_ok = False
        elif name == "textarea":
            self.frameset_ok = False
            return RCDATA
        elif name == "xmp":
            self._close_p()
            self._reconstruct()
            self.frameset_ok = False
            return RAWTEXT
        elif name == "iframe":
            self.frameset_ok = False
            return RAWTEXT
        elif name == "noembed" or (name == "noscript" and self.scripting):
            return RAWTEXT
        elif name == "noscript":  # scripting disabled: "any other start tag"
            self._reconstruct()
            self._insert(name)
        elif name == "select":
            if self._in_scope("select"):
                self._pop_until(("select",))
                return None
            self._reconstruct()
            self._insert("select")
            self.frameset_ok = False
        elif name in ("option", "optgroup"):
            if self._in_scope("select"):
                self._implied("optgroup" if name == "option" else None)
            elif self._current_is("option"):
                self._pop()
            self._reconstruct()
            self._insert(name)
        elif name in ("rb", "rtc", "rp", "rt"):
            if self._in_scope("ruby"):
                self._implied("rtc" if name in ("rp", "rt") else None)
            self._insert(name)
        elif name in ("math", "svg"):
            self._reconstruct()
            if not sc:
                self._push(El(name, MATHML if name == "math" else SVG))
        else:
            self._reconstruct()
            self._insert(name)
        return None

    def _body_copies(self, name: str) -> int:
        if name == "form" and self.template_modes:
            return 2  # a template on the stack: the form element pointer left alone, a block's steps
        return body_copies(name)

    def _body_end(self, name: str) -> None:
        if name in _END_BLOCK:
            if self._in_scope(name):
                self._implied()
                self._pop_until((name,))
        elif name in _END_FORMATTING:
            if not self._adoption(name):
                self._any_other_end(name)
        elif name == "p":
            if self._in_scope("p", ("button",)):
                self._implied("p")
                self._pop_until(("p",))
        elif name == "li":
            if self._in_scope("li", ("ol", "ul")):
                self._implied("li")
                self._pop_until(("li",))
        elif name in ("dd", "dt"):
            if self._in_scope(name):
                self._implied(name)
                self._pop_until((name,))
        elif name in _HEADINGS:
            if any(self._in_scope(h) for h in _HEADINGS):
                self._implied()
                self._pop_until(_HEADINGS)
        elif name == "template":
            return self._end_template()
        elif name in ("body", "html"):
            if self._in_scope("body"):
                self.mode = "after body"
                if name == "html":
                    self.mode = "after after body"
        elif name == "form":
            if not self.template_modes:
                node, self.form = self.form, None
                if node is None or not node.open or not self._el_in_scope(node):
                    return None
                self._implied()
                self._remove_open(node)
            elif self._in_scope("form"):
                self._implied()
                self._pop_until(("form",))
        elif name in ("applet", "marquee", "object"):
            if self._in_scope(name):
                self._implied()
                self._pop_until((name,))
                self._clear_afe_to_marker()
        elif name == "select":
            if self._in_scope("select"):
                self._pop_until(("select",))
        elif name == "br":
            self._reconstruct()
            self.frameset_ok = False
        else:
            self._any_other_end(name)
        return None

    def _any_other_end(self, name: str) -> None:
        node = self._other_end_target(name)
        if node is not None:
            self._implied(name)
            self._truncate_through(node)
