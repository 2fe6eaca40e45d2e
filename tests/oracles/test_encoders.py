"""Encoders (Encoding Standard §4.1, error mode "html") against the spec-literal reference.

Round trips over every index, the "html" error mode, gb18030/GBK, the index Big5 pointer and
index Shift_JIS pointer exclusions, ISO-2022-JP's states, and "get an output encoding" (§4.3).
"""
from __future__ import annotations

import pytest
from cases import encodable_code_points
from hypothesis import given, settings
from hypothesis import strategies as st
from quick_sample import quick_sample
from reference import GB18030_ENCODER_TABLE, NO_ENCODER, encoding_names, read_index, ref_decode, ref_encode

from scrapy_whatwg_encoding import ENCODINGS

NAMES = encoding_names()
WITH_ENCODER = [name for name in NAMES if name not in NO_ENCODER]

# Code points whose encoding decodes to another code point, by the standard's own rules.
_JAPANESE = {0xA5, 0x203E, 0x2212}  # ¥ -> 0x5C, ‾ -> 0x7E, − -> the pointer of U+FF0D
EXPECTED_ONE_WAY = {
    "gb18030": set(GB18030_ENCODER_TABLE),  # the encoder's asymmetric side table
    "GBK": set(GB18030_ENCODER_TABLE),
    "EUC-JP": _JAPANESE,
    "Shift_JIS": _JAPANESE,
    "ISO-2022-JP": {0x2212} | set(range(0xFF61, 0xFFA0)),  # halfwidth -> fullwidth katakana
}


def _first_difference(name, code_points):
    """The first code point whose fast encoding differs from the reference's (for messages)."""
    encoding = ENCODINGS[name]
    for cp in code_points:
        got, expected = encoding.encode(chr(cp)), ref_encode(name, chr(cp))
        if got != expected:
            return f"U+{cp:04X}: expected {expected.hex(' ')}, got {got.hex(' ')}"
    return "no single code point differs (state across code points?)"


@pytest.mark.parametrize("name", quick_sample(WITH_ENCODER, {"windows-1252", "Shift_JIS"}))
def test_encoder_round_trips_over_index(name):
    encoding = ENCODINGS[name]
    code_points = encodable_code_points(name)
    assert len(code_points) > 128
    text = "".join(map(chr, code_points))
    got = encoding.encode(text)
    assert got == ref_encode(name, text), f"{name}: {_first_difference(name, code_points)}"
    one_way = set()
    for cp in code_points:
        char = chr(cp)
        encoded = encoding.encode(char)
        assert b"&#%d;" % cp not in encoded, f"U+{cp:04X} should be encodable"
        back = encoding.decode(encoded)
        if back != char:
            one_way.add(cp)
            assert back == ref_decode(name, ref_encode(name, char)), f"U+{cp:04X}"
    assert one_way == EXPECTED_ONE_WAY.get(name, set()), sorted(map(hex, one_way))[:20]


@pytest.mark.parametrize("name", WITH_ENCODER)
def test_html_error_mode(name):
    encoding = ENCODINGS[name]
    for char in ("\U0001F4A9", "\u0100", "\uE5E5", "\U0010FFFF", "\u00E9", "\u4E00", "\uFFFD"):
        for text in (char, "a" + char + "b", char * 2):
            expected = ref_encode(name, text)
            assert encoding.encode(text) == expected, (text, expected)
    # A code point the encoder cannot represent is "&#" + decimal + ";".
    unmappable = "\U000E0001" if name not in ("UTF-8", "gb18030") else None
    if unmappable:
        assert encoding.encode("x" + unmappable) == b"x&#917505;"


@pytest.mark.parametrize("name", WITH_ENCODER)
def test_lone_surrogates_become_replacement_character(name):
    # The input is first made a scalar value string: a lone surrogate is U+FFFD.
    encoding = ENCODINGS[name]
    fffd = ref_encode(name, "\ufffd")
    assert fffd == (b"\xef\xbf\xbd" if name == "UTF-8" else
                    b"\x84\x31\xa4\x37" if name == "gb18030" else b"&#65533;")
    for text, count in (("\ud800", 1), ("\udfff", 1), ("a\udc00b", 1), ("\ud83d\udca9", 2)):
        assert encoding.encode(text) == ref_encode(name, text)
        assert encoding.encode(text).count(fffd) == count


