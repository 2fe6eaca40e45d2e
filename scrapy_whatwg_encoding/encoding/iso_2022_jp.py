"""ISO-2022-JP (Encoding Standard §12.2).

The exact decoder splits the input at valid escape sequences (the only way its state changes) and
decodes the runs of bytes between them state by state, all runs of one state in one call at C speed:
ASCII, Roman and katakana runs through a charmap, jis0208 runs ("leading byte" state) as EUC-JP after
adding 0x80 to bytes 0x21–0x7E — which gives exactly the standard's pairs, errors and end-of-run
behaviour. A lone ESC (an invalid escape) stays in its run, one error there. No Python step is taken
per run, so a body of many tiny runs costs a small constant per byte; where the state changes often,
no step of C code per run either (each byte's state is found in lanes of integers). A body of few
ESC bytes (found one by one) decodes each run alone instead (:func:`decode_few`): no pass over the
body to split it.

Most documents are simpler still: only the escapes ESC ( B, ESC ( J, ESC ( I, ESC $ @ and ESC $ B,
never two in a row, jis0208 runs of bytes 0x21–0x7E only and katakana runs of bytes 0x21–0x5F only. On
those, CPython's iso2022_jp_ext codec (iso2022_jp with JIS X 0201 katakana) agrees with the standard
(``tools/generate_tables.py`` compares every such token and lists the code points to translate
afterwards), so when it decodes them without error its output is used.
"""
from __future__ import annotations

import codecs
import functools
import re
import sys
from collections.abc import Callable
from itertools import chain, compress, repeat
from typing import TYPE_CHECKING

from . import compiled, euc_jp, indexes
from .multi_byte import html_error_mode

if TYPE_CHECKING:
    from ._typing import Buffer, Codec

# A valid escape sequence (§12.2.1 "escape start" and "escape" states); an ESC that starts none is
# one error and its other bytes are restored, to be decoded in the output state.
_VALID_ESCAPE = re.compile(rb"(\x1b(?:\([BJI]|\$B))")  # (ESC $ @ is replaced by ESC $ B first)
_ASCII, _ROMAN, _KATAKANA, _JIS0208 = b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$B"
# Per valid escape sequence, the others.
_OTHER_ESCAPES = {state: re.compile(b"|".join(re.escape(other) for other in (_ASCII, _ROMAN, _KATAKANA, _JIS0208)
                                              if other != state))
                  for state in (_ASCII, _ROMAN, _KATAKANA, _JIS0208)}
# Per valid escape sequence, two in a row; and ESC $ @. (A search by re, not bytes.find nor "in": on a
# body dense with ESC, 0.3-0.4 ms a MiB, not 0.8-1.2: hunted, issue 37, "ESC $ B <?>-->" repeated.)
_TWO_IN_A_ROW = {state: re.compile(re.escape(state * 2)) for state in (_ASCII, _ROMAN, _KATAKANA, _JIS0208)}
_OLD_JIS0208 = re.compile(re.escape(b"\x1b$@"))

# Every byte 0x80 and above is one error in every state (in jis0208 a leading byte with it too),
# so all become 0x80 first, which leaves 0x81 and 0x82 as marks: 0x81 joins runs of one state and
# with 0x82 after it stands for an escape sequence (see _one_state), each decoded to a character of
# its own (_MARKS).
_HIGH_TO_80 = bytes(range(0x80)) + b"\x80" * 0x80
_ASCII_TABLE = "".join(chr(b) if b < 0x80 and b not in (0x0E, 0x0F, 0x1B) else "\ufffd"
                       for b in range(256))
_ROMAN_TABLE = _ASCII_TABLE[:0x5C] + "\u00a5" + _ASCII_TABLE[0x5D:0x7E] + "\u203e" + _ASCII_TABLE[0x7F:]
_KATAKANA_TABLE = "".join(chr(0xFF61 - 0x21 + b) if 0x21 <= b <= 0x5F else "\ufffd"
                          for b in range(256))
