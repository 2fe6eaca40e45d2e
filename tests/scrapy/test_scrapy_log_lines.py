"""The per-decision log line and the suspect-label line (issue 17 item 5, issue 19 item 7): fields
without a value are left out, no line is much over 200 characters, nothing is formatted while the
level is off."""
from __future__ import annotations

import logging

import pytest

from scrapy_whatwg_encoding import ENCODINGS, sniff
from scrapy_whatwg_encoding.scrapy.stats import URL_SHOWN, Stats, short_url
from scrapy_whatwg_encoding.sniffing.decision import Decision

LONG_URL = "https://www.example.com/" + "a/" * 200 + "?q=" + "x" * 300 + "#end"


def _messages(caplog):
    return [r.getMessage() for r in caplog.records if r.name == "scrapy_whatwg_encoding"]


def test_decision_line_leaves_out_empty_fields(caplog):
    caplog.set_level(logging.DEBUG, logger="scrapy_whatwg_encoding")
    report = Stats(None, logging.DEBUG)
    report.decision("https://example.com/", Decision(ENCODINGS["UTF-8"], "tentative", "detector"), False)
    report.decision("https://example.jp/", sniff(b"<!doctype html><meta charset=shift_jis>"), False)
    assert _messages(caplog) == [
        "Encoding UTF-8 (tentative, source detector) for <https://example.com/>",
        "Encoding Shift_JIS (certain, source prescan, label 'shift_jis', offset 15) for <https://example.jp/>",
    ]


def test_long_urls_keep_lines_short(caplog):
    caplog.set_level(logging.DEBUG, logger="scrapy_whatwg_encoding")
    report = Stats(None, logging.DEBUG)
    decision = sniff(b"caf\xc3\xa9", content_type="text/html; charset=iso-8859-1")
    report.decision(LONG_URL, decision, True, suspect="undecodable")
    report.decision(LONG_URL, Decision(ENCODINGS["UTF-8"], "tentative", "content", "iso-8859-1", 1024), True,
                    suspect="undecodable")
    messages = _messages(caplog)
    assert len(messages) == 4
    assert all(len(m) <= 210 for m in messages), [len(m) for m in messages]
    shown = short_url(LONG_URL)
    assert len(shown) <= URL_SHOWN and shown.startswith("https://www.example.com/a/") and shown.endswith("x#end")
    assert all(f"<{shown}>" in m for m in messages)


def test_nothing_is_formatted_while_the_level_is_off(caplog):
    caplog.set_level(logging.INFO, logger="scrapy_whatwg_encoding")

    class Unformattable:  # what the counters read, and nothing the line alone would read
        encoding, source = ENCODINGS["UTF-8"], "transport"

        def __getattr__(self, name):
            raise AssertionError(f"formatted: {name}")

    report = Stats(None, logging.DEBUG)
    report.decision("https://example.com/", Unformattable(), False)
    assert _messages(caplog) == []
    # At DEBUG the record is made, and formatting it (only then) reads the decision.
    logger = logging.getLogger("scrapy_whatwg_encoding")
    logger.setLevel(logging.DEBUG)
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger.addHandler(handler)
    logger.propagate = False  # no other handler formats it
    try:
        report.decision("https://example.com/", Unformattable(), False)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)
        logger.propagate = True
    [record] = records
    with pytest.raises(AssertionError, match="formatted: confidence"):
        record.getMessage()
