"""Hypothesis runs the same examples on every CI run (a failure there is reproducible);
set HYPOTHESIS_PROFILE=explore locally for fresh random examples. The tools in tools/ (page
builders, label strippers, servers) and the shared helpers in tests/ (``cases``, ``reference``,
``report_checks``, ``_html5lib_oracle``, ``quick_sample``) are importable by bare name from every test folder.

Where tests live (docs/contributing.rst): one folder per layer of the package (``encoding/``,
``sniffing/``, ``scrapy/``, ``cli/``, ``report/``), ``oracles/`` for the equivalence and oracle
suites, ``package/`` for the package-wide tests; test module names are unique across all folders.

Markers (registered in pyproject.toml; docs/contributing.rst): ``crawl`` for real Scrapy crawls
(every test under ``tests/scrapy/`` but the modules in ``SCRAPY_UNIT_MODULES``, every test using a
local server or redis-server fixture, and every test that runs Twisted's reactor through pytest-twisted), ``browser`` for tests that drive
Chromium (marked in their modules, or by the fixtures that crawl through it), ``slow`` for those two and for the tests marked slow in their
modules (hypothesis suites, whole corpora, packaging, CLI processes: every test over about a
second); a parametrized test keeps a few values in the quick subset (``quick_sample``). The quick
subset is ``pytest -m "not slow"``; the README's ``pytest`` runs everything."""
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS.parent / "tools"))
sys.path.insert(0, str(TESTS))  # the shared helpers, for the tests of every folder

settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Fixtures that start a real service (an HTTP server on 127.0.0.1 for crawls, a redis-server), and
# those that crawl through Chromium (scrapy-playwright).
CRAWL_FIXTURES = frozenset({"demo_server", "corpus_server", "corpus_labeled_server", "redis_url",
                            "interop_base", "interop_crawls", "interop_results"})
BROWSER_FIXTURES = frozenset({"browser_crawl", "interop_crawls", "interop_results"})
# The modules of tests/scrapy/ that call the Scrapy layer directly and crawl nothing: not ``crawl``
# by folder (a test of theirs still is by fixture or pytest-twisted). Add a new one here.
SCRAPY_UNIT_MODULES = frozenset({"test_overrides.py", "test_forms.py"})


def _is_crawl(item: pytest.Item) -> bool:
    path = Path(str(item.path)).resolve()
    if TESTS / "scrapy" in path.parents and path.name not in SCRAPY_UNIT_MODULES:
        return True
    if CRAWL_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    # pytest_twisted.inlineCallbacks / ensureDeferred: the test runs in Twisted's reactor.
    return getattr(getattr(item, "function", None), "_pytest_twisted_mark", None) is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add ``crawl`` (see the module docstring), and ``slow`` to every ``crawl`` and ``browser`` test;
    deselect (not skip: CI runs none skipped) the ``scrapy_setting`` tests that this Scrapy, older
    than the feature they test, has no such setting for."""
    lacking = []
    for item in items:
        if _is_crawl(item):
            item.add_marker(pytest.mark.crawl)
        if BROWSER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("crawl") or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)
        needed = item.get_closest_marker("scrapy_setting")
        if needed is not None:
            from scrapy.settings import default_settings

            if not hasattr(default_settings, needed.args[0]):
                lacking.append(item)
    if lacking:
        config.hook.pytest_deselected(items=lacking)
        items[:] = [item for item in items if item not in lacking]


#: The encodings with a compiled decoder (scrapy_whatwg_encoding/encoding/c_decoders.c); GBK's is gb18030's.
COMPILED_DECODERS = ("gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR")


@pytest.fixture(scope="module")
def python_decoders():
    """The Python decoders (the compiled ones' plain twins) for every test of a module that names it
    (``pytestmark = pytest.mark.usefixtures("python_decoders")``: the tests of their own paths, which
    the compiled decoders would bypass). Module-scoped: hypothesis tests may use it."""
    from scrapy_whatwg_encoding import ENCODINGS

    with pytest.MonkeyPatch.context() as patch:
        for name in COMPILED_DECODERS:
            patch.setattr(ENCODINGS[name]._load()[0], "compiled", None)
        yield
