"""``WHATWG_ENCODING_OVERRIDES`` host matching (:func:`override_for`) and validation
(:func:`check_overrides`, and for every label :func:`label_problem`); the real crawl is in tests/scrapy/test_scrapy_overrides.py."""
from __future__ import annotations

import json
import pathlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scrapy_whatwg_encoding.scrapy.overrides import override_for
from scrapy_whatwg_encoding.scrapy.settings import InvalidSetting, check_label, check_overrides, label_problem

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"

OVERRIDES = check_overrides("X", {"example.jp": "shift_jis", "Legacy.Example.JP": "euc-jp", "bücher.de": "latin1"})

_label = st.text("abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=8)
_host = st.lists(_label, min_size=1, max_size=4).map(".".join)


def test_keys_are_ascii_lower_case():
    assert OVERRIDES == {"example.jp": "shift_jis", "legacy.example.jp": "euc-jp", "xn--bcher-kva.de": "latin1"}


@pytest.mark.parametrize(("url", "label"), [
    ("http://example.jp/", "shift_jis"),
    ("https://www.example.jp:8443/a?b", "shift_jis"),
    ("http://legacy.example.jp/", "euc-jp"),  # the longest key wins
    ("http://a.legacy.example.jp/", "euc-jp"),
    ("http://EXAMPLE.jp/", "shift_jis"),
    ("http://xn--bcher-kva.de/", "latin1"),
    ("http://notexample.jp/", None),  # a suffix counts at a dot only
    ("http://example.jp.evil.com/", None),
    ("http://jp/", None),
    ("file:///tmp/a.html", None),
])
def test_override_for(url, label):
    assert override_for(OVERRIDES, url) == label


@pytest.mark.slow  # hypothesis
@given(_host, _host)
def test_a_key_covers_exactly_its_host_and_the_hosts_under_it(key, host):
    found = override_for({key: "koi8-r"}, f"http://{host}/")
    assert (found == "koi8-r") == (host == key or host.endswith("." + key))


@pytest.mark.parametrize("value", [
    {"example.jp": "latin-9000"}, {"example.jp": None}, {"http://example.jp": "sjis"}, {"example.jp/a": "sjis"},
    {"": "sjis"}, {3: "sjis"}, ["example.jp"], "{not json", {"a" * 64 + ".jp": "sjis"},
])
def test_invalid_values(value):
    with pytest.raises(InvalidSetting, match="WHATWG_ENCODING_OVERRIDES"):
        check_overrides("WHATWG_ENCODING_OVERRIDES", value)


def test_json_string_from_the_command_line():
    assert check_overrides("X", '{"example.jp": "sjis"}') == {"example.jp": "sjis"}
    assert check_overrides("X", None) == check_overrides("X", {}) == {}


# --- Labels that cannot work (issue 21, item 7) ---------------------------------------------------

def _labels() -> dict[str, list[str]]:
    """Every label of the standard (tests/data/whatwg-encoding/encodings.json), by encoding name."""
    groups = json.loads((DATA / "whatwg-encoding" / "encodings.json").read_text("utf-8"))
    return {e["name"]: e["labels"] for group in groups for e in group["encodings"]}


def test_every_label_of_the_replacement_encoding_is_refused():
    labels = _labels()
    assert sorted(labels["replacement"]) == ["csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext",
                                             "iso-2022-kr", "replacement"]
    for name, group in labels.items():
        for label in group + [label.upper() for label in group]:
            problem = label_problem(label)
            if name != "replacement":
                assert problem is None, label
                assert check_label("WHATWG_ENCODING_DEFAULT", label) == label
                continue
            assert "replacement encoding" in problem and "U+FFFD" in problem, label
            with pytest.raises(InvalidSetting) as info:
                check_label("WHATWG_ENCODING_DEFAULT", label)
            assert str(info.value).startswith(f"WHATWG_ENCODING_DEFAULT: invalid value {label!r} (a label of "
                                              "the replacement encoding") and "\n" not in str(info.value)
            with pytest.raises(InvalidSetting, match=f"^WHATWG_ENCODING_OVERRIDES: .*'{label}' for 'example.kr': "
                                                     "a label of the replacement encoding"):
                check_overrides("WHATWG_ENCODING_OVERRIDES", {"example.kr": label})


@pytest.mark.parametrize("value", ["latin-9000", "", " ", None, 1252, b"utf-8", "utf-8\x00"])
def test_values_that_are_no_label(value):
    assert label_problem(value) == "expected a label of the WHATWG Encoding Standard"
