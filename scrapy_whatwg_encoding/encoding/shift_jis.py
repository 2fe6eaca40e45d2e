"""Shift_JIS (Encoding Standard §12.3)."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from . import compiled, indexes
from .multi_byte import FastDecoder, table_encoder

if TYPE_CHECKING:
    from ._typing import Codec


def step(data: bytes, i: int) -> tuple[str, int]:
    """The Shift_JIS decoder's handler (§12.3.1) from its initial state for the token at data[i]."""
    leading = data[i]
    if leading <= 0x80:
        return chr(leading), i + 1
    if 0xA1 <= leading <= 0xDF:
        return chr(0xFF61 - 0xA1 + leading), i + 1
    if leading == 0xA0 or leading >= 0xFD:
        return "\ufffd", i + 1
    if i + 1 >= len(data):
        return "\ufffd", i + 1
    byte = data[i + 1]
    if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:
        pointer = ((leading - (0x81 if leading < 0xA0 else 0xC1)) * 188 + byte
                   - (0x40 if byte < 0x7F else 0x41))
        if 8836 <= pointer <= 10715:  # EUDC: Private Use
            return chr(0xE000 - 8836 + pointer), i + 2
        code_point = indexes.code_point("jis0208", pointer)
        if code_point is not None:
            return code_point, i + 2
    return "\ufffd", i + 1 if byte < 0x80 else i + 2  # an ASCII byte is restored


@functools.cache
def _encoder_table() -> dict[str, bytes]:
    """§12.3.2: U+0080, U+00A5, U+203E and halfwidth katakana as one byte, U+2212 as U+FF0D, and
    the index Shift_JIS pointer (§5) as two bytes (EUDC Private Use is not encoded)."""
    table = {"\x80": b"\x80", "\u00a5": b"\x5c", "\u203e": b"\x7e"}
    table.update({chr(c): bytes((c - 0xFF61 + 0xA1,)) for c in range(0xFF61, 0xFFA0)})
    for char, pointer in indexes.pointers("jis0208", range(8272, 8836)).items():
        leading, trailing = divmod(pointer, 188)
        table.setdefault(char, bytes((leading + (0x81 if leading < 0x1F else 0xC1),
                                      trailing + (0x40 if trailing < 0x3F else 0x41))))
    table["\u2212"] = table["\uff0d"]
    return table


def codec(name: str) -> Codec:
    """(decode, encode) for Shift_JIS."""
    from .tables.multi_byte_fixes import FIXES

    return (FastDecoder("Shift_JIS", "cp932", step, *FIXES["Shift_JIS"], compiled=compiled.decoder("Shift_JIS")),
            table_encoder(_encoder_table))
