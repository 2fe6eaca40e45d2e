"""Every encoding's exact decoder and encoder in Python's codec registry, under ``Encoding.codec_name``.

``bytes.decode(enc.codec_name, errors)`` equals ``enc.decode(bytes)`` and ``str.encode(enc.codec_name,
errors)`` equals ``enc.encode(str)`` whatever *errors* says: the codecs always run the decoder in
"replacement" mode and the encoder in "html" mode, which is what Scrapy's ``TextResponse.text``,
``response.follow()`` and forms need. Incremental decoders buffer until ``final`` (exact, not
streaming).
"""
from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

from .encoding import ENCODINGS, Encoding

if TYPE_CHECKING:
    from ._typing import Buffer


def codec_key(name: str) -> str:
    """*name* as Python's codec registry compares names (lower case, ``-`` and spaces as ``_``)."""
    return name.lower().replace("-", "_").replace(" ", "_")


def _codec_info(encoding: Encoding) -> codecs.CodecInfo:
    def decode(data: Buffer, errors: str = "strict") -> tuple[str, int]:
        return encoding.decode(data), memoryview(data).nbytes  # bytes consumed: all of them

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return encoding.encode(text), len(text)

    class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
        def _buffer_decode(self, data: Buffer, errors: str, final: bool) -> tuple[str, int]:
            return (encoding.decode(data), memoryview(data).nbytes) if final else ("", 0)

    class IncrementalEncoder(codecs.BufferedIncrementalEncoder):
        def _buffer_encode(self, text: str, errors: str, final: bool) -> tuple[bytes, int]:
            return (encoding.encode(text), len(text)) if final else (b"", 0)

    return codecs.CodecInfo(encode, decode, name=encoding.codec_name,
                            incrementalencoder=IncrementalEncoder,
                            incrementaldecoder=IncrementalDecoder)


_BY_KEY = {codec_key(e.codec_name): e for e in ENCODINGS.values()}
_CACHE: dict[str, codecs.CodecInfo] = {}


def from_codec_name(name: str) -> Encoding | None:
    """The :class:`Encoding` whose ``codec_name`` *name* (a str) is, as the codec registry
    spells names (``"whatwg-shift_jis"``, ``"WHATWG_Shift-JIS"``), or ``None``."""
    return _BY_KEY.get(codec_key(name))


def _search(name: str) -> codecs.CodecInfo | None:
    encoding = from_codec_name(name)
    if encoding is None:
        return None
    info = _CACHE.get(encoding.name)
    if info is None:
        info = _CACHE[encoding.name] = _codec_info(encoding)
    return info


codecs.register(_search)