# jis0208 runs: 0x21–0x7E become EUC-JP's 0xA1–0xFE; any other byte becomes 0xFF, which EUC-JP
# (like ISO-2022-JP's leading and trailing byte states) consumes as one error. A lone ESC becomes
# SO, which EUC-JP restores after a leading byte (the run ends there: an error if it ends in a
# leading byte), decoded as "\x0e" and then replaced by its error; the marks 0x81 and 0x82 become
# "\n" and SI, which EUC-JP restores too.
_TO_EUC_JP = bytes(b + 0x80 if 0x21 <= b <= 0x7E else {0x1B: 0x0E, 0x81: 0x0A, 0x82: 0x0F}.get(b, 0xFF)
                   for b in range(256))
_MARKS = {b"\x1b$B": ("\n", "\x0f")}  # per state, what 0x81 and 0x82 decode to (no other byte does)


def _charmap(table: str) -> Callable[[bytes], str]:
    table = table[:0x81] + "\x81\x82" + table[0x83:]
    charmap_decode = codecs.charmap_decode
    return lambda run: charmap_decode(run, "strict", table)[0]


@functools.cache
def _euc_jp() -> Callable[[bytes | bytearray], str]:
    """The EUC-JP Python decoder, made once (its error handler registered once)."""
    return euc_jp.decoder().python


@functools.cache
def _run_decoders() -> dict[bytes, Callable[[bytes], str]]:
    """Per state, the decoder of its runs (0x81 and 0x82 decoded to its _MARKS)."""
    jis0208 = _euc_jp()

    def jis0208_run(run: bytes) -> str:
        text = jis0208(run.translate(_TO_EUC_JP))
        return text.replace("\x0e", "\ufffd") if b"\x1b" in run else text  # (SO: a lone ESC's only)

    return {_ASCII: _charmap(_ASCII_TABLE), _ROMAN: _charmap(_ROMAN_TABLE),
            _KATAKANA: _charmap(_KATAKANA_TABLE), _JIS0208: jis0208_run}


# The documents CPython's codec decodes as the standard does, matched whole (one match, no search
# restarted at each ESC): ASCII bytes up to the first escape, then escapes among ESC ( B, ESC ( J,
# ESC ( I, ESC $ @ and ESC $ B, each followed by a non-empty run (two escapes in a row are an error),
# a jis0208 run of bytes 0x21–0x7E only (CPython passes C0 controls through there), a katakana run
# of bytes 0x21–0x5F only; and no SO or SI anywhere. Bytes 0x80 and above may be anywhere: CPython's
# codec rejects them, and the exact decoder runs. The usual ESC $ B run, ESC ( B run is one step of
# the match (possessive: one way to match each part); before Python 3.11 (no possessive
# quantifiers) a step is one escape and its run, which backtracking cannot match otherwise.
if sys.version_info >= (3, 11, 5):  # (3.11.0-3.11.4 mis-match possessive quantifiers: CPython gh-106052)
    _SIMPLE = re.compile(rb"[^\x1b]*+(?:\x1b(?:\$B[\x21-\x7e]++\x1b\(B[^\x1b]++|\([BJ][^\x1b]++"
                         rb"|\(I[\x21-\x5f]++|\$[@B][\x21-\x7e]++))*+(?:\x1b(?:\([BJI]|\$[@B]))?")
else:
    _SIMPLE = re.compile(rb"[^\x1b]*(?:\x1b(?:\([BJ][^\x1b]+|\(I[\x21-\x5f]+|\$[@B][\x21-\x7e]+))*"
                         rb"(?:\x1b(?:\([BJI]|\$[@B]))?")

#: CPython's codec of the documents :data:`_SIMPLE` matches.
C_CODEC = "iso2022_jp_ext"


def _simple(data: bytes) -> bool:
    return not (b"\x0e" in data or b"\x0f" in data) and _SIMPLE.fullmatch(data) is not None


@functools.cache
def _fixes() -> dict[str, str]:
    from .tables.multi_byte_fixes import FIXES

    fixes, splits, _ = FIXES["ISO-2022-JP"]
    assert not splits, "every token the fast path accepts must have one output"
    return fixes


