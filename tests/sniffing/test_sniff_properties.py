"""Property tests: sniff never raises, and its work is bounded whatever the body's size."""
from __future__ import annotations

import functools
import importlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import Decision, Encoding, sniff
from scrapy_whatwg_encoding.sniffing.decision import SOURCES

# By module path: the package re-exports functions named like their modules (sniff, prescan).
change_module = importlib.import_module("scrapy_whatwg_encoding.sniffing.change")
detect_module = importlib.import_module("scrapy_whatwg_encoding.sniffing.detect")
prescan_module = importlib.import_module("scrapy_whatwg_encoding.sniffing.prescan")
run_module = importlib.import_module("scrapy_whatwg_encoding.sniffing.run")

_PIECES = [
    b"<", b">", b"/", b"=", b'"', b"'", b" ", b"\n", b"-", b"<!--", b"-->", b"<meta ", b"<META/",
    b"charset=", b'http-equiv="content-type" ', b'content="text/html; charset=koi8-r"', b"koi8-r",
    b"utf-16", b"x-user-defined", b"iso-2022-jp", b"<script>", b"</script>", b"<title>", b"<svg>",
    b"<frameset>", b"<body>", b"&#x6b;", b"\x1b$B", b"\x1b(B", b"\xef\xbb\xbf", b"\xff\xfe", b"\x00",
    b"<?xml", b" encoding='gbk'?>", "пример".encode(), "пример".encode("windows-1251"),
    "日本".encode("shift_jis"), b"\x80", b"\xfe",
]
bodies = st.one_of(st.binary(max_size=3000), st.lists(st.sampled_from(_PIECES), max_size=60).map(b"".join))
labels = st.one_of(st.none(), st.sampled_from(["koi8-r", "utf-16le", "UTF-16", "x-user-defined", "gbk",
                                                "replacement", "iso-2022-jp", "bogus", ""]), st.text(max_size=12))
content_types = st.one_of(st.none(), st.text(max_size=40), st.binary(max_size=40), st.sampled_from([
    "text/html", "text/html; charset=utf-16", 'text/html; charset="koi8-r"', "text/plain", "application/xml",
    "image/svg+xml; charset=bogus", "application/json", b"text/html; charset=\xff"]))
options = st.fixed_dictionaries({
    "content_type": content_types,
    "url": st.one_of(st.none(), st.sampled_from(["https://example.ru/", "http://пример.рф/", "data:,x",
                                                  "http://[::1", "https://example.com:99999/"])),
    "locale": st.one_of(st.none(), st.text(max_size=12), st.sampled_from(["ja-JP", "zh-Hant", "ru"])),
    "default": labels, "override": labels, "likely": labels,
    "parent": st.one_of(st.none(), st.tuples(labels.filter(lambda x: x is not None),
                                              st.sampled_from(["https://example.ru", "bogus"]))),
    "detector": st.sampled_from(["off", "browser", "full"]),
    "prescan_bytes": st.integers(min_value=-5, max_value=2048),
    "parser_limit": st.integers(min_value=-5, max_value=5000),
})


@pytest.mark.slow  # hypothesis
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies, options)
def test_sniff_never_raises(body, kwargs):
    decision = sniff(body, **kwargs)
    assert isinstance(decision, Decision)
    assert isinstance(decision.encoding, Encoding)
    assert decision.confidence in ("certain", "tentative")
    assert decision.source in SOURCES
    assert decision.offset is None or 0 <= decision.offset < max(len(body), 1)
    if decision.source in ("prescan", "parser") and decision.offset is not None:
        assert body[decision.offset:decision.offset + 1] == b"<"
    assert set(decision.as_dict()) == {"encoding", "confidence", "source", "label", "offset"}


