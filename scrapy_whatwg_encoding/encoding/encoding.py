"""The 40 encodings of the Encoding Standard (§4) as immutable :class:`Encoding` objects."""
from __future__ import annotations

import importlib

from .tables.labels import NAMES

# Which module implements each encoding's decoder and encoder (a module per spec section).
_FAMILY = {
    "UTF-8": "utf_8",
    "GBK": "gb18030",
    "gb18030": "gb18030",
    "Big5": "big5",
    "EUC-JP": "euc_jp",
    "ISO-2022-JP": "iso_2022_jp",
    "Shift_JIS": "shift_jis",
    "EUC-KR": "euc_kr",
    "replacement": "replacement",
    "UTF-16BE": "utf_16",
    "UTF-16LE": "utf_16",
    "x-user-defined": "x_user_defined",
}
# Encodings without an encoder (§4.1 note): their output encoding is UTF-8 (§4.3).
_NO_ENCODER = frozenset({"replacement", "UTF-16BE", "UTF-16LE"})


class Encoding:
    """One encoding of the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/#encodings).

    There is exactly one instance per encoding (compare with ``is``); obtain it with
    :func:`get_encoding` or :data:`ENCODINGS`. Attributes:

    - ``name`` (str): the standard's name, e.g. ``"Shift_JIS"``, ``"windows-1252"``, ``"UTF-8"``.
    - ``codec_name`` (str): a name registered with :mod:`codecs` whose codec decodes exactly as
      :meth:`decode` and encodes exactly as :meth:`encode` (importing the package registers it).
    """

    __slots__ = ("name", "codec_name", "_module", "_codec")

    def __init__(self, name: str):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "codec_name", "whatwg-" + name.lower())
        object.__setattr__(self, "_module", _FAMILY.get(name, "single_byte"))
        object.__setattr__(self, "_codec", None)

    def __setattr__(self, key, value):
        raise AttributeError("Encoding objects are immutable")

    def __repr__(self) -> str:
        return f"<Encoding {self.name}>"

    def __reduce__(self):
        return (_by_name, (self.name,))

    def _load(self):
        # Tables load on first use, so importing the package stays cheap.
        codec = self._codec
        if codec is None:
            module = importlib.import_module(f"{__package__}.{self._module}")
            codec = module.codec(self.name)
            object.__setattr__(self, "_codec", codec)
        return codec

    def decode(self, data: bytes) -> str:
        """Run this encoding's decoder over *data* (bytes-like) in "replacement" error mode.

        Implements "process a queue" with end-of-queue (§4.1) — every error becomes one U+FFFD
        as the decoder's steps say. No BOM handling: a BOM is decoded like any other bytes (use
        :func:`scrapy_whatwg_encoding.decode` for the "decode" hook). Never raises.
        """
        return self._load()[0](data)

    def encode(self, text: str) -> bytes:
        """Run this encoding's encoder over *text* in "html" error mode (§4.1).

        Lone surrogates are first replaced by U+FFFD (the input is a scalar value string); a code
        point the encoding cannot represent becomes ``&#N;`` (N in decimal, ASCII bytes).
        For the encodings that have no encoder (replacement, UTF-16BE, UTF-16LE) this encodes with
        the output encoding, UTF-8, as "encode" callers such as URL parsing and forms do.
        """
        return self._load()[1](text)

    @property
    def output_encoding(self) -> "Encoding":
        """Get an output encoding (§4.3): UTF-8 for replacement, UTF-16BE and UTF-16LE, else self."""
        return ENCODINGS["UTF-8"] if self.name in _NO_ENCODER else self


def _by_name(name: str) -> Encoding:
    return ENCODINGS[name]


#: Every encoding by its name, in the standard's order.
ENCODINGS: dict[str, Encoding] = {name: Encoding(name) for name in NAMES}
