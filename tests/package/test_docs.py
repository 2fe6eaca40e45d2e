"""The documentation stays true: the settings reference (docs/settings.rst) documents every
``WHATWG_ENCODING_*`` setting with the default the code uses and lists each in its summary table,
and the README's links are absolute (it is the package index's long description) and those into
the repository point at files that exist (images included); the README's settings table gives the
defaults the code uses, and the committed decision-flow picture was rendered from its source. (The
docstring examples run as doctests: pytest's ``--doctest-modules`` over the package, see pyproject.toml.)"""
from __future__ import annotations

import html
import pathlib
import re

from scrapy_whatwg_encoding.scrapy.settings import DEFAULTS

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _literal(value) -> str:
    return f'``"{value}"``' if isinstance(value, str) else f"``{value!r}``"


def test_settings_reference_documents_every_setting_with_its_default():
    text = (ROOT / "docs" / "settings.rst").read_text("utf-8")
    sections = dict(re.findall(r"^\.\. setting:: (\S+)\n.*?^:Default: ([^\n]+)$", text, re.MULTILINE | re.DOTALL))
    assert set(sections) == set(DEFAULTS)
    for name, value in DEFAULTS.items():
        assert sections[name] == _literal(value), name


def test_settings_summary_table_lists_every_setting():
    text = (ROOT / "docs" / "settings.rst").read_text("utf-8")
    table = text[text.index(".. list-table::"):text.index("\n\n", text.index(":setting:"))]
    listed = re.findall(r"^   \* - :setting:`(\w+)`\n     - ([^\n]+)$", table, re.MULTILINE)
    assert [name for name, _ in listed] == list(dict.fromkeys(name for name, _ in listed))  # no duplicate
    assert dict(listed) == {name: _literal(value) for name, value in DEFAULTS.items()}


REPOSITORY = "https://github.com/scrapy-whatwg-encoding/scrapy-whatwg-encoding/blob/main/"
RAW = "https://raw.githubusercontent.com/scrapy-whatwg-encoding/scrapy-whatwg-encoding/main/"


def test_readme_links_are_absolute_and_exist():
    readme = (ROOT / "README.md").read_text("utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    assert [link for link in links if "://" not in link] == []  # relative links break on PyPI
    ours = [link.removeprefix(REPOSITORY).removeprefix(RAW) for link in links
            if link.startswith((REPOSITORY, RAW))]
    assert len(ours) > 5 and any(link.endswith(".png") for link in ours)
    for link in ours:
        assert (ROOT / link).exists(), link


def test_readme_starts_with_the_two_commands():
    """A newcomer's two commands, each working from a plain clone (a virtual environment first:
    Debian's Python refuses pip outside one); next to the tests', the services they need and how
    long they take, and the contributors' quick subset."""
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert lines[2:4] == [f"Run the example crawl: `{venv}pip install -e . && cd example_project && scrapy crawl demo`",
                          f'Run the tests: `{venv}pip install -e ".[test]" && pytest`']
    note = " ".join(lines[4:lines.index("", 4)])
    for needed in ("`chromium`", "`redis-server`", "skip without them", '`pytest -m "not slow"`'):
        assert needed in note, needed
    assert re.search(r"about \d+ minutes on a quiet 2-core machine", note), note


def test_read_the_docs_builds_what_ci_builds():
    """.readthedocs.yaml (checked against Read the Docs' v2 schema with ``check-jsonschema
    --builtin-schema vendor.readthedocs``) builds docs/conf.py with warnings as errors, from this
    checkout with an extra the package declares: the one holding Sphinx and the theme."""
    import importlib.metadata

    config = (ROOT / ".readthedocs.yaml").read_text("utf-8")
    assert re.search(r"^version: 2$", config, re.MULTILINE)
    configuration = re.search(r"^sphinx:\n(?:  .*\n)*?  configuration: (\S+)$", config, re.MULTILINE)
    assert configuration and (ROOT / configuration.group(1)).is_file()
    assert re.search(r"^sphinx:\n(?:  .*\n)*?  fail_on_warning: true$", config, re.MULTILINE)
    install = re.search(r"^    - method: pip\n      path: \.\n      extra_requirements:\n((?:        - \S+\n)+)",
                        config, re.MULTILINE)
    assert install, config
    extras = re.findall(r"- (\S+)", install.group(1))
    metadata = importlib.metadata.metadata("scrapy-whatwg-encoding")
    assert extras == ["docs"] and "docs" in metadata.get_all("Provides-Extra")
    needs = [r for r in metadata.get_all("Requires-Dist") if 'extra == "docs"' in r]
    assert any(r.startswith("sphinx>") for r in needs) and any(r.startswith("sphinx-rtd-theme") for r in needs)


def test_readme_settings_table_matches_the_defaults():
    readme = (ROOT / "README.md").read_text("utf-8")
    table = dict(re.findall(r"^\| `(WHATWG_ENCODING_[A-Z_]+)` \| `([^`]*)` \|", readme, re.MULTILINE))
    assert set(table) == set(DEFAULTS)
    for name, value in DEFAULTS.items():
        assert table[name] == (f'"{value}"' if isinstance(value, str) else repr(value)), name


def test_readme_documents_the_commands_and_the_picture():
    readme = (ROOT / "README.md").read_text("utf-8")
    for text in ("python -m scrapy_whatwg_encoding explain", "python -m scrapy_whatwg_encoding audit",
                 "scrapy sniff", "/main/docs/decision-flow.svg)", '"dont_sniff_encoding": True',
                 'response.meta["whatwg_encoding"]', "whatwg_encoding/"):
        assert text in readme, text


def test_decision_flow_svg_is_rendered_from_the_dot_source():
    source = (ROOT / "docs" / "decision-flow.dot").read_text("utf-8")
    svg = (ROOT / "docs" / "decision-flow.svg").read_text("utf-8")
    texts = {" ".join(html.unescape(t).split()) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)}
    labels = re.findall(r'label="((?:[^"\\]|\\.)*)"', source)
    assert len(labels) > 20
    for label in labels:
        for line in label.replace('\\"', '"').split("\\n"):
            assert " ".join(line.split()) in texts, f"{line!r} is not in the rendered SVG: re-render it"


def test_readme_library_example_runs_as_it_says():
    """The README's library example: ``decode()`` returns ``(text, encoding)``, as its comments say."""
    readme = (ROOT / "README.md").read_text("utf-8")
    example = readme[readme.index("The library works without Scrapy"):]
    code = example[example.index("```python\n") + len("```python\n"):example.index("```\n", 10)]
    names: dict = {}
    exec(compile(code, "README.md", "exec"), names)  # noqa: S102 — the README's own example
    assert names["decision"].as_dict()["source"] == "prescan" and names["decision"].confidence == "certain"
    assert names["text"] == "<meta charset=shift_jis><title>日本語</title>"
    assert names["encoding"] is names["decision"].encoding and names["encoding"].name == "Shift_JIS"
