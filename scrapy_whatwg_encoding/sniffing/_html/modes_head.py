"""The "initial", "before html", "before head", "in head", "in head noscript" and "after head"
insertion modes (HTML §13.2.6.4.1-6), start and end tags. "in head noscript" is entered only with
the scripting flag disabled (the browsers' models); enabled, ``noscript`` is a RAWTEXT element."""
from __future__ import annotations

from .elements import HEAD_RULES, META, RAWTEXT, RCDATA, SCRIPT, STOP, THOROUGH
from .state import TreeState

_BEFORE_ENDS = frozenset(("head", "body", "html", "br"))


class HeadModes(TreeState):
    """TreeBuilder mixin: start and end tag rules of the modes before "in body"."""

    def _start_initial(self, name: str, span: str, sc: bool) -> int | None:
        self.quirks = True
        self.mode = "before html"
        return self._start(name, span, sc)

    def _start_before_html(self, name: str, span: str, sc: bool) -> int | None:
        self._insert("html")
        self.mode = "before head"
        if name == "html":
            return None
        return self._start(name, span, sc)

    def _start_before_head(self, name: str, span: str, sc: bool) -> int | None:
        if name == "html":
            return None
        self.head = self._insert("head")
        self.mode = "in head"
        if name == "head":
            return None
        return self._start(name, span, sc)

    def _start_in_head(self, name: str, span: str, sc: bool) -> int | None:
        if name in ("base", "basefont", "bgsound", "link", "html", "head"):
            return None
        if name == "meta":
            return META
        if name == "title":
            return RCDATA
        if name == "noscript" and not self.scripting:
            self._insert("noscript")
            self.mode = "in head noscript"
            return None
        if name in ("noscript", "noframes", "style"):
            return RAWTEXT
        if name == "script":
            return SCRIPT
        if name == "template":
            self._insert("template")
            self._afe_marker()
            self.frameset_ok = False
            self.mode = "in template"
            self.template_modes.append("in template")
            return None
        self._pop()  # the head element
        self.mode = "after head"
        return self._start(name, span, sc)

    def _start_in_head_noscript(self, name: str, span: str, sc: bool) -> int | None:  # §13.2.6.4.5
        if name == "html":
            return self._body_start(name, span, sc)
        if name in ("basefont", "bgsound", "link", "meta", "noframes", "style"):
            return self._start_in_head(name, span, sc)
        if name in ("head", "noscript"):
            return None
        self._leave_noscript()
        return self._start(name, span, sc)

    def _leave_noscript(self) -> None:
        self._pop()
        self.mode = "in head"

    def _end_in_head_noscript(self, name: str) -> None:
        if name == "noscript":
            self._leave_noscript()
        elif name == "br":
            self._leave_noscript()
            return self._end(name)
        return None

    def _start_after_head(self, name: str, span: str, sc: bool) -> int | None:
        if name == "html":
            return None
        if name == "body":
            self._insert("body")
            self.frameset_ok = False
            self.mode = "in body"
            return None
        if name == "frameset":
            return STOP
        if name in HEAD_RULES:
            head = self.head
            assert head is not None  # "after head" follows the head element's insertion
            self._push(head)
            action = self._start_in_head(name, span, sc)
            self._remove_open(head)
            return action
        if name == "head":
            return None
        self._insert("body")
        self.mode = "in body"
        return self._body_start(name, span, sc)

    def _end_initial(self, name: str) -> None:
        self.quirks = True
        self.mode = "before html"
        return self._end(name)

    def _end_before_html(self, name: str) -> None:
        if name in _BEFORE_ENDS:
            self._insert("html")
            self.mode = "before head"
            return self._end(name)
        return None

    def _end_before_head(self, name: str) -> None:
        if name in _BEFORE_ENDS:
            self.head = self._insert("head")
            self.mode = "in head"
            return self._end(name)
        return None

    def _end_in_head(self, name: str) -> None:
        if name == "template":
            return self._end_template()
        if name in _BEFORE_ENDS:
            self._pop()
            self.mode = "after head"
            if name != "head":
                return self._end(name)
        return None

    def _end_template(self) -> None:
        if not self.template_modes:
            return
        self._implied(names=THOROUGH)
        self._pop_until(("template",))
        self._clear_afe_to_marker()
        self.template_modes.pop()
        self._reset_mode()
        return

    def _end_after_head(self, name: str) -> None:
        if name == "template":
            return self._end_template()
        if name in ("body", "html", "br"):
            self._insert("body")
            self.mode = "in body"
            return self._body_end(name)
        return None
