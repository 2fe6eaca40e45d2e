"""One run of the standard (issue 34): the decision the middleware gets from
``sniffing.decide.decide`` — the run in the standard's order with its shortcuts, site memory and
the suspect-label check sharing one ``Body`` — is exactly an oracle written from the standard's
text (HTML §13.2.3.2 steps 1-9 in order, then §13.2.3.4 on the whole decoded text, no shortcut at
all), and so is the run with every shortcut's plain twin (``shortcuts=False``)."""
from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS, decode, get_encoding, sniff
from scrapy_whatwg_encoding.encoding import bom_sniff
from scrapy_whatwg_encoding.scrapy.memory import SiteMemory
from scrapy_whatwg_encoding.sniffing.body import Body
from scrapy_whatwg_encoding.sniffing.change import PARSER_LIMIT, byte_offset
from scrapy_whatwg_encoding.sniffing.content_type import content_type_facts
from scrapy_whatwg_encoding.sniffing.decide import decide
from scrapy_whatwg_encoding.sniffing.decision import Decision
from scrapy_whatwg_encoding.sniffing.detect import detect
from scrapy_whatwg_encoding.sniffing.locale import locale_encoding
from scrapy_whatwg_encoding.sniffing.mislabel import content_decision, suspect_label
from scrapy_whatwg_encoding.sniffing.parser_scan import find_parser_meta
from scrapy_whatwg_encoding.sniffing.prescan import prescan_result
from scrapy_whatwg_encoding.sniffing.run import Settings, run
from scrapy_whatwg_encoding.sniffing.steps import Step
from scrapy_whatwg_encoding.sniffing.xml_encoding import xml_declared_encoding

pytestmark = pytest.mark.slow  # hypothesis against the standard's text, step by step

URL = "http://example.ru/page"
_UTF_8, _WINDOWS_1252 = ENCODINGS["UTF-8"], ENCODINGS["windows-1252"]


def _label(value):
    if value is None:
        return None
    encoding = get_encoding(value)
    return None if encoding is None else (encoding, value.strip("\t\n\x0c\r "))


def oracle(body: bytes, *, content_type, locale, default, override, memory, detector, likely=None):
    """The encoding sniffing algorithm as the standard's text orders it, each step on the raw bytes."""
    _, kind, charset = content_type_facts(content_type)
    # 1. BOM sniff.
    bom = bom_sniff(body)
    if bom is not None:
        return Decision(bom, "certain", "bom", None, 0)
    # 2. The user override; 4. the transport layer.
    for value, source in ((override, "override"), (charset, "transport")):
        found = _label(value)
        if found is not None:
            return Decision(found[0], "certain", source, found[1])
    decision = None
    if kind == "html":  # 5. Prescan (and get an XML encoding).
        found = prescan_result(body, 1024)
        if found is not None:
            decision = Decision(found[0], "tentative", found[3], found[1], found[2])
    elif kind == "xml":  # XML 1.0 Appendix F: the declaration.
        found = xml_declared_encoding(body)
        if found is not None:
            return Decision(found[0], "certain", "xml-declaration", found[1], 0)
    if decision is None and kind in ("html", "text"):
        # 6. No container document here. 7. The likely encoding (the memory weighs what 8-9 give).
        detected = detect(body, detector, URL)  # 8.
        fallback = Decision(detected, "tentative", "detector") if detected else _default(kind, default, locale)
        found = _label(likely) if memory is None else (memory.likely(URL, body, fallback), None)
        if found is not None and found[0] is not None:
            decision = Decision(found[0], "tentative", "likely", found[1])
        else:
            decision = fallback  # 8., else 9.
    elif decision is None:
        decision = _default(kind, default, locale)  # 9.
    if kind == "html" and decision.confidence == "tentative":
        decision = _parser_step(body, decision)
    return decision


def _parser_step(body: bytes, current: Decision) -> Decision:
    """§13.2.3.4 on the whole body decoded with the current encoding: the first <meta> the tree
    builder acts on in the first PARSER_LIMIT characters, then "change the encoding" steps 1-6."""
    encoding = current.encoding
    text = encoding.decode(body)
    found = None if encoding.name == "replacement" else find_parser_meta(text, PARSER_LIMIT)
    if found is None:
        return current
    new, label, index = found
    certain = Decision(encoding, "certain", current.source, current.label, current.offset)
    if encoding.is_utf16:  # step 1
        return certain
    new = _UTF_8 if new.is_utf16 else _WINDOWS_1252 if new.name == "x-user-defined" else new  # steps 2-3
    if new is encoding and current.source in ("prescan", "xml-declaration"):  # step 4, a declaration's
        return certain
    return Decision(new, "certain", "parser", label, byte_offset(body, encoding, text, index))  # 4-6


