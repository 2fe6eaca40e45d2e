"""The multi-byte decoders' fast path (CPython's C codec, its error handler's cache of the
standard's steps, the encoder tables built on demand) equals the spec-literal reference decoder
(tests/reference.py) where it matters: error-dense input (a page in the wrong encoding), every
leading byte with every next byte after a warm cache, and tables loaded lazily.
"""
from __future__ import annotations

import codecs
import functools
import itertools
import json
import pathlib
import random
import re
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from quick_sample import quick_sample
from reference import ref_decode, ref_encode

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding import euc_jp, iso_2022_jp, multi_byte

# The Python decoders' own paths (the compiled decoders would bypass them: tests/conftest.py).
pytestmark = pytest.mark.usefixtures("python_decoders")

CORPUS = pathlib.Path(__file__).parents[1] / "data" / "corpus"
CJK = ["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR", "ISO-2022-JP"]
# Bytes after a two-byte window that change what a step reads: none, C0, a four-byte second,
# ASCII, DEL, the high half's edges.
AFTER = [b"", b"\x00", b"\x30", b"\x39", b"\x40", b"\x7f", b"\x80", b"\xa1", b"\xfe", b"\xff"]


def _pages(encoding: str) -> list[bytes]:
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    return [(CORPUS / e["path"]).read_bytes() for e in manifest if e["encoding"] == encoding]


@pytest.mark.parametrize("source", quick_sample(["windows-1251", "windows-1252", "EUC-KR", "Shift_JIS"], {"windows-1252"}))
@pytest.mark.parametrize("name", quick_sample(CJK, {"Shift_JIS"}))
def test_mislabeled_pages_equal_reference(source, name):
    """Real pages decoded with a wrong CJK encoding: an error every few bytes, each resolved by
    the error handler (and its cache); the text equals the reference decoder's."""
    pages = _pages(source)
    assert pages
    for data in pages[:6]:
        assert ENCODINGS[name].decode(data) == ref_decode(name, data)


@pytest.mark.slow  # every two-byte sequence of five encodings
@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"])
def test_every_two_bytes_then_every_continuation(name):
    """Every leading byte 0x80–0xFF, every next byte, then each of AFTER: the same two bytes
    followed by different bytes in one input, so a cached step is reused where a longer token
    (EUC-JP 0x8F, gb18030 four bytes) or the end of the input decides differently."""
    decode = ENCODINGS[name].decode
    for lead in range(0x80, 0x100):
        for after in AFTER:
            data = b"".join(bytes((lead, second)) + after + b"\n" for second in range(256))
            assert decode(data) == ref_decode(name, data), (hex(lead), after)
            tail = bytes((lead,)) + after  # the window cut by the end of the input
            assert decode(tail) == ref_decode(name, tail)


def test_decoding_builds_no_encoder_table():
    """Encoding Standard §4.1: decoding needs only the index; the encoder's table of code point →
    bytes is built on the first encode (a fresh interpreter, so nothing is loaded before)."""
    script = """
import sys
from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding import indexes
for name in ("Big5", "EUC-JP", "Shift_JIS", "gb18030", "GBK", "EUC-KR", "ISO-2022-JP"):
    ENCODINGS[name].decode(b"\\x1b$B0!\\x1b(B\\xa4\\xa4\\x8f\\xa2\\xb7\\x81\\x30\\x81\\x30")
assert indexes.pointers.cache_info().currsize == 0, indexes.pointers.cache_info()
assert ENCODINGS["Big5"].encode("\\u4e00") == b"\\xa4@"
assert indexes.pointers.cache_info().currsize == 1
"""
    subprocess.run([sys.executable, "-c", script], check=True)


# Pieces that meet the fast path's branches: split tokens (Big5 A2 41/42, EUC-JP 8F A2 B7) at and
# off token boundaries, fixed tokens' leading bytes, gb18030 four-byte seconds, sync bytes.
PIECES = [b"\xa2A", b"\xa2B", b"\x8f\xa2\xb7", b"\xa1", b"\xa2", b"\xa4", b"\x8f", b"\x81", b"\xfe",
          b"\xff", b"\x80", b"A", b"B", b"E", b"\xc2", b"0", b"9", b"\n", b" ", b"<", b"\xa1\xfe"]


@pytest.mark.slow  # 400 inputs, five decoders each against the reference
@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(PIECES) | st.binary(max_size=3), max_size=24))
def test_fast_path_equals_reference(pieces):
    """The C codec with the fixes, the split-token search and the cached error handler equals
    the reference decoder on inputs built to meet each of its branches."""
    data = b"".join(pieces)
    for name in ("Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"):
        assert ENCODINGS[name].decode(data) == ref_decode(name, data), (name, data)


# ISO-2022-JP pieces: the four escapes the fast path accepts, others, a lone ESC, jis0208 bytes,
# C0 controls (CPython passes them through in a jis0208 run), space, DEL, SO, SI, high bytes.
ISO_2022_JP_PIECES = [b"\x1b(B", b"\x1b(J", b"\x1b$@", b"\x1b$B", b"\x1b(I", b"\x1b$A", b"\x1b",
                      b"0!", b"$\"", b"!", b"~", b"\n", b"\t", b"\x00", b" ", b"\x7f", b"\x0e",
                      b"\x0f", b"\x80", b"\xa1", b"(", b"$", b"B"]
# What CPython's iso2022_jp_ext decodes otherwise than the standard, searched from each ESC (the fast
# path's earlier check): a jis0208 run with a byte outside 0x21-0x7E, a katakana run with one outside
# 0x21-0x5F, an escape other than the five, two escapes in a row; SO and SI anywhere.
_DIFFERENT = re.compile(rb"\x1b(?:\$[@B](?=([\x21-\x7e]*))\1[^\x1b\x21-\x7e]"
                        rb"|\(I(?=([\x21-\x5f]*))\2[^\x1b\x21-\x5f]|(?!\(B|\(J|\(I|\$@|\$B)|..\x1b)", re.DOTALL)


@pytest.mark.slow  # 1,500 inputs against the reference
@settings(max_examples=1500, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(ISO_2022_JP_PIECES) | st.binary(max_size=2), max_size=16))
@example([b"\x1b$B", b"0!", b"\x1b(B", b"\x1b(B", b"a"])  # two escapes in a row after a run
@example([b"\x1b$B", b"0!", b"\x1b(B", b"a", b"\x1b$B", b"0!", b"\n", b"\x1b(B"])  # C0 in a run
@example([b"a", b"\x1b$B", b"\x1b(B"])  # an empty jis0208 run
@example([b"\x1b(I", b"!", b"\x1b(B", b"\x00", b"<", b"\x1b(I", b"_"])  # katakana runs (0x21, 0x5F), ending in one
@example([b"\x1b(I", b"!", b"~", b"\x1b(B"])  # a katakana run with a byte past 0x5F
def test_iso_2022_jp_fast_path_check(pieces):
    """The whole-document match that lets CPython's iso2022_jp_ext decode accepts exactly the inputs
    without any token CPython decodes otherwise, and the decoder equals the reference."""
    data = b"".join(pieces)
    different = b"\x0e" in data or b"\x0f" in data or _DIFFERENT.search(data) is not None
    assert iso_2022_jp._simple(data) is not different, data
    expected = ref_decode("ISO-2022-JP", data)
    assert ENCODINGS["ISO-2022-JP"].decode(data) == expected, data  # few escapes: the exact decoder
    few = iso_2022_jp.FEW_ESCAPES
    try:
        iso_2022_jp.FEW_ESCAPES = -1  # the fast path wherever the match lets it
        assert iso_2022_jp.decode(data) == expected, data
    finally:
        iso_2022_jp.FEW_ESCAPES = few


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(ISO_2022_JP_PIECES + [b"\x81", b"\x1b$B<", b"\x1b(", b"\x1b$", b"\x1b\x1b$B"])
                | st.binary(max_size=2), max_size=24))
@example([b"\x1b$B", b"\x1b(B", b"a"])  # two escapes in a row
@example([b"\x1b(B", b"a", b"\x1b$B"])  # an escape at the start (no error), the last run empty
@example([b"\x1b$@", b"\x1b$B", b"0!", b"\x1b", b"\x1b(I1\x80"])  # ESC $ @, a lone ESC, a high byte
@example([b"\x1b$B", b"0!\x1b(", b"\x1b(B"])  # a lone ESC before an escape's ESC
def test_iso_2022_jp_few_escapes_equal_reference(pieces):
    """The decoder of a body of few ESC bytes, run by run from their offsets (decode_few), equals the
    reference and its plain twin (decode_exact); the offsets are every ESC's, up to the most asked."""
    data = b"".join(pieces)
    escapes = [at for at, byte in enumerate(data) if byte == 0x1B]
    assert iso_2022_jp._esc_offsets(data, len(escapes) + 1) == escapes
    assert iso_2022_jp._esc_offsets(data, 2) == escapes[:2]
    expected = ref_decode("ISO-2022-JP", data)
    assert iso_2022_jp.decode_few(data, escapes) == expected == iso_2022_jp.decode_exact(data), data


@pytest.mark.parametrize("count", [iso_2022_jp.FEW_ESCAPES - 1, iso_2022_jp.FEW_ESCAPES, iso_2022_jp.FEW_ESCAPES + 1])
@pytest.mark.parametrize("unit", [b"\x1b$B0!<", b"\x1b(B<", b"\x1b$B", b"\x1b<"])
def test_iso_2022_jp_few_escapes_bound(unit, count):
    """Bodies of FEW_ESCAPES ESC bytes and one more or less on either side of the bound (run by
    run, or CPython's codec then the exact decoder) equal the reference."""
    data = b"<" + unit * count + b"\x1b(B<"[:3 if count % 2 else 0] + b"\xa4"
    assert ENCODINGS["ISO-2022-JP"].decode(data) == ref_decode("ISO-2022-JP", data), data


# --- runs of errors decoded in bulk by the error handler (multi_byte.error_runs) ------------------

#: Bodies a hostile page repeats (issue 37): leading bytes each followed by a byte they restore, bytes
#: that are alone, leading bytes with a trail they consume as an error; and some the bulk path
#: leaves to the standard's step (a trail that is itself a leading byte, a null pointer's row, four
#: bytes of gb18030, EUC-JP 0x8F): each repeated, equal to the reference decoder.
HOSTILE_UNITS = [b"\x81<", b"\xff", b"\x80", b"\x81\xff", b"\x8e\x80", b"\x81\x81", b"\x85@", b"\x81\x30\x81\x30",
                 b"\x81\x30A", b"\x8f\xa1A", b"\xa1 ", b"\xfe\n", b"\x81<\xff", b"\xa0", b"\xfd\x80",
                 b"\x81\x81\x82\x83", b"\x81@\x81\x81", b"\xa1\x81", b"\x85\xa1", b"\xc9\xc9", b"\xa4\xa4\xff",
                 b"\x81\x81\x85@", b"\x85\x85\x85", b"\xa1\xa1\xff", b"\x87\xe0", b"\x8e\xe0"]


@pytest.mark.parametrize("unit", HOSTILE_UNITS, ids=[u.hex() for u in HOSTILE_UNITS])
@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"])
def test_error_run_bodies_equal_reference(name, unit):
    for data in (b"<meta charset=x>" + unit * 300, unit * 301, b"\xa4\xa4" + unit * 7 + b"\xa4"):
        assert ENCODINGS[name].decode(data) == ref_decode(name, data), (name, data[:40])


@pytest.mark.parametrize("name,unit", [("Shift_JIS", b"\x81<"), ("EUC-KR", b"\xff"), ("Big5", b"\xff"),
                                       ("EUC-JP", b"\xff"), ("gb18030", b"\xff"), ("Big5", b"\x81\x80"),
                                       ("Shift_JIS", b"\x81\xfd"), ("EUC-JP", b"\xa1\x80 "), ("Big5", b"\x81\x81"),
                                       ("Shift_JIS", b"\x85@"), ("Big5", b"\x81\x81\x82\x83"), ("Big5", b"\xa1\x81"),
                                       ("Shift_JIS", b"\x85\xa1"), ("EUC-KR", b"\xc9\xc9"), ("Big5", b"\x81@\x81\x81"),
                                       ("Big5", b"\x81\x81\xff"), ("EUC-JP", b"\xa9\xa9\xa9")])
