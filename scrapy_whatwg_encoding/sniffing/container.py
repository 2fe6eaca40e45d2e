"""The container document of a frame (HTML §13.2.3.2, step 6 of the encoding sniffing algorithm)."""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from ..encoding import Encoding, get_encoding

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}


@dataclass(frozen=True, slots=True)
class Container:
    """A frame's container (parent) document: its ``encoding`` (:class:`Encoding` or a label)
    and its ``origin`` (an origin or any URL of that document, e.g. ``"https://example.com"``)."""

    encoding: Encoding | str
    origin: str


def origin_of(url: str | None) -> tuple[str, str, int] | None:
    """A tuple origin ``(scheme, host, port)`` for an http(s)/ws(s)/ftp URL, ``None`` for an
    opaque origin (other schemes such as ``data:`` and ``file:``) or a URL that does not parse."""
    if not url:
        return None
    try:
        parts = urlsplit(str(url).strip())
        scheme = parts.scheme.lower()
        host = parts.hostname
        port = parts.port
    except ValueError:
        return None
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    return scheme, host.rstrip("."), _DEFAULT_PORTS[scheme] if port is None else port


def container_encoding(
    parent: Container | tuple[Encoding | str, str] | None, url: str | None
) -> tuple[Encoding, str | None] | None:
    """Step 6: the container's encoding when *parent* (a :class:`Container` or an
    ``(encoding, origin)`` pair) is same origin with *url* and its encoding is not UTF-16BE/LE.
    Returns ``(encoding, label or None)`` or ``None``."""
    if parent is None:
        return None
    given, origin = parent if isinstance(parent, tuple) else (parent.encoding, parent.origin)
    ours = origin_of(url)
    if ours is None or ours != origin_of(origin):
        return None
    label = None
    if isinstance(given, Encoding):
        encoding: Encoding | None = given
    else:
        label = str(given)
        encoding = get_encoding(label)
    if encoding is None or encoding.is_utf16:
        return None
    return encoding, label
