"""Shared machinery of the multi-byte decoders and encoders (Encoding Standard §10–§13).

Where the package was built with its C extension, a decoder runs the compiled one (``compiled.py``,
``c_decoders.c``); what follows is its plain twin, the Python decoder (:meth:`FastDecoder.python`).
A decoder here runs at C speed on CPython's own CJK codec and stays exact: the standard's handler
steps are kept as a *step* function, ``step(data, i) -> (text, next_i)``, that decodes the one
token starting at ``data[i]`` from the decoder's initial state (including end-of-queue and
"restore" of bytes). The C codec's error handler calls *step*, so every error and every sequence
CPython rejects gets the standard's output and resumes exactly where the standard does; a page in
a wrong encoding repeats a few such tokens, so the handler caches *step*'s results by the bytes
it reads (tests/oracles/test_decoder_fast_path.py checks every leading byte with every next byte).
Where CPython's codec accepts a sequence but decodes it differently, ``tools/generate_tables.py``
listed those tokens (``tables/multi_byte_fixes.py``): a code point CPython produces only for such
tokens (*sources*) is translated afterwards (*fixes*); a token whose CPython output is ambiguous
(*splits*) is found in the bytes, checked to start at a token boundary, and decoded by *step*
between two C runs (a page of many: the C codec's text of the bytes with those marked at C speed,
see :meth:`FastDecoder.decode_splits`).

A run of errors (hostile or badly damaged input) is decoded in bulk: at an error, the handler
tokenizes at C speed up to the first token at which the standard does more than map single bytes
or give U+FFFD (see :func:`error_runs`, :func:`decode_run`: a stretch of leading bytes from a
token boundary is pairs, found with integer arithmetic on the bytes as lanes; a pair the index
leaves empty is told from a filled one by two bytes.translate tables per 7 rows of leading bytes)
and decodes the bytes before it with a byte-to-character table, or with the valid pairs in one
C codec call, so that the work stays a small constant per byte however dense the errors. Sparse
errors among valid pairs still cost one handler call each. Tokens the C codec rejects that the
standard decodes (gb18030's four bytes, EUC-JP's rows 13 and 89–92) stop those runs; a decoder's
*bulk* takes their own runs at C speed (see :class:`FastDecoder`).
"""
from __future__ import annotations

import codecs
import functools
import itertools
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ._typing import Buffer, Decoder, Encoder


# Bytes that no multi-byte decoder here consumes after a leading byte (each is restored and starts
# a token of its own): gb18030 and Shift_JIS trail bytes start at 0x40 (four-byte seconds and
# fourths are 0x30–0x39), Big5's at 0x40, EUC-KR's at 0x41, EUC-JP's at 0xA1.
_SYNC = (b"\n", b"<", b">", b" ", b'"', b"'", b"=", b"/")

_SPLIT_PROBES = 32  # places of a split token's first byte checked one by one
_CACHE_SIZE = 1024  # steps remembered per decoder (about 0.2 MB at most)
_FEW_ERRORS, _SKIP = 8, 64  # a run with fewer than 8 errors: the next 64 errors one by one
_FEW_BULK = 16  # a bulk run of fewer tokens: that token's next ones one by one (see FastDecoder._handler)
_MISSES = 4  # pair_errors' tries of pair_run in a row that miss, after which it waits _SKIP << _MISSES errors
# Bytes after a pair: a step that reads on (a gb18030 four-byte second, EUC-JP 0x8F then a byte)
# decides otherwise at the end of the input, or before a four-byte tail.
_AFTER = (b" ", b"", b"\xff", b"\x810\x810")

Step = Callable[[bytes, int], "tuple[str, int]"]
Bulk = Callable[[bytes, int], "tuple[str, int] | None"]
_ONE, _RUN, _BULK = 0, 1, 2  # what the handler does at a token: its step, decode_run, the decoder's bulk


class ErrorRuns(NamedTuple):
    """How a decoder's error handler decodes runs of errors in bulk (see :func:`error_runs`)."""

    stop: re.Pattern[bytes]  # matched at a token boundary: a token the classes do not decide
    flags: bytes  # a bytes.translate table: bit 0 a leading byte, 1 a live one, 2 a "maybe" byte, 4 a leading
    # byte whose tokens with a next byte 0x80 or above are two bytes, 5 and 3 a live leading byte in a row of
    # plane 0 and 1, 6 a "maybe" byte that is an error after some live leading byte, 7 0x80 and above
    end_stops: bool  # whether a leading byte at the end of the input is a stop
    canon: bytes  # a bytes.translate table: each byte that is U+FFFD as a token to the first leading byte
    table: str  # a character for each byte value
    mark: int  # a leading byte that canon leaves nowhere (decode_run marks pairs with it)
    stop_pairs: frozenset[bytes]  # each live leading byte with each next byte that *step* decides otherwise
    planes: tuple[tuple[bytes, bytes], ...]  # bytes.translate tables: a live leading byte's row, the rows
    # in which a next byte is an error (see :func:`error_runs`); two at most
    units: bytes  # a bytes.translate table: a leading byte to itself less 0x7F, any other byte to 0
    not_error_pair: re.Pattern[str]  # a UTF-16-BE code unit of two bytes that units gives: one holding a 0
    # (a byte that is no leading byte) or a stop pair's (see :func:`_error_pairs`)
    codec_errors: str = "strict"  # the C codec's error handler in decode_run (see :func:`pair_errors`)
    triples: dict[bytes, str] | None = None  # a stop of three bytes 0x80 and above whatever follows (EUC-JP
    # 0x8F then two): its text, where decode_run with the C codec goes on past it
    triple_ff: bytes = b""  # where the triples' first bytes are the live leading bytes not of bit 4 and
    # their second bytes the "maybe" bytes 0x80 and above (each with each, then each byte 0x80 and above): a
    # byte 0x80 or above that is 0xFF's like as every triple's third (0xFF marks trails in decode_run), else empty
    triple_firsts: tuple[bytes, ...] = ()  # those first bytes, where triple_ff is not empty
    empties: frozenset[bytes] = frozenset()  # each live leading byte of two bytes (bit 4) with each "maybe" byte
    # 0x80 and above that is no stop pair: an empty pointer, one U+FFFD for the two bytes
    empty_errors: str = "strict"  # codec_errors that also gives U+FFFD for each of *empties* (see :func:`codec_empties`)
    ascii_leads: frozenset[int] = frozenset()  # the live leading bytes of bit 4 whose stop pairs with an ASCII byte
    # are each two bytes whatever follows (Big5, Shift_JIS, EUC-KR; not gb18030's, whose 0x30-0x39 begin four)


