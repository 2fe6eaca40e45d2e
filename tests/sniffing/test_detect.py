"""The detector step (HTML §13.2.3.2 step 8) as issue 11 asks: whole-body cheap checks and, over a
capped window, chardetng overruled by uchardet where chardetng's repertoire has gaps ("full" mode),
Firefox's 7-bit ISO-2022-JP guess in both modes, and the accuracy on the real pages of
tests/data/corpus with their declarations stripped."""
from __future__ import annotations

import cProfile
import pstats
import re
from functools import partial

import cchardet
import pytest
from cases import chunk_size, corpus_cases
from chardetng_py.detector import EncodingDetector
from hypothesis import given, settings
from hypothesis import strategies as st
from sniff_accuracy import strip_declarations

from scrapy_whatwg_encoding import ENCODINGS, decode, sniff
from scrapy_whatwg_encoding.sniffing import detect as detect_module
from scrapy_whatwg_encoding.sniffing.body import first_non_ascii, is_utf_8, next_non_ascii
from scrapy_whatwg_encoding.sniffing.decide import Options
from scrapy_whatwg_encoding.sniffing.detect import detect, from_chardetng, from_uchardet

JAPANESE = "日本語のテキストです。文字コードの判定を試験します。"




def same_text(body: bytes, found, truth: str) -> bool:
    return decode(body, found)[0] == decode(body, ENCODINGS[truth])[0]


# --- 7-bit ISO-2022-JP: all ASCII bytes plus escape sequences -----------------------------------

def test_seven_bit_iso_2022_jp_in_both_modes():
    text = "<!DOCTYPE html><html><body>" + f"<p>{JAPANESE}</p>\n" * 10 + "</body></html>"
    body = text.encode("iso-2022-jp")
    assert body.isascii() and b"\x1b$B" in body
    for mode in ("full", "browser"):
        # chardetng's feed() says no non-ASCII byte was seen, its guess() says ISO-2022-JP: Firefox uses it.
        decision = sniff(body, detector=mode)
        assert (decision.encoding.name, decision.source) == ("ISO-2022-JP", "detector"), mode
        assert decode(body, decision.encoding)[0].count(JAPANESE) == 10
    assert sniff(body, detector="off").encoding.name == "windows-1252"


def test_escape_bytes_that_are_not_iso_2022_jp_fall_through():
    body = b"<pre>\x1b[31mred\x1b[0m plain ASCII terminal colours</pre>" * 20
    assert detect(body, "full") is None
    assert detect(body, "browser") is None
    assert sniff(body).source == "default"


def _collect(found: list, call) -> None:
    found.append(call())


def chardetng_guesses(call) -> int:
    """How many times chardetng guessed while *call* ran: cProfile's count of calls to the real
    ``EncodingDetector.guess`` (nothing replaced)."""
    profiler = cProfile.Profile()
    profiler.runcall(call)
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    return sum(counts[1] for (_, _, name), counts in stats.items()
               if name == "<method 'guess' of 'builtins.EncodingDetector' objects>")


@pytest.mark.parametrize(("body", "content_type", "expected"), [
    (b"plain text \x1b(B and more", "text/plain", "ISO-2022-JP"),  # both browsers' own guess for text
    (b"<p>\x1b(B</p>", "text/html", "windows-1252"),  # no JIS text: the standard's detector says none
    ("<p>日本</p>".encode("iso-2022-jp"), "text/plain", "ISO-2022-JP"),
    ("<p>日本</p>".encode("iso-2022-jp"), None, "windows-1252"),  # browsers detect no 7-bit JIS in HTML
])
def test_chardetng_guesses_once_per_body_in_every_profile(body, content_type, expected):
    # The standard's run and both browsers' models ask for the same 7-bit guess: one guess.
    for profile in ("browsers", "standard"):
        found: list = []
        decide = partial(Options(profile=profile).decide, body, content_type)
        assert chardetng_guesses(partial(_collect, found, decide)) == 1
        if profile == "browsers":
            assert found[0].decision.encoding.name == expected
    assert chardetng_guesses(lambda: detect(body)) == 1  # detect() on bytes: a body of its own
    assert chardetng_guesses(lambda: detect(b"<p>plain ASCII</p>")) == 0  # ASCII without an ESC: no guess


# --- The whole body is looked at where it is cheap ----------------------------------------------

