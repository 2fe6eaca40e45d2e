"""What a person sees for a wrong setting, through a real ``scrapy crawl`` of the example project:
an invalid value stops the crawl with one ERROR line (setting, value, allowed values) before any
traceback; a well-formed but unknown language tag is a WARNING naming the fallback encoding;
``WHATWG_ENCODING_ENABLED = False`` is one INFO line, no warning."""
from __future__ import annotations

import logging
import re
import subprocess
import sys

import pytest
import pytest_twisted
import scrapy
from whatwg_crawl_helpers import REPO, CollectSpider, check_decision, crawl

LOGGER = "scrapy_whatwg_encoding"
PROBLEM = re.compile(r"\] (ERROR|CRITICAL): |^Traceback|^Unhandled error")


def scrapy_crawl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy", "crawl", "demo", "-s", "FEEDS={}", *args],
                          cwd=REPO / "example_project", capture_output=True, text=True, timeout=120,
                          check=False)


def _problems(log: str) -> list[str]:
    return [line for line in log.splitlines() if PROBLEM.search(line)]


def _ours(log: str) -> list[str]:
    return [line.split(" [scrapy_whatwg_encoding] ", 1)[1] for line in log.splitlines()
            if " [scrapy_whatwg_encoding] " in line]


def _stops_with(result: subprocess.CompletedProcess, error: str) -> None:
    """The crawl stopped before it started, with *error* as the package's one line and no traceback."""
    log = result.stderr
    assert _ours(log) == [f"ERROR: {error}; the crawl stops"], log[-3000:]
    assert "Task exception was never retrieved" not in log, log[-3000:]
    # Scrapy < 2.14 runs a crawl in a Deferred: Twisted prints its unhandled failure to stderr
    # itself, before Scrapy's logging (see scrapy.startup.stop); 2.14+ runs it in an asyncio task.
    if scrapy.version_info >= (2, 14):
        assert _problems(log) == [line for line in log.splitlines() if "[scrapy_whatwg_encoding] ERROR" in line]
        assert "Traceback" not in log and "Unhandled error" not in log, log[-3000:]
    # Scrapy 2.14's "scrapy crawl" exits 0 whenever the spider was created, even if the crawl then
    # failed to start (its bootstrap_failed only checks for the spider); every other release exits 1.
    assert result.returncode == (0 if scrapy.version_info[:2] == (2, 14) else 1), log[-3000:]
    assert "Spider opened" not in log and "Serving" not in log


def test_invalid_setting_stops_the_crawl_with_one_line():
    result = scrapy_crawl("-s", "WHATWG_ENCODING_DETECTOR=fast")
    _stops_with(result, "WHATWG_ENCODING_DETECTOR: invalid value 'fast' (expected one of 'off', 'browser', 'full')")


def test_invalid_store_bound_stops_the_crawl_with_one_line():
    result = scrapy_crawl("-s", "WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS=none")
    _stops_with(result, "WHATWG_ENCODING_REMEMBER_STORE_MAX_HOSTS: invalid value 'none' "
                        "(expected a whole number of hosts ≥ 1)")


def test_report_directory_is_checked_at_start(tmp_path):
    report = tmp_path / "missing" / "report.html"
    result = scrapy_crawl("-s", f"WHATWG_ENCODING_REPORT={report}")
    _stops_with(result, f"WHATWG_ENCODING_REPORT: invalid value {str(report)!r} "
                        f"(its directory {report.parent} does not exist)")


def test_report_that_cannot_be_created_stops_the_crawl_at_start():
    """Issue 28, item 1: /proc exists and os.access() lets root write there, but no file can be
    created in it; the crawl used to run to the end and lose the report."""
    result = scrapy_crawl("-s", "WHATWG_ENCODING_REPORT=/proc/report.html")
    _stops_with(result, "WHATWG_ENCODING_REPORT: invalid value '/proc/report.html' "
                        "(/proc/report.html cannot be written: No such file or directory)")


_UNKNOWN = "is not a setting of scrapy-whatwg-encoding (ignored);"


