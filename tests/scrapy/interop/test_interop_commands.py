"""Issue 21, item 8: Scrapy's commands (``fetch``, ``view``, ``shell -c``, ``parse``) in a project with
the add-on on and off, against the interop site: the same output, except where the add-on's text
is better, and there it is the browser's text."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cases import scrapy_project
from interop_site import PAGES
from interop_spiders import COUNTS, HERE, compare_items

SETTINGS = """import os
SPIDER_MODULES = ["interop_project.spiders"]
ROBOTSTXT_OBEY = False
TELNETCONSOLE_ENABLED = False
if os.environ["INTEROP_ADDON"] == "on":
    ADDONS = {"scrapy_whatwg_encoding.Addon": 0}
"""
# `scrapy view` opens the page with Python's webbrowser, which runs $BROWSER: this one copies the file.
BROWSER = """import shutil, sys
shutil.copy(sys.argv[1].removeprefix("file://"), sys.argv[2])
"""
SHELL_CODE = "(response.css('title::text').get(), ' | '.join(response.css('p::text').getall()))"
SHELL_PAGES = ["lying-header.html", "unlabeled.html"]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = scrapy_project(tmp_path_factory.mktemp("interop-project"), "interop_project", SETTINGS, {
        "__init__": "from interop_spiders import PagesSpider\n\n\nclass Pages(PagesSpider):\n    name = 'pages'\n"})
    (root / "browser.py").write_text(BROWSER)
    return root


def scrapy(project: Path, mode: str, args: list[str], view_to: Path | None) -> bytes:
    env = {**os.environ, "INTEROP_ADDON": mode,
           "PYTHONPATH": os.pathsep.join([str(HERE), str(project), os.environ.get("PYTHONPATH", "")])}
    if view_to is not None:
        env["BROWSER"] = f"{sys.executable} {project / 'browser.py'} %s {view_to}"
    result = subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=project, env=env, capture_output=True,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-3000:]
    return result.stdout


@pytest.fixture(scope="module")
def commands(project, interop_base, interop_crawls):
    """Every command's output with the add-on on and off: ``{name: {mode: Future of stdout}}``. The
    commands run side by side, and beside the crawls (each is a process that mostly waits)."""
    runs = {"fetch": ["fetch", "--nolog", interop_base + "unlabeled.html"],
            "view": ["view", "--nolog", interop_base + "lying-header.html"],
            "parse": ["parse", "--nolog", "--spider", "pages", "-c", "parse", interop_base + "lying-header.html"],
            **{f"shell {page}": ["shell", "--nolog", interop_base + page, "-c", SHELL_CODE] for page in SHELL_PAGES}}
    with ThreadPoolExecutor(2 * len(runs)) as pool:
        yield {name: {mode: pool.submit(scrapy, project, mode, args,
                                        project / f"view-{mode}.html" if name == "view" else None)
                      for mode in ("on", "off")} for name, args in runs.items()}


def both(commands, name: str) -> dict[str, bytes]:
    return {mode: future.result() for mode, future in commands[name].items()}


def record(feature: str, counts: dict) -> None:
    COUNTS[feature] = {k: v + COUNTS.get(feature, {}).get(k, 0) if k != "better" else
                       COUNTS.get(feature, {}).get("better", []) + v for k, v in counts.items()}


def test_fetch_prints_the_same_bytes(commands):
    out = both(commands, "fetch")
    assert out["on"] == out["off"] == PAGES["unlabeled.html"].body + b"\n"
    record("command_fetch", {"compared": 1, "identical": 1, "better": []})


def test_view_writes_the_same_file(commands, project, interop_base):
    out = both(commands, "view")
    on, off = (project / "view-on.html").read_bytes(), (project / "view-off.html").read_bytes()
    # The page's bytes with a <base> (Scrapy 2.11 puts a NUL in place of <head>: a bug of its own).
    assert on == off and f'<base href="{interop_base}lying-header.html">'.encode() in on
    assert PAGES["lying-header.html"].body.split(b"<head>")[1] in on
    assert out["on"] == out["off"]
    record("command_view", {"compared": 1, "identical": 1, "better": []})


@pytest.mark.parametrize("page", SHELL_PAGES)
def test_shell_c(commands, interop_base, page):
    out = both(commands, f"shell {page}")
    items = {}
    for mode, stdout in out.items():
        title, text = ast.literal_eval(stdout.decode().strip().splitlines()[-1])
        items[mode] = [{"page": page, "key": "shell", "title": title, "text": text}]
    record("command_shell", compare_items("html", items["on"], items["off"], interop_base))


def test_parse(commands, interop_base):
    out = both(commands, "parse")
    items = {}
    for mode, stdout in out.items():
        text = stdout.decode()
        scraped = text.split("# Scraped Items", 1)[1].split("\n", 1)[1].split("# Requests", 1)[0]
        items[mode] = ast.literal_eval(scraped.strip())
        assert len(items[mode]) == 1, text
    record("command_parse", compare_items("html", items["on"], items["off"], interop_base))
