"""Big5 (Encoding Standard §11)."""
from __future__ import annotations

import codecs
import functools
from typing import TYPE_CHECKING, NamedTuple

from . import compiled, indexes
from .multi_byte import MARK, FastDecoder, SplitMarks, lane_masks, table_encoder

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
    trails: bytes  # a bytes.translate table: a trail byte to its place in a row (*beyond* outside the rows)
    leads_at: bytes  # a bytes.translate table: a slot to its pair's leading byte (0: an empty slot)
    trails_at: bytes  # likewise its trail byte
    texts: str  # a slot's code point (U+FFFE: an empty slot)
    pairs: frozenset[bytes]
    units: tuple[bytes, bytes, bytes, bytes]  # bytes.translate tables: a slot to its text's UTF-16 code units,
    # the first's low and high byte, the second's (U+FFFF after a code point below U+10000: deleted after)
    codes: bytes  # a bytes.translate table: a slot to its *code*, a byte 0x80-0xFE or one of *controls*
    controls: bytes  # the ASCII bytes that are codes (an input that holds one: no codes)
    code_texts: str  # a character for each byte: an ASCII byte's, a code's slot's text


_CONTROLS = b"\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f"


@functools.cache
def _lacking() -> _Lacking:
    """The pairs *step* decodes to one code point whatever follows that big5hkscs rejects, from *step*
    and the codec on every pair; slots by first fit, rows with most pairs first. A trail byte outside
    the rows' span has the place *beyond* it (no row's: a pair with it has a slot whose leading byte
    differs); codes 0x80-0xFE to the slots of the rows with most pairs, then ASCII control bytes."""
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
    beyond = high - low + 1
    rows: dict[int, list[int]] = {}
    for pair in texts:
        rows.setdefault(pair[0], []).append(pair[1] - low)
    offsets, used = bytearray(256), dict[int, bytes]()
    for lead, places in sorted(rows.items(), key=lambda row: (-len(row[1]), row[0])):
        offset = next(o for o in range(256 - beyond) if all(o + place not in used for place in places))
        offsets[lead] = offset
        used.update((offset + place, bytes((lead, low + place))) for place in places)
    # An empty slot's pair is 0x00 0x00 (leads_at, trails_at), whose slot (0: offsets give 0 outside the
    # rows, and 0x00 has the place beyond) is no empty one: no pair outside the slots compares equal.
    assert 0 in used and beyond in used and max(offsets) + beyond < 256
    slot_texts = "".join(texts[used[s]] if s in used else "\ufffe" for s in range(256))
    # (each slot's text as two UTF-16-LE code units, the second U+FFFF where the first is the code point)
    units = b"".join((text.encode("utf-16-le") + b"\xff\xff")[:4] for text in slot_texts)
    assert "\uffff" not in slot_texts and all(0x80 <= pair[1] for pair in texts)
    ranked = sorted(used, key=lambda s: (-len(rows[used[s][0]]), used[s]))  # (the rows with most pairs first)
    code_bytes = [*range(0x80, 0xFF), *_CONTROLS]
    assert len(ranked) <= len(code_bytes)
    codes, code_texts = bytearray(b"\xff" * 256), [chr(b) for b in range(256)]
    for slot, code in zip(ranked, code_bytes):
        codes[slot] = code
        code_texts[code] = slot_texts[slot]
    controls = bytes(code for code in _CONTROLS if code in codes)
    return _Lacking(bytes(offsets), bytes(b - low if low <= b <= high else beyond for b in range(256)),
                    bytes(used[s][0] if s in used else 0 for s in range(256)),
                    bytes(used[s][1] if s in used else 0 for s in range(256)),
                    slot_texts, frozenset(texts), (units[0::4], units[1::4], units[2::4], units[3::4]),
                    bytes(codes), controls, "".join(code_texts))


# lacking_run's tokens read one by one first, its first window in bytes and its largest (8 times each time)
_PROBE, _WINDOW, _MAX_WINDOW = 16, 128, 1 << 15


