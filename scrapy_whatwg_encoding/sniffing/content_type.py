"""Content-Type handling: MIME Sniffing "parse a MIME type" (https://mimesniff.spec.whatwg.org/#parse-a-mime-type),
Fetch's "extract a MIME type" (https://fetch.spec.whatwg.org/#concept-header-extract-mime-type) over
the combined header value, and the document kind the sniffing algorithm uses."""
from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, Literal, NamedTuple, TypeVar

# HTTP token code points and HTTP quoted-string token code points (MIME Sniffing §2, Fetch).
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")
_QUOTED_TOKEN = re.compile(r"[\t\x20-\x7e\x80-\xff]*\Z")
_HTTP_WS = "\t\n\r "
T = TypeVar("T")
#: Which algorithm a document gets (see :func:`document_kind`).
DocumentKind = Literal["html", "xml", "text", "other"]


def _collect_quoted(s: str, pos: int) -> tuple[str, int]:
    """Collect an HTTP quoted string with extract-value true (Fetch); *pos* is at the ``"``.
    Returns (value, position after it)."""
    value = []
    pos += 1
    n = len(s)
    while True:
        start = pos
        while pos < n and s[pos] not in '"\\':
            pos += 1
        value.append(s[start:pos])
        if pos >= n:
            break
        quote_or_backslash = s[pos]
        pos += 1
        if quote_or_backslash == "\\":
            if pos >= n:
                value.append("\\")
                break
            value.append(s[pos])
            pos += 1
        else:
            break
    return "".join(value), pos


def parse_mime_type(value: str | bytes) -> tuple[str, dict[str, str]] | None:
    """Parse a MIME type (MIME Sniffing §4.4): ``(essence "type/subtype" lowercased,
    parameters {lowercased name: value})`` or ``None`` on failure. The first occurrence of a
    parameter wins. *value* as bytes is isomorphic decoded (ISO-8859-1). Never raises."""
    s = value.decode("latin-1") if isinstance(value, (bytes, bytearray)) else str(value)
    s = s.strip(_HTTP_WS)  # step 1: HTTP whitespace
    slash = s.find("/")
    if slash < 0:
        return None
    type_ = s[:slash]
    if not _TOKEN.match(type_):
        return None
    semicolon = s.find(";", slash + 1)
    end = len(s) if semicolon < 0 else semicolon
    subtype = s[slash + 1:end].rstrip(_HTTP_WS)
    if not _TOKEN.match(subtype):
        return None
    essence = f"{type_}/{subtype}".lower()
    params: dict[str, str] = {}
    pos, n = end, len(s)
    while pos < n:  # step 11: parameters
        pos += 1  # past ";"
        while pos < n and s[pos] in _HTTP_WS:
            pos += 1
        start = pos
        while pos < n and s[pos] not in ";=":
            pos += 1
        name = s[start:pos].lower()
        if pos < n:
            if s[pos] == ";":
                continue
            pos += 1  # past "="
        if pos >= n:
            break
        if s[pos] == '"':
            val, pos = _collect_quoted(s, pos)
            while pos < n and s[pos] != ";":
                pos += 1
        else:
            start = pos
            while pos < n and s[pos] != ";":
                pos += 1
            val = s[start:pos].rstrip(_HTTP_WS)
            if not val:
                continue
        if name and _TOKEN.match(name) and _QUOTED_TOKEN.match(val) and name not in params:
            params[name] = val
    return essence, params


def transport_charset(content_type: str | bytes | None) -> str | None:
    """The ``charset`` parameter of the MIME type Fetch extracts from a Content-Type value, or
    ``None`` when there is none or no MIME type (see :func:`extract_mime_type`)."""
    return content_type_facts(content_type)[2]


# MIME Sniffing §7.1: essences that mean the type is unknown.
UNKNOWN_TYPES = frozenset({"unknown/unknown", "application/unknown", "*/*"})


def document_kind(content_type: str | bytes | None) -> DocumentKind:
    """Which algorithm applies: ``"xml"`` (``*/xml``, ``*+xml``), ``"text"`` (``text/plain``),
    ``"html"`` (``text/html``, a missing header, one that does not parse, or an unknown type:
    ``unknown/unknown``, ``application/unknown``, ``*/*``), else ``"other"``."""
    return content_type_facts(content_type)[1]


