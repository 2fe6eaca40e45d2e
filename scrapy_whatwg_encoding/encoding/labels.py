"""Names and labels: "get an encoding" (Encoding Standard §4.2)."""
from __future__ import annotations

from .encoding import ENCODINGS, Encoding
from .tables.labels import LABELS

# ASCII whitespace (Infra): TAB, LF, FF, CR, SPACE.
_ASCII_WHITESPACE = "\t\n\x0c\r "


def get_encoding(label: str | bytes) -> Encoding | None:
    """Get an encoding from *label* (Encoding Standard §4.2,
    https://encoding.spec.whatwg.org/#concept-encoding-get).

    Strips leading and trailing ASCII whitespace (TAB, LF, FF, CR, SPACE) and matches the rest
    ASCII case-insensitively against the standard's 228 labels (other characters must match
    exactly: ``"\\u212aoi8-r"`` with a KELVIN SIGN is not ``"koi8-r"``). A :class:`bytes` label
    (a header value, say) is read as ISO-8859-1 first (isomorphic decode).

    Returns the :class:`Encoding`, or ``None`` for a label the standard does not have (the
    standard's "failure": callers fall back to their own default). Never raises for
    :class:`str` or :class:`bytes` input.

    >>> from scrapy_whatwg_encoding import get_encoding
    >>> get_encoding("  Shift_JIS ")
    <Encoding Shift_JIS>
    >>> get_encoding("latin1"), get_encoding("ascii")  # both labels of windows-1252
    (<Encoding windows-1252>, <Encoding windows-1252>)
    >>> get_encoding(b"UTF8").name
    'UTF-8'
    >>> get_encoding("utf-32") is None  # not an encoding of the Web
    True
    """
    if isinstance(label, (bytes, bytearray)):
        label = label.decode("latin-1")
    label = label.strip(_ASCII_WHITESPACE)
    # Only ASCII letters fold: "\u212aoi8-r" (KELVIN SIGN) must not match "koi8-r".
    if not label.isascii():
        return None
    name = LABELS.get(label.lower())
    return None if name is None else ENCODINGS[name]
