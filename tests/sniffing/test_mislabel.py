"""suspect_label: a label that contradicts the content (issue 11), on real corpus pages served with
their true label and with wrong ones, and on constructed cases."""
from __future__ import annotations

import cProfile
import functools
import pstats
import random

import pytest
from cases import corpus_cases

from scrapy_whatwg_encoding import ENCODINGS, Encoding, decode, sniff
from scrapy_whatwg_encoding.encoding.tables.single_byte import SINGLE_BYTE
from scrapy_whatwg_encoding.sniffing.body import Body
from scrapy_whatwg_encoding.sniffing.decide import decide
from scrapy_whatwg_encoding.sniffing.decision import SOURCES, Decision
from scrapy_whatwg_encoding.sniffing.detect import DECODES_EVERY_BYTE, detect
from scrapy_whatwg_encoding.sniffing.mislabel import (
    KINDS,
    LABEL_SOURCES,
    WHOLE_LIMIT,
    content_decision,
    suspect_label,
)

UTF_8_PAGE = "<!DOCTYPE html><title>Café</title><p>naïve — déjà vu, 日本語</p>".encode()


def served(body: bytes, charset: str):
    return sniff(body, content_type=f"text/html; charset={charset}")


def corpus(name: str):
    return [(path, body) for encoding, path, body in corpus_cases() if encoding == name]


def test_true_labels_are_never_suspect():
    """Every real page with a Web encoding, labelled with its true encoding, and as served (with
    its own <meta> / XML declaration, when it has one): no false alarm."""
    for name, path, body in corpus_cases():
        assert suspect_label(body, served(body, name)) is None, (path, name)
        assert suspect_label(body, sniff(body)) is None, path


def test_utf_8_under_a_legacy_label():
    for path, body in corpus("UTF-8"):
        if not body.isascii() and not body.startswith(b"\xef\xbb\xbf"):
            assert suspect_label(body, served(body, "iso-8859-1")) == "utf-8", path
            assert suspect_label(body, served(body, "windows-1251")) == "utf-8", path
    assert suspect_label(UTF_8_PAGE, served(UTF_8_PAGE, "iso-8859-1")) == "utf-8"
    # A <meta> is a label too (prescan), and so is a late one (parser) or an XML declaration.
    meta = b'<meta charset="windows-1252">' + UTF_8_PAGE
    decision = sniff(meta)
    assert decision.source == "prescan" and suspect_label(meta, decision) == "utf-8"
    xml = b'<?xml version="1.0" encoding="iso-8859-1"?><r>' + UTF_8_PAGE + b"</r>"
    decision = sniff(xml, content_type="application/xml")
    assert decision.source == "xml-declaration" and suspect_label(xml, decision) == "utf-8"
    late = b"<!DOCTYPE html>" + b"<!-- pad -->" * 200 + b'<meta charset="koi8-r">' + UTF_8_PAGE
    decision = sniff(late, detector="off")
    assert decision.source == "parser" and suspect_label(late, decision) == "utf-8"


def test_utf_8_late_in_a_big_body_is_seen():
    body = b"<p>ASCII</p>\n" * (3 << 20) + "<p>é ü 日本</p>".encode()
    assert suspect_label(body, served(body, "windows-1252")) == "utf-8"


def test_utf_16_label_on_utf_8_bytes():
    assert suspect_label(UTF_8_PAGE, served(UTF_8_PAGE, "utf-16le")) == "utf-8"
    real = "<p>Текст</p>".encode("utf-16le")
    assert suspect_label(real, served(real, "utf-16le")) is None


def test_replacement_labels():
    for path, body in corpus("EUC-KR")[:3] + corpus("UTF-8")[:3]:
        assert suspect_label(body, served(body, "iso-2022-kr")) == "replacement", path
    assert suspect_label(b"plain", served(b"plain", "hz-gb-2312")) == "replacement"
    assert suspect_label(b"", served(b"", "iso-2022-kr")) is None  # nothing to lose


def test_x_user_defined_label():
    for path, body in corpus("windows-1251")[:3]:
        assert suspect_label(body, served(body, "x-user-defined")) == "x-user-defined", path
    assert suspect_label(b"<p>ASCII</p>", served(b"<p>ASCII</p>", "x-user-defined")) is None


