"""The browsers' models' shortcuts (each inside its step, issue 34) give what their plain twins
give: on the differential grammar's documents (tools/differential, seeds 18 and 27) and the
benchmark's real pages (tools/bench_classes.py), Chromium's reading of the prescan's ``<meta>``
equals its scan wherever the shortcut answers, no model reads a ``<meta>`` where the scans are
skipped, and the profile's decision equals the one with every twin (``shortcuts=False``)."""
from __future__ import annotations

import dataclasses
import pathlib
import re
import sys

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.sniffing import browsers, browsers_profile
from scrapy_whatwg_encoding.sniffing._html.tokenizer import BOGUS_COMMENT, STRAY_LT, TEXT_WITH_STRAY_LT
from scrapy_whatwg_encoding.sniffing.body import Body
from scrapy_whatwg_encoding.sniffing.browsers import chromium_meta
from scrapy_whatwg_encoding.sniffing.meta_charset import meta_encoding
from scrapy_whatwg_encoding.sniffing.run import Settings, run
from scrapy_whatwg_encoding.sniffing.sniff import decide_encoding
from scrapy_whatwg_encoding.sniffing.steps import Step

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "differential"))  # (tests/conftest.py puts tools/ there)

import bench_classes
import grammar

pytestmark = pytest.mark.slow  # both browser models in full on 6,000 generated documents


def _documents():
    for seed in (18, 27):
        for _, _, content_type, body in grammar.documents(seed, 3000):
            yield content_type, body
    native = bench_classes.sources()
    for cls in "cdefg":
        for page in bench_classes.build_class(cls, native):
            yield page.content_type, page.body


DOCUMENTS = list(_documents())


def test_chromium_at_the_prescan_meta_is_its_scan():
    answered = alike = 0
    for content_type, body in DOCUMENTS:
        standard = sniff(body, content_type=content_type, detector="browser")
        if standard.source != "prescan":
            continue
        short = browsers_profile.chromium_at_prescan_meta(body, standard.offset)
        label = browsers_profile.chromium_prescan_label(body, standard.offset)
        if label is not None:
            alike += 1
            assert short == dataclasses.replace(_step_5(body, content_type), label=label), body[:200]
        if short is None:
            continue
        answered += 1
        full = chromium_meta(body, 1 << 16)
        assert full is not None and (meta_encoding(full[0]), full[2]) == (short.encoding, short.offset), body[:200]
    assert answered > 500 and alike > 300


def _step_5(body: bytes, content_type):
    """The standard run's step 5 (the prescan's decision, before the parser step)."""
    return run(Body(body), content_type, None, Settings(detector="browser")).found(Step.PRESCAN)


_VALUE = st.one_of(st.sampled_from(["koi8-r", "KOI8-R", " koi8-r\t", "UTF-16LE", "x-user-defined", "bogus"]),
                   st.text(st.sampled_from('ab-8 \t\n\x0c\r"\'&;#x/<>=\x00\x0b'), max_size=8).map(lambda v: v + "koi8-r"))


@given(before=st.sampled_from(["", "<p>", "<title>x</title>", "<!-- x --!>", "<meta name=x>", "<p a='>'>"]),
       meta=st.sampled_from(["<meta", "<META", "<MeTa"]), sep=st.sampled_from([" ", "/", "\n", " / ", "\t/"]),
       name=st.sampled_from(["charset", "CHARSET", "charset ", "charset\t"]), eq=st.sampled_from(["=", " = ", "=\n"]),
       quote=st.sampled_from(['"', "'", ""]), value=_VALUE, after=st.sampled_from(["", " ", "/", " /", "x", " a=b", '"']),
       rest=st.sampled_from([">", "><p>", "", ">&amp;"]))
@settings(max_examples=3000, deadline=None)
def test_chromium_reads_a_plain_charset_meta_as_the_prescan(before, meta, sep, name, eq, quote, value, after, rest):
    """Where the shortcut says Chromium reads the prescan's <meta> alike, its reading of that tag
    (and its scan) gives the prescan's decision."""
    body = (before + meta + sep + name + eq + quote + value + quote + after + rest + "<p>x</p>").encode("latin-1")
    standard = _step_5(body, "text/html")
    if standard is None or standard.source != "prescan":
        return
    label = browsers_profile.chromium_prescan_label(body, standard.offset)
    if label is None:
        return
    event("the prescan's decision is Chromium's")
    assert label.lower() == standard.label
    assert browsers_profile.chromium_at_prescan_meta(body, standard.offset) == dataclasses.replace(standard, label=label)
    full = chromium_meta(body, 1 << 16)
    assert full is not None and (meta_encoding(full[0]), full[1], full[2]) == (standard.encoding, label, standard.offset)


