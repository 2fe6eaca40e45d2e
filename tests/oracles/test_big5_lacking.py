"""Big5's runs of the pairs CPython's big5hkscs rejects that the standard decodes, among ASCII (big5.lacking_run,
the Big5 FastDecoder's *bulk*, and its *pair_run* in decode_run's C codec decodes, where errors are ASCII
placeholders: a page of such pairs, or of such pairs between errors, took an error handler call each,
190 ms a MiB) equal the spec-literal reference decoder (tests/reference.py) and their plain twins, the
reference token by token and the decoder without *pair_run*."""
from __future__ import annotations

import codecs
import functools
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from reference import ref_decode

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding import big5, multi_byte
from scrapy_whatwg_encoding.encoding.multi_byte import FastDecoder
from scrapy_whatwg_encoding.encoding.tables.multi_byte_fixes import FIXES

# The Python decoders' own paths (the compiled decoders would bypass them: tests/conftest.py).
pytestmark = pytest.mark.usefixtures("python_decoders")

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
    """lacking_run's plain twin: token by token from *i* while each is such a pair or an ASCII byte (one token
    alone), the reference's text; ``None`` unless the first is a pair and the second a pair, or an ASCII
    byte then another token of the run or the end of the input."""
    kinds, end = [], i
    while end < len(data):
        if data[end] < 0x80:
            kinds.append("ascii")
            end += 1
        elif data[end:end + 2] in _by_reference():
            kinds.append("pair")
            end += 2
        else:
            break
    if kinds[:1] != ["pair"] or len(kinds) < 2 or kinds == ["pair", "ascii"] and end < len(data):
        return None
    return ref_decode("Big5", data[i:end]), end


def test_lacking_pairs_every_pair():
    """The pairs (and the slots' pairs and texts) are the reference's, every pair of bytes 0x80 and above;
    a leading byte 0x80 and above with any next byte has a slot whose leading byte is its own exactly
    where the two are such a pair (the next byte's place beyond the rows' span otherwise); each slot's
    code gives its text (charmap) and its two UTF-16 code units give it too (U+FFFF deleted)."""
    lacking = big5._lacking()
    assert {pair: lacking.texts[lacking.offsets[pair[0]] + lacking.trails[pair[1]]] for pair in lacking.pairs} \
        == _by_reference()
    slots = [lacking.offsets[pair[0]] + lacking.trails[pair[1]] for pair in lacking.pairs]
    assert len(set(slots)) == len(slots) and max(slots) < 256
    assert all(lacking.leads_at[slot] * 256 + lacking.trails_at[slot] == int.from_bytes(pair, "big")
               for pair, slot in zip(lacking.pairs, slots))
    for lead in HIGH:
        for byte in range(256):
            slot = lacking.offsets[lead] + lacking.trails[byte]
            assert slot < 256 and (lacking.leads_at[slot] == lead) is (bytes((lead, byte)) in _by_reference())
    codes = [lacking.codes[slot] for slot in slots]
    assert len(set(codes)) == len(codes) and 0xFF not in codes
    assert bytes(sorted(code for code in codes if code < 0x80)) == bytes(sorted(lacking.controls))
    for slot in range(256):
        units = bytes(table[slot] for table in lacking.units)
        if slot in slots:
            assert lacking.code_texts[lacking.codes[slot]] == lacking.texts[slot]
            assert units.decode("utf-16-le").replace("\uffff", "") == lacking.texts[slot]
    assert all(lacking.code_texts[b] == chr(b) for b in range(0x80) if b not in lacking.controls)
    assert not set(lacking.texts) & set(FIXES["Big5"][0]) - {"\ufffe"}  # (the caller's fixes leave them)


