"""Checks that an HTML report is inert and well-formed: parsed with html5lib (the HTML standard's
parser), it has no parse error, no element that runs or loads anything (script, iframe, object,
embed, base, form, link, meta refresh), no ``on*`` attribute, no ``javascript:`` (or other
non-http(s)) URL, and the Content-Security-Policy ``<meta>`` that forbids scripts."""
from __future__ import annotations

import re

import html5lib

ACTIVE = {"script", "iframe", "frame", "object", "embed", "base", "form", "link", "applet", "foreignObject"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "poster", "srcset"}


def parse(document: str):
    """The html5lib tree (xml.etree) of *document*; asserts html5lib reports no parse error."""
    parser = html5lib.HTMLParser(namespaceHTMLElements=False)
    tree = parser.parse(document)
    assert parser.errors == [], parser.errors[:5]
    return tree


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def assert_inert(document: str):
    """Assert *document* is safe to open (see the module docstring); returns its tree."""
    tree = parse(document)
    metas = [m for m in tree.iter() if local(m.tag) == "meta"]
    csp = [m.get("content", "") for m in metas if m.get("http-equiv", "").lower() == "content-security-policy"]
    assert len(csp) == 1 and "default-src 'none'" in csp[0] and "script-src" not in csp[0], csp
    head = [local(e.tag) for e in tree.find("head")]
    assert head.index("meta") == 0 and head[:2] == ["meta", "meta"], head  # charset, then the CSP
    for element in tree.iter():
        if not isinstance(element.tag, str):  # comments
            continue
        name = local(element.tag)
        assert name not in ACTIVE, name
        assert not (name == "meta" and element.get("http-equiv", "").lower() == "refresh")
        for key, value in element.attrib.items():
            key = local(key)
            assert not key.lower().startswith("on"), (name, key, value)
            assert key.lower() != "style", (name, key)  # no inline style attribute either
            if key.lower() in URL_ATTRIBUTES:
                scheme = re.sub(r"[\x00-\x20]", "", value).split(":", 1)[0].lower()
                assert ":" in value and scheme in ("http", "https"), (name, key, value)
    return tree


def text_of(element) -> str:
    return "".join(element.itertext())


def section(tree, section_id: str):
    found = [e for e in tree.iter() if local(e.tag) == "section" and e.get("id") == section_id]
    assert len(found) == 1, section_id
    return found[0]


def table_rows(element) -> list[list[str]]:
    """Text of the body rows of the tables in *element*, in order."""
    bodies = [e for e in element.iter() if local(e.tag) == "tbody"]
    return [[text_of(cell) for cell in row] for body in bodies for row in body]
