"""The parser step's byte offsets: exact for every encoding, checked against brute force."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.sniffing.change import byte_offset

_NAMES = ["UTF-8", "Shift_JIS", "gb18030", "Big5", "EUC-KR", "EUC-JP", "ISO-2022-JP", "UTF-16LE",
          "UTF-16BE", "windows-1252", "x-user-defined", "KOI8-R"]
_PIECES = [b"<", b"a", b"\x00", b"\x1b(B", b"\x1b$B", b"\x1b(J", b"\x1b(I", b"\x1b", b"\x80", b"\x81",
           b"\x8e", b"\x8f", b"\xa1", b"\xe3", b"\xf0", b"\xfe", b"\xff", b"\xd8", b"\xdc", b"<\x00", b"\x00<",
           b"\x3c\x3c", b"\x81\x30", b"\x81\x30\x81\x30"]


def brute_force(body: bytes, encoding, text: str, index: int) -> int:
    """The byte where the '<' at text[index] starts: the one '<' (or UTF-16 code unit) whose
    replacement by '>' changes text[index], and only it, into '>'. Both bytes are ASCII and never
    a trail byte, so the replacement changes no other character."""
    be, le = encoding.name == "UTF-16BE", encoding.name == "UTF-16LE"
    lt, gt = (b"\x00<", b"\x00>") if be else (b"<\x00", b">\x00") if le else (b"<", b">")
    wanted = text[:index] + ">" + text[index + 1:]
    found = [b for b in range(len(body)) if body.startswith(lt, b)
             and encoding.decode(body[:b] + gt + body[b + len(lt):]) == wanted]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.slow  # hypothesis against brute force
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_NAMES), st.lists(st.sampled_from(_PIECES), max_size=16).map(b"".join))
def test_byte_offset_matches_brute_force(name, body):
    encoding = ENCODINGS[name]
    text = encoding.decode(body)
    for index, char in enumerate(text):
        if char == "<":
            assert byte_offset(body, encoding, text, index) == brute_force(body, encoding, text, index)
