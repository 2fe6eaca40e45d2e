"""The html5lib-tests encoding suite (tests/data/html5lib-tests/encoding) through
``sniff(body, content_type="text/html", detector="off")``.

The expectations are a browser's final two-pass result: several ``<meta>`` elements sit after
2–8 KiB of comments, beyond the 1,024 bytes of the prescan, where only the parser step finds them.
"""
from __future__ import annotations

import pathlib

import pytest

from scrapy_whatwg_encoding import get_encoding, sniff

SUITE = pathlib.Path(__file__).resolve().parents[1] / "data" / "html5lib-tests" / "encoding"


def read_dat(path: pathlib.Path) -> list[tuple[bytes, str]]:
    """Parse the ``.dat`` format: ``#data`` then the document's bytes, ``#encoding`` then a label."""
    raw = path.read_bytes()
    cases = []
    for chunk in raw.split(b"#data\n")[1:]:
        data, _, rest = chunk.partition(b"\n#encoding\n")
        label = rest.split(b"\n", 1)[0].strip().decode("ascii")
        cases.append((data, label))
    return cases


CASES = [
    pytest.param(data, label, id=f"{path.name}:{i}")
    for path in sorted(SUITE.glob("*.dat"))
    for i, (data, label) in enumerate(read_dat(path))
]


def test_suite_size():
    assert len(CASES) == 82


@pytest.mark.parametrize("data, label", CASES)
def test_encoding_suite(data, label):
    decision = sniff(data, content_type="text/html", detector="off")
    assert decision.encoding is get_encoding(label)


def test_long_comments_need_the_parser_step():
    """The suite's metas after long comments are found by the parser step, not the prescan."""
    found = [sniff(d, content_type="text/html", detector="off") for d, _ in read_dat(SUITE / "tests1.dat")]
    parser = [d for d in found if d.source == "parser"]
    assert parser and all(d.confidence == "certain" and d.offset > 1024 for d in parser)


def test_scripted_case():
    """scripted/tests1.dat expects ISO-8859-2 from a ``<meta>`` that only ``document.write``
    creates. Nothing here runs scripts: with the scripting flag set the tokenizer reads
    ``<script>`` content as raw text, so the tree builder never sees that ``meta``; and the
    prescan, which does look inside ``<script>``, reads ``charset="ISO-8859-' + '2"`` — a label
    "get an encoding" fails on. The result is therefore the default, windows-1252."""
    (data, label), = read_dat(SUITE / "scripted" / "tests1.dat")
    assert label == "iso-8859-2"
    decision = sniff(data, content_type="text/html", detector="off")
    assert (decision.encoding.name, decision.source) == ("windows-1252", "default")
