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

    c_codec = _same_name_codec(name, decoding_table)
    if c_codec is not None:
        # The same table with every byte CPython's codec decodes otherwise (or not at all)
        # undefined: a strict decode with it succeeds exactly when that codec agrees.
        agreeing = "".join(c if _c_decodes(c_codec, b) == c else "\ufffe" for b, c in enumerate(decoding_table))

        def decode_clean(data: Buffer) -> tuple[str, bool]:
            """``(decode(data), clean)``: *clean* when CPython's codec ``c_codec`` decodes *data*
            strictly to the same text; one decode, as ``decode`` itself."""
            if isinstance(data, bytes) and data.isascii():
                return data.decode("ascii"), True
            try:
                return charmap_decode(data, "strict", agreeing)[0], True
            except UnicodeDecodeError:
                return decode(data), False

        decode.c_codec = c_codec  # type: ignore[attr-defined]
        decode.decode_clean = decode_clean  # type: ignore[attr-defined]
    return decode, encode


def _c_decodes(c_codec: str, byte: int) -> str | None:
    try:
        return bytes([byte]).decode(c_codec)
    except UnicodeDecodeError:
        return None


def _same_name_codec(name: str, decoding_table: str) -> str | None:
    """CPython's codec for the encoding's *name*, if it has one and agrees with *decoding_table*
    on the ASCII bytes, else ``None``."""
    try:
        c_codec = codecs.lookup(name).name
    except LookupError:
        return None
    ascii_agree = all(_c_decodes(c_codec, b) == decoding_table[b] for b in range(0x80))
    return c_codec if ascii_agree else None