def test_error_run_is_one_run(name, unit):
    """The bodies of issue 37 are one run each (decode_run finds no stop, across its windows' edges
    and whatever the parity of a stretch of leading bytes), decoded as the reference does."""
    runs = multi_byte.error_runs(ENCODINGS[name]._load()[0].step)
    for data in (unit * 1000, b"\x80" + unit * 1000):
        assert multi_byte.decode_run(runs, data, 0) == (ref_decode(name, data), len(data)), data[:8]


def _run_pieces(name):
    """Bytes that meet the bulk path's branches for *name*: every alone byte, leading bytes each with
    a byte every leading byte restores or consumes, ASCII, and a few valid pairs and stops."""
    runs = multi_byte.error_runs(ENCODINGS[name]._load()[0].step)
    alone = [bytes((b,)) for b in range(0x80, 0x100) if runs.table[b] != "\ufffd" or not runs.flags[b] & 2]  # (bit 1: live)
    leads = [bytes((b,)) for b in range(0x80, 0x100) if bytes((b,)) not in alone]
    return alone, leads


# Bytes after a pair that change what the reference reads: a space, the end, a byte 0x80 or above
# that ends a three-byte token, a four-byte gb18030 tail.
_AFTER_PAIR = [b" ", b"", b"\xff", b"\x810\x810"]


@pytest.mark.slow  # every leading byte with every next byte, four times, for each of five decoders
@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"])
def test_stop_pairs_and_planes_every_pair(name):
    """Every two bytes: a stop pair is exactly a leading byte and a next byte that the reference
    decodes otherwise than as an error (U+FFFD, the next byte restored if ASCII) before some of
    _AFTER_PAIR; the handler's stop pattern matches exactly those; and the planes call a pair of a
    live leading byte and a "maybe" byte an error exactly where it is no stop pair."""
    runs = multi_byte.error_runs(ENCODINGS[name]._load()[0].step)
    afters = [(after, ref_decode(name, after)) for after in _AFTER_PAIR]
    for lead in range(0x80, 0x100):
        for x in range(256):
            pair = bytes((lead, x))
            error = "\ufffd" + (chr(x) if x < 0x80 else "")
            decided = any(ref_decode(name, pair + after) != error + text for after, text in afters)
            assert (pair in runs.stop_pairs) is (decided and runs.flags[lead] & 1 == 1), pair
            assert (runs.stop.match(pair) is not None) is (pair in runs.stop_pairs), pair
            if runs.flags[lead] & 2 and runs.flags[x] & 4:  # (a live leading byte, a "maybe" byte)
                in_planes = any(lead_rows[lead] & trail_rows[x] for lead_rows, trail_rows in runs.planes)
                assert in_planes is (pair not in runs.stop_pairs), pair


@pytest.mark.slow  # 300 inputs for each of five decoders against the reference
@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"])
def test_error_runs_equal_reference(name):
    """Random mixes of alone bytes, leading bytes, restored and consumed trails, ASCII and valid
    text: whichever way the handler's run ends (a stop, the end, a leading byte at the end), the
    text equals the reference decoder's."""
    alone, leads = _run_pieces(name)
    valid = [ref_encode(name, c) for c in "日本語한국中文"
             if ref_decode(name, ref_encode(name, c)) == c]

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(alone) | st.sampled_from(leads) | st.sampled_from(valid)
                    | st.sampled_from([b"<", b"A", b"0", b"\n", b"\x7f", b"@", b"\xff", b"\x80"])
                    | st.binary(max_size=2), max_size=60))
    def run(pieces):
        data = b"".join(pieces)
        assert ENCODINGS[name].decode(data) == ref_decode(name, data), data

    run()


@pytest.mark.slow  # 800 inputs against the reference
@settings(max_examples=800, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(ISO_2022_JP_PIECES + [b"\x81", b"\x1b$B<", b"\x1b(I", b"\x1b(", b"\x1b$"])
                | st.binary(max_size=2), max_size=80))
@example([b"\x1b$B<"] * 40)  # many tiny jis0208 runs (issue 37)
@example([b"\x1b<"] * 40)  # many lone ESCs
@example([b"\x1b$B", b"0", b"\x1b", b"!", b"\x1b$B", b"\x1b$B", b"\x81", b"\x1b(I", b"\x81"])
def test_iso_2022_jp_runs_by_state_equal_reference(pieces):
    """The exact decoder decodes the runs of each state together (a lone ESC kept in its run, runs
    joined by 0x81): on inputs with many escapes, lone ESCs and 0x81 bytes, it equals the reference."""
    data = b"".join(pieces)
    assert iso_2022_jp.decode_exact(data) == ref_decode("ISO-2022-JP", data), data


@pytest.mark.parametrize("changes", [0, 2, 64])
def test_iso_2022_jp_segments_equal_reference_and_plain_twin(changes, monkeypatch):
    """The exact decoder segment by segment (each stretch of one state at once, up to FEW_CHANGES
    changes of state, then by splitting at every escape) equals the reference and its plain twin
    (segments=False) on bodies of many escapes of few states (issue 37: 64 KiB of "-->" ESC ( I)."""
    monkeypatch.setattr(iso_2022_jp, "FEW_CHANGES", changes)

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from([b"\x1b(I", b"\x1b(B", b"\x1b$B", b"\x1b$@", b"\x1b(J", b"-->", b"$\"", b"\x1b", b"<",
                                     b"\x81", b"\x82", b"\n", b"\xa1", b"\x0e"]), max_size=80))
    @example([b"-->\x1b(I"] * 40 + [b"<meta charset=\"shift_jis\">\x1b(B<meta charset=koi8-r>"])  # the hunted body
    @example([b"\x1b(I", b"\x1b(B", b"\x1b(I", b"\x1b(I", b"\x1b(B"])  # escapes in a row across the segments
    @example([b"<meta charset=\"iso-2022-jp\">\x1b(I\x1b$B<meta charset=\"iso-2022-jp\">\x1b(B"] * 30)  # hunted: past
    # FEW_CHANGES changes, none of the stretches found decoded (lanes), an escape right after one in each unit
    def run(pieces):
        data = b"".join(pieces)
        assert iso_2022_jp.decode_exact(data) == ref_decode("ISO-2022-JP", data) == iso_2022_jp.decode_exact(data, False)

    run()


@pytest.mark.parametrize("changes", [0, 64])
def test_iso_2022_jp_lanes_equal_reference_and_plain_twin(changes, monkeypatch):
    """Past FEW_CHANGES changes of state, every byte's state and a jis0208 run's pairs found in
    lanes (_lanes) equal the reference and the plain twin (segments=False): escapes in a row, lone
    and cut ESCs, Roman's two bytes, katakana's range and the bytes outside it, pairs (a null
    pointer's too), a leading byte alone before any other byte, an escape or the end."""
    monkeypatch.setattr(iso_2022_jp, "FEW_CHANGES", changes)

    @settings(max_examples=600, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from([b"\x1b(I", b"\x1b(B", b"\x1b(J", b"\x1b$B", b"\x1b$@", b"\x1b", b"\x1b(", b"\x1b$",
                                     b"\\", b"~", b"!", b"0", b")!", b"_", b"`", b"'", b"\x00", b"<", b"\x0e", b"\x0f",
                                     b"\x7f", b"\x80", b"\x84", b"\x87", b"\xa1", b"\xff", b"\n", b" "])
                    | st.binary(max_size=2), max_size=120))
    @example([b"\x1b(I'\x1b(B\x00<"] * 70)  # the hunted body (issue 37: a change of state every four bytes)
    @example([b"\x1b(I\x1b$B<meta charset=\"iso-2022-jp\">\x1b(B"] * 70)  # hunted: katakana runs with no byte
    @example([b"\x1b(I", b"\x1b(B", b"\x1b(J", b"\\~"] * 30 + [b"\x1b(I"])  # escapes in a row, one at the end
    @example([b"\x1b(J\\~\x1b\x1b(I!_`"] * 70 + [b"\x1b("])
    @example([b"\x1b$B<\x1b(B<"] * 70 + [b"\x1b$B0!0"])  # a leading byte alone before an escape and at the end
    @example([b"\x1b$B0\n0!0\x1b0!\x0e)!\x1b(I!\x1b$@"] * 40 + [b"0"])  # alone before other bytes, a lone ESC
    def run(pieces):
        data = b"".join(pieces)
        assert iso_2022_jp.decode_exact(data) == ref_decode("ISO-2022-JP", data) == iso_2022_jp.decode_exact(data, False)

    run()


ISO_2022_JP_BODIES = [b"\x1b$B<", b"\x1b$B\x1b$B", b"\x1b$@0!\x1b$B0", b"\x1b(B<", b"\x1b(I1\x1b(I", b"\x1b(J\\~",
                      b"\x1b$B<\x1b(B<", b"\x1b$B0!\x1b<\x1b(J\\", b"\x1b<", b"\x1b$B\x1b", b"\x1b(I\x81\x82\n"]


@pytest.mark.parametrize("unit", ISO_2022_JP_BODIES, ids=[u.hex() for u in ISO_2022_JP_BODIES])
def test_iso_2022_jp_one_state_and_runs_by_state(unit):
    """Bodies of one escape sequence repeated (one decode of the marked body, _one_state) and of
    several (runs of each state together), with lone ESCs and marks' bytes, equal the reference."""
    for data in (unit * 200, b"a\x1b" + unit * 3, unit * 3 + b"\x1b(B" + unit):
        assert iso_2022_jp.decode_exact(data) == ref_decode("ISO-2022-JP", data), data


def plain_run_end(runs, data):
    """decode_run's end, token by token (its plain twin): a leading byte starts a token and takes
    a next byte 0x80 or above; a leading byte and the next byte that are a stop pair (the two bytes
    that step decides otherwise than an error), or a last one where that is a stop (runs.end_stops),
    is the stop."""
    i, n = 0, len(data)
    while i < n:
        if not runs.flags[data[i]] & 1:  # (bit 0: a leading byte)
            i += 1
        elif i + 1 == n:
            return i if runs.end_stops else n
        elif data[i:i + 2] in runs.stop_pairs:
            return i
        else:
            i += 2 if data[i + 1] >= 0x80 else 1
    return n


@functools.cache
def _pairs_by_reference(name):
    """``(empty, filled)``: each leading byte that the reference decodes to a character with some next
    byte (a live one), with each next byte: the pairs it decodes as an error (U+FFFD, then the next
    byte if ASCII: an empty pointer of the index, Shift_JIS 0x82 0x40, Big5 0x87 0xE0) and those it
    decodes otherwise (a character, or reading on)."""
    empty, filled = [], []
    for lead in range(0x80, 0x100):
        pairs = [bytes((lead, x)) for x in range(256)]
        errors = [ref_decode(name, pair + b" ") == "\ufffd" + (chr(pair[1]) if pair[1] < 0x80 else "") + " "
                  for pair in pairs]
        if not all(errors):
            empty += [pair for pair, error in zip(pairs, errors) if error]
            filled += [pair for pair, error in zip(pairs, errors) if not error]
    return empty, filled


def _run_holds(runs, decoder, merge, name: str, data: bytes) -> None:
    """decode_run from 0 ends where its plain twin does with the reference decoder's text; with the
    C codec (and *merge*), at least as far, its text (fixed as the decoder fixes the C codec's) the
    reference's too."""
    end = plain_run_end(runs, data)
    text, end_plain = multi_byte.decode_run(runs, data, 0)
    assert (text, end_plain) == (ref_decode(name, data[:end]), end), data
    text, end_with_codec = multi_byte.decode_run(runs, data, 0, decoder.c_codec, merge)
    assert end_with_codec >= end, data
    assert decoder._fix(text, data[:end_with_codec]) == ref_decode(name, data[:end_with_codec]), data


