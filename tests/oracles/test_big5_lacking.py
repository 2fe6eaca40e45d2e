"""Big5's runs of the pairs CPython's big5hkscs rejects that the standard decodes (big5.lacking_run, the
Big5 FastDecoder's *bulk*: a page of them took an error handler call each, 400 ms a MiB) equal the
spec-literal reference decoder (tests/reference.py) and their plain twin, the reference token by token."""
from __future__ import annotations

import functools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from reference import ref_decode

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding import big5

HIGH = range(0x80, 0x100)


@functools.cache
def _by_reference() -> dict[bytes, str]:
    """Each pair of two bytes 0x80 and above that the reference decodes to one code point, one token of the
    two bytes whatever follows (an ASCII byte, the end), and that CPython's big5hkscs rejects: its text."""
    lacking = {}
    for lead in HIGH:
        for trail in HIGH:
            pair = bytes((lead, trail))
            text = ref_decode("Big5", pair + b"A")
            if len(text) == 2 and text[1] == "A" and text[0] != "\ufffd" and ref_decode("Big5", pair) == text[0]:
                try:
                    pair.decode("big5hkscs")
                except UnicodeDecodeError:
                    lacking[pair] = text[0]
    return lacking


def plain_lacking_run(data: bytes, i: int) -> tuple[str, int] | None:
    """lacking_run's plain twin: token by token from *i* while each is such a pair, the reference's text."""
    end = i
    while data[end:end + 2] in _by_reference():
        end += 2
    return (ref_decode("Big5", data[i:end]), end) if end - i >= 4 else None


def test_lacking_pairs_every_pair():
    """The pairs (and the slots' pairs and texts) are the reference's, every pair of bytes 0x80 and above."""
    lacking = big5._lacking()
    assert {pair: lacking.texts[lacking.offsets[pair[0]] + lacking.trails[pair[1]]] for pair in lacking.pairs} \
        == _by_reference()
    slots = [lacking.offsets[pair[0]] + lacking.trails[pair[1]] for pair in lacking.pairs]
    assert len(set(slots)) == len(slots) and max(slots) < 256
    assert all(lacking.leads_at[slot] * 256 + lacking.trails_at[slot] == int.from_bytes(pair, "big")
               for pair, slot in zip(lacking.pairs, slots))


def test_lacking_run_every_pair():
    """Each pair of bytes 0x80 and above, twice then a valid pair, from 0 and from 1: the plain twin's."""
    for lead in HIGH:
        for trail in HIGH:
            pair = bytes((lead, trail))
            for data, start in ((pair * 2 + b"\xa4\xa4", 0), (b"\x87\xa1" + pair * 3, 0), (b"A" + pair * 3 + b"\x87", 1)):
                assert big5.lacking_run(data, start) == plain_lacking_run(data, start), data


@pytest.mark.slow  # 600 inputs against the reference
@pytest.mark.parametrize("window", [64, 2], ids=["windows", "small-windows"])
def test_lacking_run_equals_plain_twin(window, monkeypatch):
    """Runs of such pairs among others (valid pairs, errors, ASCII, lone bytes), across windows' edges
    (also windows of 2 to 128 pairs: many edges, the largest reached) and at the end of the input."""
    monkeypatch.setattr(big5, "_WINDOW", window)
    monkeypatch.setattr(big5, "_MAX_WINDOW", 1 << 16 if window == 64 else 128)
    lacking = sorted(_by_reference())
    others = [b"\xa4\xa4", b"\xa4", b"\x87\xe0", b"\x87\x40", b"\x87", b"\x88b", b"\x80", b"\xff", b"A", b"\xa3\xbf",
              b"\x00", b"\x00\x00"]

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(lacking)
                    | st.tuples(st.sampled_from(lacking), st.integers(1, 300)).map(lambda p: p[0] * p[1])
                    | st.sampled_from(others), max_size=40), st.integers(0, 3))
    @example([b"\x87\xa1" * 200, b"\xa3\xe1"], 0)
    @example([b"\x87\xa1" * 64, b"\x87\x80"], 0)  # (0x87 0x80: the slot of 0x87 0xA1, the trail differs)
    @example([b"\x87\xa1" * 64, b"\x87\xa1\x87"], 0)  # (a lone last byte)
    @example([b"\x87\xa1" * 3, b"\xa3"], 0)  # (a lone last byte of a row at an offset)
    def run(pieces, start):
        data = b"".join(pieces)
        start = min(start, len(data))
        assert big5.lacking_run(data, start) == plain_lacking_run(data, start), data

    run()


@pytest.mark.parametrize("body", [b"\x87\xa1" * 40000, (b"\x87\xa1\xa3\xe1" * 30 + b"\xa4\xa4\xff") * 1000,
                                  b"<p>" + b"\x87\xa2\x87\xa1\xa3\xc0" * 20000 + b"\x87",
                                  bytes(b for pair in sorted(big5._lacking().pairs) for b in pair) * 100],
                         ids=["one-pair", "runs-among-others", "three-pairs", "every-pair"])
def test_decoder_pages_of_lacking_pairs_equal_reference(body):
    """The decoder (its bulk taking the runs) gives the reference's text for pages of such pairs."""
    assert ENCODINGS["Big5"].decode(body) == ref_decode("Big5", body)
