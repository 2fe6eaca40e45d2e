"""Issue 21, item 6: in "full" mode a body that is UTF-8 but for a few stray bytes decodes as UTF-8
with U+FFFD (detect.STRAY_RULE, measured by tools/stray_bytes.py), legacy text never does, and
"browser" stays what Firefox's chardetng says."""
from __future__ import annotations

import contextlib

import chardetng_py
import pytest
from cases import chunk_size, corpus_cases, stray_byte_page
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sniff_accuracy import strip_declarations

from scrapy_whatwg_encoding import ENCODINGS, decode, sniff
from scrapy_whatwg_encoding.sniffing import detect as detect_module
from scrapy_whatwg_encoding.sniffing.body import CHUNK, first_non_ascii
from scrapy_whatwg_encoding.sniffing.detect import STRAY_RULE, detect, mostly_utf_8, utf_8_sequences

UTF_8 = ENCODINGS["UTF-8"]
UNICODE = ("UTF-8", "UTF-16LE", "UTF-16BE")




LEGACY_PAGES = [(path, strip_declarations(body)) for name, path, body in corpus_cases() if name not in UNICODE]
# Every page's true text as UTF-8 (the corpus's own UTF-8 pages, the others transcoded).
UTF_8_PAGES = [(path, decode(strip_declarations(body), ENCODINGS[name])[0].lstrip("\ufeff").encode())
               for name, path, body in corpus_cases()]


def counts(data: bytes, chunk: int | None = None) -> tuple[int, int]:
    with chunk_size(chunk or CHUNK):
        return utf_8_sequences(data)



def python_counts(data: bytes) -> tuple[int, int]:
    """(valid multi-byte sequences, invalid sequences) the slow way, from Python's decoder."""
    text = data.decode("utf-8", "replace")
    invalid = text.count("\ufffd") - data.count("\ufffd".encode())
    return sum(ord(char) >= 0x80 for char in text) - invalid, invalid


@pytest.mark.slow  # hypothesis
@settings(max_examples=400, deadline=None)
@given(data=st.binary(max_size=80) | st.text(max_size=30).map(lambda t: t.encode("utf-8", "surrogatepass")),
       chunk=st.integers(1, 9))
def test_counts_agree_with_python_at_every_chunk_size(data, chunk):
    assert counts(data, chunk) == python_counts(data)


def weight(data: bytes, k: int) -> int:
    """Each byte weighed as detect._cannot_meet_rule says: 10 never valid, k continuation, -j*k - 1
    a lead asking for j continuation bytes, 0 ASCII."""
    return sum(0 if byte < 0x80 else k if byte < 0xC0 else 10 if byte < 0xC2 or byte > 0xF4
               else -k - 1 if byte < 0xE0 else -2 * k - 1 if byte < 0xF0 else -3 * k - 1 for byte in data)


_STRAYED = st.tuples(st.text(max_size=30), st.binary(max_size=3), st.integers(0, 30)).map(
    lambda t: t[0].encode()[:t[2]] + t[1] + t[0].encode()[t[2]:])


@pytest.mark.slow  # hypothesis
@settings(max_examples=600, deadline=None)
@given(data=st.binary(max_size=80) | st.text(max_size=30).map(lambda t: t.encode("utf-8", "surrogatepass")) | _STRAYED
       | st.tuples(st.lists(st.sampled_from(["é", "\U0001f600", "\xe9", "x" * 70]), max_size=12), st.randoms()).map(
           lambda t: "".join(t[0]).encode("latin-1" if t[1].random() < 0.3 else "utf-8", "replace")),
       chunk=st.integers(1, 9))
@example("é".encode() * 5, 9)  # ten bytes >= 0x80, the fewest that meet it
@example(b"\xe9" + b"x" * 70 + "é".encode() * 5, 9)  # eleven, ten past the probe's bytes
@example(b"x" * 70 + "é".encode() * 4 + b"\xe9", 9)  # nine: it cannot
def test_weighted_counts_bound_the_sequences(data, chunk):
    """What mostly_utf_8 rules out from weighted byte counts cannot pass the rule: for -3 <= k <= 10
    each valid sequence weighs -1 and each invalid one at most 10, so data that meets the rule (1 valid
    sequence in 10 may be invalid, or 2 of 5) weighs at most 15; the answer is the same at every chunk size (and
    where fewer than ten bytes >= 0x80, ruled out first, are spread past a probe's worth of ASCII)."""
    valid, invalid = python_counts(data)
    for k in range(-3, 11):
        assert weight(data, k) <= 10 * invalid - valid
    least, errors, percent = STRAY_RULE
    rule = valid >= least and invalid * 100 <= max(errors * 100, percent * valid)
    assert not (rule and detect_module._cannot_meet_rule(data))
    with chunk_size(chunk):
        assert mostly_utf_8(data) is rule


