"""The compiled multi-byte decoders (scrapy_whatwg_encoding/encoding/c_decoders.c) and their plain
twins, the Python decoders, equal the spec-literal reference decoder (tests/reference.py): every
leading byte with every next byte and the bytes after it that change a step, every four-byte
gb18030 token, every ISO-2022-JP escape in every state, hypothesis-generated inputs from the bytes
that matter; and the package decodes with the compiled ones where they are built.
"""
from __future__ import annotations

import os
import random
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from reference import index_gb18030_ranges_code_point, ref_decode

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding import compiled

EXTENSION = compiled.extension()
if EXTENSION is None:  # (.ci/run builds it: CI runs no test skipped)
    pytest.skip("the package was built without its C extension (no C compiler when pip installed it)",
                allow_module_level=True)

NAMES = ["gb18030", "GBK", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR"]
COMPILED = {name: compiled.decoder(name, EXTENSION) for name in NAMES}
# Bytes after two bytes that change what a step reads: none, C0, ESC, a four-byte second, ASCII, DEL,
# the high half's edges, EUC-JP's and Shift_JIS' leading bytes.
AFTER = [b"", b"\x00", b"\x1b", b"\x30", b"\x39", b"\x40", b"\x7f", b"\x80", b"\x8e", b"\x8f", b"\xa1", b"\xe0",
         b"\xfe", b"\xff"]
# The bytes whose kinds the decoders tell apart (hypothesis draws from them): edges of each range.
KINDS = bytes([0x00, 0x0E, 0x0F, 0x1B, 0x21, 0x24, 0x28, 0x30, 0x39, 0x40, 0x41, 0x42, 0x49, 0x4A, 0x5C, 0x5F,
               0x60, 0x7E, 0x7F, 0x80, 0x81, 0x82, 0x87, 0x8E, 0x8F, 0x9F, 0xA0, 0xA1, 0xA2, 0xB7, 0xDF, 0xE0,
               0xFC, 0xFD, 0xFE, 0xFF])


def python_decoder(name: str):
    """The plain twin: the Python decoder, on CPython's codecs."""
    return ENCODINGS[name]._load()[0].python


def test_the_package_decodes_with_the_compiled_decoders():
    """Where the extension is built, each encoding's decode is the compiled decoder; with
    SCRAPY_WHATWG_ENCODING_PURE_PYTHON=1 (CI's run of the Python decoders), none is."""
    pure = os.environ.get(compiled.PURE_PYTHON) == "1"
    for name in NAMES:
        assert (ENCODINGS[name]._load()[0].compiled is None) == pure, name
    assert compiled.decoder("windows-1252", EXTENSION) is None


def test_without_the_extension_the_python_decoders(monkeypatch):
    """Where the extension cannot be imported (a package built without a C compiler), extension() is
    None and no compiled decoder is given: the encodings decode with the Python decoders."""
    import scrapy_whatwg_encoding.encoding as package

    monkeypatch.delattr(package, "c_decoders", raising=False)
    monkeypatch.setitem(sys.modules, "scrapy_whatwg_encoding.encoding.c_decoders", None)
    assert compiled.extension() is None
    assert all(compiled.decoder(name) is None for name in NAMES)


@pytest.mark.slow  # 65,536 pairs times 14 tails, seven encodings
@pytest.mark.parametrize("name", NAMES)
def test_every_two_bytes_then_every_continuation(name):
    """Every two bytes, then each of AFTER, then a newline (which ends every token), one input per
    leading byte and tail: the compiled decoder gives the reference's text."""
    decode = COMPILED[name]
    for lead in range(256):
        for after in AFTER:
            data = b"".join(bytes((lead, second)) + after + b"\n" for second in range(256))
            assert decode(data) == ref_decode(name, data), (hex(lead), after)
            assert decode(data[:3]) == ref_decode(name, data[:3]), data[:3]  # (end-of-queue after them)


@pytest.mark.slow  # 1,587,600 tokens
def test_every_four_byte_token():
    """Every gb18030 four-byte token (§10.2.1 step 3: a byte 0x81-0xFE, a digit, a byte 0x81-0xFE, a
    digit), its pointer's index gb18030 ranges code point (the reference's) or U+FFFD where null."""
    decode = COMPILED["gb18030"]
    for first in range(0x81, 0xFF):
        tokens = bytes(b for second in range(0x30, 0x3A) for third in range(0x81, 0xFF) for fourth in range(0x30, 0x3A)
                       for b in (first, second, third, fourth))
        expected = []
        for k in range(0, len(tokens), 4):
            pointer = ((first - 0x81) * 12600 + (tokens[k + 1] - 0x30) * 1260 + (tokens[k + 2] - 0x81) * 10
                       + tokens[k + 3] - 0x30)
            code_point = index_gb18030_ranges_code_point(pointer)
            expected.append("\ufffd" if code_point is None else chr(code_point))
        assert decode(tokens) == "".join(expected), hex(first)


@pytest.mark.slow  # 7 states, 6 tails, 65,536 escapes
def test_every_escape_in_every_state():
    """ISO-2022-JP: from each state (after each escape, and none), each byte pair after ESC, then
    each of a few bytes and the end of the input, as the reference."""
    decode = COMPILED["ISO-2022-JP"]
    for state in (b"", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B", b"\x1b$B!"):
        for after in (b"", b"!", b"\\", b"\x0e", b"\x80", b"\x1b"):
            for leading in range(256):
                data = b"".join(state + bytes((0x1B, leading, byte)) + after for byte in range(256))
                assert decode(data) == ref_decode("ISO-2022-JP", data), (state, hex(leading), after)
                tail = state + bytes((0x1B, leading))
                assert decode(tail) == ref_decode("ISO-2022-JP", tail), tail


@settings(max_examples=600, deadline=None)
@given(name=st.sampled_from(NAMES), data=st.binary(max_size=40) | st.lists(st.sampled_from(KINDS), max_size=40).map(bytes))
@example(name="Big5", data=b"\x88\x62\x88\x64\x88")  # two code points per pointer, then end-of-queue
@example(name="gb18030", data=b"\x81\x30\x81A\x81\x30\x81")  # « second, third, byte » restored; three at the end
@example(name="ISO-2022-JP", data=b"\x1b$B\x1b(B\x1b(J\\~\x1b$")  # two escapes in a row, Roman, an escape cut off
@example(name="EUC-JP", data=b"\x8f\xa2\xb7\x8f\xa1A\x8e\xe0")
@example(name="Shift_JIS", data=b"\xf0\x40\x80\xa0\xfc")
def test_both_twins_equal_the_reference(name, data):
    expected = ref_decode(name, data)
    assert COMPILED[name](data) == expected
    assert python_decoder(name)(data) == expected


@pytest.mark.parametrize("name", NAMES)
def test_long_inputs_equal_the_python_decoder(name):
    """64 KiB of random bytes, of random bytes 0x80 and above, of bytes of KINDS, of valid text with
    errors: the compiled decoder's text is the Python decoder's (each held by the reference above),
    and any bytes-like input gives it."""
    rng = random.Random(name)
    valid = "日本語の文章、中文字符，한국어 문장 ¥‾".encode(ENCODINGS[name].codec_name) * 2000
    for data in (rng.randbytes(1 << 16), bytes(rng.choices(range(0x80, 0x100), k=1 << 16)),
                 bytes(rng.choices(KINDS, k=1 << 16)), bytes(b if rng.random() > 0.01 else 0xFF for b in valid)):
        text = python_decoder(name)(data)
        assert COMPILED[name](data) == text
        assert COMPILED[name](memoryview(bytearray(data))) == text
    strided = memoryview(data)[::2]  # (not contiguous: read as its bytes)
    assert COMPILED[name](strided) == python_decoder(name)(strided) == python_decoder(name)(strided.tobytes())
