"""Hooks for standards: "BOM sniff" and "decode" (Encoding Standard §6)."""
from __future__ import annotations

from .encoding import ENCODINGS, Encoding

_BOMS = {b"\xef": (b"\xef\xbb\xbf", "UTF-8"), b"\xfe": (b"\xfe\xff", "UTF-16BE"),
         b"\xff": (b"\xff\xfe", "UTF-16LE")}


def bom_sniff(data: bytes) -> Encoding | None:
    """BOM sniff (https://encoding.spec.whatwg.org/#bom-sniff): the encoding whose byte order mark
    starts *data* (UTF-8 ``EF BB BF``, UTF-16BE ``FE FF``, UTF-16LE ``FF FE``), else ``None``."""
    candidate = _BOMS.get(bytes(data[:1]))
    if candidate is not None and data[:len(candidate[0])] == candidate[0]:
        return ENCODINGS[candidate[1]]
    return None


def decode(data: bytes, fallback: Encoding) -> tuple[str, Encoding]:
    """Decode (https://encoding.spec.whatwg.org/#decode): BOM sniff *data*; a BOM wins over
    *fallback* and is removed (3 bytes for UTF-8, 2 for UTF-16). Returns ``(text, encoding used)``.
    Never raises."""
    encoding = bom_sniff(data)
    if encoding is None:
        return fallback.decode(data), fallback
    return encoding.decode(memoryview(data)[3 if encoding.name == "UTF-8" else 2:]), encoding
