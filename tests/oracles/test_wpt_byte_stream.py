"""Every web-platform-tests byte-stream page through ``sniff``, tried as a browser would be.

Expectations come from the pages (``tools/wpt_byte_stream_pages.py`` extracts them into
``tests/data/wpt-expectations/byte-stream.json``): the xmldecl frames' ``document.characterSet``,
the the-input-byte-stream pages' stylesheet match, and ``encoding/bom-handling.html`` /
``encoding/sniffing.html``. WPT serves ``.html``/``.htm`` as ``text/html`` and applies ``.headers``.
The xmldecl pages run as same-origin frames of a windows-1252 parent: the 24 without a usable
declaration get windows-1252 from the container step (sniffing step 6), so they get that parent.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapy_whatwg_encoding import sniff

DATA = Path(__file__).resolve().parents[1] / "data"
PAGES = json.loads((DATA / "wpt-expectations" / "byte-stream.json").read_text("utf-8"))
ORIGIN = "http://web-platform.test:8000"
# Unlabeled UTF-8 that a browser reads as windows-1252: detector="full" detects UTF-8 (documented).
FULL_DIFFERS = {"encoding/sniffing.html"}


def body(page: dict) -> bytes:
    if "body" in page:  # server script (xmldecl/support/trickle.py): the bytes it writes
        return page["body"].encode("latin-1")
    return (DATA / "wpt" / page["page"]).read_bytes()


def run(page: dict, detector: str):
    parent = (page["parent"], ORIGIN) if page.get("parent") else None
    return sniff(body(page), content_type=page["content_type"], url=f"{ORIGIN}/{page['page']}",
                 parent=parent, detector=detector)


def test_every_page_is_here():
    assert len(PAGES) == 101
    for page in PAGES:
        assert "body" in page or (DATA / "wpt" / page["page"]).is_file(), page["page"]
    names = {page["page"].rsplit("/", 1)[-1] for page in PAGES}
    assert {f"kilobyte-plus-one-{w}.htm" for w in ("before", "after", "before-trail", "after-trail")} <= names


@pytest.mark.parametrize("page", PAGES, ids=[f"{p['test']}:{p['page'].rsplit('/', 1)[-1]}" for p in PAGES])
@pytest.mark.parametrize("detector", ["browser", "full"])
def test_page(page, detector):
    decision = run(page, detector)
    if detector == "full" and page["page"] in FULL_DIFFERS:
        assert decision.encoding.name == "UTF-8"
        return
    assert decision.encoding.name == page["expected"], decision.as_dict()
    if "box_class" in page:  # the test's own check: #box's class matches the UTF-8 stylesheet
        text = decision.encoding.decode(body(page)).lstrip("\ufeff")
        assert f"id='box' class='{page['box_class']}'" in text


def test_counts():
    results = {d: sum(run(p, d).encoding.name == p["expected"] for p in PAGES) for d in ("browser", "full")}
    assert results == {"browser": 101, "full": 100}