def _soup(seed: int, low: int, size: int, pieces: list[bytes]) -> bytes:
    """*size* bytes from *low* to 0xFF drawn by ``random.Random(seed)``, then each of *pieces* put at
    a place it draws: a token boundary or not."""
    rng = random.Random(seed)
    data = bytearray(rng.choices(range(low, 0x100), k=size))
    for piece in pieces:
        where = rng.randrange(len(data) + 1)
        data[where:where] = piece
    return bytes(data)


def _with_windows(monkeypatch, name: str, windows: tuple[int, int]):
    """*name*'s decoder, its error runs and C-codec merge, with decode_run's windows set to
    *windows* (first, largest)."""
    monkeypatch.setattr(multi_byte, "_WINDOW", windows[0])
    monkeypatch.setattr(multi_byte, "_MAX_WINDOW", windows[1])
    monkeypatch.setattr(multi_byte, "_MAX_ALONE", windows[1])
    decoder = ENCODINGS[name]._load()[0]
    runs = multi_byte.error_runs(decoder.step)
    return decoder, runs, multi_byte.codec_merge(runs, decoder.c_codec)


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16)], ids=["windows", "small-windows"])
@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"])
def test_decode_run_equals_plain_twin(name, windows, monkeypatch):
    """decode_run (lanes of one integer, stretches of leading bytes paired by a carry, windows
    growing from 64 bytes) ends where its token-by-token twin does, and its text is the reference
    decoder's for those bytes: on stretches of leading bytes of both parities, live and dead, with
    restored and consumed trails, valid pairs (stops) and alone bytes, across window edges (also
    with windows of 2 to 16 bytes: many edges, the largest reached) and at the end of the input."""
    decoder, runs, codec_merge = _with_windows(monkeypatch, name, windows)
    alone, leads = _run_pieces(name)
    valid = [ref_encode(name, c) for c in "日本語한국中文" if ref_decode(name, ref_encode(name, c)) == c]
    empty, filled = _pairs_by_reference(name)

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(alone + leads + valid + [b"<", b"A", b"@", b"0", b"\xff", b"\xa1", b"\x88b", b"\x88\xa3"])
                    | st.lists(st.sampled_from(leads), min_size=1, max_size=9).map(b"".join)
                    # empty pointers under live leading bytes, alone or repeated (issue 37), among filled ones
                    | st.sampled_from(empty or [b"\xff"]) | st.sampled_from(filled or [b"\xff"])
                    | st.tuples(st.sampled_from(empty or [b"\xff"]), st.integers(1, 40)).map(lambda p: p[0] * p[1]),
                    max_size=300))
    @example([b"\x81"] * 130 + [b"<"])  # a stretch of 130 leading bytes across the first window's edge
    @example([b"\x85@"] * 40 + [b"\x85"])
    @example([b"\xa4\xa4\xff"] * 40 + [b"\xa4"])  # valid pairs among errors (with the C codec: one run)
    @example([b"\xff\x88\xa3"] * 3)  # Big5 0x88 0xA3: two code points (no place for one mark)
    @example([b"\x82@"] * 40 + [b"\x82"])  # Shift_JIS: an empty pointer under 0x82, ASCII restored
    @example([b"\x87\xe0"] * 40 + [b"\xa4\xa4", b"\x87\xe0"] * 10)  # Big5: an empty pointer, 0xE0 consumed
    @example([b"\xff", b"\xa4\xa4", b"\x87\xa1", b"\xff"])  # Big5 0x87 0xA1: a pair the C codec rejects
    @example([multi_byte._PLACEHOLDERS, b"\xff", b"\xa4\xa4", b"\xff"])  # no byte left for U+FFFD: "replace" mode
    def run(pieces):
        data = b"".join(pieces)
        text, end = multi_byte.decode_run(runs, data, 0)
        assert end == plain_run_end(runs, data), data
        assert text == ref_decode(name, data[:end]), data
        # With the C codec, valid pairs are in the run too: it goes at least as far, and its text
        # (fixed as the decoder fixes the C codec's) is the reference decoder's; the whole run in
        # one decode by the C codec where codec_merge finds a byte for U+FFFD (not gb18030's GBK).
        for merge in {None, codec_merge}:  # marks, or one decode
            text, end_with_codec = multi_byte.decode_run(runs, data, 0, decoder.c_codec, merge)
            assert end_with_codec >= end, data
            assert decoder._fix(text, data[:end_with_codec]) == ref_decode(name, data[:end_with_codec]), data

    run()


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16)], ids=["windows", "small-windows"])
@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "EUC-KR"])  # (not Shift_JIS: see multi_byte._kept)
def test_pairs_and_alone_equals_plain_twin(name, windows, monkeypatch):
    """decode_run's shortcut for a window of pairs the C codec decodes and alone bytes only
    (_pairs_and_alone: one translate, one decode, no lane arithmetic) gives the reference decoder's
    text and its twin's end, on inputs where it fires (valid pairs, ASCII, alone bytes 0x80 and
    above, the C codec's errors such as Big5 0xFF) and where it must not (a lone leading byte, a pair
    that is an error or that the C codec rejects, a pair cut by the window's edge or the end of the
    input, every placeholder byte in the window); it fires on some of them. So does the window after
    it, tried as the C codec's alone (_codec_window, given the decoder's split tokens' first bytes:
    the inputs hold split tokens too)."""
    decoder, runs, merge = _with_windows(monkeypatch, name, windows)
    assert merge is not None
    alone, _ = _run_pieces(name)
    valid = [ref_encode(name, c) for c in "日本語한국中文字ｱ" if ref_decode(name, ref_encode(name, c)) == c]
    empty, filled = _pairs_by_reference(name)
    fired, tried = [], []
    shortcut, codec_window = multi_byte._pairs_and_alone, multi_byte._codec_window

    def spy(*args):
        text = shortcut(*args)
        fired.append(text is not None)
        return text

    def spy_window(*args):
        text = codec_window(*args)
        tried.append(text is not None)
        return text

    monkeypatch.setattr(multi_byte, "_pairs_and_alone", spy)
    monkeypatch.setattr(multi_byte, "_codec_window", spy_window)

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(valid) | st.sampled_from(alone) | st.sampled_from([b"<", b"A", b"\x80", b"\xff", b"\xa0"]),
                    min_size=1, max_size=200),
           st.lists(st.sampled_from(valid[:1] + [b"\xa4", b"\x81", b"\x82@", b"\x87\xe0", b"\x87\xa1", b"\xa4\xff",
                                                 multi_byte._PLACEHOLDERS] + empty[:3] + filled[:3] + list(decoder.splits)),
                    max_size=2),
           st.integers(0, 400))
    @example([b"\xa4\xa4\xff"] * 40, [], 0)  # issue 37: valid Big5 pairs among 0xFF
    @example([b"\xa4\xa4\xff"] * 40, [b"\xa4"], 400)  # ... a lone leading byte at the end
    @example([b"\xa4\xa4", b"\xff"] * 31 + [b"\xa4"], [b"\xa4"], 400)  # a pair across the first window's edge
    @example([b"\xff\xa4\xa4"] * 100, [], 0)  # an error first, as where the C codec stops
    @example([b"\xa4\xa4\xff"] * 200, [b"\xa2A"], 399)  # a split token after windows of the C codec's alone
    @example([b"\xa4\xa4\xff"] * 200, [b"\x8f\xa2\xb7", b"\xa4"], 501)
    def run(pieces, others, where):
        data = b"".join(pieces)
        where = min(where, len(data))
        data = data[:where] + b"".join(others) + data[where:]
        end = plain_run_end(runs, data)
        for split_firsts in (None, decoder.split_firsts):
            text, end_with_codec = multi_byte.decode_run(runs, data, 0, decoder.c_codec, merge, b"", split_firsts)
            assert end_with_codec >= end, data
            assert decoder._fix(text, data[:end_with_codec]) == ref_decode(name, data[:end_with_codec]), data

    run()
    assert any(fired) and not all(fired)
    assert any(tried) and not all(tried)


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16)], ids=["windows", "small-windows"])
@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"])
def test_errors_only_equals_plain_twin(name, windows, monkeypatch):
    """decode_run's shortcut for a window of bytes 0x80 and above only whose every token is an error
    (_errors_only: one U+FFFD per token, counted from the trails) gives the reference decoder's text
    and its twin's end, where it fires (leading bytes whose pairs are errors, live and dead, alone
    error bytes, a pair across a window's edge, a lone leading byte at the end) and where it must not
    (a valid pair, a stop, an ASCII byte; Shift_JIS and gb18030, whose bytes 0x80 and above include
    characters alone); it fires on some of them."""
    decoder, runs, merge = _with_windows(monkeypatch, name, windows)
    alone, leads = _run_pieces(name)
    empty, filled = _pairs_by_reference(name)
    high_empty = [pair for pair in empty if pair[1] >= 0x80]
    fired = []
    errors_only = multi_byte._errors_only

    def spy(*args):
        counted = errors_only(*args)
        fired.append(counted is not None)
        return counted

    monkeypatch.setattr(multi_byte, "_errors_only", spy)

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(alone + leads + high_empty), min_size=1, max_size=150),
           st.lists(st.sampled_from(filled[:4] + [b"<", b"A", b"\xa4\xa4"]), max_size=2), st.integers(0, 300))
    @example([b"\x87\xe0"] * 100, [], 0)  # issue 37: a pair the index leaves empty, repeated
    @example([b"\x81\x81\x82\x83"] * 60 + [b"\x81"], [], 0)  # dead leading bytes, a lone one last
    @example([b"\xff", b"\x87\xe0"] * 40, [b"<"], 201)  # an ASCII byte: not in that window
    def run(pieces, others, where):
        data = b"".join(pieces)
        where = min(where, len(data))
        data = data[:where] + b"".join(others) + data[where:]
        _run_holds(runs, decoder, merge, name, data)

    run()
    if runs.table[0x80:] == multi_byte._ERRORS:
        assert any(fired) and not all(fired)
    else:
        assert not fired


@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"])
def test_decode_run_drop_equals_removing_after(name, monkeypatch):
    """decode_run's *drop* (ISO-2022-JP's marks, SI, deleted from the bytes once the tokens are known)
    gives its text without those characters and the same end: with and without the C codec and its
    one decode, where SI follows a lone leading byte, a pair, an alone byte, and where the window
    lacks SI (the placeholder for U+FFFD is never SI) or lacks every placeholder but SI."""
    decoder, runs, codec_merge = _with_windows(monkeypatch, name, (8, 64))
    alone, leads = _run_pieces(name)
    valid = [ref_encode(name, c) for c in "日本語한국中文" if ref_decode(name, ref_encode(name, c)) == c]
    others = bytes(b for b in multi_byte._PLACEHOLDERS if b != 0x0F)

    @settings(max_examples=200, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(alone + leads + valid + [b"\x0f", b"\x0f", b"<", b"\xff", b"\xa4\xa4", others]),
                    max_size=120))
    @example([b"\xbc\x0f"] * 40)  # ISO-2022-JP's ESC $ B < repeated, as EUC-JP runs
    @example([b"\xa4\xa4\xff"] * 30)  # no SI: the placeholder is another byte
    @example([others, b"\xa4\xa4\xff", b"\x0f"])  # every placeholder but SI in the window
    @example([others, b"\xf9\xa1"])  # and a pair the C codec rejects (EUC-JP: IBM's row 89)
    @example([b"A" * 8, others, b"\xa4<\x82<"])  # a window of tokens alone with every placeholder but SI
    @example([b"A" * 8, others, b"\xfe\xff\xa1\x80"])  # and of error pairs
    def run(pieces):
        data = b"".join(pieces)
        for c_codec, merge in {(None, None), (decoder.c_codec, None), (decoder.c_codec, codec_merge)}:
            text, end = multi_byte.decode_run(runs, data, 0, c_codec, merge)
            dropped = multi_byte.decode_run(runs, data, 0, c_codec, merge, b"\x0f")
            if merge is not None and dropped[1] < end and set(others) <= set(data):
                # SI the only byte left for U+FFFD but drop keeps it: "replace" mode, where a pair the
                # C codec rejects (EUC-JP 0xF9 0xA1: IBM's row 89) is a stop; the same up to it
                text, end = multi_byte.decode_run(runs, data[:dropped[1]], 0, c_codec, merge)
            assert dropped == (text.replace("\x0f", ""), end), data

    run()