def _default(kind, default, locale):
    if kind in ("xml", "other"):
        return Decision(_UTF_8, "tentative", "default")
    found = _label(default)
    if found is not None:
        return Decision(found[0], "tentative", "default", found[1])
    return Decision(locale_encoding(locale), "tentative", "default")


_PIECES = [
    b"<", b">", b"/", b"=", b'"', b" ", b"\n", b"<!--", b"-->", b"<meta ", b"charset=", b"koi8-r", b"utf-8",
    b'<meta http-equiv="content-type" content="text/html; charset=windows-1251">', b"<meta charset=euc-jp>",
    b"<meta charset=utf-8>", b"<meta charset=koi8-r>",
    b"<script>", b"</script>", b"<title>", b"</title>", b"\xef\xbb\xbf", b"\xff\xfe", b"\x00", b"\x1b$B",
    b"<?xml version='1.0' encoding='koi8-r'?>", b"x" * 700, b"<!-- " + b"-" * 900 + b" -->",
    "Привет, мир. Съешь же ещё этих мягких булок".encode(),
    "Привет, мир. Съешь же ещё этих мягких булок".encode("windows-1251"),
    "Привет, мир. Съешь же ещё этих мягких булок".encode("koi8-r"),
    "日本語のテキストです".encode("shift_jis"), "日本語のテキストです".encode("euc-jp"), b"\x80", b"\xfe",
]
_LATE = [b"", b"<!-- " + b"-" * 1100 + b" -->", b"<p>" + b"x" * 1100 + b"</p>"]  # push what follows past the prescan
_pieces = st.lists(st.sampled_from(_PIECES), max_size=20).map(b"".join)
_METAS = [b"", b"<meta charset=utf-8>", b"<meta charset=koi8-r>", b"<meta charset=windows-1251>",
          b"<meta charset=shift_jis>", b"<meta charset=utf-16>", b"<meta charset=x-user-defined>"]
_RUSSIAN, _JAPANESE = "Съешь же ещё этих мягких булок, да выпей чаю", "日本語のテキストです。漢字とかな"
_TEXTS = [b"", *(_RUSSIAN.encode(name) for name in ("utf-8", "koi8-r", "windows-1251")),
          *(_JAPANESE.encode(name) for name in ("utf-8", "shift_jis", "euc-jp"))]
bodies = st.tuples(_pieces, st.sampled_from(_LATE), st.sampled_from(_METAS), st.sampled_from(_TEXTS),
                   _pieces).map(b"".join)
labels = st.one_of(st.none(), st.sampled_from(["koi8-r", "utf-16le", "x-user-defined", "gbk", "iso-2022-kr",
                                                "iso-2022-jp", "shift_jis", "utf-8", "bogus"]))
content_types = st.sampled_from([None, "text/html", "text/html; charset=utf-8", "text/html; charset=koi8-r",
                                 "text/html;charset=UTF8", "text/plain; charset=unicode-1-1-utf-8",
                                 "application/xml; charset=utf-8",
                                 "text/html; charset=iso-8859-7", "text/html; charset=bogus", "text/plain",
                                 "application/xml", "application/json", "text/html; charset=utf-16le"])
memories = st.one_of(st.none(), st.sampled_from(["KOI8-R", "windows-1251", "Shift_JIS", "EUC-JP", "UTF-8"]))


@functools.cache
def _memory(name: str) -> SiteMemory:
    memory = SiteMemory()
    memory.add("example.ru", {name: 10})
    return memory


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=bodies, content_type=content_types, locale=st.sampled_from([None, "ru", "ja"]), default=labels,
       override=st.one_of(st.none(), labels), remembered=memories, likely=labels,
       suspect_labels=st.sampled_from(["label", "content"]), detector=st.sampled_from(["full", "browser", "off"]))
