"""A seeded grammar of HTML documents for the browser differential check (issue 18).

``document(seed, index)`` builds one document, ``(family, content_type, body)``, from a random
generator seeded with ``(seed, index)`` only, so any document can be rebuilt on its own and the
recorded answers in tests/data/browsers/ need only the seed. The families:

- ``ct``: Content-Type charset parameters (valid, unknown, quoted, empty, repeated) over metas;
- ``bom``: UTF-8/UTF-16 byte order marks against labels;
- ``xml``: ``<?xml ... encoding=...?>`` declarations at the start of text/html;
- ``prescan``: ``<meta>`` variants in the first 1024 bytes (quoting, duplicated attributes,
  character references, ``charset`` beside ``http-equiv``, ``content`` oddities), after
  comments, processing instructions, bogus tags and raw-text elements;
- ``late``: the same ``<meta>`` variants after byte 1024, in every tree-builder context (head,
  after head, body, table, select, template, svg, math, frameset, noscript, raw text ...);
- ``jis``: unlabeled 7-bit pages with ISO-2022-JP (and other) escape sequences;
- ``kind``: text/plain, XML and other MIME types with the same markup;
- ``detector``: unlabeled non-ASCII text in legacy encodings;
- from seed 27 on (issue 27; seeds below keep their documents): ``untyped``, responses with no
  Content-Type, ``*/*``, ``unknown/unknown``, ``application/unknown`` or an unparsable one, whose
  bodies start the ways the MIME Sniffing Standard's rules and browsers tell apart; and
  ``duplicate``, ``<meta>`` tags with duplicated ``charset``, ``http-equiv`` and ``content``
  attributes in any order, alone, in ``<noscript>`` or in a tree-builder context;
- from seed 35 on (issue 35): ``ctype``, the text/* family, script and JSON types, ``*/*`` with
  a charset and malformed Content-Type values (alone, comma-separated, with a charset), and
  ``sniff``, untyped bodies with a signature after whitespace around bytes 512 and 1024, a
  leading form feed or VT, ``<?XML``, BOM-less UTF-16 XML, 7-bit ISO-2022-JP text, binary bytes
  around bytes 512 and 1024, BOMs, late metas and legacy text.

Only the standard library is used, and only ``random.Random`` methods whose results are fixed
across Python versions (``random``, ``choice``, ``randrange``), so a seed means the same
documents on every supported Python.
"""
from __future__ import annotations

import random

FAMILIES = ("ct", "bom", "xml", "prescan", "late", "jis", "kind", "detector")
_WEIGHTS = (2, 1, 2, 6, 8, 2, 1, 1)
#: The families of seeds from 27 on, and their weights.
FAMILIES_27 = FAMILIES + ("untyped", "duplicate")
_WEIGHTS_27 = _WEIGHTS + (3, 3)
#: The families of seeds from 35 on (issue 35): with ``ctype`` and ``sniff``, over a third of the
#: documents have an odd Content-Type or none.
FAMILIES_35 = FAMILIES_27 + ("ctype", "sniff")
_WEIGHTS_35 = _WEIGHTS_27 + (6, 6)

# Labels: one or two per encoding family, odd spellings, and labels that are no label at all.
LABELS = (
    "utf-8", "UTF-8", " utf8 ", "unicode-1-1-utf-8", "windows-1252", "latin1", "iso-8859-1", "ascii",
    "iso-8859-2", "ISO_8859-2", "koi8-r", "KOI8-U", "windows-1251", "ibm866", "iso-8859-7",
    "iso-8859-8", "iso-8859-8-i", "windows-874", "x-mac-cyrillic", "macintosh",
    "shift_jis", "sjis", "euc-jp", "iso-2022-jp", "gbk", "gb2312", "gb18030", "big5", "euc-kr",
    "utf-16", "utf-16le", "utf-16be", "x-user-defined", "iso-2022-kr", "replacement", "hz-gb-2312",
    "foo", "utf-7", "x-sjis", "\"koi8-r\"", "koi8-r;", "", "utf-32", "latin-2", "cp1252",
)
_GOOD = tuple(label for label in LABELS if label not in
              ("foo", "utf-7", "\"koi8-r\"", "koi8-r;", "", "utf-32", "latin-2", "replacement",
               "utf-16", "utf-16le", "utf-16be", "x-user-defined", "iso-2022-kr", "hz-gb-2312"))