def plain_error_pairs(runs, data):
    """_error_pairs' count, pair by pair (its plain twin): from the start, two leading bytes that are
    no stop pair, as long as there are."""
    count = 0
    while 2 * count + 1 < len(data) and all(runs.flags[b] & 1 for b in data[2 * count:2 * count + 2]) \
            and data[2 * count:2 * count + 2] not in runs.stop_pairs:
        count += 1
    return count


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16)], ids=["windows", "small-windows"])
@pytest.mark.parametrize("name", quick_sample(["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"], {"EUC-JP"}))
def test_error_pairs_equals_plain_twin(name, windows, monkeypatch):
    """decode_run's shortcut for pairs of two leading bytes that are errors, after a window of errors
    only (_error_pairs: the bytes as UTF-16-BE code units, one regular expression search) counts the
    pairs its plain twin does, and decode_run's text and end are the reference decoder's and its
    twin's, where it fires (issue 37's Big5 0x87 0xE0, dead leading bytes, across windows' edges, a
    lone leading byte last) and where it stops (a stop pair, a byte that is no leading byte, at once or
    past its first _WINDOW bytes); it fires on some of them (Big5, EUC-JP, EUC-KR: not Shift_JIS and
    gb18030, whose bytes 0x80 and above include characters alone, so no window is errors only)."""
    decoder, runs, merge = _with_windows(monkeypatch, name, windows)
    alone, leads = _run_pieces(name)
    empty, filled = _pairs_by_reference(name)
    lead_bytes = {b for b in range(256) if runs.flags[b] & 1}
    lead_empty = [pair for pair in empty if pair[1] in lead_bytes]  # (two leading bytes: an error)
    lead_filled = [pair for pair in filled if pair[1] in lead_bytes]
    counts = []
    error_pairs = multi_byte._error_pairs

    def spy(runs_, window):
        count = error_pairs(runs_, window)
        assert count == plain_error_pairs(runs_, window), window
        counts.append(count)
        return count

    monkeypatch.setattr(multi_byte, "_error_pairs", spy)

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(lead_empty or [b"\xff"]) | st.sampled_from(leads)
                    | st.tuples(st.sampled_from(lead_empty or [b"\xff"]), st.integers(1, 80)).map(lambda p: p[0] * p[1]),
                    min_size=1, max_size=100),
           st.lists(st.sampled_from(alone + lead_filled[:6] + [b"<", b"\x80", b"\xff", b"\xa4\xa4"]), max_size=3),
           st.integers(0, 900), st.booleans())
    @example([b"\x87\xe0"] * 500, [], 0, False)  # issue 37: Big5's empty pointer, repeated
    @example([b"\x87\xe0"] * 500, [b"\x87"], 1000, False)  # ... a lone leading byte last
    @example([b"\x87\xe0"] * 500, [b"\xa4\xa4"], 301, False)  # ... a valid pair past the probe
    @example([b"\x87\xe0"] * 500, [b"\xff"], 101, True)  # ... an alone byte: the pairs after it shift
    @example([b"\x81\x81\xff"] * 300, [], 0, False)  # the shortcut stops at the first alone byte each time
    def run(pieces, others, where, shift):
        data = (b"\xff" if shift else b"") + b"".join(pieces)
        where = min(where, len(data))
        data = data[:where] + b"".join(others) + data[where:]
        assert plain_error_pairs(runs, data) == error_pairs(runs, data), data
        _run_holds(runs, decoder, merge, name, data)

    run()
    if runs.table[0x80:] == multi_byte._ERRORS:
        assert any(counts)  # it fires; and it stops at once where no error pair begins the window
        # (asked directly: which of the calls above count none depends on the windows' history)
        assert error_pairs(runs, b"<" + (lead_empty or [b"\x81\x81"])[0] * 40) == 0
    else:
        assert not counts


# --- runs of tokens the C codec rejects one by one, decoded in bulk (FastDecoder's *bulk*) ----------


def _bulk_twins(name, monkeypatch, windows):
    """*name*'s decoder rebuilt three ways: with its *bulk* counted, without it (the plain twin: the
    cached step at each such token), and the count; the bulk path's windows set to *windows*
    (gb18030's chunks of null pointers four times the first)."""
    from scrapy_whatwg_encoding.encoding import gb18030
    from scrapy_whatwg_encoding.encoding.tables.multi_byte_fixes import FIXES

    module, c_codec, reach, bulk = {
        "gb18030": (gb18030, "gbk", lambda lead: 4, gb18030.four_byte_run),
        "EUC-JP": (euc_jp, "euc_jp", lambda lead: 3 if lead == 0x8F else 2, euc_jp.pairs_run)}[name]
    monkeypatch.setattr(module, "_WINDOW", windows[0])
    monkeypatch.setattr(module, "_MAX_WINDOW", windows[1])
    if module is gb18030:  # (a run with null pointers, that many bytes at a time: four-byte tokens)
        monkeypatch.setattr(module, "_CHUNK", 4 * windows[0])
    runs = []

    def counted(data, i):
        got = bulk(data, i)
        runs.append(got is not None)
        return got

    def build(tag, with_bulk):
        return multi_byte.FastDecoder(f"{name}-{tag}-{windows[0]}", c_codec, module.step, *FIXES[name],
                                      reach=reach, bulk=with_bulk)

    return build("bulk", counted), build("plain", None), runs


def _bulk_holds(fast, plain, runs, name, tokens, others, examples, flood):
    """The decoder with its *bulk* (*fast*) and without (*plain*) equal the reference decoder of
    *name* on lists of *tokens* (alone or repeated) and *others* (hypothesis, and each of *examples*);
    the bulk path fires (*runs*: its calls, whether each took a run) and *flood* is one bulk run."""
    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(tokens) | st.sampled_from(others)
                    | st.tuples(st.sampled_from(tokens), st.integers(1, 30)).map(lambda p: p[0] * p[1]),
                    max_size=40))
    def run(pieces):
        data = b"".join(pieces)
        expected = ref_decode(name, data)
        assert fast(data) == expected, data
        assert plain(data) == expected, data

    for pieces in examples:
        run = example(pieces)(run)
    run()
    assert any(runs), "the bulk path never fired"
    runs.clear()
    fast(flood)
    assert runs == [True]  # one bulk run for the whole body


# gb18030 four-byte tokens about each edge of the standard's pointer ranges (§10.2.1 step 5: null
# above 39419 and below 189000, and above 1237575; 7457 is U+E7C7) and about U+FFFF / U+10000.
_FOUR_BYTE_POINTERS = [0, 1, 7456, 7457, 7458, 39418, 39419, 39420, 39421, 188999, 189000, 189001,
                       1237574, 1237575, 1237576, 1237577, 1587599, 39390, 39394, 39395, 12599, 12600]


def _four_bytes(pointer):
    b1, rest = divmod(pointer, 12600)
    b2, rest = divmod(rest, 1260)
    b3, b4 = divmod(rest, 10)
    return bytes((b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30))


@pytest.mark.parametrize("windows", [(64, 1 << 18), (4, 16)], ids=["windows", "small-windows"])
def test_four_byte_runs_equal_reference_and_plain_twin(windows, monkeypatch):
    """Runs of gb18030 four-byte tokens (GBK, CPython's codec here, rejects each) decoded in bulk
    equal the reference decoder and the decoder without bulk runs: null pointers among valid ones,
    pointer 7457, runs cut by a byte of another kind in each of a token's places, at the end of
    the input, across the bulk windows' edges; and the bulk path fires."""
    fast, plain, runs = _bulk_twins("gb18030", monkeypatch, windows)
    four = [_four_bytes(p) for p in _FOUR_BYTE_POINTERS]
    _bulk_holds(fast, plain, runs, "gb18030", four, [b"\x81", b"0", b"\x81\x81", b"\xff", b"\x80", b"a", b"\xa1\xa1",
                                                     b"\x810", b"\x810\x81"],
                [[b"<plaintext>", b"\x810" * 300],  # issue 37
                 [b"<meta charset=", b"\x810" * 301, b"-->'"],
                 [_four_bytes(39420), _four_bytes(0)] * 50,  # null pointers among valid ones
                 [_four_bytes(7457)] * 3 + [b"\xa8\xbc"]],  # U+E7C7 (CPython's U+1E3F), then GBK's U+1E3F
                b"\x810" * 1000)
    runs.clear()
    fast((b"\x810" * 40 + b" ") * 3)
    assert runs == [True] * 3  # (a long run keeps the token's bulk)


@pytest.mark.slow  # every four-byte token (1.6 million) through the bulk path and the standard's step
def test_four_byte_run_every_token():
    """Every four-byte token, 12,600 per first byte in one run: the bulk run (CPython's gb18030 codec,
    U+1E3F for pointer 7457 corrected, null pointers as U+FFFD) equals the standard's step on each."""
    from scrapy_whatwg_encoding.encoding import gb18030

    for first in range(0x81, 0xFF):
        data = b"".join(bytes((first, b2, b3, b4)) for b2 in range(0x30, 0x3A) for b3 in range(0x81, 0xFF)
                        for b4 in range(0x30, 0x3A))
        expected = "".join(gb18030.step(data[k:k + 4], 0)[0] for k in range(0, len(data), 4))
        assert gb18030.four_byte_run(data, 0) == (expected, len(data)), hex(first)
        assert gb18030.four_byte_run(data, 0, fixed=False) == (expected.replace("\ue7c7", "\u1e3f"), len(data))
    sample = b"".join(_four_bytes(p) for p in range(0, 1587600, 997))
    assert ENCODINGS["gb18030"].decode(sample) == ref_decode("gb18030", sample)


def test_euc_jp_pairs_every_pair():
    """Every EUC-JP pair of bytes 0xA1–0xFE, twice in a row: the bulk run (the pair as the Shift_JIS
    bytes of its pointer, CPython's cp932) decodes it as the standard's step does where the pointer
    is not null, and ends before it where it is; the decoder equals the reference on all of them."""

    for lead in range(0xA1, 0xFF):
        pairs = [bytes((lead, x)) for x in range(0xA1, 0xFF)]
        for pair in pairs:
            text, _ = euc_jp.step(pair, 0)
            assert euc_jp.pairs_run(pair * 2, 0) == (None if text == "\ufffd" else (text * 2, 4)), pair
        data = b" ".join(pairs)
        assert ENCODINGS["EUC-JP"].decode(data) == ref_decode("EUC-JP", data), hex(lead)