@pytest.fixture(params=[(16, 128, 1 << 15), (0, 1, 8), (0, 2, 64)], ids=["probe", "windows", "small-windows"])
def sizes(request, monkeypatch):
    """lacking_run's probe, first window and largest: as shipped; no probe, windows of 1 to 8 bytes (odd
    ones: a pair across each edge); of 2 to 64 bytes."""
    for name, value in zip(("_PROBE", "_WINDOW", "_MAX_WINDOW"), request.param):
        monkeypatch.setattr(big5, name, value)
    return request.param


def test_lacking_run_every_pair(sizes):
    """Each pair of bytes 0x80 and above, twice then a valid pair, from 0 and from 1; each leading byte 0x80
    and above with each next byte among such pairs and ASCII (an ASCII byte that is a code: each lane's
    UTF-16 code units): the plain twin's, and the one of :func:`step` (*shortcut* false)."""
    for lead in HIGH:
        for trail in range(256):
            pair = bytes((lead, trail))
            cases = [(b"\x87\xa1" + pair * 3, 0), (b"\x87\xa1A" + pair + b"A" + pair + b"\xa3\xe1", 0),
                     (b"\x87\xa1\x1f" + pair + b"\x87\xa1" * 3 + pair, 0), (b"\xa3\xc0" + pair, 0)]
            if trail >= 0x80:
                cases += [(pair * 2 + b"\xa4\xa4", 0), (b"A" + pair * 3 + b"\x87", 1), (pair + b"A" + pair, 0)]
            for data, start in cases:
                expected = plain_lacking_run(data, start)
                assert big5.lacking_run(data, start) == expected, data
                assert big5.lacking_run(data, start, shortcut=False) == expected, data


# Tokens of every kind: a pair CPython lacks, ASCII (also a control byte that is a code), bytes alone (0x80,
# 0xFF), error pairs (two bytes, or a leading byte before ASCII it restores), valid pairs (0x88 0x62: two code
# points), the split token 0xA2 0x41, the pairs CPython decodes otherwise (tables/multi_byte_fixes.py), a lone
# leading byte.
_OTHERS = [b"\xa4\xa4", b"\xa4", b"\x87\xe0", b"\x87\x40", b"\x87", b"\x88b", b"\x80", b"\xff", b"A", b"AB", b"\xa3\xbf",
           b"\x00", b"\x1f", b"\x03", b"\x7f", b"\xa4A", b"\x81!", b"\xa2A", b"\xa1\xa2A", b"\xfe\xfe", b"\xc8\xa5",
           *(token for tokens in FIXES["Big5"][2].values() for token in tokens)]


def _pieces():
    lacking = sorted(_by_reference())
    return st.lists(st.sampled_from(lacking)
                    | st.tuples(st.sampled_from(lacking + [b"\x87\xa1\xff", b"\x87\xa1\x01", b"\x87\xa1A"]),
                                st.integers(1, 300)).map(lambda p: p[0] * p[1])
                    | st.sampled_from(_OTHERS), max_size=40)


@pytest.mark.slow  # 900 inputs against the reference
def test_lacking_run_equals_plain_twin(sizes):
    """Runs of such pairs among others (valid pairs, errors, ASCII, lone bytes), across windows' edges and at
    the end of the input: the plain twin's, and the one of :func:`step` (*shortcut* false)."""
    @settings(max_examples=300, deadline=None)
    @given(_pieces(), st.integers(0, 3))
    @example([b"\x87\xa1" * 200, b"\xa3\xe1"], 0)
    @example([b"\x87\xa1" * 64, b"\x87\x80"], 0)  # (0x87 0x80: the slot of 0x87 0xA1, the trail differs)
    @example([b"\x87\xa1" * 64, b"\x87\xa1\x87"], 0)  # (a lone last byte)
    @example([b"\x87\xa1" * 3, b"\xa3"], 0)  # (a lone last byte of a row at an offset)
    @example([b"\x87\xa1A" * 100, b"\x1f", b"\x87\xa1\x01" * 100], 0)  # (a code among ASCII: code units)
    @example([b"\x87\xa1\x87\xa1A", b"\x87\xa1" * 100, b"A\x87"], 0)  # (lanes, then a lone last byte)
    def run(pieces, start):
        data = b"".join(pieces)
        start = min(start, len(data))
        expected = plain_lacking_run(data, start)
        assert big5.lacking_run(data, start) == expected, data
        assert big5.lacking_run(data, start, shortcut=False) == expected, data

    run()


