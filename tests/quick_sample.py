"""The quick subset's share of a parametrized test (``pytest -m "not slow"``, docs/contributing.rst):
:func:`quick_sample` marks ``slow`` every value but a few representative ones, which the quick
subset runs; the full suite runs them all."""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

import pytest


def quick_sample(values: Iterable[Any], quick: Collection[Any] | Callable[[Any], bool]) -> list[Any]:
    """*values* as ``pytest.param`` (same ids as the values themselves; a tuple is one value per
    argument name, as ``parametrize`` takes it), each marked ``slow`` unless it is in *quick*, or
    *quick* (a predicate) returns true for it. Raises ``ValueError`` if *quick* keeps none, or names
    a value that is not there."""
    values = list(values)
    keep = quick if callable(quick) else quick.__contains__
    if not callable(quick) and set(quick) - set(values):
        raise ValueError(f"not among the values: {sorted(set(quick) - set(values))}")
    params = [pytest.param(*(value if isinstance(value, tuple) else (value,)),
                           marks=() if keep(value) else pytest.mark.slow) for value in values]
    if all(param.marks for param in params):
        raise ValueError("the quick subset would keep none of these values")
    return params
