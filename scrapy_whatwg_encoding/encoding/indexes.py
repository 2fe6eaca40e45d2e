"""Indexes (Encoding Standard §5), loaded from the generated tables on first use."""
from __future__ import annotations

import bisect
import functools
import os
from typing import Any

# The loader that imported this module reads the files beside it, on disk or in a zip archive
# (importlib.resources or pkgutil would import ~20 or 3 more modules, 0.8 or 0.2 MB, on the first
# multi-byte decode of a process that has not imported them).
_LOADER: Any = __spec__.loader


@functools.cache
def index(name: str) -> str:
    """The index *name* ("big5", "euc-kr", "gb18030", "jis0208", "jis0212") as a str: the character at
    position *pointer* is the index code point for pointer, ``"\\0"`` where pointer is not in the
    index (no index maps a pointer to U+0000)."""
    return _LOADER.get_data(os.path.join(os.path.dirname(__file__), "tables", f"index-{name}.txt")).decode("utf-8")


def code_point(name: str, pointer: int) -> str | None:
    """Index code point (§5) for *pointer* in index *name*, as a 1-character str, or ``None``."""
    table = index(name)
    if 0 <= pointer < len(table):
        char = table[pointer]
        if char != "\0":
            return char
    return None


@functools.cache
def pointers(name: str, exclude: range = range(0)) -> dict[str, int]:
    """Index pointer (§5): code point -> the *first* pointer mapping to it, ignoring *exclude*."""
    result: dict[str, int] = {}
    for pointer, char in enumerate(index(name)):
        if char != "\0" and pointer not in exclude:
            result.setdefault(char, pointer)
    return result


@functools.cache
def _ranges() -> tuple[list[int], list[int]]:
    from .tables.gb18030_ranges import RANGES

    return [p for p, _ in RANGES], [c for _, c in RANGES]


def gb18030_ranges_code_point(pointer: int) -> int | None:
    """Index gb18030 ranges code point (§5) for *pointer*, or ``None``."""
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    offsets, code_points = _ranges()
    i = bisect.bisect_right(offsets, pointer) - 1
    return code_points[i] + pointer - offsets[i]


def gb18030_ranges_pointer(code_point: int) -> int:
    """Index gb18030 ranges pointer (§5) for *code_point* (U+0080 and up, not in index gb18030)."""
    if code_point == 0xE7C7:
        return 7457
    offsets, code_points = _ranges()
    i = bisect.bisect_right(code_points, code_point) - 1
    return offsets[i] + code_point - code_points[i]
