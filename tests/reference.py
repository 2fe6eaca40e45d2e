"""A spec-literal REFERENCE implementation of the WHATWG Encoding Standard, for tests only.

Written straight from the steps of the Encoding Standard (https://encoding.spec.whatwg.org/): slow and obviously correct.
It shares no code with the package; it reads ``tests/data/whatwg-encoding/index-*.txt`` itself,
parsed as the "Indexes" section says. Step numbers in comments refer to the standard's steps.

- :func:`ref_decode` ``(name, data: bytes) -> str``: "process a queue" with the encoding's decoder,
  error mode "replacement", input followed by end-of-queue (no BOM handling).
- :func:`ref_encode` ``(name, text: str) -> bytes``: "process a queue" with the encoding's encoder,
  error mode "html"; *text* is first made a scalar value string (lone surrogates -> U+FFFD).
  Raises ``ValueError`` for replacement, UTF-16BE and UTF-16LE, which have no encoder.

*name* is the encoding's name exactly as the standard spells it (e.g. ``"Shift_JIS"``).
"""
from __future__ import annotations

import bisect
import functools
import json
import pathlib

DATA = pathlib.Path(__file__).resolve().parent / "data" / "whatwg-encoding"


# --- Terminology: I/O queues --------------------------------------------------------------------

class _EndOfQueue:
    def __repr__(self):
        return "end-of-queue"


END_OF_QUEUE = _EndOfQueue()
FINISHED = "finished"
CONTINUE = "continue"


class Error:
    """The handler result "error", optionally with a code point."""

    __slots__ = ("code_point",)

    def __init__(self, code_point=None):
        self.code_point = code_point


ERROR = Error()


class IOQueue:
    """An I/O queue in immediate mode: the items followed by end-of-queue.

    Stored back to front (``_rev[-1]`` is ioQueue[0]) so that "read" and "restore" -- both of
    which work at the front of the list -- are list operations at the end of a Python list.
    """

    def __init__(self, items):
        self._rev = [END_OF_QUEUE]
        self._rev.extend(reversed(list(items)))

    def read(self):
        # "read": if ioQueue[0] is end-of-queue return it (it stays); else remove and return it.
        item = self._rev[-1]
        if item is END_OF_QUEUE:
            return item
        return self._rev.pop()

    def restore(self, items):
        # "restore" a list of items: insert them, in the given order, before the first item.
        assert END_OF_QUEUE not in items
        self._rev.extend(reversed(items))


class OutputQueue:
    """An output I/O queue; "push" appends (nothing is pushed after end-of-queue here)."""

    def __init__(self):
        self.items = []

    def push(self, item):
        if self.items and self.items[-1] is END_OF_QUEUE:
            if item is END_OF_QUEUE:
                return
            self.items.insert(len(self.items) - 1, item)
        else:
            self.items.append(item)

    def convert(self):
        # "convert" from an I/O queue: read items until end-of-queue.
        return [item for item in self.items if item is not END_OF_QUEUE]


# --- Encoders and decoders: process a queue / process an item -----------------------------------

def process_queue(coder, input_queue, output, mode):
    """Process a queue (§4.1): read items until the handler's result is not "continue"."""
    while True:
        result = process_item(input_queue.read(), coder, input_queue, output, mode)
        if result is not CONTINUE:
            return result


def process_item(item, coder, input_queue, output, mode):
    """Process an item (§4.1). Handlers return FINISHED, CONTINUE, an Error, an int (one item)
    or a tuple of ints (several items)."""
    assert not (coder.is_encoder and mode == "replacement")
    assert not (not coder.is_encoder and mode == "html")
    assert not (coder.is_encoder and isinstance(item, int) and 0xD800 <= item <= 0xDFFF)
    result = coder.handler(input_queue, item)
    if result is FINISHED:
        output.push(END_OF_QUEUE)
        return result
    if isinstance(result, int):
        assert coder.is_encoder or not 0xD800 <= result <= 0xDFFF
        output.push(result)
    elif isinstance(result, tuple):
        for one in result:
            assert coder.is_encoder or not 0xD800 <= one <= 0xDFFF
            output.push(one)
    elif isinstance(result, Error):
        if mode == "replacement":
            output.push(0xFFFD)
        elif mode == "html":
            for byte in b"&#%d;" % result.code_point:
                output.push(byte)
        else:  # "fatal"
            return result
    else:
        assert result is CONTINUE
    return CONTINUE


