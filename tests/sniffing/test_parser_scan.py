"""The parser step: which ``meta`` the HTML tree builder hands to "change the encoding"
(HTML §13.2.3.4, §13.2.6.4.4), checked against the standard's text and against html5lib's
tokenizer and tree builder (tests/_html5lib_oracle.py) on generated documents."""
from __future__ import annotations

import importlib
import json
import pathlib

import pytest
from _html5lib_oracle import oracle_parser_meta
from cases import corpus_cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS, get_encoding
from scrapy_whatwg_encoding.sniffing import parser_scan
from scrapy_whatwg_encoding.sniffing._html.tokenizer import TAG
from scrapy_whatwg_encoding.sniffing.parser_scan import PARSER_HEAD, find_parser_meta, scan_parser_meta

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
BIG = 1 << 30


def found(text, limit=BIG):
    result = find_parser_meta(text, limit)
    return None if result is None else (result[0].name, result[1], result[2])


def name(text, limit=BIG, head=PARSER_HEAD):
    result = find_parser_meta(text, limit, head)
    return None if result is None else result[0].name


# -- the standard's rules, case by case ---------------------------------------------------------
@pytest.mark.parametrize(
    "html, expected",
    [
        ('<meta charset="koi8-r">', ("KOI8-R", "koi8-r", 0)),
        ('<p>x<meta charset=" KOI8-R ">', ("KOI8-R", "KOI8-R", 4)),  # in body -> in head rules
        ('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', ("KOI8-R", "koi8-r", 0)),
        ('<meta content="text/html; charset=koi8-r" http-equiv="CONTENT-TYPE">', ("KOI8-R", "koi8-r", 0)),
        ('<meta content="text/html; charset=koi8-r">', None),  # no http-equiv
        ('<meta http-equiv="refresh" content="charset=koi8-r">', None),
        ('<meta charset="windows-1251" charset="koi8-r">', ("windows-1251", "windows-1251", 0)),
        ('<META CHARSET=koi8-r>', ("KOI8-R", "koi8-r", 0)),
        ("<meta/charset=koi8-r/>", None),  # unquoted value "koi8-r/" is no label
        ("<meta/charset='koi8-r'/>", ("KOI8-R", "koi8-r", 0)),
        ('<meta charset="koi8-r"/>', ("KOI8-R", "koi8-r", 0)),
        # An unusable charset falls through to http-equiv (html5lib does not).
        ('<meta charset="bogus" http-equiv="content-type" content="charset=koi8-r">', ("KOI8-R", "koi8-r", 0)),
        # Metas with no usable label are skipped.
        ('<meta charset="bogus"><meta name=x><meta charset="big5">', ("Big5", "big5", 35)),
        ('<meta charset="utf-16">', ("UTF-16LE", "utf-16", 0)),  # the caller maps UTF-16 to UTF-8
        ('<meta charset="x-user-defined">', ("x-user-defined", "x-user-defined", 0)),
    ],
)
def test_meta_attributes(html, expected):
    assert found(html) == expected


@pytest.mark.parametrize(
    "html, expected",
    [
        # Character references in attribute values (§13.2.5.72-80).
        ('<meta charset="&#x6b;oi8-r">', "KOI8-R"),
        ("<meta charset=&#107;oi8&#45r>", "KOI8-R"),  # missing ";" in a numeric reference
        ('<meta http-equiv="content-type" content="text/html;&#32;ch&#97;rset=koi8-r">', "KOI8-R"),
        ('<meta charset="koi8&#x2D;r">', "KOI8-R"),
        ('<meta charset="koi8&hyphen;r">', None),  # U+2010, not "-"
        ('<meta http-equiv=content-type content="charset=&quot;koi8-r&quot;">', "KOI8-R"),
        # A named reference without ";" followed by an alphanumeric stays literal in attributes.
        ('<meta http-equiv=content-type content="charset=&quotkoi8-r&quot">', None),
        ('<meta http-equiv=content-type content="charset=&quot;koi8-r&quot">', "KOI8-R"),
        ('<meta charset="&#x6b;oi8-r&#0;">', None),  # U+0000 -> U+FFFD
        ('<meta charset="shift&lowbar;jis">', "Shift_JIS"),
    ],
)
def test_character_references(html, expected):
    assert name(html) == expected