def error_runs(step: Step, pair_run: Bulk | None = None) -> ErrorRuns:
    """Where the token boundaries of a run are known without the index, from *step* (the decoder's
    handler from its initial state, on every byte then every next byte):

    - a byte that is one token whatever follows ("alone": ASCII, an invalid leading byte,
      Shift_JIS katakana, gb18030 0x80) decodes to one character; any other byte is a leading byte;
    - a leading byte followed by a byte it restores (an ASCII byte, §4.1 "restore") with an error,
      or at the end of the input, is one U+FFFD; followed by a byte 0x80 or above that it consumes
      with an error, one U+FFFD for the two. A *dead* leading byte does one of these whatever
      follows (Big5 0x81-0x86, Shift_JIS 0x85); a *live* one does for every next byte but its
      *stop pairs*, after which *step* decides otherwise (a pointer in the index, or reading on):
      a stop pair ends the run (a stop), the C codec and *step* take it. A "maybe" byte is the next
      byte of some stop pair.

    A leading byte always consumes a next byte 0x80 or above and every other byte ends a token, so
    from a token boundary a stretch of leading bytes is pairs (see :func:`decode_run`). A byte after
    which *step* reads on (a gb18030 four-byte second, EUC-JP 0x8F then a byte) is "maybe": each
    pair is tried before several next bytes (_AFTER).

    Which live leading byte and "maybe" byte are no stop pair (an empty pointer of the index under a
    leading byte that has others, Shift_JIS 0x82 0x40) is told per byte, by *planes*: the live
    leading bytes that share their set of such next bytes are one *row*, numbered 0, 1 ...; each
    plane is two bytes.translate tables for 7 rows: a leading byte to the bit of its row, a next
    byte to the bits of the rows in which it is an error. A pair is an error where the two "and"
    to a bit. *pair_run*: see :func:`pair_errors`.
    """
    def token(data: bytes) -> tuple[str, int]:
        return step(data, 0)

    table = [chr(b) for b in range(0x80)]
    leads: list[int] = []
    for byte in range(0x80, 0x100):
        one = token(bytes((byte,)))  # (a leading byte pairs with 0xFE in every encoding: tried first)
        if one[1] == 1 and all(token(bytes((byte, x)) + b" ") == one for x in reversed(range(256))):
            table.append(one[0])
        else:
            leads.append(byte)
            table.append("\ufffd")
    stop_pairs: dict[int, set[int]] = {}  # live leading byte -> its stop pairs' next bytes
    for lead in leads:
        for x in range(256):
            pair, error = bytes((lead, x)), ("\ufffd", 1 if x < 0x80 else 2)
            if token(pair + _AFTER[0]) != error or not all(token(pair + after) == error for after in _AFTER[1:]):
                stop_pairs.setdefault(lead, set()).add(x)
    live = set(stop_pairs)
    maybe = set().union(*stop_pairs.values())

    def klass(values: Iterable[int]) -> bytes:
        return b"[" + b"".join(re.escape(bytes((v,))) for v in sorted(values)) + b"]"

    by_trails: dict[frozenset[int], list[int]] = {}  # (leading bytes that share their stop pairs: one branch)
    for lead, xs in stop_pairs.items():
        by_trails.setdefault(frozenset(xs), []).append(lead)
    stop = b"|".join(klass(lead_bytes) + klass(xs) for xs, lead_bytes in by_trails.items()) if live else b"(?!)"
    end_stops = not all(token(bytes((lead,))) == ("\ufffd", 1) for lead in leads)  # a lone last lead
    if end_stops:
        stop += b"|" + klass(leads) + b"\\Z"
    assert table[0xFF] == "\ufffd"  # (0xFF marks trails in decode_run: canon maps it to leads[0])
    # Live leading bytes whose tokens with a "maybe" byte 0x80 or above are those two bytes: not EUC-JP
    # 0x8F, whose step reads a third byte (and consumes it, 0xFF); errors are two bytes by the above.
    two = {lead for lead in live if all(token(bytes((lead, x, 0xFF)))[1] == 2 for x in maybe if x >= 0x80)}
    rows = sorted({frozenset(maybe - xs) for xs in stop_pairs.values()} - {frozenset()}, key=sorted)
    row_of = {lead: rows.index(frozenset(maybe - xs)) for lead, xs in stop_pairs.items() if maybe - xs}
    assert len(rows) <= 14, "two planes at most (flags' bits 5 and 3)"
    planes = tuple((bytes(1 << row_of[b] % 7 if row_of.get(b, -1) // 7 == plane else 0 for b in range(256)),
                    bytes(sum(1 << r % 7 for r in range(7 * plane, min(len(rows), 7 * plane + 7)) if b in rows[r])
                          for b in range(256)))
                   for plane in range((len(rows) + 6) // 7))
    # Two leading bytes as one UTF-16-BE code unit (1 to 0x81 each: no surrogate), for _error_pairs.
    units = bytes(b - 0x7F if b in leads else 0 for b in range(256))
    pairs = frozenset(bytes((lead, x)) for lead, xs in stop_pairs.items() for x in xs)
    not_error_pair = sorted({*range(0x100), *(units[lead] << 8 for lead in leads),
                             *(units[pair[0]] << 8 | units[pair[1]] for pair in pairs if units[pair[1]])})
    # Stop pairs of two bytes 0x80 and above whatever follows: the standard's text, where the C codec rejects one.
    pair_texts = {}
    for pair in pairs:
        if pair[1] >= 0x80 and pair[0] in two:
            text = token(pair + _AFTER[0])
            if text[1] == 2 and all(token(pair + after) == text for after in _AFTER[1:]):
                pair_texts[pair] = text[0]
    # Stops of three bytes 0x80 and above whatever follows (EUC-JP 0x8F, a byte 0xA1-0xFE, a byte 0x80 or above).
    triples = {}
    for pair in pairs:
        if pair[1] >= 0x80 and pair[0] not in two:
            for y in range(0x80, 0x100):
                text = token(pair + bytes((y,)) + _AFTER[0])
                if text[1] == 3 and all(token(pair + bytes((y,)) + after) == text for after in _AFTER[1:]):
                    triples[pair + bytes((y,))] = text[0]
    # decode_run takes triples in its lanes where their first and second bytes are told by the flags (see
    # there): the first bytes the live leading bytes not in *two*, the second the "maybe" bytes 0x80 and above,
    # each a leading byte (that starts a stretch after the first), each with each whatever byte 0x80 or above.
    firsts, seconds = live - two, {x for x in maybe if x >= 0x80}
    product = bool(triples) and not firsts & seconds and seconds <= set(leads) - {0xFF} and all(
        bytes((a, b, y)) in triples for a in firsts for b in seconds for y in range(0x80, 0x100))
    like_ff = [y for y in range(0x80, 0xFF) if product and all(
        triples[bytes((a, b, y))] == triples[bytes((a, b, 0xFF))] for a in firsts for b in seconds)]
    triple_ff = bytes(like_ff[:1]) if product else b""
    empties = frozenset(bytes((lead, x)) for lead in live & two for x in maybe
                        if x >= 0x80 and bytes((lead, x)) not in pairs)
    with_ascii = {pair[0] for pair in pairs if pair[1] < 0x80}
    ascii_leads = frozenset(lead for lead in two & with_ascii if all(
        token(pair + after)[1] == 2 for pair in pairs if pair[0] == lead and pair[1] < 0x80 for after in _AFTER))
    return ErrorRuns(re.compile(stop), bytes((b in leads) | (b in live) << 1 | (b in maybe) << 2
                                             | (row_of.get(b, -1) // 7 == 1) << 3 | (b in two) << 4
                                             | (row_of.get(b, -1) // 7 == 0) << 5 | any(b in row for row in rows) << 6
                                             | (b >= 0x80) << 7 for b in range(256)),
                     end_stops, bytes(leads[0] if table[b] == "\ufffd" else b for b in range(256)),
                     "".join(table), leads[1], pairs, planes, units, re.compile(_char_class(not_error_pair)),
                     pair_errors(pair_texts, triples if triple_ff else {}, pair_run), triples, triple_ff,
                     tuple(bytes((b,)) for b in sorted(firsts)) if triple_ff else (), empties,
                     pair_errors(pair_texts | dict.fromkeys(empties, "\ufffd"), triples if triple_ff else {}, pair_run),
                     ascii_leads)


_EMPTY_EVERY, _EMPTY_SLACK = 48, 256  # (see decode_run's *empties*: past one call per 48 bytes, the handler's
# calls cost more than the planes; random bytes: Big5 one per 140, EUC-JP one per 70 with its null triples' U+FFFD)
_FEW_EMPTIES = 0.06  # the largest share of empty pairs among the pairs of codec_empties' bytes (see there)


def codec_empties(runs: ErrorRuns, c_codec: str) -> str | None:
    """*runs.empty_errors*, where the C codec rejects each of *runs.empties* (alone; its codecs are
    stateless: so in any text, at a token boundary) and they are fewer than _FEW_EMPTIES of the
    pairs of a live leading byte of two bytes and a "maybe" byte 0x80 and above (Big5 2 %, EUC-JP 5 %:
    on random bytes 0x80-0xFF, an error handler's call at each costs less than the planes; not
    Shift_JIS 8 %, EUC-KR 14 %); else ``None`` (see :func:`decode_run`)."""
    leads = sum(runs.flags[b] & 0x12 == 0x12 for b in range(256))
    highs = sum(runs.flags[b] & 0x84 == 0x84 for b in range(256))
    if not runs.empties or len(runs.empties) >= _FEW_EMPTIES * leads * highs:
        return None
    for pair in runs.empties:
        try:
            pair.decode(c_codec)
        except UnicodeDecodeError:
            continue
        return None
    return runs.empty_errors


class Rejected(NamedTuple):
    """Pairs that a decoder's C codec rejects and another decodes (see :func:`decode_run`'s *rejected*)."""

    leads: bytes  # a bytes.translate table: 0xFF at each leading byte whose pairs *decode* takes, else 0
    decode: Callable[[bytes], str]  # pairs of such a leading byte and a byte 0x80 and above, one after
    # another -> their text, one character each (the standard's, as the C codec's error handler gives it)


def codec_ascii_leads(runs: ErrorRuns, c_codec: str) -> bytes | None:
    """A bytes.translate table: 0x01 at each of *runs.ascii_leads* whose every stop pair with an ASCII byte
    the C codec decodes (no pair CPython lacks: Big5's 0x87, 0x8E ... have some), else 0x00; ``None`` where
    there is none (see :func:`decode_run`'s *ascii_leads*)."""
    def decodes(pair: bytes) -> bool:
        try:
            pair.decode(c_codec)
        except UnicodeDecodeError:
            return False
        return True

    leads = {lead for lead in runs.ascii_leads
             if all(decodes(pair) for pair in runs.stop_pairs if pair[0] == lead and pair[1] < 0x80)}
    return bytes(b in leads for b in range(256)) if leads else None


def pair_errors(pair_texts: dict[bytes, str], triple_texts: dict[bytes, str] | None = None,
                pair_run: Bulk | None = None) -> str:
    """The name of a C codec error handler (registered here) that gives *pair_texts*' text for an
    error at a pair it holds (and *triple_texts*' at a triple), consumed whole, and raises at any
    other error. decode_run decodes with it where every token left in the bytes is a pair or triple
    it keeps or one byte the C codec decodes alone whatever follows: its tokens are the standard's up
    to each error, which then starts a token, and a pair the C codec rejects (Big5 0x87 0xA1, EUC-JP
    0xAD 0xA1: a pointer CPython lacks) no longer ends the run (random bytes under a multi-byte label:
    one every ~80 bytes), nor does a triple (EUC-JP 0x8F 0xA1 0xA1: JIS X 0212's null pointers).
    *pair_run* (``pair_run(data, i) -> (text, end)`` or ``None``), tried first at such a pair: the text
    of the tokens from it on that the C codec and this handler would decode one by one (Big5's pairs
    CPython lacks among ASCII bytes: U+FFFD's placeholders between them, one call, not one each); after a
    run of fewer than 8 * _FEW_BULK bytes or none, the next _SKIP such errors go without it, twice as many
    after each such miss in a row, up to _SKIP << _MISSES (random bytes: a try in 1,024 errors at last;
    hunted, issue 37: ISO-2022-JP's JIS text of ASCII markup, a row-13 pair every 40-90 bytes, each run
    costing about 10 µs where the handler's calls it saves cost 0.7 each: 7.0 -> 3.6 ms at 64 KiB)."""
    name = f"whatwg-pairs-{id(pair_texts):x}"  # (the registry keeps pair_texts alive: no other has its id)
    get = pair_texts.get
    get_triple = (triple_texts or {}).get
    skip = misses = 0

    def handle(exc: UnicodeError) -> tuple[str, int]:
        nonlocal skip, misses
        if type(exc) is UnicodeDecodeError:
            start = exc.start
            if pair_run is not None:
                if skip:
                    skip -= 1
                else:
                    run = pair_run(exc.object, start)
                    if run is None or run[1] - start < 8 * _FEW_BULK:
                        skip, misses = _SKIP << misses, min(misses + 1, _MISSES)
                    else:
                        misses = 0
                    if run is not None:
                        return run
            text = get(exc.object[start:start + 2])
            if text is not None:
                return text, start + 2
            text = get_triple(exc.object[start:start + 3])
            if text is not None:
                return text, start + 3
        raise exc

    codecs.register_error(name, handle)
    return name


def _char_class(code_points: list[int]) -> str:
    """A regular expression's character class of the sorted *code_points*, as ranges."""
    ranges: list[list[int]] = []
    for c in code_points:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "[" + "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges) + "]"


_WINDOW, _MAX_WINDOW = 64, 1 << 15  # decode_run's first window and its largest (8 times each time)
_ERRORS = "\ufffd" * 0x80  # runs.table's bytes 0x80 and above where each alone is an error
_MAX_ALONE = 1 << 18  # the largest after a window of alone bytes only (no lane arithmetic: fewer steps)
_SPARSE = 64  # bytes per error below which a window of valid pairs ends the run (the C codec is cheaper)


def lane_masks(lanes: int) -> tuple[int, int, int, int, int]:
    """``(0x01 at every lane, 0x01 at even lanes, 0xFF at odd lanes, 0x80 at every lane, 0x7F at
    every lane)`` over *lanes* lanes of 8 bits (lane 0 even): an integer whose bytes are an input's,
    little-endian (decode_run's windows, Big5's lacking_run, gb18030's mark_singles). Cached up to
    _MAX_ALONE + 1 lanes (a decode asks for a few window sizes: 65, 129, 513, 1025 ... 262145);
    wider ones, a gb18030 chunk without a cut (its size the input's), are built each time, so that
    the cache stays bounded in memory whatever the inputs."""
    return _lane_masks(lanes) if lanes <= _MAX_ALONE + 1 else _lane_masks.__wrapped__(lanes)


@functools.lru_cache(maxsize=16)
def _lane_masks(lanes: int) -> tuple[int, int, int, int, int]:
    pairs = lanes // 2 + 1
    return (int.from_bytes(b"\x01" * lanes, "little"), int.from_bytes((b"\x01\x00" * pairs)[:lanes], "little"),
            int.from_bytes((b"\x00\xff" * pairs)[:lanes], "little"), int.from_bytes(b"\x80" * lanes, "little"),
            int.from_bytes(b"\x7f" * lanes, "little"))


_MARK = "\udcff"  # a lone surrogate: no decoder's text holds one


def _codec_pairs(window: bytes, starts: int, c_codec: str, one_each: bool, errors: str = "strict") -> str | None:
    """The C codec's text of the pairs at lanes *starts* (0xFF there) of *window*, where it decodes
    them without error but those *errors* (an error handler's name) handles (and, if *one_each*, each
    to one character), else ``None``."""
    keep = starts | (starts << 8)
    kept = (int.from_bytes(window, "little") & keep) | (((1 << 8 * len(window)) - 1) ^ keep)
    pairs = kept.to_bytes(len(window), "little").translate(None, b"\xff")  # (0xFF: in no pair)
    try:
        text = pairs.decode(c_codec, errors)
    except UnicodeDecodeError:
        return None
    return text if not one_each or 2 * len(text) == len(pairs) else None


def codec_merge(runs: ErrorRuns, c_codec: str) -> bytes | None:
    """A bytes.translate table for :func:`decode_run`'s text through the C codec: *canon* with a
    byte that the codec decodes as one error of one byte whatever follows (to U+FFFD in "replace"
    mode) for U+FFFD, where the codec also decodes each byte that is one character alone as that
    character whatever follows; else ``None`` (gb18030's GBK codec: the marks instead)."""
    def decode(data: bytes) -> str:
        return data.decode(c_codec, "replace")

    if not all(decode(bytes((b, x))) == runs.table[b] + decode(bytes((x,)))
               for b in range(0x80, 0x100) if runs.table[b] != "\ufffd" for x in range(256)):
        return None
    for error in range(0x80, 0xFF):  # (not 0xFF: it marks trails)
        if runs.table[error] == "\ufffd" and decode(bytes((error,))) == "\ufffd" and all(
                decode(bytes((error, x))) == "\ufffd" + decode(bytes((x,))) for x in range(256)):
            return runs.canon.replace(runs.canon[0xFF:], bytes((error,)))  # (canon[0xFF]: U+FFFD's byte)
    return None


def decode_run(runs: ErrorRuns, data: bytes, i: int, c_codec: str | None = None,
               merge: bytes | None = None, drop: bytes = b"",
               split_firsts: tuple[bytes, ...] | None = None,
               split_re: re.Pattern[bytes] | None = None, empties: str | None = None,
               kept_table: bool = True, rejected: Rejected | None = None,
               ascii_leads: bytes | None = None) -> tuple[str, int]:
    """The run of tokens that :func:`error_runs`' classes decide from token boundary *i*: its text
    and its end (the first stop at or after *i*, or ``len(data)``), at C speed whatever the mix.

    In windows that grow eightfold from 64 bytes to 32 KiB (a short run reads little; a lane integer
    stays in the processor's cache; 256 KiB after a window of alone bytes only), each byte is a
    lane of 8 bits of one integer (little-endian: lane k is byte k). A stretch of leading bytes from
    a boundary is pairs, so a leading byte starts a token where its stretch begins at an even lane
    and it is at an even lane, or odd and odd: the stretches beginning at even lanes are found by
    one addition (a 1 at the first lane carries through each stretch of 0xFF lanes). A byte 0x80 or
    above after a token's leading byte is its trail: marked 0xFF and deleted; every leading byte
    left is one U+FFFD (a pair's, a restored byte's or the last byte's), the rest one character each.

    A live leading byte that starts a token is a stop where it and the next byte are a stop pair;
    the planes of :func:`error_runs` find the others (errors) among those followed by a "maybe" byte.

    With *c_codec* (the C codec's name), a stop pair with a next byte 0x80 or above (two bytes
    whatever they give) is no stop: those pairs are decoded together by the C codec, where it
    decodes each to one character without error but those *runs.codec_errors* gives the standard's
    text (:func:`pair_errors`: a pointer CPython lacks) (else the first is a stop), and take the places a
    mark (a lone surrogate) holds in the text. The caller fixes the text as it fixes the C codec's.
    With *merge* too (:func:`codec_merge`), the whole run is one decode by the C codec instead:
    without error, U+FFFD given as an ASCII byte the window lacks (_PLACEHOLDERS) and replaced
    after, where the C codec rejects no pair (else the first is a stop); or, where the window has
    every such byte, in "replace" mode (its errors are the marked U+FFFD's only). A window whose
    tokens are all alone bytes and such pairs takes a shortcut: one translate, one decode
    (:func:`_pairs_and_alone`); so does one of bytes 0x80 and above only, where each such byte
    alone is an error and no pair is the C codec's: one U+FFFD per token, counted. After the
    latter, the next window is first read as pairs of two leading bytes that are errors (Big5 0x87
    0xE0 repeated), found by one regular expression search (:func:`_error_pairs`).

    *drop*: ASCII bytes (each one token alone) whose characters the text leaves out, deleted from
    the bytes once the tokens are known (ISO-2022-JP's marks between runs: no pass over the text).

    *split_firsts* (the first bytes of the caller's split tokens, none of which starts a token in
    *data*): after a window that took the shortcut, the next is first tried as the C codec's alone
    (:func:`_codec_window`), without its tokens from the lanes.

    *empties* (:func:`codec_empties`: an error handler's name): with *merge* and a placeholder, a pair
    of a live leading byte of two bytes and a "maybe" byte 0x80 and above is given to the C codec
    whether its pointer is empty or not (no planes for it): the C codec rejects each empty one and
    *empties* gives one U+FFFD for the two bytes; where they are dense (U+FFFD from the handler: more
    than one per _EMPTY_EVERY bytes so far, past _EMPTY_SLACK: Big5 0x87 0xE0 repeated), the planes
    from that window on. Its
    plain twin is ``empties=None`` (the planes).

    *kept_table*: with *merge*, a window of pairs for the C codec and no triple takes its bytes from one
    translate (:func:`_kept`: the leading and "maybe" bytes kept) where the table exists, the leading
    bytes that start other tokens then set to U+FFFD's byte; its plain twin (``False``) keeps the pairs'
    bytes from the window lane by lane over merge's translate.

    *rejected*: with *merge* and a placeholder, the pairs for the C codec of its leading bytes (EUC-JP's
    rows 13 and 89-92, which CPython's euc_jp lacks) are not the C codec's: each is a second placeholder
    in the text, and their text one decode by *rejected.decode* (no error handler's call for each);
    its plain twin (``None``) gives them to the C codec.

    *ascii_leads* (:func:`codec_ascii_leads`): with *merge*, a stop pair of such a leading byte and an ASCII
    byte (Big5 0xD7 0x5D) is no stop either: the C codec decodes it among the rest (a page of errors and
    such pairs is one run, not a run per pair: hunted, issue 37); its plain twin (``None``) ends the run there.

    With *split_re* too (the caller's split tokens, one pattern), in a window with merge's
    placeholder and no split token, the triples (*runs.triple_ff*: EUC-JP 0x8F, a byte 0xA1-0xFE,
    a byte 0x80 or above) are no stops: a triple's first byte is no leading byte in the stretches,
    so its second starts one (and takes the third as its trail), and where the first starts a token
    (it is no trail) the three bytes are kept for the C codec, whose error handler gives the
    standard's text where it rejects them (:func:`pair_errors`; a third byte 0xFF, the trails' mark,
    as *runs.triple_ff*). The C codec's other texts of triples are the standard's but for
    the split tokens (``tools/generate_tables.py``). Their plain twin is the stop and *runs.triples*.
    """
    n, size, texts = len(data), _WINDOW, []
    spent: list[int] | None = [0, 0]  # the empty pairs given to the C codec, the bytes of their windows
    optimistic = errors = False
    while True:
        end = min(n, i + size)
        window = data[i:end + 1]  # one byte more: a pair across the edge
        if errors:  # the last window was errors only: first its pairs of two leading bytes, errors each
            count = _error_pairs(runs, window[:end - i])
            if count:
                texts.append("\ufffd" * count)
                if i + 2 * count >= n:
                    return "".join(texts), n
                errors = 2 * count + 1 >= end - i  # (all whole pairs: the next window likewise)
                i, size = i + 2 * count, min(size * 8, _MAX_WINDOW) if errors else size
                continue
            errors = False
        if optimistic:
            assert split_firsts is not None and merge is not None
            tried = _codec_window(runs, window, str(c_codec), merge, split_firsts)
            if tried is not None:
                texts.append(tried[0])
                end = i + tried[1]
                if end >= n or _sparse(tried[0], end - i):
                    return "".join(texts), end
                i, size = end, min(size * 8, _MAX_WINDOW)
                continue
            optimistic = False
        lanes, inside = len(window), end - i
        # (masks as wide as the window's size: lanes past the bytes are 0 in every "and")
        ones, even, odd, high, sevens = lane_masks(size + 1)
        flags = int.from_bytes(window.translate(runs.flags), "little")
        codec_errors = runs.codec_errors
        lead = flags & ones
        stops = codec_pairs = triples = 0
        placeholder = None
        if runs.triple_ff and split_re is not None and merge is not None and not drop \
                and any(first in window for first in runs.triple_firsts) and split_re.search(window) is None:
            # A triple's first byte (a live leading byte, bit 1, not of bit 4), then its second ("maybe", bit 2),
            # then a byte 0x80 or above (bit 7): no leading byte in the stretches (its second starts one), a
            # triple where it starts a token.
            placeholder = next((byte for byte in _PLACEHOLDERS if byte not in window), None)
            if placeholder is not None:
                triples = lead & (flags >> 1) & ~(flags >> 4) & (flags >> 10) & (flags >> 23)
                lead ^= triples
        # (masks of lanes: 0x01 where a lane is in, "ones-form", or 0xFF: starts where pairs, trails)
        if not lead:  # no leading byte (bit 0): alone bytes only
            text = window[:inside]
            pairs = 0
        else:
            high_next = flags >> 15  # (bit 0: the next byte is 0x80 or above, bit 7)
            pairs = flags & high_next & ones  # a leading byte, then a byte 0x80 or above
            starts = lead
            if pairs:  # else every leading byte starts a token
                lead *= 0xFF
                begins = (lead ^ (lead & (lead << 8))) & even  # a 1 where a stretch begins at an even lane
                from_even = lead ^ (lead & (lead + begins))  # the stretches a carry went through
                starts = lead & (from_even ^ odd)
            # A stop: a live leading byte (bit 1) that starts a token, then a "maybe" byte (bit 2) ...
            stops = starts & (flags >> 1) & (flags >> 10) & ones
            if triples:  # those after a leading byte that starts a token are its trails; a triple's second: no stop
                triples &= ~(starts << 8)
                stops &= ~(triples << 8)
            maybe_errors = stops & (flags >> 14)
            if maybe_errors and empties is not None and merge is not None and spent is not None:
                # (with a placeholder, the empty pairs of two bytes 0x80 and above are the C codec's: it rejects
                # each, its error handler gives U+FFFD, and the planes look at the rest only)
                if placeholder is None:
                    placeholder = next((byte for byte in _PLACEHOLDERS if byte not in window and byte not in drop),
                                       None)
                if placeholder is not None:
                    maybe_errors ^= maybe_errors & (flags >> 4) & high_next
                    codec_errors = empties
            if maybe_errors:  # ... but errors: rows of a plane (gate bits 5, 3) "and" trails' (bit 6)
                rows = 0
                for (lead_rows, trail_rows), gate in zip(runs.planes, (5, 3)):
                    if maybe_errors & (flags >> gate):  # (trails' rows from the next lane on: no shift)
                        rows |= (int.from_bytes(window.translate(lead_rows), "little")
                                 & int.from_bytes(window[1:].translate(trail_rows), "little"))
                stops ^= stops & ((rows + sevens) & high) >> 7  # (rows: 7 bits a lane, no carry)
            if c_codec is not None and stops:  # (those with a trail 0x80 or above, bit 7; or ASCII, *ascii_leads*)
                codec_pairs = stops & (flags >> 4) & high_next  # (bit 4: two bytes)
                ascii_trails = stops ^ (stops & high_next) if ascii_leads is not None and merge is not None else 0
                if ascii_trails:
                    codec_pairs |= ascii_trails & int.from_bytes(window.translate(ascii_leads), "little")
                stops ^= codec_pairs
            if runs.end_stops and end == n and inside:
                stops |= starts & (0xFF << 8 * (inside - 1))  # a lone last leading byte
            if stops:
                end = i + ((stops & -stops).bit_length() - 1) // 8
        text_of_pairs: str | None = None
        if codec_pairs and not stops and not triples and merge is not None:  # a shortcut (see _pairs_and_alone)
            shortcut = _pairs_and_alone(runs, window, inside, starts & ones, codec_pairs, c_codec, merge, drop)
            if shortcut is not None:
                texts.append(shortcut)
                optimistic = split_firsts is not None and not drop
                end += (codec_pairs >> 8 * (inside - 1)) & 1  # a pair across the edge
                if end >= n or _sparse(shortcut, end - i):
                    return "".join(texts), end
                i, size = end, min(size * 8, _MAX_WINDOW)
                continue
        if pairs and not stops and not codec_pairs and not triples and runs.table[0x80:] == _ERRORS:
            counted = _errors_only(flags, starts, high, inside)
            if counted is not None:  # a shortcut
                texts.append("\ufffd" * counted[0])
                end = i + counted[1]
                if end >= n:
                    return "".join(texts), end
                errors = True
                i, size = end, min(size * 8, _MAX_WINDOW)
                continue
        cut = end - i < inside  # (else no pair or triple starts at or past the end: no mask)
        if triples:  # (each one's three bytes kept: 0xFF at each)
            triples = (triples & ((1 << 8 * (end - i)) - 1) if cut else triples) * 0xFFFFFF
        if codec_pairs:
            assert c_codec is not None
            codec_pairs = (codec_pairs & ((1 << 8 * (end - i)) - 1) if cut else codec_pairs) * 0xFF
            if merge is not None and placeholder is None:  # U+FFFD as an ASCII byte the window lacks: one decode
                placeholder = next((byte for byte in _PLACEHOLDERS if byte not in window and byte not in drop), None)
            if placeholder is None:
                # (in "replace" mode below, the pairs the C codec rejects would be U+FFFD: strict then)
                text_of_pairs = _codec_pairs(window, codec_pairs, c_codec, merge is None,
                                             runs.codec_errors if merge is None else "strict")
                if text_of_pairs is None:  # the first is a stop
                    stops = codec_pairs & -codec_pairs
                    end = i + (stops.bit_length() - 1) // 8
                    codec_pairs = 0
        alone: int | None = None  # U+FFFD's byte in a text of tokens alone, where not canon's
        while True:  # (twice where the C codec rejects a pair: then the first pair is a stop)
            rejects = second = 0  # *rejected*'s pairs (0xFF at each leading byte) and their placeholder
            if lead and (pairs or codec_pairs or triples):
                trails = ((starts & pairs) << 8) * 0xFF  # (a byte 0x80 or above after a token's leading byte)
                if not stops and (trails >> 8 * inside or codec_pairs >> 8 * (inside - 1)):  # (or an ASCII trail)
                    end += 1  # the pair across the edge is in this window
                fill = None if merge is None else merge[0xFF] if placeholder is None else placeholder
                keeps = _kept(runs.flags, merge, fill) if codec_pairs and not triples and kept_table and \
                    merge is not None and fill is not None else None
                if rejected is not None and codec_pairs and placeholder is not None:  # (so *merge* too)
                    rejects = codec_pairs & int.from_bytes(window.translate(rejected.leads), "little")
                    second = next((byte for byte in _PLACEHOLDERS if byte not in window and byte not in drop
                                   and byte != placeholder), 0) if rejects else 0
                if keeps is not None:  # a shortcut: the leading and "maybe" bytes kept by one translate, the
                    # rest as merge says; the leading bytes that start a token but no pair: U+FFFD's byte (fill)
                    canon = int.from_bytes(window.translate(keeps), "little")
                    canon ^= (canon ^ _filled(size + 1, fill)) & ((starts if pairs else starts * 0xFF) ^ codec_pairs)  # (0xFF
                    # at each start: ones-form where no pair has a trail 0x80 or above, those with ASCII trails only)
                    trails ^= trails & (codec_pairs << 8)  # (the pairs' trails kept)
                elif (codec_pairs or triples) and merge is not None:  # the pairs' (triples') bytes kept, the
                    table = merge if placeholder is None else _merge_with(merge, placeholder)  # rest as merge says
                    canon = int.from_bytes(window.translate(table), "little")
                    keep = codec_pairs | (codec_pairs << 8) | triples
                    kept = window.replace(b"\xff", runs.triple_ff) if triples else window  # (0xFF marks trails)
                    canon ^= (canon ^ int.from_bytes(kept, "little")) & keep
                    trails ^= trails & keep
                else:
                    if not codec_pairs:  # (U+FFFD as an ASCII byte the window lacks, if any: see _alone_text)
                        alone = next((byte for byte in _PLACEHOLDERS if byte not in window and byte not in drop), None)
                    table = runs.canon if alone is None else _merge_with(runs.canon, alone)
                    canon = int.from_bytes(window.translate(table), "little")
                    if codec_pairs:  # each pair's leading byte the mark's byte (the second leading byte)
                        canon ^= (canon ^ ones * runs.mark) & codec_pairs
                if second:  # (each such pair's leading byte the second placeholder, its trail deleted)
                    canon ^= (canon ^ ones * second) & rejects
                    trails |= rejects << 8
                text = (canon | trails).to_bytes(lanes, "little")[:end - i]
                if trails:  # (0xFF: in no kept pair, and canon and merge leave none)
                    text = text.translate(None, b"\xff")
            elif lead:
                alone = next((byte for byte in _PLACEHOLDERS if byte not in window and byte not in drop), None)
                text = window[:end - i].translate(runs.canon if alone is None else _merge_with(runs.canon, alone))
            if drop:  # (tokens alone: canon, merge and the placeholder leave them as they are)
                text = text.translate(None, drop)
            if not codec_pairs and not triples:
                texts.append(_alone_text(runs.table, text, alone))
            elif placeholder is not None:
                assert c_codec is not None
                try:
                    decoded = text.decode(c_codec, codec_errors)
                    if codec_errors is empties and spent is not None:  # (U+FFFD: the empty pairs only, here)
                        spent[0] += decoded.count("\ufffd")
                        spent[1] += end - i
                        if spent[0] * _EMPTY_EVERY > spent[1] + _EMPTY_SLACK:  # dense: the planes from here on
                            spent = None
                    decoded = decoded.replace(chr(placeholder), "\ufffd")
                    if second:  # (the pairs' bytes, 0x80 and above, the rest 0x00 and deleted)
                        assert rejected is not None
                        decoded = _marks_filled(decoded, chr(second), rejected.decode(
                            (int.from_bytes(window, "little") & (rejects | rejects << 8)).to_bytes(lanes, "little")
                            .translate(None, b"\0")))
                    texts.append(decoded)
                except UnicodeDecodeError:  # a pair the C codec rejects: the first pair (or triple) is a stop
                    stops = (codec_pairs | triples) & -(codec_pairs | triples)
                    end = i + (stops.bit_length() - 1) // 8
                    codec_pairs = triples = 0
                    continue
            elif merge is not None:
                assert c_codec is not None
                texts.append(text.decode(c_codec, "replace"))
            else:
                texts.append(_marks_filled(codecs.charmap_decode(
                    text, "strict", runs.table[:runs.mark] + _MARK + runs.table[runs.mark + 1:])[0], _MARK, text_of_pairs or ""))
            break
        if stops and c_codec is not None and runs.triples and end < n:  # a stop of three bytes: its text, on
            triple = runs.triples.get(data[end:end + 3])
            if triple is not None and (not (codec_pairs or triples) or not _sparse(texts[-1], end - i)):
                texts.append(triple)
                i, size = end + 3, min(size, 8 * _WINDOW)  # (the next stop as near: a small window)
                if i >= n:
                    return "".join(texts), n
                continue
        # Valid pairs with few errors (a page in a wrong encoding) are the C codec's (the caller's) again.
        if stops or end >= n or (codec_pairs or triples) and _sparse(texts[-1], end - i):
            return "".join(texts), end
        i, size = end, min(size * 8, _MAX_WINDOW if lead else _MAX_ALONE)


def _marks_filled(text: str, mark: str, fills: str) -> str:
    """*text* with its *mark* characters (one per character of *fills*) replaced by *fills*' characters,
    in order: one split and one join, no step per mark."""
    parts = text.split(mark)
    return "".join(itertools.chain.from_iterable(zip(parts, fills))) + parts[-1]


def _alone_text(table: str, text: bytes, placeholder: int | None = None) -> str:
    """The text of *text*, bytes that are one token each, by *table* (a character for each byte);
    *placeholder*: a byte that *text* holds only for U+FFFD (canon's byte for it, with
    :func:`_merge_with`), if any. Where *text* is ASCII then, it is decoded as ASCII and U+FFFD put in
    after (no charmap: twice as fast; Shift_JIS 0x82 0x40 repeated); else by the table with U+FFFD at
    the placeholder. Its plain twin is charmap_decode with *table* and canon."""
    if placeholder is not None:
        if text.isascii():
            return text.decode("ascii").replace(chr(placeholder), "\ufffd")
        table = _table_with(table, placeholder)
    return codecs.charmap_decode(text, "strict", table)[0]


@functools.cache
def _table_with(table: str, placeholder: int) -> str:
    """*table* (a character for each byte) with U+FFFD at *placeholder*."""
    return table[:placeholder] + "\ufffd" + table[placeholder + 1:]


def _sparse(text: str, length: int) -> bool:
    """Whether *text* (the text of *length* bytes) holds fewer than one U+FFFD per _SPARSE bytes: its
    plain twin is ``text.count("\ufffd") * _SPARSE < length``, here with :func:`_at_least`."""
    return not _at_least(text, -(-length // _SPARSE))


def _at_least(text: str, count: int) -> bool:
    """Whether *text* holds *count* U+FFFD or more (plain twin: ``text.count("\ufffd") >= count``),
    counted over a prefix of 8 characters per U+FFFD sought, then over the rest in parts eight times
    longer each: a text dense with errors (random bytes: one in 4 or 6) decides in its first part,
    not in a scan of the whole (a run's text: up to megabytes, 2 ms a scan)."""
    found, start, end = 0, 0, 8 * count
    while True:
        found += text.count("\ufffd", start, end)
        if found >= count:
            return True
        if end >= len(text):
            return False
        start, end = end, 8 * end


def _pairs_and_alone(runs: ErrorRuns, window: bytes, inside: int, starts: int, codec_pairs: int,
                     c_codec: str | None, merge: bytes, drop: bytes = b"") -> str | None:
    """decode_run's text of the first *inside* bytes of *window* (and of the pair across the edge)
    where every token is one byte or a pair for the C codec (*starts* and *codec_pairs*, a 1 at each
    lane, agree there): the window with its alone bytes as *merge* says (U+FFFD as a placeholder),
    its pairs' bytes kept, in one decode without error, no lane arithmetic. ``None`` where that does
    not hold (a leading byte that starts no such pair, a pair the C codec rejects, no placeholder
    left, an encoding with a "maybe" byte that *merge* changes). Its plain twin is decode_run's merge,
    the bytes of the pairs kept lane by lane. *drop* as decode_run's."""
    lanes = (1 << 8 * inside) - 1
    if starts & lanes != codec_pairs & lanes:
        return None
    placeholder = next((byte for byte in _PLACEHOLDERS if byte not in window and byte not in drop), None)
    if placeholder is None:
        return None
    table = _kept(runs.flags, merge, placeholder)
    if table is None:
        return None
    try:
        text = window[:inside + ((codec_pairs >> 8 * (inside - 1)) & 1)].translate(table, drop).decode(
            str(c_codec), runs.codec_errors)
    except UnicodeDecodeError:  # (a pair the C codec rejects: decode_run finds it)
        return None
    return text.replace(chr(placeholder), "\ufffd")


def _error_pairs(runs: ErrorRuns, window: bytes) -> int:
    """How many tokens from a token boundary at the start of *window* are pairs of two leading bytes
    that are no stop pair (each one U+FFFD for the two bytes), read two bytes at a time as long as
    they are: the bytes as UTF-16-BE code units (*units*), the first unit that is no such pair found
    by one regular expression search, no lane arithmetic; its first _WINDOW bytes first (where they
    hold another token, the rest is not read). Its plain twin is decode_run's lanes."""
    for part in (window[:_WINDOW], window) if len(window) > _WINDOW else (window,):
        found = runs.not_error_pair.search(part[:len(part) & ~1].translate(runs.units).decode("utf-16-be"))
        if found is not None:
            return found.start()
    return len(window) // 2


def _errors_only(flags: int, starts: int, high: int, inside: int) -> tuple[int, int] | None:
    """``(tokens, length)`` of decode_run's window from a token boundary where its first *inside*
    bytes are 0x80 and above only (bit 7 of *flags*), each alone an error and no pair a stop or the
    C codec's: every token is one U+FFFD, a pair's (its trail after a leading byte that *starts* a
    token) or a byte's; the pair across the edge is in. ``None`` where a byte is below 0x80. Its
    plain twin is decode_run's lanes (the trails deleted, each byte left one U+FFFD)."""
    below = (1 << 8 * inside) - 1
    if flags & high & below != high & below:
        return None
    trails = ((starts << 8) & flags & high) >> 7  # (lanes 1 to inside: a 1 at each trail)
    length = inside + ((trails >> 8 * inside) & 1)
    return length - trails.bit_count(), length


def _codec_window(runs: ErrorRuns, window: bytes, c_codec: str, merge: bytes,
                  split_firsts: tuple[bytes, ...]) -> tuple[str, int] | None:
    """decode_run's text of *window* from a token boundary, and the bytes it decodes, where the
    C codec decodes it without error once its alone bytes are as *merge* says (U+FFFD as a
    placeholder, the leading and "maybe" bytes kept: :func:`_kept`), up to a token that the window
    cuts; ``None`` where it does not, or where the window holds a split token's first byte. The
    C codec's tokens are then the standard's: a token it accepts is one token of the same bytes for
    the standard, decoded alike but for the fixes the caller makes (FastDecoder's premise, from
    ``tools/generate_tables.py``), and a byte it would take as a trail after an error is a
    placeholder or rejected. Its plain twin is decode_run's lanes."""
    if any(first in window for first in split_firsts):
        return None
    placeholder = next((byte for byte in _PLACEHOLDERS if byte not in window), None)
    if placeholder is None:
        return None
    table = _kept(runs.flags, merge, placeholder)
    if table is None:
        return None
    decoder = codecs.getincrementaldecoder(c_codec)(runs.codec_errors)
    try:
        text = decoder.decode(window.translate(table), False)
    except UnicodeDecodeError:
        return None
    used = len(window) - len(decoder.getstate()[0])  # (a token cut by the window's end waits)
    return (text.replace(chr(placeholder), "\ufffd"), used) if used else None


@functools.lru_cache(maxsize=8)
def _filled(lanes: int, byte: int) -> int:
    """*byte* in each of *lanes* lanes."""
    return int.from_bytes(bytes((byte,)) * lanes, "little")


@functools.cache
def _kept(flags: bytes, merge: bytes, placeholder: int) -> bytes | None:
    """A bytes.translate table keeping each leading and "maybe" byte (bits 0 and 2 of *flags*: a
    pair's) and mapping every other byte as :func:`_merge_with` does; ``None`` where a "maybe" byte
    that is no leading byte (alone where it is no pair's trail) is one that *merge* changes
    (Shift_JIS 0xA0): the table could not tell where it is alone."""
    merged = _merge_with(merge, placeholder)
    if any(flags[b] & 0b101 == 0b100 and merged[b] != b for b in range(256)):
        return None
    return bytes(b if flags[b] & 0b101 else merged[b] for b in range(256))


# ASCII bytes that the run's one decode by the C codec may give for U+FFFD where the window lacks one.
_PLACEHOLDERS = b"\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1c\x1d\x1e\x1f\x7f"


@functools.cache
def _merge_with(merge: bytes, placeholder: int) -> bytes:
    """*merge* (:func:`codec_merge`) with *placeholder* for its byte of U+FFFD."""
    return merge.replace(merge[0xFF:], bytes((placeholder,)))


_LONG_WALK = 4096  # bytes from the last sync byte past which FastDecoder._token_span takes token_span
_NEAR = 64  # bytes from a known token boundary within which FastDecoder._token_span looks for no sync byte


@functools.cache
def _walk_classes(step: Step) -> tuple[bytes, re.Pattern[bytes]]:
    """``(leads, irregular)`` for :func:`token_boundary`: the bytes 0x80 and above that *step* reads
    as the first of two whatever byte 0x80 and above follows (and whatever after it), and a pattern
    of the places where a token's length is *step*'s to tell: any other byte that is no token alone
    whatever follows (EUC-JP 0x8F: three bytes), or such a leading byte before an ASCII byte (an
    error that restores it, or a pair: Big5 0xA4 0x40) or at the end."""
    afters = (b"", b" ", b"\xa1\xa1", b"\xff", b"\x810\x810")
    leads, others = [], []
    for b in range(0x80, 0x100):
        if all(step(bytes((b, x)) + after, 0)[1] == 2 for x in range(0x80, 0x100) for after in afters):
            leads.append(b)
        elif not all(step(bytes((b, x)) + after, 0)[1] == 1 for x in range(256) for after in afters):
            others.append(b)
    lead_class = b"[" + b"".join(re.escape(bytes((b,))) for b in leads) + b"]" if leads else b"(?!)"
    other_class = b"[" + b"".join(re.escape(bytes((b,))) for b in others) + b"]" if others else b"(?!)"
    return bytes(leads), re.compile(other_class + b"|" + lead_class + b"(?:[\x00-\x7f]|\\Z)")


def token_boundary(step: Step, data: bytes, i: int, position: int) -> bool:
    """Whether a token starts at *position* of *data*, tokenizing from token boundary *i* (*step*:
    a decoder's handler from its initial state): :func:`token_span` starts at *position*."""
    return token_span(step, data, i, position)[0] == position


def token_span(step: Step, data: bytes, i: int, position: int) -> tuple[int, int]:
    """``(start, end)`` of the token that holds ``data[position]``, or ``(position, position)`` where
    a token starts there, tokenizing from token boundary *i* ≤ *position* (*step*: a decoder's
    handler from its initial state): at C speed up to each place *step* must tell
    (:func:`_walk_classes`), where it does. Before such a place every leading byte takes the next
    byte (0x80 or above) and every other byte is one token, so a leading byte starts a token where
    the stretch of leading bytes up to it, from its start or *i*, is of odd length (else it is the
    trail of the byte before it). Its plain twin is *step* token by token."""
    leads, irregular = _walk_classes(step)
    while i < position:
        found = irregular.search(data, i, position + 1)
        c = position if found is None else found.start()  # (*c*: a token starts there or it is a trail)
        stretch = data[i:c]
        starts = (len(stretch) - len(stretch.rstrip(leads))) % 2 == 0  # (a leading byte before: a trail)
        if c == position:  # (a token there, or the trail of the leading byte before it: two bytes)
            return (position, position) if starts else (position - 1, position + 1)
        if starts:
            after = step(data, c)[1]
            if after > position:
                return c, after
            i = after
        else:
            i = c + 1
    return i, i


_FOUR_AFTER = 64  # tokens the other C codec has met one by one in an input, past which FastDecoder's *four* decodes it
# Marked bytes (see FastDecoder.decode_splits): MARK then 0x01 is MARK itself, MARK then 0x02, 0x03, ...
# what a decoder's SplitMarks says. MARK is ASCII and no trail byte, so each byte of a mark is a token
# of its own, and no token here but 0x7F gives U+007F (tests/oracles/test_split_marks.py).
MARK = b"\x7f"
_ESCAPED = MARK + b"\x01"


class SplitMarks(NamedTuple):
    """How a decoder with split tokens decodes a page of them at C speed (see
    :meth:`FastDecoder.decode_splits`)."""

    # Bytes (MARK escaped) -> the same bytes with the marks set (the same length or longer)
    mark: Callable[[bytes], bytes]
    # (old, new) for str.replace, in order: the C codec's text of the marked bytes (with the fixes)
    # to the standard's text of the bytes (MARK's escape is undone last, by the caller)
    unmark: tuple[tuple[str, str], ...]
    # Each split token's C codec character (with the fixes) and its text (*step*'s)
    swaps: tuple[tuple[str, str], ...]
    # The other tokens whose text is one of those characters (Big5 0xA1 0xFE, 0xA2 0x40; EUC-JP "~")
    rivals: tuple[bytes, ...]


class _FourByteInput(Exception):
    """Raised by a gb18030 decoder's error handler to give up a decode for its *four* decoder."""


class FastDecoder:
    """Exact decoder of one encoding over C codec *c_codec*.

    Call the instance with bytes-like data; returns str. *drop*: ASCII bytes whose characters the
    caller removes from the text: the runs of errors leave them out already (see :func:`decode_run`).
    *bulk*: ``bulk(data, i) -> (text, end)`` or ``None``, the standard's text of a run of two tokens
    or more from token boundary *i* that the C codec rejects one by one and the run path stops at
    (gb18030's four bytes, EUC-JP's rows CPython lacks, also among ASCII bytes where dense; Big5's
    pairs big5hkscs lacks, one after another), else ``None``; the handler takes it after a token it
    decodes as a run of two such tokens (see :func:`_handler`).
    *dense*: ``dense(data) -> text`` or ``None``, the standard's text of *data* (from a token boundary)
    where it is dense with tokens the C codec rejects (gb18030's 0x80 and 0xFF), decoded without an
    error handler call for each, else ``None``; its plain twin is the handler at each such token.
    *four*: for gb18030, the decoder of an input whose four-byte tokens and pairs GBK lacks (its
    2,149 pointers of Private Use and GB18030-2022 code points) the handler meets more than
    _FOUR_AFTER times one by one (each between other tokens: no run for *bulk*), on a C codec
    that decodes them all (CPython's gb18030); the decode in progress is given up there. Its
    plain twin is the handler at each such token.
    *pair_run*: decode_run's C codec decodes try it at each pair the codec lacks (see :func:`pair_errors`).
    *marks*: how a page dense with split tokens is decoded at C speed (see :meth:`decode_splits`).
    *rejected*: decode_run's (pairs the C codec lacks decoded by another, in bulk).
    *compiled*: the encoding's compiled decoder (:func:`.compiled.decoder`), which the call runs where it is
    given; the rest is then its plain twin (the Python decoder, :meth:`python`).
    """

    def __init__(self, name: str, c_codec: str, step: Step, fixes: dict[str, str],
                 splits: tuple[bytes, ...], sources: dict[str, tuple[bytes, ...]],
                 reach: Callable[[int], int] = lambda lead: 2, drop: bytes = b"",
                 bulk: Bulk | None = None, dense: Callable[[bytes], str | None] | None = None,
                 four: Callable[[], FastDecoder] | None = None, pair_run: Bulk | None = None,
                 marks: SplitMarks | None = None, rejected: Rejected | None = None,
                 compiled: Decoder | None = None):
        self.c_codec = c_codec
        self.compiled = compiled
        self.four = four
        self.fours = 0  # tokens for *four* the handler met in the input being decoded
        self.drop = drop
        self.bulk = bulk
        self.pair_run = pair_run
        self.rejected = rejected
        self.dense = dense
        self.step = step
        # How many bytes *step* reads from each leading byte; results of *step* are cached. A
        # reach of 4 (gb18030) is 2 where the second byte is not 0x30-0x39.
        self.reach = bytes(map(reach, range(256)))
        self.cache: dict[bytes, tuple[str, int, int, bytes]] = {}
        self.demoted: list[tuple[str, int, int, bytes]] = []  # bulk's hits its runs gain little on (see _handler)
        self.errors = f"whatwg-{name.lower()}-decode"
        # The handler reads a decode error's bytes; anything else raises (see _handler).
        codecs.register_error(self.errors, self._handler())  # type: ignore[arg-type]
        self.fixes = fixes
        # str.__contains__ finds a character by memchr on its low byte: where that is printable
        # ASCII ('"', '<', '>'), it stops at every such character of a page, so those fixes are
        # looked for first in the bytes (the tokens the C codec decodes to them: one regex per
        # first byte, which the regex engine skips to at memchr speed; an alternation of first
        # bytes is tried at every place).
        self.byte_fixes = [c for c in fixes if ord(c) > 0xFF and 0x20 <= ord(c) & 0xFF < 0x7F]
        self.text_fixes = [c for c in fixes if c not in self.byte_fixes]
        rests: dict[bytes, list[bytes]] = {}
        for token in sorted(token for c in self.byte_fixes for token in sources[c]):
            rests.setdefault(token[:1], []).append(token[1:])
        self.byte_fix_res = [re.compile(re.escape(first) + b"(?:" + b"|".join(map(re.escape, ends)) + b")")
                             for first, ends in rests.items()]
        self.splits = splits
        self.split_re = re.compile(b"|".join(map(re.escape, splits))) if splits else None
        # Split tokens are looked for from their first bytes (see _has_split).
        self.split_firsts = tuple({token[:1] for token in splits})
        self.marks = marks
        assert marks is None or not set(drop) & {MARK[0], 1, 2, 3}

    def _handler(self) -> Callable[[UnicodeDecodeError], tuple[str, int]]:
        """The C codec's error handler: the standard's step at the error. A wrong encoding makes
        an error every few bytes, so the handler does the least per call: one closure, the steps'
        results cached, keyed by the bytes a step reads (a shorter key only at the end), and one
        token per call (stepping on through a run of errors in Python costs more per token than
        the C codec's call it saves)."""
        step, reach, cache = self.step, self.reach, self.cache
        get = cache.get
        runs: ErrorRuns | None = None
        c_codec, drop, bulk, four, pair_run = self.c_codec, self.drop, self.bulk, self.four, self.pair_run
        merge: bytes | None = None
        empties: str | None = None
        rejected = self.rejected
        ascii_leads: bytes | None = None

        skip = promote_in = 0
        demoted = self.demoted

        def run(data: bytes, i: int, hit: tuple[str, int, int, bytes]) -> tuple[str, int]:
            """The run of single-byte tokens and error pairs from the error at *i* on. A page in
            a wrong encoding has runs of few errors, for which the cached step is cheaper: after
            such a run, the next _SKIP errors take the step. A token *bulk* takes: its run (of
            two tokens or more), else the token; where that run has fewer than _FEW_BULK tokens
            (such tokens each between others: bulk reads and gains little), the token's later
            hits take the step (its cache entry demoted) until the next input or _SKIP runs of
            errors on."""
            nonlocal skip, promote_in
            if hit[2] == _BULK:
                assert bulk is not None
                got = bulk(data, i)
                if (got is None or got[1] - i < _FEW_BULK * hit[1]) and cache.get(hit[3]) is hit:
                    cache[hit[3]] = (hit[0], hit[1], _ONE, hit[3])
                    demoted.append(hit)
                    promote_in = _SKIP
                return got or (hit[0], i + hit[1])
            if demoted:
                promote_in -= 1
                if not promote_in:
                    self.promote()
            if skip:
                skip -= 1
                return hit[0], i + hit[1]
            assert runs is not None
            text, end = decode_run(runs, data, i, c_codec, merge, drop, self.split_firsts, self.split_re, empties,
                                   rejected=rejected, ascii_leads=ascii_leads)
            if end == i:  # (a stop: never, as the handler's key said no)
                return hit[0], i + hit[1]
            if not _at_least(text, _FEW_ERRORS):
                skip = _SKIP
            return text, end

        def token(exc: UnicodeDecodeError, key: bytes) -> tuple[str, int, int, bytes]:
            nonlocal runs, merge, empties, ascii_leads
            if type(exc) is not UnicodeDecodeError:
                raise exc
            if runs is None:  # built at the first error (a clean page never needs it)
                runs = error_runs(step, pair_run)
                merge = codec_merge(runs, c_codec)
                empties = codec_empties(runs, c_codec)
                ascii_leads = codec_ascii_leads(runs, c_codec)
            text, end = step(exc.object, exc.start)
            # Whether a run starts here: the key holds the two bytes (or the last one) that decide;
            # else whether *bulk* takes the token (as it takes two of them).
            kind = _RUN if runs.stop.match(key) is None else _ONE
            if kind == _ONE and bulk is not None and end - exc.start == len(key) \
                    and bulk(key * 2, 0) == (text * 2, 2 * len(key)):
                kind = _BULK
            hit = (text, end - exc.start, kind, key)
            if len(cache) < _CACHE_SIZE:  # the first ones seen stay: a wrong encoding repeats them
                cache[key] = hit
            return hit

        if 4 in reach:  # gb18030: four bytes read after a digit, else two
            digit = bytes(0x30 <= b <= 0x39 for b in range(256))

            def handle(exc: UnicodeDecodeError) -> tuple[str, int]:
                data, i = exc.object, exc.start
                key = data[i:i + 2]
                try:
                    if digit[key[-1]]:  # (a one-byte key at the end stays one byte)
                        key = data[i:i + 4]
                except TypeError:  # not a decode error (zero cost when nothing is raised)
                    raise exc from None
                hit = get(key) or token(exc, key)
                if four is not None and (hit[1] == 4 or hit[1] == 2 and hit[0] != "\ufffd"):
                    self.fours += 1  # (a four-byte token, or a pair GBK lacks: the other C codec has both)
                    if self.fours > _FOUR_AFTER:
                        raise _FourByteInput from None  # (given up: the other C codec decodes them)
                return run(data, i, hit) if hit[2] else (hit[0], i + hit[1])
        elif len(set(reach[0x80:])) == 1:  # Big5, Shift_JIS, EUC-KR: two bytes
            width = reach[0x80]

            def handle(exc: UnicodeDecodeError) -> tuple[str, int]:
                data, i = exc.object, exc.start
                key = data[i:i + width]
                hit = get(key) or token(exc, key)
                return run(data, i, hit) if hit[2] else (hit[0], i + hit[1])
        else:  # EUC-JP: three bytes after 0x8F, else two
            long_lead = reach.index(3)

            def handle(exc: UnicodeDecodeError) -> tuple[str, int]:
                data, i = exc.object, exc.start
                key = data[i:i + 2]
                if key[0] == long_lead:  # (a str, not a decode error, never equals an int)
                    key = data[i:i + 3]
                hit = get(key) or token(exc, key)
                return run(data, i, hit) if hit[2] else (hit[0], i + hit[1])

        return handle

    def promote(self) -> None:
        """Restore the cache entries of the tokens that *bulk* gained little on (each input starts so)."""
        for hit in self.demoted:
            if hit[3] in self.cache:
                self.cache[hit[3]] = hit
        self.demoted.clear()

    def _fix(self, text: str, data: bytes) -> str:
        present = [c for c in self.text_fixes if c in text]  # each test is one fast C scan
        if any(fix_re.search(data) for fix_re in self.byte_fix_res):
            present += [c for c in self.byte_fixes if c in text]
        if present:
            if any(self.fixes[c] in present for c in present):  # a swap: map all at once
                return text.translate({ord(c): self.fixes[c] for c in present})
            for c in present:
                text = text.replace(c, self.fixes[c])
        return text

    def _c_decode(self, data: bytes) -> str:
        if self.demoted:
            self.promote()
        self.fours = 0
        if self.dense is not None:
            text = self.dense(data)
            if text is not None:
                return text
        try:
            return self._fix(str(data, self.c_codec, self.errors), data)
        except _FourByteInput:
            return self.four()(data)  # type: ignore[misc]  # (raised only where it is set)

    def __call__(self, data: Buffer) -> str:
        if self.compiled is not None:
            return self.compiled(data)
        return self.python(data)

    def python(self, data: Buffer) -> str:
        """The Python decoder's text of *data*: on the C codec, the standard's steps where it differs."""
        if not isinstance(data, bytes):
            data = bytes(data)
        if data.isascii():  # each byte 00-7F is a token of its own, its code point (no ISO-2022-JP here)
            return data.decode("ascii")
        if self.split_re is not None and self._has_split(data):
            return self.decode_splits(data)
        return self._c_decode(data)  # most pages: no ambiguous token

    def decode_splits(self, data: bytes, shortcut: bool = True) -> str:
        """The text of *data*, which holds a split token (see the module doc; Big5 0xA2 0x41, EUC-JP
        0x8F 0xA2 0xB7). Where it holds more than _SPLIT_PROBES of them, at C speed: the C codec's
        text of *data* with its marks set (:attr:`marks`: MARK escaped, then the split tokens that
        start a token marked, or their rivals, at C speed), set right by a few str.replace; where
        *data* holds no rival's bytes, the C codec's text of *data*, each split token's character
        swapped.

        Its plain twin (*shortcut* false, and where few): each split token's place is told by a walk
        from a token boundary before it, and the text decoded around those that start a token."""
        marks = self.marks
        if shortcut and marks is not None and sum(map(data.count, self.splits)) > _SPLIT_PROBES:
            if not any(map(data.__contains__, marks.rivals)):  # each such character is a split token's
                text = self._c_decode(data)
                for old, new in marks.swaps:
                    text = text.replace(old, new)
                return text
            text = self._c_decode(marks.mark(data.replace(MARK, _ESCAPED)))
            for old, new in marks.unmark:
                text = text.replace(old, new)
            return text.replace(_ESCAPED.decode(), MARK.decode())
        # Decode around each ambiguous token that starts at a token boundary, each run between
        # them once. (*ahead*: a token boundary, from which the next match is told: each byte read
        # once, not from *done* at each match that starts no token, dense where a body repeats one)
        assert self.split_re is not None
        done = ahead = 0
        parts: list[str] = []
        for match in self.split_re.finditer(data):
            start = match.start()
            if start < done:
                continue
            token, ahead = self._token_span(data, ahead, start)
            if token == start:
                text, end = self.step(data, start)
                parts += (self._c_decode(data[done:start]), text)
                done = ahead = end
        parts.append(self._c_decode(data[done:]))
        return "".join(parts)

    def _has_split(self, data: bytes) -> bool:
        """Whether *data* holds a token CPython's output cannot tell apart (see the module doc).
        A split token's first byte is rare on real pages (Big5 0xA2, EUC-JP 0x8F): its first few
        places are found by memchr and checked in place; past them, one regex search."""
        if self.split_re is None:
            return False
        for first in self.split_firsts:
            i = data.find(first)
            for _ in range(_SPLIT_PROBES):
                if i < 0:
                    break
                if data.startswith(self.splits, i):
                    return True
                i = data.find(first, i + 1)
            else:
                if i >= 0 and self.split_re.search(data, i) is not None:
                    return True
        return False

    def decode_clean(self, data: Buffer) -> tuple[str, bool]:
        """``(self(data), clean)``: *clean* is true when CPython's codec (:attr:`c_codec`) decodes
        *data* without an error to that very text (no token it decodes otherwise than the
        standard: a caller comparing with that codec's text need not decode again). At the cost
        of one decode, as the call itself."""
        if not isinstance(data, bytes):
            data = bytes(data)
        if data.isascii() or self._has_split(data):
            return self(data), data.isascii()
        try:
            text = str(data, self.c_codec, "strict")
        except UnicodeDecodeError:
            return self(data), False
        fixed = self._fix(text, data)
        return fixed, fixed is text

    def _token_span(self, data: bytes, known: int, position: int) -> tuple[int, int]:
        """:func:`token_span` (``(position, position)`` where a token starts at *position*; ``(known,
        known)`` where *known* is past it, inside the token before): tokenize forward from the last
        sync byte (or *known*, a boundary) before it, token by token where that is near (a split
        token's first byte every few bytes: no search for sync bytes at each)."""
        i = known if position - known <= _NEAR else max(known, *(data.rfind(b, known, position) for b in _SYNC))
        if position - i > _LONG_WALK:  # (random bytes, a binary file: no sync byte)
            return token_span(self.step, data, i, position)
        start = i
        while i < position:
            start, i = i, self.step(data, i)[1]
        return (position, position) if i == position else (start, i)


def html_error_mode(char: str) -> bytes:
    """Error mode "html" (§4.1): ``&#`` + the code point in decimal + ``;``."""
    return b"&#%d;" % ord(char)


def table_encoder(build: Callable[[], dict[str, bytes]]) -> Encoder:
    """Encoder for a stateless encoding; *build()* gives code point -> bytes for every non-ASCII
    code point it encodes, and is called on the first non-ASCII encode (decoding never builds
    an encoder's table). ASCII encodes as itself, lone surrogates as U+FFFD, anything else in
    "html" mode."""
    get = None

    def encode(text: str) -> bytes:
        nonlocal get
        if text.isascii():
            return text.encode("ascii")
        if get is None:
            get = ({chr(b): bytes([b]) for b in range(0x80)} | build()).get
        return b"".join([get(c) or html_error_mode("\ufffd" if "\ud800" <= c <= "\udfff" else c)
                         for c in text])

    return encode
