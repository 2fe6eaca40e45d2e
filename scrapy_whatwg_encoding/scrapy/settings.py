"""The ``WHATWG_ENCODING_*`` settings, read and validated once when the crawl starts.

- ``WHATWG_ENCODING_ENABLED`` (bool, ``True``): ``False`` disables the middleware.
- ``WHATWG_ENCODING_LOCALE`` (str | None, ``None``): a language tag choosing the default encoding
  (sniffing step 9); ``None`` is the "all other locales" row, windows-1252.
- ``WHATWG_ENCODING_DEFAULT`` (str | None, ``None``): a label, the user default (step 9).
- ``WHATWG_ENCODING_PROFILE`` (str, ``"standard"``): ``"standard"``, the HTML standard's
  algorithm, or ``"browsers"``, what Firefox and Chromium agree on where they leave it (see
  ``sniff(profile=...)`` and docs/browsers.rst). Per request: ``meta["whatwg_encoding_profile"]``.
- ``WHATWG_ENCODING_DETECTOR`` (str | None, ``None``): autodetection (step 8): ``"off"``,
  ``"browser"`` or ``"full"``; ``None`` is the profile's: ``"full"`` for ``"standard"``,
  ``"browser"`` for ``"browsers"``. ``"full"`` with ``"browsers"`` is invalid (browsers never
  detect UTF-8).
- ``WHATWG_ENCODING_PRESCAN_BYTES`` (int ≥ 1, ``1024``): bytes the prescan examines (step 5).
- ``WHATWG_ENCODING_REMEMBER`` (bool, ``False``): per-host likely encoding (step 7), kept in
  ``JOBDIR`` (see :mod:`.memory`).
- ``WHATWG_ENCODING_REMEMBER_STORE`` (str | None, ``None``): where that memory lives: ``None`` for
  the ``JOBDIR`` file (or this process without ``JOBDIR``), a ``redis://``, ``rediss://`` or
  ``unix://`` URL for a Redis server shared by a fleet (needs the ``redis`` extra).
- ``WHATWG_ENCODING_REMEMBER_MAX_HOSTS`` (int ≥ 1, ``20000``): hosts that memory keeps in RAM
  (least recently used first out; their declarations not yet written are written to the store all
  the same).
- ``WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS`` (int ≥ 1, ``100000``): hosts the store (``JOBDIR``
  database or Redis) keeps (least recently used first out).
- ``WHATWG_ENCODING_REMEMBER_REDIS_PREFIX`` (non-empty str without ``#``,
  ``"whatwg_encoding:memory:"``): the prefix of that memory's Redis keys (one memory per prefix).
- ``WHATWG_ENCODING_LOG_LEVEL`` (level name or number, ``"DEBUG"``): level of the one log line
  per decision.
- ``WHATWG_ENCODING_REPORT`` (str | None, ``None``): path of an HTML report written at spider close
  (see :mod:`scrapy_whatwg_encoding.report`); the crawl stops at start unless that file can be
  written then (it is created and removed, or an existing one opened for appending); a failure to
  write it at close is logged as an ERROR and counted in ``whatwg_encoding/close_errors``.
- ``WHATWG_ENCODING_REPORT_EXAMPLES`` (int ≥ 0, ``20``): example pages kept per decision source in
  that report.
- ``WHATWG_ENCODING_SUSPECT_LABELS`` (str, ``"label"``): what to do with a page whose label the
  content contradicts (see :mod:`scrapy_whatwg_encoding.sniffing.mislabel`): ``"label"`` decodes
  it with the label's encoding, the standard's answer (the page is only counted and logged);
  ``"content"`` decodes it with the content's encoding (decision source ``"content"``).
- ``WHATWG_ENCODING_OVERRIDES`` (dict, ``{}``): host (and the hosts under it) → label, the user
  override (step 2) for those sites (see :mod:`.overrides`).

The spider attribute ``whatwg_encoding_locale`` is a shortcut that wins over the setting.
A ``WHATWG_ENCODING_*`` name that is not a key of :data:`DEFAULTS` is a WARNING at start-up naming
the closest known one (see :mod:`.startup`): every setting has its default here.
An invalid value raises :class:`InvalidSetting` (a ``ValueError`` naming the setting, the value and
the allowed values) when the middleware is built, so the crawl fails at start-up rather than on
every response. A well-formed language tag that names no language (``"klingon"``) is accepted:
:func:`locale_warning` says which encoding it falls back to. A label of the replacement encoding
(``"iso-2022-kr"``) is an invalid value wherever a label is expected: every document would decode
to a single U+FFFD (see :func:`label_problem`).
"""
from __future__ import annotations