@pytest.mark.parametrize(
    "html",
    [
        "<!-- <meta charset=koi8-r> -->",
        "<!--> <meta charset=big5>",  # abrupt comment end: the meta is outside
        "<!-- --!> <meta charset=big5>",
        "<! <meta charset=koi8-r> --> <meta charset=big5>",  # bogus comment ends at the first ">"
        "<? <meta charset=koi8-r> ?> <meta charset=big5>",
        "</ <meta charset=koi8-r> > <meta charset=big5>",
        "<![CDATA[ <meta charset=koi8-r> ]]> <meta charset=big5>",  # bogus comment in HTML content
        "<title><meta charset=koi8-r></title><meta charset=big5>",
        "<textarea><meta charset=koi8-r></textarea><meta charset=big5>",
        "<style><meta charset=koi8-r></style><meta charset=big5>",
        "<xmp><meta charset=koi8-r></xmp><meta charset=big5>",
        "<iframe><meta charset=koi8-r></iframe><meta charset=big5>",
        "<noembed><meta charset=koi8-r></noembed><meta charset=big5>",
        "<noframes><meta charset=koi8-r></noframes><meta charset=big5>",
        "<noscript><meta charset=koi8-r></noscript><meta charset=big5>",  # scripting enabled
        "<head><noscript><meta charset=koi8-r></noscript></head><meta charset=big5>",
        "<script><meta charset=koi8-r></script><meta charset=big5>",
        "<script><!--<script></script><meta charset=koi8-r></script>--></script><meta charset=big5>",
        "<title></titlex><meta charset=koi8-r></title ><meta charset=big5>",
        '<title></title a=">"<meta charset=koi8-r>"><meta charset=big5>',
        '<p title="<meta charset=koi8-r>"><meta charset=big5>',
        "<math><![CDATA[<meta charset=koi8-r>]]></math><meta charset=big5>",
        "<svg><desc><style><meta charset=koi8-r></style></desc></svg><meta charset=big5>",
    ],
)
def test_not_a_meta_for_the_tree_builder(html):
    assert name(html) == ("Big5" if "big5" in html else None)


@pytest.mark.parametrize(
    "html",
    [
        "<script><!--</script><meta charset=koi8-r>",  # "</script>" ends even escaped script data
        "<script><!--<script>--></script><meta charset=koi8-r>",  # "-->" leaves double escaping
        "<svg><style><meta charset=koi8-r>",  # style in SVG is not raw text; meta breaks out
        "<svg><title><meta charset=koi8-r>",  # an HTML integration point: "in body" rules
        "<math><mi><meta charset=koi8-r>",
        "<svg><![CDATA[x]]><meta charset=koi8-r>",
        "<table><meta charset=koi8-r>",  # foster parented, "in body", "in head" rules
        "<table><tr><td><meta charset=koi8-r>",
        "<table><caption><meta charset=koi8-r>",
        "<table><colgroup><meta charset=koi8-r>",
        "<html><body></body></html><meta charset=koi8-r>",  # after after body -> in body
        "x<frameset><meta charset=koi8-r>",  # text made frameset-ok "not ok": frameset ignored
        "<pre><frameset><meta charset=koi8-r>",  # so does <pre>
        "<meta charset=koi8-r><frameset>",
        # The current standard has no "in select" mode: meta goes through "in body".
        "<select><meta charset=koi8-r></select>",
        "<select><option><meta charset=koi8-r>",
        # "in template" processes meta with the "in head" rules, which change the encoding.
        "<template><meta charset=koi8-r></template>",
        "<head><template><table><meta charset=koi8-r>",
        "<template><col></template><meta charset=koi8-r>",
    ],
)
def test_is_a_meta_for_the_tree_builder(html):
    assert name(html) == "KOI8-R"