def late_page(size: int, tail: bytes) -> bytes:
    filler = b"<p>ASCII only, for a long while.</p>\n"
    return (filler * (size // len(filler) + 1))[:size] + tail


def test_late_first_non_ascii_byte_utf_8():
    # Issue 11: ASCII for its first MiB, then UTF-8; the old detector read 1 MiB and said windows-1252.
    body = late_page(1 << 20, "<p>é ü 日本</p>".encode())
    decision = sniff(body, url="http://example.com/")
    assert (decision.encoding.name, decision.source) == ("UTF-8", "detector")
    assert decode(body, decision.encoding)[0].endswith("<p>é ü 日本</p>")
    # Firefox's mode never guesses UTF-8: it falls to the default, as Firefox.
    assert sniff(body, detector="browser").encoding.name == "windows-1252"


def test_late_first_non_ascii_byte_legacy():
    body = late_page(1 << 20, "<p>café, naïve, déjà vu</p>".encode("windows-1252"))
    assert sniff(body).encoding.name == "windows-1252"
    body = late_page(1 << 20, "<p>Привет, как дела? Всё хорошо, спасибо.</p>".encode("windows-1251") * 4)
    assert sniff(body, url="http://example.ru/").encoding.name == "windows-1251"


def test_50_mib_page_decided_by_its_last_bytes():
    tail = "<p>é ü 日本</p>".encode()
    body = late_page(50 << 20, tail)
    assert detect(body, "full") is ENCODINGS["UTF-8"]
    assert detect(body[:-len(tail)] + "<p>é ü</p>".encode("windows-1252"), "full") is ENCODINGS["windows-1252"]



@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=64), chunk=st.integers(1, 8))
def test_whole_body_scans_agree_with_python_at_every_chunk_size(data, chunk):
    found = re.search(rb"[\x80-\xff]", data)
    try:
        data.decode("utf-8")
        valid = True
    except UnicodeDecodeError:
        valid = False
    with chunk_size(chunk):
        assert first_non_ascii(data) == (found.start() if found else None)
        assert is_utf_8(data) is valid


@settings(max_examples=300, deadline=None)
@given(ascii_before=st.integers(0, 70_000), data=st.binary(max_size=64), start=st.integers(0, 70_100),
       end=st.integers(0, 70_100), chunk=st.sampled_from([1, 7, 1 << 16, 1 << 20]))
def test_next_non_ascii_is_the_search(ascii_before, data, start, end, chunk):
    """From any start to any end, across the chunks it decodes in (and past the body's end)."""
    data = b"a" * ascii_before + data
    found = re.search(rb"[\x80-\xff]", data[:end][start:])
    with chunk_size(chunk):
        assert next_non_ascii(data, start, end) == (-1 if found is None else start + found.start())


@settings(max_examples=200, deadline=None)
@given(text=st.text(st.characters(exclude_categories=("Cs",)), max_size=40), chunk=st.integers(1, 8))
def test_valid_utf_8_is_valid_across_chunks(text, chunk):
    data = text.encode("utf-8")
    with chunk_size(chunk):
        assert is_utf_8(data)
        assert not is_utf_8(data + b"\xe6\x97")  # a sequence cut by the end of the body is an error


# --- Statistical part: uchardet, then chardetng -------------------------------------------------

def test_x_mac_cyrillic_corpus_pages():
    """chardetng never answers x-mac-cyrillic (it says windows-1251 or windows-1252 on these real
    pages); uchardet does."""
    pages = [(path, strip_declarations(body)) for name, path, body in corpus_cases() if name == "x-mac-cyrillic"]
    assert len(pages) == 9
    for path, body in pages:
        assert sniff(body).encoding.name == "x-mac-cyrillic", path
        assert sniff(body, url="http://example.ru/").encoding.name == "x-mac-cyrillic", path
        assert sniff(body, detector="browser").encoding.name != "x-mac-cyrillic"  # Firefox's chardetng


def test_uchardet_names_map_to_whatwg_encodings():
    assert from_uchardet("MAC-CYRILLIC") is ENCODINGS["x-mac-cyrillic"]
    assert from_uchardet("MacCyrillic") is ENCODINGS["x-mac-cyrillic"]
    assert from_uchardet("UHC") is ENCODINGS["EUC-KR"]
    assert from_uchardet("GB18030") is ENCODINGS["GBK"]  # as browsers' detectors name it
    assert from_uchardet("WINDOWS-1251") is ENCODINGS["windows-1251"]
    assert from_uchardet("ISO-8859-1") is ENCODINGS["windows-1252"]
    assert from_uchardet("TIS-620") is ENCODINGS["windows-874"]
    for lacking in ("IBM855", "EUC-TW", "Johab", "UTF-32", "VISCII", "MAC-CENTRALEUROPE", None, ""):
        assert from_uchardet(lacking) is None


