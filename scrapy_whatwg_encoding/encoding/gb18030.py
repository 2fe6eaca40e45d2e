"""gb18030 and GBK (Encoding Standard §10): one decoder, two encoders ("is GBK")."""
from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING

from . import compiled, indexes
from .multi_byte import FastDecoder, html_error_mode, lane_masks, table_encoder

if TYPE_CHECKING:
    from ._typing import Codec, Encoder


def step(data: bytes, i: int) -> tuple[str, int]:
    """The gb18030 decoder's handler (§10.2.1) from its initial state for the token at data[i]."""
    n = len(data)
    first = data[i]
    if first < 0x80:
        return chr(first), i + 1
    if first == 0x80:
        return "\u20ac", i + 1
    if first == 0xFF:
        return "\ufffd", i + 1
    if i + 1 >= n:  # end-of-queue with gb18030 first set
        return "\ufffd", n
    second = data[i + 1]
    if 0x30 <= second <= 0x39:
        if i + 2 >= n:
            return "\ufffd", n
        third = data[i + 2]
        if not 0x81 <= third <= 0xFE:  # restore « second, byte »
            return "\ufffd", i + 1
        if i + 3 >= n:
            return "\ufffd", n
        fourth = data[i + 3]
        if not 0x30 <= fourth <= 0x39:  # restore « second, third, byte »
            return "\ufffd", i + 1
        pointer = ((first - 0x81) * 12600 + (second - 0x30) * 1260 + (third - 0x81) * 10
                   + fourth - 0x30)
        code_point = indexes.gb18030_ranges_code_point(pointer)
        return ("\ufffd" if code_point is None else chr(code_point)), i + 4
    char = None
    if 0x40 <= second <= 0x7E or 0x80 <= second <= 0xFE:
        char = indexes.code_point(
            "gb18030", (first - 0x81) * 190 + second - (0x40 if second < 0x7F else 0x41))
    if char is not None:
        return char, i + 2
    return "\ufffd", i + 1 if second < 0x80 else i + 2  # an ASCII byte is restored


# Four-byte tokens (§10.2.1 step 5: a byte 0x81–0xFE, a digit, a byte 0x81–0xFE, a digit: four
# bytes whatever the pointer) are found window by window (64 bytes, then eight times more each time
# up to 256 KiB: a short run reads little), per place of a token's four bytes: a slice, a translate
# to 0 for a byte of that place's kind and 1 otherwise, a find.
_WINDOW, _MAX_WINDOW = 64, 1 << 18
_CHUNK = 1 << 15  # bytes of a run with null pointers per _null_pointers call (four-byte tokens)
_NOT_LEAD = bytes(not 0x81 <= b <= 0xFE for b in range(256))
_NOT_DIGIT = bytes(not 0x30 <= b <= 0x39 for b in range(256))
# A four-byte token read as a big-endian 32-bit integer orders as its pointer; the first tokens
# whose pointer is null ("> 39419 and < 189000, or > 1237575"), pointers 39420 and 1237576, and
# the first after the first run of them (pointer 189000).
_NULL_FROM, _NULL_TO, _NULL_AGAIN = 0x8431A530, 0x90308130, 0xE3329A36


def four_byte_run(data: bytes, i: int, fixed: bool = True) -> tuple[str, int] | None:
    """``(text, end)`` of the run of four-byte tokens from token boundary *i* (two or more, else
    ``None``), at C speed: CPython's gb18030 codec decodes every four-byte token as the standard
    does but 0x81 0x35 0xF4 0x37 (pointer 7457: U+E7C7, CPython's U+1E3F, which no other four-byte
    token gives) and rejects exactly the null pointers (tests/oracles/test_decoder_fast_path.py
    checks every four-byte token); those become U+FFFD (:func:`_null_pointers`). *fixed* ``False``:
    pointer 7457 as CPython's U+1E3F, for a decoder on CPython's gb18030 codec, whose fixes swap
    U+1E3F and U+E7C7 in its whole text (the bulk's too). Its plain twin is :func:`step` on each
    token."""
    if data[i + 5:i + 6].translate(_NOT_DIGIT) != b"\0":  # (no second token: the cheapest answer)
        return None
    count, size = 0, _WINDOW
    while True:
        window = data[i + 4 * count:i + 4 * count + size]
        tokens = len(window) // 4
        for place, kind in enumerate((_NOT_LEAD, _NOT_DIGIT, _NOT_LEAD, _NOT_DIGIT)):
            other = window[place::4][:tokens].translate(kind).find(1)
            if other >= 0:
                tokens = other
        count += tokens
        if tokens < size // 4:  # (a byte of another kind, or the end of the input)
            break
        size = min(8 * size, _MAX_WINDOW)
    if count < 2:
        return None
    run = data[i:i + 4 * count]
    try:
        text = run.decode("gb18030")
    except UnicodeDecodeError:  # (32 KiB at a time: the integers stay in the processor's cache)
        text = "".join([_null_pointers(run[k:k + _CHUNK]) for k in range(0, len(run), _CHUNK)])
    return (text.replace("\u1e3f", "\ue7c7") if fixed else text), i + 4 * count