@pytest.mark.parametrize(
    "html",
    [
        "<frameset><meta charset=koi8-r>",  # "in frameset": ignored
        "<div><frameset><meta charset=koi8-r>",  # div keeps frameset-ok: frameset replaces body
        "<frameset></frameset><meta charset=koi8-r>",  # after frameset: ignored
        "<plaintext><meta charset=koi8-r>",
        # "in column group" inside a template with current node not colgroup: ignored.
        "<template><col><meta charset=koi8-r></template>",
        '<meta charset="koi8-r',  # end of input inside the tag: never emitted
        "<meta charset=koi8-r",
        "<!-- <meta charset=koi8-r>",  # end of input in a comment
        "<p><frameset><meta charset=koi8-r>",  # <p> leaves frameset-ok "ok"
    ],
)
def test_never_processed(html):
    assert name(html) is None


@pytest.mark.parametrize(
    "html, expected",
    [
        # "in template" -> "in head" rules for meta (§13.2.6.4.18), nested and inside table modes.
        ("<template><template><meta charset=koi8-r>", "KOI8-R"),
        ("<template><tr><td><meta charset=koi8-r>", "KOI8-R"),
        ("<template><caption><meta charset=koi8-r>", "KOI8-R"),
        ("<table><template><meta charset=koi8-r>", "KOI8-R"),
        # "in column group" with a template as current node ignores everything but col/template.
        ("<template><col><style><meta charset=koi8-r></style>", None),
        ("<template><col><template></template><meta charset=koi8-r>", None),
        ("<template><col><template><meta charset=koi8-r>", "KOI8-R"),
        ("<template><col></template><title><meta charset=koi8-r></title><meta charset=big5>", "Big5"),
        # A frameset inside a template is ignored (the second element is not body).
        ("<template><frameset></template><meta charset=koi8-r>", "KOI8-R"),
        # Raw text inside template contents is still raw text.
        ("<template><script><meta charset=koi8-r></script></template><meta charset=big5>", "Big5"),
        # Foreign content inside a template, closed by </template>.
        ("<template><svg></template><style><meta charset=koi8-r></style><meta charset=big5>", "Big5"),
        ("<template><svg><style><meta charset=koi8-r>", "KOI8-R"),
    ],
)
def test_template_contents(html, expected):
    assert name(html) == expected


def test_search_closes_p_like_other_blocks():
    # <search> (2023) is in the "close a p element" list and special: </span> stops at it.
    assert name("<span><search><svg></span><style><meta charset=koi8-r>") == "KOI8-R"
    assert name("<span><div2><svg></span><style><meta charset=koi8-r></style>") is None


def test_adversarial_nesting_is_bounded_and_still_exact_without_foreign_content():
    deep = "<p><button>" + "<span>x" * 400 + "<div>x" * 3000
    assert name(deep + "<style><meta charset=koi8-r></style><meta charset=big5>", head=None) == "Big5"
    fonts = "".join(f"<font size={i}>" for i in range(600))
    assert name(fonts + "<title><meta charset=koi8-r></title><meta charset=big5>", head=None) == "Big5"


def test_select_is_not_a_special_mode():
    # Old "in select" rules ignored <style> there, so its content was parsed as markup; now
    # <style> inside <select> is raw text as anywhere in body.
    assert name("<select><style><meta charset=koi8-r></style><meta charset=big5>") == "Big5"
    # A nested select start tag closes the open one (pop until select).
    assert name("<select><select><textarea><meta charset=koi8-r></textarea><meta charset=big5>") == "Big5"


def test_quirks_mode_keeps_p_open_around_table():
    # Quirks mode: <table> does not close <p>, so the later </span> meets the special <p> and is
    # ignored: the svg stays open and <style> is an SVG element (meta breaks out).
    quirks = "<span><p><table></table><svg></span><style><meta charset=koi8-r></style>"
    assert name(quirks) == "KOI8-R"
    assert name("<!DOCTYPE html>" + quirks) is None
    assert name('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN">' + quirks) == "KOI8-R"


