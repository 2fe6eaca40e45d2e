"""html5lib's tokenizer and tree builder as an oracle for the parser step (tests only).

It records each ``meta`` start tag that html5lib's tree builder processes with the "in head" rules
(where html5lib would call ``changeEncoding``) and applies the current standard's condition to its
attributes (html5lib itself ignores ``http-equiv`` whenever a ``charset`` attribute exists, even
an unusable one; §13.2.6.4.4 falls through to ``http-equiv``). It returns the first one that gets
an encoding, with the offset just past its ">".

Where html5lib 1.1 follows an older standard, the oracle is patched or the documents given to it
avoid the construct:
- ``</p>`` and ``</br>`` in foreign content: current rule (whatwg/html 681c884) patched in.
- ``</br>`` in body acts as a ``br`` start tag, which sets frameset-ok to "not ok"; html5lib
  forgets the flag: patched.
- ``template``: html5lib 1.1 has no template support; ``select``/``option``/``optgroup``: html5lib
  has the "in select" modes that the standard removed in 2025; ``search``, ``dialog`` (start tag),
  ``command``, ``isindex``, ``menuitem``: older element lists. Documents given to the oracle do not
  use these; tests/sniffing/test_parser_scan.py checks them against the standard's text instead.
"""
from __future__ import annotations

import traceback

import html5lib
from html5lib import _tokenizer, _utils, html5parser
from html5lib.constants import namespaces

from scrapy_whatwg_encoding import get_encoding
from scrapy_whatwg_encoding.sniffing.meta_charset import extract_meta_charset
from scrapy_whatwg_encoding.sniffing.parser_scan import PARSER_HEAD

_PHASES = html5parser.getPhases(False)
_HTML_NS = namespaces["html"]


class _Found(Exception):
    pass


def spec_meta_rule(attributes: dict[str, str]):
    """§13.2.6.4.4, "A start tag whose tag name is "meta"", steps on the attributes."""
    charset = attributes.get("charset")
    if charset is not None and get_encoding(charset) is not None:
        return get_encoding(charset), charset.strip("\t\n\x0c\r ")
    http_equiv = attributes.get("http-equiv")
    if (
        http_equiv is not None
        and http_equiv.isascii()
        and http_equiv.lower() == "content-type"
        and "content" in attributes
    ):
        return extract_meta_charset(attributes["content"])
    return None


def _dispatcher(phase, overrides, handler="startTagHandler"):
    base = phase.__dict__[handler]
    dispatcher = _utils.MethodDispatcher(list({**base, **overrides}.items()))
    dispatcher.default = base.default
    return dispatcher


# The insertion modes in which the tree builder is still in the head (PARSER_HEAD's bound).
_HEAD_PHASES = ("initial", "beforeHtml", "beforeHead", "inHead", "inHeadNoscript")


class _Tokenizer(_tokenizer.HTMLTokenizer):
    def tagOpenState(self):
        self.tag_start = self.stream.chunkOffset - 1  # just past the "<" that the data state read
        return super().tagOpenState()


class _InHead(_PHASES["inHead"]):
    def startTagMeta(self, token):
        self.tree.insertElement(token)
        self.tree.openElements.pop()
        token["selfClosingAcknowledged"] = True
        found = spec_meta_rule(token["data"])
        parser = self.parser
        if found is not None:
            # Past the first *head* characters, only in a mode of the head: without templates
            # (which the oracle is not given) the tree builder never comes back to one, so every
            # "<" between was met in one too.
            in_head = any(parser.phase is parser.phases[name] for name in _HEAD_PHASES)
            if parser.head is not None and parser.tokenizer.tag_start >= parser.head and not in_head:
                raise _Found(None)
            raise _Found(found[0], found[1], parser.tokenizer.stream.chunkOffset)

    startTagHandler = _dispatcher(_PHASES["inHead"], {"meta": startTagMeta})


class _InBody(_PHASES["inBody"]):
    def endTagBr(self, token):
        # "act as if this was a "br" start tag token", whose rule sets frameset-ok to "not ok".
        self.parser.framesetOK = False
        return super().endTagBr(token)

    endTagHandler = _dispatcher(_PHASES["inBody"], {"br": endTagBr}, "endTagHandler")


class _InForeignContent(_PHASES["inForeignContent"]):
    def processEndTag(self, token):
        if token["name"] in ("br", "p"):
            parser, elements = self.parser, self.tree.openElements
            while (
                elements[-1].namespace != _HTML_NS
                and not parser.isHTMLIntegrationPoint(elements[-1])
                and not parser.isMathMLTextIntegrationPoint(elements[-1])
            ):
                elements.pop()
            return parser.phase.processEndTag(token)
        return super().processEndTag(token)


class _Parser(html5lib.HTMLParser):
    def _parse(self, stream, innerHTML=False, container="div", scripting=False, **kwargs):
        self.innerHTMLMode = innerHTML
        self.container = container
        self.scripting = scripting
        self.tokenizer = _Tokenizer(stream, parser=self, **kwargs)
        self.tokenizer.stream._defaultChunkSize = len(stream) + 16  # one chunk: offsets are exact
        self.phases["inHead"] = _InHead(self, self.tree)
        self.phases["inBody"] = _InBody(self, self.tree)
        self.phases["inForeignContent"] = _InForeignContent(self, self.tree)
        self.reset()
        self.mainLoop()


def oracle_parser_meta(text: str, head: int | None = PARSER_HEAD):
    """(encoding, label, offset past ">") of the first meta html5lib's tree builder would act on,
    scripting enabled, or None; past the first *head* characters, only while the tree builder is
    in the head (the parser step's bound: docs/algorithm.rst)."""
    # html5lib normalizes CR and CRLF to LF; one LF per CR keeps offsets and tokenization.
    text = text.replace("\r", "\n")
    parser = _Parser(namespaceHTMLElements=True)
    parser.head = head
    try:
        parser.parse(text, scripting=True)
    except _Found as found:
        return None if found.args[0] is None else found.args
    except AssertionError as error:
        # html5lib asserts the fragment case when end of input arrives in some table modes; every
        # token was processed by then, so no meta was acted on.
        if traceback.extract_tb(error.__traceback__)[-1].name != "processEOF":
            raise
    return None