@pytest.mark.parametrize("windows", [(64, 1 << 18), (4, 16)], ids=["windows", "small-windows"])
def test_euc_jp_pair_runs_equal_reference_and_plain_twin(windows, monkeypatch):
    """Runs of EUC-JP pairs whose rows CPython's euc_jp lacks (NEC's row 13, IBM's rows 89–92) among
    pairs it has, null pointers and other bytes, decoded in bulk, equal the reference decoder and the
    decoder without bulk runs (also as ISO-2022-JP's jis0208 runs); and the bulk path fires."""
    fast, plain, runs = _bulk_twins("EUC-JP", monkeypatch, windows)
    pairs = [b"\xad\xa1", b"\xad\xad", b"\xad\xbe", b"\xad\xfe", b"\xf9\xa1", b"\xfa\xa1", b"\xfb\xa1", b"\xfc\xa1",
             b"\xfc\xee", b"\xfc\xef", b"\xa4\xa2", b"\xbc\xa1", b"\xa1\xc1", b"\xa9\xa1", b"\xfe\xfe", b"\xa8\xc1"]

    _bulk_holds(fast, plain, runs, "EUC-JP", pairs, [b"\xa1", b"\x8e", b"\x8f", b"\xff", b" ", b"\x8f\xa2\xb7"],
                [[b"\xad\xad\xbc\xa1"] * 100,
                 [b"\xad\xa1\xa9\xa1"] * 100],  # a null pointer after each
                b"\xad\xad\xbc\xa1" * 1000)
    # A token whose bulk run is short takes the step after (no bulk read per token of a flood of
    # short runs), until the next input or 64 runs of errors on; the text stays the reference's.
    # Such pairs dense among ASCII bytes are one run, from the first (tokens of a hostile ISO-2022-JP
    # page's jis0208 runs, issue 37: each unit "<?>-->" held one); sparse ones, and those before a byte
    # of another kind, are not.
    for data, fired in [(b"\xad\xa1 " * 1000, [True]),
                        (b"\xad\xa1 \xa4\xa2\n\xfc\xee" * 300 + b"\xad\xa1\xa9\xa1 x" * 3, [True, False]),
                        ((b"\xad\xa1" + b" " * 40) * 10 + b"\xad\xa1\xa4\xa2" * 100, [False]),
                        (b"\xad\xa1\xa4\xa2" * 100, [True]),
                        ((b"\xad\xa1\xa4\xa2" * 20 + b"\xff") * 3, [True] * 3),  # (a long run keeps the token's bulk)
                        ((b"\xad\xa1\xa4\xa2" * 20 + b" ") * 3, [True]),
                        # (runs of errors each ended by a stop: 0x8F 0xA1 then an ASCII byte, restored; a pair the
                        # C codec rejects, 0xAD 0xA1, no longer ends one: decode_run's pair_errors decodes it)
                        (b"\xad\xa1 " + b"\xff\x8f\xa1A" * 62 + b"\xff" + b"\xad\xa1\xa4\xa2" * 100, [False]),
                        (b"\xad\xa1 " + b"\xff\x8f\xa1A" * 63 + b"\xff" + b"\xad\xa1\xa4\xa2" * 100, [False, True])]:
        runs.clear()
        assert fast(data) == ref_decode("EUC-JP", data), data[:20]
        assert runs == fired, data[:20]
    for body in (b"\x1b$B<" + b"/><!----><!---->" * 300 + b"<foreignObject>]]>",  # issue 37
                 b"0;" + b"\x1b$B<?>-->" * 300 + b"</title>\x1b(B<meta charset=koi8-r>",
                 # (hunted: markup in jis0208, the pairs CPython lacks among errors: decode_run's pair_run)
                 b"\xa1\x1b$B0" + b"".join(b"\x82<?>?>%d</--><meta http-equiv=content-type content='text/html; "
                                           b"charset=iso-2022-jp'>\r" % n for n in range(60))):
        assert ENCODINGS["ISO-2022-JP"].decode(body) == ref_decode("ISO-2022-JP", body)
    # Hunted: a row-13 pair ("-" then a byte) every 40-90 bytes of JIS text; a run from one costs about as much as
    # the handler's 15 calls, so a run of fewer than 128 bytes leaves the next _SKIP pairs to the handler.
    body = (b"&#99999999999;<meta http-equiv=content-type content='text/html; charset=iso-2022-jp'>\n\x1b$B$\"\xff\xd7"
            * 700 + b"\xe9")
    mixed = []
    real = euc_jp._mixed_run
    monkeypatch.setattr(euc_jp, "_mixed_run", lambda data, i: mixed.append(i) or real(data, i))
    assert ENCODINGS["ISO-2022-JP"].decode(body) == ref_decode("ISO-2022-JP", body)
    assert len(mixed) < 60, len(mixed)


@pytest.mark.parametrize("windows", [(64, 1 << 18), (4, 16), (1, 8)], ids=["windows", "small-windows", "tiny-windows"])
def test_euc_jp_pairs_among_ascii_equal_reference(windows, monkeypatch):
    """EUC-JP pairs among ASCII bytes (a run of pairs CPython's euc_jp lacks, dense, with ASCII between:
    one bulk run in lanes): each run pairs_run gives from a pair is the reference's text of its bytes and
    ends where the reference's tokens end, no later than the tokens it may take do (pairs that are no
    error, ASCII bytes); the decoders with and without bulk runs equal the reference."""

    fast, plain, _ = _bulk_twins("EUC-JP", monkeypatch, windows)
    pairs = [b"\xad\xa1", b"\xad\xbe", b"\xf9\xa1", b"\xfc\xee", b"\xfc\xef", b"\xa4\xa2", b"\xa9\xa1", b"\xfe\xfe"]
    others = [b" ", b"a", b"\n", b"\x0f", b"\x0e", b"\xa1", b"\x8e\xa1", b"\x8f\xa2\xb7", b"\xff", b"\x80"]

    @settings(max_examples=400, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(pairs) | st.sampled_from(pairs[:5]).map(lambda p: p + b" ")
                    | st.sampled_from(others), min_size=1, max_size=120), st.integers(0, 119))
    @example([b"\xad\xa1 "] * 40 + [b"\xad"], 0)
    @example([b"\xad\xa1", b"\n", b"\xf9\xa1", b" ", b"\xad\xa1", b" ", b"\xa9\xa1", b" "] * 5, 0)
    def check(pieces, at):
        data = b"".join(pieces)
        expected = ref_decode("EUC-JP", data)
        assert fast(data) == expected
        assert plain(data) == expected
        boundaries, k = set(), 0
        while k < len(data):  # (the standard's tokens, by its step)
            boundaries.add(k)
            k = euc_jp.step(data, k)[1]
        start = len(b"".join(pieces[:at]))
        if start in boundaries and data[start] >= 0x80:
            got = euc_jp.pairs_run(data, start)
            if got is not None:
                assert got[1] in boundaries | {len(data)}
                text, end = got
                assert text == ref_decode("EUC-JP", data[start:end])
                assert ref_decode("EUC-JP", data[:start]) + text + ref_decode("EUC-JP", data[end:]) == expected
                taken = start
                while taken < len(data) and (data[taken] < 0x80 or euc_jp.step(data, taken)[1] == taken + 2
                                             and euc_jp.step(data, taken)[0] != "\ufffd"):
                    taken = euc_jp.step(data, taken)[1]
                assert end <= taken

    check()
    assert fast(b"\xad\xa1 " * 300) == ref_decode("EUC-JP", b"\xad\xa1 " * 300)


def _codec_rejects(name, runs, c_codec):
    """The stop pairs of two bytes 0x80 and above that the C codec *c_codec* rejects (Big5 0x87 0xA1,
    EUC-JP 0xAD 0xA1: pointers CPython lacks)."""
    rejects = []
    for pair in sorted(runs.stop_pairs):
        try:
            pair.decode(c_codec)
        except UnicodeDecodeError:
            rejects.append(pair)
    return rejects


@pytest.mark.parametrize("name", quick_sample(["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"], {"EUC-JP"}))
def test_pair_errors_every_pair(name):
    """The C codec's error handler of error_runs (pair_errors) gives the reference decoder's text for
    every pair the C codec rejects that it holds, consumed whole, and raises at every other error."""
    decoder = ENCODINGS[name]._load()[0]
    runs = multi_byte.error_runs(decoder.step)
    held = 0
    rejects = _codec_rejects(name, runs, decoder.c_codec)
    for pair in rejects:
        try:
            text = (pair + b" ").decode(decoder.c_codec, runs.codec_errors)
        except UnicodeDecodeError:  # (a pair it does not hold: a three-byte token, gb18030's four)
            assert pair[1] < 0x80 or not runs.flags[pair[0]] & 0x10, pair
            continue
        held += 1
        assert text == ref_decode(name, pair + b" "), pair
    # (two bytes whatever follows, bit 4: not EUC-JP 0x8F's; none in Shift_JIS and EUC-KR, whose C codecs lack no pointer)
    assert held == sum(pair[1] >= 0x80 and runs.flags[pair[0]] & 0x10 != 0 for pair in rejects)
    assert (held > 0) is (name in ("Big5", "EUC-JP", "gb18030"))
    for error in (b"\x81\x00", b"\x81", b"\x81\x7f"):  # (errors in each C codec: no pair it holds)
        with pytest.raises(UnicodeDecodeError):
            (b"ab" + error).decode(decoder.c_codec)
        with pytest.raises(UnicodeDecodeError):
            (b"ab" + error).decode(decoder.c_codec, runs.codec_errors)


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16)], ids=["windows", "small-windows"])
@pytest.mark.parametrize("name", quick_sample(["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"], {"EUC-JP"}))
def test_pair_errors_on_byte_soup_equals_plain_twin(name, windows, monkeypatch):
    """decode_run with the C codec's error handler for the pairs it rejects (pair_errors: such a pair
    no longer ends the run at the window's first pair) against its plain twin (the same runs with the
    "strict" handler): on random bytes (seeded: over 0x80-0xFF, over 0x00-0xFF, with the rejected
    pairs mixed in) its text is the reference decoder's up to its end, it goes at least as far, and
    the whole decoder equals the reference; the handler fires on some inputs."""
    decoder, runs, merge = _with_windows(monkeypatch, name, windows)
    plain = runs._replace(codec_errors="strict")
    rejects = _codec_rejects(name, runs, decoder.c_codec) or [b"\xff"]
    handler = codecs.lookup_error(runs.codec_errors)
    fired = []

    def spy(exc):
        result = handler(exc)  # (raises where it does not hold the pair)
        fired.append(exc.object[exc.start:exc.start + 2])
        return result

    codecs.register_error("test-pair-errors-spy", spy)
    runs = runs._replace(codec_errors="test-pair-errors-spy")

    @settings(max_examples=150, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2 ** 32), st.sampled_from([0x80, 0x00, 0x40]), st.integers(1, 3000),
           st.lists(st.sampled_from(rejects), max_size=40))
    @example(7, 0x80, 3000, [])  # issue 37: random bytes 0x80-0xFF (random.Random(7))
    @example(7, 0x00, 3000, [])
    def run(seed, low, size, pairs):
        data = _soup(seed, low, size, pairs)
        for start in (0, 1):  # (decode_run reads a token from *start* as from the initial state)
            for m in {None, merge}:
                end_plain = multi_byte.decode_run(plain, data, start, decoder.c_codec, m, b"", decoder.split_firsts)[1]
                text, end = multi_byte.decode_run(runs, data, start, decoder.c_codec, m, b"", decoder.split_firsts)
                assert end >= end_plain, (data, start)
                assert decoder._fix(text, data[start:end]) == ref_decode(name, data[start:end]), (data, start)
        assert ENCODINGS[name].decode(data) == ref_decode(name, data), data

    run()
    assert (len(fired) > 0) is (name in ("Big5", "EUC-JP", "gb18030"))


