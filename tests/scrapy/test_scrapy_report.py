"""``WHATWG_ENCODING_REPORT``: real crawls write an HTML report at spider close whose counts equal
the crawl's stats, whose examples are bounded, and which stays inert when the crawled pages'
titles, text and URLs hold markup and ``<script>`` (html5lib: no parse error, nothing active)."""
from __future__ import annotations

import json
import logging
import os
import shutil
import sys
from pathlib import Path

import pytest
import pytest_twisted
from scrapy.http import HtmlResponse
from whatwg_crawl_helpers import CollectSpider, Server, SiteMap, crawl, whatwg_stats

from scrapy_whatwg_encoding import ENCODINGS, decode
from scrapy_whatwg_encoding import report as report_package
from scrapy_whatwg_encoding.scrapy.settings import InvalidSetting, check_report_path
from scrapy_whatwg_encoding.sniffing.decide import Options

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from report_checks import assert_inert, local, section, table_rows, text_of

SCRIPT = '<script>alert("x")</script><img src=x onerror=alert(1)>'
# path → (Content-Type or None, body): pages whose text differs from Scrapy's, with hostile text.
HOSTILE_PAGES = {
    # <meta> says utf-16: the prescan reads UTF-8 (HTML §13.2.3.2), Scrapy decodes UTF-16.
    "meta'onmouseover='alert(1)'<script>.html": (
        "text/html", ('<meta charset="utf-16"><title>\x01\x0b' + SCRIPT + "</title><p>"
                      + SCRIPT + " caf\u00e9 \ufffe</p>").encode()),
    # FF FE 00 00: the standard's UTF-16LE BOM then U+0000, w3lib's UTF-32LE: the texts differ.
    'bom"><svg onload=alert(2)>': ("text/html", b"\xff\xfe\x00\x00"
                                   + ("<title>\x02" + SCRIPT + "</title>").encode("utf-16-le")),
    # No label at all, windows-1251 bytes: autodetection (Scrapy would guess statistically).
    "unlabeled<b>.html": ("text/html", ("<title>" + SCRIPT + "</title><p>" + "Привет, мир! Как дела? " * 20)
                          .encode("windows-1251")),
}


def _cards(tree) -> dict[str, int]:
    cards = [e for e in tree.iter() if local(e.tag) == "div" and e.get("class") == "card"]
    return {(c[0].tail or "").strip(): int(text_of(c[0])) for c in cards}  # <b>count</b>label


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    pages = {}
    for path, (content_type, body) in HOSTILE_PAGES.items():
        (root / path).write_bytes(body)
        pages[path] = {"content_type": content_type, "expect": None}
    (root / "pages.json").write_text(json.dumps(pages), "utf-8")
    server = Server(SiteMap.load(root))
    yield server
    server.port.stopListening()


@pytest_twisted.inlineCallbacks
def test_report_of_hostile_pages_is_inert(hostile_server, tmp_path):
    report = tmp_path / "report.html"
    crawler, responses = yield crawl([hostile_server.url(p) for p in HOSTILE_PAGES],
                             settings={"WHATWG_ENCODING_REPORT": str(report)})
    assert len(responses) == len(HOSTILE_PAGES)
    document = report.read_text("utf-8")
    tree = assert_inert(document)
    assert "<script" not in document.lower() and "<svg onload" not in document
    examples = table_rows(section(tree, "differences"))
    by_source = {row[1].split(" ")[0]: row for row in examples}
    # The hostile text reached the report as text: html5lib reads it back as characters.
    meta_row = next(row for row in examples if "meta'onmouseover='alert(1)'" in row[0])
    assert '\\x01\\x0B<script>alert("x")</script>' in meta_row[4] and meta_row[2] == "utf-16"
    bom_row = next(row for row in examples if row[0].startswith(hostile_server.url("bom")))
    assert SCRIPT in bom_row[4] and SCRIPT not in bom_row[5] and bom_row[2] == "utf-32-le"
    assert "UTF-8" in by_source and "UTF-16LE" in by_source
    stats = whatwg_stats(crawler)
    cards = _cards(tree)
    assert cards["pages decided"] == stats["whatwg_encoding/responses"] == len(HOSTILE_PAGES)
    # The first two pages differ; the unlabeled one where Scrapy alone's statistical guess (which
    # differs between Scrapy releases) is not windows-1251's text.
    unlabeled = HOSTILE_PAGES["unlabeled<b>.html"][1]
    alone = HtmlResponse("http://a.test/", body=unlabeled, headers={"Content-Type": "text/html"}).text
    guessed_wrong = alone != decode(unlabeled, ENCODINGS["windows-1251"])[0]
    assert cards["differs from Scrapy alone"] == stats["whatwg_encoding/changed_from_scrapy_default"] == 2 + guessed_wrong