def _null_pointers(run: bytes) -> str:
    """:func:`four_byte_run`'s text of *run* (four-byte tokens only) where some pointers are null:
    each token a 32-bit lane of one integer, each lane whose pointer is null set to 0x01 0x01 0x01
    0x01 (four characters U+0001 that no four-byte token gives, replaced by one U+FFFD), the rest
    decoded by CPython's gb18030 codec."""
    lanes, count = int.from_bytes(run, "big"), len(run) // 4
    high = int.from_bytes(b"\x80\0\0\0" * count, "big")

    def at_least(bound: int) -> int:
        # Bit 31 of each lane that is *bound* or more: a lane's bit 31 is set (a first byte 0x81 or
        # above), so a lane less *bound* with bit 31 cleared borrows nothing from the next lane.
        return (lanes - int.from_bytes((bound - 0x80000000).to_bytes(4, "big") * count, "big")) & high

    null = (at_least(_NULL_FROM) & ~at_least(_NULL_TO)) | at_least(_NULL_AGAIN)
    whole = (null << 1) - (null >> 31)  # 0xFFFFFFFF in each null lane
    marked = lanes ^ ((lanes ^ int.from_bytes(b"\x01" * len(run), "big")) & whole)
    return marked.to_bytes(len(run), "big").decode("gb18030").replace("\x01\x01\x01\x01", "\ufffd")


# 0x80 and 0xFF at a token's start (§10.2.1 steps 7 and 9: U+20AC, error) and a first byte then 0xFF
# (step 5: an error of both bytes, 0xFF being no ASCII byte) are errors of CPython's gb18030 codec,
# each an error handler call: where they are dense (random bytes, 0x80 between pairs), each is
# made one ASCII byte the input lacks first (:func:`mark_singles`).
_MARKS = b"\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1c\x1d\x1e\x1f"
_DENSE = 256  # bytes per 0x80 or 0xFF below which a decode marks them first (else the handler takes each)
_SINGLES_CHUNK = 1 << 16  # bytes per lane integer (at least: a chunk ends after a byte 0x80 or 0xFF)
_FIRSTS = bytes(0xFF if 0x81 <= b <= 0xFE else 0 for b in range(256))


@functools.lru_cache(maxsize=4)
def _flips(euro: int, error: int) -> bytes:
    """A bytes.translate table: 0x80 to 0x80 ^ *euro*, 0xFF to 0xFF ^ *error* (the XOR that makes each
    its mark; bit 6 set for 0xFF's only, the marks being below 0x20), any other byte to 0."""
    return bytes(0x80 ^ euro if b == 0x80 else 0xFF ^ error if b == 0xFF else 0 for b in range(256))


@functools.lru_cache(maxsize=4)
def _marked(euro: int, error: int) -> bytes:
    """A bytes.translate table: 0x80 to *euro*, 0xFF to *error*, any other byte to itself."""
    return bytes(euro if b == 0x80 else error if b == 0xFF else b for b in range(256))


