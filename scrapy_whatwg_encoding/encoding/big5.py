"""Big5 (Encoding Standard §11)."""
from __future__ import annotations

import codecs
import functools
from typing import TYPE_CHECKING, NamedTuple

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


class _Lacking(NamedTuple):
    """The pairs of two bytes 0x80 and above that the standard decodes to one code point and CPython's
    big5hkscs rejects (HKSCS-2008's row 0x87, control pictures and the euro sign in row 0xA3, ...), each
    at a *slot* 0-255: ``offsets[lead] + trails[trail]`` (a byte each: their sum never carries)."""

    offsets: bytes  # a bytes.translate table: a leading byte to its row's offset
    trails: bytes  # a bytes.translate table: a trail byte to its place in a row (0 outside the rows)
    leads_at: bytes  # a bytes.translate table: a slot to its pair's leading byte (0: an empty slot)
    trails_at: bytes  # likewise its trail byte
    texts: str  # a slot's code point (U+FFFE: an empty slot)
    pairs: frozenset[bytes]


@functools.cache
def _lacking() -> _Lacking:
    """The pairs *step* decodes to one code point whatever follows that big5hkscs rejects, from *step*
    and the codec on every pair; slots by first fit, rows with most pairs first."""
    texts: dict[bytes, str] = {}
    for lead in range(0x80, 0x100):  # (a row's pairs, each then a space, in one decode: a rejected one gives
        # U+FFFD first, an accepted one never)
        row = [bytes((lead, trail)) for trail in range(0x80, 0x100)]
        for pair, codec_text in zip(row, b" ".join(row).decode("big5hkscs", "replace").split(" ")):
            if codec_text[:1] == "\ufffd":
                text, end = step(pair + b" ", 0)
                if end == 2 and text != "\ufffd" and len(text) == 1 and step(pair, 0) == (text, 2):
                    texts[pair] = text
    low, high = min(pair[1] for pair in texts), max(pair[1] for pair in texts)
    rows: dict[int, list[int]] = {}
    for pair in texts:
        rows.setdefault(pair[0], []).append(pair[1] - low)
    offsets, used = bytearray(256), dict[int, bytes]()
    for lead, places in sorted(rows.items(), key=lambda row: (-len(row[1]), row[0])):
        offset = next(o for o in range(256 - (high - low)) if all(o + place not in used for place in places))
        offsets[lead] = offset
        used.update((offset + place, bytes((lead, low + place))) for place in places)
    # An empty slot's pair is 0x00 0x00 (leads_at, trails_at), whose slot (0: offsets and trails give 0
    # outside the rows) is no empty one: no pair outside the slots compares equal.
    assert 0 in used
    return _Lacking(bytes(offsets), bytes(b - low if low <= b <= high else 0 for b in range(256)),
                    bytes(used[s][0] if s in used else 0 for s in range(256)),
                    bytes(used[s][1] if s in used else 0 for s in range(256)),
                    "".join(texts[used[s]] if s in used else "\ufffe" for s in range(256)), frozenset(texts))


_WINDOW, _MAX_WINDOW = 64, 1 << 16  # lacking_run's first window of pairs and its largest (8 times each time)


def lacking_run(data: bytes, i: int) -> tuple[str, int] | None:
    """``(text, end)`` of the pairs CPython's big5hkscs rejects that the standard decodes (:func:`_lacking`),
    one after another from token boundary *i* (each is one token of two bytes), two or more, else
    ``None``: FastDecoder's *bulk*, for a page of them (one error handler call each otherwise). At C speed:
    in windows, each pair's slot from its bytes (leading bytes and trails apart, added as integers), the
    slots' pairs compared with the bytes (the first pair that differs ends the run), the slots decoded by a
    charmap. Its plain twin is :func:`step` on each pair."""
    lacking = _lacking()
    if data[i + 2:i + 4] not in lacking.pairs or data[i:i + 2] not in lacking.pairs:  # (the cheapest answer)
        return None
    parts: list[str] = []
    end, size = i, _WINDOW
    while True:
        window = data[end:end + 2 * size]
        leads, trails = window[0:len(window) & ~1:2], window[1::2]
        count = len(trails)
        slots = (int.from_bytes(leads.translate(lacking.offsets), "little")
                 + int.from_bytes(trails.translate(lacking.trails), "little")).to_bytes(count, "little")
        slot_leads, slot_trails = slots.translate(lacking.leads_at), slots.translate(lacking.trails_at)
        same = count
        if slot_leads != leads or slot_trails != trails:  # (the first pair that differs: the lowest lane)
            differ = ((int.from_bytes(slot_leads, "little") ^ int.from_bytes(leads, "little"))
                      | (int.from_bytes(slot_trails, "little") ^ int.from_bytes(trails, "little")))
            same = ((differ & -differ).bit_length() - 1) // 8
        parts.append(codecs.charmap_decode(slots[:same], "strict", lacking.texts)[0])
        end += 2 * same
        if same < size:  # (a pair of another kind, or the end of the input)
            break
        size = min(8 * size, _MAX_WINDOW)
    return "".join(parts), end


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

    return (FastDecoder("Big5", "big5hkscs", step, *FIXES["Big5"], bulk=lacking_run),  # (a page of pairs CPython lacks)
            table_encoder(_encoder_table))