def test_counts_of_known_inputs():
    assert counts(b"") == counts(b"ascii") == (0, 0)
    assert counts("é日本\U0001f600".encode()) == (4, 0)
    assert counts("\ufffd".encode()) == (1, 0)  # an encoded U+FFFD is a valid sequence
    assert counts(b"\xe9t\xe9") == (0, 2)
    assert counts(b"\xf0\x9f\x98") == (0, 1)  # one truncated sequence at the end: one error
    assert counts(b"\xe2\x80\x9d\x93x\x94") == (1, 2)  # windows-1252 smart quotes
    assert counts(b"\xc0\xaf") == (0, 2)  # an overlong form: one error per byte, as the standard says
    for chunk in (1, 2, 3):  # an encoded U+FFFD or an error cut by chunk boundaries
        assert counts("\ufffd\ufffd".encode() + b"\xe2\x80" + "\ufffd".encode(), chunk) == (3, 1)


def test_the_rule():
    least, errors, percent = STRAY_RULE
    assert (least, errors, percent) == (5, 2, 10)

    def body(valid: int, invalid: int) -> bytes:
        return b"<p>" + "é".encode() * valid + b" \xe9" * invalid

    assert not mostly_utf_8(body(least - 1, 1)) and mostly_utf_8(body(least, 1))
    assert mostly_utf_8(body(least, errors)) and not mostly_utf_8(body(least, errors + 1))
    assert mostly_utf_8(body(1000, 100)) and not mostly_utf_8(body(1000, 101))
    with chunk_size(16):
        assert mostly_utf_8(body(1000, 100)) and not mostly_utf_8(body(1000, 101))


def test_the_head_meets_the_rule_on_its_own(monkeypatch):
    """Past STRAY_HEAD bytes (1 MiB; 64 here) the whole body must meet the rule, and its head too."""
    monkeypatch.setattr(detect_module, "STRAY_HEAD", 64)
    e_acute = "é".encode()
    assert mostly_utf_8(e_acute * 100 + b"\xe9" * 2)  # the head (32 é) is clean; 2 errors are always allowed
    assert mostly_utf_8(e_acute * 100 + b"\xe9" * 10) and not mostly_utf_8(e_acute * 100 + b"\xe9" * 11)
    assert not mostly_utf_8(e_acute * 10 + b"\xe9" * 4 + e_acute * 1000)  # 4 errors in a head of 30 sequences
    assert mostly_utf_8(e_acute * 40 + b"\xe9" * 4 + e_acute * 1000)  # the same 4 past the head
    assert mostly_utf_8(b"\xe9" + e_acute * 40)  # the head ends between two sequences
    with chunk_size(7):
        assert mostly_utf_8(e_acute * 100 + b"\xe9" * 10) and not mostly_utf_8(e_acute * 100 + b"\xe9" * 11)


def test_issue_21_page():
    """37 KB of UTF-8 with one latin-1 byte: UTF-8 with one U+FFFD, not 3,600 'Ã' of windows-1252."""
    body, expected = stray_byte_page()
    assert len(body) == 36_867
    decision = sniff(body, content_type="text/html", url="http://example.com/")
    assert (decision.encoding, decision.source) == (UTF_8, "detector")
    text = decode(body, decision.encoding)[0]
    assert text == expected and text.count("\ufffd") == 1
    # Without the rule (STRAY_RULE unreachable) "full" said windows-1252, as chardetng does.
    with stray_rule((10**9, 0, 0)):
        before = sniff(body, url="http://example.com/").encoding
    assert before is ENCODINGS["windows-1252"] and decode(body, before)[0].count("Ã") == 3600
    # "browser" is Firefox's chardetng, which rules UTF-8 out at the first invalid sequence even
    # where it may answer UTF-8 (file: URLs): unchanged.
    assert sniff(body, detector="browser").encoding is ENCODINGS["windows-1252"]
    assert chardetng_py.detect(body, allow_utf8=True) == "windows-1252"


@contextlib.contextmanager
def stray_rule(rule):
    saved = detect_module.STRAY_RULE
    detect_module.STRAY_RULE = rule
    try:
        yield
    finally:
        detect_module.STRAY_RULE = saved


