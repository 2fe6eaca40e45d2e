"""Sphinx configuration: ``pip install -e ".[docs]" && sphinx-build -W --keep-going -b html docs docs/_build/html``
(and ``-b doctest`` to run the examples of the pages)."""
from __future__ import annotations

import importlib.metadata

project = "scrapy-whatwg-encoding"
author = "scrapy-whatwg-encoding contributors"
copyright = author
release = importlib.metadata.version("scrapy-whatwg-encoding")
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.extlinks",
    "sphinx.ext.viewcode",
    "myst_parser",  # changelog.rst includes the repository's CHANGELOG.md
]

# Links into Scrapy's documentation: :scrapy:`add-ons <topics/addons.html>`. Plain links rather than
# intersphinx, whose inventory would be downloaded at build time (the build must work offline).
extlinks = {"scrapy": ("https://docs.scrapy.org/en/latest/%s", "%s")}

exclude_patterns = ["_build"]
source_suffix = {".rst": "restructuredtext"}  # Markdown only where a page includes it
suppress_warnings = ["myst.header"]  # CHANGELOG.md starts at "#", included below the page's title
root_doc = "index"
language = "en"

html_theme = "sphinx_rtd_theme"
html_title = f"{project} {release}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]

# API reference: members in source order, signatures with the types, short type names.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
python_use_unqualified_type_names = True
add_module_names = False

# Every cross-reference must resolve (-W makes a dangling one an error), so that a public name
# missing from api.rst shows. The exceptions: names of Python, Scrapy and parsel, whose inventories
# intersphinx would download (the build works offline), and internals that docstrings cite by name
# but the API reference leaves out on purpose (each listed: a new dangling reference still fails).
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(collections\.abc|typing_extensions|dataclasses|codecs|logging|types|scrapy\.(http|link)|parsel)(\..*)?"),
    # the run's dataclass fields, rendered with their generic types
    (r"py:class", r"(list|dict|tuple)\[.*"),
]
nitpick_ignore = [
    ("py:class", "Buffer"),  # collections.abc.Buffer (3.12+), as its typing_extensions backport spells it
    ("py:class", "Decoder"),  # _typing.Decoder: Callable[[Buffer], str]
    ("py:class", "ModuleType"),  # types.ModuleType (compiled.extension())
    ("py:class", "BaseSettings"),  # Scrapy's, in Addon.update_settings()
    *(("py:class", name) for name in ("Profile", "DetectorMode", "SuspectLabels",
                                       "scrapy_whatwg_encoding.scrapy.memory.site.SiteMemory")),
    *(("py:class", name) for name in ("Decision", "SuspectKind", "scrapy_whatwg_encoding.scrapy.memory.SiteMemory",
                                       "scrapy_whatwg_encoding.scrapy.settings.Config",
                                       "scrapy_whatwg_encoding.scrapy.requests.portable._R")),
    *(("py:data", name) for name in ("CACHE_HEADER", "Confidence", "Likely", "PARSER_LIMIT", "SOURCES",
                                      "SUSPECT_LABELS", "WHOLE_UTF_8", "handler.HANDLER_ORDER", "mislabel.SuspectKind",
                                      "sniff.Likely")),
    *(("py:func", name) for name in ("mislabel.content_decision", "scrapy_whatwg_encoding.sniffing.mislabel.content_decision",
                                      "sniff.sniff", "url.encode_query")),
    ("py:meth", "from_crawler"),
]

# sphinx-build -b doctest runs the pages' ``.. doctest::`` blocks. The docstrings' examples, which
# autodoc includes as plain doctest blocks, need their module's names: pytest runs them there
# (--doctest-modules), and tests/package/test_docs.py runs every page's ``>>>`` lines without Sphinx.
doctest_global_setup = "import scrapy_whatwg_encoding"
doctest_test_doctest_blocks = ""


def setup(app):
    # ``.. setting::`` and :setting:`NAME`, as in Scrapy's own documentation.
    app.add_crossref_type(directivename="setting", rolename="setting", indextemplate="pair: %s; setting")
