"""One pass per response (issue 17): the decision the middleware gets from
``sniffing.decide.decide`` — the sniffing steps, site memory and the suspect-label check sharing
one ``Body`` — is exactly the plain algorithm run step by step in the spec's order, each step on
the raw bytes with no fact shared, and so are the text and the "differs from Scrapy" answer."""
from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS, decode, get_encoding, sniff
from scrapy_whatwg_encoding.encoding import bom_sniff
from scrapy_whatwg_encoding.scrapy.memory import SiteMemory
from scrapy_whatwg_encoding.scrapy.scrapy_default import changed, scrapy_encoding
from scrapy_whatwg_encoding.sniffing.body import Body
from scrapy_whatwg_encoding.sniffing.change import change_the_encoding, parser_meta
from scrapy_whatwg_encoding.sniffing.container import container_encoding
from scrapy_whatwg_encoding.sniffing.content_type import content_type_facts
from scrapy_whatwg_encoding.sniffing.decide import decide
from scrapy_whatwg_encoding.sniffing.decision import Decision
from scrapy_whatwg_encoding.sniffing.detect import detect
from scrapy_whatwg_encoding.sniffing.locale import locale_encoding
from scrapy_whatwg_encoding.sniffing.mislabel import content_decision, suspect_label
from scrapy_whatwg_encoding.sniffing.prescan import prescan_result
from scrapy_whatwg_encoding.sniffing.xml_encoding import xml_declared_encoding

pytestmark = pytest.mark.slow  # hypothesis against the plain algorithm, step by step

URL = "http://example.ru/page"


def _label(value):
    if value is None:
        return None
    encoding = get_encoding(value)
    return None if encoding is None else (encoding, value.strip("\t\n\x0c\r "))


def plain(body: bytes, *, content_type, locale, default, override, memory, suspect_labels, detector):
    """The algorithm as the standard orders it, every step on the raw bytes."""
    _, kind, charset = content_type_facts(content_type)
    decision = _declared(body, kind, charset, override)
    if decision is None and kind in ("html", "text"):
        fallback_default = _default(kind, default, locale)
        if kind == "html" and fallback_default.encoding.is_ascii_compatible:
            found = parser_meta(body, fallback_default.encoding)  # a <meta> the parser acts on decides
            if found is not None:
                decision = change_the_encoding(fallback_default, *found)
        if decision is None:
            detected = detect(body, detector, URL)  # step 8
            fallback = Decision(detected, "tentative", "detector") if detected else fallback_default
            likely = memory.likely(URL, body, fallback) if memory is not None else None  # step 7
            decision = Decision(likely, "tentative", "likely") if likely is not None else fallback
    elif decision is None:
        decision = _default(kind, default, locale)
    if kind == "html" and decision.confidence == "tentative":  # the parser step
        found = parser_meta(body, decision.encoding)
        if found is not None:
            decision = change_the_encoding(decision, *found)
    suspect = suspect_label(body, decision, url=URL)  # the named step after the algorithm
    if suspect is not None and suspect_labels == "content":
        decision = content_decision(body, decision, suspect, url=URL)
    return decision, suspect


def _declared(body, kind, charset, override):
    """Steps 1-6: BOM, override, transport, prescan or XML declaration, container (none here)."""
    bom = bom_sniff(body)
    if bom is not None:
        return Decision(bom, "certain", "bom", None, 0)
    for value, source in ((override, "override"), (charset, "transport")):
        found = _label(value)
        if found is not None:
            return Decision(found[0], "certain", source, found[1])
    if kind == "html":
        found = prescan_result(body, 1024)
        if found is not None:
            return Decision(found[0], "tentative", found[3], found[1], found[2])
    if kind == "xml":
        found = xml_declared_encoding(body)
        if found is not None:
            return Decision(found[0], "certain", "xml-declaration", found[1], 0)
    assert container_encoding(None, URL) is None
    return None


def _default(kind, default, locale):
    if kind in ("xml", "other"):
        return Decision(ENCODINGS["UTF-8"], "tentative", "default")
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
       override=st.one_of(st.none(), labels), remembered=memories,
       suspect_labels=st.sampled_from(["label", "content"]), detector=st.sampled_from(["full", "browser", "off"]))
def test_one_pass_is_the_plain_algorithm(body, content_type, locale, default, override, remembered,
                                         suspect_labels, detector):
    memory = _memory(remembered) if remembered else None
    expected, suspect = plain(body, content_type=content_type, locale=locale, default=default,
                              override=override, memory=memory, suspect_labels=suspect_labels, detector=detector)
    outcome = decide(body, content_type=content_type, url=URL, locale=locale, default=default,
                     override=override, detector=detector, suspect_labels=suspect_labels,
                     likely=None if memory is None else functools.partial(memory.likely, URL))
    assert (outcome.decision, outcome.suspect) == (expected, suspect)
    text = decode(body, expected.encoding)[0]
    kept = outcome.body.decoded(expected.encoding)
    assert kept is None or kept == text
    name = scrapy_encoding(content_type, outcome.body, True)
    assert name == scrapy_encoding(content_type, body, True)
    assert changed(name, expected.encoding, outcome.body) == changed(name, expected.encoding, body)
    if memory is None and suspect_labels == "label":  # sniff() alone: the same algorithm
        assert sniff(body, content_type=content_type, url=URL, locale=locale, default=default,
                     override=override, detector=detector) == expected


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
