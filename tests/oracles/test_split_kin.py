"""The split tokens' kin (issue 37): a page dense with split tokens (Big5 A2 41/42, EUC-JP 8F A2 B7),
on a token boundary or off one, is decoded at C speed (FastDecoder.decode_splits, see
FastDecoder.kin), and equals its plain twin (each split token's place told by a walk) and the
spec-literal reference decoder (tests/reference.py).
"""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from reference import ref_decode

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding import multi_byte

SPLIT = ["Big5", "EUC-JP"]  # the decoders with split tokens (tables/multi_byte_fixes.py)


def _decoder(name):
    return ENCODINGS[name]._load()[0]


def test_only_big5_and_euc_jp_have_split_tokens():
    assert [name for name in ("Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR") if _decoder(name).splits] == SPLIT


@pytest.mark.parametrize("name", SPLIT)
def test_kin_tokens_are_every_token_of_a_kin_character(name):
    """The kin characters are what a split token gives on a boundary (the C codec's, or the
    reference's), and the kin tokens are exactly the tokens (every byte, every pair, EUC-JP 0x8F with
    every two bytes) whose reference text is one of them, each with that text."""
    decoder = _decoder(name)
    kin = decoder.kin()
    chars = {text for split in decoder.splits for text in (str(split, decoder.c_codec, "replace"),
                                                           ref_decode(name, split))}
    chars |= {decoder._fix(str(split, decoder.c_codec, "replace"), split) for split in decoder.splits}
    assert {c for c in map(chr, range(0x110000)) if kin.chars.fullmatch(c)} == chars
    candidates = [bytes((a,)) for a in range(0x80)] + [bytes((a, b)) for a in range(0x80, 0x100) for b in range(0x100)]
    if name == "EUC-JP":
        candidates += [bytes((0x8F, b, c)) for b in range(0xA1, 0xFF) for c in range(0xA1, 0xFF)]
    expected = {}
    for token in candidates:
        text = ref_decode(name, token)
        if len(text) == 1 and text in chars:
            expected[token] = text
    assert kin.texts == expected
    assert kin.swaps == {ord(decoder._c_decode(split)): ref_decode(name, split) for split in decoder.splits}


def _walk_kin(step, texts, data):
    """The plain twin of the kin pattern's split: *step* token by token, each kin token that starts a token."""
    found, i = [], 0
    while i < len(data):
        end = step(data, i)[1]
        if data[i:end] in texts:
            found.append(data[i:end])
        i = end
    return found


PIECES = {"Big5": [b"\xa2A", b"\xa2B", b"\xa2@", b"\xa1\xfe", b"\xa1", b"\xa2", b"\xa4", b"\x87", b"\x80", b"\xff",
                   b"A", b"@", b"~", b"\xfe"],
          "EUC-JP": [b"\x8f\xa2\xb7", b"\xa1\xc1", b"~", b"\x8f", b"\x8f\xa2", b"\xa2\xb7", b"\xa1", b"\x8e",
                     b"\x80", b"\xff", b"\xb7", b"A"]}
SOUPS = st.lists(st.sampled_from(sorted({p for pieces in PIECES.values() for p in pieces})) | st.binary(max_size=2),
                 max_size=30)


@pytest.mark.parametrize("name", SPLIT)
def test_kin_pattern_equals_plain_walk(name):
    """The kin pattern's split captures the kin tokens that start a token, in order, as a walk
    token by token does, on soups of kin tokens, their bytes apart, leading bytes and bytes alone;
    the rivals' pattern the kin tokens but split tokens that give a split token's C codec character."""
    decoder = _decoder(name)
    kin = decoder.kin()
    swapped = {chr(c) for c in kin.swaps}
    rivals = {token for token, text in kin.texts.items() if token not in decoder.splits and text in swapped}
    assert rivals == {"Big5": {b"\xa1\xfe", b"\xa2@"}, "EUC-JP": {b"~"}}[name]

    # (hypothesis runs inside the test: pytest-twisted breaks @given combined with parametrize)
    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(SOUPS)
    @example([b"\xa1\xa2A\xa2A\xa4~\xa2\xa1\xfe"])  # a split token off a boundary, then on one
    @example([b"\xa1\x8f\xa2\xb7\x8f\xa2\xb7\xa1~\x8f\xa1\x8f"])  # a kin ASCII byte after a leading byte
    @example([b"\x8f\x8e\xa1\xc1\x8f\x8f\x8f\xa2\xb7"])  # EUC-JP 0x8F, then a leading byte: two bytes
    @example([b"\x8f\xa1\x8f\xa2\xb7\x8f\xa1\xa1\xc1"])  # 0x8F, 0xA1, then a byte 0x80 or above: three
    def run(pieces):
        body = b"".join(pieces)
        walk = _walk_kin(decoder.step, kin.texts, body)
        for pattern, expected in ((kin.tokens, walk), (kin.rivals, [token for token in walk if token in rivals])):
            parts = pattern.split(body)
            assert list(filter(None, parts[1::2])) == expected, body
            assert b"".join(parts[::2]) == b""  # (each match starts where the last ended)

    run()


@pytest.mark.parametrize("name", SPLIT)
def test_decode_splits_equals_twin_and_reference(name):
    """decode_splits with its shortcut (the kin path, on every body: no count of split tokens to
    pass) equals its plain twin and the reference, on soups of kin tokens; its check (one kin
    character of the text for each kin token) holds."""
    decoder = _decoder(name)
    kin = decoder.kin()

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(SOUPS)
    @example([b"\xa1\xa2A\xff\xa2A\xa1\xfe\xa2B"])
    @example([b"\xff\x8f\xa2\xb7~\xa1\xc1\x8f\xa2\xb7"])  # (EUC-JP: a split token in a run of errors)
    def run(pieces):
        body = b"".join(pieces)
        expected = ref_decode(name, body)
        probes, multi_byte._SPLIT_PROBES = multi_byte._SPLIT_PROBES, -1
        try:
            assert decoder.decode_splits(body) == expected, body
        finally:
            multi_byte._SPLIT_PROBES = probes
        assert decoder.decode_splits(body, shortcut=False) == expected, body
        tokens = list(filter(None, kin.tokens.split(body)[1::2]))
        assert len(kin.chars.findall(decoder._c_decode(body))) == len(tokens), body

    run()


@pytest.mark.parametrize(("name", "unit"), [("Big5", b"\xa1\xa2A"), ("Big5", b"\xa2A"), ("Big5", b"\xa2A\xa1\xfe"),
                                            ("Big5", b"\xa2B\xa2@"), ("EUC-JP", b"\xa1\x8f\xa2\xb7"),
                                            ("EUC-JP", b"\x8f\xa2\xb7"), ("EUC-JP", b"\x8f\xa2\xb7~\xa1\xc1"),
                                            ("EUC-JP", b"\xff\x8f\xa2\xb7")])
def test_dense_split_tokens_take_the_kin_path(name, unit, monkeypatch):
    """A body of a split token repeated (off a boundary, on one, with other kin tokens, in runs of
    errors) past _SPLIT_PROBES of them equals the reference, and the walk is never taken."""
    decoder = _decoder(name)
    walks = []
    monkeypatch.setattr(decoder, "_token_span", lambda *args: walks.append(args))
    data = unit * 4000
    assert decoder(data) == ref_decode(name, data), unit
    assert walks == []
