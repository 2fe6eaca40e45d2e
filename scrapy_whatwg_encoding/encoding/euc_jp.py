"""EUC-JP (Encoding Standard §12.1)."""
from __future__ import annotations

import codecs
import functools
from typing import TYPE_CHECKING

from . import indexes
from .multi_byte import MARK, FastDecoder, SplitMarks, table_encoder

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


# Pairs of bytes 0xA1–0xFE (§12.1.1: each pair one token of two bytes, whatever the pointer) are
# found and decoded window by window (64 bytes, then eight times more each time up to 256 KiB).
_WINDOW, _MAX_WINDOW = 64, 1 << 18
_NOT_HIGH = bytes(not 0xA1 <= b <= 0xFE for b in range(256))
# An error handler that ends the decode at the first error (each pair being one character, the
# text's length tells where).
_STOP = "whatwg-euc-jp-pairs-stop"


def _stop(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return "", len(exc.object)


codecs.register_error(_STOP, _stop)
# The Shift_JIS bytes of each such pair's pointer (§13.2.1 step 3: pointer = (lead − offset) × 188 + byte
# − offset): a row 2k or 2k + 1 (EUC-JP lead 0xA1 + row) is lead 0x81 + k (0xC1 + k from 0xE0);
# the cell is the byte's offset, 94 more in odd rows (the byte as it is there, less 0x80 in even rows).
_EVEN_ROW = bytes(0x80 if 0xA1 <= b <= 0xFE and (b - 0xA1) % 2 == 0 else 0 for b in range(256))
_SJIS_LEAD = bytes(((b - 0xA1) // 2 + 0x81) + (0x40 if (b - 0xA1) // 2 + 0x81 >= 0xA0 else 0)
                   if 0xA1 <= b <= 0xFE else 0 for b in range(256))
_CELLS = [b - 0x21 if b < 0x80 else 94 + b - 0xA1 for b in range(256)]
_SJIS_BYTE = bytes(_CELLS[b] + (0x40 if _CELLS[b] < 0x3F else 0x41) if 0x21 <= b <= 0x7E or 0xA1 <= b <= 0xFE else 0
                   for b in range(256))


def pairs_run(data: bytes, i: int) -> tuple[str, int] | None:
    """``(text, end)`` of the pairs of bytes 0xA1–0xFE from token boundary *i* up to the first the
    standard decodes as an error (two or more, else ``None``), at C speed: each pair as the Shift_JIS
    bytes of its pointer, decoded by CPython's cp932, which decodes each such pair as the standard
    does, rows 13 and 89–92 too (NEC's and IBM's, which CPython's euc_jp lacks), and rejects exactly
    the null pointers (tests/oracles/test_decoder_fast_path.py checks every pair). Its plain twin is
    :func:`step` on each pair."""
    if data[i + 2:i + 4].translate(_NOT_HIGH) != b"\0\0":  # (no second pair: the cheapest answer)
        return None
    parts: list[str] = []
    end, size = i, _WINDOW
    while True:
        window = data[end:end + size]
        other = window.translate(_NOT_HIGH).find(1)
        run = window[:(len(window) if other < 0 else other) // 2 * 2]
        leads, trails = run[0::2], run[1::2]
        cells = (int.from_bytes(trails, "little") - int.from_bytes(leads.translate(_EVEN_ROW), "little")
                 ).to_bytes(len(trails), "little")  # (each trail 0xA1 or above: no borrow)
        sjis = bytearray(len(run))
        sjis[0::2], sjis[1::2] = leads.translate(_SJIS_LEAD), cells.translate(_SJIS_BYTE)
        text = sjis.decode("cp932", _STOP)
        parts.append(text)
        end += 2 * len(text)
        if 2 * len(text) < size:  # (a null pointer, a byte of another kind, or the end of the input)
            break
        size = min(8 * size, _MAX_WINDOW)
    return ("".join(parts), end) if end - i >= 4 else None


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

    split, = FIXES["EUC-JP"][1]
    # The split token 0x8F 0xA2 0xB7 gives "~" in CPython, as "~" does: each "~" marked (MARK 0x02:
    # a byte 0x7E is "~" wherever it lies, restored after a leading byte, §12.1.1 step 5.7), the C
    # codec's "~" is a split token's that starts a token, and no other's (tests/oracles/test_split_marks.py).
    swap = ("~", step(split, 0)[0])
    marks = SplitMarks(lambda data: data.replace(b"~", MARK + b"\x02"), (swap, (MARK.decode() + "\x02", "~")), (swap,),
                       (b"~",))
    return FastDecoder(name, "euc_jp", step, *FIXES["EUC-JP"], reach=lambda lead: 3 if lead == 0x8F else 2, drop=drop,
                       bulk=pairs_run, marks=marks)  # (euc_jp rejects rows 13 and 89-92: their runs by pairs_run)


def codec(name: str) -> Codec:
    """(decode, encode) for EUC-JP."""
    return decoder(), table_encoder(_encoder_table)
