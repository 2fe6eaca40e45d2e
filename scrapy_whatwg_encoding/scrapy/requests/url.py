"""Query strings encoded the way a browser's URL parser does for a document in a legacy encoding.

URL Standard, "basic URL parser", query state: the query is one "percent-encode after encoding"
with the document's *output encoding* and the special-query percent-encode set (the query
percent-encode set for non-special schemes). That runs ONE encoder over the whole query ("encode
or fail", keeping the encoder instance alive across errors), percent-encodes its bytes, and
writes ``%26%23`` + decimal + ``%3B`` for each code point the encoder cannot represent. The path
is UTF-8 and left to Scrapy; a non-ASCII fragment is percent-encoded as UTF-8 here (w3lib would
use the page's encoding for it).

ISO-2022-JP is the one encoder with state: the whole query goes through
``Encoding.encode`` (error mode "html") at once, so escapes land where a browser puts them.
Its errors happen only in the ASCII and Roman states, where "html" mode's ``&#N;`` is written
without changing state — the same state URL's ``%26%23N%3B`` leaves — so the two outputs differ
only in how errors are spelled. Literal ``&`` is swapped for a code point the encoder cannot
represent and that the query lacks (which moves the state exactly as ``&`` does), so every
``&#N;`` in the output is an error or, for that code point, a literal ``&``.
Every other encoder is stateless: runs of representable characters are encoded at once.
"""
from __future__ import annotations

import codecs
import re

from ...encoding import ENCODINGS, Encoding
from ...encoding.codec import codec_key

_NON_ASCII_RUN = re.compile(r"([^\x00-\x7f]+)")
_ISO_2022_JP = ENCODINGS["ISO-2022-JP"]
#: ASCII the ISO-2022-JP encoder cannot output in its ASCII state (SO, SI, ESC: error, U+FFFD).
_ISO_2022_JP_ERRORS = re.compile("[\x0e\x0f\x1b]")
_HTML_ERROR = re.compile(r"&#([0-9]+);")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Noncharacters, then planes 15-16's private use: ISO-2022-JP cannot represent them.
_PLACEHOLDERS = tuple(chr(c) for c in range(0xFDD0, 0xFDF0))
_UTF_8 = ENCODINGS["UTF-8"]
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
#: Special schemes whose queries use the document's encoding; ws and wss (special, UTF-8) and
#: every non-special scheme use UTF-8 (URL Standard, basic URL parser, query state, step 1).
_LEGACY_QUERY_SCHEMES = ("http:", "https:", "ftp:", "file:")
_UTF_8_SPECIAL_SCHEMES = ("ws:", "wss:")


def _percent_table(percent_encode_set: bytes) -> dict[int, str]:
    """Byte (as a latin-1 character) to itself or ``%XX``: C0 controls, space, bytes > 0x7E and
    *percent_encode_set* are percent-encoded."""
    keep = set(range(0x21, 0x7F)) - set(percent_encode_set)
    return {b: chr(b) if b in keep else f"%{b:02X}" for b in range(256)}


# Query percent-encode set: '"', '#', '<', '>'; the special-query set adds "'".
_QUERY = _percent_table(b"\"#<>")
_SPECIAL_QUERY = _percent_table(b"\"#'<>")
_FRAGMENT = _percent_table(b"\"<>`")


def _encode_run(run: str, encoding: Encoding, table: dict[int, str]) -> str:
    """A run of characters through a stateless encoder, percent-encoded with *table*."""
    data = encoding.encode(run)
    if b"&#" not in data:  # no character of the run was unrepresentable
        return data.decode("latin-1").translate(table)
    # Encode each stretch of representable characters at once; errors become %26%23N%3B.
    parts, stretch = [], []
    for char in run:
        if encoding.encode(char) != b"&#%d;" % ord(char):
            stretch.append(char)
            continue
        if stretch:
            parts.append(encoding.encode("".join(stretch)).decode("latin-1").translate(table))
            stretch = []
        parts.append(f"%26%23{ord(char)}%3B")
    if stretch:
        parts.append(encoding.encode("".join(stretch)).decode("latin-1").translate(table))
    return "".join(parts)


def _stateless_query(query: str, encoding: Encoding, table: dict[int, str]) -> str:
    """The whole query through a stateless encoder: ASCII runs are their own bytes."""
    parts = _NON_ASCII_RUN.split(query)  # ASCII, non-ASCII, ASCII, ..., ASCII
    for k, part in enumerate(parts):
        parts[k] = _encode_run(part, encoding, table) if k % 2 else part.translate(table)
    return "".join(parts)


