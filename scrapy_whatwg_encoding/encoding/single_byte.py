"""Legacy single-byte encodings (Encoding Standard §9), on CPython's C charmap codec."""
from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

from .multi_byte import html_error_mode

if TYPE_CHECKING:
    from ._typing import Buffer, Codec


def _html_errors(exc: UnicodeError) -> tuple[str, int]:
    """Error mode "html" for CPython's encoders; a lone surrogate is U+FFFD (scalar value input)."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    chars = exc.object[exc.start:exc.end]
    return "".join(html_error_mode("\ufffd" if "\ud800" <= c <= "\udfff" else c).decode("ascii")
                   for c in chars), exc.end


HTML_ERRORS = "whatwg-html"
codecs.register_error(HTML_ERRORS, _html_errors)


def codec(name: str) -> Codec:
    """(decode, encode) for the single-byte encoding *name*: index single-byte (§9.1) drives both."""
    from .tables.single_byte import SINGLE_BYTE

    high = SINGLE_BYTE[name]
    decoding_table = "".join(map(chr, range(0x80))) + high  # U+FFFD where the index has no pointer
    # For the encoder an unmapped byte must map nothing (U+FFFE marks "undefined" for charmap_build).
    encoding_map = codecs.charmap_build(decoding_table.replace("\ufffd", "\ufffe"))
    charmap_decode, charmap_encode = codecs.charmap_decode, codecs.charmap_encode

    def decode(data: Buffer) -> str:
        if isinstance(data, bytes) and data.isascii():  # bytes 00-7F are their code points
            return data.decode("ascii")  # ~10x the charmap decoder's speed
        return charmap_decode(data, "strict", decoding_table)[0]

    def encode(text: str) -> bytes:
        return charmap_encode(text, HTML_ERRORS, encoding_map)[0]

    return decode, encode
