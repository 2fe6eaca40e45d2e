"""Split marks (issue 37): a page dense with split tokens (Big5 A2 41/42, EUC-JP 8F A2 B7), on a
token boundary or off one, is decoded at C speed (FastDecoder.decode_splits: the C codec's text of
the bytes with their marks set, see multi_byte.SplitMarks), and equals its plain twin (each split
token's place told by a walk) and the spec-literal reference decoder (tests/reference.py). The
premises the marks rest on are checked here over every token.
"""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from reference import ref_decode

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding import big5, multi_byte

# The Python decoders' own paths (the compiled decoders would bypass them: tests/conftest.py).
pytestmark = pytest.mark.usefixtures("python_decoders")

SPLIT = ["Big5", "EUC-JP"]  # the decoders with split tokens (tables/multi_byte_fixes.py)
MARK = multi_byte.MARK


def _decoder(name):
    return ENCODINGS[name]._load()[0]


def test_only_big5_and_euc_jp_have_split_tokens_and_marks():
    names = ("Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR")
    assert [name for name in names if _decoder(name).splits] == SPLIT
    assert [name for name in names if _decoder(name).marks is not None] == SPLIT


def _tokens(name):
    """Every byte, every pair from a byte 0x80 or above, and EUC-JP's 0x8F with every two bytes 0xA1-0xFE."""
    tokens = [bytes((a,)) for a in range(0x80)] + [bytes((a, b)) for a in range(0x80, 0x100) for b in range(0x100)]
    if name == "EUC-JP":
        tokens += [bytes((0x8F, b, c)) for b in range(0xA1, 0xFF) for c in range(0xA1, 0xFF)]
    return tokens


@pytest.mark.parametrize("name", SPLIT)
def test_mark_is_no_other_token(name):
    """MARK (0x7F) and its codes (0x01-0x03) are tokens of their own after any byte (a leading byte
    restores them), and no token but 0x7F gives U+007F, with the C codec (and the fixes) or the
    reference: so each U+007F of the marked bytes' text is MARK's, followed by its code."""
    decoder = _decoder(name)
    for lead in range(0x100):
        for code in (0x7F, 0x01, 0x02, 0x03):
            assert ref_decode(name, bytes((lead, code))).endswith(chr(code)), (lead, code)
    for token in _tokens(name):
        if 0x7F not in token:
            assert "\x7f" not in decoder._c_decode(token) and "\x7f" not in ref_decode(name, token), token


def test_big5_leading_bytes_end_their_token_after_the_next_byte():
    """mark_splits' premise, by the reference: after a byte 0x81-0xFE and any next byte, and after
    any other byte alone, a token ends (what follows decodes as if alone)."""
    for first in range(0x100):
        for second in range(0x100):
            head = bytes((first, second)) if 0x81 <= first <= 0xFE else bytes((first,))
            for rest in (b"\xa4\x40", b"\x81", b"\xa2A"):
                assert ref_decode("Big5", head + rest) == ref_decode("Big5", head) + ref_decode("Big5", rest), (head, rest)
            if len(head) == 1:
                break


@pytest.mark.parametrize("name", SPLIT)
def test_swaps_come_from_split_tokens_and_rivals_only(name):
    """The swaps' premise: each split token's C codec character (with the fixes) is given by no
    token but the split tokens and the rivals (whose reference texts are such characters), and
    none holding a rival's bytes: where the bytes hold no rival, each is a split token's."""
    decoder = _decoder(name)
    chars = {c for c, _ in decoder.marks.swaps}
    for split, (c, text) in zip(decoder.splits, decoder.marks.swaps):
        assert decoder._c_decode(split) == c != text == ref_decode(name, split)
    assert all(ref_decode(name, rival) in chars for rival in decoder.marks.rivals)
    for token in _tokens(name):
        if token not in decoder.splits and not any(rival in token for rival in decoder.marks.rivals):
            assert not chars.intersection(decoder._c_decode(token)), token


def test_euc_jp_tilde_is_itself_after_any_byte():
    """The EUC-JP marks' premise (with the swaps'): a byte 0x7E is "~" after any byte (restored)."""
    for lead in range(0x100):
        assert ref_decode("EUC-JP", bytes((lead, 0x7E))).endswith("~"), lead


def _walk_marks(decoder, data):
    """The plain twin of Big5's mark_splits: a walk token by token (*step*), each split token that
    starts a token replaced by its mark."""
    marks = {split: MARK + bytes((2 + k,)) for k, split in enumerate(decoder.splits)}
    out, i = [], 0
    while i < len(data):
        end = decoder.step(data, i)[1]
        out.append(marks.get(data[i:end], data[i:end]))
        i = end
    return b"".join(out)


