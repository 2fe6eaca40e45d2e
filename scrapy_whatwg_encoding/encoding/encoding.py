"""The 40 encodings of the Encoding Standard (§4) as immutable :class:`Encoding` objects."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .tables.labels import NAMES

if TYPE_CHECKING:
    from ._typing import Buffer, Codec

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
_UTF_16 = frozenset({"UTF-16BE", "UTF-16LE"})
# Where bytes 0x00–0x7F are not always the ASCII characters, each alone.
_NOT_ASCII_COMPATIBLE = _UTF_16 | {"ISO-2022-JP", "replacement"}


class Encoding:
    """One encoding of the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/#encodings).

    There are 40 instances, one per encoding, created when the package is imported; do not build
    your own. Obtain one with :func:`get_encoding` (from a label) or :data:`ENCODINGS` (from its
    name). Instances are immutable (setting an attribute raises :exc:`AttributeError`), hashable,
    compared by identity, and pickle to the same instance.

    >>> from scrapy_whatwg_encoding import ENCODINGS, get_encoding
    >>> shift_jis = get_encoding("x-sjis")
    >>> shift_jis
    <Encoding Shift_JIS>
    >>> shift_jis is ENCODINGS["Shift_JIS"]
    True
    >>> shift_jis.name, shift_jis.codec_name
    ('Shift_JIS', 'whatwg-shift_jis')
    >>> shift_jis.decode(b"\\x93\\xfa\\x96\\x7b")
    '日本'
    >>> shift_jis.encode("日本")
    b'\\x93\\xfa\\x96{'

    Properties of the encoding are predicates (:class:`bool` attributes), so that no module
    spells out name sets:

    >>> shift_jis.is_ascii_compatible, shift_jis.is_single_byte, shift_jis.is_utf16
    (True, False, False)
    >>> [e.name for e in ENCODINGS.values() if not e.is_ascii_compatible]
    ['ISO-2022-JP', 'replacement', 'UTF-16BE', 'UTF-16LE']
    """

    __slots__ = ("_codec", "_module", "codec_name", "is_ascii_compatible", "is_single_byte",
                 "is_utf16", "name")

    #: The standard's name of the encoding (:class:`str`), spelled exactly as the standard does:
    #: ``"UTF-8"``, ``"Shift_JIS"``, ``"windows-1252"``, ``"x-user-defined"``.
    name: str
    #: A codec name (:class:`str`, ``"whatwg-"`` + the name in lower case, e.g.
    #: ``"whatwg-shift_jis"``) that :func:`codecs.lookup` resolves to a codec decoding exactly as
    #: :meth:`decode` (no BOM handling) and encoding exactly as :meth:`encode`. Importing
    #: :mod:`scrapy_whatwg_encoding` registers these codecs, so ``data.decode(enc.codec_name)`` and
    #: Scrapy's ``TextResponse(encoding=enc.codec_name)`` give the standard's text. The codec's
    #: ``errors`` argument is ignored: decoding always replaces, encoding is always "html" mode.
    codec_name: str
    #: ``True`` for UTF-16BE and UTF-16LE (:class:`bool`): the encodings a ``<meta>`` or a
    #: frame's parent cannot switch to or from (HTML §13.2.3.2-§13.2.3.4), that have no encoder.
    is_utf16: bool
    #: ``True`` for the legacy single-byte encodings (§9) and x-user-defined (§14.5) (:class:`bool`):
    #: each byte decodes alone, to one code point.
    is_single_byte: bool
    #: ``False`` for UTF-16BE, UTF-16LE, ISO-2022-JP and replacement, ``True`` for the others
    #: (:class:`bool`, as encoding_rs's ``is_ascii_compatible``): in these a byte 0x00–0x7F that
    #: starts a token is that ASCII code point in every decoder state, so ASCII markup below
    #: 0x40 (``<``, ``=``, quotes) can be searched for in the bytes.
    is_ascii_compatible: bool
    # Private: the module of the decoder and encoder, and its (decode, encode), loaded on first use.
    _module: str
    _codec: Codec | None

    def __init__(self, name: str):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "codec_name", "whatwg-" + name.lower())
        object.__setattr__(self, "_module", _FAMILY.get(name, "single_byte"))
        object.__setattr__(self, "_codec", None)
        object.__setattr__(self, "is_utf16", name in _UTF_16)
        object.__setattr__(self, "is_single_byte", name not in _FAMILY or name == "x-user-defined")
        object.__setattr__(self, "is_ascii_compatible", name not in _NOT_ASCII_COMPATIBLE)

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

    def decode(self, data: Buffer) -> str:
        """Run this encoding's decoder over *data* (any bytes-like object) in "replacement" error
        mode and return the text (:class:`str`).

        Implements "run an encoding's decoder" with end-of-queue (Encoding Standard §4.1,
        https://encoding.spec.whatwg.org/#concept-encoding-run): every error becomes U+FFFD as
        the decoder's steps say. There is no BOM handling here: a BOM is decoded like any other
        bytes (use :func:`scrapy_whatwg_encoding.decode`, the "decode" hook, to honour it).
        Never raises for bytes-like input.

        >>> from scrapy_whatwg_encoding import get_encoding
        >>> get_encoding("windows-1252").decode(b"caf\\xe9 \\x80")
        'café €'
        >>> get_encoding("UTF-8").decode(b"\\xef\\xbb\\xbfok \\xff")  # BOM kept, error → U+FFFD
        '\\ufeffok �'
        """
        return self._load()[0](data)

    def decode_as_codec(self, data: Buffer) -> tuple[str, str | None]:
        """``(self.decode(data), codec)``: *codec* is the name of a CPython codec whose strict
        decoding of *data* gives exactly that text, where the decoder knows one at no extra cost
        (the multi-byte decoders, which run on such a codec, when no byte needed the standard's
        own steps; the single-byte ones, when no byte is one their namesake codec decodes
        otherwise), else ``None``. For comparing with a CPython decoding without decoding again.

        >>> from scrapy_whatwg_encoding import get_encoding
        >>> get_encoding("shift_jis").decode_as_codec("日本".encode("cp932"))
        ('日本', 'cp932')
        """
        decoder = self._load()[0]
        clean = getattr(decoder, "decode_clean", None)
        if clean is None:
            return decoder(data), None
        text, agrees = clean(data)
        return text, decoder.c_codec if agrees else None

    def encode(self, text: str) -> bytes:
        """Run this encoding's encoder over *text* (:class:`str`) in "html" error mode and return
        the bytes (Encoding Standard §4.1, https://encoding.spec.whatwg.org/#encode).

        Lone surrogates are first replaced by U+FFFD (the standard's input is a scalar value
        string); a code point the encoding cannot represent becomes ``&#N;`` (N in decimal,
        ASCII bytes), as forms and URL queries do. The encodings that have no encoder
        (replacement, UTF-16BE, UTF-16LE) encode with their :attr:`output_encoding`, UTF-8, as
        the standard's "encode" callers do. Never raises for :class:`str` input.

        >>> from scrapy_whatwg_encoding import get_encoding
        >>> get_encoding("windows-1252").encode("€ ☃")
        b'\\x80 &#9731;'
        >>> get_encoding("UTF-16LE").encode("é")  # no encoder: UTF-8
        b'\\xc3\\xa9'
        """
        return self._load()[1](text)

    @property
    def output_encoding(self) -> Encoding:
        """Get an output encoding (Encoding Standard §4.3,
        https://encoding.spec.whatwg.org/#get-an-output-encoding): the :class:`Encoding` of UTF-8
        for replacement, UTF-16BE and UTF-16LE, else this encoding itself. Browsers encode a
        page's form submissions and URL queries with it.

        >>> from scrapy_whatwg_encoding import get_encoding
        >>> get_encoding("utf-16").output_encoding
        <Encoding UTF-8>
        >>> get_encoding("koi8-r").output_encoding
        <Encoding KOI8-R>
        """
        return ENCODINGS["UTF-8"] if self.name in _NO_ENCODER else self


def _by_name(name: str) -> Encoding:
    return ENCODINGS[name]


#: Every encoding of the standard (40, including ``replacement``, ``UTF-16BE``, ``UTF-16LE`` and
#: ``x-user-defined``), keyed by its name (:attr:`Encoding.name`), in the standard's order
#: (https://encoding.spec.whatwg.org/#names-and-labels). Read it, do not change it.
ENCODINGS: dict[str, Encoding] = {name: Encoding(name) for name in NAMES}