def essence_kind(essence: str) -> DocumentKind:
    """:func:`document_kind` of a MIME type essence (lowercase), as it stands."""
    return _kind(essence)


def _kind(essence: str) -> DocumentKind:
    if essence == "text/html" or essence in UNKNOWN_TYPES:
        return "html"
    if essence == "text/plain":
        return "text"
    if essence.endswith(("/xml", "+xml")):
        return "xml"
    return "other"


#: Content-Type values of at most this many characters have their results cached: a crawl sees the
#: same few over and over; a longer (hostile) one is worked out each time, so it cannot fill memory.
CACHED_LENGTH = 256
#: Values a :func:`per_value` cache holds at most (it starts afresh when full).
CACHED_VALUES = 512


class CacheInfo(NamedTuple):
    """What a :func:`per_value` cache holds: ``maxsize`` values at most, ``currsize`` now."""

    maxsize: int
    currsize: int


def per_value(function: Callable[[Any], T]) -> Callable[[Any], T]:
    """*function* of one Content-Type value (str, bytes, ``None``; an unhashable value such as a
    ``bytearray`` is not kept), its results kept for values of at most :data:`CACHED_LENGTH`
    characters (the same few values recur all crawl), at most :data:`CACHED_VALUES` of them;
    ``cache_info()`` (a :class:`CacheInfo`) and ``cache_clear()`` as ``functools.lru_cache`` names
    them. A hit is one dict lookup."""
    cache: dict[Any, T] = {}

    @functools.wraps(function)
    def call(value):
        try:
            return cache[value]
        except KeyError:
            pass
        except TypeError:  # unhashable: not kept
            return function(value)
        result = function(value)
        if value is None or len(value) <= CACHED_LENGTH:
            if len(cache) >= CACHED_VALUES:
                cache.clear()
            cache[value] = result
        return result

    call.cache_info = lambda: CacheInfo(CACHED_VALUES, len(cache))  # type: ignore[attr-defined]
    call.cache_clear = cache.clear  # type: ignore[attr-defined]
    return call


@per_value
def content_type_facts(content_type: str | bytes | None) -> tuple[str, DocumentKind, str | None]:
    """``(essence, kind, charset)`` of a Content-Type value, parsing it once: the MIME type essence
    (``""`` when missing or unparsable), :func:`document_kind` and :func:`transport_charset`.
    Short values are cached: a crawl sees the same few Content-Type headers over and over."""
    if content_type is None:
        return "", "html", None
    parsed = extract_mime_type(bytes(content_type) if isinstance(content_type, bytearray) else content_type)
    if parsed is None:
        return "", "html", None
    return parsed[0], _kind(parsed[0]), parsed[1].get("charset")


def split_header_value(value: str) -> list[str]:
    """Fetch "get, decode, and split" on an (isomorphic decoded) header value: the values between
    commas outside quoted strings, without leading and trailing HTTP tab or space."""
    values, pos, n, current = [], 0, len(value), ""
    while True:
        start = pos
        while pos < n and value[pos] not in '",':
            pos += 1
        current += value[start:pos]
        if pos < n and value[pos] == '"':
            end = _collect_quoted(value, pos)[1]
            current += value[pos:end]  # extract-value false: the quoted string as it stands
            pos = end
            if pos < n:
                continue
        values.append(current.strip("\t "))
        current = ""
        if pos >= n:
            return values
        pos += 1  # past ","


def extract_mime_type(value: str | bytes) -> tuple[str, dict[str, str]] | None:
    """Fetch "extract a MIME type" from a ``Content-Type`` value (several headers combined with
    ", " as HTTP combines them): the last MIME type that parses and is not ``*/*``, keeping the
    charset of an earlier one of the same essence. ``(essence, parameters)`` or ``None``."""
    text = value.decode("latin-1") if isinstance(value, (bytes, bytearray)) else str(value)
    charset = essence = mime_type = None
    for item in split_header_value(text):
        parsed = parse_mime_type(item)
        if parsed is None or parsed[0] == "*/*":
            continue
        mime_type = parsed
        if parsed[0] != essence:
            charset, essence = parsed[1].get("charset"), parsed[0]
        elif "charset" not in parsed[1] and charset is not None:
            mime_type = (essence, {**parsed[1], "charset": charset})
    return mime_type




