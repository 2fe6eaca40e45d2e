"""Hypothesis runs the same examples on every CI run (a failure there is reproducible);
set HYPOTHESIS_PROFILE=explore locally for fresh random examples. The tools in tools/ (page
builders, label strippers, servers) are importable from every test."""
import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