#: ESC bytes up to which the exact decoder runs at once, run by run (:func:`decode_few`): a step per
#: run between them, each run at C speed, cheaper than a whole-body match and a CPython decode that
#: may fail at the end.
FEW_ESCAPES = 32


def decode(data: Buffer) -> str:
    """ISO-2022-JP decoder (§12.2.1), replacement mode."""
    data = bytes(data)
    if b"\x1b" not in data:
        return codecs.charmap_decode(data, "strict", _ASCII_TABLE)[0]
    escapes = _esc_offsets(data, FEW_ESCAPES + 1)
    if len(escapes) <= FEW_ESCAPES:
        return decode_few(data, escapes)
    try:  # first: CPython's codec stops at a hostile body's first error, the match would read it all
        text = data.decode(C_CODEC)
    except UnicodeDecodeError:
        pass
    else:
        if _simple(data):
            for c, fixed in _fixes().items():
                if c in text:
                    text = text.replace(c, fixed)
            return text
    return decode_exact(data)


def _esc_offsets(data: bytes, most: int) -> list[int]:
    """The offsets of the first *most* ESC bytes of *data* (one memchr each, not a pass over the body)."""
    offsets: list[int] = []
    at = data.find(b"\x1b")
    while at >= 0 and len(offsets) < most:
        offsets.append(at)
        at = data.find(b"\x1b", at + 1)
    return offsets


# The valid escape sequences (§12.2.1 "escape start" and "escape" states) and the state each sets.
_STATES = {_ASCII: _ASCII, _ROMAN: _ROMAN, _KATAKANA: _KATAKANA, _JIS0208: _JIS0208, b"\x1b$@": _JIS0208}


def decode_few(data: bytes, escapes: list[int]) -> str:
    """:func:`decode_exact` where *escapes* are the offsets of all of *data*'s ESC bytes (few): each
    run between valid escape sequences decoded alone, in the state the escape before it sets, from
    the ESC offsets (no pass over the body to find, replace or split at escapes, nor over its text
    to split it by state). Its plain twin is :func:`decode_exact`."""
    decoders = _run_decoders()
    if not data.isascii():  # (offsets kept: one byte for one)
        data = data.translate(_HIGH_TO_80)
    parts: list[str] = []
    state, done, escaped = _ASCII, 0, False
    for at in escapes:
        new = _STATES.get(data[at:at + 3])
        if new is None:  # a lone ESC stays in its run (one error there)
            continue
        if at > done:
            parts.append(decoders[state](data[done:at]))
        elif escaped:  # a valid escape right after a valid escape ("ISO-2022-JP output" still set)
            parts.append("\ufffd")
        state, done, escaped = new, at + 3, True
    parts.append(decoders[state](data[done:]))
    return "".join(parts)


#: Changes of state (escape sequences of another state than the one before) up to which the exact
#: decoder decodes the body segment by segment, each of one state at once (:func:`_one_state`).
FEW_CHANGES = 64