def _plain_decoder() -> FastDecoder:
    """The Big5 decoder with no *pair_run*: each pair CPython lacks in decode_run's C codec decodes is one
    call of pair_errors (the plain twin of the shipped decoder's)."""
    shipped = ENCODINGS["Big5"]._load()[0]
    return FastDecoder("Big5-plain-pair-run", "big5hkscs", big5.step, *FIXES["Big5"], bulk=shipped.bulk)


@pytest.mark.slow  # 600 inputs against the reference
@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16)], ids=["windows", "small-windows"])
def test_pair_run_in_decode_run_equals_plain_twin(windows, sizes, monkeypatch):
    """decode_run with pair_errors taking runs of such pairs among ASCII (*pair_run*) against the same with
    one pair_errors call a pair: the same text and end, the reference's; and the decoder with it against
    the decoder without it and the reference (issue 37: ``\x87\xa1\xff`` repeated, any mix)."""
    monkeypatch.setattr(multi_byte, "_WINDOW", windows[0])
    monkeypatch.setattr(multi_byte, "_MAX_WINDOW", windows[1])
    monkeypatch.setattr(multi_byte, "_MAX_ALONE", windows[1])
    shipped = ENCODINGS["Big5"]._load()[0]
    plain = _plain_decoder()
    runs, plain_runs = multi_byte.error_runs(big5.step, big5.lacking_run), multi_byte.error_runs(big5.step)
    merge = multi_byte.codec_merge(runs, "big5hkscs")

    @settings(max_examples=200, deadline=None)
    @given(_pieces(), st.integers(0, 2))
    @example([b"\x87\xa1\xff" * 300], 0)
    @example([b"\xff" * 70, b"\x87\xa1\x80" * 300, b"\x87\xa1\x87\xe0" * 50], 1)
    @example([b"\x87\xa1\x1f\xff" * 300], 0)
    def run(pieces, start):
        data = b"".join(pieces)
        start = min(start, len(data))
        for m in (None, merge):
            text, end = multi_byte.decode_run(runs, data, start, "big5hkscs", m, b"", shipped.split_firsts)
            assert (text, end) == multi_byte.decode_run(plain_runs, data, start, "big5hkscs", m, b"",
                                                        shipped.split_firsts), data
            assert shipped._fix(text, data[start:end]) == ref_decode("Big5", data[start:end]), data
        expected = ref_decode("Big5", data)
        assert ENCODINGS["Big5"].decode(data) == expected, data
        assert plain(data) == expected, data

    run()


_EVERY_PAIR = bytes(b for pair in sorted(big5._lacking().pairs) for b in pair)


@pytest.mark.parametrize("body", [b"\x87\xa1" * 40000, (b"\x87\xa1\xa3\xe1" * 30 + b"\xa4\xa4\xff") * 1000,
                                  b"<p>" + b"\x87\xa2\x87\xa1\xa3\xc0" * 20000 + b"\x87", _EVERY_PAIR * 100,
                                  b"\x87\xa1\xff" * 30000, b"\xff" * 300 + b"\x87\xa1\x80" * 30000,
                                  b"\x87\xa1A" * 30000, b"\x87\xa1\x87\xe0" * 30000, b"\x87\xa1\x1f\xff" * 30000,
                                  _EVERY_PAIR.replace(b"\x87", b"\xff\x87").replace(b"\xa3", b"A\xa3") * 50],
                         ids=["one-pair", "runs-among-others", "three-pairs", "every-pair", "among-0xff", "among-0x80",
                              "among-ascii", "among-error-pairs", "among-codes", "every-pair-among-others"])