@pytest.mark.parametrize("defect", [b"\xe9", b"\x93quoted\x94", b"\xff\xfe", b"\xc3", b"\x80"])
def test_corpus_texts_as_utf_8_with_stray_bytes(defect):
    """Every corpus page's true text as UTF-8, with a defect in the middle at a character
    boundary: UTF-8 in "full" mode wherever it has 5 multi-byte sequences; the text is the page's
    with U+FFFD for the defect."""
    decided = 0
    for path, body in UTF_8_PAGES:
        middle = len(body) // 2
        while middle < len(body) and body[middle] & 0xC0 == 0x80:
            middle += 1
        damaged = body[:middle] + defect + body[middle:]
        found = detect(damaged, "full")
        if counts(damaged)[0] < STRAY_RULE[0]:
            continue
        decided += 1
        assert found is UTF_8, path
        assert decode(damaged, found)[0] == damaged.decode("utf-8", "replace"), path
        assert decode(damaged, found)[0].count("\ufffd") - body.decode().count("\ufffd") == sum(
            byte >= 0x80 for byte in defect), path  # one U+FFFD per stray byte
    assert decided >= 170


@pytest.mark.slow  # every corpus text, cut everywhere
def test_corpus_texts_as_utf_8_cut_inside_a_sequence():
    decided = 0
    for path, body in UTF_8_PAGES:
        last = max((i for i, byte in enumerate(body) if byte >= 0xC2), default=None)
        if last is None or counts(body[:last])[0] < STRAY_RULE[0]:
            continue
        decided += 1
        assert detect(body[:last + 1], "full") is UTF_8, path
    assert decided >= 170


def test_no_legacy_corpus_page_becomes_utf_8():
    """The opposite risk, on real pages: no legacy page (nor its first 128, 512 or 4096 bytes)
    meets the rule, so "full" decides every one as it did before the rule."""
    assert len(LEGACY_PAGES) == 180
    for path, body in LEGACY_PAGES:
        for data in (body, body[:128], body[:512], body[:4096]):
            assert not mostly_utf_8(data), path


def test_weighted_counts_rule_out_legacy_pages():
    """The weighted byte counts alone rule out every legacy corpus page with a non-ASCII byte but
    one of 39 bytes (counted then): no legacy page's sequences need counting."""
    left = [path for path, body in LEGACY_PAGES if first_non_ascii(body) is not None
            and not detect_module._cannot_meet_rule(body[first_non_ascii(body):])]
    assert left == ["files/EUC-JP/_mozilla_bug431054_text.html"]


@pytest.mark.slow  # hypothesis over corpus pages
@settings(max_examples=300, deadline=None)
@given(page=st.integers(0, len(LEGACY_PAGES) - 1), start=st.integers(0, 1 << 16), length=st.integers(16, 8192))
def test_slices_of_legacy_pages_are_not_utf_8(page, start, length):
    """A short legacy page (any slice of a real one) is UTF-8 only where it is valid UTF-8."""
    body = LEGACY_PAGES[page][1]
    data = body[start % len(body):][:length]
    valid, invalid = counts(data)
    if invalid:
        assert not mostly_utf_8(data), (LEGACY_PAGES[page][0], start, length, valid, invalid)
        # With 5 valid sequences or more, at most 2.5 per invalid one (the rule asks for 10).
        assert valid < STRAY_RULE[0] or valid * 2 <= invalid * 5


_NON_ASCII = st.characters(min_codepoint=0x80, exclude_categories=("Cs",))


@pytest.mark.slow  # hypothesis
@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.text(_NON_ASCII, min_size=1, max_size=3) | st.text(st.characters(max_codepoint=0x7F)),
                       min_size=1, max_size=40),
       strays=st.lists(st.tuples(st.integers(0, 40), st.integers(0x80, 0xFF)), max_size=2))
def test_utf_8_text_with_two_stray_bytes_is_utf_8(pieces, strays):
    """Any UTF-8 text with 5 non-ASCII characters or more and up to 2 stray bytes between
    characters (bytes 0x80-0xFF: lone continuation bytes, lead bytes without their trail, bytes
    that are invalid anywhere) is UTF-8 in "full" mode, each stray byte one U+FFFD."""
    text = "".join(pieces)
    if sum(ord(char) >= 0x80 for char in text) < STRAY_RULE[0]:
        return
    body, expected = bytearray(text.encode()), list(text)
    for at, byte in sorted(strays, reverse=True):
        at = min(at, len(text))
        body[len(text[:at].encode()):len(text[:at].encode())] = bytes([byte])
        expected.insert(at, "\ufffd")  # from the last offset back: earlier offsets stay put
    found = detect(bytes(body), "full")
    assert found is UTF_8
    assert decode(bytes(body), found)[0] == "".join(expected)