@pytest.mark.parametrize("name", quick_sample(["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"], {"Big5"}))
def test_empties_every_pair(name):
    """runs.empties is exactly each pair of a live leading byte of two bytes and a "maybe" byte 0x80
    and above that the reference decodes as one U+FFFD for the two bytes (before every byte of
    _AFTER_PAIR); where codec_empties gives its error handler (Big5 and EUC-JP), the C codec rejects each
    and the handler gives the reference's text for each, consumed whole, and for each pair the C codec
    rejects that pair_errors holds, and raises at other errors; so also with every encoding let in."""
    decoder = ENCODINGS[name]._load()[0]
    runs = multi_byte.error_runs(decoder.step)
    expected = set()
    for lead in range(0x80, 0x100):
        if runs.flags[lead] & 0x12 != 0x12:  # (live, two bytes)
            continue
        for x in range(0x80, 0x100):
            pair = bytes((lead, x))
            if runs.flags[x] & 4 and all(ref_decode(name, pair + after) == "\ufffd" + ref_decode(name, after)
                                         for after in _AFTER_PAIR):
                expected.add(pair)
    assert runs.empties == expected
    handler = multi_byte.codec_empties(runs, decoder.c_codec)
    assert (handler is not None) is (name in ("Big5", "EUC-JP"))
    assert multi_byte.codec_empties(runs._replace(empties=frozenset()), decoder.c_codec) is None
    for pair in sorted(runs.empties):
        with pytest.raises(UnicodeDecodeError):
            pair.decode(decoder.c_codec)
        assert (pair + b" A").decode(decoder.c_codec, runs.empty_errors) == ref_decode(name, pair + b" A"), pair
    for pair in _codec_rejects(name, runs, decoder.c_codec):
        if pair[1] >= 0x80 and runs.flags[pair[0]] & 0x10:  # (held by pair_errors)
            assert (pair + b" ").decode(decoder.c_codec, runs.empty_errors) == ref_decode(name, pair + b" "), pair
    for error in (b"\x81\x00", b"\x81", b"\x81\x7f"):
        with pytest.raises(UnicodeDecodeError):
            (b"ab" + error).decode(decoder.c_codec, runs.empty_errors)


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16)], ids=["windows", "small-windows"])
@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "EUC-KR"])
def test_empties_equal_plain_twin(name, windows, monkeypatch):
    """decode_run giving the C codec the empty pairs of bytes 0x80 and above (*empties*: no planes for
    them; each one U+FFFD by the error handler) against its plain twin (the planes): on seeded random
    bytes (0x80-0xFF, 0x00-0xFF, 0x40-0xFF) with empty pairs, pairs the C codec rejects and every
    placeholder byte mixed in, at a token boundary and not, with a placeholder and with none ("replace"
    mode: no empties), the same text and end, the reference's text; the handler fires on empty pairs,
    and where they are dense, the planes again after a few (a bounded number of calls).
    Shift_JIS and EUC-KR, whose codec_empties is None (their share of empty pairs), are let in here."""
    decoder, runs, merge = _with_windows(monkeypatch, name, windows)
    monkeypatch.setattr(multi_byte, "_FEW_EMPTIES", 1.0)
    empties = multi_byte.codec_empties(runs, decoder.c_codec)
    assert empties is not None and merge is not None
    handler = codecs.lookup_error(empties)
    fired = []

    def spy(exc):
        result = handler(exc)
        fired.append(exc.object[exc.start:exc.start + 2] in runs.empties)
        return result

    codecs.register_error("test-empties-spy", spy)
    pieces = sorted(runs.empties)[::7] + _codec_rejects(name, runs, decoder.c_codec)[::5] + [multi_byte._PLACEHOLDERS]

    @settings(max_examples=80, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2 ** 32), st.sampled_from([0x80, 0x00, 0x40]), st.integers(1, 3000),
           st.lists(st.sampled_from(pieces), max_size=40))
    @example(7, 0x80, 3000, [])  # issue 37: random bytes 0x80-0xFF
    @example(7, 0x80, 300, [multi_byte._PLACEHOLDERS])  # no placeholder left: the planes
    def run(seed, low, size, mixed):
        data = _soup(seed, low, size, mixed)
        for start in (0, 1):
            plain = multi_byte.decode_run(runs, data, start, decoder.c_codec, merge, b"", decoder.split_firsts,
                                          decoder.split_re)
            text, end = multi_byte.decode_run(runs, data, start, decoder.c_codec, merge, b"", decoder.split_firsts,
                                              decoder.split_re, "test-empties-spy")
            assert (text, end) == plain, (data, start)
            assert decoder._fix(text, data[start:end]) == ref_decode(name, data[start:end]), (data, start)

    run()
    assert any(fired)
    # Dense empty pairs (Big5 0x87 0xE0, Shift_JIS 0x82 0xF9 ... repeated: issue 37): the planes again
    # after the first windows, whose calls stay under the slack's.
    dense = sorted(runs.empties)[len(runs.empties) // 2] * 20000
    fired.clear()
    args = (runs, dense, 0, decoder.c_codec, merge, b"", decoder.split_firsts, decoder.split_re)
    assert multi_byte.decode_run(*args, "test-empties-spy") == multi_byte.decode_run(*args)
    assert 0 < len(fired) <= multi_byte._EMPTY_SLACK // multi_byte._EMPTY_EVERY + 8 * windows[0], len(fired)


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16), (5, 40)], ids=["windows", "small-windows", "odd-windows"])
@pytest.mark.parametrize("name", ["Big5", "EUC-JP", "Shift_JIS", "EUC-KR"])
def test_kept_table_equals_plain_twin(name, windows, monkeypatch):
    """decode_run's window of pairs for the C codec from one translate that keeps the leading and
    "maybe" bytes (kept_table, the leading bytes that start other tokens then U+FFFD's byte) against
    its plain twin (the pairs' bytes kept lane by lane over merge's translate): on seeded random bytes
    (0x80-0xFF, 0x00-0xFF, 0x40-0xFF) with empty pairs, pairs the C codec rejects, EUC-JP triples and
    every placeholder byte ("replace" mode) mixed in, at a token boundary and not, with and without
    *empties*, the same text and end, the reference's text; the shortcut fires (not for Shift_JIS,
    whose 0xA0 leaves no such table: multi_byte._kept)."""
    decoder, runs, merge = _with_windows(monkeypatch, name, windows)
    monkeypatch.setattr(multi_byte, "_FEW_EMPTIES", 1.0)
    empties = multi_byte.codec_empties(runs, decoder.c_codec)
    filled = []
    real_filled = multi_byte._filled
    monkeypatch.setattr(multi_byte, "_filled", lambda lanes, byte: filled.append(byte) or real_filled(lanes, byte))
    pieces = sorted(runs.empties)[::11] + _codec_rejects(name, runs, decoder.c_codec)[::7]
    pieces += [multi_byte._PLACEHOLDERS, b"\x8f\xa1\xa1", b"\x8f\xb0\xff", b"\xa1\xa1", b"A", b"\x81"]

    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2 ** 32), st.sampled_from([0x80, 0x00, 0x40]), st.integers(1, 2000),
           st.lists(st.sampled_from(pieces), max_size=30))
    @example(7, 0x80, 2000, [])  # issue 37: random bytes 0x80-0xFF
    @example(7, 0x80, 300, [multi_byte._PLACEHOLDERS])  # "replace" mode
    def run(seed, low, size, mixed):
        data = _soup(seed, low, size, mixed)
        for start in (0, 1):
            for handler in {None, empties}:
                args = (runs, data, start, decoder.c_codec, merge, b"", decoder.split_firsts, decoder.split_re, handler)
                text, end = multi_byte.decode_run(*args)
                assert (text, end) == multi_byte.decode_run(*args, kept_table=False), (data, start, handler)
                assert decoder._fix(text, data[start:end]) == ref_decode(name, data[start:end]), (data, start)

    run()
    assert bool(filled) is (name != "Shift_JIS")


def _plain_boundary(step, data, i, position):
    """token_boundary's plain twin: *step* token by token from *i*."""
    while i < position:
        i = step(data, i)[1]
    return i == position


@pytest.mark.parametrize("name", quick_sample(["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"], {"EUC-JP"}))
def test_token_boundary_equals_plain_twin(name):
    """token_boundary (FastDecoder._at_boundary past _LONG_WALK bytes from a sync byte: stretches of
    leading bytes by their length, *step* only where a token's length is its to tell) says a token
    starts exactly where its token-by-token twin does, at every place of seeded random byte soups
    (0x80-0xFF: a binary file or a mislabelled page has no sync byte; 0x00-0xFF) with split tokens,
    EUC-JP 0x8F, gb18030 four-byte tokens and pairs with an ASCII trail mixed in; and the decoder of
    such a soup past _LONG_WALK bytes equals the reference. Both of its steps fire (a place that
    starts a token, one that is a trail)."""
    decoder = ENCODINGS[name]._load()[0]
    step = decoder.step
    irregular = multi_byte._walk_classes(step)[1]
    seen = set()

    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2 ** 32), st.sampled_from([0x80, 0x00, 0x60]), st.integers(0, 400),
           st.lists(st.sampled_from([*decoder.splits, b"\x8f\xa1\xa1", b"\x8f", b"\x81\x30\x81\x30", b"\xa4@",
                                     b"\xa4A", b"\x81\x7f"]), max_size=12))
    @example(7, 0x80, 400, [])
    def run(seed, low, size, pieces):
        rng = random.Random(seed)
        data = bytearray(rng.choices(range(low, 0x100), k=size))
        for piece in pieces:
            where = rng.randrange(len(data) + 1)
            data[where:where] = piece
        data = bytes(data)
        for start in (0, 1):
            for position in range(start, len(data) + 1):
                assert multi_byte.token_boundary(step, data, start, position) \
                    is _plain_boundary(step, data, start, position), (data, start, position)
        for found in irregular.finditer(data):
            seen.add(_plain_boundary(step, data, 0, found.start()))

    run()
    assert seen == {True, False}
    rng = random.Random(7)
    for split in decoder.splits:  # a split token far from any sync byte: the decoder takes token_boundary
        data = bytes(rng.choices(range(0x80, 0x100), k=3 * multi_byte._LONG_WALK)) + split + b"\xa1" * 3
        assert ENCODINGS[name].decode(data) == ref_decode(name, data)


def _plain_span(step, data, i, position):
    """token_span's plain twin: *step* token by token from *i*."""
    start = i
    while i < position:
        start, i = i, step(data, i)[1]
    return (position, position) if i == position else (start, i)


@pytest.mark.parametrize("name", quick_sample(["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"], {"EUC-JP"}))
def test_token_span_equals_plain_twin(name):
    """token_span (FastDecoder._token_span past _LONG_WALK bytes from a sync byte) gives the start
    and end of the token that holds each place, or that place where a token starts there, as its
    token-by-token twin does: at every place of seeded random byte soups with split tokens, EUC-JP
    0x8F, gb18030 four-byte tokens and pairs with an ASCII trail mixed in; each of its answers (a
    token there, a trail, an irregular token around it) occurs."""
    decoder = ENCODINGS[name]._load()[0]
    step = decoder.step
    seen = set()

    @settings(max_examples=40, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2 ** 32), st.sampled_from([0x80, 0x00, 0x60]), st.integers(0, 300),
           st.lists(st.sampled_from([*decoder.splits, b"\x8f\xa1\xa1", b"\x8f", b"\x81\x30\x81\x30", b"\xa4@",
                                     b"\x81\x7f"]), max_size=12))
    @example(7, 0x80, 300, [])
    def run(seed, low, size, pieces):
        data = _soup(seed, low, size, pieces)
        for start in (0, 1):
            for position in range(start, len(data) + 1):
                span = multi_byte.token_span(step, data, start, position)
                assert span == _plain_span(step, data, start, position), (data, start, position)
                seen.add((span[0] == position, span[1] - span[0]))

    run()
    assert (True, 0) in seen and (False, 2) in seen, seen


@pytest.mark.parametrize(("name", "unit"), [("EUC-JP", b"\xa1\x8f\xa2\xb7"), ("EUC-JP", b"\x8f\xa2\xb7\xa1"),
                                            ("EUC-JP", b"\x8f\xa2\xb7"), ("Big5", b"\xa2A"),
                                            ("EUC-JP", b"\xa1\x8f\xa2\xb7\x8f\xa2\xb7"), ("Big5", b"\xa1\xa2A"),
                                            ("Big5", b"\xa1\xa2B\xa2A")])
def test_dense_split_tokens_are_read_once(name, unit, monkeypatch):
    """A body of a split token repeated, each off a token boundary or some on one, with no sync
    byte (issue 37: each was told by a walk from the last split token decoded, or the start, which
    took minutes for 64 KiB): the decoder equals the reference, and steps each token at most once,
    in the walk or for a split token's text on a boundary (the walk goes on from the last token
    boundary it found, or the split token's end)."""
    decoder = ENCODINGS[name]._load()[0]
    step = decoder.step
    calls = []

    def counted(data, i):
        calls.append(i)
        return step(data, i)

    monkeypatch.setattr(decoder, "step", counted)
    multi_byte._walk_classes(counted)  # (its classes: many steps, before the count)
    for n in (10, 500, 2000):
        data = unit * n
        tokens = [0]
        while tokens[-1] < len(data):
            tokens.append(step(data, tokens[-1])[1])
        for shortcut in (True, False):  # (the marks step none)
            del calls[:]
            assert decoder.decode_splits(data, shortcut) == ref_decode(name, data), (unit, n, shortcut)
            assert len(calls) <= len(tokens) - 1, (unit, n, shortcut, len(calls), len(tokens))


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16)], ids=["windows", "small-windows"])
@pytest.mark.parametrize("name", quick_sample(["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"], {"EUC-JP"}))
def test_triples_equal_plain_twin(name, windows, monkeypatch):
    """decode_run with the C codec goes on past a stop of three bytes 0x80 and above (EUC-JP 0x8F, a
    byte 0xA1-0xFE, a byte 0x80 or above: runs.triples, the reference's text each) where the run is
    dense in errors, against its plain twin (no triples: the run ends there): on seeded random bytes
    0x80-0xFF with 0x8F triples mixed in, its text is the reference decoder's up to its end, it goes at
    least as far, and further on some inputs (EUC-JP only: the others have no such stop)."""
    decoder, runs, merge = _with_windows(monkeypatch, name, windows)
    assert bool(runs.triples) is (name == "EUC-JP")
    for triple, text in (runs.triples or {}).items():
        assert ref_decode(name, triple + b" ") == text + " ", triple
    plain = runs._replace(triples=None)
    further = []

    @settings(max_examples=100, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2 ** 32), st.integers(1, 2000), st.lists(st.sampled_from([b"\x8f\xa1\xa1", b"\x8f\xb0\xff",
                                                                                    b"\x8f\xa1A", b"\x8f", b"\xa4\xa4"]),
                                                                   max_size=30))
    @example(7, 2000, [])
    def run(seed, size, pieces):
        rng = random.Random(seed)
        data = bytearray(rng.choices(range(0x80, 0x100), k=size))
        for piece in pieces:
            where = rng.randrange(len(data) + 1)
            data[where:where] = piece
        data = bytes(data)
        for m in {None, merge}:
            end_plain = multi_byte.decode_run(plain, data, 0, decoder.c_codec, m)[1]
            text, end = multi_byte.decode_run(runs, data, 0, decoder.c_codec, m)
            assert end >= end_plain, data
            assert decoder._fix(text, data[:end]) == ref_decode(name, data[:end]), data
            further.append(end > end_plain)

    run()
    assert any(further) is (name == "EUC-JP")


