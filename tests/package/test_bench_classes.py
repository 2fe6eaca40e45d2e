"""tools/bench_classes.py: every page its builders make lands in its class (issue 17's classes a-g),
so the benchmark cannot silently time pages of another class; and the add-on's text on them is the
WHATWG decode with its decision."""
from __future__ import annotations

import bench_classes
import pytest
from quick_sample import quick_sample

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.sniffing import sniff_steps

NATIVE = bench_classes.sources()


def _landing(page: bench_classes.Page) -> tuple:
    """What the algorithm says about *page*: (source, encoding, confidence, prescan's and
    parser's findings) as the class test needs them."""
    found = sniff_steps(page.body, content_type=page.content_type, url=page.url)
    steps = dict(found["steps"])
    return found["decision"], steps.get("transport"), steps.get("prescan"), found["parser"]


def test_sources_are_real_pages():
    names = {source.name for source in NATIVE}
    assert len(NATIVE) >= 150 and sum(s.encoding == "UTF-8" for s in NATIVE) >= 10
    assert all(not s.body.isascii() for s in NATIVE)
    assert any(name.startswith("demo/") for name in names)


@pytest.mark.parametrize("cls", quick_sample(sorted(bench_classes.CLASSES), {"a", "f"}))
def test_every_page_lands_in_its_class(cls):
    pages = bench_classes.build_class(cls, NATIVE)
    assert len(pages) >= 100, "dozens of pages per class"
    assert len({page.body for page in pages}) == len(pages)
    for page in pages:
        decision, transport, prescan, parser = _landing(page)
        true = ENCODINGS[page.encoding]
        if cls in "afbg":  # a, f: UTF-8 pages; b, g: legacy ones; c, d, e: both
            assert (page.encoding == "UTF-8") == (cls in "af"), page.name
        if cls in "ab":
            assert decision.source == "transport" and decision.encoding is true, page.name
            continue
        assert transport is None and page.content_type == "text/html", page.name
        if cls == "c":
            assert decision.source == "prescan" and decision.offset < 1024 and decision.encoding is true, page.name
        elif cls == "d":
            # The prescan finds nothing; the parser step finds the late <meta> and makes it certain
            # (source "parser", or the tentative step's when that named the same encoding).
            assert prescan is None and parser is not None and parser[0] is true and parser[2] >= 1024, page.name
            assert decision.confidence == "certain" and decision.encoding is true, page.name
            assert decision.source in ("parser", "detector", "default"), page.name
        elif cls == "e":
            assert decision.source == "xml-declaration" and decision.encoding is true, page.name
            assert page.body.startswith(b"<?xml ") and parser is None, page.name
        else:  # f, g: no label anywhere, the detector decides
            assert prescan is None and parser is None and decision.source == "detector", page.name
            if cls == "f":
                assert decision.encoding is true, page.name


def test_late_meta_at_the_end_of_the_head():
    head = b"<html><head><title>t</title><script>" + b"x" * 1100 + b"</script>\n<link rel=x></head><p>\xe9"
    at = bench_classes.late_position(head)
    assert head[at:].startswith(b"</head>")
    assert bench_classes.late_position(b"<p>" + b"x" * 500) == 0  # no head: where one begins
    hidden = b"<script></head></script><p>y</p>"
    assert bench_classes.late_position(hidden) == 0  # not an end tag in raw text


@pytest.mark.slow  # every page of every class
def test_ours_gives_the_whatwg_text_on_every_class():
    """One untimed pass of both sides over a few pages of each class (what the tool's check
    column counts)."""
    ours = bench_classes.Ours()
    for cls in bench_classes.CLASSES:
        pages = bench_classes.build_class(cls, NATIVE)[::20]
        checks = bench_classes.check(pages, ours)
        assert checks.text == len(pages), cls
    assert ours.errors() == 0


@pytest.mark.slow  # a few pages of every class, both shapes
@pytest.mark.parametrize("shape", ["corpus", "real"])
def test_the_floor_decides_as_ours(shape):
    """The floor (the standard's steps called directly, tools/bench_classes.py --layer floor) gives
    each page the encoding, and so the text, the add-on gives it: it times the same work."""
    ours, floor = bench_classes.Ours(), bench_classes.Floor()
    for cls in bench_classes.CLASSES:
        pages = bench_classes.build_class(cls, NATIVE, shape)[::20]
        assert bench_classes.check(pages, floor).text == len(pages), cls
        for page in pages:
            theirs, mine = ours.side(page), floor.side(page)
            assert theirs() == mine(), (cls, page.name)
            assert theirs.request.meta["whatwg_encoding"]["encoding"] == mine.request.meta["whatwg_encoding"]["encoding"]
