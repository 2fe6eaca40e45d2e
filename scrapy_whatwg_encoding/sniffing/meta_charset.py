"""The algorithm for extracting a character encoding from a meta element (HTML §2.6.x,
https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element)."""
from __future__ import annotations

import re

from ..encoding import ENCODINGS, Encoding, get_encoding

# Steps 2-5 at once: the first "charset" (ASCII case-insensitively) with "=" after the whitespace
# after it (a "charset" without one loops back to step 2 from that character: no "charset" starts
# in whitespace), and the whitespace after the "=" (a Python step a character was 2.5 ms a 64 KiB
# value of them, issue 37).
_CHARSET_IS = re.compile(r"charset[\t\n\x0c\r ]*=[\t\n\x0c\r ]*", re.IGNORECASE | re.ASCII)
_ASCII_WS = "\t\n\x0c\r "
_UNQUOTED_END = re.compile(r"[\t\n\x0c\r ;]")


def extract_meta_charset(s: str) -> tuple[Encoding, str] | None:
    """Extract an encoding from a ``content`` attribute value *s* (str).

    Returns ``(encoding, label text)`` or ``None`` ("nothing", including when the label is not
    one "get an encoding" knows). Never raises."""
    match = _CHARSET_IS.search(s)  # steps 2-5
    if match is None:
        return None
    position, n = match.end(), len(s)
    if position >= n:  # step 6: nothing left
        return None
    quote = s[position]
    if quote in "\"'":
        end = s.find(quote, position + 1)
        if end < 0:  # unmatched quote
            return None
        label = s[position + 1:end]
    else:
        stop = _UNQUOTED_END.search(s, position)
        label = s[position:stop.start() if stop else n]
    encoding = get_encoding(label)
    return None if encoding is None else (encoding, label.strip(_ASCII_WS))


def meta_encoding(encoding: Encoding) -> Encoding:
    """The encoding a ``<meta>`` really gets: UTF-16BE/LE become UTF-8 and x-user-defined becomes
    windows-1252 (prescan, the ``<meta>`` case; "change the encoding", steps 2–3)."""
    if encoding.is_utf16:
        return ENCODINGS["UTF-8"]
    if encoding.name == "x-user-defined":
        return ENCODINGS["windows-1252"]
    return encoding