def test_gbk_and_gb18030_differ():
    gbk, gb18030 = ENCODINGS["GBK"], ENCODINGS["gb18030"]
    assert gbk.encode("\u20ac") == b"\x80"
    assert gb18030.encode("\u20ac") == b"\xa2\xe3"
    # GBK has no four-byte sequences: "html" error mode instead.
    for char, four in (("\x80", b"\x81\x30\x81\x30"), ("\uffff", b"\x84\x31\xa4\x39"),
                       ("\U00010000", b"\x90\x30\x81\x30"), ("\U0010FFFF", b"\xe3\x32\x9a\x35"),
                       ("\ue7c7", b"\x81\x35\xf4\x37")):
        assert gb18030.encode(char) == four
        assert gbk.encode(char) == b"&#%d;" % ord(char)
    for enc in (gbk, gb18030):
        assert enc.encode("\ue5e5") == b"&#58853;"  # 0xA3 0xA0 decodes to U+3000 instead
        assert enc.encode("\ue78d") == b"\xa6\xd9"  # the encoder's side table
        assert enc.encode("\ue864") == b"\xfe\xa0"


def _pointers(index_file):
    by_code_point = {}
    for pointer, code_point in read_index(index_file):
        by_code_point.setdefault(code_point, []).append(pointer)
    return by_code_point


def test_big5_pointer_exclusions():
    big5 = ENCODINGS["Big5"]
    limit = (0xA1 - 0x81) * 157
    pointers = _pointers("index-big5.txt")
    # Code points found only below the limit (Hong Kong extensions) are not encoded.
    only_hkscs = [cp for cp, ps in pointers.items() if max(ps) < limit]
    assert len(only_hkscs) > 100
    for cp in only_hkscs:
        assert big5.encode(chr(cp)) == b"&#%d;" % cp
    # Six code points use their *last* pointer; every other duplicate its first.
    for cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
        usable = [p for p in pointers[cp] if p >= limit]
        assert len(usable) > 1
        lead, trail = divmod(usable[-1], 157)
        offset = 0x40 if trail < 0x3F else 0x62
        assert big5.encode(chr(cp)) == bytes([lead + 0x81, trail + offset])
    duplicates = [cp for cp, ps in pointers.items() if len([p for p in ps if p >= limit]) > 1]
    for cp in duplicates:
        assert big5.encode(chr(cp)) == ref_encode("Big5", chr(cp))


