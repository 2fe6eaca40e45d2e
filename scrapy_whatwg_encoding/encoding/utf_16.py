"""UTF-16BE and UTF-16LE (Encoding Standard §14.2–14.4): the shared UTF-16 decoder. CPython's
UTF-16 decoder reports the same errors (lone surrogates, an odd final byte); the tests check it
against the spec. They have no encoder: encoding uses their output encoding, UTF-8 (§4.3)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import utf_8

if TYPE_CHECKING:
    from ._typing import Buffer, Codec


def codec(name: str) -> Codec:
    c_codec = "utf-16-be" if name == "UTF-16BE" else "utf-16-le"

    def decode(data: Buffer) -> str:
        return str(data, c_codec, "replace")

    return decode, utf_8.encode