@pytest_twisted.inlineCallbacks
def test_report_counts_equal_the_stats(demo_server, tmp_path):
    report = tmp_path / "demo.html"
    paths = list(demo_server.site.pages)
    crawler, _ = yield crawl([demo_server.url(p) for p in paths],
                             settings={"WHATWG_ENCODING_REPORT": str(report)})
    stats = whatwg_stats(crawler)
    tree = assert_inert(report.read_text("utf-8"))
    cards = _cards(tree)
    assert cards["pages decided"] == stats["whatwg_encoding/responses"]
    assert cards["differs from Scrapy alone"] == stats["whatwg_encoding/changed_from_scrapy_default"]
    # A crawl this small compares every page (fewer than COMPARE_FIRST per source need a replay).
    assert cards["not compared"] == stats.get("whatwg_encoding/scrapy_default_unknown", 0) == 0
    assert cards["errors"] == 0 and cards["hosts"] == 1
    bars = {}
    for rect in section(tree, "charts").iter():
        if local(rect.tag) == "rect" and rect.get("class") == "bar":
            label, _, rest = text_of(rect).partition(": ")
            bars[label] = bars.get(label, 0) + int(rest.split(" ")[0])
    expected = {k.split("/", 2)[2]: v for k, v in stats.items() if k.startswith(("whatwg_encoding/source/",
                                                                                  "whatwg_encoding/encoding/"))}
    assert bars == expected
    [host] = table_rows(section(tree, "hosts"))
    assert host[:3] == ["127.0.0.1", str(cards["pages decided"]), str(cards["differs from Scrapy alone"])]
    shown = table_rows(section(tree, "differences"))
    assert shown and all(row[0].startswith(demo_server.base) for row in shown)


@pytest_twisted.inlineCallbacks
def test_examples_are_bounded(corpus_server, corpus_manifest, tmp_path):
    report = tmp_path / "corpus.html"
    crawler, _ = yield crawl([corpus_server.url(e["path"]) for e in corpus_manifest],
                             settings={"WHATWG_ENCODING_REPORT": str(report),
                                       "WHATWG_ENCODING_REPORT_EXAMPLES": "1"})
    tree = assert_inert(report.read_text("utf-8"))
    headings = [text_of(h) for h in section(tree, "differences").iter() if local(h.tag) == "h3"]
    assert headings and all(h.endswith("; 1 shown") for h in headings)
    assert len(table_rows(section(tree, "differences"))) == len(headings)
    assert _cards(tree)["pages decided"] == whatwg_stats(crawler)["whatwg_encoding/responses"] == len(corpus_manifest)


@pytest_twisted.inlineCallbacks
def test_errors_are_counted_per_host_and_kind(demo_server, tmp_path, monkeypatch):
    real_decide = Options.decide

    def failing_decide(options, body, content_type=None, url=None, *args):
        if "/meta/" in url:
            raise RuntimeError("injected by the test")
        return real_decide(options, body, content_type, url, *args)

    monkeypatch.setattr(Options, "decide", failing_decide)
    report = tmp_path / "errors.html"
    paths = [p for p in demo_server.site.pages if p.startswith(("meta/", "header/"))]
    crawler, _ = yield crawl([demo_server.url(p) for p in paths], settings={"WHATWG_ENCODING_REPORT": str(report)})
    tree = assert_inert(report.read_text("utf-8"))
    failed = sum(p.startswith("meta/") for p in paths)
    [row] = table_rows(section(tree, "errors"))
    assert row[:2] == ["RuntimeError", str(failed)] and demo_server.base in row[2]
    assert table_rows(section(tree, "hosts"))[0][6] == str(failed)
    assert whatwg_stats(crawler)["whatwg_encoding/errors"] == failed


class BreaksReportDirectory(CollectSpider):
    """Takes the report's directory away while the crawl runs (after the start-up check): removes
    it, or puts a file in its place. Root cannot write there either (permissions would not do:
    root ignores them)."""

    name = "breaks_report_directory"
    directory: Path
    how = "removed"

    def parse(self, response):
        shutil.rmtree(self.directory)
        if self.how == "replaced by a file":
            self.directory.write_text("not a directory")
        super().parse(response)


@pytest.mark.parametrize("how", ["removed", "replaced by a file"])
@pytest_twisted.inlineCallbacks
def test_report_that_cannot_be_written_at_close_is_an_error_counted_not_raised(demo_server, tmp_path, caplog, how):
    """Issue 28, item 1: the failure is one ERROR line, counted in whatwg_encoding/close_errors and in
    Scrapy's log_count/ERROR (Scrapy ≥ 2.14 stops counting in its own spider_closed receiver, before
    the package's), and the crawl still finishes."""
    caplog.set_level(logging.INFO)
    BreaksReportDirectory.directory = tmp_path / "gone"
    BreaksReportDirectory.directory.mkdir()
    BreaksReportDirectory.how = how
    report = BreaksReportDirectory.directory / "report.html"
    crawler, responses = yield crawl([demo_server.url("meta/shift_jis.html")], spider_cls=BreaksReportDirectory,
                                     settings={"WHATWG_ENCODING_REPORT": str(report)})
    assert len(responses) == 1 and crawler.stats.get_value("finish_reason") == "finished"
    assert not report.exists()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    reason = "No such file or directory" if how == "removed" else "Not a directory"
    assert len(errors) == 1 and errors[0].startswith(f"Cannot write the encoding report {report}: "), errors
    assert reason in errors[0]
    assert crawler.stats.get_value("whatwg_encoding/close_errors") == 1
    assert crawler.stats.get_value("log_count/ERROR") == 1


