"""Hand-made variants recorded in headless Firefox ESR and Chromium (issue 27), kept as test data.

    NAV_TIMEOUT=8000 python tools/browser_check/variants.py [--sets meta,untyped] [--tabs 6] [--out tests/data/browsers/variants.json.gz]

Sets of documents:

- ``meta``: every duplicated-attribute variant of a ``<meta>`` (``charset``, ``http-equiv``,
  ``content``, in every order, beside the others), alone, inside ``<noscript>`` (scripting is off:
  markup) and late in ``<head>`` (past byte 1024), each followed by ``<meta charset="iso-8859-5">``
  so that a ``<meta>`` the browser does not read shows as ISO-8859-5, served as ``text/html``;
- ``untyped``: bodies that the MIME Sniffing Standard types as HTML, XML, plain text or binary,
  served with no Content-Type, ``*/*``, ``unknown/unknown``, ``application/unknown``, an
  unparsable value and an empty one;
- ``binary``: untyped text bodies with one binary byte (or ESC) at offsets from 0 to 4096: how far
  each browser looks for binary bytes.

- ``types`` and ``untyped35`` (issue 35, recorded apart: ``--sets types,untyped35 --out
  tests/data/browsers/variants-35.json.gz``): every kind of Content-Type (the text/* family,
  script and JSON types, ``*/*`` with a charset, malformed values, each also with a charset), and
  untyped bodies with an HTML or XML signature after 0 to 1,450 bytes of whitespace, a leading
  form feed or VT, ``<?XML`` in other cases, BOM-less UTF-16 and 7-bit ISO-2022-JP bodies;
  tests/oracles/test_browsers_types.py asserts them; ``mixed`` (recorded after them: ``--sets
  types,untyped35,mixed``), several values and odd charsets, where the two browsers part.

The documents are served by tools/differential/record.py's server and loaded by its
``recorder.mjs`` (``npm install`` in tools/differential), both browsers at once, scripting off
and checked (``NAV_TIMEOUT``, in ms, bounds each load: Firefox downloads ``unknown/unknown``
responses, which never load). The output holds every document (Content-Type, body as latin-1 text) with each
browser's ``document.characterSet`` (``null``: no document, e.g. a download) and the versions;
tests/oracles/test_browsers_variants.py asserts the models and the profile against it.
"""
from __future__ import annotations

import argparse
import gzip
import itertools
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tools" / "differential"))

import record

PAD = "<!--" + "x" * 1100 + "-->"
FALLBACK = '<meta charset="iso-8859-5">'
KOI8 = "text/html; charset=koi8-r"
LATIN2 = "text/html; charset=iso-8859-2"


def _attribute_sets() -> list[list[tuple[str, str]]]:
    """The ``<meta>`` attribute lists: duplicates of each attribute, alone and with the others."""
    sets: list[list[tuple[str, str]]] = []
    values = ("koi8-r", "iso-8859-2", "", "bogus")
    for a, b in itertools.permutations(values, 2):  # charset twice
        sets.append([("charset", a), ("charset", b)])
    sets.append([("charset", "koi8-r"), ("CHARSET", "iso-8859-2")])
    for a, b in itertools.permutations(("content-type", "x", "", "Content-Type "), 2):  # http-equiv twice
        for where in range(3):
            attrs = [("http-equiv", a), ("http-equiv", b)]
            attrs.insert(where, ("content", KOI8))
            sets.append(attrs)
    for a, b in itertools.permutations((KOI8, LATIN2, "text/html", "charset; charset=koi8-r"), 2):  # content twice
        for where in range(3):
            attrs = [("content", a), ("content", b)]
            attrs.insert(where, ("http-equiv", "content-type"))
            sets.append(attrs)
    for value in ("koi8-r", "", "bogus"):  # a charset beside a duplicated http-equiv
        for attrs in itertools.permutations([("charset", value), ("http-equiv", "content-type"),
                                             ("http-equiv", "x"), ("content", LATIN2)]):
            sets.append(list(attrs))
    for attrs in itertools.permutations([("charset", "koi8-r"), ("charset", ""), ("http-equiv", "content-type"),
                                         ("content", LATIN2)]):
        sets.append(list(attrs))
    for attrs in itertools.permutations([("content", KOI8), ("content", "text/html"), ("http-equiv", "content-type"),
                                         ("http-equiv", "x")]):
        sets.append(list(attrs))
    unique, seen = [], set()
    for attrs in sets:
        key = tuple(attrs)
        if key not in seen:
            seen.add(key)
            unique.append(attrs)
    return unique


def meta_documents() -> list[tuple[str, str | None, bytes]]:
    out = []
    for attrs in _attribute_sets():
        tag = "<meta " + " ".join(f'{name}="{value}"' for name, value in attrs) + ">"
        for wrapper in ("{}", "<noscript>{}</noscript>", "<head>" + PAD + "{}"):
            out.append(("meta", "text/html", (wrapper.format(tag) + FALLBACK + "<p>x").encode("ascii")))
    return out


