"""The documentation the CLI issue asks for stays true: the README's settings table gives the
defaults the code uses, and the committed decision-flow picture was rendered from its source."""
from __future__ import annotations

import html
import pathlib
import re

from scrapy_whatwg_encoding.scrapy.settings import DEFAULTS

ROOT = pathlib.Path(__file__).resolve().parents[1]


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
