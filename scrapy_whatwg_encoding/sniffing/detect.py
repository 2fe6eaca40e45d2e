"""Autodetection (HTML §13.2.3.2 step 8) with two maintained detectors: chardetng
(https://github.com/hsivonen/chardetng, Firefox's, through chardetng-py) and uchardet (through the
faust-cchardet wheel). No statistics of our own: the detectors decide.

Modes:

- ``"browser"``: what Firefox does for http(s) pages: chardetng with the URL's TLD as a hint and
  never a UTF-8 guess. Firefox guesses from the start of the body, guesses again over the whole
  body at its end and reloads the page if the guess changed, so the whole-body guess is what it
  shows (tools/browser_check measured it). This mode reads "full"'s window (:data:`STAT_LIMIT`
  bytes from just before the first non-ASCII byte) and reads on only while the guess is not
  settled: each further quarter of what was read that changes the guess asks for another (up to
  :data:`DETECT_LIMIT` bytes); a quarter without a non-ASCII byte settles nothing, and the read
  goes on with a window like the first at the next non-ASCII byte, the ASCII up to it left out (a
  stray early byte, such as a UTF-8 BOM past byte 0, then legacy text further on: both browsers
  guess from that text, issue 35). On the 197 unlabeled legacy pages of tools/bench_classes.py it
  gives the whole-body guess on 195 (issue 27: 194; the window alone: 191) and reads 2.1 KB a page
  on average (4.6 KB at most). Input without a non-ASCII byte gives ``None``, except chardetng's ISO-2022-JP guess
  for 7-bit input with ISO-2022-JP escape sequences that decodes to JIS text (see
  :func:`has_jis_text`), as in ``"full"``.
  Firefox ESR 153 and Chromium 156 no longer detect 7-bit ISO-2022-JP at all (tools/differential),
  which the ``"browsers"`` profile follows; the standard leaves detectors open and a crawler
  keeps a real Japanese page readable.
- ``"full"``: for crawlers, which have the whole body. What is cheap looks at the *entire* body at
  C speed: no non-ASCII byte gives ``None`` (or ISO-2022-JP with JIS text, as in ``"browser"``); valid UTF-8
  from end to end gives UTF-8. Only the statistical part is capped, to :data:`STAT_LIMIT` bytes
  from just before the first non-ASCII byte. The rule there: chardetng (Firefox's detector, with
  the URL's TLD) names the encoding; where its repertoire has a gap — it answers windows-1252 or a
  Cyrillic encoding, what it says for x-mac-cyrillic (which it never answers) and for Central
  European text from a generic domain — uchardet may overrule it, if at least
  :data:`UCHARDET_CONFIDENCE` sure of a legacy Web encoding in which those bytes decode without
  error and to other text, over its first :data:`UCHARDET_LIMIT` bytes (uchardet costs ~1 µs a
  byte, so it is asked only there, and over less).
  (tools/sniff_accuracy.py measures the rule and each detector alone on tests/data/corpus.)

In ``"full"`` mode UTF-8 with a few stray bytes is UTF-8 too (:data:`STRAY_RULE`, see
:func:`mostly_utf_8`), over the whole body: chardetng rules UTF-8 out at its first invalid byte.
"""
from __future__ import annotations

import codecs
import functools
import math
import re
import zlib
from types import ModuleType
from urllib.parse import urlsplit

from chardetng_py.detector import EncodingDetector

from ..encoding import ENCODINGS, Encoding, get_encoding
from ..encoding.tables.single_byte import SINGLE_BYTE
from . import body as body_module
from .body import Body, next_non_ascii
from .decision import DETECTOR_MODES, DetectorMode

_cchardet: ModuleType | None
try:  # faust-cchardet is a dependency; without it "full" falls back to chardetng alone
    import cchardet as _cchardet
except ImportError:  # pragma: no cover
    _cchardet = None