# --- Indexes ------------------------------------------------------------------------------------

@functools.cache
def read_index(file_name: str) -> tuple:
    """The (pointer, code point) entries of an index file, in file order (§5 "Indexes"): split the
    contents on LF, drop empty lines and lines starting with "#", split each on TAB; the first
    subitem is the pointer (decimal), the second the code point (hexadecimal)."""
    text = (DATA / file_name).read_text(encoding="utf-8")
    entries = []
    for line in text.split("\n"):
        if line == "" or line.startswith("#"):
            continue
        fields = line.split("\t")
        entries.append((int(fields[0], 10), int(fields[1], 16)))
    return tuple(entries)


@functools.cache
def index_code_points(file_name: str) -> dict:
    """pointer -> code point ("index code point"; absent means null)."""
    return dict(read_index(file_name))


@functools.cache
def index_pointers(file_name: str, exclude=None) -> dict:
    """code point -> the *first* pointer for it ("index pointer"), skipping pointers for which
    ``exclude(pointer)`` is true."""
    first = {}
    for pointer, code_point in read_index(file_name):
        if exclude is not None and exclude(pointer):
            continue
        first.setdefault(code_point, pointer)
    return first


def index_code_point(file_name, pointer):
    return index_code_points(file_name).get(pointer)


def index_pointer(file_name, code_point):
    return index_pointers(file_name).get(code_point)


@functools.cache
def _ranges():
    entries = read_index("index-gb18030-ranges.txt")
    return [p for p, _ in entries], [c for _, c in entries]


def index_gb18030_ranges_code_point(pointer):
    # 1. If pointer > 39419 and < 189000, or pointer > 1237575, return null.
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    # 2. If pointer is 7457, return U+E7C7.
    if pointer == 7457:
        return 0xE7C7
    # 3. offset: the last pointer in the index that is <= pointer.
    pointers, code_points = _ranges()
    i = bisect.bisect_right(pointers, pointer) - 1
    offset, code_point_offset = pointers[i], code_points[i]
    # 4.
    return code_point_offset + pointer - offset


def index_gb18030_ranges_pointer(code_point):
    # 1. U+E7C7 -> 7457.
    if code_point == 0xE7C7:
        return 7457
    # 2. offset: the last code point in the index that is <= code point.
    pointers, code_points = _ranges()
    i = bisect.bisect_right(code_points, code_point) - 1
    offset, pointer_offset = code_points[i], pointers[i]
    # 3.
    return pointer_offset + code_point - offset


def index_shift_jis_pointer(code_point):
    # index jis0208 excluding the entries whose pointer is in 8272..8835; then "index pointer".
    return index_pointers("index-jis0208.txt", _sjis_excluded).get(code_point)


def _sjis_excluded(pointer):
    return 8272 <= pointer <= 8835


def _big5_excluded(pointer):
    return pointer < (0xA1 - 0x81) * 157


_BIG5_LAST = frozenset({0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345})


@functools.cache
def _big5_last_pointers():
    last = {}
    for pointer, code_point in read_index("index-big5.txt"):
        if not _big5_excluded(pointer) and code_point in _BIG5_LAST:
            last[code_point] = pointer
    return last


def index_big5_pointer(code_point):
    # 1. index Big5 without pointers < (0xA1 - 0x81) * 157.
    # 2. For six code points, the *last* pointer.
    if code_point in _BIG5_LAST:
        return _big5_last_pointers().get(code_point)
    # 3. Otherwise the index pointer (the first one).
    return index_pointers("index-big5.txt", _big5_excluded).get(code_point)


def _is_ascii(value):
    return isinstance(value, int) and value <= 0x7F


# --- UTF-8 --------------------------------------------------------------------------------------

