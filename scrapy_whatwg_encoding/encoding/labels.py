"""Names and labels: "get an encoding" (Encoding Standard §4.2)."""
from __future__ import annotations

from .encoding import ENCODINGS, Encoding
from .tables.labels import LABELS

# ASCII whitespace (Infra): TAB, LF, FF, CR, SPACE.
_ASCII_WHITESPACE = "\t\n\x0c\r "


def get_encoding(label: str | bytes) -> Encoding | None:
    """Get an encoding from *label* (https://encoding.spec.whatwg.org/#concept-encoding-get).

    Strips leading and trailing ASCII whitespace and matches the rest ASCII case-insensitively
    against the 228 labels of the standard. A ``bytes`` label is read as ISO-8859-1 (isomorphic
    decode). Returns the :class:`Encoding`, or ``None`` (the standard's "failure") for an unknown
    label. Never raises for ``str`` or ``bytes`` input.
    """
    if isinstance(label, (bytes, bytearray)):
        label = label.decode("latin-1")
    label = label.strip(_ASCII_WHITESPACE)
    # Only ASCII letters fold: "\u212aoi8-r" (KELVIN SIGN) must not match "koi8-r".
    if not label.isascii():
        return None
    name = LABELS.get(label.lower())
    return None if name is None else ENCODINGS[name]
