"""Hooks for standards: "BOM sniff" and "decode" (Encoding Standard §6)."""
from __future__ import annotations

from .encoding import ENCODINGS, Encoding

# Byte order marks and their encodings (Encoding Standard §6, BOM sniff).
_BOMS = ((b"\xef\xbb\xbf", "UTF-8"), (b"\xfe\xff", "UTF-16BE"), (b"\xff\xfe", "UTF-16LE"))
_ANY_BOM = tuple(bom for bom, _ in _BOMS)


def bom_sniff(data: bytes | bytearray | memoryview) -> Encoding | None:
    r"""BOM sniff (Encoding Standard §6, https://encoding.spec.whatwg.org/#bom-sniff): the
    :class:`Encoding` whose byte order mark starts *data* (bytes-like) — UTF-8 ``EF BB BF``,
    UTF-16BE ``FE FF``, UTF-16LE ``FF FE`` — else ``None``. Never raises.

    >>> bom_sniff(b"\xff\xfeh\x00")
    <Encoding UTF-16LE>
    >>> bom_sniff(b"<html>") is None
    True
    """
    head = data[:3] if isinstance(data, bytes) else bytes(data[:3])
    if not head.startswith(_ANY_BOM):  # most bodies: one C call
        return None
    return next(ENCODINGS[name] for bom, name in _BOMS if head.startswith(bom))


def decode(data: bytes | bytearray | memoryview, fallback: Encoding) -> tuple[str, Encoding]:
    r"""Decode *data* (bytes-like) the way the web platform decodes a resource: the "decode"
    hook (Encoding Standard §6, https://encoding.spec.whatwg.org/#decode).

    BOM sniff first: a byte order mark wins over *fallback* (an :class:`Encoding`) and is
    removed (3 bytes for UTF-8, 2 for UTF-16); otherwise *fallback* decodes the whole input.
    Decoding is in "replacement" error mode (see :meth:`Encoding.decode`).

    Returns ``(text, encoding)``: the decoded :class:`str` and the :class:`Encoding` actually
    used (the BOM's, or *fallback*). Never raises for bytes-like *data* and an :class:`Encoding`.

    >>> from scrapy_whatwg_encoding import decode, get_encoding
    >>> decode(b"caf\xe9", get_encoding("latin1"))
    ('café', <Encoding windows-1252>)
    >>> decode(b"\xef\xbb\xbfcaf\xc3\xa9", get_encoding("latin1"))  # the BOM wins
    ('café', <Encoding UTF-8>)
    """
    encoding = bom_sniff(data)
    if encoding is None:
        return fallback.decode(data), fallback
    return encoding.decode(memoryview(data)[3 if encoding.name == "UTF-8" else 2:]), encoding