# The browsers' own readings of a Content-Type value (the "browsers" profile, docs/browsers.rst),
# recorded in Firefox ESR and Chromium by tools/browser_check/variants.py (sets "types"): looser
# than Fetch's. The standard's reading above stays Fetch's.
_LOOSE_TYPE_END = re.compile(r"[\t\n\r ;(]")
# A parameter: its name, then its value, unquoted (Chromium skips whitespace after "=").
_LOOSE_PARAMETER = re.compile(r"[\t\n\r ]*([^=;]*?)[\t\n\r ]*=(?:([\t\n\r ]*)\"([^\"]*)\"?|([^;]*))")


def _loose_charset(item: str, end: int) -> str | None:
    """The first ``charset`` parameter after the first ``;`` at or past *end* of *item* (names
    case-insensitive, the value trimmed, a quoted value unquoted), or ``None``."""
    semicolon = item.find(";", end)
    while semicolon >= 0:
        match = _LOOSE_PARAMETER.match(item, semicolon + 1)
        if match is not None and match.group(1).lower() == "charset":
            value = match.group(3) if match.group(3) is not None else match.group(4)
            return value.strip(_HTTP_WS) or None
        semicolon = item.find(";", semicolon + 1)
    return None


def chromium_mime_type(value: str | bytes, firefox: bool = False) -> tuple[str, str | None]:
    """How Chromium reads a ``Content-Type`` value (net::HttpUtil::ParseContentType over each of
    its comma-separated values): ``(essence, charset)``, the essence ``""`` where it has none. Each
    value's type runs to the first whitespace, ``;`` or ``(`` (so ``text/h tml`` is ``text/h`` and
    ``text/html x`` is ``text/html``); a value without ``/`` anywhere, or exactly ``*/*``, is
    skipped; the last type wins, keeping the charset of an earlier one of the same type. A type
    without ``/`` (``text /html``) is none, with no charset; ``*/*; charset=X`` keeps X, unless
    *firefox* (Firefox's reading, :func:`firefox_mime_type`).

    >>> chromium_mime_type("text/h tml; charset=koi8-r"), chromium_mime_type("text/html, nonsense")
    (('text/h', 'koi8-r'), ('text/html', None))
    >>> chromium_mime_type("text /html; charset=koi8-r"), chromium_mime_type("*/*; charset=koi8-r")
    (('', None), ('*/*', 'koi8-r'))
    """
    text = value.decode("latin-1") if isinstance(value, (bytes, bytearray)) else str(value)
    essence, charset = "", None
    for item in split_header_value(text):
        item = item.strip(_HTTP_WS)
        if not item or item == "*/*" or "/" not in item:
            continue
        end_match = _LOOSE_TYPE_END.search(item)
        end = len(item) if end_match is None else end_match.start()
        found_type, found_charset = item[:end].lower(), _loose_charset(item, end)
        if firefox and found_type == "*/*":
            continue
        if found_type != essence:
            essence, charset = found_type, found_charset
        elif found_charset is not None:
            charset = found_charset
    if "/" not in essence:
        return "", None
    return essence, charset


def firefox_mime_type(value: str | bytes) -> tuple[str, str | None]:
    """How Firefox reads a ``Content-Type`` value: Fetch's "extract a MIME type"
    (:func:`extract_mime_type`), and only where that finds none, as Chromium does
    (:func:`chromium_mime_type`) but skipping ``*/*`` with its parameters. So ``charset= "koi8-r"``
    is no label after ``text/html`` (Fetch keeps the space and the quotes) but KOI8-R after
    ``text/h tml``, and a malformed value after a good one is skipped.

    >>> firefox_mime_type("*/*; charset=koi8-r"), firefox_mime_type("text/html, */*; charset=koi8-r")
    (('', None), ('text/html', None))
    >>> firefox_mime_type('text/html; charset= "koi8-r"'), firefox_mime_type('text/h tml; charset= "koi8-r"')
    (('text/html', ' "koi8-r"'), ('text/h', 'koi8-r'))
    >>> firefox_mime_type("text/plain; charset=gb18030, text/h tml"), chromium_mime_type("text/plain; charset=gb18030, text/h tml")
    (('text/plain', 'gb18030'), ('text/h', None))
    """
    parsed = extract_mime_type(value)
    if parsed is not None:
        return parsed[0], parsed[1].get("charset")
    return chromium_mime_type(value, firefox=True)
