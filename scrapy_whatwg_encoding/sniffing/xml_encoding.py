"""XML declarations: the HTML standard's "get an XML encoding" and the XML kind's declared
encoding (XML 1.0 Appendix F, without the UCS-4 and EBCDIC forms the Encoding Standard lacks).

"Get an XML encoding" (HTML §13.2.3.2, https://html.spec.whatwg.org/multipage/parsing.html#concept-get-xml-encoding-when-sniffing)
is given the byte stream, not the prescan's 1024 bytes: "Let xmlDeclarationEnd be a pointer to
the next byte in input that is 0x3E (>)". Firefox and Chromium read the declaration to its first
``>`` however far it lies, and the web-platform-tests pages
``html/syntax/xmldecl/support/kilobyte-plus-one-*.htm`` pin it (their ``>`` is byte 1025).
Every step is a C-speed scan (``bytes.find``, compiled regular expressions), so the work on a
50 MB body is a few memchr passes (``tools/wpt_xml_declaration_cost.py`` measures it).
"""
from __future__ import annotations

import codecs
import re

from ..encoding import ENCODINGS, Encoding, get_encoding

#: XML 1.0 Appendix F: the first bytes of ``<?`` in the two UTF-16 forms, without a BOM.
_UTF_16_FORMS = ((b"\x00<\x00?", "UTF-16BE"), (b"<\x00?\x00", "UTF-16LE"))
# Steps "While the byte at encodingPosition is less than or equal to 0x20, advance", then
# "=" and the quote mark; the value runs to the next same quote.
_VALUE = re.compile(rb"[\x00-\x20]*=[\x00-\x20]*([\"'])")
_CONTROL_OR_SPACE = re.compile(rb"[\x00-\x20]")
#: No label of the Encoding Standard is longer (the longest has 19 bytes); a longer value
#: fails "get an encoding" anyway, so it is not decoded.
_LONGEST_LABEL = 64
_CHUNK = 1 << 16


def get_xml_encoding(data: bytes) -> tuple[Encoding, str] | None:
    """Get an XML encoding (HTML §13.2.3.2) from *data* (bytes-like: the whole body, as
    browsers read it). Returns ``(encoding, label text)`` or ``None`` for failure; UTF-16BE/LE become
    UTF-8. The declaration must start the data; ``encoding`` (case-sensitive, even inside
    another word) must occur before its first ``>``, wherever that lies. Never raises."""
    if bytes(data[:5]) != b"<?xml":
        return None
    if not isinstance(data, (bytes, bytearray)):
        data = bytes(data)  # another bytes-like object (memoryview, ...): find() needs bytes
    declaration_end = data.find(b">", 5)
    if declaration_end < 0:
        return None
    position = data.find(b"encoding", 5, declaration_end)
    if position < 0:
        return None
    value = _VALUE.match(data, position + 8)  # past the "g"
    if value is None:
        return None
    start = value.end()
    end = data.find(value.group(1), start)
    # Failure: no closing quote mark, or a byte 0x20 or below in the value.
    if end < 0 or end - start > _LONGEST_LABEL or _CONTROL_OR_SPACE.search(data, start, end):
        return None
    label = bytes(data[start:end]).decode("latin-1")  # isomorphic decode
    encoding = get_encoding(label)
    if encoding is None:
        return None
    if encoding.is_utf16:
        encoding = ENCODINGS["UTF-8"]
    return encoding, label


def xml_declared_encoding(data: bytes) -> tuple[Encoding, str | None] | None:
    """The encoding an XML declaration at the start of *data* (bytes, the whole body) gives,
    for XML documents (XML 1.0 Appendix F; RFC 7303 §3): a declaration in a UTF-16 form
    (``00 3C 00 3F`` or ``3C 00 3F 00``, no BOM) gives UTF-16BE/LE whatever label it carries;
    an ASCII-compatible ``<?xml`` declaration gives its ``encoding`` through "get an XML
    encoding". Returns ``(encoding, label text or None)`` or ``None``. Never raises."""
    for prefix, name in _UTF_16_FORMS:
        if bytes(data[:4]) == prefix:
            found = get_xml_encoding(_utf_16_declaration(data, name))
            return ENCODINGS[name], (found[1] if found else None)
    return get_xml_encoding(data)


def _utf_16_declaration(data: bytes, name: str) -> bytes:
    """The declaration of a UTF-16 form, up to its first ``>``, as latin-1 bytes (characters
    above U+00FF become ``?``), decoded in 64 KiB chunks until a ``>`` shows; ``b""`` without one."""
    decoder = codecs.getincrementaldecoder(name.lower())("replace")
    pieces = []
    for start in range(0, len(data), _CHUNK):
        chunk = decoder.decode(data[start:start + _CHUNK])
        gt = chunk.find(">")
        if gt >= 0:
            pieces.append(chunk[: gt + 1])
            return "".join(pieces).encode("latin-1", "replace")
        pieces.append(chunk)
    return b""  # no ">": "get an XML encoding" fails
