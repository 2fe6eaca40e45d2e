"""The parser step's hints compiled (scrapy_whatwg_encoding/sniffing/c_hints.c) equal their
plain twin, the pattern parser_scan._REFERENCE_HINTS, which defines them: its first match from every
position of texts built from the pieces each part of it reads (references to a label's characters and
to those read between, sixteen zeros, names, labels and what ends them, "&" that starts nothing), with
the text cut anywhere; its last match (parser_scan.last_start); and on the hostile bench's bodies."""
from __future__ import annotations

import os
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scrapy_whatwg_encoding.encoding.compiled import PURE_PYTHON
from scrapy_whatwg_encoding.sniffing import parser_scan
from scrapy_whatwg_encoding.sniffing._html.tokenizer import ascii_lowered

HINTS = parser_scan.compiled_hints(pure=False)
if HINTS is None:  # (.ci/run builds it: CI runs no test skipped)
    pytest.skip("the package was built without its C extensions (no C compiler when pip installed it)",
                allow_module_level=True)

COMPILED, LABELS_COMPILED = HINTS
PATTERN, LABEL_PATTERN = parser_scan._REFERENCE_HINTS, parser_scan._LABEL_HINTS
PIECES = [b"&", b"#", b"x", b"0", b"0" * 15, b"0" * 16, b"1", b"9", b"32", b"20", b"59", b"61", b"45", b"2d", b"3b",
          b"3d", b"7a", b"122", b"128", b"1234567", b";", b"=", b" ", b"\t", b"\x00", b"\x01", b'"', b"'", b">", b"<",
          b"a", b"f", b"z", b"xx", b"quot", b"quot;", b"apos;", b"semi;", b"equals;", b"newline;", b"tab;", b"bne;",
          b"colon;", b"period;", b"lowbar;", b"fjlig;", b"underbar;", b"amp;", b"koi8-r", b"utf-8", b"x-sjis", b"x-",
          b"latin1", b"big5", b"gbk", b"&#x20;", b"&#32;", b"&#x2d;", b"&#61", b"&quot;", b"&#00000000000000032;",
          b"&#x000000000000020;", b"charset"]


def test_the_parser_step_uses_the_compiled_hints():
    """Where the extension is built the scans use it; with SCRAPY_WHATWG_ENCODING_PURE_PYTHON=1, the pattern."""
    pure = os.environ.get(PURE_PYTHON) == "1"
    assert (parser_scan.compiled_hints() is None) is pure
    assert parser_scan.compiled_hints(pure=True) is None


def test_without_the_extension_the_pattern(monkeypatch):
    """Where the extension cannot be imported (a package built without a C compiler), no compiled search
    is given: the scans search with the pattern."""
    import scrapy_whatwg_encoding.sniffing as package

    monkeypatch.delattr(package, "c_hints", raising=False)
    monkeypatch.setitem(sys.modules, "scrapy_whatwg_encoding.sniffing.c_hints", None)
    assert parser_scan.compiled_hints.__wrapped__(pure=False) is None