#: Bytes chardetng reads at most in "browser" mode, from just before the first non-ASCII byte
#: (Firefox reads the whole body; this bounds the work where the guess never settles).
DETECT_LIMIT = 1 << 20
#: Bytes chardetng reads at most in "full" mode, from just before the first non-ASCII byte; and
#: bytes uchardet reads at most, from the start of the same window. Chosen by cross-validation
#: (tools/detector_window_cv.py, issue 26): on 1,136 cases from the 193 corpus pages (each page
#: whole and from 7 later points on, declarations stripped; 5 folds stratified by encoding, a
#: page's cases in one fold, 5 shuffles), the pair the training folds get most right is 2048/2048
#: in every fold, right on 1,128 held-out cases (99.3%), where 1536/512 (the previous pair) gets
#: 1,121 and 4096/1024 1,124; whole pages alone cannot tell the pairs apart (191/193 for every
#: pair with uchardet reading 512 bytes or more). chardetng costs ~0.1-0.3 ms a KiB of non-ASCII
#: text, uchardet ~0.5 µs a byte, asked only where chardetng's answer has a gap (:data:`_GAPS`).
STAT_LIMIT = 2048
UCHARDET_LIMIT = 2048
#: uchardet's own confidence (0-1) below which its answer is not taken: it says it is guessing.
UCHARDET_CONFIDENCE = 0.5
#: Stray bytes in UTF-8 (issue 21): a body that is not valid UTF-8 is still UTF-8 when it has at
#: least ``STRAY_RULE[0]`` valid multi-byte sequences and at most ``max(STRAY_RULE[1],
#: STRAY_RULE[2] % of them)`` invalid ones. Measured by tools/stray_bytes.py (docs/algorithm.rst):
#: no legacy corpus page, slice of one (128 B - 8 KiB) or hypothesis-generated legacy text meets
#: it (with 5 valid sequences or more, they have at most 2.2 (corpus) or 4 (generated) valid
#: sequences per invalid one; the rule asks for 10).
STRAY_RULE = (5, 2, 10)
#: Bytes from the first non-ASCII byte that must meet :data:`STRAY_RULE` on their own too: they bound
#: the work on a legacy body (~1 ns a byte for a weighted byte count), whatever its size.
STRAY_HEAD = 1 << 20
_CONTEXT = 256  # ASCII bytes kept before the first non-ASCII byte
_ORDER_PROBE = 256  # bytes whose weights order _cannot_meet_rule's tables (each weight at most 0xFF: an exact sum)

_TLD = re.compile(r"[a-z0-9-]+\Z")
# scheme://host[:port] then the path, query, fragment or the end: a URL whose host urlsplit takes
# as it is (no user info, brackets, percent sign, tab or newline, non-ASCII letter to check).
_PLAIN_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://([A-Za-z0-9.-]*)(?::[0-9]*)?(?=[/?#]|\Z)")
_utf_8_incremental = codecs.getincrementaldecoder("utf-8")
_ASCII = bytes(range(0x80))
_REPLACEMENT = "\ufffd".encode()
# chardetng-py renames two of chardetng's answers for Python's codecs: back to chardetng's own.
_CHARDETNG_NAMES = {"cp874": "windows-874", "gb18030": "GBK"}
# uchardet's names that are no label of the Encoding Standard, for the WHATWG encoding with the
# same decoder (uchardet's UHC is Windows code page 949, which is what WHATWG's EUC-KR decodes);
# its GB18030 becomes GBK, as browsers' detectors name it (same decoder, GBK's encoder).
_UCHARDET_NAMES = {"mac-cyrillic": "x-mac-cyrillic", "maccyrillic": "x-mac-cyrillic", "uhc": "EUC-KR",
                   "gb18030": "GBK"}
# Answers the statistical step never takes: UTF-8 was decided over the whole body before it, a
# BOM-less UTF-16 is no detector's business, and the replacement encoding decodes nothing.
_NOT_DETECTED = frozenset(e for e in ENCODINGS.values() if e.name == "UTF-8" or e.output_encoding is not e)
#: Encodings in which every byte decodes alone to a character, so that no input decodes with an
#: error: the single-byte encodings whose index maps every byte (windows-1252, KOI8-R ...) and
#: x-user-defined.
DECODES_EVERY_BYTE = frozenset(ENCODINGS[name] for name, high in SINGLE_BYTE.items() if "\ufffd" not in high) | {
    ENCODINGS["x-user-defined"]}
