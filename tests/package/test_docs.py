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

import pytest

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


# The code the README and the pages show runs against the installed package: the next API change
# breaks one of these tests (issue 36). ``>>>`` lines run as doctests; ``python`` blocks are run
# (the README's) or compiled, their imports made and their settings checked against the real ones.

DOCS = sorted((ROOT / "docs").glob("*.rst"))
PROSE = [ROOT / "README.md", *DOCS]  # (CHANGELOG.md is history: it names what was)


def _readme_python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", (ROOT / "README.md").read_text("utf-8"), re.MULTILINE | re.DOTALL)


def _rst_python_blocks(path: pathlib.Path) -> list[str]:
    import textwrap

    text = path.read_text("utf-8")
    blocks = []
    for match in re.finditer(r"^( *)\.\. code-block:: python\n\n((?:\1   .*\n|\n)+)", text, re.MULTILINE):
        blocks.append(textwrap.dedent(match.group(2)))
    return blocks


def _addon_components() -> dict[str, dict]:
    """``DOWNLOADER_MIDDLEWARES`` and ``SPIDER_MIDDLEWARES`` as the add-on sets them: {class: order}."""
    from scrapy.settings import Settings
    from scrapy.utils.misc import load_object

    from scrapy_whatwg_encoding import Addon

    settings = Settings()
    Addon().update_settings(settings)
    return {name: {load_object(k): v for k, v in settings.getdict(name).items()}
            for name in ("DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES")}


def _check_code(code: str, where: str) -> None:
    """Compile *code*; make its imports; every ``WHATWG_ENCODING_*`` name it uses is a setting,
    every dotted path in a string is importable, and a component dict it assigns at top level names
    the package's middlewares at the add-on's orders."""
    import ast

    from scrapy.utils.misc import load_object

    tree = ast.parse(code, where)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            exec(compile(ast.Module([node], []), where, "exec"), {})  # noqa: S102 — the page's own import
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if re.fullmatch(r"WHATWG_ENCODING_\w+", node.value):
                assert node.value in DEFAULTS, (where, node.value)
            elif re.fullmatch(r"scrapy(_whatwg_encoding)?(\.\w+)+", node.value):
                assert load_object(node.value), (where, node.value)
        elif isinstance(node, ast.Name) and node.id.startswith("WHATWG_ENCODING_"):
            assert node.id in DEFAULTS, (where, node.id)
    addon = _addon_components()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id in addon:
            listed = ast.literal_eval(node.value)
            for path, order in listed.items():
                component = load_object(path)
                if component in addon[node.targets[0].id]:  # (a drop-in the add-on leaves to the user: importable)
                    assert addon[node.targets[0].id][component] == order, (where, path, order)


def test_readme_python_blocks_run():
    """Every ``python`` block of the README runs as written (the library example's values are
    checked below), and its settings are the package's."""
    blocks = _readme_python_blocks()
    assert len(blocks) >= 2
    for code in blocks:
        _check_code(code, "README.md")
        exec(compile(code, "README.md", "exec"), {})  # noqa: S102 — the README's own example


def test_readme_settings_without_the_addon_are_what_the_addon_sets():
    """The README's "without the add-on" dicts list what the add-on installs, at its orders."""
    from scrapy.utils.misc import load_object

    readme = " ".join((ROOT / "README.md").read_text("utf-8").split())
    listed = dict(re.findall(r"`(DOWNLOADER_MIDDLEWARES|SPIDER_MIDDLEWARES) = (\{[^`]*\})`", readme))
    assert set(listed) == {"DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES"}
    import ast
    for name, components in _addon_components().items():
        ours = {load_object(k): v for k, v in ast.literal_eval(listed[name]).items()}
        assert ours == {k: v for k, v in components.items() if k.__module__.startswith("scrapy_whatwg_encoding")}


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_pages_python_blocks_compile_import_and_name_real_settings(path):
    for number, code in enumerate(_rst_python_blocks(path)):
        _check_code(code, f"{path.name}, block {number + 1}")


@pytest.mark.parametrize("path", [p for p in DOCS if re.search(r"^ *>>> ", p.read_text("utf-8"), re.MULTILINE)], ids=lambda p: p.name)
def test_pages_doctests_pass(path):
    """Every ``>>>`` line of the pages, as ``sphinx-build -b doctest`` runs them (CI), without Sphinx."""
    import doctest

    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS,
                              globs={"scrapy_whatwg_encoding": __import__("scrapy_whatwg_encoding")})
    assert result.attempted > 0 and result.failed == 0, result