class _CountedTriples(dict):
    """runs.triples, its lookups counted (decode_run's plain twin looks up each triple it stops at)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.looked = 0

    def get(self, key, default=None):
        self.looked += 1
        return super().get(key, default)


def test_triple_bytes_every_triple():
    """Every triple (0x8F, a byte 0xA1-0xFE, a byte 0x80-0xFF) that decode_run keeps for the C codec
    (runs.triple_ff: their bytes told by the flags): the C codec's text of it, where it takes it, is the
    reference's but for the split tokens, and its error handler (pair_errors) gives the reference's
    where it rejects it; a third byte 0xFF is kept as a byte whose triple is alike; the other
    decoders have no triple_ff."""
    for name in ("Big5", "Shift_JIS", "EUC-KR", "gb18030"):
        runs = multi_byte.error_runs(ENCODINGS[name]._load()[0].step)
        assert runs.triple_ff == b"" and runs.triple_firsts == (), name
    decoder = ENCODINGS["EUC-JP"]._load()[0]
    runs = multi_byte.error_runs(decoder.step)
    assert [b for b in range(256) if runs.flags[b] & 0b10011 == 0b11] == [0x8F]  # (live, not of bit 4)
    assert runs.triple_firsts == (b"\x8f",)
    assert [b for b in range(0x80, 256) if runs.flags[b] & 0b101 == 0b101] == list(range(0xA1, 0xFF))  # (maybe)
    rejected = 0
    for second in range(0xA1, 0xFF):
        for third in range(0x80, 0x100):
            triple = bytes((0x8F, second, third))
            expected = ref_decode("EUC-JP", triple + b" ")
            kept = triple.replace(b"\xff", runs.triple_ff)
            assert kept[2] != 0xFF and ref_decode("EUC-JP", kept + b" ") == expected, triple
            try:
                (kept + b" ").decode(decoder.c_codec)
            except UnicodeDecodeError:
                rejected += 1
            text = (kept + b" ").decode(decoder.c_codec, runs.codec_errors)
            assert text == expected or triple in decoder.splits, triple
    assert rejected > 0


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16), (5, 40)], ids=["windows", "small-windows", "odd-windows"])
def test_inline_triples_equal_plain_twin(windows, monkeypatch):
    """decode_run with the caller's split tokens (split_re: EUC-JP triples kept in the lanes for the
    C codec) against its plain twin (without: each triple a stop, runs.triples' text, the run on):
    on seeded random bytes 0x80-0xFF (issue 37) and 0x00-0xFF with triples mixed in (valid, null
    pointers, a third byte 0xFF, the split token, 0x8F cut by ASCII or the end, after a leading byte
    as its trail), its text is the reference decoder's up to its end, a token boundary
    (a window of valid tokens with few errors is the caller's C codec's again: its end may come
    before the twin's), its stop lookups are fewer than the twin's on some inputs (the inline path
    fires) and never more where both end alike; the decoder equals the reference."""
    decoder, runs, merge = _with_windows(monkeypatch, "EUC-JP", windows)
    inline, plain = runs._replace(triples=_CountedTriples(runs.triples)), runs._replace(triples=_CountedTriples(runs.triples))
    fewer = []

    @settings(max_examples=120, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2 ** 32), st.sampled_from([0x80, 0x00]), st.integers(1, 3000),
           st.lists(st.sampled_from([b"\x8f\xa1\xa1", b"\x8f\xb0\xa1", b"\x8f\xb0\xff", b"\x8f\xfe\xfe", b"\x8f\xa2\xb7",
                                     b"\x8f\xa1A", b"\x8f", b"\x8f\xa1", b"\xa4\x8f\xb0\xa1", b"\xad\xa1", b"\xff"]),
                    max_size=30))
    @example(7, 0x80, 3000, [])  # issue 37: random bytes 0x80-0xFF (random.Random(7))
    @example(7, 0x80, 300, [b"\x8f\xa2\xb7"])
    @example(1, 0x80, 10, [b"\x8f\xb0\xa1"] * 30)
    def run(seed, low, size, pieces):
        data = _soup(seed, low, size, pieces)
        for start in (0, 1):
            inline.triples.looked = plain.triples.looked = 0
            end_plain = multi_byte.decode_run(plain, data, start, decoder.c_codec, merge, b"", decoder.split_firsts)[1]
            text, end = multi_byte.decode_run(inline, data, start, decoder.c_codec, merge, b"", decoder.split_firsts,
                                              decoder.split_re)
            assert _plain_boundary(decoder.step, data, start, end), (data, start)
            assert decoder._fix(text, data[start:end]) == ref_decode("EUC-JP", data[start:end]), (data, start)
            if end == end_plain:
                assert inline.triples.looked <= plain.triples.looked, (data, start)
                fewer.append(inline.triples.looked < plain.triples.looked)
        assert ENCODINGS["EUC-JP"].decode(data) == ref_decode("EUC-JP", data), data

    run()
    assert any(fewer)
    if windows[0] == 64:  # issue 37: 64 KiB of random bytes 0x80-0xFF, one run to the end, few triples stop it
        data = bytes(random.Random(7).choices(range(0x80, 0x100), k=1 << 16))
        inline.triples.looked = 0
        text, end = multi_byte.decode_run(inline, data, 0, decoder.c_codec, merge, b"", decoder.split_firsts,
                                          decoder.split_re)
        assert end == len(data) and decoder._fix(text, data) == ref_decode("EUC-JP", data)
        assert inline.triples.looked < 8 < data.count(b"\x8f") // 4, inline.triples.looked


# --- gb18030's bytes 0x80 and 0xFF where dense: marked, then decoded on CPython's gb18030 codec -------

#: Bytes of each kind for gb18030.mark_singles: a mark's byte, ASCII that is no trail, a digit (a
#: four-byte second or fourth), an ASCII trail, 0x80, first bytes, 0xFF.
_SINGLES_KINDS = b"\x01 0A\x80\x81\xfe\xff"


@pytest.mark.parametrize("chunk", [1 << 16, 1], ids=["chunks", "one-byte-chunks"])
def test_mark_singles_every_short_input(chunk, monkeypatch):
    """gb18030.mark_singles' lanes equal its plain twin (the standard's step token by token) on every
    input of up to five bytes of _SINGLES_KINDS, in chunks as the decoder cuts them and cut after
    every byte 0x80 or 0xFF; and the marked bytes decoded, the marks replaced, equal the reference."""
    from scrapy_whatwg_encoding.encoding import gb18030

    monkeypatch.setattr(gb18030, "_SINGLES_CHUNK", chunk)
    dense = gb18030._decoder(dense=True)
    for length in range(1, 6):
        for data in map(bytes, itertools.product(_SINGLES_KINDS, repeat=length)):
            marked = gb18030.mark_singles(data)
            assert marked == gb18030.mark_singles(data, shortcut=False), data
            assert marked is not None
            text = dense(marked[0])
            for mark, char in marked[1]:
                text = text.replace(mark, char)
            assert text == ref_decode("gb18030", data), data


def test_mark_singles_without_marks_left():
    """An input with every byte of _MARKS but two is not marked (the handler takes its tokens)."""
    from scrapy_whatwg_encoding.encoding import gb18030

    data = gb18030._MARKS[2:] + b"\x80\xff" * 300
    assert gb18030.mark_singles(data) is None
    assert gb18030.mark_singles(data, shortcut=False) is None
    assert gb18030.mark_singles(data[1:]) is not None
    assert ENCODINGS["gb18030"].decode(data) == ref_decode("gb18030", data)


def test_gb18030_codec_decoder_every_pair():
    """The decoder on CPython's gb18030 codec (its fixes from tools/generate_tables.py) on every leading
    byte 0x80-0xFF with every next byte, each pair before a newline and at the end: the reference's
    text (CPython's codec rejects 0x80, 0xFF, a first byte then 0xFF, null pointers' first bytes)."""
    from scrapy_whatwg_encoding.encoding import gb18030

    dense = gb18030._decoder(dense=True)
    for lead in range(0x80, 0x100):
        data = b"".join(bytes((lead, second)) + b"\n" for second in range(256))
        assert dense(data) == ref_decode("gb18030", data), hex(lead)
        for second in (0x30, 0x80, 0xA1, 0xFF):
            assert dense(bytes((lead, second))) == ref_decode("gb18030", bytes((lead, second)))


#: gb18030 pieces for the dense path: 0x80 and 0xFF alone and as trails, first bytes, four-byte
#: tokens (valid, null, pointer 7457) and their beginnings, the fixes' pairs (A3 A0, A6 D9, A8 BC, FE 59,
#: FE 61), marks' bytes, ASCII.
_DENSE_PIECES = [b"\x80", b"\xff", b"\x81", b"\xa1", b"\xfe", b"\xa1\xa1", b"\xa1\x80", b"\xa1\xff", b"\xa1\xa1\x80",
                 b"\x810\x810", b"\x841\xa50", b"\xe32\x9a5", b"\x815\xf47", b"\x810", b"\x810\x81", b"\xa3\xa0",
                 b"\xa6\xd9", b"\xa8\xbc", b"\xfeY", b"\xfea", b"\x01", b"\x02", b"\x03", b"\x04", b"0", b"A", b" ",
                 b"\x7f"]


@pytest.mark.parametrize("dense", [True, False], ids=["dense", "plain"])
def test_gb18030_dense_path_equals_reference(dense, monkeypatch):
    """gb18030's decoder with its dense path taken for every input with a byte 0x80 or 0xFF (_DENSE
    huge) and never (_DENSE 0: its plain twin, the handler at each such token) equals the reference
    on byte soups, in small chunks too; and the dense path fires exactly in the first case."""
    from scrapy_whatwg_encoding.encoding import gb18030

    monkeypatch.setattr(gb18030, "_DENSE", 1 << 40 if dense else 0)
    monkeypatch.setattr(gb18030, "_SINGLES_CHUNK", 16)
    marked = []
    real = gb18030.mark_singles
    monkeypatch.setattr(gb18030, "mark_singles", lambda data: marked.append(data) or real(data))
    decode = ENCODINGS["gb18030"].decode

    @settings(max_examples=400, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(_DENSE_PIECES) | st.binary(max_size=3), max_size=60))
    @example([b"<meta charset=gbk>"] + [b"\xa1\xa1\x80"] * 40)  # the bench rows
    @example([b"<meta charset=gb18030>", bytes(random.Random(7).choices(range(0x80, 0x100), k=300))])
    @example([b"\xff"] * 50)
    @example([b"\x815\xf47", b"\xa8\xbc", b"\x80"])  # the swap of U+1E3F and U+E7C7
    @example([b"\x80", b"\x841\xa50", b"\x815\xf47"])  # pointer 7457 in a bulk run after a null pointer: fixed once
    def run(pieces):
        data = b"".join(pieces)
        assert decode(data) == ref_decode("gb18030", data), data

    run()
    assert bool(marked) is dense


@pytest.mark.parametrize("after", [0, 2, 1 << 40], ids=["at-once", "after-two", "never"])
def test_gb18030_four_byte_inputs_given_up_for_the_gb18030_codec(after, monkeypatch):
    """gb18030's decoder gives an input up for its decoder on CPython's gb18030 codec after
    _FOUR_AFTER four-byte tokens or pairs GBK lacks met one by one (at once, after two, and never:
    its plain twin, the handler at each) and equals the reference on soups of four-byte tokens and
    such pairs between others (valid, null, pointer 7457 and the pairs the codecs' fixes swap), in
    their bench form too; the switch fires only where it may."""
    from scrapy_whatwg_encoding.encoding import gb18030

    monkeypatch.setattr(multi_byte, "_FOUR_AFTER", after)
    decode = ENCODINGS["gb18030"].decode
    given_up = []
    decoder = gb18030._decoder()
    four = decoder.four
    monkeypatch.setattr(decoder, "four", lambda: given_up.append(True) or four())

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(_DENSE_PIECES + [b"=>\n", b"\x810\x810=>", b"\x841\xa50 ", b"\xfe\x81<",
                                                     b"\xa1@", b"\xa1\xa1"]), max_size=60))
    @example([b"<template>"] + [b"\x810\x810=>\n"] * 100 + [b"]]>?>"])  # the hunted body
    @example([b"?>\xfe\x81<\x1b$B<>"] * 100)  # a pair GBK lacks (U+4729), hunted (issue 37)
    @example([b"\x815\xf47", b" ", b"\x841\xa50", b" ", b"\x815\xf47", b"\xa8\xbc", b"\x810\x81"])
    def run(pieces):
        data = b"".join(pieces)
        assert decode(data) == ref_decode("gb18030", data), data

    run()
    assert any(given_up) is (after < 1 << 40)
    given_up.clear()
    assert decode(b"\x81 \xa1\x30 " * 100) == ref_decode("gb18030", b"\x81 \xa1\x30 " * 100)
    assert not given_up  # (other errors, however many, leave the input to the handler)
    for _ in range(3):  # (two four-byte tokens an input: counted per input)
        assert decode(b"\x810\x810 \x810\x811 ") == ref_decode("gb18030", b"\x810\x810 \x810\x811 ")
    assert bool(given_up) is (after == 0)
    given_up.clear()
    assert decode(b"<\xa1@>\xa1\xa1" * 3) == ref_decode("gb18030", b"<\xa1@>\xa1\xa1" * 3)  # (GBK has 0xA1 0xA1)
    assert bool(given_up) is (after <= 2)


def test_gb18030_dense_bench_bodies():
    """The bench rows' bodies (issue 37), 64 KiB: decoded on the dense path, as the reference does."""
    from scrapy_whatwg_encoding.encoding import gb18030

    for body in (b"<meta charset=gbk>" + b"\xa1\xa1\x80" * 21840,
                 b"<meta charset=gb18030>" + bytes(random.Random(7).choices(range(0x80, 0x100), k=65500)),
                 b"<meta charset=gb18030>" + b"\xff" * 65500, b"\xa1\x80\xff" * 21840):
        assert gb18030._dense_singles(body) is not None
        assert ENCODINGS["gb18030"].decode(body) == ref_decode("gb18030", body), body[:30]


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16), (5, 40)], ids=["windows", "small-windows", "odd-windows"])
@pytest.mark.parametrize("name", ["Big5", "Shift_JIS", "EUC-KR"])
def test_ascii_leads_equal_plain_twin(name, windows, monkeypatch):
    """decode_run with *ascii_leads* (a stop pair of such a leading byte and an ASCII byte given to the
    C codec, no stop) against its plain twin (the run ends there): on seeded random bytes (0x40-0xFF,
    0x00-0xFF, 0x80-0xFF) with pairs of ASCII trails (valid, null, one the C codec lacks), errors, every
    placeholder byte and the hunted unit mixed in, at a token boundary and not, with and without
    *empties*, it goes at least as far, its text is the reference's, and the whole decoder equals the
    reference; the shortcut reaches further on some inputs (windows of such pairs only too)."""
    decoder, runs, merge = _with_windows(monkeypatch, name, windows)
    leads = multi_byte.codec_ascii_leads(runs, decoder.c_codec)
    assert leads is not None and merge is not None
    empties = multi_byte.codec_empties(runs, decoder.c_codec)
    ascii_pairs = sorted(pair for pair in runs.stop_pairs if pair[1] < 0x80)
    pieces = ascii_pairs[::37] + _codec_rejects(name, runs, decoder.c_codec)[::7] + [
        multi_byte._PLACEHOLDERS, b"\xff", b"\x80", b"\xa1", b"\x81\x7f", b"\xff'\xff\xd7]]><script>"]
    further = []

    @settings(max_examples=80, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2 ** 32), st.sampled_from([0x40, 0x00, 0x80]), st.integers(1, 2000),
           st.lists(st.sampled_from(pieces), max_size=40))
    @example(7, 0x40, 2000, [])
    @example(7, 0x80, 10, [b"\xff'\xff\xd7]]><script>"] * 30)  # hunted (issue 37): errors, then such a pair
    @example(7, 0x80, 1, [b"\x80\x88@\n\x80\x89@\n"] * 20)  # windows whose pairs all have an ASCII trail
    @example(7, 0x80, 1, [b"\x80\x88@\n" * 8 + b"\x87@" + b"\x80\x89@\n" * 20])  # ... and a stop (no shortcut)
    def run(seed, low, size, mixed):
        data = _soup(seed, low, size, mixed)
        if decoder.split_re is not None:  # (the decoder marks its split tokens first: none reaches decode_run)
            data = decoder.split_re.sub(b"\xa1\xa1", data)
        for start in (0, 1):
            for handler in {None, empties}:
                args = (runs, data, start, decoder.c_codec, merge, b"", decoder.split_firsts, decoder.split_re, handler)
                end_plain = multi_byte.decode_run(*args)[1]
                text, end = multi_byte.decode_run(*args, ascii_leads=leads)
                assert end >= end_plain, (data, start)
                further.append(end > end_plain)
                assert decoder._fix(text, data[start:end]) == ref_decode(name, data[start:end]), (data, start)
        assert ENCODINGS[name].decode(data) == ref_decode(name, data), data

    run()
    assert any(further)


