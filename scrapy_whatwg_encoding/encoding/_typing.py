"""Type aliases for annotations only: modules import this under ``TYPE_CHECKING`` (``Buffer`` comes
from ``typing_extensions``, which type checkers bundle; it is ``collections.abc.Buffer`` in 3.12+)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from typing_extensions import Buffer

#: A decoder run in "replacement" error mode over a whole bytes-like input, end-of-queue included (§4.1).
Decoder: TypeAlias = Callable[[Buffer], str]
#: An encoder in "html" error mode (§4.1).
Encoder: TypeAlias = Callable[[str], bytes]
#: What each encoding module's ``codec(name)`` returns.
Codec: TypeAlias = tuple[Decoder, Encoder]

__all__ = ["Buffer", "Codec", "Decoder", "Encoder"]