def decode_exact(data: bytes, segments: bool = True) -> str:
    """ISO-2022-JP decoder (§12.2.1) on any input, the runs of each state decoded together: where
    the state changes at most :data:`FEW_CHANGES` times, each stretch of one state at once (however
    many escape sequences of that state it holds: one search to the next of another state, all found
    before any is decoded); else in lanes (:func:`_lanes`); with *segments* ``False`` (the plain
    twin), by splitting at every escape sequence."""
    decoders = _run_decoders()
    if _OLD_JIS0208.search(data) is not None:
        data = data.replace(b"\x1b$@", _JIS0208)
    if not data.isascii():
        data = data.translate(_HIGH_TO_80)
    first = _VALID_ESCAPE.search(data)
    if first is None:
        return decoders[_ASCII](data)
    state = first.group()
    if _OTHER_ESCAPES[state].search(data) is None:  # (one scan, not one per escape: a body of escapes)
        return decoders[_ASCII](data[:first.start()]) + _one_state(state, data[first.start():])
    if segments:
        bounds, at = [], first.start()  # (the stretches found first: none decoded where there are too many)
        for _ in range(FEW_CHANGES + 1):
            other = _OTHER_ESCAPES[state].search(data, at + 3)
            bounds.append((state, at, len(data) if other is None else other.start()))
            if other is None:
                break
            state, at = other.group(), other.start()
        else:
            return _lanes(data)
        stretches = [decoders[_ASCII](data[:first.start()])]
        for state, at, end in bounds:
            stretches.append(_one_state(state, data[at:end]))
            if end < len(data) and data.endswith(state, at, end):  # a valid escape right after a valid escape
                stretches.append("\ufffd")
        return "".join(stretches)
    parts = _VALID_ESCAPE.split(data)
    escapes, runs = parts[1::2], parts[2::2]  # parts: run, escape, run, escape, ..., run
    texts = {state: iter(decoders[state](b"\x81".join(compress(runs, map(state.__eq__, escapes))))
                         .split(_MARKS.get(state, "\x81")[0]))
             for state in set(escapes)}
    # A valid escape right after a valid escape (its run empty: "ISO-2022-JP output" still set)
    # is an error; an invalid one (a lone ESC in the run) unsets that flag.
    errors = chain(("",), map({b"": "\ufffd"}.get, runs[:-1], repeat("")))
    return "".join(chain((decoders[_ASCII](parts[0]),),
                         chain.from_iterable(zip(errors, map(next, map(texts.__getitem__, escapes))))))


# Lanes: each valid escape becomes three marker bytes (0x83 0x83, then 0x84-0x87 by state), then
# every byte two bytes of EUC-JP (_PAD where it has fewer, removed before the decode): ASCII, 0x8E
# and a byte for katakana, a jis0208 pair's two bytes + 0x80 at its leading byte; and bytes no
# state gives as they are: 0x0E and 0x0F for Roman's two, _ERROR for an error (no error handler).
_PAD, _ERROR = 0x81, 0x1B
_LANE_MARKERS = {_ASCII: b"\x83\x83\x84", _ROMAN: b"\x83\x83\x85", _KATAKANA: b"\x83\x83\x86", _JIS0208: b"\x83\x83\x87"}
_MARKER = range(0x83, 0x88)
_RANGE = range(0x21, 0x7F)  # (jis0208's bytes)


def _table(value: Callable[[int], int]) -> bytes:
    """A translation table: *value* of every byte but the markers (0 there)."""
    return bytes(0 if b in _MARKER else value(b) for b in range(256))


_ASCII_FIRST = bytes(_PAD if b in _MARKER else b if b < 0x80 and b not in (0x0E, 0x0F, 0x1B) else _ERROR for b in range(256))
_JIS_FIRST = _table(lambda b: b + 0x80 if b in _RANGE else _ERROR)
# Per state but ASCII: what turns a byte's first byte from ASCII's to its own (xor), and its second
# from _PAD to its own (None: _PAD).
_STATE_LANES = {
    _ROMAN: (_table(lambda b: {0x5C: 0x5C ^ 0x0E, 0x7E: 0x7E ^ 0x0F}.get(b, 0)), None),
    _KATAKANA: (_table(lambda b: _ASCII_FIRST[b] ^ (0x8E if 0x21 <= b <= 0x5F else _ERROR)),
                _table(lambda b: _PAD ^ (b + 0x80) if 0x21 <= b <= 0x5F else 0)),
    _JIS0208: (_table(lambda b: _ASCII_FIRST[b] ^ _JIS_FIRST[b]), None),
}
# Per byte, bits of one translation (each mask taken from it by a shift): 0 a byte of a run (no marker), 1 a
# marker's first two bytes, 2 its last (a first right after a last is a valid escape right after one, an
# error), 3-5 the last byte of Roman's, katakana's and jis0208's marker (where its run starts), 6 a byte
# 0x21-0x7E (jis0208's), 7 a byte a trailing byte's error takes (no marker, ESC or byte 0x21-0x7E).
_BITS = {_ROMAN: 3, _KATAKANA: 4, _JIS0208: 5}
_FLAGS = bytes((b not in _MARKER) | (b == 0x83) << 1 | (0x84 <= b <= 0x87) << 2
               | sum((b == _LANE_MARKERS[state][2]) << bit for state, bit in _BITS.items())
               | (b in _RANGE) << 6 | (b not in _MARKER and b not in _RANGE and b != 0x1B) << 7 for b in range(256))