def test_offsets_and_limit():
    html = "<!doctype html><head><title>x</title>\n<meta charset=koi8-r></head>"
    start = html.index("<meta")
    assert find_parser_meta(html, BIG)[2] == start
    end = scan_parser_meta(html, BIG)[3]
    assert html[end - 1] == ">" and html[start:end] == "<meta charset=koi8-r>"
    assert find_parser_meta(html, end) is not None  # the whole tag is within the limit
    assert find_parser_meta(html, end - 1) is None  # end of input inside the tag
    assert find_parser_meta(html, 0) is None
    # Only the first limit characters are looked at, the rest is as if absent.
    assert name("<!--" + "x" * 100 + "--><meta charset=koi8-r>", 50) is None


def test_first_of_many():
    metas = "".join(f"<meta charset=x{i}>" for i in range(50)) + "<meta charset=big5><meta charset=koi8-r>"
    assert name("<!doctype html>" + metas) == "Big5"


# -- against html5lib's tree builder --------------------------------------------------------------
_LABELS = ["koi8-r", "big5", "windows-1251", "shift_jis", "bogus", "", " utf-8 ", "x-user-defined"]
_NAMES = (
    "html head body title script style textarea xmp iframe noembed noframes noscript plaintext "
    "table caption colgroup col tbody thead tfoot tr td th p div span b i a nobr li ul ol dd dl dt "
    "pre listing form frameset frame svg math foreignObject desc mi mtext annotation-xml font br "
    "img hr button object applet marquee h1 h2 em code u s small strike strong tt big center "
    "address article section main nav aside header footer figure figcaption details summary image "
    "embed wbr area input param source track rb rt rp rtc ruby sub sup var base link malignmark "
    "mglyph g path circle foo x-y"
).split()


def _attr_value():
    return st.sampled_from(["", "x", "hidden", "text/html", "a>b", '"', "'", "=", "&amp;", "&#32;"])


_ATTRIBUTE = st.builds(
    lambda n, v, q, sep: f"{sep}{n}" + ("" if v is None else "=" + (f"{q}{v}{q}" if q else v.replace(" ", "").replace(">", "") or "x")),
    st.sampled_from(["type", "encoding", "color", "class", "charset", "content", "http-equiv", "x", "=", 'a"b', "a/b"]),
    st.none() | _attr_value(),
    st.sampled_from(['"', "'", ""]),
    st.sampled_from([" ", "\n", "/", " / ", "  "]),
)


def _tag(name, attrs, close, end):
    return f"<{'/' if close else ''}{name}{''.join(attrs)}{end}"


_TAGS = st.builds(
    _tag,
    st.sampled_from(_NAMES) | st.sampled_from(_NAMES).map(str.upper),
    st.lists(_ATTRIBUTE, max_size=3),
    st.booleans(),
    st.sampled_from([">", "/>", " >", ">", ">"]),
)


def _meta(label, form, ref):
    if ref and label:
        label = f"&#x{ord(label[0]):x};" + label[1:]
    if form == 0:
        return f'<meta charset="{label}">'
    if form == 1:
        return f"<META http-equiv=Content-Type content='text/html; charset={label}'>"
    if form == 2:
        return f'<meta content="charset={label}" http-equiv="content-type" charset="{label}">'
    if form == 3:
        return f"<meta charset={label or 'x'}/>"
    return f'<meta content="charset={label}">'


_METAS = st.builds(_meta, st.sampled_from(_LABELS), st.integers(0, 4), st.booleans())
_OTHER = st.sampled_from(
    [
        "x", " ", "\n", "\r\n", "\x00", "&nbsp;", "&#32;", "&Tab;", "<", "&", "<!-- c -->", "<!-->",
        "<!--->", "<!-- --!>", "<!--", "-->", "<!x>", "<?x>", "</ x>", "</>", "<!DOCTYPE html>",
        "<!doctype html public '-//W3C//DTD HTML 4.0 Transitional//EN'>", "<![CDATA[", "]]>",
        "<!--<script>", "</script>", "<script>", "--!>", '"', "'", "=", "/", "</title>", "</style>",
    ]
)
_DOCUMENTS = st.lists(st.one_of(_TAGS, _TAGS, _METAS, _OTHER), max_size=40).map("".join)