@pytest.mark.parametrize("seed", [18, 27])
def test_the_profile_equals_the_rule_with_every_twin(seed, monkeypatch):
    cases = [(ct, body) for _, _, ct, body in grammar.documents(seed, 1500)]
    answered = []
    for name in ("chromium_at_prescan_meta", "_no_declaring_meta"):
        original = getattr(browsers_profile, name)

        def counting(*args, original=original, name=name):
            found = original(*args)
            if found:
                answered.append(name)
            return found

        monkeypatch.setattr(browsers_profile, name, counting)
    settings_ = Settings(profile="browsers")
    for ct, body in cases:
        quick = decide_encoding(Body(body), ct, None, settings_)
        slow = decide_encoding(Body(body), ct, None, settings_, shortcuts=False)
        assert quick == slow, (ct, body[:200])
    assert answered.count("chromium_at_prescan_meta") > 50 and answered.count("_no_declaring_meta") > 50


def test_chromium_reads_4_kib_first_and_gives_what_a_whole_read_gives():
    longer = 0
    for _, body in DOCUMENTS:
        whole = browsers._chromium_scan(body[:1 << 16].decode("latin-1"), browsers.UNCONDITIONAL, False)
        assert browsers.chromium_meta(body, 1 << 16) == whole
        longer += len(body) > browsers.FIRST_READ
    assert longer > 500


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"<meta charset=zz>", b"<meta content=x>", b"<p>", b"<link>", b"<title>x</title>", b"<!--",
                                 b"-->", b"<script>", b"</script>", b"<svg>", b"x" * 700, b"<meta a='" + b"y" * 900,
                                 b"'>", b"<meta charset=koi8-r>", b"<body>", b"<head>"]), max_size=24).map(b"".join),
       st.sampled_from([b"", b"<meta charset=koi8-r>", b"<meta content='charset=windows-1251' http-equiv=content-type>"]))
@example(b"<meta charset=zz>" * 300, b"<meta charset=koi8-r>")  # no hint in the first 4 KiB: the whole at once
@example(b"<p>" + b"x" * 5000, b"<meta charset=koi8-r>")  # out of the head section before 1 KiB
def test_chromium_reads_the_whole_at_once_where_no_hint_lies_in_its_first_bytes(head, tail):
    """chromium_meta's shortcut (no hint in the first 4 KiB: the whole at once) against its twin (the first
    4 KiB, then the whole where that read runs to their end)."""
    body = head + tail
    assert browsers.chromium_meta(body, 1 << 16) == browsers.chromium_meta(body, 1 << 16, shortcut=False)


def test_firefox_stops_where_no_late_meta_can_count_and_gives_what_a_whole_read_gives():
    def whole(body):  # the model without its stop: every <meta> of the tree, the same rules
        stopped = False
        for lt, _, span, mode in browsers.tree_metas(body[:1 << 16].decode("latin-1")):
            if lt < 1024 or (not stopped and mode in browsers._FIREFOX_LATE_MODES):
                found = browsers.firefox_meta_encoding(span)
                if found is not None:
                    return found[0], found[1], lt
            stopped = stopped or mode == "in template"
        return None

    for _, body in DOCUMENTS:
        assert browsers.firefox_meta(body, 1 << 16) == whole(body), body[:200]


def _no_declaring_meta(body: bytes, prescan_bytes: int = 1024, limit: int = 1 << 16) -> tuple[bool, int]:
    """The shortcut's answer for *body*, and where the first ``<meta`` with a hint is (-1: none)."""
    facts, extent = Body(body), max(limit, prescan_bytes)
    return browsers_profile._no_declaring_meta(facts, extent, prescan_bytes), facts.memo[("meta at", extent)]


def _neither_model_reads(body: bytes, prescan_bytes: int, limit: int = 1 << 16) -> bool:
    extent = max(limit, prescan_bytes)
    return (browsers.chromium_meta(body, extent, prescan_bytes) is None
            and browsers.firefox_meta(body, extent, prescan_bytes) is None)


