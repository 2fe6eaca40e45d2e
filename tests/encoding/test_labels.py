"""Names and labels: "get an encoding" (Encoding Standard §4.2) against encodings.json."""
from __future__ import annotations

import json
import pathlib

import pytest

from scrapy_whatwg_encoding import ENCODINGS, Encoding, get_encoding

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
GROUPS = json.loads((DATA / "whatwg-encoding" / "encodings.json").read_text(encoding="utf-8"))
PAIRS = [(label, e["name"])
         for group in GROUPS for e in group["encodings"] for label in e["labels"]]
LABELS = {label for label, _ in PAIRS}
NAMES = [e["name"] for group in GROUPS for e in group["encodings"]]

# Infra's ASCII whitespace: TAB, LF, FF, CR, SPACE.
ASCII_WHITESPACE = "\t\n\x0c\r "
# Characters that "get an encoding" must not strip (most of them Python's str.strip() would).
OTHER_WHITESPACE = ["\x0b", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u1680", "\u2000",
                    "\u2028", "\u3000", "\ufeff", "\x00"]


def test_228_labels_and_40_encodings():
    assert len(PAIRS) == 228 and len(LABELS) == 228
    assert len(NAMES) == 40 and len(set(NAMES)) == 40
    assert list(ENCODINGS) == NAMES
    assert {get_encoding(label).name for label in LABELS} == set(NAMES)


@pytest.mark.parametrize("label,name", PAIRS)
def test_every_label_resolves_to_its_encoding(label, name):
    encoding = get_encoding(label)
    assert isinstance(encoding, Encoding)
    assert encoding.name == name
    assert encoding is ENCODINGS[name]  # one object per encoding


@pytest.mark.parametrize("name", NAMES)
def test_name_identity(name):
    # Every name, ASCII-lowercased, is one of its labels (§4.2 note).
    assert get_encoding(name) is ENCODINGS[name]
    assert get_encoding(name.lower()) is ENCODINGS[name]
    assert ENCODINGS[name].name == name


@pytest.mark.parametrize("label,name", PAIRS)
def test_ascii_case_insensitive(label, name):
    for variant in (label.upper(), label.title(), label.swapcase(),
                    "".join(c.upper() if i % 2 else c for i, c in enumerate(label))):
        assert get_encoding(variant) is ENCODINGS[name], variant


@pytest.mark.parametrize("label,name", PAIRS)
def test_ascii_whitespace_is_stripped(label, name):
    for before, after in ((ASCII_WHITESPACE, ASCII_WHITESPACE), (" ", ""), ("", "\t"),
                          ("\n\r", "\x0c "), ("\x0c", "\r\n")):
        assert get_encoding(before + label + after) is ENCODINGS[name], (before, after)


@pytest.mark.parametrize("space", OTHER_WHITESPACE)
def test_other_whitespace_is_not_stripped(space):
    for label in ("utf-8", "windows-1252", "shift_jis"):
        assert get_encoding(space + label) is None
        assert get_encoding(label + space) is None
        assert get_encoding(" " + space + label + space + " ") is None


@pytest.mark.parametrize("label", ["utf -8", "utf-8 x", "utf\t8", "utf-8\x00", "windows- 1252"])
def test_inner_whitespace_or_garbage_fails(label):
    assert get_encoding(label) is None


@pytest.mark.parametrize("label", [
    "\u212aoi8-r",      # KELVIN SIGN: lowercases to "k" outside ASCII
    "\u212aOI8-R",
    "\u017fhift_jis",   # LATIN SMALL LETTER LONG S: uppercases to "S"
    "\u0131so-8859-2",  # LATIN SMALL LETTER DOTLESS I: uppercases to "I"
    "\u0130so-8859-2",  # LATIN CAPITAL LETTER I WITH DOT ABOVE: lowercases to "i" + U+0307
    "\uff55\uff54\uff46-8",  # FULLWIDTH "utf"
    "utf\u20108",       # HYPHEN instead of HYPHEN-MINUS
])
def test_non_ascii_case_folding_does_not_match(label):
    assert get_encoding(label) is None


@pytest.mark.parametrize("label", ["", " ", "\t\n", "utf-7", "utf-32", "latin-1", "utf-16-le",
                                   "utf8mb4", "iso-2022-jp-2", "cp936", "cp949", "euc-tw",
                                   "x-unknown", "whatwg-utf-8", "utf_8", "UTF-8-", "\"utf-8\""])
def test_unknown_labels_fail(label):
    if label.strip(ASCII_WHITESPACE).lower() in LABELS:
        pytest.fail(f"{label!r} is a label of the standard; this list must hold non-labels only")
    assert get_encoding(label) is None


@pytest.mark.parametrize("label,name", PAIRS)
def test_bytes_labels(label, name):
    assert get_encoding(label.encode("ascii")) is ENCODINGS[name]
    assert get_encoding(b" \t" + label.upper().encode("ascii") + b"\r\n") is ENCODINGS[name]


@pytest.mark.parametrize("label", [b"", b"\xa0utf-8", b"utf-8\xa0", b"\xffutf-8", b"utf-7",
                                   b"\x0butf-8", "\u212aoi8-r".encode("utf-8")])
def test_bytes_labels_that_fail(label):
    assert get_encoding(label) is None