_TO_PAD = _table(lambda b: _JIS_FIRST[b] ^ _PAD)
_TO_ERROR = _table(lambda b: _JIS_FIRST[b] ^ _ERROR)
_TRAILING = _table(lambda b: _PAD ^ (b + 0x80) if b in _RANGE else 0)


def _lanes(data: bytes) -> str:
    """:func:`decode_exact`'s split (*data*: its bytes 0x80 and above 0x80) without a step per
    run: every byte's state found at once, each byte a lane (a byte) of an integer, then its
    bytes of EUC-JP (the pad removed), one decode. Each run after a marker of a state (its
    lanes 0xFF in *runs*) is found by adding 1 at its first lane: the carry runs through the run to
    the next marker (a lane 0), so the lanes that change are the run's. In jis0208 runs, so are the
    stretches of bytes 0x21-0x7E after any other byte (each begins at a leading byte), those that
    begin at an even lane; the others are the odd ones. A katakana byte is two bytes of EUC-JP, so
    where there is one, each byte is two lanes (a jis0208 pair in its leading byte's); else one (a
    jis0208 pair in its own two). Its plain twin is the split (*segments* ``False``)."""
    states = []
    for state, markers in _LANE_MARKERS.items():
        marked = data.replace(state, markers)  # (the same length: no offset moves)
        if marked is not data:  # (bytes.replace gives the bytes themselves where it replaces nothing)
            states.append(state)
        data = marked
    size = len(data)
    lanes = functools.partial(int.from_bytes, byteorder="little")
    ones = lanes(b"\x01" * size)
    flags = lanes(data.translate(_FLAGS))
    runs = (flags & ones) * 0xFF
    first = lanes(data.translate(_ASCII_FIRST)) ^ (((flags >> 1) & (flags << 6) & ones) * (_PAD ^ _ERROR))
    # (each state's runs: where none holds a byte, the state changes no lane)
    state_runs = [(state, run) for state in states if state in _BITS
                  and (run := runs & (runs ^ (runs + (((flags >> _BITS[state]) & ones) << 8))))]
    katakana = any(state == _KATAKANA for state, _ in state_runs)
    second = lanes(bytes((_PAD,)) * size) if katakana else 0
    for state, run in state_runs:
        change, trailing = _STATE_LANES[state]
        first ^= lanes(data.translate(change)) & run
        if trailing is not None:
            second ^= lanes(data.translate(trailing)) & run
        if state == _JIS0208:
            pairs = run & ((flags >> 6) & ones) * 0xFF
            even = lanes(b"\xff\x00" * (size // 2 + 1))
            from_even = pairs & (pairs ^ (pairs + ((((flags >> 6) & ones) ^ ones) << 8 & even)))
            leading = (from_even & even) | ((pairs ^ from_even) & (even << 8))
            trail = pairs ^ leading
            alone = leading & ~(trail >> 8)  # (a leading byte without its trailing byte: an error)
            taken = (alone << 8) & run & ((flags >> 7) & ones) * 0xFF
            if katakana:  # (a pair in its leading byte's two lanes)
                first ^= (lanes(data.translate(_TO_PAD)) & (trail | taken)) ^ (lanes(data.translate(_TO_ERROR)) & alone)
                second ^= lanes((data[1:] + b"\x00").translate(_TRAILING)) & leading  # (0 after one alone)
            else:
                first ^= (lanes(data.translate(_TO_PAD)) & taken) ^ (lanes(data.translate(_TO_ERROR)) & alone)
    out: bytes | bytearray = first.to_bytes(size, "little")
    if katakana:  # (each byte's first lane, then its second)
        firsts, out = out, bytearray(2 * size)
        out[0::2], out[1::2] = firsts, second.to_bytes(size, "little")
    text = _euc_jp()(out.translate(None, bytes((_PAD,)))).replace("\x1b", "\ufffd")
    return text.replace("\x0e", "\u00a5").replace("\x0f", "\u203e") if _ROMAN in states else text


@functools.cache
def _jis0208_marks_dropped() -> Callable[[bytes], str]:
    """The decoder of jis0208 runs for _one_state's marks 0x82 (SI in EUC-JP), whose runs of errors
    leave the marks out (a hostile body of tiny runs: no pass over its text to remove them)."""
    jis0208 = euc_jp.decoder("ISO-2022-JP-jis0208", drop=b"\x0f")
    return lambda run: jis0208(run.translate(_TO_EUC_JP)).replace("\x0e", "\ufffd")


def _one_state(state: bytes, data: bytes) -> str:
    """*data* (from an escape sequence on) whose every valid escape sequence is *state*, in one
    decode: each escape becomes the mark 0x82; where two are in a row, the marks 0x81 0x82, and the
    text of an escape right after one (0x82 0x81) is the error of two escapes in a row."""
    join, escape = _MARKS.get(state, ("\x81", "\x82"))
    if _TWO_IN_A_ROW[state].search(data) is None:  # no two in a row: one mark each (removed where the text still has it)
        decode = _jis0208_marks_dropped() if state == _JIS0208 else _run_decoders()[state]
        return decode(data.replace(state, b"\x82")).replace(escape, "")
    text = _run_decoders()[state](data.replace(state, b"\x81\x82"))
    return text.replace(escape + join, "\ufffd").replace(join, "").replace(escape, "")


@functools.cache
def _jis0208_pointers() -> dict[str, int]:
    return indexes.pointers("jis0208")


@functools.cache
def _katakana() -> str:
    """Index ISO-2022-JP katakana: code point for U+FF61 + pointer."""
    return indexes.index("iso-2022-jp-katakana")


def encode(text: str) -> bytes:
    """ISO-2022-JP encoder (§12.2.2), "html" error mode; the output ends in the ASCII state."""
    pointers, katakana = _jis0208_pointers(), _katakana()
    out = bytearray()
    state = _ASCII
    for c in text:
        code_point = 0xFFFD if "\ud800" <= c <= "\udfff" else ord(c)
        while True:  # each "restore codePoint to ioQueue" goes round again
            if state != _JIS0208 and code_point in (0x0E, 0x0F, 0x1B):
                out += html_error_mode("\ufffd")  # error with U+FFFD, to prevent attacks
            elif state == _ASCII and code_point < 0x80:
                out.append(code_point)
            elif state == _ROMAN and (code_point < 0x80 and code_point not in (0x5C, 0x7E)
                                      or code_point in (0xA5, 0x203E)):
                out.append({0xA5: 0x5C, 0x203E: 0x7E}.get(code_point, code_point))
            elif code_point < 0x80:
                out += _ASCII
                state = _ASCII
                continue
            elif code_point in (0xA5, 0x203E):
                out += _ROMAN
                state = _ROMAN
                continue
            else:
                if code_point == 0x2212:
                    code_point = 0xFF0D
                elif 0xFF61 <= code_point <= 0xFF9F:
                    code_point = ord(katakana[code_point - 0xFF61])
                pointer = pointers.get(chr(code_point))
                if pointer is None and state == _JIS0208:
                    out += _ASCII
                    state = _ASCII
                    continue
                if pointer is None:
                    out += html_error_mode(chr(code_point))
                elif state != _JIS0208:
                    out += _JIS0208
                    state = _JIS0208
                    continue
                else:
                    out += bytes((pointer // 94 + 0x21, pointer % 94 + 0x21))
            break
    if state != _ASCII:  # end-of-queue
        out += _ASCII
    return bytes(out)


class Decoder:
    """The decoder: the compiled one where it is built (:func:`.compiled.decoder`), else its plain twin
    :func:`decode` (:attr:`python`), as :class:`.multi_byte.FastDecoder` has them."""

    python = staticmethod(decode)

    def __init__(self) -> None:
        self.compiled = compiled.decoder("ISO-2022-JP")

    def __call__(self, data: Buffer) -> str:
        return decode(data) if self.compiled is None else self.compiled(data)


def codec(name: str) -> Codec:
    return Decoder(), encode