# Denser mixes of foreign content, integration points, tables and formatting elements, whose
# end tags reshape the stack of open elements (adoption agency, foreign content exits).
_STRUCTURE_NAMES = (
    "svg math foreignObject desc title mi mo mtext annotation-xml font b a i p span div table tr "
    "td caption colgroup col tbody style script textarea xmp noscript iframe body html head br nobr "
    "li ul dd dt h1 h2 button object marquee pre form frameset plaintext em s u code g"
).split()
_STRUCTURE = st.lists(
    st.one_of(
        st.builds(
            lambda n, a, e: f"<{n}{a}{e}>",
            st.sampled_from(_STRUCTURE_NAMES),
            st.sampled_from(["", "", " color=red", " encoding=text/html", " encoding='application/xhtml+xml'", " type=hidden"]),
            st.sampled_from(["", "", "/"]),
        ),
        st.sampled_from(_STRUCTURE_NAMES).map(lambda n: f"</{n}>"),
        st.sampled_from(
            [
                "x", " ", "<!-- a -->", "<![CDATA[<meta charset=big5>]]>", "<![CDATA[", "]]>", "&#32;",
                "\x00", "</p>", "</br>", "<!DOCTYPE html>", "<meta charset=koi8-r>", "<meta charset=big5>",
                "<meta charset=bogus>", "<meta http-equiv=content-type content='charset=shift_jis'>",
            ]
        ),
    ),
    max_size=50,
).map("".join)


def _mine(text, limit=BIG):
    result = scan_parser_meta(text, limit)
    return None if result is None else (result[0], result[1], result[3])


@pytest.mark.slow  # html5lib is the oracle: 1,000 documents each
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DOCUMENTS)
def test_agrees_with_html5lib(html):
    assert _mine(html) == oracle_parser_meta(html)


@pytest.mark.slow  # html5lib is the oracle: 1,000 documents each
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_STRUCTURE)
def test_structure_agrees_with_html5lib(html):
    assert _mine(html) == oracle_parser_meta(html)


@pytest.mark.slow  # hypothesis, html5lib is the oracle
@settings(max_examples=300, deadline=None)
@given(_DOCUMENTS, st.integers(0, 400))
def test_limit_is_end_of_input(html, limit):
    assert _mine(html, limit) == oracle_parser_meta(html[:limit])


@pytest.mark.slow  # hypothesis, html5lib is the oracle
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>!-/?=\"' \nabmetachrs&#;x[]CDAT")), max_size=80))
def test_random_markup_agrees_with_html5lib(html):
    assert _mine(html) == oracle_parser_meta(html)
    result = scan_parser_meta(html, BIG)
    if result is not None:  # the offset is the "<" of the tag that ends at the reported end
        assert TAG.match(html, result[2]).end() == result[3]


@pytest.mark.slow  # html5lib is the oracle
def test_corpus_pages_agree_with_html5lib():
    manifest = json.loads((DATA / "corpus" / "manifest.json").read_text())
    checked = 0
    for entry in manifest:
        path = DATA / "corpus" / entry["path"]
        text = path.read_bytes()[:30000].decode("latin-1")
        assert _mine(text) == oracle_parser_meta(text), path.name
        # Unlabeled, with a meta at the very end: the whole text is tokenized and tree-built.
        text = text.replace("charset", "charsex") + "<meta charset=koi8-r>"
        assert _mine(text) == oracle_parser_meta(text), path.name
        checked += 1
    assert checked > 0


_change = importlib.import_module("scrapy_whatwg_encoding.sniffing.change")


def _tokenizer_only(body, encoding):
    """parser_meta with every tag through the tokenizer (its quick path off)."""
    quick, _change._plain_meta = _change._plain_meta, lambda *args: None
    try:
        return _change.parser_meta(body, encoding)
    finally:
        _change._plain_meta = quick


