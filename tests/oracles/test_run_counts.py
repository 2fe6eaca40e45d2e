"""decode_run's cheaper steps against their plain twins: the sparse-errors checks counted over growing
prefixes (multi_byte._at_least, _sparse: ``str.count``), a text of tokens alone decoded as ASCII with a
placeholder for U+FFFD (multi_byte._alone_text: ``codecs.charmap_decode`` by the table with canon)."""
from __future__ import annotations

import codecs
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding import multi_byte


def test_at_least_every_short_text():
    """Every text of U+FFFD and another character up to 10 long, every count up to 12: str.count's answer."""
    for length in range(11):
        for chars in itertools.product("\ufffdA", repeat=length):
            text = "".join(chars)
            for count in range(13):
                assert multi_byte._at_least(text, count) == (text.count("\ufffd") >= count), (text, count)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 6000), st.floats(0, 1), st.integers(0, 1000), st.integers(0, 2 ** 32))
def test_at_least_and_sparse_equal_count(length, density, count, seed):
    """Long texts of any density (a run's, a window's), around every prefix's edge: str.count's answer."""
    rng = random.Random(seed)
    text = "".join("\ufffd" if rng.random() < density else "\u4e00" for _ in range(length))
    assert multi_byte._at_least(text, count) == (text.count("\ufffd") >= count)
    for size in (count * multi_byte._SPARSE, count * multi_byte._SPARSE + 1, length, 4 * length + 3, 0):
        assert multi_byte._sparse(text, size) == (text.count("\ufffd") * multi_byte._SPARSE < size), size


@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"])
def test_alone_text_equals_charmap(name):
    """Bytes that canon (or canon with a placeholder for U+FFFD's byte) gives: ASCII ones, every byte, and
    each byte with ASCII; each way the text of charmap_decode by the table with canon."""
    decoder = ENCODINGS[name]._load()[0]
    runs = multi_byte.error_runs(decoder.step)
    rng = random.Random(5)
    windows = [bytes(range(256)), bytes(range(0x80)) * 2, b"", b"\x82@" * 50, b"\xff" * 9, b"A\x80B\xa0C\xfe\xa1"]
    windows += [bytes((b,)) + b"az\x00\x7f" for b in range(256)]
    windows += [bytes(rng.choices(range(256), k=rng.randrange(300))) for _ in range(50)]
    for window in windows:
        expected = codecs.charmap_decode(window.translate(runs.canon), "strict", runs.table)[0]
        assert multi_byte._alone_text(runs.table, window.translate(runs.canon)) == expected, window
        for placeholder in multi_byte._PLACEHOLDERS:
            if placeholder not in window:
                text = window.translate(multi_byte._merge_with(runs.canon, placeholder))
                assert multi_byte._alone_text(runs.table, text, placeholder) == expected, (window, placeholder)