def _iso_2022_jp_query(query: str, table: dict[int, str]) -> str:
    """The whole query through one ISO-2022-JP encoder (see the module docstring)."""
    placeholder = next((c for c in _PLACEHOLDERS if c not in query), None)
    if placeholder is None:  # the query holds all 32: one of planes 15-16's private use
        present = set(query)
        placeholder = next((chr(c) for c in range(0xF0000, 0x110000) if chr(c) not in present), None)
        if placeholder is None:  # every one of them: stretches of representable characters
            return _stateless_query(query, _ISO_2022_JP, table)
    amp = str(ord(placeholder))
    data = _ISO_2022_JP.encode(query.replace("&", placeholder)).decode("latin-1")

    parts = _HTML_ERROR.split(data)  # bytes, error, bytes, error, ..., bytes
    for k, part in enumerate(parts):
        if k % 2 == 0:
            parts[k] = part.translate(table)
        else:
            parts[k] = "&" if part == amp else f"%26%23{part}%3B"
    return "".join(parts)


def _leaves_unchanged(query: str, output: Encoding) -> bool:
    """Whether *output*'s encoder gives *query*'s own characters back (ASCII, and for ISO-2022-JP
    no SO, SI or ESC): then nothing is percent-encoded beyond what Scrapy does itself."""
    return query.isascii() and not (output is _ISO_2022_JP and _ISO_2022_JP_ERRORS.search(query))


def _percent_encode_query(query: str, output: Encoding, table: dict[int, str]) -> str:
    """*query* through one *output* encoder, percent-encoded with *table*."""
    if output is _ISO_2022_JP:
        return _iso_2022_jp_query(query, table)
    return _stateless_query(query, output, table)


def encode_query(url: str, encoding: Encoding) -> str:
    """Percent-encode *url*'s query as the URL parser does with ``encoding.output_encoding``.

    *url* is an absolute URL (str). A query that the encoder leaves as it is (ASCII, outside
    ISO-2022-JP's SO, SI and ESC) and the rest of the URL are unchanged, so Scrapy's own
    ``safe_url_string`` treats them as always; any other query comes back percent-encoded whole
    (special-query percent-encode set for special schemes) and Scrapy leaves it so. Only http,
    https, ftp and file URLs use the document's encoding; ws, wss and non-special schemes
    (``mailto:``, ``data:``, ...) use UTF-8. Returns a str.

    >>> from scrapy_whatwg_encoding import get_encoding
    >>> encode_query("http://x/?q=日本&r=€", get_encoding("windows-1251"))
    'http://x/?q=%26%2326085%3B%26%2326412%3B&r=%88'
    >>> encode_query("http://x/?q=¥‾s", get_encoding("iso-2022-jp"))
    'http://x/?q=%1B(J\\\\~s%1B(B'
    """
    head, hash_, fragment = url.partition("#")
    if not fragment.isascii():  # the fragment is always UTF-8 (fragment percent-encode set)
        fragment = _SURROGATE.sub("\ufffd", fragment).encode("utf-8").decode("latin-1").translate(_FRAGMENT)
        url = f"{head}#{fragment}"
    base, question, query = head.partition("?")
    if not question:
        return url
    output = encoding.output_encoding
    if _leaves_unchanged(query, output):
        return url
    scheme = _SCHEME.match(base)
    scheme_name = scheme.group().lower() if scheme else ""
    if scheme_name in _LEGACY_QUERY_SCHEMES:
        table = _SPECIAL_QUERY
    else:
        output = _UTF_8
        table = _SPECIAL_QUERY if scheme_name in _UTF_8_SPECIAL_SCHEMES else _QUERY
    return f"{base}?{_percent_encode_query(query, output, table)}{hash_}{fragment}"


# --- A codec for w3lib's safe_url_string(url, encoding) --------------------------------------
# w3lib encodes a URL's query with ``str.encode(encoding)`` and then percent-encodes the bytes
# it does not keep. This codec's encoder returns the query already percent-encoded as the URL
# parser does (special-query set), so w3lib passes it through; its decoder is the exact decoder.
# (w3lib also encodes the fragment with it: a non-ASCII fragment is UTF-8 in encode_query.)
_QUERY_CODEC_PREFIX = "whatwg-url-query-"


def query_codec_name(encoding: Encoding) -> str:
    """The codec name whose encoder percent-encodes a query as the URL parser does with
    ``encoding.output_encoding`` (for ``w3lib.url.safe_url_string`` and the w3lib functions
    built on it, e.g. ``get_meta_refresh``). Returns a str that ``codecs.lookup`` resolves."""
    return _QUERY_CODEC_PREFIX + encoding.name.lower()


_QUERY_CODECS = {codec_key(_QUERY_CODEC_PREFIX + name.lower()): encoding
                 for name, encoding in ENCODINGS.items()}


def _query_codec(name: str) -> codecs.CodecInfo | None:
    encoding = _QUERY_CODECS.get(codec_key(name))
    if encoding is None:
        return None
    output = encoding.output_encoding

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        query = text if _leaves_unchanged(text, output) else _percent_encode_query(text, output, _SPECIAL_QUERY)
        return query.encode("ascii"), len(text)

    def decode(data, errors="strict"):
        return encoding.decode(bytes(data)), len(data)

    return codecs.CodecInfo(encode, decode, name=query_codec_name(encoding))


codecs.register(_query_codec)
