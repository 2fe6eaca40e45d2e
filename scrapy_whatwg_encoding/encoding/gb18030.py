"""gb18030 and GBK (Encoding Standard §10): one decoder, two encoders ("is GBK")."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from . import indexes
from .multi_byte import FastDecoder, html_error_mode, table_encoder

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


def four_byte_run(data: bytes, i: int) -> tuple[str, int] | None:
    """``(text, end)`` of the run of four-byte tokens from token boundary *i* (two or more, else
    ``None``), at C speed: CPython's gb18030 codec decodes every four-byte token as the standard
    does but 0x81 0x35 0xF4 0x37 (pointer 7457: U+E7C7, CPython's U+1E3F, which no other four-byte
    token gives) and rejects exactly the null pointers (tests/oracles/test_decoder_fast_path.py
    checks every four-byte token); those become U+FFFD (:func:`_null_pointers`). Its plain twin is
    :func:`step` on each token."""
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
    return text.replace("\u1e3f", "\ue7c7"), i + 4 * count


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
def _decoder() -> FastDecoder:
    from .tables.multi_byte_fixes import FIXES

    # A token's bytes: four when the second byte is 0x30–0x39 (§10.2.1 step 5).
    # (GBK rejects every four-byte token: their runs are decoded by four_byte_run.)
    return FastDecoder("gb18030", "gbk", step, *FIXES["gb18030"], reach=lambda lead: 4, bulk=four_byte_run)


def codec(name: str) -> Codec:
    """(decode, encode) for "gb18030" or "GBK": GBK's decoder is gb18030's (§10.1.1)."""
    encode = table_encoder(lambda: _two_byte_table(True)) if name == "GBK" else _gb18030_encoder()
    return _decoder(), encode