def test_undecodable_under_the_label():
    # Real legacy pages served as UTF-8 or Shift_JIS: U+FFFD where the detected encoding decodes cleanly.
    for name in ("windows-1251", "EUC-JP", "Big5", "ISO-8859-7"):
        for path, body in corpus(name)[:3]:
            assert suspect_label(body, served(body, "utf-8"), url="http://example.com/") == "undecodable", path
    for path, body in corpus("EUC-KR")[:3]:
        assert suspect_label(body, served(body, "shift_jis")) == "undecodable", path


def test_single_byte_labels_skip_the_decode_only_when_no_byte_is_an_error():
    # The fast path (no decode for encodings that map all 256 bytes) is exact: exactly those.
    for name in SINGLE_BYTE:
        encoding = ENCODINGS[name]
        assert (encoding in DECODES_EVERY_BYTE) == ("\ufffd" not in encoding.decode(bytes(range(256)))), name
    assert ENCODINGS["x-user-defined"] in DECODES_EVERY_BYTE and "\ufffd" not in ENCODINGS["x-user-defined"].decode(bytes(range(256)))
    # ISO-8859-7 leaves 0xAE, 0xD2, 0xFF unmapped: Russian text (я is 0xFF in windows-1251) shows it.
    for path, body in corpus("windows-1251")[:3]:
        assert suspect_label(body, served(body, "iso-8859-7"), url="http://example.ru/") == "undecodable", path


