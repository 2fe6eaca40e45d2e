"""Facts about one body, each found at most once and shared by every step that needs it: the
sniffing steps (the detector's UTF-8 check), the suspect-label check, site memory, what Scrapy
alone would do, and the response's text."""
from __future__ import annotations

import codecs

from ..encoding import ENCODINGS, Encoding, bom_sniff, decode
from ..encoding._typing import Buffer

_UTF_8 = ENCODINGS["UTF-8"]
#: Bodies up to this size (bytes) are checked for UTF-8 by decoding them whole, strictly: valid,
#: the text is kept as the UTF-8 text (a replacement decode of valid UTF-8 is the same text).
WHOLE_UTF_8 = 8 * 1024 * 1024
_utf_8_decode = codecs.utf_8_decode
_ascii_decode = codecs.ascii_decode
#: Whole-body scans (here and in :mod:`.detect`) go this many bytes at a time (bounded memory).
CHUNK = 1 << 20
_UNKNOWN = -2  # first_non_ascii not looked for yet (None means "no such byte")
_SOME = -1  # there is a byte ≥ 0x80, not looked for yet


def first_non_ascii(body: bytes) -> int | None:
    """Offset of the first byte ≥ 0x80 in *body*, or ``None``; the whole body at C speed
    (``bytes.isascii``, then :func:`next_non_ascii`: several times faster than a regex search)."""
    if body.isascii():
        return None
    return next_non_ascii(body, 0, len(body))


def next_non_ascii(data: Buffer, start: int, end: int) -> int:
    """Offset (bytes) of the first byte ≥ 0x80 in ``data[start:end]``, or -1: the ASCII decoder's
    error position, :data:`CHUNK` bytes at a time on a view (no copy; over ASCII bytes about 60
    times faster than a regex search, which reads each byte in the regex engine)."""
    view = memoryview(data)
    end = min(end, len(view))
    while start < end:
        stop = min(start + CHUNK, end)
        try:
            _ascii_decode(view[start:stop])
        except UnicodeDecodeError as error:
            return start + error.start
        start = stop
    return -1


def is_utf_8(body: bytes, start: int = 0) -> bool:
    """Whether ``body[start:]`` is valid UTF-8 to its end (an incomplete sequence at the end is
    an error), checked at C speed a MiB at a time so that no text of the whole body is built."""
    view = memoryview(body)
    end = len(body)
    step = max(CHUNK, 4)  # a chunk that is not the last always holds a whole sequence
    while start < end:
        final = start + step >= end
        try:
            start += _utf_8_decode(view[start:start + step], "strict", final)[1]
        except UnicodeDecodeError:
            return False
    return True


def _starts_utf_8(data: bytes, first: int) -> bool:
    """Whether the UTF-8 sequence at *first* (a non-ASCII byte) is valid or cut by the end."""
    try:
        _utf_8_decode(data[first:first + 4], "strict", False)
    except UnicodeDecodeError:
        return False
    return True


class Body:
    """A body (:class:`bytes`) and what is known about it so far.

    ``first_non_ascii`` (offset in bytes or ``None``), ``is_ascii`` and ``is_utf_8`` are found on
    first use; :meth:`text` keeps each text it decodes. Not thread-safe: one per response.

    >>> from scrapy_whatwg_encoding import ENCODINGS
    >>> from scrapy_whatwg_encoding.sniffing.body import Body
    >>> body = Body("naïve".encode())
    >>> body.first_non_ascii, body.is_ascii, body.is_utf_8
    (2, False, True)
    >>> body.text(ENCODINGS["windows-1252"])
    'naÃ¯ve'
    """

    __slots__ = ("_codecs", "_first", "_texts", "_utf_8", "bom", "data", "memo")

    def __init__(self, data: Buffer):
        self.data = data if isinstance(data, bytes) else bytes(data)
        self._first: int | None = _UNKNOWN
        self._utf_8: bool | None = None
        #: The encoding of the byte order mark the body starts with (BOM sniff), or ``None``.
        self.bom: Encoding | None = bom_sniff(self.data)
        self._texts: dict[Encoding, str] = {}
        self._codecs: dict[Encoding, str] = {}  # encoding → a CPython codec that decodes to its text
        #: What the sniffing steps found for this body, kept for the other runs over it (the
        #: browsers' models, an explanation): see :mod:`.run`.
        self.memo: dict = {}

    @property
    def first_non_ascii(self) -> int | None:
        """Offset (bytes) of the first byte ≥ 0x80, or ``None``."""
        if self._first is not None and self._first < 0:  # not looked for yet
            self._first = first_non_ascii(self.data)
        return self._first

    @property
    def is_ascii(self) -> bool:
        """Whether every byte is below 0x80."""
        if self._first == _UNKNOWN:
            self._first = None if self.data.isascii() else _SOME
        return self._first is None

    @property
    def is_utf_8(self) -> bool:
        """Whether the whole body is valid UTF-8 (an incomplete sequence at its end is not); an
        ASCII body is. A body of at most :data:`WHOLE_UTF_8` bytes is decoded once for it, and
        the text kept (a strict decode stops at the first error: a legacy body costs little)."""
        if self._utf_8 is None:
            if self.is_ascii:
                self._utf_8 = True
            elif len(self.data) <= WHOLE_UTF_8:
                self._strict_utf_8()
            else:
                first = self.first_non_ascii
                self._utf_8 = _starts_utf_8(self.data, first) and is_utf_8(self.data, first)  # type: ignore[arg-type]
        return self._utf_8 is True

    def _strict_utf_8(self) -> str | None:
        """Decode the whole body as strict UTF-8: sets ``is_utf_8``; the text if valid."""
        try:
            text = _utf_8_decode(self.data, "strict", True)[0]
        except UnicodeDecodeError:
            self._utf_8 = False
            return None
        self._utf_8 = True
        if self.bom is None:  # the decode hook would drop the BOM
            self._texts[_UTF_8] = text
        return text

    def text(self, encoding: Encoding) -> str:
        """The body decoded as *encoding* (:class:`str`), as the "decode" hook does: a BOM, if
        any, wins and is removed (Encoding Standard §6, ``decode``); kept for the next call."""
        text = self._texts.get(encoding)
        if text is not None:
            return text
        bom = self.bom
        if bom is None:
            if encoding is _UTF_8 and self._utf_8 is None and len(self.data) <= WHOLE_UTF_8:
                text = self._strict_utf_8()  # valid UTF-8 (most pages): the same text, and a fact
                if text is not None:
                    return text
            text, codec = encoding.decode_as_codec(self.data)
            self._texts[encoding] = text
            if codec is not None:
                self._codecs[encoding] = codec
        else:
            text = self._texts[bom] = decode(self.data, bom)[0]  # the BOM wins, and goes
        return text

    def same_as_codec(self, encoding: Encoding) -> str | None:
        """The CPython codec whose strict decoding gives :meth:`text`'s text for *encoding*, where
        the decoder knew one (see :meth:`.Encoding.decode_as_codec`), else ``None``."""
        return self._codecs.get(encoding)

    def decoded(self, encoding: Encoding) -> str | None:
        """The text :meth:`text` already has for *encoding*, else ``None`` (nothing is decoded)."""
        return self._texts.get(encoding)
