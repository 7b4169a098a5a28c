"""Settings for the whole test suite."""

from __future__ import annotations

from hypothesis import settings

# Property tests check rules, not speed: on a loaded machine (other work on two cores)
# one example may take longer than Hypothesis's default deadline of 200 ms, which would
# fail a correct test. Speed is measured in benchmarks/.
settings.register_profile("gametable", deadline=None)
settings.load_profile("gametable")
