"""Issue 11, item 3, in real crawls: a label the content contradicts is counted
(``whatwg_encoding/suspect_label[/<kind>]``), logged for the first few URLs of each kind, shown in the
HTML report's hosts table, and — only with ``WHATWG_ENCODING_SUSPECT_LABELS = "content"`` — overruled
with the content's encoding (decision source ``"content"``)."""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pytest
import pytest_twisted
from whatwg_crawl_helpers import Server, SiteMap, check_decision, crawl, whatwg_stats

from scrapy_whatwg_encoding import ENCODINGS, decode
from scrapy_whatwg_encoding.scrapy.settings import InvalidSetting
from scrapy_whatwg_encoding.scrapy.stats import SUSPECT_LOGGED

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from report_checks import assert_inert, section, table_rows

CYRILLIC = "Съобщение за пресата: министерството обяви нови правила за училищата в цялата страна. " * 8
# path → (Content-Type, body, kind of suspect label or None, encoding of the content)
PAGES = {
    # The commonest lie: a server-wide charset=iso-8859-1 header on UTF-8 pages.
    "utf-8-as-latin1.html": ("text/html; charset=iso-8859-1",
                             "<!DOCTYPE html><title>Café</title><p>naïve café, 日本語</p>".encode(),
                             "utf-8", "UTF-8"),
    # iso-2022-kr is a label of the replacement encoding: the whole page becomes one U+FFFD.
    "iso-2022-kr.html": ("text/html; charset=iso-2022-kr", b"<!DOCTYPE html><title>Hello</title><p>plain</p>",
                         "replacement", "UTF-8"),
    # x-user-defined from the transport layer (a <meta> saying it means windows-1252).
    "x-user-defined.html": ("text/html; charset=x-user-defined",
                            "<title>Déjà vu</title><p>garçon, œuvre, señor</p>".encode("windows-1252"),
                            "x-user-defined", "windows-1252"),
    # A <meta> claiming UTF-8 on windows-1251 bytes: U+FFFD where windows-1251 decodes cleanly.
    "meta-utf-8-on-windows-1251.html": ("text/html", ('<meta charset="utf-8"><title>Новини</title><p>'
                                                      + CYRILLIC).encode("windows-1251"),
                                        "undecodable", "windows-1251"),
    "labelled-right.html": ("text/html; charset=utf-8", "<title>Café</title><p>naïve</p>".encode(), None, "UTF-8"),
}


@pytest.fixture(scope="module")
def suspect_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("suspect")
    for path, (_, body, _, _) in PAGES.items():
        (root / path).write_bytes(body)
    pages = {path: {"content_type": content_type} for path, (content_type, _, _, _) in PAGES.items()}
    (root / "pages.json").write_text(json.dumps(pages), "utf-8")
    server = Server(SiteMap.load(root))
    yield server
    server.port.stopListening()


def _by_path(responses) -> dict:
    return {r.url.rsplit("/", 1)[1]: r for r in responses}


def _suspect_stats(crawler) -> dict:
    return {k: v for k, v in whatwg_stats(crawler).items() if "suspect_label" in k}


def _kinds() -> dict:
    kinds = [kind for _, _, kind, _ in PAGES.values() if kind]
    return {"whatwg_encoding/suspect_label": len(kinds), **{f"whatwg_encoding/suspect_label/{k}": 1 for k in kinds}}


@pytest_twisted.inlineCallbacks
def test_default_counts_and_keeps_the_standards_answer(suspect_server, tmp_path, caplog):
    report = tmp_path / "report.html"
    with caplog.at_level(logging.INFO, logger="scrapy_whatwg_encoding"):
        crawler, responses = yield crawl([suspect_server.url(p) for p in PAGES],
                                         settings={"WHATWG_ENCODING_REPORT": str(report)})
    assert _suspect_stats(crawler) == _kinds()
    for path, response in _by_path(responses).items():
        encoding = check_decision(response)  # meta and text: exactly sniff()'s, the label's encoding
        assert response.meta["whatwg_encoding"]["source"] != "content"
        assert response.body == PAGES[path][1]
        if PAGES[path][2] is not None:
            assert response.text != decode(response.body, ENCODINGS[PAGES[path][3]])[0]
        assert encoding.name == {"utf-8-as-latin1.html": "windows-1252", "iso-2022-kr.html": "replacement",
                                 "x-user-defined.html": "x-user-defined",
                                 "meta-utf-8-on-windows-1251.html": "UTF-8",
                                 "labelled-right.html": "UTF-8"}[path]
    assert _by_path(responses)["utf-8-as-latin1.html"].css("title::text").get() == "CafÃ©"  # mojibake
    assert _by_path(responses)["iso-2022-kr.html"].text == "\ufffd"
    # One WARNING per suspect page (the text is likely garbled), naming the URL and the kind.
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and "Suspect" in r.getMessage()]
    assert len(warnings) == 4
    for path, (_, _, kind, _) in PAGES.items():
        if kind:
            [line] = [w for w in warnings if f"<{suspect_server.url(path)}>" in w]
            assert f"({kind})" in line and "counted in whatwg_encoding/suspect_label]" in line
            assert len(line) <= 200
    # The HTML report's hosts table: the "suspect labels" column.
    [host] = table_rows(section(assert_inert(report.read_text("utf-8")), "hosts"))
    assert host[0] == "127.0.0.1" and host[1] == str(len(PAGES)) and host[5] == "4"