import functools
import json
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ..encoding import get_encoding
from ..sniffing.decide import SUSPECT_LABELS, Options
from ..sniffing.decision import DETECTOR_MODES, PROFILES, DetectorMode, Profile
from ..sniffing.locale import is_known_locale, locale_encoding
from ..sniffing.prescan import PRESCAN_BYTES
from ..sniffing.run import detector_for
from .memory.store import StoreOptions
from .responses import LOCALE_KEY, PROFILE_KEY

T = TypeVar("T")
# A BCP 47 language tag, loosely: "ja", "zh-TW", "zh-Hant-HK", "pt_BR" ("_" is accepted as "-").
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*")

DEFAULTS: dict[str, Any] = {
    "WHATWG_ENCODING_ENABLED": True,
    "WHATWG_ENCODING_LOCALE": None,
    "WHATWG_ENCODING_DEFAULT": None,
    "WHATWG_ENCODING_PROFILE": "standard",
    "WHATWG_ENCODING_DETECTOR": None,
    "WHATWG_ENCODING_PRESCAN_BYTES": PRESCAN_BYTES,
    "WHATWG_ENCODING_REMEMBER": False,
    "WHATWG_ENCODING_REMEMBER_STORE": None,
    "WHATWG_ENCODING_REMEMBER_MAX_HOSTS": 20_000,
    "WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS": StoreOptions.max_hosts,
    "WHATWG_ENCODING_REMEMBER_REDIS_PREFIX": StoreOptions.redis_prefix,
    "WHATWG_ENCODING_LOG_LEVEL": "DEBUG",
    "WHATWG_ENCODING_REPORT": None,
    "WHATWG_ENCODING_REPORT_EXAMPLES": 20,
    "WHATWG_ENCODING_SUSPECT_LABELS": "label",
    "WHATWG_ENCODING_OVERRIDES": {},
}


class InvalidSetting(ValueError):
    """A ``WHATWG_ENCODING_*`` setting (or the spider attribute) has a value that cannot work."""

    def __init__(self, name: str, value: Any, expected: str):
        super().__init__(f"{name}: invalid value {value!r} ({expected})")
        self.name, self.value, self.expected = name, value, expected


@dataclass(frozen=True)
class Config:
    """The validated settings of one crawl (see the module docstring). How a response is decided
    is the sniffing layer's :class:`~..sniffing.decide.Options` (``WHATWG_ENCODING_LOCALE``,
    ``_DEFAULT``, ``_PRESCAN_BYTES``, ``_PROFILE``, ``_DETECTOR``, ``_SUSPECT_LABELS``), held
    whole: its fields and defaults are not repeated here."""

    enabled: bool = True
    options: Options = field(default_factory=Options)
    #: Where ``options.locale`` came from, for messages: the setting or the spider attribute.
    locale_setting: str = "WHATWG_ENCODING_LOCALE"
    remember: bool = False
    #: ``WHATWG_ENCODING_REMEMBER_STORE`` (its ``url``) and the store's other settings.
    remember_store: StoreOptions = field(default_factory=StoreOptions)
    remember_max_hosts: int = 20_000
    log_level: int = logging.DEBUG
    report: str | None = None
    report_examples: int = 20
    #: ASCII lower-case host → label (``WHATWG_ENCODING_OVERRIDES``, see :func:`check_overrides`).
    overrides: Mapping[str, str] = field(default_factory=dict)

    def options_for(self, profile: Profile, locale: str | None) -> Options:
        """The options for a request sniffed in *profile* (a valid profile) with *locale*:
        ``WHATWG_ENCODING_DETECTOR`` if it was set, else that profile's own detector. Raises
        :class:`InvalidSetting` for ``"full"`` with ``"browsers"``."""
        options = self.options
        if profile == options.profile and locale == options.locale:
            return options
        return _options(options, profile, locale)


