"""UTF-8 (Encoding Standard §8). CPython's UTF-8 decoder replaces exactly the maximal subparts the
standard's decoder reports as errors (one U+FFFD each); the tests check it against the spec."""
from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._typing import Buffer, Codec


def _scalar_values(exc: UnicodeError) -> tuple[bytes, int]:
    """An encoder's input is scalar values: a lone surrogate encodes as U+FFFD."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return b"\xef\xbf\xbd" * (exc.end - exc.start), exc.end  # U+FFFD, already encoded


SCALAR_VALUES = "whatwg-scalar-values"
codecs.register_error(SCALAR_VALUES, _scalar_values)


def decode(data: Buffer) -> str:
    """UTF-8 decoder (§8.1.1), replacement mode, no BOM handling."""
    return str(data, "utf-8", "replace")


def encode(text: str) -> bytes:
    """UTF-8 encoder (§8.1.2) over the scalar values of *text*."""
    return text.encode("utf-8", SCALAR_VALUES)


def codec(name: str) -> Codec:
    return decode, encode
