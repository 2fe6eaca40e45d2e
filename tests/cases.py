"""Byte strings that exercise each decoder, shared by the tests and ``tools/exactness_report.py``.

:func:`decoder_cases` ``(name) -> dict[str, list[bytes]]`` gives, per encoding name, named groups
of test byte strings: every single byte (alone, followed by ``b"A"`` and by a lead byte), every
two-byte sequence (lead 0x80-0xFF x every trail, alone and followed by an ASCII byte), truncated
multi-byte tails, and the encoding's own edge cases (UTF-8 three- and four-byte forms, gb18030
four-byte sequences, EUC-JP ``8F xx yy``, ISO-2022-JP escapes and states, UTF-16 surrogates).
:func:`corpus_cases` gives the real pages of ``tests/data/corpus`` with their true encoding.
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import json
import pathlib

from reference import GB18030_ENCODER_TABLE, NO_ENCODER, encoding_names, index_code_points, read_index, ref_encode

DATA = pathlib.Path(__file__).resolve().parent / "data"
CORPUS = DATA / "corpus"

ALL_BYTES = range(0x100)
HIGH_BYTES = range(0x80, 0x100)

# Encodings whose decoders keep state across bytes (two-byte sequences matter).
MULTI_BYTE = ("UTF-8", "GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR",
              "UTF-16BE", "UTF-16LE")

# A byte that starts a multi-byte sequence in each encoding ("followed by a lead byte").
LEAD_BYTES = {
    "UTF-8": (0xC3, 0xE3, 0xF0), "GBK": (0x81, 0xB0), "gb18030": (0x81, 0xB0),
    "Big5": (0x81, 0xA4), "EUC-JP": (0x8E, 0x8F, 0xA4), "ISO-2022-JP": (0x1B,),
    "Shift_JIS": (0x81, 0xE0), "EUC-KR": (0x81, 0xB0), "UTF-16BE": (0xD8,), "UTF-16LE": (0xD8,),
}


def _unique(items):
    return list(dict.fromkeys(bytes(item) for item in items))


def single_bytes(name):
    """Every byte alone, followed by b"A", and followed by each of the encoding's lead bytes;
    plus all 256 bytes in one string."""
    leads = LEAD_BYTES.get(name, (0x80, 0xFF))
    cases = [bytes([b]) for b in ALL_BYTES]
    cases += [bytes([b, 0x41]) for b in ALL_BYTES]
    cases += [bytes([b, lead]) for b in ALL_BYTES for lead in leads]
    cases.append(bytes(ALL_BYTES))
    return cases


def two_bytes(name):
    """Every lead 0x80-0xFF x every trail 0x00-0xFF, alone and followed by an ASCII byte."""
    cases = [bytes([lead, trail]) for lead in HIGH_BYTES for trail in ALL_BYTES]
    cases += [bytes([lead, trail, 0x41]) for lead in HIGH_BYTES for trail in ALL_BYTES]
    return cases


@functools.cache
def _mapped_code_points(name):
    """A sample of code points that *name*'s encoder maps (for truncated tails)."""
    if name in ("UTF-8", "UTF-16BE", "UTF-16LE"):
        return (0xE9, 0x20AC, 0xFFFD, 0x1F4A9, 0x10000, 0x10FFFF, 0x7FF, 0x800)
    files = {"GBK": "index-gb18030.txt", "gb18030": "index-gb18030.txt", "Big5": "index-big5.txt",
             "EUC-JP": "index-jis0208.txt", "ISO-2022-JP": "index-jis0208.txt",
             "Shift_JIS": "index-jis0208.txt", "EUC-KR": "index-euc-kr.txt"}
    code_points = [cp for _, cp in read_index(files[name])]
    sample = code_points[::max(1, len(code_points) // 300)]
    if name == "gb18030":
        sample += [0x80, 0xA5, 0xE7C7, 0xFFFF, 0x10000, 0x10FFFF, 0x20AC]
    if name == "EUC-JP":
        sample += [0xFF61, 0xFF9F]
    return tuple(sample)


def _encode_exact(name, code_point):
    if name == "UTF-16BE":
        return chr(code_point).encode("utf-16-be")
    if name == "UTF-16LE":
        return chr(code_point).encode("utf-16-le")
    return ref_encode(name, chr(code_point))


def truncated_tails(name):
    """Valid multi-byte characters cut short: every proper prefix, alone, followed by b"A",
    and followed by the whole character again."""
    cases = []
    for code_point in _mapped_code_points(name):
        whole = _encode_exact(name, code_point)
        for cut in range(1, len(whole)):
            head = whole[:cut]
            cases += [head, head + b"A", head + whole, b"A" + head]
        cases += [whole, whole + b"A"]
    return cases


def utf_8_cases():
    """Three- and four-byte UTF-8 forms around every lower/upper boundary."""
    edges = (0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0,
             0xF4, 0xFF)
    cases = [bytes([lead, second, third]) for lead in range(0xE0, 0xF5) for second in edges
             for third in ALL_BYTES]
    cases += [bytes([lead, second, 0x80, fourth]) for lead in range(0xF0, 0xF5)
              for second in edges for fourth in ALL_BYTES]
    cases += [bytes([lead, second, third, 0x41]) for lead in range(0xE0, 0xF5)
              for second in edges for third in edges]
    cases += [bytes([lead, 0x90, third, fourth, 0x41]) for lead in range(0xF0, 0xF5)
              for third in edges for fourth in edges]
    return cases


def gb18030_pointer_bytes(pointer):
    """The four bytes of a gb18030 four-byte pointer (the encoder's arithmetic)."""
    b1, rest = divmod(pointer, 10 * 126 * 10)
    b2, rest = divmod(rest, 10 * 126)
    b3, b4 = divmod(rest, 10)
    return bytes([b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30])


def gb18030_four_byte_cases(step=7):
    """A dense sample (every *step*-th) of the whole four-byte space 81-FE 30-39 81-FE 30-39,
    every boundary of every index-gb18030-ranges entry, the special pointers, and invalid
    third/fourth bytes."""
    space = 126 * 10 * 126 * 10
    cases = [gb18030_pointer_bytes(p) for p in range(0, space, step)]
    pointers = set()
    entries = read_index("index-gb18030-ranges.txt")
    for (pointer, _), following in zip(entries, entries[1:] + ((space, None),)):
        pointers.update((pointer - 1, pointer, pointer + 1, following[0] - 1, following[0]))
    pointers.update((7456, 7457, 7458, 39418, 39419, 39420, 39421, 188999, 189000, 189001,
                     1237574, 1237575, 1237576, 1237577, space - 1))
    for pointer in sorted(p for p in pointers if 0 <= p < space):
        four = gb18030_pointer_bytes(pointer)
        cases += [four, four + b"A", four + b"5", four[:3] + b"A", four[:2] + b"A", four[:3]]
    for first in (0x81, 0x84, 0x90, 0xE3, 0xFE):
        for second in (0x30, 0x35, 0x39):
            for byte in ALL_BYTES:
                cases.append(bytes([first, second, byte]))
                cases.append(bytes([first, second, byte, 0x41]))
                cases.append(bytes([first, second, 0x81, byte]))
                cases.append(bytes([first, second, 0xFE, byte, 0x41]))
    # A first byte followed by 0x30-0x39 and something that is neither (the "restore" paths).
    for second in range(0x30, 0x3A):
        for byte in (0x00, 0x30, 0x41, 0x7F, 0x80, 0x81, 0xFE, 0xFF):
            cases.append(bytes([0x81, second, byte, 0x30]))
            cases.append(bytes([0x81, second, 0x81, byte, 0x30]))
    return cases


def euc_jp_cases():
    """Every ``8F xx yy`` with xx, yy in 0x80-0xFF, alone and followed by b"A", plus invalid
    second/third bytes."""
    cases = [bytes([0x8F, x, y]) for x in HIGH_BYTES for y in HIGH_BYTES]
    cases += [bytes([0x8F, x, y, 0x41]) for x in HIGH_BYTES for y in HIGH_BYTES]
    for x in (0x00, 0x0A, 0x41, 0x7F, 0x8E, 0x8F, 0xA0, 0xA1, 0xB0, 0xFE, 0xFF):
        for y in ALL_BYTES:
            cases.append(bytes([0x8F, x, y]))
    for x in (0xA1, 0xB0, 0xED, 0xFE):
        for y in (0x00, 0x21, 0x41, 0x7F, 0x8E, 0x8F):
            cases += [bytes([0x8F, x, y]), bytes([0x8F, x, y, 0xA1]), bytes([0x8F, x, y, 0x41])]
    return cases


ISO_2022_JP_ESCAPES = (b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B")
# Decoder states reached by a prefix: ASCII, Roman, katakana, leading byte (both escapes),
# trailing byte, and after output (ISO-2022-JP output flag false/true).
ISO_2022_JP_PREFIXES = (b"", b"A", b"\x1b(B", b"\x1b(J", b"\x1b(J\\", b"\x1b(I", b"\x1b(I1",
                        b"\x1b$@", b"\x1b$B", b"\x1b$B!", b"\x1b$B0!", b"\x1b$B0!0")


def iso_2022_jp_cases():
    """Escape sequences and state transitions of the ISO-2022-JP decoder."""
    cases = []
    # Every ESC pair and triple, in every state, alone and followed by b"A".
    for prefix in ISO_2022_JP_PREFIXES:
        for byte in ALL_BYTES:
            for middle in (b"\x1b", b"\x1b$", b"\x1b(", b""):
                seq = prefix + middle + bytes([byte])
                cases += [seq, seq + b"A", seq + b"!!"]
        for middle in (b"\x1b", b"\x1b$", b"\x1b("):
            cases.append(prefix + middle)  # truncated escape
    # Two and three escapes in a row (the output flag), with and without output between them.
    invalid = (b"\x1b", b"\x1b$", b"\x1b(", b"\x1b$A", b"\x1b(A", b"\x1bA")
    pieces = ISO_2022_JP_ESCAPES + invalid
    for first in pieces:
        for second in pieces:
            for tail in (b"", b"A", b"!!", b"\\~1"):
                cases += [first + second + tail, first + tail + second + tail]
            for third in ISO_2022_JP_ESCAPES:
                cases.append(first + second + third + b"A")
    # Every two-byte sequence in the leading byte state (ESC $ B and ESC $ @).
    cases += [b"\x1b$B" + bytes([lead, trail]) for lead in ALL_BYTES for trail in ALL_BYTES]
    cases += [b"\x1b$@" + bytes([lead, trail]) + b"\x1b(BA" for lead in range(0x21, 0x7F)
              for trail in ALL_BYTES]
    return cases


def _utf_16(units, name, odd=b""):
    big = b"".join(unit.to_bytes(2, "big") for unit in units)
    if name == "UTF-16LE":
        big = b"".join(unit.to_bytes(2, "little") for unit in units)
    return big + odd


def utf_16_cases(name):
    """Every code unit alone; surrogate cases: lone leading/trailing surrogates, a leading
    surrogate at the end, an odd byte at the end, a leading surrogate followed by an odd byte,
    by every code unit, and by another leading surrogate."""
    cases = [_utf_16([unit], name) for unit in range(0x10000)]
    cases += [_utf_16([0xD83D, unit], name) for unit in range(0x10000)]
    leads = (0xD800, 0xD801, 0xD83D, 0xDB7F, 0xDB80, 0xDBFF)
    trails = (0xDC00, 0xDC01, 0xDCA9, 0xDFFE, 0xDFFF)
    others = (0x0000, 0x0041, 0x00FF, 0x0100, 0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF)
    for lead in range(0xD800, 0xDC00):
        cases += [_utf_16([lead], name), _utf_16([lead, 0xDC00], name),
                  _utf_16([lead, 0x41], name), _utf_16([lead], name, b"A")]
    for lead in leads:
        for trail in trails:
            cases += [_utf_16([lead, trail], name), _utf_16([trail, lead], name),
                      _utf_16([lead, lead, trail], name), _utf_16([lead, trail, trail], name),
                      _utf_16([lead, trail], name, b"\x00"), _utf_16([trail], name, b"\xd8")]
        for other in others:
            cases += [_utf_16([lead, other], name), _utf_16([other, lead], name),
                      _utf_16([lead, other, lead], name, b"\xdc"),
                      _utf_16([lead], name, bytes([other & 0xFF]))]
        cases += [_utf_16([lead], name, b"\x00"), _utf_16([lead], name, b"\xdc"),
                  _utf_16([lead, 0x41], name, b"\x00")]
    for other in others + trails:
        for odd in (b"\x00", b"\xd8", b"\xdc", b"\xff"):
            cases += [_utf_16([other], name, odd), _utf_16([other, other], name, odd)]
    return cases


@functools.cache
def decoder_cases(name: str) -> dict:
    """Named groups of test byte strings (each a list of unique ``bytes``) for encoding *name*."""
    if name not in encoding_names():
        raise ValueError(f"not an encoding name: {name!r}")
    groups = {"single bytes": single_bytes(name)}
    if name in MULTI_BYTE:
        groups["two bytes"] = two_bytes(name)
        groups["truncated tails"] = truncated_tails(name)
    if name == "UTF-8":
        groups["three and four bytes"] = utf_8_cases()
    if name in ("GBK", "gb18030"):
        groups["four bytes"] = gb18030_four_byte_cases()
    if name == "EUC-JP":
        groups["8F xx yy"] = euc_jp_cases()
    if name == "ISO-2022-JP":
        groups["escapes and states"] = iso_2022_jp_cases()
    if name in ("UTF-16BE", "UTF-16LE"):
        groups["code units and surrogates"] = utf_16_cases(name)
    if name == "replacement":
        groups["lengths"] = [b"\x00" * n for n in range(8)] + [b"A" * 1000]
    return {group: _unique(cases) for group, cases in groups.items()}


@functools.cache
def corpus_cases() -> tuple:
    """(encoding name, file path relative to the corpus, bytes) for every corpus file whose true
    encoding (manifest.json) is a WHATWG encoding."""
    manifest = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
    return tuple((entry["encoding"], entry["path"], (CORPUS / entry["path"]).read_bytes())
                 for entry in manifest if entry["encoding"] is not None)


def encodable_code_points(name: str) -> list:
    """Every code point the encoder of *name* maps without an error, in ascending order
    (for round trips); the code points are chosen from the encoding's indexes and rules."""
    if name in NO_ENCODER:
        raise ValueError(f"no encoder for {name!r}")
    ascii_range = list(range(0x80))
    # Every BMP scalar value and a sample (every 61st) of the supplementary planes.
    sampled = [cp for cp in range(0x10000) if not 0xD800 <= cp <= 0xDFFF]
    sampled += list(range(0x10000, 0x110000, 61)) + [0x10FFFF]
    if name == "UTF-8":
        return sampled
    if name == "x-user-defined":
        return ascii_range + list(range(0xF780, 0xF800))
    table = {"GBK": "index-gb18030.txt", "gb18030": "index-gb18030.txt",
             "Big5": "index-big5.txt", "EUC-JP": "index-jis0208.txt",
             "ISO-2022-JP": "index-jis0208.txt", "Shift_JIS": "index-jis0208.txt",
             "EUC-KR": "index-euc-kr.txt"}.get(name)
    if table is None:  # single-byte
        index = "index-iso-8859-8.txt" if name == "ISO-8859-8-I" else f"index-{name.lower()}.txt"
        return sorted(set(ascii_range) | set(index_code_points(index).values()))
    points = set(ascii_range) | set(index_code_points(table).values())
    if name == "gb18030":  # every scalar value except U+E5E5 (ranges cover the rest)
        return [cp for cp in sampled if cp != 0xE5E5]
    if name == "GBK":  # 0x80, and the encoder's own table of Private Use code points
        points |= {0x20AC} | set(GB18030_ENCODER_TABLE)
    if name == "Big5":  # pointers below (0xA1 - 0x81) x 157 are not used by the encoder
        points = set(ascii_range) | {cp for p, cp in read_index(table) if p >= (0xA1 - 0x81) * 157}
    if name in ("EUC-JP", "ISO-2022-JP"):
        points |= {0xA5, 0x203E, 0x2212} | set(range(0xFF61, 0xFFA0))
    if name == "Shift_JIS":  # pointers 8272-8835 are not used by the encoder
        points = set(ascii_range) | {cp for p, cp in read_index(table) if not 8272 <= p <= 8835}
        points |= {0x80, 0xA5, 0x203E, 0x2212} | set(range(0xFF61, 0xFFA0))
    points.discard(0xE5E5)
    if name == "ISO-2022-JP":
        points -= {0x0E, 0x0F, 0x1B}
    return sorted(points)


def compare_decoder(name: str, decode, groups=None):
    """Run *decode* (bytes -> str) and the reference decoder of *name* over every case.

    Returns ``(compared, mismatches)``: the number of byte strings compared and a list of
    ``(group, data, expected, got)``; an exception raised by *decode* counts as a mismatch
    with ``got`` set to its repr."""
    from reference import ref_decode

    if groups is None:
        groups = decoder_cases(name)
    compared = 0
    mismatches = []
    for group, cases in groups.items():
        for data in cases:
            compared += 1
            expected = ref_decode(name, data)
            try:
                got = decode(data)
            except Exception as exc:  # noqa: BLE001 — a decoder must never raise: any exception is a mismatch
                got = f"raised {exc!r}"
            if got != expected:
                mismatches.append((group, data, expected, got))
    return compared, mismatches


def describe_mismatches(name: str, compared: int, mismatches, limit: int = 5) -> str:
    """A failure message: the count and the first mismatching inputs (hex) with both outputs."""
    lines = [f"{name}: {len(mismatches)} of {compared} byte strings differ from the reference"]
    for group, data, expected, got in mismatches[:limit]:
        lines.append(f"  [{group}] input {data.hex(' ')}: expected {expected!r}, got {got!r}")
    return "\n".join(lines)


def stray_byte_page() -> tuple[bytes, str]:
    """Issue 21's real-world case rebuilt (item 6): an unlabeled UTF-8 page of about 37 KB (no
    ``<meta>``, no BOM) with 3,600 two-byte and 1,200 three-byte sequences (``é à ë ”``) and one
    stray byte, a latin-1 ``é`` (``caf\\xe9``) in the middle. Returns ``(body, the text its author
    wrote with U+FFFD for the stray byte)``. ``”`` (``E2 80 9D``) holds 0x9D, which Python's cp1252
    lacks: Scrapy alone tries UTF-8, then cp1252, and falls back to ASCII (10,801 U+FFFD)."""
    head = ("<!DOCTYPE html>\n<html lang=fr><head><title>Carnet de voyage</title>\n"
            + "<link rel=stylesheet href=/style.css>\n" * 20 + "</head><body>\n")
    paragraphs = ["<p>Thé à Noël ? Oui”</p>\n"] * 1200
    paragraphs[600] = "<p>Au caf\udce9 : thé à Noël ? Oui”</p>\n"  # the stray byte, as a surrogate escape
    text = head + "".join(paragraphs) + "</body></html>\n"
    return text.encode("utf-8", "surrogateescape"), text.replace("\udce9", "\ufffd")


@contextlib.contextmanager
def chunk_size(size: int):
    """Whole-body scans (``sniffing.body.CHUNK``) a *size* bytes at a time, so that sequences
    straddle chunk boundaries."""
    body_module = importlib.import_module("scrapy_whatwg_encoding.sniffing.body")
    saved = body_module.CHUNK
    body_module.CHUNK = size
    try:
        yield
    finally:
        body_module.CHUNK = saved


def scrapy_project(root: pathlib.Path, package: str, settings: str, spiders: dict[str, str]) -> pathlib.Path:
    """A Scrapy project in *root*: ``scrapy.cfg`` naming *package*, whose ``settings.py`` is
    *settings* and whose ``spiders`` package has the modules *spiders* (name → source;
    ``"__init__"`` for the package itself, empty unless given). Returns *root*."""
    (root / "scrapy.cfg").write_text(f"[settings]\ndefault = {package}.settings\n")
    modules = root / package / "spiders"
    modules.mkdir(parents=True)
    (root / package / "__init__.py").write_text("")
    (root / package / "settings.py").write_text(settings)
    for name, source in {"__init__": "", **spiders}.items():
        (modules / f"{name}.py").write_text(source)
    return root
