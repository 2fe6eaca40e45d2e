"""Fixtures of the interop suite: the site server (one process, the same for both crawls) and the
crawls' results with the add-on on and off (two processes run side by side)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from interop_spiders import COUNTS

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def interop_base():
    server = subprocess.Popen([sys.executable, str(HERE / "interop_site.py")], stdout=subprocess.PIPE, text=True)
    try:
        base = server.stdout.readline().strip()
        assert base.startswith("http://127.0.0.1:"), "the interop site did not start"
        yield base
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture(scope="session")
def interop_crawls(interop_base, tmp_path_factory):
    """The two crawl processes (add-on on and off), started; their output directory."""
    out = tmp_path_factory.mktemp("interop")
    crawls = {mode: subprocess.Popen([sys.executable, str(HERE / "interop_crawl.py"), mode, interop_base, str(out)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
              for mode in ("on", "off")}
    yield crawls, out
    for crawl in crawls.values():
        if crawl.poll() is None:
            crawl.kill()
            crawl.communicate()


@pytest.fixture(scope="session")
def interop_results(interop_crawls):
    """``{"on": {feature: result}, "off": {...}}`` (see interop_crawl.py)."""
    crawls, out = interop_crawls
    results = {}
    for mode, crawl in crawls.items():
        _, stderr = crawl.communicate(timeout=600)
        assert crawl.returncode == 0 and (out / f"{mode}.json").exists(), stderr[-4000:]
        results[mode] = json.loads((out / f"{mode}.json").read_text("utf-8"))
    return results


def pytest_terminal_summary(terminalreporter):
    if not COUNTS:
        return
    import scrapy
    terminalreporter.section(f"interop: Scrapy {scrapy.__version__}, add-on on vs off")
    total = {"compared": 0, "identical": 0, "better": 0}
    for feature, counts in sorted(COUNTS.items()):
        better = counts["better"]
        total["compared"] += counts["compared"]
        total["identical"] += counts["identical"]
        total["better"] += len(better)
        where = ", ".join(f"{page}{f'#{key}' if key not in ('', None) else ''}:{'/'.join(d['fields'])}"
                          for d in better for page, key in [d["item"]])
        terminalreporter.write_line(f"{feature}: {counts['compared']} items, {counts['identical']} identical, "
                                    f"{len(better)} better with the add-on{f' ({where})' if where else ''}")
    terminalreporter.write_line(f"total: {len(COUNTS)} features, {total['compared']} items, "
                                f"{total['identical']} identical, {total['better']} better with the add-on")