def test_no_declaring_meta_where_neither_model_reads_one():
    """Where the shortcut says no ``<meta>`` is read (no hint, or the first start tag leaves the
    head), both full scans read none: on the grammar's documents and the benchmark's pages."""
    by_first_tag = 0
    for _, body in DOCUMENTS:
        skipped, meta_at = _no_declaring_meta(body)
        if skipped:
            assert _neither_model_reads(body, 1024), body[:200]
            by_first_tag += meta_at >= 0
    assert by_first_tag > 100  # the feeds of class d: <rss>, <feed>, <rdf:RDF> first


_PREFIX = st.sampled_from([" ", "\n\t", "<!-- c -->", "<!---->", "<!-->", "<!--->", "<!-- a -- b -->", "<!-- <p> -->",
                           "<!-- x --!>", "<!DOCTYPE html>", "<!doctype>", "<?xml version='1.0'?>", "<?>", "<!x>",
                           "<![CDATA[<p>]]>", "</p>", "x", "&amp;", "<", "<!", "< p>"])
_FIRST = st.sampled_from(sorted(browsers_profile._HEAD_TAGS) + [
    "rss", "RSS", "feed", "rdf:RDF", "body", "p", "div", "svg", "math", "table", "select", "frameset", "textarea",
    "xmp", "plaintext", "iframe", "noembed", "a\x00", "HEAD", "Title", "Meta", "head/", "html\t", "br"])
_MIDDLE = st.sampled_from(["<title>t</title>", "<script><meta charset=koi8-r></script>", "</head>", "<head>",
                           "<html>", "<meta name=x>", "<template>", "</template>", "<noscript>", "</noscript>",
                           "<style>", "</style>", "<link rel=x>", "<!-- <meta charset=koi8-r> -->", "<p>", "</body>",
                           "text", "<svg>", "</svg>", "<title>", "<base href=x>", "</rss>", "<frameset>"])
_LATE = st.sampled_from(['<meta charset="koi8-r">', '<META http-equiv="Content-Type" content="text/html; charset=gbk">',
                         '<meta http-equiv=content-type content="charset=&#x6b;oi8-r">', '<meta charset=bogus>'])


@given(prefix=st.lists(_PREFIX, max_size=4), first=_FIRST, attributes=st.sampled_from(["", " a=b", " /", "  x='>'"]),
       middle=st.lists(_MIDDLE, max_size=6), pad=st.integers(0, 1300), late=st.lists(_LATE, min_size=1, max_size=3),
       prescan_bytes=st.sampled_from([0, 16, 1024]))
@settings(max_examples=3000, deadline=None)
def test_no_declaring_meta_is_what_both_models_scan(prefix, first, attributes, middle, pad, late, prescan_bytes):
    head = "".join(prefix) + f"<{first}{attributes}>" + "".join(middle)
    body = (head + " " * pad + "".join(late) + "<p>é</p>").encode("latin-1")
    skipped, meta_at = _no_declaring_meta(body, prescan_bytes)
    if skipped:
        event("no <meta> read, by the first start tag" if meta_at >= 0 else "no <meta> read, no hint")
        assert _neither_model_reads(body, prescan_bytes)


@given(prefix=st.lists(_PREFIX, max_size=8), first=_FIRST, attributes=st.sampled_from(["", " a=b", "  x='>'"]),
       late=_LATE, window=st.integers(0, 120), prescan_bytes=st.sampled_from([0, 16]))
@settings(max_examples=2000, deadline=None)
def test_no_declaring_meta_reads_the_prolog_in_a_window_as_the_whole_text(prefix, first, attributes, late, window,
                                                                            prescan_bytes):
    """The prolog read within a window gives the whole text's answer, or False (the scans run):
    the whole text's where the prolog and the start tag's "<" and first letter lie within it."""
    head = "".join(prefix)
    body = (head + f"<{first}{attributes}>" + late).encode("latin-1")
    extent = 1 << 16
    whole = browsers_profile._no_declaring_meta(Body(body), extent, prescan_bytes, window=extent)
    windowed = browsers_profile._no_declaring_meta(Body(body), extent, prescan_bytes, window=window)
    assert windowed in (whole, False)
    if len(head) + 2 <= window:
        assert windowed == whole
    event("prolog cut by the window" if len(head) >= window else "prolog within the window")