# Bodies for untyped responses: what the MIME Sniffing Standard's rules make of each is in the
# comment; each carries a <meta> (or declaration) naming KOI8-R, so reading it as HTML shows.
_UNTYPED_BODIES = (
    b'<!DOCTYPE><meta charset="koi8-r">',  # issue 27: not "<!DOCTYPE HTML" + a tag-terminating byte
    b'<?xml version="1.0"?><html><meta charset="koi8-r"/></html>',  # issue 27: XML
    b'<?xml version="1.0" encoding="koi8-r"?><a/>',
    b'<?xml version="1.0" encoding="koi8-r"?><html><meta charset="iso-8859-2"/></html>',
    b'<!DOCTYPE html><meta charset="koi8-r">',
    b'<!doctype HTML>\n<meta charset="koi8-r">',
    b'<html><meta charset="koi8-r">',
    b'  \n\t<HTML><meta charset="koi8-r">',
    b'<html5><meta charset="koi8-r">',
    b'<head><meta charset="koi8-r">',
    b'<script></script><meta charset="koi8-r">',
    b'<iframe></iframe><meta charset="koi8-r">',
    b'<h1>x</h1><meta charset="koi8-r">',
    b'<div><meta charset="koi8-r">',
    b'<font><meta charset="koi8-r">',
    b'<table><meta charset="koi8-r">',
    b'<a href=x><meta charset="koi8-r">',
    b'<style></style><meta charset="koi8-r">',
    b'<title>x</title><meta charset="koi8-r">',
    b'<b>x</b><meta charset="koi8-r">',
    b'<body><meta charset="koi8-r">',
    b'<br><meta charset="koi8-r">',
    b'<p>x<meta charset="koi8-r">',
    b'<p/><meta charset="koi8-r">',
    b'<bx><meta charset="koi8-r">',
    b'<!-- x --><meta charset="koi8-r">',
    b'<!--x--><meta charset="koi8-r">',
    b'<meta charset="koi8-r"><p>x',
    b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">',
    b'<link rel=x><meta charset="koi8-r">',
    b'<img src=x><meta charset="koi8-r">',
    b'<span><meta charset="koi8-r">',
    b'<svg><meta charset="koi8-r">',
    b'<base href=x><meta charset="koi8-r">',
    b'x <html><meta charset="koi8-r">',
    b'\xef\xbb\xbf<html><meta charset="koi8-r">',
    b'\xef\xbb\xbf<meta charset="koi8-r">',
    b'\xff\xfe<\x00p\x00>\x00x\x00',
    b'<meta charset="koi8-r">\x00',
    b'\x00\x01<html>',
    b'%PDF-1.4 <meta charset="koi8-r">',
    b'GIF89a<meta charset="koi8-r">',
    b'<p>\xf3\xdf\xc5\xdb\xd8 \xd6\xc5 \xc5\xdd\xa3 \xdc\xd4\xc9\xc8 \xcd\xd1\xc7\xcb\xc9\xc8',  # KOI8-R text
    b'\xf3\xdf\xc5\xdb\xd8 \xd6\xc5 \xc5\xdd\xa3 \xdc\xd4\xc9\xc8 \xcd\xd1\xc7\xcb\xc9\xc8 \xc6\xd2\xc1\xce\xc3\xd5\xda',
    b'<html>\xf3\xdf\xc5\xdb\xd8 \xd6\xc5 \xc5\xdd\xa3 \xdc\xd4\xc9\xc8 \xcd\xd1\xc7\xcb\xc9\xc8',
    b'plain text, no markup',
    b'',
    b'   ',
    b'<p>\x1b$B$"\x1b(B',
    b'<rss version="2.0"><meta charset="koi8-r">',
    b'<!-- ' + PAD.encode() + b' --><html><meta charset="koi8-r">',
    b' ' * 1500 + b'<html><meta charset="koi8-r">',
)
UNTYPED_TYPES = (None, "*/*", "unknown/unknown", "application/unknown", "nonsense", "", "unknown/unknown; charset=koi8-r")


def untyped_documents() -> list[tuple[str, str | None, bytes]]:
    return [("untyped", content_type, body) for body in _UNTYPED_BODIES for content_type in UNTYPED_TYPES]


# Where a byte that the MIME Sniffing Standard calls binary (and ESC, which it does not) lies in an
# untyped body of text, and which bytes each browser reads to tell text from binary (seed 28 of
# tools/differential had binary bytes past byte 1024 of a text body that both browsers showed).
BINARY_OFFSETS = (0, 1, 100, 255, 256, 511, 512, 1023, 1024, 1443, 1444, 1445, 2047, 2048, 4096)
BINARY_BYTES = (b"\x00", b"\x01", b"\x1b")


