"""The release as a user gets it: the version from the package metadata (``__version__``,
``--version``), the project URLs ``pip show`` lists, ``python -m`` guarded against import, and an
sdist that holds every file of the project (tests, their data, docs, changelog) so that its unpacked
tree passes the README's test command (CI runs that command in the unpacked sdist, ``.ci/run``)."""
from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import scrapy_whatwg_encoding
from scrapy_whatwg_encoding.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
META = importlib.metadata.metadata("scrapy-whatwg-encoding")
# What a build or a test run leaves in a tree, never part of the project.
_LEFT_BY_RUNS = ("__pycache__", ".pytest_cache", ".hypothesis", "_build", ".egg-info", ".venv", ".venvs",
                 "build", "dist", ".scrapy", ".git")
# Files a run writes: the example crawl's feed (README's first command, and tests that run it).
_WRITTEN_BY_RUNS = {"example_project/items.jsonl"}


def test_version_comes_from_the_package_metadata():
    assert scrapy_whatwg_encoding.__version__ == META["Version"]
    assert scrapy_whatwg_encoding.__version__.count(".") == 2


def test_one_version_with_its_dated_changelog_entry():
    """The version is written once for the tools (pyproject's ``version``, which bump-my-version's
    ``current_version`` follows), the installed metadata carries it, and the changelog has its
    dated entry (bump-my-version moves ``[Unreleased]`` under it)."""
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    (version,) = re.findall(r'^version = "([^"]+)"$', pyproject, re.MULTILINE)
    assert re.findall(r'^current_version = "([^"]+)"$', pyproject, re.MULTILINE) == [version] == [META["Version"]]
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert re.search(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.MULTILINE)
    assert changelog.index("## [Unreleased]") < changelog.index(f"## [{version}]")


def test_cli_prints_its_version(capsys):
    try:
        main(["--version"], prog="scrapy-whatwg-encoding")
    except SystemExit as exc:  # argparse's version action exits with status 0
        assert exc.code == 0
    assert capsys.readouterr().out == f"scrapy-whatwg-encoding {META['Version']}\n"


def test_project_urls():
    urls = dict(value.split(", ", 1) for value in META.get_all("Project-URL"))
    assert {"Documentation", "Source", "Changelog", "Issues"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())
    assert META["Home-page"] or "Homepage" in urls  # pip show's Home-page


def test_importing_main_module_runs_nothing():
    sys.modules.pop("scrapy_whatwg_encoding.__main__", None)
    module = importlib.import_module("scrapy_whatwg_encoding.__main__")  # no SystemExit
    assert module.main is main


def _project_files() -> set[str]:
    """Every file of the project: git's list in a clone, else the tree less what runs leave."""
    if (ROOT / ".git").exists():
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        return {name for name in listed.splitlines() if (ROOT / name).is_file()} - {".gitignore"}
    found = set()
    for directory, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.endswith(_LEFT_BY_RUNS)]
        found |= {str(Path(directory, name).relative_to(ROOT)) for name in files
                  if not name.endswith((".pyc", "PKG-INFO", "setup.cfg"))}
    return found - _WRITTEN_BY_RUNS


@pytest.mark.slow  # python -m build
def test_sdist_holds_every_project_file(tmp_path):
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (sdist,) = tmp_path.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    expected = _project_files()
    assert {"tests/conftest.py", "tests/scrapy/conftest.py", "tests/data/README.md", "CHANGELOG.md",
            "docs/conf.py", "docs/changelog.rst", "example_project/scrapy.cfg"} <= expected
    assert sorted(expected - names) == []
