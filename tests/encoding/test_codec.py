"""``Encoding.codec_name``: the exact decoder and encoder in Python's codec registry.

``bytes.decode(enc.codec_name, errors)`` (what Scrapy's ``TextResponse`` does) and
``codecs.lookup(enc.codec_name)`` must give exactly ``enc.decode``; ``str.encode(enc.codec_name)``
exactly ``enc.encode``; incremental decoding in chunks the same as decoding at once.
"""
from __future__ import annotations

import codecs

import pytest
from cases import corpus_cases, decoder_cases
from quick_sample import quick_sample
from reference import encoding_names, ref_decode

from scrapy_whatwg_encoding import ENCODINGS

NAMES = encoding_names()
TEXT = "a\xe9\u20ac\u65e5\u672c\uff71\xa5\u203e\u0100\U0001F4A9\ud800~\\\x1b"


def _samples(name):
    """A few hundred byte strings with errors, plus the encoding's corpus pages (if any)."""
    samples = []
    for cases in decoder_cases(name).values():
        samples += cases[::max(1, len(cases) // 150)]
    samples += [data for enc, _, data in corpus_cases() if enc == name][:3]
    samples.append(b"".join(samples[:200]))
    return samples


@pytest.mark.parametrize("name", quick_sample(NAMES, {"UTF-8", "windows-1252", "Shift_JIS", "ISO-2022-JP"}))
def test_bytes_decode_with_codec_name(name):
    encoding = ENCODINGS[name]
    info = codecs.lookup(encoding.codec_name)
    for data in _samples(name):
        expected = encoding.decode(data)
        assert expected == ref_decode(name, data)
        assert data.decode(encoding.codec_name, "replace") == expected, data[:40].hex(" ")
        assert data.decode(encoding.codec_name) == expected, data[:40].hex(" ")
        assert data.decode(encoding.codec_name, "strict") == expected
        assert codecs.decode(data, encoding.codec_name, "replace") == expected
        assert info.decode(data) == (expected, len(data))


@pytest.mark.parametrize("name", NAMES)
def test_codec_lookup(name):
    encoding = ENCODINGS[name]
    info = codecs.lookup(encoding.codec_name)
    assert codecs.lookup(encoding.codec_name.upper()) is not None
    assert codecs.lookup(encoding.codec_name.upper()).decode(b"A\x80") == info.decode(b"A\x80")
    # Not a Python codec of the same family: the name resolves to the exact decoder.
    assert info.decode(b"\xff\xfe\xfd") == (ENCODINGS[name].decode(b"\xff\xfe\xfd"), 3)


@pytest.mark.parametrize("name", NAMES)
def test_str_encode_with_codec_name(name):
    encoding = ENCODINGS[name]
    for text in (TEXT, "", "plain ascii", TEXT * 3):
        expected = encoding.encode(text)
        assert text.encode(encoding.codec_name) == expected
        assert text.encode(encoding.codec_name, "strict") == expected
        assert codecs.encode(text, encoding.codec_name) == expected
        encoder = codecs.getincrementalencoder(encoding.codec_name)()
        pieces = [encoder.encode(c) for c in text] + [encoder.encode("", final=True)]
        assert b"".join(pieces) == expected


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_incremental_decoder_in_chunks(name, size):
    encoding = ENCODINGS[name]
    for data in _samples(name)[::7]:
        decoder = codecs.getincrementaldecoder(encoding.codec_name)("replace")
        parts = [decoder.decode(data[i:i + size]) for i in range(0, len(data), size)]
        parts.append(decoder.decode(b"", final=True))
        assert "".join(parts) == encoding.decode(data), data[:40].hex(" ")
    chunks = [bytes([b]) for b in b"\x1b$B0!\x81\x30\x81\x30\xe6\x97\xa5\xd8"]
    assert "".join(codecs.iterdecode(chunks, encoding.codec_name)) == \
        encoding.decode(b"".join(chunks))