@pytest.mark.parametrize("name", quick_sample(["Big5", "EUC-JP", "Shift_JIS", "gb18030", "EUC-KR"], {"Big5"}))
def test_codec_ascii_leads_every_pair(name):
    """codec_ascii_leads holds exactly the live leading bytes of two bytes whose every stop pair with an
    ASCII byte the reference decodes as one token of those two bytes (before every byte of _AFTER_PAIR)
    and the C codec decodes as the decoder does (its text fixed as the decoder fixes it; the split tokens,
    Big5 0xA2 0x41 and 0xA2 0x42, never reach decode_run, the decoder marks them first): Big5's 0x87,
    whose pairs CPython lacks some of, not; none in EUC-JP (no ASCII trail) or gb18030 (0x30-0x39 begin
    four bytes)."""
    decoder = ENCODINGS[name]._load()[0]
    runs = multi_byte.error_runs(decoder.step)
    table = multi_byte.codec_ascii_leads(runs, decoder.c_codec)
    held = set() if table is None else {b for b in range(256) if table[b]}
    expected = set()
    for lead in range(0x80, 0x100):
        pairs = [pair for pair in runs.stop_pairs if pair[0] == lead and pair[1] < 0x80 and pair not in decoder.splits]
        if not pairs or runs.flags[lead] & 0x10 == 0:
            continue
        fine = True
        for pair in pairs:
            texts = {ref_decode(name, pair + after)[:-len(ref_decode(name, after)) or None] for after in _AFTER_PAIR}
            try:
                fine = fine and len(texts) == 1 and decoder._fix(pair.decode(decoder.c_codec), pair) in texts \
                    and all(ref_decode(name, pair + after).endswith(ref_decode(name, after)) for after in _AFTER_PAIR)
            except UnicodeDecodeError:
                fine = False
        if fine:
            expected.add(lead)
    assert held == expected
    assert bool(held) is (name in ("Big5", "Shift_JIS", "EUC-KR"))
    assert (0x87 in held) is (name in ("Shift_JIS", "EUC-KR"))  # (Big5's 0x87: pairs CPython lacks)


def test_euc_jp_lacking_pairs_every_pair():
    """lacking_pairs (decode_run's *rejected* for EUC-JP: rows 13 and 89-92, whose every pair CPython's
    euc_jp rejects) gives the reference's text of each pair of those rows' leading bytes and a byte
    0xA1-0xFE, null pointers too (U+FFFD), one character each, in one decode of them all; and those
    are exactly the leading bytes of the decoder's *rejected*."""
    decoder = ENCODINGS["EUC-JP"]._load()[0]
    leads = [b for b in range(256) if decoder.rejected.leads[b]]
    assert leads == [0xAD, 0xF9, 0xFA, 0xFB, 0xFC]
    pairs = [bytes((lead, trail)) for lead in leads for trail in range(0xA1, 0xFF)]
    for pair in pairs:
        with pytest.raises(UnicodeDecodeError):
            pair.decode("euc_jp")
    text = euc_jp.lacking_pairs(b"".join(pairs))
    assert list(text) == [ref_decode("EUC-JP", pair) for pair in pairs]
    assert text.count("\ufffd") == 13  # (row 13's 11 null pointers, row 92's 2)


@pytest.mark.parametrize("windows", [(64, 1 << 15), (2, 16), (5, 40)], ids=["windows", "small-windows", "odd-windows"])
def test_euc_jp_rejected_equals_plain_twin(windows, monkeypatch):
    """decode_run with *rejected* (EUC-JP's pairs of rows 13 and 89-92 a second placeholder in the text,
    their text one decode of them all) against its plain twin (the C codec's error handler at each): on
    seeded random bytes (0x80-0xFF, 0x00-0xFF, 0xA1-0xFF) with such pairs (null pointers too), empty
    pairs, triples and every placeholder byte mixed in, at a token boundary and not, with and without
    *empties*, the same text and end, the reference's text; the shortcut fires."""
    decoder, runs, merge = _with_windows(monkeypatch, "EUC-JP", windows)
    empties = multi_byte.codec_empties(runs, decoder.c_codec)
    fired = []
    rejected = decoder.rejected._replace(decode=lambda pairs: fired.append(pairs) or euc_jp.lacking_pairs(pairs))
    pieces = [b"\xad\xa1", b"\xad\xfe", b"\xf9\xa1", b"\xfc\xfe", b"\xad\xbe", b"\x8f\xa1\xa1", b"\xa9\xa1",
              multi_byte._PLACEHOLDERS, multi_byte._PLACEHOLDERS[:-1], b"\x1b(I\x1b$B<meta charset=\"iso-2022-jp\">"]

    @settings(max_examples=80, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2 ** 32), st.sampled_from([0x80, 0x00, 0xA1]), st.integers(1, 2000),
           st.lists(st.sampled_from(pieces), max_size=40))
    @example(7, 0x80, 2000, [])  # issue 37: random bytes 0x80-0xFF
    @example(7, 0x80, 300, [multi_byte._PLACEHOLDERS])  # no placeholder: the plain path
    def run(seed, low, size, mixed):
        data = _soup(seed, low, size, mixed)
        for start in (0, 1):
            for handler in {None, empties}:
                args = (runs, data, start, decoder.c_codec, merge, b"", decoder.split_firsts, decoder.split_re, handler)
                text, end = multi_byte.decode_run(*args, rejected=rejected)
                assert (text, end) == multi_byte.decode_run(*args), (data, start, handler)
                assert decoder._fix(text, data[start:end]) == ref_decode("EUC-JP", data[start:end]), (data, start)

    run()
    assert fired