def lacking_run(data: bytes, i: int, shortcut: bool = True) -> tuple[str, int] | None:
    """``(text, end)`` of the tokens from token boundary *i* on that are each a pair CPython's big5hkscs
    rejects that the standard decodes (:func:`_lacking`, two bytes whatever follows) or an ASCII byte
    (§11.1.1 step 5: one token alone), the first a pair, the second a pair or an ASCII byte (then the end or
    a token of the run: random bytes give few runs of two, each a call); else ``None``. FastDecoder's
    *bulk* (a page of such pairs, or of such pairs among ASCII: one error handler call each otherwise) and
    its *pair_run*: in decode_run's C codec decodes, whose bytes are ASCII (U+FFFD's placeholders among
    them) and pairs, it takes such pairs among the placeholders at once (``\x87\xa1\xff`` repeated).

    At C speed: in windows, each byte a lane of 8 bits of an integer. A stretch of bytes 0x80 and above
    from a boundary is such pairs up to the first that is not: a pair starts at the stretch's even lanes
    (a 1 added where it begins at an even lane carries through it). Each lane's slot from its byte and
    the next (leading bytes and trails apart, added as integers); a start whose slot's leading byte is
    not its byte ends the run (a trail outside the slot's row has another row's place). The text: each
    pair's leading byte its slot's code, its trail deleted, one charmap decode; where the window holds an
    ASCII byte that is a code, each lane two UTF-16 code units' bytes instead, an ASCII byte's or its
    pair's by the slot (a trail's lane the second: a low surrogate, else U+FFFF, deleted), one decode. A
    window of bytes 0x80 and above only is pairs from its start, read as leading bytes and trails apart.
    Its plain twin (*shortcut* false): :func:`step` token by token while each is such a pair or an ASCII byte."""
    lacking = _lacking()
    pairs = lacking.pairs
    if not shortcut:
        parts, lengths, end, n = [], [], i, len(data)
        while end < n and (data[end] < 0x80 or data[end:end + 2] in pairs):
            text, after_token = step(data, end)
            parts.append(text)
            lengths.append(after_token - end)
            end = after_token
        if lengths[:1] != [2] or len(lengths) < 2 or lengths == [2, 1] and end < n:
            return None
        return "".join(parts), end
    after = data[i + 2:i + 5]  # (the cheapest answer first: random bytes' next token is another pair)
    if (after[1:2] >= b"\x80" and after[1:] not in pairs if after < b"\x80" else after[:2] not in pairs) \
            or not after or data[i:i + 2] not in pairs:
        return None
    n = len(data)
    parts, end, size = [], i, _WINDOW
    texts, offsets, trails = lacking.texts, lacking.offsets, lacking.trails
    mixed = False  # (whether ASCII was read: lanes, else pairs first)
    for _ in range(_PROBE):  # (a short run, random bytes': no windows)
        if end >= n:
            return "".join(parts), end
        if data[end] < 0x80:
            parts.append(chr(data[end]))
            end += 1
            mixed = True
        elif data[end:end + 2] in pairs:
            parts.append(texts[offsets[data[end]] + trails[data[end + 1]]])
            end += 2
        else:
            return "".join(parts), end
    while end < n:
        window = data[end:end + size + 1]  # (one byte more: a pair across the edge)
        inside = min(size, n - end)
        if not mixed:  # pairs from lane 0, each lane of two integers (an ASCII byte: no such pair)
            taken = window[:inside + 1]
            leads, seconds = taken[0:len(taken) & ~1:2], taken[1::2]
            count = len(seconds)
            slots = (int.from_bytes(leads.translate(offsets), "little")
                     + int.from_bytes(seconds.translate(trails), "little")).to_bytes(count, "little")
            same, slot_leads = count, slots.translate(lacking.leads_at)
            if slot_leads != leads:  # (the first pair that differs: the lowest lane)
                differ = int.from_bytes(slot_leads, "little") ^ int.from_bytes(leads, "little")
                same = ((differ & -differ).bit_length() - 1) // 8
            parts.append(codecs.charmap_decode(slots[:same], "strict", lacking.texts)[0])
            end += 2 * same
            if 2 * same < inside:  # (a pair of another kind, or ASCII: lanes from here, or a lone last byte)
                if data[end + 1:end + 2] >= b"\x80" and data[end] >= 0x80:
                    break
                mixed = True
            else:
                size = min(8 * size, _MAX_WINDOW)
            continue
        if window.isascii():
            parts.append(window[:inside].decode("ascii"))
            end += inside
            size = min(8 * size, _MAX_WINDOW)
            continue
        below = (1 << 8 * inside) - 1
        _, even, odd, eights, _ = lane_masks(size + 1)  # (lanes past the window: 0 in every "and")
        lanes = int.from_bytes(window, "little")
        high = ((lanes & eights) >> 7) * 0xFF  # 0xFF at bytes 0x80 and above
        begins = (high ^ (high & (high << 8))) & even  # a 1 where a stretch begins at an even lane
        from_even = high ^ (high & (high + begins))  # the stretches a carry went through
        starts = high & (from_even ^ odd) & below  # 0xFF where a pair starts
        next_bytes = window[1:] if len(window) > inside else window[1:] + b"\x00"  # (the end: no trail)
        slots = (int.from_bytes(window.translate(offsets), "little")
                 + int.from_bytes(next_bytes.translate(trails), "little")).to_bytes(len(window), "little")
        stops = (int.from_bytes(slots.translate(lacking.leads_at), "little") ^ lanes) & starts
        took = ((stops & -stops).bit_length() - 1) // 8 if stops else inside + ((starts >> 8 * (inside - 1)) & 1)
        kept = (1 << 8 * took) - 1
        starts &= kept
        trails_at = starts << 8  # (0xFF: each trail's lane, deleted)
        if len(window.translate(None, lacking.controls)) == len(window):  # (no ASCII byte that is a code)
            # (each start its code, each trail 0xFF: the bytes 0x80 and above are starts and trails)
            codes = int.from_bytes(slots.translate(lacking.codes), "little") | trails_at
            tokens = ((lanes ^ ((lanes ^ codes) & high)) & kept).to_bytes(took, "little").translate(None, b"\xff")
            parts.append(codecs.charmap_decode(tokens, "strict", lacking.code_texts)[0])
        else:
            first_lo, first_hi, second_lo, second_hi = lacking.units
            low_bytes = ((lanes & ~high & kept) | (int.from_bytes(slots.translate(first_lo), "little") & starts)
                         | ((int.from_bytes(slots.translate(second_lo), "little") << 8) & trails_at))
            high_bytes = ((int.from_bytes(slots.translate(first_hi), "little") & starts)
                          | ((int.from_bytes(slots.translate(second_hi), "little") << 8) & trails_at))
            units = bytearray(2 * took)
            units[0::2], units[1::2] = low_bytes.to_bytes(took, "little"), high_bytes.to_bytes(took, "little")
            parts.append(units.decode("utf-16-le").replace("\uffff", ""))
        end += took
        if stops:
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