# What may come before the parser step's <meta> when no tag does (and a few tags, which must stop the
# shortcut), in bytes: comments of every ending, DOCTYPEs and bogus comments (a quoted ">" too),
# text, non-ASCII bytes (UTF-8, windows-1252, a Shift_JIS lead byte before an ASCII one), ISO-2022-JP's
# escapes (in JIS X 0208, "<!--" is two kanji).
_BEFORE_PARSER_META = st.sampled_from([
    b"<!-- c -->", b"<!---->", b"<!-->", b"<!--->", b"<!-- a -- b -->", b"<!-- x --!>", b"<!-- <meta charset=utf-8> -->",
    b"<!DOCTYPE html>", b"<!doctype x 'a>b'>", b"<?xml?>", b"<!x>", b"</>", b"</ x>", b"x", b"\xc3\xa9", b"\xe9",
    b"\x81<", b"\x81-", b"<", b" ", b"\n", b"&amp;", b"--!>", b"<!--", b"<p>", b"</p>", b"<title>", b"<script>",
    b"\x1b$B", b"\x1b(B", b"\x1b$B<!--\x1b(B"])
_PARSER_METAS = st.sampled_from([b'<meta charset="koi8-r">', b"<meta charset=koi8-r charset=zz>", b"<meta charset=zz charset=gbk>",
                                 b'<META http-equiv="Content-Type" content="text/html; charset=gbk">', b"<meta charset=koi8-r/>",
                                 b"<meta charset=bogus>", b"<meta charset='utf-8' a>", b"<meta charset=\xe9koi8-r>",
                                 b'<meta http-equiv=content-type content="charset=&#x6b;oi8-r">',
                                 # longer than Chromium's first read (4 KiB), which it then reads whole
                                 b"<meta charset=koi8-r " + b"a=b c='d' e " * 400 + b"charset=gbk />",
                                 b'<meta http-equiv=content-type content="charset=koi8-r" ' + b"a=\xe9 c='>' / " * 450 + b">",
                                 b"<meta charset=koi8-r a='" + b"x" * 5000 + b">", b"<meta charset=gbk charset=koi8-ru>"])


@given(before=st.lists(_BEFORE_PARSER_META, max_size=8), pad=st.sampled_from([b"", b" " * 1100, b"<!--x-->" * 150]),
       meta=_PARSER_METAS, after=st.lists(_PARSER_METAS | _BEFORE_PARSER_META, max_size=3),
       likely=st.sampled_from([None, "windows-1252", "Shift_JIS", "UTF-8", "gbk", "ISO-2022-JP"]), prescan_bytes=st.sampled_from([1024, 16]))
@settings(max_examples=2500, deadline=None)
# The parser step's tag ends at a character offset, not a byte offset, after UTF-8 before it
@example(before=[b"\xc3\xa9", b"<!-- x --!>"], pad=b"", meta=b"<meta charset=gbk charset=koi8-ru>", after=[],
         likely="UTF-8", prescan_bytes=16)
def test_chromium_at_the_parser_meta_is_its_scan(before, pad, meta, after, likely, prescan_bytes):
    """Where the standard's parser step took a <meta> with no tag before it, Chromium's reading of
    that tag is its scan's answer; the shortcut answers on most such pages."""
    body = b"".join(before) + pad + meta + b"".join(after)
    settings_ = Settings(profile="browsers", prescan_bytes=prescan_bytes)
    facts = Body(body)
    run(facts, "text/html", None, settings_, likely=likely)  # the standard's run: its parser step in the memo
    short = browsers_profile.chromium_at_parser_meta(facts, settings_)
    if short is not None:
        event("answered, late" if short.offset >= prescan_bytes else "answered, within the prescan's bytes")
        assert short == browsers_profile._chromium_scan(Body(body), settings_, False)
    elif not re.search(rb"</?[A-Za-z]", body[:len(body) - len(meta) - sum(map(len, after))]):
        event("not answered, no tag before the <meta>")