def _resolve(dotted: str) -> object:
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            value = getattr(value, part)
        return value
    raise ImportError(dotted)


@pytest.mark.parametrize("path", PROSE, ids=lambda p: p.name)
def test_names_the_prose_gives_exist(path):
    """Every ``scrapy_whatwg_encoding.…`` name and ``from scrapy_whatwg_encoding… import …`` of the
    README and the pages resolves, and every ``response.<attribute>`` they name is a response's."""
    from scrapy.http import HtmlResponse

    text = path.read_text("utf-8")
    for dotted in set(re.findall(r"\bscrapy_whatwg_encoding(?:\.[A-Za-z_]\w*)+", text)):
        _resolve(dotted)
    for module, names in re.findall(r"\bfrom (scrapy_whatwg_encoding[\w.]*) import ([\w, ]+)", text):
        for name in names.replace(" ", "").split(","):
            if name:
                _resolve(f"{module}.{name}")
    for attribute in set(re.findall(r"\bresponse\.([a-z_]+)\b", text)):
        assert hasattr(HtmlResponse, attribute), (path.name, attribute)


def test_readme_claims_on_links_and_requests_hold():
    """The README's paragraph on URLs and requests, on a windows-1251 page: Scrapy's ``follow()``
    raises where the package's ``follow()`` gives the browser's query; requests carry Python's
    codec name, and ``form_request()``'s (a package codec) ``utf-8``."""
    from scrapy.http import HtmlResponse, Request

    from scrapy_whatwg_encoding import WhatwgEncodingMiddleware
    from scrapy_whatwg_encoding.scrapy.requests.forms import form_request
    from scrapy_whatwg_encoding.scrapy.requests.links import follow, follow_all

    readme = " ".join((ROOT / "README.md").read_text("utf-8").split())
    assert 'on a windows-1251 page `response.follow("/s?q=日本")` raises `UnicodeEncodeError`' in readme
    assert "`q=%26%2326085%3B%26%2326412%3B`" in readme
    request = Request("https://example.ru/")
    body = '<meta charset="windows-1251"><form action="/s"><input name="q" value="Ёж"></form><a href="/a">a</a>'
    response = WhatwgEncodingMiddleware().process_response(
        request, HtmlResponse(request.url, body=body.encode("cp1251"), request=request))
    with pytest.raises(UnicodeEncodeError):
        response.follow("/s?q=日本")
    assert response.urljoin("/s?q=日本") == "https://example.ru/s?q=日本"
    assert follow(response, "/s?q=日本").url == "https://example.ru/s?q=%26%2326085%3B%26%2326412%3B"
    assert (response.follow("/s").encoding, follow(response, "/s").encoding) == ("cp1251", "cp1251")
    assert [r.encoding for r in follow_all(response, css="a")] == ["cp1251"]
    assert form_request(response).encoding == "utf-8"


def test_one_suite_time_and_no_test_counts():
    """The full suite's time is stated once, in the README; no page counts the tests (the counts
    went stale at each release)."""
    times = [(p.name, m) for p in [*PROSE, ROOT / "CHANGELOG.md"]
             for m in re.findall(r"about \d+ minutes", p.read_text("utf-8"))]
    assert [name for name, _ in times] == ["README.md"], times
    for path in [*PROSE, ROOT / "CHANGELOG.md"]:
        assert not re.search(r"\b\d[\d,]* (?:of the suite's \d[\d,]* )?tests\b", path.read_text("utf-8")), path.name


def test_supported_pythons_agree():
    """The README states the supported Pythons once; the classifiers, ``requires-python`` and the
    workflow's matrix say the same."""
    readme = (ROOT / "README.md").read_text("utf-8")
    low, high = re.search(r"^Supported: Python 3\.(\d+) to 3\.(\d+)", readme, re.MULTILINE).groups()
    expected = [f"3.{minor}" for minor in range(int(low), int(high) + 1)]
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert re.findall(r'"Programming Language :: Python :: (3\.\d+)"', pyproject) == expected
    assert f'requires-python = ">={expected[0]}"' in pyproject
    workflow = (ROOT / ".github" / "workflows" / "tests.yml").read_text("utf-8")
    assert re.search(r"python-version: \[(.*)\]", workflow).group(1) == ", ".join(f'"{v}"' for v in expected)
    assert f"- Python {expected[0]} to {expected[-1]}" in (ROOT / "docs" / "install.rst").read_text("utf-8")