class UTF8Decoder:
    is_encoder = False

    def __init__(self):
        self.code_point = 0
        self.bytes_seen = 0
        self.bytes_needed = 0
        self.lower = 0x80
        self.upper = 0xBF

    def handler(self, queue, byte):
        # 1./2.
        if byte is END_OF_QUEUE and self.bytes_needed != 0:
            self.bytes_needed = 0
            return ERROR
        if byte is END_OF_QUEUE:
            return FINISHED
        # 3.
        if self.bytes_needed == 0:
            if byte <= 0x7F:
                return byte
            if 0xC2 <= byte <= 0xDF:
                self.bytes_needed = 1
                self.code_point = byte & 0x1F
            elif 0xE0 <= byte <= 0xEF:
                if byte == 0xE0:
                    self.lower = 0xA0
                if byte == 0xED:
                    self.upper = 0x9F
                self.bytes_needed = 2
                self.code_point = byte & 0xF
            elif 0xF0 <= byte <= 0xF4:
                if byte == 0xF0:
                    self.lower = 0x90
                if byte == 0xF4:
                    self.upper = 0x8F
                self.bytes_needed = 3
                self.code_point = byte & 0x7
            else:
                return ERROR
            return CONTINUE
        # 4.
        if not self.lower <= byte <= self.upper:
            self.code_point = self.bytes_needed = self.bytes_seen = 0
            self.lower, self.upper = 0x80, 0xBF
            queue.restore([byte])
            return ERROR
        # 5.-11.
        self.lower, self.upper = 0x80, 0xBF
        self.code_point = (self.code_point << 6) | (byte & 0x3F)
        self.bytes_seen += 1
        if self.bytes_seen != self.bytes_needed:
            return CONTINUE
        code_point = self.code_point
        self.code_point = self.bytes_needed = self.bytes_seen = 0
        return code_point


class UTF8Encoder:
    is_encoder = True

    def handler(self, queue, code_point):
        if code_point is END_OF_QUEUE:
            return FINISHED
        if code_point <= 0x7F:
            return code_point
        if code_point <= 0x7FF:
            count, offset = 1, 0xC0
        elif code_point <= 0xFFFF:
            count, offset = 2, 0xE0
        else:
            count, offset = 3, 0xF0
        out = [(code_point >> (6 * count)) + offset]
        while count > 0:
            temp = code_point >> (6 * (count - 1))
            out.append(0x80 | (temp & 0x3F))
            count -= 1
        return tuple(out)


# --- Single-byte encodings ----------------------------------------------------------------------

def _single_byte_index(name):
    # ISO-8859-8-I shares ISO-8859-8's index.
    if name == "ISO-8859-8-I":
        name = "ISO-8859-8"
    return f"index-{name.lower()}.txt"


class SingleByteDecoder:
    is_encoder = False

    def __init__(self, name):
        self.index = _single_byte_index(name)

    def handler(self, queue, byte):
        if byte is END_OF_QUEUE:
            return FINISHED
        if byte <= 0x7F:
            return byte
        code_point = index_code_point(self.index, byte - 0x80)
        if code_point is None:
            return ERROR
        return code_point


class SingleByteEncoder:
    is_encoder = True

    def __init__(self, name):
        self.index = _single_byte_index(name)

    def handler(self, queue, code_point):
        if code_point is END_OF_QUEUE:
            return FINISHED
        if code_point <= 0x7F:
            return code_point
        pointer = index_pointer(self.index, code_point)
        if pointer is None:
            return Error(code_point)
        return pointer + 0x80


# --- gb18030 (and GBK) --------------------------------------------------------------------------

class GB18030Decoder:
    is_encoder = False

    def __init__(self):
        self.first = self.second = self.third = 0x00

    def handler(self, queue, byte):
        # 1./2.
        if byte is END_OF_QUEUE and self.first == self.second == self.third == 0x00:
            return FINISHED
        if byte is END_OF_QUEUE:
            self.first = self.second = self.third = 0x00
            return ERROR
        # 3.
        if self.third != 0x00:
            if not 0x30 <= byte <= 0x39:
                queue.restore([self.second, self.third, byte])
                self.first = self.second = self.third = 0x00
                return ERROR
            code_point = index_gb18030_ranges_code_point(
                (self.first - 0x81) * (10 * 126 * 10) + (self.second - 0x30) * (10 * 126)
                + (self.third - 0x81) * 10 + byte - 0x30)
            self.first = self.second = self.third = 0x00
            if code_point is None:
                return ERROR
            return code_point
        # 4.
        if self.second != 0x00:
            if 0x81 <= byte <= 0xFE:
                self.third = byte
                return CONTINUE
            queue.restore([self.second, byte])
            self.first = self.second = 0x00
            return ERROR
        # 5.
        if self.first != 0x00:
            if 0x30 <= byte <= 0x39:
                self.second = byte
                return CONTINUE
            leading = self.first
            self.first = 0x00
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x41
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 190 + (byte - offset)
            code_point = None if pointer is None else index_code_point("index-gb18030.txt", pointer)
            if code_point is not None:
                return code_point
            if byte <= 0x7F:
                queue.restore([byte])
            return ERROR
        # 6.-9.
        if byte <= 0x7F:
            return byte
        if byte == 0x80:
            return 0x20AC
        if 0x81 <= byte <= 0xFE:
            self.first = byte
            return CONTINUE
        return ERROR