@pytest.mark.parametrize(("settings", "expected"), [
    pytest.param({"WHATWG_ENCODING_LOCAL": "ja", "WHATWG_ENCODING_REPORTS": "r.html", "WHATWG_ENCODING_FROBNICATE": "1"}, [
        f"WARNING: WHATWG_ENCODING_FROBNICATE {_UNKNOWN} no setting has a close name",
        f"WARNING: WHATWG_ENCODING_LOCAL {_UNKNOWN} did you mean WHATWG_ENCODING_LOCALE?",
        f"WARNING: WHATWG_ENCODING_REPORTS {_UNKNOWN} did you mean WHATWG_ENCODING_REPORT?",
    ], id="setting"),
    # Issue 28, item 7: a near miss of the WHATWG_ENCODING_ prefix was ignored without a word.
    pytest.param({"WHATWG_ENCODNG_LOCALE": "ja", "WHATWG_ENCOIDNG_REPORT": "r.html", "WHATWG_ENCODING": "1",
                  "whatwg-encoding-detector": "off"}, [
        f"WARNING: WHATWG_ENCODING {_UNKNOWN} the package's settings start with WHATWG_ENCODING_",
        f"WARNING: WHATWG_ENCODNG_LOCALE {_UNKNOWN} did you mean WHATWG_ENCODING_LOCALE?",
        f"WARNING: WHATWG_ENCOIDNG_REPORT {_UNKNOWN} did you mean WHATWG_ENCODING_REPORT?",
        f"WARNING: whatwg-encoding-detector {_UNKNOWN} did you mean WHATWG_ENCODING_DETECTOR?",
    ], id="prefix"),
])
def test_misspelled_setting_or_prefix_is_a_warning_naming_the_closest(tmp_path, settings, expected):
    page = tmp_path / "page.html"
    page.write_bytes(b"<title>caf\xe9</title>")
    options = [arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]
    result = scrapy_crawl(*options, "-a", f"start_urls={page.as_uri()}")
    assert result.returncode == 0, result.stderr[-3000:]
    warnings = [line for line in _ours(result.stderr) if line.startswith("WARNING: ")]
    assert warnings == expected, result.stderr[-3000:]
    assert _problems(result.stderr) == [] and not (REPO / "example_project" / "r.html").exists()


