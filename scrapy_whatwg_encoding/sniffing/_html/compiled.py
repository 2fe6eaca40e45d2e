"""The compiled twins of some of this package's patterns (``c_tokens.c``), optional as the
package's other extensions are (docs/install.rst): the tokenizer's ``TAG``
(:func:`.tokenizer.tag_groups`), copies but for their numbers (:func:`.tokenizer.numbered_run_end`),
``MARKUP_START`` (:func:`.tokenizer.markup_start`), a word written or spelt in numeric
references (:func:`.charrefs.may_hold`, :meth:`.parser_scan.Hints.word_after`), ``<meta`` in
bytes (:func:`.change.find_meta_bytes`) and the script data states' steps
(:func:`.tokenizer.script_data_end`). Each reads every character once, in C,
where the patterns take up to 60-90 ns a step over a 64 KiB tag, run of copies, value of
references or escaped script (hunted, issue 37)."""
from __future__ import annotations

import os
from functools import cache
from types import ModuleType

from ...encoding.compiled import PURE_PYTHON


@cache
def compiled_tokens(pure: bool | None = None) -> ModuleType | None:
    """The extension ``c_tokens``, or ``None`` where it is not built, or where *pure* (by default,
    where :data:`.compiled.PURE_PYTHON` is ``1``): the callers then run the patterns, their plain
    twins."""
    if os.environ.get(PURE_PYTHON) == "1" if pure is None else pure:
        return None
    try:
        from . import c_tokens
    except ImportError:
        return None
    return c_tokens