@functools.lru_cache(maxsize=64)  # the few (profile, locale) pairs a crawl's requests ask for
def _options(options: Options, profile: Profile, locale: str | None) -> Options:
    profile_detector("WHATWG_ENCODING_DETECTOR", profile, options.detector)  # InvalidSetting if they contradict
    return replace(options, profile=profile, locale=locale)


def check_profile(name: str, value: Any) -> Profile:
    """Validate a profile value (setting, request meta, CLI option): one of :data:`PROFILES`."""
    if value not in PROFILES:
        raise InvalidSetting(name, value, f"expected one of {', '.join(map(repr, PROFILES))}")
    return value


def profile_detector(name: str, profile: Profile, detector: DetectorMode | None) -> DetectorMode:
    """The detector mode for *profile* when *detector* (a mode or ``None``) is asked for:
    ``None`` gives the profile's own (``"full"`` or ``"browser"``). Raises
    :class:`InvalidSetting` naming *name* for ``"full"`` with ``"browsers"``."""
    try:
        return detector_for(detector, profile)  # the sniffing layer's rule
    except ValueError:
        raise InvalidSetting(name, detector, 'it contradicts the "browsers" profile, whose browsers never '
                                             'detect UTF-8: use "browser" or "off", or leave it unset') from None


def check_locale(name: str, value: Any) -> str | None:
    """Validate a locale value (setting, spider attribute or request meta); ``None``/``""`` → ``None``."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not _LANGUAGE_TAG.fullmatch(value):
        raise InvalidSetting(name, value, 'expected a language tag such as "ja" or "zh-TW"')
    return value.replace("_", "-")


def locale_warning(name: str, locale: str | None) -> str | None:
    """The warning for a well-formed *locale* whose language the locale table cannot know (see
    ``sniffing.locale.is_known_locale``), naming the encoding it falls back to; ``None`` if known."""
    if is_known_locale(locale):
        return None
    return (f"{name}: {locale!r} is not a known language tag; documents that declare no encoding "
            f"default to {locale_encoding(locale).name} (the \"all other locales\" row)")


def label_problem(value: Any) -> str | None:
    """Why *value* cannot be a label to decode with, or ``None`` when it can: it is no label
    (``get an encoding`` fails), or a label of the replacement encoding (``"iso-2022-kr"``,
    ``"hz-gb-2312"``, ...), which decodes every document to a single U+FFFD (Encoding Standard §4.2)."""
    encoding = get_encoding(value) if isinstance(value, str) else None
    if encoding is None:
        return "expected a label of the WHATWG Encoding Standard"
    if encoding.name == "replacement":
        return ("a label of the replacement encoding, which decodes every document to a single U+FFFD; "
                "expected a label of an encoding that decodes text, such as \"utf-8\"")
    return None


def check_label(name: str, value: Any) -> str | None:
    """Validate an encoding label (``get an encoding`` must succeed, and not to the replacement
    encoding: see :func:`label_problem`); ``None``/``""`` → ``None``."""
    if value is None or value == "":
        return None
    problem = label_problem(value)
    if problem is not None:
        raise InvalidSetting(name, value, problem)
    return value


def check_overrides(name: str, value: Any) -> dict[str, str]:
    """Validate ``WHATWG_ENCODING_OVERRIDES`` (a mapping, or a JSON object string as ``-s`` gives
    it): each key a host name (IDNA-encoded and lower-cased here), each value a label."""
    expected = 'expected a dict of host → encoding label, such as {"legacy.example.jp": "shift_jis"}'
    if isinstance(value, str) and value.strip():
        try:
            value = json.loads(value)
        except ValueError:
            raise InvalidSetting(name, value, expected) from None
    if value is None or value == "":
        return {}
    if not isinstance(value, Mapping):
        raise InvalidSetting(name, value, expected)
    overrides = {}
    for key, label in value.items():
        host = key.strip().strip(".").lower() if isinstance(key, str) else ""
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            host = ""
        if not host or any(c in host for c in "/:@?#[] "):
            raise InvalidSetting(name, value, f"{key!r} is not a host name; {expected}")
        problem = label_problem(label)
        if problem is not None:
            raise InvalidSetting(name, value, f"{label!r} for {key!r}: {problem}")
        overrides[host] = label
    return overrides


def _bool(settings, name: str) -> bool:
    value = settings.get(name, DEFAULTS[name])
    try:
        return settings.getbool(name, DEFAULTS[name])
    except ValueError:
        raise InvalidSetting(name, value, "expected a boolean") from None


def _log_level(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str):
        level = logging.getLevelName(value.strip().upper())
        if isinstance(level, int):
            return level
    raise InvalidSetting("WHATWG_ENCODING_LOG_LEVEL", value,
                         "expected a logging level such as DEBUG or INFO")


def _count(name: str, value: Any, least: int, unit: str) -> int:
    """*value* as a whole number ≥ *least* (ints or their strings, not floats or bools)."""
    try:
        number = int(value)
        if isinstance(value, (float, bool)) or number < least:
            raise ValueError
    except (TypeError, ValueError):
        raise InvalidSetting(name, value, f"expected a whole number of {unit} ≥ {least}") from None
    return number


def request_options(config: Config, meta: Mapping) -> Options:
    """The sniffing options for a request: ``meta["whatwg_encoding_profile"]`` and
    ``meta["whatwg_encoding_locale"]`` where given (validated: :class:`InvalidSetting`; an empty
    locale is none), else the settings'."""
    profile, locale = config.options.profile, config.options.locale
    if meta.get(PROFILE_KEY) is not None:
        profile = check_profile(f"meta[{PROFILE_KEY!r}]", meta[PROFILE_KEY])
    if meta.get(LOCALE_KEY) is not None:
        locale = check_locale(f"meta[{LOCALE_KEY!r}]", meta[LOCALE_KEY])
    return config.options_for(profile, locale)