def binary_documents() -> list[tuple[str, str | None, bytes]]:
    return [("binary", content_type, b"x" * offset + byte + b" plain text" * 40)
            for offset in BINARY_OFFSETS for byte in BINARY_BYTES for content_type in (None, "*/*", "nonsense")]


# Issue 35: how each browser types a response by its Content-Type (the text/* family, script and
# JSON types, */* with a charset, malformed values) and sniffs an untyped body (the signature
# window, "<?XML", a leading form feed, BOM-less UTF-16 XML, 7-bit ISO-2022-JP in plain text).
# Each body tells the kinds apart: HTML reads the <meta> (KOI8-R), XML the declaration
# (ISO-8859-5), plain text the detector (windows-1252 for ASCII), another kind UTF-8; a
# charset parameter that counts names ISO-8859-2.
TYPED_BODIES = (
    b'<?xml version="1.0" encoding="iso-8859-5"?><html><meta charset="koi8-r"/><p>x</p></html>',
    b'<meta charset="koi8-r"><p>x',
)
_TYPES = (
    "text/plain", "text/css", "text/javascript", "text/ecmascript", "text/vnd.wap.wml", "text/markdown",
    "text/x-foo", "text/csv", "text/calendar", "text/rtf", "text/xml", "text/json", "text/xsl",
    "text/vtt", "text/event-stream", "text/x-python", "text/cache-manifest", "text/richtext",
    "text/tab-separated-values", "text/x-c", "text/enriched", "text/directory", "text/sgml",
    "application/javascript", "application/x-javascript", "application/ecmascript", "application/json",
    "application/ld+json", "application/manifest+json", "application/xhtml+xml", "application/xml",
    "application/rss+xml", "image/svg+xml", "application/octet-stream", "application/x-foo",
    "application/pdf", "x/y", "*/*", "text/*", "text/html",
)
_MALFORMED = (
    "text/h tml", "text/", "text/html/x", "text/html x", "text/html, text/plain", "text/plain, text/html",
    "text /html", "te xt/html", "text//html", "text/html/", "/html", "html", "text", "", " ",
    '"text/html"', "text/html,", ",text/html", "text/html, */*", "*/*, text/html", "text/plain, */*",
    "text/html;", "TEXT/HTML", "text/h\ttml", "text/h@ml", "text/ht(ml", "text/plain x",
    "text/plain/x", "text/xml x", "application/xml/x", "text/x-foo x", "text/html, text/x-foo",
    "text/x-foo, text/html", "text/html, nonsense", "nonsense, text/html", "text/html; charset",
)
_CHARSET = "; charset=iso-8859-2"


def type_documents() -> list[tuple[str, str | None, bytes]]:
    values = [*_TYPES, *_MALFORMED]
    values += [value + _CHARSET for value in (*_TYPES, *_MALFORMED) if value.strip()]
    values += ["text/html, text/plain" + _CHARSET, "text/html" + _CHARSET + ", text/plain",
               "text/html" + _CHARSET + ", text/html", "text/plain" + _CHARSET + ", text/html",
               "text/html, */*" + _CHARSET, "*/*" + _CHARSET + ", text/html", "text/html" + _CHARSET + ", */*"]
    return [("types", value, body) for value in values for body in TYPED_BODIES]


_SIGNATURES = (b'<html><meta charset="koi8-r">', b'<?xml version="1.0" encoding="iso-8859-5"?><a/>',
               b'<!-- x --><meta charset="koi8-r">', b'<!DOCTYPE html><meta charset="koi8-r">')
_WINDOW_AT = (0, 1, 400, 500, 505, 508, 510, 511, 512, 513, 520, 600, 1000, 1020, 1023, 1024, 1025, 1440, 1450)
_UTF16_XML = '<a>\u0436</a>'
_JIS = b"\x1b$B$3$s$K$A$O!\"@$3&\x1b(B hello \x1b$B$\"$j$,$H$&\x1b(B"