PIECES = {"Big5": [b"\xa2A", b"\xa2B", b"\xa2@", b"\xa1\xfe", b"\xa1", b"\xa2", b"\xa4", b"\x87", b"\x80", b"\xff",
                   b"A", b"B", b"@", b"~", b"\xfe"],
          "EUC-JP": [b"\x8f\xa2\xb7", b"\xa1\xc1", b"~", b"\x8f", b"\x8f\xa2", b"\xa2\xb7", b"\xa1", b"\x8e",
                     b"\x80", b"\xff", b"\xb7", b"A"],
          "marks": [b"\x7f", b"\x7f\x01", b"\x7f\x02", b"\x7f\x03", b"\x01", b"\x02", b"\x03"]}
SOUPS = st.lists(st.sampled_from(sorted({p for pieces in PIECES.values() for p in pieces})) | st.binary(max_size=2),
                 max_size=30)


def test_big5_mark_splits_equals_plain_walk():
    """mark_splits marks the split tokens that start a token, as a walk token by token does, on
    soups of split tokens, their rivals, their bytes apart, leading bytes, bytes alone and marks."""
    decoder = _decoder("Big5")

    # (hypothesis runs inside the test: pytest-twisted breaks @given combined with parametrize)
    @settings(max_examples=500, deadline=None, derandomize=True, database=None)
    @given(SOUPS)
    @example([b"\xa1\xa2A\xa2A\xa4~\xa2\xa1\xfe"])  # a split token off a boundary, then on one
    @example([b"\xa2\xa2\xa2A\xa2\xa2B"])  # runs of three and four leading bytes
    @example([b"\xa2B\x7f\xa2A"])  # a mark, then a split token
    @example([b"\xa2A"])  # at the start and at the end
    def run(pieces):
        body = b"".join(pieces).replace(MARK, MARK + b"\x01")
        assert big5.mark_splits(body) == _walk_marks(decoder, body), body

    run()


@pytest.mark.parametrize("name", SPLIT)
def test_decode_splits_equals_twin_and_reference(name):
    """decode_splits with its shortcut (the marks, on every body: no count of split tokens to pass)
    equals its plain twin and the reference, on soups of split tokens, their rivals, their bytes
    apart and marks."""
    decoder = _decoder(name)

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(SOUPS)
    @example([b"\xa1\xa2A\xff\xa2A\xa1\xfe\xa2B"])
    @example([b"\xff\x8f\xa2\xb7~\xa1\xc1\x8f\xa2\xb7"])  # (EUC-JP: a split token in a run of errors)
    @example([b"\x7f\x02~\x8f\xa2\xb7\x7f\x7f\x01\xa2A\x7f\x03"])  # marks' bytes in the input
    def run(pieces):
        body = b"".join(pieces)
        expected = ref_decode(name, body)
        probes, multi_byte._SPLIT_PROBES = multi_byte._SPLIT_PROBES, -1
        try:
            assert decoder.decode_splits(body) == expected, body
        finally:
            multi_byte._SPLIT_PROBES = probes
        assert decoder.decode_splits(body, shortcut=False) == expected, body

    run()


@pytest.mark.parametrize(("name", "unit"), [("Big5", b"\xa1\xa2A"), ("Big5", b"\xa2A"), ("Big5", b"\xa2A\xa1\xfe"),
                                            ("Big5", b"\xa2B\xa2@"), ("Big5", b"\x7f\xa2A\x7f\x02"),
                                            ("EUC-JP", b"\xa1\x8f\xa2\xb7"), ("EUC-JP", b"\x8f\xa2\xb7"),
                                            ("EUC-JP", b"\x8f\xa2\xb7~\xa1\xc1"), ("EUC-JP", b"\xff\x8f\xa2\xb7"),
                                            ("EUC-JP", b"\x7f~\x8f\xa2\xb7\x7f\x02")])
def test_dense_split_tokens_take_the_marks(name, unit, monkeypatch):
    """A body of a split token repeated (off a boundary, on one, with rivals, in runs of errors,
    among marks' bytes) past _SPLIT_PROBES of them equals the reference, and the walk is never
    taken; the marks are set where the body holds a rival's bytes, else the characters swapped."""
    decoder = _decoder(name)
    walks, marked = [], []
    monkeypatch.setattr(decoder, "_token_span", lambda *args: walks.append(args))
    mark = decoder.marks.mark
    monkeypatch.setattr(decoder, "marks", decoder.marks._replace(mark=lambda data: marked.append(data) or mark(data)))
    data = unit * 4000
    assert decoder(data) == ref_decode(name, data), unit
    assert walks == []
    assert len(marked) == any(rival in data for rival in decoder.marks.rivals), unit