# Tree-builder contexts for a <meta>: (opening markup, closing markup).
CONTEXTS = (
    ("<head>", "</head>"), ("", ""), ("<html>", ""), ("<html><head>", ""),
    ("<head></head>", ""), ("<head></head>\n", ""), ("<body>", ""), ("<p>text ", "</p>"),
    ("<table>", "</table>"), ("<table><tr><td>", "</td></tr></table>"), ("<table><tr>", "</table>"),
    ("<select>", "</select>"), ("<select><option>", "</select>"), ("<template>", "</template>"),
    ("<head><template>", "</template>"), ("<svg>", "</svg>"), ("<math>", "</math>"),
    ("<svg><foreignObject>", "</foreignObject></svg>"), ("<math><mi>", "</mi></math>"),
    ("<frameset>", "</frameset>"), ("<head><noscript>", "</noscript>"), ("<noscript>", "</noscript>"),
    ("<body><noscript>", "</noscript>"), ("<title>", "</title>"), ("<textarea>", "</textarea>"),
    ("<style>", "</style>"), ("<script>", "</script>"), ("<xmp>", "</xmp>"), ("<iframe>", "</iframe>"),
    ("<noembed>", "</noembed>"), ("<noframes>", "</noframes>"), ("<plaintext>", ""),
    ("<!-- ", " -->"), ("<![CDATA[", "]]>"), ("<svg><![CDATA[", "]]></svg>"), ("<colgroup>", ""),
    ("</head><body>", ""), ("<body></body></html>", ""), ("<frameset></frameset>", ""),
    ("<head><title>t</title>", ""), ("<div><object>", "</object></div>"), ("<a>", "</a>"),
    ("<head><style>x</style>", ""), ("<head><script>var a='<!--';</script>", ""),
    ("<script><!--<script>", "</script>"),
)
_WORDS = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do")


def document(seed: int, index: int) -> tuple[str, str | None, bytes]:
    """The document number *index* of *seed*: ``(family, Content-Type header value or None for
    none, body bytes)``."""
    rng = random.Random(seed * 1_000_003 + index)
    family = _weighted(rng, *((FAMILIES, _WEIGHTS) if seed < 27 else (FAMILIES_27, _WEIGHTS_27) if seed < 35
                              else (FAMILIES_35, _WEIGHTS_35)))
    content_type, body = _BUILDERS[family](rng)
    return family, content_type, body


def documents(seed: int, count: int, start: int = 0):
    """``(index, family, content_type, body)`` for documents *start* … *start + count - 1*."""
    for index in range(start, start + count):
        yield (index, *document(seed, index))


def _weighted(rng, items, weights):
    point = rng.random() * sum(weights)
    for item, weight in zip(items, weights):
        point -= weight
        if point < 0:
            return item
    return items[-1]


def _chance(rng, p: float) -> bool:
    return rng.random() < p


def _label(rng, good: float = 0.8) -> str:
    return rng.choice(_GOOD) if _chance(rng, good) else rng.choice(LABELS)


def _ws(rng) -> str:
    return rng.choice(("", "", "", " ", "  ", "\t", "\n", "\x0c", "\r\n"))


def _quote(rng, value: str) -> str:
    q = rng.choice(('"', '"', "'", ""))
    return f"{q}{value}{q}" if q or (value and not any(c in value for c in " \t\n>\"'")) else f'"{value}"'