def test_changelog_has_upgrading_first_and_compare_links():
    """Each release of CHANGELOG.md starts with "Upgrading" (what to change in your code), and every
    version but the untagged first has its GitHub compare link; ``[Unreleased]`` comes first, with
    the simple headings the release tooling moves under the new version (pyproject.toml)."""
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    sections = re.split(r"^## ", changelog, flags=re.MULTILINE)[1:]
    versions = [section.split("]", 1)[0].lstrip("[") for section in sections]
    assert versions[0] == "Unreleased" and versions[-1] == "0.1.0", versions
    assert re.findall(r"^### (.+)$", sections[0], re.MULTILINE) in ([], ["Upgrading", "Changes"])
    for version, section in zip(versions, sections):
        if version != "Unreleased" or section.strip() != "[Unreleased]":  # (empty just after a release)
            assert re.search(r"\A[^\n]*\n\n(?:[^#\n][^\n]*\n\n?)*### Upgrading\n", section), version
    compare = f"{REPOSITORY.removesuffix('/blob/main/')}/compare/"
    links = dict(re.findall(r"^\[([^\]]+)\]: (\S+)$", changelog, re.MULTILINE))
    tags = [f"v{v}" for v in versions[1:-1]]
    assert links["Unreleased"] == f"{compare}{tags[0]}...HEAD"
    for version, tag, previous in zip(versions[1:-2], tags, tags[1:]):
        assert links[version] == f"{compare}{previous}...{tag}", version
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert f'search = "[Unreleased]: {compare}v{{current_version}}...HEAD"' in pyproject


