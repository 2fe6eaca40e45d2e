"""The compiled multi-byte decoders (``c_decoders.c``: gb18030, Big5, EUC-JP, ISO-2022-JP, Shift_JIS,
EUC-KR), bound to their indexes.

Each runs its decoder's handler byte by byte in C (Encoding Standard §10.2.1, §11.1.1, §12.1.1,
§12.2.1, §12.3.1, §13.1.1): a few nanoseconds a byte whatever the bytes, where the Python decoders
(on CPython's codecs) pay an error handler's call or a window of lane arithmetic at each run of
errors. They are the same text (tests/oracles/test_compiled_decoders.py holds both against the
spec-literal reference). The extension is optional: a package built without a C compiler, or a
process with the environment variable ``SCRAPY_WHATWG_ENCODING_PURE_PYTHON`` set to ``1``, decodes
with the Python decoders.
"""
from __future__ import annotations

import functools
import os
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

from . import indexes

if TYPE_CHECKING:
    from ._typing import Buffer, Decoder

# Each encoding's function in c_decoders and the indexes it reads (§5), as indexes.index names them (the
# ranges as _ranges gives them).
_GB18030 = ("gb18030", ("gb18030", "gb18030 ranges"))
_READS = {"gb18030": _GB18030, "GBK": _GB18030, "Big5": ("big5", ("big5",)),
          "EUC-JP": ("euc_jp", ("jis0208", "jis0212")), "ISO-2022-JP": ("iso_2022_jp", ("jis0208",)),
          "Shift_JIS": ("shift_jis", ("jis0208",)), "EUC-KR": ("euc_kr", ("euc-kr",))}
#: The environment variable that turns the compiled decoders off (``1``), for the Python decoders' tests.
PURE_PYTHON = "SCRAPY_WHATWG_ENCODING_PURE_PYTHON"


def extension() -> ModuleType | None:
    """The compiled extension module, or ``None`` where the package was built without it."""
    try:
        from . import c_decoders
    except ImportError:
        return None
    return c_decoders


@functools.cache
def _ranges() -> str:
    """Index gb18030 ranges code point (§5) of each pointer 0-39419, as indexes.index gives an index
    (pointers 39420-188999 are null; the index's last range, from 189000, is the compiled loop's)."""
    from .tables.gb18030_ranges import RANGES

    *ranges, last = RANGES
    assert last == (189000, 0x10000), "c_decoders.c's gb18030 loop maps pointers 189000 on to U+10000 on"
    ends = [pointer for pointer, _ in ranges[1:]] + [39420]
    table = "".join("".join(map(chr, range(code_point, code_point + end - pointer)))
                    for (pointer, code_point), end in zip(ranges, ends))
    return table[:7457] + "\ue7c7" + table[7458:]  # (step 2)


def decoder(name: str, module: ModuleType | None = None) -> Decoder | None:
    """The compiled decoder of encoding *name* (``"gb18030"``, ``"Big5"``, ``"EUC-JP"``, ``"ISO-2022-JP"``,
    ``"Shift_JIS"``, ``"EUC-KR"``; GBK's is gb18030's): ``decode(data) -> str`` over any bytes-like
    *data*, in "replacement" mode with end-of-queue, no BOM handling. ``None`` for another
    name, where the extension is absent, or where :data:`PURE_PYTHON` is ``1`` (unless *module*, the
    extension, is given: the tests' way to both twins). Loads the indexes it reads."""
    if module is None:
        if os.environ.get(PURE_PYTHON) == "1":
            return None
        module = extension()
        if module is None:
            return None
    if name not in _READS:
        return None
    function, index_names = _READS[name]
    tables = [_ranges() if index_name == "gb18030 ranges" else indexes.index(index_name) for index_name in index_names]
    return _bind(getattr(module, function), *tables)


def _bind(function: Callable[..., str], *tables: object) -> Decoder:
    def decode(data: Buffer) -> str:
        return function(data if type(data) is bytes else bytes(data), *tables)  # (a strided memoryview too)

    return decode
