"""The documentation stays true: the settings reference (docs/settings.rst) documents every
``WHATWG_ENCODING_*`` setting with the default the code uses, and the README's relative links
point at files of the repository (images included). (The docstring examples run as doctests: pytest's
``--doctest-modules`` over the package, see pyproject.toml.)"""
from __future__ import annotations

import pathlib
import re

from scrapy_whatwg_encoding.scrapy.settings import DEFAULTS

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _literal(value) -> str:
    return f'``"{value}"``' if isinstance(value, str) else f"``{value!r}``"


def test_settings_reference_documents_every_setting_with_its_default():
    text = (ROOT / "docs" / "settings.rst").read_text("utf-8")
    sections = dict(re.findall(r"^\.\. setting:: (\S+)\n.*?^:Default: ([^\n]+)$", text, re.MULTILINE | re.DOTALL))
    assert set(sections) == set(DEFAULTS)
    for name, value in DEFAULTS.items():
        assert sections[name] == _literal(value), name


def test_readme_relative_links_exist():
    readme = (ROOT / "README.md").read_text("utf-8")
    links = [link for link in re.findall(r"\]\(([^)#]+)\)", readme) if "://" not in link]
    assert len(links) > 5
    for link in links:
        assert (ROOT / link).exists(), link
