"""replacement (Encoding Standard §14.1): hides ISO-2022-KR, ISO-2022-CN, HZ-GB-2312 and others
whose content must not be decoded. It has no encoder: encoding uses UTF-8 (§4.3)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import utf_8

if TYPE_CHECKING:
    from ._typing import Buffer, Codec


def decode(data: Buffer) -> str:
    """§14.1.1: one error (U+FFFD) for the first byte, then finished; nothing for empty input."""
    return "\ufffd" if memoryview(data).nbytes else ""


def codec(name: str) -> Codec:
    return decode, utf_8.encode
