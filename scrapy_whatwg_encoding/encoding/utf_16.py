"""UTF-16BE and UTF-16LE (Encoding Standard §14.2–14.4): the shared UTF-16 decoder. CPython's
UTF-16 decoder reports the same errors (lone surrogates, an odd final byte); the tests check it
against the spec. They have no encoder: encoding uses their output encoding, UTF-8 (§4.3).

CPython's "replace" mode calls its error machinery once per lone surrogate (about 130 ns each: 4 ms
for 64 KiB of them); where surrogates are dense the lone ones are found with integer arithmetic on
the code units' high bytes as lanes and written as U+FFFD's code unit before one strict decode."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import utf_8

if TYPE_CHECKING:
    from ._typing import Buffer, Codec

_HIGH = bytes(0xD8 <= b <= 0xDB for b in range(256))  # a code unit's high byte: a leading surrogate
_LOW = bytes(0xDC <= b <= 0xDF for b in range(256))  # a trailing surrogate
_SURROGATES = bytes(range(0xD8, 0xE0))
_DENSE = 16  # code units per surrogate below which the lanes cost less than the error handler's calls (random
# bytes: one unit in 32 is a surrogate, and the calls cost less; lone surrogates repeated: 4.3 -> 0.26 ms at 64 KiB)


def codec(name: str) -> Codec:
    c_codec = "utf-16-be" if name == "UTF-16BE" else "utf-16-le"
    little = c_codec == "utf-16-le"

    def decode(data: Buffer, shortcut: bool = True) -> str:
        if shortcut:
            try:
                return str(data, c_codec)  # (no error: the common case, at C speed)
            except UnicodeDecodeError:
                data = bytes(data)
                highs = data[little::2][:len(data) // 2]  # each code unit's high byte
                if _DENSE * (len(highs) - len(highs.translate(None, _SURROGATES))) > len(highs):
                    return _dense(data, highs, little, c_codec)
        return str(data, c_codec, "replace")

    return decode, utf_8.encode


def _dense(data: bytes, highs: bytes, little: bool, c_codec: str) -> str:
    """The decoder's text of *data* (whose code units' high bytes are *highs*): each lone surrogate
    (§14.2.1: a leading one not followed by a trailing one, a trailing one not after a leading
    one) written as U+FFFD's code unit, then one strict decode; an odd final byte one U+FFFD more,
    but after a leading surrogate at the end (one error for both, at end-of-queue). Its plain twin
    is CPython's "replace" mode."""
    units = len(highs)
    high, low = int.from_bytes(highs.translate(_HIGH), "little"), int.from_bytes(highs.translate(_LOW), "little")
    paired = high & (low >> 8)  # (lanes: a 1 at each leading surrogate that a trailing one follows)
    lone = ((high | low) ^ (paired | (paired << 8))) * 0xFF
    fixed = bytearray(data[:2 * units])
    if lone:
        fixed[little::2] = (int.from_bytes(highs, "little") | lone).to_bytes(units, "little")  # 0xFF
        lows = fixed[1 - little::2]
        fixed[1 - little::2] = ((int.from_bytes(lows, "little") | lone) & ~(lone & _twos(units))).to_bytes(units, "little")
    text = fixed.decode(c_codec)
    if len(data) % 2 and not (units and (high >> 8 * (units - 1)) & 1):
        text += "\ufffd"
    return text


def _twos(units: int) -> int:
    """0x02 in each of *units* lanes (0xFF less it: 0xFD, U+FFFD's low byte)."""
    return int.from_bytes(b"\x02" * units, "little")
