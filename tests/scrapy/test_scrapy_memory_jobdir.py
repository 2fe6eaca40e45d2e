"""WHATWG_ENCODING_REMEMBER with JOBDIR: a host's declarations are counted in
``JOBDIR/whatwg_encoding_memory.sqlite3`` so that a resumed crawl remembers; the memory never overrides
valid UTF-8 nor a page the detector reads in another script (tests/scrapy/test_scrapy_memory_corpus.py:
where it does apply)."""
from __future__ import annotations

import pytest_twisted
from whatwg_crawl_helpers import check_decision, crawl, memory_rows, whatwg_stats

from scrapy_whatwg_encoding.scrapy.memory import MIN_DECLARATIONS, host_of
from scrapy_whatwg_encoding.scrapy.memory.sqlite import FILE_NAME


@pytest_twisted.inlineCallbacks
def test_remember_persists_in_jobdir(demo_server, tmp_path):
    settings = {"JOBDIR": str(tmp_path), "WHATWG_ENCODING_REMEMBER": True}
    _, pages = yield crawl([demo_server.url("header/koi8-r.html")] * MIN_DECLARATIONS, settings=settings)
    assert {p.meta["whatwg_encoding"]["source"] for p in pages} == {"transport"}
    first = memory_rows(tmp_path / FILE_NAME)
    assert first == {host_of(demo_server.base): {"KOI8-R": MIN_DECLARATIONS}}

    # A new crawl (the job resumed) knows the host as KOI8-R, yet valid UTF-8 stays UTF-8 and a
    # windows-1251 page (another alphabet in KOI8-R) stays with the detector: the memory is not used.
    crawler, (hindi, russian) = yield crawl(
        [demo_server.url("unlabeled/hi-utf-8.html"), demo_server.url("unlabeled/ru-windows-1251.html")],
        settings=settings)
    for page, encoding in ((hindi, "UTF-8"), (russian, "windows-1251")):
        check_decision(page)
        assert page.meta["whatwg_encoding"]["encoding"] == encoding
        assert page.meta["whatwg_encoding"]["source"] == "detector"
    assert "whatwg_encoding/memory/applied" not in whatwg_stats(crawler)
    assert memory_rows(tmp_path / FILE_NAME) == first  # nothing declared: nothing new

    # Without REMEMBER (the default) the same job directory changes nothing.
    _, (again,) = yield crawl([demo_server.url("unlabeled/ru-windows-1251.html")],
                              settings={"JOBDIR": str(tmp_path)})
    check_decision(again)
    assert again.meta["whatwg_encoding"]["source"] == "detector"


@pytest_twisted.inlineCallbacks
def test_memory_is_saved_whatever_the_report_raises(demo_server, tmp_path, caplog, failing_report):
    """Issue 20: the report failing at spider close with something else than an OSError (here a
    RuntimeError injected into its rendering); the memory is still saved, and the error is logged
    and counted. (A report path with a NUL byte, issue 20's case, now stops the crawl at start.)"""
    settings = {"JOBDIR": str(tmp_path), "WHATWG_ENCODING_REMEMBER": True,
                "WHATWG_ENCODING_REPORT": str(tmp_path / "report.html")}
    crawler, pages = yield crawl([demo_server.url("header/koi8-r.html")] * 50, settings=settings)
    assert len(pages) == 50
    assert memory_rows(tmp_path / FILE_NAME) == {host_of(demo_server.base): {"KOI8-R": 50}}
    assert crawler.stats.get_value("whatwg_encoding/close_errors") == 1
    assert "Cannot render the encoding report" in caplog.text and "injected by the test" in caplog.text
    assert sorted(p.name for p in tmp_path.iterdir() if "whatwg" in p.name) == [FILE_NAME]  # no -wal, .tmp
