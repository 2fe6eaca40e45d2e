"""The table insertion modes: "in table", "in caption", "in column group", "in table body",
"in row" and "in cell" (HTML §13.2.6.4.9, 11-15), start and end tags. Character tokens,
including "in table text" (§13.2.6.4.10), are handled in tree.py."""
from __future__ import annotations

from .elements import TABLE_SECTIONS, El
from .state import TreeState
from .tokenizer import first_attribute

_CAPTION_CLOSERS = frozenset("caption col colgroup tbody td tfoot th thead tr".split())
_TABLE_END_IGNORED = frozenset("body caption col colgroup html tbody td tfoot th thead tr".split())


class TableModes(TreeState):
    """TreeBuilder mixin: start and end tag rules of the table modes."""

    def _start_in_table(self, name: str, span: str, sc: bool) -> int | None:
        if name == "caption":
            self._clear_to(("table", "template", "html"))
            self._afe_marker()
            self._insert("caption")
            self.mode = "in caption"
        elif name in ("colgroup", "col"):
            self._clear_to(("table", "template", "html"))
            self._insert("colgroup")
            self.mode = "in column group"
            if name == "col":
                return self._start(name, span, sc)
        elif name in TABLE_SECTIONS or name in ("td", "th", "tr"):
            self._clear_to(("table", "template", "html"))
            self._insert(name if name in TABLE_SECTIONS else "tbody")
            self.mode = "in table body"
            if name not in TABLE_SECTIONS:
                return self._start(name, span, sc)
        elif name == "table":
            if self._in_table_scope(("table",)):
                self._pop_until(("table",))
                self._reset_mode()
                return self._start(name, span, sc)
        elif name in ("style", "script", "template"):
            return self._start_in_head(name, span, sc)
        elif name == "input" and (first_attribute(span, "type") or "").lower() == "hidden":
            pass
        elif name == "form":
            if not self.template_modes and self.form is None:
                self.form = El("form")
        else:
            return self._body_start(name, span, sc)
        return None

    def _start_in_caption(self, name: str, span: str, sc: bool) -> int | None:
        if name in _CAPTION_CLOSERS:
            if self._close_caption():
                return self._start(name, span, sc)
            return None
        return self._body_start(name, span, sc)

    def _close_caption(self) -> bool:
        if not self._in_table_scope(("caption",)):
            return False
        self._implied()
        self._pop_until(("caption",))
        self._clear_afe_to_marker()
        self.mode = "in table"
        return True

    def _start_in_column_group(self, name: str, span: str, sc: bool) -> int | None:
        if name in ("html", "col"):
            return None
        if name == "template":
            return self._start_in_head(name, span, sc)
        if not self._current_is("colgroup"):
            return None
        self._pop()
        self.mode = "in table"
        return self._start(name, span, sc)

    def _start_in_table_body(self, name: str, span: str, sc: bool) -> int | None:
        if name in ("tr", "th", "td"):
            self._clear_to(("tbody", "tfoot", "thead", "template", "html"))
            self._insert("tr")
            self.mode = "in row"
            if name != "tr":
                return self._start(name, span, sc)
            return None
        if name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead"):
            if self._in_table_scope(TABLE_SECTIONS):
                self._clear_to(("tbody", "tfoot", "thead", "template", "html"))
                self._pop()
                self.mode = "in table"
                return self._start(name, span, sc)
            return None
        return self._start_in_table(name, span, sc)

    def _start_in_row(self, name: str, span: str, sc: bool) -> int | None:
        if name in ("th", "td"):
            self._clear_to(("tr", "template", "html"))
            self._insert(name)
            self.mode = "in cell"
            self._afe_marker()
            return None
        if name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead", "tr"):
            if self._close_row():
                return self._start(name, span, sc)
            return None
        return self._start_in_table(name, span, sc)

    def _close_row(self) -> bool:
        if not self._in_table_scope(("tr",)):
            return False
        self._clear_to(("tr", "template", "html"))
        self._pop()
        self.mode = "in table body"
        return True

    def _start_in_cell(self, name: str, span: str, sc: bool) -> int | None:
        if name in _CAPTION_CLOSERS:
            if self._in_table_scope(("td", "th")):
                self._close_cell()
                return self._start(name, span, sc)
            return None
        return self._body_start(name, span, sc)

    def _close_cell(self) -> None:
        self._implied()
        self._pop_until(("td", "th"))
        self._clear_afe_to_marker()
        self.mode = "in row"


    def _end_in_table(self, name: str) -> None:
        if name == "table":
            if self._in_table_scope(("table",)):
                self._pop_until(("table",))
                self._reset_mode()
        elif name == "template":
            return self._end_template()
        elif name not in _TABLE_END_IGNORED:
            return self._body_end(name)
        return None

    def _end_in_caption(self, name: str) -> None:
        if name == "caption":
            self._close_caption()
        elif name == "table":
            if self._close_caption():
                return self._end(name)
        elif name not in _TABLE_END_IGNORED:
            return self._body_end(name)
        return None

    def _end_in_column_group(self, name: str) -> None:
        if name == "colgroup":
            if self._current_is("colgroup"):
                self._pop()
                self.mode = "in table"
        elif name == "template":
            return self._end_template()
        elif name != "col" and self._current_is("colgroup"):
            self._pop()
            self.mode = "in table"
            return self._end(name)
        return None

    def _end_in_table_body(self, name: str) -> None:
        if name in TABLE_SECTIONS:
            if self._in_table_scope((name,)):
                self._clear_to(("tbody", "tfoot", "thead", "template", "html"))
                self._pop()
                self.mode = "in table"
        elif name == "table":
            if self._in_table_scope(TABLE_SECTIONS):
                self._clear_to(("tbody", "tfoot", "thead", "template", "html"))
                self._pop()
                self.mode = "in table"
                return self._end(name)
        elif name in ("body", "caption", "col", "colgroup", "html", "td", "th", "tr"):
            pass
        else:
            return self._end_in_table(name)
        return None

    def _end_in_row(self, name: str) -> None:
        if name == "tr":
            self._close_row()
        elif name == "table":
            if self._close_row():
                return self._end(name)
        elif name in TABLE_SECTIONS:
            if self._in_table_scope((name,)) and self._close_row():
                return self._end(name)
        elif name in ("body", "caption", "col", "colgroup", "html", "td", "th"):
            pass
        else:
            return self._end_in_table(name)
        return None

    def _end_in_cell(self, name: str) -> None:
        if name in ("td", "th"):
            if self._in_table_scope((name,)):
                self._implied()
                self._pop_until((name,))
                self._clear_afe_to_marker()
                self.mode = "in row"
        elif name in ("body", "caption", "col", "colgroup", "html"):
            pass
        elif name in ("table", "tbody", "tfoot", "thead", "tr"):
            if self._in_table_scope((name,)):
                self._close_cell()
                return self._end(name)
        else:
            return self._body_end(name)
        return None