def _charref(rng, value: str) -> str:
    """*value* with one character written as a character reference."""
    if not value:
        return "&amp;"
    i = rng.randrange(len(value))
    c = value[i]
    ref = rng.choice((f"&#{ord(c)};", f"&#x{ord(c):x};", f"&#X{ord(c):X}", f"&#{ord(c)}"))
    if c == "-" and _chance(rng, 0.3):
        ref = "&dash;"
    return value[:i] + ref + value[i + 1:]


def _content(rng, label: str) -> str:
    """A content attribute value naming *label*, in one of the ways pages (mis)write it."""
    form = rng.randrange(14)
    if form == 0:
        return f"text/html; charset={label}"
    if form == 1:
        return f"text/html;charset={label}"
    if form == 2:
        return f"text/html; charset = {label}"
    if form == 3:
        return f"text/html; charset='{label}'"
    if form == 4:
        return f'text/html; charset="{label}'
    if form == 5:
        return f"charset; charset={label}"
    if form == 6:
        return f"text/html; charsetx={label}"
    if form == 7:
        return f"text/html; charset={label}; charset={_label(rng)}"
    if form == 8:
        return f"text/html; CHARSET={label}"
    if form == 9:
        return f"text/html; foo=charset; charset={label}"
    if form == 10:
        return f"charset {label}"
    if form == 11:
        return f"text/html; charset={label} x"
    if form == 12:
        return f"text/html;charset=\"{label}\";charset={_label(rng)}"
    return f"text/html; charset={_charref(rng, label)}" if _chance(rng, 0.5) else f"{label}"


def meta(rng, label: str | None = None) -> str:
    """A ``<meta>`` start tag asking (or seeming to ask) for *label*."""
    label = _label(rng) if label is None else label
    name = rng.choice(("meta", "meta", "meta", "META", "Meta"))
    sep = rng.choice((" ", " ", "\n", "\t", "/", " /"))
    end = rng.choice((">", ">", ">", "/>", " />", " >"))
    form = rng.randrange(12)
    if form <= 3:
        attrs = f"charset={_quote(rng, label)}"
    elif form <= 6:
        he = rng.choice(("content-type", "Content-Type", "CONTENT-TYPE", " content-type", "content-type ", "refresh"))
        pair = [f"http-equiv={_quote(rng, he)}", f"content={_quote(rng, _content(rng, label))}"]
        if _chance(rng, 0.4):
            pair.reverse()
        attrs = " ".join(pair)
    elif form == 7:  # a failing or valid charset beside http-equiv
        first = rng.choice(("bogus", "", "utf-7", _label(rng)))
        attrs = (f"charset={_quote(rng, first)} http-equiv=content-type "
                 f"content={_quote(rng, _content(rng, label))}")
        if _chance(rng, 0.5):
            attrs = (f"http-equiv=content-type content={_quote(rng, _content(rng, label))} "
                     f"charset={_quote(rng, first)}")
    elif form == 8:  # duplicated attributes
        other = _label(rng)
        attrs = rng.choice((f"charset={label} charset={other}",
                            f"http-equiv=content-type content=\"charset={label}\" content=\"charset={other}\"",
                            f"charset=\"{label}\" CHARSET=\"{other}\""))
    elif form == 9:  # character references in the value
        attrs = f"charset={_quote(rng, _charref(rng, label))}"
    elif form == 10:  # content without http-equiv, or http-equiv without content
        attrs = rng.choice((f"content=\"text/html; charset={label}\"",
                            "http-equiv=content-type", f"name=charset content={label}"))
    else:  # spacing and odd attribute syntax
        attrs = rng.choice((f"charset = {label}", f"charset= \"{label}\"", f"x=\"y\" charset={label}",
                            f"charset{label}", f"a charset={label}", f"charset={label}x"
                            if label else "charset=", f"'x' charset={label}"))
    return f"<{name}{sep}{attrs}{_ws(rng)}{end}"


def _text(rng, n: int) -> str:
    out = []
    size = 0
    while size < n:
        word = rng.choice(_WORDS)
        out.append(word)
        size += len(word) + 1
    return " ".join(out)[:n]