def test_report_screenshot_is_the_tools():
    """docs/report-screenshot.png has the size tools/report_screenshot.py makes (it renders the demo
    crawl's report; tests/scrapy/test_report_chromium.py checks such a screenshot's content)."""
    import struct

    tool = (ROOT / "tools" / "report_screenshot.py").read_text("utf-8")
    width, height = (int(re.search(rf'"--{name}", type=int, default=(\d+)', tool).group(1))
                     for name in ("width", "height"))
    png = (ROOT / "docs" / "report-screenshot.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    assert struct.unpack(">II", png[16:24]) == (width, height)


@pytest.mark.parametrize("path", PROSE, ids=lambda p: p.name)
def test_files_the_prose_names_exist(path):
    """Every repository path the README and the pages name (tools, tests, docs, the example project,
    the package's modules) exists."""
    text = path.read_text("utf-8")
    named = set(re.findall(r"(?<![\w/.])((?:tools|tests|docs|example_project|scrapy_whatwg_encoding|\.ci|\.github)"
                           r"/[\w./-]*\w)", text))
    assert named or path.name not in ("README.md", "development.rst", "contributing.rst")
    for name in named:
        if not name.startswith("docs/_build"):  # (what the documentation's build writes)
            assert (ROOT / name).exists(), (path.name, name)


def test_cli_page_explain_sample_is_the_commands_output(tmp_path, capsys):
    """docs/cli.rst's ``explain`` sample (a KOI8-R ``<meta>`` at byte 12): each line it shows is a
    line the command prints for such a page."""
    import textwrap

    from scrapy_whatwg_encoding.cli.main import main

    text = (ROOT / "docs" / "cli.rst").read_text("utf-8")
    start = text.index("\n\n", text.index("Steps after the deciding one are shown as ``not reached``::")) + 2
    sample = textwrap.dedent(re.match(r"(?:(?:   .*)?\n)+", text[start:]).group(0))
    page = tmp_path / "page.html"
    page.write_bytes(b'<html><head><meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'
                     b"<title>\xf0\xd2\xc9\xd7\xc5\xd4</title>")
    try:
        main(["explain", str(page), "--content-type", "text/html"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    shown = [line.rstrip() for line in sample.splitlines() if line.strip() and line.strip() != "..."]
    assert len(shown) > 10
    for line in shown:
        assert line in printed, line


def test_binary_responses_claims_hold():
    """docs/responses.rst ("Plugins' response classes") and docs/logging.rst: Scrapy makes a binary
    ``Response`` of UTF-16 Cyrillic text without a ``Content-Type`` (byte 0x04), which the middleware
    leaves alone, even with a BOM, as ``not_a_document``; a binary class for a ``Content-Type`` that
    names a document is ``binary_response_class``."""
    from scrapy.http import Request, Response
    from scrapy.responsetypes import responsetypes
    from scrapy.utils.test import get_crawler

    from scrapy_whatwg_encoding import WhatwgEncodingMiddleware

    for profile in ("standard", "browsers"):
        for body, headers, reason in (("\ufeffПривет".encode("utf-16-le"), {}, "not_a_document"),
                                      ("Привет".encode("utf-16-le"), {}, "not_a_document"),
                                      ("Привет".encode("utf-16-le"), {"Content-Type": "text/html"},
                                       "binary_response_class")):
            if not headers:
                assert responsetypes.from_args(headers=headers, url="https://example.ru/", body=body) is Response
            crawler = get_crawler(settings_dict={"WHATWG_ENCODING_PROFILE": profile})
            request = Request("https://example.ru/")
            response = Response(request.url, body=body, headers=headers, request=request)
            result = WhatwgEncodingMiddleware.from_crawler(crawler).process_response(request, response)
            assert result is response and "whatwg_encoding" not in request.meta
            skipped = {k: v for k, v in crawler.stats.get_stats().items() if k.startswith("whatwg_encoding/skipped")}
            assert skipped == {f"whatwg_encoding/skipped/{reason}": 1}, (profile, headers)


def test_api_reference_documents_every_name_users_import():
    """docs/api.rst has an entry for every name of the package's ``__all__`` and every name the README
    and the pages import or list in settings (``from scrapy_whatwg_encoding.scrapy.requests.links import
    follow``, ``"scrapy_whatwg_encoding.scrapy.requests.portable.PortableRequestsMiddleware"``); with Sphinx's
    nitpicky mode a reference to a name without one fails the build."""
    import scrapy_whatwg_encoding

    api = (ROOT / "docs" / "api.rst").read_text("utf-8")
    documented, module = set(), "scrapy_whatwg_encoding"
    for directive, target in re.findall(r"^\.\. (module|currentmodule|auto\w+|data|function|class)::\s*(\S+)",
                                        api, re.MULTILINE):
        if directive in ("module", "currentmodule"):
            module = target
        else:
            documented.add(target.rstrip("()") if "." in target and target.startswith("scrapy_whatwg_encoding")
                           else f"{module}.{target.rstrip('()')}")
    wanted = {f"scrapy_whatwg_encoding.{name}" for name in scrapy_whatwg_encoding.__all__ if name != "__version__"}
    for path in PROSE:
        text = path.read_text("utf-8")
        for module_name, names in re.findall(r"\bfrom (scrapy_whatwg_encoding[\w.]*) import ([\w, ]+)", text):
            wanted |= {f"{module_name}.{name}" for name in names.replace(" ", "").split(",") if name}
        wanted |= set(re.findall(r'"(scrapy_whatwg_encoding(?:\.\w+)*\.[A-Z]\w+)"', text))
    # A name re-exported at the top (``scrapy_whatwg_encoding.Addon``) is documented there.
    missing = {name for name in wanted if name not in documented
               and f"scrapy_whatwg_encoding.{name.rsplit('.', 1)[1]}" not in documented}
    assert len(wanted) > 15 and not missing, sorted(missing)


def test_request_meta_keys_are_the_ones_the_layer_reads():
    """The request meta keys docs/responses.rst documents and the README lists are those the Scrapy
    layer reads (besides its own decision key, ``"whatwg_encoding"``)."""
    source = "".join(p.read_text("utf-8") for p in (ROOT / "scrapy_whatwg_encoding" / "scrapy").glob("*.py"))
    constants = dict(re.findall(r'^(\w+_KEY) = "(\w+)"', source, re.MULTILINE))  # scrapy/responses.py
    read = {constants.get(key, key) for key in re.findall(r'meta(?:\.get\(|\[)"?(\w+)"?[,)\]]', source)}
    read -= {"whatwg_encoding"}
    text = (ROOT / "docs" / "responses.rst").read_text("utf-8")
    section = text[text.index(".. _request-meta:"):text.index(".. _sources:")]
    documented = set(re.findall(r"^``(\w+)``$", section, re.MULTILINE))
    readme = " ".join((ROOT / "README.md").read_text("utf-8").split())
    sentence = readme[readme.index("Per request:"):readme.index("Stats are counted")]
    listed = set(re.findall(r'\{"(\w+)": ', sentence))
    assert read == documented == listed and len(read) == 4, (read, documented, listed)


def test_logging_page_names_every_skip_reason():
    # docs/logging.rst's whatwg_encoding/skipped/<reason> row lists every reason the gate and the
    # inputs give (kind.SKIP_REASONS): a new reason breaks this test, not a reader.
    from scrapy_whatwg_encoding.scrapy.kind import SKIP_REASONS

    text = (ROOT / "docs" / "logging.rst").read_text(encoding="utf-8")
    row = text[text.index("whatwg_encoding/skipped/<reason>"):text.index("whatwg_encoding/close_errors")]
    assert [reason for reason in SKIP_REASONS if f"``{reason}``" not in row] == []