def test_chromium_at_the_parser_meta_answers_a_flood_of_comments():
    """The shortcut answers where a flood of comments comes before the <meta> (the parser step read
    it once), with the scan's answer."""
    for flood in (b"<!---->" * 9000, b"".join(b"<!--%d-->" % i for i in range(5000)), b"<!DOCTYPE html>" + b" " * 60000):
        # (Chromium reads the last of duplicated attributes, the standard the first)
        for meta, chromium in ((b"<meta charset=koi8-r>", "KOI8-R"), (b"<meta charset=koi8-r charset=gbk>", "GBK")):
            body = flood + meta
            settings_ = Settings(profile="browsers")
            facts = Body(body)
            run(facts, "text/html", None, settings_)
            short = browsers_profile.chromium_at_parser_meta(facts, settings_)
            assert short is not None and short.offset == len(flood) and short.encoding.name == chromium
            assert short == browsers_profile._chromium_scan(Body(body), settings_, False)


# Markup around <meta> tags that Firefox's reader names an encoding in and Chromium's does not (the
# first of duplicated attributes), or both: in elements of text, in foreign content and template
# contents (where the two tokenizers part), after tags that end Chromium's head section.
_FIREFOX_PIECES = st.sampled_from([
    "<meta charset=koi8-r charset=zz>", "<script><meta charset=koi8-r charset=zz></script>", "<script><meta charset=koi8-r>",
    "<style><meta charset=koi8-r charset=zz></style>", "<title><meta charset=koi8-r charset=zz></title>",
    "<textarea><meta charset=koi8-r></textarea>", "<!-- <meta charset=koi8-r charset=zz> -->",
    "<svg><title><meta charset=koi8-r charset=zz></title></svg>", "<math><mi><meta charset=koi8-r charset=zz>",
    "<template><meta charset=koi8-r charset=zz></template>", "<frameset><meta charset=koi8-r charset=zz>",
    "<math><title><meta charset=koi8-r charset=zz></title></math>",  # a MathML title: no RCDATA in Firefox's
    "<template><col><title></template>",  # the title ignored in template contents: no RCDATA in Firefox's
    "<noscript><meta charset=koi8-r charset=zz></noscript>", "<xmp><meta charset=koi8-r charset=zz></xmp>",
    "<plaintext>", "<script>", "<p>", "</head>", "<body>", "<head>", "<link rel=x>", "<table>", "<select>", "x",
    "<bgsound>", "<basefont>", "<noframes>x</noframes>",  # Chromium's head section ends, Firefox's "in head" not
    "<!DOCTYPE html>", " ", '<meta http-equiv=content-type content="charset=koi8-r" charset=zz>', "<meta name=x>"])


@given(pieces=st.lists(_FIREFOX_PIECES, max_size=10), pad=st.sampled_from(["", " " * 1100, "<script>x</script>" * 70]),
       late=st.lists(_FIREFOX_PIECES, max_size=4), prescan_bytes=st.sampled_from([1024, 16]))
@example(pieces=["<bgsound>"], pad=" " * 1100, late=["<meta charset=koi8-r charset=zz>", "<script><meta charset=koi8-r>"],
         prescan_bytes=1024)
@example(pieces=["<template><col><title></template>", "<meta charset=koi8-r charset=zz>"], pad="",
         late=["<script><meta charset=koi8-r>"], prescan_bytes=1024)
@settings(max_examples=3000, deadline=None)
def test_firefox_reads_none_after_chromium_is_its_scan(pieces, pad, late, prescan_bytes):
    """Where Chromium's scan found nothing and read every <meta> Firefox's could, Firefox's scan
    finds nothing either."""
    body = ("".join(pieces) + pad + "".join(late)).encode()
    settings_ = Settings(profile="browsers", prescan_bytes=prescan_bytes)
    facts = Body(body)
    run(facts, "text/html", None, settings_)  # the standard's run, then Chromium's step 5 as the profile runs it
    browsers_profile._chromium_scan(facts, settings_, True)
    if browsers_profile.firefox_reads_none_after_chromium(facts, settings_):
        event("Firefox's scan not run")
        extent = max(settings_.parser_limit, prescan_bytes)
        assert browsers.firefox_meta(body, extent, prescan_bytes) is None
        assert browsers_profile._firefox_scan(facts, settings_, True) == browsers_profile._firefox_scan(
            Body(body), settings_, False)
    else:
        event("Firefox's scan runs")