class WorkMeter:
    """Records the size of every input the steps hand to their scanners and decoders."""

    def __init__(self, monkeypatch):
        self.sizes: dict[str, int] = {}
        decode = Encoding.decode

        def metered_decode(encoding, data):
            self._note("decode", len(data))
            return decode(encoding, data)

        monkeypatch.setattr(Encoding, "decode", metered_decode)
        self._wrap(monkeypatch, prescan_module, "_loop", "prescan", lambda a: len(a[0]))
        self._wrap(monkeypatch, prescan_module, "get_xml_encoding", "xml", lambda a: len(a[0]))
        self._wrap(monkeypatch, run_module, "xml_declared_encoding", "xml", lambda a: len(a[0]))
        # The detector's statistical part is capped; its whole-body scans (first non-ASCII byte,
        # UTF-8 validity) run at C speed over any size and are not metered (issue 11).
        real, meter = detect_module.EncodingDetector, self

        class CountingDetector:  # chardetng: the bytes one detector is fed, in all
            def __init__(self):
                self.detector, self.fed = real(), 0

            def feed(self, data, last):
                self.fed += len(data)
                meter._note("detector", self.fed)
                return self.detector.feed(data, last=last)

            def guess(self, **options):
                return self.detector.guess(**options)

        monkeypatch.setattr(detect_module, "EncodingDetector", CountingDetector)
        self._wrap(monkeypatch, detect_module, "_uchardet", "detector", lambda a: len(a[0]))
        self._wrap(monkeypatch, change_module, "_scan_parser_meta", "parser", lambda a: len(a[0]))
        for name in ("find_meta_bytes", "has_hint_bytes"):
            self._wrap(monkeypatch, change_module, name, "prefilter", lambda a: min(len(a[0]), a[2]) - a[1])

    def _note(self, key, size):
        self.sizes[key] = max(self.sizes.get(key, 0), size)

    def _wrap(self, monkeypatch, module, name, key, size_of):
        original = getattr(module, name)

        def wrapper(*args, **kwargs):
            self._note(key, size_of(args))
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)


BIG = 50 * 1024 * 1024
_FILLERS = [b"x", b"<!-- ", b"<meta ", "ж".encode(), "ж".encode("windows-1251"), b"<a b='", b"\x00<"]


@functools.cache
def big_body(filler: bytes) -> bytes:
    return (filler * (BIG // len(filler) + 1))[:BIG]


@pytest.mark.slow  # 50 MB bodies
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(head=bodies, filler=st.sampled_from(_FILLERS), tail=st.sampled_from([b"", b"<meta charset=koi8-r>"]),
       detector=st.sampled_from(["browser", "full"]),
       content_type=st.sampled_from([None, "text/plain", "application/xml", "text/html; charset=bogus"]),
       likely=st.sampled_from([None, "utf-8", "iso-2022-jp", "utf-16le", "gbk"]))
def test_work_is_bounded_on_50_mb_bodies(monkeypatch, head, filler, tail, detector, content_type, likely):
    body = head + big_body(filler) + tail
    with monkeypatch.context() as patch:
        meter = WorkMeter(patch)
        decision = sniff(body, detector=detector, content_type=content_type, likely=likely)
    assert isinstance(decision, Decision)
    if content_type in (None, "text/html; charset=bogus") and decision.source != "bom":
        assert "prescan" in meter.sizes or "xml" in meter.sizes  # the meter is wired in
        if likely is None and decision.source == "detector" and decision.encoding.name != "UTF-8":
            assert "detector" in meter.sizes  # UTF-8 is decided by the whole-body scan alone
    if content_type == "application/xml" and decision.source != "bom":
        assert "xml" in meter.sizes
    limit = change_module.PARSER_LIMIT
    # "get an XML encoding" reads a leading <?xml to its first ">" however far (C-speed scans,
    # tools/wpt_xml_declaration_cost.py): it may be handed the whole body.
    bounds = {"prescan": 1024, "xml": len(body), "detector": detect_module.DETECT_LIMIT,
              "decode": 4 * limit + 16, "parser": 4 * limit + 16, "prefilter": 4 * limit + 16}
    for key, size in meter.sizes.items():
        assert size <= bounds[key], (key, size)