_SPLITS = (b"\xa2\x41", b"\xa2\x42")  # CPython's text of each is another token's (tables/multi_byte_fixes.py)
_LEADING = bytes(0x81 <= b <= 0xFE for b in range(256))
_SPLIT_BYTES = bytes(1 if b == 0xA2 else 2 if b in (0x41, 0x42) else 0 for b in range(256))


def mark_splits(data: bytes) -> bytes:
    """*data* (MARK escaped, see :class:`.multi_byte.SplitMarks`) with each split token that starts
    a token (0xA2 0x41, 0xA2 0x42) as MARK 0x02, MARK 0x03; at C speed.

    A byte 0x81-0xFE is a leading byte whose token ends after the next byte, whatever it is (an
    ASCII byte it restores, §11.1.1 step 3.9, is a token of its own that ends there too), and every
    other byte is a token alone: in a run of leading bytes, tokens start at its first byte and every
    second one on. A split token's second byte is ASCII, so its 0xA2 ends a run; it starts a token
    where it is left alone when the run's bytes are paired from the run's start (bytes.replace pairs
    them so, leftmost first). The masks (a bit per byte) are ANDed as integers, big-endian: a byte's
    bits shifted left by 8 are the previous byte's place."""
    alone = int.from_bytes(data.translate(_LEADING).replace(b"\x01\x01", b"\x00\x00"), "big")
    pairs = int.from_bytes(data.translate(_SPLIT_BYTES), "big")  # bit 0: 0xA2, bit 1: 0x41 or 0x42
    at = alone & pairs & (pairs << 7)  # bit 0 where a lone 0xA2 has 0x41 or 0x42 next
    if not at:
        return data
    # 0xA2 to MARK, then 0x41 and 0x42 to 0x02 and 0x03 (no byte borrows from another)
    marked = int.from_bytes(data, "big") - ((at * ((0xA2 - MARK[0]) << 8 | 0x41 - 0x02)) >> 8)
    return marked.to_bytes(len(data), "big")


def codec(name: str) -> Codec:
    """(decode, encode) for Big5."""
    from .tables.multi_byte_fixes import FIXES

    assert FIXES["Big5"][1] == _SPLITS
    texts = [step(split, 0)[0] for split in _SPLITS]
    # (the rivals, 0xA1 0xFE and 0xA2 0x40, give the split tokens' characters in big5hkscs and the standard)
    marks = SplitMarks(mark_splits, tuple((MARK.decode() + chr(2 + k), text) for k, text in enumerate(texts)),
                       tuple(zip([str(split, "big5hkscs") for split in _SPLITS], texts)), (b"\xa1\xfe", b"\xa2\x40"))
    # (pages of pairs CPython lacks, among ASCII or errors)
    return (FastDecoder("Big5", "big5hkscs", step, *FIXES["Big5"], bulk=lacking_run, pair_run=lacking_run,
                        marks=marks, compiled=compiled.decoder("Big5")),
            table_encoder(_encoder_table))