@pytest.mark.slow  # every corpus page
def test_the_text_of_the_check_is_the_decoded_body():
    # What the middleware keeps as response.text: exactly the "decode" hook's text, or nothing.
    kept = 0
    for name, path, body in corpus_cases():
        for charset in (name, "utf-8", "shift_jis"):
            decision = served(body, charset)
            facts = Body(body)
            kind = suspect_label(facts, decision)
            assert kind == suspect_label(body, decision), path
            text = facts.decoded(decision.encoding)
            if text is not None:
                kept += 1
                assert text == decode(body, decision.encoding)[0], (path, charset)
    assert kept > 100
    big = UTF_8_PAGE + b"<p>\xff</p>" * (WHOLE_LIMIT // 4)  # longer than WHOLE_LIMIT: a window only
    facts = Body(big)
    suspect_label(facts, served(big, "utf-8"), url="http://example.com/")
    assert facts.decoded(ENCODINGS["UTF-8"]) is None


def test_content_decision_per_kind():
    latin1 = served(UTF_8_PAGE, "iso-8859-1")
    assert content_decision(UTF_8_PAGE, latin1, "utf-8") == Decision(
        ENCODINGS["UTF-8"], "tentative", "content", "iso-8859-1", None)
    assert latin1.source == "transport"  # Decision stays immutable: a new one is returned
    ascii_kr = b"<p>\x1b$)Cplain</p>"
    assert content_decision(ascii_kr, served(ascii_kr, "iso-2022-kr"), "replacement").encoding.name == "UTF-8"
    for name, kind, charset in (("windows-1252", "x-user-defined", "x-user-defined"),
                                ("windows-1251", "undecodable", "utf-8"), ("EUC-KR", "undecodable", "shift_jis")):
        for path, body in [(path, body) for path, body in corpus(name) if not body.isascii()][:2]:
            decision = served(body, charset)
            assert suspect_label(body, decision, url="http://example.com/") == kind, path
            overruled = content_decision(body, decision, kind, url="http://example.com/")
            assert overruled.encoding == detect(body, "full", "http://example.com/") is not None, path
            assert (overruled.source, overruled.label, overruled.offset) == ("content", charset, None)


def test_legacy_under_another_legacy_label_is_not_detectable_by_errors():
    # windows-1252 maps every byte: a KOI8-R page labelled iso-8859-1 decodes without U+FFFD.
    for path, body in corpus("KOI8-R")[:3]:
        assert suspect_label(body, served(body, "iso-8859-1")) is None, path


def test_only_labels_are_judged():
    assert set(LABEL_SOURCES) < set(SOURCES)
    assert KINDS == ("utf-8", "replacement", "x-user-defined", "undecodable")
    for source in set(SOURCES) - LABEL_SOURCES:
        decision = Decision(ENCODINGS["windows-1252"], "tentative", source)
        assert suspect_label(UTF_8_PAGE, decision) is None, source
    detected = sniff(UTF_8_PAGE, detector="browser")  # the detector said windows-1252, no label
    assert detected.source == "detector" and suspect_label(UTF_8_PAGE, detected) is None


@pytest.mark.parametrize("bom", [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"])
def test_a_bom_decides_not_the_label(bom):
    body = bom + UTF_8_PAGE
    decision = Decision(ENCODINGS["windows-1252"], "certain", "transport", "iso-8859-1")
    assert suspect_label(body, decision) is None


def test_docstring_examples():
    import doctest

    from scrapy_whatwg_encoding.sniffing import mislabel

    assert doctest.testmod(mislabel).attempted > 0
    assert doctest.testmod(mislabel).failed == 0


def _detector_runs(call) -> int:
    """Calls of the detector (:func:`~scrapy_whatwg_encoding.sniffing.detect.detect`) while
    *call* runs, as cProfile counts them."""
    profile = cProfile.Profile()
    profile.runcall(call)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    code = detect.__code__
    return sum(counts[1] for (path, line, name), counts in stats.items()
               if (path, line, name) == (code.co_filename, code.co_firstlineno, code.co_name))


@pytest.mark.parametrize("where", ["transport", "parser"])
def test_the_detector_runs_once_per_body_with_content_decisions(where):
    """``suspect_labels="content"`` on a windows-1251 page labeled UTF-8 (by its Content-Type, or
    by a late ``<meta>`` the parser step finds): the detector runs once (the check and the content
    decision ran it each: twice)."""
    url = "http://example.ru/"
    page = next(body for path, body in corpus("windows-1251") if not body.isascii())
    if where == "transport":
        body, content_type = page, "text/html; charset=utf-8"
    else:
        # (in a comment: the tree builder still in the head at the late <meta>)
        body, content_type = b"<!--" + page.replace(b"<", b"[").replace(b"-", b"_") + b"--><meta charset=utf-8>", "text/html"
    assert sniff(body, content_type=content_type, url=url).source == where
    outcome = []
    runs = _detector_runs(lambda: outcome.append(decide(body, content_type=content_type, url=url,
                                                        suspect_labels="content")))
    decision = outcome[0].decision
    assert (outcome[0].suspect, decision.source, decision.label) == ("undecodable", "content", "utf-8")
    assert decision.encoding == detect(body, "full", url) == ENCODINGS["windows-1251"]
    assert runs == 1
    assert outcome[0].body.memo[("detector", "full", url)] is decision.encoding  # the run's key


def test_the_suspect_label_check_reuses_the_runs_detector_answer():
    """A :class:`Body` the run already asked the detector about (step 8, mode ``"full"``): the
    suspect-label check and the content decision read its answer; the detector does not run again."""
    url = "http://example.ru/"
    page = next(body for path, body in corpus("windows-1251") if sniff(body, url=url).source == "detector")
    facts = Body(page)
    unlabeled = []
    assert _detector_runs(lambda: unlabeled.append(decide(facts, content_type="text/html", url=url))) == 1
    assert unlabeled[0].decision.source == "detector"
    outcome = []
    runs = _detector_runs(lambda: outcome.append(decide(facts, content_type="text/html; charset=utf-8", url=url,
                                                        suspect_labels="content")))
    assert (outcome[0].suspect, outcome[0].decision.encoding) == ("undecodable", unlabeled[0].decision.encoding)
    assert runs == 0


def test_a_total_detector_encoding_is_clean_without_a_decode(monkeypatch):
    """The "undecodable" check's second decode (the detector's encoding, on the same bytes) is skipped
    for an encoding of DECODES_EVERY_BYTE (every byte one character: windows-1252 on random bytes 0x80-0xFF, issue
    37): every body decodes cleanly there, so the answer is its plain twin's (the decode, then a look
    for U+FFFD), on every byte value for every single-byte encoding and on pages in wrong encodings;
    the shortcut skips the detector's decode on random bytes under a multi-byte label."""
    from scrapy_whatwg_encoding.sniffing import mislabel

    bodies = [bytes(range(256)), bytes(range(0x80, 0x100)) * 3, b"\xff", b""]
    bodies += [body for name in ("windows-1251", "EUC-KR", "Big5") for path, body in corpus(name)[:2]]
    for name in SINGLE_BYTE:
        for body in bodies:
            for cut in (False, True):
                plain = mislabel._decodes_cleanly(ENCODINGS[name], body, cut, shortcut=False)
                assert mislabel._decodes_cleanly(ENCODINGS[name], body, cut) == plain, (name, body[:20], cut)
    random_high = bytes(random.Random(7).choices(range(0x80, 0x100), k=1 << 14))
    decodes = []
    real_decode = Encoding.decode

    def counted(self, data):
        decodes.append(self)
        return real_decode(self, data)

    for label in ("big5", "euc-jp", "shift_jis", "euc-kr", "gb18030"):
        body = b"<meta charset=%s>" % label.encode() + random_high
        decision = sniff(body)
        assert detect(body, "full", "http://example.com/") in DECODES_EVERY_BYTE
        with monkeypatch.context() as patch:
            patch.setattr(Encoding, "decode", counted)
            kind = suspect_label(body, decision, url="http://example.com/")
            assert not any(encoding in DECODES_EVERY_BYTE for encoding in decodes), label  # (no decode by windows-1252)
            patch.setattr(mislabel, "_decodes_cleanly", functools.partial(mislabel._decodes_cleanly, shortcut=False))
            patch.setattr(mislabel, "_detector_decodes_cleanly",
                          functools.partial(mislabel._detector_decodes_cleanly, shortcut=False))
            assert suspect_label(body, decision, url="http://example.com/") == kind, label
            assert any(encoding in DECODES_EVERY_BYTE for encoding in decodes), label  # (the plain twin decodes)
        decodes.clear()


_PIECES = [b"<", b"<p>", b"a", b" ", b"\x81", b"\x8f", b"\xa1", b"\xa1\xa1", b"\xfe", b"\x82\xa0", b"\xe3\x81\x82",
           b"\xed\xa0", b"\xf0\x9f", b"\x810\x810", b"\x1b$B", b"\x00", b"\xef\xbf\xbd", b"\xff"]


@pytest.mark.parametrize("name", ["UTF-8", "Shift_JIS", "EUC-JP", "EUC-KR", "Big5", "gb18030", "ISO-2022-JP",
                                  "UTF-16LE", "windows-874", "windows-1253"])
def test_the_clean_check_in_pieces_cut_before_a_less_than_sign_answers_as_the_whole_decode(name, monkeypatch):
    """The "undecodable" check decodes an ASCII-compatible encoding's bytes in pieces cut before a
    ``<`` (no decoder consumes 0x3C after a leading byte), from the first up to the one that holds
    U+FFFD: the answer is the plain twin's (one decode of the whole) on soups of leading bytes,
    trails, ``<`` and U+FFFD's own bytes, with pieces of 1 to 16 bytes first and the window cut or
    not; a page of errors decodes its first piece only (hunted, issue 37: 64 KiB a decode)."""
    from hypothesis import example, given, settings
    from hypothesis import strategies as st

    from scrapy_whatwg_encoding.sniffing import mislabel

    encoding = ENCODINGS[name]

    @settings(max_examples=150, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(_PIECES), max_size=40), st.integers(1, 16), st.booleans())
    @example([b"\xa1", b"<", b"a"] * 4, 2, False)  # a leading byte before each cut
    @example([b"<p>"] * 5 + [b"\xed\xa0"], 4, True)  # the only error the window's last piece's
    def run(pieces, first, cut):
        data = b"".join(pieces)
        monkeypatch.setattr(mislabel, "_FIRST_PIECE", first)
        plain = mislabel._decodes_cleanly(encoding, data, cut, shortcut=False)
        assert mislabel._decodes_cleanly(encoding, data, cut) == plain, (data, first, cut)

    run()
    monkeypatch.setattr(mislabel, "_FIRST_PIECE", 4096)
    if encoding.is_ascii_compatible and encoding not in DECODES_EVERY_BYTE:
        decoded = []
        real_decode = Encoding.decode
        monkeypatch.setattr(Encoding, "decode", lambda self, data: decoded.append(len(data)) or real_decode(self, data))
        assert not mislabel._decodes_cleanly(encoding, b"<p>\xff\xff" * 13000, False)
        assert decoded == [4095]  # (the first piece, cut before its last "<")


def test_the_check_knows_a_detector_answer_that_decodes_everything_without_uchardet(monkeypatch):
    """The "undecodable" check needs of the detector's answer only whether it decodes the body
    cleanly: where chardetng's guess is one of the encodings uchardet may overrule (each maps every
    byte) and every encoding with errors that uchardet may answer decodes uchardet's window with an
    error (:func:`answers_a_total_encoding`), the answer maps every byte, and uchardet does not run
    (random bytes under a multi-byte label, issue 37: 0.9 ms of 2.7). The check answers as its
    plain twin on random bytes and on real pages under their own label and others (with a stray
    byte past uchardet's window: a page uchardet names by its label is not "undecodable"), with the
    URLs whose TLD makes chardetng guess windows-1251 for Big5, EUC-JP and GBK pages, which
    uchardet names (no shortcut there); and wherever it says so, the detector's answer maps every
    byte."""
    from scrapy_whatwg_encoding.sniffing import detect as detect_module
    from scrapy_whatwg_encoding.sniffing import mislabel

    uchardet_runs = []
    real_uchardet = detect_module._uchardet
    monkeypatch.setattr(detect_module, "_uchardet", lambda *args: uchardet_runs.append(1) or real_uchardet(*args))
    plain = functools.partial(mislabel._detector_decodes_cleanly, shortcut=False)
    pages = [body for name in ("Big5", "EUC-JP", "GBK", "ISO-8859-7", "windows-1255", "Shift_JIS")
             for path, body in corpus(name)[:4]]
    rng = random.Random(37)
    bodies = [bytes(rng.choices(range(0x80, 0x100), k=size)) for size in (100, 3000, 1 << 14)]
    bodies += [page + b"\x80" for page in pages]
    for path, page in corpus("Big5")[:4]:  # and with uchardet's window cut in a pair (a space more before a "<")
        for spaces in (1, 2):
            at = page.index(b"<", Body(page).first_non_ascii)
            spaced = page[:at] + b" " * spaces + page[at:] + b"\x80"
            window = detect_module._full_guess(Body(b"<meta charset=big5>" + spaced), "http://example.ru/")[1]
            if ENCODINGS["Big5"].decode(window)[-1] == "\ufffd":
                bodies.append(spaced)
    shortcuts = 0
    for body in bodies:
        for label in ("big5", "euc-jp", "gbk", "shift_jis", "windows-1253", "euc-kr"):
            labeled = b"<meta charset=%s>" % label.encode() + body
            for url in ("http://example.com/", "http://example.ru/"):
                facts = Body(labeled)
                decision = sniff(facts, url=url)
                kind = suspect_label(facts, decision, url=url)
                if detect_module.answers_a_total_encoding(Body(labeled), url):
                    shortcuts += 1
                    assert detect(labeled, "full", url) in DECODES_EVERY_BYTE, (label, url, body[:40])
                with monkeypatch.context() as patch:
                    patch.setattr(mislabel, "_detector_decodes_cleanly", plain)
                    assert suspect_label(Body(labeled), decision, url=url) == kind, (label, url, body[:40])
    assert shortcuts >= 30
    uchardet_runs.clear()
    body = b"<meta charset=euc-jp>" + bodies[2]
    assert suspect_label(body, sniff(body), url="http://example.com/") == "undecodable"
    assert not uchardet_runs


@pytest.mark.parametrize("name", ["Shift_JIS", "EUC-JP", "EUC-KR", "Big5", "gb18030", "ISO-2022-JP", "windows-1253"])
def test_an_error_in_a_prefix_of_uchardets_window_is_the_windows(name):
    """:func:`answers_a_total_encoding` reads an ASCII-compatible multi-byte encoding's errors in
    uchardet's window in prefixes of 64, 256, 1,024 bytes first: a U+FFFD but the prefix's last
    character (a token the prefix cuts) is the window's. The answer is the plain twin's (the whole
    window, its last U+FFFD an error only where the window reaches the body's end) on soups of
    leading bytes, trails and U+FFFD's own bytes, with errors at and around the prefixes' ends."""
    from hypothesis import example, given, settings
    from hypothesis import strategies as st

    from scrapy_whatwg_encoding.sniffing.detect import _has_error

    encoding = ENCODINGS[name]

    @settings(max_examples=200, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(_PIECES), max_size=400), st.integers(0, 1100), st.booleans())
    @example([b"a"] * 63 + [b"\xa1\xa1"], 0, False)  # a pair cut by the first prefix
    @example([b"a"] * 64 + [b"\xa1"], 0, False)  # the window's last byte a leading byte, cut or not
    @example([b"a"] * 64 + [b"\xa1"], 0, True)
    def run(pieces, pad, last):
        window = b"a" * pad + b"".join(pieces)
        text = encoding.decode(window)
        assert _has_error(encoding, window, last) == ("\ufffd" in (text if last else text[:-1])), (window, last)

    run()
