"""Autodetection (HTML §13.2.3.2 step 8) with chardetng (https://github.com/hsivonen/chardetng),
through chardetng-py. No statistics of our own: chardetng decides.

Modes:
- ``"browser"``: what Firefox does for http(s) pages: chardetng with the URL's TLD as a hint and
  never a UTF-8 guess, over the whole body (up to :data:`DETECT_LIMIT` bytes). Firefox guesses
  from the start of the body, guesses again over the whole body at its end and reloads the page
  if the guess changed, so the whole-body guess is what it shows (tools/browser_check measured it).
- ``"full"``: for crawlers, which have the whole body: up to :data:`DETECT_LIMIT` bytes are
  examined; valid UTF-8 with non-ASCII bytes gives UTF-8, otherwise chardetng with the TLD hint
  over :data:`CHARDETNG_LIMIT` bytes from just before the first non-ASCII byte (the whole body
  when it is shorter).
In both modes ASCII-only input gives ``None`` (the algorithm goes on to the default).
"""
from __future__ import annotations

import codecs
import re
from urllib.parse import urlsplit

from chardetng_py.detector import EncodingDetector

from ..encoding import ENCODINGS, Encoding, get_encoding

#: Bytes examined at most by the detector (bounds the work on huge bodies).
DETECT_LIMIT = 1 << 20
#: Bytes chardetng reads at most in "full" mode, from just before the first non-ASCII byte
#: (chardetng reads about 5 MB/s of non-ASCII text. 10 KiB is the smallest window keeping the
#: score of tools/sniff_accuracy.py on tests/data/corpus — 8 KiB loses one page — so it is tuned
#: on that corpus; raise it for accuracy, lower it for speed.)
CHARDETNG_LIMIT = 10 * 1024
_CONTEXT = 256  # ASCII bytes kept before the first non-ASCII byte
MODES = ("off", "browser", "full")

_NON_ASCII = re.compile(rb"[\x80-\xff]")
_TLD = re.compile(r"[a-z0-9-]+\Z")
_utf_8_decode = codecs.utf_8_decode
# chardetng-py renames two of chardetng's answers for Python's codecs: back to chardetng's own.
_CHARDETNG_NAMES = {"cp874": "windows-874", "gb18030": "GBK"}


def tld_of(url: str | None) -> bytes | None:
    """The last label of *url*'s host as lowercase ASCII bytes (IDNA form), for chardetng's
    hint; ``None`` for no host, an IP address, or a label that cannot be converted."""
    if not url:
        return None
    try:
        host = urlsplit(str(url).strip()).hostname
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


def _chardetng(data: bytes, tld: bytes | None, last: bool = True) -> Encoding | None:
    detector = EncodingDetector()
    if not detector.feed(data, last=last):
        return None  # no non-ASCII byte seen
    return from_chardetng(detector.guess(tld=tld, allow_utf8=False))


def from_chardetng(name: str) -> Encoding | None:
    """The :class:`Encoding` for an answer of chardetng-py (which says ``cp874`` for
    windows-874 and ``gb18030`` for chardetng's GBK, for Python's codecs)."""
    return get_encoding(_CHARDETNG_NAMES.get(name, name))


def _is_utf_8(data: bytes, cut: bool) -> bool:
    """Valid UTF-8; when *cut* (the limit cut the body), an incomplete sequence at the end is allowed."""
    try:
        consumed = _utf_8_decode(data, "strict", not cut)[1]
    except UnicodeDecodeError:
        return False
    return len(data) - consumed < 4


def detect(body: bytes, mode: str = "full", url: str | None = None) -> Encoding | None:
    """Autodetect *body*'s encoding (bytes) in *mode* (see the module docstring), *url* giving
    the TLD hint. Returns an encoding or
    ``None`` (nothing detected: mode ``"off"`` or ASCII-only input). Work is bounded by
    :data:`DETECT_LIMIT` bytes. Raises ``ValueError`` for an unknown mode."""
    if mode == "off":
        return None
    if mode not in MODES:
        raise ValueError(f"detector must be one of {MODES}, not {mode!r}")
    tld = tld_of(url)
    if mode == "browser":
        return _chardetng(body[:DETECT_LIMIT], tld)
    data = body[:DETECT_LIMIT]
    first = _NON_ASCII.search(data)
    if first is None:
        return None
    if _is_utf_8(data, len(body) > DETECT_LIMIT):
        return ENCODINGS["UTF-8"]
    start = max(first.start() - _CONTEXT, 0)
    window = data[start:start + CHARDETNG_LIMIT]
    return _chardetng(window, tld, last=start + CHARDETNG_LIMIT >= len(body))