@pytest.mark.slow  # 1,500 documents through the tokenizer
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_DOCUMENTS, _STRUCTURE), st.sampled_from(["windows-1252", "UTF-8", "Shift_JIS", "gb18030"]))
def test_quick_path_is_the_tokenizer(html, name):
    # The <meta> read from the bytes (prescan-like, issue 17) is the tokenizer's, label and offset included.
    encoding = ENCODINGS[name]
    body = html.encode(name if name != "windows-1252" else "cp1252", "ignore")
    expected = _tokenizer_only(body, encoding)
    assert _change.parser_meta(body, encoding) == expected


# Text elements whose text holds markup (RSS titles' "<![CDATA[", scripts' "a < b"), then metas.
_TEXT_CONTENT = st.lists(st.sampled_from([
    "x", " ", "<![CDATA[x]]>", "a < b", "<", ">", "<![CDATA[", "]]>", "<!--", "-->", "<!", "<!x>", "<?", "</", "</ >", "<b>", "<b c=", "</b>",
    '"', "'", "<a title='>'>", "</title", "</script", "</style", "</TITLE ", "</titlex>", "<meta charset=koi8-r>",
    "<meta name=x>", "/", "=", "&lt;",
]), max_size=12).map("".join)
_TEXT_ELEMENTS = st.builds(
    lambda name, content, end: f"<{name}>{content}{end}",
    st.sampled_from(["title", "script", "style", "textarea", "noscript", "xmp", "TITLE"]),
    _TEXT_CONTENT,
    st.sampled_from(["</title>", "</script>", "</style>", "</textarea >", "</noscript/>", "</xmp a='>'>", "</TITLE>", ""]),
)
_WITH_TEXT = st.builds(
    lambda before, metas: before + metas + "<meta charset=big5>",
    st.lists(st.one_of(_TEXT_ELEMENTS, _TEXT_ELEMENTS, _TEXT_ELEMENTS, _OTHER, _TAGS), max_size=6).map("".join),
    st.lists(st.one_of(_METAS, _TEXT_ELEMENTS), max_size=2).map("".join),
)


@pytest.mark.slow  # 1,500 documents through the tokenizer
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_WITH_TEXT, st.sampled_from(["windows-1252", "UTF-8"]))
def test_quick_path_reads_text_elements_as_the_tokenizer(html, name):
    body = html.encode(name if name != "windows-1252" else "cp1252", "ignore")
    assert _change.parser_meta(body, ENCODINGS[name]) == _tokenizer_only(body, ENCODINGS[name])


@pytest.mark.parametrize(("html", "quick"), [
    ("<title><![CDATA[a \"b\" c]]></title><meta charset=koi8-r>", True),  # an RSS feed's title
    ("<script>if (a<b && c>d) x()</script><meta charset=koi8-r>", True),
    ("<script>document.write('<p>')</script><meta charset=koi8-r>", False),  # a quoted tag: the tokenizer decides
    ("<script><!-- x --></script><meta charset=koi8-r>", False),  # script data's escape states
    ("<title>a<b</title><meta charset=koi8-r>", False),  # the prescan reads the end tag into a tag
    ("<title>a<b c='</title>'><meta charset=koi8-r></title><meta charset=utf-8>", False),
    ("<x<title></script><script></title><meta charset=big5>", False),  # no title: script data
    ('<a<1/x="y>z"><meta charset=koi8-r>', False),  # a "<" in a tag name: taken as parting the two readers
    ("<a/x<b><meta charset=koi8-r>", False),  # a "<" after its "/"
    ("<a" * 3000 + "><meta charset=koi8-r>", False),  # each "<" read to the next one (one pass, not quadratic)
])
def test_quick_path_past_markup_in_text(html, quick):
    body = html.encode()
    found = _change.parser_meta(body, ENCODINGS["windows-1252"])
    assert found == _tokenizer_only(body, ENCODINGS["windows-1252"])
    assert (_change._plain_meta(body, 65536, None) is not None) is quick


