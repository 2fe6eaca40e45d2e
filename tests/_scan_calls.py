"""The parser step's work on a text, as Python calls (cProfile's count, which machine load does
not change): what the hostile-flood tests bound instead of timing."""
from __future__ import annotations

import cProfile
import pstats

from scrapy_whatwg_encoding.sniffing.parser_scan import forget, tree_builder_metas


def scan_calls(text: str, **kwargs) -> int:
    """Python calls made by ``list(tree_builder_metas(text, **kwargs))``, once the patterns it
    compiles on first use are compiled (``re`` compiles in Python: thousands of calls, counted
    only by the first test that meets them)."""
    list(tree_builder_metas(text, **kwargs))
    forget()  # (what the scan keeps of a text: each call reads it cold)
    profiler = cProfile.Profile()
    profiler.enable()
    list(tree_builder_metas(text, **kwargs))
    profiler.disable()
    return pstats.Stats(profiler).total_calls  # type: ignore[attr-defined]
