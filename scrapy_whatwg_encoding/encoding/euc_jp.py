"""EUC-JP (Encoding Standard §12.1)."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from . import indexes
from .multi_byte import FastDecoder, table_encoder

if TYPE_CHECKING:
    from ._typing import Codec


def step(data: bytes, i: int) -> tuple[str, int]:
    """The EUC-JP decoder's handler (§12.1.1) from its initial state for the token at data[i]."""
    leading = data[i]
    if leading < 0x80:
        return chr(leading), i + 1
    if not (leading in (0x8E, 0x8F) or 0xA1 <= leading <= 0xFE):
        return "\ufffd", i + 1
    n = len(data)
    if i + 1 >= n:
        return "\ufffd", n
    byte = data[i + 1]
    if leading == 0x8E and 0xA1 <= byte <= 0xDF:
        return chr(0xFF61 - 0xA1 + byte), i + 2
    index = "jis0208"
    if leading == 0x8F and 0xA1 <= byte <= 0xFE:  # JIS X 0212: one more byte
        index, leading, i = "jis0212", byte, i + 1
        if i + 1 >= n:
            return "\ufffd", n
        byte = data[i + 1]
    if 0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE:
        code_point = indexes.code_point(index, (leading - 0xA1) * 94 + byte - 0xA1)
        if code_point is not None:
            return code_point, i + 2
    return "\ufffd", i + 1 if byte < 0x80 else i + 2  # an ASCII byte is restored


@functools.cache
def _encoder_table() -> dict[str, bytes]:
    """§12.1.2: U+00A5/U+203E as 0x5C/0x7E, halfwidth katakana as 0x8E + byte, U+2212 as U+FF0D,
    and the index pointer in index jis0208 as two bytes (JIS X 0212 is never encoded)."""
    table = {"\u00a5": b"\x5c", "\u203e": b"\x7e"}
    table.update({chr(c): bytes((0x8E, c - 0xFF61 + 0xA1)) for c in range(0xFF61, 0xFFA0)})
    for char, pointer in indexes.pointers("jis0208").items():
        table.setdefault(char, bytes((pointer // 94 + 0xA1, pointer % 94 + 0xA1)))
    table["\u2212"] = table["\uff0d"]
    return table


def decoder(name: str = "EUC-JP", drop: bytes = b"") -> FastDecoder:
    """The EUC-JP decoder (its error handler registered under *name*; *drop* as FastDecoder's)."""
    from .tables.multi_byte_fixes import FIXES

    return FastDecoder(name, "euc_jp", step, *FIXES["EUC-JP"], reach=lambda lead: 3 if lead == 0x8F else 2, drop=drop)


def codec(name: str) -> Codec:
    """(decode, encode) for EUC-JP."""
    return decoder(), table_encoder(_encoder_table)
