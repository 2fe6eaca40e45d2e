"""XML declarations: the HTML standard's "get an XML encoding" and the XML kind's declared
encoding (XML 1.0 Appendix F, without the UCS-4 and EBCDIC forms the Encoding Standard lacks)."""
from __future__ import annotations

from ..encoding import ENCODINGS, Encoding, get_encoding

_UTF_16 = ("UTF-16BE", "UTF-16LE")
#: XML 1.0 Appendix F: the first bytes of ``<?`` in the two UTF-16 forms, without a BOM.
_UTF_16_FORMS = ((b"\x00<\x00?", "UTF-16BE"), (b"<\x00?\x00", "UTF-16LE"))


def get_xml_encoding(data: bytes) -> tuple[Encoding, str] | None:
    """Get an XML encoding (HTML §13.2.3.2) from *data* (bytes; callers pass the bytes the prescan
    examined). Returns ``(encoding, label text)`` or ``None`` for failure; UTF-16BE/LE become UTF-8.
    The declaration must start the data; ``encoding`` (case-sensitive, even inside another word)
    must occur before its first ``>``. Never raises."""
    if not data.startswith(b"<?xml"):
        return None
    declaration_end = data.find(b">")
    if declaration_end < 0:
        return None
    position = data.find(b"encoding", 5, declaration_end)
    if position < 0:
        return None
    position += 8  # past the "g"
    n = len(data)
    while position < n and data[position] <= 0x20:
        position += 1
    if position >= n or data[position] != 0x3D:  # "="
        return None
    position += 1
    while position < n and data[position] <= 0x20:
        position += 1
    if position >= n or data[position] not in b"\"'":
        return None
    quote = data[position:position + 1]
    end = data.find(quote, position + 1)
    if end < 0:
        return None
    potential = data[position + 1:end]
    if any(byte <= 0x20 for byte in potential):
        return None
    label = potential.decode("latin-1")  # isomorphic decode
    encoding = get_encoding(label)
    if encoding is None:
        return None
    if encoding.name in _UTF_16:
        encoding = ENCODINGS["UTF-8"]
    return encoding, label


def xml_declared_encoding(data: bytes) -> tuple[Encoding, str | None] | None:
    """The encoding an XML declaration at the start of *data* gives, for XML documents
    (XML 1.0 Appendix F; RFC 7303 §3): a declaration in a UTF-16 form (``00 3C 00 3F`` or
    ``3C 00 3F 00``, no BOM) gives UTF-16BE/LE whatever label it carries; an ASCII-compatible
    ``<?xml`` declaration gives its ``encoding`` through "get an XML encoding". Returns
    ``(encoding, label text or None)`` or ``None``. Pass a bounded prefix. Never raises."""
    for prefix, name in _UTF_16_FORMS:
        if data.startswith(prefix):
            text = ENCODINGS[name].decode(data[: len(data) & ~1])
            found = get_xml_encoding(text.encode("latin-1", "replace"))
            return ENCODINGS[name], (found[1] if found else None)
    return get_xml_encoding(data)