@pytest_twisted.inlineCallbacks
def test_content_setting_decodes_with_the_contents_encoding(suspect_server, caplog):
    with caplog.at_level(logging.INFO, logger="scrapy_whatwg_encoding"):
        crawler, responses = yield crawl([suspect_server.url(p) for p in PAGES],
                                         settings={"WHATWG_ENCODING_SUSPECT_LABELS": "content"})
    assert _suspect_stats(crawler) == _kinds()
    assert whatwg_stats(crawler)["whatwg_encoding/source/content"] == 4
    for path, response in _by_path(responses).items():
        _, body, kind, truth = PAGES[path]
        assert response.body == body
        assert response.text == decode(body, ENCODINGS[truth])[0], path
        meta = response.meta["whatwg_encoding"]
        if kind is None:
            check_decision(response)
            continue
        assert (meta["encoding"], meta["source"], meta["confidence"]) == (truth, "content", "tentative")
        assert meta["label"] == {"utf-8-as-latin1.html": "iso-8859-1", "iso-2022-kr.html": "iso-2022-kr",
                                 "x-user-defined.html": "x-user-defined",
                                 "meta-utf-8-on-windows-1251.html": "utf-8"}[path]
        assert meta["offset"] == (0 if path.startswith("meta") else None)  # the overruled <meta>'s
    assert _by_path(responses)["utf-8-as-latin1.html"].css("title::text").get() == "Café"
    # Repaired pages are logged at INFO, not WARNING.
    lines = [r for r in caplog.records if "Suspect" in r.getMessage()]
    assert len(lines) == 4 and {r.levelno for r in lines} == {logging.INFO}
    assert all("the content's encoding" in r.getMessage() for r in lines)


@pytest_twisted.inlineCallbacks
def test_only_the_first_urls_of_a_kind_are_logged(suspect_server, caplog):
    url = suspect_server.url("utf-8-as-latin1.html")
    with caplog.at_level(logging.INFO, logger="scrapy_whatwg_encoding"):
        crawler, responses = yield crawl([url] * (SUSPECT_LOGGED + 3))
    assert len(responses) == SUSPECT_LOGGED + 3
    assert _suspect_stats(crawler) == {"whatwg_encoding/suspect_label": SUSPECT_LOGGED + 3,
                                       "whatwg_encoding/suspect_label/utf-8": SUSPECT_LOGGED + 3}
    lines = [r.getMessage() for r in caplog.records if "Suspect" in r.getMessage()]
    assert len(lines) == SUSPECT_LOGGED and lines[-1].endswith(
        f"[{SUSPECT_LOGGED}/{SUSPECT_LOGGED} logged; counted in whatwg_encoding/suspect_label]")
    summary = next(r.getMessage() for r in caplog.records if "WHATWG encoding summary" in r.getMessage())
    assert f"suspect labels (the content contradicts the label): {SUSPECT_LOGGED + 3} (utf-8 ×{SUSPECT_LOGGED + 3})" in summary


@pytest.mark.parametrize("value", ["detector", "", "CONTENT"])
@pytest_twisted.inlineCallbacks
def test_invalid_suspect_labels_setting_fails_at_start(suspect_server, value):
    with pytest.raises(InvalidSetting) as info:
        yield crawl([suspect_server.url("labelled-right.html")], settings={"WHATWG_ENCODING_SUSPECT_LABELS": value})
    assert str(info.value) == (f"WHATWG_ENCODING_SUSPECT_LABELS: invalid value {value!r} "
                               "(expected one of 'label', 'content')")