@pytest.mark.parametrize(("html", "label"), [
    # The tree builder acts on a meta the prescan reads as failing (charset invalid, content valid).
    ('<meta charset=bogus http-equiv=content-type content="charset=koi8-r"><meta charset=utf-8>', "koi8-r"),
    ('<meta charset="&#107;oi8-r"><meta charset=utf-8>', "koi8-r"),  # a character reference
    ("<!-- --!><meta charset=koi8-r><!-- --><meta charset=utf-8>", "koi8-r"),  # the tokenizer's comment ends first
    ("<title><meta charset=koi8-r></title><meta charset=utf-8>", "utf-8"),  # RCDATA
    ('<meta name=x content="charset=koi8-r"><meta charset=utf-8>', "utf-8"),  # no http-equiv: neither acts
    ("<svg><![CDATA[<meta charset=koi8-r>]]></svg><meta charset=utf-8>", "utf-8"),
    ('<p title="<meta charset=koi8-r>"><meta charset=utf-8>', "utf-8"),
    ("<p/title='><meta charset=koi8-r>'><meta charset=utf-8>", "utf-8"),  # the tokenizer's tag name ends at "/"
    ("<meta charset=UTF-8>", "UTF-8"),  # the label as written
])
def test_quick_path_cases(html, label):
    body = html.encode()
    found = _change.parser_meta(body, ENCODINGS["windows-1252"])
    assert found == _tokenizer_only(body, ENCODINGS["windows-1252"])
    assert found[1] == label


def test_quick_path_fires_on_the_corpus():
    # Not a dead branch: on corpus pages given a <meta charset> early (after <head>) or late (at the
    # first tag after byte 1100), most get it without the tokenizer, and always the tokenizer's.
    fired = total = 0
    meta = b'<meta charset="Windows-1251">'
    for _, _, body in corpus_cases():
        head = body.lower().find(b"<head>")
        late = body.find(b"<", 1100)
        for at in (head + 6 if head >= 0 else 0, late):
            if at < 0:
                continue
            page, total = body[:at] + meta + body[at:], total + 1
            expected = _tokenizer_only(page, ENCODINGS["windows-1252"])
            assert _change.parser_meta(page, ENCODINGS["windows-1252"]) == expected
            fired += _change._plain_meta(page, 65536, None) is not None
    assert total > 300 and fired > total // 2, (fired, total)


def test_the_collector_is_paused_during_a_tree_builders_scan_and_left_as_it_was():
    """The cyclic garbage collector is off inside collection_paused (the parser step's and
    Firefox's scans) and as it was after: on again, off where the caller had it off, on again
    after an error."""
    import gc

    from scrapy_whatwg_encoding.sniffing import parser_scan

    assert gc.isenabled()
    try:
        with parser_scan.collection_paused():
            assert not gc.isenabled()
        assert gc.isenabled()
        with pytest.raises(ValueError), parser_scan.collection_paused():
            raise ValueError
        assert gc.isenabled()
        assert parser_scan.scan_parser_meta("<svg><title><meta charset=koi8-r>", 100)[0].name == "KOI8-R"
        assert gc.isenabled()
        gc.disable()
        with parser_scan.collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


# -- the head bound (issue 37): past the first PARSER_HEAD characters, only in the head --------------
_PAD = "<!--" + "x" * PARSER_HEAD + "-->"  # a comment: the tree builder's mode stays as it was


