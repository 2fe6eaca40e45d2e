"""The HTML report's model and renderers on their own (no crawl): counting, bounds, the first
differing passage, escaping of hostile page-derived strings, and a well-formed, script-free
document (html5lib: no parse error)."""
from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st
from report_checks import assert_inert, local, section, table_rows, text_of

from scrapy_whatwg_encoding import ENCODINGS, decode
from scrapy_whatwg_encoding.report import ReportData, first_difference, model, page, render_explain_html, render_html
from scrapy_whatwg_encoding.report.model import CONTEXT, OTHER_HOSTS

HOSTILE = ('"><script>alert(1)</script><img src=x onerror=alert(2)>\'--><svg onload=alert(3)>'
           "javascript:alert(4)</textarea></title></style><![CDATA[ ]]>\x00\x01\x0b\x7f\x85\ufffe\uffff"
           "\U0001fffe\ud800")
SOURCES = ("bom", "transport", "prescan", "xml-declaration", "parser", "detector", "default")


def decision(source="prescan", encoding="Shift_JIS", label="sjis"):
    return {"encoding": encoding, "confidence": "tentative", "source": source, "label": label, "offset": 7}


@pytest.mark.parametrize("module", [model, page])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_counters_per_source_encoding_and_host():
    data = ReportData(examples=2)
    data.add("http://a.example/1", decision(), "cp1252", True, first_difference("東京", "“Œ‹ž"))
    data.add("http://a.example/2", decision("default", "windows-1252", None), "cp1252", False)
    data.add("https://B.example:8443/x", decision("detector", "EUC-JP", None), None, None)
    data.add_error("http://b.example/y", "ValueError")
    assert (data.pages, data.changed, data.unknown) == (3, 1, 1)
    assert data.sources == {"prescan": 1, "default": 1, "detector": 1}
    assert data.encodings == {"Shift_JIS": 1, "windows-1252": 1, "EUC-JP": 1}
    assert data.changed_sources == {"prescan": 1} and data.unknown_sources == {"detector": 1}
    assert set(data.hosts) == {"a.example", "b.example"}
    a, b = data.hosts["a.example"], data.hosts["b.example"]
    assert (a.pages, a.changed, a.errors, b.pages, b.errors) == (2, 1, 0, 1, 1)
    assert data.errors == {"ValueError": 1} and data.error_examples == {"ValueError": ["http://b.example/y"]}
    assert [e.url for e in data.examples["prescan"]] == ["http://a.example/1"]


def test_examples_and_hosts_are_bounded():
    data = ReportData(examples=3, max_hosts=5)
    for i in range(1000):
        source = SOURCES[i % len(SOURCES)]
        passage = first_difference("x" * 10_000 + "é", "x" * 10_000 + "Ã©") if data.wants_example(source) else None
        data.add(f"http://h{i}.example/" + "p" * 5000, decision(source), "cp1252", True, passage)
        data.add_error(f"http://h{i}.example/", f"Error{i}")
    assert data.pages == 1000 and sum(r.pages for r in data.hosts.values()) == 1000
    assert len(data.hosts) == 6 and data.hosts[OTHER_HOSTS].pages == 995
    assert {k: len(v) for k, v in data.examples.items()} == {s: 3 for s in SOURCES}
    for examples in data.examples.values():
        for example in examples:
            assert len(example.url) <= model.MAX_URL
            assert len(example.passage.ours) <= 3 * CONTEXT and example.passage.offset == 10_000
    assert len(data.errors) == model.MAX_ERROR_KINDS + 1 and data.errors["other"] == 1000 - model.MAX_ERROR_KINDS
    assert all(len(urls) <= 3 for urls in data.error_examples.values())
    document = render_html(data)
    assert len(document) < 60_000
    assert_inert(document)


def test_no_examples_kept_when_zero():
    data = ReportData(examples=0)
    assert not data.wants_example("prescan") and not data.try_guess("detector")
    data.add("http://a.example/", decision(), "cp1252", True, first_difference("a", "b"))
    assert data.examples == {} and data.changed == 1
    tree = assert_inert(render_html(data))
    assert "examples are off" in text_of(section(tree, "differences"))


def test_try_guess_budget():
    data = ReportData(examples=2)
    assert sum(data.try_guess("detector") for _ in range(10)) == 4


@given(st.text(), st.text())
def test_first_difference_locates_the_first_differing_character(ours, theirs):
    passage = first_difference(ours, theirs)
    if ours == theirs:
        assert passage is None
        return
    assert passage is not None
    at = passage.offset
    assert ours[:at] == theirs[:at] and (at == min(len(ours), len(theirs)) or ours[at] != theirs[at])
    assert passage.ours == ours[passage.start:at + 2 * CONTEXT]
    assert passage.theirs == theirs[passage.start:at + 2 * CONTEXT]
    assert passage.start == max(at - CONTEXT, 0)