def test_shift_jis_pointer_exclusions():
    sjis, euc_jp = ENCODINGS["Shift_JIS"], ENCODINGS["EUC-JP"]
    pointers = _pointers("index-jis0208.txt")
    moved = 0
    for cp, ps in pointers.items():
        if not any(8272 <= p <= 8835 for p in ps):
            continue
        allowed = [p for p in ps if not 8272 <= p <= 8835]
        got = sjis.encode(chr(cp))
        if not allowed:
            assert got == b"&#%d;" % cp
            continue
        lead, trail = divmod(allowed[0], 188)
        assert got == bytes([lead + (0x81 if lead < 0x1F else 0xC1),
                             trail + (0x40 if trail < 0x3F else 0x41)])
        moved += allowed[0] > 8835
        # EUC-JP uses the plain index pointer: the first one, excluded range included.
        assert euc_jp.encode(chr(cp)) == bytes([ps[0] // 94 + 0xA1, ps[0] % 94 + 0xA1])
    assert moved > 100  # e.g. U+2170 SMALL ROMAN NUMERAL ONE -> 0xFA 0x40
    assert sjis.encode("\u2170") == b"\xfa\x40"
    assert sjis.encode("\x80\xa5\u203e\uff61\u2212") == b"\x80\x5c\x7e\xa1\x81\x7c"


@pytest.mark.parametrize("text,expected", [
    ("", b""),
    ("abc", b"abc"),
    ("\xa5", b"\x1b(J\\\x1b(B"),
    ("\xa5\u203ea", b"\x1b(J\\~a\x1b(B"),
    ("\xa5\\", b"\x1b(J\\\x1b(B\\"),
    ("\u65e5", b"\x1b$BF|\x1b(B"),
    ("\u65e5a", b"\x1b$BF|\x1b(Ba"),
    ("\u65e5\xa5", b"\x1b$BF|\x1b(J\\\x1b(B"),
    ("\uff71", b"\x1b$B%\"\x1b(B"),           # halfwidth katakana -> jis0208 fullwidth
    ("\u2212", b"\x1b$B!]\x1b(B"),             # U+2212 is encoded as U+FF0D
    ("\x0e\x0f\x1b", b"&#65533;&#65533;&#65533;"),
    ("\u65e5\x1b", b"\x1b$BF|\x1b(B&#65533;"),
    ("\u65e5\U0001F4A9\u65e5", b"\x1b$BF|\x1b(B&#128169;\x1b$BF|\x1b(B"),
    ("\xa5\U0001F4A9", b"\x1b(J\\&#128169;\x1b(B"),
])
def test_iso_2022_jp_states(text, expected):
    assert ref_encode("ISO-2022-JP", text) == expected  # the reference agrees with the spec
    assert ENCODINGS["ISO-2022-JP"].encode(text) == expected


_ISO_2022_JP_CHARS = st.sampled_from(
    [chr(c) for c in range(0x20, 0x7F)] + ["\xa5", "\u203e", "\u65e5", "\u672c", "\u3042",
                                           "\uff71", "\u2212", "\U0001F4A9", "\n"])


@pytest.mark.slow  # 300 texts through the spec-literal encoder
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(_ISO_2022_JP_CHARS, max_size=20).map("".join))
def test_iso_2022_jp_random_text(text):
    encoded = ENCODINGS["ISO-2022-JP"].encode(text)
    assert encoded == ref_encode("ISO-2022-JP", text)
    # The encoder always ends in the ASCII state.
    if b"\x1b" in encoded:
        assert encoded[encoded.rindex(b"\x1b"):].startswith(b"\x1b(B")
    # A single run through the encoder decodes back (with the documented one-way mappings).
    back = text.replace("\u2212", "\uff0d").replace("\U0001F4A9", "&#128169;")
    back = "".join(ref_decode("ISO-2022-JP", ref_encode("ISO-2022-JP", c))
                   if "\uff61" <= c <= "\uff9f" else c for c in back)
    assert ENCODINGS["ISO-2022-JP"].decode(encoded) == back


@pytest.mark.parametrize("name", quick_sample(WITH_ENCODER, {"windows-1252", "Shift_JIS"}))
def test_random_text_equals_reference(name):
    # (hypothesis runs inside the test: pytest-twisted breaks @given combined with parametrize)
    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(st.text(max_size=30))
    def run(text):
        assert ENCODINGS[name].encode(text) == ref_encode(name, text)

    run()


@pytest.mark.parametrize("name", NAMES)
def test_output_encoding(name):
    encoding = ENCODINGS[name]
    if name in ("replacement", "UTF-16BE", "UTF-16LE"):
        assert encoding.output_encoding is ENCODINGS["UTF-8"]
    else:
        assert encoding.output_encoding is encoding


@pytest.mark.parametrize("name", sorted(NO_ENCODER))
def test_no_encoder_encodes_with_output_encoding(name):
    # replacement and UTF-16BE/LE have no encoder; Encoding.encode uses UTF-8 (documented).
    text = "a\xe9\u65e5\U0001F4A9\ud800"
    assert ENCODINGS[name].encode(text) == ref_encode("UTF-8", text)
    assert ENCODINGS[name].encode(text) == b"a\xc3\xa9\xe6\x97\xa5\xf0\x9f\x92\xa9\xef\xbf\xbd"