@pytest.mark.parametrize(("text", "expected"), [
    (_PAD + "<meta charset=koi8-r>", "KOI8-R"),  # "initial": still before the head
    ("<head>" + _PAD + "<title>x</title><noscript>y</noscript><meta charset=koi8-r>", "KOI8-R"),  # "in head"
    ("<head><template></template>" + _PAD + "<meta charset=koi8-r>", "KOI8-R"),  # back in "in head"
    ("<body>" + _PAD + "<meta charset=koi8-r>", None),  # "in body"
    ("<head></head>" + _PAD + "<meta charset=koi8-r>", None),  # "after head"
    ("<head>" + _PAD + "x<meta charset=koi8-r>", None),  # a character leaves the head first
    ("<head>" + _PAD + "<template><meta charset=koi8-r></template>", None),  # "in template"
    ("<head>" + _PAD + "<svg><meta charset=koi8-r>", None),  # foreign content, in body
    ("<body><meta charset=koi8-r>" + _PAD, "KOI8-R"),  # in the first characters: any mode
    ("<body>" + "x" * (PARSER_HEAD - 7) + "<meta charset=koi8-r>", "KOI8-R"),  # its "<" the last of them
    ("<body>" + "x" * (PARSER_HEAD - 6) + "<meta charset=koi8-r>", None),  # its "<" the first past them
])
def test_past_the_first_characters_a_meta_counts_only_in_the_head(text, expected):
    assert name(text) == expected
    if "<template" not in text:  # (html5lib 1.1 has no template contents)
        assert (oracle_parser_meta(text) or [None])[0] == (None if expected is None else get_encoding(expected))
    assert name(text, head=None) == "KOI8-R"  # (the standard alone: every meta the tree builder acts on)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["<head>", "</head>", "<body>", "<p>", "x", " ", "<title>t</title>", "<link>",
                                 "<noscript>n</noscript>", "<script>s</script>", "<style>s</style>", "<table>",
                                 "<meta name=x>", "<!--c-->", "<svg>", "</svg>", "<html>", "<frameset>"]), max_size=5),
       st.integers(PARSER_HEAD - 30, PARSER_HEAD + 30),
       st.lists(st.sampled_from(["<link>", " ", "x", "<title>t</title>", "<p>", "</head>", "<style>s</style>"]), max_size=3))
def test_the_head_bound_is_html5libs(before, pad, after):
    """Around the bound, a meta after head tokens, a pad of comment and more tokens: the scan's
    answer is html5lib's with the same bound (the oracle reads the mode its tree builder is in)."""
    text = "".join(before) + "<!--" + "x" * pad + "-->" + "".join(after) + "<meta charset=koi8-r>"
    found = scan_parser_meta(text, BIG)
    assert (None if found is None else (found[0], found[1], found[3])) == oracle_parser_meta(text)


@pytest.mark.parametrize(("text", "expected", "scans"), [
    # the first candidate in a comment, past the bound, out of the head: one scan, which ends there
    ("<body>" + _PAD + "<!--<meta charset=big5>--><meta charset=koi8-r>", None, 1),
    ("<p>" + "<b>x</b>" * 200 + "<!--<meta charset=big5>--><meta charset=koi8-r>", None, 1),
    # still in the head there, or the candidate before the bound: a second scan, to the last
    ("<head>" + _PAD + "<!--<meta charset=big5>--><meta charset=koi8-r>", "KOI8-R", 2),
    ("<body><!--<meta charset=big5>-->" + _PAD + "<meta charset=koi8-r>", None, 2),
    ("<!--<meta charset=big5>--><meta charset=koi8-r>", "KOI8-R", 2),
])
def test_a_scan_that_left_the_head_before_the_first_candidate_is_not_run_again(monkeypatch, text, expected, scans):
    """Where the scan up to the first candidate ended as the tree builder left the head (past the
    first PARSER_HEAD characters), the scan up to the last is not run: it would end there too."""
    runs = []
    scan = parser_scan.tree_builder_metas
    monkeypatch.setattr(parser_scan, "tree_builder_metas", lambda *args, **kwargs: runs.append(1) or scan(*args, **kwargs))
    assert name(text) == expected
    assert len(runs) == scans
    assert (oracle_parser_meta(text) or [None])[0] == (None if expected is None else get_encoding(expected))


def test_the_bytes_shortcut_keeps_the_head_bound():
    """The parser step's reading off the bytes (a ``<meta`` within the prescan's bytes that names
    nothing, the naming one later) gives a late ``<meta>`` only where the tokenizer would."""
    body = b"<meta name=x><p>" + b"x" * 2000 + b"<meta charset=koi8-r>"
    assert _change.parser_meta(body, ENCODINGS["windows-1252"]) is None  # in body, past the bound
    head = b"<meta name=x><!--" + b"x" * 2000 + b"--><meta charset=koi8-r>"
    assert _change.parser_meta(head, ENCODINGS["windows-1252"])[2] == head.index(b"<meta charset")