def test_uchardet_answer_refused_when_the_bytes_do_not_decode_in_it():
    text = "中文文本测试，这是一个简单的句子。我们在这里测试检测器。".encode("gbk") * 30
    broken = text[:600] + b"\x81\x20" + text[600:]  # 0x81 0x20 is no GBK sequence
    assert from_uchardet(cchardet.detect(broken)["encoding"]) is ENCODINGS["GBK"]  # uchardet still says GBK
    assert detect_module._uchardet(text, True) is ENCODINGS["GBK"]
    assert detect_module._uchardet(broken, True) is None  # the rule then asks chardetng
    assert detect(broken, "full") is not None


def test_same_text_keeps_firefox_name():
    body = b"<p>caf\xe9</p>"
    assert from_uchardet(cchardet.detect(body)["encoding"]) is ENCODINGS["ISO-8859-2"]  # é is E9 there too
    assert detect(body, "full") is ENCODINGS["windows-1252"]  # chardetng's name: the text is the same


def test_uchardet_never_answers_utf_8_utf_16_or_replacement():
    # The whole-body UTF-8 checks decide UTF-8 (valid, or with a few stray bytes: see
    # test_detect_stray_bytes.py); invalid UTF-8 beyond that is then never UTF-8.
    body = ("текст " * 500).encode("utf-8") + b"\xff" * 251  # 2,500 sequences, 251 errors: > 10 %
    assert detect(body[:-250], "full") is ENCODINGS["UTF-8"]
    assert detect(body, "full") is not ENCODINGS["UTF-8"]


def test_tld_hint_reaches_chardetng_in_both_modes():
    body = bytes(range(0xC0, 0x100)) * 3
    guesses = {detect(body, "browser", f"https://example.{tld}/") for tld in ("ru", "gr", "tr", "com")}
    assert len(guesses) > 1


def test_full_mode_accuracy_on_unlabeled_corpus_pages():
    """Issue 11: right (same text as the true encoding) on at least 97 % of the unlabeled real
    pages, and on more of them than chardetng alone (Firefox's detector, "browser" mode)."""
    pages = [(name, path, strip_declarations(body)) for name, path, body in corpus_cases()]
    full = [path for name, path, body in pages if not same_text(body, sniff(body).encoding, name)]
    browser = [path for name, path, body in pages
               if not same_text(body, sniff(body, detector="browser").encoding, name)]
    assert len(pages) == 193
    assert len(full) <= 0.03 * len(pages), full
    assert len(full) < len(browser)


# --- "browser" mode: ASCII settles nothing (issue 35, cause 6) -----------------------------------

ARABIC = "مرحبا بالعالم، هذا نص عربي للاختبار ".encode("cp1256")


def _whole_body_guess(body: bytes):
    """chardetng over the whole body from byte 0, as Firefox guesses at the end of the load."""
    detector = EncodingDetector()
    detector.feed(body, last=True)
    return from_chardetng(detector.guess(tld=None, allow_utf8=False))


@given(lead=st.sampled_from([b" ", b"\n", b"<html>", b"<!doctype html>"]),
       stray=st.sampled_from([b"\xef\xbb\xbf", b"\xa9", b"\xe9"]),
       ascii_run=st.integers(2100, 20_000), repeats=st.integers(1, 8))
@settings(max_examples=60, deadline=None)
def test_browser_mode_reads_past_a_stray_early_byte_and_ascii(lead, stray, ascii_run, repeats):
    """Issue 35 (cause 6, recorded in Firefox ESR 153.8 and Chromium 156: both windows-1256): a
    stray UTF-8 BOM past byte 0, kilobytes of ASCII, then Arabic windows-1256 text. The window
    after the stray byte is ASCII, so the guess it leaves unchanged is not settled: the mode
    reads on at the text (the ASCII before it left out) and gives the whole body's guess."""
    filler = (b"<p>hello world</p>\n" * (ascii_run // 19 + 1))[:ascii_run]
    body = lead + stray + b"<body>" + filler + b"<p>" + ARABIC * repeats + b"</p>"
    assert detect(body, "browser") is _whole_body_guess(body)
    if stray == b"\xef\xbb\xbf":
        assert detect(body, "browser") is ENCODINGS["windows-1256"]


def test_browsers_profile_gives_windows_1256_after_a_stray_bom():
    body = b" \xef\xbb\xbf<html><head><title>x</title></head><body>" + b"<p>hello world</p>\n" * 200 \
        + b"<p>" + ARABIC * 3 + b"</p>"
    assert sniff(body, content_type="text/html", profile="browsers").encoding is ENCODINGS["windows-1256"]
    assert sniff(body, content_type="text/html", detector="browser").encoding is ENCODINGS["windows-1256"]