def _setting_names_in(module: str) -> set[str]:
    """Every upper-case string literal with an underscore in an installed package's sources: its
    setting names, and more."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return set()
    names: set[str] = set()
    for path in Path(spec.origin).parent.rglob("*.py"):
        names |= set(re.findall(r"[\"']([A-Z][A-Z0-9]*_[A-Z0-9_]+)[\"']", path.read_text("utf-8", "replace")))
    return names


def test_no_prefix_warning_for_scrapy_or_plugin_settings():
    """The near-miss check is silent on every setting name of Scrapy and of the plugins the tests
    run with (scrapy-playwright, scrapy-zyte-api, scrapy-splash, scrapy-impersonate, scrapy-redis),
    LOG_ENCODING and HTTPCACHE_ENCODING among them; names that only look alike stay silent too."""
    from scrapy.settings import Settings

    from scrapy_whatwg_encoding.scrapy import startup

    names = set(Settings())
    for module in ("scrapy", "scrapy_playwright", "scrapy_zyte_api", "scrapy_splash", "scrapy_impersonate",
                   "scrapy_redis"):
        names |= _setting_names_in(module)
    assert len(names) > 250 and "LOG_ENCODING" in names and "PLAYWRIGHT_BROWSER_TYPE" in names
    assert startup.unknown_settings(names) == []
    assert startup.unknown_settings(["HTML_ENCODING_DEFAULT", "WHATWG_URL", "ENCODING", "WHATWG_ENC"]) == []


def test_known_setting_names_come_from_the_defaults_table(monkeypatch):
    from scrapy_whatwg_encoding.scrapy import settings, startup

    names = ["WHATWG_ENCODING_LOCALE", "WHATWG_ENCODING_NEW_ONE", "whatwg_encoding_locale", "OTHER"]
    assert len(startup.unknown_settings(names)) == 2  # a new name, and a name in the wrong case
    monkeypatch.setitem(settings.DEFAULTS, "WHATWG_ENCODING_NEW_ONE", 1)
    assert [w.split()[0] for w in startup.unknown_settings(names)] == ["whatwg_encoding_locale"]


def test_replacement_label_as_default_stops_the_crawl_with_one_line():
    """Issue 21, item 7: a label of the replacement encoding would make every unlabeled page one U+FFFD."""
    result = scrapy_crawl("-s", "WHATWG_ENCODING_DEFAULT=iso-2022-kr")
    problems = _problems(result.stderr)
    assert problems, result.stderr[-3000:]
    assert problems[0].endswith(
        "[scrapy_whatwg_encoding] ERROR: WHATWG_ENCODING_DEFAULT: invalid value 'iso-2022-kr' (a label of the "
        "replacement encoding, which decodes every document to a single U+FFFD; expected a label of an "
        "encoding that decodes text, such as \"utf-8\"); the crawl stops"), result.stderr[-3000:]
    assert "Spider opened" not in result.stderr


def test_unknown_locale_is_a_warning_naming_the_fallback(tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(b"<title>caf\xe9</title>")
    result = scrapy_crawl("-s", "WHATWG_ENCODING_LOCALE=klingon", "-a", f"start_urls={page.as_uri()}")
    assert result.returncode == 0, result.stderr[-3000:]
    # Scrapy's own warnings (e.g. 2.11's about REQUEST_FINGERPRINTER_IMPLEMENTATION) are not ours.
    warnings = [line for line in result.stderr.splitlines() if "WARNING: " in line and "WHATWG" in line]
    assert [line.split("[scrapy_whatwg_encoding] WARNING: ", 1)[-1] for line in warnings] == [
        ("WHATWG_ENCODING_LOCALE: 'klingon' is not a known language tag; documents that declare no "
         "encoding default to windows-1252 (the \"all other locales\" row)")], result.stderr[-3000:]
    assert _problems(result.stderr) == []
    assert "Encoding windows-1252 (tentative, source detector" in result.stderr


class KlingonSpider(CollectSpider):
    name = "klingon"
    whatwg_encoding_locale = "tlh-Latn"  # a real tag (ISO 639-2): no warning


class MadeUpSpider(CollectSpider):
    name = "made_up"
    whatwg_encoding_locale = "xx"


@pytest_twisted.inlineCallbacks
def test_locale_warnings_in_process(demo_server, caplog):
    caplog.set_level(logging.INFO)
    url = demo_server.url("unlabeled/ru-windows-1251.html")
    _, (page,) = yield crawl([url], spider_cls=KlingonSpider, settings={"WHATWG_ENCODING_DETECTOR": "off"})
    check_decision(page, locale="tlh-Latn", detector="off")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    _, (page,) = yield crawl([url], spider_cls=MadeUpSpider, settings={"WHATWG_ENCODING_LOCALE": "ja"})
    warned = [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.WARNING]
    assert warned == [("MadeUpSpider.whatwg_encoding_locale: 'xx' is not a known language tag; documents that "
                       "declare no encoding default to windows-1252 (the \"all other locales\" row)")]


@pytest_twisted.inlineCallbacks
def test_disabled_is_one_info_line(demo_server, caplog):
    caplog.set_level(logging.INFO)
    _, (off,) = yield crawl([demo_server.url("meta/shift_jis.html")], settings={"WHATWG_ENCODING_ENABLED": False})
    assert "whatwg_encoding" not in off.meta
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], [r.getMessage() for r in caplog.records]
    ours = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == LOGGER]
    assert ours == [(logging.INFO, "WHATWG encoding middleware disabled (WHATWG_ENCODING_ENABLED is False)")]


@pytest_twisted.inlineCallbacks
def test_invalid_setting_in_process_logs_before_raising(demo_server, caplog):
    caplog.set_level(logging.INFO)
    try:
        yield crawl([demo_server.url("meta/shift_jis.html")], settings={"WHATWG_ENCODING_PRESCAN_BYTES": -3})
    except ValueError as exc:
        raised = str(exc)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert raised == "WHATWG_ENCODING_PRESCAN_BYTES: invalid value -3 (expected a whole number of bytes ≥ 1)"
    assert errors[0] == raised + "; the crawl stops"


def test_which_language_tags_are_known():
    from scrapy_whatwg_encoding.scrapy.settings import locale_warning
    from scrapy_whatwg_encoding.sniffing.locale import is_known_locale

    for tag in (None, "", "en", "pt-BR", "zh-Hant-HK", "ru_RU.UTF-8", "SAH", "tlh", "de-CH-1996"):
        assert is_known_locale(tag) and locale_warning("X", tag) is None, tag
    for tag, fallback in (("klingon", "windows-1252"), ("xx", "windows-1252"), ("C", "windows-1252"),
                          ("x-private", "windows-1252"), ("i-klingon", "windows-1252")):
        assert not is_known_locale(tag), tag
        assert locale_warning("X", tag) == (f"X: {tag!r} is not a known language tag; documents that declare "
                                            f"no encoding default to {fallback} (the \"all other locales\" row)")