@pytest.mark.slow  # 1,500 texts, each from every position
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.integers(0, 1 << 16))
@example([b"&#x20;", b"&#x20;", b" ", b"koi8-r"], 0)  # references to a space, then a label: a hint at the first
@example([b"&#x20;"] * 16, 0)  # sixteen items and no label: a hint
@example([b"&", b"quot", b";", b"=", b"utf-8", b">"], 0)  # a name read between
@example([b"&#", b"0" * 16, b"9"], 0)  # sixteen zeros
@example([b"&#x20;", b"&#x20;", b"xx", b"&#x20;", b"&#x20;"], 0)  # the hunted row's unit: none
# (the backward scan reads a run of items once, counted from each "&": the sixteenth item decides)
@example([b"&#x20;", b" "] * 8 + [b"&#x20;"], 0)
@example([b"&#x20;"] * 16 + [b"&quot;"], 0)
@example([b"&#x20;"] * 15 + [b"koi8-r"], 0)
@example([b"&#x20;"] * 15 + [b"&#x20"], 0)
@example([b"&#x20;", b"&", b"tab;"] * 6, 0)
def test_first_and_last_hints_equal_the_pattern(pieces, cut):
    text = b"".join(pieces)
    end = len(text) - cut % (len(text) + 1) if cut % 3 == 0 else len(text)  # (a third of them cut)
    for start in range(len(text) + 1):
        match = PATTERN.search(text, start, end)
        assert COMPILED(text, start, end, False) == (-1 if match is None else match.start()), (text, start, end)
    for start in (0, len(text) // 3, len(text) // 2):
        assert COMPILED(text, start, end, True) == \
            parser_scan.last_start(PATTERN, text, end, parser_scan._HINT_LENGTH, start), (text, start, end)


@pytest.mark.slow  # a hundred bodies of 64 KiB
def test_hostile_bodies_equal_the_pattern():
    """Each hostile body of tools/bench_hostile.py (64 KiB), as the scans read it: its last hint, and its
    first from a thousand places."""
    import bench_hostile

    for name, body in bench_hostile.bodies(1 << 16).items():
        lowered = ascii_lowered(body.decode("latin-1"))
        last = parser_scan.last_start(PATTERN, lowered, len(lowered), parser_scan._HINT_LENGTH)
        assert COMPILED(lowered, 0, len(lowered), True) == last, name
        for start in range(0, len(lowered), 64):
            match = PATTERN.search(lowered, start, start + 4096)
            assert COMPILED(lowered, start, start + 4096, False) == (-1 if match is None else match.start()), name


LABEL_PIECES = [b"charset", b"charse", b"t", b"=", b" ", b"\t", b"\x00", b"\x01", b"\x0c", b" " * 15, b" " * 16,
                b"\t" * 16, b'"', b"'", b"koi8-r", b"utf-8", b"utf-8x", b"big5", b"x-sjis", b"latin1", b">", b";", b"&",
                b"?", b"<meta", b"a", b"content", b"=utf-8"]


@pytest.mark.slow  # 1,500 texts, each from every position
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(LABEL_PIECES), max_size=30), st.integers(0, 1 << 16))
@example([b"charset", b"=", b"koi8-r"], 0)  # a label: a hint
@example([b"charset", b" " * 15, b"=", b" ", b'"', b" " * 15, b"utf-8", b'"'], 0)  # fifteen separators each side
@example([b" " * 16, b"=", b" " * 16], 0)  # sixteen separators each side
@example([b"charset", b"=", b"utf-8x"], 0)  # no end after the label: none
@example([b"t", b"=", b"koi8-r"], 0)  # "t" without "charset": none
def test_first_and_last_label_hints_equal_the_pattern(pieces, cut):
    text = b"".join(pieces)
    end = len(text) - cut % (len(text) + 1) if cut % 3 == 0 else len(text)  # (a third of them cut)
    for start in range(len(text) + 1):
        match = LABEL_PATTERN.search(text, start, end)
        assert LABELS_COMPILED(text, start, end, False) == (-1 if match is None else match.start()), (text, start, end)
    for start in (0, len(text) // 2):
        assert LABELS_COMPILED(text, start, end, True) == \
            parser_scan.last_start(LABEL_PATTERN, text, end, parser_scan._HINT_LENGTH, start)


@pytest.mark.slow  # a hundred bodies of 64 KiB
def test_hostile_bodies_label_hints_equal_the_pattern():
    """Each hostile body of tools/bench_hostile.py (64 KiB), as the scans read it: its last label hint, and
    its first from a thousand places."""
    import bench_hostile

    for name, body in bench_hostile.bodies(1 << 16).items():
        lowered = ascii_lowered(body.decode("latin-1"))
        last = parser_scan.last_start(LABEL_PATTERN, lowered, len(lowered), parser_scan._HINT_LENGTH)
        assert LABELS_COMPILED(lowered, 0, len(lowered), True) == last, name
        for start in range(0, len(lowered), 64):
            match = LABEL_PATTERN.search(lowered, start, start + 4096)
            assert LABELS_COMPILED(lowered, start, start + 4096, False) == (-1 if match is None else match.start()), name
