"""The list of active formatting elements (HTML §13.2.4.3: push with the Noah's Ark clause,
reconstruct, clear to the last marker) and the adoption agency algorithm (§13.2.6.4.7).

Each entry is in a short list of the entries alike after the same marker (``El.fmt``: the same
name and attributes, at most three, in list order), so the Noah's Ark clause looks at those
alone; per marker level, a count of entries by name tells at once whether the adoption agency
(or an "a" start tag) has an entry to look for. Neither walks the list however long it is."""
from __future__ import annotations

from functools import lru_cache

from .elements import HTML, El
from .state import TreeState
from .tokenizer import attributes

_NONE: frozenset = frozenset()


@lru_cache(maxsize=256)
def _attributes_of(key: str) -> frozenset:
    return frozenset(attributes(key).items())


def alike(name: str, key: str | None) -> tuple:
    """What the Noah's Ark clause compares of an element *name* with attributes *key* (a span):
    name and attributes (names lowercased, first of duplicates, values decoded; in any order)."""
    return name, (_attributes_of(key) if key else _NONE)


class FormattingElements(TreeState):
    """TreeBuilder mixin: ``self.afe`` (None is a marker) against ``self.stack``."""

    def _afe_marker(self) -> None:
        self.afe.append(None)
        self._ark.append({})
        self._ark_names.append({})

    def _clear_afe_to_marker(self) -> None:
        afe = self.afe
        while afe:
            el = afe.pop()
            if el is None:
                self._ark.pop()
                self._ark_names.pop()
                return
            el.fmt = None
        self._ark[:] = [{}]
        self._ark_names[:] = [{}]

    def _afe_append(self, el: El) -> None:
        same = self._ark[-1].setdefault(alike(el.name, el.key), [])
        same.append(el)
        el.fmt = same
        names = self._ark_names[-1]
        names[el.name] = names.get(el.name, 0) + 1
        self.afe.append(el)

    def _push_afe(self, el: El) -> None:
        same = self._ark[-1].get(alike(el.name, el.key))
        if same is not None and len(same) >= 3:  # Noah's Ark clause: the earliest goes
            self._afe_remove(same[0])
        self._afe_append(el)

    def _push_formatting_copies(self, els: list[El]) -> None:
        """Push *els* (formatting elements just put on the stack, in order; or the last three
        copies' of them, the earlier ones being dropped anyway) onto the list as each would be,
        with nothing to reconstruct: per name and attributes, the last three of the entries alike
        after the last marker and the new ones stay (Noah's Ark clause: the earliest goes at each
        push), the new ones after the others in their order."""
        level, counts = self._ark[-1], self._ark_names[-1]
        new: dict[tuple, list[El]] = {}
        for el in els:
            new.setdefault(alike(el.name, el.key), []).append(el)
        kept_new: set[int] = set()
        for key, added in new.items():
            same = level.setdefault(key, [])
            kept = (same + added[-3:])[-3:]
            name = added[0].name
            for el in same:
                if all(el is not k for k in kept):
                    del self.afe[self._afe_index(el)]
                    el.fmt = None
                    counts[name] -= 1
            for el in kept:
                if el.fmt is None:
                    kept_new.add(id(el))
                    counts[name] = counts.get(name, 0) + 1
                el.fmt = same
            same[:] = kept
        self.afe.extend(el for el in els if id(el) in kept_new)

    def _afe_index(self, el: El) -> int:
        """The index of *el* in the list (looked for from the end, where it mostly is)."""
        afe = self.afe
        top = len(afe) - 1
        for k in range(top, max(top - 16, -1), -1):
            if afe[k] is el:
                return k
        return afe.index(el)

    def _afe_remove(self, el: El) -> None:
        del self.afe[self._afe_index(el)]
        same = el.fmt
        assert same is not None
        key = alike(el.name, el.key)
        for level in range(len(self._ark) - 1, -1, -1):  # its marker level (in practice the last)
            if self._ark[level].get(key) is same:
                self._ark_names[level][el.name] -= 1
                break
        same.remove(el)
        el.fmt = None

    def _afe_replace(self, old: El, new: El) -> None:
        """*new* (a copy of *old*) takes *old*'s place in the list."""
        self.afe[self._afe_index(old)] = new
        same = old.fmt
        assert same is not None
        same[same.index(old)] = new
        new.fmt, old.fmt = same, None

    def _afe_last(self, name: str) -> El | None:
        """The last entry named *name* after the last marker, if any."""
        if not self._ark_names[-1].get(name):
            return None
        afe = self.afe
        for k in range(len(afe) - 1, -1, -1):
            e = afe[k]
            if e is None:
                break
            if e.name == name:
                return e
        return None

    def _reconstruct(self) -> None:
        afe = self.afe
        if not afe:
            return
        entry = afe[-1]
        if entry is None or entry.open:
            return
        i = len(afe) - 1
        while i > 0:
            i -= 1
            entry = afe[i]
            if entry is None or entry.open:
                i += 1
                break
        for j in range(i, len(afe)):  # the entries after the last marker, none of them open
            entry = afe[j]
            assert entry is not None
            new = El(entry.name, HTML, entry.key)
            self._push(new)
            self._afe_replace(entry, new)

    def _adoption(self, subject: str) -> bool:
        """The adoption agency algorithm; False means "act as any other end tag"."""
        stack, afe = self.stack, self.afe
        cur = stack[-1]
        if cur.ns == HTML and cur.name == subject and cur.fmt is None:
            self._pop()
            return True
        for _ in range(8):
            fe = self._afe_last(subject)
            if fe is None:
                return False
            if not fe.open:
                self._afe_remove(fe)
                return True
            if not self._el_in_scope(fe):
                return True
            furthest = self._furthest_block(fe)
            if furthest is None:
                self._truncate(self._position(fe))
                self._afe_remove(fe)
                return True
            bookmark = El("")
            afe.insert(self._afe_index(fe) + 1, bookmark)
            node_i = self._position(furthest)
            last = furthest
            inner = 0
            while True:
                inner += 1
                node_i -= 1
                node = stack[node_i]
                if node is fe:
                    break
                in_afe = node.fmt is not None
                if inner > 3 and in_afe:
                    self._afe_remove(node)
                    in_afe = False
                if not in_afe:
                    inner += node.count - 1  # (a run of copies: a turn each, none in the list)
                    self._remove_at(node_i)
                    continue
                new = El(node.name, HTML, node.key)
                self._afe_replace(node, new)
                self._replace_at(node_i, new)
                if last is furthest:
                    del afe[self._afe_index(bookmark)]
                    afe.insert(self._afe_index(new) + 1, bookmark)
                last = new
            new = El(fe.name, HTML, fe.key)
            afe[self._afe_index(bookmark)] = new  # the bookmark's place, then fe's entry goes
            same = fe.fmt
            assert same is not None
            same[same.index(fe)] = new
            new.fmt, fe.fmt = same, None
            del afe[self._afe_index(fe)]
            if len(same) > 1:  # (the new entry may have moved past another alike)
                same.sort(key=self._afe_index)
            self._remove_open(fe)
            self._insert_at(self._position(furthest) + 1, new)
        return True