# chardetng's answers that uchardet may overrule (each of DECODES_EVERY_BYTE): its generic fallback, and the Cyrillic
# encodings it answers for x-mac-cyrillic, which it lacks.
_GAPS = frozenset(ENCODINGS[name] for name in ("windows-1252", "windows-1251", "KOI8-U", "ISO-8859-5", "IBM866"))


def tld_of(url: str | None) -> bytes | None:
    """The last label of *url*'s host as lowercase ASCII bytes (IDNA form), for chardetng's
    hint; ``None`` for no host, an IP address, or a label that cannot be converted."""
    if not url:
        return None
    try:
        host = _hostname(str(url).strip())
    except ValueError:
        return None
    if not host:
        return None
    label = host.rstrip(".").rsplit(".", 1)[-1]
    if not label.isascii():
        try:
            label = label.encode("idna").decode("ascii")
        except UnicodeError:
            return None
    label = label.lower()
    if not _TLD.match(label) or label.isdigit() or ":" in host:
        return None
    return label.encode("ascii")


def _hostname(url: str) -> str | None:
    """``urlsplit(url).hostname`` (lowercase, ``None`` for none; ``ValueError`` for a malformed
    netloc), read off a plain ``scheme://host[:port]`` URL without splitting it (~5 µs less)."""
    plain = _PLAIN_URL.match(url)
    if plain is None:
        return urlsplit(url).hostname
    return plain[1].lower() or None


def utf_8_sequences(body: bytes, start: int = 0, valid: bool = True) -> tuple[int, int]:
    """``(valid multi-byte sequences, invalid sequences)`` of ``body[start:]`` decoded as UTF-8
    (the Encoding Standard's UTF-8 decoder: one error, one U+FFFD, per maximal invalid subpart, as
    Python's ``"replace"`` counts them; an incomplete sequence at the end is one), at C speed a
    chunk at a time; with *valid* false the first number is 0, not counted (faster). Decoding
    errors costs ~50 ns a byte: see :func:`mostly_utf_8`."""
    decoder = _utf_8_incremental("replace")
    multi_byte = invalid = 0
    tail = b""  # the last 2 bytes before the chunk: an encoded U+FFFD may straddle chunks
    end = len(body)
    while start < end:
        chunk = body[start:start + body_module.CHUNK]
        start += len(chunk)
        text = decoder.decode(chunk, start >= end)
        # U+FFFD from errors = all U+FFFD less the ones the body encodes (EF BF BD is always valid);
        # ASCII bytes decode to themselves and never belong to an invalid sequence.
        errors = text.count("\ufffd")
        if errors:
            errors -= chunk.count(_REPLACEMENT) + (tail + chunk[:2]).count(_REPLACEMENT)
        if valid:
            multi_byte += len(text) - len(chunk) + len(chunk.translate(None, _ASCII)) - errors
        invalid += errors
        tail = (tail + chunk)[-2:]
    return multi_byte, invalid


def mostly_utf_8(body: bytes, start: int = 0) -> bool:
    """Whether ``body[start:]`` is UTF-8 with a few stray bytes: it meets :data:`STRAY_RULE`, and
    so does its first :data:`STRAY_HEAD` bytes (a legacy body is ruled out there, whatever its size).

    Counting the sequences (:func:`utf_8_sequences`) is slow on legacy text, which is mostly
    errors, so the head's weighted byte count rules out first what cannot pass (:func:`_cannot_meet_rule`)."""
    end = min(start + STRAY_HEAD, len(body))
    while start < end < len(body) and 0x80 <= body[end] < 0xC0:
        end -= 1  # the head ends between two sequences
    if _fewer_non_ascii(body, start, end, 2 * STRAY_RULE[0]):
        return False  # shortcut: a valid multi-byte sequence has two such bytes at least (its twin, the counts)
    head = body[start:end]
    if _cannot_meet_rule(head) or not _meets_rule(*utf_8_sequences(head)):
        return False
    # The head has enough valid sequences: the whole body's need counting only past STRAY_RULE[1] errors.
    return (end == len(body) or utf_8_sequences(body, start, valid=False)[1] <= STRAY_RULE[1]
            or _meets_rule(*utf_8_sequences(body, start)))


