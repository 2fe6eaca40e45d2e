"""``WHATWG_ENCODING_REPORT``: real crawls write an HTML report at spider close whose counts equal
the crawl's stats, whose examples are bounded, and which stays inert when the crawled pages'
titles, text and URLs hold markup and ``<script>`` (html5lib: no parse error, nothing active)."""
from __future__ import annotations

import json
import logging
import shutil
import sys
from pathlib import Path

import pytest
import pytest_twisted
from whatwg_crawl_helpers import CollectSpider, Server, SiteMap, crawl, whatwg_stats

from scrapy_whatwg_encoding import report as report_package
from scrapy_whatwg_encoding.scrapy.settings import InvalidSetting
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
    # No Content-Type, no file extension, a UTF-16LE BOM and a control character: Scrapy makes a
    # binary Response.
    'bom"><svg onload=alert(2)>': (None, ("\ufeff<title>\x02" + SCRIPT + "</title>").encode("utf-16-le")),
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
    assert SCRIPT in bom_row[4] and bom_row[5] == "binary response: no text" and bom_row[2] == "binary"
    assert "UTF-8" in by_source and "UTF-16LE" in by_source
    stats = whatwg_stats(crawler)
    cards = _cards(tree)
    assert cards["pages decided"] == stats["whatwg_encoding/responses"] == len(HOSTILE_PAGES)
    assert cards["differs from Scrapy alone"] == stats["whatwg_encoding/changed_from_scrapy_default"] == 2


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
    assert cards["not compared"] == stats["whatwg_encoding/scrapy_default_unknown"]
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


class RemovesReportDirectory(CollectSpider):
    """Removes the report's directory while the crawl runs (after the start-up check)."""

    name = "removes_report_directory"
    directory = None

    def parse(self, response):
        shutil.rmtree(self.directory)
        super().parse(response)


@pytest_twisted.inlineCallbacks
def test_report_that_cannot_be_written_at_close_is_logged_not_raised(demo_server, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    RemovesReportDirectory.directory = tmp_path / "gone"
    RemovesReportDirectory.directory.mkdir()
    report = RemovesReportDirectory.directory / "report.html"
    crawler, responses = yield crawl([demo_server.url("meta/shift_jis.html")], spider_cls=RemovesReportDirectory,
                                     settings={"WHATWG_ENCODING_REPORT": str(report)})
    assert len(responses) == 1 and crawler.stats.get_value("finish_reason") == "finished"
    assert not report.exists()
    assert any("Cannot write the encoding report" in r.getMessage() for r in caplog.records
               if r.levelno == logging.ERROR)


@pytest.mark.parametrize("where", ["no-such-directory/report.html", "a-directory", "a-file/report.html"])
@pytest_twisted.inlineCallbacks
def test_report_path_is_checked_at_start(demo_server, tmp_path, where):
    (tmp_path / "a-directory").mkdir()
    (tmp_path / "a-file").write_text("")
    report = str(tmp_path / where)
    with pytest.raises(InvalidSetting, match="WHATWG_ENCODING_REPORT: invalid value") as info:
        yield crawl([demo_server.url("meta/shift_jis.html")], settings={"WHATWG_ENCODING_REPORT": report})
    assert repr(report) in str(info.value)


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