def test_firefox_reads_none_after_chromium_in_a_flood_of_scripts():
    """The flood that both scans read whole: Firefox's is not run, and its answer is the scan's."""
    body = b"".join(b"<script>%d<meta charset=koi8-r></script>" % i for i in range(1500))
    settings_ = Settings(profile="browsers")
    facts = Body(body)
    run(facts, "text/html", None, settings_)
    assert browsers_profile._chromium_scan(facts, settings_, True) is None
    assert browsers_profile.firefox_reads_none_after_chromium(facts, settings_)
    assert browsers.firefox_meta(body, 1 << 16) is None


def test_text_html_is_typed_as_each_model_types_it():
    """The models' text/html shortcut gives their typing's answer."""
    from scrapy_whatwg_encoding.sniffing.mime_sniff import chromium_typed_kind, firefox_typed_kind

    body = Body(b"<p>x")
    assert browsers_profile._chromium_type("text/html", "html", body) == chromium_typed_kind("text/html") == "html"
    assert browsers_profile._firefox_type("text/html", "html", body) == firefox_typed_kind("text/html") == "html"


_STRAY = st.lists(st.sampled_from(["<", "<<<", "< ", "<<a>", "<!x>", "<!--c-->", "</>", "</ x>", "<?x>", "<3", "<=", "<!-x>", "</<", ">",
                                   "</p>", "</head>", "</p a=\">\">", "<!--", "x>",
                                   "<meta charset=koi8-r>", "<meta name=x>", "<title><</title>", "<script><<</script>",
                                   "<p>", "x", " ", "<!", "</", "<?", "<svg>", "<body>"]), max_size=14).map("".join)


@settings(max_examples=400, deadline=None)
@given(_STRAY, st.sampled_from([0, 3, 10, browsers.UNCONDITIONAL]), st.booleans())
@example("<<<" * 3 + "<meta charset=koi8-r>", browsers.UNCONDITIONAL, False)
@example("<<", browsers.UNCONDITIONAL, True)
@example("</<meta charset= -->" * 3 + "<?x><!x></><meta charset=koi8-r>", browsers.UNCONDITIONAL, False)
@example("<!--><!-x><!-->", browsers.UNCONDITIONAL, True)
def test_chromiums_head_run_reads_stray_lts_as_its_loop(text, head, partial):
    """Chromium's head run takes text with the stray "<"s in it, a run of stray "<"s, and each
    bogus comment, in one match; its twin, the run with text alone (no "<") and without those
    items, leaves each to the loop: the same answer and the same record (Seen)."""
    one = browsers._CHROMIUM_HEAD_ONE.pattern
    twin = one.replace(TEXT_WITH_STRAY_LT, "[^<]+").replace("|" + STRAY_LT, "").replace("|" + BOGUS_COMMENT, "")
    assert len(twin) == len(one) - len(TEXT_WITH_STRAY_LT) + 5 - len(STRAY_LT) - len(BOGUS_COMMENT) - 2
    seen = browsers.Seen()
    found = browsers._chromium_scan(text, head, partial, seen)
    plain = browsers.Seen()
    saved = browsers._CHROMIUM_HEAD_ONE, browsers._CHROMIUM_HEAD_RUN
    try:
        browsers._CHROMIUM_HEAD_ONE = re.compile(twin, re.ASCII)
        browsers._CHROMIUM_HEAD_RUN = re.compile(twin + "*", re.ASCII)
        expected = browsers._chromium_scan(text, head, partial, plain)
    finally:
        browsers._CHROMIUM_HEAD_ONE, browsers._CHROMIUM_HEAD_RUN = saved
    assert found == expected
    assert (seen.spans, seen.reach, seen.tree_states) == (plain.spans, plain.reach, plain.tree_states)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([b"<a", b"</b", b"<Z", b"</", b"<", b"<1", b"</ "]), st.integers(0, 10_000))
@example(1022, b"</b", 1025)  # a tag across the first KiB's end
@example(1023, b"<a", 1025)
@example(8190, b"</b", 9000)  # and across the next chunk's
def test_has_tag_read_a_chunk_at_a_time_is_the_whole_reading(at, tag, end):
    """_has_tag, which translates the bytes a chunk at a time (1 KiB, then eight times more), against its
    twin that translates them all: a start or end tag placed anywhere, cut anywhere."""
    data = b"x" * at + tag + b"y" * 20
    head = data[:end].translate(browsers_profile._LETTERS_AS_A)
    assert browsers_profile._has_tag(data, end) is (b"<a" in head or b"</a" in head)