@pytest_twisted.inlineCallbacks
def test_report_that_cannot_be_rendered_is_an_error_counted_not_raised(demo_server, tmp_path, caplog, failing_report):
    caplog.set_level(logging.INFO)
    report = tmp_path / "report.html"
    crawler, responses = yield crawl([demo_server.url("meta/shift_jis.html")],
                                     settings={"WHATWG_ENCODING_REPORT": str(report)})
    assert len(responses) == 1 and crawler.stats.get_value("finish_reason") == "finished"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [f"Cannot render the encoding report {report}"]
    assert "injected by the test" in caplog.text and not report.exists()
    assert crawler.stats.get_value("whatwg_encoding/close_errors") == 1
    assert crawler.stats.get_value("log_count/ERROR") == 1


@pytest.mark.parametrize("where", ["no-such-directory/report.html", "a-directory", "a-file/report.html",
                                   "/proc/report.html", "/proc/self/report.html", "nul\x00.html"])
@pytest_twisted.inlineCallbacks
def test_report_path_is_checked_at_start(demo_server, tmp_path, where):
    """Paths that cannot be written stop the crawl at start, whoever runs it: /proc is a directory
    where os.access() tells root it may write, but no file can be created there."""
    (tmp_path / "a-directory").mkdir()
    (tmp_path / "a-file").write_text("")
    report = str(tmp_path / where)
    with pytest.raises(InvalidSetting, match="WHATWG_ENCODING_REPORT: invalid value") as info:
        yield crawl([demo_server.url("meta/shift_jis.html")], settings={"WHATWG_ENCODING_REPORT": report})
    assert repr(report) in str(info.value)
    if where.startswith("/proc/"):
        assert str(info.value).endswith(f"({report} cannot be written: No such file or directory)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_report_path_check_never_blocks_on_a_fifo(tmp_path):
    """An existing path is opened for appending without blocking: a FIFO without a reader, where
    the report at close would hang the crawl, is refused at once."""
    fifo = tmp_path / "report.html"
    os.mkfifo(fifo)
    with pytest.raises(InvalidSetting, match="cannot be written"):
        check_report_path("WHATWG_ENCODING_REPORT", str(fifo))


@pytest_twisted.inlineCallbacks
def test_report_path_check_leaves_the_file_system_as_it_was(demo_server, tmp_path):
    """The start-up check creates a missing file and removes it, and opens an existing file for
    appending without changing it: a crawl that stops at start (another setting is invalid, read
    after the report's) leaves neither a new file nor a changed one."""
    new, existing = tmp_path / "new.html", tmp_path / "existing.html"
    existing.write_text("an older report")
    for report in (new, existing):
        with pytest.raises(InvalidSetting, match="WHATWG_ENCODING_SUSPECT_LABELS"):
            yield crawl([demo_server.url("meta/shift_jis.html")],
                        settings={"WHATWG_ENCODING_REPORT": str(report), "WHATWG_ENCODING_SUSPECT_LABELS": "x"})
    assert not new.exists() and existing.read_text() == "an older report"
    assert check_report_path("WHATWG_ENCODING_REPORT", str(new)) == str(new) and not new.exists()


@pytest.mark.parametrize(("name", "value"), [
    ("WHATWG_ENCODING_REPORT_EXAMPLES", -1), ("WHATWG_ENCODING_REPORT_EXAMPLES", 2.5),
    ("WHATWG_ENCODING_REPORT_EXAMPLES", "many"), ("WHATWG_ENCODING_REPORT", 42)])
@pytest_twisted.inlineCallbacks
def test_invalid_report_setting_fails_at_start(demo_server, name, value):
    with pytest.raises(InvalidSetting) as info:
        yield crawl([demo_server.url("meta/shift_jis.html")], settings={name: value})
    assert name in str(info.value) and repr(value) in str(info.value)


@pytest_twisted.inlineCallbacks
def test_a_failing_example_never_disturbs_the_crawl(hostile_server, tmp_path, monkeypatch):
    def failing(*args):
        raise RuntimeError("injected by the test")

    monkeypatch.setattr(report_package, "first_difference", failing)  # stats imports it on first use
    report = tmp_path / "report.html"
    crawler, responses = yield crawl([hostile_server.url(p) for p in HOSTILE_PAGES],
                                     settings={"WHATWG_ENCODING_REPORT": str(report)})
    assert all("whatwg_encoding" in r.meta for r in responses) and len(responses) == len(HOSTILE_PAGES)
    stats = whatwg_stats(crawler)
    assert "whatwg_encoding/errors" not in stats
    tree = assert_inert(report.read_text("utf-8"))
    assert _cards(tree)["pages decided"] == stats["whatwg_encoding/responses"] and not table_rows(
        section(tree, "differences"))
