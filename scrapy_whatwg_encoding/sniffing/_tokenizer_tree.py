"""A DOM-less HTML tree builder (HTML §13.2.6), scripting flag enabled, non-fragment case.

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

``start_tag`` returns None, or one of the action codes below for the scanner.
"""
from __future__ import annotations

from ._tokenizer import attributes
from ._tokenizer_doctype import doctype_is_quirky

RCDATA, RAWTEXT, SCRIPT, PLAINTEXT, META, STOP = 1, 2, 3, 4, 5, 6
HTML, SVG, MATHML = 0, 1, 2
HTML_IP, MATHML_TEXT_IP = 1, 2

# §13.2.4.3 "special" category, HTML namespace part.
_SPECIAL = frozenset(
    "address applet area article aside base basefont bgsound blockquote body br button caption "
    "center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form "
    "frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link "
    "listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre "
    "script search section select source style summary table tbody td template textarea tfoot th "
    "thead title tr track ul wbr xmp".split()
)
# "has an element in scope": the HTML boundary elements (foreign ones are flagged per element).
_SCOPE = frozenset("applet caption html table td th marquee object template".split())
_SVG_IP = frozenset(("foreignobject", "desc", "title"))
_MATHML_TEXT_IP = frozenset(("mi", "mo", "mn", "ms", "mtext"))
_IMPLIED = frozenset("dd dt li optgroup option p rb rp rt rtc".split())
_THOROUGH = _IMPLIED | frozenset("caption colgroup tbody td tfoot th thead tr".split())
_HEAD_RULES = frozenset("base basefont bgsound link meta noframes script style template title".split())
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
_BREAKOUT = frozenset(
    "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img "
    "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul "
    "var".split()
)
_FONT_BREAKOUT = frozenset(("color", "face", "size"))
_TABLE_SECTIONS = frozenset(("tbody", "tfoot", "thead"))
_TABLE_TEXT = frozenset(("table", "tbody", "template", "tfoot", "thead", "tr"))
_CAPTION_CLOSERS = frozenset("caption col colgroup tbody td tfoot th thead tr".split())
_TABLE_END_IGNORED = frozenset("body caption col colgroup html tbody td tfoot th thead tr".split())
_BEFORE_ENDS = frozenset(("head", "body", "html", "br"))


# Start tags with a rule of their own in "in body" (all others: reconstruct, insert).
_BODY_SPECIAL_START = (
    _HEAD_RULES | _BLOCK | _FORMATTING | _VOID | _HEADINGS | _BODY_IGNORED
    | frozenset(
        "image a html body frameset pre listing form li dd dt plaintext button nobr applet marquee "
        "object table input param source track hr textarea xmp iframe noembed noscript select "
        "option optgroup rb rtc rp rt math svg".split()
    )
)


class El:
    """An element on the stack of open elements (or in the list of active formatting elements)."""

    __slots__ = ("name", "ns", "ip", "special", "scope", "key")

    def __init__(self, name, ns=HTML, key=None, ip=0):
        self.name = name
        self.ns = ns
        self.ip = ip
        self.key = key  # attribute span, for the Noah's Ark clause and reconstruction
        if ns == HTML:
            self.special = name in _SPECIAL
            self.scope = name in _SCOPE
        elif ns == SVG:
            self.special = self.scope = name in _SVG_IP
        else:
            self.special = self.scope = name in _MATHML_TEXT_IP or name == "annotation-xml"


def _foreign(name, ns, span):
    if ns == SVG:
        return El(name, SVG, ip=HTML_IP if name in _SVG_IP else 0)
    if name in _MATHML_TEXT_IP:
        return El(name, MATHML, ip=MATHML_TEXT_IP)
    if name == "annotation-xml":
        encoding = attributes(span).get("encoding", "").lower() if span else ""
        if encoding in ("text/html", "application/xhtml+xml") and encoding.isascii():
            return El(name, MATHML, ip=HTML_IP)
    return El(name, MATHML)


def _same_attributes(a, b):
    if a == b:
        return True
    return attributes(a or "") == attributes(b or "")