GB18030_ENCODER_TABLE = {
    0xE78D: (0xA6, 0xD9), 0xE78E: (0xA6, 0xDA), 0xE78F: (0xA6, 0xDB), 0xE790: (0xA6, 0xDC),
    0xE791: (0xA6, 0xDD), 0xE792: (0xA6, 0xDE), 0xE793: (0xA6, 0xDF), 0xE794: (0xA6, 0xEC),
    0xE795: (0xA6, 0xED), 0xE796: (0xA6, 0xF3), 0xE81E: (0xFE, 0x59), 0xE826: (0xFE, 0x61),
    0xE82B: (0xFE, 0x66), 0xE82C: (0xFE, 0x67), 0xE832: (0xFE, 0x6D), 0xE843: (0xFE, 0x7E),
    0xE854: (0xFE, 0x90), 0xE864: (0xFE, 0xA0),
}


class GB18030Encoder:
    is_encoder = True

    def __init__(self, is_gbk=False):
        self.is_gbk = is_gbk

    def handler(self, queue, code_point):
        if code_point is END_OF_QUEUE:
            return FINISHED
        if code_point <= 0x7F:
            return code_point
        if code_point == 0xE5E5:
            return Error(code_point)
        if self.is_gbk and code_point == 0x20AC:
            return 0x80
        if code_point in GB18030_ENCODER_TABLE:
            return GB18030_ENCODER_TABLE[code_point]
        pointer = index_pointer("index-gb18030.txt", code_point)
        if pointer is not None:
            leading = pointer // 190 + 0x81
            trailing = pointer % 190
            offset = 0x40 if trailing < 0x3F else 0x41
            return (leading, trailing + offset)
        if self.is_gbk:
            return Error(code_point)
        pointer = index_gb18030_ranges_pointer(code_point)
        byte1 = pointer // (10 * 126 * 10)
        pointer = pointer % (10 * 126 * 10)
        byte2 = pointer // (10 * 126)
        pointer = pointer % (10 * 126)
        byte3 = pointer // 10
        byte4 = pointer % 10
        return (byte1 + 0x81, byte2 + 0x30, byte3 + 0x81, byte4 + 0x30)


# --- Big5 ---------------------------------------------------------------------------------------

_BIG5_PAIRS = {1133: (0x00CA, 0x0304), 1135: (0x00CA, 0x030C),
               1164: (0x00EA, 0x0304), 1166: (0x00EA, 0x030C)}


class Big5Decoder:
    is_encoder = False

    def __init__(self):
        self.leading = 0x00

    def handler(self, queue, byte):
        if byte is END_OF_QUEUE and self.leading != 0x00:
            self.leading = 0x00
            return ERROR
        if byte is END_OF_QUEUE:
            return FINISHED
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x62
            if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 157 + (byte - offset)
            if pointer in _BIG5_PAIRS:
                return _BIG5_PAIRS[pointer]
            code_point = None if pointer is None else index_code_point("index-big5.txt", pointer)
            if code_point is not None:
                return code_point
            if byte <= 0x7F:
                queue.restore([byte])
            return ERROR
        if byte <= 0x7F:
            return byte
        if 0x81 <= byte <= 0xFE:
            self.leading = byte
            return CONTINUE
        return ERROR


