"""replacement (Encoding Standard §14.1): hides ISO-2022-KR, ISO-2022-CN, HZ-GB-2312 and others
whose content must not be decoded. It has no encoder: encoding uses UTF-8 (§4.3)."""
from __future__ import annotations

from . import utf_8


def decode(data) -> str:
    """§14.1.1: one error (U+FFFD) for the first byte, then finished; nothing for empty input."""
    return "\ufffd" if len(data) else ""


def codec(name: str):
    return decode, utf_8.encode
