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

# sphinx-build -b doctest runs the ``>>>`` blocks of the pages and of the docstrings they include.
doctest_global_setup = "import scrapy_whatwg_encoding"


def setup(app):
    # ``.. setting::`` and :setting:`NAME`, as in Scrapy's own documentation.
    app.add_crossref_type(directivename="setting", rolename="setting", indextemplate="pair: %s; setting")