class Big5Encoder:
    is_encoder = True

    def handler(self, queue, code_point):
        if code_point is END_OF_QUEUE:
            return FINISHED
        if code_point <= 0x7F:
            return code_point
        pointer = index_big5_pointer(code_point)
        if pointer is None:
            return Error(code_point)
        leading = pointer // 157 + 0x81
        trailing = pointer % 157
        offset = 0x40 if trailing < 0x3F else 0x62
        return (leading, trailing + offset)


# --- EUC-JP -------------------------------------------------------------------------------------

class EUCJPDecoder:
    is_encoder = False

    def __init__(self):
        self.jis0212 = False
        self.leading = 0x00

    def handler(self, queue, byte):
        # 1./2.
        if byte is END_OF_QUEUE and self.leading != 0x00:
            self.leading = 0x00
            return ERROR
        if byte is END_OF_QUEUE:
            return FINISHED
        # 3.
        if self.leading == 0x8E and 0xA1 <= byte <= 0xDF:
            self.leading = 0x00
            return 0xFF61 - 0xA1 + byte
        # 4.
        if self.leading == 0x8F and 0xA1 <= byte <= 0xFE:
            self.jis0212 = True
            self.leading = byte
            return CONTINUE
        # 5.
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            code_point = None
            if 0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE:
                index = "index-jis0212.txt" if self.jis0212 else "index-jis0208.txt"
                code_point = index_code_point(index, (leading - 0xA1) * 94 + byte - 0xA1)
            self.jis0212 = False
            if code_point is not None:
                return code_point
            if byte <= 0x7F:
                queue.restore([byte])
            return ERROR
        # 6.-8.
        if byte <= 0x7F:
            return byte
        if byte in (0x8E, 0x8F) or 0xA1 <= byte <= 0xFE:
            self.leading = byte
            return CONTINUE
        return ERROR


