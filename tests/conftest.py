"""Hypothesis runs the same examples on every CI run (a failure there is reproducible);
set HYPOTHESIS_PROFILE=explore locally for fresh random examples."""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
