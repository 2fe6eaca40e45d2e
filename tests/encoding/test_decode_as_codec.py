"""``Encoding.decode_as_codec``: the text is the decoder's, and the CPython codec it names (if any)
decodes the same bytes strictly to that very text; the Scrapy layer relies on it to tell that
Scrapy's text is the same without decoding again (``scrapy_default.changed``)."""
from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding.tables.single_byte import SINGLE_BYTE


def _strict(data: bytes, codec: str) -> str | None:
    try:
        return codecs.decode(data, codec, "strict")
    except UnicodeDecodeError:
        return None


@pytest.mark.parametrize("name", sorted(SINGLE_BYTE))
def test_single_byte_names_a_codec_exactly_where_it_agrees(name):
    # Exhaustive: every byte, alone and between ASCII text (the codec is all or nothing per body).
    encoding = ENCODINGS[name]
    named = 0
    for byte in range(256):
        for data in (bytes([byte]), b"caf" + bytes([byte]) + b" <p>"):
            text, codec = encoding.decode_as_codec(data)
            assert text == encoding.decode(data)
            if codec is not None:
                named += 1
                assert _strict(data, codec) == text
            else:
                same_name = _strict(data, name) if _known(name) else None
                assert same_name != text  # no codec named only where the namesake codec disagrees
    if _known(name):
        assert named > 256  # the ASCII bytes and most others name it


def _known(name: str) -> bool:
    try:
        codecs.lookup(name)
    except LookupError:
        return False
    return True


@pytest.mark.slow  # 300 examples
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["Shift_JIS", "EUC-JP", "EUC-KR", "Big5", "GBK", "gb18030", "windows-1252", "KOI8-R"]),
       st.binary(max_size=40))
def test_a_named_codec_decodes_to_the_same_text(name, data):
    encoding = ENCODINGS[name]
    text, codec = encoding.decode_as_codec(data)
    assert text == encoding.decode(data)
    if codec is not None:
        assert _strict(data, codec) == text