class TreeBuilder:
    """Tree construction state; feed it tokens in document order."""

    def __init__(self):
        self.stack: list[El] = []
        self.afe: list[El | None] = []  # None is a marker
        self.mode = "initial"
        self.template_modes: list[str] = []
        self.head: El | None = None
        self.form: El | None = None
        self.frameset_ok = True
        self.quirks = False
        self._foreign_seen: tuple[int, El] | None = None

    # -- queries ------------------------------------------------------------------------------
    def in_foreign(self) -> bool:
        """The adjusted current node is not in the HTML namespace (CDATA sections allowed)."""
        return bool(self.stack) and self.stack[-1].ns != HTML

    def _in_scope(self, name, extra=()):
        for el in reversed(self.stack):
            if el.ns == HTML:
                if el.name == name:
                    return True
                if el.scope or el.name in extra:
                    return False
            elif el.scope:
                return False
        return False

    def _in_table_scope(self, names):
        for el in reversed(self.stack):
            if el.ns == HTML:
                if el.name in names:
                    return True
                if el.name in ("html", "table", "template"):
                    return False
        return False

    def _has_template(self):
        return bool(self.template_modes)

    def _current_is(self, name):
        el = self.stack[-1]
        return el.ns == HTML and el.name == name

    # -- stack operations ----------------------------------------------------------------------
    def _insert(self, name, key=None):
        el = El(name, HTML, key)
        self.stack.append(el)
        return el

    def _pop_until(self, names):
        stack = self.stack
        while len(stack) > 1:
            el = stack.pop()
            if el.ns == HTML and el.name in names:
                return

    def _implied(self, exclude=None, names=_IMPLIED):
        stack = self.stack
        while stack:
            el = stack[-1]
            if el.ns != HTML or el.name not in names or el.name == exclude:
                return
            stack.pop()

    def _close_p(self):
        if self._in_scope("p", ("button",)):
            self._implied("p")
            self._pop_until(("p",))

    def _clear_to(self, names):
        stack = self.stack
        while len(stack) > 1 and not (stack[-1].ns == HTML and stack[-1].name in names):
            stack.pop()

    def _clear_afe_to_marker(self):
        afe = self.afe
        while afe:
            if afe.pop() is None:
                return

    def _push_afe(self, el):
        afe = self.afe
        same = [e for e in reversed(afe[self._after_marker():]) if e.name == el.name and _same_attributes(e.key, el.key)]
        if len(same) >= 3:  # Noah's Ark clause
            afe.remove(same[-1])
        afe.append(el)

    def _after_marker(self):
        afe = self.afe
        for i in range(len(afe) - 1, -1, -1):
            if afe[i] is None:
                return i + 1
        return 0

    def _reconstruct(self):
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
        for j in range(i, len(afe)):
            new = El(afe[j].name, HTML, afe[j].key)
            stack.append(new)
            afe[j] = new

    def _reset_mode(self):
        stack = self.stack
        for k in range(len(stack) - 1, -1, -1):
            node = stack[k]
            last = k == 0
            name = node.name if node.ns == HTML else ""
            if name in ("td", "th") and not last:
                self.mode = "in cell"
            elif name == "tr":
                self.mode = "in row"
            elif name in _TABLE_SECTIONS:
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
            elif name == "frameset":
                self.mode = "in frameset"
            elif name == "html":
                self.mode = "before head" if self.head is None else "after head"
            elif last:
                self.mode = "in body"
            else:
                continue
            return

    def _adoption(self, subject):
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

    # -- dispatcher (§13.2.6) ---------------------------------------------------------------------
    def start_tag(self, name, span, self_closing):
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

    def end_tag(self, name):
        if self.stack and self.stack[-1].ns != HTML:
            return self._foreign_end(name)
        if self.mode == "in body":
            return self._body_end(name)
        return _END_RULES[self.mode](self, name)

    def tokenizer_only(self):
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

    def text_matters(self):
        """Whether character tokens could change any state (else the scanner skips them): not in
        "in body" (or foreign content) with frameset-ok already "not ok" and nothing for
        "reconstruct the active formatting elements" to do."""
        if self.frameset_ok or self.mode != "in body":
            return True
        afe = self.afe
        return bool(afe) and afe[-1] is not None and afe[-1] not in self.stack

    def characters(self, ws, nul, other):
        stack = self.stack
        if stack:
            node = stack[-1]
            if node.ns != HTML and not node.ip:
                if other:  # "any other character token" in foreign content
                    self.frameset_ok = False
                return
        self._chars(ws, nul, other)

    def doctype(self, inner):
        if self.mode == "initial":
            self.quirks = doctype_is_quirky(inner)
            self.mode = "before html"

    # -- foreign content (§13.2.6.5) --------------------------------------------------------------
    def _foreign_start(self, name, span, self_closing):
        stack = self.stack
        if name in _BREAKOUT or (name == "font" and span and any(a in _FONT_BREAKOUT for a in attributes(span))):
            while len(stack) > 1 and stack[-1].ns != HTML and not stack[-1].ip:
                stack.pop()
            return self._start(name, span, self_closing)
        el = _foreign(name, stack[-1].ns, span)
        if not self_closing:
            stack.append(el)
        return None

    def _foreign_end(self, name):
        stack = self.stack
        if name in ("br", "p"):
            while len(stack) > 1 and stack[-1].ns != HTML and not stack[-1].ip:
                stack.pop()
            return self._end(name)
        k = len(stack) - 1
        while k > 0:
            node = stack[k]
            if node.name == name and node.ns != HTML:
                del stack[k:]
                return None
            k -= 1
            if stack[k].ns == HTML:
                return self._end(name)
        return None

    # -- insertion modes: start tags ----------------------------------------------------------------
    def _start(self, name, span, sc):
        mode = self.mode
        if mode == "in body":
            return self._body_start(name, span, sc)
        return _START_RULES[mode](self, name, span, sc)

    def _start_initial(self, name, span, sc):
        self.quirks = True
        self.mode = "before html"
        return self._start(name, span, sc)

    def _start_before_html(self, name, span, sc):
        self._insert("html")
        self.mode = "before head"
        if name == "html":
            return None
        return self._start(name, span, sc)

    def _start_before_head(self, name, span, sc):
        if name == "html":
            return None
        self.head = self._insert("head")
        self.mode = "in head"
        if name == "head":
            return None
        return self._start(name, span, sc)

    def _start_in_head(self, name, span, sc):
        if name in ("base", "basefont", "bgsound", "link", "html", "head"):
            return None
        if name == "meta":
            return META
        if name == "title":
            return RCDATA
        if name in ("noscript", "noframes", "style"):
            return RAWTEXT
        if name == "script":
            return SCRIPT
        if name == "template":
            self._insert("template")
            self.afe.append(None)
            self.frameset_ok = False
            self.mode = "in template"
            self.template_modes.append("in template")
            return None
        self.stack.pop()  # the head element
        self.mode = "after head"
        return self._start(name, span, sc)

    def _start_after_head(self, name, span, sc):
        if name == "html":
            return None
        if name == "body":
            self._insert("body")
            self.frameset_ok = False
            self.mode = "in body"
            return None
        if name == "frameset":
            return STOP
        if name in _HEAD_RULES:
            self.stack.append(self.head)
            action = self._start_in_head(name, span, sc)
            self.stack.remove(self.head)
            return action
        if name == "head":
            return None
        self._insert("body")
        self.mode = "in body"
        return self._body_start(name, span, sc)

    def _body_start(self, name, span, sc):
        stack = self.stack
        if name not in _BODY_SPECIAL_START:  # "any other start tag"
            afe = self.afe
            if afe and afe[-1] is not None and afe[-1] not in stack:
                self._reconstruct()
            stack.append(El(name))
            return None
        if name in _HEAD_RULES:
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
                stack.pop()
            self._insert(name)
        elif name == "a":
            afe = self.afe
            for k in range(len(afe) - 1, -1, -1):
                e = afe[k]
                if e is None:
                    break
                if e.name == "a":
                    self._adoption("a")
                    if e in afe:
                        afe.remove(e)
                    if e in stack:
                        stack.remove(e)
                    break
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
            targets = ("li",) if name == "li" else ("dd", "dt")
            for k in range(len(stack) - 1, -1, -1):
                node = stack[k]
                if node.ns == HTML and node.name in targets:
                    self._implied(node.name)
                    self._pop_until((node.name,))
                    break
                if node.special and not (node.ns == HTML and node.name in ("address", "div", "p")):
                    break
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
            self.afe.append(None)
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
            if attributes(span).get("type", "").lower() != "hidden" if span else True:
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
        elif name in ("noembed", "noscript"):
            return RAWTEXT
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
                stack.pop()
            self._reconstruct()
            self._insert(name)
        elif name in ("rb", "rtc", "rp", "rt"):
            if self._in_scope("ruby"):
                self._implied("rtc" if name in ("rp", "rt") else None)
            self._insert(name)
        elif name in ("math", "svg"):
            self._reconstruct()
            if not sc:
                stack.append(El(name, MATHML if name == "math" else SVG))
        else:
            self._reconstruct()
            self._insert(name)
        return None

    def _start_in_table(self, name, span, sc):
        if name == "caption":
            self._clear_to(("table", "template", "html"))
            self.afe.append(None)
            self._insert("caption")
            self.mode = "in caption"
        elif name in ("colgroup", "col"):
            self._clear_to(("table", "template", "html"))
            self._insert("colgroup")
            self.mode = "in column group"
            if name == "col":
                return self._start(name, span, sc)
        elif name in _TABLE_SECTIONS or name in ("td", "th", "tr"):
            self._clear_to(("table", "template", "html"))
            self._insert(name if name in _TABLE_SECTIONS else "tbody")
            self.mode = "in table body"
            if name not in _TABLE_SECTIONS:
                return self._start(name, span, sc)
        elif name == "table":
            if self._in_table_scope(("table",)):
                self._pop_until(("table",))
                self._reset_mode()
                return self._start(name, span, sc)
        elif name in ("style", "script", "template"):
            return self._start_in_head(name, span, sc)
        elif name == "input" and span and attributes(span).get("type", "").lower() == "hidden":
            pass
        elif name == "form":
            if not self.template_modes and self.form is None:
                self.form = El("form")
        else:
            return self._body_start(name, span, sc)
        return None

    def _start_in_caption(self, name, span, sc):
        if name in _CAPTION_CLOSERS:
            if self._close_caption():
                return self._start(name, span, sc)
            return None
        return self._body_start(name, span, sc)

    def _close_caption(self):
        if not self._in_table_scope(("caption",)):
            return False
        self._implied()
        self._pop_until(("caption",))
        self._clear_afe_to_marker()
        self.mode = "in table"
        return True

    def _start_in_column_group(self, name, span, sc):
        if name in ("html", "col"):
            return None
        if name == "template":
            return self._start_in_head(name, span, sc)
        if not self._current_is("colgroup"):
            return None
        self.stack.pop()
        self.mode = "in table"
        return self._start(name, span, sc)

    def _start_in_table_body(self, name, span, sc):
        if name in ("tr", "th", "td"):
            self._clear_to(("tbody", "tfoot", "thead", "template", "html"))
            self._insert("tr")
            self.mode = "in row"
            if name != "tr":
                return self._start(name, span, sc)
            return None
        if name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead"):
            if self._in_table_scope(_TABLE_SECTIONS):
                self._clear_to(("tbody", "tfoot", "thead", "template", "html"))
                self.stack.pop()
                self.mode = "in table"
                return self._start(name, span, sc)
            return None
        return self._start_in_table(name, span, sc)

    def _start_in_row(self, name, span, sc):
        if name in ("th", "td"):
            self._clear_to(("tr", "template", "html"))
            self._insert(name)
            self.mode = "in cell"
            self.afe.append(None)
            return None
        if name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead", "tr"):
            if self._close_row():
                return self._start(name, span, sc)
            return None
        return self._start_in_table(name, span, sc)

    def _close_row(self):
        if not self._in_table_scope(("tr",)):
            return False
        self._clear_to(("tr", "template", "html"))
        self.stack.pop()
        self.mode = "in table body"
        return True

    def _start_in_cell(self, name, span, sc):
        if name in _CAPTION_CLOSERS:
            if self._in_table_scope(("td", "th")):
                self._close_cell()
                return self._start(name, span, sc)
            return None
        return self._body_start(name, span, sc)

    def _close_cell(self):
        self._implied()
        self._pop_until(("td", "th"))
        self._clear_afe_to_marker()
        self.mode = "in row"

    def _start_in_template(self, name, span, sc):
        if name in _HEAD_RULES:
            return self._start_in_head(name, span, sc)
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

    def _start_after_body(self, name, span, sc):
        if name == "html":
            return None
        self.mode = "in body"
        return self._body_start(name, span, sc)

    _start_after_after_body = _start_after_body

    # -- insertion modes: end tags ----------------------------------------------------------------
    def _end(self, name):
        mode = self.mode
        if mode == "in body":
            return self._body_end(name)
        return _END_RULES[mode](self, name)

    def _end_initial(self, name):
        self.quirks = True
        self.mode = "before html"
        return self._end(name)

    def _end_before_html(self, name):
        if name in _BEFORE_ENDS:
            self._insert("html")
            self.mode = "before head"
            return self._end(name)
        return None

    def _end_before_head(self, name):
        if name in _BEFORE_ENDS:
            self.head = self._insert("head")
            self.mode = "in head"
            return self._end(name)
        return None

    def _end_in_head(self, name):
        if name == "template":
            return self._end_template()
        if name in _BEFORE_ENDS:
            self.stack.pop()
            self.mode = "after head"
            if name != "head":
                return self._end(name)
        return None

    def _end_template(self):
        if not self.template_modes:
            return None
        self._implied(names=_THOROUGH)
        self._pop_until(("template",))
        self._clear_afe_to_marker()
        self.template_modes.pop()
        self._reset_mode()
        return None

    def _end_after_head(self, name):
        if name == "template":
            return self._end_template()
        if name in ("body", "html", "br"):
            self._insert("body")
            self.mode = "in body"
            return self._body_end(name)
        return None

    def _body_end(self, name):
        stack = self.stack
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
                if node is None or node not in stack:
                    return None
                for el in reversed(stack):  # node in scope?
                    if el is node:
                        break
                    if el.scope:
                        return None
                self._implied()
                stack.remove(node)
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

    def _any_other_end(self, name):
        stack = self.stack
        for k in range(len(stack) - 1, -1, -1):
            node = stack[k]
            if node.ns == HTML and node.name == name:
                self._implied(name)
                del stack[k:]
                return
            if node.special:
                return

    def _end_in_table(self, name):
        if name == "table":
            if self._in_table_scope(("table",)):
                self._pop_until(("table",))
                self._reset_mode()
        elif name == "template":
            return self._end_template()
        elif name not in _TABLE_END_IGNORED:
            return self._body_end(name)
        return None

    def _end_in_caption(self, name):
        if name == "caption":
            self._close_caption()
        elif name == "table":
            if self._close_caption():
                return self._end(name)
        elif name not in _TABLE_END_IGNORED:
            return self._body_end(name)
        return None

    def _end_in_column_group(self, name):
        if name == "colgroup":
            if self._current_is("colgroup"):
                self.stack.pop()
                self.mode = "in table"
        elif name == "template":
            return self._end_template()
        elif name != "col" and self._current_is("colgroup"):
            self.stack.pop()
            self.mode = "in table"
            return self._end(name)
        return None

    def _end_in_table_body(self, name):
        if name in _TABLE_SECTIONS:
            if self._in_table_scope((name,)):
                self._clear_to(("tbody", "tfoot", "thead", "template", "html"))
                self.stack.pop()
                self.mode = "in table"
        elif name == "table":
            if self._in_table_scope(_TABLE_SECTIONS):
                self._clear_to(("tbody", "tfoot", "thead", "template", "html"))
                self.stack.pop()
                self.mode = "in table"
                return self._end(name)
        elif name in ("body", "caption", "col", "colgroup", "html", "td", "th", "tr"):
            pass
        else:
            return self._end_in_table(name)
        return None

    def _end_in_row(self, name):
        if name == "tr":
            self._close_row()
        elif name == "table":
            if self._close_row():
                return self._end(name)
        elif name in _TABLE_SECTIONS:
            if self._in_table_scope((name,)) and self._close_row():
                return self._end(name)
        elif name in ("body", "caption", "col", "colgroup", "html", "td", "th"):
            pass
        else:
            return self._end_in_table(name)
        return None

    def _end_in_cell(self, name):
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

    def _end_in_template(self, name):
        if name == "template":
            return self._end_template()
        return None

    def _end_after_body(self, name):
        if name == "html":
            self.mode = "after after body"
            return None
        self.mode = "in body"
        return self._body_end(name)

    def _end_after_after_body(self, name):
        self.mode = "in body"
        return self._body_end(name)

    # -- insertion modes: character tokens ----------------------------------------------------------
    def _chars(self, ws, nul, other):
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
        if mode == "in head":
            self.stack.pop()
            self.mode = mode = "after head"
        if mode == "after head":
            self._insert("body")
            self.mode = "in body"
            return self._chars(ws, nul, other)
        if mode == "in column group":
            if self._current_is("colgroup"):
                self.stack.pop()
                self.mode = "in table"
                return self._chars(ws, nul, other)
        return None


_MODES = (
    "initial", "before html", "before head", "in head", "after head", "in body", "in table",
    "in caption", "in column group", "in table body", "in row", "in cell", "in template",
    "after body", "after after body",
)
_START_RULES = {m: getattr(TreeBuilder, "_start_" + m.replace(" ", "_"), TreeBuilder._body_start) for m in _MODES}
_END_RULES = {m: getattr(TreeBuilder, "_end_" + m.replace(" ", "_"), TreeBuilder._body_end) for m in _MODES}
