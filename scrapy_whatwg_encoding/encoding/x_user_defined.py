"""x-user-defined (Encoding Standard §14.5): bytes 0x80–0xFF map to U+F780–U+F7FF."""
from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

from .single_byte import HTML_ERRORS

if TYPE_CHECKING:
    from ._typing import Buffer, Codec

_TABLE = "".join(map(chr, range(0x80))) + "".join(map(chr, range(0xF780, 0xF800)))
_MAP = codecs.charmap_build(_TABLE)


def decode(data: Buffer) -> str:
    """§14.5.1: ASCII bytes as themselves, byte b >= 0x80 as U+F780 + b − 0x80."""
    return codecs.charmap_decode(data, "strict", _TABLE)[0]


def encode(text: str) -> bytes:
    """§14.5.2: ASCII and U+F780–U+F7FF as one byte, anything else in "html" error mode."""
    return codecs.charmap_encode(text, HTML_ERRORS, _MAP)[0]


def codec(name: str) -> Codec:
    return decode, encode