def _pad(rng, n: int) -> str:
    """About *n* bytes of ASCII filler that the prescan and the tree builder pass over."""
    if n <= 0:
        return ""
    kind = rng.randrange(5)
    if kind == 0:
        return f"<!-- {_text(rng, max(n - 9, 0))} -->"
    if kind == 1:
        return " " * n
    if kind == 2:
        return f"<script>{_text(rng, max(n - 17, 0))}</script>"
    if kind == 3:
        return f"<style>{_text(rng, max(n - 15, 0))}</style>"
    return f"<link rel=x href=\"{_text(rng, max(n - 20, 0))}\">"


def _junk(rng) -> str:
    """Markup before a meta that the prescan and the tokenizer read differently."""
    return rng.choice((
        "<!-- <meta charset=koi8-r> -->", "<!--> <p>", "<!---> x", "<!-- a -- b -->", "<? pi ?>",
        "<!doctype html>", "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\">", "<p title=\">\">",
        "<p title='<meta charset=koi8-r>'>", "</p foo=\">\">", "<a <meta charset=koi8-r>>",
        "<title>x</title>", "<script>document.write('x')</script>", "<style>p{}</style>",
        "<textarea><meta charset=koi8-r></textarea>", "<xmp><meta charset=koi8-r></xmp>",
        "<noscript><meta charset=koi8-r></noscript>", "<title><meta charset=koi8-r></title>",
        "<script><meta charset=koi8-r></script>", "<iframe><meta charset=koi8-r></iframe>",
        "<noembed><meta charset=koi8-r></noembed>", "<noframes><meta charset=koi8-r></noframes>",
        "<style><meta charset=koi8-r></style>", "<!--[if IE]><meta charset=koi8-r><![endif]-->",
        "<base href=/>", "<link rel=stylesheet href=a.css>", "<div>", "<svg><title><meta charset=koi8-r></title></svg>",
        "<template><meta charset=koi8-r></template>", "</ p>", "<3", "< meta charset=koi8-r>",
        "<metacharset=koi8-r>", "<meta/charset=koi8-r/>", "",
    ))


def _ct(rng):
    """Content-Type charsets over metas."""
    value = rng.choice(("text/html; charset={}", "text/html;charset={}", "text/html; charset=\"{}\"",
                        "text/html; charset='{}'", "text/html; charset={}; charset=koi8-r",
                        "text/html; charset=\"{}", "TEXT/HTML; CHARSET={}", "text/html; foo=\"a;charset=b\"; charset={}",
                        "text/html;charset={};x", "text/html; charset= {}", "text/html ; charset={}"))
    body = f"<!doctype html><html><head>{meta(rng) if _chance(rng, 0.7) else ''}<title>t</title></head><body>x</body></html>"
    return value.format(_label(rng, 0.6)), body.encode("ascii")