def _fewer_non_ascii(data: bytes, start: int, end: int, count: int) -> bool:
    """Whether ``data[start:end]`` holds fewer than *count* bytes ≥ 0x80: where its first
    :data:`_PROBE` bytes hold fewer, found by hops of the ASCII decoder (:func:`.body.next_non_ascii`),
    at C speed over the ASCII between (a page of ASCII with a stray byte at its start: 190 -> 5 µs at
    64 KiB, where the counts read every byte, hunted, issue 37)."""
    if len(data[start:start + _PROBE].translate(None, _ASCII)) >= count:
        return False  # (legacy text, dense with them: no hops)
    for _ in range(count):
        found = next_non_ascii(data, start, end)
        if found < 0:
            return True
        start = found + 1
    return False


_PROBE = 64  # bytes _fewer_non_ascii counts in before it hops


def _meets_rule(valid: int, invalid: int) -> bool:
    least, errors, percent = STRAY_RULE
    return valid >= least and invalid * 100 <= max(errors * 100, percent * valid)


def _cannot_meet_rule(data: bytes) -> bool:
    """``True`` when a weighted count of *data*'s bytes (~1 ns a byte: ``bytes.translate`` to the
    weights, summed by ``zlib.adler32``) shows that it cannot meet :data:`STRAY_RULE`.

    The weights, with ``VALID:INVALID`` the rule's ratio in least terms (1:10): a never-valid byte
    (C0, C1, F5-FF) ``INVALID``, a continuation byte (80-BF) *k*, a lead byte (C2-F4) that asks for
    *j* continuation bytes ``-j*k - VALID``, ASCII 0. A valid multi-byte sequence then weighs
    ``-VALID`` and, for ``-(INVALID + VALID) / 3 <= k <= INVALID``, an invalid one (a lone
    continuation or never-valid byte, a lead with fewer continuation bytes than it asks for) at most
    ``INVALID``, so data that meets the rule weighs at most ``max(0, INVALID * STRAY_RULE[1] -
    VALID * STRAY_RULE[0])`` (15). Legacy text weighs far more with the least *k* (leads without
    their continuation bytes) or the greatest (continuation bytes without a lead): 143 and 196 of
    the 197 unlabeled legacy pages of tools/bench_classes.py (one tiny page passes both)."""
    most, tables = _weight_tables(STRAY_RULE)
    # First the table whose weights exceed most on the first _ORDER_PROBE bytes (one pass, not two, on most
    # data that cannot meet the rule: the greatest k on CJK and IBM866 text, the least on random bytes).
    probe = data[:_ORDER_PROBE]
    ordered = sorted(tables, key=lambda entry: entry[1] * len(probe) - (zlib.adler32(probe.translate(entry[0]), 0) & 0xFFFF))
    for table, shift, chunk in ordered:
        weights = memoryview(data.translate(table))
        total = sum(zlib.adler32(weights[at:at + chunk], 0) & 0xFFFF for at in range(0, len(data), chunk))
        if total - shift * len(data) > most:
            return True
    return False