def _choice(settings, name: str, choices: tuple[T, ...]) -> T:
    value = settings.get(name, DEFAULTS[name])
    if value not in choices:
        raise InvalidSetting(name, value, f"expected one of {', '.join(map(repr, choices))}")
    return value


def _path(name: str, value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise InvalidSetting(name, value, "expected a file path")
    return os.fspath(value)


def check_report_path(name: str, value: Any) -> str | None:
    """Validate the report's path at start-up rather than when the spider closes: ``None``/``""`` →
    ``None``, else a file path that can be written now. The proof is the operating system's, not
    :func:`os.access` (which says yes to root everywhere, and to a directory such as ``/proc`` where
    no file can be made): a missing file is created and removed at once; an existing one is opened
    for appending (without blocking: a FIFO without a reader fails) and left as it was. The report
    itself is written at spider close; a failure then is logged and counted (see :mod:`.stats`)."""
    path = _path(name, value)
    if path is None:
        return None
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InvalidSetting(name, value, "expected a file path, not a directory")
    if not os.path.isdir(directory):
        raise InvalidSetting(name, value, f"its directory {directory} does not exist")
    try:
        _prove_writable(path)
    except OSError as exc:
        raise InvalidSetting(name, value, f"{path} cannot be written: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL byte in the path
        raise InvalidSetting(name, value, f"expected a file path ({exc})") from None
    return path


def _prove_writable(path: str) -> None:
    """Create and remove *path*, or open it for appending if it exists; raises ``OSError``."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:  # kept as it is: opened for appending, nothing written
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NONBLOCK", 0)))
        return
    os.close(fd)
    os.remove(path)


def check_store(name: str, value: Any) -> str | None:
    """Validate a site memory store: ``None``/``""`` → ``None``, or a Redis URL (the ``redis``
    package must be installed; see :func:`.memory.redis.check_url`: the database, if given, must
    be a whole number)."""
    if value is None or value == "":
        return None
    expected = 'expected None or a Redis URL such as "redis://localhost:6379/0"'
    if not isinstance(value, str) or value.partition("://")[0].lower() not in ("redis", "rediss", "unix"):
        raise InvalidSetting(name, value, expected)
    try:
        import redis  # noqa: F401
    except ImportError:
        raise InvalidSetting(name, value, "the redis package is missing: pip install "
                                          "'scrapy-whatwg-encoding[redis]'") from None
    from .memory.redis import check_url

    try:
        check_url(value)
    except ValueError as exc:
        raise InvalidSetting(name, value, f"{exc}; {expected}") from None
    return value


def check_redis_prefix(name: str, value: Any) -> str:
    """Validate a Redis key prefix: a non-empty string without ``#`` (which the store's own keys
    use after the prefix)."""
    if not isinstance(value, str) or not value or "#" in value:
        raise InvalidSetting(name, value, 'expected a non-empty string without "#", such as "myproject:memory:"')
    return value


def read_config(settings, spider=None) -> Config:
    """Read and validate every ``WHATWG_ENCODING_*`` setting (a Scrapy ``BaseSettings``).

    *spider* (optional) contributes its ``whatwg_encoding_locale`` attribute. Raises
    :class:`InvalidSetting` for the first bad value found.
    """
    get = lambda name: settings.get(name, DEFAULTS[name])
    profile = check_profile("WHATWG_ENCODING_PROFILE", get("WHATWG_ENCODING_PROFILE"))
    detector_value = get("WHATWG_ENCODING_DETECTOR")
    if detector_value is not None:
        _choice(settings, "WHATWG_ENCODING_DETECTOR", DETECTOR_MODES)
    profile_detector("WHATWG_ENCODING_DETECTOR", profile, detector_value)  # InvalidSetting if they contradict
    prescan_bytes = _count("WHATWG_ENCODING_PRESCAN_BYTES", get("WHATWG_ENCODING_PRESCAN_BYTES"), 1, "bytes")
    locale_setting = "WHATWG_ENCODING_LOCALE"
    locale = check_locale(locale_setting, get(locale_setting))
    attribute = getattr(spider, "whatwg_encoding_locale", None) if spider is not None else None
    if attribute is not None:
        locale_setting = f"{type(spider).__name__}.whatwg_encoding_locale"
        locale = check_locale(locale_setting, attribute)
    options = Options(locale, check_label("WHATWG_ENCODING_DEFAULT", get("WHATWG_ENCODING_DEFAULT")),
                      prescan_bytes, profile, detector_value,
                      _choice(settings, "WHATWG_ENCODING_SUSPECT_LABELS", SUSPECT_LABELS))
    return Config(
        enabled=_bool(settings, "WHATWG_ENCODING_ENABLED"),
        options=options,
        locale_setting=locale_setting,
        remember=_bool(settings, "WHATWG_ENCODING_REMEMBER"),
        remember_store=StoreOptions(
            url=check_store("WHATWG_ENCODING_REMEMBER_STORE", get("WHATWG_ENCODING_REMEMBER_STORE")),
            max_hosts=_count("WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS",
                             get("WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS"), 1, "hosts"),
            redis_prefix=check_redis_prefix("WHATWG_ENCODING_REMEMBER_REDIS_PREFIX",
                                            get("WHATWG_ENCODING_REMEMBER_REDIS_PREFIX"))),
        remember_max_hosts=_count("WHATWG_ENCODING_REMEMBER_MAX_HOSTS", get("WHATWG_ENCODING_REMEMBER_MAX_HOSTS"),
                                  1, "hosts"),
        log_level=_log_level(get("WHATWG_ENCODING_LOG_LEVEL")),
        report=check_report_path("WHATWG_ENCODING_REPORT", get("WHATWG_ENCODING_REPORT")),
        report_examples=_count("WHATWG_ENCODING_REPORT_EXAMPLES", get("WHATWG_ENCODING_REPORT_EXAMPLES"),
                               0, "examples"),
        overrides=check_overrides("WHATWG_ENCODING_OVERRIDES", get("WHATWG_ENCODING_OVERRIDES")),
    )