class EUCJPEncoder:
    is_encoder = True

    def handler(self, queue, code_point):
        if code_point is END_OF_QUEUE:
            return FINISHED
        if code_point <= 0x7F:
            return code_point
        if code_point == 0xA5:
            return 0x5C
        if code_point == 0x203E:
            return 0x7E
        if 0xFF61 <= code_point <= 0xFF9F:
            return (0x8E, code_point - 0xFF61 + 0xA1)
        if code_point == 0x2212:
            code_point = 0xFF0D
        pointer = index_pointer("index-jis0208.txt", code_point)
        if pointer is None:
            return Error(code_point)
        return (pointer // 94 + 0xA1, pointer % 94 + 0xA1)


# --- ISO-2022-JP --------------------------------------------------------------------------------

ASCII, ROMAN, KATAKANA, LEADING_BYTE, TRAILING_BYTE, ESCAPE_START, ESCAPE = (
    "ASCII", "Roman", "katakana", "leading byte", "trailing byte", "escape start", "escape")


class ISO2022JPDecoder:
    is_encoder = False

    def __init__(self):
        self.state = ASCII
        self.output_state = ASCII
        self.leading = 0x00
        self.output = False

    def handler(self, queue, byte):
        state = self.state
        eoq = byte is END_OF_QUEUE
        if state == ASCII:
            if byte == 0x1B:
                self.state = ESCAPE_START
                return CONTINUE
            if not eoq and byte <= 0x7F and byte not in (0x0E, 0x0F):
                self.output = False
                return byte
            if eoq:
                return FINISHED
            self.output = False
            return ERROR
        if state == ROMAN:
            if byte == 0x1B:
                self.state = ESCAPE_START
                return CONTINUE
            if byte == 0x5C:
                self.output = False
                return 0x00A5
            if byte == 0x7E:
                self.output = False
                return 0x203E
            if not eoq and byte <= 0x7F and byte not in (0x0E, 0x0F):
                self.output = False
                return byte
            if eoq:
                return FINISHED
            self.output = False
            return ERROR
        if state == KATAKANA:
            if byte == 0x1B:
                self.state = ESCAPE_START
                return CONTINUE
            if not eoq and 0x21 <= byte <= 0x5F:
                self.output = False
                return 0xFF61 - 0x21 + byte
            if eoq:
                return FINISHED
            self.output = False
            return ERROR
        if state == LEADING_BYTE:
            if byte == 0x1B:
                self.state = ESCAPE_START
                return CONTINUE
            if not eoq and 0x21 <= byte <= 0x7E:
                self.output = False
                self.leading = byte
                self.state = TRAILING_BYTE
                return CONTINUE
            if eoq:
                return FINISHED
            self.output = False
            return ERROR
        if state == TRAILING_BYTE:
            if byte == 0x1B:
                self.state = ESCAPE_START
                return ERROR
            if not eoq and 0x21 <= byte <= 0x7E:
                self.state = LEADING_BYTE
                pointer = (self.leading - 0x21) * 94 + byte - 0x21
                code_point = index_code_point("index-jis0208.txt", pointer)
                if code_point is None:
                    return ERROR
                return code_point
            # end-of-queue and "otherwise" both go back to leading byte with an error.
            self.state = LEADING_BYTE
            return ERROR
        if state == ESCAPE_START:
            # 1.
            if byte in (0x24, 0x28):
                self.leading = byte
                self.state = ESCAPE
                return CONTINUE
            # 2.
            if not eoq:
                queue.restore([byte])
            # 3.
            self.output = False
            self.state = self.output_state
            return ERROR
        assert state == ESCAPE
        # 1.-2.
        leading = self.leading
        self.leading = 0x00
        new_state = None
        # 3.-6.
        if leading == 0x28 and byte == 0x42:
            new_state = ASCII
        if leading == 0x28 and byte == 0x4A:
            new_state = ROMAN
        if leading == 0x28 and byte == 0x49:
            new_state = KATAKANA
        if leading == 0x24 and byte in (0x40, 0x42):
            new_state = LEADING_BYTE
        # 7.
        if new_state is not None:
            self.state = self.output_state = new_state
            output = self.output
            self.output = True
            return CONTINUE if output is False else ERROR
        # 8.
        if eoq:
            queue.restore([leading])
        else:
            queue.restore([leading, byte])
        # 9.
        self.output = False
        self.state = self.output_state
        return ERROR


class ISO2022JPEncoder:
    is_encoder = True

    def __init__(self):
        self.state = ASCII  # ASCII, Roman or "jis0208"

    def handler(self, queue, code_point):
        # 1./2.
        if code_point is END_OF_QUEUE and self.state != ASCII:
            self.state = ASCII
            return (0x1B, 0x28, 0x42)
        if code_point is END_OF_QUEUE:
            return FINISHED
        # 3.
        if self.state in (ASCII, ROMAN) and code_point in (0x0E, 0x0F, 0x1B):
            return Error(0xFFFD)
        # 4.
        if self.state == ASCII and code_point <= 0x7F:
            return code_point
        # 5.
        if self.state == ROMAN and (
                (code_point <= 0x7F and code_point not in (0x5C, 0x7E))
                or code_point in (0xA5, 0x203E)):
            if code_point <= 0x7F:
                return code_point
            if code_point == 0xA5:
                return 0x5C
            if code_point == 0x203E:
                return 0x7E
        # 6.
        if code_point <= 0x7F and self.state != ASCII:
            queue.restore([code_point])
            self.state = ASCII
            return (0x1B, 0x28, 0x42)
        # 7.
        if code_point in (0xA5, 0x203E) and self.state != ROMAN:
            queue.restore([code_point])
            self.state = ROMAN
            return (0x1B, 0x28, 0x4A)
        # 8.
        if code_point == 0x2212:
            code_point = 0xFF0D
        # 9.
        if 0xFF61 <= code_point <= 0xFF9F:
            code_point = index_code_point("index-iso-2022-jp-katakana.txt", code_point - 0xFF61)
        # 10.
        pointer = index_pointer("index-jis0208.txt", code_point)
        # 11.
        if pointer is None:
            if self.state == "jis0208":
                queue.restore([code_point])
                self.state = ASCII
                return (0x1B, 0x28, 0x42)
            return Error(code_point)
        # 12.
        if self.state != "jis0208":
            queue.restore([code_point])
            self.state = "jis0208"
            return (0x1B, 0x24, 0x42)
        # 13.-15.
        return (pointer // 94 + 0x21, pointer % 94 + 0x21)


# --- Shift_JIS ----------------------------------------------------------------------------------

class ShiftJISDecoder:
    is_encoder = False

    def __init__(self):
        self.leading = 0x00

    def handler(self, queue, byte):
        if byte is END_OF_QUEUE and self.leading != 0x00:
            self.leading = 0x00
            return ERROR
        if byte is END_OF_QUEUE:
            return FINISHED
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x41
            leading_offset = 0x81 if leading < 0xA0 else 0xC1
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:
                pointer = (leading - leading_offset) * 188 + byte - offset
            if pointer is not None and 8836 <= pointer <= 10715:
                return 0xE000 - 8836 + pointer
            code_point = None if pointer is None else index_code_point("index-jis0208.txt", pointer)
            if code_point is not None:
                return code_point
            if byte <= 0x7F:
                queue.restore([byte])
            return ERROR
        if byte <= 0x80:
            return byte
        if 0xA1 <= byte <= 0xDF:
            return 0xFF61 - 0xA1 + byte
        if 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC:
            self.leading = byte
            return CONTINUE
        return ERROR


class ShiftJISEncoder:
    is_encoder = True

    def handler(self, queue, code_point):
        if code_point is END_OF_QUEUE:
            return FINISHED
        if code_point <= 0x80:
            return code_point
        if code_point == 0xA5:
            return 0x5C
        if code_point == 0x203E:
            return 0x7E
        if 0xFF61 <= code_point <= 0xFF9F:
            return code_point - 0xFF61 + 0xA1
        if code_point == 0x2212:
            code_point = 0xFF0D
        pointer = index_shift_jis_pointer(code_point)
        if pointer is None:
            return Error(code_point)
        leading = pointer // 188
        leading_offset = 0x81 if leading < 0x1F else 0xC1
        trailing = pointer % 188
        offset = 0x40 if trailing < 0x3F else 0x41
        return (leading + leading_offset, trailing + offset)


# --- EUC-KR -------------------------------------------------------------------------------------

class EUCKRDecoder:
    is_encoder = False

    def __init__(self):
        self.leading = 0x00

    def handler(self, queue, byte):
        if byte is END_OF_QUEUE and self.leading != 0x00:
            self.leading = 0x00
            return ERROR
        if byte is END_OF_QUEUE:
            return FINISHED
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            pointer = None
            if 0x41 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 190 + (byte - 0x41)
            code_point = None if pointer is None else index_code_point("index-euc-kr.txt", pointer)
            if code_point is not None:
                return code_point
            if byte <= 0x7F:
                queue.restore([byte])
            return ERROR
        if byte <= 0x7F:
            return byte
        if 0x81 <= byte <= 0xFE:
            self.leading = byte
            return CONTINUE
        return ERROR


class EUCKREncoder:
    is_encoder = True

    def handler(self, queue, code_point):
        if code_point is END_OF_QUEUE:
            return FINISHED
        if code_point <= 0x7F:
            return code_point
        pointer = index_pointer("index-euc-kr.txt", code_point)
        if pointer is None:
            return Error(code_point)
        return (pointer // 190 + 0x81, pointer % 190 + 0x41)


# --- replacement, UTF-16BE/LE, x-user-defined ---------------------------------------------------

class ReplacementDecoder:
    is_encoder = False

    def __init__(self):
        self.error_returned = False

    def handler(self, queue, byte):
        if byte is END_OF_QUEUE:
            return FINISHED
        if not self.error_returned:
            self.error_returned = True
            return ERROR
        return FINISHED


class UTF16Decoder:
    is_encoder = False

    def __init__(self, is_be):
        self.leading_byte = None
        self.leading_surrogate = None
        self.is_be = is_be

    def handler(self, queue, byte):
        # 1./2.
        if byte is END_OF_QUEUE and (self.leading_byte is not None
                                     or self.leading_surrogate is not None):
            self.leading_byte = self.leading_surrogate = None
            return ERROR
        if byte is END_OF_QUEUE:
            return FINISHED
        # 3.
        if self.leading_byte is None:
            self.leading_byte = byte
            return CONTINUE
        # 4./5.
        if self.is_be:
            code_unit = (self.leading_byte << 8) + byte
        else:
            code_unit = (byte << 8) + self.leading_byte
        self.leading_byte = None
        # 6.
        if self.leading_surrogate is not None:
            leading_surrogate = self.leading_surrogate
            self.leading_surrogate = None
            if 0xDC00 <= code_unit <= 0xDFFF:
                return 0x10000 + ((leading_surrogate - 0xD800) << 10) + (code_unit - 0xDC00)
            byte1 = code_unit >> 8
            byte2 = code_unit & 0x00FF
            queue.restore([byte1, byte2] if self.is_be else [byte2, byte1])
            return ERROR
        # 7.-9.
        if 0xD800 <= code_unit <= 0xDBFF:
            self.leading_surrogate = code_unit
            return CONTINUE
        if 0xDC00 <= code_unit <= 0xDFFF:
            return ERROR
        return code_unit


class XUserDefinedDecoder:
    is_encoder = False

    def handler(self, queue, byte):
        if byte is END_OF_QUEUE:
            return FINISHED
        if byte <= 0x7F:
            return byte
        return 0xF780 + byte - 0x80


class XUserDefinedEncoder:
    is_encoder = True

    def handler(self, queue, code_point):
        if code_point is END_OF_QUEUE:
            return FINISHED
        if code_point <= 0x7F:
            return code_point
        if 0xF780 <= code_point <= 0xF7FF:
            return code_point - 0xF780 + 0x80
        return Error(code_point)


# --- Entry points -------------------------------------------------------------------------------

@functools.cache
def encoding_names() -> tuple:
    """The 40 encoding names of encodings.json, in the standard's order."""
    groups = json.loads((DATA / "encodings.json").read_text(encoding="utf-8"))
    return tuple(e["name"] for group in groups for e in group["encodings"])


_MULTI_BYTE = {"UTF-8", "GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR",
               "replacement", "UTF-16BE", "UTF-16LE", "x-user-defined"}
NO_ENCODER = frozenset({"replacement", "UTF-16BE", "UTF-16LE"})


def new_decoder(name):
    """A new decoder instance for the encoding *name*."""
    if name not in encoding_names():
        raise ValueError(f"not an encoding name: {name!r}")
    factories = {
        "UTF-8": UTF8Decoder, "GBK": GB18030Decoder, "gb18030": GB18030Decoder,
        "Big5": Big5Decoder, "EUC-JP": EUCJPDecoder, "ISO-2022-JP": ISO2022JPDecoder,
        "Shift_JIS": ShiftJISDecoder, "EUC-KR": EUCKRDecoder, "replacement": ReplacementDecoder,
        "UTF-16BE": lambda: UTF16Decoder(True), "UTF-16LE": lambda: UTF16Decoder(False),
        "x-user-defined": XUserDefinedDecoder,
    }
    if name in factories:
        return factories[name]()
    return SingleByteDecoder(name)


def new_encoder(name):
    """A new encoder instance for the encoding *name*; ValueError if it has none."""
    if name not in encoding_names() or name in NO_ENCODER:
        raise ValueError(f"no encoder for {name!r}")
    factories = {
        "UTF-8": UTF8Encoder, "GBK": lambda: GB18030Encoder(is_gbk=True),
        "gb18030": GB18030Encoder, "Big5": Big5Encoder, "EUC-JP": EUCJPEncoder,
        "ISO-2022-JP": ISO2022JPEncoder, "Shift_JIS": ShiftJISEncoder, "EUC-KR": EUCKREncoder,
        "x-user-defined": XUserDefinedEncoder,
    }
    if name in factories:
        return factories[name]()
    return SingleByteEncoder(name)


def ref_decode(name: str, data: bytes) -> str:
    """Run *name*'s decoder over *data* followed by end-of-queue, error mode "replacement"."""
    output = OutputQueue()
    process_queue(new_decoder(name), IOQueue(bytes(data)), output, "replacement")
    return "".join(map(chr, output.convert()))


def scalar_values(text: str) -> list:
    """*text* as scalar values: each surrogate code point becomes U+FFFD (lone surrogates)."""
    return [0xFFFD if 0xD800 <= ord(c) <= 0xDFFF else ord(c) for c in text]


def ref_encode(name: str, text: str) -> bytes:
    """Run *name*'s encoder over *text* (as scalar values) followed by end-of-queue, error mode
    "html". ValueError for an encoding without an encoder."""
    output = OutputQueue()
    process_queue(new_encoder(name), IOQueue(scalar_values(text)), output, "html")
    return bytes(output.convert())