def mark_singles(data: bytes, shortcut: bool = True) -> tuple[bytes, tuple[tuple[str, str], ...]] | None:
    """*data* (from a token boundary) with each token 0x80 one byte *euro*, each token 0xFF or a first
    byte then 0xFF one byte *error* (three bytes *data* lacks: those two and one deleted), and
    ``((chr(euro), "\u20ac"), (chr(error), "\ufffd"))``; ``None`` where *data* has every byte of
    _MARKS but two. The other tokens are kept: a mark, as the byte it stands for, is one token
    whatever follows and ends a pending token (restored, §10.2.1 steps 3 to 5) as that byte did.

    A byte 0x80 or 0xFF is the trail of a pair where its first byte starts a token, else a token:
    as neither is ever a four-byte token's (steps 5, 4 and 3 want 0x30–0x39, 0x81–0xFE, 0x30–0x39), each is
    followed by a token boundary, and the stretch of bytes 0x81–0xFE before it starts at one
    (after any other byte, a token's last or one alone, but a four-byte token's second, whose third
    is followed by a digit): it is pairs from its start. Its first bytes that start a token are at
    even places from the stretch's start, found for all stretches at once on the bytes as 8-bit lanes
    of one integer (a 1 added at each stretch that begins at an even lane carries through it), a
    chunk at a time (each ends after a byte 0x80 or 0xFF). The plain twin (*shortcut* false) walks
    the tokens with :func:`step`."""
    free = bytes(itertools.islice((mark for mark in _MARKS if mark not in data), 3))
    if len(free) < 3:
        return None
    euro, error, deleted = free
    marks = (chr(euro), "\u20ac"), (chr(error), "\ufffd")
    out = bytearray()
    if not shortcut:
        i, n = 0, len(data)
        while i < n:
            end = step(data, i)[1]
            if data[i] == 0x80:
                out.append(euro)
            elif data[i] == 0xFF or data[i + 1:end] == b"\xff":
                out.append(error)
            else:
                out += data[i:end]
            i = end
        return bytes(out), marks
    flips, start, n = _flips(euro, error), 0, len(data)
    while start < n:
        end = start + _SINGLES_CHUNK
        if end < n:  # (after the last 0x80 or 0xFF of the chunk, else after the next one)
            cut = max(data.rfind(b"\x80", start, end), data.rfind(b"\xff", start, end))
            if cut < start:
                cut = min((found for found in (data.find(b"\x80", end), data.find(b"\xff", end)) if found >= 0),
                          default=n - 1)
            end = cut + 1
        chunk = data[start:end]
        size = len(chunk)
        ones, even, odd, _, _ = lane_masks(max(_SINGLES_CHUNK, size))  # (lanes past the chunk: 0 in each "and")
        if size < _SINGLES_CHUNK:  # (a short input: the masks cut to it, no product or "xor" of 64 Ki lanes)
            low = (1 << 8 * size) - 1
            ones, even, odd = ones & low, even & low, odd & low
        firsts = int.from_bytes(chunk.translate(_FIRSTS), "little")  # 0xFF at each byte 0x81-0xFE
        if not firsts:  # each 0x80 and 0xFF is a token
            out += chunk.translate(_marked(euro, error))
            start = end
            continue
        begins = (firsts ^ (firsts & (firsts << 8))) & even
        from_even = firsts ^ (firsts & (firsts + begins))  # the stretches that begin at an even lane
        trails = (firsts & (from_even ^ odd)) << 8  # 0xFF after each first byte that starts a token
        flip = int.from_bytes(chunk.translate(flips), "little")
        kept = flip & trails  # 0x80 and 0xFF that are trails
        lanes = int.from_bytes(chunk, "little") ^ flip ^ kept
        pairs = ((kept & ones * 0x40) >> 6) * 0xFF  # 0xFF at each trail 0xFF
        if pairs:  # its first byte the error's mark, itself deleted
            firsts_of = pairs >> 8
            lanes = (lanes | firsts_of) ^ (firsts_of & ones * (0xFF ^ error)) ^ (pairs & ones * (0xFF ^ deleted))
            out += lanes.to_bytes(size, "little").translate(None, bytes((deleted,)))
        else:
            out += lanes.to_bytes(size, "little")
        start = end
    return bytes(out), marks


def _dense_singles(data: bytes) -> str | None:
    """The text of *data* (from a token boundary) where 0x80 and 0xFF are dense (FastDecoder's
    *dense*): :func:`mark_singles`, then the decoder on CPython's gb18030 codec, which rejects no
    pair (GBK rejects the standard's pairs of Private Use code points, 8% of random pairs); else
    ``None`` (the handler takes each)."""
    if b"\x80" not in data and b"\xff" not in data or (
            data.count(b"\x80") + data.count(b"\xff")) * _DENSE < len(data):
        return None
    marked = mark_singles(data)
    if marked is None:
        return None
    text = _decoder(dense=True)(marked[0])
    for mark, char in marked[1]:
        text = text.replace(mark, char)
    return text