def untyped35_documents() -> list[tuple[str, str | None, bytes]]:
    out = []
    for signature in _SIGNATURES:
        for at in _WINDOW_AT:
            for ws in (b" ", b"\n", b"\t", b"\r\n"):
                if ws != b" " and at not in (508, 511, 512, 1023, 1024):
                    continue
                out.append(("untyped35", None, (ws * at)[:at] + signature))
    for lead in (b"\x0c", b"\x0c\x0c", b" \x0c", b"\x0c ", b"\n\x0c", b"\x0b", b"\x00"):
        for signature in _SIGNATURES:
            out.append(("untyped35", None, lead + signature))
    for xml in (b"<?XML", b"<?Xml", b"<?xmL", b"<?xml", b"<?XmL"):
        for rest in (b' version="1.0" encoding="iso-8859-5"?><a/>', b' version="1.0"?><html><meta charset="koi8-r"/></html>'):
            out.append(("untyped35", None, xml + rest))
            out.append(("untyped35", None, b"  " + xml + rest))
    for content_type in (None, "text/xml", "application/xml", "text/html", "text/plain"):
        for text in (_UTF16_XML, '<?xml version="1.0"?>' + _UTF16_XML, "<p>\u0436\u0437 text</p>"):
            for codec in ("utf-16-le", "utf-16-be"):
                out.append(("utf16", content_type, text.encode(codec)))
    for content_type in ("text/plain", None, "text/html", "text/x-foo", "text/javascript", "text/plain; charset=bogus"):
        for body in (_JIS, b"<p>" + _JIS, _JIS * 20):
            out.append(("jis", content_type, body))
    return out


# Several values and odd charsets (recorded after "types", appended as set "mixed"): Firefox reads
# the value with Fetch's "extract a MIME type" first (a malformed value after a good one is
# skipped; charset= "x" keeps its quotes), Chromium loosely throughout.
_HTML_ASCII = b'<!doctype html><html><head><Meta\tcharset="ascii" /><title>t</title></head><body>x</body></html>'
_EUC_JP_XML = (b'<?xml version="1.0" encoding="euc-jp"?><html><META http-equiv=\' content-type\' '
               b'content="text/html; charset=euc-jp"  /><p>x</p></html>')
_JIS_TEXT = b'<p>lorem consectetur dolor sit adipiscing adip\x1b$B0!\x1b(Bconsectetur do do elit sed'
_MIXED = (
    ('text/html; charset= "koi8-r"', _HTML_ASCII), ('text/html; charset= "koi8-r"', b"<p>x"),
    ('text/html; charset="koi8-r"', _HTML_ASCII), ("text/html; charset= koi8-r", _HTML_ASCII),
    ('text/plain; charset= "koi8-r"', b"x"), ('text/html (comment); charset= "koi8-r"', b"<p>x"),
    ("text/markdown; charset= 'euc-kr', text/plain; charset=gb18030, text/ht(ml", b"x"),
    ("text/plain; charset=gb18030, text/ht(ml", b"x"), ("text/plain; charset=gb18030, text/ht", b"x"),
    ("text/plain; charset=gb18030, text/html", b"x"), ("text/plain; charset=gb18030, text/x-foo", b"x"),
    ("text/plain; charset=gb18030, text/ht(ml)", b"x"), ("text/plain; charset=gb18030, text/h tml", b"x"),
    ('TEXT/HTML; charset=utf-8, text/plain/x, /html; charset="sjis"', _EUC_JP_XML),
    ('text/html; charset=utf-8, /html; charset="sjis"', b"<p>x"), ("text/html; charset=koi8-r, /html", b"<p>x"),
    ("application/xhtml+xml, text/json; charset=iso-8859-2, text/plain/x", _JIS_TEXT),
    ("text/json; charset=iso-8859-2, text/plain/x", b"x"), ("text/json, text/plain", b"x"),
    ("text/plain; charset=koi8-r, text/json", b"x"),
)


def mixed_documents() -> list[tuple[str, str | None, bytes]]:
    return [("mixed", content_type, body) for content_type, body in _MIXED]


SETS = {"meta": meta_documents, "untyped": untyped_documents, "binary": binary_documents,
        "types": type_documents, "untyped35": untyped35_documents, "mixed": mixed_documents}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="meta,untyped,binary")
    parser.add_argument("--tabs", type=int, default=6)
    parser.add_argument("--browsers", default="firefox,chromium")
    parser.add_argument("--out", default=str(ROOT / "tests" / "data" / "browsers" / "variants.json.gz"))
    args = parser.parse_args(argv)
    documents = [doc for name in args.sets.split(",") for doc in SETS[name]()]
    server = record.serve(0, lambda index: documents[index])
    recorded = record.record_all(args.browsers.split(","), f"http://127.0.0.1:{server.server_address[1]}",
                                 list(range(len(documents))), args.tabs, args.out)
    server.shutdown()
    answers = {browser: found for browser, (found, _) in recorded.items()}
    versions = {browser: checks[-1]["check"]["browser"] for browser, (_, checks) in recorded.items()}
    out = {"browsers": versions, "documents": [
        {"set": family, "content_type": content_type, "body": body.decode("latin-1"),
         **{browser: answers[browser][i] for browser in answers}}
        for i, (family, content_type, body) in enumerate(documents)]}
    data = (json.dumps(out, indent=0, ensure_ascii=True) + "\n").encode("utf-8")
    pathlib.Path(args.out).write_bytes(gzip.compress(data, 9) if args.out.endswith(".gz") else data)
    print(f"{len(documents)} documents, {versions}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
