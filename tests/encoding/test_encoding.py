"""The predicates on :class:`Encoding` against what each of the 40 decoders does (exhaustive)."""
from __future__ import annotations

import pytest
from quick_sample import quick_sample

from scrapy_whatwg_encoding import ENCODINGS

#: The quick subset's sample: a single-byte, a multi-byte, a stateful and a UTF-16 decoder.
QUICK = {"UTF-8", "windows-1252", "Shift_JIS", "ISO-2022-JP", "UTF-16LE"}


@pytest.mark.parametrize("encoding", quick_sample(ENCODINGS.values(), lambda e: e.name in QUICK), ids=list(ENCODINGS))
def test_predicates_match_the_decoders(encoding):
    decode = encoding.decode
    alone = [decode(bytes([b])) for b in range(256)]
    # ASCII compatible: each byte 0x00-0x7F alone is its ASCII code point (ISO-2022-JP's ESC,
    # a lone UTF-16 byte and the replacement decoder are not).
    assert encoding.is_ascii_compatible == all(alone[b] == chr(b) for b in range(0x80))
    # Single-byte: every byte is a token of its own, one code point each (whatever follows a
    # byte that could start a longer token: 0x80-0xFF, or ISO-2022-JP's ESC).
    tokens_of_one = all(len(alone[b]) == 1 for b in range(256)) and all(
        decode(bytes([a, b])) == alone[a] + alone[b] for a in [0x1B, *range(0x80, 0x100)] for b in range(256)
    ) and len(decode(b"\x1b$B0!")) == 5
    assert encoding.is_single_byte == tokens_of_one
    # UTF-16: two bytes per code unit, in either order.
    assert encoding.is_utf16 == (decode("ab".encode("utf-16-le")) == "ab" or decode("ab".encode("utf-16-be")) == "ab")
    # No encoder (§4.1 note) exactly for UTF-16 and replacement: their output encoding is UTF-8.
    assert (encoding.output_encoding is not encoding) == (encoding.is_utf16 or encoding.name == "replacement")
