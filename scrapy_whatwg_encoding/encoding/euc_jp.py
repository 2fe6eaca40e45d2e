"""EUC-JP (Encoding Standard §12.1)."""
from __future__ import annotations

import codecs
import functools
from typing import TYPE_CHECKING

from . import compiled, indexes
from .multi_byte import MARK, FastDecoder, Rejected, SplitMarks, lane_masks, table_encoder

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


def _shift_jis(pairs: bytes) -> bytearray:
    """*pairs* (pairs of bytes 0xA1–0xFE, one after another) as the Shift_JIS bytes of their pointers."""
    leads, trails = pairs[0::2], pairs[1::2]
    cells = (int.from_bytes(trails, "little") - int.from_bytes(leads.translate(_EVEN_ROW), "little")
             ).to_bytes(len(trails), "little")  # (each trail 0xA1 or above: no borrow)
    sjis = bytearray(len(pairs))
    sjis[0::2], sjis[1::2] = leads.translate(_SJIS_LEAD), cells.translate(_SJIS_BYTE)
    return sjis


# lacking_pairs' error handler: a pair of bytes 0xA1-0xFE whose pointer is null is one error (§12.1.1), U+FFFD.
_NULL_PAIR = "whatwg-euc-jp-null-pair"


def _null_pair(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return "\ufffd", exc.start + 2


codecs.register_error(_NULL_PAIR, _null_pair)


def lacking_pairs(pairs: bytes) -> str:
    """The text of *pairs* (pairs of bytes 0xA1–0xFE, one after another, each a token: decode_run's
    *rejected*, rows 13 and 89–92, which CPython's euc_jp lacks), one character each: as the Shift_JIS
    bytes of their pointers decoded by CPython's cp932, which decodes each as the standard does and
    rejects exactly the null pointers (each then U+FFFD; tests/oracles/test_decoder_fast_path.py)."""
    return _shift_jis(pairs).decode("cp932", _NULL_PAIR)


def pairs_run(data: bytes, i: int) -> tuple[str, int] | None:
    """``(text, end)`` of the tokens from token boundary *i* (a pair of bytes 0xA1–0xFE) up to the
    first the standard decodes as an error, where they are two or more (else ``None``): the pairs of
    bytes 0xA1–0xFE and, where the pairs CPython's euc_jp lacks are dense among them
    (:func:`_mixed_run`), the ASCII bytes between them, at C speed. Each pair as the Shift_JIS bytes of
    its pointer, decoded by CPython's cp932, which decodes each such pair as the standard does, rows 13
    and 89–92 too (NEC's and IBM's, which CPython's euc_jp lacks), and rejects exactly the null pointers
    (tests/oracles/test_decoder_fast_path.py checks every pair), and each ASCII byte as itself. Its
    plain twin is the decoder without it (FastDecoder's *bulk*: the step at each such token)."""
    parts: list[str] = []
    end, size = i, _WINDOW
    if data[i + 2:i + 4].translate(_NOT_HIGH) == b"\0\0":  # (pairs only, a second pair first: no lanes)
        while True:
            window = data[end:end + size]
            other = window.translate(_NOT_HIGH).find(1)
            run = window[:(len(window) if other < 0 else other) // 2 * 2]
            text = _shift_jis(run).decode("cp932", _STOP)
            parts.append(text)
            end += 2 * len(text)
            if 2 * len(text) < size:  # (a null pointer, a byte of another kind, or the end of the input)
                break
            size = min(8 * size, _MAX_WINDOW)
    if end < len(data) and (end == i or data[end] < 0x80):  # (no second pair, or an ASCII byte next)
        mixed = _mixed_run(data, end)
        if mixed is not None:
            parts.append(mixed[0])
            end = mixed[1]
    return ("".join(parts), end) if end - i >= 3 else None


# _mixed_run's first test reads _PROBE bytes: no byte of another kind in the first _CLEAR of them (random
# bytes: one in four), and _DENSE_PAIRS bytes that may be leading bytes of pairs CPython lacks. A window
# with fewer such pairs than one per _SPARSE bytes in its first _SAMPLE bytes ends the run (a page with a
# few: the C codec's error handler calls cost less than the windows).
_PROBE, _CLEAR, _DENSE_PAIRS, _SPARSE, _SAMPLE = 64, 16, 3, 32, 4096
_HIGH_FF = bytes(0xFF if 0xA1 <= b <= 0xFE else 0 for b in range(256))


@functools.cache
def _kinds() -> bytes:
    """A bytes.translate table: a leading byte of a pair that CPython's euc_jp rejects and the standard
    decodes (rows 13 and 89-92, ...) to 1, a byte that is neither ASCII nor 0xA1–0xFE to 2, else 0."""
    leads = set()
    for lead in range(0xA1, 0xFF):
        row = [bytes((lead, trail)) for trail in range(0xA1, 0xFF)]
        for pair, text in zip(row, b" ".join(row).decode("euc_jp", "replace").split(" ")):
            if text[:1] == "\ufffd" and step(pair, 0)[0] != "\ufffd":
                leads.add(lead)
                break
    return bytes(1 if b in leads else 0 if b < 0x80 or 0xA1 <= b <= 0xFE else 2 for b in range(256))


def _mixed_run(data: bytes, i: int) -> tuple[str, int] | None:
    """``(text, end)`` of the pairs of bytes 0xA1–0xFE and ASCII bytes from token boundary *i* on, up
    to the first token the standard decodes otherwise (an error, a byte of another kind) or a window
    in which the pairs CPython's euc_jp lacks are sparse; ``None`` where the first _PROBE bytes do not
    look dense with them. In windows, each byte a lane of 8 bits of an integer: a stretch of bytes
    0xA1–0xFE from a boundary is pairs (a 1 added where it begins at an even lane carries through it),
    up to a leading byte without its trail; each pair's bytes as Shift_JIS's (the trail less 0x80 in an
    even row, each through its table), ASCII bytes as they are, one cp932 decode."""
    kinds = _kinds()
    probe = data[i:i + _PROBE].translate(kinds)
    if probe.find(2, 0, _CLEAR) >= 0 or probe.count(1) < _DENSE_PAIRS:
        return None
    n, parts, end, size = len(data), [], i, _WINDOW
    while end < n:
        window = data[end:end + size + 1]  # (one byte more: a pair across the edge)
        inside = min(size, n - end)
        kinded = window.translate(kinds)
        cut = kinded.find(2, 0, inside)
        if cut >= 0:  # (the run ends there; a leading byte before it has no pair with it: a stop below)
            window, kinded, inside = window[:cut], kinded[:cut], cut
        if not inside:
            break
        _, even, odd, _, _ = lane_masks(size + 1)  # (lanes past the window: 0 in every "and")
        lanes = int.from_bytes(window, "little")
        high = int.from_bytes(window.translate(_HIGH_FF), "little")
        begins = (high ^ (high & (high << 8))) & even  # a 1 where a stretch begins at an even lane
        from_even = high ^ (high & (high + begins))  # the stretches a carry went through
        starts = high & (from_even ^ odd)  # 0xFF where a pair starts
        if len(window) > inside:  # (none at the byte past the window)
            starts &= (1 << 8 * inside) - 1
        lone = starts ^ (starts & (high >> 8))  # a leading byte without its trail: an error, a stop
        took = ((lone & -lone).bit_length() - 1) // 8 if lone else inside + ((starts >> 8 * (inside - 1)) & 1)
        kept = (1 << 8 * took) - 1
        if took < len(window):
            starts &= kept
            lanes &= kept
        adjusted = lanes - ((int.from_bytes(window.translate(_EVEN_ROW), "little") & starts) << 8)  # (the trails
        # of even rows less 0x80: no borrow)
        cells = adjusted.to_bytes(took, "little")
        sjis = ((int.from_bytes(cells.translate(_SJIS_LEAD), "little") & starts)
                | (int.from_bytes(cells.translate(_SJIS_BYTE), "little") & (starts << 8))
                | (adjusted ^ (adjusted & high))).to_bytes(took, "little")
        try:
            parts.append(sjis.decode("cp932"))
        except UnicodeDecodeError as exc:  # (a null pointer: the run ends before it)
            parts.append(sjis[:exc.start].decode("cp932"))
            return "".join(parts), end + exc.start
        end += took
        sample = min(took, _SAMPLE)  # (the window's first bytes: a count over all of it costs a tenth of it)
        lacking = int.from_bytes(kinded[:sample], "little") & starts  # (0x01 at each)
        if cut >= 0 or took < inside or lacking.bit_count() * _SPARSE < sample:
            break
        size = min(8 * size, _MAX_WINDOW)
    return ("".join(parts), end) if end > i else None


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


def decoder(name: str = "EUC-JP", drop: bytes = b"", compiled_decoder: bool = False) -> FastDecoder:
    """The EUC-JP decoder (its error handler registered under *name*; *drop* as FastDecoder's; with the
    compiled decoder where *compiled_decoder* and it is built, see :func:`.compiled.decoder`)."""
    from .tables.multi_byte_fixes import FIXES

    split, = FIXES["EUC-JP"][1]
    # The split token 0x8F 0xA2 0xB7 gives "~" in CPython, as "~" does: each "~" marked (MARK 0x02:
    # a byte 0x7E is "~" wherever it lies, restored after a leading byte, §12.1.1 step 5.7), the C
    # codec's "~" is a split token's that starts a token, and no other's (tests/oracles/test_split_marks.py).
    swap = ("~", step(split, 0)[0])
    marks = SplitMarks(lambda data: data.replace(b"~", MARK + b"\x02"), (swap, (MARK.decode() + "\x02", "~")), (swap,),
                       (b"~",))
    # (euc_jp rejects rows 13 and 89-92: in decode_run their pairs by cp932, lacking_pairs; their runs by pairs_run,
    # also in decode_run's C codec decodes, among the errors' placeholders)
    rejected = Rejected(_kinds().translate(bytes(0xFF if b == 1 else 0 for b in range(256))), lacking_pairs)
    return FastDecoder(name, "euc_jp", step, *FIXES["EUC-JP"], reach=lambda lead: 3 if lead == 0x8F else 2, drop=drop,
                       bulk=pairs_run, pair_run=pairs_run, marks=marks, rejected=rejected,
                       compiled=compiled.decoder("EUC-JP") if compiled_decoder else None)


def codec(name: str) -> Codec:
    """(decode, encode) for EUC-JP."""
    return decoder(compiled_decoder=True), table_encoder(_encoder_table)
