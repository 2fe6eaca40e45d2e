"""Responses pickled by 0.2.0 load in this version (issue 37, item 5), as Scrapy's own classes.

tests/data/pickles-0.2.0/ holds what release 0.2.0 itself pickled (``tools/pickles_020.py`` run on
its checkout; how, in that folder's README): decided responses, whose per-encoding classes 0.2.0
made at run time, which only a pickler that carries a class by value (cloudpickle: joblib, Dask,
Ray) could pickle, with the base ``scrapy_whatwg_encoding.scrapy.responses.Whatwg<Class>`` by
reference; and a response 0.2.0 left of Scrapy's class. 0.3.0 had no such name and raised
``AttributeError: Can't get attribute 'WhatwgHtmlResponse'``.
"""
from __future__ import annotations

import json
import pickle

import pytest
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from whatwg_crawl_helpers import DATA

from scrapy_whatwg_encoding import decode, get_encoding, whatwg_encoding
from scrapy_whatwg_encoding.scrapy.responses import WhatwgHtmlResponse, WhatwgTextResponse, WhatwgXmlResponse

# A pickle holds Scrapy's private attributes: each Scrapy reads its own layout's (2.11: the
# instance's __dict__; 2.19: slots named otherwise). 0.2.0 ran on both.
SLOTTED = "_headers" in getattr(Response, "__slots__", ())
FOLDER = DATA / "pickles-0.2.0" / ("scrapy-2.19" if SLOTTED else "scrapy-2.11")
EXPECTED = json.loads((FOLDER / "expected.json").read_text("utf-8"))["responses"]
CLASSES = {"TextResponse": TextResponse, "HtmlResponse": HtmlResponse, "XmlResponse": XmlResponse}


@pytest.fixture
def loaded():
    # Plain pickle.loads: the data names cloudpickle's own loaders, which it imports.
    return pickle.loads((FOLDER / "responses.cloudpickle").read_bytes())


def test_the_data_is_what_0_2_0_made():
    """Every decided response was of a per-encoding class the standard pickle refused; the one
    0.2.0 did not decide kept Scrapy's class (and pickled)."""
    for entry in EXPECTED:
        if entry["decision"] is None:
            assert (entry["class_0_2_0"], entry["standard_pickle"]) == (entry["scrapy_class"], "ok")
        else:
            name = get_encoding(entry["decision"]["encoding"]).name
            assert entry["class_0_2_0"] == f"Whatwg{entry['scrapy_class']}[{name}]"
            assert entry["standard_pickle"].startswith("PicklingError"), entry["url"]
    assert {e["scrapy_class"] for e in EXPECTED} == set(CLASSES)


def test_0_2_0_responses_load_as_scrapy_classes(loaded):
    """Each response loads as the Scrapy class it was made from, with the body, ``encoding``, exact
    text and decision 0.2.0 gave it; its selectors read that text."""
    assert [r.url for r in loaded] == [e["url"] for e in EXPECTED]
    for response, entry in zip(loaded, EXPECTED):
        assert type(response) is CLASSES[entry["scrapy_class"]], entry["url"]
        assert (response.encoding, response.text) == (entry["encoding"], entry["text"]), entry["url"]
        assert response.request.meta.get("whatwg_encoding") == entry["decision"]
        encoding = whatwg_encoding(response)
        if entry["decision"] is not None:
            assert encoding is get_encoding(entry["decision"]["encoding"])
            assert response.text == decode(response.body, encoding)[0], entry["url"]  # the standard's text
        else:
            assert encoding is None
        assert response.xpath("string(//title)").get() in response.text
    by_url = {r.url.rsplit("/", 1)[1]: r for r in loaded}
    assert by_url["meta-windows-1251.html"].css("title::text").get() == "Привет"
    assert by_url["rendered.html"].css("title::text").get() == "Привет 東京"


def test_a_loaded_response_pickles_again_with_the_standard_pickle(loaded):
    """Loaded as Scrapy's classes, the responses pickle (and load) with the standard pickle too
    (before a selector is made: Scrapy's responses do not pickle one)."""
    for response in loaded:
        clone = pickle.loads(pickle.dumps(response))
        assert (type(clone), clone.text, clone.encoding) == (type(response), response.text, response.encoding)


@pytest.mark.parametrize(("name", "scrapy_class"), [(WhatwgTextResponse, TextResponse), (WhatwgHtmlResponse, HtmlResponse),
                                                    (WhatwgXmlResponse, XmlResponse)])
def test_the_old_names_build_scrapy_classes(name, scrapy_class):
    """The names resolve, in a pickle made today by reference too (protocols 2 to 5)."""
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        blob = pickle.dumps(name, protocol=protocol)
        assert pickle.loads(blob) is name
    assert type(name.__new__(name)) is scrapy_class
