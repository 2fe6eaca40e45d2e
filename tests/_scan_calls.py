"""The parser step's work on a text, as Python calls (cProfile's count, which machine load does
not change): what the hostile-flood tests bound instead of timing."""
from __future__ import annotations

import cProfile
import pstats

from scrapy_whatwg_encoding.sniffing.parser_scan import tree_builder_metas


def scan_calls(text: str, **kwargs) -> int:
    """Python calls made by ``list(tree_builder_metas(text, **kwargs))``."""
    profiler = cProfile.Profile()
    profiler.enable()
    list(tree_builder_metas(text, **kwargs))
    profiler.disable()
    return pstats.Stats(profiler).total_calls  # type: ignore[attr-defined]