def test_decoder_pages_of_lacking_pairs_equal_reference(body):
    """The decoder (its bulk taking the runs) gives the reference's text for pages of such pairs."""
    assert ENCODINGS["Big5"].decode(body) == ref_decode("Big5", body)


@pytest.mark.parametrize("body", [b"\x87\xa1\xff" * 30000, b"\xff" * 300 + b"\x87\xa1\x80" * 30000, b"\x87\xa1A" * 30000,
                                  b"\x87\xa1\x87\xe0" * 30000, b"\x87\xa1AB" * 30000, b"\x87\xa1\x1f\xff" * 30000],
                         ids=["among-0xff", "among-0x80", "among-ascii", "among-error-pairs", "among-two-ascii",
                              "among-codes"])
def test_pages_of_lacking_pairs_take_few_calls(body, monkeypatch):
    """Work bounded per byte (issue 37): on a page of such pairs between errors or ASCII, the error handlers
    (the decoder's, and pair_errors' in decode_run's C codec decodes) are called a few times a window, not
    once a pair, and the text is the reference's."""
    calls = []

    def counting(handler):
        def handle(exc):
            calls.append(exc.start)
            return handler(exc)
        return handle

    original = multi_byte.pair_errors

    def pair_errors(*args, **kwargs):  # (the handler error_runs registers, counted)
        name = original(*args, **kwargs)
        codecs.register_error(name, counting(codecs.lookup_error(name)))
        return name

    monkeypatch.setattr(multi_byte, "pair_errors", pair_errors)
    decoder = FastDecoder("Big5-counted", "big5hkscs", big5.step, *FIXES["Big5"], bulk=big5.lacking_run,
                          pair_run=big5.lacking_run)
    codecs.register_error(decoder.errors, counting(codecs.lookup_error(decoder.errors)))
    assert decoder(body) == ref_decode("Big5", body)
    assert 0 < len(calls) < 200, len(calls)


def test_pair_run_misses_back_off(monkeypatch):
    """pair_errors tries *pair_run* at a pair the C codec rejects; after a try that misses (no run, or a
    short one) it waits _SKIP such errors, twice as many after each miss in a row up to _SKIP << _MISSES,
    and _SKIP again after a hit. On random bytes under Big5 (a pair CPython lacks every ~80 bytes, no run
    of them: each try a miss) the tries grow as the log of those errors, not as their count (bounded work
    per byte, issue 37); a page of such pairs among ASCII after it is tried within the wait the misses
    set, then in runs again; the texts are the reference's."""
    calls, tries = [], []
    original = multi_byte.pair_errors

    def pair_errors(*args, **kwargs):  # (the handler error_runs registers, counted)
        name = original(*args, **kwargs)
        handler = codecs.lookup_error(name)
        codecs.register_error(name, lambda exc: calls.append(exc.start) or handler(exc))
        return name

    def lacking_run(data, i):
        tries.append(i)
        return big5.lacking_run(data, i)

    monkeypatch.setattr(multi_byte, "pair_errors", pair_errors)
    decoder = FastDecoder("Big5-back-off", "big5hkscs", big5.step, *FIXES["Big5"], bulk=big5.lacking_run,
                          pair_run=lacking_run)
    noise = bytes(random.Random(7).choices(range(0x80, 0x100), k=1 << 20))
    assert decoder(noise) == ref_decode("Big5", noise)
    wait = multi_byte._SKIP << multi_byte._MISSES
    # (a try every _SKIP errors would be len(calls) // _SKIP of them: 16 times as many)
    assert len(calls) > 4 * wait and len(tries) <= 5 + len(calls) // (16 * multi_byte._SKIP), (len(calls), len(tries))
    calls.clear()
    tries.clear()
    page = b"\x87\xa1\xff" * 30000
    assert decoder(page) == ref_decode("Big5", page)
    assert 0 < len(calls) < 200 + wait and tries, (len(calls), len(tries))