def _bom(rng):
    bom, codec = rng.choice(((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
                             (b"\xef\xbb", "utf-8"), (b"\xff\xfe\x00\x00", "utf-16-le")))
    ct = "text/html" if _chance(rng, 0.5) else f"text/html; charset={_label(rng)}"
    markup = f"<html><head>{meta(rng) if _chance(rng, 0.6) else ''}</head><body>x \u00e9\u4e2d</body></html>"
    if _chance(rng, 0.3):
        markup = f"<?xml version=\"1.0\" encoding=\"{_label(rng)}\"?>" + markup
    encode = codec if _chance(rng, 0.8) else rng.choice(("utf-8", "utf-16-le", "utf-16-be"))
    return ct, bom + markup.encode(encode, "xmlcharrefreplace")


def _xml(rng):
    quote = rng.choice(('"', "'", '"', ""))
    label = _label(rng, 0.6)
    decl = rng.choice((
        f"<?xml version=\"1.0\" encoding={quote}{label}{quote}?>",
        f"<?xml version='1.0' encoding = {quote}{label}{quote} ?>",
        f"<?xml encoding={quote}{label}{quote}?>",
        f"<?xml version=\"1.0\" encoding={quote}{label}{quote}",
        f"<?XML version=\"1.0\" encoding={quote}{label}{quote}?>",
        "<?xml  version=\"1.0\"?>", f"<?xml version=\"1.0\" standalone=\"yes\" encoding=\"{label}\"?>",
        f" <?xml version=\"1.0\" encoding=\"{label}\"?>",
        f"<?xml version=\"1.0\" encoding=\"{label}\"" + " " * rng.randrange(900, 1200) + "?>",
    ))
    rest = ""
    if _chance(rng, 0.5):
        rest = _place(rng, meta(rng), rng.choice((0, 100, 1100, 2000)))
    ct = "text/html" if _chance(rng, 0.85) else f"text/html; charset={_label(rng)}"
    return ct, (decl + "\n<html>" + rest + "<body>x</body></html>").encode("latin-1")


def _place(rng, markup: str, at: int, context=None) -> str:
    """*markup* in a tree-builder context, after filler that ends about *at* bytes in."""
    opening, closing = context if context is not None else rng.choice(CONTEXTS)
    head = _junk(rng) if _chance(rng, 0.5) else ""
    if _chance(rng, 0.2):
        head = "<!doctype html>" + head
    filler = _pad(rng, at - len(head) - len(opening))
    if _chance(rng, 0.5):  # filler inside the context instead of before it
        return head + opening + filler + markup + closing
    return head + filler + opening + markup + closing


def _prescan(rng):
    metas = [meta(rng) for _ in range(1 if _chance(rng, 0.7) else 2)]
    parts = []
    for m in metas:
        if _chance(rng, 0.6):
            parts.append(_junk(rng))
        parts.append(m if _chance(rng, 0.6) else _place(rng, m, rng.randrange(0, 900)))
    body = "".join(parts) + "<p>" + _text(rng, rng.randrange(10, 200))
    return "text/html", body.encode("ascii", "xmlcharrefreplace")


def _late(rng):
    at = rng.choice((rng.randrange(900, 1100), rng.randrange(1000, 1030), rng.randrange(1100, 3000),
                     rng.randrange(3000, 9000)))
    context = rng.choice(CONTEXTS)
    head = ""
    if _chance(rng, 0.25):  # an early meta that fails or names another encoding
        head = meta(rng, rng.choice(("bogus", "replacement", "x-user-defined", _label(rng))))
    if _chance(rng, 0.15):
        head = f"<?xml version=\"1.0\" encoding=\"{rng.choice(('iso-2022-kr', 'utf-16', 'koi8-r', 'bogus'))}\"?>" + head
    body = head + _place(rng, meta(rng), at, context)
    if _chance(rng, 0.3):
        body += _place(rng, meta(rng), rng.randrange(0, 1500))
    body += "<p>" + _text(rng, rng.randrange(0, 100))
    ct = "text/html" if _chance(rng, 0.95) else f"text/html; charset={rng.choice(('bogus', ''))}"
    return ct, body.encode("ascii", "xmlcharrefreplace")


def _jis(rng):
    escapes = (b"\x1b(B", b"\x1b(J", b"\x1b$B", b"\x1b$@", b"\x1b(I", b"\x1b$)C", b"\x1b$A", b"\x1b(",
               b"\x1b$", b"\x1b", b"\x1b(D", b"\x1b$(D")
    jis = (b"\x24\x22", b"\x30\x21", b"\x46\x7c\x4b\x5c", b"\x21\x21", b"\x7f\x7f", b"\x24\x22\x24\x24\x24\x26")
    parts = [b"<p>", _text(rng, rng.randrange(0, 60)).encode()]
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(5)
        if kind == 0:
            parts.append(rng.choice(escapes))
        elif kind == 1:
            parts += [b"\x1b$B", rng.choice(jis), b"\x1b(B"]
        elif kind == 2:
            parts += [rng.choice((b"\x1b$B", b"\x1b$@")), rng.choice(jis), rng.choice((b"", b"\x1b(B", b"\x1b(J"))]
        elif kind == 3:
            parts += [b"\x1b(I", rng.choice((b"\x31\x32", b"\x21")), b"\x1b(B"]
        else:
            parts.append(b"\x1b(B" * rng.randrange(1, 3))
        parts.append(_text(rng, rng.randrange(0, 40)).encode())
    if _chance(rng, 0.2):
        parts.append(b"\xe9" if _chance(rng, 0.5) else b"\xe3\x81\x82")
    if _chance(rng, 0.15):
        parts.insert(0, meta(rng).encode("latin-1"))
    return "text/html", b"".join(parts)


def _kind(rng):
    ct = rng.choice(("text/plain", "text/plain; charset={}", "application/xml", "text/xml; charset={}",
                     "application/xhtml+xml", "image/svg+xml", "text/css",
                     "text/html; x=y", "text/html;", "TEXT/HTML"))
    body = f"{meta(rng)}<p>x</p>"
    if "xml" in ct and _chance(rng, 0.7):
        body = f"<?xml version=\"1.0\" encoding=\"{_label(rng)}\"?><html xmlns=\"http://www.w3.org/1999/xhtml\">{meta(rng)}</html>"
    return ct.format(_label(rng)), body.encode("ascii", "xmlcharrefreplace")


_SAMPLES = {
    "windows-1252": "Café déjà vu, naïve façade, über Straße",
    "windows-1251": "Съешь же ещё этих мягких французских булок",
    "KOI8-R": "Съешь же ещё этих мягких французских булок",
    "Shift_JIS": "いろはにほへと ちりぬるを 日本語のテキストです",
    "EUC-JP": "いろはにほへと ちりぬるを 日本語のテキストです",
    "GBK": "我能吞下玻璃而不伤身体，中文文本",
    "Big5": "我能吞下玻璃而不傷身體，中文文本",
    "EUC-KR": "나는 유리를 먹을 수 있어요 한국어",
    "windows-1250": "Příliš žluťoučký kůň úpěl ďábelské ódy",
    "ISO-8859-7": "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία",
    "UTF-8": "Ünïcödé 日本語 текст",
}


def _detector(rng):
    name = rng.choice(tuple(_SAMPLES))
    text = " ".join(_SAMPLES[name] for _ in range(rng.randrange(1, 6)))
    data = text.encode({"GBK": "gbk", "Big5": "big5", "KOI8-R": "koi8-r"}.get(name, name.lower().replace("_", "-")
                       .replace("windows-", "cp")), "xmlcharrefreplace")
    markup = b"<p>" + data + b"</p>"
    if _chance(rng, 0.3):
        markup = meta(rng).encode("latin-1") + markup
    return "text/html", markup


# How untyped bodies start: the MIME Sniffing Standard's HTML patterns with and without a
# tag-terminating byte, Chromium's looser prefixes, XML, other tags, text, a BOM, binary bytes.
_UNTYPED_STARTS = (
    "<!DOCTYPE html>", "<!doctype HTML>", "<!DOCTYPE>", "<!DOCTYPE html5>", "<html>", "<HTML>", "<html5>",
    "<head>", "<script></script>", "<iframe></iframe>", "<h1>x</h1>", "<div>", "<font>", "<table>", "<a href=x>",
    "<style></style>", "<title>t</title>", "<b>x</b>", "<body>", "<br>", "<p>", "<p/>", "<bx>", "<base href=x>",
    "<!-- x -->", "<!--x-->", "<!---->", "<?xml version=\"1.0\"?>", "<link rel=x>", "<img src=x>", "<span>",
    "<svg>", "<rss version=\"2.0\">", "<meta name=x>", "", "text ", "x <html>", "\ufeff", "<?php ?>",
)
_UNTYPED_TYPES = (None, None, None, "*/*", "unknown/unknown", "application/unknown", "nonsense", "", "text")


def _untyped(rng):
    """A response without a usable MIME type."""
    start = rng.choice(_UNTYPED_STARTS)
    if start == "<?xml version=\"1.0\"?>" and _chance(rng, 0.5):
        start = f"<?xml version=\"1.0\" encoding=\"{_label(rng)}\"?>"
    body = rng.choice(("", "", " ", "\n", "  \t\r\n")) + start
    if _chance(rng, 0.8):
        body += meta(rng) if _chance(rng, 0.6) else _place(rng, meta(rng), rng.choice((0, 200, 1100)))
    body += "<p>" + _text(rng, rng.randrange(0, 200))
    data = body.encode("utf-8" if start == "\ufeff" else "latin-1", "xmlcharrefreplace")
    if _chance(rng, 0.15):
        data += _detector(rng)[1]
    if _chance(rng, 0.03):
        data += b"\x00\x01"
    return rng.choice(_UNTYPED_TYPES), data


def _duplicate(rng):
    """A <meta> with duplicated attributes, in any order."""
    label, other = _label(rng), _label(rng)
    pool = [("charset", label), ("charset", rng.choice((other, "", "bogus"))),
            ("http-equiv", rng.choice(("content-type", "Content-Type"))),
            ("http-equiv", rng.choice(("x", "", "refresh", "content-type "))),
            ("content", _content(rng, label)), ("content", rng.choice(("text/html", _content(rng, other))))]
    while True:
        attrs = [item for item in pool if _chance(rng, 0.5)]
        names = [name for name, _ in attrs]
        if len(names) != len(set(names)):
            break
    order = sorted(range(len(attrs)), key=lambda _: rng.random())
    tag = "<meta " + " ".join(f"{attrs[k][0]}={_quote(rng, attrs[k][1])}" for k in order) + ">"
    where = rng.randrange(4)
    if where == 0:
        body = tag
    elif where == 1:
        body = f"<noscript>{tag}</noscript>"
    elif where == 2:
        body = _place(rng, tag, rng.randrange(0, 900))
    else:
        body = _place(rng, tag, rng.randrange(1000, 2000), rng.choice(CONTEXTS[:6]))
    if _chance(rng, 0.5):
        body += meta(rng)
    return "text/html", (body + "<p>x").encode("ascii", "xmlcharrefreplace")


# Issue 35: Content-Type values as servers send them, well-formed and not.
_CTYPE_TYPES = (
    "text/html", "text/plain", "text/css", "text/javascript", "text/ecmascript", "text/vnd.wap.wml", "text/markdown",
    "text/x-foo", "text/csv", "text/calendar", "text/rtf", "text/xml", "text/json", "text/xsl", "text/vtt",
    "text/x-python", "text/richtext", "text/tab-separated-values", "text/directory", "text/sgml", "text/*",
    "application/javascript", "application/x-javascript", "application/ecmascript", "application/json",
    "application/ld+json", "application/xhtml+xml", "application/xml", "application/rss+xml", "image/svg+xml",
    "application/octet-stream", "application/x-foo", "x/y", "*/*",
)
_CTYPE_MALFORMED = (
    "text/h tml", "text/", "text/html/x", "text/html x", "text /html", "te xt/html", "text//html", "text/html/",
    "/html", "html", "text", "", " ", '"text/html"', "text/html,", ",text/html", "TEXT/HTML", "text/h\tml",
    "text/h@ml", "text/ht(ml", "text/plain x", "text/plain/x", "text/xml x", "text/x-foo x", "text/html;",
    "text/html (comment)", "text/html;;", "text/html; charset",
)


def _ctype_value(rng) -> str:
    value = rng.choice(_CTYPE_TYPES if _chance(rng, 0.5) else _CTYPE_MALFORMED)
    if value.strip() and _chance(rng, 0.5):
        value += "; charset=" + rng.choice((_label(rng), " " + _quote(rng, _label(rng)), _quote(rng, _label(rng))))
    return value


def _ctype(rng):
    """A Content-Type of the text/* family, a script or JSON type, */* with a charset, or a
    malformed value (spaces inside, empty subtype, extra slashes, trailing junk), alone or with
    others comma-separated, over bodies each kind of document reads apart."""
    value = _ctype_value(rng)
    if _chance(rng, 0.25):
        value = ", ".join([value] + [_ctype_value(rng) for _ in range(rng.randrange(1, 3))])
    shape = rng.randrange(5)
    if shape == 0:
        body = f"<?xml version=\"1.0\" encoding=\"{_label(rng)}\"?><html>{meta(rng)}<p>x</p></html>"
    elif shape == 1:
        body = meta(rng) + "<p>" + _text(rng, rng.randrange(0, 100))
    elif shape == 2:
        return value, _detector(rng)[1]
    elif shape == 3:
        return value, _jis(rng)[1]
    else:
        body = _place(rng, meta(rng), rng.choice((0, 300, 1100)))
    return value, body.encode("ascii", "xmlcharrefreplace")


# Issue 35: untyped bodies where the browsers' sniffers part from the standard's rules.
_SIGNATURES = ("<html>", "<!DOCTYPE html>", "<!-- x -->", "<?xml version=\"1.0\"?>", "<?XML version=\"1.0\"?>",
               "<?Xml version=\"1.0\"?>", "<p>", "<bx>", "<head>", "<script></script>", "")


def _sniff(rng):
    """An untyped response: a signature after 0 to 1,100 bytes of whitespace (around 512 and
    1024 most), a leading form feed or VT, ``<?XML``, BOM-less UTF-16 XML, 7-bit ISO-2022-JP text,
    binary bytes around bytes 512 and 1024, a BOM, an XML declaration, a late <meta>, unlabeled
    legacy text."""
    shape = rng.randrange(6)
    content_type = rng.choice(_UNTYPED_TYPES)
    if shape == 0:  # 7-bit ISO-2022-JP or BOM-less UTF-16
        if _chance(rng, 0.5):
            data = _jis(rng)[1]
            return rng.choice((None, None, "text/plain", "*/*")), data[3:] if _chance(rng, 0.5) else data
        text = rng.choice(("<a>\u0436</a>", "<?xml version=\"1.0\"?><a>\u0436</a>", "<p>\u0436 text</p>"))
        return rng.choice((None, "text/xml", "application/xml", "text/html")), \
            text.encode(rng.choice(("utf-16-le", "utf-16-be")))
    around = rng.choice((rng.randrange(0, 1100), rng.randrange(490, 530), rng.randrange(1000, 1040), 0))
    lead = rng.choice(("\x0c", "\x0b", " \x0c", "")) if _chance(rng, 0.2) else ""
    ws = "".join(rng.choice((" ", " ", "\n", "\t", "\r\n")) for _ in range(around))[:around]
    signature = rng.choice(_SIGNATURES)
    if "xml" in signature.lower() and _chance(rng, 0.5):
        signature = signature.replace("?>", f" encoding=\"{_label(rng)}\"?>")
    body = lead + ws + signature
    if _chance(rng, 0.7):
        body += meta(rng) if _chance(rng, 0.6) else _place(rng, meta(rng), rng.choice((200, 1100)))
    body += "<p>" + _text(rng, rng.randrange(0, 100))
    data = body.encode("latin-1", "xmlcharrefreplace")
    if shape == 1:  # a binary byte near where the browsers stop looking
        at = rng.choice((rng.randrange(500, 530), rng.randrange(1010, 1040), rng.randrange(0, 2000)))
        data = (data + b" text" * 400)[:at] + rng.choice((b"\x00", b"\x01", b"\x0b", b"\x1b")) + data[at:at + 200]
    elif shape == 2:
        data = rng.choice((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) + data
    elif shape == 3:
        data += _detector(rng)[1]
    return content_type, data


_BUILDERS = {"ct": _ct, "bom": _bom, "xml": _xml, "prescan": _prescan, "late": _late, "jis": _jis,
             "kind": _kind, "detector": _detector, "untyped": _untyped, "duplicate": _duplicate,
             "ctype": _ctype, "sniff": _sniff}
