"""Query strings encoded the way a browser's URL parser does for a document in a legacy encoding.

URL Standard, "basic URL parser", query state: the query is encoded with the document's *output
encoding* and "percent-encode after encoding" with the (special-)query percent-encode set; a code
point the encoding cannot represent becomes ``%26%23`` + decimal + ``%3B`` (``&#N;``, percent-encoded).
Path and fragment are always UTF-8 and are left to Scrapy.
"""
from __future__ import annotations

import re

from ..encoding import Encoding

_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")
# Special-query percent-encode set: C0 controls, space, '"', '#', "'", '<', '>' and bytes > 0x7E.
_KEEP = frozenset(b for b in range(0x21, 0x7F) if b not in b"\"#'<>")
_PCT = tuple(chr(b) if b in _KEEP else f"%{b:02X}" for b in range(256))


def _percent_encode(data: bytes) -> str:
    return "".join([_PCT[b] for b in data])


def _encode_run(run: str, encoding: Encoding) -> str:
    data = encoding.encode(run)
    if b"&#" not in data:  # no character of the run was unrepresentable
        return _percent_encode(data)
    # Find the characters that hit the encoder's "html" error mode and encode each stretch between
    # them at once (ISO-2022-JP's escapes depend on the characters around).
    parts, stretch = [], []
    for char in run + "\0":  # "\0" ends the last stretch
        if char != "\0" and encoding.encode(char) != b"&#%d;" % ord(char):
            stretch.append(char)
            continue
        if stretch:
            parts.append(_percent_encode(encoding.encode("".join(stretch))))
            stretch = []
        if char != "\0":
            parts.append(f"%26%23{ord(char)}%3B")
    return "".join(parts)


def encode_query(url: str, encoding: Encoding) -> str:
    """Percent-encode the non-ASCII characters of *url*'s query with ``encoding.output_encoding``.

    *url* is an absolute URL (str). ASCII characters and the rest of the URL are unchanged, so
    Scrapy's own ``safe_url_string`` leaves the result's query as it is. Returns a str.
    """
    head, hash_, fragment = url.partition("#")
    base, question, query = head.partition("?")
    if not question or query.isascii():
        return url
    output = encoding.output_encoding
    query = _NON_ASCII_RUN.sub(lambda match: _encode_run(match.group(), output), query)
    return f"{base}?{query}{hash_}{fragment}"
