"""EUC-KR (Encoding Standard §13)."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from . import compiled, indexes
from .multi_byte import FastDecoder, table_encoder

if TYPE_CHECKING:
    from ._typing import Codec


def step(data: bytes, i: int) -> tuple[str, int]:
    """The EUC-KR decoder's handler (§13.1.1) from its initial state for the token at data[i]."""
    leading = data[i]
    if leading < 0x80:
        return chr(leading), i + 1
    if leading == 0x80 or leading == 0xFF:
        return "\ufffd", i + 1
    if i + 1 >= len(data):
        return "\ufffd", i + 1
    byte = data[i + 1]
    if 0x41 <= byte <= 0xFE:
        code_point = indexes.code_point("euc-kr", (leading - 0x81) * 190 + byte - 0x41)
        if code_point is not None:
            return code_point, i + 2
    return "\ufffd", i + 1 if byte < 0x80 else i + 2  # an ASCII byte is restored


@functools.cache
def _encoder_table() -> dict[str, bytes]:
    """§13.1.2: index pointer in index EUC-KR as two bytes."""
    return {char: bytes((pointer // 190 + 0x81, pointer % 190 + 0x41))
            for char, pointer in indexes.pointers("euc-kr").items()}


def codec(name: str) -> Codec:
    """(decode, encode) for EUC-KR."""
    from .tables.multi_byte_fixes import FIXES

    return (FastDecoder("EUC-KR", "cp949", step, *FIXES["EUC-KR"], compiled=compiled.decoder("EUC-KR")),
            table_encoder(_encoder_table))