def _reference_prefix(a: str, b: str) -> int:
    """The common prefix's length, one character at a time (the reference)."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


# Texts that share long prefixes, with characters of each width CPython stores (1, 2, 4 bytes).
_ALPHABET = st.sampled_from("aé\u0100\u4e2d\U0001f600\x00")
_SHARED = st.tuples(st.text(_ALPHABET, max_size=300), st.text(_ALPHABET, max_size=40), st.text(_ALPHABET, max_size=40))


@given(_SHARED)
def test_common_prefix_is_the_per_character_reference(parts):
    prefix, a, b = parts
    assert model.common_prefix(prefix + a, prefix + b) == _reference_prefix(prefix + a, prefix + b)


def test_common_prefix_exhaustive_on_short_texts():
    """Every pair of texts of up to 4 characters over a 2-letter alphabet (and a wide character)."""
    import itertools

    texts = ["".join(t) for n in range(5) for t in itertools.product("a\u4e2d", repeat=n)]
    for a, b in itertools.product(texts, repeat=2):
        assert model.common_prefix(a, b) == _reference_prefix(a, b), (a, b)


@given(_SHARED, st.integers(0, 400))
def test_first_difference_with_a_skipped_prefix(parts, skip):
    """Given only the other text's rest after *skip* characters known equal, the same passage."""
    prefix, a, b = parts
    ours, theirs = prefix + a, prefix + b
    skip = min(skip, len(prefix))
    assert first_difference(ours, theirs[skip:], skip=skip) == first_difference(ours, theirs)


def test_first_difference_of_real_mojibake():
    body = "Grüße aus Köln".encode()
    ours = decode(body, ENCODINGS["UTF-8"])[0]
    theirs = decode(body, ENCODINGS["windows-1252"])[0]
    passage = first_difference(ours, theirs)
    assert (passage.offset, passage.ours, passage.theirs) == (2, ours, theirs)


def _hostile_data():
    data = ReportData(examples=5)
    data.add("http://h.example/" + HOSTILE, decision(label=HOSTILE), "cp1252<script>", True,
             first_difference(HOSTILE + "é", HOSTILE + "Ã©"))
    data.add("http://h.example/b", decision("bom", "UTF-16LE", None), None, True, first_difference(HOSTILE, None))
    data.add("javascript:alert(1)//" + HOSTILE, decision("default", "windows-1252", None), "cp1252", True,
             first_difference("<script>alert(5)</script>", HOSTILE))
    data.add_error("javascript:alert(6)", "Error<script>")
    return data


def test_hostile_strings_are_escaped():
    document = render_html(_hostile_data(), title=HOSTILE, details=[(HOSTILE, HOSTILE)])
    tree = assert_inert(document)
    assert "<script" not in document.lower() and "onerror=" not in document.replace("onerror=alert(2)&gt;", "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in document
    assert "\x00" not in document and "\ufffe" not in document and '<span class="cc">\\x00</span>' in document
    links = [e.get("href") for e in tree.iter() if local(e.tag) == "a"]
    assert links and all(href.startswith("http://h.example/") for href in links)
    rows = table_rows(section(tree, "differences"))
    assert len(rows) == 3 and rows[0][0].startswith("http://h.example/\"><script>")
    assert [row[5] for row in rows if "binary response: no text" in row[5]]


ANY_TEXT = st.text(st.characters(exclude_categories=()))  # surrogates and controls included


@pytest.mark.slow  # hypothesis
@given(ANY_TEXT, ANY_TEXT, ANY_TEXT)
def test_any_page_strings_give_an_inert_document(ours, theirs, url):
    data = ReportData()
    data.add(f"http://a.example/{url}", decision(label=url), url, True, first_difference(ours + "a", theirs + "b"))
    data.add_error(url, "ValueError")
    document = render_html(data, title=url)
    document.encode("utf-8")  # writable as UTF-8: no lone surrogate left
    assert_inert(document)


def test_sections_and_charts():
    data = _hostile_data()
    tree = assert_inert(render_html(data, accuracy={
        "judged": 10, "exact": 8, "correct": 9, "scrapy_correct": 6,
        "by_expected": [{"expected": "Shift_JIS", "pages": 10, "correct": 9, "scrapy_correct": 6}]}))
    headings = [text_of(h) for h in tree.iter() if local(h.tag) == "h2"]
    assert headings == ["Decisions", "Accuracy against the manifest", "Hosts",
                        "Pages whose text differs from Scrapy alone", "Errors"]
    svgs = [e for e in tree.iter() if local(e.tag) == "svg"]
    assert len(svgs) == 3
    bars = [e for e in svgs[0].iter() if local(e.tag) == "rect" and e.get("class") == "bar"]
    assert sorted(text_of(b) for b in bars) == ["bom: 1 differs from Scrapy alone", "default: 1 differs from Scrapy alone",
                                                "prescan: 1 differs from Scrapy alone"]
    assert table_rows(section(tree, "accuracy")) == [["Shift_JIS", "10", "9", "6"]]
    assert table_rows(section(tree, "hosts"))[0][:3] == ["h.example", "2", "2"]


def test_explain_page_marks_the_matched_bytes():
    body = b'<!DOCTYPE html><meta charset="shift_jis"><title>\x93\x8c<script>alert(1)</script></title>'
    report = {"input": {"path": HOSTILE, "bytes": len(body)}, "options": {"content_type": None, "detector": "full"},
              "kind": "html", "decision": decision(label="shift_jis"), "text": HOSTILE,
              "steps": [{"title": "prescan (<meta>)", "found": decision(), "applies": True, "reached": True,
                         "decisive": True, "note": HOSTILE, "matched": HOSTILE, "offset": 15}],
              "scrapy": {"response_class": "HtmlResponse", "encoding": "cp1252", "same_text": False,
                         "first_difference": 3, "text": HOSTILE, "context": None, "our_context": None}}
    tree = assert_inert(render_explain_html(report, body, [("prescan (<meta>)", 15, 41)]))
    marks = [text_of(m) for m in section(tree, "bytes").iter() if local(m.tag) == "mark"]
    assert marks == ['<meta charset="shift_jis">']
    assert "\\x93\\x8C<script>" in text_of(section(tree, "bytes"))
