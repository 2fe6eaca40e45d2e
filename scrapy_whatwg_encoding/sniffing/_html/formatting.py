"""The list of active formatting elements (HTML §13.2.4.3: push with the Noah's Ark clause,
reconstruct, clear to the last marker) and the adoption agency algorithm (§13.2.6.4.7)."""
from __future__ import annotations

from .elements import HTML, El
from .state import TreeState
from .tokenizer import attributes


def _same_attributes(a: str | None, b: str | None) -> bool:
    if a == b:
        return True
    return attributes(a or "") == attributes(b or "")


class FormattingElements(TreeState):
    """TreeBuilder mixin: ``self.afe`` (None is a marker) against ``self.stack``."""

    def _clear_afe_to_marker(self) -> None:
        afe = self.afe
        while afe:
            if afe.pop() is None:
                return

    def _push_afe(self, el: El) -> None:
        afe = self.afe
        same = [  # the entries after the last marker (no marker among them: the test only narrows)
            e for e in reversed(afe[self._after_marker():])
            if e is not None and e.name == el.name and _same_attributes(e.key, el.key)
        ]
        if len(same) >= 3:  # Noah's Ark clause
            afe.remove(same[-1])
        afe.append(el)

    def _after_marker(self) -> int:
        afe = self.afe
        for i in range(len(afe) - 1, -1, -1):
            if afe[i] is None:
                return i + 1
        return 0

    def _reconstruct(self) -> None:
        afe, stack = self.afe, self.stack
        if not afe:
            return
        entry = afe[-1]
        if entry is None or entry in stack:
            return
        i = len(afe) - 1
        while i > 0:
            i -= 1
            entry = afe[i]
            if entry is None or entry in stack:
                i += 1
                break
        for j in range(i, len(afe)):  # the entries after the last marker, none of them open
            entry = afe[j]
            assert entry is not None
            new = El(entry.name, HTML, entry.key)
            stack.append(new)
            afe[j] = new


    def _adoption(self, subject: str) -> bool:
        """The adoption agency algorithm; False means "act as any other end tag"."""
        stack, afe = self.stack, self.afe
        cur = stack[-1]
        if cur.ns == HTML and cur.name == subject and cur not in afe:
            stack.pop()
            return True
        for _ in range(8):
            fe = None
            for k in range(len(afe) - 1, -1, -1):
                e = afe[k]
                if e is None:
                    break
                if e.name == subject:
                    fe = e
                    break
            if fe is None:
                return False
            if fe not in stack:
                afe.remove(fe)
                return True
            for el in reversed(stack):  # formatting element in scope?
                if el is fe:
                    break
                if el.scope:
                    return True
            fi = stack.index(fe)
            furthest = None
            for k in range(fi + 1, len(stack)):
                if stack[k].special:
                    furthest = stack[k]
                    break
            if furthest is None:
                del stack[fi:]
                afe.remove(fe)
                return True
            bookmark = El("")
            afe.insert(afe.index(fe) + 1, bookmark)
            node_i = stack.index(furthest)
            last = furthest
            inner = 0
            while True:
                inner += 1
                node_i -= 1
                node = stack[node_i]
                if node is fe:
                    break
                in_afe = node in afe
                if inner > 3 and in_afe:
                    afe.remove(node)
                    in_afe = False
                if not in_afe:
                    del stack[node_i]
                    continue
                new = El(node.name, HTML, node.key)
                afe[afe.index(node)] = new
                stack[node_i] = new
                if last is furthest:
                    afe.remove(bookmark)
                    afe.insert(afe.index(new) + 1, bookmark)
                last = new
            new = El(fe.name, HTML, fe.key)
            afe[afe.index(bookmark)] = new
            afe.remove(fe)
            stack.remove(fe)
            stack.insert(stack.index(furthest) + 1, new)
        return True