# Encoder side table (§10.2.2 step 5): Private Use code points kept on their GB18030-2005 bytes.
_PUA_TWO_BYTES = {
    0xE78D: b"\xa6\xd9", 0xE78E: b"\xa6\xda", 0xE78F: b"\xa6\xdb", 0xE790: b"\xa6\xdc",
    0xE791: b"\xa6\xdd", 0xE792: b"\xa6\xde", 0xE793: b"\xa6\xdf", 0xE794: b"\xa6\xec",
    0xE795: b"\xa6\xed", 0xE796: b"\xa6\xf3", 0xE81E: b"\xfe\x59", 0xE826: b"\xfe\x61",
    0xE82B: b"\xfe\x66", 0xE82C: b"\xfe\x67", 0xE832: b"\xfe\x6d", 0xE843: b"\xfe\x7e",
    0xE854: b"\xfe\x90", 0xE864: b"\xfe\xa0",
}


@functools.cache
def _two_byte_table(is_gbk: bool) -> dict[str, bytes]:
    """Code point -> bytes for every non-ASCII code point the gb18030 encoder encodes in fewer
    than four bytes (§10.2.2 steps 3–7)."""
    table = {}
    for char, pointer in indexes.pointers("gb18030").items():
        trailing = pointer % 190
        table[char] = bytes((pointer // 190 + 0x81, trailing + (0x40 if trailing < 0x3F else 0x41)))
    table.update({chr(c): b for c, b in _PUA_TWO_BYTES.items()})
    table.pop("\ue5e5", None)  # step 3: U+E5E5 is an error
    if is_gbk:
        table["\u20ac"] = b"\x80"
    return table


def _four_bytes(code_point: int) -> bytes:
    """§10.2.2 steps 9–16: the four-byte form via index gb18030 ranges pointer."""
    pointer = indexes.gb18030_ranges_pointer(code_point)
    b1, pointer = divmod(pointer, 12600)
    b2, pointer = divmod(pointer, 1260)
    b3, b4 = divmod(pointer, 10)
    return bytes((b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30))


def _gb18030_encoder() -> Encoder:
    def encode(text: str) -> bytes:
        if text.isascii():
            return text.encode("ascii")
        get = _two_byte_table(False).get  # built on the first non-ASCII encode
        out: list[bytes] = []
        for c in text:
            if c < "\x80":
                out.append(c.encode("ascii"))
            elif "\ud800" <= c <= "\udfff":
                out.append(_four_bytes(0xFFFD))  # a lone surrogate is U+FFFD, which gb18030 encodes
            else:
                b = get(c)
                out.append(b if b is not None else (
                    html_error_mode(c) if c == "\ue5e5" else _four_bytes(ord(c))))
        return b"".join(out)

    return encode


@functools.cache
def _decoder(dense: bool = False) -> FastDecoder:
    from .tables.multi_byte_fixes import FIXES

    # A token's bytes: four when the second byte is 0x30–0x39 (§10.2.1 step 5).
    # (GBK rejects every four-byte token: their runs are decoded by four_byte_run; CPython's
    # gb18030, where dense, only those of null pointers, at their first byte.)
    if dense:
        return FastDecoder("gb18030-dense", "gb18030", step, *FIXES["gb18030/gb18030"], reach=lambda lead: 4,
                           bulk=functools.partial(four_byte_run, fixed=False))
    return FastDecoder("gb18030", "gbk", step, *FIXES["gb18030"], reach=lambda lead: 4, bulk=four_byte_run,
                       dense=_dense_singles, four=lambda: _decoder(dense=True), compiled=compiled.decoder("gb18030"))


def codec(name: str) -> Codec:
    """(decode, encode) for "gb18030" or "GBK": GBK's decoder is gb18030's (§10.1.1)."""
    encode = table_encoder(lambda: _two_byte_table(True)) if name == "GBK" else _gb18030_encoder()
    return _decoder(), encode