@functools.lru_cache(maxsize=4)
def _weight_tables(rule: tuple[int, int, int]) -> tuple[int, tuple[tuple[bytes, int, int], ...]]:
    """:func:`_cannot_meet_rule`'s greatest weight of data that meets *rule* and, for the least and
    the greatest *k*, (translate table, the shift that makes every weight a byte, bytes per sum)."""
    least, errors, percent = rule
    common = math.gcd(100, percent)
    valid, invalid = percent // common, 100 // common  # the least ratio VALID:INVALID
    tables = []
    for k in (-((invalid + valid) // 3), invalid):
        # ASCII, continuation, C0-C1, 2-, 3-, 4-byte leads (C2-DF, E0-EF, F0-F4), F5-FF
        runs = ((0x80, 0), (0x40, k), (2, invalid), (30, -k - valid), (16, -2 * k - valid), (5, -3 * k - valid),
                (11, invalid))
        shift = -min(weight for _, weight in runs)
        top = shift + max(weight for _, weight in runs)
        if top > 0xFF:  # pragma: no cover - a rule far from issue 21's
            continue
        table = b"".join(bytes([weight + shift]) * size for size, weight in runs)
        tables.append((table, shift, 65520 // max(top, 1)))  # adler32's sum is exact below 65521
    return max(0, invalid * errors - valid * least), tuple(tables)


def _chardetng(data: bytes, tld: bytes | None, last: bool = True) -> Encoding | None:
    """chardetng's guess over *data*, without UTF-8."""
    detector = EncodingDetector()
    detector.feed(data, last=last)
    return from_chardetng(detector.guess(tld=tld, allow_utf8=False))


def from_chardetng(name: str) -> Encoding | None:
    """The :class:`Encoding` for an answer of chardetng-py (which says ``cp874`` for
    windows-874 and ``gb18030`` for chardetng's GBK, for Python's codecs)."""
    return get_encoding(_CHARDETNG_NAMES.get(name, name))


def from_uchardet(name: str | None) -> Encoding | None:
    """The :class:`Encoding` for an answer of uchardet (``MAC-CYRILLIC``, ``UHC``, ``GB18030`` as
    GBK, and the labels of the Encoding Standard), or ``None`` for its encodings that the Web platform lacks
    (``IBM855``, ``EUC-TW``, ``Johab``, ``UTF-32``, ...)."""
    if not name:
        return None
    return get_encoding(_UCHARDET_NAMES.get(name.lower(), name))


def _uchardet(data: bytes, last: bool) -> Encoding | None:
    """uchardet's answer over *data* when it is a legacy Web encoding that uchardet is at least
    :data:`UCHARDET_CONFIDENCE` sure of and in which *data* decodes without error (when *last* is
    false, *data* was cut: a sequence cut at its end is no error); else ``None``."""
    if _cchardet is None:  # pragma: no cover
        return None
    answer = _cchardet.detect(data)
    encoding = from_uchardet(answer["encoding"])
    if encoding is None or encoding in _NOT_DETECTED or (answer["confidence"] or 0) < UCHARDET_CONFIDENCE:
        return None
    text = encoding.decode(data)
    return None if "\ufffd" in (text if last else text[:-1]) else encoding


def has_jis_text(data: bytes) -> bool:
    """Whether *data* (7-bit bytes) decoded as ISO-2022-JP has a character outside ASCII other
    than U+FFFD: some escape sequence switches to a Japanese character set and text follows. A
    page whose only escape switches *to* ASCII (``ESC ( B``) has none: it is no ISO-2022-JP page,
    though chardetng guesses so (both browsers say windows-1252)."""
    text = ENCODINGS["ISO-2022-JP"].decode(data)
    return not text.replace("\ufffd", "").isascii()


def seven_bit_guess(body: Body, url: str | None) -> Encoding | None:
    """ISO-2022-JP where chardetng guesses it for *body* without a non-ASCII byte but with an
    escape (it sees the escape sequences although ``feed()`` says no non-ASCII byte was seen),
    JIS text or not (:func:`has_jis_text` tells); else ``None``. It reads :data:`STAT_LIMIT`
    bytes from just before the first ESC, once per body and URL (kept in ``body.memo``, which
    the browsers' models share with the standard's run)."""
    return None if _guessed_window(body, url) is None else ENCODINGS["ISO-2022-JP"]


def _guessed_window(body: Body, url: str | None) -> bytes | None:
    """The window :func:`seven_bit_guess` reads (:func:`_seven_bit_window`) where chardetng
    guesses ISO-2022-JP over it, else ``None``; kept in ``body.memo`` per URL."""
    memo, key = body.memo, ("7-bit guess", url)
    if key not in memo:
        found = _seven_bit_window(body)
        if found is not None and _chardetng(found[0], tld_of(url), found[1]) is ENCODINGS["ISO-2022-JP"]:
            memo[key] = found[0]
        else:
            memo[key] = None
    return memo[key]


def _seven_bit_window(body: Body) -> tuple[bytes, bool] | None:
    """``(window, last)``: :data:`STAT_LIMIT` bytes of an all-ASCII *body* from :data:`_CONTEXT`
    bytes before its first ESC, and whether they reach its end; ``None`` without an ESC or with
    a byte ≥ 0x80."""
    data = body.data
    escape = data.find(b"\x1b")
    if escape < 0 or not body.is_ascii:
        return None
    start = max(escape - _CONTEXT, 0)
    return data[start:start + STAT_LIMIT], start + STAT_LIMIT >= len(data)


def _iso_2022_jp(body: Body, url: str | None) -> Encoding | None:
    """:func:`seven_bit_guess` where its window has JIS text (:func:`has_jis_text`), else ``None``."""
    window = _guessed_window(body, url)
    return ENCODINGS["ISO-2022-JP"] if window is not None and has_jis_text(window) else None


def _settled_guess(body: bytes, start: int, tld: bytes | None) -> Encoding | None:
    """chardetng's guess (no UTF-8) over ``body[start:]``, read as far as it is not settled: the
    first :data:`STAT_LIMIT` bytes, then a quarter more of what was read as long as that changes
    the guess, at most :data:`DETECT_LIMIT` bytes."""
    detector = EncodingDetector()
    end = min(start + DETECT_LIMIT, len(body))
    at = min(start + STAT_LIMIT, end)
    detector.feed(body[start:at], last=at >= len(body))
    guess = detector.guess(tld=tld, allow_utf8=False)
    window = start  # where the text read so far starts (the quarters are of it)
    while at < end:
        more = min(at + (at - window) // 4, end)
        if next_non_ascii(body, at, more) < 0:
            # ASCII bytes are no evidence: an unchanged guess over them settles nothing (a stray
            # byte, such as a UTF-8 BOM past byte 0, then legacy text kilobytes later: both
            # browsers guess from that text). Read on at a window like the first one at the
            # next non-ASCII byte, if any, the ASCII before it but its last _CONTEXT bytes left
            # out (it weighs little in the guess, and costs as much as text to read).
            found = next_non_ascii(body, more, end)
            if found < 0:
                break  # ASCII to the end (or the limit): the guess stands
            at = max(found - _CONTEXT, at)
            window, more = at, min(at + STAT_LIMIT, end)
        detector.feed(body[at:more], last=more >= len(body))
        at, previous = more, guess
        guess = detector.guess(tld=tld, allow_utf8=False)
        if guess == previous:
            break  # settled: the whole body's guess, on the measured pages but for 2 in 197
    return from_chardetng(guess)


def detect(body: bytes | Body, mode: DetectorMode = "full", url: str | None = None) -> Encoding | None:
    """Autodetect *body*'s encoding (bytes, or their :class:`~.body.Body`) in *mode* (see the module docstring), *url* giving
    the TLD hint. Returns an encoding or ``None`` (nothing detected: mode ``"off"`` or input
    without a non-ASCII byte nor ISO-2022-JP escapes). The statistical work reads :data:`STAT_LIMIT`
    bytes (``"full"``; ``"browser"`` more where its guess is not settled, at most
    :data:`DETECT_LIMIT`); ``"full"`` also scans the whole body at C speed. Raises ``ValueError`` for an unknown mode."""
    if mode == "off":
        return None
    if mode not in DETECTOR_MODES:
        raise ValueError(f"detector must be one of {DETECTOR_MODES}, not {mode!r}")
    facts = body if isinstance(body, Body) else Body(body)
    if facts.is_ascii:
        return _iso_2022_jp(facts, url)
    body = facts.data
    if mode == "browser":
        return _settled_guess(body, max(facts.first_non_ascii - _CONTEXT, 0), tld_of(url))  # type: ignore[operator]
    guess, window, last = _full_guess(facts, url)
    if guess is None or guess not in _GAPS:
        return guess
    other = _uchardet(window, last)
    if other is None or other is guess or other.decode(window) == guess.decode(window):
        return guess  # same text: Firefox's name for it
    return other


def _full_guess(facts: Body, url: str | None) -> tuple[Encoding | None, bytes, bool]:
    """``(guess, window, last)``: "full"'s answer for *facts* (which has a non-ASCII byte) before
    uchardet (UTF-8, else chardetng's guess over its window), uchardet's window and whether it
    reaches the end of the body; kept in ``facts.memo`` per URL (:func:`detect` and
    :func:`answers_a_total_encoding` share it)."""
    key = ("full guess", url)
    memo = facts.memo
    if key not in memo:
        body, first = facts.data, facts.first_non_ascii
        assert first is not None
        if facts.is_utf_8 or mostly_utf_8(body, first):
            memo[key] = ENCODINGS["UTF-8"], b"", True
        else:
            tld = tld_of(url)  # chardetng's hint: only now (a URL costs microseconds to split)
            start = max(first - _CONTEXT, 0)
            window = body[start:start + STAT_LIMIT]
            last = start + STAT_LIMIT >= len(body)
            memo[key] = (_chardetng(window, tld, last), window[:UCHARDET_LIMIT],
                         last and len(window) <= UCHARDET_LIMIT)
    return memo[key]


@functools.cache
def _fallible() -> tuple[Encoding, ...]:
    """The encodings uchardet's answer may be (every one but :data:`_NOT_DETECTED`) in which some
    input decodes with an error (not of :data:`DECODES_EVERY_BYTE`), the single-byte ones first."""
    fallible = [e for e in ENCODINGS.values() if e not in DECODES_EVERY_BYTE and e not in _NOT_DETECTED]
    return tuple(sorted(fallible, key=lambda e: not e.is_single_byte))


def _has_error(encoding: Encoding, window: bytes, last: bool) -> bool:
    """Whether *encoding* decodes *window* with U+FFFD (but for a last one where not *last*, as
    :func:`_uchardet` reads it). An ASCII-compatible multi-byte encoding (stateless: a prefix's
    tokens are the window's, but for a last one the cut makes an error) decodes prefixes of 64,
    256, 1024 bytes first, up to the first with an error (random bytes: one small decode)."""
    size = 64 if encoding.is_ascii_compatible and not encoding.is_single_byte else len(window)
    while size < len(window):
        if "\ufffd" in encoding.decode(window[:size])[:-1]:
            return True
        size *= 4
    text = encoding.decode(window)
    return "\ufffd" in (text if last else text[:-1])


def answers_a_total_encoding(body: Body, url: str | None = None) -> bool:
    """Whether ``detect(body, "full", url)`` surely answers an encoding in which no input decodes
    with an error (one of :data:`DECODES_EVERY_BYTE`), told without
    uchardet: chardetng's guess is such and not one of :data:`_GAPS`, or it is one of them (all
    such) and no encoding with errors that uchardet may answer decodes uchardet's window without
    error (:func:`_uchardet` takes no such answer). ``False`` where not sure. For the suspect-label
    check on random bytes under a multi-byte label (uchardet costs ~0.4 µs a byte of them)."""
    if body.is_ascii:
        return False  # (ISO-2022-JP or nothing)
    guess, window, last = _full_guess(body, url)
    if guess not in _GAPS:
        return guess in DECODES_EVERY_BYTE
    return all(_has_error(encoding, window, last) for encoding in _fallible())
