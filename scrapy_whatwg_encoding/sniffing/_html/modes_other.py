"""The "in template", "after body" and "after after body" insertion modes (HTML §13.2.6.4),
start and end tags. The frameset modes are never entered: a ``frameset`` start tag that the
standard would act on makes the scanner stop (no later ``meta`` is processed there)."""
from __future__ import annotations

from .elements import HEAD_RULES, InsertionMode
from .state import TreeState


class OtherModes(TreeState):
    """TreeBuilder mixin: start and end tag rules of "in template" and the "after" body modes."""

    def _start_in_template(self, name: str, span: str, sc: bool) -> int | None:
        if name in HEAD_RULES:
            return self._start_in_head(name, span, sc)
        mode: InsertionMode
        if name in ("caption", "colgroup", "tbody", "tfoot", "thead"):
            mode = "in table"
        elif name == "col":
            mode = "in column group"
        elif name == "tr":
            mode = "in table body"
        elif name in ("td", "th"):
            mode = "in row"
        else:
            mode = "in body"
        self.template_modes[-1] = mode
        self.mode = mode
        return self._start(name, span, sc)

    def _start_after_body(self, name: str, span: str, sc: bool) -> int | None:
        if name == "html":
            return None
        self.mode = "in body"
        return self._body_start(name, span, sc)

    _start_after_after_body = _start_after_body

    def _end_in_template(self, name: str) -> None:
        if name == "template":
            return self._end_template()
        return None

    def _end_after_body(self, name: str) -> None:
        if name == "html":
            self.mode = "after after body"
            return None
        self.mode = "in body"
        return self._body_end(name)

    def _end_after_after_body(self, name: str) -> None:
        self.mode = "in body"
        return self._body_end(name)
