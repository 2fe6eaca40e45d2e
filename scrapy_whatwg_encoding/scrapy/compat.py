"""What the running Scrapy offers (2.11 to the newest), found once at import by feature detection.

The only module of the package that touches Scrapy's private attributes and internals. A
``TextResponse`` keeps the ``encoding`` given to its constructor in ``_encoding`` and its decoded
text, selector, inferred encoding and JSON in ``_cached_*`` attributes (Scrapy 2.11 to 2.19);
``Headers`` is a ``dict`` of title-cased names (:data:`RAW_HEADERS`). When a fresh probe response
behaves that way, :func:`with_encoding` changes a response in place; otherwise it builds a new
response from the class's public ``attributes`` (as ``Response.replace()`` does, without reading
``response.encoding``, which would run Scrapy's whole inference). The running downloader
middlewares are read from the engine (:func:`downloader_middlewares`).
tests/scrapy/test_scrapy_compat.py fails when a Scrapy release changes these internals.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Any

from scrapy.http import Headers, Response, TextResponse
from scrapy.utils.misc import load_object

_PROBE_URL = "http://probe.invalid/"
#: Caches the in-place change must reset; a Scrapy without them gets new responses instead.
REQUIRED_CACHES = frozenset({"_cached_benc", "_cached_ubody", "_cached_selector"})


def _probe_fresh_caches() -> dict[str, Any] | None:
    """The value of every ``_cached_*`` attribute of a fresh ``TextResponse`` (its "not computed
    yet" markers: ``None``, or the private sentinel of ``.json()``), or ``None`` if a probe does not
    behave as :func:`with_encoding` needs."""
    try:
        probe = TextResponse(_PROBE_URL, body=b"\xc3\xa9", encoding="latin-1")
        fresh = {name: getattr(probe, name) for name in dir(probe) if name.startswith("_cached_")}
        if not REQUIRED_CACHES <= fresh.keys() or getattr(probe, "_encoding", None) != "latin-1":
            return None
        if probe.text != "Ã©" or probe.selector is None:  # fills the caches
            return None
        if probe._cached_ubody != "Ã©" or probe._cached_selector is None:  # type: ignore[attr-defined]
            return None
        _reset(probe, "utf-8", fresh)  # the state a new encoding gives: Scrapy reads it afresh
        if probe.encoding != "utf-8" or probe.text != "é" or not probe.css("*"):
            return None
        probe._cached_ubody = "x"  # type: ignore[attr-defined]
        return fresh if probe.text == "x" else None
    except Exception:  # noqa: BLE001 — any surprise means: do not touch the internals
        return None


def _reset(response: TextResponse, encoding: str | None, fresh: dict[str, Any]) -> None:
    response._encoding = encoding  # type: ignore[attr-defined]
    for name, value in fresh.items():
        setattr(response, name, value)


_FRESH = _probe_fresh_caches()
#: Whether :func:`with_encoding` changes a ``TextResponse`` in place (the internals are as known).
IN_PLACE = _FRESH is not None
# The caches of a response in one C call, and their values when fresh (most responses: nobody has
# read their text, selector or JSON before the encoding middleware).
_CACHES = attrgetter(*_FRESH) if _FRESH else None
_FRESH_VALUES = tuple(_FRESH.values()) if _FRESH else ()


def _probe_raw_headers() -> bool:
    """Whether ``Headers`` (a ``dict``) keeps each name as ``name.title()`` in bytes with a list
    of values, so that :func:`header_values` may read the dict without normalizing the name."""
    try:
        probe = Headers([("content-TYPE", "text/html"), (b"x-a", [b"1", b"2"])])
        return (dict.get(probe, b"Content-Type") == [b"text/html"] and dict.get(probe, b"X-A") == [b"1", b"2"]
                and probe.getlist("content-type") == [b"text/html"])
    except Exception:  # noqa: BLE001
        return False


#: Whether :func:`header_values` reads Scrapy's ``Headers`` directly.
RAW_HEADERS = _probe_raw_headers()


def header_values(headers, name: bytes) -> list[bytes]:
    """``headers.getlist(name)`` for *name* already in title case (``b"Content-Type"``): the
    values (a list of bytes, empty if none). Reads Scrapy's own ``Headers`` without normalizing
    the name on every call (a subclass may normalize otherwise: it is asked)."""
    if RAW_HEADERS and type(headers) is Headers:
        return dict.get(headers, name) or []
    return headers.getlist(name)


def pop_header(headers, name: bytes) -> list[bytes]:
    """Remove the header *name* (title case, bytes) from *headers* if it is there; its values (a
    list of bytes, empty if none)."""
    if RAW_HEADERS and type(headers) is Headers:
        return dict.pop(headers, name, None) or []
    values = headers.getlist(name)
    headers.pop(name, None)
    return values


def explicit_encoding(response: Response) -> str | None:
    """The ``encoding`` *response* was constructed with, without running Scrapy's inference;
    ``None`` when none was given (or this Scrapy keeps it elsewhere)."""
    return getattr(response, "_encoding", None) if IN_PLACE else None


def cache_text(response: TextResponse, text: str) -> None:
    """Store *text* (str) where Scrapy's ``TextResponse.text`` keeps it (no-op if unknown)."""
    if IN_PLACE:
        response._cached_ubody = text  # type: ignore[attr-defined]


def copy_response(response: Response, cls: type[Response], **changes: Any) -> Response:
    """A new *cls* with every public attribute of *response* (``response.attributes``, as
    ``replace()`` reads them: url, status, headers, body, flags, request, certificate, ip_address,
    protocol, ... as this Scrapy has them, and what a plugin's response adds on the instance, such
    as scrapy-zyte-api's ``raw_api_response``) except *changes*. ``encoding`` is never read from
    *response*."""
    kwargs = {name: getattr(response, name) for name in response.attributes
              if name != "encoding" and name not in changes}
    return cls(**kwargs, **changes)


def with_encoding(response: TextResponse, encoding: str | None, text: str | None = None) -> TextResponse:
    """*response* with ``encoding=encoding`` (a codec name, or ``None``: Scrapy's inference when
    read) and, if given, *text* (str) as its decoded text (``response.text``), of the same class.

    Where :data:`IN_PLACE`, *response* itself changes: its constructor encoding and its caches (text,
    selector, inferred encoding, JSON), as if it had been built with *encoding*, and then the text;
    Scrapy's own ``text``, ``selector``, ``json()`` read them. Otherwise a copy of the same class
    (:func:`copy_response`), which decodes with Python's codec for *encoding*."""
    if _FRESH is not None:
        if _CACHES(response) == _FRESH_VALUES:  # type: ignore[misc]
            response._encoding = encoding  # type: ignore[attr-defined]
        else:
            _reset(response, encoding, _FRESH)
        if text is not None:
            response._cached_ubody = text  # type: ignore[attr-defined]
        return response
    return copy_response(response, type(response), encoding=encoding)  # type: ignore[return-value]


def downloader_middlewares(crawler) -> list:
    """The running downloader middleware instances of *crawler*, in Scrapy's order: its engine's
    downloader middleware manager's ``middlewares`` (``crawler.engine.downloader.middleware``,
    Scrapy 2.11 to 2.19); an empty list where it has no engine yet or this Scrapy keeps them
    elsewhere."""
    try:
        return list(crawler.engine.downloader.middleware.middlewares)
    except (AttributeError, RuntimeError):  # no engine yet (Scrapy 2.19 raises RuntimeError), or moved
        return []


def http_cache_middlewares(crawler) -> list:
    """The running ``HttpCacheMiddleware`` instances (subclasses too) of *crawler*, among
    :func:`downloader_middlewares`; an empty list where the crawl has none."""
    from scrapy.downloadermiddlewares.httpcache import HttpCacheMiddleware  # only where asked

    return [m for m in downloader_middlewares(crawler) if isinstance(m, HttpCacheMiddleware)]


def setdefault_component(settings, name: str, component: type, order: int) -> None:
    """Add *component* (a class) to the component priority dict setting *name* with *order*,
    unless it is already there (as a class or an import path); the setting's priority is kept.
    ``BaseSettings.setdefault_in_component_priority_dict`` (Scrapy 2.13+), written out for older."""
    method = getattr(settings, "setdefault_in_component_priority_dict", None)
    if method is not None:
        method(name, component, order)
        return
    components = settings.getdict(name)
    if any(load_object(key) is component for key in components):
        return
    components[component] = order
    settings.set(name, components, settings.getpriority(name) or 0)
