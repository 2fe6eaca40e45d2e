"""Big5 (Encoding Standard §11)."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from . import indexes
from .multi_byte import FastDecoder, table_encoder

if TYPE_CHECKING:
    from ._typing import Codec

# §11.1.1 step 3.6: pointers that decode to two code points.
_TWO_CODE_POINTS = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304",
                    1166: "\u00ea\u030c"}


def step(data: bytes, i: int) -> tuple[str, int]:
    """The Big5 decoder's handler (§11.1.1) from its initial state for the token at data[i]."""
    leading = data[i]
    if leading < 0x80:
        return chr(leading), i + 1
    if leading == 0x80 or leading == 0xFF:
        return "\ufffd", i + 1
    if i + 1 >= len(data):
        return "\ufffd", i + 1
    byte = data[i + 1]
    if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:
        pointer = (leading - 0x81) * 157 + byte - (0x40 if byte < 0x7F else 0x62)
        text = _TWO_CODE_POINTS.get(pointer) or indexes.code_point("big5", pointer)
        if text is not None:
            return text, i + 2
    return "\ufffd", i + 1 if byte < 0x80 else i + 2  # an ASCII byte is restored


@functools.cache
def _encoder_table() -> dict[str, bytes]:
    """Index Big5 pointer (§5) for every code point, as the encoder's two bytes (§11.1.2)."""
    hkscs = range((0xA1 - 0x81) * 157)  # excluded: not returned literally
    table = dict(indexes.pointers("big5", hkscs))
    # These code points use their *last* pointer.
    big5 = indexes.index("big5")
    for char in "\u2550\u255e\u2561\u256a\u5341\u5345":
        table[char] = big5.rindex(char)
    result = {}
    for char, pointer in table.items():
        trailing = pointer % 157
        result[char] = bytes((pointer // 157 + 0x81, trailing + (0x40 if trailing < 0x3F else 0x62)))
    return result


def codec(name: str) -> Codec:
    """(decode, encode) for Big5."""
    from .tables.multi_byte_fixes import FIXES

    return FastDecoder("Big5", "big5hkscs", step, *FIXES["Big5"]), table_encoder(_encoder_table)