def test_one_run_is_the_standards_text(body, content_type, locale, default, override, remembered, likely,
                                       suspect_labels, detector):
    memory = _memory(remembered) if remembered else None
    expected = oracle(body, content_type=content_type, locale=locale, default=default, override=override,
                      memory=memory, detector=detector, likely=likely)
    suspect = suspect_label(body, expected, url=URL)  # the named step after the algorithm
    final = content_decision(body, expected, suspect, url=URL) if suspect and suspect_labels == "content" else expected
    outcome = decide(body, content_type=content_type, url=URL, locale=locale, default=default,
                     override=override, detector=detector, suspect_labels=suspect_labels,
                     likely=likely if memory is None else functools.partial(memory.likely, URL))
    assert (outcome.decision, outcome.suspect) == (final, suspect)
    kept = outcome.body.decoded(final.encoding)
    assert kept is None or kept == decode(body, final.encoding)[0]
    if memory is None:  # sniff() and the run with every plain twin: the same algorithm
        options = {"content_type": content_type, "url": URL, "locale": locale, "default": default,
                   "override": override, "detector": detector, "likely": likely}
        assert sniff(body, **options) == expected
        twins = run(Body(body), content_type, URL, Settings(locale, default, detector=detector), override, None,
                    likely, shortcuts=False)
        assert twins.decision == expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(head=st.lists(st.sampled_from([
    b"", b"<!DOCTYPE html><html lang=ru>", b'<meta name="viewport" content="width=1">', b"<title>t</title>",
    b"<script>var a = 1 < 2;</script>", b"\x1b$B", b"\x0e", "<p>Съешь ещё</p>".encode("windows-1251"),
    "<p>日本語</p>".encode("shift_jis"), "<p>中文</p>".encode("gbk"), "<p>é</p>".encode(),
    # a lead byte before ASCII that a multi-byte decoder takes as its trail byte
    b'<meta http-equiv="Content-Type" content="text/html; \x81charset=gbk">', b"<\x81title>", b"<titl\x81e>",
    b"<title>\x81</title>", b"&#9\x8199;", b"<!-\x81->", b"\x81<!--", b"-->", b"\xa4<script>\xa4x"]), max_size=4).map(b"".join),
       pad=st.sampled_from([0, 600, 1100, 5000]), meta=st.sampled_from(_METAS[1:]), text=st.sampled_from(_TEXTS),
       likely=labels, detector=st.sampled_from(["full", "browser", "off"]), locale=st.sampled_from([None, "ja"]))
def test_step_8_shortcut_is_its_twin(head, pad, meta, text, likely, detector, locale):
    """Step 8 is skipped where the parser step's <meta> decides whatever it gives (late metas after
    ASCII): the decision, with and without the shortcut, is the oracle's."""
    body = head + b"<!--" + b"x" * pad + b"-->" + meta + text  # (a comment: a late meta still in the head)
    expected = oracle(body, content_type="text/html", locale=locale, default=None, override=None, memory=None,
                      detector=detector, likely=likely)
    settings_ = Settings(locale, detector=detector)
    for shortcuts in (True, False):
        trace = run(Body(body), "text/html", URL, settings_, None, None, likely, shortcuts=shortcuts)
        assert trace.decision == expected, shortcuts


@pytest.mark.parametrize(("body", "asked"), [
    (b"<!--" + b"x" * 1100 + b"--><meta charset=koi8-r>" + b"\x1b$B<<\x1b(B", False),  # the escape after the <meta>
    (b"\x1b$B" + b"<<" * 200 + b"\x1b(B" + b"x" * 1100 + b"<meta charset=koi8-r>", True),  # before it
    (b"<p>\x0e</p>" + b"x" * 1100 + b"<meta charset=koi8-r>", True),  # a shift before it
    (b"\x1b$B<<\x1b(B", True),  # no <meta> at all
])
def test_step_8_shortcut_with_iso_2022_jp_escapes_is_its_twin(body, asked):
    """ISO-2022-JP (which step 8 may give for an ASCII body) reads a <meta> alike only before its
    first escape or shift: step 8 is skipped exactly where the <meta> comes first."""
    expected = oracle(body, content_type="text/html", locale=None, default=None, override=None, memory=None,
                      detector="full", likely=None)
    for shortcuts in (True, False):
        trace = run(Body(body), "text/html", URL, Settings(), shortcuts=shortcuts)
        assert trace.decision == expected, shortcuts
    trace = run(Body(body), "text/html", URL, Settings())
    assert (Step.DETECTOR in trace.notes) is not asked


@settings(max_examples=300, deadline=None)
@given(body=bodies)
def test_body_facts_are_the_bytes_facts(body):
    facts = Body(body)
    first = next((i for i, byte in enumerate(body) if byte >= 0x80), None)
    assert facts.first_non_ascii == first
    assert facts.is_ascii == body.isascii()
    try:
        body.decode("utf-8")
        valid = True
    except UnicodeDecodeError:
        valid = False
    assert facts.is_utf_8 == valid
    for name in ("UTF-8", "windows-1251", "Shift_JIS", "UTF-16LE"):
        assert facts.text(ENCODINGS[name]) == decode(body, ENCODINGS[name])[0]
